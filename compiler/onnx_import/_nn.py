"""ONNX -> NNAPI converters: convolutions, pools, Gemm / MatMul, Resize, QuantizeLinear /
DequantizeLinear and the QOperator ops.

Spatial ops read their input and write their output in NHWC (see the package docstring); a
quantized form is emitted when the inputs are 8-bit (QDQ or QOperator) and a plain float form
otherwise."""

from __future__ import annotations

import numpy as np
from onnx import TensorProto

from ...model import OperandType
from ._context import (
    FIXED_POINT_LOGISTIC,
    FIXED_POINT_REQUANT,
    MS_DOMAIN,
    Q8_ELEMS,
    ROUND_HALF_AWAY,
    TO_NHWC,
    ImportContext,
    Node,
    Quant,
    _dims,
    _pick_layout,
    maps,
)
from ._ops import _emit_quant_binary

T = OperandType
DEPTHWISE_PERM = (1, 2, 3, 0)   # [C*M, 1, kh, kw] -> [1, kh, kw, C*M]


# ------------------------------------------------------------------------------------ geometry
def _window(c: ImportContext, n: Node, x: str, y: str, kernel) -> tuple:
    """Explicit NNAPI padding (left, right, top, bottom), strides (w, h) and dilations (w, h) of a
    2-D window op; auto_pad and ceil_mode are resolved against the inferred output size."""
    xs, ys = c.shape(x), c.shape(y)
    if len(xs) != 4:
        c.unsupported(f"its input is {len(xs)}-D (only 2-D windows over NCHW are mapped)")
    sh, sw = n.attr("strides", [1, 1])
    dh, dw = n.attr("dilations", [1, 1])
    kh, kw = kernel
    auto = n.attr("auto_pad", "NOTSET")
    pads = list(n.attr("pads", [0, 0, 0, 0]))
    ins, outs = xs[2:], ys[2:]
    if not all(ins) or not all(outs):
        c.unsupported("its spatial sizes are not known")
    if auto in ("SAME_UPPER", "SAME_LOWER"):
        for a, (i, s, k, d) in enumerate(zip(ins, (sh, sw), (kh, kw), (dh, dw))):
            total = max((-(-i // s) - 1) * s + (k - 1) * d + 1 - i, 0)
            small = total // 2
            pads[a], pads[a + 2] = (small, total - small) if auto == "SAME_UPPER" else (total - small, small)
    elif auto == "VALID":
        pads = [0, 0, 0, 0]
    for a, (i, o, s, k, d) in enumerate(zip(ins, outs, (sh, sw), (kh, kw), (dh, dw))):
        extra = (o - 1) * s + (k - 1) * d + 1 - (i + pads[a] + pads[a + 2])
        if extra > 0:  # ceil_mode: windows reaching past the end
            pads[a + 2] += extra
    pt, pl, pb, pr = pads
    return (pl, pr, pt, pb), (sw, sh), (dw, dh)


def _pads_ops(c, pads, strides):
    return [c.i32(p) for p in pads] + [c.i32(s) for s in strides]


# ------------------------------------------------------------------------------------ filters
def _filter(c: ImportContext, w: str, x_elem: int, perm, channel_dim: int, quant: bool):
    """The NNAPI filter operand of ONNX weights ``w`` permuted by ``perm``.

    Float: the constant (or a TRANSPOSE of the weight input). Quantized: the 8-bit constant behind
    the weights' DQ (or the QLinearConv weights); int8 weights for a uint8 input are shifted to
    uint8 (or made per-channel symmetric when their zero point is 0)."""
    if not quant:
        v = c.const(w)
        if v is not None:
            return c.b.add_constant(_float_type(c, w), np.transpose(v, perm), np.transpose(v, perm).shape)
        src = c.get(w)
        shape = tuple(c.shape(w)[p] for p in perm)
        dst = c.b.add_operand(_float_type(c, w), shape)
        c.emit("TRANSPOSE", [src, c.i32_tensor(perm)], [dst])
        return dst
    v, q = _weights(c, w)
    v, q = effective_weights(np.transpose(v, perm), q, x_elem, channel_dim)
    return c.filter_const(v, q, channel_dim)


def effective_weights(v: np.ndarray, q: Quant, x_elem: int, channel_dim: int) -> tuple[np.ndarray, Quant]:
    """8-bit weights as NNAPI takes them with an ``x_elem`` input: per-channel stays per-channel;
    int8 with zero point 0 under a uint8 input becomes per-channel symmetric (one repeated scale);
    otherwise the weights are shifted by 128 to the input's signedness."""
    if q.per_channel or (x_elem == TensorProto.UINT8 and v.dtype == np.int8 and q.z == 0):
        scales = np.broadcast_to(q.scale.reshape(-1), (v.shape[channel_dim],))
        return v.astype(np.int8), Quant(np.asarray(scales, np.float64), np.zeros(scales.size, np.int64),
                                        channel_dim, TensorProto.INT8)
    if x_elem == TensorProto.UINT8 and v.dtype == np.int8:
        return (v.astype(np.int16) + 128).astype(np.uint8), Quant(q.scale, q.zero_point + 128, None, x_elem)
    if x_elem == TensorProto.INT8 and v.dtype == np.uint8:
        return (v.astype(np.int16) - 128).astype(np.int8), Quant(q.scale, q.zero_point - 128, None, x_elem)
    return v, q


def _float_type(c, name):
    return T.TENSOR_FLOAT16 if c.elem(name) == TensorProto.FLOAT16 else T.TENSOR_FLOAT32


def _weights(c: ImportContext, w: str) -> tuple[np.ndarray, Quant]:
    """Quantized constant weights: behind a DQ (QDQ) or the tensor itself (QOperator)."""
    dw = c.dq_weight(w)
    if dw is not None:
        return dw
    v = c.need_const(w, "weights")
    if w not in c.quant:
        c.unsupported(f"its weights {w!r} are not a quantized constant")
    return v, c.quant[w]


def _w_scales(c, w: str, units: int) -> np.ndarray:
    return np.broadcast_to(_weights(c, w)[1].scale.reshape(-1), (units,)).astype(np.float64)


def _bias(c: ImportContext, b: str, units: int, x: str | None = None, w: str | None = None,
          like: str = "") -> int:
    """The NNAPI bias: float as given (zeros when omitted), or for a quantized op TENSOR_INT32 in
    units of ``s_x * s_w`` (scale ``s_x * s_w`` per tensor, 0 per channel as NNAPI requires)."""
    if x is None:
        if b:
            return c.get(b)
        return c.b.add_constant(_float_type(c, like), np.zeros(units), (units,))
    sx = c.qof(x).s
    sw = _w_scales(c, w, units)
    wv, wq = _weights(c, w)
    per_channel = wq.per_channel or (c.elem(x) == TensorProto.UINT8 and wv.dtype == np.int8 and wq.z == 0)
    values = np.zeros(units, np.int64)
    if b:
        dq = c.dq_weight(b)
        if dq is not None:  # QDQ: int32 behind a DQ with its own scale(s)
            bv, bq = dq
            real = bv.astype(np.float64).reshape(-1) * np.broadcast_to(bq.scale.reshape(-1), (units,))
            values = np.round(real / (sx * sw)).astype(np.int64)
            if np.allclose(np.broadcast_to(bq.scale.reshape(-1), (units,)), sx * sw, rtol=1e-6, atol=0):
                values = bv.astype(np.int64).reshape(-1)
        else:
            v = c.const(b)
            if v is None:
                c.unsupported(f"its bias {b!r} is not a constant")
            if v.dtype.kind == "f":
                values = np.round(v.astype(np.float64).reshape(-1) / (sx * sw)).astype(np.int64)
            else:
                values = v.astype(np.int64).reshape(-1)
    scale = 0.0 if per_channel else sx * float(sw[0])
    return c.b.add_constant(T.TENSOR_INT32, c.int32(values, b), (units,), scale=scale)


# --------------------------------------------------------------------------------- convolutions
def emit_conv(c: ImportContext, n: Node, x: str, w: str, b: str, y: str, fuse: int, quant: bool) -> None:
    """CONV_2D / DEPTHWISE_CONV_2D / GROUPED_CONV_2D of NHWC ``x`` into NHWC ``y``."""
    o, ig, kh, kw = c.shape(w)
    group = n.attr("group", 1)
    cin = ig * group
    pads, strides, dil = _window(c, n, x, y, n.attr("kernel_shape", [kh, kw]))
    xin = c.get(x, True)
    xe = c.elem(x)
    bias = _bias(c, b, o, x, w) if quant else _bias(c, b, o, like=x)
    tail = [c.boolean(False)] + ([c.i32(dil[0]), c.i32(dil[1])] if dil != (1, 1) else [])
    if group == 1:
        f = _filter(c, w, xe, TO_NHWC, 0, quant)
        c.emit("CONV_2D", [xin, f, bias, *_pads_ops(c, pads, strides), c.i32(fuse), *tail], [c.out(y, True)])
    elif group == cin and ig == 1:
        f = _filter(c, w, xe, DEPTHWISE_PERM, 3, quant)
        c.emit("DEPTHWISE_CONV_2D", [xin, f, bias, *_pads_ops(c, pads, strides), c.i32(o // cin), c.i32(fuse),
                                     *tail], [c.out(y, True)])
    else:
        if dil != (1, 1):
            c.unsupported("it is a grouped convolution with dilations (NNAPI GROUPED_CONV_2D has none)")
        f = _filter(c, w, xe, TO_NHWC, 0, quant)
        c.emit("GROUPED_CONV_2D", [xin, f, bias, *_pads_ops(c, pads, strides), c.i32(group), c.i32(fuse),
                                   c.boolean(False)], [c.out(y, True)])


@maps("Conv", ("CONV_2D", "DEPTHWISE_CONV_2D", "GROUPED_CONV_2D", "TRANSPOSE", "RESHAPE"),
      "2-D (1-D float: over [N, C, 1, L] between RESHAPEs), NHWC: group 1 -> CONV_2D (filter OIHW -> OHWI), group = channels -> DEPTHWISE_CONV_2D (filter "
      "-> [1, kh, kw, C*M]), else GROUPED_CONV_2D; pads / auto_pad -> explicit padding, dilations; a weight "
      "input (not constant) is TRANSPOSEd; QDQ: DQ input + DQ int8 weights (per-tensor or per-channel, "
      "axis 0) + DQ int32 bias + a QuantizeLinear output -> the quantized op, a following Relu / Clip fused",
      quant_tolerance=1, difference=FIXED_POINT_REQUANT)
def _conv(c, n):
    x, w, b = n.inputs[0], n.inputs[1], n.inp(2)
    if len(c.shape(w)) == 3 and c.dq_source(x) is None and c.dq_weight(w) is None:
        n2, x4, y4 = lift_1d(c, n, x, n.outputs[0])
        w4 = c.fresh(w, c.shape(w)[:2] + (1,) + c.shape(w)[2:], c.elem(w))
        if c.const(w) is not None:
            c.consts[w4] = c.const(w)[:, :, None, :]
        else:
            c.emit("RESHAPE", [c.get(w), c.i32_tensor(c.shape(w4))], [c.out(w4)])
        emit_conv(c, n2, x4, w4, b, y4, 0, False)
        drop_1d(c, y4, n.outputs[0])
        return
    if len(c.shape(w)) != 4:
        c.unsupported(f"it is a {len(c.shape(w)) - 2}-D convolution (only 1-D float and 2-D are mapped)")
    src = c.dq_source(x)
    if src is not None and c.dq_weight(w) is not None and (not b or c.dq_weight(b) is not None
                                                           or c.const(b) is not None):
        target = c.q_output(n)
        if target is not None:
            emit_conv(c, n, src, w, b, target[0], target[1], True)
            return
    emit_conv(c, n, x, w, b, n.outputs[0], 0, False)


@maps("QLinearConv", ("CONV_2D", "DEPTHWISE_CONV_2D", "GROUPED_CONV_2D"),
      "as Conv, quantized: x / w / y scales and zero points from the inputs, int32 bias in units of "
      "s_x * s_w", quant_tolerance=1, difference=FIXED_POINT_REQUANT)
def _qlinear_conv(c, n):
    _need_quant_params(c, n)
    emit_conv(c, n, n.inputs[0], n.inputs[3], n.inp(8), n.outputs[0], 0, True)


@maps("ConvInteger", ("DEQUANTIZE", "CONV_2D", "CAST"),
      "x -> float32 by DEQUANTIZE (scale 1, the zero point), weights - w_zero_point as float32, float "
      "CONV_2D (padding x - x_zero_point with 0, i.e. x with its zero point, as the ONNX reference "
      "and onnxruntime do), CAST to int32: exact while every partial sum stays below 2^24")
def _conv_integer(c, n):
    _need_quant_params(c, n)
    x, w = n.inputs[0], n.inputs[1]
    wv = c.need_const(w, "weights").astype(np.float64)
    wz = c.need_const(n.inp(3), "w_zero_point") if n.inp(3) else None
    if wz is not None:
        wv = wv - wz.astype(np.float64).reshape((-1,) + (1,) * (wv.ndim - 1))
    fw = c.fresh(w, wv.shape, TensorProto.FLOAT)
    c.consts[fw] = wv.astype(np.float32)
    fx = c.fresh(x, c.shape(x), TensorProto.FLOAT)
    c.dq[fx] = x
    fy = c.fresh(n.outputs[0], c.shape(n.outputs[0]), TensorProto.FLOAT)
    emit_conv(c, n, fx, fw, "", fy, 0, False)
    c.emit("CAST", [c.get(fy)], [c.out(n.outputs[0])])  # ONNX layout: NNAPI TRANSPOSE has no int32


@maps("ConvTranspose", ("TRANSPOSE_CONV_2D", "PAD", "ADD", "SPLIT", "CONCATENATION", "RESHAPE"),
      "2-D (1-D: over [N, C, 1, L] between RESHAPEs), NHWC; groups: SPLIT along channels, one per group, "
      "CONCATENATION (constant weights); filter [C_in, C_out, kh, kw] -> [C_out, kh, kw, C_in]; pads, output_padding "
      "(taken off the end padding; beyond it: PAD of the result, then ADD of the bias), output_shape / "
      "auto_pad -> explicit padding; dilations (constant weights): the kernel with zeros between its taps")
def _conv_transpose(c, n):
    x, w, b, y = n.inputs[0], n.inputs[1], n.inp(2), n.outputs[0]
    ws = c.shape(w)
    if len(ws) == 3:
        n2, x4, y4 = lift_1d(c, n, x, y)
        w4 = c.fresh(w, ws[:2] + (1,) + ws[2:], c.elem(w))
        c.consts[w4] = c.need_const(w, "weights")[:, :, None, :]
        _conv_transpose(c, Node(n.index, n.op, n.domain, [x4, w4, *n2.inputs[2:]], n2.outputs, n2.attrs))
        drop_1d(c, y4, y)
        return
    if len(ws) != 4:
        c.unsupported("only 1-D and 2-D transposed convolutions are mapped")
    group = n.attr("group", 1)
    if group != 1:
        _grouped_conv_transpose(c, n, group)
        return
    dil = n.attr("dilations", [1, 1])
    if any(d != 1 for d in dil):  # a dilated kernel is the kernel with d - 1 zeros between its taps
        wv = c.need_const(w, "weights (dilated)")
        big = np.zeros(ws[:2] + tuple((k - 1) * d + 1 for k, d in zip(ws[2:], dil)), wv.dtype)
        big[:, :, ::dil[0], ::dil[1]] = wv
        wd = c.fresh(w, big.shape, c.elem(w))
        c.consts[wd] = big
        attrs = {k: v for k, v in n.attrs.items() if k not in ("dilations", "kernel_shape")}
        _conv_transpose(c, Node(n.index, n.op, n.domain, [x, wd, *n.inputs[2:]], n.outputs, attrs))
        return
    kh, kw = ws[2:]
    sh, sw = n.attr("strides", [1, 1])
    ins, outs = c.shape(x)[2:], c.shape(y)[2:]
    pads = []
    for i, o, s, k in zip(ins, outs, (sh, sw), (kh, kw)):
        pads.append(s * (i - 1) + k - o)  # the padding NNAPI's output size formula needs
    explicit = n.attr("pads")
    auto = n.attr("auto_pad", "NOTSET")
    pt_pb = []
    for a, total in enumerate(pads):
        if explicit and auto == "NOTSET":
            begin = explicit[a]
        elif auto == "SAME_UPPER":
            begin = total // 2
        else:
            begin = total - total // 2
        end = total - begin
        if begin < 0:
            c.unsupported("its begin padding is negative (NNAPI pads cannot be negative)")
        pt_pb.append((begin, end))
    (pt, pb), (pl, pr) = pt_pb
    f = _filter(c, w, c.elem(x), (1, 2, 3, 0), 0, False)
    if pb >= 0 and pr >= 0:
        bias = _bias(c, b, ws[1], like=x)
        c.emit("TRANSPOSE_CONV_2D", [c.get(x, True), f, bias, *_pads_ops(c, (pl, pr, pt, pb), (sw, sh)), c.i32(0),
                                     c.boolean(False)], [c.out(y, True)])
        return
    # output_padding past the end padding: rows / columns no kernel tap reaches, which hold the bias only
    ys = c.shape(y)
    short = c.fresh(y, (ys[0], ys[1], ys[2] + min(pb, 0), ys[3] + min(pr, 0)), c.elem(y))
    c.emit("TRANSPOSE_CONV_2D", [c.get(x, True), f, _bias(c, "", ws[1], like=x),
                                 *_pads_ops(c, (pl, max(pr, 0), pt, max(pb, 0)), (sw, sh)), c.i32(0),
                                 c.boolean(False)], [c.out(short, True)])
    pairs = np.array([[0, 0], [0, -min(pb, 0)], [0, -min(pr, 0)], [0, 0]], np.int32)
    padded = c.fresh(y, ys, c.elem(y))
    c.emit("PAD", [c.get(short, True), c.b.add_constant(T.TENSOR_INT32, pairs, pairs.shape)], [c.out(padded, True)])
    bv = c.const(b) if b else np.zeros(ws[1], np.float32)
    if bv is None:
        c.unsupported("its bias is not a constant")
    bias4 = c.fresh(y, (1, ws[1], 1, 1), c.elem(y))
    c.consts[bias4] = bv.reshape(1, -1, 1, 1).astype(np.float32)
    c.emit("ADD", [c.get(padded, True), c.get(bias4, True), c.i32(0)], [c.out(y, True)])


def _grouped_conv_transpose(c, n: Node, group: int) -> None:
    """ConvTranspose with groups: SPLIT of the NHWC input along channels, one TRANSPOSE_CONV_2D per
    group (its slices of the constant weights and bias), CONCATENATION of the results."""
    x, w, b, y = n.inputs[0], n.inputs[1], n.inp(2), n.outputs[0]
    wv = c.need_const(w, "weights")
    bv = c.need_const(b, "bias") if b else np.zeros(wv.shape[1] * group, wv.dtype)
    xs, ys = c.shape(x), c.shape(y)
    cg, mg = xs[1] // group, wv.shape[1]
    parts = [c.fresh(x, (xs[0], cg) + xs[2:], c.elem(x)) for _ in range(group)]
    c.emit("SPLIT", [c.get(x, True), c.i32(3), c.i32(group)], [c.out(p, True) for p in parts])
    attrs = {k: v for k, v in n.attrs.items() if k != "group"}
    outs = []
    for g, part in enumerate(parts):
        wg, bg = c.fresh(w, (cg,) + wv.shape[1:], c.elem(w)), c.fresh(w, (mg,), c.elem(w))
        c.consts[wg], c.consts[bg] = wv[g * cg:(g + 1) * cg], bv[g * mg:(g + 1) * mg]
        outs.append(c.fresh(y, (ys[0], mg) + ys[2:], c.elem(y)))
        _conv_transpose(c, Node(n.index, n.op, n.domain, [part, wg, bg], [outs[-1]], attrs))
    c.emit("CONCATENATION", [c.get(o, True) for o in outs] + [c.i32(3)], [c.out(y, True)])


def lift_1d(c: ImportContext, n: Node, x: str, y: str) -> tuple[Node, str, str]:
    """A 1-D window op ([N, C, L]) as a 2-D one over [N, C, 1, L]: the node with 2-D attributes, the
    RESHAPEd input and the 4-D output to give :func:`drop_1d`."""
    xs, ys = c.shape(x), c.shape(y)
    x4 = c.fresh(x, xs[:2] + (1,) + xs[2:], c.elem(x), c.quant.get(x))
    c.emit("RESHAPE", [c.get(x), c.i32_tensor(c.shape(x4))], [c.out(x4)])
    y4 = c.fresh(y, ys[:2] + (1,) + ys[2:], c.elem(y), c.quant.get(y))
    attrs = dict(n.attrs)
    for key, one in (("kernel_shape", 1), ("strides", 1), ("dilations", 1), ("output_padding", 0),
                     ("output_shape", 1)):
        if key in attrs:
            attrs[key] = [one, *attrs[key]]
    if "pads" in attrs:
        attrs["pads"] = [0, attrs["pads"][0], 0, attrs["pads"][1]]
    return Node(n.index, n.op, n.domain, [x4, *n.inputs[1:]], [y4, *n.outputs[1:]], attrs), x4, y4


def drop_1d(c: ImportContext, y4: str, y: str) -> None:
    c.emit("RESHAPE", [c.get(y4), c.i32_tensor(c.shape(y))], [c.out(y)])


# -------------------------------------------------------------------------------------- pools
def _needs_tap_pool(c, n: Node, x: str, src) -> bool:
    """Pools NNAPI's 2-D pools cannot express (dilations, 3-D windows), on float input."""
    r = c.rank(x)
    if r != 4 or src is not None or c.elem(x) != TensorProto.FLOAT:  # NNAPI's PAD / STRIDED_SLICE: rank <= 4
        return False
    return any(d != 1 for d in n.attr("dilations", [1] * (r - 2)))


def tap_pool(c: ImportContext, n: Node, x: str, y: str, kind: str) -> None:
    """A max / average pool of any window rank, stride and dilation in ONNX layout: the input padded
    (max: with -inf), one STRIDED_SLICE per kernel tap, MAXIMUM / ADD over the taps; the average
    divides by the count of taps each output reads (count_include_pad: of the padded input, else of
    the input itself, a constant computed at import)."""
    xs, ys = c.shape(x), c.shape(y)
    r = len(xs) - 2
    kernel, strides = n.attr("kernel_shape"), n.attr("strides", [1] * r)
    dil, auto = n.attr("dilations", [1] * r), n.attr("auto_pad", "NOTSET")
    pads = list(n.attr("pads", [0] * (2 * r)))
    if auto in ("SAME_UPPER", "SAME_LOWER"):
        for a in range(r):
            total = max((-(-xs[2 + a] // strides[a]) - 1) * strides[a] + (kernel[a] - 1) * dil[a] + 1 - xs[2 + a], 0)
            small = total // 2
            pads[a], pads[a + r] = (small, total - small) if auto == "SAME_UPPER" else (total - small, small)
    elif auto == "VALID":
        pads = [0] * (2 * r)
    include = kind == "avg" and n.attr("count_include_pad", 0)
    ext = [max((ys[2 + a] - 1) * strides[a] + (kernel[a] - 1) * dil[a] + 1 - (xs[2 + a] + pads[a] + pads[a + r]), 0)
           for a in range(r)]  # ceil_mode: windows reaching past the end padding
    if include and any(ext):
        c.unsupported("it counts padding with ceil_mode (no NNAPI form)")
    pairs = np.array([[0, 0], [0, 0]] + [[pads[a], pads[a + r] + ext[a]] for a in range(r)], np.int32)
    padded = c.get(x)
    if pairs.any():
        padded = c.b.add_operand(T.TENSOR_FLOAT32, tuple(int(d + p0 + p1) for d, (p0, p1) in zip(xs, pairs)))
        fill = c.f32(-np.inf if kind == "max" else 0.0)
        c.emit("PAD_V2", [c.get(x), c.b.add_constant(T.TENSOR_INT32, pairs, pairs.shape), fill], [padded])
    # the taps each output counts: the input's (count_include_pad: also the pads, ext is then 0)
    valid = np.pad(np.ones(xs[2:], np.float32), [tuple(p) for p in pairs[2:]], constant_values=float(include))
    count = np.zeros(ys[2:], np.float32)
    acc = None
    for tap in np.ndindex(*kernel):
        begin = [0, 0] + [t * d for t, d in zip(tap, dil)]
        end = [xs[0], xs[1]] + [b + (o - 1) * s + 1 for b, o, s in zip(begin[2:], ys[2:], strides)]
        step = [1, 1] + list(strides)
        count += valid[tuple(slice(b, e, st) for b, e, st in zip(begin[2:], end[2:], step[2:]))]
        part = c.b.add_operand(T.TENSOR_FLOAT32, ys)
        c.emit("STRIDED_SLICE", [padded, c.i32_tensor(begin), c.i32_tensor(end), c.i32_tensor(step), c.i32(0),
                                 c.i32(0), c.i32(0)], [part])
        if acc is None:
            acc = part
            continue
        nxt = c.b.add_operand(T.TENSOR_FLOAT32, ys)
        c.emit("MAXIMUM" if kind == "max" else "ADD", [acc, part] + ([c.i32(0)] if kind == "avg" else []), [nxt])
        acc = nxt
    if kind == "max":
        c.emit("RESHAPE", [acc, c.i32_tensor(ys)], [c.out(y)])
        return
    inv = c.b.add_constant(T.TENSOR_FLOAT32, (1 / np.maximum(count, 1)).reshape((1, 1) + count.shape),
                           (1, 1) + count.shape)
    c.emit("MUL", [acc, inv, c.i32(0)], [c.out(y)])


def _pool_geometry(c, n, x, y, kernel):
    if c.rank(x) != 4:
        c.unsupported(f"its input is {c.rank(x)}-D (1-D and 2-D windows are mapped: NNAPI's pools, PAD and "
                      f"STRIDED_SLICE take rank 4 at most)")
    if any(d != 1 for d in n.attr("dilations", [1, 1])):
        c.unsupported("it is a quantized pool with dilations (NNAPI pools have none)")
    return _window(c, n, x, y, kernel)


def emit_pool(c: ImportContext, n: Node, nn: str, x: str, y: str, kernel, fuse: int = 0) -> None:
    pads, strides, _ = _pool_geometry(c, n, x, y, kernel)
    xin = c.get(x, True)
    if nn == "AVERAGE_POOL_2D" and n.attr("count_include_pad", 0) and any(pads):
        if any(p for p in (n.attr("ceil_mode", 0),)):
            c.unsupported("it counts padding with ceil_mode (no NNAPI form)")
        pl, pr, pt, pb = pads
        ty, scale, zp = c.nn_type(x)  # a quantized PAD pads with the zero point (real 0)
        padded = c.b.add_operand(ty, _padded_nhwc(c, x, pads), scale, zp)
        pairs = np.array([[0, 0], [pt, pb], [pl, pr], [0, 0]], np.int32)
        c.emit("PAD", [xin, c.b.add_constant(T.TENSOR_INT32, pairs, pairs.shape)], [padded])
        xin, pads = padded, (0, 0, 0, 0)
    c.emit(nn, [xin, *_pads_ops(c, pads, strides), c.i32(kernel[1]), c.i32(kernel[0]), c.i32(fuse),
                c.boolean(False)], [c.out(y, True)])


def _padded_nhwc(c, x, pads):
    n_, ch, h, w = c.shape(x)
    pl, pr, pt, pb = pads
    return (n_, h + pt + pb, w + pl + pr, ch)


@maps("MaxPool", ("MAX_POOL_2D", "RESHAPE", "PAD_V2", "STRIDED_SLICE", "MAXIMUM"),
      "2-D (1-D: over [N, C, 1, L] between RESHAPEs), NHWC, explicit padding (auto_pad / ceil_mode resolved); "
      "float with dilations: PAD_V2 with -inf, one STRIDED_SLICE per kernel tap, MAXIMUM over them; no Indices "
      "output; on a DQ output: of the quantized tensor (exact)")
def _maxpool(c, n):
    if len(n.outputs) > 1 and n.outputs[1]:
        c.unsupported("its Indices output is used")
    x, y = n.inputs[0], n.outputs[0]
    src = c.dq_source(x)
    kernel = n.attr("kernel_shape")
    if _needs_tap_pool(c, n, x, src):
        tap_pool(c, n, x, y, "max")
        return
    if c.rank(x) == 3 and src is None:
        n2, x4, y4 = lift_1d(c, n, x, y)
        emit_pool(c, n2, "MAX_POOL_2D", x4, y4, n2.attr("kernel_shape"))
        drop_1d(c, y4, y)
        return
    if src is not None:
        q = c.quant[src]
        qy = c.fresh(y, c.shape(y), q.elem, q)
        emit_pool(c, n, "MAX_POOL_2D", src, qy, kernel)
        c.dq[y] = qy
        return
    emit_pool(c, n, "MAX_POOL_2D", x, y, kernel)


def _quant_pool(c, n: Node, x: str, kernel) -> bool:
    """A DQ -> AveragePool -> Q chain with equal input and output quantization: the quantized pool."""
    src = c.dq_source(x)
    if src is None:
        return False
    target = c.q_output(n)
    if target is None:
        return False
    y, fuse = target
    if not c.quant[src].same(c.quant[y]):
        _float_between(c, n, "AVERAGE_POOL_2D", src, y, kernel)
        return True
    emit_pool(c, n, "AVERAGE_POOL_2D", src, y, kernel, fuse)
    return True


def _float_between(c, n, nn, qx: str, qy: str, kernel) -> None:
    """``nn`` in float32 between DEQUANTIZE of ``qx`` and QUANTIZE into ``qy`` (NNAPI needs equal
    quantization for the quantized form)."""
    fx = c.fresh(qx, c.shape(qx), TensorProto.FLOAT)
    c.dq[fx] = qx
    fy = c.fresh(qy, c.shape(qy), TensorProto.FLOAT)
    if nn == "LOGISTIC":
        c.emit("LOGISTIC", [c.get(fx, c.is_nhwc(qx))], [c.out(fy, c.is_nhwc(qx))])
    else:
        emit_pool(c, n, nn, fx, fy, kernel)
    nhwc = c.is_nhwc(fy)
    c.emit("QUANTIZE", [c.get(fy, nhwc)], [c.out(qy, nhwc)])


@maps("AveragePool", ("AVERAGE_POOL_2D", "PAD", "DEQUANTIZE", "QUANTIZE", "RESHAPE", "PAD_V2", "STRIDED_SLICE",
                      "ADD", "MUL"),
      "2-D (1-D float: over [N, C, 1, L] between RESHAPEs; float with dilations: one STRIDED_SLICE per kernel tap, "
      "ADD, MUL by 1 / the constant tap count), NHWC, explicit padding; count_include_pad with padding: PAD first; DQ input and a "
      "QuantizeLinear output of the same quantization: the quantized pool (another output quantization: "
      "in float32 between DEQUANTIZE and QUANTIZE)", quant_tolerance=1,
      difference="NNAPI's quantized average rounds the sum / count half away from zero in integers, "
                 "onnxruntime in float, half to even")
def _avgpool(c, n):
    x = n.inputs[0]
    kernel = n.attr("kernel_shape")
    if _needs_tap_pool(c, n, x, c.dq_source(x)):
        tap_pool(c, n, x, n.outputs[0], "avg")
        return
    if c.rank(x) == 3 and c.dq_source(x) is None:
        n2, x4, y4 = lift_1d(c, n, x, n.outputs[0])
        emit_pool(c, n2, "AVERAGE_POOL_2D", x4, y4, n2.attr("kernel_shape"))
        drop_1d(c, y4, n.outputs[0])
        return
    if not _quant_pool(c, n, x, kernel):
        emit_pool(c, n, "AVERAGE_POOL_2D", x, n.outputs[0], kernel)


@maps("GlobalAveragePool", "AVERAGE_POOL_2D", "AVERAGE_POOL_2D over the whole H x W (NHWC); quantized "
                                              "as AveragePool", quant_tolerance=1,
      difference="as AveragePool")
def _gap(c, n):
    x = n.inputs[0]
    kernel = c.shape(x)[2:]
    if not _quant_pool(c, n, x, kernel):
        emit_pool(c, n, "AVERAGE_POOL_2D", x, n.outputs[0], kernel)


@maps("GlobalMaxPool", "MAX_POOL_2D", "MAX_POOL_2D over the whole H x W (NHWC)")
def _gmp(c, n):
    x, y = n.inputs[0], n.outputs[0]
    src = c.dq_source(x)
    if src is not None:
        q = c.quant[src]
        qy = c.fresh(y, c.shape(y), q.elem, q)
        emit_pool(c, n, "MAX_POOL_2D", src, qy, c.shape(x)[2:])
        c.dq[y] = qy
        return
    emit_pool(c, n, "MAX_POOL_2D", x, y, c.shape(x)[2:])


def _qlinear_pool(c, n: Node, kernel) -> None:
    _need_quant_params(c, n)
    x, y = n.inputs[0], n.outputs[0]
    if n.attr("channels_last", 0):
        c.unsupported("its channels_last form is not mapped")
    if c.qof(x).same(c.qof(y)):
        emit_pool(c, n, "AVERAGE_POOL_2D", x, y, kernel)
    else:
        _float_between(c, n, "AVERAGE_POOL_2D", x, y, kernel)


@maps("QLinearAveragePool", ("AVERAGE_POOL_2D", "DEQUANTIZE", "QUANTIZE"), "as AveragePool, quantized "
      "(com.microsoft)", domain=MS_DOMAIN, quant_tolerance=1, difference="as AveragePool")
def _qlinear_avgpool(c, n):
    _qlinear_pool(c, n, n.attr("kernel_shape"))


@maps("QLinearGlobalAveragePool", ("AVERAGE_POOL_2D", "DEQUANTIZE", "QUANTIZE"), "as GlobalAveragePool, "
      "quantized (com.microsoft, channels_last = 0)", domain=MS_DOMAIN, quant_tolerance=1,
      difference="as AveragePool")
def _qlinear_gap(c, n):
    _qlinear_pool(c, n, c.shape(n.inputs[0])[2:])


# ------------------------------------------------------------------------------ Gemm / MatMul
def _fc(c: ImportContext, a: str, w_nk, bias: int, y: str, fuse: int, quant_w: tuple | None) -> None:
    """FULLY_CONNECTED of 2-D ``a`` [M, K] with weights [N, K]; per-channel 8-bit weights (NNAPI's
    FULLY_CONNECTED is per-tensor) -> a 1x1 CONV_2D between RESHAPEs."""
    m, k = c.shape(a)
    units = c.shape(y)[-1]
    if quant_w is not None and quant_w[1].per_channel:
        v, q = quant_w
        filt = c.filter_const(v.reshape(units, 1, 1, k), Quant(q.scale, q.zero_point, 0, q.elem), 0)
        a4 = c.fresh(a, (m, k, 1, 1), c.elem(a), c.quant.get(a))  # ONNX layout; held NHWC
        c.emit("RESHAPE", [c.get(a), c.i32_tensor([m, 1, 1, k])], [c.out(a4, True)])
        y4 = c.fresh(y, (m, units, 1, 1), c.elem(y), c.quant.get(y))
        c.emit("CONV_2D", [c.get(a4, True), filt, bias, *[c.i32(0)] * 4, c.i32(1), c.i32(1), c.i32(fuse)],
               [c.out(y4, True)])
        c.emit("RESHAPE", [c.get(y4, True), c.i32_tensor([m, units])], [c.out(y)])
        return
    c.emit("FULLY_CONNECTED", [c.get(a), w_nk, bias, c.i32(fuse)], [c.out(y)])


def _quant_weights_nk(c, w: str, trans: bool, x: str) -> tuple[int | None, tuple]:
    """Quantized Gemm / MatMul weights as [N, K]: the FULLY_CONNECTED filter operand (None when they
    are per-channel: :func:`_fc` makes a CONV_2D) and the (values, quant) pair."""
    v, q = _weights(c, w)
    v = np.ascontiguousarray(v if trans else v.T)
    v, q = effective_weights(v, Quant(q.scale, q.zero_point, 0, q.elem), c.elem(x), 0)
    return (None if q.per_channel else c.filter_const(v, q, 0)), (v, q)


@maps("Gemm", ("FULLY_CONNECTED", "BATCH_MATMUL", "TRANSPOSE", "MUL", "ADD", "CONV_2D", "RESHAPE"),
      "constant B: FULLY_CONNECTED with weights alpha * B (transB) or alpha * B^T, a [N] / [1, N] C as "
      "beta * bias (another C: ADD after); transA: TRANSPOSE first; B an input: BATCH_MATMUL, MUL by alpha, "
      "ADD beta * C; QDQ (DQ A, DQ int8 B, DQ int32 C, QuantizeLinear output): quantized FULLY_CONNECTED, "
      "per-channel B as a 1x1 CONV_2D", quant_tolerance=1, difference=FIXED_POINT_REQUANT)
def _gemm(c, n):
    a, b, cc, y = n.inputs[0], n.inputs[1], n.inp(2), n.outputs[0]
    alpha, beta = n.attr("alpha", 1.0), n.attr("beta", 1.0)
    ta, tb = n.attr("transA", 0), n.attr("transB", 0)
    src = c.dq_source(a)
    if src is not None and not ta and c.dq_weight(b) is not None and alpha == 1.0 and beta == 1.0 and \
            (not cc or c.dq_weight(cc) is not None):
        target = c.q_output(n)
        if target is not None:
            qy, fuse = target
            filt, qw = _quant_weights_nk(c, b, tb, src)
            _fc(c, src, filt, _bias_nk(c, cc, src, b, tb), qy, fuse, qw)
            return
    if ta:
        at = c.fresh(a, c.shape(a)[::-1], c.elem(a))
        c.emit("TRANSPOSE", [c.get(a), c.i32_tensor([1, 0])], [c.out(at)])
        a = at
    bv = c.const(b)
    cv = c.const(cc)
    units = c.shape(y)[1]
    if bv is not None:
        w = (bv if tb else bv.T).astype(np.float64) * alpha
        wn = c.b.add_constant(_float_type(c, a), w.astype(np.float32), w.shape)
        bias_in = cv is not None and cv.size == units and cv.ndim <= 2 and (cv.ndim < 2 or cv.shape[0] == 1)
        bias = c.float_const(cv.reshape(-1) * beta, a) if bias_in else _bias(c, "", units, like=a)
        if bias_in or not cc:
            _fc(c, a, wn, bias, y, 0, None)
            return
        mid = c.fresh(y, c.shape(y), c.elem(y))
        _fc(c, a, wn, bias, mid, 0, None)
    else:
        mid = c.fresh(y, c.shape(y), c.elem(y))
        c.emit("BATCH_MATMUL", [c.get(a), c.get(b), c.boolean(False), c.boolean(bool(tb))], [c.out(mid)])
        if alpha != 1.0:
            scaled = c.fresh(y, c.shape(y), c.elem(y))
            c.emit("MUL", [c.get(mid), c.float_const([alpha], a), c.i32(0)], [c.out(scaled)])
            mid = scaled
        if not cc:
            c.emit("RESHAPE", [c.get(mid), c.i32_tensor(c.shape(y))], [c.out(y)])
            return
    if cv is not None:
        cin = c.float_const(cv.astype(np.float64) * beta, a)
    elif beta != 1.0:
        cin = c.b.add_operand(_float_type(c, a), c.shape(cc) or (1,))
        c.emit("MUL", [c.get(cc), c.float_const([beta], a), c.i32(0)], [cin])
    else:
        cin = c.get(cc)
    c.emit("ADD", [c.get(mid), cin, c.i32(0)], [c.out(y)])


def _bias_nk(c, b: str, x: str, w: str, trans: bool) -> int:
    return _bias(c, b, _weights(c, w)[0].shape[0 if trans else 1], x, w)


def _matmul_core(c: ImportContext, n: Node, a: str, b: str, y: str, quant: bool, fuse: int = 0) -> None:
    """MatMul of ``a`` [..., M, K] and ``b``: constant 2-D B -> FULLY_CONNECTED (RESHAPEs around for
    rank > 2), else BATCH_MATMUL of equal ranks."""
    ashape, bshape, yshape = c.shape(a), c.shape(b), c.shape(y)
    if len(ashape) == 1 or len(bshape) == 1:
        a, b, y = _matmul_2d(c, a, b, y, quant)
        ashape, bshape = c.shape(a), c.shape(b)
    if len(bshape) == 2 and len(ashape) >= 2 and (c.const(b) is not None or quant):
        k = ashape[-1]
        m = int(np.prod(ashape[:-1]))
        if quant:
            filt, qw = _quant_weights_nk(c, b, False, a)
            bias = _bias_nk(c, "", a, b, False)
        else:
            filt, qw = c.b.add_constant(_float_type(c, a), np.ascontiguousarray(c.const(b).T),
                                        c.const(b).T.shape), None
            bias = _bias(c, "", bshape[1], like=a)
        a2, y2 = a, y
        if len(ashape) != 2:
            a2 = c.fresh(a, (m, k), c.elem(a), c.quant.get(a))
            c.emit("RESHAPE", [c.get(a), c.i32_tensor([m, k])], [c.out(a2)])
            y2 = c.fresh(y, (m, bshape[1]), c.elem(y), c.quant.get(y))
        _fc(c, a2, filt, bias, y2, fuse, qw)
        if y2 != y:
            c.emit("RESHAPE", [c.get(y2), c.i32_tensor(yshape)], [c.out(y)])
        return
    if len(ashape) != len(bshape) or ashape[:-2] != bshape[:-2]:
        batch = tuple(np.broadcast_shapes(ashape[:-2], bshape[:-2]))
        if len(batch) > 2 or quant:
            c.unsupported(f"its operand shapes {list(ashape)} x {list(bshape)} broadcast to more than 2 batch "
                          f"dimensions (NNAPI BATCH_MATMUL has ranks 2 to 4)" if not quant else
                          "a quantized MatMul with broadcast batch dimensions is not mapped")
        a, b = _broadcast_batch(c, a, batch), _broadcast_batch(c, b, batch)
    c.emit("BATCH_MATMUL", [c.get(a), c.get(b), c.boolean(False), c.boolean(False)], [c.out(y)])


def _broadcast_batch(c: ImportContext, t: str, batch: tuple) -> str:
    """MatMul operand ``t`` with its batch dimensions broadcast to ``batch``: a RESHAPE adding leading
    1s, then a TILE (NNAPI BATCH_MATMUL needs equal ranks and batch sizes)."""
    s = c.shape(t)
    if s[:-2] == batch:
        return t
    full = (1,) * (len(batch) - len(s[:-2])) + s
    if full != s:
        r = c.fresh(t, full, c.elem(t))
        c.emit("RESHAPE", [c.get(t), c.i32_tensor(full)], [c.out(r)])
        t = r
    reps = [bd // d for bd, d in zip(batch, full[:-2])] + [1, 1]
    tiled = c.fresh(t, batch + full[-2:], c.elem(t))
    c.emit("TILE", [c.get(t), c.i32_tensor(reps)], [c.out(tiled)])
    return tiled


def _matmul_2d(c, a, b, y, quant):
    """1-D MatMul operands made 2-D ([K] -> [1, K] for A, [K, 1] for B); the result is RESHAPEd into
    ``y`` afterwards by the caller's final RESHAPE."""
    if quant:
        c.unsupported("a quantized MatMul with a 1-D operand is not mapped")
    if len(c.shape(a)) == 1:
        a2 = c.fresh(a, (1,) + c.shape(a), c.elem(a))
        if a in c.consts:
            c.consts[a2] = c.consts[a].reshape(1, -1)
        else:
            c.emit("RESHAPE", [c.get(a), c.i32_tensor(c.shape(a2))], [c.out(a2)])
        a = a2
    if len(c.shape(b)) == 1:
        b2 = c.fresh(b, c.shape(b) + (1,), c.elem(b))
        if b in c.consts:
            c.consts[b2] = c.consts[b].reshape(-1, 1)
        else:
            c.emit("RESHAPE", [c.get(b), c.i32_tensor(c.shape(b2))], [c.out(b2)])
        b = b2
    shape = tuple(np.broadcast_shapes(c.shape(a)[:-2], c.shape(b)[:-2])) + (c.shape(a)[-2], c.shape(b)[-1])
    y2 = c.fresh(y, shape, c.elem(y))
    c.pending_reshape = (y2, y)
    return a, b, y2


@maps("MatMul", ("FULLY_CONNECTED", "BATCH_MATMUL", "RESHAPE", "TILE", "CONV_2D"),
      "constant 2-D B: FULLY_CONNECTED with B^T (RESHAPE to 2-D and back for a higher-rank A); else "
      "BATCH_MATMUL, broadcast batch dimensions (up to 2) by RESHAPE + TILE; QDQ: the quantized FULLY_CONNECTED (per-channel B: 1x1 "
      "CONV_2D)", quant_tolerance=1, difference=FIXED_POINT_REQUANT)
def _matmul(c, n):
    a, b = n.inputs
    c.pending_reshape = None
    src = c.dq_source(a)
    if src is not None and c.dq_weight(b) is not None and len(c.shape(b)) == 2:
        target = c.q_output(n)
        if target is not None:
            _matmul_core(c, n, src, b, target[0], True, target[1])
            return
    _matmul_core(c, n, a, b, n.outputs[0], False)
    if c.pending_reshape:
        y2, y = c.pending_reshape
        c.emit("RESHAPE", [c.get(y2), c.i32_tensor(c.shape(y) or (1,))], [c.out(y)])


@maps("QLinearMatMul", ("FULLY_CONNECTED", "BATCH_MATMUL", "RESHAPE", "CONV_2D", "DEQUANTIZE", "QUANTIZE"),
      "as MatMul, quantized (constant 2-D B: FULLY_CONNECTED; per-channel B: 1x1 CONV_2D; else BATCH_MATMUL, "
      "uint8 operands as int8 twins by DEQUANTIZE + QUANTIZE, exact)", quant_tolerance=1,
      difference=FIXED_POINT_REQUANT)
def _qlinear_matmul(c, n):
    _need_quant_params(c, n)
    a, b, y = n.inputs[0], n.inputs[3], n.outputs[0]
    if c.const(b) is not None and len(c.shape(b)) == 2:
        _matmul_core(c, n, a, b, y, True)
        return
    if len(c.shape(a)) != len(c.shape(b)) or c.shape(a)[:-2] != c.shape(b)[:-2]:
        c.unsupported("its operands need broadcasting, which NNAPI's quantized BATCH_MATMUL lacks")
    if TensorProto.UINT8 not in (c.elem(a), c.elem(b), c.elem(y)):
        c.emit("BATCH_MATMUL", [c.get(a), c.get(b), c.boolean(False), c.boolean(False)], [c.out(y)])
        return
    # NNAPI BATCH_MATMUL has no uint8 form: run it on int8 twins (zero points - 128, the same integers)
    y8 = c.fresh(y, c.shape(y), TensorProto.INT8, _int8_quant(c.qof(y)))
    c.emit("BATCH_MATMUL", [c.get(_as_int8(c, a)), c.get(_as_int8(c, b)), c.boolean(False), c.boolean(False)],
           [c.out(y8)])
    if c.elem(y) == TensorProto.UINT8:
        fy = c.fresh(y, c.shape(y), TensorProto.FLOAT)
        c.emit("DEQUANTIZE", [c.get(y8)], [c.out(fy)])
        c.emit("QUANTIZE", [c.get(fy)], [c.out(y)])
    else:
        c.alias(y, y8)


def _int8_quant(q: Quant) -> Quant:
    return Quant(q.scale, q.zero_point - 128, q.axis, TensorProto.INT8) if q.elem == TensorProto.UINT8 else q


def _as_int8(c: ImportContext, t: str) -> str:
    """uint8 tensor ``t`` as int8 with zero point - 128 (the same real values): a constant shifted at
    import, else DEQUANTIZE then QUANTIZE (exact: (q - z) * s / s rounds back to q - z)."""
    if c.elem(t) != TensorProto.UINT8:
        return t
    q = _int8_quant(c.qof(t))
    t8 = c.fresh(t, c.shape(t), TensorProto.INT8, q)
    v = c.const(t)
    if v is not None:
        c.consts[t8] = (v.astype(np.int16) - 128).astype(np.int8)
        return t8
    ft = c.fresh(t, c.shape(t), TensorProto.FLOAT)
    c.emit("DEQUANTIZE", [c.get(t)], [c.out(ft)])
    c.emit("QUANTIZE", [c.get(ft)], [c.out(t8)])
    return t8


@maps("MatMulInteger", ("DEQUANTIZE", "FULLY_CONNECTED", "BATCH_MATMUL", "CAST"),
      "A (and an input B) -> float32 by DEQUANTIZE (scale 1, the zero point), a constant B - b_zero_point "
      "as float32, the float MatMul, CAST to int32: exact while every partial sum stays below 2^24")
def _matmul_integer(c, n):
    _need_quant_params(c, n)
    a, b, y = n.inputs[0], n.inputs[1], n.outputs[0]
    fa = c.fresh(a, c.shape(a), TensorProto.FLOAT)
    c.dq[fa] = a
    bv = c.const(b)
    if bv is not None:
        bz = c.const(n.inp(3))
        bf = bv.astype(np.float64) - (0 if bz is None else bz.astype(np.float64))
        fb = c.fresh(b, bv.shape, TensorProto.FLOAT)
        c.consts[fb] = bf.astype(np.float32)
    else:
        fb = c.fresh(b, c.shape(b), TensorProto.FLOAT)
        c.dq[fb] = b
    fy = c.fresh(y, c.shape(y), TensorProto.FLOAT)
    _matmul_core(c, n, fa, fb, fy, False)
    c.emit("CAST", [c.get(fy)], [c.out(y)])


# ---------------------------------------------------------------------------------- resize
_RESIZE_MODES = {  # (mode, coordinate_transformation_mode, nearest_mode) -> (align_corners, half_pixel)
    ("linear", "asymmetric", None): (False, False), ("linear", "half_pixel", None): (False, True),
    ("linear", "pytorch_half_pixel", None): (False, True), ("linear", "align_corners", None): (True, False),
    ("nearest", "asymmetric", "floor"): (False, False),
    ("nearest", "half_pixel", "round_prefer_ceil"): (False, True),
    ("nearest", "align_corners", "round_prefer_ceil"): (True, False),
}


@maps("Resize", ("RESIZE_BILINEAR", "RESIZE_NEAREST_NEIGHBOR", "GATHER", "FULLY_CONNECTED", "TRANSPOSE", "RESHAPE"),
      "output size from the inferred shape. 4-D H / W resizes NNAPI expresses: RESIZE_BILINEAR / "
      "RESIZE_NEAREST_NEIGHBOR in NHWC (linear: asymmetric, half_pixel, pytorch_half_pixel, align_corners; "
      "nearest: asymmetric + floor, half_pixel + round_prefer_ceil, align_corners + round_prefer_ceil; "
      "scales giving the size exactly). Others, per resized axis: nearest (any coordinate / rounding mode) "
      "one GATHER of the source indices; linear / cubic (cubic_coeff_a, exclude_outside, antialias) a "
      "FULLY_CONNECTED by the constant interpolation matrix between TRANSPOSE / RESHAPE (float32); any "
      "axes, keep_aspect_ratio_policy; not tf_crop_and_resize")
def _resize(c, n):
    x, y = n.inputs[0], n.outputs[0]
    xs, ys = c.shape(x), c.shape(y)
    if len(xs) != len(ys) or not all(ys) or not all(xs):
        c.unsupported("only resizes with known input and output sizes are mapped")
    mode = n.attr("mode", "nearest")
    ctm = n.attr("coordinate_transformation_mode", "half_pixel")
    scales = c.need_const(n.inp(2), "scales") if n.inp(2) else None
    scales = None if scales is None or not scales.size else [float(v) for v in scales.reshape(-1)]
    if scales is not None and n.attr("axes"):
        full = [1.0] * len(xs)
        for a, v in zip(n.attr("axes"), scales):
            full[a % len(xs)] = v
        scales = full
    why = _native_resize_problem(n, xs, ys, scales)
    if why is None:
        align, half = _RESIZE_MODES[_resize_key(n, xs, ys)]
        nn = "RESIZE_BILINEAR" if mode == "linear" else "RESIZE_NEAREST_NEIGHBOR"
        c.emit(nn, [c.get(x, True), c.i32(ys[3]), c.i32(ys[2]), c.boolean(False), c.boolean(align),
                    c.boolean(half)], [c.out(y, True)])
        return
    if ctm == "tf_crop_and_resize" or (mode == "nearest" and n.attr("antialias", 0)):
        c.unsupported(why)
    if ctm == "align_corners" and scales is not None and any(float(o) != float(i) * k for i, o, k in
                                                            zip(xs, ys, scales)):
        c.unsupported("it is align_corners with inexact scales (the ONNX reference divides by scale * size, the "
                      "spec and onnxruntime by the output size)")
    policy = n.attr("keep_aspect_ratio_policy", "stretch")
    if scales is None and policy != "stretch":  # one scale for every resized axis: min / max of the ratios
        sizes = c.need_const(n.inp(3), "sizes").reshape(-1)
        axes = [a % len(xs) for a in n.attr("axes", list(range(len(xs))))]
        ratios = [float(v) / xs[a] for a, v in zip(axes, sizes)]
        common = min(ratios) if policy == "not_larger" else max(ratios)
        scales = [common if a in axes else 1.0 for a in range(len(xs))]
    cur = x
    axes = [a for a in range(len(xs)) if xs[a] != ys[a] or (scales is not None and scales[a] != 1.0)]
    shape = list(xs)
    if mode != "nearest" and c.elem(x) != TensorProto.FLOAT:
        c.unsupported(why)
    for k, a in enumerate(axes):
        scale = scales[a] if scales is not None else ys[a] / xs[a]
        shape[a] = ys[a]
        dst = y if k == len(axes) - 1 else c.fresh(y, shape, c.elem(x), c.quant.get(x))
        if mode == "nearest":
            idx = nearest_indices(xs[a], ys[a], scale, ctm, n.attr("nearest_mode", "round_prefer_floor"))
            c.emit("GATHER", [c.get(cur), c.i32(a), c.i32_tensor(idx)], [c.out(dst)])
        else:
            m = resize_matrix(xs[a], ys[a], scale, ctm, mode, n.attr("cubic_coeff_a", -0.75),
                              bool(n.attr("exclude_outside", 0)), bool(n.attr("antialias", 0)))
            _apply_along(c, cur, dst, a, m)
        cur = dst
    if not axes:
        c.alias(y, x)


def _resize_key(n: Node, xs, ys) -> tuple:
    mode = n.attr("mode", "nearest")
    ctm = n.attr("coordinate_transformation_mode", "half_pixel")
    near = n.attr("nearest_mode", "round_prefer_floor") if mode == "nearest" else None
    key = (mode, ctm, near)
    if key == ("nearest", "half_pixel", "round_prefer_floor") and all(o % i == 0 for i, o in zip(xs[2:], ys[2:])):
        key = ("nearest", "half_pixel", "round_prefer_ceil")  # no ties for integer upscales: (o + 0.5) / k
    return key


def _native_resize_problem(n: Node, xs, ys, scales) -> str | None:
    """Why NNAPI's RESIZE_BILINEAR / RESIZE_NEAREST_NEIGHBOR cannot express the Resize, or None."""
    mode = n.attr("mode", "nearest")
    ctm = n.attr("coordinate_transformation_mode", "half_pixel")
    near = n.attr("nearest_mode", "round_prefer_floor") if mode == "nearest" else None
    if len(xs) != 4 or xs[:2] != ys[:2]:
        return "only 4-D resizes of H and W are mapped (nearest: any axes)"
    if _resize_key(n, xs, ys) not in _RESIZE_MODES or n.attr("antialias", 0) or n.attr("exclude_outside", 0):
        return f"its mode {mode} / {ctm}" + (f" / {near}" if near else "") + " has no NNAPI form"
    if ctm in ("pytorch_half_pixel", "align_corners") and min(ys[2:]) == 1:
        return f"{ctm} with an output size of 1 has no NNAPI form"
    if scales is not None and any(float(o) != float(i) * k for i, o, k in zip(xs, ys, scales)):
        return "its scales do not give the output size exactly (NNAPI maps coordinates by the size ratio, ONNX by " \
               "the scales)"
    return None


def _apply_along(c: ImportContext, x: str, y: str, axis: int, m: np.ndarray) -> None:
    """``y`` = ``x`` contracted with the constant [out, in] matrix ``m`` along ``axis``: TRANSPOSE the
    axis last, RESHAPE to 2-D, FULLY_CONNECTED with ``m`` as weights, RESHAPE and TRANSPOSE back."""
    xs, ys = c.shape(x), c.shape(y)
    r = len(xs)
    perm = [d for d in range(r) if d != axis] + [axis]
    cur = x
    if axis != r - 1:
        cur = c.fresh(x, [xs[d] for d in perm], c.elem(x))
        c.emit("TRANSPOSE", [c.get(x), c.i32_tensor(perm)], [c.out(cur)])
    rows = int(np.prod([xs[d] for d in perm[:-1]]))
    flat = c.fresh(x, (rows, xs[axis]), c.elem(x))
    c.emit("RESHAPE", [c.get(cur), c.i32_tensor([rows, xs[axis]])], [c.out(flat)])
    out2 = c.fresh(y, (rows, m.shape[0]), c.elem(x))
    c.emit("FULLY_CONNECTED", [c.get(flat), c.b.add_constant(T.TENSOR_FLOAT32, m.astype(np.float32), m.shape),
                               c.b.add_constant(T.TENSOR_FLOAT32, np.zeros(m.shape[0]), (m.shape[0],)), c.i32(0)],
           [c.out(out2)])
    moved = tuple(ys[d] for d in perm)
    if axis == r - 1:
        c.emit("RESHAPE", [c.get(out2), c.i32_tensor(moved)], [c.out(y)])
        return
    back = c.fresh(y, moved, c.elem(x))
    c.emit("RESHAPE", [c.get(out2), c.i32_tensor(moved)], [c.out(back)])
    c.emit("TRANSPOSE", [c.get(back), c.i32_tensor(list(np.argsort(perm)))], [c.out(y)])


def _source_coordinates(size_in: int, size_out: int, scale: float, ctm: str) -> np.ndarray:
    """ONNX Resize's coordinate transformation: the input coordinate of every output position."""
    o = np.arange(size_out, dtype=np.float64)
    if ctm == "half_pixel":
        return (o + 0.5) / scale - 0.5
    if ctm == "half_pixel_symmetric":
        adjustment = size_out / (scale * size_in)
        return size_in / 2 * (1 - adjustment) + (o + 0.5) / scale - 0.5
    if ctm == "pytorch_half_pixel":
        return (o + 0.5) / scale - 0.5 if size_out > 1 else np.zeros_like(o)
    if ctm == "align_corners":
        return o * (size_in - 1) / (size_out - 1) if size_out > 1 else np.zeros_like(o)
    if ctm == "tf_half_pixel_for_nn":
        return (o + 0.5) / scale
    return o / scale  # asymmetric


def _cubic(t: np.ndarray, a: float) -> np.ndarray:
    """The cubic convolution kernel (Keys, parameter a) at distances ``t``."""
    t = np.abs(t)
    return np.where(t <= 1, ((a + 2) * t - (a + 3)) * t * t + 1,
                    np.where(t < 2, ((a * t - 5 * a) * t + 8 * a) * t - 4 * a, 0.0))


def resize_matrix(size_in: int, size_out: int, scale: float, ctm: str, mode: str, cubic_a: float,
                  exclude_outside: bool, antialias: bool) -> np.ndarray:
    """The [out, in] matrix of a linear or cubic Resize along one axis: each output position weighs
    the taps around its source coordinate x (the left one at ceil(x) - 1) with the linear / cubic
    kernel (stretched by 1 / scale when antialiasing a downscale, then normalized); taps outside the
    axis read its edge value, or are dropped and the rest renormalized with exclude_outside."""
    xo = _source_coordinates(size_in, size_out, scale, ctm)
    m = np.zeros((size_out, size_in))
    support = 1 if mode == "linear" else 2
    stretch = min(scale, 1.0) if antialias else 1.0
    for o, x in enumerate(xo):
        base = int(np.ceil(x)) - 1
        half = int(np.ceil(support / stretch)) if antialias else support
        taps = np.arange(base - half + 1, base + half + 1)
        dist = (taps - x) * stretch
        w = np.clip(1 - np.abs(dist), 0, None) if mode == "linear" else _cubic(dist, cubic_a)
        if antialias:
            w = w / w.sum()
        if exclude_outside:
            w = np.where((taps < 0) | (taps >= size_in), 0.0, w)
            w = w / w.sum()
        np.add.at(m[o], np.clip(taps, 0, size_in - 1), w)
    return m


def nearest_indices(size_in: int, size_out: int, scale: float, ctm: str, nearest_mode: str) -> np.ndarray:
    """The source index of every output position of a nearest Resize along one axis (ONNX's
    coordinate transformation and nearest rounding, clamped to the axis)."""
    xo = _source_coordinates(size_in, size_out, scale, ctm)
    rounded = {"round_prefer_floor": np.ceil(xo - 0.5), "round_prefer_ceil": np.floor(xo + 0.5),
               "floor": np.floor(xo), "ceil": np.ceil(xo)}[nearest_mode]
    return np.clip(rounded, 0, size_in - 1).astype(np.int64)


# ----------------------------------------------------------------------------- quantization
@maps("QuantizeLinear", ("QUANTIZE", "DIV", "FLOOR", "SUB", "EQUAL", "MUL", "ADD", "SELECT"),
      "per-tensor uint8 / int8 -> QUANTIZE (keeps the input's layout) of x, except where x / s is a tie "
      "k + 1/2: there of e * s with e the even one of k, k + 1 (NNAPI QUANTIZE rounds half away from "
      "zero, ONNX half to even; float16: QUANTIZE alone); of a DQ output with the same quantization: "
      "the quantized tensor itself; of a constant: folded", quant_tolerance=1,
      difference="float16 input: " + ROUND_HALF_AWAY)
def _quantize(c, n):
    x, y = n.inputs[0], n.outputs[0]
    c.need_const(n.inp(1), "scale")
    if n.inp(2):
        c.need_const(n.inp(2), "zero point")
    q = c.qof(y)
    if q.per_channel or n.attr("block_size", 0):
        c.unsupported("only per-tensor quantization of a tensor is mapped")
    src = c.dq_source(x)
    if src is not None and c.quant[src].same(q):
        c.alias(y, src)
        return
    nhwc = _pick_layout(c, [x])
    xin = c.get(x, nhwc)
    if c.elem(x) == TensorProto.FLOAT:
        xin = _ties_to_even(c, xin, _dims(c, x, nhwc), q.s)
    c.emit("QUANTIZE", [xin], [c.out(y, nhwc)])


def _ties_to_even(c: ImportContext, x: int, dims: tuple, scale: float) -> int:
    """float32 ``x`` with every element whose x / scale is a tie k + 1/2 replaced by e * scale, e the
    even one of k and k + 1: QUANTIZE (round half away from zero of x / scale) then rounds half to
    even as QuantizeLinear does ((e * scale) / scale is e within an ulp)."""
    def op(nn, ins, ty=T.TENSOR_FLOAT32):
        out = c.b.add_operand(ty, dims)
        c.emit(nn, ins + ([c.i32(0)] if nn in ("ADD", "SUB", "MUL", "DIV") else []), [out])
        return out

    def const(v):
        return c.b.add_constant(T.TENSOR_FLOAT32, np.array([v], np.float32), (1,))
    r = op("DIV", [x, const(scale)])
    k = op("FLOOR", [r])
    tie = op("EQUAL", [op("SUB", [r, k]), const(0.5)], T.TENSOR_BOOL8)
    odd = op("SUB", [k, op("MUL", [op("FLOOR", [op("MUL", [k, const(0.5)])]), const(2.0)])])
    even = op("ADD", [k, odd])
    return op("SELECT", [tie, op("MUL", [even, const(scale)]), x])


@maps("DequantizeLinear", ("DEQUANTIZE", "SUB", "MUL"),
      "of a constant: the quantized constant (weights, int32 biases; per-channel along axis) and its "
      "float32 value; of a tensor: deferred, DEQUANTIZE only where a float op reads it; per-axis / blocked "
      "of a tensor: DEQUANTIZE at scale 1, then SUB zero points and MUL scales (constants along the axis)")
def _dequantize(c, n):
    x, y = n.inputs[0], n.outputs[0]
    q = _node_quant(c, n, 1, 2, x)
    v = c.const(x)
    if v is not None:
        shape = [1] * v.ndim
        if q.per_channel:
            shape[(q.axis or 0) % v.ndim] = -1
        real = (v.astype(np.float64) - q.zero_point.reshape(shape)) * q.scale.astype(np.float32).reshape(shape)
        c.consts[y] = real.astype(np.float32)
        c.dq[y] = x
        c.quant.setdefault(x, q)
        return
    if c.elem(x) not in Q8_ELEMS:
        c.unsupported(f"only 8-bit DequantizeLinear of a tensor is mapped ({x!r} is not)")
    if q.per_channel or n.attr("block_size", 0):
        _dequantize_per_axis(c, n, x, y)
        return
    if not q.same(c.quant.get(x)):
        c.unsupported(f"tensor {x!r} is dequantized with other parameters than it is quantized with")
    c.dq[y] = x


def _dequantize_per_axis(c: ImportContext, n: Node, x: str, y: str) -> None:
    """Per-axis or blocked DequantizeLinear of a tensor (NNAPI's 8-bit tensor types are per tensor):
    DEQUANTIZE at scale 1 and zero point 0 (the integers as float32), then SUB the zero points and MUL
    the scales as constants broadcast along the axis (blocks repeated), which is ONNX's float32
    formula."""
    xs = c.shape(x)
    r = len(xs)
    axis = n.attr("axis", 1) % r
    block = n.attr("block_size", 0)

    def spread(v: np.ndarray) -> np.ndarray:
        if block:
            return np.repeat(v, block, axis=axis)[tuple(slice(0, d) if a == axis else slice(None)
                                                       for a, d in enumerate(xs))]
        shape = [1] * r
        shape[axis] = -1
        return v.reshape(shape)
    scale = spread(c.need_const(n.inp(1), "scale").astype(np.float32))
    zp = c.need_const(n.inp(2), "zero point") if n.inp(2) else np.zeros(1, np.int64)
    zp = spread(zp.astype(np.float32)) if zp.size > 1 else zp.astype(np.float32).reshape((1,) * r)
    fx = c.fresh(x, xs, TensorProto.FLOAT)
    c.dq[fx] = x
    mid = c.fresh(y, xs, TensorProto.FLOAT)
    zname, sname = c.fresh(y, zp.shape, TensorProto.FLOAT), c.fresh(y, scale.shape, TensorProto.FLOAT)
    c.consts[zname], c.consts[sname] = zp, scale
    c.emit("SUB", [c.get(fx), c.get(zname), c.i32(0)], [c.out(mid)])
    c.emit("MUL", [c.get(mid), c.get(sname), c.i32(0)], [c.out(y)])


def _node_quant(c: ImportContext, n: Node, ks: int, kz: int, like: str) -> Quant:
    s = c.need_const(n.inp(ks), "scale").astype(np.float64)
    z = c.need_const(n.inp(kz), "zero point") if n.inp(kz) else None
    elem = c.elem(n.inp(kz)) if n.inp(kz) else c.elem(like)
    z = np.zeros(s.shape, np.int64) if z is None else z.astype(np.int64)
    return Quant(s.reshape(-1) if s.ndim else s.reshape(1), z.reshape(-1) if z.ndim else z.reshape(1),
                 n.attr("axis", 1) if s.size > 1 else None, elem)


@maps("QLinearAdd", "ADD", "quantized ADD (com.microsoft)", domain=MS_DOMAIN, quant_tolerance=1,
      difference=FIXED_POINT_REQUANT)
def _qlinear_add(c, n):
    _need_quant_params(c, n)
    _emit_quant_binary(c, "ADD", n.inputs[0], n.inputs[3], n.outputs[0], 0)


@maps("QLinearMul", "MUL", "quantized MUL (com.microsoft); NNAPI needs s_out > s_a * s_b",
      domain=MS_DOMAIN, quant_tolerance=1, difference=FIXED_POINT_REQUANT)
def _qlinear_mul(c, n):
    _need_quant_params(c, n)
    _emit_quant_binary(c, "MUL", n.inputs[0], n.inputs[3], n.outputs[0], 0)


@maps("QLinearSigmoid", ("LOGISTIC", "DEQUANTIZE", "QUANTIZE"),
      "quantized LOGISTIC when the output is NNAPI's (scale 1/256, zero point 0 / -128), else LOGISTIC in "
      "float32 between DEQUANTIZE and QUANTIZE (com.microsoft)", domain=MS_DOMAIN, quant_tolerance=1,
      difference=FIXED_POINT_LOGISTIC)
def _qlinear_sigmoid(c, n):
    _need_quant_params(c, n)
    x, y = n.inputs[0], n.outputs[0]
    qy = c.qof(y)
    if np.float32(qy.s) == np.float32(1 / 256) and qy.z == (0 if qy.elem == TensorProto.UINT8 else -128):
        nhwc = _pick_layout(c, [x])
        c.emit("LOGISTIC", [c.get(x, nhwc)], [c.out(y, nhwc)])
    else:
        _float_between(c, n, "LOGISTIC", x, y, None)


#: Where each QOperator op keeps its tensors' quantization: (tensor, scale, zero point) input
#: positions, and for the outputs (output index, scale, zero point).
QOPERATOR_QUANT = {
    "QLinearConv": ([(0, 1, 2), (3, 4, 5)], [(0, 6, 7)]),
    "QLinearMatMul": ([(0, 1, 2), (3, 4, 5)], [(0, 6, 7)]),
    "QLinearAdd": ([(0, 1, 2), (3, 4, 5)], [(0, 6, 7)]),
    "QLinearMul": ([(0, 1, 2), (3, 4, 5)], [(0, 6, 7)]),
    "QLinearAveragePool": ([(0, 1, 2)], [(0, 3, 4)]),
    "QLinearGlobalAveragePool": ([(0, 1, 2)], [(0, 3, 4)]),
    "QLinearSigmoid": ([(0, 1, 2)], [(0, 3, 4)]),
    "ConvInteger": ([(0, None, 2)], []),
    "MatMulInteger": ([(0, None, 2), (1, None, 3)], []),
}


def _need_quant_params(c: ImportContext, n: Node) -> None:
    """A QOperator node's scales and zero points must be constants."""
    ins, outs = QOPERATOR_QUANT[n.op]
    for _, ks, kz in ins + outs:
        for k, what in ((ks, "scale"), (kz, "zero point")):
            if k is not None and n.inp(k):
                c.need_const(n.inp(k), what)


def register_quant(c: ImportContext, n: Node) -> None:
    """Records the quantization each Q / DQ / QOperator node gives its 8-bit tensors (first wins)."""
    def put(name, ks, kz, like):
        if not name or (ks is not None and c.const(n.inp(ks)) is None) or \
                (n.inp(kz) and c.const(n.inp(kz)) is None):
            return
        if ks is None:
            z = c.const(n.inp(kz))
            z = np.zeros(1, np.int64) if z is None else z.astype(np.int64).reshape(-1)
            q = Quant(np.ones(1), z[:1], None, c.elem(like))
        else:
            q = _node_quant(c, n, ks, kz, like)
            q = Quant(q.scale, q.zero_point, q.axis, c.elem(like) if c.elem(like) in Q8_ELEMS else q.elem)
        c.quant.setdefault(name, q)
    if n.op == "QuantizeLinear":
        put(n.outputs[0], 1, 2, n.outputs[0])
    elif n.op == "DequantizeLinear":
        s = c.const(n.inp(1))
        if c.const(n.inputs[0]) is not None or (s is not None and s.size == 1 and not n.attr("block_size", 0)):
            put(n.inputs[0], 1, 2, n.inputs[0])  # a per-axis tensor keeps scale 1 (see _dequantize_per_axis)
    elif n.op in QOPERATOR_QUANT:
        ins, outs = QOPERATOR_QUANT[n.op]
        for t, ks, kz in ins:
            put(n.inp(t), ks, kz, n.inp(t))
        for t, ks, kz in outs:
            put(n.outputs[t], ks, kz, n.outputs[t])


def ms_output_shape(n: Node, shapes: dict) -> tuple | None:
    """Output shape of a com.microsoft QOperator node (ONNX shape inference does not know them)."""
    x = shapes.get(n.inp(0))
    if x is None:
        return None
    if n.op in ("QLinearAdd", "QLinearMul"):
        b = shapes.get(n.inp(3))
        return None if b is None else tuple(np.broadcast_shapes(x, b))
    if n.op == "QLinearSigmoid":
        return x
    if n.op == "QLinearGlobalAveragePool":
        return x[:2] + (1,) * (len(x) - 2)
    if n.op == "QLinearAveragePool" and len(x) == 4:
        k = n.attr("kernel_shape")
        s = n.attr("strides", [1, 1])
        p = n.attr("pads", [0, 0, 0, 0])
        ceil = n.attr("ceil_mode", 0)
        out = []
        for a in range(2):
            span = x[2 + a] + p[a] + p[a + 2] - k[a]
            out.append((-(-span // s[a]) if ceil else span // s[a]) + 1)
        if n.attr("auto_pad", "NOTSET") in ("SAME_UPPER", "SAME_LOWER"):
            out = [-(-x[2 + a] // s[a]) for a in range(2)]
        return x[:2] + tuple(out)
    return None
