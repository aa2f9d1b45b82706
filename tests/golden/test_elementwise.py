"""Golden elementwise family: validation rejections, exact integer / float semantics, quantized
kernels against an independent float computation (hypothesis), reference corner cases.

The conformance models of these operations (and CTS's quant8 -> quant8 signed re-run of them) are
run by tests/test_cts.py."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nnaccel import ExecutionError, ModelError, quant, registry
from nnaccel.golden.interpreter import run_model
from nnaccel.model import ModelBuilder, OperandType

T = OperandType
F32, F16, I32, BOOL8 = T.TENSOR_FLOAT32, T.TENSOR_FLOAT16, T.TENSOR_INT32, T.TENSOR_BOOL8
Q8A, Q8AS = T.TENSOR_QUANT8_ASYMM, T.TENSOR_QUANT8_ASYMM_SIGNED
QRANGE = {Q8A: (0, 255), Q8AS: (-128, 127)}

ELEMENTWISE_OPS = [name for name, op in registry.OPS.items() if op.family == "elementwise"]


# --------------------------------------------------------------------------------------------------
# A tiny single-operation model builder.

def operand(b: ModelBuilder, spec):
    """``spec`` = (type, dims) or (type, dims, scale, zero_point)."""
    t, dims, *q = spec
    return b.add_operand(t, dims, *(q or [0.0, 0]))


def single_op(name: str, inputs: list, outputs: list, relaxed: bool = False):
    """A model of one operation. ``inputs`` items are operand specs (become model inputs) or
    ``("const", type, value)`` for a constant scalar/tensor."""
    b = ModelBuilder(name, relaxed=relaxed)
    ins, model_inputs = [], []
    for spec in inputs:
        if spec[0] == "const":
            ins.append(b.add_constant(spec[1], spec[2]))
        else:
            i = operand(b, spec)
            ins.append(i)
            model_inputs.append(i)
    outs = [operand(b, spec) for spec in outputs]
    b.add_operation(name, ins, outs)
    b.identify_inputs_and_outputs(model_inputs, outs)
    return b.finish()


def run1(name, inputs, outputs, arrays, relaxed=False):
    return run_model(single_op(name, inputs, outputs, relaxed), arrays)[0]


def rejects(name, inputs, outputs, match):
    with pytest.raises(ModelError, match=match):
        run_model(single_op(name, inputs, outputs), [])


def act(value):
    return ("const", T.INT32, value)


def test_every_operation_of_the_family_has_signatures_and_a_documented_kernel():
    assert len(ELEMENTWISE_OPS) == 36
    for name in ELEMENTWISE_OPS:
        op = registry.get(name)
        assert op.implemented and op.signatures and op.doc, name
    # the version that introduced each type form, from the spec
    assert {(s.types["T"][0], s.since) for s in registry.get("SUB").signatures} == {
        (F32, "V1_1"), (F16, "V1_2"), (Q8A, "V1_2"), (Q8AS, "V1_3"), (I32, "V1_3")}


# --------------------------------------------------------------------------------------------------
# Validation: every rejection the family adds, matched by its message.

def test_int32_arithmetic_rejects_a_fused_activation():
    for name in ("ADD", "SUB", "MUL", "DIV"):
        rejects(name, [(I32, [2]), (I32, [2]), act(1)], [(I32, [2])],
                r"the fused activation is RELU, but for TENSOR_INT32 tensors it must be NONE")


def test_fused_activation_must_be_known():
    rejects("ADD", [(F32, [2]), (F32, [2]), act(4)], [(F32, [2])], r"must be one of 0 \(NONE\)")


def test_a_non_constant_fused_activation_is_checked_at_run_time():
    x = np.ones(2, np.int32)
    model = single_op("SUB", [(I32, [2]), (I32, [2]), (T.INT32, [])], [(I32, [2])])
    with pytest.raises(ExecutionError, match=r"for TENSOR_INT32 tensors it must be NONE"):
        run_model(model, [x, x, np.int32(3)])
    model = single_op("MUL", [(F32, [2]), (F32, [2]), (T.INT32, [])], [(F32, [2])])
    with pytest.raises(ExecutionError, match=r"the fused activation is 9, but it must be one of"):
        run_model(model, [x.astype(np.float32), x.astype(np.float32), np.int32(9)])
    assert run_model(model, [x.astype(np.float32), -x.astype(np.float32), np.int32(1)])[0].tolist() == [0, 0]


def test_bad_broadcast_is_rejected():
    rejects("ADD", [(F32, [2, 3]), (F32, [4]), act(0)], [(F32, [2, 3])], r"cannot be broadcast")
    rejects("PRELU", [(F32, [2, 3]), (F32, [2])], [(F32, [2, 3])], r"cannot be broadcast")
    rejects("LESS", [(F32, [3]), (F32, [2])], [(BOOL8, [3])], r"cannot be broadcast")
    rejects("LOGICAL_AND", [(BOOL8, [3]), (BOOL8, [2])], [(BOOL8, [3])], r"cannot be broadcast")


def test_output_shape_must_be_the_broadcast_shape():
    rejects("ADD", [(F32, [4, 1, 2]), (F32, [5, 4, 3, 1]), act(0)], [(F32, [5, 4, 3, 3])],
            r"output 0 .* has shape \[5, 4, 3, 3\], but the operation produces shape \[5, 4, 3, 2\]")
    rejects("EXP", [(F32, [2, 3])], [(F32, [3, 2])], r"the operation produces shape \[2, 3\]")


def test_rank_above_4_is_rejected():
    rejects("MUL", [(F32, [1, 1, 1, 1, 2]), (F32, [2]), act(0)], [(F32, [1, 1, 1, 1, 2])],
            r"has rank 5, but the operation supports ranks 1 to 4")
    rejects("RELU", [(F32, [1, 1, 1, 1, 2])], [(F32, [1, 1, 1, 1, 2])], r"has rank 5")
    rejects("FLOOR", [(F32, [1, 1, 1, 1, 2])], [(F32, [1, 1, 1, 1, 2])], r"has rank 5")
    rejects("DEQUANTIZE", [(Q8A, [1, 1, 1, 1, 2], 0.5, 0)], [(F32, [1, 1, 1, 1, 2])], r"has rank 5")


def test_types_outside_the_spec_match_no_signature():
    rejects("ADD", [(F32, [2]), (F16, [2]), act(0)], [(F32, [2])], r"match none of its signatures")
    rejects("DIV", [(Q8A, [2], 0.5, 0), (Q8A, [2], 0.5, 0), act(0)], [(Q8A, [2], 0.5, 0)],
            r"match none of its signatures")
    rejects("EXP", [(I32, [2])], [(I32, [2])], r"match none of its signatures")
    rejects("ELU", [(F16, [2]), ("const", T.FLOAT32, 1.0)], [(F16, [2])], r"match none of its signatures")
    rejects("LESS", [(F32, [2]), (F32, [2])], [(F32, [2])], r"match none of its signatures")
    rejects("QUANTIZE", [(F32, [2])], [(T.TENSOR_QUANT16_ASYMM, [2], 0.5, 0)], r"match none of its signatures")
    rejects("CAST", [(BOOL8, [2])], [(I32, [2])], r"match none of its signatures")


def test_quantized_mul_needs_output_scale_above_the_input_product():
    for t in (Q8A, Q8AS):
        rejects("MUL", [(t, [2], 0.5, 0), (t, [2], 0.5, 0), act(0)], [(t, [2], 0.25, 0)],
                r"the spec requires output_scale > input1_scale \* input2_scale = 0.25")


def test_quantized_add_needs_a_usable_output_scale():
    rejects("SUB", [(Q8A, [2], 1.0, 0), (Q8A, [2], 1.0, 0), act(0)], [(Q8A, [2], 2.0**-20, 0)],
            r"2 \* max\(input scales\) / \(2\*\*20 \* output scale\) must be < 1")


def test_relus_keep_the_quantization():
    for name in ("RELU", "RELU1", "RELU6"):
        rejects(name, [(Q8AS, [2], 0.5, 1)], [(Q8AS, [2], 0.5, 0)],
                r"has scale 0.5 and zero point 1, but the spec requires the same as the output")


def test_logistic_and_tanh_require_their_fixed_output_quantization():
    rejects("LOGISTIC", [(Q8A, [2], 0.1, 0)], [(Q8A, [2], 1 / 128, 0)],
            r"for TENSOR_QUANT8_ASYMM the spec requires scale 1/256 and zero point 0")
    rejects("LOGISTIC", [(Q8AS, [2], 0.1, 0)], [(Q8AS, [2], 1 / 256, 0)],
            r"for TENSOR_QUANT8_ASYMM_SIGNED the spec requires scale 1/256 and zero point -128")
    rejects("TANH", [(Q8A, [2], 0.1, 0)], [(Q8A, [2], 1 / 128, 0)],
            r"spec requires scale 1/128 and zero point 128")
    rejects("TANH", [(Q8AS, [2], 0.1, 0)], [(Q8AS, [2], 1 / 128, -1)],
            r"spec requires scale 1/128 and zero point 0")
    rejects("TANH", [(Q8AS, [2], 2.0**-28, 0)], [(Q8AS, [2], 1 / 128, 0)],
            r"needs an input scale above 2\*\*-27")


def test_quantized_hard_swish_needs_output_scale_of_at_least_input_over_128():
    rejects("HARD_SWISH", [(Q8A, [2], 1.0, 128)], [(Q8A, [2], 1 / 1024, 0)],
            r"needs an output scale above the input scale / 128")


def test_select_requires_one_shape():
    rejects("SELECT", [(BOOL8, [2, 2]), (F32, [2, 2]), (F32, [2])], [(F32, [2, 2])],
            r"input 2 .* has shape \[2\], but it must have the shape of input 1, \[2, 2\]")
    rejects("SELECT", [(BOOL8, [3]), (F32, [2]), (F32, [2])], [(F32, [2])],
            r"input 1 .* has shape \[2\], but it must have the shape of input 0, \[3\]")


def test_cast_requires_the_input_shape():
    rejects("CAST", [(F32, [2, 3])], [(I32, [3, 2])],
            r"CAST requires the output shape to equal the input shape \[2, 3\]")


# --------------------------------------------------------------------------------------------------
# Exact semantics of the non-quantized paths (expected values written from the spec).

def test_broadcast_example_of_the_spec():
    a = np.arange(8, dtype=np.float32).reshape(4, 1, 2)
    b = np.arange(60, dtype=np.float32).reshape(5, 4, 3, 1)
    out = run1("ADD", [(F32, [4, 1, 2]), (F32, [5, 4, 3, 1]), act(0)], [(F32, [5, 4, 3, 2])], [a, b])
    assert out.shape == (5, 4, 3, 2)
    assert out[2, 3, 1, 1] == a[3, 0, 1] + b[2, 3, 1, 0]


def test_zero_sized_inputs_broadcast_to_zero_sized_outputs():
    for name in ("ADD", "SUB", "MUL", "DIV"):
        out = run1(name, [(F32, [0, 2]), (F32, [1, 2]), act(1)], [(F32, [0, 0])],
                   [np.zeros((0, 2), np.float32), np.ones((1, 2), np.float32)])
        assert out.shape == (0, 2) and out.dtype == np.float32
    out = run1("ADD", [(Q8A, [0, 2], 0.5, 3), (Q8A, [1, 2], 0.5, 3), act(0)], [(Q8A, [0, 0], 1.0, 0)],
               [np.zeros((0, 2), np.uint8), np.ones((1, 2), np.uint8)])
    assert out.shape == (0, 2)
    for name in ("LOGISTIC", "TANH", "RELU6", "HARD_SWISH"):
        assert run1(name, [(F16, [0])], [(F16, [0])], [np.zeros(0, np.float16)]).shape == (0,)


def test_int32_arithmetic_wraps_and_divides_by_floor():
    a = np.array([2**31 - 1, -5, 5, -5, 7, -(2**31)], np.int32)
    b = np.array([1, 2, -2, -2, 0, -1], np.int32)
    assert run1("ADD", [(I32, [6]), (I32, [6]), act(0)], [(I32, [6])], [a, b]).tolist() == \
        [-(2**31), -3, 3, -7, 7, 2**31 - 1]
    assert run1("DIV", [(I32, [6]), (I32, [6]), act(0)], [(I32, [6])], [a, b]).tolist() == \
        [2**31 - 1, -3, -3, 2, 0, -(2**31)]
    assert run1("MUL", [(I32, [2]), (I32, [2]), act(0)], [(I32, [2])],
                [np.array([65536, 3], np.int32), np.array([65536, -4], np.int32)]).tolist() == [0, -12]
    assert run1("NEG", [(I32, [2])], [(I32, [2])], [np.array([-(2**31), 4], np.int32)]).tolist() == \
        [-(2**31), -4]


def test_float16_arithmetic_rounds_the_float32_result_once():
    # 2049 is not a float16; 1024 + 1025 computed in float32 is 2049, rounded to even: 2048.
    out = run1("ADD", [(F16, [1]), (F16, [1]), act(0)], [(F16, [1])],
               [np.array([1024], np.float16), np.array([1025], np.float16)])
    assert out.dtype == np.float16 and out.tolist() == [2048.0]


def test_fused_activations_on_floats():
    x = np.array([-3.0, -0.5, 0.5, 7.0], np.float32)
    zero = np.zeros(4, np.float32)
    expected = {0: [-3, -0.5, 0.5, 7], 1: [0, 0, 0.5, 7], 2: [-1, -0.5, 0.5, 1], 3: [0, 0, 0.5, 6]}
    for a, want in expected.items():
        assert run1("SUB", [(F32, [4]), (F32, [4]), act(a)], [(F32, [4])], [x, zero]).tolist() == want


def test_cast_clamps_truncates_and_rounds():
    x = np.array([-3.7, 0.9, 254.9, 300.0, 2.5], np.float32)
    assert run1("CAST", [(F32, [5])], [(Q8A, [5], 1.0, 0)], [x]).tolist() == [0, 0, 254, 255, 2]
    assert run1("CAST", [(F32, [5])], [(I32, [5])], [x]).tolist() == [-3, 0, 254, 300, 2]
    big = np.array([2049, 2051, -70000], np.int32)  # 2049 -> 2048 (ties to even), 2051 -> 2052
    assert run1("CAST", [(I32, [3])], [(F16, [3])], [big]).tolist() == [2048.0, 2052.0, -np.inf]
    q = np.array([0, 200], np.uint8)  # scale and zero point are ignored
    assert run1("CAST", [(Q8A, [2], 0.5, 100)], [(F32, [2])], [q]).tolist() == [0.0, 200.0]


def test_quantize_rounds_half_away_from_zero_and_saturates():
    x = np.array([-1.0, 0.25, 0.75, -0.25, 100.0], np.float32)
    assert run1("QUANTIZE", [(F32, [5])], [(Q8A, [5], 0.5, 10)], [x]).tolist() == [8, 11, 12, 9, 210]
    assert run1("QUANTIZE", [(F16, [5])], [(Q8AS, [5], 0.5, -128)], [x.astype(np.float16)]).tolist() == \
        [-128, -127, -126, -128, 72]


def test_dequantize_per_channel():
    from nnaccel.model import ChannelQuant

    b = ModelBuilder()
    x = b.add_operand(T.TENSOR_QUANT8_SYMM_PER_CHANNEL, [2, 3], channel_quant=ChannelQuant((0.5, 2.0), 0))
    y = b.add_operand(F32, [2, 3])
    b.add_operation("DEQUANTIZE", [x], [y])
    b.identify_inputs_and_outputs([x], [y])
    (out,) = run_model(b.finish(), [np.array([[1, -2, 3], [1, -2, 3]], np.int8)])
    assert out.tolist() == [[0.5, -1.0, 1.5], [2.0, -4.0, 6.0]]


def test_comparisons_of_quantized_tensors_use_real_values():
    # 10 * 0.5 == 5 * 1.0, 12 * 0.5 > 5 * 1.0: different scales compare by real value.
    a = np.array([10, 12, 0], np.uint8)
    b = np.array([5, 5, 0], np.uint8)
    ins = [(Q8A, [3], 0.5, 0), (Q8A, [3], 1.0, 0)]
    assert run1("EQUAL", ins, [(BOOL8, [3])], [a, b]).tolist() == [True, False, True]
    assert run1("GREATER", ins, [(BOOL8, [3])], [a, b]).tolist() == [False, True, False]
    bools = np.array([False, True]), np.array([True, True])
    assert run1("LESS", [(BOOL8, [2]), (BOOL8, [2])], [(BOOL8, [2])], list(bools)).tolist() == [True, False]


def test_select_maximum_requantize_to_the_output():
    cond = np.array([True, False])
    a = np.array([10, 10], np.uint8)   # 5.0 with scale 0.5
    b = np.array([3, 3], np.uint8)     # 3.0 with scale 1.0
    out = run1("SELECT", [(BOOL8, [2]), (Q8A, [2], 0.5, 0), (Q8A, [2], 1.0, 0)], [(Q8A, [2], 0.25, 1)],
               [cond, a, b])
    assert out.tolist() == [21, 13]
    out = run1("MAXIMUM", [(Q8A, [2], 0.5, 0), (Q8A, [2], 1.0, 0)], [(Q8A, [2], 0.25, 1)], [a, b])
    assert out.tolist() == [21, 21]


# --------------------------------------------------------------------------------------------------
# gemmlowp fixed-point logistic / tanh against float math.

raws_q4 = st.integers(-(2**31) + 1, 2**31 - 1)


@settings(max_examples=300, deadline=None)
@given(st.lists(raws_q4, min_size=1, max_size=20))
def test_fixed_point_logistic_and_tanh_are_accurate(raws):
    a = np.array(raws, np.int64)
    x = a / 2.0**27  # Q4.27
    assert np.abs(quant.fixed_logistic(a, 4) / 2.0**31 - 1 / (1 + np.exp(-x))).max() < 1e-6
    assert np.abs(quant.fixed_tanh(a, 4) / 2.0**31 - np.tanh(x)).max() < 2e-6


# --------------------------------------------------------------------------------------------------
# Quantized kernels vs an independent float computation, within one quantization step.

qtypes = st.sampled_from([Q8A, Q8AS])
scales = st.floats(1e-3, 2.0)


@st.composite
def broadcast_shapes(draw):
    """Two shapes of rank 1..4 that broadcast, with sizes 1..3 (some stretched)."""
    rank = draw(st.integers(1, 4))
    out = [draw(st.integers(1, 3)) for _ in range(rank)]
    a = [d if draw(st.booleans()) else 1 for d in out]
    b = [d if draw(st.booleans()) else 1 for d in out]
    return a[draw(st.integers(0, rank - 1)):], b


@st.composite
def quant_tensor(draw, t, shape):
    lo, hi = QRANGE[t]
    n = math.prod(shape)
    return np.array(draw(st.lists(st.integers(lo, hi), min_size=n, max_size=n)),
                    np.uint8 if t is Q8A else np.int8).reshape(shape)


def zero_points(t):
    return st.integers(*QRANGE[t])


def real(q, scale, zp):
    return (q.astype(np.float64) - zp) * np.float32(scale).astype(np.float64)


def quantize_ref(x, scale, zp, t, activation=0):
    """Float reference: round(x / s) + z, clamped to the type and to the fused activation."""
    lo, hi = QRANGE[t]
    q = np.round(x / np.float64(np.float32(scale))) + zp
    bounds = {0: (-np.inf, np.inf), 1: (0.0, np.inf), 2: (-1.0, 1.0), 3: (0.0, 6.0)}[activation]
    lo = max(lo, np.round(bounds[0] / scale) + zp) if np.isfinite(bounds[0]) else lo
    hi = min(hi, np.round(bounds[1] / scale) + zp) if np.isfinite(bounds[1]) else hi
    return np.clip(q, lo, hi)


def assert_within_one_step(got, want):
    diff = np.abs(got.astype(np.int64) - want)
    assert diff.size == 0 or diff.max() <= 1, (got, want)


@settings(max_examples=120, deadline=None)
@given(st.data(), st.sampled_from(["ADD", "SUB", "MUL"]), qtypes, broadcast_shapes(),
       st.integers(0, 3))
def test_quantized_add_sub_mul_match_float(data, name, t, shapes, activation):
    sa, sb = data.draw(scales), data.draw(scales)
    za, zb, zo = data.draw(zero_points(t)), data.draw(zero_points(t)), data.draw(zero_points(t))
    if name == "MUL":
        so = float(np.float32(sa) * np.float32(sb)) * data.draw(st.floats(1.01, 300.0))
    else:
        so = max(sa, sb) * data.draw(st.floats(0.05, 20.0))
    a = data.draw(quant_tensor(t, shapes[0]))
    b = data.draw(quant_tensor(t, shapes[1]))
    out_shape = np.broadcast_shapes(a.shape, b.shape)
    got = run1(name, [(t, list(a.shape), sa, za), (t, list(b.shape), sb, zb), act(activation)],
               [(t, list(out_shape), so, zo)], [a, b])
    ra, rb = real(a, sa, za), real(b, sb, zb)
    x = {"ADD": ra + rb, "SUB": ra - rb, "MUL": ra * rb}[name]
    assert_within_one_step(got, quantize_ref(x, so, zo, t, activation))


def _activation_case(data, name, t):
    s_in = data.draw(st.floats(1e-3, 0.5))
    z_in = data.draw(zero_points(t))
    shape = [data.draw(st.integers(1, 4)) for _ in range(data.draw(st.integers(1, 4)))]
    x = data.draw(quant_tensor(t, shape))
    return s_in, z_in, x, real(x, s_in, z_in)


@settings(max_examples=120, deadline=None)
@given(st.data(), st.sampled_from(["RELU", "RELU1", "RELU6", "LOGISTIC", "TANH"]), qtypes)
def test_quantized_activations_match_float(data, name, t):
    s_in, z_in, q, x = _activation_case(data, name, t)
    if name == "LOGISTIC":
        s_out, z_out, y = 1 / 256, (0 if t is Q8A else -128), 1 / (1 + np.exp(-x))
    elif name == "TANH":
        s_out, z_out, y = 1 / 128, (128 if t is Q8A else 0), np.tanh(x)
    else:
        s_out, z_out = s_in, z_in
        y = {"RELU": np.maximum(x, 0), "RELU1": np.clip(x, -1, 1), "RELU6": np.clip(x, 0, 6)}[name]
    got = run1(name, [(t, list(q.shape), s_in, z_in)], [(t, list(q.shape), s_out, z_out)], [q])
    assert_within_one_step(got, quantize_ref(y, s_out, z_out, t))


@settings(max_examples=120, deadline=None)
@given(st.data(), qtypes)
def test_quantized_hard_swish_matches_float(data, t):
    s_in, z_in, q, x = _activation_case(data, "HARD_SWISH", t)
    s_out = s_in * data.draw(st.floats(0.05, 2.0))
    z_out = data.draw(zero_points(t))
    got = run1("HARD_SWISH", [(t, list(q.shape), s_in, z_in)], [(t, list(q.shape), s_out, z_out)], [q])
    y = x * np.clip(x + 3, 0, 6) / 6
    assert_within_one_step(got, quantize_ref(y, s_out, z_out, t))


@settings(max_examples=120, deadline=None)
@given(st.data(), qtypes, broadcast_shapes())
def test_quantized_prelu_matches_float(data, t, shapes):
    s_in, s_alpha = data.draw(scales), data.draw(st.floats(1e-3, 0.1))
    z_in, z_alpha, z_out = (data.draw(zero_points(t)) for _ in range(3))
    s_out = s_in * data.draw(st.floats(0.1, 10.0))
    x = data.draw(quant_tensor(t, shapes[0]))
    alpha = data.draw(quant_tensor(t, shapes[1]))
    out_shape = np.broadcast_shapes(x.shape, alpha.shape)
    got = run1("PRELU", [(t, list(x.shape), s_in, z_in), (t, list(alpha.shape), s_alpha, z_alpha)],
               [(t, list(out_shape), s_out, z_out)], [x, alpha])
    rx, ra = real(x, s_in, z_in), real(alpha, s_alpha, z_alpha)
    assert_within_one_step(got, quantize_ref(np.where(rx >= 0, rx, rx * ra), s_out, z_out, t))


# --------------------------------------------------------------------------------------------------
# Reference corner cases (NNAPI's kernels, derived from their code paths, not from ours).

def test_float_infinities_follow_the_reference_clamps():
    big = np.array([3e38], np.float32)
    zero = np.array([0.0], np.float32)
    flt_max = float(np.finfo(np.float32).max)
    # DIV and SUB clamp to [lowest, max] even without activation; ADD's templated path does not.
    assert run1("DIV", [(F32, [1]), (F32, [1]), act(0)], [(F32, [1])], [big, zero]).tolist() == [flt_max]
    assert run1("SUB", [(F32, [1]), (F32, [1]), act(0)], [(F32, [1])], [big, -big]).tolist() == [flt_max]
    assert run1("ADD", [(F32, [1]), (F32, [1]), act(0)], [(F32, [1])], [big, big]).tolist() == [np.inf]


def test_quantized_logistic_with_a_huge_input_scale():
    # s_in = 10: s_in * 2**27 needs shift 31, so the input radius floor(15 * 2**27 / 2**31) is 0.
    # uint8 (strict radius test): only c == 0 is computed (logistic(0) = 1/2 -> 128).
    q = np.array([99, 100, 101], np.uint8)
    assert run1("LOGISTIC", [(Q8A, [3], 10.0, 100)], [(Q8A, [3], 1 / 256, 0)], [q]).tolist() == [0, 128, 255]
    # int8 (reference_integer_ops, inclusive radius test): c <= 0 is already the low saturation.
    q = np.array([-1, 0, 1], np.int8)
    assert run1("LOGISTIC", [(Q8AS, [3], 10.0, 0)], [(Q8AS, [3], 1 / 256, -128)], [q]).tolist() == \
        [-128, -128, 127]
