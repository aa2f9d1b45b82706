"""Golden kernels: convolution, pooling, matrix multiply, normalization, softmax and resize.

Spec: ../shared/spec/OperationType.aidl. Facts (rounding, padding, multipliers) follow NNAPI's
reference CPU kernels (``nn/common/operations`` and ``OperationsUtils.cpp``).

Shared convolution machinery (used by every convolution and pooling op, and meant for the compiler):

* :func:`implicit_padding`, :func:`conv_output_size`, :func:`transpose_conv_output_size`,
  :func:`effective_filter_size` — NNAPI's padding / output-size rules;
* :class:`WindowInputs` / :class:`Window` / :func:`read_window` — where the explicit or implicit
  padding, strides, dilation, filter size, layout ... sit in an op's inputs, and their values;
* :func:`conv_real_multiplier`, :func:`conv_real_multipliers`, :func:`conv_multipliers` — per-tensor and per-channel
  requantization multipliers; :func:`requantize` — int32 accumulators to the output type;
* :func:`to_nhwc` / :func:`from_nhwc` — NCHW handling (every kernel computes in NHWC).

Quantized convolutions accumulate ``(q_in - z_in) * (q_w - z_w)`` exactly (the NumPy code sums the
integer products in float64, exact below 2**53), add the int32 bias, requantize with
:func:`nnaccel.quant.multiply_by_quantized_multiplier` and clamp to the fused activation's range.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..quant import (
    activation_range_quantized,
    apply_activation_float,
    count_leading_zeros_u32,
    exp_on_negative_values,
    fixed_mul,
    inv_sqrt_quantized_multiplier_exp,
    multiply_by_quantized_multiplier,
    one_over_one_plus_x_for_x_in_0_1,
    quantize_multiplier,
    quantize_multipliers,
    round_double_product,
    round_half_away,
    rounding_divide_by_pot,
    wrap_int32,
)
from ..registry import Sig, define
from .common import (
    BOOL,
    F16,
    F32,
    FLOAT16,
    FLOAT32,
    FLOATS,
    I32,
    INT32,
    Q8A,
    Q8AS,
    Q8PC,
    QUANT8,
    check_activation,
    check_same_quant,
    qrange,
)

# =============================================================================================
# Shared convolution machinery
# =============================================================================================

#: NNAPI implicit padding schemes (``PaddingCode``).
PADDING_SCHEMES = {0: "NONE", 1: "SAME", 2: "VALID"}
PADDING_SAME = 1
PADDING_VALID = 2


def effective_filter_size(filter_size: int, dilation: int = 1) -> int:
    """The span a dilated filter covers: ``(filter_size - 1) * dilation + 1``."""
    return (filter_size - 1) * dilation + 1


def implicit_padding(in_size: int, stride: int, filter_size: int, scheme: int, dilation: int = 1,
                     transpose: bool = False) -> tuple[int, int]:
    """Explicit ``(head, tail)`` padding of an implicit scheme (NNAPI ``calculateExplicitPadding``).

    SAME: ``out = ceil(in / stride)``, ``total = (out - 1) * stride + effective_filter - in``;
    when ``total > 0``, ``head = total // 2`` and ``tail = total - head``. For TRANSPOSE_CONV_2D
    (``transpose=True``, ``in_size`` = the requested *output* size) the tail is ``total - head``
    even when negative. NONE and VALID: no padding.
    """
    head = tail = 0
    if scheme == PADDING_SAME:
        out = (in_size + stride - 1) // stride
        total = (out - 1) * stride + effective_filter_size(filter_size, dilation) - in_size
        if total > 0:
            head = total // 2
            tail = total - head
        if transpose:
            tail = total - head
    return head, tail


def _div_trunc(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def conv_output_size(in_size: int, filter_size: int, stride: int, head: int, tail: int,
                     dilation: int = 1) -> int:
    """NNAPI ``computeOutSize``: ``(in - effective_filter + stride + head + tail) / stride``
    (C++ division, truncating toward zero)."""
    return _div_trunc(in_size - effective_filter_size(filter_size, dilation) + stride + head + tail, stride)


def transpose_conv_output_size(in_size: int, filter_size: int, stride: int, head: int, tail: int) -> int:
    """NNAPI ``computeOutSizeTransposeConv``: ``in * stride + filter - stride - head - tail``."""
    return in_size * stride + filter_size - stride - head - tail


def to_nhwc(x: np.ndarray, nchw: bool) -> np.ndarray:
    """A 4-D tensor in NHWC order (a view of an NCHW input transposed)."""
    return np.transpose(x, (0, 2, 3, 1)) if nchw else x


def from_nhwc(y: np.ndarray, nchw: bool) -> np.ndarray:
    """Back to the op's layout: NHWC results transposed to NCHW when ``nchw``."""
    return np.ascontiguousarray(np.transpose(y, (0, 3, 1, 2))) if nchw else y


@dataclass(frozen=True)
class WindowInputs:
    """Where an op keeps its spatial parameters (both padding forms share the order).

    Explicit form from ``first``: pad left, right, top, bottom, stride w, stride h; implicit form
    from ``implicit_first`` (default ``first``): scheme, stride w, stride h. Then, when present,
    filter w, filter h (pooling), one ``extra`` scalar (depth multiplier / number of groups), the
    fused activation, the layout BOOL (optional or required) and dilation w, h (optional pair).
    """

    first: int
    filter_inputs: bool = False
    extra: str | None = None
    layout_optional: bool = True
    dilation: bool = False
    implicit_first: int | None = None

    def scalar_count(self, form: str) -> int:
        """Number of INT32 scalars before the layout input."""
        return (6 if form == "explicit" else 3) + 2 * self.filter_inputs + (self.extra is not None) + 1

    def start(self, form: str) -> int:
        return self.first if form == "explicit" or self.implicit_first is None else self.implicit_first

    def form_of(self, in_ops) -> str:
        """``"implicit"`` or ``"explicit"`` from the operand types, as NNAPI tells them apart: the
        implicit form has its layout BOOL (or nothing) where the explicit one has an INT32."""
        pos = self.start("implicit") + self.scalar_count("implicit")
        return "implicit" if len(in_ops) <= pos or in_ops[pos].type is BOOL else "explicit"


@dataclass
class Window:
    """The spatial parameters of one convolution / pooling operation (``None`` = not constant).

    ``pads`` is ``(top, bottom, left, right)`` as given (explicit form) or ``None`` (implicit form,
    ``scheme`` set: see :meth:`resolve`). ``index`` maps parameter names to input positions.
    """

    form: str
    pads: tuple | None
    scheme: int | None
    stride: tuple
    dilation: tuple
    filter: tuple | None
    extra: int | None
    activation: int | None
    nchw: bool
    index: dict
    dilation_given: int = 0

    def resolve(self, in_hw, filter_hw, transpose_out_hw=None) -> tuple:
        """Explicit ``(top, bottom, left, right)`` padding for input size ``in_hw`` and filter size
        ``filter_hw`` (TRANSPOSE_CONV_2D: the implicit scheme works on ``transpose_out_hw``)."""
        if self.form == "explicit":
            return self.pads
        if transpose_out_hw is not None:
            top = implicit_padding(transpose_out_hw[0], self.stride[0], filter_hw[0], self.scheme,
                                   transpose=True)
            left = implicit_padding(transpose_out_hw[1], self.stride[1], filter_hw[1], self.scheme,
                                    transpose=True)
        else:
            top = implicit_padding(in_hw[0], self.stride[0], filter_hw[0], self.scheme, self.dilation[0])
            left = implicit_padding(in_hw[1], self.stride[1], filter_hw[1], self.scheme, self.dilation[1])
        return (*top, *left)


def read_window(spec: WindowInputs, form: str, n_inputs: int, get) -> Window:
    """Reads an op's spatial parameters; ``get(i, default)`` returns input ``i``'s scalar value
    (``ValidationContext.scalar`` / ``KernelContext.scalar``)."""
    i = spec.start(form)
    index = {}
    pads = scheme = None
    if form == "explicit":
        left, right, top, bottom = (get(i + k) for k in range(4))
        pads = (top, bottom, left, right)
        index.update(pad_left=i, pad_right=i + 1, pad_top=i + 2, pad_bottom=i + 3)
        i += 4
    else:
        scheme = get(i)
        index["scheme"] = i
        i += 1
    stride = (get(i + 1), get(i))
    index.update(stride_w=i, stride_h=i + 1)
    i += 2
    filt = None
    if spec.filter_inputs:
        filt = (get(i + 1), get(i))
        index.update(filter_w=i, filter_h=i + 1)
        i += 2
    extra = None
    if spec.extra is not None:
        extra = get(i)
        index["extra"] = i
        i += 1
    activation = get(i)
    index["activation"] = i
    i += 1
    index["layout"] = i
    nchw = bool(get(i, False)) if i < n_inputs else False
    i += 1
    dilation = (1, 1)
    given = 0
    if spec.dilation and i < n_inputs:
        given = min(2, n_inputs - i)
        dilation = (get(i + 1) if given == 2 else 1, get(i))
        index.update(dilation_w=i, dilation_h=i + 1)
    return Window(form, pads, scheme, stride, dilation, filt, extra, activation, nchw, index, given)


def window_signatures(spec: WindowInputs, type_sigs, prefix_extra_implicit=()) -> list[Sig]:
    """The explicit- and implicit-form signatures of a windowed op: ``type_sigs`` lists
    ``(tensor inputs, outputs, types)``; the scalars follow from ``spec``. One signature per
    accepted input count (the trailing layout / dilation inputs are optional); a lone dilation
    factor matches too, so that the validator can reject it with a clear message."""
    sigs = []
    for form in ("explicit", "implicit"):
        tail = (INT32,) * spec.scalar_count(form) + (BOOL,) + ((INT32, INT32) if spec.dilation else ())
        n_optional = (1 if spec.layout_optional else 0) + (2 if spec.dilation else 0)
        extra = prefix_extra_implicit if form == "implicit" else ()
        for drop in range(n_optional, -1, -1):
            for ins, outs, types in type_sigs:
                full = tuple(ins) + tuple(extra) + tail
                sigs.append(Sig(full[:len(full) - drop], tuple(outs), types=types, form=form))
    return sigs


def _dim(o, i):
    """Dimension ``i`` of operand ``o`` when known (> 0), else ``None``."""
    if o.dimensions is None or len(o.dimensions) <= i or not o.dimensions[i]:
        return None
    return o.dimensions[i]


def _spatial_dims(o, nchw: bool):
    """``(batch, height, width, channels)`` of a 4-D operand (``None`` where unknown)."""
    if o.rank != 4:
        return None, None, None, None
    order = (0, 2, 3, 1) if nchw else (0, 1, 2, 3)
    return tuple(_dim(o, k) for k in order)


def validate_window(v, spec: WindowInputs, filter_hw=None, transpose=False) -> Window:
    """Checks the spatial parameters shared by convolution and pooling ops; returns the window.

    Rules: a dilation pair given whole; an implicit scheme of 0, 1 or 2; strides, dilation factors
    and pooling filter sizes > 0; explicit paddings >= 0 (TRANSPOSE_CONV_2D: left / top only); a
    valid fused activation; each padding smaller than the (dilated) filter (not for transposed
    convolution); and, for known sizes, a positive output size.
    """
    win = read_window(spec, v.form, v.n_in, v.scalar)
    if win.dilation_given == 1:
        v.fail("gives the dilation factor for width but not the one for height; the two must be "
               "given together", input=win.index["dilation_w"])
    if win.scheme is not None and win.scheme not in PADDING_SCHEMES:
        v.fail(f"is the implicit padding scheme {win.scheme}, but it must be 0 (NONE), 1 (SAME) or "
               f"2 (VALID)", input=win.index["scheme"])
    for name, value in (("stride_h", win.stride[0]), ("stride_w", win.stride[1])):
        if value is not None and value <= 0:
            v.fail(f"is a stride of {value}, but strides must be > 0", input=win.index[name])
    if spec.dilation and win.dilation_given:
        for name, value in (("dilation_h", win.dilation[0]), ("dilation_w", win.dilation[1])):
            if value is not None and value <= 0:
                v.fail(f"is a dilation factor of {value}, but dilation factors must be > 0",
                       input=win.index[name])
    if win.filter is not None:
        for name, value in (("filter_h", win.filter[0]), ("filter_w", win.filter[1])):
            if value is not None and value <= 0:
                v.fail(f"is a filter size of {value}, but filter sizes must be > 0", input=win.index[name])
        filter_hw = win.filter
    if win.pads is not None:
        for name, value in zip(("pad_top", "pad_bottom", "pad_left", "pad_right"), win.pads):
            if transpose and name in ("pad_bottom", "pad_right"):
                continue
            if value is not None and value < 0:
                v.fail(f"is a padding of {value}, but paddings must be >= 0", input=win.index[name])
    check_activation(v, win.index["activation"])
    if win.extra is not None and win.extra <= 0:
        v.fail(f"is {win.extra}, but the {spec.extra} must be > 0", input=win.index["extra"])
    _, h, w, _ = _spatial_dims(v.inp(0), win.nchw)
    known = (filter_hw is not None and None not in filter_hw and None not in win.stride
             and None not in win.dilation)
    if not known or transpose:
        return win
    if win.form == "implicit":
        if win.scheme is None or h is None or w is None:
            return win
        pads = win.resolve((h, w), filter_hw)
    else:
        pads = win.pads
        if None in pads:
            return win
    names = ("pad_top", "pad_bottom", "pad_left", "pad_right")
    for k, (name, value) in enumerate(zip(names, pads)):
        eff = effective_filter_size(filter_hw[k // 2], win.dilation[k // 2])
        if value >= eff:
            v.fail(f"is a padding of {value}, but each padding must be smaller than the "
                   f"{'dilated ' if spec.dilation else ''}filter's size {eff}",
                   input=win.index.get(name, win.index.get("scheme")))
    for k, size in enumerate((h, w)):
        if size is None:
            continue
        out = conv_output_size(size, filter_hw[k], win.stride[k], pads[2 * k], pads[2 * k + 1],
                               win.dilation[k])
        if out <= 0:
            v.fail(f"has {'height' if k == 0 else 'width'} {size}, which gives an output size of "
                   f"{out} with this filter, stride and padding; it must be > 0", input=0)
    return win


#: Operations whose int8 (QUANT8_ASYMM_SIGNED) requantization multiplier LiteRT computes from the
#: scales in double (``PopulateConvolutionQuantizationParams``); its uint8 kernels, FULLY_CONNECTED
#: and BATCH_MATMUL round ``s_in * s_w`` to float32 first, as NNAPI does for every operation.
TFLITE_DOUBLE_PRODUCT_OPS = ("CONV_2D", "DEPTHWISE_CONV_2D", "GROUPED_CONV_2D", "TRANSPOSE_CONV_2D")


def exact_conv_product(origin: str, op_type: str, in_type) -> bool:
    """Whether an operation of ``op_type`` on ``in_type`` inputs in a model of ``origin``
    (``Model.origin``) takes its multiplier as ``s_in * s_w / s_out`` all in double: a TFLite
    model's int8 convolutions (:data:`TFLITE_DOUBLE_PRODUCT_OPS`); everything else follows NNAPI."""
    return origin == "tflite" and op_type in TFLITE_DOUBLE_PRODUCT_OPS and in_type is Q8AS


def conv_real_multiplier(s_in: float, s_w: float, s_out: float, exact_product: bool = False) -> float:
    """The real requantization multiplier ``s_in * s_w / s_out`` of a convolution or matmul.

    NNAPI ``GetQuantizedConvolutionMultipler`` (default): the float32 scales' product is rounded to
    float32, then divided by ``s_out`` in double. ``exact_product=True`` (LiteRT's int8
    convolutions, see :func:`exact_conv_product`): ``double(s_in) * double(s_w) / double(s_out)``,
    no float32 rounding; the Q31 multipliers of the two can differ by tens of units."""
    if exact_product:
        return float(np.float32(s_in)) * float(np.float32(s_w)) / float(np.float32(s_out))
    prod = float(np.float32(s_in) * np.float32(s_w))
    return prod / float(np.float32(s_out))


def conv_real_multipliers(s_in: float, s_ws, s_out: float, exact_product: bool = False) -> np.ndarray:
    """:func:`conv_real_multiplier` of each filter scale of ``s_ws`` (float64), the same
    operations on arrays."""
    s_ws = np.asarray(s_ws, np.float64).astype(np.float32)
    if exact_product:
        return float(np.float32(s_in)) * s_ws.astype(np.float64) / float(np.float32(s_out))
    return (np.float32(s_in) * s_ws).astype(np.float64) / float(np.float32(s_out))


def conv_multipliers(in_op, w_op, out_op, exact_product: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Requantization ``(multiplier, shift)`` of a convolution / matmul output: one pair per
    tensor, or one per output channel for a TENSOR_QUANT8_SYMM_PER_CHANNEL filter
    (``conv_real_multiplier(s_in, filter_scales[c], s_out, exact_product)`` each), through
    :func:`nnaccel.quant.quantize_multiplier`. The accelerator lowering takes its constants from
    here with the same ``exact_product``."""
    if w_op.type is Q8PC:
        return quantize_multipliers(conv_real_multipliers(in_op.scale, w_op.channel_quant.scales, out_op.scale,
                                                          exact_product))
    m, e = quantize_multiplier(conv_real_multiplier(in_op.scale, w_op.scale, out_op.scale, exact_product))
    return np.array(m, np.int64), np.array(e, np.int64)


def requantize(acc: np.ndarray, multiplier, shift, out_op, activation: int) -> np.ndarray:
    """int32 accumulators -> quantized output: ``clamp(mbqm(acc, m, e) + z_out, act range)``;
    ``m`` / ``e`` broadcast along the last (channel) axis."""
    lo, hi = qrange(out_op.type)
    act_lo, act_hi = activation_range_quantized(activation, out_op.scale, out_op.zero_point, lo, hi)
    q = multiply_by_quantized_multiplier(acc, multiplier, shift) + out_op.zero_point
    return np.clip(q, act_lo, act_hi).astype(out_op.info.dtype)


def check_bias(v, x_i: int = 0, w_i: int = 1, b_i: int = 2) -> None:
    """The bias rules of convolutions and FULLY_CONNECTED: 1-D; for quantized inputs zero point 0
    and, for a per-tensor filter, scale = input scale x filter scale (NNAPI's tolerance
    ``|s_b - s_in*s_w| <= 1e-6 * min(s_b, s_in*s_w)``)."""
    x, w, b = v.inp(x_i), v.inp(w_i), v.inp(b_i)
    if b.rank is not None and b.dimensions and b.rank != 1:
        v.fail(f"has rank {b.rank}, but the bias must be 1-D", input=b_i)
    if x.type not in QUANT8:
        return
    if b.zero_point != 0:
        v.fail(f"has zero point {b.zero_point}, but a quantized bias must have zero point 0", input=b_i)
    if w.type is Q8PC:
        return
    expected = float(np.float32(x.scale) * np.float32(w.scale))
    bs = float(np.float32(b.scale))
    if abs(expected - bs) > 1e-6 * min(expected, bs):
        v.fail(f"has scale {b.scale:g}, but the bias scale must equal input scale x filter scale "
               f"= {expected:g}", input=b_i)


def check_filter_quant(v, w_i: int, channel_dim: int) -> None:
    """A per-channel filter must be quantized along ``channel_dim``."""
    w = v.inp(w_i)
    if w.type is Q8PC and w.channel_quant is not None and w.channel_quant.channel_dim != channel_dim:
        v.fail(f"is quantized per channel along dimension {w.channel_quant.channel_dim}, but the "
               f"operation requires channel dimension {channel_dim}", input=w_i)


def _check_rank4(v, i: int, what: str) -> None:
    o = v.inp(i)
    if o.rank is not None and o.dimensions and o.rank != 4:
        v.fail(f"has rank {o.rank}, but the {what} must be 4-D", input=i)


def _quant_offsets(k, i: int) -> np.ndarray:
    """Input ``i`` minus its zero point, as float64 (exact integers)."""
    return k.inputs[i].astype(np.float64) - k.in_ops[i].zero_point


def _strided_tap(xp: np.ndarray, i0: int, j0: int, out_hw, stride) -> np.ndarray:
    """The input rows / columns one filter tap reads: ``xp[:, i0 + oy*sh, j0 + ox*sw, :]``."""
    oh, ow = out_hw
    return xp[:, i0:i0 + (oh - 1) * stride[0] + 1:stride[0], j0:j0 + (ow - 1) * stride[1] + 1:stride[1], :]


def _pad_for_window(x: np.ndarray, pads, out_hw, span_hw, stride, value=0) -> np.ndarray:
    """Pads an NHWC tensor with ``value`` at top / left as given and at bottom / right as far as the
    output needs (``(out - 1) * stride + span``)."""
    top, _, left, _ = pads
    need_h = (out_hw[0] - 1) * stride[0] + span_hw[0]
    need_w = (out_hw[1] - 1) * stride[1] + span_hw[1]
    bottom = max(0, need_h - top - x.shape[1])
    right = max(0, need_w - left - x.shape[2])
    return np.pad(x, ((0, 0), (top, bottom), (left, right), (0, 0)), constant_values=value)


def grouped_conv_accumulate(x: np.ndarray, w: np.ndarray, groups: int, pads, stride, dilation,
                            out_hw, sequential: bool = False) -> np.ndarray:
    """Sum of products of a grouped 2-D convolution, NHWC, in ``x``'s dtype.

    ``x``: ``[N, H, W, groups * Cg]``; ``w``: ``[Dout, fh, fw, Cg]`` with output channel
    ``g * (Dout / groups) + d`` reading input channels ``g * Cg ... g * Cg + Cg - 1``. CONV_2D is
    ``groups = 1``; DEPTHWISE_CONV_2D is ``groups = C_in``, ``Cg = 1``. One matrix product per
    filter tap (padding positions contribute 0), summed over the taps in ``x``'s dtype.

    ``sequential=True`` (float TFLite models, ``Model.origin == "tflite"``): LiteRT's
    ``reference_ops::Conv`` order instead, ``total += x * w`` one product at a time over filter
    row, filter column, then input channel, each product and each sum rounded to ``x``'s dtype
    (float32), so the result is LiteRT's bit for bit. A product per tap sums its channels in the
    BLAS library's order, which differs in the last bits and drifts over deep channel sums.
    """
    n = x.shape[0]
    dout, fh, fw, cg = w.shape
    oh, ow = out_hw
    span = (effective_filter_size(fh, dilation[0]), effective_filter_size(fw, dilation[1]))
    xp = _pad_for_window(x, pads, out_hw, span, stride)
    m = n * oh * ow
    dg = dout // groups
    acc = np.zeros((m, groups, dg), x.dtype)
    for i in range(fh):
        for j in range(fw):
            xs = _strided_tap(xp, i * dilation[0], j * dilation[1], out_hw, stride).reshape(m, groups, cg)
            wt = w[:, i, j, :].reshape(groups, dg, cg)
            if groups == 1 and not sequential:
                acc[:, 0, :] += xs[:, 0, :] @ wt[0].T
            elif cg == 1:
                acc += xs * wt[None, :, :, 0]
            elif sequential:
                for c in range(cg):
                    acc += xs[:, :, c:c + 1] * wt[None, :, :, c]
            else:
                acc += np.matmul(xs.transpose(1, 0, 2), wt.transpose(0, 2, 1)).transpose(1, 0, 2)
    return acc.reshape(n, oh, ow, dout)


def transpose_conv_accumulate(x: np.ndarray, w: np.ndarray, pads, stride, out_hw) -> np.ndarray:
    """Sum of products of a transposed convolution, NHWC: input pixel ``(h, w)`` adds
    ``x[h, w, :] . W[k, i, j, :]`` to output ``(h*sh - pad_top + i, w*sw - pad_left + j, k)``
    (positions outside the output are dropped). One matrix product per filter tap."""
    n, h, wd, c = x.shape
    dout, fh, fw, _ = w.shape
    top, _, left, _ = pads
    oh, ow = out_hw
    bh = max((h - 1) * stride[0] + fh, top + oh)
    bw = max((wd - 1) * stride[1] + fw, left + ow)
    buf = np.zeros((n, bh, bw, dout), x.dtype)
    flat = x.reshape(-1, c)
    for i in range(fh):
        for j in range(fw):
            contrib = (flat @ w[:, i, j, :].T).reshape(n, h, wd, dout)
            buf[:, i:i + (h - 1) * stride[0] + 1:stride[0], j:j + (wd - 1) * stride[1] + 1:stride[1], :] += contrib
    return buf[:, top:top + oh, left:left + ow, :]


def finish_conv(k, acc: np.ndarray, bias: np.ndarray, activation: int, in_i: int = 0, w_i: int = 1):
    """Bias, activation and output type of a convolution-like result ``acc`` (channels last).

    Quantized: ``acc`` holds exact integer sums; ``out = requantize(wrap_int32(acc + bias),
    conv_multipliers)`` (the reference's int32 accumulator; its overflow, undefined in C++, is taken
    as two's-complement wrap-around), the multiplier chosen by :func:`exact_conv_product`. Float: ``act(acc + bias)`` in float32, rounded to the output
    type (float16 via float32).
    """
    out_op = k.out_ops[0]
    if out_op.type in QUANT8:
        total = wrap_int32(np.rint(acc).astype(np.int64) + bias.astype(np.int64))
        exact = exact_conv_product(k.model.origin, k.name, k.in_ops[in_i].type)
        m, e = conv_multipliers(k.in_ops[in_i], k.in_ops[w_i], out_op, exact)
        return requantize(total, m, e, out_op, activation)
    out = (acc.astype(np.float32) + bias.astype(np.float32)).astype(np.float32)
    return apply_activation_float(out, activation).astype(out_op.info.dtype)


def _conv_operands(k, w_i: int = 1):
    """Input and filter as arrays ready to accumulate: quantized ones minus their zero points in
    float64 (per-channel filters have zero point 0), floats in float32."""
    if k.in_ops[0].type in QUANT8:
        return _quant_offsets(k, 0), _quant_offsets(k, w_i)
    return k.inputs[0].astype(np.float32), k.inputs[w_i].astype(np.float32)


# =============================================================================================
# CONV_2D, DEPTHWISE_CONV_2D, GROUPED_CONV_2D, TRANSPOSE_CONV_2D
# =============================================================================================

CONV_TYPE_SIGS = [
    (("T", "T", "T"), ("T",), {"T": FLOATS}),
    (("Q", "Q", I32), ("Q",), {"Q": QUANT8}),
    (("Q", Q8PC, I32), ("Q",), {"Q": QUANT8}),
]

CONV_INPUTS = WindowInputs(first=3, dilation=True)
DEPTHWISE_INPUTS = WindowInputs(first=3, extra="depth multiplier", dilation=True)
GROUPED_INPUTS = WindowInputs(first=3, extra="number of groups", layout_optional=False)
TRANSPOSE_INPUTS = WindowInputs(first=3, layout_optional=False, implicit_first=4)


def _validate_conv_common(v, channel_dim: int) -> None:
    _check_rank4(v, 0, "input")
    _check_rank4(v, 1, "filter")
    check_bias(v)
    check_filter_quant(v, 1, channel_dim)


def _filter_hw(v):
    w = v.inp(1)
    return (_dim(w, 1), _dim(w, 2)) if w.rank == 4 else None


def _check_bias_size(v, channels) -> None:
    b = _dim(v.inp(2), 0)
    if channels is not None and b is not None and b != channels:
        v.fail(f"has {b} elements, but the operation has {channels} output channels", input=2)


def _check_filter_depth_and_bias(v, win) -> None:
    """A ``[Dout, fh, fw, Cin]`` filter's depth must equal the input depth; the bias has ``Dout``
    elements (CONV_2D, TRANSPOSE_CONV_2D)."""
    _, _, _, cin = _spatial_dims(v.inp(0), win.nchw)
    fdepth = _dim(v.inp(1), 3)
    if cin is not None and fdepth is not None and cin != fdepth:
        v.fail(f"has depth {fdepth}, but the input has {cin} channels; the filter depth must equal "
               f"the input depth", input=1)
    _check_bias_size(v, _dim(v.inp(1), 0))


def validate_conv2d(v) -> None:
    """CONV_2D: 4-D input / filter ``[Dout, fh, fw, Cin]`` (filter depth = input depth), bias
    ``[Dout]`` with the quantized bias rules, per-channel filters along dimension 0, and the
    window rules of :func:`validate_window`."""
    _validate_conv_common(v, 0)
    win = validate_window(v, CONV_INPUTS, _filter_hw(v))
    _check_filter_depth_and_bias(v, win)


def _run_grouped(k, spec, groups_of, filter_to_grouped):
    x_raw = k.inputs[0]
    win = read_window(spec, spec.form_of(k.in_ops), len(k.inputs), k.scalar)
    x_nhwc = to_nhwc(x_raw, win.nchw)
    _, h, w, c = x_nhwc.shape
    fh, fw = k.inputs[1].shape[1:3]
    pads = win.resolve((h, w), (fh, fw))
    out_hw = tuple(conv_output_size((h, w)[d], (fh, fw)[d], win.stride[d], pads[2 * d], pads[2 * d + 1],
                                    win.dilation[d]) for d in range(2))
    if min(out_hw) <= 0:
        k.fail(f"the output size {list(out_hw)} is not positive")
    xq, wq = _conv_operands(k)
    xq = to_nhwc(xq, win.nchw)
    groups = groups_of(win, c)
    wg = filter_to_grouped(wq, c)
    if wg.shape[3] * groups != c:
        k.fail(f"the filter depth {wg.shape[3]} times {groups} groups does not match the input depth {c}")
    sequential = k.model.origin == "tflite" and xq.dtype == np.float32
    acc = grouped_conv_accumulate(xq, wg, groups, pads, win.stride, win.dilation, out_hw, sequential)
    return [from_nhwc(finish_conv(k, acc, k.inputs[2], win.activation or 0), win.nchw)]


@define("CONV_2D", window_signatures(CONV_INPUTS, CONV_TYPE_SIGS), validate_conv2d)
def conv_2d(k):
    """CONV_2D: ``out[b, y, x, d] = act(sum_{i, j, c} in[b, y*sh + i*dh - pt, x*sw + j*dw - pl, c] *
    filter[d, i, j, c] + bias[d])`` (positions in the padding read 0).

    float32 in float32; float16 via float32. quant8 / quant8 signed, per-tensor or per-channel
    filter (NNAPI ``convNhwc`` / ``convQuant8PerChannelNhwc``)::

        acc[d] = sum (q_in - z_in) * (q_w - z_w) + bias[d]                 (int32, z_w = 0 per channel)
        (m[d], e[d]) = quantize_multiplier(float32(s_in * s_w[d]) / s_out)
        out = clamp(mbqm(acc[d], m[d], e[d]) + z_out, activation range)

    In a TFLite model (``Model.origin == "tflite"``) an int8 convolution takes LiteRT's
    multiplier ``double(s_in) * double(s_w[d]) / double(s_out)`` (:func:`exact_conv_product`; the
    same for DEPTHWISE_CONV_2D, GROUPED_CONV_2D and TRANSPOSE_CONV_2D), and a float32 one sums its
    products in LiteRT's order (:func:`grouped_conv_accumulate`, ``sequential``).

    NCHW inputs are transposed to NHWC and the result back.
    """
    return _run_grouped(k, CONV_INPUTS, lambda win, c: 1, lambda wq, c: wq)


def validate_depthwise(v) -> None:
    """DEPTHWISE_CONV_2D: filter ``[1, fh, fw, Dout]`` with ``Dout = Cin * depth_multiplier``, bias
    ``[Dout]``, per-channel filters along dimension 3, and the window rules."""
    _validate_conv_common(v, 3)
    win = validate_window(v, DEPTHWISE_INPUTS, _filter_hw(v))
    w = v.inp(1)
    if _dim(w, 0) not in (None, 1):
        v.fail(f"has first dimension {_dim(w, 0)}, but a depthwise filter must be [1, fh, fw, depth_out]",
               input=1)
    _, _, _, cin = _spatial_dims(v.inp(0), win.nchw)
    dout = _dim(w, 3)
    if cin is not None and dout is not None and win.extra is not None and cin * win.extra != dout:
        v.fail(f"has {dout} output channels, but input depth {cin} x depth multiplier {win.extra} "
               f"= {cin * win.extra}", input=1)
    _check_bias_size(v, dout)


@define("DEPTHWISE_CONV_2D", window_signatures(DEPTHWISE_INPUTS, CONV_TYPE_SIGS), validate_depthwise)
def depthwise_conv_2d(k):
    """DEPTHWISE_CONV_2D: ``out[b, y, x, c*M + m] = act(sum_{i, j} in[b, y*sh + i*dh - pt,
    x*sw + j*dw - pl, c] * filter[0, i, j, c*M + m] + bias[c*M + m])``, ``M`` the depth multiplier.

    Computed as a grouped convolution with ``C_in`` groups of one channel. Arithmetic per type as
    CONV_2D (NNAPI ``depthwiseConvNhwc`` / ``depthwiseConvQuant8PerChannelNhwc``).
    """
    return _run_grouped(k, DEPTHWISE_INPUTS, lambda win, c: c,
                        lambda wq, c: wq[0].transpose(2, 0, 1)[..., None])


def validate_grouped(v) -> None:
    """GROUPED_CONV_2D: filter ``[Dout, fh, fw, Cg]`` with ``Cg * groups = Cin`` and ``Dout``
    divisible by ``groups``, bias ``[Dout]``, per-channel along dimension 0, window rules (no
    dilation, layout required)."""
    _validate_conv_common(v, 0)
    win = validate_window(v, GROUPED_INPUTS, _filter_hw(v))
    w = v.inp(1)
    _, _, _, cin = _spatial_dims(v.inp(0), win.nchw)
    g = win.extra
    cg, dout = _dim(w, 3), _dim(w, 0)
    if g is not None and cin is not None and cg is not None and cg * g != cin:
        v.fail(f"has depth {cg}, but filter depth x {g} groups must equal the input depth {cin}", input=1)
    if g is not None and dout is not None and dout % g:
        v.fail(f"has {dout} output channels, which is not divisible by the {g} groups", input=1)
    _check_bias_size(v, dout)


@define("GROUPED_CONV_2D", window_signatures(GROUPED_INPUTS, CONV_TYPE_SIGS), validate_grouped)
def grouped_conv_2d(k):
    """GROUPED_CONV_2D: output channel ``g * (Dout / G) + q`` convolves input channels
    ``g * Cg ... (g + 1) * Cg - 1`` with ``filter[g * (Dout / G) + q]``; arithmetic per type as
    CONV_2D (NNAPI ``groupedConvQuant8`` / ``groupedConvQuant8PerChannel``)."""
    return _run_grouped(k, GROUPED_INPUTS, lambda win, c: win.extra, lambda wq, c: wq)


def validate_transpose_conv(v) -> None:
    """TRANSPOSE_CONV_2D: filter ``[Dout, fh, fw, Cin]`` (depth = input depth), bias ``[Dout]``,
    per-channel along dimension 0; paddings left / top >= 0 (right / bottom may be negative);
    implicit form: a 1-D output shape tensor of 4 elements."""
    _validate_conv_common(v, 0)
    win = validate_window(v, TRANSPOSE_INPUTS, _filter_hw(v), transpose=True)
    _check_filter_depth_and_bias(v, win)
    if v.form == "implicit":
        s = v.inp(3)
        if s.dimensions is not None and (len(s.dimensions) != 1 or s.dimensions[0] not in (0, 4)):
            v.fail(f"has shape {list(s.dimensions)}, but the output shape must be a 1-D tensor of 4 "
                   f"elements", input=3)


@define("TRANSPOSE_CONV_2D", window_signatures(TRANSPOSE_INPUTS, CONV_TYPE_SIGS, (I32,)),
        validate_transpose_conv)
def transpose_conv_2d(k):
    """TRANSPOSE_CONV_2D: input pixel ``(y, x)`` adds ``sum_c in[y, x, c] * filter[d, i, j, c]`` to
    output ``(y*sh - pt + i, x*sw - pl + j, d)``; then bias and activation. Output size
    ``in * stride + filter - stride - head - tail``; the implicit form pads the requested output
    shape with :func:`implicit_padding` (``transpose=True``).

    Quantized (NNAPI ``transposeConvNhwc`` / ``...QuantPerChannel``): the scatter sums
    ``(q_in - z_in) * (q_w - z_w)`` in int32, then ``+ bias``, requantized as CONV_2D.
    """
    win = read_window(TRANSPOSE_INPUTS, TRANSPOSE_INPUTS.form_of(k.in_ops), len(k.inputs), k.scalar)
    x_nhwc = to_nhwc(k.inputs[0], win.nchw)
    _, h, w, _ = x_nhwc.shape
    _, fh, fw, _ = k.inputs[1].shape
    target = None
    if win.form == "implicit":
        shape = [int(s) for s in np.asarray(k.inputs[3]).reshape(-1)]
        if len(shape) != 4:
            k.fail(f"the output shape tensor has {len(shape)} elements, but it must have 4")
        target = (shape[2], shape[3]) if win.nchw else (shape[1], shape[2])
    pads = win.resolve((h, w), (fh, fw), target)
    if pads[0] < 0 or pads[2] < 0:
        k.fail(f"the padding {list(pads)} has a negative top or left padding")
    out_hw = tuple(transpose_conv_output_size((h, w)[d], (fh, fw)[d], win.stride[d], pads[2 * d],
                                              pads[2 * d + 1]) for d in range(2))
    if min(out_hw) <= 0:
        k.fail(f"the output size {list(out_hw)} is not positive")
    xq, wq = _conv_operands(k)
    acc = transpose_conv_accumulate(to_nhwc(xq, win.nchw), wq, pads, win.stride, out_hw)
    return [from_nhwc(finish_conv(k, acc, k.inputs[2], win.activation or 0), win.nchw)]


# =============================================================================================
# AVERAGE_POOL_2D, MAX_POOL_2D, L2_POOL_2D
# =============================================================================================

POOL_INPUTS = WindowInputs(first=1, filter_inputs=True)
POOL_TYPES = (F32, F16, Q8A, Q8AS)


def validate_pool(v) -> None:
    """Pooling: a 4-D input, the window rules (filter sizes > 0, paddings smaller than the
    filter), and a quantized output with the input's scale and zero point (in a TFLite model,
    ``Model.origin``, any: LiteRT's kernels then write the pooled stored values unrescaled, see
    :func:`max_pool_2d`)."""
    _check_rank4(v, 0, "input")
    validate_window(v, POOL_INPUTS)
    if v.inp(0).type in QUANT8 and v.model.origin != "tflite":
        o = v.out(0)
        i = v.inp(0)
        if o.scale != i.scale or o.zero_point != i.zero_point:
            v.fail(f"has scale {o.scale:g} and zero point {o.zero_point}, but the spec requires the "
                   f"input's (scale {i.scale:g}, zero point {i.zero_point})", output=0)


def _pool_setup(k):
    win = read_window(POOL_INPUTS, POOL_INPUTS.form_of(k.in_ops), len(k.inputs), k.scalar)
    x = to_nhwc(k.inputs[0], win.nchw)
    _, h, w, _ = x.shape
    fh, fw = win.filter
    pads = win.resolve((h, w), (fh, fw))
    out_hw = tuple(conv_output_size((h, w)[d], (fh, fw)[d], win.stride[d], pads[2 * d], pads[2 * d + 1])
                   for d in range(2))
    if min(out_hw) <= 0:
        k.fail(f"the output size {list(out_hw)} is not positive")
    return win, x, pads, out_hw


def pool_window_counts(in_hw, filter_hw, stride, pads, out_hw) -> np.ndarray:
    """``[OH, OW]`` number of input pixels inside each pooling window (the window clipped to the
    input, as TFLite's ``filter_count``)."""
    counts = []
    for d in range(2):
        start = np.arange(out_hw[d]) * stride[d] - pads[2 * d]
        counts.append(np.minimum(start + filter_hw[d], in_hw[d]) - np.maximum(start, 0))
    return counts[0][:, None] * counts[1][None, :]


def _pool_reduce(x, win, pads, out_hw, op, pad_value):
    xp = _pad_for_window(x, pads, out_hw, win.filter, win.stride, pad_value)
    acc = None
    for i in range(win.filter[0]):
        for j in range(win.filter[1]):
            tap = _strided_tap(xp, i, j, out_hw, win.stride)
            acc = tap.copy() if acc is None else op(acc, tap)
    return acc


def _pool_finish(k, win, out):
    o = k.out_ops[0]
    act = win.activation or 0
    if o.type in QUANT8:
        lo, hi = activation_range_quantized(act, o.scale, o.zero_point, *qrange(o.type))
        return [from_nhwc(np.clip(out, lo, hi).astype(o.info.dtype), win.nchw)]
    return [from_nhwc(apply_activation_float(out.astype(np.float32), act).astype(o.info.dtype), win.nchw)]


@define("AVERAGE_POOL_2D", window_signatures(POOL_INPUTS, [(("T",), ("T",), {"T": POOL_TYPES})]),
        validate_pool)
def average_pool_2d(k):
    """AVERAGE_POOL_2D: the mean of the input pixels inside each window (padding excluded: the
    divisor is the number of input pixels the window covers, :func:`pool_window_counts`).

    float32 in float32 (``sum / count``); float16 via float32. quant8 / quant8 signed (TFLite
    ``AveragePool`` uint8, ``reference_integer_ops::AveragePool`` int8), in the input's scale::

        acc = sum q                                      (int32, over the covered pixels)
        avg = (acc + count/2) / count  if acc >= 0 else (acc - count/2) / count   (C++ division)
        out = clamp(avg, activation range)

    In a TFLite model the quantized output may be quantized differently (see :func:`max_pool_2d`):
    ``avg`` of the stored values, clamped to the activation range in the output's scale.
    """
    win, x, pads, out_hw = _pool_setup(k)
    counts = pool_window_counts(x.shape[1:3], win.filter, win.stride, pads, out_hw)[None, :, :, None]
    if k.in_ops[0].type in QUANT8:
        acc = _pool_reduce(x.astype(np.int64), win, pads, out_hw, np.add, 0)
        half = counts // 2
        avg = np.where(acc >= 0, (acc + half) // counts, -((-acc + half) // counts))
        return _pool_finish(k, win, avg)
    acc = _pool_reduce(x.astype(np.float32), win, pads, out_hw, np.add, 0.0)
    return _pool_finish(k, win, acc / counts.astype(np.float32))


@define("MAX_POOL_2D", window_signatures(POOL_INPUTS, [(("T",), ("T",), {"T": POOL_TYPES})]), validate_pool)
def max_pool_2d(k):
    """MAX_POOL_2D: the maximum of the input pixels inside each window (padding never wins), then
    the fused activation (quantized: a clamp to the activation range in the input's scale).

    In a TFLite model (``Model.origin == "tflite"``) the quantized output may have another scale or
    zero point than the input; the result is then LiteRT's: the maximum of the stored values, as
    they are, clamped to the activation range in the output's scale (LiteRT's pooling kernels
    leave the output's quantization to a debug-only check). AVERAGE_POOL_2D likewise."""
    win, x, pads, out_hw = _pool_setup(k)
    if k.in_ops[0].type in QUANT8:
        return _pool_finish(k, win, _pool_reduce(x.astype(np.int64), win, pads, out_hw, np.maximum, -(2**31)))
    return _pool_finish(k, win, _pool_reduce(x.astype(np.float32), win, pads, out_hw, np.maximum, -np.inf))


@define("L2_POOL_2D", window_signatures(POOL_INPUTS, [(("T",), ("T",), {"T": FLOATS})]), validate_pool)
def l2_pool_2d(k):
    """L2_POOL_2D: ``sqrt(sum(x**2) / count)`` over the input pixels inside each window, in float32
    (float16 via float32), then the fused activation."""
    win, x, pads, out_hw = _pool_setup(k)
    counts = pool_window_counts(x.shape[1:3], win.filter, win.stride, pads, out_hw)[None, :, :, None]
    x32 = x.astype(np.float32)
    acc = _pool_reduce(x32 * x32, win, pads, out_hw, np.add, 0.0)
    return _pool_finish(k, win, np.sqrt(acc / counts.astype(np.float32)))


# =============================================================================================
# FULLY_CONNECTED, BATCH_MATMUL
# =============================================================================================

def validate_fully_connected(v) -> None:
    """FULLY_CONNECTED: input rank 2 to 4 whose element count is a multiple of the weights'
    ``input_size``; weights 2-D ``[num_units, input_size]``; bias ``[num_units]`` with the
    quantized bias rules of :func:`check_bias`; a valid fused activation."""
    x, w = v.inp(0), v.inp(1)
    if x.rank is not None and x.dimensions and not 2 <= x.rank <= 4:
        v.fail(f"has rank {x.rank}, but the input must have rank 2 to 4", input=0)
    if w.rank is not None and w.dimensions and w.rank != 2:
        v.fail(f"has rank {w.rank}, but the weights must be 2-D [num_units, input_size]", input=1)
    check_bias(v)
    if w.type is Q8PC:
        if v.model.origin != "tflite":
            v.fail("is quantized per channel, but NNAPI's FULLY_CONNECTED takes per-tensor weights only "
                   "(per-channel weights are LiteRT's, in a model of origin \"tflite\", see Model.origin)",
                   input=1)
        check_filter_quant(v, 1, 0)
    units = _dim(w, 0)
    _check_bias_size(v, units)
    check_activation(v, 3)
    size = _dim(w, 1)
    if x.fully_specified and size:
        total = int(np.prod(x.dimensions))
        if total % size:
            v.fail(f"has {total} elements, which is not a multiple of the weights' input size {size}",
                   input=0)


@define("FULLY_CONNECTED", [
    Sig((F32, F32, F32, INT32), (F32,)),
    Sig((F16, F16, F16, INT32), (F16,), since="V1_2"),
    Sig(("Q", "Q", I32, INT32), ("Q",), types={"Q": QUANT8}),
    Sig((Q8AS, Q8PC, I32, INT32), (Q8AS,)),   # LiteRT's per-channel weights: TFLite models only
], validate_fully_connected)
def fully_connected(k):
    """FULLY_CONNECTED: ``out[b, u] = act(sum_i x[b, i] * w[u, i] + bias[u])``.

    The input is flattened to ``[batch, input_size]`` with ``input_size = weights.shape[1]``.
    float32 in float32 (matmul); float16 via float32. quant8 / quant8 signed (NNAPI
    ``fullyConnectedQuant8``)::

        acc[b, u] = sum_i (q_x[b, i] - z_x) * (q_w[u, i] - z_w) + bias[u]      (int32)
        (m, e) = quantize_multiplier(float32(s_x * s_w) / s_out)
        out = clamp(mbqm(acc, m, e) + z_out, activation range)

    In a TFLite model (``Model.origin == "tflite"``) LiteRT's reference instead:
    ``out = clamp(round(double(acc) * (double(s_x) * double(s_w) / double(s_out))) + z_out, ...)``,
    one rounding, half away from zero (:func:`single_rounding_fc`). Such a model may also have
    int8 weights quantized per output unit (TENSOR_QUANT8_SYMM_PER_CHANNEL along dimension 0,
    LiteRT's ``FullyConnectedPerChannel``; NNAPI has none): ``s_w[u]`` in unit ``u``'s multiplier.
    """
    w = k.inputs[1]
    size = w.shape[1]
    act = k.scalar(3, 0)
    if size == 0 or k.inputs[0].size % size:
        k.fail(f"the input's {k.inputs[0].size} elements are not a multiple of the input size {size}")
    xq, wq = _conv_operands(k)
    acc = xq.reshape(-1, size) @ wq.T
    out_op = k.out_ops[0]
    if single_rounding_fc(k.model.origin, out_op.type):
        total = wrap_int32(np.rint(acc).astype(np.int64) + k.inputs[2].astype(np.int64))
        lo, hi = activation_range_quantized(act, out_op.scale, out_op.zero_point, *qrange(out_op.type))
        q = round_double_product(total, fc_real_multiplier(k.in_ops[0], k.in_ops[1], out_op)) + out_op.zero_point
        return [np.clip(q, lo, hi).astype(out_op.info.dtype)]
    return [finish_conv(k, acc, k.inputs[2], act)]


def single_rounding_fc(origin: str, out_type) -> bool:
    """Whether a quantized FULLY_CONNECTED of a model of ``origin`` requantizes as LiteRT's
    reference kernel does (:func:`nnaccel.quant.round_double_product` with
    :func:`fc_real_multiplier`): a TFLite model's uint8 and int8 ones. NNAPI's reference
    applies the fixed-point multiplier with gemmlowp's double rounding."""
    return origin == "tflite" and out_type in QUANT8


def fc_real_multiplier(in_op, w_op, out_op) -> np.ndarray:
    """LiteRT's FULLY_CONNECTED multiplier ``double(s_in) * double(s_w) / double(s_out)`` (no
    float32 rounding of the product): a 0-d array, or one per output unit for per-channel
    (TENSOR_QUANT8_SYMM_PER_CHANNEL) weights."""
    if w_op.type is Q8PC:
        return np.array([conv_real_multiplier(in_op.scale, s, out_op.scale, exact_product=True)
                         for s in w_op.channel_quant.scales], np.float64)
    return np.array(conv_real_multiplier(in_op.scale, w_op.scale, out_op.scale, exact_product=True))


def validate_batch_matmul(v) -> None:
    """BATCH_MATMUL: both inputs of rank 2 to 4 and equal rank, equal batch dimensions, and
    matching inner dimensions after the optional adjoints; the quantized output must be of the
    input type (no activation)."""
    a, b = v.inp(0), v.inp(1)
    for i, o in ((0, a), (1, b)):
        if o.rank is not None and o.dimensions and not 2 <= o.rank <= 4:
            v.fail(f"has rank {o.rank}, but BATCH_MATMUL supports ranks 2 to 4", input=i)
    if a.rank is None or b.rank is None or not a.dimensions or not b.dimensions:
        return
    if a.rank != b.rank:
        v.fail(f"has rank {b.rank}, but input 0 has rank {a.rank}; both must have the same rank", input=1)
    adj_x, adj_y = bool(v.scalar(2, False)), bool(v.scalar(3, False))
    for d, (p, q) in enumerate(zip(a.dimensions[:-2], b.dimensions[:-2])):
        if p and q and p != q:
            v.fail(f"has batch dimension {d} of size {q}, but input 0 has {p}; batch sizes must match",
                   input=1)
    inner_a = a.dimensions[-2] if adj_x else a.dimensions[-1]
    inner_b = b.dimensions[-1] if adj_y else b.dimensions[-2]
    if inner_a and inner_b and inner_a != inner_b:
        v.fail(f"has inner dimension {inner_b}, but input 0 has {inner_a}; they must match", input=1)


@define("BATCH_MATMUL", [
    Sig(("T", "T", BOOL, BOOL), ("T",), types={"T": (F32, F16, Q8AS, I32)}),
    Sig(("T", "T", BOOL), ("T",), types={"T": (F32, F16, Q8AS, I32)}),
    Sig(("T", "T"), ("T",), types={"T": (F32, F16, Q8AS, I32)}),
], validate_batch_matmul)
def batch_matmul(k):
    """BATCH_MATMUL: ``out[..., r, c] = sum_k X[..., r, k] * Y[..., k, c]`` with ``X`` / ``Y`` the
    (optionally adjointed = transposed) slices.

    float32 in float32; float16 via float32; int32: wrapping int32 sums. quant8 signed (TFLite
    ``BatchMatMul`` int8)::

        acc = sum_k (q_x - z_x) * (q_y - z_y)                                 (int32)
        (m, e) = quantize_multiplier(float32(s_x * s_y) / s_out)
        out = clamp(mbqm(acc, m, e) + z_out, int8 range)
    """
    x, y = k.inputs[0], k.inputs[1]
    if k.scalar(2, False):
        x = np.swapaxes(x, -1, -2)
    if k.scalar(3, False):
        y = np.swapaxes(y, -1, -2)
    if x.shape[-1] != y.shape[-2] or x.shape[:-2] != y.shape[:-2]:
        k.fail(f"cannot multiply slices of shapes {list(x.shape)} and {list(y.shape)}")
    t = k.in_ops[0].type
    out_op = k.out_ops[0]
    if t is I32:
        return [wrap_int32(np.matmul(x.astype(np.int64), y.astype(np.int64))).astype(np.int32)]
    if t in QUANT8:
        xq = x.astype(np.float64) - k.in_ops[0].zero_point
        yq = y.astype(np.float64) - k.in_ops[1].zero_point
        acc = np.rint(np.matmul(xq, yq)).astype(np.int64)
        m, e = conv_multipliers(k.in_ops[0], k.in_ops[1], out_op)
        return [requantize(acc, m, e, out_op, 0)]
    out = np.matmul(x.astype(np.float32), y.astype(np.float32))
    return [out.astype(out_op.info.dtype)]


# =============================================================================================
# SOFTMAX, LOG_SOFTMAX, L2_NORMALIZATION, LOCAL_RESPONSE_NORMALIZATION, INSTANCE_NORMALIZATION
# =============================================================================================

def check_axis(v, axis_i: int, max_rank: int | None = 4) -> int | None:
    """An ``axis`` scalar input in ``[-rank, rank)`` (and the input's rank within ``max_rank``);
    returns the axis when constant (default -1 when the optional input is absent)."""
    x = v.inp(0)
    rank = x.rank if x.dimensions else None
    if max_rank is not None and rank is not None and rank > max_rank:
        v.fail(f"has rank {rank}, but the operation supports ranks up to {max_rank}", input=0)
    axis = v.scalar(axis_i, -1 if not v.has(axis_i) else None)
    if axis is not None and rank is not None and not -rank <= axis < rank:
        v.fail(f"is axis {axis}, outside the range [-{rank}, {rank}) of the input's rank", input=axis_i)
    return axis


def _along_last(x: np.ndarray, axis: int, fn) -> np.ndarray:
    """Applies ``fn`` to ``x`` with ``axis`` moved last, and moves it back."""
    return np.moveaxis(fn(np.moveaxis(x, axis, -1)), -1, axis)


def _axis_of(k, i: int) -> int:
    axis = k.scalar(i, -1)
    rank = k.inputs[0].ndim
    if not -rank <= axis < rank:
        k.fail(f"the axis {axis} is outside the range [-{rank}, {rank})")
    return axis % rank


def _check_fixed_output_quant(v, scale: float, zero_points: dict) -> None:
    o = v.out(0)
    if o.type in zero_points and (np.float32(o.scale) != np.float32(scale) or o.zero_point != zero_points[o.type]):
        v.fail(f"has scale {o.scale:g} and zero point {o.zero_point}, but the spec requires scale "
               f"{scale:g} and zero point {zero_points[o.type]} for {o.type.name}", output=0)


def validate_softmax(v) -> None:
    """SOFTMAX: rank up to 4, beta > 0, axis in range; quantized output scale 1/256 with zero
    point 0 (asymm) or -128 (asymm signed)."""
    check_axis(v, 2)
    beta = v.scalar(1)
    if beta is not None and not beta > 0:
        v.fail(f"is beta {beta:g}, but beta must be > 0", input=1)
    _check_fixed_output_quant(v, 1.0 / 256, {Q8A: 0, Q8AS: -128})


def softmax_quant8(q: np.ndarray, in_op, out_op, beta: float) -> np.ndarray:
    """Quantized softmax along the last axis, as NNAPI ``softmaxQuant8Impl`` (TFLite's uint8 / int8
    reference), in gemmlowp fixed point::

        (m, ls) = quantize_multiplier(min(beta * s_in * 2**26, 2**31 - 1))    # Q5.26 input scale
        diff_min = -floor(31 * 2**26 / 2**ls)
        d = q - max(q)                                    # per row, <= 0
        e = exp_on_negative_values(srdhm(d * 2**ls, m), 5)   for d >= diff_min (Q0.31)
        sum = sum rounding_divide_by_pot(e, 12)           (Q12.19, int32)
        h = clz32(sum); bits_over_unit = 12 - h
        scale = one_over_one_plus_x_for_x_in_0_1((sum << h) - 2**31)     (Q0.31)
        out = rounding_divide_by_pot(srdhm(scale, e), bits_over_unit + 23) (- 128 for int8)
        out = clamp(out, type range);  d < diff_min gives the type's minimum
    """
    real = min(float(np.float32(beta)) * float(np.float32(in_op.scale)) * float(1 << 26), float(2**31 - 1))
    multiplier, left_shift = quantize_multiplier(real)
    diff_min = -int(np.floor((31.0 * (1 << 26)) / (1 << left_shift))) if left_shift >= 0 else -(2**31)
    x = q.astype(np.int64)
    diff = x - x.max(axis=-1, keepdims=True)
    valid = diff >= diff_min
    scaled = fixed_mul(np.where(valid, diff, 0) << max(left_shift, 0), multiplier)
    exps = exp_on_negative_values(scaled, 5)
    sum_of_exps = wrap_int32(np.where(valid, rounding_divide_by_pot(exps, 12), 0).sum(axis=-1, keepdims=True))
    headroom = count_leading_zeros_u32(sum_of_exps)
    bits_over_unit = 12 - headroom
    shifted = wrap_int32(((sum_of_exps & 0xFFFFFFFF) << headroom) - (1 << 31))
    scale = one_over_one_plus_x_for_x_in_0_1(shifted)
    out = rounding_divide_by_pot(fixed_mul(scale, exps), bits_over_unit + 31 - 8)
    lo, hi = qrange(out_op.type)
    if out_op.type is Q8AS:
        out = out - 128
    return np.where(valid, np.clip(out, lo, hi), lo).astype(out_op.info.dtype)


_SOFTMAX_SIGS = [Sig(("T", FLOAT32, INT32), ("T",), types={"T": (F32, Q8A, Q8AS)}),
                 Sig(("T", FLOAT32), ("T",), types={"T": (F32, Q8A, Q8AS)}),
                 Sig((F16, FLOAT16, INT32), (F16,)), Sig((F16, FLOAT16), (F16,))]


@define("SOFTMAX", _SOFTMAX_SIGS, validate_softmax)
def softmax(k):
    """SOFTMAX along ``axis`` (default -1): ``exp((x - max) * beta) / sum(exp((x - max) * beta))``.

    float32 in float32 (float16 via float32, beta read as float16); quant8 / quant8 signed:
    :func:`softmax_quant8`.
    """
    x = k.inputs[0]
    if x.size == 0:
        return [x.copy()]
    axis = _axis_of(k, 2)
    beta = float(k.scalar(1))
    if k.in_ops[0].type in QUANT8:
        return [_along_last(x, axis, lambda a: softmax_quant8(a, k.in_ops[0], k.out_ops[0], beta))]

    def f(a):
        a = a.astype(np.float32)
        e = np.exp((a - a.max(axis=-1, keepdims=True)) * np.float32(beta))
        return e / e.sum(axis=-1, keepdims=True)
    return [_along_last(x, axis, f).astype(x.dtype)]


def validate_log_softmax(v) -> None:
    """LOG_SOFTMAX: beta > 0 and the axis within the input's rank."""
    check_axis(v, 2, max_rank=None)
    beta = v.scalar(1)
    if beta is not None and not beta > 0:
        v.fail(f"is beta {beta:g}, but beta must be > 0", input=1)


@define("LOG_SOFTMAX", [Sig((F32, FLOAT32, INT32), (F32,)), Sig((F16, FLOAT16, INT32), (F16,))],
        validate_log_softmax)
def log_softmax(k):
    """LOG_SOFTMAX: ``(x - max) * beta - log(sum(exp((x - max) * beta)))`` along ``axis``; the
    exponentials and the logarithm in float64 (the reference's ``double`` calls), the result
    rounded to the input type."""
    x = k.inputs[0]
    if x.size == 0:
        return [x.copy()]
    axis = _axis_of(k, 2)
    beta = float(k.scalar(1))

    def f(a):
        a = a.astype(np.float64)
        z = (a - a.max(axis=-1, keepdims=True)) * beta
        return z - np.log(np.exp(z).sum(axis=-1, keepdims=True))
    return [_along_last(x, axis, f).astype(x.dtype)]


def validate_l2_norm(v) -> None:
    """L2_NORMALIZATION: rank up to 4, axis in range; quantized output scale 1/128 with zero point
    128 (asymm) or 0 (asymm signed)."""
    check_axis(v, 1)
    _check_fixed_output_quant(v, 1.0 / 128, {Q8A: 128, Q8AS: 0})


@define("L2_NORMALIZATION", [Sig(("T", INT32), ("T",), types={"T": (F32, F16, Q8A, Q8AS)}),
                             Sig(("T",), ("T",), types={"T": (F32, F16, Q8A, Q8AS)})], validate_l2_norm)
def l2_normalization(k):
    """L2_NORMALIZATION along ``axis`` (default -1): ``x / max(sqrt(sum x**2), 1e-6)`` in float32
    (float16 via float32). quant8 / quant8 signed (TFLite ``L2Normalization``)::

        d = q - z_in;  ss = sum d**2                                   (int32, per row)
        (m, e) = inv_sqrt_quantized_multiplier_exp(ss, -1)             (ss <= 1: INT32_MAX, 0)
        out = clamp(mbqm(128 * d, m, e) + (128 for asymm, 0 for signed), type range)

    In a TFLite model (``Model.origin == "tflite"``) the int8 output is LiteRT's reference
    ``clamp(mbqm(d, m, e + 7))``: the factor 128 applied as a shift after the high multiply,
    which rounds differently. An all-zero row gives the zero point (logical zero).
    """
    x = k.inputs[0]
    if x.size == 0:
        return [x.copy()]
    axis = _axis_of(k, 1)
    o = k.out_ops[0]
    if o.type in QUANT8:
        def fq(a):
            d = a.astype(np.int64) - k.in_ops[0].zero_point
            m, e = inv_sqrt_quantized_multiplier_exp((d * d).sum(axis=-1, keepdims=True), -1)
            if k.model.origin == "tflite" and o.type is Q8AS:   # LiteRT's int8 kernel: 2**7 in the shift
                out = multiply_by_quantized_multiplier(d, m, e + 7)
            else:
                out = multiply_by_quantized_multiplier(128 * d, m, e) + (128 if o.type is Q8A else 0)
            return np.clip(out, *qrange(o.type)).astype(o.info.dtype)
        return [_along_last(x, axis, fq)]

    def f(a):
        a = a.astype(np.float32)
        norm = np.maximum(np.sqrt((a * a).sum(axis=-1, keepdims=True)), np.float32(1e-6))
        return a / norm
    return [_along_last(x, axis, f).astype(x.dtype)]


def validate_lrn(v) -> None:
    """LOCAL_RESPONSE_NORMALIZATION: rank up to 4, axis in range, radius >= 0."""
    check_axis(v, 5)
    r = v.scalar(1)
    if r is not None and r < 0:
        v.fail(f"is radius {r}, but the radius must be >= 0", input=1)


@define("LOCAL_RESPONSE_NORMALIZATION", [
    Sig((F32, INT32, FLOAT32, FLOAT32, FLOAT32, INT32), (F32,)),
    Sig((F32, INT32, FLOAT32, FLOAT32, FLOAT32), (F32,)),
    Sig((F16, INT32, FLOAT16, FLOAT16, FLOAT16, INT32), (F16,)),
    Sig((F16, INT32, FLOAT16, FLOAT16, FLOAT16), (F16,)),
], validate_lrn)
def local_response_normalization(k):
    """LOCAL_RESPONSE_NORMALIZATION along ``axis`` (default -1)::

        sqr_sum[i] = sum_{j = max(0, i - r)}^{min(n - 1, i + r)} x[j]**2
        out[i] = x[i] * (bias + alpha * sqr_sum[i]) ** -beta

    in float32 (window sums from a float64 running sum; float16 via float32).
    """
    x = k.inputs[0]
    if x.size == 0:
        return [x.copy()]
    axis = _axis_of(k, 5)
    radius = int(k.scalar(1))
    bias, alpha, beta = (np.float32(k.scalar(i)) for i in (2, 3, 4))

    def f(a):
        a = a.astype(np.float32)
        n = a.shape[-1]
        sq = (a.astype(np.float64)) ** 2
        csum = np.concatenate([np.zeros(a.shape[:-1] + (1,)), np.cumsum(sq, axis=-1)], axis=-1)
        idx = np.arange(n)
        lo, hi = np.maximum(idx - radius, 0), np.minimum(idx + radius + 1, n)
        window = (csum[..., hi] - csum[..., lo]).astype(np.float32)
        return a * np.power(bias + alpha * window, -beta, dtype=np.float32)
    return [_along_last(x, axis, f).astype(x.dtype)]


def validate_instance_norm(v) -> None:
    """INSTANCE_NORMALIZATION: a 4-D input."""
    _check_rank4(v, 0, "input")


@define("INSTANCE_NORMALIZATION", [Sig((F32, FLOAT32, FLOAT32, FLOAT32, BOOL), (F32,)),
                                   Sig((F16, FLOAT16, FLOAT16, FLOAT16, BOOL), (F16,))],
        validate_instance_norm)
def instance_normalization(k):
    """INSTANCE_NORMALIZATION: per batch and channel, over height and width::

        mean = sum x / (H W);  var = sum (x - mean)**2 / (H W)
        out = (x - mean) * gamma / sqrt(var + epsilon) + beta

    in float32 (the reference computes float16 tensors in float16; float32 intermediates stay
    within the float16 tolerance), NCHW through NHWC.
    """
    x = k.inputs[0]
    nchw = bool(k.scalar(4, False))
    if x.size == 0:
        return [x.copy()]
    gamma, beta, eps = (np.float32(k.scalar(i)) for i in (1, 2, 3))
    a = to_nhwc(x, nchw).astype(np.float32)
    mean = a.mean(axis=(1, 2), keepdims=True, dtype=np.float32)
    var = ((a - mean) ** 2).mean(axis=(1, 2), keepdims=True, dtype=np.float32)
    out = (a - mean) * gamma / np.sqrt(var + eps) + beta
    return [from_nhwc(out.astype(x.dtype), nchw)]


# =============================================================================================
# RESIZE_BILINEAR, RESIZE_NEAREST_NEIGHBOR
# =============================================================================================

def _resize_sigs(min_inputs: int) -> list[Sig]:
    sigs = []
    for n in range(6, min_inputs - 1, -1):
        flags = (BOOL,) * (n - 3)
        sigs += [Sig(("T", INT32, INT32) + flags, ("T",), types={"T": (F32, F16, Q8A, Q8AS)}),
                 Sig(("T", FLOAT32, FLOAT32) + flags, ("T",), types={"T": (F32, Q8A, Q8AS)}),
                 Sig((F16, FLOAT16, FLOAT16) + flags, (F16,))]
    return sigs


def resize_output_hw(in_hw, by_scale: bool, width_param, height_param) -> tuple:
    """Output ``(height, width)`` of a resize: the INT32 sizes, or ``floor(float32(in) * scale)``."""
    if not by_scale:
        return int(height_param), int(width_param)
    return (int(np.floor(np.float32(in_hw[0]) * np.float32(height_param))),
            int(np.floor(np.float32(in_hw[1]) * np.float32(width_param))))


def validate_resize(v) -> None:
    """Resize: a 4-D input; align_corners and half_pixel_centers not both true; positive output
    sizes / scales."""
    _check_rank4(v, 0, "input")
    if v.scalar(4, False) and v.scalar(5, False):
        v.fail("sets half_pixel_centers, but align_corners is also set; at most one may be true", input=5)
    check_same_quant(v, 0, v.out(0))
    by_scale = v.inp(1).type is not INT32
    nchw = bool(v.scalar(3, False))
    _, h, w, _ = _spatial_dims(v.inp(0), nchw)
    for i, size in ((1, w), (2, h)):
        p = v.scalar(i)
        what = "width" if i == 1 else "height"
        if p is None:
            continue
        if by_scale and p <= 0:
            v.fail(f"is a {what} scale of {p:g}, but scales must be > 0", input=i)
        out = int(np.floor(np.float32(size) * np.float32(p))) if by_scale and size else (None if by_scale else p)
        if out is not None and out <= 0:
            v.fail(f"gives an output {what} of {out}, but it must be > 0", input=i)


def _resize_params(k):
    nchw = bool(k.scalar(3, False))
    align = bool(k.scalar(4, False))
    half = bool(k.scalar(5, False))
    x = to_nhwc(k.inputs[0], nchw)
    in_hw = x.shape[1:3]
    out_hw = resize_output_hw(in_hw, k.in_ops[1].type is not INT32, k.scalar(1), k.scalar(2))
    if min(out_hw) <= 0:
        k.fail(f"the output size {list(out_hw)} is not positive")
    scales = [np.float32((i - 1) / np.float32(o - 1)) if align and o > 1 else np.float32(np.float32(i) / np.float32(o))
              for i, o in zip(in_hw, out_hw)]
    return x, nchw, align, half, in_hw, out_hw, scales


def _c_div(a: np.ndarray, b: int) -> np.ndarray:
    """C++ integer division of int64 values by a positive ``b``: truncates toward zero."""
    q = np.abs(a) // b
    return np.where(a < 0, -q, q)


def resize_bilinear_integer(x: np.ndarray, out_hw, align: bool, half: bool) -> np.ndarray:
    """LiteRT ``reference_ops::ResizeBilinearInteger`` (its int8 / int16 reference), NHWC, on the
    stored values, in 10-bit fixed point. Per axis (``i`` input, ``o`` output size)::

        scale = (2**10 * i + o // 2) // o,  or with align_corners and o > 1:
                (2**10 * (i - 1) + (o - 1) // 2) // (o - 1)
        src = y * scale + scale // 2 - 2**9 if half_pixel_centers else y * scale
        y0 = max(src / 2**10, 0);  y1 = min((src + 2**10 - 1) / 2**10, i - 1);  f = src - 2**10 * y0

    (``/`` truncating toward zero, as C++). The four corners are weighted by ``(2**10 - fy) or fy``
    times ``(2**10 - fx) or fx``, summed in int64 and divided by 2**20 rounding half away from zero.
    """
    def axis(i, o):
        scale = ((1 << 10) * i + o // 2) // o
        if align and o > 1:
            scale = ((1 << 10) * (i - 1) + (o - 1) // 2) // (o - 1)
        pos = np.arange(o, dtype=np.int64)
        src = pos * scale + scale // 2 - (1 << 9) if half else pos * scale
        lo = np.maximum(_c_div(src, 1 << 10), 0)
        hi = np.minimum(_c_div(src + (1 << 10) - 1, 1 << 10), i - 1)
        return lo, hi, src - (1 << 10) * lo

    (y0, y1, fy), (x0, x1, fx) = axis(x.shape[1], out_hw[0]), axis(x.shape[2], out_hw[1])
    a = x.astype(np.int64)
    fy, fx = fy[None, :, None, None], fx[None, None, :, None]
    one = 1 << 10

    def at(yy, xx):
        return a[:, yy][:, :, xx]
    total = (at(y0, x0) * (one - fy) * (one - fx) + at(y1, x0) * fy * (one - fx)
             + at(y0, x1) * (one - fy) * fx + at(y1, x1) * fy * fx)
    return _c_div(total + np.where(total > 0, 1 << 19, -(1 << 19)), 1 << 20)


@define("RESIZE_BILINEAR", _resize_sigs(3), validate_resize)
def resize_bilinear(k):
    """RESIZE_BILINEAR (TFLite ``reference_ops::ResizeBilinear``), per axis in float32::

        scale = (in - 1) / (out - 1) if align_corners and out > 1 else in / out
        src = (y + 0.5) * scale - 0.5 if half_pixel_centers else y * scale
        y0 = max(floor(src), 0);  y1 = min(ceil(src), in - 1);  dy = src - y0
        out = x[y0,x0] (1-dy)(1-dx) + x[y1,x0] dy (1-dx) + x[y0,x1] (1-dy) dx + x[y1,x1] dy dx

    Quantized values are interpolated as float32 and converted back by truncation toward zero (the
    NNAPI reference's ``static_cast``); float16 via float32. In a TFLite model
    (``Model.origin == "tflite"``) the quantized types follow LiteRT's reference kernels instead:
    uint8 rounds the same float32 interpolation half away from zero (``TfLiteRound``), int8 is
    :func:`resize_bilinear_integer` (10-bit fixed point).
    """
    x, nchw, align, half, in_hw, out_hw, scales = _resize_params(k)
    o = k.out_ops[0]
    tflite = k.model.origin == "tflite"
    if tflite and o.type is Q8AS:
        out = np.clip(resize_bilinear_integer(x, out_hw, align, half), *qrange(o.type))
        return [from_nhwc(out.astype(o.info.dtype), nchw)]
    idx = []
    for d in range(2):
        pos = np.arange(out_hw[d], dtype=np.float32)
        src = (pos + np.float32(0.5)) * scales[d] - np.float32(0.5) if half else pos * scales[d]
        src = src.astype(np.float32)
        lo = np.maximum(np.floor(src), 0).astype(np.int64)
        hi = np.minimum(np.ceil(src).astype(np.int64), in_hw[d] - 1)
        idx.append((lo, hi, (src - lo.astype(np.float32)).astype(np.float32)))
    (y0, y1, dy), (x0, x1, dx) = idx
    a = x.astype(np.float32)
    dy = dy[None, :, None, None]
    dx = dx[None, None, :, None]
    one = np.float32(1)

    def at(yy, xx):
        return a[:, yy][:, :, xx]
    out = (at(y0, x0) * (one - dy) * (one - dx) + at(y1, x0) * dy * (one - dx)
           + at(y0, x1) * (one - dy) * dx + at(y1, x1) * dy * dx)
    if o.type in QUANT8:
        out = np.clip(round_half_away(out) if tflite else np.trunc(out), *qrange(o.type))
    return [from_nhwc(out.astype(o.info.dtype), nchw)]


@define("RESIZE_NEAREST_NEIGHBOR", _resize_sigs(4), validate_resize)
def resize_nearest_neighbor(k):
    """RESIZE_NEAREST_NEIGHBOR (NNAPI ``resizeNearestNeighbor``), per axis in float32::

        scale as RESIZE_BILINEAR;  src = (y + 0.5) * scale if half_pixel_centers else y * scale
        idx = min(round_half_away(src) if align_corners else floor(src), in - 1)
        (and max(idx, 0) with half_pixel_centers)

    The output copies the selected input pixels.
    """
    x, nchw, align, half, in_hw, out_hw, scales = _resize_params(k)
    idx = []
    for d in range(2):
        pos = np.arange(out_hw[d], dtype=np.float32)
        src = ((pos + np.float32(0.5)) * scales[d] if half else pos * scales[d]).astype(np.float32)
        i = (np.sign(src) * np.floor(np.abs(src) + np.float32(0.5))) if align else np.floor(src)
        i = np.minimum(i.astype(np.int64), in_hw[d] - 1)
        if half:
            i = np.maximum(i, 0)
        idx.append(i)
    return [from_nhwc(x[:, idx[0]][:, :, idx[1]], nchw)]
