"""Golden recurrent / projection / random operations: independent checks and rejections.

Expected values come from hand-written NumPy versions of the spec formulas (float paths), from an
independent FarmHash implementation (fixed Fingerprint64 vectors computed with Google's C++
FarmHash), or from properties (sparse vs dense LSH, sample frequencies). The conformance vectors
themselves are run by ``nnaccel cts`` (and tests/test_cts.py).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nnaccel.errors import ExecutionError, ModelError
from nnaccel.golden.interpreter import Interpreter
from nnaccel.golden.recurrent import fingerprint64
from nnaccel.model import ModelBuilder, OperandType
from nnaccel.quant import fixed16_logistic, fixed16_tanh

T = OperandType
F32, F16 = T.TENSOR_FLOAT32, T.TENSOR_FLOAT16


# ---------------------------------------------------------------------------------------------
# Model building helpers
# ---------------------------------------------------------------------------------------------

def tensor(t, value, **q):
    return ("tensor", t, value, q)


def scalar(t, value):
    return ("scalar", t, value, {})


def omitted(t=F32, dims=(0,)):
    quantized = t in (T.TENSOR_QUANT8_SYMM, T.TENSOR_QUANT16_SYMM)
    return ("omitted", t, dims, {"scale": 1.0} if quantized else {})


def fed(t, value, declared=None, **q):
    """A graph input fed at run time (``value`` None = fed as omitted)."""
    return ("input", t, (value, declared), q)


def run_op(op, inputs, outputs, seed=0, relaxed=False):
    """Builds a one-operation model (constants unless ``fed``) and runs it on the golden model.

    ``outputs`` is a list of ``(type, dims)`` or ``(type, dims, quant kwargs)``.
    """
    b = ModelBuilder(relaxed=relaxed)
    idx, graph_inputs, feeds = [], [], []
    for kind, t, value, q in inputs:
        if kind == "omitted":
            i = b.add_operand(t, value, **q)
            b.set_operand_value(i, None)
            idx.append(i)
        elif kind == "scalar":
            idx.append(b.add_constant(t, value))
        elif kind == "input":
            arr, declared = value
            dims = declared if declared is not None else np.shape(arr)
            i = b.add_operand(t, dims, **q)
            graph_inputs.append(i)
            feeds.append(None if arr is None else np.asarray(arr))
            idx.append(i)
        else:
            arr = np.asarray(value)
            idx.append(b.add_constant(t, arr, arr.shape, **q))
    outs = [b.add_operand(o[0], o[1], **(o[2] if len(o) > 2 else {})) for o in outputs]
    b.add_operation(op, idx, outs)
    b.identify_inputs_and_outputs(graph_inputs, outs)
    return Interpreter(b.finish(), seed=seed).run(feeds)


def rnd(rng, *shape, scale=0.5):
    return (rng.standard_normal(shape) * scale).astype(np.float32)


def act_np(x, act):
    return {0: x, 1: np.maximum(x, 0), 2: np.clip(x, -1, 1), 3: np.clip(x, 0, 6)}[act]


# ---------------------------------------------------------------------------------------------
# RNN family
# ---------------------------------------------------------------------------------------------

def rnn_ref(xs, h, w, r, b, act, aux=None, aux_w=None, reverse=False):
    """Hand-written RNN over a time-major sequence (float64)."""
    outs = np.zeros((xs.shape[0], xs.shape[1], w.shape[0]))
    steps = range(xs.shape[0] - 1, -1, -1) if reverse else range(xs.shape[0])
    h = h.astype(np.float64)
    for t in steps:
        pre = xs[t] @ w.T.astype(np.float64) + h @ r.T + b
        if aux_w is not None:
            pre = pre + aux[t] @ aux_w.T
        h = act_np(pre, act)
        outs[t] = h
    return outs, h


def test_rnn_matches_numpy():
    rng = np.random.default_rng(0)
    x, w, r, b, h = rnd(rng, 2, 3), rnd(rng, 4, 3), rnd(rng, 4, 4), rnd(rng, 4), rnd(rng, 2, 4)
    state, out = run_op("RNN", [tensor(F32, x), tensor(F32, w), tensor(F32, r), tensor(F32, b),
                                tensor(F32, h), scalar(T.INT32, 1)],
                        [(F32, (2, 4)), (F32, (2, 4))])
    expected = np.maximum(x @ w.T + h @ r.T + b, 0)
    np.testing.assert_allclose(out, expected, atol=1e-6)
    np.testing.assert_allclose(state, expected, atol=1e-6)


def test_rnn_float16_close_to_float32_formula():
    rng = np.random.default_rng(1)
    x, w, r, b, h = rnd(rng, 2, 3), rnd(rng, 4, 3), rnd(rng, 4, 4), rnd(rng, 4), rnd(rng, 2, 4)
    h16 = [a.astype(np.float16) for a in (x, w, r, b, h)]
    _, out = run_op("RNN", [tensor(F16, a) for a in h16] + [scalar(T.INT32, 0)],
                    [(F16, (2, 4)), (F16, (2, 4))])
    assert out.dtype == np.float16
    x, w, r, b, h = (a.astype(np.float64) for a in h16)
    np.testing.assert_allclose(out.astype(np.float64), x @ w.T + h @ r.T + b, atol=5e-3, rtol=5e-3)


@settings(max_examples=15, deadline=None)
@given(st.integers(1, 3), st.integers(1, 4), st.integers(1, 4), st.integers(1, 5),
       st.booleans(), st.sampled_from([0, 1, 3]), st.integers(0, 2**31 - 1))
def test_unidirectional_rnn_matches_loop(batch, steps, size, units, time_major, act, seed):
    rng = np.random.default_rng(seed)
    xs = rnd(rng, steps, batch, size)
    w, r, b, h = rnd(rng, units, size), rnd(rng, units, units), rnd(rng, units), rnd(rng, batch, units)
    x_in = xs if time_major else np.swapaxes(xs, 0, 1).copy()
    out_shape = (steps, batch, units) if time_major else (batch, steps, units)
    out, state = run_op("UNIDIRECTIONAL_SEQUENCE_RNN",
                        [tensor(F32, x_in), tensor(F32, w), tensor(F32, r), tensor(F32, b),
                         tensor(F32, h), scalar(T.INT32, act), scalar(T.INT32, int(time_major))],
                        [(F32, out_shape), (F32, (batch, units))])
    ref, last = rnn_ref(xs, h, w, r, b, act)
    if not time_major:
        ref = np.swapaxes(ref, 0, 1)
    np.testing.assert_allclose(out, ref, atol=1e-5, rtol=1e-5)
    np.testing.assert_allclose(state, last, atol=1e-5, rtol=1e-5)


def _bidi_rnn_inputs(rng, steps=3, batch=2, size=3, fw=4, bw=2, aux_size=None, cross=False,
                     time_major=True, merge=False):
    xs = rnd(rng, steps, batch, size)
    p = {"fw": (rnd(rng, fw, size), rnd(rng, fw, fw), rnd(rng, fw), rnd(rng, batch, fw)),
         "bw_size": aux_size if (aux_size and not cross) else size}
    p["bw"] = (rnd(rng, bw, p["bw_size"]), rnd(rng, bw, bw), rnd(rng, bw), rnd(rng, batch, bw))
    aux = rnd(rng, steps, batch, aux_size) if aux_size else None
    aux_w = (rnd(rng, fw, aux_size), rnd(rng, bw, aux_size)) if cross else None

    def layout(a):
        return a if time_major else np.swapaxes(a, 0, 1).copy()

    ins = [tensor(F32, layout(xs))] + [tensor(F32, a) for a in p["fw"] + p["bw"]]
    ins.append(tensor(F32, layout(aux)) if aux is not None else omitted())
    ins += [tensor(F32, a) for a in aux_w] if cross else [omitted(), omitted()]
    ins += [scalar(T.INT32, 1), scalar(T.BOOL, time_major), scalar(T.BOOL, merge)]
    return xs, p, aux, aux_w, ins


@pytest.mark.parametrize("mode", ["none", "parallel", "cross"])
@pytest.mark.parametrize("merge", [False, True])
def test_bidirectional_rnn_modes(mode, merge):
    rng = np.random.default_rng(2)
    aux_size = {"none": None, "parallel": 5, "cross": 3}[mode]
    xs, p, aux, aux_w, ins = _bidi_rnn_inputs(rng, aux_size=aux_size, cross=mode == "cross",
                                             time_major=False, merge=merge)
    steps, batch = xs.shape[:2]
    fw_out = (F32, (batch, steps, 6 if merge else 4))
    outs = [fw_out] if merge else [fw_out, (F32, (batch, steps, 2))]
    outs += [(F32, (batch, 4)), (F32, (batch, 2))]
    got = run_op("BIDIRECTIONAL_SEQUENCE_RNN", ins, outs)
    fw_ref, fw_h = rnn_ref(xs, p["fw"][3], *p["fw"][:3], 1, aux,
                           aux_w[0] if aux_w else None)
    bw_in = aux if mode == "parallel" else xs
    bw_ref, bw_h = rnn_ref(bw_in, p["bw"][3], *p["bw"][:3], 1, aux,
                           aux_w[1] if aux_w else None, reverse=True)
    refs = [np.concatenate([fw_ref, bw_ref], axis=2)] if merge else [fw_ref, bw_ref]
    refs = [np.swapaxes(a, 0, 1) for a in refs] + [fw_h, bw_h]
    assert len(got) == len(refs)
    for g, e in zip(got, refs):
        np.testing.assert_allclose(g, e, atol=1e-5, rtol=1e-5)


def _rnn_inputs(rng, act=0, w_shape=(4, 3)):
    return [tensor(F32, rnd(rng, 2, 3)), tensor(F32, rnd(rng, *w_shape)),
            tensor(F32, rnd(rng, 4, 4)), tensor(F32, rnd(rng, 4)), tensor(F32, rnd(rng, 2, 4)),
            scalar(T.INT32, act)]


def test_rnn_rejections():
    rng = np.random.default_rng(3)
    outs = [(F32, (2, 4)), (F32, (2, 4))]
    with pytest.raises(ModelError, match=r"input 1 .*must match the input size \(3\)"):
        run_op("RNN", _rnn_inputs(rng, w_shape=(4, 5)), outs)
    with pytest.raises(ModelError, match="fused activation must be one of"):
        run_op("RNN", _rnn_inputs(rng, act=5), outs)
    ins = _rnn_inputs(rng)
    ins[4] = tensor(F32, rnd(rng, 3, 4))
    with pytest.raises(ModelError, match=r"hidden state must match the batch size \(2\)"):
        run_op("RNN", ins, outs)


def test_rnn_runtime_shape_mismatch_is_an_execution_error():
    rng = np.random.default_rng(4)
    ins = _rnn_inputs(rng)
    ins[1] = fed(F32, rnd(rng, 4, 5), declared=(0, 0))  # unknown until run time
    with pytest.raises(ExecutionError, match="must match the input size"):
        run_op("RNN", ins, [(F32, (2, 4)), (F32, (2, 4))])


def test_sequence_rnn_rejections():
    rng = np.random.default_rng(5)
    ins = [tensor(F32, rnd(rng, 2, 3, 3)), tensor(F32, rnd(rng, 4, 3)), tensor(F32, rnd(rng, 4, 4)),
           tensor(F32, rnd(rng, 4)), tensor(F32, rnd(rng, 2, 4)), scalar(T.INT32, 0),
           scalar(T.INT32, 2)]
    with pytest.raises(ModelError, match="timeMajor must be 0 or 1"):
        run_op("UNIDIRECTIONAL_SEQUENCE_RNN", ins, [(F32, (2, 3, 4))])
    _, _, _, _, bins = _bidi_rnn_inputs(rng)
    bins[10] = tensor(F32, rnd(rng, 4, 3))  # forward aux weights without aux input
    with pytest.raises(ModelError, match="unsupported combination"):
        run_op("BIDIRECTIONAL_SEQUENCE_RNN", bins, [(F32, (3, 2, 4)), (F32, (3, 2, 2))])
    _, _, _, _, bins = _bidi_rnn_inputs(rng, merge=True)
    with pytest.raises(ModelError, match="must have 1 or 3 outputs, but it has 2"):
        run_op("BIDIRECTIONAL_SEQUENCE_RNN", bins, [(F32, (3, 2, 6)), (F32, (3, 2, 2))])


# ---------------------------------------------------------------------------------------------
# SVDF
# ---------------------------------------------------------------------------------------------

def svdf_ref(x, wf, wt, bias, state, rank, act):
    """SVDF written element by element (state: [batch, filters * memory])."""
    batch, filters, memory = x.shape[0], wf.shape[0], wt.shape[1]
    units = filters // rank
    st_in = state.reshape(batch, filters, memory).astype(np.float64)
    new_state = np.zeros_like(st_in)
    out = np.zeros((batch, units))
    for b in range(batch):
        for f in range(filters):
            # The newest activation replaces the last memory slot, then the memory shifts.
            mem = [st_in[b, f, m] for m in range(memory - 1)] + [float(np.dot(wf[f], x[b]))]
            acc = sum(wt[f, m] * mem[m] for m in range(memory))
            out[b, f // rank] += acc
            new_state[b, f, :memory - 1] = mem[1:]
        if bias is not None:
            out[b] += bias
    return new_state.reshape(batch, -1), act_np(out, act)


@pytest.mark.parametrize("with_bias", [False, True])
def test_svdf_matches_formula(with_bias):
    rng = np.random.default_rng(6)
    batch, size, rank, units, memory = 2, 3, 2, 3, 4
    filters = rank * units
    x, wf, wt = rnd(rng, batch, size), rnd(rng, filters, size), rnd(rng, filters, memory)
    bias = rnd(rng, units) if with_bias else None
    state = rnd(rng, batch, filters * memory)
    new_state, out = run_op("SVDF", [tensor(F32, x), tensor(F32, wf), tensor(F32, wt),
                                     tensor(F32, bias) if with_bias else omitted(),
                                     tensor(F32, state), scalar(T.INT32, rank),
                                     scalar(T.INT32, 1)],
                            [(F32, (batch, filters * memory)), (F32, (batch, units))])
    ref_state, ref_out = svdf_ref(x, wf, wt, bias, state, rank, 1)
    np.testing.assert_allclose(out, ref_out, atol=1e-5)
    np.testing.assert_allclose(new_state, ref_state, atol=1e-5)


def test_svdf_rejections():
    rng = np.random.default_rng(7)

    def ins(rank=2, filters=6, state_cols=24):
        return [tensor(F32, rnd(rng, 2, 3)), tensor(F32, rnd(rng, filters, 3)),
                tensor(F32, rnd(rng, filters, 4)), omitted(),
                tensor(F32, rnd(rng, 2, state_cols)), scalar(T.INT32, rank), scalar(T.INT32, 0)]

    outs = [(F32, (2, 24)), (F32, (2, 3))]
    with pytest.raises(ModelError, match="not a multiple of the rank 4"):
        run_op("SVDF", ins(rank=4), outs)
    with pytest.raises(ModelError, match="rank must be positive"):
        run_op("SVDF", ins(rank=0), outs)
    with pytest.raises(ModelError, match=r"must match memory_size \* num_units \* rank \(24\)"):
        run_op("SVDF", ins(state_cols=18), outs)


# ---------------------------------------------------------------------------------------------
# LSH_PROJECTION
# ---------------------------------------------------------------------------------------------

#: FarmHash Fingerprint64 of fixed strings, from Google's C++ FarmHash (pyfarmhash).
FARMHASH_VECTORS = [
    (b"", 0x9AE16A3B2F90404F), (b"a", 0xB3454265B6DF75E3), (b"abcd", 0x1A5502DE4A1F8101),
    (b"hello world", 0x588FB7478BD6B01B), (b"0123456789abcdef0", 0x6DEB36B4A021A909),
    (b"x" * 40, 0xEBF8E8AEAC993C94), (b"y" * 100, 0xED9BC2D00A124603),
]


@pytest.mark.parametrize("key,expected", FARMHASH_VECTORS)
def test_fingerprint64_vectors(key, expected):
    keys = np.frombuffer(key, np.uint8).reshape(1, -1) if key else np.zeros((1, 0), np.uint8)
    assert int(fingerprint64(keys)[0]) == expected


def _lsh(kind, hashes, x, weight, n_out, x_type=T.TENSOR_INT32):
    return run_op("LSH_PROJECTION", [tensor(F32, hashes), tensor(x_type, x),
                                     tensor(F32, weight) if weight is not None else omitted(),
                                     scalar(T.INT32, kind)], [(T.TENSOR_INT32, (n_out,))])[0]


def test_lsh_sparse_dense_consistency():
    rng = np.random.default_rng(8)
    hashes = rnd(rng, 5, 3, scale=3.0)
    x = rng.integers(-50, 50, (4, 2)).astype(np.int32)
    w = np.ones(4, np.float32)
    dense = _lsh(2, hashes, x, w, 15).reshape(5, 3)
    assert set(np.unique(dense)) <= {0, 1}
    legacy = _lsh(1, hashes, x, None, 5)
    sparse = _lsh(3, hashes, x, None, 5)
    # SPARSE_DEPRECATED reads each hash function's bits as a binary number (first bit highest);
    # weight 1 everywhere is the same as no weight.
    np.testing.assert_array_equal(legacy, dense @ np.array([4, 2, 1]))
    np.testing.assert_array_equal(sparse, legacy + np.arange(5) * 8)


def test_lsh_rejections():
    rng = np.random.default_rng(9)
    hashes, x, w = rnd(rng, 4, 2), np.zeros((3, 2), np.int32), np.ones(3, np.float32)
    with pytest.raises(ModelError, match="projection type must be 1"):
        _lsh(4, hashes, x, w, 8)
    with pytest.raises(ModelError, match="weight tensor .* is required"):
        _lsh(2, hashes, x, None, 8)
    with pytest.raises(ModelError, match="SPARSE projection takes no weights"):
        _lsh(3, hashes, x, w, 4)
    with pytest.raises(ModelError, match="at most 32 are supported"):
        _lsh(2, rnd(rng, 1, 33), x, w, 33)
    with pytest.raises(ModelError, match=r"must match the input's dimension 0 \(3\)"):
        _lsh(2, hashes, x, np.ones(2, np.float32), 8)


# ---------------------------------------------------------------------------------------------
# RANDOM_MULTINOMIAL
# ---------------------------------------------------------------------------------------------

def _multinomial(logits, samples, seed, seeds=(1, 2)):
    return run_op("RANDOM_MULTINOMIAL", [tensor(F32, logits), scalar(T.INT32, samples),
                                         tensor(T.TENSOR_INT32, np.array(seeds, np.int32))],
                  [(T.TENSOR_INT32, (logits.shape[0], samples))], seed=seed)[0]


def test_multinomial_distribution_and_seeding():
    logits = np.array([[0.0, 1.0, 2.0, -np.inf], [3.0, 0.0, 0.0, 0.0]], np.float32)
    out = _multinomial(logits, 20000, seed=7)
    assert out.shape == (2, 20000) and out.dtype == np.int32
    finite = np.where(np.isfinite(logits), logits, -1e30)
    p = np.exp(finite - finite.max(1, keepdims=True))
    p /= p.sum(1, keepdims=True)
    for b in range(2):
        freq = np.bincount(out[b], minlength=4) / 20000
        np.testing.assert_allclose(freq, p[b], atol=0.015)
    assert not (out[0] == 3).any()  # a -inf logit is never drawn
    np.testing.assert_array_equal(out, _multinomial(logits, 20000, seed=7))
    assert not np.array_equal(out, _multinomial(logits, 20000, seed=8))


def test_multinomial_rejections():
    logits = np.zeros((1, 3), np.float32)
    with pytest.raises(ModelError, match=r"seeds tensor must match 2 \(2\)"):
        _multinomial(logits, 4, 0, seeds=(1, 2, 3))
    with pytest.raises(ModelError, match="number of samples must not be negative"):
        run_op("RANDOM_MULTINOMIAL", [tensor(F32, logits), scalar(T.INT32, -1),
                                      tensor(T.TENSOR_INT32, np.array([1, 2], np.int32))],
               [(T.TENSOR_INT32, (1, 0))])


# ---------------------------------------------------------------------------------------------
# LSTM family (float)
# ---------------------------------------------------------------------------------------------

def sigmoid(x):
    return 1 / (1 + np.exp(-x))


def layer_norm(x):
    mu = x.mean(axis=1, keepdims=True)
    return (x - mu) / np.sqrt(x.var(axis=1, keepdims=True) + 1e-8)


def lstm_ref(p, x, h, c, cell_clip=0.0, proj_clip=0.0):
    """The LSTM equations of the spec (g = tanh), float64; ``p`` holds the optional tensors as
    None when omitted."""
    def pre(gate, peep_state=None):
        z = x @ p["i2" + gate].T + h @ p["r2" + gate].T
        if peep_state is not None and p.get("c2" + gate) is not None:
            z = z + p["c2" + gate] * peep_state
        if p.get("ln_o") is not None:
            return layer_norm(z) * p["ln_" + gate] + p["b" + gate]
        return z + p["b" + gate]

    f = sigmoid(pre("f", c))
    i = 1 - f if p.get("i2i") is None else sigmoid(pre("i", c))
    c_new = f * c + i * np.tanh(pre("c"))
    if cell_clip > 0:
        c_new = np.clip(c_new, -cell_clip, cell_clip)
    o = sigmoid(pre("o", c_new))
    m = o * np.tanh(c_new)
    if p.get("pw") is not None:
        h_new = m @ p["pw"].T + (p["pb"] if p.get("pb") is not None else 0)
        if proj_clip > 0:
            h_new = np.clip(h_new, -proj_clip, proj_clip)
    else:
        h_new = m
    return h_new, c_new


KEYS = ("i2i", "i2f", "i2c", "i2o", "r2i", "r2f", "r2c", "r2o", "c2i", "c2f", "c2o",
        "bi", "bf", "bc", "bo", "pw", "pb")


def lstm_params(rng, size, cells, out, cifg=False, peephole=False, projection=False,
                proj_bias=False, layer_norm_w=False):
    p = {}
    for g in "ifco":
        p["i2" + g] = rnd(rng, cells, size)
        p["r2" + g] = rnd(rng, cells, out)
        p["b" + g] = rnd(rng, cells)
        p["c2" + g] = rnd(rng, cells) if peephole and g != "c" else None
        p["ln_" + g] = (1 + rnd(rng, cells, scale=0.1)) if layer_norm_w else None
    if cifg:
        p["i2i"] = p["r2i"] = p["bi"] = p["c2i"] = p["ln_i"] = None
    p["pw"] = rnd(rng, out, cells) if projection else None
    p["pb"] = rnd(rng, out) if proj_bias else None
    return p


def lstm_tensor_inputs(p):
    return [tensor(F32, p[k]) if p[k] is not None else omitted() for k in KEYS]


def ln_inputs(p):
    return [tensor(F32, p["ln_" + g]) if p["ln_" + g] is not None else omitted() for g in "ifco"]


@pytest.mark.parametrize("variant", [
    {}, {"peephole": True}, {"cifg": True, "peephole": True},
    {"projection": True, "proj_bias": True}, {"projection": True, "clip": True},
    {"layer_norm_w": True}, {"layer_norm_w": True, "cifg": True, "peephole": True,
                             "projection": True},
])
def test_lstm_step_matches_spec_formula(variant):
    rng = np.random.default_rng(10)
    batch, size, cells = 2, 3, 4
    variant = dict(variant)
    clip = variant.pop("clip", False)
    out = 3 if variant.get("projection") else cells
    p = lstm_params(rng, size, cells, out, **variant)
    x, h, c = rnd(rng, batch, size), rnd(rng, batch, out), rnd(rng, batch, cells, scale=2.0)
    cc, pc = (0.8, 0.3) if clip else (0.0, 0.0)
    ins = [tensor(F32, x)] + lstm_tensor_inputs(p) + [tensor(F32, h), tensor(F32, c),
                                                      scalar(T.INT32, 4), scalar(T.FLOAT32, cc),
                                                      scalar(T.FLOAT32, pc)]
    if variant.get("layer_norm_w"):
        ins += ln_inputs(p)
    gates = 3 if variant.get("cifg") else 4
    scratch, h_out, c_out, o_out = run_op(
        "LSTM", ins, [(F32, (batch, cells * gates)), (F32, (batch, out)), (F32, (batch, cells)),
                      (F32, (batch, out))])
    h_ref, c_ref = lstm_ref(p, x, h, c, cc, pc)
    np.testing.assert_allclose(h_out, h_ref, atol=1e-5)
    np.testing.assert_allclose(o_out, h_ref, atol=1e-5)
    np.testing.assert_allclose(c_out, c_ref, atol=1e-5)
    assert scratch.shape == (batch, cells * gates)


@pytest.mark.parametrize("time_major", [True, False])
def test_unidirectional_lstm_steps_the_cell(time_major):
    rng = np.random.default_rng(11)
    steps, batch, size, cells, out = 3, 2, 3, 4, 2
    p = lstm_params(rng, size, cells, out, peephole=True, projection=True, proj_bias=True)
    xs, h0, c0 = rnd(rng, steps, batch, size), rnd(rng, batch, out), rnd(rng, batch, cells)
    x_in = xs if time_major else np.swapaxes(xs, 0, 1).copy()
    ins = [tensor(F32, x_in)] + lstm_tensor_inputs(p) + [
        tensor(F32, h0), tensor(F32, c0), scalar(T.INT32, 4), scalar(T.FLOAT32, 0.0),
        scalar(T.FLOAT32, 0.0), scalar(T.BOOL, time_major)] + [omitted()] * 4
    shape = (steps, batch, out) if time_major else (batch, steps, out)
    got, h_last, c_last = run_op("UNIDIRECTIONAL_SEQUENCE_LSTM", ins,
                                 [(F32, shape), (F32, (batch, out)), (F32, (batch, cells))])
    h, c, ref = h0, c0, []
    for t in range(steps):
        h, c = lstm_ref(p, xs[t], h, c)
        ref.append(h)
    ref = np.stack(ref) if time_major else np.swapaxes(np.stack(ref), 0, 1)
    np.testing.assert_allclose(got, ref, atol=1e-5)
    np.testing.assert_allclose(h_last, h, atol=1e-5)
    np.testing.assert_allclose(c_last, c, atol=1e-5)


def _bidi_lstm_inputs(rng, steps, batch, size, cells, merge, aux=None, aux_w=None):
    fw, bw = lstm_params(rng, size, cells, cells), lstm_params(rng, size, cells, cells)
    xs = rnd(rng, steps, batch, size)
    states = [rnd(rng, batch, cells) for _ in range(4)]
    ins = [tensor(F32, xs)] + lstm_tensor_inputs(fw) + lstm_tensor_inputs(bw)
    ins += [tensor(F32, s) for s in states]
    ins.append(tensor(F32, aux) if aux is not None else omitted())
    ins += [tensor(F32, a) if a is not None else omitted() for a in (aux_w or [None] * 8)]
    ins += [scalar(T.INT32, 4), scalar(T.FLOAT32, 0.0), scalar(T.FLOAT32, 0.0),
            scalar(T.BOOL, merge), scalar(T.BOOL, True)] + [omitted()] * 8
    return fw, bw, xs, states, ins


def test_bidirectional_lstm_merge_and_states():
    rng = np.random.default_rng(12)
    steps, batch, size, cells = 3, 2, 3, 2
    fw, bw, xs, states, ins = _bidi_lstm_inputs(rng, steps, batch, size, cells, merge=True)
    got = run_op("BIDIRECTIONAL_SEQUENCE_LSTM", ins,
                 [(F32, (steps, batch, 2 * cells))] + [(F32, (batch, cells))] * 4)
    h, c, fw_ref = states[0], states[1], []
    for t in range(steps):
        h, c = lstm_ref(fw, xs[t], h, c)
        fw_ref.append(h)
    fw_hc = (h, c)
    h, c, bw_ref = states[2], states[3], [None] * steps
    for t in reversed(range(steps)):
        h, c = lstm_ref(bw, xs[t], h, c)
        bw_ref[t] = h
    merged = np.concatenate([np.stack(fw_ref), np.stack(bw_ref)], axis=2)
    np.testing.assert_allclose(got[0], merged, atol=1e-5)
    for g, e in zip(got[1:], [*fw_hc, h, c]):
        np.testing.assert_allclose(g, e, atol=1e-5)


def _lstm_inputs(rng, p, batch=2, size=3, cells=4, out=4, n_ln=0, act=4, cc=0.0, h_batch=None):
    ins = [tensor(F32, rnd(rng, batch, size))] + lstm_tensor_inputs(p) + [
        tensor(F32, rnd(rng, h_batch or batch, out)), tensor(F32, rnd(rng, batch, cells)),
        scalar(T.INT32, act), scalar(T.FLOAT32, cc), scalar(T.FLOAT32, 0.0)]
    return ins + [omitted()] * n_ln


LSTM_OUTS = [(F32, (2, 16)), (F32, (2, 4)), (F32, (2, 4)), (F32, (2, 4))]


@pytest.mark.parametrize("change,message", [
    (lambda p: p.update(r2i=None), "input gate tensors .* all of inputs \\[1, 5, 12\\] or none"),
    (lambda p: p.update(c2f=np.ones(4, np.float32)), "peephole weights"),
    (lambda p: p.update(pb=np.ones(4, np.float32)), "given without projection weights"),
    (lambda p: p.update(r2f=np.ones((4, 3), np.float32)),
     "recurrent-to-forget weights must match the output size \\(4\\)"),
])
def test_lstm_rejections_tensor_rules(change, message):
    rng = np.random.default_rng(13)
    p = lstm_params(rng, 3, 4, 4)
    change(p)
    with pytest.raises(ModelError, match=message):
        run_op("LSTM", _lstm_inputs(rng, p), LSTM_OUTS)


def test_lstm_rejections_params_and_states():
    rng = np.random.default_rng(14)
    p = lstm_params(rng, 3, 4, 4)
    with pytest.raises(ModelError, match="LSTM activation must be one of"):
        run_op("LSTM", _lstm_inputs(rng, p, act=2), LSTM_OUTS)
    with pytest.raises(ModelError, match="cell clipping threshold must be >= 0"):
        run_op("LSTM", _lstm_inputs(rng, p, cc=-1.0), LSTM_OUTS)
    with pytest.raises(ModelError, match=r"output state \(in\) must match the batch size \(2\)"):
        run_op("LSTM", _lstm_inputs(rng, p, h_batch=3), LSTM_OUTS)
    with pytest.raises(ModelError, match="takes 23 inputs .* or 27 .* but has 25"):
        run_op("LSTM", _lstm_inputs(rng, p, n_ln=2), LSTM_OUTS)
    q = lstm_params(rng, 3, 4, 4, layer_norm_w=True)
    ins = _lstm_inputs(rng, q) + ln_inputs(q)
    ins[-2] = omitted()
    with pytest.raises(ModelError, match="layer normalization weights"):
        run_op("LSTM", ins, LSTM_OUTS)


def test_lstm_presence_known_at_run_time_only():
    rng = np.random.default_rng(15)
    p = lstm_params(rng, 3, 4, 4)
    ins = _lstm_inputs(rng, p)
    ins[1] = fed(F32, None, declared=(4, 3))  # input-to-input weights omitted at run time
    with pytest.raises(ExecutionError, match="input gate tensors"):
        run_op("LSTM", ins, LSTM_OUTS)


def test_bidirectional_lstm_aux_rejections():
    rng = np.random.default_rng(16)
    aux_w = [None] + [rnd(rng, 2, 3) for _ in range(3)] + [None] * 4
    *_, ins = _bidi_lstm_inputs(rng, 3, 2, 3, 2, merge=False, aux=rnd(rng, 3, 2, 3), aux_w=aux_w)
    outs = [(F32, (3, 2, 2)), (F32, (3, 2, 2))]
    with pytest.raises(ModelError, match="forward and backward auxiliary weights are both given"):
        run_op("BIDIRECTIONAL_SEQUENCE_LSTM", ins, outs)
    aux_w = [None] + [rnd(rng, 2, 3) for _ in range(3)] + [None] + [rnd(rng, 2, 3) for _ in range(3)]
    *_, ins = _bidi_lstm_inputs(rng, 3, 2, 3, 2, merge=False, aux_w=aux_w)
    with pytest.raises(ModelError, match="auxiliary weights are given, which need the auxiliary"):
        run_op("BIDIRECTIONAL_SEQUENCE_LSTM", ins, outs)


# ---------------------------------------------------------------------------------------------
# Quantized LSTMs
# ---------------------------------------------------------------------------------------------

def test_fixed16_logistic_and_tanh_accuracy():
    raw = np.arange(-32768, 32768)
    for bits in (3, 4):
        real = raw / 2.0 ** (15 - bits)
        lo = fixed16_logistic(raw, bits) / 32768
        th = fixed16_tanh(raw, bits) / 32768
        assert np.abs(lo - sigmoid(real)).max() < 4e-4
        assert np.abs(th - np.tanh(real)).max() < 4e-4
        # gemmlowp derives negative inputs from positive ones: exact (anti)symmetry.
        pos = np.arange(1, 32768)
        np.testing.assert_array_equal(fixed16_logistic(-pos, bits),
                                      32767 - fixed16_logistic(pos, bits))
        np.testing.assert_array_equal(fixed16_tanh(-pos, bits), -fixed16_tanh(pos, bits))


def _q16_inputs(rng, batch=2, n=4, in_scale=1 / 128, w_scale=0.01, bias_scale=None,
                cell_scale=2.0 ** -11, wx=None):
    w = wx if wx is not None else rng.integers(60, 196, (n, n)).astype(np.uint8)
    wq = {"scale": w_scale, "zero_point": 128}
    bq = {"scale": bias_scale if bias_scale is not None else w_scale / 128, "zero_point": 0}
    x = rng.integers(64, 192, (batch, n)).astype(np.uint8)
    h = rng.integers(64, 192, (batch, n)).astype(np.uint8)
    c = rng.integers(-4000, 4000, (batch, n)).astype(np.int16)
    b = [rng.integers(-2000, 2000, n).astype(np.int32) for _ in range(4)]
    q8 = {"scale": in_scale, "zero_point": 128}
    ins = [tensor(T.TENSOR_QUANT8_ASYMM, x, **q8)]
    ins += [tensor(T.TENSOR_QUANT8_ASYMM, w, **wq)] * 8  # same weights for every gate and source
    ins += [tensor(T.TENSOR_INT32, bb, **bq) for bb in b]
    ins += [tensor(T.TENSOR_QUANT16_SYMM, c, scale=cell_scale, zero_point=0),
            tensor(T.TENSOR_QUANT8_ASYMM, h, **q8)]
    outs = [(T.TENSOR_QUANT16_SYMM, (batch, n), {"scale": 2.0 ** -11, "zero_point": 0}),
            (T.TENSOR_QUANT8_ASYMM, (batch, n), q8)]
    return x, h, c, w, b, ins, outs


def test_quantized_16bit_lstm_close_to_float_lstm():
    rng = np.random.default_rng(17)
    x, h, c, w, b, ins, outs = _q16_inputs(rng)
    c_out, h_out = run_op("QUANTIZED_16BIT_LSTM", ins, outs)
    # With equal input and recurrent weights the reference's operand pairing does not matter.
    wf = (w.astype(np.float64) - 128) * 0.01
    bf = [bb * (0.01 / 128) for bb in b]
    xf, hf, cf = (x - 128.0) / 128, (h - 128.0) / 128, c * 2.0 ** -11
    pre = [xf @ wf.T + hf @ wf.T + bb for bb in bf]  # gates i, f, c, o
    c_ref = sigmoid(pre[1]) * cf + sigmoid(pre[0]) * np.tanh(pre[2])
    h_ref = sigmoid(pre[3]) * np.tanh(c_ref)
    np.testing.assert_allclose(c_out * 2.0 ** -11, c_ref, atol=4e-3)
    np.testing.assert_allclose((h_out - 128.0) / 128, h_ref, atol=2.5 / 128)


@pytest.mark.parametrize("kwargs,message", [
    ({"in_scale": 0.01}, "input must have scale 1/128 and zero point 128"),
    ({"bias_scale": 0.001}, "bias must have scale weights scale / 128"),
    ({"cell_scale": 2.0 ** -10}, "cell state must have scale 2\\^-11"),
])
def test_quantized_16bit_lstm_rejections(kwargs, message):
    rng = np.random.default_rng(18)
    *_, ins, outs = _q16_inputs(rng, **kwargs)
    with pytest.raises(ModelError, match=message):
        run_op("QUANTIZED_16BIT_LSTM", ins, outs)


def test_quantized_16bit_lstm_weights_must_share_quantization():
    rng = np.random.default_rng(19)
    *_, ins, outs = _q16_inputs(rng)
    kind, t, value, q = ins[6]
    ins[6] = (kind, t, value, {**q, "zero_point": 120})
    with pytest.raises(ModelError, match="all weights must share"):
        run_op("QUANTIZED_16BIT_LSTM", ins, outs)


def test_quantized_lstm_rejects_cell_scale():
    rng = np.random.default_rng(20)
    n, size, batch = 4, 3, 2
    q8s = {"scale": 0.01, "zero_point": 0}
    ins = [tensor(T.TENSOR_QUANT8_ASYMM_SIGNED, rng.integers(-50, 50, (batch, size)).astype(np.int8),
                  scale=0.01, zero_point=0)]
    for j in range(8):
        ins.append(tensor(T.TENSOR_QUANT8_SYMM,
                          rng.integers(-50, 50, (n, size if j < 4 else n)).astype(np.int8), **q8s))
    ins += [omitted(T.TENSOR_QUANT16_SYMM)] * 3
    ins += [tensor(T.TENSOR_INT32, np.zeros(n, np.int32)) for _ in range(4)]
    ins += [omitted(T.TENSOR_QUANT8_SYMM, (0, 0)), omitted(T.TENSOR_INT32)]
    ins += [tensor(T.TENSOR_QUANT8_ASYMM_SIGNED, np.zeros((batch, n), np.int8), scale=0.01,
                   zero_point=0),
            tensor(T.TENSOR_QUANT16_SYMM, np.zeros((batch, n), np.int16), scale=2.0 ** -8,
                   zero_point=0)]
    ins += [omitted(T.TENSOR_QUANT16_SYMM)] * 4
    ins += [scalar(T.FLOAT32, 0.0)] * 2 + [scalar(T.FLOAT32, 0.01)] * 4
    ins += [scalar(T.INT32, 0), scalar(T.FLOAT32, 0.01)]
    outs = [(T.TENSOR_QUANT8_ASYMM_SIGNED, (batch, n), {"scale": 0.01}),
            (T.TENSOR_QUANT16_SYMM, (batch, n), {"scale": 2.0 ** -8}),
            (T.TENSOR_QUANT8_ASYMM_SIGNED, (batch, n), {"scale": 0.01})]
    with pytest.raises(ModelError, match="power of two 2\\^k with k <= -9"):
        run_op("QUANTIZED_LSTM", ins, outs)


# ---------------------------------------------------------------------------------------------
# More rejections (one per rule of the shared checkers)
# ---------------------------------------------------------------------------------------------

def test_rank_and_multinomial_logits_rejections():
    rng = np.random.default_rng(21)
    ins = _rnn_inputs(rng)
    ins[0] = tensor(F32, rnd(rng, 2, 3, 1))
    with pytest.raises(ModelError, match="has rank 3, but the input must have rank 2"):
        run_op("RNN", ins, [(F32, (2, 4)), (F32, (2, 4))])
    with pytest.raises(ModelError, match=r"input \(logits\) must have rank 2"):
        _multinomial(np.zeros(3, np.float32).reshape(3), 2, 0)


def test_lsh_sparse_signature_width_rejection():
    rng = np.random.default_rng(22)
    with pytest.raises(ModelError, match=r"bits \+ ceil\(log2\(hash functions\)\) <= 32"):
        _lsh(3, rnd(rng, 5, 31), np.zeros((3, 2), np.int32), None, 5)


@pytest.mark.parametrize("change,message", [
    (lambda p: p.update(i2i=None, r2i=None, bi=None, c2i=np.ones(4, np.float32),
                        c2f=np.ones(4, np.float32), c2o=np.ones(4, np.float32)),
     "with CIFG .* cell-to-input weights must be omitted"),
    (lambda p: p.update(c2f=np.ones(4, np.float32), c2o=np.ones(4, np.float32)),
     "does not match the other peephole weights"),
])
def test_lstm_peephole_rejections(change, message):
    rng = np.random.default_rng(23)
    p = lstm_params(rng, 3, 4, 4)
    change(p)
    outs = [(F32, (2, 12 if p["i2i"] is None else 16))] + LSTM_OUTS[1:]
    with pytest.raises(ModelError, match=message):
        run_op("LSTM", _lstm_inputs(rng, p), outs)


def test_lstm_output_size_without_projection_rejection():
    rng = np.random.default_rng(24)
    p = lstm_params(rng, 3, 4, 3)
    with pytest.raises(ModelError, match=r"without projection weights the output size must "
                                         r"equal the number of cells \(4\)"):
        run_op("LSTM", _lstm_inputs(rng, p, out=3),
               [(F32, (2, 16)), (F32, (2, 3)), (F32, (2, 4)), (F32, (2, 3))])


def test_lstm_cifg_input_layer_norm_rejection():
    rng = np.random.default_rng(25)
    p = lstm_params(rng, 3, 4, 4, cifg=True, layer_norm_w=True)
    ins = _lstm_inputs(rng, p) + [tensor(F32, np.ones(4, np.float32))] + ln_inputs(p)[1:]
    with pytest.raises(ModelError, match="with CIFG the input layer normalization weights must"):
        run_op("LSTM", ins, [(F32, (2, 12))] + LSTM_OUTS[1:])


def test_bidirectional_lstm_rejections_outputs_and_aux_cifg():
    rng = np.random.default_rng(26)
    *_, ins = _bidi_lstm_inputs(rng, 3, 2, 3, 2, merge=True)
    with pytest.raises(ModelError, match="must have 1 or 5 outputs, but it has 2"):
        run_op("BIDIRECTIONAL_SEQUENCE_LSTM", ins, [(F32, (3, 2, 4)), (F32, (3, 2, 2))])
    aux_w = [rnd(rng, 2, 3) for _ in range(8)]
    *_, ins = _bidi_lstm_inputs(rng, 3, 2, 3, 2, merge=False, aux=rnd(rng, 3, 2, 3), aux_w=aux_w)
    for i in (1, 5, 12, 18, 22, 29):  # CIFG in both directions
        ins[i] = omitted()
    with pytest.raises(ModelError, match="with CIFG the auxiliary input-to-input weights must"):
        run_op("BIDIRECTIONAL_SEQUENCE_LSTM", ins, [(F32, (3, 2, 2)), (F32, (3, 2, 2))])
    aux_w[0] = None  # no CIFG, but forward aux input-to-input weights missing
    *_, ins = _bidi_lstm_inputs(rng, 3, 2, 3, 2, merge=False, aux=rnd(rng, 3, 2, 3), aux_w=aux_w)
    with pytest.raises(ModelError, match="does not match the other auxiliary weights"):
        run_op("BIDIRECTIONAL_SEQUENCE_LSTM", ins, [(F32, (3, 2, 2)), (F32, (3, 2, 2))])


def test_quantized_lstm_close_to_float_layer_norm_lstm():
    """QUANTIZED_LSTM (peephole, layer normalization, projection, no CIFG) against the float LSTM
    equations on the dequantized operands."""
    rng = np.random.default_rng(27)
    batch, size, cells, out = 2, 5, 4, 3
    s_x = s_h = 1 / 128
    s_w, s_c2, s_ln, s_hid, s_p, inter = 1 / 256, 2.0 ** -10, 2.0 ** -12, 2.0 ** -7, 1 / 256, 2.0 ** -12
    x_q = rng.integers(-100, 100, (batch, size)).astype(np.int8)
    h_q = rng.integers(-100, 100, (batch, out)).astype(np.int8)
    c_q = rng.integers(-4000, 4000, (batch, cells)).astype(np.int16)
    p_q, p = {}, {}
    for g in "ifco":
        for key, cols in (("i2" + g, size), ("r2" + g, out)):
            p_q[key] = rng.integers(-127, 128, (cells, cols)).astype(np.int8)
            p[key] = p_q[key] * s_w
        p["ln_" + g] = 1 + rnd(rng, cells, scale=0.1)
        p_q["ln_" + g] = np.round(p["ln_" + g] / s_ln).astype(np.int16)
        p["ln_" + g] = p_q["ln_" + g] * s_ln
        p_q["b" + g] = np.round(rnd(rng, cells) * 1024 / s_ln).astype(np.int32)
        p["b" + g] = p_q["b" + g] * s_ln / 1024
        if g != "c":
            p_q["c2" + g] = rng.integers(-500, 500, cells).astype(np.int16)
            p["c2" + g] = p_q["c2" + g] * s_c2
    p_q["pw"] = rng.integers(-127, 128, (out, cells)).astype(np.int8)
    p["pw"] = p_q["pw"] * s_p
    p_q["pb"] = np.round(rnd(rng, out, scale=0.2) / (s_p * s_hid)).astype(np.int32)
    p["pb"] = p_q["pb"] * (s_p * s_hid)
    q8 = {"scale": s_w}
    ins = [tensor(T.TENSOR_QUANT8_ASYMM_SIGNED, x_q, scale=s_x)]
    ins += [tensor(T.TENSOR_QUANT8_SYMM, p_q[k], **q8) for k in
            ("i2i", "i2f", "i2c", "i2o", "r2i", "r2f", "r2c", "r2o")]
    ins += [tensor(T.TENSOR_QUANT16_SYMM, p_q["c2" + g], scale=s_c2) for g in "ifo"]
    ins += [tensor(T.TENSOR_INT32, p_q["b" + g]) for g in "ifco"]
    ins += [tensor(T.TENSOR_QUANT8_SYMM, p_q["pw"], scale=s_p), tensor(T.TENSOR_INT32, p_q["pb"]),
            tensor(T.TENSOR_QUANT8_ASYMM_SIGNED, h_q, scale=s_h),
            tensor(T.TENSOR_QUANT16_SYMM, c_q, scale=2.0 ** -11)]
    ins += [tensor(T.TENSOR_QUANT16_SYMM, p_q["ln_" + g], scale=s_ln) for g in "ifco"]
    ins += [scalar(T.FLOAT32, 0.0)] * 2 + [scalar(T.FLOAT32, inter)] * 4
    ins += [scalar(T.INT32, 0), scalar(T.FLOAT32, s_hid)]
    outs = [(T.TENSOR_QUANT8_ASYMM_SIGNED, (batch, out), {"scale": s_h}),
            (T.TENSOR_QUANT16_SYMM, (batch, cells), {"scale": 2.0 ** -11}),
            (T.TENSOR_QUANT8_ASYMM_SIGNED, (batch, out), {"scale": s_h})]
    h_out, c_out, o_out = run_op("QUANTIZED_LSTM", ins, outs)
    h_ref, c_ref = lstm_ref(p, x_q * s_x, h_q * s_h, c_q * 2.0 ** -11)
    np.testing.assert_allclose(c_out * 2.0 ** -11, c_ref, atol=2e-3)
    np.testing.assert_allclose(h_out * s_h, h_ref, atol=1.5 * s_h)
    np.testing.assert_array_equal(o_out, h_out)
