"""Differential test: TFLite import + golden model against LiteRT's reference kernels.

For each TFLite operator of the importer's table, hypothesis draws single-op models (shapes,
parameters, fused activations, per-tensor / per-channel quantization, float32 / int8 / uint8),
builds them with :class:`support.tflite_build.TFLiteBuilder`, runs them on LiteRT with
``OpResolverType.BUILTIN_REF`` in a worker subprocess (LiteRT aborts on some degenerate models) and
through ``load`` + :func:`nnaccel.golden.interpreter.run_model`, and compares:

* float32: ``max |golden - litert| <= tol * max(max |litert|, 1e-3)`` with ``tol`` = the mapping's
  ``float_tolerance`` (1e-5 unless the table says otherwise);
* int8 / uint8: at most the mapping's ``quant_tolerance`` steps (0 = bit-exact); every non-zero
  bound is listed with its reason in docs/tflite.md, generated from the same table;
* int32 / bool: exact.

Budgets: ``test_matches_litert`` runs :data:`DEFAULT_EXAMPLES` examples per (op, type) in the
default run; ``test_matches_litert_large`` (markers ``litert`` and ``slow``, so the default
``-m 'not slow'`` leaves it out) runs :data:`LARGE_EXAMPLES` (``NNACCEL_LITERT_EXAMPLES`` overrides
it) when selected: ``pytest -m litert tests/compiler/test_litert_diff.py``.
A (op, type) whose golden kernel has not landed yet is skipped, naming the kernel.
"""

from __future__ import annotations

import dataclasses
import os

import numpy as np
import pytest
from hypothesis import HealthCheck, given, note, reject, settings
from hypothesis import strategies as st
from nnaccel.compiler.tflite_import import OP_TABLE, OpMapping, import_tflite_bytes
from support.tflite_build import TFLiteBuilder
from support.tflite_litert import LiteRTWorker

from nnaccel import registry
from nnaccel.golden.interpreter import run_model

DEFAULT_EXAMPLES = 20
LARGE_EXAMPLES = int(os.environ.get("NNACCEL_LITERT_EXAMPLES", "150"))

Q8 = ("INT8", "UINT8")
FQ = ("FLOAT32", "INT8", "UINT8")
F = ("FLOAT32",)
NP = {"FLOAT32": np.float32, "INT8": np.int8, "UINT8": np.uint8, "INT32": np.int32, "BOOL": np.bool_}


#: Ops compared with LiteRT's default (optimized) builtin kernels instead of BUILTIN_REF: ELU has no
#: reference kernel in LiteRT 2.3 ("Didn't find op for builtin opcode 'ELU'"), and its reference
#: LOCAL_RESPONSE_NORMALIZATION returns the input unchanged (checked against x / (bias + alpha *
#: sum x^2) ** beta: the optimized kernel and the golden model agree with it, the reference does not).
NO_REFERENCE_KERNEL = {"ELU", "LOCAL_RESPONSE_NORMALIZATION"}


@pytest.fixture(scope="module")
def litert():
    with LiteRTWorker() as w:
        yield w


# ==================================================================================== case drawing
class Case:
    """One drawn model: ``build(out_shapes)`` returns the flatbuffer (``None`` = placeholder output
    shapes, replaced by LiteRT's after a first run), ``inputs`` the input arrays."""

    def __init__(self, build, inputs):
        self.build, self.inputs = build, inputs


GENS: dict[str, tuple[tuple[str, ...], object]] = {}


def gen(*ops, dtypes=FQ):
    def deco(fn):
        for op in ops:
            GENS[op] = (dtypes, fn)
        return fn
    return deco


def quant(draw, dtype, scale=None, zp=None) -> dict:
    """Quantization of a tensor of ``dtype`` (empty for float)."""
    if dtype not in Q8:
        return {}
    if scale is None:
        scale = draw(st.sampled_from([0.0078125, 0.01, 0.03, 0.05, 0.1, 0.2])) * draw(
            st.sampled_from([1.0, 1.37, 0.61]))
    if zp is None:
        zp = draw(st.integers(-40, 40)) + (128 if dtype == "UINT8" else 0)
    return {"scale": scale, "zero_point": zp}


def rng(draw):
    return np.random.default_rng(draw(st.integers(0, 2**32 - 1)))


def values(r, shape, dtype, lo=-2.0, hi=2.0):
    if dtype in Q8:
        info = np.iinfo(NP[dtype])
        return r.integers(info.min, info.max + 1, shape).astype(NP[dtype])
    if dtype == "INT32":
        return r.integers(-20, 21, shape).astype(np.int32)
    if dtype == "BOOL":
        return r.integers(0, 2, shape).astype(bool)
    return r.uniform(lo, hi, shape).astype(np.float32)


def shape_st(min_rank=1, max_rank=4, lo=1, hi=5):
    return st.lists(st.integers(lo, hi), min_size=min_rank, max_size=max_rank).map(tuple)


def out_shape(outs, k, default=(1,)):
    return outs[k] if outs else default


ACT = st.sampled_from([0, 1, 2, 3])


def single(op, dtype, in_shapes, draw, options=None, out_dtype=None, out_q=None, lo=-2.0, hi=2.0,
           consts=None, in_dtypes=None, in_qs=None, out_default=None, **fields):
    """A model of one op whose inputs are graph inputs, or constants ``consts[k] = (array, quant,
    dtype)``. The output's declared shape starts as ``out_default`` or the first input's (some
    LiteRT kernels check its rank), then becomes LiteRT's computed shape (see :func:`run_case`)."""
    r = rng(draw)
    in_dtypes = in_dtypes or [dtype] * len(in_shapes)
    in_qs = in_qs or [quant(draw, d) for d in in_dtypes]
    out_dtype = out_dtype or dtype
    out_q = quant(draw, out_dtype) if out_q is None else out_q
    consts = consts or {}
    inputs = [values(r, s, d, lo, hi) for k, (s, d) in enumerate(zip(in_shapes, in_dtypes)) if k not in consts]
    # file layouts: opcodes only in deprecated_builtin_code, constants stored after the flatbuffer
    layout = {"legacy_opcodes": draw(st.booleans()), "external_buffers": draw(st.booleans())}

    def build(outs):
        b = TFLiteBuilder(**layout)
        ts, graph_in = [], []
        for k, (s, d, q) in enumerate(zip(in_shapes, in_dtypes, in_qs)):
            if k in consts:
                data, cq, cd = consts[k]
                ts.append(b.add_tensor(np.shape(data), cd, data=data, **cq))
            else:
                ts.append(b.add_tensor(s, d, **q))
                graph_in.append(ts[-1])
        y = b.add_tensor(out_shape(outs, 0, out_default or in_shapes[0]), out_dtype, **out_q)
        b.add_op(op, ts, [y], options, **fields)
        return b.finish(graph_in, [y])
    return Case(build, inputs)


# ------------------------------------------------------------------------------- elementwise ops
def broadcast_pair(draw):
    a = draw(shape_st(1, 4))
    b = list(a)
    for i in range(len(b)):
        if draw(st.booleans()):
            b[i] = 1
    b = b[draw(st.integers(0, len(b) - 1)):]
    return (a, tuple(b)) if draw(st.booleans()) else (tuple(b), a)


@gen("ADD", "SUB", "MUL")
@st.composite
def _arith(draw, op, dtype):
    a, b = broadcast_pair(draw)
    qs = [quant(draw, dtype), quant(draw, dtype)]
    oq = quant(draw, dtype)
    if op == "MUL" and dtype in Q8:  # NNAPI: output scale > product of the input scales
        oq["scale"] = max(oq["scale"], qs[0]["scale"] * qs[1]["scale"] * 1.01)
    return single(op, dtype, [a, b], draw, f"{op.title()}Options", in_qs=qs, out_q=oq,
                  FusedActivationFunction=draw(ACT))


@gen("DIV", dtypes=F)
@st.composite
def _div(draw, op, dtype):
    a, b = broadcast_pair(draw)
    c = single(op, dtype, [a, b], draw, "DivOptions", lo=0.5, hi=3.0, FusedActivationFunction=draw(ACT))
    return c


@gen("SQUARE", dtypes=F)
@st.composite
def _square(draw, op, dtype):
    return single(op, dtype, [draw(shape_st())], draw)


@gen("MAXIMUM", "MINIMUM")
@st.composite
def _maxmin(draw, op, dtype):
    a, b = broadcast_pair(draw)
    q = quant(draw, dtype)
    # three quantizations sometimes: LiteRT compares the stored values whatever they are
    qs = [q, q, q] if draw(st.booleans()) else [quant(draw, dtype) for _ in range(3)]
    return single(op, dtype, [a, b], draw, in_qs=qs[:2], out_q=qs[2])


@gen("POW", dtypes=F)
@st.composite
def _pow(draw, op, dtype):
    a, b = broadcast_pair(draw)
    return single(op, dtype, [a, b], draw, lo=0.2, hi=2.0)


@gen("EQUAL", "NOT_EQUAL", "GREATER", "GREATER_EQUAL", "LESS", "LESS_EQUAL",
     dtypes=("FLOAT32", "INT32", "INT8", "UINT8"))
@st.composite
def _compare(draw, op, dtype):
    a, b = broadcast_pair(draw)
    q = quant(draw, dtype)
    qs = [q, q] if draw(st.booleans()) else [quant(draw, dtype), quant(draw, dtype)]
    c = single(op, dtype, [a, b], draw, in_qs=qs, out_dtype="BOOL", out_q={})
    if dtype == "FLOAT32":  # halves, so that equal pairs occur
        c.inputs = [(np.round(x * 2) / 2).astype(np.float32) for x in c.inputs]
    return c


@gen("LOGICAL_AND", "LOGICAL_OR", dtypes=("BOOL",))
@st.composite
def _logical2(draw, op, dtype):
    a, b = broadcast_pair(draw)
    return single(op, dtype, [a, b], draw)


@gen("LOGICAL_NOT", dtypes=("BOOL",))
@st.composite
def _logical1(draw, op, dtype):
    return single(op, dtype, [draw(shape_st())], draw)


UNARY_RANGES = {"EXP": (-3, 3), "LOG": (0.05, 5), "SQRT": (0, 5), "RSQRT": (0.05, 5), "SIN": (-4, 4)}


@gen("ABS", "NEG", "EXP", "LOG", "SQRT", "RSQRT", "SIN", "FLOOR", dtypes=F)
@st.composite
def _unary_float(draw, op, dtype):
    lo, hi = UNARY_RANGES.get(op, (-3, 3))
    return single(op, dtype, [draw(shape_st())], draw, lo=lo, hi=hi)


@gen("RELU", "RELU6", "RELU_N1_TO_1")
@st.composite
def _relu(draw, op, dtype):
    return single(op, dtype, [draw(shape_st())], draw, lo=-8, hi=8)


@gen("LOGISTIC", "TANH")
@st.composite
def _sigmoid(draw, op, dtype):
    fixed = {("LOGISTIC", "INT8"): (1 / 256, -128), ("LOGISTIC", "UINT8"): (1 / 256, 0),
             ("TANH", "INT8"): (1 / 128, 0), ("TANH", "UINT8"): (1 / 128, 128)}
    oq = quant(draw, dtype, *fixed[(op, dtype)]) if dtype in Q8 else {}
    return single(op, dtype, [draw(shape_st())], draw, out_q=oq, lo=-5, hi=5)


@gen("HARD_SWISH")
@st.composite
def _hard_swish(draw, op, dtype):
    return single(op, dtype, [draw(shape_st())], draw, lo=-5, hi=5)


@gen("ELU", "LOG_SOFTMAX", dtypes=F)
@st.composite
def _elu(draw, op, dtype):
    opts = {"options": "LogSoftmaxOptions"} if op == "LOG_SOFTMAX" else {}
    return single(op, dtype, [draw(shape_st())], draw, lo=-4, hi=4, **opts)


@gen("PRELU")
@st.composite
def _prelu(draw, op, dtype):
    shape = draw(shape_st(2, 4))
    ashape = tuple(shape[len(shape) - draw(st.integers(1, len(shape) - 1)):])
    ashape = tuple(1 if draw(st.booleans()) else s for s in ashape)
    r = rng(draw)
    aq = quant(draw, dtype)
    alpha = values(r, ashape, dtype, -0.5, 0.5)
    return single(op, dtype, [shape, ashape], draw, consts={1: (alpha, aq, dtype)})


@gen("LEAKY_RELU")
@st.composite
def _leaky(draw, op, dtype):
    return single(op, dtype, [draw(shape_st())], draw, "LeakyReluOptions",
                  Alpha=draw(st.sampled_from([0.01, 0.1, 0.2, 0.5, 0.9])))


@gen("QUANTIZE", dtypes=("FLOAT32->INT8", "FLOAT32->UINT8", "INT8->INT8", "UINT8->UINT8", "INT8->UINT8",
                         "UINT8->INT8"))
@st.composite
def _quantize(draw, op, dtype):
    src, dst = dtype.split("->")
    return single(op, src, [draw(shape_st())], draw, out_dtype=dst, lo=-3, hi=3)


@gen("DEQUANTIZE", dtypes=Q8)
@st.composite
def _dequantize(draw, op, dtype):
    return single(op, dtype, [draw(shape_st())], draw, out_dtype="FLOAT32", out_q={})


@gen("CAST", dtypes=("FLOAT32->INT32", "INT32->FLOAT32"))
@st.composite
def _cast(draw, op, dtype):
    src, dst = dtype.split("->")
    return single(op, src, [draw(shape_st())], draw, out_dtype=dst, out_q={}, lo=-50, hi=50)


@gen("SELECT", "SELECT_V2", dtypes=("FLOAT32", "INT32", "INT8", "UINT8"))
@st.composite
def _select(draw, op, dtype):
    s = draw(shape_st())
    q = quant(draw, dtype)
    qs = [q, q, q] if draw(st.booleans()) else [quant(draw, dtype) for _ in range(3)]  # as MAXIMUM's
    return single(op, dtype, [s, s, s], draw, in_dtypes=["BOOL", dtype, dtype], in_qs=[{}, *qs[:2]], out_q=qs[2])


# ------------------------------------------------------------------------------------ conv family
def conv_quant(draw, dtype, channels, per_channel):
    """(input q, filter q, output q, bias scales) for a conv-like op."""
    xq, oq = quant(draw, dtype), quant(draw, dtype, scale=draw(st.sampled_from([0.05, 0.1, 0.3, 0.7])))
    if dtype not in Q8:
        return xq, {}, oq, None
    if per_channel:
        ws = [draw(st.sampled_from([0.002, 0.005, 0.01, 0.02])) for _ in range(channels)]
        wq = {"scale": ws, "zero_point": [0] * channels}
    else:
        ws = [draw(st.sampled_from([0.002, 0.005, 0.01, 0.02]))]
        wq = {"scale": ws[0], "zero_point": 0 if dtype == "INT8" else draw(st.integers(100, 156))}
    return xq, wq, oq, [xq["scale"] * s for s in ws]


def fit_filter(h, w, kh, kw, opts):
    """Grows the input so that the dilated filter fits (VALID padding needs it)."""
    return (max(h, (kh - 1) * opts["DilationHFactor"] + 1), max(w, (kw - 1) * opts["DilationWFactor"] + 1))


def weights(r, shape, dtype):
    if dtype == "FLOAT32":
        return r.uniform(-1, 1, shape).astype(np.float32)
    lo, hi = (-127, 127) if dtype == "INT8" else (0, 255)
    return r.integers(lo, hi + 1, shape).astype(NP[dtype])


def bias_values(r, n, dtype):
    if dtype == "FLOAT32":
        return r.uniform(-1, 1, n).astype(np.float32)
    return r.integers(-2000, 2000, n).astype(np.int32)


def bias_tensor(b, r, n, dtype, bscales, qdim=0):
    data = bias_values(r, n, dtype)
    if dtype == "FLOAT32":
        return b.add_tensor([n], "FLOAT32", data=data)
    return b.add_tensor([n], "INT32", data=data, scale=bscales if len(bscales) > 1 else bscales[0],
                        zero_point=[0] * len(bscales), quantized_dimension=qdim)


@gen("CONV_2D", dtypes=("FLOAT32", "INT8", "INT8/per-channel", "UINT8"))
@st.composite
def _conv(draw, op, dtype):
    dtype, _, pc = dtype.partition("/")
    n, h, w, cin = draw(st.integers(1, 2)), draw(st.integers(3, 8)), draw(st.integers(3, 8)), draw(
        st.integers(1, 4))
    cout, kh, kw = draw(st.integers(1, 4)), draw(st.integers(1, 3)), draw(st.integers(1, 3))
    opts = {"Padding": draw(st.integers(0, 1)), "StrideW": draw(st.integers(1, 2)), "StrideH": draw(st.integers(1, 2)),
                "FusedActivationFunction": draw(ACT), "DilationWFactor": draw(st.sampled_from([1, 1, 2])),
                "DilationHFactor": draw(st.sampled_from([1, 1, 2]))}
    h, w = fit_filter(h, w, kh, kw, opts)
    xq, wq, oq, bs = conv_quant(draw, dtype, cout, bool(pc))
    r = rng(draw)
    x = values(r, (n, h, w, cin), dtype)
    wv = weights(r, (cout, kh, kw, cin), dtype)
    bseed = draw(st.integers(0, 1000))

    def build(outs):
        b = TFLiteBuilder()
        xt = b.add_tensor((n, h, w, cin), dtype, **xq)
        wt = b.add_tensor(wv.shape, dtype, data=wv, **wq)
        ins = [xt, wt, bias_tensor(b, np.random.default_rng(bseed), cout, dtype, bs)]  # LiteRT needs it
        y = b.add_tensor(out_shape(outs, 0), dtype, **oq)
        b.add_op("CONV_2D", ins, [y], "Conv2DOptions", **opts)
        return b.finish([xt], [y])
    return Case(build, [x])


@gen("DEPTHWISE_CONV_2D", dtypes=("FLOAT32", "INT8", "INT8/per-channel", "UINT8"))
@st.composite
def _depthwise(draw, op, dtype):
    dtype, _, pc = dtype.partition("/")
    n, h, w, cin = draw(st.integers(1, 2)), draw(st.integers(3, 8)), draw(st.integers(3, 8)), draw(
        st.integers(1, 4))
    mult, kh, kw = draw(st.integers(1, 2)), draw(st.integers(1, 3)), draw(st.integers(1, 3))
    cout = cin * mult
    opts = {"Padding": draw(st.integers(0, 1)), "StrideW": draw(st.integers(1, 2)), "StrideH": draw(st.integers(1, 2)),
                "DepthMultiplier": mult, "FusedActivationFunction": draw(ACT),
                "DilationWFactor": draw(st.sampled_from([1, 1, 2])), "DilationHFactor": draw(st.sampled_from([1, 1, 2]))}
    h, w = fit_filter(h, w, kh, kw, opts)
    xq, wq, oq, bs = conv_quant(draw, dtype, cout, bool(pc))
    if pc:
        wq["quantized_dimension"] = 3
    r = rng(draw)
    x = values(r, (n, h, w, cin), dtype)
    wv = weights(r, (1, kh, kw, cout), dtype)
    bseed = draw(st.integers(0, 1000))

    def build(outs):
        b = TFLiteBuilder()
        xt = b.add_tensor((n, h, w, cin), dtype, **xq)
        wt = b.add_tensor(wv.shape, dtype, data=wv, **wq)
        bt = bias_tensor(b, np.random.default_rng(bseed), cout, dtype, bs, qdim=0)
        y = b.add_tensor(out_shape(outs, 0), dtype, **oq)
        b.add_op("DEPTHWISE_CONV_2D", [xt, wt, bt], [y], "DepthwiseConv2DOptions", **opts)
        return b.finish([xt], [y])
    return Case(build, [x])


@gen("TRANSPOSE_CONV", dtypes=("FLOAT32", "INT8", "INT8/per-channel", "UINT8"))
@st.composite
def _transpose_conv(draw, op, dtype):
    dtype, _, pc = dtype.partition("/")
    n, h, w, cin = draw(st.integers(1, 2)), draw(st.integers(2, 5)), draw(st.integers(2, 5)), draw(
        st.integers(1, 3))
    cout, kh, kw = draw(st.integers(1, 3)), draw(st.integers(1, 3)), draw(st.integers(1, 3))
    pad, sw, sh = draw(st.integers(0, 1)), draw(st.integers(1, 2)), draw(st.integers(1, 2))
    act = draw(ACT)
    oh = h * sh if pad == 0 else (h - 1) * sh + kh
    ow = w * sw if pad == 0 else (w - 1) * sw + kw
    xq, wq, oq, bs = conv_quant(draw, dtype, cout, bool(pc))
    has_bias = draw(st.booleans())
    r = rng(draw)
    x = values(r, (n, h, w, cin), dtype)
    wv = weights(r, (cout, kh, kw, cin), dtype)
    bseed = draw(st.integers(0, 1000))

    def build(outs):
        b = TFLiteBuilder()
        st_ = b.add_tensor([4], "INT32", data=[n, oh, ow, cout])
        wt = b.add_tensor(wv.shape, dtype, data=wv, **wq)
        xt = b.add_tensor((n, h, w, cin), dtype, **xq)
        ins = [st_, wt, xt]
        if has_bias:
            ins.append(bias_tensor(b, np.random.default_rng(bseed), cout, dtype, bs))
        y = b.add_tensor((n, oh, ow, cout), dtype, **oq)
        b.add_op("TRANSPOSE_CONV", ins, [y], "TransposeConvOptions", Padding=pad, StrideW=sw, StrideH=sh,
                 FusedActivationFunction=act)
        return b.finish([xt], [y])
    return Case(build, [x])


@gen("FULLY_CONNECTED", dtypes=("FLOAT32", "INT8", "INT8/per-channel", "UINT8"))
@st.composite
def _fc(draw, op, dtype):
    dtype, _, pc = dtype.partition("/")
    size, units = draw(st.integers(1, 8)), draw(st.integers(1, 6))
    lead = draw(st.lists(st.integers(1, 3), min_size=1, max_size=3))
    keep = len(lead) > 1 and draw(st.booleans())
    xshape = (*lead, size)
    xq, wq, oq, bs = conv_quant(draw, dtype, units, bool(pc))
    has_bias = draw(st.booleans())
    act = draw(ACT)
    r = rng(draw)
    x = values(r, xshape, dtype)
    wv = weights(r, (units, size), dtype)
    bseed = draw(st.integers(0, 1000))

    def build(outs):
        b = TFLiteBuilder()
        xt = b.add_tensor(xshape, dtype, **xq)
        wt = b.add_tensor(wv.shape, dtype, data=wv, **wq)
        ins = [xt, wt, bias_tensor(b, np.random.default_rng(bseed), units, dtype, bs) if has_bias else -1]
        y = b.add_tensor(out_shape(outs, 0), dtype, **oq)
        b.add_op("FULLY_CONNECTED", ins, [y], "FullyConnectedOptions", FusedActivationFunction=act,
                 KeepNumDims=keep)
        return b.finish([xt], [y])
    return Case(build, [x])


@gen("BATCH_MATMUL", dtypes=("FLOAT32", "INT8"))
@st.composite
def _bmm(draw, op, dtype):
    batch = tuple(draw(st.lists(st.integers(1, 3), max_size=2)))
    r_, c_, k_ = draw(st.integers(1, 4)), draw(st.integers(1, 4)), draw(st.integers(1, 4))
    adj_x, adj_y = draw(st.booleans()), draw(st.booleans())
    a = (*batch, c_, r_) if adj_x else (*batch, r_, c_)
    bsh = (*batch, k_, c_) if adj_y else (*batch, c_, k_)
    qa, qb = quant(draw, dtype, zp=0 if dtype == "INT8" else None), quant(draw, dtype, zp=0)
    return single(op, dtype, [a, bsh], draw, "BatchMatMulOptions", in_qs=[qa, qb],
                  out_q=quant(draw, dtype, scale=draw(st.sampled_from([0.05, 0.1, 0.3]))),
                  AdjX=adj_x, AdjY=adj_y)


@gen("AVERAGE_POOL_2D", "MAX_POOL_2D")
@gen("L2_POOL_2D", dtypes=F)
@st.composite
def _pool(draw, op, dtype):
    n, h, w, c = draw(st.integers(1, 2)), draw(st.integers(2, 7)), draw(st.integers(2, 7)), draw(
        st.integers(1, 3))
    q = quant(draw, dtype)
    out_q = q if draw(st.booleans()) else quant(draw, dtype)  # another output quantization sometimes
    return single(op, dtype, [(n, h, w, c)], draw, "Pool2DOptions", out_q=out_q, in_qs=[q],
                  Padding=draw(st.integers(0, 1)), StrideW=draw(st.integers(1, 2)),
                  StrideH=draw(st.integers(1, 2)), FilterWidth=draw(st.integers(1, w)),
                  FilterHeight=draw(st.integers(1, h)), FusedActivationFunction=draw(ACT))


# ------------------------------------------------------------------------------------- shape ops
@gen("CONCATENATION")
@st.composite
def _concat(draw, op, dtype):
    base = draw(shape_st(1, 4))
    axis = draw(st.integers(0, len(base) - 1))
    k = draw(st.integers(1, 3))
    shapes = [tuple(draw(st.integers(1, 3)) if i == axis else s for i, s in enumerate(base)) for _ in range(k)]
    q = quant(draw, dtype)
    same = draw(st.booleans()) or dtype == "INT8"
    qs = [q] * k if same else [quant(draw, dtype) for _ in range(k)]
    # LiteRT's CONCATENATION accepts no fused activation (the importer maps one all the same).
    return single(op, dtype, shapes, draw, "ConcatenationOptions", in_qs=qs, out_q=q,
                  Axis=axis - len(base) if draw(st.booleans()) else axis)


@gen("PACK")
@st.composite
def _pack(draw, op, dtype):
    base = draw(shape_st(1, 3))
    k = draw(st.integers(1, 3))
    axis = draw(st.integers(0, len(base)))
    q = quant(draw, dtype)
    return single(op, dtype, [base] * k, draw, "PackOptions", in_qs=[q] * k, out_q=q, ValuesCount=k, Axis=axis)


def factor_shape(draw, n):
    dims = []
    while n > 1 and len(dims) < 3:
        divs = [d for d in range(2, n + 1) if n % d == 0]
        d = draw(st.sampled_from(divs))
        dims.append(d)
        n //= d
    if n > 1:
        dims.append(n)
    return tuple(draw(st.permutations(dims))) or (1,)


@gen("RESHAPE")
@st.composite
def _reshape(draw, op, dtype):
    s = draw(shape_st())
    new = factor_shape(draw, int(np.prod(s)))
    q = quant(draw, dtype)
    return single(op, dtype, [s, (len(new),)], draw, in_dtypes=[dtype, "INT32"], in_qs=[q, {}], out_q=q,
                  consts={1: (np.array(new, np.int32), {}, "INT32")})


@gen("SQUEEZE")
@st.composite
def _squeeze(draw, op, dtype):
    s = tuple(1 if draw(st.booleans()) else d for d in draw(shape_st(1, 4)))
    ones = [i for i, d in enumerate(s) if d == 1]
    dims = sorted(draw(st.sets(st.sampled_from(ones)))) if ones else []
    q = quant(draw, dtype)
    return single(op, dtype, [s], draw, "SqueezeOptions", in_qs=[q], out_q=q, SqueezeDims=dims)


@gen("EXPAND_DIMS")
@st.composite
def _expand(draw, op, dtype):
    s = draw(shape_st(1, 3))
    axis = draw(st.integers(-len(s) - 1, len(s)))
    q = quant(draw, dtype)
    return single(op, dtype, [s, ()], draw, in_dtypes=[dtype, "INT32"], in_qs=[q, {}], out_q=q,
                  consts={1: (np.array(axis, np.int32), {}, "INT32")})


@gen("TRANSPOSE")
@st.composite
def _transpose(draw, op, dtype):
    s = draw(shape_st(1, 4))
    perm = np.array(draw(st.permutations(range(len(s)))), np.int32)
    q = quant(draw, dtype)
    return single(op, dtype, [s, perm.shape], draw, in_dtypes=[dtype, "INT32"], in_qs=[q, {}], out_q=q,
                  consts={1: (perm, {}, "INT32")})


@gen("PAD", "PADV2")
@st.composite
def _pad(draw, op, dtype):
    s = draw(shape_st(1, 4))
    pads = np.array([[draw(st.integers(0, 2)), draw(st.integers(0, 2))] for _ in s], np.int32)
    q = quant(draw, dtype)
    consts = {1: (pads, {}, "INT32")}
    shapes, dts, qs = [s, pads.shape], [dtype, "INT32"], [q, {}]
    if op == "PADV2":
        pv = values(rng(draw), (), dtype)
        consts[2] = (pv, q, dtype)
        shapes, dts, qs = shapes + [()], dts + [dtype], qs + [q]
    return single(op, dtype, shapes, draw, in_dtypes=dts, in_qs=qs, out_q=q, consts=consts)


@gen("STRIDED_SLICE")
@st.composite
def _strided_slice(draw, op, dtype):
    s = draw(shape_st(1, 4, 1, 6))
    begin, end, strides = [], [], []
    for d in s:
        stride = draw(st.sampled_from([1, 1, 2, -1]))
        b_, e_ = draw(st.integers(-d, d - 1)), draw(st.integers(-d - 1, d))
        begin.append(b_)
        end.append(e_)
        strides.append(stride)
    n = len(s)
    bm, em = draw(st.integers(0, 2**n - 1)), draw(st.integers(0, 2**n - 1))
    shrink = 0
    for i in range(n):
        if draw(st.integers(0, 4)) == 0 and strides[i] == 1:
            # a shrunk axis takes element begin[i] (end is ignored; a begin-mask bit means 0)
            shrink |= 1 << i
            begin[i] = draw(st.integers(-s[i], s[i] - 1))
    q = quant(draw, dtype)
    arr = [np.array(v, np.int32) for v in (begin, end, strides)]
    return single(op, dtype, [s, (n,), (n,), (n,)], draw, "StridedSliceOptions",
                  in_dtypes=[dtype, "INT32", "INT32", "INT32"], in_qs=[q, {}, {}, {}], out_q=q,
                  consts={k + 1: (a, {}, "INT32") for k, a in enumerate(arr)},
                  BeginMask=bm, EndMask=em, ShrinkAxisMask=shrink)


@gen("SLICE")
@st.composite
def _slice(draw, op, dtype):
    s = draw(shape_st(1, 4))
    begin = [draw(st.integers(0, d - 1)) for d in s]
    size = [draw(st.sampled_from([-1, draw(st.integers(1, d - b))])) for d, b in zip(s, begin)]
    q = quant(draw, dtype)
    out = tuple(d - b_ if z == -1 else z for d, b_, z in zip(s, begin, size))
    return single(op, dtype, [s, (len(s),), (len(s),)], draw, in_dtypes=[dtype, "INT32", "INT32"],
                  in_qs=[q, {}, {}], out_q=q, out_default=out, consts={1: (np.array(begin, np.int32), {}, "INT32"),
                                                      2: (np.array(size, np.int32), {}, "INT32")})


@gen("SPLIT")
@st.composite
def _split(draw, op, dtype):
    s = list(draw(shape_st(1, 4)))
    axis = draw(st.integers(0, len(s) - 1))
    k = draw(st.integers(1, 3))
    s[axis] *= k
    q = quant(draw, dtype)
    r = rng(draw)
    x = values(r, s, dtype)
    ax = axis - len(s) if draw(st.booleans()) else axis

    def build(outs):
        b = TFLiteBuilder()
        at = b.add_tensor([], "INT32", data=ax)
        xt = b.add_tensor(s, dtype, **q)
        ys = [b.add_tensor(out_shape(outs, j), dtype, **q) for j in range(k)]
        b.add_op("SPLIT", [at, xt], ys, "SplitOptions", NumSplits=k)
        return b.finish([xt], ys)
    return Case(build, [x])


def multi_output(op, options, x, xdtype, q, consts, outs_spec, fields):
    """A model of one op with graph input ``x``, constant inputs ``consts`` = [(array, dtype)] after
    it and outputs ``outs_spec`` = [(dtype, quant)]."""
    def build(outs):
        b = TFLiteBuilder()
        xt = b.add_tensor(x.shape, xdtype, **q)
        cts = [b.add_tensor(np.shape(v), d, data=v) for v, d in consts]
        ys = [b.add_tensor(out_shape(outs, j, x.shape), d, **oq) for j, (d, oq) in enumerate(outs_spec)]
        b.add_op(op, [xt, *cts], ys, options, **fields)
        return b.finish([xt], ys)
    return Case(build, [x])


@gen("SPLIT_V")
@st.composite
def _split_v(draw, op, dtype):
    s = list(draw(shape_st(1, 4)))
    axis = draw(st.integers(0, len(s) - 1))
    sizes = draw(st.lists(st.integers(0, 3), min_size=1, max_size=3))
    s[axis] = max(sum(sizes), 1)
    if sum(sizes) == 0:
        sizes[-1] = 1
    if draw(st.booleans()):
        sizes[draw(st.integers(0, len(sizes) - 1))] = -1
    q = quant(draw, dtype)
    x = values(rng(draw), s, dtype)
    return multi_output(op, "SplitVOptions", x, dtype, q,
                        [(np.array(sizes, np.int32), "INT32"), (np.array(axis, np.int32), "INT32")],
                        [(dtype, q)] * len(sizes), {"NumSplits": len(sizes)})


@gen("UNPACK")
@st.composite
def _unpack(draw, op, dtype):
    s = draw(shape_st(1, 4))
    axis = draw(st.integers(-len(s), len(s) - 1))
    q = quant(draw, dtype)
    x = values(rng(draw), s, dtype)
    return multi_output(op, "UnpackOptions", x, dtype, q, [], [(dtype, q)] * s[axis],
                        {"Num": s[axis], "Axis": axis})


@gen("TOPK_V2", dtypes=("FLOAT32", "INT32"))
@st.composite
def _topk(draw, op, dtype):
    s = draw(shape_st(1, 3, 1, 6))
    k = draw(st.integers(1, s[-1]))
    r = rng(draw)
    # distinct values: the order of ties is not specified by either reference
    x = r.permutation(np.prod(s)).reshape(s).astype(NP[dtype])
    return multi_output(op, None, x, dtype, {}, [(np.array(k, np.int32), "INT32")],
                        [(dtype, {}), ("INT32", {})], {})


@gen("SPACE_TO_BATCH_ND")
@st.composite
def _s2b(draw, op, dtype):
    bh, bw = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    n, c = draw(st.integers(1, 2)), draw(st.integers(1, 3))
    pads = np.array([[draw(st.integers(0, 2)), 0], [draw(st.integers(0, 2)), 0]], np.int32)
    h = bh * draw(st.integers(1, 3)) - pads[0, 0]
    w = bw * draw(st.integers(1, 3)) - pads[1, 0]
    pads[0, 1] = (-(h + pads[0, 0])) % bh
    pads[1, 1] = (-(w + pads[1, 0])) % bw
    h, w = max(h, 1), max(w, 1)
    pads[0, 1] = (-(h + pads[0, 0])) % bh
    pads[1, 1] = (-(w + pads[1, 0])) % bw
    q = quant(draw, dtype)
    x = values(rng(draw), (n, h, w, c), dtype)
    return multi_output(op, None, x, dtype, q, [(np.array([bh, bw], np.int32), "INT32"), (pads, "INT32")],
                        [(dtype, q)], {})


@gen("BATCH_TO_SPACE_ND")
@st.composite
def _b2s(draw, op, dtype):
    bh, bw = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    n, h, w, c = draw(st.integers(1, 2)), draw(st.integers(1, 3)), draw(st.integers(1, 3)), draw(st.integers(1, 3))
    crops = np.zeros((2, 2), np.int32)
    if draw(st.booleans()):
        crops[0] = [draw(st.integers(0, (h * bh - 1) // 2)), draw(st.integers(0, (h * bh - 1) // 2))]
        crops[1] = [draw(st.integers(0, (w * bw - 1) // 2)), draw(st.integers(0, (w * bw - 1) // 2))]
    q = quant(draw, dtype)
    x = values(rng(draw), (n * bh * bw, h, w, c), dtype)
    return multi_output(op, None, x, dtype, q, [(np.array([bh, bw], np.int32), "INT32"), (crops, "INT32")],
                        [(dtype, q)], {})


@gen("SQUARED_DIFFERENCE", dtypes=F)
@st.composite
def _sqdiff(draw, op, dtype):
    a, b = broadcast_pair(draw)
    return single(op, dtype, [a, b], draw)


@gen("GATHER", dtypes=("FLOAT32", "INT32", "INT8", "UINT8"))
@st.composite
def _gather(draw, op, dtype):
    s = draw(shape_st(1, 3))
    axis = draw(st.integers(0, len(s) - 1))
    ishape = draw(shape_st(1, 2, 1, 3))
    idx = rng(draw).integers(0, s[axis], ishape).astype(np.int32)
    q = quant(draw, dtype)
    return single(op, dtype, [s, ishape], draw, "GatherOptions", in_dtypes=[dtype, "INT32"], in_qs=[q, {}],
                  out_q=q, consts={1: (idx, {}, "INT32")}, Axis=axis)


@gen("MEAN", "REDUCE_MAX", "REDUCE_MIN")
@gen("SUM", "REDUCE_PROD", dtypes=F)
@st.composite
def _reduce(draw, op, dtype):
    s = draw(shape_st(1, 4))
    axes = sorted(draw(st.sets(st.integers(0, len(s) - 1), min_size=1)))
    q = quant(draw, dtype)
    oq = q if op in ("REDUCE_MAX", "REDUCE_MIN") or draw(st.booleans()) else quant(draw, dtype)
    return single(op, dtype, [s, (len(axes),)], draw, "ReducerOptions", in_dtypes=[dtype, "INT32"],
                  in_qs=[q, {}], out_q=oq, consts={1: (np.array(axes, np.int32), {}, "INT32")},
                  lo=0.5 if op == "REDUCE_PROD" else -2, KeepDims=draw(st.booleans()))


@gen("SOFTMAX")
@st.composite
def _softmax(draw, op, dtype):
    s = draw(shape_st(1, 4))
    oq = quant(draw, dtype, 1 / 256, -128 if dtype == "INT8" else 0) if dtype in Q8 else {}
    return single(op, dtype, [s], draw, "SoftmaxOptions", out_q=oq, lo=-4, hi=4,
                  Beta=draw(st.sampled_from([1.0, 0.5, 2.0, 0.37])))


@gen("L2_NORMALIZATION")
@st.composite
def _l2norm(draw, op, dtype):
    s = draw(shape_st(1, 4))
    oq = quant(draw, dtype, 1 / 128, 0 if dtype == "INT8" else 128) if dtype in Q8 else {}
    return single(op, dtype, [s], draw, "L2NormOptions", out_q=oq)


@gen("LOCAL_RESPONSE_NORMALIZATION", dtypes=F)
@st.composite
def _lrn(draw, op, dtype):
    s = (draw(st.integers(1, 2)), draw(st.integers(1, 3)), draw(st.integers(1, 3)), draw(st.integers(1, 8)))
    return single(op, dtype, [s], draw, "LocalResponseNormalizationOptions", Radius=draw(st.integers(0, 3)),
                  Bias=draw(st.sampled_from([1.0, 0.5, 2.0])), Alpha=draw(st.sampled_from([1.0, 0.1, 1e-4])),
                  Beta=draw(st.sampled_from([0.5, 0.75, 1.0])))


@gen("RESIZE_BILINEAR", "RESIZE_NEAREST_NEIGHBOR")
@st.composite
def _resize(draw, op, dtype):
    s = (draw(st.integers(1, 2)), draw(st.integers(1, 5)), draw(st.integers(1, 5)), draw(st.integers(1, 3)))
    size = np.array([draw(st.integers(1, 9)), draw(st.integers(1, 9))], np.int32)
    mode = draw(st.sampled_from(["none", "align", "half"]))
    q = quant(draw, dtype)
    opts = "ResizeBilinearOptions" if op == "RESIZE_BILINEAR" else "ResizeNearestNeighborOptions"
    return single(op, dtype, [s, (2,)], draw, opts, in_dtypes=[dtype, "INT32"], in_qs=[q, {}], out_q=q,
                  consts={1: (size, {}, "INT32")}, AlignCorners=mode == "align",
                  HalfPixelCenters=mode == "half")


@gen("DEPTH_TO_SPACE", "SPACE_TO_DEPTH")
@st.composite
def _d2s(draw, op, dtype):
    bs = draw(st.integers(1, 3))
    n, h, w, c = draw(st.integers(1, 2)), draw(st.integers(1, 3)), draw(st.integers(1, 3)), draw(st.integers(1, 3))
    s = (n, h, w, c * bs * bs) if op == "DEPTH_TO_SPACE" else (n, h * bs, w * bs, c)
    q = quant(draw, dtype)
    opts = "DepthToSpaceOptions" if op == "DEPTH_TO_SPACE" else "SpaceToDepthOptions"
    return single(op, dtype, [s], draw, opts, in_qs=[q], out_q=q, BlockSize=bs)


@gen("ARG_MAX", "ARG_MIN")
@st.composite
def _arg(draw, op, dtype):
    s = draw(shape_st(1, 4))
    axis = draw(st.integers(0, len(s) - 1))
    opts = "ArgMaxOptions" if op == "ARG_MAX" else "ArgMinOptions"
    return single(op, dtype, [s, (1,)], draw, opts, in_dtypes=[dtype, "INT32"], in_qs=[quant(draw, dtype), {}],
                  out_dtype="INT32", out_q={}, consts={1: (np.array([axis], np.int32), {}, "INT32")},
                  OutputType=2)  # TensorType INT32


@gen("TILE", dtypes=("FLOAT32", "INT32", "INT8", "UINT8"))
@st.composite
def _tile(draw, op, dtype):
    s = draw(shape_st(1, 4, 1, 3))
    mult = np.array([draw(st.integers(1, 3)) for _ in s], np.int32)
    q = quant(draw, dtype)
    return single(op, dtype, [s, mult.shape], draw, in_dtypes=[dtype, "INT32"], in_qs=[q, {}], out_q=q,
                  consts={1: (mult, {}, "INT32")})


# ===================================================================================== the check
def check_outputs(name: str, mapping, golden: list, ref: list) -> None:
    assert len(golden) == len(ref), f"{name}: {len(golden)} golden outputs vs {len(ref)} LiteRT outputs"
    for k, (g, r) in enumerate(zip(golden, ref)):
        g, r = np.asarray(g), np.asarray(r)
        if r.shape == () and g.shape == (1,):  # NNAPI has no rank-0 tensors: a scalar comes out as [1]
            g = g.reshape(())
        assert g.shape == r.shape, f"{name} output {k}: golden shape {g.shape} vs LiteRT {r.shape}"
        if r.dtype.kind == "f":
            assert np.array_equal(np.isnan(g), np.isnan(r)), f"{name} output {k}: NaN positions differ"
            fin = ~np.isnan(r)
            if not fin.any():
                continue
            err = np.abs(g[fin].astype(np.float64) - r[fin].astype(np.float64)).max(initial=0.0)
            bound = mapping.float_tolerance * max(float(np.abs(r[fin]).max(initial=0.0)), 1e-3)
            assert err <= bound, f"{name} output {k}: max |golden - litert| = {err:g} > {bound:g}"
        elif r.dtype in (np.int8, np.uint8) and mapping is not None:
            diff = np.abs(g.astype(np.int64) - r.astype(np.int64)).max(initial=0)
            assert diff <= mapping.quant_tolerance, (
                f"{name} output {k}: golden and LiteRT differ by {diff} quantized steps (allowed "
                f"{mapping.quant_tolerance}); golden {g.reshape(-1)[:12]} litert {r.reshape(-1)[:12]}")
        else:
            assert np.array_equal(g.astype(np.int64), r.astype(np.int64)), \
                f"{name} output {k}: golden {g.reshape(-1)[:12]} vs LiteRT {r.reshape(-1)[:12]}"


def describe(data: bytes, inputs) -> str:
    """A readable summary of a drawn model (printed with a falsifying example)."""
    import tflite
    from nnaccel.compiler.tflite_import import TENSOR_TYPE_NAMES, _read_options
    m = tflite.Model.GetRootAs(data, 0)
    sg = m.Subgraphs(0)
    lines = []
    for i in range(sg.TensorsLength()):
        t = sg.Tensors(i)
        q = t.Quantization()
        qs = f" scale={list(q.ScaleAsNumpy())} zp={list(q.ZeroPointAsNumpy())}" if q and q.ScaleLength() else ""
        lines.append(f"  tensor {i}: {TENSOR_TYPE_NAMES[t.Type()]} {list(t.ShapeAsNumpy()) if t.ShapeLength() else []}"
                     f"{qs}{' const' if t.Buffer() else ''}")
    for k in range(sg.OperatorsLength()):
        o = sg.Operators(k)
        opts = _read_options(o)
        fields = {}
        for f in dir(opts) if opts is not None else ():
            if not f[0].isupper() or f.endswith(("AsNumpy", "IsNone", "Length", "BufferHasIdentifier")) \
                    or f.startswith("GetRoot") or f == "Init":
                continue
            if hasattr(opts, f + "AsNumpy"):  # a vector field
                fields[f] = list(getattr(opts, f + "AsNumpy")()) if getattr(opts, f + "Length")() else []
            else:
                fields[f] = getattr(opts, f)()
        lines.append(f"  op {k}: in {list(o.InputsAsNumpy())} out {list(o.OutputsAsNumpy())} {fields}")
    lines += [f"  input {k}: {np.asarray(x).tolist()}" for k, x in enumerate(inputs)]
    return "\n".join(lines)


def run_case(worker, name: str, case: Case, mapping) -> None:
    """Runs one drawn case through LiteRT and import + golden, and compares."""
    resolver = "BUILTIN" if name.split("[")[0] in NO_REFERENCE_KERNEL else "BUILTIN_REF"
    status, res = worker.run(case.build(None), case.inputs, resolver)
    if status != "ok":
        note(describe(case.build(None), case.inputs))
    if status == "crash":
        reject()  # LiteRT aborts on this (degenerate) model: not a comparison we can make
    assert status == "ok", f"{name}: LiteRT rejected the generated model: {res}"
    data = case.build([np.shape(r) for r in res])
    note(describe(data, case.inputs))
    status, res = worker.run(data, case.inputs, resolver)
    assert status == "ok", f"{name}: LiteRT rejected the model with its own output shapes: {res}"
    model = import_tflite_bytes(data, name=name)
    for op in model.main.operations:
        if not registry.get(op.type).implemented:
            pytest.skip(f"golden kernel for {op.type} not implemented yet")
    golden = run_model(model, list(case.inputs))
    check_outputs(name, mapping, golden, res)


def run_budget(worker, op: str, dtype: str, examples: int, derandomize: bool) -> None:
    _dtypes, strategy = GENS[op]
    mapping = OP_TABLE[op]

    @settings(max_examples=examples, deadline=None, derandomize=derandomize, database=None,
              suppress_health_check=list(HealthCheck))
    @given(st.data())
    def inner(data):
        run_case(worker, f"{op}[{dtype}]", data.draw(strategy(op, dtype)), mapping)

    inner()


PARAMS = [pytest.param(op, dt, id=f"{op}-{dt}") for op, (dts, _) in sorted(GENS.items()) for dt in dts]


def test_every_required_op_has_a_generator():
    required = ["ADD", "SUB", "MUL", "DIV", "CONV_2D", "DEPTHWISE_CONV_2D", "TRANSPOSE_CONV", "FULLY_CONNECTED", "BATCH_MATMUL", "AVERAGE_POOL_2D", "MAX_POOL_2D", "L2_POOL_2D", "CONCATENATION", "RESHAPE", "SQUEEZE", "EXPAND_DIMS", "TRANSPOSE", "PAD", "PADV2", "STRIDED_SLICE", "SLICE", "SPLIT", "GATHER", "MEAN", "SUM", "REDUCE_MAX", "REDUCE_MIN", "REDUCE_PROD", "SOFTMAX", "LOG_SOFTMAX", "LOGISTIC", "TANH", "RELU", "RELU6", "RELU_N1_TO_1", "ELU", "HARD_SWISH", "PRELU", "LEAKY_RELU", "RESIZE_BILINEAR", "RESIZE_NEAREST_NEIGHBOR", "DEPTH_TO_SPACE", "SPACE_TO_DEPTH", "QUANTIZE", "DEQUANTIZE", "CAST", "ABS", "NEG", "EXP", "LOG", "SQRT", "RSQRT", "SIN", "POW", "MAXIMUM", "MINIMUM", "EQUAL", "NOT_EQUAL", "GREATER", "GREATER_EQUAL", "LESS", "LESS_EQUAL", "LOGICAL_AND", "LOGICAL_OR", "LOGICAL_NOT", "SELECT", "SELECT_V2", "ARG_MAX", "ARG_MIN", "L2_NORMALIZATION", "LOCAL_RESPONSE_NORMALIZATION", "TILE", "PACK", "SQUARE"]
    assert not [op for op in required if op not in OP_TABLE], "ops without an importer mapping"
    assert not [op for op in required if op not in GENS], "ops without a differential-test generator"


@pytest.mark.parametrize("op,dtype", PARAMS)
def test_matches_litert(litert, op, dtype):
    run_budget(litert, op, dtype, DEFAULT_EXAMPLES, derandomize=True)


@pytest.mark.litert
@pytest.mark.slow
@pytest.mark.parametrize("op,dtype", PARAMS)
def test_matches_litert_large(litert, op, dtype):
    run_budget(litert, op, dtype, LARGE_EXAMPLES, derandomize=False)


# ================================================================================ multi-op graphs
class GraphBuilder:
    """Small helper over TFLiteBuilder for hand-built float32 / int8 graphs."""

    def __init__(self, dtype: str, seed: int):
        self.b, self.dtype, self.r = TFLiteBuilder(), dtype, np.random.default_rng(seed)

    def act(self, shape, scale=0.05, zp=0):
        return self.b.add_tensor(shape, self.dtype, **({"scale": scale, "zero_point": zp}
                                                       if self.dtype == "INT8" else {}))

    def conv(self, x, in_scale, cin, cout, k, out_scale, act=0, depthwise=False):
        shape = (1, k, k, cout) if depthwise else (cout, k, k, cin)
        w = self.r.uniform(-1, 1, shape) * (0.6 / np.sqrt(k * k * (1 if depthwise else cin)))
        bias = self.r.uniform(-0.2, 0.2, cout)
        qdim = 3 if depthwise else 0
        if self.dtype == "INT8":
            ws = np.abs(w).max(axis=tuple(i for i in range(4) if i != qdim)) / 127
            wq = np.round(w / ws.reshape([-1 if i == qdim else 1 for i in range(4)])).astype(np.int8)
            wt = self.b.add_tensor(shape, "INT8", data=wq, scale=list(ws), zero_point=[0] * cout,
                                   quantized_dimension=qdim)
            bs = in_scale * ws
            bt = self.b.add_tensor([cout], "INT32", data=np.round(bias / bs).astype(np.int32), scale=list(bs),
                                   zero_point=[0] * cout)
        else:
            wt = self.b.add_tensor(shape, "FLOAT32", data=w)
            bt = self.b.add_tensor([cout], "FLOAT32", data=bias)
        return wt, bt, out_scale, act


def residual_cnn(dtype: str, seed: int) -> tuple[bytes, list]:
    """conv3x3+RELU -> conv3x3 -> ADD(residual)+RELU -> avg pool 2x2 -> RESHAPE -> FC -> SOFTMAX."""
    g = GraphBuilder(dtype, seed)
    b = g.b
    x = g.act((1, 8, 8, 3), 0.02, 0)
    c1 = g.act((1, 8, 8, 8), 0.04, -128)
    w1, b1, _, _ = g.conv(x, 0.02, 3, 8, 3, 0.04)
    b.add_op("CONV_2D", [x, w1, b1], [c1], "Conv2DOptions", Padding=0, StrideW=1, StrideH=1,
             FusedActivationFunction=1)
    c2 = g.act((1, 8, 8, 8), 0.05, 3)
    w2, b2, _, _ = g.conv(c1, 0.04, 8, 8, 3, 0.05)
    b.add_op("CONV_2D", [c1, w2, b2], [c2], "Conv2DOptions", Padding=0, StrideW=1, StrideH=1)
    s = g.act((1, 8, 8, 8), 0.06, -128)
    b.add_op("ADD", [c1, c2], [s], "AddOptions", FusedActivationFunction=1)
    p = g.act((1, 4, 4, 8), 0.06, -128)
    b.add_op("AVERAGE_POOL_2D", [s], [p], "Pool2DOptions", Padding=1, StrideW=2, StrideH=2, FilterWidth=2,
             FilterHeight=2)
    shape = b.add_tensor([2], "INT32", data=[1, 128])
    f = g.act((1, 128), 0.06, -128)
    b.add_op("RESHAPE", [p, shape], [f])
    wf = g.r.uniform(-1, 1, (10, 128)) * 0.1
    bf = g.r.uniform(-0.5, 0.5, 10)
    if dtype == "INT8":
        ws = float(np.abs(wf).max() / 127)
        wt = b.add_tensor([10, 128], "INT8", data=np.round(wf / ws).astype(np.int8), scale=ws, zero_point=0)
        bt = b.add_tensor([10], "INT32", data=np.round(bf / (0.06 * ws)).astype(np.int32), scale=0.06 * ws,
                          zero_point=0)
    else:
        wt, bt = b.add_tensor([10, 128], "FLOAT32", data=wf), b.add_tensor([10], "FLOAT32", data=bf)
    logits = g.act((1, 10), 0.1, 0)
    b.add_op("FULLY_CONNECTED", [f, wt, bt], [logits], "FullyConnectedOptions")
    out = g.act((1, 10), 1 / 256, -128)
    b.add_op("SOFTMAX", [logits], [out], "SoftmaxOptions", Beta=1.0)
    inp = values(g.r, (1, 8, 8, 3), dtype)
    return b.finish([x], [out, s]), [inp]


def separable_block(dtype: str, seed: int) -> tuple[bytes, list]:
    """depthwise 3x3 + RELU6 -> pointwise 1x1 conv + RELU6 -> max pool 2x2 -> MEAN over H, W."""
    g = GraphBuilder(dtype, seed)
    b = g.b
    x = g.act((1, 8, 8, 4), 0.03, 5)
    d = g.act((1, 8, 8, 4), 6 / 255, -128)
    wd, bd, _, _ = g.conv(x, 0.03, 4, 4, 3, 6 / 255, depthwise=True)
    b.add_op("DEPTHWISE_CONV_2D", [x, wd, bd], [d], "DepthwiseConv2DOptions", Padding=0, StrideW=1, StrideH=1,
             DepthMultiplier=1, FusedActivationFunction=3)
    pw = g.act((1, 8, 8, 8), 6 / 255, -128)
    wp, bp, _, _ = g.conv(d, 6 / 255, 4, 8, 1, 6 / 255)
    b.add_op("CONV_2D", [d, wp, bp], [pw], "Conv2DOptions", Padding=0, StrideW=1, StrideH=1,
             FusedActivationFunction=3)
    mp = g.act((1, 4, 4, 8), 6 / 255, -128)
    b.add_op("MAX_POOL_2D", [pw], [mp], "Pool2DOptions", Padding=1, StrideW=2, StrideH=2, FilterWidth=2,
             FilterHeight=2)
    axes = b.add_tensor([2], "INT32", data=[1, 2])
    m = g.act((1, 8), 6 / 255, -128)
    b.add_op("MEAN", [mp, axes], [m], "ReducerOptions", KeepDims=False)
    return b.finish([x], [m]), [values(g.r, (1, 8, 8, 4), dtype)]


def fp16_weights_conv(dtype: str, seed: int) -> tuple[bytes, list]:
    """float16 weights and bias behind DEQUANTIZE (folded by the importer) feeding a CONV_2D + RELU6."""
    r = np.random.default_rng(seed)
    b = TFLiteBuilder()
    x = b.add_tensor((1, 6, 6, 3), "FLOAT32")
    w16 = b.add_tensor((4, 3, 3, 3), "FLOAT16", data=r.uniform(-1, 1, (4, 3, 3, 3)).astype(np.float16))
    b16 = b.add_tensor((4,), "FLOAT16", data=r.uniform(-1, 1, 4).astype(np.float16))
    w, bias = b.add_tensor((4, 3, 3, 3), "FLOAT32"), b.add_tensor((4,), "FLOAT32")
    b.add_op("DEQUANTIZE", [w16], [w])
    b.add_op("DEQUANTIZE", [b16], [bias])
    y = b.add_tensor((1, 6, 6, 4), "FLOAT32")
    b.add_op("CONV_2D", [x, w, bias], [y], "Conv2DOptions", Padding=0, StrideW=1, StrideH=1,
             FusedActivationFunction=3)
    return b.finish([x], [y]), [values(r, (1, 6, 6, 3), "FLOAT32")]


#: Largest int8 difference allowed at a multi-op graph's outputs: every operation of the graphs
#: follows LiteRT's arithmetic exactly (Model.origin), so they are bit-exact.
GRAPH_QUANT_TOLERANCE = 0


GRAPHS = [pytest.param(g, dt, id=f"{g.__name__}-{dt}") for g in (residual_cnn, separable_block)
          for dt in ("FLOAT32", "INT8")] + [pytest.param(fp16_weights_conv, "FLOAT32", id="fp16_weights_conv")]


@pytest.mark.parametrize("graph,dtype", GRAPHS)
@pytest.mark.parametrize("seed", range(3))
def test_graph_matches_litert(litert, graph, dtype, seed):
    data, inputs = graph(dtype, seed)
    status, ref = litert.run(data, inputs)
    assert status == "ok", ref
    model = import_tflite_bytes(data, name=graph.__name__)
    for op in model.main.operations:
        if not registry.get(op.type).implemented:
            pytest.skip(f"golden kernel for {op.type} not implemented yet")
    golden = run_model(model, inputs)
    tol = OpMapping("graph", (), None, quant_tolerance=GRAPH_QUANT_TOLERANCE)
    check_outputs(f"{graph.__name__}[{dtype}]", tol, golden, ref)


# ====================================================================== LiteRT's exact arithmetic
# Models built so that NNAPI's reference arithmetic and LiteRT's give different int8 results; an
# imported TFLite model (Model.origin == "tflite") must give LiteRT's. Each test also checks that
# the same model run with NNAPI's arithmetic differs, so it would catch a regression to it.
def run_both(litert, data, inputs):
    """LiteRT BUILTIN_REF outputs, golden outputs, and the imported model with NNAPI's arithmetic."""
    status, ref = litert.run(data, inputs)
    assert status == "ok", ref
    model = import_tflite_bytes(data, name="arith")
    assert model.origin == "tflite"
    golden = run_model(model, inputs)
    return ref, golden, dataclasses.replace(model, origin="nnapi")


def isa_on_tiny(model, inputs, ref) -> list[str]:
    """``model`` with LiteRT's arithmetic (``Model.origin`` "tflite") compiled for tiny and run on
    the ISA simulator: asserts its outputs are LiteRT's ``ref`` bit for bit; returns the types of
    the operations that ran on the accelerator."""
    from nnaccel.compiler.compile import compile_model
    from nnaccel.firmware.runtime import run_on_backend
    outs, report = run_on_backend(compile_model(dataclasses.replace(model, origin="tflite"), "tiny"), inputs, "isa")
    assert_bit_exact(outs, ref)
    return [o["type"] for o in report["accelerator_ops"]]


def all_bytes_unary(litert, op: str, dtype: str, in_q, out_q, options=None, **fields):
    """A one-operator TFLite model of ``op`` over all 256 input bytes (``in_q`` / ``out_q`` the
    (scale, zero point) of input and output), run on LiteRT and imported: ``(ref, golden, model
    with NNAPI's arithmetic, inputs)``."""
    b = TFLiteBuilder()
    x = b.add_tensor((1, 256), dtype, scale=in_q[0], zero_point=in_q[1])
    y = b.add_tensor((1, 256), dtype, scale=out_q[0], zero_point=out_q[1])
    b.add_op(op, [x], [y], options, **fields)
    inputs = [np.arange(256, dtype=np.uint8).view(NP[dtype]).reshape(1, 256)]
    return (*run_both(litert, b.finish([x], [y]), inputs), inputs)


def assert_bit_exact(golden, ref):
    for g, r in zip(golden, ref):
        assert g.dtype == r.dtype and np.array_equal(g.reshape(r.shape), r), (g.reshape(-1)[:16], r.reshape(-1)[:16])


def float32_product_sensitive(si: float, so: float, channels: int, per_channel: bool, seed: int = 1):
    """Filter scales whose multiplier ``s_in * s_w / s_out`` quantizes differently with the product
    rounded to float32 (NNAPI) than in double (LiteRT's int8 convolutions), one per channel (or one
    for all), and per channel an accumulator whose requantized value (< 100 in magnitude) differs
    between the two multipliers."""
    from nnaccel.quant import multiply_by_quantized_multiplier, quantize_multiplier
    r = np.random.default_rng(seed)
    scales, accs = [], []
    while len(accs) < channels:
        sw = float(np.float32(r.uniform(0.002, 0.02)))
        m32 = quantize_multiplier(float(np.float32(si) * np.float32(sw)) / so)
        m64 = quantize_multiplier(si * sw / so)
        real = si * sw / so
        near = np.array([np.floor((q + 0.5) / real) + d for q in range(-100, 100) for d in (-1, 0, 1)], np.int64)
        hits = near[multiply_by_quantized_multiplier(near, *m32) != multiply_by_quantized_multiplier(near, *m64)]
        want = 1 if per_channel else channels
        if m32 != m64 and hits.size >= want:
            picked = hits[np.linspace(0, hits.size - 1, want).astype(int)]
            scales += [sw] * want
            accs += [int(v) for v in picked]
    return scales, np.array(accs, np.int32)


@pytest.mark.parametrize("op", ["CONV_2D", "DEPTHWISE_CONV_2D", "TRANSPOSE_CONV"])
@pytest.mark.parametrize("per_channel", [True, False])
def test_int8_conv_multiplier_is_litert_double_product(litert, op, per_channel):
    si, so = float(np.float32(0.0215)), float(np.float32(4.1))
    n = 6
    scales, accs = float32_product_sensitive(si, so, n, per_channel)
    b = TFLiteBuilder()
    dw = op == "DEPTHWISE_CONV_2D"
    x = b.add_tensor((1, 1, 1, n if dw else 1), "INT8", scale=si, zero_point=-3)
    wshape = (1, 1, 1, n) if dw else (n, 1, 1, 1)
    wq = {"scale": scales, "zero_point": [0] * n} if per_channel else {"scale": scales[0], "zero_point": 0}
    w = b.add_tensor(wshape, "INT8", data=np.ones(wshape, np.int8), quantized_dimension=3 if dw else 0, **wq)
    bs = [float(np.float32(si) * np.float32(s)) for s in scales]
    bq = {"scale": bs, "zero_point": [0] * n} if per_channel else {"scale": bs[0], "zero_point": 0}
    bias = b.add_tensor((n,), "INT32", data=accs, **bq)
    y = b.add_tensor((1, 1, 1, n), "INT8", scale=so, zero_point=2)
    if op == "CONV_2D":
        b.add_op(op, [x, w, bias], [y], "Conv2DOptions", Padding=1, StrideW=1, StrideH=1)
    elif dw:
        b.add_op(op, [x, w, bias], [y], "DepthwiseConv2DOptions", Padding=1, StrideW=1, StrideH=1, DepthMultiplier=1)
    else:
        shape = b.add_tensor((4,), "INT32", data=[1, 1, 1, n])
        b.add_op(op, [shape, w, x, bias], [y], "TransposeConvOptions", Padding=1, StrideW=1, StrideH=1)
    inputs = [np.full((1, 1, 1, n if dw else 1), -3, np.int8)]  # q - z_in = 0: the accumulator is the bias
    ref, golden, model = run_both(litert, b.finish([x], [y]), inputs)
    assert_bit_exact(golden, ref)
    assert not np.array_equal(run_model(model, inputs)[0].reshape(ref[0].shape), ref[0])
    if op != "TRANSPOSE_CONV":  # the accelerator's requantization takes the same multipliers
        from nnaccel.compiler.compile import compile_model
        from nnaccel.firmware.runtime import run_on_backend
        pkg = compile_model(dataclasses.replace(model, origin="tflite"), "tiny")
        outs, report = run_on_backend(pkg, inputs, "isa")
        assert [o["type"] for o in report["accelerator_ops"]] == [op]
        assert_bit_exact(outs, ref)


@pytest.mark.parametrize("keep", [True, False])
@pytest.mark.parametrize("axes", [[1, 2], [2], [-1]])
@pytest.mark.parametrize("requantize", [False, True])
@pytest.mark.parametrize("dtype", ["INT8", "UINT8"])
def test_quantized_mean_is_litert_quantized_mean_or_sum(litert, keep, axes, requantize, dtype):
    shape = (2, 3, 4, 5)
    off = 128 if dtype == "UINT8" else 0
    zi, si = 7 + off, 0.03
    zo, so = (zi, si) if not requantize else (-11 + off, 0.017)
    b = TFLiteBuilder()
    x = b.add_tensor(shape, dtype, scale=si, zero_point=zi)
    ax = b.add_tensor((len(axes),), "INT32", data=axes)
    norm = [a % 4 for a in axes]
    oshape = tuple(1 if i in norm else d for i, d in enumerate(shape) if keep or i not in norm)
    y = b.add_tensor(oshape, dtype, scale=so, zero_point=zo)
    b.add_op("MEAN", [x, ax], [y], "ReducerOptions", KeepDims=keep)
    r = np.random.default_rng(sum(map(ord, f"{keep}{axes}{requantize}{dtype}")))
    xin = (r.integers(-120, 40, shape) + off).astype(NP[dtype])  # mostly below the zero point: negative sums
    ref, golden, model = run_both(litert, b.finish([x], [y]), [xin])
    assert_bit_exact(golden, ref)
    if not requantize:  # NNAPI's MEAN requires equal quantization
        assert not np.array_equal(run_model(model, [xin])[0].reshape(ref[0].shape), ref[0])


@pytest.mark.parametrize("mode", ["half_pixel_centers", "align_corners", "plain"])
@pytest.mark.parametrize("dtype", ["INT8", "UINT8"])
@pytest.mark.parametrize("sizes", [(3, 4, 7, 9), (2, 3, 5, 5), (4, 6, 8, 12)])
def test_quantized_resize_bilinear_is_litert(litert, mode, dtype, sizes):
    ih, iw, oh, ow = sizes
    b = TFLiteBuilder()
    x = b.add_tensor((1, ih, iw, 3), dtype, scale=0.05, zero_point=3)
    size = b.add_tensor((2,), "INT32", data=[oh, ow])
    y = b.add_tensor((1, oh, ow, 3), dtype, scale=0.05, zero_point=3)
    b.add_op("RESIZE_BILINEAR", [x, size], [y], "ResizeBilinearOptions", AlignCorners=mode == "align_corners",
             HalfPixelCenters=mode == "half_pixel_centers")
    xin = values(np.random.default_rng(ih * 100 + oh), (1, ih, iw, 3), dtype)
    ref, golden, model = run_both(litert, b.finish([x], [y]), [xin])
    assert_bit_exact(golden, ref)
    assert not np.array_equal(run_model(model, [xin])[0], ref[0])


@pytest.mark.parametrize("stride,padding", [(1, 0), (2, 1)])
def test_float_conv_sums_in_litert_order(litert, stride, padding):
    """A deep float32 CONV_2D (3x3 over 96 channels), bit-exact with LiteRT's reference."""
    r = np.random.default_rng(stride)
    cin, cout = 96, 8
    b = TFLiteBuilder()
    x = b.add_tensor((1, 6, 7, cin), "FLOAT32")
    w = b.add_tensor((cout, 3, 3, cin), "FLOAT32", data=r.standard_normal((cout, 3, 3, cin)).astype(np.float32))
    bias = b.add_tensor((cout,), "FLOAT32", data=r.standard_normal(cout).astype(np.float32))
    y = b.add_tensor((1, 1, 1, cout), "FLOAT32")
    b.add_op("CONV_2D", [x, w, bias], [y], "Conv2DOptions", Padding=padding, StrideW=stride, StrideH=stride,
             FusedActivationFunction=0)
    xin = r.standard_normal((1, 6, 7, cin)).astype(np.float32)
    status, first = litert.run(b.finish([x], [y]), [xin])
    assert status == "ok", first
    b.tensors[y]["shape"] = list(first[0].shape)
    ref, golden, _ = run_both(litert, b.finish([x], [y]), [xin])
    assert_bit_exact(golden, ref)


# --------------------------------------------------------------------------- grouped CONV_2D
@pytest.mark.parametrize("dtype", ["INT8", "FLOAT32"])
def test_grouped_conv2d_imports_as_grouped_conv(litert, dtype):
    """A TFLite CONV_2D whose filter depth divides the input depth (2 groups of 3 -> 2 x 4 outputs)
    imports as GROUPED_CONV_2D and gives LiteRT's answer; the int8 one runs on the accelerator."""
    r = np.random.default_rng(7)
    b = TFLiteBuilder()
    q = dtype == "INT8"
    x = b.add_tensor((1, 5, 5, 6), dtype, **({"scale": 0.05, "zero_point": -4} if q else {}))
    wdata = r.integers(-60, 60, (8, 3, 3, 3)).astype(np.int8) if q else r.standard_normal((8, 3, 3, 3), np.float32)
    scales = [float(s) for s in r.uniform(0.004, 0.02, 8)]
    w = b.add_tensor((8, 3, 3, 3), dtype, data=wdata,
                     **({"scale": scales, "zero_point": [0] * 8, "quantized_dimension": 0} if q else {}))
    bias = b.add_tensor((8,), "INT32" if q else "FLOAT32",
                        data=(r.integers(-500, 500, 8).astype(np.int32) if q else r.standard_normal(8, np.float32)),
                        **({"scale": [0.05 * s for s in scales], "zero_point": [0] * 8} if q else {}))
    y = b.add_tensor((1, 3, 3, 8), dtype, **({"scale": 0.11, "zero_point": 3} if q else {}))
    b.add_op("CONV_2D", [x, w, bias], [y], "Conv2DOptions", Padding=1, StrideW=1, StrideH=1)
    inputs = [r.integers(-128, 128, (1, 5, 5, 6)).astype(np.int8) if q else r.standard_normal((1, 5, 5, 6), np.float32)]
    ref, golden, model = run_both(litert, b.finish([x], [y]), inputs)
    assert [op.type for op in model.main.operations] == ["GROUPED_CONV_2D"]
    if q:
        assert_bit_exact(golden, ref)
        from nnaccel.compiler.compile import compile_model
        from nnaccel.firmware.runtime import run_on_backend
        outs, report = run_on_backend(compile_model(model, "small"), inputs, "isa")
        assert [o["type"] for o in report["accelerator_ops"]] == ["GROUPED_CONV_2D"]
        assert_bit_exact(outs, ref)
    else:
        np.testing.assert_allclose(golden[0].reshape(ref[0].shape), ref[0], rtol=1e-5, atol=1e-5)


# ------------------------------------------------------------------ FULLY_CONNECTED's one rounding
def fc_half_step_accumulators(si: float, sw: float, so: float, units: int, seed: int = 3) -> np.ndarray:
    """Accumulators whose NNAPI requantization (``mbqm`` with the float32-product multiplier, two
    roundings) differs from LiteRT's ``round(double(acc) * real)``: values at and next to the half
    steps ``(k + 0.5) / real``, positive and negative."""
    from nnaccel.quant import multiply_by_quantized_multiplier, quantize_multiplier, round_double_product
    real = si * sw / so
    m, e = quantize_multiplier(float(np.float32(si) * np.float32(sw)) / so)
    near = np.array([int(np.floor((k + 0.5) / real)) + d for k in range(-60, 60) for d in (-1, 0, 1, 2)], np.int64)
    hits = near[multiply_by_quantized_multiplier(near, m, e) != round_double_product(near, real)]
    r = np.random.default_rng(seed)
    return r.permutation(hits)[:units]


@pytest.mark.parametrize("dtype", ["INT8", "UINT8"])
@pytest.mark.parametrize("scales", [(0.5, 0.5, 1.0), (1.0, 1.0, 6.0), (0.0215, 0.0131, 0.173), (0.39, 3.8e-4, 0.0495)])
def test_fully_connected_rounds_once_as_litert(litert, dtype, scales):
    """FULLY_CONNECTED (per-tensor weights) whose accumulators lie on or next to half steps: LiteRT's
    reference rounds ``double(acc) * real`` once, half away from zero (exact negative ties, and
    ``3 * (1 / 6.0)`` whose double product is 0.5); NNAPI's double rounding gives other values. The
    imported model gives LiteRT's answer, and so does the accelerator (REQ with ``round`` = 1)."""
    si, sw, so = (float(np.float32(v)) for v in scales)
    if scales[:2] == (0.5, 0.5):
        accs = np.arange(-9, 10)
    elif scales[:2] == (1.0, 1.0):
        accs = np.array([3, -3, 9, -9, 15, -15])  # exact ties, and the double product's own rounding
    else:
        accs = fc_half_step_accumulators(si, sw, so, 16)
    n = len(accs)
    q8 = dtype == "UINT8"
    zx, zw, zo = (128, 128, 131) if q8 else (-3, 0, 2)
    b = TFLiteBuilder()
    x = b.add_tensor((1, 1), dtype, scale=si, zero_point=zx)
    w = b.add_tensor((n, 1), dtype, data=np.full((n, 1), zw + 1, NP[dtype]), scale=sw, zero_point=zw)
    bias = b.add_tensor((n,), "INT32", data=accs.astype(np.int32), scale=float(np.float32(si) * np.float32(sw)),
                        zero_point=0)
    y = b.add_tensor((1, n), dtype, scale=so, zero_point=zo)
    b.add_op("FULLY_CONNECTED", [x, w, bias], [y], "FullyConnectedOptions", FusedActivationFunction=0)
    inputs = [np.full((1, 1), zx, NP[dtype])]  # q - z_in = 0: the accumulator is the bias
    ref, golden, model = run_both(litert, b.finish([x], [y]), inputs)
    assert_bit_exact(golden, ref)
    if scales[:2] != (1.0, 1.0):  # there NNAPI's two roundings happen to agree with LiteRT
        assert not np.array_equal(run_model(model, inputs)[0].reshape(ref[0].shape), ref[0])
    assert isa_on_tiny(model, inputs, ref) == ["FULLY_CONNECTED"]


# ------------------------------------------------------------------ LOGISTIC / TANH: LiteRT's table
#: Input scales at which gemmlowp's fixed-point LOGISTIC / TANH (NNAPI's) round some of the 256
#: inputs (zero point 0 / 128) the other way than LiteRT's float look-up table.
TABLE_SENSITIVE_SCALES = {"LOGISTIC": (0.003841903293505311, 0.008377624675631523),
                          "TANH": (0.008377624675631523, 0.008449387736618519)}


@pytest.mark.parametrize("op,si", [(op, si) for op, scales in TABLE_SENSITIVE_SCALES.items() for si in scales])
@pytest.mark.parametrize("dtype", ["INT8", "UINT8"])
def test_quantized_logistic_tanh_are_litert_float_table(litert, op, si, dtype):
    """Quantized LOGISTIC / TANH over all 256 input bytes: the imported model gives LiteRT's
    answer (its float table), NNAPI's fixed-point arithmetic does not, and the accelerator, whose
    LUT is the golden kernel evaluated on every byte, gives LiteRT's too."""
    off = 128 if dtype == "UINT8" else 0
    so, zo = (1 / 256, off - 128) if op == "LOGISTIC" else (1 / 128, off)
    ref, golden, model, inputs = all_bytes_unary(litert, op, dtype, (si, off), (so, zo))
    assert_bit_exact(golden, ref)
    assert not np.array_equal(run_model(model, inputs)[0], ref[0])
    assert isa_on_tiny(model, inputs, ref) == [op]


# --------------------------------------------------------- PRELU / LEAKY_RELU: float32 multipliers
#: (s_in, alpha, s_out) at which LEAKY_RELU's multiplier s_in * alpha / s_out computed in float32
#: (LiteRT) and with the quotient in double (NNAPI) quantize to different Q31 values that requantize
#: some int8 input apart.
LEAKY_SENSITIVE = [(0.06439809501171112, 0.8999999761581421, 0.05577939748764038),
                   (0.05598275735974312, 0.5, 0.019293492659926414),
                   (0.040217868983745575, 0.10000000149011612, 0.04199998080730438)]
#: (s_in, s_alpha, s_out) likewise for PRELU, with alpha q - z in 1..16.
PRELU_SENSITIVE = [(0.04563824087381363, 0.01955484226346016, 0.050355955958366394),
                   (0.0831940621137619, 0.03420991823077202, 0.07704479247331619),
                   (0.016057543456554413, 0.03627927973866463, 0.00966931413859129)]


@pytest.mark.parametrize("scales", LEAKY_SENSITIVE)
@pytest.mark.parametrize("dtype", ["INT8", "UINT8"])
def test_leaky_relu_multiplier_is_litert_float32(litert, scales, dtype):
    """LEAKY_RELU over all 256 input bytes: the imported model (PRELU with a one-element alpha)
    gives LiteRT's answer, NNAPI's double quotient does not."""
    si, alpha, so = scales
    off = 128 if dtype == "UINT8" else 0
    ref, golden, model, inputs = all_bytes_unary(litert, "LEAKY_RELU", dtype, (si, off), (so, off + 5),
                                                  "LeakyReluOptions", Alpha=alpha)
    assert_bit_exact(golden, ref)
    assert not np.array_equal(run_model(model, inputs)[0], ref[0])


@pytest.mark.parametrize("scales", PRELU_SENSITIVE)
@pytest.mark.parametrize("dtype", ["INT8", "UINT8"])
def test_prelu_multiplier_is_litert_float32(litert, scales, dtype):
    """PRELU of every input byte by 16 alphas (q - z = 1..16, broadcast): LiteRT's float32
    multiplier s_in * s_alpha / s_out, bit for bit; NNAPI's double quotient differs."""
    si, sa, so = scales
    off = 128 if dtype == "UINT8" else 0
    b = TFLiteBuilder()
    x = b.add_tensor((256, 16), dtype, scale=si, zero_point=off)
    a = b.add_tensor((16,), dtype, data=(np.arange(1, 17) + off - 3).astype(NP[dtype]), scale=sa, zero_point=off - 3)
    y = b.add_tensor((256, 16), dtype, scale=so, zero_point=off - 7)
    b.add_op("PRELU", [x, a], [y])
    inputs = [np.repeat(np.arange(256, dtype=np.uint8).view(NP[dtype])[:, None], 16, axis=1)]
    ref, golden, model = run_both(litert, b.finish([x], [y]), inputs)
    assert_bit_exact(golden, ref)
    assert not np.array_equal(run_model(model, inputs)[0], ref[0])


# ------------------------------------------------------------- requantization: QUANTIZE and the RELUs
def float_requantize(q: np.ndarray, si: float, zi: int, so: float, zo: int, lo: int, hi: int) -> np.ndarray:
    """DEQUANTIZE + QUANTIZE through float32 (what NNAPI ops compose to without a requantize op):
    ``round_half_away(float32(float32(s_in * (q - z_in)) / s_out)) + z_out``, clamped."""
    v = np.float32(si) * (q.astype(np.int64) - zi).astype(np.float32)
    r = (v / np.float32(so)).astype(np.float64)
    return np.clip(np.sign(r) * np.floor(np.abs(r) + 0.5) + zo, lo, hi).astype(np.int64)


#: (s_in, s_out): an exact ratio 1/2 (gemmlowp's double rounding takes -0.5 toward zero), and two
#: ratios at which the fixed-point rescaling rounds many small values up where float rounds down.
REQUANT_SCALES = [(0.1, 0.2), (0.013136670924723148, 0.03131294623017311), (0.024683160707354546, 0.06670811772346497)]


@pytest.mark.parametrize("scales", REQUANT_SCALES)
@pytest.mark.parametrize("types", ["INT8->INT8", "UINT8->UINT8", "INT8->UINT8", "UINT8->INT8"])
@pytest.mark.parametrize("shape", [(1, 256), (256,), (2, 4, 8, 4)])
def test_requantize_is_litert(litert, scales, types, shape):
    """QUANTIZE of a quantized tensor (LiteRT's ``Requantize``: ``mbqm(q - z_in, M(s_in / s_out)) +
    z_out``) over every input byte, in the three shapes the importer's MEAN decomposition
    distinguishes: bit-exact with LiteRT, where DEQUANTIZE + QUANTIZE is not."""
    src, dst = types.split("->")
    si, so = (float(np.float32(s)) for s in scales)
    zi, zo = (128 if src == "UINT8" else 0) - 3, (128 if dst == "UINT8" else 0) + 4
    b = TFLiteBuilder()
    x = b.add_tensor(shape, src, scale=si, zero_point=zi)
    y = b.add_tensor(shape, dst, scale=so, zero_point=zo)
    b.add_op("QUANTIZE", [x], [y])
    inputs = [np.arange(256, dtype=np.uint8).view(NP[src]).reshape(shape)]
    ref, golden, _ = run_both(litert, b.finish([x], [y]), inputs)
    assert_bit_exact(golden, ref)
    info = np.iinfo(NP[dst])
    assert not np.array_equal(float_requantize(inputs[0], si, zi, so, zo, info.min, info.max), ref[0])


@pytest.mark.parametrize("op,scales", [(op, sc) for op in ("RELU", "RELU6", "RELU_N1_TO_1") for sc in REQUANT_SCALES
                                       if op == "RELU_N1_TO_1" or sc != (0.1, 0.2)])  # 1/2: -0.5 is clamped
@pytest.mark.parametrize("dtype", ["INT8", "UINT8"])
def test_relu_with_another_output_quantization_is_litert(litert, op, scales, dtype):
    """A RELU family op whose output is quantized differently: LiteRT's ``ReluX`` rescales with
    the multiplier of ``float32(s_in / s_out)`` and clamps in the output's scale; the imported
    model (PRELU of unit alpha, then the op) gives that bit for bit, DEQUANTIZE + QUANTIZE does
    not; compiled, the op runs on the accelerator (the PRELU on the host), bit-exact too."""
    si, so = (float(np.float32(s)) for s in scales)
    off = 128 if dtype == "UINT8" else 0
    zi, zo = off - 3, off - 60
    ref, golden, model, inputs = all_bytes_unary(litert, op, dtype, (si, zi), (so, zo))
    assert_bit_exact(golden, ref)
    info = np.iinfo(NP[dtype])
    lo, hi = {"RELU": (0.0, None), "RELU6": (0.0, 6.0), "RELU_N1_TO_1": (-1.0, 1.0)}[op]
    bound = (lambda v: zo + int(np.sign(v / so) * np.floor(abs(np.float32(v) / np.float32(so)) + 0.5)))
    old = np.clip(float_requantize(inputs[0], si, zi, so, zo, info.min, info.max), max(info.min, bound(lo)),
                  info.max if hi is None else min(info.max, bound(hi)))
    assert not np.array_equal(old, ref[0])
    assert isa_on_tiny(model, inputs, ref) == [{"RELU_N1_TO_1": "RELU1"}.get(op, op)]


# ------------------------------------------------------------- per-channel FULLY_CONNECTED's rounding
def conv_vs_fc_accumulator(si: float, sw: float, so: float, seed: int) -> int:
    """An accumulator on or next to a half step at which a convolution's requantization (the Q31
    multiplier of ``double(s_in) * double(s_w) / double(s_out)``, gemmlowp's two roundings) and
    LiteRT's FULLY_CONNECTED (``round(double(acc) * real)``) differ, or 0 if none is near."""
    from nnaccel.quant import multiply_by_quantized_multiplier, quantize_multiplier, round_double_product
    real = si * sw / so
    near = np.array([int(np.floor((k + 0.5) / real)) + d for k in range(-60, 60) for d in (-1, 0, 1, 2)], np.int64)
    hits = near[multiply_by_quantized_multiplier(near, *quantize_multiplier(real)) != round_double_product(near, real)]
    return int(np.random.default_rng(seed).choice(hits)) if hits.size else 0


@pytest.mark.parametrize("units,repeats", [(40, 1), (4, 3)])
def test_per_channel_fully_connected_rounds_once_as_litert(litert, units, repeats):
    """FULLY_CONNECTED with per-channel int8 weights (a scale per unit, or runs of equal scales)
    whose accumulators lie on half steps: LiteRT's reference rounds ``double(acc) * s_in * s_w[c] /
    s_out`` once per channel. The imported model (one FULLY_CONNECTED with per-channel weights)
    gives that bit for bit, a 1x1 CONV_2D's requantization (gemmlowp's two roundings) does not,
    and so does the accelerator (REQ's single rounding with a multiplier per channel)."""
    r = np.random.default_rng(4)
    n = units * repeats
    si, so = float(np.float32(0.0215)), float(np.float32(0.173))
    scales = [float(np.float32(s)) for s in r.uniform(0.004, 0.02, units) for _ in range(repeats)]
    accs = np.array([conv_vs_fc_accumulator(si, s, so, k) for k, s in enumerate(scales)], np.int32)
    b = TFLiteBuilder()
    x = b.add_tensor((1, 1), "INT8", scale=si, zero_point=-3)
    w = b.add_tensor((n, 1), "INT8", data=np.ones((n, 1), np.int8), scale=scales, zero_point=[0] * n,
                     quantized_dimension=0)
    bias = b.add_tensor((n,), "INT32", data=accs, scale=[si * s for s in scales], zero_point=[0] * n)
    y = b.add_tensor((1, n), "INT8", scale=so, zero_point=2)
    b.add_op("FULLY_CONNECTED", [x, w, bias], [y], "FullyConnectedOptions", FusedActivationFunction=0)
    inputs = [np.full((1, 1), -3, np.int8)]  # q - z_in = 0: the accumulator is the bias
    ref, golden, model = run_both(litert, b.finish([x], [y]), inputs)
    assert [op.type for op in model.main.operations] == ["FULLY_CONNECTED"]
    assert_bit_exact(golden, ref)
    from nnaccel.quant import multiply_by_quantized_multiplier, quantize_multiplier
    conv = [multiply_by_quantized_multiplier(int(a), *quantize_multiplier(si * s / so)) + 2 for a, s in zip(accs, scales)]
    assert np.count_nonzero(np.clip(conv, -128, 127) != ref[0].reshape(-1)) >= n // 2
    assert isa_on_tiny(model, inputs, ref) == ["FULLY_CONNECTED"]


def test_per_channel_fully_connected_head_is_bit_exact(litert):
    """A classifier head of random per-channel weights (a scale per unit, batch 2, RELU6): golden
    and the accelerator give LiteRT's outputs bit for bit."""
    r = np.random.default_rng(5)
    n, k = 96, 48
    si, so = 0.0215, 0.0173
    scales = [float(np.float32(s)) for s in r.uniform(0.0004, 0.002, n)]
    b = TFLiteBuilder()
    x = b.add_tensor((2, k), "INT8", scale=si, zero_point=-3)
    w = b.add_tensor((n, k), "INT8", data=r.integers(-127, 128, (n, k)), scale=scales, zero_point=[0] * n,
                     quantized_dimension=0)
    bias = b.add_tensor((n,), "INT32", data=r.integers(-5000, 5000, n), scale=[si * s for s in scales],
                        zero_point=[0] * n)
    y = b.add_tensor((2, n), "INT8", scale=so, zero_point=-100)
    b.add_op("FULLY_CONNECTED", [x, w, bias], [y], "FullyConnectedOptions", FusedActivationFunction=3)
    inputs = [r.integers(-128, 128, (2, k)).astype(np.int8)]
    ref, golden, model = run_both(litert, b.finish([x], [y]), inputs)
    assert_bit_exact(golden, ref)
    assert isa_on_tiny(model, inputs, ref) == ["FULLY_CONNECTED"]


def test_per_channel_fully_connected_of_uint8_input_is_an_error_as_in_litert(litert):
    """LiteRT's FULLY_CONNECTED fails to prepare per-channel weights under a uint8 input; the
    importer says so (exit 2) instead of inventing an arithmetic for it."""
    from nnaccel.errors import InputError
    n, k = 6, 5
    scales = [0.01 * (i + 1) for i in range(n)]
    b = TFLiteBuilder()
    x = b.add_tensor((1, k), "UINT8", scale=0.02, zero_point=128)
    w = b.add_tensor((n, k), "INT8", data=np.ones((n, k), np.int8), scale=scales, zero_point=[0] * n,
                     quantized_dimension=0)
    bias = b.add_tensor((n,), "INT32", data=np.zeros(n, np.int32), scale=[0.02 * s for s in scales],
                        zero_point=[0] * n)
    y = b.add_tensor((1, n), "UINT8", scale=0.1, zero_point=128)
    b.add_op("FULLY_CONNECTED", [x, w, bias], [y], "FullyConnectedOptions", FusedActivationFunction=0)
    data = b.finish([x], [y])
    status, _ = litert.run(data, [np.zeros((1, k), np.uint8)])
    assert status != "ok"
    with pytest.raises(InputError, match="quantized per channel, but its input is UINT8"):
        import_tflite_bytes(data, name="fc")


# ----------------------------------------------- selecting ops whose output is quantized differently
@pytest.mark.parametrize("op", ["MAX_POOL_2D", "AVERAGE_POOL_2D"])
@pytest.mark.parametrize("dtype", ["INT8", "UINT8"])
@pytest.mark.parametrize("act", [0, 1, 3])
def test_pool_with_another_output_quantization_is_litert(litert, op, dtype, act):
    """MAX_POOL_2D / AVERAGE_POOL_2D whose output has another scale and zero point than the input
    (TFLite allows the file; NNAPI does not): LiteRT's kernels write the stored maximum / average
    unrescaled, clamped to the activation range in the output's scale. The imported model gives
    that bit for bit on golden and the accelerator; the former import (DEQUANTIZE + QUANTIZE
    around the op: the values rescaled) does not."""
    off = 128 if dtype == "UINT8" else 0
    (si, zi), (so, zo) = (0.05, off + 3), (0.11, off + 40)
    b = TFLiteBuilder()
    x = b.add_tensor((1, 16, 16, 2), dtype, scale=si, zero_point=zi)
    y = b.add_tensor((1, 8, 8, 2), dtype, scale=so, zero_point=zo)
    b.add_op(op, [x], [y], "Pool2DOptions", Padding=1, StrideW=2, StrideH=2, FilterWidth=2, FilterHeight=2,
             FusedActivationFunction=act)
    inputs = [np.arange(512, dtype=np.int64).reshape(1, 16, 16, 2).astype(np.uint8).view(NP[dtype])]
    ref, golden, model = run_both(litert, b.finish([x], [y]), inputs)
    assert [o.type for o in model.main.operations] == [op]
    assert_bit_exact(golden, ref)
    info = np.iinfo(NP[dtype])
    windows = inputs[0].astype(np.int64).reshape(1, 8, 2, 8, 2, 2)
    picked = windows.max(axis=(2, 4)) if op == "MAX_POOL_2D" else windows.mean(axis=(2, 4))
    rescaled = float_requantize(np.round(picked).astype(np.int64), si, zi, so, zo, info.min, info.max)
    assert not np.array_equal(rescaled, ref[0].astype(np.int64))
    assert isa_on_tiny(model, inputs, ref) == [op]


@pytest.mark.parametrize("op", ["MAXIMUM", "MINIMUM", "SELECT_V2"])
@pytest.mark.parametrize("dtype", ["INT8", "UINT8"])
def test_selection_of_other_quantizations_is_litert(litert, op, dtype):
    """MAXIMUM / MINIMUM / SELECT over every pair of input bytes, the inputs and the output each
    quantized differently: LiteRT compares and selects the stored values as they are; the imported
    model gives that bit for bit, NNAPI's arithmetic (each input requantized to the output first)
    does not."""
    off = 128 if dtype == "UINT8" else 0
    qa, qb, qo = (0.05, off + 3), (0.07, off - 5), (0.11, off + 40)
    allbytes = np.arange(256, dtype=np.uint8).view(NP[dtype])
    b = TFLiteBuilder()
    shape = (256, 256)
    x = b.add_tensor(shape, dtype, scale=qa[0], zero_point=qa[1])
    y = b.add_tensor(shape, dtype, scale=qb[0], zero_point=qb[1])
    o = b.add_tensor(shape, dtype, scale=qo[0], zero_point=qo[1])
    inputs = [np.repeat(allbytes[:, None], 256, 1), np.repeat(allbytes[None, :], 256, 0)]
    if op == "SELECT_V2":
        cond = b.add_tensor(shape, "BOOL")
        b.add_op(op, [cond, x, y], [o])
        data = b.finish([cond, x, y], [o])
        inputs = [np.random.default_rng(2).integers(0, 2, shape).astype(bool), *inputs]
    else:
        b.add_op(op, [x, y], [o])
        data = b.finish([x, y], [o])
    ref, golden, model = run_both(litert, data, inputs)
    assert_bit_exact(golden, ref)
    assert not np.array_equal(run_model(model, inputs)[0], ref[0])  # NNAPI's arithmetic


@pytest.mark.parametrize("op", ["REDUCE_MAX", "REDUCE_MIN"])
@pytest.mark.parametrize("out_q", [(0.11, 3), (0.05, -7)])
def test_reduce_max_min_of_another_output_quantization_is_an_error_as_in_litert(litert, op, out_q):
    """LiteRT's REDUCE_MAX / REDUCE_MIN fail to invoke when the output's scale or zero point is not
    the input's; the importer says so (exit 2) instead of inventing an arithmetic for it."""
    from nnaccel.errors import InputError
    b = TFLiteBuilder()
    x = b.add_tensor((2, 5), "INT8", scale=0.05, zero_point=3)
    axes = b.add_tensor((1,), "INT32", data=np.array([1], np.int32))
    y = b.add_tensor((2,), "INT8", scale=out_q[0], zero_point=out_q[1])
    b.add_op(op, [x, axes], [y], "ReducerOptions", KeepDims=False)
    data = b.finish([x], [y])
    status, _ = litert.run(data, [np.zeros((2, 5), np.int8)])
    assert status != "ok"
    with pytest.raises(InputError, match=f"LiteRT's {op} requires the input's"):
        import_tflite_bytes(data, name="reduce")


# ------------------------------------------------------------------ comparisons of quantized inputs
@pytest.mark.parametrize("op", ["EQUAL", "NOT_EQUAL", "GREATER", "GREATER_EQUAL", "LESS", "LESS_EQUAL"])
@pytest.mark.parametrize("dtype", ["INT8", "UINT8"])
@pytest.mark.parametrize("scales", [(0.05, 0.07), (0.0137, 0.0291), (0.1, 0.1)])
def test_quantized_comparison_is_litert_fixed_point(litert, op, dtype, scales):
    """A comparison of every pair of input bytes (65,536, broadcast): LiteRT compares
    ``(q - z) * 2**8`` rescaled in fixed point by each input's scale, which rounds nearly equal
    real values to the same integer; the imported model gives that bit for bit, NNAPI's float
    comparison does not (except for equal scales and zero points, where both are exact)."""
    off = 128 if dtype == "UINT8" else 0
    (sa, sb), (za, zb) = scales, (off + 3, off - 5)
    b = TFLiteBuilder()
    x = b.add_tensor((256, 1), dtype, scale=sa, zero_point=za)
    y = b.add_tensor((1, 256), dtype, scale=sb, zero_point=zb)
    o = b.add_tensor((256, 256), "BOOL")
    b.add_op(op, [x, y], [o])
    allbytes = np.arange(256, dtype=np.uint8).view(NP[dtype])
    inputs = [allbytes.reshape(256, 1), allbytes.reshape(1, 256)]
    ref, golden, model = run_both(litert, b.finish([x, y], [o]), inputs)
    assert_bit_exact(golden, ref)
    if sa != sb:
        assert not np.array_equal(run_model(model, inputs)[0], ref[0])
