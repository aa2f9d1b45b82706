"""Tests of the nn family (nnaccel/golden/nn.py): convolution, pooling, matmul, normalization,
softmax and resize.

Expected values come from the conformance vectors or are computed here independently: a plain
float64 convolution written with Python loops over output pixels (quantized results must lie
within one quantization step of it), hand-computed padding cases, NumPy float references. Every
rejection the family's validators add is exercised with its message.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nnaccel.cts import run_file, spec_files
from nnaccel.errors import ExecutionError, ModelError
from nnaccel.golden import nn
from nnaccel.golden.interpreter import run_model
from nnaccel.model import TYPE_INFO, ChannelQuant, ModelBuilder, OperandType
from nnaccel.validate import validate_model

T = OperandType
F32, F16, I32 = T.TENSOR_FLOAT32, T.TENSOR_FLOAT16, T.TENSOR_INT32
Q8A, Q8AS, Q8PC = T.TENSOR_QUANT8_ASYMM, T.TENSOR_QUANT8_ASYMM_SIGNED, T.TENSOR_QUANT8_SYMM_PER_CHANNEL

NN_OPS = ["CONV_2D", "DEPTHWISE_CONV_2D", "GROUPED_CONV_2D", "TRANSPOSE_CONV_2D", "FULLY_CONNECTED",
          "BATCH_MATMUL", "AVERAGE_POOL_2D", "MAX_POOL_2D", "L2_POOL_2D", "L2_NORMALIZATION",
          "LOCAL_RESPONSE_NORMALIZATION", "INSTANCE_NORMALIZATION", "SOFTMAX", "LOG_SOFTMAX",
          "RESIZE_BILINEAR", "RESIZE_NEAREST_NEIGHBOR"]


class Op:
    """A one-operation model: run-time inputs or constants, then declared outputs."""

    def __init__(self, name: str):
        self.name, self.b = name, ModelBuilder(name)
        self.ins, self.feeds, self.model_inputs = [], [], []

    def inp(self, t, value, scale=0.0, zp=0, cq=None, dims=None):
        arr = np.asarray(value, TYPE_INFO[t].dtype)
        i = self.b.add_operand(t, arr.shape if dims is None else dims, scale, zp, cq)
        self.ins.append(i)
        self.model_inputs.append(i)
        self.feeds.append(arr)
        return self

    def const(self, t, value, scale=0.0, zp=0, cq=None):
        arr = np.asarray(value, TYPE_INFO[t].dtype)
        self.ins.append(self.b.add_constant(t, arr, arr.shape, scale, zp, cq))
        return self

    def i32(self, *values):
        for v in values:
            self.const(T.INT32, v)
        return self

    def f32(self, *values):
        for v in values:
            self.const(T.FLOAT32, v)
        return self

    def flag(self, *values):
        for v in values:
            self.const(T.BOOL, v)
        return self

    def model(self, *outs):
        idx = [self.b.add_operand(o[0], o[1], *(o[2:])) for o in outs]
        self.b.add_operation(self.name, self.ins, idx)
        self.b.identify_inputs_and_outputs(self.model_inputs, idx)
        return self.b.finish()

    def run(self, *outs):
        return run_model(self.model(*outs), self.feeds)


def rejects(op: Op, match: str, *outs):
    with pytest.raises(ModelError, match=match):
        validate_model(op.model(*outs))


# --------------------------------------------------------------------------------------------
# Conformance models of the family (the CTS/VTS vectors).


@pytest.mark.parametrize("stem", ["conv2d_per_channel", "depthwise_conv2d_per_channel", "grouped_conv2d",
                                  "transpose_conv2d", "softmax_quant8_signed", "avg_pool_quant8_5", "max_pool_quant8_signed",
                                  "resize_bilinear_v1_3", "l2_normalization_quant8_signed",
                                  "batch_matmul", "conv2d_dilation", "fully_connected_v1_2"])
def test_conformance_files(cts_root, stem):
    files = [p for p in spec_files(cts_root) if p.name == f"{stem}.json.gz"]
    assert files, f"no conformance file {stem}"
    for path in files:
        results = run_file(path, ops_filter=NN_OPS)
        assert results
        bad = [f"{r.name}: {r.message}" for r in results if r.status != "passed"]
        assert not bad, bad[:3]


# --------------------------------------------------------------------------------------------
# Padding and output-size rules, written out by hand.


def test_implicit_padding_same_and_valid():
    # in 5, stride 2, filter 3: out 3, (3-1)*2+3-5 = 2 -> 1 / 1
    assert nn.implicit_padding(5, 2, 3, nn.PADDING_SAME) == (1, 1)
    # in 4, stride 1, filter 4: total 3 -> 1 head, 2 tail
    assert nn.implicit_padding(4, 1, 4, nn.PADDING_SAME) == (1, 2)
    # dilated filter 3 x 2 spans 5: total 4 -> 2 / 2
    assert nn.implicit_padding(6, 1, 3, nn.PADDING_SAME, dilation=2) == (2, 2)
    assert nn.implicit_padding(6, 2, 3, nn.PADDING_VALID) == (0, 0)
    assert nn.implicit_padding(6, 2, 3, 0) == (0, 0)
    # no padding needed: in 6, stride 3, filter 3 -> total 0
    assert nn.implicit_padding(6, 3, 3, nn.PADDING_SAME) == (0, 0)


def test_transpose_padding_keeps_negative_tail():
    # output 4, stride 3, filter 2: out 2, total (2-1)*3+2-4 = 1 -> head 0, tail 1
    assert nn.implicit_padding(4, 3, 2, nn.PADDING_SAME, transpose=True) == (0, 1)
    # output 6, stride 4, filter 1: total (2-1)*4+1-6 = -1 -> tail -1 (transpose only)
    assert nn.implicit_padding(6, 4, 1, nn.PADDING_SAME, transpose=True) == (0, -1)
    assert nn.implicit_padding(6, 4, 1, nn.PADDING_SAME) == (0, 0)


def test_output_sizes():
    assert nn.conv_output_size(5, 3, 2, 1, 1) == 3
    assert nn.conv_output_size(7, 3, 1, 0, 0, dilation=3) == 1
    assert nn.conv_output_size(2, 3, 2, 0, 0) == 0  # (2-3+2)/2 truncates to 0
    assert nn.conv_output_size(1, 4, 2, 0, 0) == 0  # -1/2 truncates toward zero in C++
    assert nn.transpose_conv_output_size(2, 3, 2, 1, 0) == 4


def test_conv_multiplier_rounds_product_to_float32():
    s_in, s_w, s_out = 0.1, 0.3, 0.7
    expected = float(np.float32(np.float32(s_in) * np.float32(s_w))) / float(np.float32(s_out))
    assert nn.conv_real_multiplier(s_in, s_w, s_out) == expected


# --------------------------------------------------------------------------------------------
# Independent float reference of the convolutions (loops over output pixels, float64).


def ref_conv_real(x, w, bias, pads, stride, dilation, groups):
    """x NHWC real values, w [Dout, fh, fw, Cg], bias [Dout]; plain loops."""
    n, h, wd, _ = x.shape
    dout, fh, fw, cg = w.shape
    top, bottom, left, right = pads
    oh = (h - ((fh - 1) * dilation[0] + 1) + stride[0] + top + bottom) // stride[0]
    ow = (wd - ((fw - 1) * dilation[1] + 1) + stride[1] + left + right) // stride[1]
    out = np.zeros((n, oh, ow, dout))
    dg = dout // groups
    for b in range(n):
        for oy in range(oh):
            for ox in range(ow):
                for d in range(dout):
                    g = d // dg
                    s = 0.0
                    for i in range(fh):
                        for j in range(fw):
                            y = oy * stride[0] - top + i * dilation[0]
                            xx = ox * stride[1] - left + j * dilation[1]
                            if 0 <= y < h and 0 <= xx < wd:
                                s += float(np.dot(x[b, y, xx, g * cg:(g + 1) * cg], w[d, i, j]))
                    out[b, oy, ox, d] = s + bias[d]
    return out


def quantize_ref(real, scale, zp, qtype, act):
    lo, hi = {0: (-np.inf, np.inf), 1: (0, np.inf), 2: (-1, 1), 3: (0, 6)}[act]
    real = np.clip(real, lo, hi)
    tmin, tmax = np.iinfo(TYPE_INFO[qtype].dtype).min, np.iinfo(TYPE_INFO[qtype].dtype).max
    return np.clip(np.floor(real / scale + 0.5) + zp, tmin, tmax)


@st.composite
def conv_cases(draw, depthwise=False):
    qtype = draw(st.sampled_from([Q8A, Q8AS]))
    per_channel = draw(st.booleans())
    n = draw(st.integers(1, 2))
    c = draw(st.integers(1, 3))
    mult = draw(st.integers(1, 2)) if depthwise else None
    dout = c * mult if depthwise else draw(st.integers(1, 3))
    fh, fw = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    dil = (draw(st.integers(1, 2)), draw(st.integers(1, 2)))
    stride = (draw(st.integers(1, 3)), draw(st.integers(1, 3)))
    h = draw(st.integers((fh - 1) * dil[0] + 1, 7))
    w = draw(st.integers((fw - 1) * dil[1] + 1, 7))
    implicit = draw(st.sampled_from([None, nn.PADDING_SAME, nn.PADDING_VALID]))
    if implicit is None:
        eff = ((fh - 1) * dil[0] + 1, (fw - 1) * dil[1] + 1)
        pads = tuple(draw(st.integers(0, eff[k // 2] - 1)) for k in range(4))
    else:
        pads = None
    nchw = draw(st.booleans())
    act = draw(st.integers(0, 3))
    lo, hi = (0, 255) if qtype is Q8A else (-128, 127)
    s_in = draw(st.floats(0.01, 0.5))
    s_out = draw(st.floats(0.02, 2.0))
    z_in, z_out = draw(st.integers(lo, hi)), draw(st.integers(lo, hi))
    if per_channel:
        scales = [draw(st.floats(0.005, 0.2)) for _ in range(dout)]
        z_w, s_w = 0, 0.0
    else:
        scales, s_w = None, draw(st.floats(0.005, 0.2))
        z_w = draw(st.integers(lo, hi))
    seed = draw(st.integers(0, 2**31 - 1))
    return {"qtype": qtype, "per_channel": per_channel, "n": n, "c": c, "dout": dout, "mult": mult,
            "fh": fh, "fw": fw, "dil": dil, "stride": stride, "h": h, "w": w, "implicit": implicit,
            "pads": pads, "nchw": nchw, "act": act, "s_in": s_in, "s_out": s_out, "z_in": z_in,
            "z_out": z_out, "scales": scales, "z_w": z_w, "s_w": s_w, "seed": seed}


def _run_quant_conv(case, depthwise):
    rng = np.random.default_rng(case["seed"])
    qt = case["qtype"]
    lo, hi = (0, 255) if qt is Q8A else (-128, 127)
    n, c, dout, fh, fw = case["n"], case["c"], case["dout"], case["fh"], case["fw"]
    x = rng.integers(lo, hi + 1, (n, case["h"], case["w"], c))
    wshape = (1, fh, fw, dout) if depthwise else (dout, fh, fw, c)
    if case["per_channel"]:
        w = rng.integers(-127, 128, wshape)
        wtype, cq = Q8PC, ChannelQuant(tuple(case["scales"]), 3 if depthwise else 0)
        w_scales = np.float32(case["scales"]).astype(np.float64)
    else:
        w = rng.integers(lo, hi + 1, wshape)
        wtype, cq = qt, None
        w_scales = np.full(dout, float(np.float32(case["s_w"])))
    s_in = float(np.float32(case["s_in"]))
    b_scale = np.float32(s_in) * np.float32(w_scales.astype(np.float32))
    bias = rng.integers(-2000, 2001, dout)
    op = Op("DEPTHWISE_CONV_2D" if depthwise else "CONV_2D")
    feed_x = np.transpose(x, (0, 3, 1, 2)) if case["nchw"] else x
    op.inp(qt, feed_x, case["s_in"], case["z_in"])
    op.const(wtype, w, case["s_w"], case["z_w"], cq)
    op.const(I32, bias, 0.0 if case["per_channel"] else float(b_scale[0]), 0)
    if case["implicit"] is None:
        top, bottom, left, right = case["pads"]
        op.i32(left, right, top, bottom)
    else:
        op.i32(case["implicit"])
    op.i32(case["stride"][1], case["stride"][0])
    if depthwise:
        op.i32(case["mult"])
    op.i32(case["act"]).flag(case["nchw"]).i32(case["dil"][1], case["dil"][0])
    # reference
    x_real = (x - case["z_in"]) * s_in
    if depthwise:
        w_real = (np.transpose(w[0], (2, 0, 1))[..., None] - case["z_w"]) * w_scales[:, None, None, None]
        groups = c
    else:
        w_real = (w - case["z_w"]) * w_scales[:, None, None, None]
        groups = 1
    if case["implicit"] is None:
        pads = case["pads"]
    else:
        pads = (*nn.implicit_padding(case["h"], case["stride"][0], fh, case["implicit"], case["dil"][0]),
                *nn.implicit_padding(case["w"], case["stride"][1], fw, case["implicit"], case["dil"][1]))
    real = ref_conv_real(x_real, w_real, bias * b_scale.astype(np.float64), pads, case["stride"], case["dil"],
                         groups)
    expected = quantize_ref(real, float(np.float32(case["s_out"])), case["z_out"], qt, case["act"])
    out_dims = expected.shape
    if case["nchw"]:
        out_dims = (out_dims[0], out_dims[3], out_dims[1], out_dims[2])
    got = op.run((qt, out_dims, case["s_out"], case["z_out"]))[0]
    if case["nchw"]:
        got = np.transpose(got, (0, 2, 3, 1))
    return got.astype(np.int64), expected


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(conv_cases())
def test_quant_conv2d_matches_float_reference(case):
    got, expected = _run_quant_conv(case, depthwise=False)
    assert got.shape == expected.shape
    assert np.abs(got - expected).max(initial=0) <= 1


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(conv_cases(depthwise=True))
def test_quant_depthwise_matches_float_reference(case):
    got, expected = _run_quant_conv(case, depthwise=True)
    assert got.shape == expected.shape
    assert np.abs(got - expected).max(initial=0) <= 1


@settings(max_examples=60, deadline=None)
@given(qt=st.sampled_from([Q8A, Q8AS]), batch=st.integers(0, 3), size=st.integers(1, 12),
       units=st.integers(1, 6), s_in=st.floats(0.01, 0.5), s_w=st.floats(0.005, 0.2),
       s_out=st.floats(0.02, 3.0), act=st.integers(0, 3), seed=st.integers(0, 2**31 - 1),
       zps=st.tuples(st.integers(0, 255), st.integers(0, 255), st.integers(0, 255)))
def test_quant_fully_connected_matches_float_reference(qt, batch, size, units, s_in, s_w, s_out, act,
                                                        seed, zps):
    rng = np.random.default_rng(seed)
    lo, hi = (0, 255) if qt is Q8A else (-128, 127)
    z_in, z_w, z_out = (z + lo for z in zps)
    x = rng.integers(lo, hi + 1, (batch, size))
    w = rng.integers(lo, hi + 1, (units, size))
    bias = rng.integers(-3000, 3001, units)
    b_scale = float(np.float32(s_in) * np.float32(s_w))
    op = Op("FULLY_CONNECTED").inp(qt, x, s_in, z_in).const(qt, w, s_w, z_w).const(I32, bias, b_scale).i32(act)
    got = op.run((qt, (batch, units), s_out, z_out))[0].astype(np.int64)
    real = ((x - z_in) * float(np.float32(s_in))) @ ((w - z_w) * float(np.float32(s_w))).T + bias * b_scale
    expected = quantize_ref(real, float(np.float32(s_out)), z_out, qt, act)
    assert got.shape == expected.shape
    assert np.abs(got - expected).max(initial=0) <= 1


def test_per_channel_fully_connected_is_litert_only():
    """Per-channel int8 weights: NNAPI's FULLY_CONNECTED has none (rejected in an NNAPI model); in a
    TFLite model each unit rounds ``acc * s_in * s_w[u] / s_out`` once, half away from zero (here
    against exact rational arithmetic on the same double scales)."""
    from fractions import Fraction
    rng = np.random.default_rng(3)
    units, size, s_in, s_out, z_in, z_out = 7, 9, 0.0215, 0.173, -3, 2
    scales = tuple(float(np.float32(v)) for v in rng.uniform(0.004, 0.02, units))
    x = rng.integers(-128, 128, (3, size))
    w = rng.integers(-127, 128, (units, size))
    bias = rng.integers(-500, 500, units)

    def op():
        return (Op("FULLY_CONNECTED").inp(Q8AS, x, s_in, z_in).const(Q8PC, w, cq=ChannelQuant(scales, 0))
                .const(I32, bias).i32(0))
    rejects(op(), "NNAPI's FULLY_CONNECTED takes per-tensor weights only", (Q8AS, (3, units), s_out, z_out))
    litert = op()
    litert.b.origin = "tflite"
    got = litert.run((Q8AS, (3, units), s_out, z_out))[0].astype(np.int64)
    acc = (x - z_in) @ w.T + bias
    expected = np.empty_like(acc)
    for (b, u), a in np.ndenumerate(acc):
        exact = Fraction(int(a)) * Fraction(float(np.float32(s_in))) * Fraction(scales[u]) / Fraction(float(np.float32(s_out)))
        rounded = math.floor(abs(exact) + Fraction(1, 2)) * (1 if exact >= 0 else -1)
        expected[b, u] = min(max(rounded + z_out, -128), 127)
    assert np.array_equal(got, expected)


# --------------------------------------------------------------------------------------------
# Float kernels against independent NumPy references.


def test_float_grouped_and_nchw_conv():
    rng = np.random.default_rng(1)
    x = rng.standard_normal((1, 5, 4, 4)).astype(np.float32)
    w = rng.standard_normal((6, 3, 2, 2)).astype(np.float32)
    b = rng.standard_normal(6).astype(np.float32)
    expected = ref_conv_real(x.astype(np.float64), w.astype(np.float64), b, (1, 1, 0, 1), (2, 1), (1, 1), 2)
    op = Op("GROUPED_CONV_2D").inp(F32, np.transpose(x, (0, 3, 1, 2))).const(F32, w).const(F32, b)
    op.i32(0, 1, 1, 1, 1, 2, 2, 0).flag(True)
    got = op.run((F32, (1, 6, 3, 4)))[0]
    np.testing.assert_allclose(np.transpose(got, (0, 2, 3, 1)), expected, rtol=1e-5, atol=1e-5)


def test_float_transpose_conv_scatter():
    rng = np.random.default_rng(2)
    x = rng.standard_normal((1, 2, 3, 2)).astype(np.float32)
    w = rng.standard_normal((3, 3, 2, 2)).astype(np.float32)
    b = np.zeros(3, np.float32)
    stride, pads = (2, 1), (1, 0, 0, 1)  # top, bottom, left, right
    oh = 2 * 2 + 3 - 2 - 1
    ow = 3 * 1 + 2 - 1 - 0 - 1
    expected = np.zeros((1, oh, ow, 3))
    for y in range(2):
        for xx in range(3):
            for i in range(3):
                for j in range(2):
                    oy, ox = y * stride[0] - pads[0] + i, xx * stride[1] - pads[2] + j
                    if 0 <= oy < oh and 0 <= ox < ow:
                        expected[0, oy, ox] += w[:, i, j, :] @ x[0, y, xx]
    op = Op("TRANSPOSE_CONV_2D").inp(F32, x).const(F32, w).const(F32, b)
    op.i32(pads[2], pads[3], pads[0], pads[1], stride[1], stride[0], 0).flag(False)
    np.testing.assert_allclose(op.run((F32, (1, oh, ow, 3)))[0], expected, rtol=1e-5, atol=1e-5)


def test_quant_average_pool_rounds_half_away_from_zero():
    # int8 values chosen so window sums / counts hit .5 exactly, positive and negative
    x = np.array([[1, 2], [-3, -2]], np.int8).reshape(1, 2, 2, 1)
    op = Op("AVERAGE_POOL_2D").inp(Q8AS, x, 0.5, 0).i32(0, 0, 0, 0, 1, 1, 2, 1, 0)
    got = op.run((Q8AS, (1, 2, 1, 1), 0.5, 0))[0].reshape(-1)
    assert got.tolist() == [2, -3]  # 1.5 -> 2, -2.5 -> -3


def test_average_pool_divides_by_covered_pixels():
    x = np.arange(9, dtype=np.float32).reshape(1, 3, 3, 1)
    op = Op("AVERAGE_POOL_2D").inp(F32, x).i32(1, 1, 1, 1, 2, 2, 3, 3, 0)
    got = op.run((F32, (1, 2, 2, 1)))[0].reshape(2, 2)
    expected = [[np.mean([0, 1, 3, 4]), np.mean([1, 2, 4, 5])], [np.mean([3, 4, 6, 7]), np.mean([4, 5, 7, 8])]]
    np.testing.assert_allclose(got, expected)


@settings(max_examples=30, deadline=None)
@given(qt=st.sampled_from([Q8A, Q8AS]), rows=st.integers(1, 3), cols=st.integers(1, 20),
       scale=st.floats(0.01, 1.0), beta=st.floats(0.1, 2.0), seed=st.integers(0, 2**31 - 1))
def test_quant_softmax_close_to_float(qt, rows, cols, scale, beta, seed):
    rng = np.random.default_rng(seed)
    lo, hi = (0, 255) if qt is Q8A else (-128, 127)
    x = rng.integers(lo, hi + 1, (rows, cols))
    zo = 0 if qt is Q8A else -128
    op = Op("SOFTMAX").inp(qt, x, scale, lo + 3).f32(beta)
    got = op.run((qt, (rows, cols), 1 / 256, zo))[0].astype(np.int64)
    z = (x - x.max(axis=1, keepdims=True)) * float(np.float32(scale)) * float(np.float32(beta))
    p = np.exp(z) / np.exp(z).sum(axis=1, keepdims=True)
    expected = np.clip(np.floor(p * 256 + 0.5) + zo, lo, hi)
    assert np.abs(got - expected).max() <= 1


@settings(max_examples=30, deadline=None)
@given(qt=st.sampled_from([Q8A, Q8AS]), cols=st.integers(1, 16), seed=st.integers(0, 2**31 - 1))
def test_quant_l2_normalization_close_to_float(qt, cols, seed):
    rng = np.random.default_rng(seed)
    lo, hi = (0, 255) if qt is Q8A else (-128, 127)
    x = rng.integers(lo, hi + 1, (2, cols))
    zi = lo + 100
    zo = 128 if qt is Q8A else 0
    got = Op("L2_NORMALIZATION").inp(qt, x, 0.1, zi).run((qt, (2, cols), 1 / 128, zo))[0].astype(np.int64)
    d = (x - zi).astype(np.float64)
    norm = np.sqrt((d * d).sum(axis=1, keepdims=True))
    real = np.divide(d, norm, out=np.zeros_like(d), where=norm > 0)
    expected = np.clip(np.floor(real * 128 + 0.5) + zo, lo, hi)
    assert np.abs(got - expected).max() <= 1


def test_float_softmax_axis_and_log_softmax():
    x = np.array([[1.0, 2.0, 3.0], [0.5, -1.0, 4.0]], np.float32)
    got = Op("SOFTMAX").inp(F32, x).f32(1.0).i32(0).run((F32, (2, 3)))[0]
    e = np.exp(x - x.max(axis=0))
    np.testing.assert_allclose(got, e / e.sum(axis=0), rtol=1e-6)
    got = Op("LOG_SOFTMAX").inp(F32, x).f32(2.0).i32(-1).run((F32, (2, 3)))[0]
    z = 2.0 * x.astype(np.float64)
    np.testing.assert_allclose(got, z - np.log(np.exp(z).sum(axis=1, keepdims=True)), rtol=1e-6)


def test_lrn_and_instance_norm_float():
    rng = np.random.default_rng(3)
    x = rng.standard_normal((1, 2, 2, 5)).astype(np.float32)
    got = Op("LOCAL_RESPONSE_NORMALIZATION").inp(F32, x).i32(1).f32(1.5, 0.3, 0.75).run((F32, x.shape))[0]
    expected = np.empty_like(x, np.float64)
    for i in range(5):
        s = (x[..., max(0, i - 1):i + 2].astype(np.float64) ** 2).sum(axis=-1)
        expected[..., i] = x[..., i] * (1.5 + 0.3 * s) ** -0.75
    np.testing.assert_allclose(got, expected, rtol=1e-5)
    got = Op("INSTANCE_NORMALIZATION").inp(F32, x).f32(2.0, 0.5, 1e-3).flag(False).run((F32, x.shape))[0]
    m = x.mean(axis=(1, 2), keepdims=True)
    v = ((x - m) ** 2).mean(axis=(1, 2), keepdims=True)
    np.testing.assert_allclose(got, (x - m) * 2.0 / np.sqrt(v + 1e-3) + 0.5, rtol=1e-5, atol=1e-6)


def test_resize_bilinear_and_nearest_float():
    x = np.arange(6, dtype=np.float32).reshape(1, 2, 3, 1)
    got = Op("RESIZE_BILINEAR").inp(F32, x).i32(6, 4).run((F32, (1, 4, 6, 1)))[0][0, :, :, 0]
    # legacy mapping: src = dst * in / out
    ys, xs = np.arange(4) * 0.5, np.arange(6) * 0.5
    expected = np.array([[np.interp(xx, [0, 1, 2], [0, 1, 2]) + 3 * min(yy, 1) for xx in xs] for yy in ys])
    np.testing.assert_allclose(got, expected, rtol=1e-6)
    got = Op("RESIZE_NEAREST_NEIGHBOR").inp(F32, x).i32(6, 4).flag(False).run((F32, (1, 4, 6, 1)))[0]
    expected = x[0, np.floor(ys).astype(int)][:, np.floor(xs).astype(int), 0]
    np.testing.assert_array_equal(got[0, :, :, 0], expected)


def test_batch_matmul_int32_and_adjoint():
    a = np.arange(12, dtype=np.int32).reshape(2, 3, 2)
    b = np.arange(12, dtype=np.int32).reshape(2, 2, 3)
    got = Op("BATCH_MATMUL").inp(I32, a).inp(I32, b).flag(True, True).run((I32, (2, 2, 2)))[0]
    np.testing.assert_array_equal(got, np.swapaxes(a, 1, 2) @ np.swapaxes(b, 1, 2))


def test_zero_batch_conv():
    x = np.zeros((0, 3, 3, 2), np.float32)
    op = Op("CONV_2D").inp(F32, x).const(F32, np.ones((1, 2, 2, 2))).const(F32, [0.0]).i32(1, 1, 1, 0)
    assert op.run((F32, (0, 3, 3, 1)))[0].shape == (0, 3, 3, 1)


def test_run_time_rejection_of_transpose_output_shape():
    x = np.ones((1, 2, 2, 1), np.float32)
    op = Op("TRANSPOSE_CONV_2D").inp(F32, x).const(F32, np.ones((1, 2, 2, 1))).const(F32, [0.0])
    op.inp(I32, [1, 4, 4], dims=(0,)).i32(1, 2, 2, 0).flag(False)
    with pytest.raises(ExecutionError, match="output shape tensor has 3 elements"):
        op.run((F32, (1, 4, 4, 1)))


# --------------------------------------------------------------------------------------------
# Rejections.


def conv_op(name="CONV_2D", x_shape=(1, 4, 4, 2), w_shape=(3, 2, 2, 2), b_len=3, qt=None,
            w_type=None, b_scale=None, b_zp=0, cq=None, x_scale=0.5, w_scale=0.25):
    op = Op(name)
    if qt is None:
        op.inp(F32, np.zeros(x_shape)).const(F32, np.zeros(w_shape)).const(F32, np.zeros(b_len))
    else:
        wt = w_type or qt
        op.inp(qt, np.zeros(x_shape), x_scale, 0)
        op.const(wt, np.zeros(w_shape), 0.0 if wt is Q8PC else w_scale, 0, cq)
        op.const(I32, np.zeros(b_len), x_scale * w_scale if b_scale is None else b_scale, b_zp)
    return op


F_OUT = (F32, (1, 4, 4, 3))
Q_OUT = (Q8A, (1, 4, 4, 3), 1.0, 0)


def test_rejects_bias_scale_mismatch():
    rejects(conv_op(qt=Q8A, b_scale=0.2).i32(1, 1, 1, 0), "bias scale must equal input scale", Q_OUT)


def test_rejects_bias_zero_point():
    rejects(conv_op(qt=Q8A, b_zp=3).i32(1, 1, 1, 0), "zero point 0", Q_OUT)


def test_rejects_float_conv_with_int32_bias():
    op = Op("CONV_2D").inp(F32, np.zeros((1, 4, 4, 2))).const(F32, np.zeros((3, 2, 2, 2)))
    op.const(I32, np.zeros(3)).i32(1, 1, 1, 0)
    rejects(op, "match none of its signatures", F_OUT)


def test_rejects_filter_depth_mismatch():
    rejects(conv_op(w_shape=(3, 2, 2, 5)).i32(1, 1, 1, 0), "filter depth must equal the input depth", F_OUT)


def test_rejects_bias_size():
    rejects(conv_op(b_len=4).i32(1, 1, 1, 0), "4 elements, but the operation has 3 output channels", F_OUT)


def test_rejects_negative_padding():
    rejects(conv_op().i32(-1, 0, 0, 0, 1, 1, 0), "paddings must be >= 0", F_OUT)


def test_rejects_zero_stride():
    rejects(conv_op().i32(1, 0, 1, 0), "strides must be > 0", F_OUT)


def test_rejects_lone_dilation_factor():
    rejects(conv_op().i32(1, 1, 1, 0).flag(False).i32(2), "must be given together", F_OUT)
    rejects(conv_op().i32(0, 1, 0, 1, 1, 1, 0).flag(False).i32(2), "must be given together", F_OUT)


def test_rejects_bad_dilation():
    rejects(conv_op().i32(1, 1, 1, 0).flag(False).i32(0, 1), "dilation factors must be > 0", F_OUT)


def test_rejects_dilation_on_grouped_conv():
    op = conv_op("GROUPED_CONV_2D").i32(1, 1, 1, 1, 0).flag(False).i32(1, 1)
    rejects(op, "match none of its signatures", F_OUT)


def test_rejects_padding_not_smaller_than_filter():
    rejects(conv_op().i32(2, 0, 0, 0, 1, 1, 0), "smaller than the dilated filter's size 2", F_OUT)


def test_rejects_unknown_padding_scheme():
    rejects(conv_op().i32(3, 1, 1, 0), r"must be 0 \(NONE\), 1 \(SAME\) or 2 \(VALID\)", F_OUT)


def test_rejects_per_channel_dimension():
    cq = ChannelQuant((0.1, 0.2), 3)
    op = conv_op(qt=Q8A, w_type=Q8PC, w_shape=(2, 2, 2, 2), b_len=2, cq=cq).i32(1, 1, 1, 0)
    rejects(op, "requires channel dimension 0", (Q8A, (1, 4, 4, 2), 1.0, 0))


def test_rejects_bad_activation_and_rank():
    rejects(conv_op().i32(1, 1, 1, 7), "fused activation is 7", F_OUT)
    rejects(conv_op(x_shape=(4, 4, 2)).i32(1, 1, 1, 0), "input must be 4-D", F_OUT)


def test_rejects_empty_output():
    rejects(conv_op(x_shape=(1, 1, 1, 2)).i32(2, 1, 1, 0), "output size of 0", F_OUT)


def test_rejects_depthwise_multiplier_and_filter():
    op = conv_op("DEPTHWISE_CONV_2D", w_shape=(1, 2, 2, 4), b_len=4).i32(1, 1, 1, 3, 0)
    rejects(op, "depth multiplier 3 = 6", F_OUT)
    op = conv_op("DEPTHWISE_CONV_2D", w_shape=(2, 2, 2, 4), b_len=4).i32(1, 1, 1, 2, 0)
    rejects(op, r"depthwise filter must be \[1, fh, fw, depth_out\]", F_OUT)
    op = conv_op("DEPTHWISE_CONV_2D", w_shape=(1, 2, 2, 4), b_len=4).i32(1, 1, 1, 0, 0)
    rejects(op, "depth multiplier must be > 0", F_OUT)
    cq = ChannelQuant((0.1,) * 4, 0)
    op = conv_op("DEPTHWISE_CONV_2D", qt=Q8A, w_type=Q8PC, w_shape=(4, 2, 2, 4), b_len=4, cq=cq)
    rejects(op.i32(1, 1, 1, 2, 0), "requires channel dimension 3", (Q8A, (1, 4, 4, 4), 1.0, 0))


def test_rejects_grouped_shapes():
    op = conv_op("GROUPED_CONV_2D", x_shape=(1, 4, 4, 4), w_shape=(3, 2, 2, 2)).i32(1, 1, 1, 2, 0).flag(False)
    rejects(op, "not divisible by the 2 groups", F_OUT)
    op = conv_op("GROUPED_CONV_2D", x_shape=(1, 4, 4, 4), w_shape=(4, 2, 2, 1), b_len=4)
    rejects(op.i32(1, 1, 1, 2, 0).flag(False), "groups must equal the input depth 4", F_OUT)


def test_rejects_transpose_output_shape_tensor():
    op = conv_op("TRANSPOSE_CONV_2D").const(I32, [1, 4, 4]).i32(1, 1, 1, 0).flag(False)
    rejects(op, "1-D tensor of 4 elements", F_OUT)


def test_rejects_pool_rules():
    x = np.zeros((1, 4, 4, 1))
    rejects(Op("MAX_POOL_2D").inp(Q8A, x, 0.5, 3).i32(1, 1, 1, 2, 2, 0), "requires the input's",
            (Q8A, (1, 4, 4, 1), 0.25, 3))
    rejects(Op("AVERAGE_POOL_2D").inp(F32, x).i32(1, 1, 1, 0, 2, 0), "filter sizes must be > 0",
            (F32, (1, 4, 4, 1)))
    rejects(Op("L2_POOL_2D").inp(F32, x).i32(0, 2, 0, 0, 1, 1, 2, 2, 0), "smaller than the filter's size 2",
            (F32, (1, 5, 3, 1)))
    rejects(Op("L2_POOL_2D").inp(Q8A, x, 0.5, 0).i32(1, 1, 1, 2, 2, 0), "match none of its signatures",
            (Q8A, (1, 4, 4, 1), 0.5, 0))


def test_rejects_fully_connected_shapes():
    op = Op("FULLY_CONNECTED").inp(F32, np.zeros((1, 1, 1, 1, 6))).const(F32, np.zeros((2, 3)))
    rejects(op.const(F32, np.zeros(2)).i32(0), "rank 2 to 4", (F32, (2, 2)))
    op = Op("FULLY_CONNECTED").inp(F32, np.zeros((2, 5))).const(F32, np.zeros((2, 3)))
    rejects(op.const(F32, np.zeros(2)).i32(0), "not a multiple of the weights' input size 3", (F32, (3, 2)))
    op = Op("FULLY_CONNECTED").inp(Q8A, np.zeros((2, 3)), 0.5, 0).const(Q8A, np.zeros((2, 3)), 0.5, 0)
    rejects(op.const(I32, np.zeros(2), 0.5).i32(0), "bias scale must equal", (Q8A, (2, 2), 1.0, 0))


def test_rejects_batch_matmul_shapes():
    rejects(Op("BATCH_MATMUL").inp(F32, np.zeros((2, 3))).inp(F32, np.zeros((4, 2))),
            "inner dimension 4, but input 0 has 3", (F32, (2, 2)))
    rejects(Op("BATCH_MATMUL").inp(F32, np.zeros((2, 2, 3))).inp(F32, np.zeros((3, 3, 2))),
            "batch sizes must match", (F32, (2, 2, 2)))
    rejects(Op("BATCH_MATMUL").inp(F32, np.zeros((2, 3))).inp(F32, np.zeros((1, 3, 2))),
            "both must have the same rank", (F32, (2, 2)))
    rejects(Op("BATCH_MATMUL").inp(F32, np.zeros(3)).inp(F32, np.zeros((3, 2))), "ranks 2 to 4", (F32, (2,)))


def test_rejects_softmax_family():
    x = np.zeros((2, 3))
    rejects(Op("SOFTMAX").inp(F32, x).f32(0.0), "beta must be > 0", (F32, (2, 3)))
    rejects(Op("SOFTMAX").inp(F32, x).f32(1.0).i32(2), r"outside the range \[-2, 2\)", (F32, (2, 3)))
    rejects(Op("SOFTMAX").inp(Q8A, x, 0.1, 0).f32(1.0), "scale 0.00390625 and zero point 0",
            (Q8A, (2, 3), 1 / 128, 0))
    rejects(Op("LOG_SOFTMAX").inp(F32, x).f32(-1.0).i32(0), "beta must be > 0", (F32, (2, 3)))
    rejects(Op("L2_NORMALIZATION").inp(Q8AS, x, 0.1, 0), "zero point 0 for TENSOR_QUANT8_ASYMM_SIGNED",
            (Q8AS, (2, 3), 1 / 128, 5))
    rejects(Op("LOCAL_RESPONSE_NORMALIZATION").inp(F32, x).i32(-1).f32(1.0, 1.0, 0.5), "radius must be >= 0",
            (F32, (2, 3)))
    rejects(Op("SOFTMAX").inp(F32, np.zeros((1, 1, 1, 1, 2))).f32(1.0), "ranks up to 4",
            (F32, (1, 1, 1, 1, 2)))
    rejects(Op("INSTANCE_NORMALIZATION").inp(F32, x).f32(1.0, 0.0, 1e-3).flag(False), "input must be 4-D",
            (F32, (2, 3)))


def test_rejects_resize_rules():
    x = np.zeros((1, 2, 2, 1))
    rejects(Op("RESIZE_BILINEAR").inp(F32, x).i32(3, 3).flag(False, True, True), "at most one may be true",
            (F32, (1, 3, 3, 1)))
    rejects(Op("RESIZE_NEAREST_NEIGHBOR").inp(F32, x).i32(0, 3).flag(False), "output width of 0",
            (F32, (1, 3, 0, 1)))
    rejects(Op("RESIZE_BILINEAR").inp(F32, x).f32(0.2, 1.0), "output width of 0", (F32, (1, 2, 0, 1)))


def test_window_reader_positions():
    """Explicit / implicit forms read the same parameters from their documented positions."""
    vals = {3: 1, 4: 2, 5: 3, 6: 4, 7: 5, 8: 6, 9: 7, 10: 2, 11: True, 12: 8, 13: 9}
    win = nn.read_window(nn.DEPTHWISE_INPUTS, "explicit", 14, lambda i, d=None: vals.get(i, d))
    assert (win.pads, win.stride, win.extra, win.activation, win.nchw, win.dilation) == (
        (3, 4, 1, 2), (6, 5), 7, 2, True, (9, 8))
    vals = {1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 1}
    win = nn.read_window(nn.POOL_INPUTS, "implicit", 7, lambda i, d=None: vals.get(i, d))
    assert (win.scheme, win.stride, win.filter, win.activation, win.nchw) == (1, (3, 2), (5, 4), 1, False)
    assert math.isclose(nn.conv_output_size(7, 3, 2, 1, 1), 4)


def test_rejects_dilation_without_layout():
    # implicit form with the two dilation factors where the layout BOOL belongs
    rejects(conv_op().i32(1, 1, 1, 0, 2, 2), "match none of its signatures", F_OUT)


def test_rejects_resize_negative_scale():
    rejects(Op("RESIZE_BILINEAR").inp(F32, np.zeros((1, 2, 2, 1))).f32(-1.0, 1.0), "scales must be > 0",
            (F32, (1, 2, 2, 1)))


def test_rejects_type_combinations_the_spec_excludes():
    x = np.zeros((2, 3))
    rejects(Op("BATCH_MATMUL").inp(Q8A, x, 0.5, 0).inp(Q8A, x.T, 0.5, 0), "match none of its signatures",
            (Q8A, (2, 2), 0.5, 0))
    rejects(Op("RESIZE_BILINEAR").inp(F16, np.zeros((1, 2, 2, 1))).f32(2.0, 2.0), "match none of its signatures",
            (F16, (1, 4, 4, 1)))
    op = Op("CONV_2D").inp(Q8A, np.zeros((1, 4, 4, 2)), 0.5, 0).const(Q8AS, np.zeros((3, 2, 2, 2)), 0.5, 0)
    rejects(op.const(I32, np.zeros(3), 0.25).i32(1, 1, 1, 0), "match none of its signatures", Q_OUT)
    op = Op("FULLY_CONNECTED").inp(Q8A, x, 0.5, 0).const(Q8PC, np.zeros((2, 3)), cq=ChannelQuant((0.1, 0.1), 0))
    rejects(op.const(I32, np.zeros(2)).i32(0), "match none of its signatures", (Q8A, (2, 2), 1.0, 0))
