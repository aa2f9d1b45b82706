"""The ONNX importer's state: facts about every tensor, the layout and quantization helpers, the
op table and its registration decorator (the converters live in ``_ops`` and ``_nn``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ...errors import InputError, NotImplementedOpError
from ...model import ChannelQuant, ModelBuilder, OperandType

try:  # pragma: no cover - a dependency, but fail with a clear message
    import onnx
    from onnx import TensorProto
except ImportError as e:  # pragma: no cover
    raise ImportError("nnaccel's ONNX importer needs the 'onnx' package (pip install onnx)") from e

T = OperandType

#: The oldest default-domain opset imported directly (older models are converted to it first).
MIN_OPSET = 13
#: Permutations between ONNX's NCHW and NNAPI's NHWC.
TO_NHWC = (0, 2, 3, 1)
TO_NCHW = (0, 3, 1, 2)
MS_DOMAIN = "com.microsoft"

#: ONNX element type -> (NNAPI tensor type, NumPy dtype of the NNAPI operand).
ELEM_TYPES = {
    TensorProto.FLOAT: T.TENSOR_FLOAT32, TensorProto.FLOAT16: T.TENSOR_FLOAT16,
    TensorProto.INT32: T.TENSOR_INT32, TensorProto.INT64: T.TENSOR_INT32, TensorProto.BOOL: T.TENSOR_BOOL8,
    TensorProto.UINT8: T.TENSOR_QUANT8_ASYMM, TensorProto.INT8: T.TENSOR_QUANT8_ASYMM_SIGNED,
}
FLOAT_ELEMS = (TensorProto.FLOAT, TensorProto.FLOAT16)
Q8_ELEMS = (TensorProto.UINT8, TensorProto.INT8)


def elem_name(e: int) -> str:
    return TensorProto.DataType.Name(e) if e in TensorProto.DataType.values() else f"type {e}"


@dataclass(frozen=True)
class OpMapping:
    """How one ONNX op type becomes NNAPI operations.

    ``quant_tolerance`` is the largest difference (in quantized steps) the differential test
    allows between the imported model on the golden kernels and onnxruntime for 8-bit outputs, with
    ``difference`` saying why it is not 0; ``conformance`` says why node tests of the op fail.
    """

    onnx: str
    nnapi: tuple[str, ...]
    convert: Callable
    notes: str = ""
    quant_tolerance: int = 0
    difference: str = ""
    conformance: str = ""
    domain: str = ""


#: THE op-mapping table: ONNX op type -> :class:`OpMapping`.
OP_TABLE: dict[str, OpMapping] = {}


def maps(name: str, nnapi: str | tuple, notes: str = "", domain: str = "", **kw):
    """Registers the converter below it as the mapping of ONNX op type ``name``."""
    def deco(fn):
        OP_TABLE[name] = OpMapping(name, (nnapi,) if isinstance(nnapi, str) else tuple(nnapi), fn, notes,
                                   domain=domain, **kw)
        return fn
    return deco


# Why results may legitimately differ from onnxruntime (see OpMapping).
FIXED_POINT_REQUANT = ("requantization: NNAPI's reference applies the real multiplier m = s_in * s_w / s_out "
                       "(MUL: s_a * s_b / s_out) as a Q31 fixed-point multiplier followed by a rounding "
                       "right shift by n (m = q * 2^-n, q in [0.5, 1)), gemmlowp's double rounding; "
                       "onnxruntime multiplies by the float scale and rounds half to even once. Values "
                       "within 2^-(n + 1) of a half step (and exact ties) can round apart (ADD shifts its "
                       "inputs left by 20 first, so there only values within about 2^-20 of one)")
ROUND_HALF_AWAY = ("QuantizeLinear rounds half to even, NNAPI QUANTIZE half away from zero: only an "
                   "exact tie x / s = k + 0.5 rounds apart")
FIXED_POINT_LOGISTIC = ("NNAPI's quantized LOGISTIC is gemmlowp's fixed-point logistic, onnxruntime's "
                        "QLinearSigmoid a float table; a few values near a half step round apart")


@dataclass(frozen=True)
class Quant:
    """Quantization of an 8-bit tensor: scales / zero points (one, or one per ``axis`` index)."""

    scale: np.ndarray
    zero_point: np.ndarray
    axis: int | None = None
    elem: int = TensorProto.UINT8

    @property
    def per_channel(self) -> bool:
        return self.scale.size > 1

    @property
    def s(self) -> float:
        return float(self.scale.reshape(-1)[0])

    @property
    def z(self) -> int:
        return int(self.zero_point.reshape(-1)[0])

    def same(self, other: Quant | None) -> bool:
        return other is not None and not self.per_channel and not other.per_channel and \
            np.float32(self.s) == np.float32(other.s) and self.z == other.z and self.elem == other.elem


@dataclass
class Node:
    """One ONNX node: index, op type, input / output names ('' = omitted) and attributes."""

    index: int
    op: str
    domain: str
    inputs: list[str]
    outputs: list[str]
    attrs: dict

    def attr(self, name: str, default=None):
        return self.attrs.get(name, default)

    def inp(self, k: int) -> str:
        return self.inputs[k] if k < len(self.inputs) else ""


# ============================================================================= reading the file
def _parse(data: bytes, where: str):
    try:
        model = onnx.load_model_from_string(data)
    except Exception as e:  # noqa: BLE001 - protobuf raises DecodeError / RuntimeWarning variants
        raise InputError(f"The file {where} is not an ONNX model ({type(e).__name__}: {e}).") from None
    if not model.HasField("graph") or (not model.graph.node and not model.graph.output):
        raise InputError(f"The file {where} is not an ONNX model (it has no graph).")
    try:
        onnx.checker.check_model(model)
    except Exception as e:  # noqa: BLE001 - onnx.checker.ValidationError and protobuf errors
        raise InputError(f"The ONNX model {where} is invalid ({str(e).splitlines()[0]}).") from None
    opset = {o.domain or "ai.onnx": o.version for o in model.opset_import}
    version = opset.get("ai.onnx", 0)
    if version < MIN_OPSET:
        try:
            from onnx import version_converter
            model = version_converter.convert_version(model, MIN_OPSET)
        except Exception as e:  # noqa: BLE001 - the converter raises plain RuntimeErrors
            raise NotImplementedOpError(f"The ONNX model {where} uses opset {version}, which nnaccel cannot "
                                        f"convert to opset {MIN_OPSET} ({str(e).splitlines()[0]}).") from None
    try:
        inferred = onnx.shape_inference.infer_shapes(model, data_prop=True)
    except Exception as e:  # noqa: BLE001
        raise InputError(f"The ONNX model {where} fails shape inference ({str(e).splitlines()[0]}).") from None
    return inferred


def _shape_of(vi) -> tuple[int, ...] | None:
    t = vi.type.tensor_type
    if not t.HasField("shape"):
        return None
    return tuple(int(d.dim_value) if d.HasField("dim_value") else 0 for d in t.shape.dim)


# ================================================================================= the conversion
class ImportContext:
    """State of one import: the ONNX graph's facts and the NNAPI model being built.

    Every ONNX tensor is known by name. ``consts`` holds constant values, ``shapes`` / ``elems``
    the inferred shapes (ONNX layout) and element types, ``quant`` the quantization of 8-bit
    tensors, ``dq`` deferred DequantizeLinear outputs (name -> quantized tensor), ``vals`` the NNAPI
    operand of a tensor per layout (``"onnx"`` or ``"nhwc"``)."""

    def __init__(self, name: str, where: str):
        self.b = ModelBuilder(name=name)
        self.where = where
        self.consts: dict[str, np.ndarray] = {}
        self.shapes: dict[str, tuple | None] = {}
        self.elems: dict[str, int] = {}
        self.quant: dict[str, Quant] = {}
        self.dq: dict[str, str] = {}
        self.vals: dict[tuple[str, str], int] = {}
        self.consumers: dict[str, list[Node]] = {}
        self.graph_outputs: set[str] = set()
        self.skip: set[int] = set()
        self.node: Node | None = None
        self._fresh = 0
        self.pending_reshape: tuple[str, str] | None = None

    # ------------------------------------------------------------------------------- facts
    def unsupported(self, why: str):
        n = self.node
        raise NotImplementedOpError(f"ONNX node {n.index} ({n.op}) cannot be imported: {why}.")

    def shape(self, name: str) -> tuple:
        if name in self.consts:
            return tuple(self.consts[name].shape)
        s = self.shapes.get(name)
        if s is None:
            self.unsupported(f"the shape of tensor {name!r} is unknown")
        return s

    def rank(self, name: str) -> int:
        return len(self.shape(name))

    def elem(self, name: str) -> int:
        if name in self.consts:
            return _ELEM_OF_DTYPE.get(self.consts[name].dtype.type, TensorProto.UNDEFINED)
        return self.elems.get(name, TensorProto.UNDEFINED)

    def const(self, name: str) -> np.ndarray | None:
        return self.consts.get(name) if name else None

    def need_const(self, name: str, what: str) -> np.ndarray:
        v = self.const(name)
        if v is None:
            self.unsupported(f"its {what} (tensor {name!r}) is not a constant")
        return v

    def fresh(self, base: str, shape, elem: int, quant: Quant | None = None) -> str:
        """A new internal tensor name with the given facts."""
        self._fresh += 1
        name = f"{base}#{self._fresh}"
        self.shapes[name] = tuple(shape)
        self.elems[name] = elem
        if quant is not None:
            self.quant[name] = quant
        return name

    def nn_type(self, name: str) -> tuple[OperandType, float, int]:
        e = self.elem(name)
        if e not in ELEM_TYPES:
            self.unsupported(f"tensor {name!r} has element type {elem_name(e)}, which has no NNAPI type")
        ty = ELEM_TYPES[e]
        if e in Q8_ELEMS:
            q = self.quant.get(name)
            if q is None:
                return ty, 1.0, 0
            if q.per_channel:
                self.unsupported(f"tensor {name!r} is quantized per channel but is not a constant filter")
            return ty, q.s, q.z
        return ty, 0.0, 0

    def is_nhwc(self, name: str) -> bool:
        """Whether tensor ``name`` is held (only) in NHWC."""
        if name in self.dq:
            return self.is_nhwc(self.dq[name])
        return (name, "nhwc") in self.vals and (name, "onnx") not in self.vals

    # ----------------------------------------------------------------------------- operands
    def get(self, name: str, nhwc: bool = False) -> int:
        """The NNAPI operand of tensor ``name`` in ONNX layout or (a 4-D tensor) NHWC."""
        want = "nhwc" if nhwc else "onnx"
        if (name, want) in self.vals:
            return self.vals[(name, want)]
        if name in self.consts:
            v = self.consts[name]
            if nhwc:
                v = np.transpose(v, TO_NHWC)
            idx = self._const_operand(name, v)
        elif name in self.dq:
            src = self.dq[name]
            x = self.get(src, nhwc)
            idx = self._add(name, nhwc, TensorProto.FLOAT)
            self.emit("DEQUANTIZE", [x], [idx])
        elif (name, "nhwc" if not nhwc else "onnx") in self.vals:
            other = self.vals[(name, "nhwc" if not nhwc else "onnx")]
            idx = self._add(name, nhwc)
            self.emit("TRANSPOSE", [other, self.i32_tensor(TO_NHWC if nhwc else TO_NCHW)], [idx])
        else:
            raise InputError(f"The ONNX model {self.where} uses tensor {name!r}, which no node produces.")
        self.vals[(name, want)] = idx
        return idx

    def _const_operand(self, name: str, v: np.ndarray) -> int:
        e = self.elem(name)
        if e not in ELEM_TYPES:
            self.unsupported(f"constant {name!r} has element type {elem_name(e)}, which has no NNAPI type")
        ty, scale, zp = ELEM_TYPES[e], 0.0, 0
        if e == TensorProto.INT64:
            v = self.int32(v, name)
        cq = None
        if e in Q8_ELEMS:
            q = self.quant.get(name)
            if q is not None and q.per_channel:
                return self.filter_const(v, q, 0)
            scale, zp = (q.s, q.z) if q is not None else (1.0, 0)
        dims = v.shape if v.ndim else (1,)
        return self.b.add_constant(ty, v.reshape(dims), dims, scale=scale, zero_point=zp, channel_quant=cq,
                                   name=name)

    def int32(self, v: np.ndarray, name: str = "") -> np.ndarray:
        if v.size and (v.min() < -(2**31) or v.max() >= 2**31):
            self.unsupported(f"constant {name!r} holds int64 values outside the int32 range")
        return v.astype(np.int32)

    def _add(self, name: str, nhwc: bool, elem: int | None = None) -> int:
        shape = self.shape(name)
        if nhwc:
            if len(shape) != 4:
                self.unsupported(f"tensor {name!r} is not 4-D and cannot be held in NHWC")
            shape = tuple(shape[p] for p in TO_NHWC)
        if elem is not None:
            ty, scale, zp = ELEM_TYPES[elem], 0.0, 0
        else:
            ty, scale, zp = self.nn_type(name)
        return self.b.add_operand(ty, shape if shape else (1,), scale, zp, name=name)

    def out(self, name: str, nhwc: bool = False) -> int:
        """Creates the NNAPI operand a converter writes ONNX tensor ``name`` into."""
        idx = self._add(name, nhwc)
        self.vals[(name, "nhwc" if nhwc else "onnx")] = idx
        return idx

    def alias(self, dst: str, src: str) -> None:
        """Tensor ``dst`` is tensor ``src`` (Identity, Dropout, a matching DQ -> Q pair)."""
        if src in self.consts:
            self.consts[dst] = self.consts[src]
            return
        if src in self.dq:
            self.dq[dst] = self.dq[src]
            return
        for lay in ("onnx", "nhwc"):
            if (src, lay) in self.vals:
                self.vals[(dst, lay)] = self.vals[(src, lay)]

    # ---------------------------------------------------------------------------- scalars
    def i32(self, v: int) -> int:
        return self.b.add_constant(T.INT32, int(v))

    def boolean(self, v: bool) -> int:
        return self.b.add_constant(T.BOOL, bool(v))

    def f32(self, v: float, like: str = "") -> int:
        if like and self.elem(like) == TensorProto.FLOAT16:
            return self.b.add_constant(T.FLOAT16, float(v))
        return self.b.add_constant(T.FLOAT32, float(v))

    def i32_tensor(self, values) -> int:
        arr = np.asarray(values, dtype=np.int64).reshape(-1)
        return self.b.add_constant(T.TENSOR_INT32, arr.astype(np.int32), arr.shape)

    def float_const(self, values, like: str = "") -> int:
        arr = np.asarray(values, dtype=np.float64)
        arr = arr.reshape(1) if arr.ndim == 0 else arr
        ty = T.TENSOR_FLOAT16 if like and self.elem(like) == TensorProto.FLOAT16 else T.TENSOR_FLOAT32
        return self.b.add_constant(ty, arr, arr.shape)

    def emit(self, nnapi: str, inputs, outputs) -> None:
        self.b.add_operation(nnapi, inputs, outputs)

    # ------------------------------------------------------------------------ quantization
    def qof(self, name: str) -> Quant:
        """The quantization of 8-bit tensor ``name`` (its parameters must be constants)."""
        q = self.quant.get(name)
        if q is None:
            self.unsupported(f"the quantization parameters of tensor {name!r} are not constants")
        return q

    def dq_source(self, name: str) -> str | None:
        """The quantized tensor a deferred (non-constant) DQ output ``name`` dequantizes, or None."""
        src = self.dq.get(name)
        if src is None or src in self.consts:
            return None
        q = self.quant.get(src)
        return src if q is not None and not q.per_channel else None

    def dq_weight(self, name: str) -> tuple[np.ndarray, Quant] | None:
        """The quantized constant and its quantization behind a DQ output ``name``, or None."""
        src = self.dq.get(name)
        if src is None or src not in self.consts or src not in self.quant:
            return None
        return self.consts[src], self.quant[src]

    def q_output(self, node: Node) -> tuple[str, int] | None:
        """When the node's only output goes only into one QuantizeLinear (per tensor, 8-bit),
        possibly through one Relu / Clip(0, 6) / Clip(-1, 1): the QuantizeLinear's output and the
        NNAPI fuse code; the nodes in between are marked done."""
        y = node.outputs[0]
        fuse, chain = 0, []
        for _ in range(2):
            users = self.consumers.get(y, [])
            if y in self.graph_outputs or len(users) != 1:
                return None
            u = users[0]
            if u.op == "QuantizeLinear" and u.domain == "":
                q = self.quant.get(u.outputs[0])
                if q is None or q.per_channel:
                    return None
                self.skip.update(n.index for n in [*chain, u])
                return u.outputs[0], fuse
            code = self._fusable(u)
            if code is None or chain:
                return None
            fuse, chain, y = code, [u], u.outputs[0]
        return None

    def _fusable(self, u: Node) -> int | None:
        if u.op == "Relu":
            return 1
        if u.op == "Clip":
            lo, hi = self.const(u.inp(1)), self.const(u.inp(2))
            lo = -np.inf if not u.inp(1) else (None if lo is None else float(lo.reshape(-1)[0]))
            hi = np.inf if not u.inp(2) else (None if hi is None else float(hi.reshape(-1)[0]))
            return {(0.0, 6.0): 3, (-1.0, 1.0): 2, (0.0, np.inf): 1}.get((lo, hi))
        return None

    def filter_const(self, w: np.ndarray, q: Quant, channel_dim: int) -> int:
        """An 8-bit constant filter: per-channel (zero points 0) -> QUANT8_SYMM_PER_CHANNEL."""
        if q.per_channel:
            if np.any(q.zero_point != 0):
                self.unsupported("its per-channel weights have non-zero zero points (NNAPI's per-channel "
                                 "type is symmetric)")
            if w.dtype != np.int8:
                self.unsupported("its per-channel weights are not int8")
            return self.b.add_constant(T.TENSOR_QUANT8_SYMM_PER_CHANNEL, w, w.shape,
                                       channel_quant=ChannelQuant(tuple(float(s) for s in q.scale.reshape(-1)),
                                                                  channel_dim))
        ty = T.TENSOR_QUANT8_ASYMM if w.dtype == np.uint8 else T.TENSOR_QUANT8_ASYMM_SIGNED
        return self.b.add_constant(ty, w, w.shape, scale=q.s, zero_point=q.z)


_ELEM_OF_DTYPE = {np.float32: TensorProto.FLOAT, np.float16: TensorProto.FLOAT16, np.int32: TensorProto.INT32,
                  np.int64: TensorProto.INT64, np.bool_: TensorProto.BOOL, np.uint8: TensorProto.UINT8,
                  np.int8: TensorProto.INT8, np.float64: TensorProto.DOUBLE, np.int16: TensorProto.INT16,
                  np.uint16: TensorProto.UINT16, np.uint32: TensorProto.UINT32, np.uint64: TensorProto.UINT64}


def _pick_layout(c: ImportContext, names) -> bool:
    """Whether an elementwise op on ``names`` should run in NHWC: some non-constant input is held
    only in NHWC and every non-constant input is 4-D."""
    live = [n for n in names if n and n not in c.consts]
    return bool(live) and any(c.is_nhwc(n) for n in live) and all(c.rank(n) == 4 for n in live)


def _operand_in(c: ImportContext, name: str, nhwc: bool, out_rank: int) -> int:
    """Input ``name`` of an elementwise op in the chosen layout; a constant is broadcast to the
    output's rank first (numpy rules) so that it can be permuted."""
    if nhwc and name in c.consts:
        v = c.consts[name]
        v = v.reshape((1,) * (out_rank - v.ndim) + v.shape)
        key = (name, "nhwc")
        if key not in c.vals:
            c.vals[key] = c._const_operand(name, np.transpose(v, TO_NHWC))
        return c.vals[key]
    return c.get(name, nhwc)


def _dims(c: ImportContext, name: str, nhwc: bool) -> tuple:
    """The NNAPI dimensions of tensor ``name`` in the chosen layout."""
    s = c.shape(name)
    return tuple(s[p] for p in TO_NHWC) if nhwc else (s if s else (1,))
