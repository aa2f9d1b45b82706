"""Layer programs on the ISA simulator, bit-exact with the golden model (through the registry) and
with an independent NumPy reference, on every preset."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from nnaccel.sim import programs as P
from nnaccel.sim.isasim import find_conflicts

from nnaccel import registry
from nnaccel.golden.interpreter import run_model
from nnaccel.hwconfig import PRESETS
from nnaccel.model import ChannelQuant, ModelBuilder
from nnaccel.model import OperandType as T
from nnaccel.quant import activation_range_quantized, multiply_by_quantized_multiplier, quantize_multiplier

CONFIGS = list(PRESETS)


@pytest.fixture(autouse=True)
def race_free(monkeypatch):
    """Every program run here must also be free of races under its own schedule."""
    original = P.LayerProgram.run

    def checked(self, *args, **kwargs):
        conflicts = find_conflicts(self.words, self.config)
        assert not conflicts, "; ".join(map(str, conflicts))
        return original(self, *args, **kwargs)
    monkeypatch.setattr(P.LayerProgram, "run", checked)
DTYPES = [np.uint8, np.int8]
QT = {np.uint8: T.TENSOR_QUANT8_ASYMM, np.int8: T.TENSOR_QUANT8_ASYMM_SIGNED}


def require(op):
    if not registry.get(op).implemented:
        pytest.skip(f"the golden {op} kernel is not implemented yet")


def rand(rng, dtype, shape):
    info = np.iinfo(dtype)
    return rng.integers(info.min, info.max + 1, shape).astype(dtype)


def zp(dtype, u, s):
    return u if dtype == np.uint8 else s


def requant_ref(acc, real_scales, out_q, activation, dtype):
    """Independent requantization: per-channel (m, e) from the real scales, TFLite rounding."""
    ms = [quantize_multiplier(float(r)) for r in np.broadcast_to(real_scales, acc.shape[-1:])]
    m = np.array([a for a, _ in ms])
    e = np.array([b for _, b in ms])
    info = np.iinfo(dtype)
    lo, hi = activation_range_quantized(activation, out_q[0], out_q[1], int(info.min), int(info.max))
    return np.clip(multiply_by_quantized_multiplier(acc, m, e) + out_q[1], lo, hi).astype(dtype)


def conv_ref(x, w, bias, za, zw, stride, pads, depthwise):
    """Direct NHWC convolution in int64, one filter tap at a time."""
    pt, pb, pl, pr = pads
    xp = np.pad(x.astype(np.int64) - za, ((0, 0), (pt, pb), (pl, pr), (0, 0)))
    kh, kw = w.shape[1:3]
    oh = (xp.shape[1] - kh) // stride[0] + 1
    ow = (xp.shape[2] - kw) // stride[1] + 1
    wz = w.astype(np.int64) - zw
    acc = 0
    for i in range(kh):
        for j in range(kw):
            tap = xp[:, i:i + (oh - 1) * stride[0] + 1:stride[0], j:j + (ow - 1) * stride[1] + 1:stride[1]]
            acc = acc + (tap * wz[0, i, j] if depthwise else tap @ wz[:, i, j, :].T)
    return acc + bias


# ------------------------------------------------------------------------------ FULLY_CONNECTED
@pytest.mark.parametrize("config", CONFIGS)
@pytest.mark.parametrize("dtype", DTYPES)
def test_fully_connected(config, dtype):
    rng = np.random.default_rng(1)
    M, K, N = 37, 45, 19                                     # none a multiple of any array size
    x, w = rand(rng, dtype, (M, K)), rand(rng, dtype, (N, K))
    bias = rng.integers(-3000, 3000, N).astype(np.int32)
    xq, wq, oq = (0.05, zp(dtype, 3, -3)), (0.02, zp(dtype, 130, 2)), (0.9, zp(dtype, 120, -10))
    mb = ModelBuilder()
    i = mb.add_operand(QT[dtype], [M, K], *xq)
    wi = mb.add_constant(QT[dtype], w, scale=wq[0], zero_point=wq[1])
    bi = mb.add_constant(T.TENSOR_INT32, bias, scale=xq[0] * wq[0])
    o = mb.add_operand(QT[dtype], [M, N], *oq)
    mb.add_operation("FULLY_CONNECTED", [i, wi, bi, mb.add_constant(T.INT32, 1)], [o])
    mb.identify_inputs_and_outputs([i], [o])
    (golden,) = run_model(mb.finish(), [x])
    out, res = P.fully_connected(config, x, w, bias, xq, wq, oq, activation=1).run()
    acc = (x.astype(np.int64) - xq[1]) @ (w.astype(np.int64) - wq[1]).T + bias
    assert (out == requant_ref(acc, xq[0] * wq[0] / oq[0], oq, 1, dtype)).all()
    assert (out == golden).all()
    assert res.macs >= M * N * K


def test_fully_connected_multi_block_plan():
    """Several row blocks and output-tile groups (double-buffer token pattern under pressure)."""
    rng = np.random.default_rng(2)
    x, w = rand(rng, np.uint8, (50, 30)), rand(rng, np.uint8, (23, 30))
    bias = rng.integers(-300, 300, 23)
    xq, wq, oq = (0.1, 7), (0.05, 100), (2.0, 128)
    out, _ = P.fully_connected("tiny", x, w, bias, xq, wq, oq, plan=(16, 2)).run()
    acc = (x.astype(np.int64) - 7) @ (w.astype(np.int64) - 100).T + bias
    assert (out == requant_ref(acc, 0.1 * 0.05 / 2.0, oq, 0, np.uint8)).all()


# ------------------------------------------------------------------------------ CONV_2D
def conv_model(x, w, bias, xq, wq, oq, dtype, stride, activation, depthwise=False, per_channel=None):
    mb = ModelBuilder()
    i = mb.add_operand(QT[dtype], x.shape, *xq)
    if per_channel is not None:
        wi = mb.add_constant(T.TENSOR_QUANT8_SYMM_PER_CHANNEL, w,
                             channel_quant=ChannelQuant(tuple(per_channel), 0 if not depthwise else 3))
        bi = mb.add_constant(T.TENSOR_INT32, bias)
    else:
        wi = mb.add_constant(QT[dtype], w, scale=wq[0], zero_point=wq[1])
        bi = mb.add_constant(T.TENSOR_INT32, bias, scale=xq[0] * wq[0])
    h, wd = x.shape[1:3]
    oh, ow = -(-h // stride[0]), -(-wd // stride[1])
    cout = w.shape[3] if depthwise else w.shape[0]
    o = mb.add_operand(QT[dtype], [x.shape[0], oh, ow, cout], *oq)
    scalars = [1, stride[1], stride[0]] + ([1] if depthwise else []) + [activation]  # SAME = 1
    ins = [i, wi, bi] + [mb.add_constant(T.INT32, v) for v in scalars]
    mb.add_operation("DEPTHWISE_CONV_2D" if depthwise else "CONV_2D", ins, [o])
    mb.identify_inputs_and_outputs([i], [o])
    return mb.finish()


@pytest.mark.parametrize("config", CONFIGS)
@pytest.mark.parametrize("dtype", DTYPES)
def test_conv2d_3x3_same_stride2(config, dtype):
    rng = np.random.default_rng(3)
    x = rand(rng, dtype, (1, 9, 11, 6))
    w = rand(rng, dtype, (10, 3, 3, 6))
    bias = rng.integers(-2000, 2000, 10).astype(np.int32)
    xq, wq, oq = (0.04, zp(dtype, 120, -5)), (0.03, zp(dtype, 128, 1)), (0.7, zp(dtype, 100, 3))
    pads = P.same_padding(9, 11, 3, 3, 2, 2)
    out, _ = P.conv2d(config, x, w, bias, xq, wq, oq, stride=(2, 2), pads=pads, activation=3).run()
    ref = requant_ref(conv_ref(x, w, bias, xq[1], wq[1], (2, 2), pads, False), xq[0] * wq[0] / oq[0],
                      oq, 3, dtype)
    assert out.shape == (1, 5, 6, 10) and (out == ref).all()
    require("CONV_2D")
    (golden,) = run_model(conv_model(x, w, bias, xq, wq, oq, dtype, (2, 2), 3), [x])
    assert (out == golden).all()


@pytest.mark.parametrize("config", ["tiny", "base"])
def test_conv2d_per_channel(config):
    rng = np.random.default_rng(4)
    x = rand(rng, np.int8, (2, 7, 6, 5))
    w = rand(rng, np.int8, (7, 3, 3, 5))
    scales = rng.uniform(0.005, 0.05, 7)
    xq, oq = (0.05, -4), (0.4, 2)
    bias = rng.integers(-900, 900, 7).astype(np.int32)
    pads = P.same_padding(7, 6, 3, 3, 2, 2)
    out, _ = P.conv2d(config, x, w, bias, xq, (scales, 0), oq, stride=(2, 2), pads=pads).run()
    ref = requant_ref(conv_ref(x, w, bias, -4, 0, (2, 2), pads, False), xq[0] * scales / oq[0], oq, 0, np.int8)
    assert (out == ref).all()
    require("CONV_2D")
    (golden,) = run_model(conv_model(x, w, bias, xq, None, oq, np.int8, (2, 2), 0, per_channel=scales), [x])
    assert (out == golden).all()


# ------------------------------------------------------------------------------ DEPTHWISE
@pytest.mark.parametrize("config", CONFIGS)
@pytest.mark.parametrize("dtype", DTYPES)
def test_depthwise_conv2d(config, dtype):
    rng = np.random.default_rng(5)
    x = rand(rng, dtype, (1, 8, 7, 11))
    w = rand(rng, dtype, (1, 3, 3, 11))
    bias = rng.integers(-800, 800, 11).astype(np.int32)
    xq, wq, oq = (0.06, zp(dtype, 128, 0)), (0.02, zp(dtype, 110, -3)), (0.3, zp(dtype, 130, 1))
    pads = P.same_padding(8, 7, 3, 3, 1, 1)
    out, _ = P.conv2d(config, x, w, bias, xq, wq, oq, stride=(1, 1), pads=pads, activation=1,
                      depthwise=True).run()
    ref = requant_ref(conv_ref(x, w, bias, xq[1], wq[1], (1, 1), pads, True), xq[0] * wq[0] / oq[0],
                      oq, 1, dtype)
    assert (out == ref).all()
    require("DEPTHWISE_CONV_2D")
    (golden,) = run_model(conv_model(x, w, bias, xq, wq, oq, dtype, (1, 1), 1, depthwise=True), [x])
    assert (out == golden).all()


# ------------------------------------------------------------------------------ pooling
def pool_model(op, x, q, dtype, filt, stride, pads, activation):
    mb = ModelBuilder()
    i = mb.add_operand(QT[dtype], x.shape, *q)
    pt, pb, pl, pr = pads
    h, w = x.shape[1:3]
    oh, ow = (h + pt + pb - filt[0]) // stride[0] + 1, (w + pl + pr - filt[1]) // stride[1] + 1
    o = mb.add_operand(QT[dtype], [x.shape[0], oh, ow, x.shape[3]], *q)
    scalars = [pl, pr, pt, pb, stride[1], stride[0], filt[1], filt[0], activation]
    mb.add_operation(op, [i] + [mb.add_constant(T.INT32, v) for v in scalars], [o])
    mb.identify_inputs_and_outputs([i], [o])
    return mb.finish()


def pool_ref(kind, x, filt, stride, pads, q, activation, dtype):
    pt, pb, pl, pr = pads
    h, w = x.shape[1:3]
    oh, ow = (h + pt + pb - filt[0]) // stride[0] + 1, (w + pl + pr - filt[1]) // stride[1] + 1
    out = np.zeros((x.shape[0], oh, ow, x.shape[3]), np.int64)
    xi = x.astype(np.int64)
    for y in range(oh):
        for xx in range(ow):
            y0, x0 = y * stride[0] - pt, xx * stride[1] - pl
            win = xi[:, max(y0, 0):min(y0 + filt[0], h), max(x0, 0):min(x0 + filt[1], w)]
            if kind == "max":
                out[:, y, xx] = win.max(axis=(1, 2))
            else:
                s, n = win.sum(axis=(1, 2)), win.shape[1] * win.shape[2]
                out[:, y, xx] = np.sign(s) * ((np.abs(s) + n // 2) // n)
    info = np.iinfo(dtype)
    lo, hi = activation_range_quantized(activation, q[0], q[1], int(info.min), int(info.max))
    return np.clip(out, lo, hi).astype(dtype)


@pytest.mark.parametrize("config", CONFIGS)
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("kind", ["max", "avg"])
def test_pool2d(config, dtype, kind):
    rng = np.random.default_rng(6)
    x = rand(rng, dtype, (2, 9, 8, 6))
    q = (0.1, zp(dtype, 30, -100))
    filt, stride = (3, 3), (2, 2)
    pads = P.same_padding(9, 8, 3, 3, 2, 2)
    act = 1 if kind == "max" else 3
    out, _ = P.pool2d(config, kind, x, q, filt, stride, pads, activation=act).run()
    assert (out == pool_ref(kind, x, filt, stride, pads, q, act, dtype)).all()
    op = "MAX_POOL_2D" if kind == "max" else "AVERAGE_POOL_2D"
    require(op)
    (golden,) = run_model(pool_model(op, x, q, dtype, filt, stride, pads, act), [x])
    assert (out == golden).all()


# ------------------------------------------------------------------------------ elementwise
@pytest.mark.parametrize("config", CONFIGS)
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("op", ["ADD", "SUB", "MUL"])
def test_elementwise(config, dtype, op):
    rng = np.random.default_rng(7)
    shape = (3, 7, 5)                                        # 105 elements: a partial last line
    a, b = rand(rng, dtype, shape), rand(rng, dtype, shape)
    aq, bq, oq = (0.07, zp(dtype, 10, -20)), (0.03, zp(dtype, 200, 60)), (0.09, zp(dtype, 128, 0))
    mb = ModelBuilder()
    ia, ib = mb.add_operand(QT[dtype], shape, *aq), mb.add_operand(QT[dtype], shape, *bq)
    o = mb.add_operand(QT[dtype], shape, *oq)
    mb.add_operation(op, [ia, ib, mb.add_constant(T.INT32, 1)], [o])
    mb.identify_inputs_and_outputs([ia, ib], [o])
    out, _ = P.elementwise(config, op, a, b, aq, bq, oq, activation=1).run()
    if op == "MUL":   # independent reference for MUL; ADD / SUB below
        ref = requant_ref((a.astype(np.int64) - aq[1]) * (b.astype(np.int64) - bq[1]),
                          aq[0] * bq[0] / oq[0], oq, 1, dtype)
        assert (out == ref).all()
    else:
        # float reference: the fixed-point result is within one step of the real value
        real = (a.astype(np.float64) - aq[1]) * aq[0] + (1 if op == "ADD" else -1) * \
            (b.astype(np.float64) - bq[1]) * bq[0]
        info = np.iinfo(dtype)
        lo, hi = activation_range_quantized(1, oq[0], oq[1], int(info.min), int(info.max))
        expect = np.clip(np.round(real / oq[0]) + oq[1], lo, hi)
        assert np.abs(out.astype(np.int64) - expect).max() <= 1
    require(op)
    (golden,) = run_model(mb.finish(), [a, b])
    assert (out == golden).all()


# ------------------------------------------------------------------------------ LUT activations
@pytest.mark.parametrize("config", CONFIGS)
@pytest.mark.parametrize("dtype", DTYPES)
def test_logistic_lut(config, dtype):
    rng = np.random.default_rng(8)
    x = rand(rng, dtype, (2, 9, 7))
    xq = (0.06, zp(dtype, 128, 5))
    oq = (1 / 256, zp(dtype, 0, -128))                      # the spec's LOGISTIC output quantization
    # Independent table: float logistic, rounded (the fixed-point kernel may differ by one step).
    v = np.arange(256, dtype=np.uint8).view(dtype).astype(np.float64)
    float_table = np.clip(np.round(1 / (1 + np.exp(-(v - xq[1]) * xq[0])) * 256) + oq[1],
                          np.iinfo(dtype).min, np.iinfo(dtype).max)
    require("LOGISTIC")
    table = P.golden_table("LOGISTIC", xq, oq, dtype)
    assert np.abs(table.astype(np.uint8).view(dtype).astype(np.int64) - float_table).max() <= 1
    out, _ = P.lookup(config, x, table, "LOGISTIC").run()
    assert (out.view(np.uint8) == table[x.view(np.uint8)]).all()
    mb = ModelBuilder()
    i, o = mb.add_operand(QT[dtype], x.shape, *xq), mb.add_operand(QT[dtype], x.shape, *oq)
    mb.add_operation("LOGISTIC", [i], [o])
    mb.identify_inputs_and_outputs([i], [o])
    (golden,) = run_model(mb.finish(), [x])
    assert (out == golden).all()


@pytest.mark.parametrize("op", ["TANH", "HARD_SWISH"])   # NNAPI's ELU has float signatures only
def test_other_lut_activations(op):
    dtype = np.int8
    require(op)
    rng = np.random.default_rng(9)
    x = rand(rng, dtype, (5, 13))
    xq = (0.05, -3)
    oq = (1 / 128, 0) if op == "TANH" else (0.04, -10)
    mb = ModelBuilder()
    i, o = mb.add_operand(QT[dtype], x.shape, *xq), mb.add_operand(QT[dtype], x.shape, *oq)
    mb.add_operation(op, [i], [o])
    mb.identify_inputs_and_outputs([i], [o])
    (golden,) = run_model(mb.finish(), [x])
    table = P.golden_table(op, xq, oq, dtype)
    out, _ = P.lookup("small", x, table, op).run()
    assert (out == golden).all()


# ------------------------------------------------------------------------------ property-based


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(config=st.sampled_from(CONFIGS), m=st.integers(1, 40), k=st.integers(1, 70),
       n=st.integers(1, 40), signed=st.booleans(), act=st.integers(0, 3), seed=st.integers(0, 2 ** 16))
def test_fully_connected_property(config, m, k, n, signed, act, seed):
    dtype = np.int8 if signed else np.uint8
    rng = np.random.default_rng(seed)
    x, w = rand(rng, dtype, (m, k)), rand(rng, dtype, (n, k))
    bias = rng.integers(-5000, 5000, n)
    za, zw = (int(v) for v in rng.integers(np.iinfo(dtype).min, int(np.iinfo(dtype).max) + 1, 2))
    xq, wq, oq = (0.05, za), (0.03, zw), (float(rng.uniform(0.05, 5)), zp(dtype, 128, 0))
    out, _ = P.fully_connected(config, x, w, bias, xq, wq, oq, activation=act).run()
    acc = (x.astype(np.int64) - za) @ (w.astype(np.int64) - zw).T + bias
    assert (out == requant_ref(acc, xq[0] * wq[0] / oq[0], oq, act, dtype)).all()
