"""Fixed-point arithmetic of the NNAPI / TFLite quantized reference kernels.

This module is the single source of the integer arithmetic that the golden kernels, the ISA
simulator and the RTL must agree on bit for bit. Every function is vectorized over NumPy arrays
(int64 intermediates, results in the int32 range) and follows gemmlowp / TFLite's
``reference_ops`` definitions:

* ``saturating_rounding_doubling_high_mul(a, b)`` = ``a*b / 2**31`` rounded half up (toward +inf;
  gemmlowp's nudge of ``±2**30`` followed by C++ truncating division), saturating the single
  overflow case ``a == b == INT32_MIN``;
* ``rounding_divide_by_pot(x, e)`` = ``x / 2**e`` rounded half away from zero;
* ``multiply_by_quantized_multiplier(x, m, s)`` = ``rounding_divide_by_pot(srdhm(x * 2**max(s,0), m),
  max(-s,0))``, i.e. ``x * m * 2**(s-31)`` with TFLite's rounding;
* ``quantize_multiplier(r)`` = ``(m, s)`` with ``r ≈ m * 2**(s-31)``, ``m`` in ``[2**30, 2**31)``.
"""

from __future__ import annotations

import math

import numpy as np

INT32_MIN = -(2**31)
INT32_MAX = 2**31 - 1


def round_half_away(x):
    """``std::round``: rounds half away from zero (NumPy's ``round`` rounds half to even)."""
    x = np.asarray(x, dtype=np.float64)
    return np.sign(x) * np.floor(np.abs(x) + 0.5)


def quantize_multiplier(real: float) -> tuple[int, int]:
    """TFLite ``QuantizeMultiplier``: ``real == m * 2**(shift - 31)``, ``m`` a Q31 int32.

    A positive shift is a left shift. Returns ``(0, 0)`` for 0 and for values so small that the
    shift would fall below -31.
    """
    if real == 0.0:
        return 0, 0
    q, shift = math.frexp(real)
    q_fixed = int(round_half_away(q * (1 << 31)))
    if q_fixed == (1 << 31):
        q_fixed //= 2
        shift += 1
    if shift < -31:
        return 0, 0
    if shift > 30:
        shift, q_fixed = 30, INT32_MAX
    return q_fixed, shift


def quantize_multipliers(reals) -> tuple[np.ndarray, np.ndarray]:
    """:func:`quantize_multiplier` over a sequence (per-channel scales)."""
    pairs = [quantize_multiplier(float(r)) for r in np.asarray(reals, np.float64).reshape(-1)]
    return (np.array([p[0] for p in pairs], np.int64), np.array([p[1] for p in pairs], np.int64))


def saturating_rounding_doubling_high_mul(a, b):
    """gemmlowp ``SaturatingRoundingDoublingHighMul`` on int32 values (int64 arrays)."""
    a = np.asarray(a, np.int64)
    b = np.asarray(b, np.int64)
    ab = a * b
    nudge = np.where(ab >= 0, 1 << 30, 1 - (1 << 30))
    s = ab + nudge
    # C++ integer division truncates toward zero.
    high = np.where(s >= 0, s >> 31, -((-s) >> 31))
    overflow = (a == INT32_MIN) & (b == INT32_MIN)
    return np.where(overflow, INT32_MAX, high)


def rounding_divide_by_pot(x, exponent):
    """gemmlowp ``RoundingDivideByPOT``: ``x / 2**exponent`` rounded half away from zero."""
    x = np.asarray(x, np.int64)
    exponent = np.asarray(exponent, np.int64)
    mask = (np.int64(1) << exponent) - 1
    remainder = x & mask
    threshold = (mask >> 1) + (x < 0)
    return (x >> exponent) + (remainder > threshold)


def wrap_int32(x):
    """Two's-complement wrap of int64 values into the int32 range (C++ int32 overflow)."""
    x = np.asarray(x, np.int64)
    return ((x + (1 << 31)) & 0xFFFFFFFF) - (1 << 31)


def multiply_by_quantized_multiplier(x, multiplier, shift):
    """TFLite ``MultiplyByQuantizedMultiplier`` (also NNAPI's ``...SmallerThanOneExp`` and
    ``...GreaterThanOne``, which are the same computation for their shift ranges)."""
    shift = np.asarray(shift, np.int64)
    left = np.maximum(shift, 0)
    right = np.maximum(-shift, 0)
    scaled = wrap_int32(np.asarray(x, np.int64) << left)
    return rounding_divide_by_pot(saturating_rounding_doubling_high_mul(scaled, multiplier), right)


def activation_range_quantized(activation: int, scale: float, zero_point: int,
                               qmin: int, qmax: int) -> tuple[int, int]:
    """NNAPI ``CalculateActivationRangeQuantized``: the clamp range of a fused activation
    (0 NONE, 1 RELU, 2 RELU1, 3 RELU6) in the output's quantized domain."""

    def q(v):
        return zero_point + int(round_half_away(v / scale))

    if activation == 1:
        return max(qmin, q(0.0)), qmax
    if activation == 2:
        return max(qmin, q(-1.0)), min(qmax, q(1.0))
    if activation == 3:
        return max(qmin, q(0.0)), min(qmax, q(6.0))
    return qmin, qmax


def activation_range_float(activation: int) -> tuple[float, float]:
    """The clamp range of a fused activation for float tensors."""
    return {0: (-np.inf, np.inf), 1: (0.0, np.inf), 2: (-1.0, 1.0), 3: (0.0, 6.0)}[activation]


def apply_activation_float(x: np.ndarray, activation: int) -> np.ndarray:
    lo, hi = activation_range_float(activation)
    if activation == 0:
        return x
    return np.clip(x, lo, hi).astype(x.dtype, copy=False)


def dtype_range(dtype) -> tuple[int, int]:
    info = np.iinfo(dtype)
    return int(info.min), int(info.max)
