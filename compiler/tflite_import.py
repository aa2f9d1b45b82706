"""Imports a ``.tflite`` model into an nnaccel (NNAPI) :class:`~nnaccel.model.Model`.

The mapping follows what TFLite's NNAPI delegate does when it hands a graph to an NNAPI driver:

* tensor types become NNAPI operand types: float32 -> ``TENSOR_FLOAT32``, float16 ->
  ``TENSOR_FLOAT16``, int32 -> ``TENSOR_INT32`` (a quantized int32 bias keeps its scale, or scale 0
  when its filter is per-channel), uint8 -> ``TENSOR_QUANT8_ASYMM``, int8 ->
  ``TENSOR_QUANT8_ASYMM_SIGNED`` or, with one scale per channel, ``TENSOR_QUANT8_SYMM_PER_CHANNEL``
  (channel dimension = TFLite's ``quantized_dimension``), bool -> ``TENSOR_BOOL8``, int64 ->
  ``TENSOR_INT32`` (constants are range-checked; ARG_MAX / ARG_MIN int64 outputs come out int32);
* op parameters that TFLite keeps in options or constant tensors become NNAPI scalar / tensor
  operands (implicit SAME / VALID padding, strides, dilations, depth multiplier, fused activation);
* sparse constants (``Tensor.sparsity``: DENSE / SPARSE_CSR levels, blocks, uint8 / uint16 / int32
  index vectors) are densified (:mod:`nnaccel.compiler.tflite_sparse`);
* ``DENSIFY`` of a constant and ``DEQUANTIZE`` of a constant (float16 or int8 weights) are folded:
  DENSIFY's output becomes the dense constant, DEQUANTIZE's a float32 constant, and the operation
  disappears;
* a dimension that ``shape_signature`` marks dynamic (-1) takes the size of the static ``shape``
  (what LiteRT allocates before any resize; a Keras export has batch 1 there), a leading one the
  ``batch`` given to the import, or the size that the inputs' shapes give (:func:`import_tflite_bytes`);
* ops NNAPI lacks are decomposed (see :data:`OP_TABLE`).

:data:`OP_TABLE` is THE op mapping: one :class:`OpMapping` per TFLite builtin operator, with the
NNAPI operation(s) it becomes, the converter, notes and any known difference from LiteRT's
reference kernels. ``docs/tflite.md`` is generated from it (``python -m
nnaccel.compiler.tflite_import --write-doc docs/tflite.md``).

The imported model's inputs / outputs are the TFLite subgraph's inputs / outputs in order.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..errors import InputError, NotImplementedOpError
from ..model import ChannelQuant, Model, ModelBuilder, OperandType
from ..quant import FUSED_ACTIVATIONS
from .tflite_sparse import DENSE, SPARSE_CSR, Level, SparsityError, densify

T = OperandType

# TFLite enums, read from the generated schema package (no hand-copied numbers).
try:  # pragma: no cover - the package is a dependency, but fail with a clear message
    import flatbuffers
    import tflite
    from tflite.BuiltinOperator import BuiltinOperator
    from tflite.BuiltinOptions import BuiltinOptions
    from tflite.DimensionType import DimensionType
    from tflite.TensorType import TensorType
except ImportError as e:  # pragma: no cover
    raise ImportError("nnaccel's TFLite importer needs the 'tflite' package (pip install tflite)") from e


def _enum_names(cls) -> dict[int, str]:
    return {v: k for k, v in vars(cls).items() if not k.startswith("_") and isinstance(v, int)}


OPERATOR_NAMES = _enum_names(BuiltinOperator)
OPTION_NAMES = _enum_names(BuiltinOptions)
TENSOR_TYPE_NAMES = _enum_names(TensorType)
DIMENSION_TYPE_NAMES = _enum_names(DimensionType)

#: TFLite ``Padding`` -> NNAPI implicit ``PaddingCode`` (SAME = 1, VALID = 2).
PADDING_CODES = {0: 1, 1: 2}
#: TFLite ``ActivationFunctionType`` values 0-3 (NONE, RELU, RELU_N1_TO_1, RELU6) are NNAPI's FuseCode
#: (``nnaccel.quant.FUSED_ACTIVATIONS``). A fused activation applied as a separate NNAPI op where the
#: NNAPI op has no activation input (TFLite's 4 is TANH).
ACTIVATION_OPS = {**{code: name for code, name in FUSED_ACTIVATIONS.items() if code}, 4: "TANH"}


@dataclass
class TflTensor:
    """One TFLite tensor as the importer sees it."""

    index: int
    name: str
    dtype: str                    # TensorType name: FLOAT32, INT8 ...
    shape: tuple[int, ...]        # static shape, dynamic dimensions resolved (see _resolve_shapes)
    scales: np.ndarray | None
    zero_points: np.ndarray | None
    quantized_dimension: int
    data: np.ndarray | None       # the constant value (densified when sparse), or None
    signature: tuple[int, ...] | None = None  # shape_signature (-1 = dynamic), when the file has one

    @property
    def is_quantized(self) -> bool:
        return self.scales is not None and len(self.scales) > 0 and float(self.scales[0]) != 0.0

    @property
    def per_channel(self) -> bool:
        return self.scales is not None and len(self.scales) > 1

    @property
    def scale(self) -> float:
        return float(self.scales[0]) if self.is_quantized else 0.0

    @property
    def zero_point(self) -> int:
        return int(self.zero_points[0]) if self.zero_points is not None and len(self.zero_points) else 0


@dataclass
class TflOp:
    """One TFLite operator: its name, tensor indexes (-1 = omitted) and options table."""

    index: int
    name: str
    inputs: list[int]
    outputs: list[int]
    options: object | None

    def opt(self, field: str, default=0):
        """An option field's value (``default`` when the operator has no options table)."""
        return default if self.options is None else getattr(self.options, field)()


@dataclass(frozen=True)
class OpMapping:
    """How one TFLite builtin operator becomes NNAPI operations.

    ``quant_tolerance`` is the largest difference (in quantized steps) allowed between the imported
    model on the golden kernels and LiteRT's reference kernels for 8-bit types, with ``difference``
    saying why it is not 0; the differential test and docs/tflite.md both read it from here.
    """

    tflite: str
    nnapi: tuple[str, ...]
    convert: Callable
    notes: str = ""
    quant_tolerance: int = 0
    difference: str = ""
    float_tolerance: float = 1e-5


#: THE op-mapping table: TFLite builtin operator name -> :class:`OpMapping`.
OP_TABLE: dict[str, OpMapping] = {}

def maps(tfl: str, nnapi: str | tuple, notes: str = "", quant_tolerance: int = 0, difference: str = "",
         float_tolerance: float = 1e-5):
    """Registers the converter below it as the mapping of TFLite operator ``tfl``."""
    def deco(fn):
        OP_TABLE[tfl] = OpMapping(tfl, (nnapi,) if isinstance(nnapi, str) else tuple(nnapi), fn, notes,
                                  quant_tolerance, difference, float_tolerance)
        return fn
    return deco


def register_all(names: str, nnapi_of: Callable[[str], str], factory: Callable, notes: str = "",
                 also: tuple = (), **kw):
    """Registers one converter factory for several same-shaped operators; ``also`` lists further
    NNAPI ops their decompositions may emit."""
    for name in names.split():
        nn = nnapi_of(name)
        maps(name, (nn, *also), notes, **kw)(factory(nn))


# ============================================================================ reading the flatbuffer
def _read_model(data: bytes, where: str):
    if len(data) < 8 or data[4:8] != b"TFL3":
        raise InputError(f"The file {where} is not a TFLite model (no 'TFL3' flatbuffer identifier).")
    try:
        model = tflite.Model.GetRootAs(data, 0)
        if model.SubgraphsLength() < 1:
            raise InputError(f"The TFLite model {where} has no subgraph.")
        return model
    except InputError:
        raise
    except Exception as e:  # noqa: BLE001 - flatbuffers raises struct / index errors on corrupt files
        raise InputError(f"The TFLite model {where} is corrupt ({type(e).__name__}: {e}).") from None


def _buffer_bytes(model, data: bytes, index: int, where: str) -> bytes:
    buf = model.Buffers(index)
    if buf is None:
        return b""
    offset, size = buf.Offset(), buf.Size()
    if offset > 1:  # stored after the flatbuffer (offset relative to the file start)
        if offset + size > len(data):
            raise InputError(f"The TFLite model {where} is truncated: buffer {index} lies at bytes "
                             f"{offset}..{offset + size} of a {len(data)}-byte file.")
        return bytes(data[offset:offset + size])
    if buf.DataIsNone() or buf.DataLength() == 0:
        return b""
    return buf.DataAsNumpy().tobytes()


#: TFLite ``TensorType`` name -> NumPy dtype of the stored data.
NUMPY_DTYPES = {"FLOAT32": np.float32, "FLOAT16": np.float16, "FLOAT64": np.float64, "INT32": np.int32,
                "UINT8": np.uint8, "INT8": np.int8, "INT16": np.int16, "INT64": np.int64, "BOOL": np.bool_,
                "UINT32": np.uint32, "UINT16": np.uint16}


def _read_tensor(model, sg, data: bytes, i: int, where: str) -> TflTensor:
    t = sg.Tensors(i)
    dtype = TENSOR_TYPE_NAMES.get(t.Type(), f"type {t.Type()}")
    shape = tuple(max(int(s), 0) for s in t.ShapeAsNumpy()) if t.ShapeLength() else ()
    signature = None
    if t.ShapeSignatureLength():
        signature = tuple(int(s) for s in t.ShapeSignatureAsNumpy())
        if len(signature) != len(shape):
            raise InputError(f"The TFLite model {where} is corrupt: tensor {i} has shape {list(shape)} but "
                             f"shape_signature {list(signature)}.")
    q = t.Quantization()
    scales = zps = None
    qdim = 0
    if q is not None and q.ScaleLength():
        scales = q.ScaleAsNumpy().astype(np.float64)
        zps = q.ZeroPointAsNumpy().astype(np.int64) if q.ZeroPointLength() else np.zeros(len(scales), np.int64)
        qdim = q.QuantizedDimension()
    raw = _buffer_bytes(model, data, t.Buffer(), where) if t.Buffer() > 0 else b""
    name = t.Name().decode(errors="replace") if t.Name() else f"tensor{i}"
    value = None
    if raw:
        if dtype not in NUMPY_DTYPES:
            raise NotImplementedOpError(f"Tensor {i} ({name}) has TFLite type {dtype}, which nnaccel cannot "
                                        f"import.")
        np_dtype = np.dtype(NUMPY_DTYPES[dtype])
        if len(raw) % np_dtype.itemsize:
            raise InputError(f"The TFLite model {where} is corrupt: tensor {i} ({dtype}) has a buffer of "
                             f"{len(raw)} bytes, not a whole number of values.")
        value = np.frombuffer(raw, np_dtype)
        if t.Sparsity() is not None:
            value = _densified(t.Sparsity(), shape, value, i, where)
        elif value.size != math.prod(shape):
            raise InputError(f"The TFLite model {where} is corrupt: tensor {i} has shape {list(shape)} "
                             f"but its buffer holds {len(raw)} bytes.")
        value = value.reshape(shape).copy()
    return TflTensor(i, name, dtype, shape, scales, zps, qdim, value, signature)


#: ``SparseIndexVector`` union member -> the table class holding its ``values`` vector.
_INDEX_VECTORS = {1: tflite.Int32Vector, 2: tflite.Uint16Vector, 3: tflite.Uint8Vector}


def _index_vector(kind: int, table, what: str) -> np.ndarray:
    cls = _INDEX_VECTORS.get(kind)
    if cls is None or table is None:
        raise SparsityError(f"its {what} is missing (index vector type {kind})")
    vec = cls()
    vec.Init(table.Bytes, table.Pos)
    return vec.ValuesAsNumpy().astype(np.int64) if vec.ValuesLength() else np.zeros(0, np.int64)


def _densified(sp, shape, values: np.ndarray, i: int, where: str) -> np.ndarray:
    """The dense value of sparse constant tensor ``i`` (see :mod:`nnaccel.compiler.tflite_sparse`)."""
    try:
        order = [int(d) for d in sp.TraversalOrderAsNumpy()] if sp.TraversalOrderLength() else []
        block_map = [int(d) for d in sp.BlockMapAsNumpy()] if sp.BlockMapLength() else []
        levels = []
        for lv in range(sp.DimMetadataLength()):
            m = sp.DimMetadata(lv)
            fmt = DIMENSION_TYPE_NAMES.get(m.Format(), f"format {m.Format()}")
            if fmt == DENSE:
                levels.append(Level(DENSE, dense_size=int(m.DenseSize())))
            elif fmt == SPARSE_CSR:
                levels.append(Level(SPARSE_CSR, segments=_index_vector(
                    m.ArraySegmentsType(), m.ArraySegments(), f"array_segments of level {lv}"),
                    indices=_index_vector(m.ArrayIndicesType(), m.ArrayIndices(), f"array_indices of level {lv}")))
            else:
                raise SparsityError(f"level {lv} has the unknown dimension type {fmt}")
        return densify(shape, order, block_map, levels, values)
    except SparsityError as e:
        raise InputError(f"The TFLite model {where} is corrupt: the sparsity parameters of tensor {i} (shape "
                         f"{list(shape)}) are invalid: {e}.") from None


def _read_options(op):
    kind = op.BuiltinOptionsType()
    if not kind:
        return None
    cls = getattr(tflite, OPTION_NAMES.get(kind, ""), None)
    table = op.BuiltinOptions()
    if cls is None or table is None:
        return None
    obj = cls()
    obj.Init(table.Bytes, table.Pos)
    return obj


#: Offset of ``OperatorCode.builtin_code`` (field 3 of the table in schema.fbs) in the table's vtable.
_BUILTIN_CODE_VTABLE_OFFSET = 4 + 2 * 3


def _raw_builtin_code(code) -> int:
    """``OperatorCode.builtin_code`` as stored (0 when absent). The ``tflite`` package's
    ``BuiltinCode()`` returns ``deprecated_builtin_code`` instead whenever the stored value is below
    127, which hides the code of files that set only ``builtin_code`` (ai-edge-quantizer writes
    QUANTIZE 114 and DEQUANTIZE 6 so)."""
    o = code._tab.Offset(_BUILTIN_CODE_VTABLE_OFFSET)
    return int(code._tab.Get(flatbuffers.number_types.Int32Flags, o + code._tab.Pos)) if o else 0


def _opcode_name(code) -> str:
    """An OperatorCode's name: the schema's ``max(builtin_code, deprecated_builtin_code)``;
    ``deprecated_builtin_code`` (int8) is the only field of files before schema 3a and holds 127 for
    codes above it, ``builtin_code`` (int32) is 0 in old files and may be the only one set in new ones."""
    builtin = max(code.DeprecatedBuiltinCode(), _raw_builtin_code(code))
    name = OPERATOR_NAMES.get(builtin, f"BUILTIN_{builtin}")
    if name == "CUSTOM":
        custom = code.CustomCode()
        return f"CUSTOM:{custom.decode(errors='replace') if custom else '?'}"
    return name


# ================================================================================= the conversion
class ImportContext:
    """State of one import: the TFLite graph and the NNAPI model being built."""

    def __init__(self, tensors: list[TflTensor], name: str):
        self.tensors = tensors
        self.b = ModelBuilder(name=name, origin="tflite")  # golden kernels follow LiteRT (Model.origin)
        self.operands: dict[int, int] = {}
        self.folded: dict[int, np.ndarray] = {}   # tensor index -> constant value replacing it
        self.op: TflOp | None = None

    # ----------------------------------------------------------------------------- tensor helpers
    def t(self, i: int) -> TflTensor:
        return self.tensors[i]

    def const(self, i: int) -> np.ndarray | None:
        """The constant value of tensor ``i`` (folded DEQUANTIZE results included), or None."""
        if i < 0:
            return None
        if i in self.folded:
            return self.folded[i]
        return self.tensors[i].data

    def need_const(self, i: int, what: str) -> np.ndarray:
        v = self.const(i)
        if v is None:
            self.unsupported(f"its {what} (tensor {self.t(i).name}) is not a constant")
        return v

    def unsupported(self, why: str):
        raise NotImplementedOpError(f"TFLite operator {self.op.index} ({self.op.name}) cannot be imported: "
                                    f"{why}.")

    def nn_type(self, t: TflTensor) -> tuple[OperandType, float, int, ChannelQuant | None]:
        """NNAPI type, scale, zero point and channel quantization of TFLite tensor ``t``."""
        d = t.dtype
        if d == "FLOAT32":
            return T.TENSOR_FLOAT32, 0.0, 0, None
        if d == "FLOAT16":
            return T.TENSOR_FLOAT16, 0.0, 0, None
        if d in ("INT32", "INT64"):
            return T.TENSOR_INT32, (t.scale if not t.per_channel else 0.0), 0, None
        if d == "BOOL":
            return T.TENSOR_BOOL8, 0.0, 0, None
        if d == "UINT8":
            return T.TENSOR_QUANT8_ASYMM, (t.scale if t.is_quantized else 1.0), t.zero_point, None
        if d == "INT8":
            if t.per_channel:
                return (T.TENSOR_QUANT8_SYMM_PER_CHANNEL, 0.0, 0,
                        ChannelQuant(tuple(float(s) for s in t.scales), t.quantized_dimension))
            return T.TENSOR_QUANT8_ASYMM_SIGNED, (t.scale if t.is_quantized else 1.0), t.zero_point, None
        if d == "INT16" and t.is_quantized:
            return T.TENSOR_QUANT16_SYMM, t.scale, 0, None
        raise NotImplementedOpError(f"Tensor {t.index} ({t.name}) has TFLite type {d}, which has no NNAPI "
                                    f"operand type nnaccel imports.")

    def operand(self, i: int) -> int:
        """The NNAPI operand of TFLite tensor ``i`` (created on first use)."""
        if i in self.operands:
            return self.operands[i]
        t = self.tensors[i]
        value = self.const(i)
        if i in self.folded:
            idx = self.b.add_constant(T.TENSOR_FLOAT32, value, t.shape, name=t.name)
        else:
            ty, scale, zp, cq = self.nn_type(t)
            idx = self.b.add_operand(ty, t.shape, scale, zp, cq, name=t.name)
            if value is not None:
                if t.dtype == "INT64":
                    value = self._int64_to_int32(t, value)
                self.b.set_operand_value(idx, value)
        self.operands[i] = idx
        return idx

    def _int64_to_int32(self, t: TflTensor, value: np.ndarray) -> np.ndarray:
        if value.size and (value.min() < -(2**31) or value.max() >= 2**31):
            raise NotImplementedOpError(f"Tensor {t.index} ({t.name}) holds int64 values outside the "
                                        f"int32 range, which NNAPI cannot represent.")
        return value.astype(np.int32)

    def temp(self, like: int, shape=None, dtype: OperandType | None = None) -> int:
        """A new temporary operand with the type / quantization of tensor ``like``."""
        t = self.tensors[like]
        ty, scale, zp, cq = self.nn_type(t)
        if dtype is not None:
            ty, scale, zp, cq = dtype, 0.0, 0, None
        return self.b.add_operand(ty, t.shape if shape is None else shape, scale, zp, cq)

    # ---------------------------------------------------------------------------- scalar helpers
    def i32(self, v: int) -> int:
        return self.b.add_constant(T.INT32, int(v))

    def boolean(self, v: bool) -> int:
        return self.b.add_constant(T.BOOL, bool(v))

    def fscalar(self, v: float, like: int) -> int:
        """A float scalar of the NNAPI type matching tensor ``like`` (FLOAT16 for float16 tensors)."""
        return self.b.add_constant(T.FLOAT16 if self.tensors[like].dtype == "FLOAT16" else T.FLOAT32,
                                   float(v))

    def i32_tensor(self, values) -> int:
        """A TENSOR_INT32 constant of ``values``' shape (a scalar becomes shape [1])."""
        arr = np.asarray(values, dtype=np.int64)
        arr = arr.reshape(1) if arr.ndim == 0 else arr
        return self.b.add_constant(T.TENSOR_INT32, arr.astype(np.int32), arr.shape)

    def emit(self, nnapi: str, inputs, outputs) -> None:
        self.b.add_operation(nnapi, inputs, outputs)

    def fused(self, act: int) -> int:
        if act not in FUSED_ACTIVATIONS:
            self.unsupported(f"its fused activation {act} has no NNAPI FuseCode (only NONE, RELU, "
                             f"RELU_N1_TO_1 and RELU6 do)")
        return act

    def emit_then_activation(self, nnapi: str, inputs, out_tensor: int, act: int) -> None:
        """Emits ``nnapi`` and, for a fused activation the NNAPI op lacks, a separate activation op."""
        if act == 0:
            self.emit(nnapi, inputs, [self.operand(out_tensor)])
            return
        if act not in ACTIVATION_OPS:
            self.unsupported(f"its fused activation {act} has no NNAPI counterpart")
        tmp = self.temp(out_tensor)
        self.emit(nnapi, inputs, [tmp])
        self.emit(ACTIVATION_OPS[act], [tmp], [self.operand(out_tensor)])

    def emit_same_quant(self, nnapi: str, inputs, in_tensor: int, out_tensor: int) -> None:
        """Emits ``nnapi`` (the RELU family), whose NNAPI form needs the output quantized like the
        input. When the TFLite output has another scale / zero point (NNAPI has no requantize op),
        a PRELU of unit alpha first rescales into the output's quantization
        (:meth:`rescale_float32_quotient`, LiteRT's ``ReluX`` multiplier), then the op, whose clamp
        bounds are then LiteRT's (quantized in the output's scale)."""
        x, y = self.tensors[in_tensor], self.tensors[out_tensor]
        if x.dtype not in ("INT8", "UINT8") or x.dtype != y.dtype or (
                x.scale == y.scale and x.zero_point == y.zero_point):
            self.emit(nnapi, inputs, [self.operand(out_tensor)])
            return
        ty, scale, zp, _ = self.nn_type(y)
        tmp = self.b.add_operand(ty, x.shape, scale, zp)
        self.rescale_float32_quotient(inputs[0], in_tensor, tmp)
        self.emit(nnapi, [tmp, *inputs[1:]], [self.operand(out_tensor)])

    def _float_requantize(self, src: int, dst: int, shape) -> None:
        f = self.b.add_operand(T.TENSOR_FLOAT32, shape)
        self.emit("DEQUANTIZE", [src], [f])
        self.emit("QUANTIZE", [f], [dst])

    def rescale_float32_quotient(self, src: int, like: int, dst: int) -> None:
        """Operand ``src`` (quantized as TFLite tensor ``like``) -> operand ``dst`` (same type,
        another quantization) as LiteRT's quantized RELU family rescales:
        ``z_out + mbqm(q - z_in, quantize_multiplier(float32(s_in / s_out)))``. That is a PRELU of
        the one-element alpha ``q - z = 1``, scale 1 in a TFLite model (``Model.origin``): both
        of its multipliers are then ``float32(s_in / s_out)``."""
        x = self.tensors[like]
        ty, _, _, _ = self.nn_type(x)
        alpha = self.b.add_constant(ty, [1], (1,) * max(len(x.shape), 1), scale=1.0, zero_point=0)
        self.emit("PRELU", [src, alpha], [dst])

    def requantize(self, src: int, in_tensor: int, out_tensor: int) -> None:
        """Operand ``src`` (quantized as TFLite tensor ``in_tensor``) -> TFLite tensor
        ``out_tensor``'s quantization as LiteRT's ``Requantize``:
        ``clamp(mbqm(q - z_in, quantize_multiplier(double(s_in) / double(s_out))) + z_out)``.

        NNAPI has no requantize operation; in a TFLite model (``Model.origin``) MEAN is LiteRT's
        ``QuantizedMeanOrSum``, which over one element is exactly that. So: a MEAN over a size-1
        axis (an existing one, kept; or one EXPAND_DIMS adds, dropped; or of a RESHAPE to
        ``[-1, 1]``, reshaped back). Between int8 and uint8 the MEAN keeps the input's type (zero
        point ``z_out ∓ 128``), and DEQUANTIZE + QUANTIZE to the same scale (exact) shifts the
        stored values by 128. A shape none of these fits (rank 0; rank 4 without a size-1 axis and
        with more than one unknown dimension) falls back to DEQUANTIZE + QUANTIZE."""
        x, y = self.tensors[in_tensor], self.tensors[out_tensor]
        dst = self.operand(out_tensor)
        shape = y.shape
        if x.dtype not in ("INT8", "UINT8") or y.dtype not in ("INT8", "UINT8") or not shape or (
                len(shape) == 4 and 1 not in shape and sum(d == 0 for d in shape) > 1):
            self._float_requantize(src, dst, shape)
            return
        ty = self.nn_type(x)[0]   # the MEAN's type (the input's)
        mean_zp = y.zero_point + (0 if x.dtype == y.dtype else 128 if x.dtype == "UINT8" else -128)
        mean_out = dst if x.dtype == y.dtype else self.b.add_operand(ty, shape, y.scale, mean_zp)
        if 1 in shape:
            self.emit("MEAN", [src, self.i32_tensor([shape.index(1)]), self.i32(1)], [mean_out])
        elif len(shape) < 4:
            wide = self.b.add_operand(ty, shape + (1,), x.scale, x.zero_point)
            self.emit("EXPAND_DIMS", [src, self.i32(len(shape))], [wide])
            self.emit("MEAN", [wide, self.i32_tensor([len(shape)]), self.i32(0)], [mean_out])
        else:
            n = math.prod(shape)
            col = self.b.add_operand(ty, (n, 1), x.scale, x.zero_point)
            self.emit("RESHAPE", [src, self.i32_tensor([-1, 1])], [col])
            col_out = self.b.add_operand(ty, (n, 1), y.scale, mean_zp)
            self.emit("MEAN", [col, self.i32_tensor([1]), self.i32(1)], [col_out])
            self.emit("RESHAPE", [col_out, self.i32_tensor([d if d else -1 for d in shape])], [mean_out])
        if mean_out != dst:
            f = self.b.add_operand(T.TENSOR_FLOAT32, shape)
            self.emit("DEQUANTIZE", [mean_out], [f])
            self.emit("QUANTIZE", [f], [dst])

    def bias(self, bias_t: int, in_t: int, filt_t: int, units: int) -> int:
        """The NNAPI bias operand: float as given, or TENSOR_INT32 with scale ``s_in * s_filter``
        (per-tensor filter) / 0 (per-channel filter, as NNAPI requires); zeros when omitted."""
        x, w = self.tensors[in_t], self.tensors[filt_t]
        value = self.const(bias_t) if bias_t >= 0 else None
        if x.dtype in ("UINT8", "INT8"):
            scale = 0.0 if w.per_channel else x.scale * w.scale
            if bias_t >= 0 and value is None:
                return self.operand(bias_t)
            arr = np.zeros(units, np.int32) if value is None else value.astype(np.int32)
            return self.b.add_constant(T.TENSOR_INT32, arr, (units,), scale=scale)
        if bias_t >= 0:
            return self.operand(bias_t)
        ty = T.TENSOR_FLOAT16 if x.dtype == "FLOAT16" else T.TENSOR_FLOAT32
        return self.b.add_constant(ty, np.zeros(units), (units,))

    def filter(self, i: int, in_t: int) -> int:
        """A filter operand; a per-channel filter's zero points must be 0 (NNAPI's SYMM type).

        A hybrid op (float input, constant 8-bit weights: TFLite's dynamic-range quantization)
        gets its weights dequantized into a float32 constant, as NNAPI has no hybrid ops."""
        t = self.tensors[i]
        if self.tensors[in_t].dtype in ("FLOAT32", "FLOAT16") and t.dtype in ("INT8", "UINT8"):
            value = self.need_const(i, "quantized weights of a float op")
            return self.b.add_constant(T.TENSOR_FLOAT32, dequantized(t, value), t.shape, name=t.name)
        if t.per_channel and t.zero_points is not None and np.any(t.zero_points != 0):
            self.unsupported(f"its per-channel filter {t.name} has non-zero zero points")
        return self.operand(i)


# ======================================================================================= converters
def _x(c, op, k=0):
    return c.operand(op.inputs[k])


def _out(c, op, k=0):
    return c.operand(op.outputs[k])


@maps("ADD", "ADD", "fused activation -> FuseCode")
@maps("SUB", "SUB", "fused activation -> FuseCode")
@maps("MUL", "MUL", "fused activation -> FuseCode")
@maps("DIV", "DIV", "fused activation -> FuseCode; NNAPI DIV is float only")
def _binary_act(c, op):
    a, b, y = (c.t(i) for i in (*op.inputs[:2], op.outputs[0]))
    if op.name == "MUL" and y.dtype in ("INT8", "UINT8") and not y.scale > a.scale * b.scale:
        c.unsupported(f"NNAPI requires a quantized MUL's output scale ({y.scale:g}) to exceed the product "
                      f"of the input scales ({a.scale * b.scale:g})")
    c.emit(op.name, [_x(c, op, 0), _x(c, op, 1), c.i32(c.fused(op.opt("FusedActivationFunction")))],
           [_out(c, op)])


@maps("SQUARE", "MUL", "x * x")
def _square(c, op):
    x = _x(c, op)
    c.emit("MUL", [x, x, c.i32(0)], [_out(c, op)])


def _conv_common(c, op):
    stride_w, stride_h = op.opt("StrideW", 1), op.opt("StrideH", 1)
    return c.i32(PADDING_CODES[op.opt("Padding")]), c.i32(stride_w), c.i32(stride_h)


def _dilation_tail(c, op):
    dw, dh = op.opt("DilationWFactor", 1), op.opt("DilationHFactor", 1)
    if dw == 1 and dh == 1:
        return []
    return [c.boolean(False), c.i32(dw), c.i32(dh)]


@maps("CONV_2D", ("CONV_2D", "GROUPED_CONV_2D"),
      "implicit padding; filter OHWI as NNAPI's; per-channel int8 filter -> QUANT8_SYMM_PER_CHANNEL "
      "(channel dim 0); dilation -> NHWC flag + factors; a filter depth that divides the input depth "
      "(groups) -> GROUPED_CONV_2D (no dilation there)")
def _conv2d(c, op):
    x, w = op.inputs[0], op.inputs[1]
    units, depth = c.t(w).shape[0], c.t(w).shape[3]
    pad, sw, sh = _conv_common(c, op)
    act = c.i32(c.fused(op.opt("FusedActivationFunction")))
    head = [c.operand(x), c.filter(w, x), c.bias(op.inputs[2] if len(op.inputs) > 2 else -1, x, w, units),
            pad, sw, sh]
    cin = c.t(x).shape[3] if len(c.t(x).shape) == 4 else 0
    if cin and depth and cin != depth:
        if cin % depth or units % (cin // depth):
            raise InputError(f"CONV_2D operator {op.index}: its filter depth {depth} does not divide the input "
                             f"depth {cin} into groups of its {units} output channels.")
        if _dilation_tail(c, op):
            raise NotImplementedOpError(f"CONV_2D operator {op.index}: a grouped convolution ({cin // depth} "
                                        f"groups) with dilation has no NNAPI operation (GROUPED_CONV_2D has "
                                        f"no dilation).")
        c.emit("GROUPED_CONV_2D", head + [c.i32(cin // depth), act, c.boolean(False)], [_out(c, op)])
        return
    c.emit("CONV_2D", head + [act] + _dilation_tail(c, op), [_out(c, op)])


@maps("DEPTHWISE_CONV_2D", "DEPTHWISE_CONV_2D",
      "filter [1, H, W, C*M]; per-channel filter channel dim 3; depth multiplier scalar")
def _depthwise(c, op):
    x, w = op.inputs[0], op.inputs[1]
    units = c.t(w).shape[3]
    pad, sw, sh = _conv_common(c, op)
    mult = op.opt("DepthMultiplier", 1)
    cin = c.t(x).shape[3] if len(c.t(x).shape) == 4 else 0
    if cin and mult * cin != units:  # TFLite ignores a stale depth_multiplier; NNAPI checks it
        mult = units // cin
    act = c.i32(c.fused(op.opt("FusedActivationFunction")))
    ins = [c.operand(x), c.filter(w, x), c.bias(op.inputs[2] if len(op.inputs) > 2 else -1, x, w, units),
           pad, sw, sh, c.i32(mult), act] + _dilation_tail(c, op)
    c.emit("DEPTHWISE_CONV_2D", ins, [_out(c, op)])


@maps("TRANSPOSE_CONV", "TRANSPOSE_CONV_2D",
      "inputs (output_shape, filter, input[, bias]) reordered; implicit padding; zero bias when omitted")
def _transpose_conv(c, op):
    shape_t, w, x = op.inputs[0], op.inputs[1], op.inputs[2]
    bias_t = op.inputs[3] if len(op.inputs) > 3 else -1
    units = c.t(w).shape[0]
    pad, sw, sh = _conv_common(c, op)
    act = c.fused(op.opt("FusedActivationFunction", 0) if hasattr(op.options, "FusedActivationFunction")
                  else 0)
    shape = c.const(shape_t)
    shape_op = c.i32_tensor(shape) if shape is not None else c.operand(shape_t)
    ins = [c.operand(x), c.filter(w, x), c.bias(bias_t, x, w, units), shape_op, pad, sw, sh, c.i32(act),
           c.boolean(False)]
    c.emit("TRANSPOSE_CONV_2D", ins, [_out(c, op)])


@maps("FULLY_CONNECTED", ("FULLY_CONNECTED", "RESHAPE"),
      "weights [units, input_size] as NNAPI's; zero bias when omitted; keep_num_dims -> RESHAPE after; "
      "per-channel int8 weights (NNAPI's FULLY_CONNECTED is per-tensor only) -> QUANT8_SYMM_PER_CHANNEL "
      "weights (channel dim 0), which the golden FULLY_CONNECTED takes in a TFLite model only, "
      "requantizing each unit as LiteRT's FullyConnectedPerChannel (see Model.origin); per-channel "
      "weights of a uint8 input are an error, as in LiteRT")
def _fully_connected(c, op):
    if op.opt("WeightsFormat", 0) != 0:
        c.unsupported("its weights use the shuffled 4x16 int8 format")
    x, w = op.inputs[0], op.inputs[1]
    units, size = c.t(w).shape
    if c.t(w).per_channel and c.t(x).dtype == "UINT8":
        raise InputError(f"FULLY_CONNECTED operator {op.index}: its weights are quantized per channel, but "
                         f"its input is UINT8; LiteRT's FULLY_CONNECTED takes per-channel weights only with an "
                         f"int8 or int16 input (it fails to prepare this model).")
    bias_t = op.inputs[2] if len(op.inputs) > 2 else -1
    act = c.i32(c.fused(op.opt("FusedActivationFunction")))
    out_shape = c.t(op.outputs[0]).shape
    xs = c.t(x).shape
    batch = math.prod(xs) // size if xs and all(xs) and size else 0
    direct = len(out_shape) == 2
    tmp = _out(c, op) if direct else c.temp(op.outputs[0], (batch, units))
    c.emit("FULLY_CONNECTED", [c.operand(x), c.filter(w, x), c.bias(bias_t, x, w, units), act], [tmp])
    if not direct:
        c.emit("RESHAPE", [tmp, c.i32_tensor([d if d else -1 for d in out_shape])], [_out(c, op)])


@maps("BATCH_MATMUL", "BATCH_MATMUL", "adj_x / adj_y -> BOOL scalars")
def _batch_matmul(c, op):
    c.emit("BATCH_MATMUL", [_x(c, op, 0), _x(c, op, 1), c.boolean(op.opt("AdjX", False)),
                            c.boolean(op.opt("AdjY", False))], [_out(c, op)])


def _pool(nn):
    def convert(c, op):
        pad, sw, sh = _conv_common(c, op)
        ins = [_x(c, op), pad, sw, sh, c.i32(op.opt("FilterWidth", 1)), c.i32(op.opt("FilterHeight", 1)),
               c.i32(c.fused(op.opt("FusedActivationFunction")))]
        c.emit(nn, ins, [_out(c, op)])
    return convert


register_all("AVERAGE_POOL_2D MAX_POOL_2D L2_POOL_2D", lambda n: n, _pool,
             notes="implicit padding, filter size and strides as scalars; a quantized output may have "
             "another scale / zero point than the input (TFLite models only, see Model.origin): LiteRT's "
             "kernels then write the stored values unrescaled, as the golden kernels do")


@maps("CONCATENATION", ("CONCATENATION", "RELU", "RELU1", "RELU6", "TANH"),
      "axis scalar (negative axis made positive); a fused activation becomes a separate op")
def _concat(c, op):
    rank = len(c.t(op.inputs[0]).shape)
    axis = op.opt("Axis", 0)
    axis = axis + rank if axis < 0 else axis
    ins = [c.operand(i) for i in op.inputs] + [c.i32(axis)]
    c.emit_then_activation("CONCATENATION", ins, op.outputs[0], op.opt("FusedActivationFunction"))


@maps("PACK", ("CONCATENATION", "RESHAPE"),
      "concatenate along the axis, then RESHAPE to insert the new dimension (the last axis: RESHAPE "
      "each input first)")
def _pack(c, op):
    shape = c.t(op.inputs[0]).shape
    n, rank = len(op.inputs), len(shape)
    axis = op.opt("Axis", 0)
    axis = axis + rank + 1 if axis < 0 else axis
    out = op.outputs[0]
    if axis < rank:
        cat_shape = shape[:axis] + (shape[axis] * n,) + shape[axis + 1:]
        tmp = c.temp(out, cat_shape)
        c.emit("CONCATENATION", [c.operand(i) for i in op.inputs] + [c.i32(axis)], [tmp])
        c.emit("RESHAPE", [tmp, c.i32_tensor(c.t(out).shape)], [_out(c, op)])
        return
    parts = []
    for i in op.inputs:
        r = c.temp(i, shape + (1,))
        c.emit("RESHAPE", [c.operand(i), c.i32_tensor(shape + (1,))], [r])
        parts.append(r)
    c.emit("CONCATENATION", parts + [c.i32(axis)], [_out(c, op)])


@maps("RESHAPE", "RESHAPE", "target shape from the output tensor's static shape")
def _reshape(c, op):
    out = c.t(op.outputs[0])
    if out.shape and all(out.shape):
        shape = c.i32_tensor(out.shape)
    elif len(op.inputs) > 1 and c.const(op.inputs[1]) is not None:
        shape = c.i32_tensor(c.const(op.inputs[1]))
    elif op.options is not None and op.options.NewShapeLength():
        shape = c.i32_tensor(op.options.NewShapeAsNumpy())
    elif len(op.inputs) > 1:
        shape = c.operand(op.inputs[1])
    else:
        shape = c.i32_tensor(out.shape)
    c.emit("RESHAPE", [_x(c, op), shape], [_out(c, op)])


@maps("SQUEEZE", "SQUEEZE", "squeeze dims -> TENSOR_INT32 (omitted when empty: all size-1 dims)")
def _squeeze(c, op):
    dims = list(op.options.SqueezeDimsAsNumpy()) if op.options is not None and \
        op.options.SqueezeDimsLength() else []
    ins = [_x(c, op)] + ([c.i32_tensor(dims)] if dims else [])
    c.emit("SQUEEZE", ins, [_out(c, op)])


@maps("EXPAND_DIMS", "EXPAND_DIMS", "axis tensor -> INT32 scalar")
def _expand_dims(c, op):
    axis = int(np.asarray(c.need_const(op.inputs[1], "axis")).reshape(-1)[0])
    c.emit("EXPAND_DIMS", [_x(c, op), c.i32(axis)], [_out(c, op)])


def _with_int_tensor(nn, what):
    def convert(c, op):
        v = c.const(op.inputs[1])
        second = c.i32_tensor(v) if v is not None else c.operand(op.inputs[1])
        c.emit(nn, [_x(c, op), second], [_out(c, op)])
    convert.__doc__ = what
    return convert


maps("TRANSPOSE", "TRANSPOSE", "permutation -> TENSOR_INT32")(_with_int_tensor("TRANSPOSE", "perm"))
maps("PAD", "PAD", "paddings -> TENSOR_INT32 [rank, 2]; quantized pads with the zero point")(
    _with_int_tensor("PAD", "paddings"))
maps("TILE", "TILE", "multiples -> TENSOR_INT32")(_with_int_tensor("TILE", "multiples"))


@maps("PADV2", "PAD_V2", "pad value -> scalar (FLOAT32 / FLOAT16, or INT32 holding the quantized value)")
def _padv2(c, op):
    pads = c.need_const(op.inputs[1], "paddings")
    value = c.need_const(op.inputs[2], "pad value").reshape(-1)[0]
    x = c.t(op.inputs[0])
    scalar = c.fscalar(float(value), op.inputs[0]) if x.dtype.startswith("FLOAT") else c.i32(int(value))
    c.emit("PAD_V2", [_x(c, op), c.i32_tensor(pads), scalar], [_out(c, op)])


@maps("STRIDED_SLICE", "STRIDED_SLICE", "begin / end / strides -> TENSOR_INT32, masks -> INT32; a shrunk "
                                        "axis becomes the one-element slice [begin, begin + 1) (ellipsis and "
                                        "new-axis masks and offset=true unsupported)")
def _strided_slice(c, op):
    if op.opt("EllipsisMask") or op.opt("NewAxisMask"):
        c.unsupported("its ellipsis_mask / new_axis_mask have no NNAPI counterpart")
    if op.options is not None and op.opt("Offset", False):
        c.unsupported("its offset=true form has no NNAPI counterpart")
    begin, end, strides = (c.need_const(op.inputs[k], n).astype(np.int64).copy()
                           for k, n in ((1, "begin"), (2, "end"), (3, "strides")))
    bmask, emask, shrink = op.opt("BeginMask"), op.opt("EndMask"), op.opt("ShrinkAxisMask")
    shape = c.t(op.inputs[0]).shape
    for i in range(len(begin)):
        if not shrink >> i & 1:
            continue
        # TFLite takes element begin[i] of a shrunk axis (ignoring end); NNAPI needs a one-element
        # slice [begin, begin + 1), so resolve a negative begin against the axis size.
        b = 0 if bmask >> i & 1 else int(begin[i])
        if b < 0:
            if i >= len(shape) or not shape[i]:
                c.unsupported(f"axis {i} shrinks at a negative begin of an unknown-size axis")
            b += shape[i]
        begin[i], end[i] = b, b + 1
        bmask &= ~(1 << i)
        emask &= ~(1 << i)
    c.emit("STRIDED_SLICE", [_x(c, op), c.i32_tensor(begin), c.i32_tensor(end), c.i32_tensor(strides),
                             c.i32(bmask), c.i32(emask), c.i32(shrink)], [_out(c, op)])


@maps("SLICE", "SLICE", "begin / size -> TENSOR_INT32 (size -1 = to the end, as in NNAPI)")
def _slice(c, op):
    begin, size = c.need_const(op.inputs[1], "begin"), c.need_const(op.inputs[2], "size")
    c.emit("SLICE", [_x(c, op), c.i32_tensor(begin), c.i32_tensor(size)], [_out(c, op)])


@maps("SPLIT", "SPLIT", "inputs (axis, input) reordered; axis and num_splits -> INT32 scalars")
def _split(c, op):
    axis = int(c.need_const(op.inputs[0], "axis").reshape(-1)[0])
    c.emit("SPLIT", [c.operand(op.inputs[1]), c.i32(axis), c.i32(len(op.outputs))],
           [c.operand(o) for o in op.outputs])


@maps("SPLIT_V", "SLICE", "one SLICE per output (NNAPI SPLIT cuts equal parts only); a -1 size takes the rest")
def _split_v(c, op):
    x = c.t(op.inputs[0])
    sizes = [int(v) for v in c.need_const(op.inputs[1], "size_splits").reshape(-1)]
    axis = int(c.need_const(op.inputs[2], "axis").reshape(-1)[0])
    rank = len(x.shape)
    axis = axis + rank if axis < 0 else axis
    if not x.shape[axis]:
        c.unsupported("its split axis has an unknown size")
    if -1 in sizes:
        sizes[sizes.index(-1)] = x.shape[axis] - (sum(sizes) + 1)
    start = 0
    for out, n in zip(op.outputs, sizes):
        begin = [start if d == axis else 0 for d in range(rank)]
        size = [n if d == axis else -1 for d in range(rank)]
        c.emit("SLICE", [c.operand(op.inputs[0]), c.i32_tensor(begin), c.i32_tensor(size)], [c.operand(out)])
        start += n


@maps("UNPACK", ("SPLIT", "RESHAPE"), "SPLIT into size-1 slices along the axis, then RESHAPE each to drop it")
def _unpack(c, op):
    x = c.t(op.inputs[0])
    rank = len(x.shape)
    axis = op.opt("Axis", 0)
    axis = axis + rank if axis < 0 else axis
    part_shape = tuple(1 if d == axis else s for d, s in enumerate(x.shape))
    parts = [c.temp(op.inputs[0], part_shape) for _ in op.outputs]
    c.emit("SPLIT", [c.operand(op.inputs[0]), c.i32(axis), c.i32(len(op.outputs))], parts)
    for part, out in zip(parts, op.outputs):
        shape = c.t(out).shape
        c.emit("RESHAPE", [part, c.i32_tensor(shape if shape else (1,))], [c.operand(out)])


@maps("SPACE_TO_BATCH_ND", "SPACE_TO_BATCH_ND", "block shape and paddings -> TENSOR_INT32 (4-D input)")
def _space_to_batch(c, op):
    block = c.need_const(op.inputs[1], "block shape")
    pads = c.need_const(op.inputs[2], "paddings")
    c.emit("SPACE_TO_BATCH_ND", [_x(c, op), c.i32_tensor(block), c.i32_tensor(pads)], [_out(c, op)])


@maps("BATCH_TO_SPACE_ND", ("BATCH_TO_SPACE_ND", "SLICE"),
      "block shape -> TENSOR_INT32; non-zero crops (NNAPI has none) -> a SLICE after")
def _batch_to_space(c, op):
    block = c.need_const(op.inputs[1], "block shape").reshape(-1)
    crops = c.need_const(op.inputs[2], "crops").reshape(-1, 2)
    x = c.t(op.inputs[0])
    if not np.any(crops):
        c.emit("BATCH_TO_SPACE_ND", [_x(c, op), c.i32_tensor(block)], [_out(c, op)])
        return
    if len(x.shape) != 4 or not all(x.shape):
        c.unsupported("its crops need a fully known 4-D input shape")
    n, h, w, ch = x.shape
    full = (n // int(np.prod(block)), h * int(block[0]), w * int(block[1]), ch)
    tmp = c.temp(op.inputs[0], full)
    c.emit("BATCH_TO_SPACE_ND", [_x(c, op), c.i32_tensor(block)], [tmp])
    begin = [0, int(crops[0, 0]), int(crops[1, 0]), 0]
    size = [full[0], full[1] - int(crops[0].sum()), full[2] - int(crops[1].sum()), ch]
    c.emit("SLICE", [tmp, c.i32_tensor(begin), c.i32_tensor(size)], [_out(c, op)])


@maps("TOPK_V2", "TOPK_V2", "k tensor -> INT32 scalar; outputs values and int32 indices")
def _topk(c, op):
    k = int(c.need_const(op.inputs[1], "k").reshape(-1)[0])
    c.emit("TOPK_V2", [_x(c, op), c.i32(k)], [c.operand(o) for o in op.outputs])


@maps("SQUARED_DIFFERENCE", ("SUB", "MUL"), "float: SUB, then MUL of the difference by itself")
def _squared_difference(c, op):
    if c.t(op.inputs[0]).dtype != "FLOAT32":
        c.unsupported("only float32 SQUARED_DIFFERENCE decomposes exactly (a quantized one needs an "
                      "intermediate scale)")
    d = c.temp(op.outputs[0])
    c.emit("SUB", [_x(c, op, 0), _x(c, op, 1), c.i32(0)], [d])
    c.emit("MUL", [d, d, c.i32(0)], [_out(c, op)])


@maps("GATHER", "GATHER", "axis option -> INT32 scalar; indices int64 -> int32; batch_dims must be 0")
def _gather(c, op):
    if op.opt("BatchDims", 0):
        c.unsupported("its batch_dims is not 0")
    c.emit("GATHER", [_x(c, op), c.i32(op.opt("Axis", 0)), c.operand(op.inputs[1])], [_out(c, op)])


def _reducer(nn):
    def convert(c, op):
        axes = c.need_const(op.inputs[1], "axes")
        keep = op.opt("KeepDims", False)
        if nn == "MEAN":  # a TFLite model's quantized MEAN may requantize (Model.origin)
            c.emit(nn, [_x(c, op), c.i32_tensor(axes), c.i32(int(keep))], [_out(c, op)])
            return
        x, y = c.t(op.inputs[0]), c.t(op.outputs[0])
        if (nn in ("REDUCE_MAX", "REDUCE_MIN") and x.dtype in ("INT8", "UINT8")
                and (x.scale, x.zero_point) != (y.scale, y.zero_point)):
            raise InputError(f"{op.name} operator {op.index}: its output has scale {y.scale:g} and zero point "
                             f"{y.zero_point}, but LiteRT's {op.name} requires the input's (scale {x.scale:g}, "
                             f"zero point {x.zero_point}); it fails to invoke this model.")
        c.emit(nn, [_x(c, op), c.i32_tensor(axes), c.boolean(keep)], [_out(c, op)])
    return convert


_REDUCE_NAMES = {"MEAN": "MEAN", "SUM": "REDUCE_SUM", "REDUCE_MAX": "REDUCE_MAX", "REDUCE_MIN": "REDUCE_MIN",
                 "REDUCE_PROD": "REDUCE_PROD", "REDUCE_ANY": "REDUCE_ANY"}
register_all("REDUCE_MAX REDUCE_MIN REDUCE_ANY", _REDUCE_NAMES.get, _reducer,
             notes="axes -> TENSOR_INT32, keep_dims -> BOOL; a quantized output quantized differently from "
             "the input is an error, as in LiteRT")
register_all("SUM REDUCE_PROD", _REDUCE_NAMES.get, _reducer, "axes -> TENSOR_INT32, keep_dims -> BOOL")
register_all("MEAN", _REDUCE_NAMES.get, _reducer, notes="axes -> TENSOR_INT32, keep_dims -> INT32; quantized: "
             "the output keeps its own quantization (LiteRT's rescaling MEAN, see Model.origin)")


@maps("SOFTMAX", "SOFTMAX", "beta -> FLOAT32 scalar (FLOAT16 for float16)")
def _softmax(c, op):
    c.emit("SOFTMAX", [_x(c, op), c.fscalar(op.opt("Beta", 1.0), op.inputs[0])], [_out(c, op)])


@maps("LOG_SOFTMAX", "LOG_SOFTMAX", "beta 1.0, axis -1 (NNAPI LOG_SOFTMAX is float only)")
def _log_softmax(c, op):
    c.emit("LOG_SOFTMAX", [_x(c, op), c.fscalar(1.0, op.inputs[0]), c.i32(-1)], [_out(c, op)])


def _unary(nn):
    def convert(c, op):
        c.emit(nn, [_x(c, op)], [_out(c, op)])
    return convert


def _unary_same_quant(nn):
    def convert(c, op):
        c.emit_same_quant(nn, [_x(c, op)], op.inputs[0], op.outputs[0])
    return convert


_UNARY = {"LOGISTIC": "LOGISTIC", "TANH": "TANH", "RELU": "RELU", "RELU6": "RELU6", "RELU_N1_TO_1": "RELU1",
          "HARD_SWISH": "HARD_SWISH", "ABS": "ABS", "NEG": "NEG", "EXP": "EXP", "LOG": "LOG", "SQRT": "SQRT",
          "RSQRT": "RSQRT", "SIN": "SIN", "LOGICAL_NOT": "LOGICAL_NOT", "CAST": "CAST", "FLOOR": "FLOOR",
          "L2_NORMALIZATION": "L2_NORMALIZATION"}
register_all("RELU RELU6 RELU_N1_TO_1", _UNARY.get, _unary_same_quant, also=("PRELU",),
             notes="quantized with another output scale / zero point than the input (NNAPI requires equal "
             "quantization): a PRELU of unit alpha rescales into the output's quantization (in a TFLite model "
             "LiteRT's ReluX multiplier float32(s_in / s_out), see Model.origin), then the op")
register_all("ABS NEG EXP LOG SQRT SIN LOGICAL_NOT CAST FLOOR", _UNARY.get, _unary, "same operands")
register_all("LOGISTIC TANH HARD_SWISH RSQRT", _UNARY.get, _unary, "same operands")
register_all("L2_NORMALIZATION", _UNARY.get, _unary, "axis -1 (the NNAPI default)")


@maps("ELU", "ELU", "alpha = 1.0 scalar")
def _elu(c, op):
    c.emit("ELU", [_x(c, op), c.fscalar(1.0, op.inputs[0])], [_out(c, op)])


@maps("PRELU", "PRELU", "alpha tensor as given (broadcast)")
def _prelu(c, op):
    c.emit("PRELU", [_x(c, op, 0), _x(c, op, 1)], [_out(c, op)])


@maps("LEAKY_RELU", "PRELU", "alpha -> a one-element alpha tensor; quantized: alpha = (q - z) x scale with "
                             "q - z = ±1 and scale = |alpha| (LiteRT's real multipliers)")
def _leaky_relu(c, op):
    alpha = float(op.opt("Alpha", 0.2))
    x = c.t(op.inputs[0])
    rank = len(x.shape)
    ty, _, _, _ = c.nn_type(x)
    if x.dtype in ("UINT8", "INT8"):
        # alpha = (q - zp) * scale with q - zp = ±1 and scale = |alpha|: the PRELU alpha multiplier
        # s_in * |alpha| / s_out is then LiteRT's s_in * alpha / s_out.
        if alpha >= 0:
            scale, zp, q = alpha, 0, 1
        else:
            scale, zp, q = -alpha, (0 if x.dtype == "INT8" else 1), (-1 if x.dtype == "INT8" else 0)
        if alpha == 0:
            scale, q = 1.0, zp
        a = c.b.add_constant(ty, [q], (1,) * max(rank, 1), scale=scale, zero_point=zp)
    else:
        a = c.b.add_constant(ty, [alpha], (1,) * max(rank, 1))
    c.emit("PRELU", [c.operand(op.inputs[0]), a], [_out(c, op)])


def _resize(nn):
    def convert(c, op):
        size = c.need_const(op.inputs[1], "size").reshape(-1)
        ins = [_x(c, op), c.i32(size[1]), c.i32(size[0]), c.boolean(False),
               c.boolean(op.opt("AlignCorners", False)), c.boolean(op.opt("HalfPixelCenters", False))]
        c.emit(nn, ins, [_out(c, op)])
    return convert


register_all("RESIZE_BILINEAR", lambda n: n, _resize,
             "size [h, w] -> width / height scalars, NHWC, align_corners, half_pixel_centers")
register_all("RESIZE_NEAREST_NEIGHBOR", lambda n: n, _resize,
             "size [h, w] -> width / height scalars, NHWC, align_corners, half_pixel_centers")


def _block(nn):
    def convert(c, op):
        c.emit(nn, [_x(c, op), c.i32(op.opt("BlockSize", 1))], [_out(c, op)])
    return convert


register_all("DEPTH_TO_SPACE SPACE_TO_DEPTH", lambda n: n, _block, "block size -> INT32 scalar")


@maps("QUANTIZE", ("QUANTIZE", "MEAN", "EXPAND_DIMS", "RESHAPE", "DEQUANTIZE"),
      "float -> quantized: QUANTIZE; quantized -> quantized (requantize, which NNAPI lacks): a MEAN over "
      "one size-1 axis (an existing one, or one EXPAND_DIMS or RESHAPE adds), which in a TFLite model is "
      "LiteRT's rescaling MEAN and over one element LiteRT's Requantize (see Model.origin); int8 <-> uint8: "
      "that MEAN in the input's type, then DEQUANTIZE + QUANTIZE to the same scale (an exact shift by 128)")
def _quantize(c, op):
    x = c.t(op.inputs[0])
    if x.dtype in ("FLOAT32", "FLOAT16"):
        c.emit("QUANTIZE", [c.operand(op.inputs[0])], [_out(c, op)])
        return
    c.requantize(c.operand(op.inputs[0]), op.inputs[0], op.outputs[0])


@maps("DEQUANTIZE", "DEQUANTIZE", "of a constant (float16 or int8 weights): folded into a float32 constant")
def _dequantize(c, op):
    c.emit("DEQUANTIZE", [_x(c, op)], [_out(c, op)])


@maps("DENSIFY", (), "of a constant (sparse weights, densified at import): folded into the dense constant")
def _densify(c, op):
    c.unsupported("its input is not a constant (LiteRT densifies constant sparse tensors only)")


def _binary(nn):
    def convert(c, op):
        c.emit(nn, [_x(c, op, 0), _x(c, op, 1)], [_out(c, op)])
    return convert


register_all("POW MAXIMUM MINIMUM LOGICAL_AND LOGICAL_OR", lambda n: n, _binary, "same operands")
register_all("EQUAL NOT_EQUAL GREATER GREATER_EQUAL LESS LESS_EQUAL", lambda n: n, _binary,
             "output TENSOR_BOOL8; quantized: LiteRT's fixed-point comparison (see Model.origin)")


@maps("SELECT", "SELECT", "condition, then, else of one shape")
@maps("SELECT_V2", "SELECT", "only without broadcasting (NNAPI SELECT needs equal shapes)")
def _select(c, op):
    shapes = {c.t(i).shape for i in op.inputs}
    if len(shapes) > 1:
        c.unsupported(f"its inputs have different shapes {sorted(shapes)}, and NNAPI SELECT does not "
                      f"broadcast")
    c.emit("SELECT", [c.operand(i) for i in op.inputs], [_out(c, op)])


def _arg(nn):
    def convert(c, op):
        axis = int(c.need_const(op.inputs[1], "axis").reshape(-1)[0])
        c.emit(nn, [_x(c, op), c.i32(axis)], [_out(c, op)])
    return convert


register_all("ARG_MAX ARG_MIN", lambda n: n.replace("_", ""), _arg,
             "axis tensor -> INT32 scalar; an int64 output is produced as TENSOR_INT32")


@maps("LOCAL_RESPONSE_NORMALIZATION", "LOCAL_RESPONSE_NORMALIZATION",
      "radius, bias, alpha, beta -> scalars (float only)")
def _lrn(c, op):
    x = op.inputs[0]
    c.emit("LOCAL_RESPONSE_NORMALIZATION",
           [_x(c, op), c.i32(op.opt("Radius")), c.fscalar(op.opt("Bias"), x), c.fscalar(op.opt("Alpha"), x),
            c.fscalar(op.opt("Beta"), x)], [_out(c, op)])


# ========================================================================================== driver
def dequantized(t: TflTensor, v: np.ndarray) -> np.ndarray:
    """``(q - z) * s`` of a constant quantized tensor (per channel along its quantized dimension),
    as float32 (the product in float64 once, then rounded)."""
    if t.per_channel:
        shape = [1] * v.ndim
        shape[t.quantized_dimension] = -1
        out = (v.astype(np.float64) - t.zero_points.reshape(shape)) * t.scales.astype(np.float32).reshape(shape)
    else:
        out = (v.astype(np.float64) - t.zero_point) * np.float32(t.scale)
    return out.astype(np.float32)


def _fold_constants(ctx: ImportContext, ops: list[TflOp]) -> list[TflOp]:
    """Drops DENSIFY and DEQUANTIZE ops whose input is constant: a DENSIFY output becomes the
    (already densified) constant of its input, a DEQUANTIZE output a float32 constant."""
    kept = []
    for op in ops:
        src = op.inputs[0] if op.inputs else -1
        if op.name == "DENSIFY" and ctx.const(src) is not None and op.outputs:
            out = op.outputs[0]
            if src in ctx.folded:
                ctx.folded[out] = ctx.folded[src]
            else:
                ctx.tensors[out].data = ctx.tensors[src].data.reshape(ctx.tensors[out].shape)
            continue
        if op.name == "DEQUANTIZE" and ctx.const(src) is not None:
            t = ctx.t(src)
            v = ctx.const(src)
            if t.dtype in ("INT8", "UINT8", "INT16") and src not in ctx.folded:
                v = dequantized(t, v)
            ctx.folded[op.outputs[0]] = np.asarray(v, dtype=np.float32)
            continue
        kept.append(op)
    return kept


def _resolve_shapes(tensors: list[TflTensor], inputs: list[int], batch: int | None,
                    input_shapes: list | None, where: str) -> None:
    """Gives every dynamic dimension (-1 in ``shape_signature``) of a non-constant tensor its size.

    By default the static ``shape``'s (LiteRT's allocation before a resize). ``batch`` replaces a
    dynamic leading dimension everywhere; ``input_shapes`` (one per graph input) must match the
    inputs' signatures: a dynamic leading dimension they give acts as ``batch``, and where they change
    another dynamic dimension, that dimension becomes unknown (0) in every intermediate tensor, to be
    found at run time (such tensors stay on the host)."""
    if batch is not None and batch < 1:
        raise InputError(f"The batch size must be at least 1, not {batch}.")
    given: dict[int, tuple] = {}
    unknown_rest = False
    if input_shapes is not None:
        if len(input_shapes) != len(inputs):
            raise InputError(f"{len(input_shapes)} input shapes given for the {len(inputs)} inputs of the "
                             f"TFLite model {where}.")
        for k, (i, s) in enumerate(zip(inputs, input_shapes)):
            t, s = tensors[i], tuple(int(d) for d in s)
            sig = t.signature or t.shape
            if len(s) != len(sig) or any(g >= 0 and g != d for g, d in zip(sig, s)):
                raise InputError(f"Input {k} has shape {list(s)}, but input tensor {t.name} of the TFLite model "
                                 f"{where} has shape signature {list(sig)} (-1 = any size).")
            if s and sig[0] < 0:
                if batch is not None and s[0] != batch:
                    raise InputError(f"Input {k} has batch {s[0]}, but the batch asked for is {batch}.")
                batch = s[0]
            unknown_rest |= any(g < 0 and d != t.shape[a] for a, (g, d) in enumerate(zip(sig, s)) if a > 0)
            given[i] = s
    if batch is not None and not any(tensors[i].signature and tensors[i].signature[0] < 0 for i in inputs):
        if all(tensors[i].shape[:1] == (batch,) for i in inputs):
            return
        raise InputError(f"The TFLite model {where} has no dynamic batch dimension (its inputs' shape_signature "
                         f"has no leading -1), so its batch cannot be set to {batch}.")
    for t in tensors:
        if t.signature is None or t.data is not None:
            continue
        if t.index in given:
            t.shape = given[t.index]
            continue
        dims = list(t.shape)
        for a, g in enumerate(t.signature):
            if g >= 0:
                continue
            if a == 0 and batch is not None:
                dims[a] = batch
            elif a > 0 and unknown_rest:
                dims[a] = 0
        t.shape = tuple(dims)


def import_tflite_bytes(data: bytes, name: str = "model", where: str = "<bytes>", batch: int | None = None,
                        input_shapes: list | None = None) -> Model:
    """Imports a TFLite flatbuffer held in memory (see :func:`load_tflite`).

    Dynamic dimensions (-1 in ``shape_signature``) take their static ``shape`` sizes, a dynamic
    batch (leading) dimension ``batch`` when given, and the sizes of ``input_shapes`` (the shapes of
    the arrays the model will run on, one per input) when given; see :func:`_resolve_shapes`."""
    model = _read_model(data, where)
    try:
        sg = model.Subgraphs(0)
        tensors = [_read_tensor(model, sg, data, i, where) for i in range(sg.TensorsLength())]
        codes = [_opcode_name(model.OperatorCodes(k)) for k in range(model.OperatorCodesLength())]
        ops = []
        for k in range(sg.OperatorsLength()):
            o = sg.Operators(k)
            idx = o.OpcodeIndex()
            if idx >= len(codes):
                raise InputError(f"The TFLite model {where} is corrupt: operator {k} names operator code "
                                 f"{idx} of {len(codes)}.")
            ins = [int(i) for i in o.InputsAsNumpy()] if o.InputsLength() else []
            outs = [int(i) for i in o.OutputsAsNumpy()] if o.OutputsLength() else []
            for i in ins + outs:
                if i >= len(tensors):
                    raise InputError(f"The TFLite model {where} is corrupt: operator {k} uses tensor {i} "
                                     f"of {len(tensors)}.")
            ops.append(TflOp(k, codes[idx], ins, outs, _read_options(o)))
        inputs = [int(i) for i in sg.InputsAsNumpy()] if sg.InputsLength() else []
        outputs = [int(i) for i in sg.OutputsAsNumpy()] if sg.OutputsLength() else []
        for i in inputs + outputs:
            if not 0 <= i < len(tensors):
                raise InputError(f"The TFLite model {where} is corrupt: its subgraph names tensor {i} of "
                                 f"{len(tensors)} as an input or output.")
    except (InputError, NotImplementedOpError):
        raise
    except Exception as e:  # noqa: BLE001 - any failure reading a corrupt flatbuffer
        raise InputError(f"The TFLite model {where} is corrupt ({type(e).__name__}: {e}).") from None

    _resolve_shapes(tensors, inputs, batch, input_shapes, where)
    ctx = ImportContext(tensors, name)
    ops = _fold_constants(ctx, ops)
    missing: dict[str, int] = {}
    for op in ops:
        if op.name not in OP_TABLE:
            missing[op.name] = missing.get(op.name, 0) + 1
    if model.SubgraphsLength() > 1:
        missing[f"{model.SubgraphsLength() - 1} further subgraphs (control flow)"] = 1
    if missing:
        listed = ", ".join(f"{n} ({k}x)" for n, k in sorted(missing.items()))
        raise NotImplementedOpError(f"The TFLite model {where} uses operators nnaccel cannot import yet: "
                                    f"{listed}.")
    for op in ops:
        ctx.op = op
        try:
            OP_TABLE[op.name].convert(ctx, op)
        except (AttributeError, IndexError, KeyError, TypeError, ValueError, struct.error) as e:  # malformed op
            raise InputError(f"The TFLite model {where} is malformed: operator {op.index} ({op.name}, "
                             f"{len(op.inputs)} inputs, {len(op.outputs)} outputs) cannot be converted "
                             f"({type(e).__name__}: {e}).") from None
    in_ops = [ctx.operand(i) for i in inputs]
    out_ops = []
    for i in outputs:
        o = ctx.operand(i)
        if o in in_ops or ctx.const(i) is not None:
            raise NotImplementedOpError(f"Output tensor {tensors[i].name} of the TFLite model {where} is a "
                                        f"graph input or a constant, which an NNAPI model cannot output.")
        out_ops.append(o)
    ctx.b.identify_inputs_and_outputs(in_ops, out_ops)
    return ctx.b.finish()


def load_tflite(path, batch: int | None = None, input_shapes: list | None = None) -> Model:
    """Reads a ``.tflite`` file and returns the equivalent NNAPI model (``batch`` and
    ``input_shapes`` as for :func:`import_tflite_bytes`).

    Raises :class:`~nnaccel.errors.InputError` for an unreadable or corrupt file and
    :class:`~nnaccel.errors.NotImplementedOpError` naming every operator (with its count) that has no
    mapping in :data:`OP_TABLE`.
    """
    p = Path(path)
    try:
        data = p.read_bytes()
    except OSError as e:
        raise InputError(f"The model file {p} cannot be read ({e.strerror or e}).") from None
    return import_tflite_bytes(data, name=p.stem, where=str(p), batch=batch, input_shapes=input_shapes)


# ================================================================================ generated docs
DOC_BEGIN = "<!-- BEGIN GENERATED OP TABLE (python -m nnaccel.compiler.tflite_import --write-doc docs/tflite.md) -->"
DOC_END = "<!-- END GENERATED OP TABLE -->"


def op_table_markdown() -> str:
    """The op-mapping and known-difference tables of docs/tflite.md, generated from :data:`OP_TABLE`."""
    def esc(s: str) -> str:
        return s.replace("|", "\\|")

    lines = ["| TFLite op | NNAPI op(s) | notes |", "| --- | --- | --- |"]
    for name in sorted(OP_TABLE):
        m = OP_TABLE[name]
        lines.append(f"| `{name}` | {', '.join(f'`{n}`' for n in m.nnapi)} | {esc(m.notes)} |")
    by_reason: dict[str, list[str]] = {}
    for name in sorted(OP_TABLE):
        m = OP_TABLE[name]
        if m.quant_tolerance:
            by_reason.setdefault(f"±{m.quant_tolerance} quantized step (int8 / uint8)|{m.difference}", []).append(name)
        if m.float_tolerance != 1e-5:
            by_reason.setdefault(f"float32 {m.float_tolerance:g} of the output's magnitude|{m.difference}",
                                 []).append(name)
    if not by_reason:
        lines += ["", ("Known differences from LiteRT's reference kernels: none; every operator's 8-bit "
                       "results are bit-exact and its float32 results within 1e-5 of the output's magnitude.")]
        return "\n".join([DOC_BEGIN, *lines, DOC_END])
    lines += ["", ("Known differences from LiteRT's reference kernels (each bound is what the differential "
              "test allows):"), "", "| TFLite ops | bound | reason |", "| --- | --- | --- |"]
    for key, names in by_reason.items():
        bound, reason = key.split("|", 1)
        lines.append(f"| {', '.join(f'`{n}`' for n in names)} | {bound} | {esc(reason)} |")
    return "\n".join([DOC_BEGIN, *lines, DOC_END])


def render_doc(text: str) -> str:
    """``text`` (docs/tflite.md) with its generated section replaced by the current table."""
    start, end = text.find(DOC_BEGIN), text.find(DOC_END)
    if start < 0 or end < 0:
        raise InputError("docs/tflite.md lacks the generated-table markers.")
    return text[:start] + op_table_markdown() + text[end + len(DOC_END):]


def _main(argv=None) -> int:
    import argparse
    p = argparse.ArgumentParser(description="TFLite importer utilities.")
    p.add_argument("--write-doc", metavar="FILE", help="regenerate the op table in FILE (docs/tflite.md)")
    args = p.parse_args(argv)
    if args.write_doc:
        path = Path(args.write_doc)
        path.write_text(render_doc(path.read_text(encoding="utf-8")), encoding="utf-8")
        print(f"wrote the op table ({len(OP_TABLE)} operators) to {path}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(_main())
