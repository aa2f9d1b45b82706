"""The fixed-point primitives against exact integer arithmetic written from their definitions."""

import math
from fractions import Fraction

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from nnaccel import quant

int32s = st.integers(-(2**31), 2**31 - 1)


def exact_srdhm(a, b):
    if a == b == -(2**31):
        return 2**31 - 1
    return math.floor(Fraction(a * b, 2**31) + Fraction(1, 2))  # round half up


def exact_rdbpot(x, e):
    q = Fraction(x, 2**e)
    r = math.floor(abs(q) + Fraction(1, 2))  # half away from zero
    return r if q >= 0 else -r


@given(int32s, int32s)
def test_srdhm_matches_exact(a, b):
    assert int(quant.saturating_rounding_doubling_high_mul(a, b)) == exact_srdhm(a, b)


@given(int32s, st.integers(0, 31))
def test_rounding_divide_by_pot_matches_exact(x, e):
    assert int(quant.rounding_divide_by_pot(x, e)) == exact_rdbpot(x, e)


@given(st.floats(1e-6, 1e3, allow_nan=False))
def test_quantize_multiplier_represents_value(r):
    m, s = quant.quantize_multiplier(r)
    assert 2**30 <= m < 2**31
    assert abs(m * 2.0 ** (s - 31) - r) <= r * 2**-30


@settings(max_examples=200)
@given(st.integers(-(2**20), 2**20), st.floats(1e-4, 0.999))
def test_multiply_by_quantized_multiplier_is_close_to_real_product(x, r):
    m, s = quant.quantize_multiplier(r)
    got = int(quant.multiply_by_quantized_multiplier(x, m, s))
    assert abs(got - x * r) <= 1.0 + abs(x) * r * 2**-29


def test_vectorized_per_channel_shifts():
    x = np.array([[1000, -1000], [77, -77]])
    m, s = quant.quantize_multipliers([0.5, 0.25])
    got = quant.multiply_by_quantized_multiplier(x, m, s)
    assert got.tolist() == [[500, -250], [39, -19]]  # 38.5 -> 39, -19.25 -> -19


def test_round_half_away_differs_from_numpy_round():
    assert quant.round_half_away([0.5, 1.5, 2.5, -2.5]).tolist() == [1.0, 2.0, 3.0, -3.0]


def test_activation_ranges():
    assert quant.activation_range_quantized(3, 0.5, 10, 0, 255) == (10, 22)
    assert quant.activation_range_quantized(2, 0.5, 10, 0, 255) == (8, 12)
    assert quant.activation_range_quantized(0, 0.5, 10, -128, 127) == (-128, 127)


def test_single_rounding_multipliers_reproduce_the_double_product_over_the_reach():
    """Each pair :func:`quant.single_rounding_multipliers` returns gives, through REQ's single
    rounding, LiteRT's ``round(double(x) * real)`` for every ``x`` whose result lies within the
    reach, and beyond the reach where it does not (checked on every ``x`` up to just past the reach
    and on ``INT32_MIN``), one pair per channel as the scalar
    function gives; ``real >= 1`` has none."""
    r = np.random.default_rng(11)
    reach = 130
    reals = np.concatenate([r.uniform(1e-4, 0.9, 24), [0.5, 0.25, 1.5]])
    pairs = quant.single_rounding_multipliers(reals, reach)
    assert pairs == [quant.single_rounding_multiplier(float(v), reach) for v in reals]
    assert pairs[-1] is None
    for real, pair in zip(reals[:-1], pairs[:-1]):
        assert pair is not None, real
        top = math.ceil((reach + 0.5) / real)
        x = np.concatenate([np.arange(-top, top + 1), [quant.INT32_MIN]])
        want = quant.round_double_product(x, float(real))
        got = quant.single_rounding_multiply(x, *pair)
        inside = np.abs(want) <= reach
        assert np.array_equal(got[inside], want[inside]), real
        assert np.all(np.abs(got[~inside]) > reach) and np.array_equal(np.sign(got[~inside]), np.sign(want[~inside]))


def test_quantize_multipliers_is_quantize_multiplier_per_element():
    rng = np.random.default_rng(5)
    reals = np.concatenate([rng.uniform(0, 4, 2000), 10.0 ** rng.uniform(-14, 12, 2000), -rng.uniform(0, 2, 200),
                            [0.0, 1.0, 0.5, 2**-32, 2**-31, 2**-33, 2**31, 2**40, 1 - 2**-40, 0.99999999997,
                             np.nextafter(1.0, 0), 5e-324, 1e308]])
    m, s = quant.quantize_multipliers(reals)
    want = [quant.quantize_multiplier(float(r)) for r in reals]
    assert m.dtype == s.dtype == np.int64
    assert list(zip(m.tolist(), s.tolist())) == want


def test_conv_real_multipliers_is_conv_real_multiplier_per_scale():
    from nnaccel.golden import nn as gnn
    rng = np.random.default_rng(6)
    scales = 10.0 ** rng.uniform(-6, 1, 500)
    for s_in, s_out in ((0.0235, 0.0471), (1e-5, 3.0), (0.5, 1e-6)):
        for exact in (False, True):
            got = gnn.conv_real_multipliers(s_in, scales, s_out, exact)
            assert got.tolist() == [gnn.conv_real_multiplier(s_in, float(w), s_out, exact) for w in scales]
