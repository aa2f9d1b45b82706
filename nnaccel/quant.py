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
    """:func:`quantize_multiplier` over a sequence (per-channel scales), element by element the
    same steps on arrays."""
    r = np.asarray(reals, np.float64).reshape(-1)
    if not np.isfinite(r).all():    # (the scalar form raises for these)
        pairs = [quantize_multiplier(float(x)) for x in r]
        return (np.array([p[0] for p in pairs], np.int64), np.array([p[1] for p in pairs], np.int64))
    q, shift = np.frexp(r)
    q_fixed = round_half_away(q * (1 << 31)).astype(np.int64)
    shift = shift.astype(np.int64)
    top = q_fixed == (1 << 31)
    q_fixed[top] //= 2
    shift[top] += 1
    big = shift > 30
    q_fixed[big], shift[big] = INT32_MAX, 30
    none = (shift < -31) | (r == 0.0)
    q_fixed[none], shift[none] = 0, 0
    return q_fixed, shift


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


#: NNAPI fused activation codes (``FuseCode``) and the activation operation each one clamps like.
FUSED_ACTIVATIONS = {0: "NONE", 1: "RELU", 2: "RELU1", 3: "RELU6"}


def activation_range_quantized(activation: int, scale: float, zero_point: int,
                               qmin: int, qmax: int) -> tuple[int, int]:
    """NNAPI ``CalculateActivationRangeQuantized``: the clamp range of a fused activation
    (0 NONE, 1 RELU, 2 RELU1, 3 RELU6) in the output's quantized domain. The division
    ``bound / scale`` is done in float32, as NNAPI's C++ does with its float scale."""

    def q(v):
        return zero_point + int(round_half_away(np.float32(v) / np.float32(scale)))

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


# --- gemmlowp fixed-point math (``fixedpoint/fixedpoint.h``) on int32 raw values -----------------
#
# A raw value ``r`` of a ``FixedPoint<int32, I>`` (``I`` integer bits) stands for ``r / 2**(31 - I)``.
# The functions below take and return int64 arrays holding int32 raw values and reproduce gemmlowp's
# scalar code step by step: ``fixed_mul`` is its ``operator*`` (SRDHM), additions wrap as int32
# addition does, constants are gemmlowp's raw constants.


def saturating_rounding_multiply_by_pot(x, exponent: int):
    """gemmlowp ``SaturatingRoundingMultiplyByPOT<exponent>`` on int32 raws: a saturating left
    shift for ``exponent > 0``, :func:`rounding_divide_by_pot` for ``exponent < 0``."""
    x = np.asarray(x, np.int64)
    if exponent == 0:
        return x
    if exponent < 0:
        return rounding_divide_by_pot(x, -exponent)
    threshold = (1 << (31 - exponent)) - 1
    return np.where(x > threshold, INT32_MAX, np.where(x < -threshold, INT32_MIN, x << exponent))


def fixed_rescale(x, src_integer_bits: int, dst_integer_bits: int):
    """gemmlowp ``Rescale<dst>``: re-expresses a raw with ``src`` integer bits with ``dst``."""
    return saturating_rounding_multiply_by_pot(x, src_integer_bits - dst_integer_bits)


def fixed_mul(a, b):
    """gemmlowp fixed-point ``a * b`` (integer bits add up): :func:`saturating_rounding_doubling_high_mul`."""
    return saturating_rounding_doubling_high_mul(a, b)


def rounding_half_sum(a, b):
    """gemmlowp ``RoundingHalfSum`` (int32): ``(a + b + sign(a + b)) / 2``, C++ division truncating
    toward zero, with ``sign(0) = +1``."""
    s = np.asarray(a, np.int64) + np.asarray(b, np.int64)
    s = s + np.where(s >= 0, 1, -1)
    return np.where(s >= 0, s // 2, -((-s) // 2))


def exp_on_interval_between_negative_one_quarter_and_0_excl(a):
    """``exp(a)`` for ``a`` in [-1/4, 0), Q0.31 in and out: Taylor expansion around -1/8::

        x = a + 1/8;  x2 = x*x;  x3 = x2*x;  x4 = x2*x2
        t = rdbpot(rdbpot(x4, 2) + x3) * (1/3) + x2, 1)       # x4/24 + x3/6 + x2/2
        exp(a) = exp(-1/8) + exp(-1/8) * (x + t)
    with exp(-1/8) = 1895147668 and 1/3 = 715827883 (raw Q0.31)."""
    constant_term = 1895147668
    one_third = 715827883
    x = wrap_int32(np.asarray(a, np.int64) + (1 << 28))
    x2 = fixed_mul(x, x)
    x3 = fixed_mul(x2, x)
    x4 = fixed_mul(x2, x2)
    x4_over_4 = saturating_rounding_multiply_by_pot(x4, -2)
    t = saturating_rounding_multiply_by_pot(
        wrap_int32(fixed_mul(wrap_int32(x4_over_4 + x3), one_third) + x2), -1)
    return wrap_int32(constant_term + fixed_mul(constant_term, wrap_int32(x + t)))


#: gemmlowp's barrel-shifter constants: exp(-2**k) in Q0.31 for k = -2 .. 4.
_EXP_BARREL = ((-2, 1672461947), (-1, 1302514674), (0, 790015084), (1, 290630308), (2, 39332535),
               (3, 720401), (4, 242))


def exp_on_negative_values(a, integer_bits: int):
    """gemmlowp ``exp_on_negative_values``: ``exp(a)`` for ``a <= 0`` given with ``integer_bits``
    integer bits; the result is Q0.31.

    ``a`` is split as ``a = (a mod 1/4 - 1/4) - remainder``: the first part goes to
    :func:`exp_on_interval_between_negative_one_quarter_and_0_excl`, and for every set bit
    ``2**k`` of ``remainder`` the result is multiplied by ``exp(-2**k)``. Inputs below -32 give 0
    (when ``integer_bits > 5``) and ``a == 0`` gives the largest raw (one)."""
    a = np.asarray(a, np.int64)
    frac_bits = 31 - integer_bits
    one_quarter = 1 << (frac_bits - 2)
    a_mod = wrap_int32((a & (one_quarter - 1)) - one_quarter)
    result = exp_on_interval_between_negative_one_quarter_and_0_excl(fixed_rescale(a_mod, integer_bits, 0))
    remainder = wrap_int32(a_mod - a)
    for exponent, multiplier in _EXP_BARREL:
        if integer_bits > exponent:
            bit = 1 << (frac_bits + exponent)
            result = np.where((remainder & bit) != 0, fixed_mul(result, multiplier), result)
    if integer_bits > 5:
        result = np.where(a < -(1 << (36 - integer_bits)), 0, result)
    return np.where(a == 0, INT32_MAX, result)


def _newton_reciprocal_of_half_denominator(a):
    """The common Newton-Raphson core of gemmlowp's ``one_over_one_plus_x_for_x_in_0_1`` and
    ``one_minus_x_over_one_plus_x_for_x_in_0_1``: ``x ≈ 1 / ((1 + a) / 2)`` as a Q2.29 raw, from
    ``x0 = 48/17 - 32/17 * d`` and three steps ``x += rescale(x * (1 - d * x))``, where
    ``d = rounding_half_sum(a, one)``."""
    half_denominator = rounding_half_sum(a, INT32_MAX)
    x = wrap_int32(1515870810 + fixed_mul(half_denominator, -1010580540))
    one_q2 = 1 << 29
    for _ in range(3):
        one_minus = wrap_int32(one_q2 - fixed_mul(half_denominator, x))
        x = wrap_int32(x + fixed_rescale(fixed_mul(x, one_minus), 4, 2))
    return x


def one_over_one_plus_x_for_x_in_0_1(a):
    """gemmlowp ``one_over_one_plus_x_for_x_in_0_1``: ``1 / (1 + a)``, Q0.31 in and out."""
    x = _newton_reciprocal_of_half_denominator(a)
    return fixed_rescale(x, 1, 0)  # ExactMulByPot<-1>: Q2.29 -> Q1.30 raw, then Rescale<0>


def one_minus_x_over_one_plus_x_for_x_in_0_1(a):
    """gemmlowp ``one_minus_x_over_one_plus_x_for_x_in_0_1``: ``(1 - a) / (1 + a)``, Q0.31."""
    x = _newton_reciprocal_of_half_denominator(a)
    return fixed_rescale(wrap_int32(x - (1 << 29)), 2, 0)


def fixed_logistic(a, integer_bits: int):
    """gemmlowp ``logistic``: ``1 / (1 + exp(-a))`` for a raw ``a`` with ``integer_bits`` integer
    bits; Q0.31 result. For ``a > 0``: ``one_over_one_plus_x(exp_on_negative_values(-a))``; for
    ``a < 0``: one minus that of ``-a``; ``a == 0`` gives ``2**30`` (one half)."""
    a = np.asarray(a, np.int64)
    positive = a > 0
    abs_a = np.where(positive, a, wrap_int32(-a))
    if_positive = one_over_one_plus_x_for_x_in_0_1(exp_on_negative_values(wrap_int32(-abs_a), integer_bits))
    if_negative = wrap_int32(INT32_MAX - if_positive)
    return np.where(a == 0, 1 << 30, np.where(positive, if_positive, if_negative))


def fixed_tanh(a, integer_bits: int):
    """gemmlowp ``tanh``: for a raw ``a`` with ``integer_bits`` integer bits, Q0.31 result.
    With ``n = -|a|``: ``t = one_minus_x_over_one_plus_x(exp_on_negative_values(2 n))`` (the doubling
    is exact, read with one more integer bit); the result is ``t`` for ``a > 0``, ``-t`` for
    ``a < 0`` and 0 for ``a == 0``."""
    a = np.asarray(a, np.int64)
    negative = a < 0
    n = np.where(negative, a, wrap_int32(-a))
    t = one_minus_x_over_one_plus_x_for_x_in_0_1(exp_on_negative_values(n, integer_bits + 1))
    return np.where(a == 0, 0, np.where(negative, wrap_int32(-t), t))


# --- 16-bit primitives (TFLite's int16 helpers, e.g. for the quantized HARD_SWISH) --------------

INT16_MIN = -(2**15)
INT16_MAX = 2**15 - 1


def wrap_int16(x):
    """Two's-complement wrap of int64 values into the int16 range (C++ conversion to int16)."""
    x = np.asarray(x, np.int64)
    return ((x + (1 << 15)) & 0xFFFF) - (1 << 15)


def saturating_rounding_doubling_high_mul_int16(a, b):
    """gemmlowp ``SaturatingRoundingDoublingHighMul`` on int16: ``(a*b + nudge) / 2**15``
    truncated toward zero, ``nudge = 2**14`` for ``a*b >= 0`` else ``1 - 2**14``; ``-2**15 * -2**15``
    saturates to ``2**15 - 1``."""
    a = np.asarray(a, np.int64)
    b = np.asarray(b, np.int64)
    ab = a * b
    s = ab + np.where(ab >= 0, 1 << 14, 1 - (1 << 14))
    high = np.where(s >= 0, s >> 15, -((-s) >> 15))
    return np.where((a == INT16_MIN) & (b == INT16_MIN), INT16_MAX, high)


def saturating_doubling_high_mul_int16(a, b):
    """TFLite ``SaturatingDoublingHighMul`` (int16, like ARM SQDMULH): ``a*b / 2**15`` truncated
    toward zero, ``-2**15 * -2**15`` saturating to ``2**15 - 1``."""
    a = np.asarray(a, np.int64)
    b = np.asarray(b, np.int64)
    ab = a * b
    high = np.where(ab >= 0, ab >> 15, -((-ab) >> 15))
    return np.where((a == INT16_MIN) & (b == INT16_MIN), INT16_MAX, high)


def saturating_left_shift_int16(x, amount: int):
    """TFLite ``SaturatingLeftShift`` (int16): ``x * 2**amount`` clamped to the int16 range."""
    return np.clip(np.asarray(x, np.int64) << amount, INT16_MIN, INT16_MAX)


def downscale_multiplier_int32_to_int16(multiplier: int) -> int:
    """NNAPI ``DownScaleInt32ToInt16Multiplier``: a Q31 multiplier to Q15, rounding
    (``(m + 2**15) >> 16``), saturating to ``2**15 - 1`` near the top."""
    if multiplier >= INT32_MAX - (1 << 15):
        return INT16_MAX
    return (multiplier + (1 << 15)) >> 16


# --- TFLite helpers for quantized SOFTMAX and L2_NORMALIZATION (on int32 raws in int64 arrays) ---

def count_leading_zeros_u32(x):
    """TFLite ``CountLeadingZeros`` of ``x`` read as uint32 (32 for 0)."""
    x = np.asarray(x, np.int64) & 0xFFFFFFFF
    n = np.zeros(x.shape, np.int64)
    for bits in (16, 8, 4, 2, 1):
        small = x < (1 << (32 - bits))
        n = n + np.where(small, bits, 0)
        x = np.where(small, x << bits, x)
    return np.where(np.asarray(x) == 0, 32, n)


def inv_sqrt_quantized_multiplier_exp(x, reverse_shift: int = -1):
    """TFLite ``GetInvSqrtQuantizedMultiplierExp`` vectorized: ``(m, shift)`` with
    ``1 / sqrt(x) ≈ m * 2**(shift - 31)`` for int32 ``x >= 0``; ``x <= 1`` gives ``(INT32_MAX, 0)``.

    ``x`` is divided by 4 while ``>= 2**29`` (each step adds 1 to a right-shift count starting at
    11), shifted left by bit pairs into ``[2**27, 2**29)`` (subtracting the pairs from the count),
    then five Newton-Raphson steps ``y = 1.5 y - (x/2) y**3`` run in Q3 from ``y = 1``; ``y`` is
    multiplied by sqrt(2)/2 (Q0 raw 1518500250). A negative count shifts ``m`` left instead. The
    returned shift is the count times ``reverse_shift`` (-1: a left-shift exponent <= 0, as
    :func:`multiply_by_quantized_multiplier` takes it).
    """
    x = np.asarray(x, np.int64)
    small = x <= 1
    v = np.where(small, 1 << 28, x)
    shift = np.full(v.shape, 11, np.int64)
    for _ in range(2):  # x < 2**31: at most two divisions by 4
        big = v >= (1 << 29)
        v = np.where(big, v // 4, v)
        shift = shift + big
    left_shift_bit_pairs = (count_leading_zeros_u32(v) - 1) // 2 - 1
    shift = shift - left_shift_bit_pairs
    v = v << (2 * left_shift_bit_pairs)
    half_input = rounding_divide_by_pot(v >> 1, 1)
    half_three = (1 << 28) + (1 << 27)
    y = np.full(v.shape, 1 << 28, np.int64)  # 1.0 in Q3
    for _ in range(5):
        y3 = fixed_rescale(fixed_mul(fixed_mul(y, y), y), 9, 3)
        y = fixed_rescale(wrap_int32(fixed_mul(half_three, y) - fixed_mul(half_input, y3)), 6, 3)
    y = fixed_mul(y, 1518500250)
    neg = shift < 0
    y = np.where(neg, wrap_int32(y << np.where(neg, -shift, 0)), y)
    shift = np.where(neg, 0, shift)
    return np.where(small, INT32_MAX, y), np.where(small, 0, shift * reverse_shift)


# --- gemmlowp fixed-point math on int16 raw values (``FixedPoint<int16_t, I>``) ------------------
#
# The same algorithms as the int32 functions above, but every intermediate is an int16 raw, as in
# gemmlowp's int16 instantiation used by NNAPI's QUANTIZED_16BIT_LSTM and TFLite's int16 LSTM
# helpers: a raw ``r`` with ``I`` integer bits stands for ``r / 2**(15 - I)``; ``+``/``-`` wrap as
# int16; ``*`` is :func:`saturating_rounding_doubling_high_mul_int16`; constants are gemmlowp's
# int32 raw constants rounding-shifted right by 16 (``RescaleConstantInitializer``).


def _const16(raw32: int) -> int:
    """gemmlowp ``RescaleConstantInitializer<int16>``: an int32 raw constant as an int16 raw."""
    return int(rounding_divide_by_pot(np.int64(raw32), 16))


def saturating_rounding_multiply_by_pot_int16(x, exponent: int):
    """``SaturatingRoundingMultiplyByPOT<exponent>`` on int16 raws: saturating left shift for
    ``exponent > 0`` (beyond ``±(2**(15 - e) - 1)`` the result is the int16 limit), rounding
    right shift (:func:`rounding_divide_by_pot`) for ``exponent < 0``."""
    x = np.asarray(x, np.int64)
    if exponent == 0:
        return x
    if exponent < 0:
        return rounding_divide_by_pot(x, -exponent)
    threshold = (1 << (15 - exponent)) - 1
    return np.where(x > threshold, INT16_MAX,
                    np.where(x < -threshold, INT16_MIN, wrap_int16(x << exponent)))


def fixed16_rescale(x, src_integer_bits: int, dst_integer_bits: int):
    """gemmlowp ``Rescale<dst>`` on int16 raws."""
    return saturating_rounding_multiply_by_pot_int16(x, src_integer_bits - dst_integer_bits)


def saturating_add_int16(a, b):
    """gemmlowp ``SaturatingAdd`` (int16): ``a + b`` clamped to the int16 range."""
    return np.clip(np.asarray(a, np.int64) + np.asarray(b, np.int64), INT16_MIN, INT16_MAX)


def rounding_half_sum_int16(a, b):
    """gemmlowp ``RoundingHalfSum`` (int16): ``(a + b + sign(a + b)) / 2`` truncated toward 0."""
    return rounding_half_sum(a, b)


def fixed16_exp_on_interval_between_negative_one_quarter_and_0_excl(a):
    """:func:`exp_on_interval_between_negative_one_quarter_and_0_excl` on Q0.15 raws (the final
    addition saturates, gemmlowp's ``AddSaturatingIf16Bit``)."""
    mul = saturating_rounding_doubling_high_mul_int16
    constant_term = _const16(1895147668)
    one_third = _const16(715827883)
    x = wrap_int16(np.asarray(a, np.int64) + (1 << 12))
    x2 = mul(x, x)
    x3 = mul(x2, x)
    x4 = mul(x2, x2)
    x4_over_4 = saturating_rounding_multiply_by_pot_int16(x4, -2)
    t = saturating_rounding_multiply_by_pot_int16(
        wrap_int16(mul(wrap_int16(x4_over_4 + x3), one_third) + x2), -1)
    return saturating_add_int16(constant_term, mul(constant_term, wrap_int16(x + t)))


def fixed16_exp_on_negative_values(a, integer_bits: int):
    """:func:`exp_on_negative_values` on int16 raws (``integer_bits`` in, Q0.15 out)."""
    mul = saturating_rounding_doubling_high_mul_int16
    a = np.asarray(a, np.int64)
    frac_bits = 15 - integer_bits
    one_quarter = 1 << (frac_bits - 2)
    a_mod = wrap_int16((a & wrap_int16(one_quarter - 1)) - one_quarter)
    result = fixed16_exp_on_interval_between_negative_one_quarter_and_0_excl(
        fixed16_rescale(a_mod, integer_bits, 0))
    remainder = wrap_int16(a_mod - a)
    for exponent, multiplier in _EXP_BARREL:
        if integer_bits > exponent:
            bit = 1 << (frac_bits + exponent)
            result = np.where((remainder & bit) != 0, mul(result, _const16(multiplier)), result)
    if integer_bits > 5:
        result = np.where(a < _const16(-(1 << (36 - integer_bits))), 0, result)
    return np.where(a == 0, INT16_MAX, result)


def _fixed16_newton_reciprocal_of_half_denominator(a):
    """int16 version of ``_newton_reciprocal_of_half_denominator`` (Q2.13 result)."""
    mul = saturating_rounding_doubling_high_mul_int16
    half_denominator = rounding_half_sum_int16(a, INT16_MAX)
    x = wrap_int16(_const16(1515870810) + mul(half_denominator, _const16(-1010580540)))
    one_q2 = 1 << 13
    for _ in range(3):
        one_minus = wrap_int16(one_q2 - mul(half_denominator, x))
        x = wrap_int16(x + fixed16_rescale(mul(x, one_minus), 4, 2))
    return x


def fixed16_logistic(a, integer_bits: int):
    """gemmlowp ``logistic`` on an int16 raw with ``integer_bits`` integer bits; Q0.15 result
    (``a == 0`` gives ``2**14``, one half)."""
    a = np.asarray(a, np.int64)
    positive = a > 0
    abs_a = np.where(positive, a, wrap_int16(-a))
    e = fixed16_exp_on_negative_values(wrap_int16(-abs_a), integer_bits)
    if_positive = fixed16_rescale(_fixed16_newton_reciprocal_of_half_denominator(e), 1, 0)
    if_negative = wrap_int16(INT16_MAX - if_positive)
    return np.where(a == 0, 1 << 14, np.where(positive, if_positive, if_negative))


def fixed16_tanh(a, integer_bits: int):
    """gemmlowp ``tanh`` on an int16 raw with ``integer_bits`` integer bits; Q0.15 result."""
    a = np.asarray(a, np.int64)
    negative = a < 0
    n = np.where(negative, a, wrap_int16(-a))
    e = fixed16_exp_on_negative_values(n, integer_bits + 1)
    t = fixed16_rescale(wrap_int16(_fixed16_newton_reciprocal_of_half_denominator(e) - (1 << 13)),
                        2, 0)
    return np.where(a == 0, 0, np.where(negative, wrap_int16(-t), t))


def quantize_multiplier_greater_than_one(real: float) -> tuple[int, int]:
    """NNAPI / TFLite ``QuantizeMultiplierGreaterThanOne``: ``real == m * 2**(shift - 31)`` for
    ``real > 1``, ``m`` a Q31 int32 and ``shift >= 1``. Unlike :func:`quantize_multiplier` the shift
    is not capped at 30 (the quantized LOGISTIC / TANH input rescaling relies on that for input
    scales of 8 and more)."""
    if not real > 1.0:
        raise ValueError(f"quantize_multiplier_greater_than_one needs a multiplier > 1, got {real}")
    q, shift = math.frexp(real)
    q_fixed = int(round_half_away(q * (1 << 31)))
    if q_fixed == (1 << 31):
        q_fixed //= 2
        shift += 1
    return q_fixed, shift


def rounding_divide_by_pot_int16(x, exponent: int):
    """gemmlowp ``RoundingDivideByPOT`` instantiated on int16 (values of int16 range): for
    ``exponent <= 15`` the same as :func:`rounding_divide_by_pot`; beyond, the mask
    ``(1 << exponent) - 1`` truncated to int16 is -1, as in the C++ code."""
    x = np.asarray(x, np.int64)
    mask = int(wrap_int16((1 << exponent) - 1))
    remainder = x & mask
    threshold = (mask >> 1) + (x < 0)
    return wrap_int16((x >> exponent) + (remainder > threshold))


# --- single rounding (LiteRT's reference FULLY_CONNECTED) -----------------------------------------


def round_double_product(x, real):
    """LiteRT's reference FULLY_CONNECTED requantization (``reference_integer_ops::FullyConnected``
    / ``FullyConnectedPerChannel`` with the tensors' scales, and ``reference_ops::FullyConnected``
    for uint8): ``(int32) round(double(x) * real)``, the product one IEEE double multiplication
    (rounded to nearest even), ``std::round`` half away from zero. ``real`` is
    ``double(s_in) * double(s_w) / double(s_out)``, a scalar or one per channel (broadcast along
    the last axis of ``x``). Values beyond the int32 range (undefined in C++) saturate."""
    p = np.asarray(x, np.int64).astype(np.float64) * np.asarray(real, np.float64)
    return np.clip(round_half_away(p), INT32_MIN, INT32_MAX).astype(np.int64)


def single_rounding_multiply(x, multiplier, shift):
    """The accelerator's single-rounding requantization (REQ with ``round = 1``):
    ``x * multiplier * 2**(shift - 31)`` rounded once, half away from zero:
    ``rounding_divide_by_pot(trunc(wrap32(x << max(shift, 0)) * multiplier / 2**30),
    max(-shift, 0) + 1)`` (the truncated quotient keeps the sign-magnitude rounding exact)."""
    shift = np.asarray(shift, np.int64)
    scaled = wrap_int32(np.asarray(x, np.int64) << np.maximum(shift, 0))
    p = scaled * np.asarray(multiplier, np.int64)
    h = np.where(p < 0, -((-p) >> 30), p >> 30)
    return rounding_divide_by_pot(h, np.maximum(-shift, 0) + 1)


def _single_thresholds(multipliers, shifts, ks, cap: int) -> np.ndarray:
    """The least ``x >= 0`` with ``single_rounding_multiply(x, m, shift) > k`` (``shift <= 0``):
    ``ceil((2k + 1) * 2**(30 - shift) / m)``, at most ``cap``; one row per ``(m, shift)`` pair and
    one column per ``k`` of ``ks`` (exact: int64 where the numerators fit, Python integers beyond)."""
    ks = np.asarray(ks, np.int64)
    out = np.empty((len(multipliers), ks.size), np.int64)
    for row, (m, shift) in enumerate(zip(np.asarray(multipliers).tolist(), np.asarray(shifts).tolist())):
        if (2 * ks.size + 1) << (30 - shift) < 1 << 62:
            out[row] = np.minimum(-(-((2 * ks + 1) << (30 - shift)) // m), cap)
        else:
            out[row] = [min(-((-(2 * k + 1) << (30 - shift)) // m), cap) for k in ks.tolist()]
    return out


def _double_thresholds(reals, ks) -> np.ndarray:
    """The least ``x >= 0`` with ``round_double_product(x, real) > k``, one row per real of
    ``reals`` and one column per ``k`` of ``ks``."""
    ks = np.asarray(ks, np.int64)[None, :]
    reals = np.asarray(reals, np.float64).reshape(-1, 1)
    x0 = np.ceil((ks + 0.5) / reals).astype(np.int64)
    out = np.full(x0.shape, -1, np.int64)
    for d in range(-3, 4):  # the product's rounding moves the step by at most one
        x = np.maximum(x0 + d, 0)
        hit = (out < 0) & (round_double_product(x, reals) > ks)
        out[hit] = x[hit]
    if (out < 0).any() or (round_double_product(np.maximum(out - 1, 0), reals) > ks)[out > 0].any():
        raise ArithmeticError(f"no step found for a multiplier of {reals.reshape(-1)!r}")
    return out


def single_rounding_multiplier(real: float, reach: int) -> tuple[int, int] | None:
    """``(m, shift)`` for which :func:`single_rounding_multiply` equals
    :func:`round_double_product` ``(x, real)`` for every int32 ``x`` whose result lies in
    ``[-reach, reach]`` (and beyond that range both are beyond it), or ``None`` when no Q31
    multiplier near ``real`` does (``real >= 1``, or a product that the double's rounding moves
    onto a half step where no 31-bit multiplier follows). Both functions are odd and
    nondecreasing, so they agree iff their steps ``k -> k + 1`` (``k < reach``) lie at the same
    ``x``; ``x = INT32_MIN`` is checked by itself."""
    return single_rounding_multipliers([real], reach)[0]


def single_rounding_multipliers(reals, reach: int) -> list[tuple[int, int] | None]:
    """:func:`single_rounding_multiplier` of each of ``reals`` (one per channel of a per-channel
    requantization), computed together: the first of ``m0, m0 - 1, m0 + 1, m0 - 2, m0 + 2``
    (``m0`` :func:`quantize_multiplier`'s) whose steps are the double product's."""
    reals = np.asarray(reals, np.float64).reshape(-1)
    first = [quantize_multiplier(float(r)) for r in reals]
    out: list[tuple[int, int] | None] = [None] * reals.size
    usable = np.array([k for k, (m0, shift) in enumerate(first) if m0 != 0 and shift <= 0], np.int64)
    if not usable.size:
        return out
    ks = np.arange(reach)
    cap = 1 << 31  # a step beyond INT32_MAX is never taken
    wants = np.minimum(_double_thresholds(reals[usable], ks), cap)
    m0s = np.array([first[k][0] for k in usable], np.int64)
    shifts = np.array([first[k][1] for k in usable], np.int64)
    at_min = round_double_product(INT32_MIN, reals[usable])
    pending = np.ones(usable.size, bool)
    for delta in (0, -1, 1, -2, 2):
        rows = np.flatnonzero(pending & ((1 << 30) <= m0s + delta) & (m0s + delta < (1 << 31)))
        if not rows.size:
            continue
        ms = m0s[rows] + delta
        got = _single_thresholds(ms, shifts[rows], ks, cap)
        a, b = single_rounding_multiply(INT32_MIN, ms, shifts[rows]), at_min[rows]
        ok = (got == wants[rows]).all(axis=1) & ((a == b) | ((a < -reach) & (b < -reach)))
        for row, m in zip(rows[ok], ms[ok]):
            out[int(usable[row])] = (int(m), int(shifts[row]))
            pending[row] = False
    return out
