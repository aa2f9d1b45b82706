"""ONNX -> NNAPI converters: activations, elementwise, shape and data-movement ops, reductions."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from onnx import TensorProto

from ...model import OperandType
from ...quant import FUSED_ACTIVATIONS
from ._context import (
    FIXED_POINT_REQUANT,
    FLOAT_ELEMS,
    Q8_ELEMS,
    TO_NHWC,
    Node,
    _dims,
    _operand_in,
    _pick_layout,
    elem_name,
    maps,
)

T = OperandType


# ======================================================================================= converters
def _unary(nn: str, commutes: bool = False):
    def convert(c, n):
        x = n.inputs[0]
        if commutes and _commute(c, n, nn, lambda q: [q]):
            return
        nhwc = _pick_layout(c, [x])
        c.emit(nn, [c.get(x, nhwc)], [c.out(n.outputs[0], nhwc)])
    return convert


def _commute(c, n: Node, nn: str, ins_of: Callable, out_k: int = 0) -> bool:
    """Runs a data-movement op on the quantized tensor behind a deferred DQ input: the output is a
    deferred DQ of the result, with the same quantization."""
    src = c.dq_source(n.inputs[0])
    if src is None:
        return False
    y = n.outputs[out_k]
    q = c.quant[src]
    nhwc = c.is_nhwc(src) and c.rank(y) == 4 and nn not in _LAYOUT_BOUND
    qy = c.fresh(y, c.shape(y), q.elem, q)
    c.emit(nn, ins_of(c.get(src, nhwc)), [c.out(qy, nhwc)])
    c.dq[y] = qy
    return True


#: NNAPI ops whose parameters are in ONNX axis terms (run them in ONNX layout).
_LAYOUT_BOUND = {"RESHAPE", "TRANSPOSE", "STRIDED_SLICE", "GATHER", "SQUEEZE", "PAD", "PAD_V2", "SPLIT"}

for _name, _nn in (("Sigmoid", "LOGISTIC"), ("Tanh", "TANH"), ("HardSwish", "HARD_SWISH"), ("Abs", "ABS"),
                   ("Neg", "NEG"), ("Exp", "EXP"), ("Log", "LOG"), ("Sqrt", "SQRT"), ("Floor", "FLOOR"),
                   ("Sin", "SIN"), ("Not", "LOGICAL_NOT")):
    maps(_name, _nn, "same operands; keeps the input's layout")(_unary(_nn))
maps("Relu", "RELU", "keeps the input's layout; on a DQ output: RELU of the quantized tensor (exact)")(
    _unary("RELU", commutes=True))


def _binary(nn: str):
    def convert(c, n):
        if nn in ("MAXIMUM", "MINIMUM") and len(n.inputs) != 2:
            _variadic(c, n, nn)
            return
        a, b = n.inputs[0], n.inputs[1]
        y = n.outputs[0]
        if nn in ("ADD", "MUL") and _quant_binary(c, n, nn, a, b):
            return
        _check_binary_types(c, n, nn, a, b)
        nhwc = _pick_layout(c, [a, b])
        r = c.rank(y)
        ins = [_operand_in(c, a, nhwc, r), _operand_in(c, b, nhwc, r)]
        if nn in _FUSED:
            ins.append(c.i32(0))
        if nn == "DIV" and c.elem(a) not in FLOAT_ELEMS:
            _truncating_div(c, ins, _dims(c, y, nhwc), c.out(y, nhwc))
            return
        c.emit(nn, ins, [c.out(y, nhwc)])
    return convert


def _truncating_div(c, ins: list, dims: tuple, out: int) -> None:
    """ONNX's integer Div (truncating) from NNAPI's (flooring): q = a // b, plus 1 where the division
    was inexact (a - q * b != 0) and q < 0, i.e. where floor and truncation differ."""
    a, b = ins[0], ins[1]

    def op(nn, args, ty=T.TENSOR_INT32):
        o = c.b.add_operand(ty, dims)
        c.emit(nn, args + ([c.i32(0)] if nn in _FUSED else []), [o])
        return o
    zero = c.b.add_constant(T.TENSOR_INT32, np.zeros(1, np.int32), (1,))
    one = c.b.add_constant(T.TENSOR_INT32, np.ones(1, np.int32), (1,))
    q = op("DIV", [a, b])
    rem = op("SUB", [a, op("MUL", [q, b])])
    fix = op("LOGICAL_AND", [op("NOT_EQUAL", [rem, zero], T.TENSOR_BOOL8), op("LESS", [q, zero], T.TENSOR_BOOL8)],
             T.TENSOR_BOOL8)
    c.emit("SELECT", [fix, op("ADD", [q, one]), q], [out])


def _variadic(c, n: Node, nn: str) -> None:
    """Max / Min of one input (the input) or of three or more (a chain of binary ops)."""
    y = n.outputs[0]
    if len(n.inputs) == 1:
        c.alias(y, n.inputs[0])
        return
    cur = n.inputs[0]
    for k, nxt in enumerate(n.inputs[1:]):
        last = k == len(n.inputs) - 2
        dst = y if last else c.fresh(y, np.broadcast_shapes(c.shape(cur), c.shape(nxt)), c.elem(y))
        _check_binary_types(c, n, nn, cur, nxt)
        c.emit(nn, [c.get(cur), c.get(nxt)], [c.out(dst)])
        cur = dst


_FUSED = {"ADD", "SUB", "MUL", "DIV"}
_ARITH = {"ADD", "SUB", "MUL", "DIV", "POW", "MAXIMUM", "MINIMUM"}


def _check_binary_types(c, n: Node, nn: str, a: str, b: str) -> None:
    ea, eb = c.elem(a), c.elem(b)
    if nn in ("MAXIMUM", "MINIMUM") and ea in Q8_ELEMS and eb == ea and \
            len({c.nn_type(t)[1:] for t in (a, b, n.outputs[0])}) == 1:
        return  # one quantization in and out: NNAPI's quantized MAXIMUM / MINIMUM compares the integers
    if nn in _ARITH and (ea in Q8_ELEMS or eb in Q8_ELEMS):
        c.unsupported("8-bit integer arithmetic without quantization (wrapping) has no NNAPI form: NNAPI's "
                      "8-bit types are quantized and saturate")
    if nn == "DIV" and ea not in FLOAT_ELEMS and ea != TensorProto.INT32 and ea != TensorProto.INT64:
        c.unsupported(f"its operands are {elem_name(ea)}, which NNAPI DIV does not take")
    if nn == "POW" and (ea not in FLOAT_ELEMS or eb not in FLOAT_ELEMS):
        c.unsupported("NNAPI POW is float only")


def _quant_binary(c, n: Node, nn: str, a: str, b: str) -> bool:
    qa, qb = c.dq_source(a), c.dq_source(b)
    if qa is None or qb is None:
        return False
    target = c.q_output(n)
    if target is None:
        return False
    y, fuse = target
    _emit_quant_binary(c, nn, qa, qb, y, fuse)
    return True


def _emit_quant_binary(c, nn: str, qa: str, qb: str, y: str, fuse: int) -> None:
    if nn == "MUL":
        sy, sa, sb = c.qof(y).s, c.qof(qa).s, c.qof(qb).s
        if not np.float32(sy) > np.float32(sa) * np.float32(sb):
            c.unsupported(f"NNAPI requires a quantized MUL's output scale ({sy:g}) to exceed the product of "
                          f"the input scales ({sa * sb:g})")
    nhwc = _pick_layout(c, [qa, qb])
    c.emit(nn, [_operand_in(c, qa, nhwc, c.rank(y)), _operand_in(c, qb, nhwc, c.rank(y)), c.i32(fuse)],
           [c.out(y, nhwc)])


for _name, _nn in (("Add", "ADD"), ("Sub", "SUB"), ("Mul", "MUL"), ("Div", "DIV"), ("Pow", "POW"),
                   ("Max", "MAXIMUM"), ("Min", "MINIMUM"), ("Equal", "EQUAL"), ("Greater", "GREATER"),
                   ("Less", "LESS"), ("GreaterOrEqual", "GREATER_EQUAL"), ("LessOrEqual", "LESS_EQUAL"),
                   ("And", "LOGICAL_AND"), ("Or", "LOGICAL_OR")):
    _notes = "numpy broadcasting as NNAPI's; keeps the input's layout (constants permuted); no 8-bit " \
             "integer arithmetic (NNAPI's 8-bit types are quantized)"
    if _name in ("Add", "Mul"):
        _notes += ("; DQ inputs and a QuantizeLinear output: the quantized op (per-tensor scales), with a "
                   "following Relu / Clip fused")
    if _name in ("Max", "Min"):
        _notes += "; one input: the input, three or more: a chain"
    if _name == "Div":
        _notes += ("; integers: NNAPI's flooring DIV corrected to truncation (SUB, MUL, NOT_EQUAL, LESS, "
                   "LOGICAL_AND, ADD, SELECT)")
    if _name in ("Max", "Min"):
        _notes += "; 8-bit integers of one quantization (or none): the quantized op, exact"
    maps(_name, _nn, _notes, quant_tolerance=1 if _name in ("Add", "Mul") else 0,
         difference=FIXED_POINT_REQUANT if _name in ("Add", "Mul") else "")(_binary(_nn))


@maps("Clip", ("RELU", "RELU1", "RELU6", "MAXIMUM", "MINIMUM"),
      "bounds (0, inf) / (-1, 1) / (0, 6) -> RELU / RELU1 / RELU6, others MAXIMUM + MINIMUM with constant "
      "bounds; on a DQ output with those bounds: the op on the quantized tensor")
def _clip(c, n):
    code = c._fusable(n)
    if code is not None:
        nn = FUSED_ACTIVATIONS[code]
        if not _commute(c, n, nn, lambda q: [q]):
            nhwc = _pick_layout(c, [n.inputs[0]])
            c.emit(nn, [c.get(n.inputs[0], nhwc)], [c.out(n.outputs[0], nhwc)])
        return
    x, y = n.inputs[0], n.outputs[0]
    lo = c.need_const(n.inp(1), "min") if n.inp(1) else None
    hi = c.need_const(n.inp(2), "max") if n.inp(2) else None
    nhwc = _pick_layout(c, [x])
    cur = c.get(x, nhwc)
    steps = [(op, v) for op, v in (("MAXIMUM", lo), ("MINIMUM", hi)) if v is not None]
    if not steps:
        c.emit("RESHAPE", [cur, c.i32_tensor(_dims(c, x, nhwc))], [c.out(y, nhwc)])
        return
    ty, scale, zp = c.nn_type(x)
    for k, (op, v) in enumerate(steps):
        bound = c.b.add_constant(ty, np.asarray(v).reshape(1), (1,), scale=scale, zero_point=zp)
        dst = c.out(y, nhwc) if k == len(steps) - 1 else c._add(x, nhwc)
        c.emit(op, [cur, bound], [dst])
        cur = dst


@maps("LeakyRelu", "PRELU", "alpha -> a one-element alpha tensor")
def _leaky(c, n):
    x = n.inputs[0]
    nhwc = _pick_layout(c, [x])
    alpha = c.float_const(np.full((1,) * max(c.rank(x), 1), n.attr("alpha", 0.01)), x)
    c.emit("PRELU", [c.get(x, nhwc), alpha], [c.out(n.outputs[0], nhwc)])


@maps("PRelu", "PRELU", "slope broadcast as given (constants permuted for NHWC)")
def _prelu(c, n):
    x, s = n.inputs
    nhwc = _pick_layout(c, [x])
    c.emit("PRELU", [c.get(x, nhwc), _operand_in(c, s, nhwc, c.rank(x))], [c.out(n.outputs[0], nhwc)])


@maps("HardSigmoid", ("MUL", "ADD", "MAXIMUM", "MINIMUM"), "max(0, min(1, alpha x + beta)) as four ops")
def _hard_sigmoid(c, n):
    x, y = n.inputs[0], n.outputs[0]
    nhwc = _pick_layout(c, [x])
    cur = c.get(x, nhwc)
    steps = [("MUL", n.attr("alpha", 0.2)), ("ADD", n.attr("beta", 0.5)), ("MAXIMUM", 0.0), ("MINIMUM", 1.0)]
    for k, (op, v) in enumerate(steps):
        dst = c.out(y, nhwc) if k == len(steps) - 1 else c._add(x, nhwc)
        ins = [cur, c.float_const([v], x)] + ([c.i32(0)] if op in _FUSED else [])
        c.emit(op, ins, [dst])
        cur = dst


def _softmax(nn):
    def convert(c, n):
        x = n.inputs[0]
        r = c.rank(x)
        axis = n.attr("axis", -1)
        axis = axis + r if axis < 0 else axis
        nhwc = _pick_layout(c, [x])
        if nhwc:
            axis = TO_NHWC.index(axis)
        c.emit(nn, [c.get(x, nhwc), c.f32(1.0, x), c.i32(axis)], [c.out(n.outputs[0], nhwc)])
    return convert


maps("Softmax", "SOFTMAX", "beta 1.0, axis -> INT32 (opset 13 semantics: one axis)")(_softmax("SOFTMAX"))
maps("LogSoftmax", "LOG_SOFTMAX", "beta 1.0, axis -> INT32 (float only)")(_softmax("LOG_SOFTMAX"))


@maps("Identity", (), "no operation: the output is the input (a RESHAPE where an output must be a copy)")
@maps("Dropout", (), "inference: the output is the input; a used mask output is not supported")
def _identity(c, n):
    if len(n.outputs) > 1 and n.outputs[1]:
        c.unsupported("its mask output is used")
    if n.op == "Dropout" and n.inp(2):
        mode = c.need_const(n.inp(2), "training_mode")
        if bool(mode.reshape(-1)[0]):
            c.unsupported("it is in training mode (random)")
    c.alias(n.outputs[0], n.inputs[0])


@maps("Constant", (), "a constant tensor (value / value_float(s) / value_int(s) attributes)")
def _constant(c, n):
    raise AssertionError("Constant nodes are folded before conversion")  # pragma: no cover


@maps("Shape", (), "of a tensor with a known shape: a constant (folded with the nodes computing on it)")
@maps("Size", (), "of a tensor with a known shape: a constant")
def _shape(c, n):
    c.unsupported(f"the shape of tensor {n.inputs[0]!r} is not known at import")


# ------------------------------------------------------------------------------ shape / movement
def _target(c, n: Node, nhwc_ok: bool):
    """The input operand of a reshaping op and whether it was taken from an NHWC tensor whose
    H x W is 1 (same bytes as NCHW)."""
    x = n.inputs[0]
    s = c.shape(x)
    if nhwc_ok and c.is_nhwc(x) and len(s) == 4 and s[2] * s[3] == 1:
        return x, True
    return x, False


def _reshape_to(c, n: Node) -> None:
    """RESHAPE to the inferred output shape (Reshape, Flatten, Squeeze, Unsqueeze)."""
    y = n.outputs[0]
    out = c.shape(y)
    if not all(out):
        c.unsupported(f"its output shape {list(out)} is not fully known")
    x = n.inputs[0]
    src = c.dq_source(x)
    if src is not None:
        q = c.quant[src]
        xs = c.shape(src)
        flat = c.is_nhwc(src) and len(xs) == 4 and xs[2] * xs[3] == 1
        qy = c.fresh(y, out, q.elem, q)
        c.emit("RESHAPE", [c.get(src, flat), c.i32_tensor(out or (1,))], [c.out(qy)])
        c.dq[y] = qy
        return
    s = c.shape(x)
    flat = c.is_nhwc(x) and len(s) == 4 and s[2] * s[3] == 1
    c.emit("RESHAPE", [c.get(x, flat), c.i32_tensor(out or (1,))], [c.out(y)])


for _name in ("Reshape", "Flatten", "Squeeze", "Unsqueeze"):
    maps(_name, "RESHAPE", "RESHAPE to the inferred output shape (an NHWC input with H x W = 1 is read "
                           "as is); on a DQ output: of the quantized tensor")(_reshape_to)


@maps("Transpose", "TRANSPOSE", "perm -> TENSOR_INT32 (default: reversed axes); on a DQ output: of the "
                                "quantized tensor")
def _transpose(c, n):
    x = n.inputs[0]
    perm = n.attr("perm") or list(range(c.rank(x)))[::-1]
    if not _commute(c, n, "TRANSPOSE", lambda q: [q, c.i32_tensor(perm)]):
        c.emit("TRANSPOSE", [c.get(x), c.i32_tensor(perm)], [c.out(n.outputs[0])])


@maps("Concat", "CONCATENATION", "axis -> INT32 (NHWC inputs concatenate along the permuted axis); all "
                                 "inputs DQ outputs of one quantization: concatenates the quantized tensors")
def _concat(c, n):
    ins = [i for i in n.inputs if i and (i in c.consts and c.consts[i].size or i not in c.consts)]
    y = n.outputs[0]
    r = c.rank(y)
    axis = n.attr("axis")
    axis = axis + r if axis < 0 else axis
    srcs = [c.dq_source(i) for i in ins]
    if all(srcs) and all(c.quant[s].same(c.quant[srcs[0]]) for s in srcs):
        q = c.quant[srcs[0]]
        nhwc = _pick_layout(c, srcs) and r == 4
        qy = c.fresh(y, c.shape(y), q.elem, q)
        ax = TO_NHWC.index(axis) if nhwc else axis
        c.emit("CONCATENATION", [_operand_in(c, s, nhwc, r) for s in srcs] + [c.i32(ax)], [c.out(qy, nhwc)])
        c.dq[y] = qy
        return
    nhwc = _pick_layout(c, ins) and r == 4
    ax = TO_NHWC.index(axis) if nhwc else axis
    c.emit("CONCATENATION", [_operand_in(c, i, nhwc, r) for i in ins] + [c.i32(ax)], [c.out(y, nhwc)])


def _slice_params(c, n: Node):
    x = n.inputs[0]
    shape = c.shape(x)
    r = len(shape)
    starts = c.need_const(n.inp(1), "starts").astype(np.int64)
    ends = c.need_const(n.inp(2), "ends").astype(np.int64)
    axes = c.need_const(n.inp(3), "axes").astype(np.int64) if n.inp(3) else np.arange(len(starts))
    steps = c.need_const(n.inp(4), "steps").astype(np.int64) if n.inp(4) else np.ones(len(starts), np.int64)
    begin, end, stride = [0] * r, list(shape), [1] * r
    emask = 0
    for s, e, a, st in zip(starts, ends, axes, steps):
        a = int(a) + r if a < 0 else int(a)
        d = shape[a]
        if not d:
            c.unsupported(f"axis {a} of its input has an unknown size")
        s, e, st = int(s), int(e), int(st)
        s = s + d if s < 0 else s
        e = e + d if e < 0 else e
        if st > 0:
            s, e = min(max(s, 0), d), min(max(e, 0), d)
        else:
            s, e = min(max(s, 0), d - 1), min(max(e, -1), d - 1)
            if e < 0:
                emask |= 1 << a
        begin[a], end[a], stride[a] = s, e, st
    return begin, end, stride, emask


@maps("Slice", "STRIDED_SLICE", "constant starts / ends / axes / steps, clamped to the axis as ONNX does, "
                                "-> begin / end / strides (a negative step running past the start: end mask)")
def _slice(c, n):
    begin, end, stride, emask = _slice_params(c, n)

    def ins(x):
        return [x, c.i32_tensor(begin), c.i32_tensor(end), c.i32_tensor(stride), c.i32(0), c.i32(emask), c.i32(0)]
    if not _commute(c, n, "STRIDED_SLICE", ins):
        c.emit("STRIDED_SLICE", ins(c.get(n.inputs[0])), [c.out(n.outputs[0])])


@maps("Split", ("SPLIT", "SLICE"), "equal parts: SPLIT; sizes from the split input: one SLICE per output")
def _split(c, n):
    x = n.inputs[0]
    shape = c.shape(x)
    r = len(shape)
    axis = n.attr("axis", 0)
    axis = axis + r if axis < 0 else axis
    sizes = [c.shape(o)[axis] for o in n.outputs]
    src = c.dq_source(x)
    if src is not None:
        q = c.quant[src]
        outs = [c.fresh(o, c.shape(o), q.elem, q) for o in n.outputs]
        for o, qo in zip(n.outputs, outs):
            c.dq[o] = qo
        xin = c.get(src)
    else:
        outs, xin = list(n.outputs), c.get(x)
    if len(set(sizes)) == 1:
        c.emit("SPLIT", [xin, c.i32(axis), c.i32(len(outs))], [c.out(o) for o in outs])
        return
    start = 0
    for o, k in zip(outs, sizes):
        begin = [start if d == axis else 0 for d in range(r)]
        size = [k if d == axis else -1 for d in range(r)]
        c.emit("SLICE", [xin, c.i32_tensor(begin), c.i32_tensor(size)], [c.out(o)])
        start += k


@maps("Gather", ("GATHER", "RESHAPE", "LESS", "ADD", "SELECT"),
      "axis -> INT32, indices int32 (negative indices made positive: at import for constants, else by "
      "LESS, ADD and SELECT); scalar indices: GATHER of [1] then RESHAPE")
def _gather(c, n):
    x, idx, y = n.inputs[0], n.inputs[1], n.outputs[0]
    r = c.rank(x)
    axis = n.attr("axis", 0)
    axis = axis + r if axis < 0 else axis
    v = c.const(idx)
    if v is not None:
        d = c.shape(x)[axis]
        v = np.where(v < 0, v + d, v)
        ind = c.b.add_constant(T.TENSOR_INT32, v.astype(np.int32).reshape(v.shape or (1,)), v.shape or (1,))
    else:  # negative indices count from the end: idx + d where idx < 0
        ind = c.get(idx)
        dims = c.shape(idx) or (1,)
        neg = c.b.add_operand(T.TENSOR_BOOL8, dims)
        c.emit("LESS", [ind, c.b.add_constant(T.TENSOR_INT32, np.zeros(1, np.int32), (1,))], [neg])
        wrapped = c.b.add_operand(T.TENSOR_INT32, dims)
        c.emit("ADD", [ind, c.b.add_constant(T.TENSOR_INT32, np.array([c.shape(x)[axis]], np.int32), (1,)),
                       c.i32(0)], [wrapped])
        fixed = c.b.add_operand(T.TENSOR_INT32, dims)
        c.emit("SELECT", [neg, wrapped, ind], [fixed])
        ind = fixed
    scalar = v is not None and v.ndim == 0 or v is None and not c.shape(idx)
    src = c.dq_source(x)
    base, xin = y, c.get(x)
    if src is not None:
        q = c.quant[src]
        base = c.fresh(y, c.shape(y), q.elem, q)
        c.dq[y] = base
        xin = c.get(src)
    if not scalar:
        c.emit("GATHER", [xin, c.i32(axis), ind], [c.out(base)])
        return
    ys = c.shape(y)
    mid = c.fresh(base, ys[:axis] + (1,) + ys[axis:], c.elem(base), c.quant.get(base))
    c.emit("GATHER", [xin, c.i32(axis), ind], [c.out(mid)])
    c.emit("RESHAPE", [c.get(mid), c.i32_tensor(ys or (1,))], [c.out(base)])


@maps("Pad", ("PAD", "PAD_V2", "GATHER"), "constant non-negative pads -> TENSOR_INT32 [rank, 2]; constant "
                                          "mode: value 0: PAD, else PAD_V2 with the value; reflect / edge / "
                                          "wrap: one GATHER per padded axis with the source index of every "
                                          "output position")
def _pad(c, n):
    mode = n.attr("mode", "constant")
    if mode not in ("constant", "reflect", "edge", "wrap"):
        c.unsupported(f"its mode {mode!r} has no NNAPI counterpart")
    x, y = n.inputs[0], n.outputs[0]
    r = c.rank(x)
    pads = c.need_const(n.inp(1), "pads").astype(np.int64)
    if n.inp(3):
        axes = c.need_const(n.inp(3), "axes").astype(np.int64)
        full = np.zeros(2 * r, np.int64)
        for k, a in enumerate(axes):
            a = a + r if a < 0 else a
            full[a], full[a + r] = pads[k], pads[k + len(axes)]
        pads = full
    if np.any(pads < 0):
        c.unsupported("it has negative pads (cropping)")
    if mode != "constant":
        _pad_by_gather(c, x, y, pads, mode)
        return
    pairs = np.stack([pads[:r], pads[r:]], axis=1)
    value = c.need_const(n.inp(2), "constant_value") if n.inp(2) else None
    value = 0.0 if value is None or value.size == 0 else value.reshape(-1)[0]
    nhwc = _pick_layout(c, [x])
    if nhwc:
        pairs = pairs[list(TO_NHWC)]
    if value == 0:
        c.emit("PAD", [c.get(x, nhwc), c.b.add_constant(T.TENSOR_INT32, pairs.astype(np.int32), pairs.shape)],
               [c.out(y, nhwc)])
        return
    scalar = c.f32(float(value), x) if c.elem(x) in FLOAT_ELEMS else c.i32(int(value))
    c.emit("PAD_V2", [c.get(x, nhwc), c.b.add_constant(T.TENSOR_INT32, pairs.astype(np.int32), pairs.shape),
                      scalar], [c.out(y, nhwc)])


def pad_indices(d: int, before: int, after: int, mode: str) -> np.ndarray:
    """The source index along an axis of size ``d`` of every output position of a reflect / edge /
    wrap Pad (ONNX semantics: reflect mirrors without repeating the edge)."""
    j = np.arange(-before, d + after)
    if mode == "edge" or d == 1:
        return np.clip(j, 0, d - 1)
    if mode == "wrap":
        return np.mod(j, d)
    m = np.mod(j, 2 * (d - 1))
    return np.where(m < d, m, 2 * (d - 1) - m)


def _pad_by_gather(c, x: str, y: str, pads: np.ndarray, mode: str) -> None:
    r = len(pads) // 2
    axes = [a for a in range(r) if pads[a] or pads[a + r]]
    if not axes:
        c.emit("RESHAPE", [c.get(x), c.i32_tensor(c.shape(x) or (1,))], [c.out(y)])
        return
    cur, shape = x, list(c.shape(x))
    for k, a in enumerate(axes):
        if not shape[a]:
            c.unsupported(f"axis {a} of its input has an unknown size")
        idx = pad_indices(shape[a], int(pads[a]), int(pads[a + r]), mode)
        shape[a] = idx.size
        dst = y if k == len(axes) - 1 else c.fresh(y, shape, c.elem(x), c.quant.get(x))
        c.emit("GATHER", [c.get(cur), c.i32(a), c.i32_tensor(idx)], [c.out(dst)])
        cur = dst


# ----------------------------------------------------------------------------------- reductions
def _reduce(nn_of_float: str):
    def convert(c, n):
        nn = nn_of_float
        x, y = n.inputs[0], n.outputs[0]
        r = c.rank(x)
        if nn in ("REDUCE_MAX", "REDUCE_MIN") and not all(c.shape(x)):
            c.unsupported("its input is empty or of unknown size (ONNX gives -inf / inf for an empty max / min)")
        if n.inp(1):
            axes = c.need_const(n.inp(1), "axes")
        else:
            axes = np.asarray(n.attr("axes", []), np.int64)
        if axes.size == 0:
            if n.attr("noop_with_empty_axes", 0):
                c.alias(y, x)
                return
            axes = np.arange(r)
        axes = sorted({int(a) + r if a < 0 else int(a) for a in axes.reshape(-1)})
        keep = bool(n.attr("keepdims", 1))
        nhwc = _pick_layout(c, [x]) and keep
        if nhwc:
            axes = sorted(TO_NHWC.index(a) for a in axes)
        if c.elem(x) == TensorProto.BOOL:
            nn = {"REDUCE_MAX": "REDUCE_ANY", "REDUCE_MIN": "REDUCE_ALL"}.get(nn, nn)
        ins = [c.get(x, nhwc), c.i32_tensor(axes), c.i32(int(keep)) if nn == "MEAN" else c.boolean(keep)]
        if not keep and len(axes) == r:
            mid = c.fresh(y, (1,) * r, c.elem(y))
            c.emit(nn, [c.get(x), c.i32_tensor(axes), c.i32(1) if nn == "MEAN" else c.boolean(True)],
                   [c.out(mid)])
            c.emit("RESHAPE", [c.get(mid), c.i32_tensor([1])], [c.out(y)])
            return
        c.emit(nn, ins, [c.out(y, nhwc)])
    return convert


for _name, _nn in (("ReduceMean", "MEAN"), ("ReduceMax", "REDUCE_MAX"), ("ReduceMin", "REDUCE_MIN"),
                   ("ReduceSum", "REDUCE_SUM"), ("ReduceProd", "REDUCE_PROD")):
    maps(_name, (_nn, "RESHAPE"), "axes (attribute, or input from opset 18) -> TENSOR_INT32, keepdims -> "
         + ("INT32" if _nn == "MEAN" else "BOOL") + ("; bool input: REDUCE_ANY" if _nn == "REDUCE_MAX" else
                                                      "; bool input: REDUCE_ALL" if _nn == "REDUCE_MIN" else "")
         + "; empty axes: all (or the input with "
         "noop_with_empty_axes); a full reduction without keepdims comes out [1]")(_reduce(_nn))


@maps("BatchNormalization", ("MUL", "ADD"), "inference form, folded: y = x * a + b with a = scale / "
      "sqrt(var + epsilon) and b = bias - mean * a computed at import (float64, then float32), "
      "per channel (axis 1)")
def _batchnorm(c, n):
    if len(n.outputs) > 1 and any(n.outputs[1:]):
        c.unsupported("it is in training mode (running mean / var outputs)")
    x, y = n.inputs[0], n.outputs[0]
    scale, bias, mean, var = (c.need_const(n.inp(k), w).astype(np.float64)
                              for k, w in ((1, "scale"), (2, "bias"), (3, "mean"), (4, "var")))
    a = scale / np.sqrt(var + n.attr("epsilon", 1e-5))
    bb = bias - mean * a
    r = c.rank(x)
    shape = (a.size,) + (1,) * (r - 2)
    nhwc = _pick_layout(c, [x])
    na, nb = c.fresh(y, shape, c.elem(x)), c.fresh(y, shape, c.elem(x))
    dt = np.float16 if c.elem(x) == TensorProto.FLOAT16 else np.float32
    c.consts[na], c.consts[nb] = a.astype(dt).reshape(shape), bb.astype(dt).reshape(shape)
    mid = c._add(y, nhwc)
    c.emit("MUL", [c.get(x, nhwc), _operand_in(c, na, nhwc, r), c.i32(0)], [mid])
    c.emit("ADD", [mid, _operand_in(c, nb, nhwc, r), c.i32(0)], [c.out(y, nhwc)])
