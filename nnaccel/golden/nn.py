"""Golden kernels: convolution, pooling, matrix multiply, normalization, softmax and resize.

Spec: ../shared/spec/OperationType.aidl. Quantized kernels accumulate
``(q_in - z_in) * (q_w - z_w)`` in int32, add the int32 bias, requantize with
:func:`nnaccel.quant.multiply_by_quantized_multiplier` and clamp to the fused activation's range.
"""

from __future__ import annotations

import numpy as np

from ..quant import (
    activation_range_quantized,
    apply_activation_float,
    multiply_by_quantized_multiplier,
    quantize_multiplier,
)
from ..registry import Sig, define
from .common import F16, F32, I32, INT32, Q8A, Q8AS, QUANT8, check_activation, qrange


def validate_fully_connected(v) -> None:
    x, w, b, out = v.inp(0), v.inp(1), v.inp(2), v.out(0)
    if x.rank is not None and x.dimensions and not 2 <= x.rank <= 4:
        v.fail(f"has rank {x.rank}, but the input must have rank 2 to 4", input=0)
    if w.rank is not None and w.rank != 2:
        v.fail(f"has rank {w.rank}, but the weights must be 2-D [num_units, input_size]", input=1)
    if b.rank is not None and b.rank != 1:
        v.fail(f"has rank {b.rank}, but the bias must be 1-D [num_units]", input=2)
    if w.dimensions and b.dimensions and w.dimensions[0] and b.dimensions[0] and \
            w.dimensions[0] != b.dimensions[0]:
        v.fail(f"has {b.dimensions[0]} elements, but the weights have {w.dimensions[0]} units", input=2)
    if x.type in QUANT8:
        if w.type != x.type:
            v.fail(f"has type {w.type.name}, but the weights must have the input's type {x.type.name}",
                   input=1)
        if b.zero_point != 0:
            v.fail(f"has zero point {b.zero_point}, but a quantized bias must have zero point 0", input=2)
        expected = x.scale * w.scale
        if abs(b.scale - expected) > 1e-6 * max(1.0, expected) and abs(b.scale - expected) / expected > 1e-4:
            v.fail(f"has scale {b.scale:g}, but the bias scale must equal input scale x weights scale "
                   f"= {expected:g}", input=2)
    check_activation(v, 3)
    if x.dimensions and w.dimensions and all(x.dimensions) and w.dimensions[1]:
        total = int(np.prod(x.dimensions))
        if total % w.dimensions[1]:
            v.fail(f"has {total} elements, which is not a multiple of the weights' input size "
                   f"{w.dimensions[1]}", input=0)


def requantize(acc: np.ndarray, multiplier, shift, out_op, activation: int) -> np.ndarray:
    """int32 accumulators -> quantized output: ``clamp(mbqm(acc, m, e) + zo, act range)``."""
    lo, hi = qrange(out_op.type)
    act_lo, act_hi = activation_range_quantized(activation, out_op.scale, out_op.zero_point, lo, hi)
    q = multiply_by_quantized_multiplier(acc, multiplier, shift) + out_op.zero_point
    return np.clip(q, act_lo, act_hi).astype(out_op.info.dtype)


@define("FULLY_CONNECTED", [
    Sig((F32, F32, F32, INT32), (F32,)),
    Sig((F16, F16, F16, INT32), (F16,), since="V1_2"),
    Sig(("Q", "Q", I32, INT32), ("Q",), types={"Q": QUANT8}),
], validate_fully_connected)
def fully_connected(k):
    """FULLY_CONNECTED: ``out[b, u] = act(sum_i x[b, i] * w[u, i] + bias[u])``.

    The input is flattened to ``[batch, input_size]`` with ``input_size = weights.shape[1]``.
    float32 in float32 (matmul); float16 via float32. quant8 (NNAPI ``fullyConnectedQuant8``)::

        acc[b, u] = sum_i (q_x[b, i] - z_x) * (q_w[u, i] - z_w) + bias[u]      (int32)
        (m, e) = quantize_multiplier(s_x * s_w / s_out)
        out = clamp(mbqm(acc, m, e) + z_out, activation range)
    """
    x, w, bias = k.inputs[0], k.inputs[1], k.inputs[2]
    units, size = w.shape
    x2 = x.reshape(-1, size) if size else x.reshape(0, 0)
    act = k.scalar(3, 0)
    xo, wo, oo = k.in_ops[0], k.in_ops[1], k.out_ops[0]
    if xo.type in QUANT8:
        acc = (x2.astype(np.int64) - xo.zero_point) @ (w.astype(np.int64) - wo.zero_point).T
        acc = acc + bias.astype(np.int64)
        m, e = quantize_multiplier(xo.scale * wo.scale / oo.scale)
        return [requantize(acc, m, e, oo, act)]
    out = x2.astype(np.float32) @ w.astype(np.float32).T + bias.astype(np.float32)
    return [apply_activation_float(out, act).astype(x.dtype)]
