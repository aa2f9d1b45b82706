"""Golden kernels: elementwise arithmetic, activations, math, comparison, logic, quantization.

Spec: ../shared/spec/OperationType.aidl (ADD, MUL, RELU ... sections). Quantized kernels follow the
integer arithmetic of NNAPI's reference CPU kernels (``nn/common/operations``), written out in each
kernel's docstring; the fixed-point primitives are in :mod:`nnaccel.quant`.
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
from .common import (
    F16,
    F32,
    I32,
    INT32,
    Q8A,
    Q8AS,
    QUANT8,
    broadcast_dims,
    check_activation,
    check_same_quant,
    qrange,
)

BINARY_TYPES = (F32, F16, Q8A, Q8AS, I32)


def validate_binary_arith(v) -> None:
    """ADD / SUB / MUL / DIV: broadcastable shapes (rank <= 4), activation NONE for int32."""
    a, b = v.inp(0), v.inp(1)
    for i in (0, 1):
        if v.inp(i).rank is not None and v.inp(i).rank > 4:
            v.fail(f"has rank {v.inp(i).rank}, but the operation supports ranks up to 4", input=i)
    broadcast_dims(v, a.dimensions, b.dimensions)
    check_activation(v, 2, allow_nonzero=a.type is not I32)


def _broadcast_quant_offsets(k):
    a, b = k.inputs[0], k.inputs[1]
    return a.astype(np.int64) - k.in_ops[0].zero_point, b.astype(np.int64) - k.in_ops[1].zero_point


def _clamp_quant(k, acc) -> np.ndarray:
    o = k.out_ops[0]
    lo, hi = qrange(o.type)
    act_lo, act_hi = activation_range_quantized(k.scalar(2, 0), o.scale, o.zero_point, lo, hi)
    return np.clip(acc, act_lo, act_hi).astype(o.info.dtype)


def _float_binary(k, fn) -> np.ndarray:
    a, b = k.inputs[0], k.inputs[1]
    out = fn(a.astype(np.float32), b.astype(np.float32))
    out = apply_activation_float(out, k.scalar(2, 0))
    return out.astype(a.dtype)


def add_quant8(k, sign: int = 1) -> np.ndarray:
    """Quantized ADD / SUB as NNAPI's ``addQuant8`` (TFLite ``reference_ops::Add``)::

        left_shift = 20
        twice_max = 2 * max(s1, s2)
        (m1, e1) = quantize_multiplier(s1 / twice_max)       # < 1, so e1 <= 0
        (m2, e2) = quantize_multiplier(s2 / twice_max)
        (mo, eo) = quantize_multiplier(twice_max / (2**left_shift * so))
        x1 = mbqm((q1 - z1) << left_shift, m1, e1)
        x2 = mbqm((q2 - z2) << left_shift, m2, e2)
        out = clamp(mbqm(x1 ± x2, mo, eo) + zo, activation range)

    where ``mbqm`` is :func:`nnaccel.quant.multiply_by_quantized_multiplier`.
    """
    s1, s2, so = k.in_ops[0].scale, k.in_ops[1].scale, k.out_ops[0].scale
    left_shift = 20
    twice_max = 2.0 * max(s1, s2)
    m1, e1 = quantize_multiplier(s1 / twice_max)
    m2, e2 = quantize_multiplier(s2 / twice_max)
    mo, eo = quantize_multiplier(twice_max / ((1 << left_shift) * so))
    d1, d2 = _broadcast_quant_offsets(k)
    x1 = multiply_by_quantized_multiplier(d1 << left_shift, m1, e1)
    x2 = multiply_by_quantized_multiplier(d2 << left_shift, m2, e2)
    raw = multiply_by_quantized_multiplier(x1 + sign * x2, mo, eo) + k.out_ops[0].zero_point
    return _clamp_quant(k, raw)


def _int32_binary(k, fn) -> np.ndarray:
    a, b = k.inputs[0].astype(np.int64), k.inputs[1].astype(np.int64)
    r = fn(a, b)
    return (((r + (1 << 31)) & 0xFFFFFFFF) - (1 << 31)).astype(np.int32)


@define("ADD", [Sig(("T", "T", INT32), ("T",),
                    types={"T": BINARY_TYPES})], validate_binary_arith)
def add(k):
    """ADD: ``out = act(a + b)`` with broadcasting.

    float32: in float32. float16: computed in float32, rounded to float16. int32: wrapping int32
    addition, activation must be NONE. quant8 (asymm / asymm signed): :func:`add_quant8`.
    """
    t = k.in_ops[0].type
    if t in QUANT8:
        return [add_quant8(k, 1)]
    if t is I32:
        return [_int32_binary(k, np.add)]
    return [_float_binary(k, np.add)]


def mul_quant8(k) -> np.ndarray:
    """Quantized MUL as NNAPI's ``mulQuant8`` (TFLite ``reference_ops::Mul``)::

        (m, e) = quantize_multiplier(s1 * s2 / so)
        out = clamp(mbqm((q1 - z1) * (q2 - z2), m, e) + zo, activation range)
    """
    s1, s2, so = k.in_ops[0].scale, k.in_ops[1].scale, k.out_ops[0].scale
    m, e = quantize_multiplier(s1 * s2 / so)
    d1, d2 = _broadcast_quant_offsets(k)
    raw = multiply_by_quantized_multiplier(d1 * d2, m, e) + k.out_ops[0].zero_point
    return _clamp_quant(k, raw)


@define("MUL", [Sig(("T", "T", INT32), ("T",), types={"T": BINARY_TYPES})], validate_binary_arith)
def mul(k):
    """MUL: ``out = act(a * b)`` with broadcasting.

    float32 in float32; float16 via float32; int32 wrapping int32 product (activation NONE);
    quant8: :func:`mul_quant8`.
    """
    t = k.in_ops[0].type
    if t in QUANT8:
        return [mul_quant8(k)]
    if t is I32:
        return [_int32_binary(k, np.multiply)]
    return [_float_binary(k, np.multiply)]


def validate_unary_same_quant(v) -> None:
    """Activations whose quantized output must keep the input's scale and zero point."""
    if v.inp(0).rank is not None and v.inp(0).rank > 4 and v.inp(0).type in QUANT8:
        v.fail(f"has rank {v.inp(0).rank}, but the operation supports ranks up to 4", input=0)
    check_same_quant(v, 0, v.out(0))


def clamp_activation(k, lo: float, hi: float) -> np.ndarray:
    """RELU / RELU1 / RELU6: clamp to ``[lo, hi]``; for quant8 the clamp bounds are
    ``zo + round(bound / so)`` cut to the type's range (NNAPI ``CalculateActivationRangeQuantized``)."""
    x = k.inputs[0]
    o = k.out_ops[0]
    if o.type in QUANT8:
        act = {(0.0, np.inf): 1, (-1.0, 1.0): 2, (0.0, 6.0): 3}[(lo, hi)]
        qlo, qhi = activation_range_quantized(act, o.scale, o.zero_point, *qrange(o.type))
        return np.clip(x, qlo, qhi).astype(x.dtype)
    return np.clip(x, np.asarray(lo, x.dtype), np.asarray(hi, x.dtype)).astype(x.dtype)


UNARY_ACT_SIG = [Sig(("T",), ("T",), types={"T": (F32, F16, Q8A, Q8AS)})]


@define("RELU", UNARY_ACT_SIG, validate_unary_same_quant)
def relu(k):
    """RELU: ``max(0, x)``; quant8 clamps at the zero point (same scale / zero point in and out)."""
    return [clamp_activation(k, 0.0, np.inf)]
