"""Differential test: hypothesis-drawn ONNX models through onnxruntime (CPU) and through import +
golden. Float32 within 1e-5 of the output's magnitude; QDQ int8 outputs within the op's
``quant_tolerance`` (OP_TABLE, shown in docs/onnx.md). The budget is fixed (NNACCEL_ORT_EXAMPLES)."""

from __future__ import annotations

import os

import numpy as np
import onnxruntime as ort
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from nnaccel.compiler.onnx_import import OP_TABLE, import_onnx_bytes
from onnx import TensorProto, helper
from support.onnx_build import QDQ, make_model, qdq_cnn

from nnaccel.golden.interpreter import run_model

F = TensorProto.FLOAT
EXAMPLES = int(os.environ.get("NNACCEL_ORT_EXAMPLES", "25"))
SETTINGS = settings(max_examples=EXAMPLES, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def ort_run(data: bytes, feeds: dict) -> list:
    so = ort.SessionOptions()
    so.log_severity_level = 3
    return ort.InferenceSession(data, so, providers=["CPUExecutionProvider"]).run(None, feeds)


def check_float(data: bytes, feeds: dict):
    want = ort_run(data, feeds)
    got = run_model(import_onnx_bytes(data), list(feeds.values()))
    for g, w in zip(got, want):
        g = np.asarray(g).reshape(w.shape)
        scale = max(float(np.abs(w).max()), 1e-30)
        assert np.abs(g.astype(np.float64) - w).max() <= 1e-5 * scale, (np.abs(g - w).max(), scale)


@st.composite
def float_models(draw):
    rng = np.random.default_rng(draw(st.integers(0, 2**31)))
    kind = draw(st.sampled_from(["conv", "gemm", "matmul", "binary", "unary", "pool", "softmax", "concat",
                                 "transpose", "batchnorm", "resize", "convtranspose", "pad", "conv1d"]))
    n, c, h, w = 1, draw(st.integers(1, 4)), draw(st.integers(3, 9)), draw(st.integers(3, 9))
    x = rng.normal(size=(n, c, h, w)).astype(np.float32)
    inits, attrs = {}, {}
    if kind == "conv":
        group = draw(st.sampled_from([g for g in (1, c) if c % g == 0]))
        o = group * draw(st.integers(1, 3))
        k = draw(st.integers(1, 3))
        attrs = {"strides": [draw(st.integers(1, 2))] * 2, "dilations": [draw(st.integers(1, 2))] * 2,
                 "group": group}
        if draw(st.booleans()):
            attrs["auto_pad"] = draw(st.sampled_from(["SAME_UPPER", "SAME_LOWER", "VALID"]))
        else:
            attrs["pads"] = [draw(st.integers(0, k - 1)) for _ in range(4)]
        if (k - 1) * attrs["dilations"][0] + 1 > min(h, w) or "auto_pad" in attrs:  # ORT: no SAME + dilation
            attrs["dilations"] = [1, 1]
        inits = {"w": rng.normal(size=(o, c // group, k, k)).astype(np.float32),
                 "b": rng.normal(size=o).astype(np.float32)}
        node = helper.make_node("Conv", ["x", "w", "b"], ["y"], **attrs)
    elif kind == "convtranspose":
        k, st_ = draw(st.integers(1, 3)), draw(st.integers(1, 2))
        group = draw(st.sampled_from([g for g in (1, c) if c % g == 0]))
        dil = draw(st.integers(1, 2))
        attrs = {"strides": [st_] * 2, "pads": [draw(st.integers(0, k - 1)) for _ in range(4)], "group": group,
                 "output_padding": [draw(st.integers(0, st_ - 1)) for _ in range(2)], "dilations": [dil] * 2}
        inits = {"w": rng.normal(size=(c, draw(st.integers(1, 3)), k, k)).astype(np.float32)}
        inits["b"] = rng.normal(size=inits["w"].shape[1] * group).astype(np.float32)
        node = helper.make_node("ConvTranspose", ["x", "w", "b"], ["y"], **attrs)
    elif kind == "pad":
        inits = {"p": np.array([0, 0, draw(st.integers(0, h - 1)), draw(st.integers(0, w - 1)), 0, 0,
                                draw(st.integers(0, h - 1)), draw(st.integers(0, w - 1))], np.int64)}
        node = helper.make_node("Pad", ["x", "p"], ["y"], mode=draw(st.sampled_from(["reflect", "edge", "wrap"])))
    elif kind == "conv1d":
        x = x.reshape(n, c, h * w)
        k = draw(st.integers(1, 3))
        inits = {"w": rng.normal(size=(2, c, k)).astype(np.float32), "b": rng.normal(size=2).astype(np.float32)}
        node = helper.make_node("Conv", ["x", "w", "b"], ["y"], pads=[draw(st.integers(0, k - 1))] * 2,
                                strides=[draw(st.integers(1, 2))], dilations=[draw(st.integers(1, 2))])
    elif kind in ("gemm", "matmul"):
        x = rng.normal(size=(draw(st.integers(1, 4)), draw(st.integers(1, 8)))).astype(np.float32)
        units = draw(st.integers(1, 6))
        tb = draw(st.booleans()) if kind == "gemm" else False
        inits = {"b": rng.normal(size=(units, x.shape[1]) if tb else (x.shape[1], units)).astype(np.float32)}
        if kind == "gemm":
            inits["c"] = rng.normal(size=(units,)).astype(np.float32)
            node = helper.make_node("Gemm", ["x", "b", "c"], ["y"], transB=int(tb),
                                    alpha=draw(st.sampled_from([1.0, 0.5])), beta=draw(st.sampled_from([1.0, 2.0])))
        else:
            node = helper.make_node("MatMul", ["x", "b"], ["y"])
    elif kind == "binary":
        op = draw(st.sampled_from(["Add", "Sub", "Mul", "Div", "Max", "Min"]))
        shape = draw(st.sampled_from([(1, c, 1, 1), (w,), (1, 1, h, w), (n, c, h, w)]))
        other = rng.normal(size=shape).astype(np.float32)
        if op == "Div":
            other = np.where(np.abs(other) < 0.1, 1.0, other).astype(np.float32)
        inits = {"o": other}
        node = helper.make_node(op, ["x", "o"], ["y"])
    elif kind == "unary":
        op = draw(st.sampled_from(["Relu", "Sigmoid", "Tanh", "LeakyRelu", "HardSwish", "HardSigmoid", "Clip",
                                   "Abs", "Neg", "Exp"]))
        ins = ["x"]
        if op == "Clip":
            inits = {"lo": np.float32(-0.5), "hi": np.float32(0.7)}
            ins = ["x", "lo", "hi"]
        node = helper.make_node(op, ins, ["y"])
    elif kind == "pool":
        op = draw(st.sampled_from(["MaxPool", "AveragePool", "GlobalAveragePool", "GlobalMaxPool"]))
        k = draw(st.integers(1, 3))
        attrs = {} if op.startswith("Global") else {
            "kernel_shape": [k, k], "strides": [draw(st.integers(1, 2))] * 2,
            "pads": [draw(st.integers(0, k - 1)) for _ in range(4)], "ceil_mode": int(draw(st.booleans()))}
        if op == "MaxPool" and (k - 1) * 2 + 1 <= min(h, w):
            attrs["dilations"] = [draw(st.integers(1, 2))] * 2
        if op == "AveragePool":
            attrs["count_include_pad"] = int(draw(st.booleans()))
            if attrs["count_include_pad"]:
                attrs["ceil_mode"] = 0
        node = helper.make_node(op, ["x"], ["y"], **attrs)
    elif kind == "softmax":
        node = helper.make_node(draw(st.sampled_from(["Softmax", "LogSoftmax"])), ["x"], ["y"],
                                axis=draw(st.integers(-4, 3)))
    elif kind == "concat":
        inits = {"o": rng.normal(size=(n, c, h, w)).astype(np.float32)}
        node = helper.make_node("Concat", ["x", "o"], ["y"], axis=draw(st.integers(0, 3)))
    elif kind == "transpose":
        node = helper.make_node("Transpose", ["x"], ["y"], perm=list(draw(st.permutations(range(4)))))
    elif kind == "batchnorm":
        inits = {"s": rng.normal(size=c).astype(np.float32), "bb": rng.normal(size=c).astype(np.float32),
                 "m": rng.normal(size=c).astype(np.float32), "v": rng.uniform(0.5, 2, c).astype(np.float32)}
        node = helper.make_node("BatchNormalization", ["x", "s", "bb", "m", "v"], ["y"])
    else:
        mode = draw(st.sampled_from([("linear", "half_pixel", None), ("linear", "align_corners", None),
                                     ("linear", "asymmetric", None), ("nearest", "asymmetric", "floor"),
                                     ("nearest", "half_pixel", "round_prefer_floor"),
                                     ("nearest", "asymmetric", "round_prefer_ceil"),
                                     ("nearest", "pytorch_half_pixel", "floor"), ("nearest", "half_pixel", "ceil"),
                                     ("linear", "half_pixel_symmetric", None), ("cubic", "half_pixel", None),
                                     ("cubic", "align_corners", None), ("cubic", "asymmetric", None)]))
        # align_corners with inexact scales is rejected (the ONNX reference and onnxruntime disagree)
        f = draw(st.sampled_from([1, 2, 3] + ([] if mode[1] == "align_corners" else [0.5, 1.5, 0.75])))
        inits = {"sc": np.array([1, 1, f, f], np.float32)}
        kw = {"mode": mode[0], "coordinate_transformation_mode": mode[1]}
        if mode[2]:
            kw["nearest_mode"] = mode[2]
        node = helper.make_node("Resize", ["x", "", "sc"], ["y"], **kw)
    data = make_model([node], {"x": (F, list(x.shape))}, {"y": (F, None)}, inits)
    return data, x


@SETTINGS
@given(float_models())
def test_float_single_op_models_match_onnxruntime(case):
    data, x = case
    check_float(data, {"x": x})


@st.composite
def qdq_models(draw):
    """One QDQ int8 op (Conv / depthwise Conv / Gemm / Add / AveragePool) with random scales; the
    graph output is the int8 QuantizeLinear output."""
    rng = np.random.default_rng(draw(st.integers(0, 2**31)))
    kind = draw(st.sampled_from(["Conv", "Depthwise", "Gemm", "Add", "AveragePool", "GlobalAveragePool"]))
    per_channel = draw(st.booleans())
    b = QDQ()
    c, h, w = draw(st.integers(1, 4)), draw(st.integers(3, 8)), draw(st.integers(3, 8))
    sx = draw(st.floats(0.005, 0.05))
    zx = draw(st.integers(-20, 20))
    sy = draw(st.floats(0.01, 0.2))
    zy = draw(st.integers(-20, 20))
    x_shape = [1, c, h, w] if kind != "Gemm" else [draw(st.integers(1, 3)), draw(st.integers(2, 8))]
    xin = b.qdq("x", sx, zx)
    if kind in ("Conv", "Depthwise"):
        group = c if kind == "Depthwise" else 1
        o = c * draw(st.integers(1, 2)) if kind == "Depthwise" else draw(st.integers(1, 5))
        k = draw(st.integers(1, 3))
        wd = b.weight(rng.normal(0, 0.5, (o, c // group, k, k)).astype(np.float32), per_channel)
        bias = b.bias(rng.normal(0, 0.3, o), sx, b.scales_of(wd))
        y = b.node("Conv", [xin, wd, bias], group=group, pads=[k // 2] * 4)
        if draw(st.booleans()):
            y = b.node("Relu", [y])
    elif kind == "Gemm":
        units = draw(st.integers(1, 6))
        wd = b.weight(rng.normal(0, 0.5, (units, x_shape[1])).astype(np.float32), per_channel)
        y = b.node("Gemm", [xin, wd, b.bias(rng.normal(0, 0.3, units), sx, b.scales_of(wd))], transB=1)
    elif kind == "Add":
        other = b.qdq("x2", draw(st.floats(0.005, 0.05)), draw(st.integers(-20, 20)))
        y = b.node("Add", [xin, other])
    elif kind == "AveragePool":
        sy, zy = sx, zx  # the quantized form needs equal quantization (else float between DQ / Q)
        y = b.node("AveragePool", [xin], kernel_shape=[2, 2], strides=[1, 1])
    else:
        sy, zy = sx, zx
        y = b.node("GlobalAveragePool", [xin])
    sname, zname = "ys", "yz"
    b.inits[sname], b.inits[zname] = np.float32(sy), np.array(zy, np.int8)
    b.nodes.append(helper.make_node("QuantizeLinear", [y, sname, zname], ["y"]))
    inputs = {"x": (F, x_shape)}
    feeds = {"x": rng.uniform(-1.5, 1.5, x_shape).astype(np.float32)}
    if kind == "Add":
        inputs["x2"] = (F, x_shape)
        feeds["x2"] = rng.uniform(-1.5, 1.5, x_shape).astype(np.float32)
    op = "Conv" if kind == "Depthwise" else kind
    return make_model(b.nodes, inputs, {"y": (TensorProto.INT8, None)}, b.inits), feeds, op


@SETTINGS
@given(qdq_models())
def test_qdq_int8_single_op_models_match_onnxruntime(case):
    data, feeds, op = case
    m = import_onnx_bytes(data)
    assert "DEQUANTIZE" not in [o.type for o in m.main.operations]  # folded into the quantized op
    want = ort_run(data, feeds)[0]
    got = run_model(m, list(feeds.values()))[0].reshape(want.shape)
    diff = np.abs(got.astype(np.int32) - want.astype(np.int32)).max()
    assert diff <= OP_TABLE[op].quant_tolerance, (op, diff)


@settings(max_examples=max(EXAMPLES // 5, 3), deadline=None, derandomize=True)
@given(st.integers(0, 1000), st.booleans(), st.integers(0, 1000))
def test_qdq_cnn_matches_onnxruntime(seed, per_channel, xseed):
    data = qdq_cnn(seed=seed, per_channel=per_channel)
    x = np.random.default_rng(xseed).uniform(-1, 1, (1, 3, 12, 12)).astype(np.float32)
    want = ort_run(data, {"x": x})[0]
    got = run_model(import_onnx_bytes(data), [x])[0]
    # the output is the DequantizeLinear of the int8 FC output (scale 0.02): within one step; the
    # earlier layers' one-step differences propagate through requantization, bounded by two steps
    assert np.abs(got - want).max() <= 2 * 0.02 + 1e-6


# ------------------------------------------------------------------------- small multi-op graphs
CHAIN_OPS = ["conv", "depthwise", "relu", "add_const", "residual", "maxpool", "avgpool", "concat", "transpose",
             "reshape", "gemm", "sigmoid"]


@st.composite
def float_chains(draw):
    """2-4 mapped ops chained on a [1, C, H, W] input (a Gemm ends the chain after a Flatten)."""
    rng = np.random.default_rng(draw(st.integers(0, 2**31)))
    shape = [1, draw(st.integers(1, 4)), draw(st.integers(2, 7)), draw(st.integers(2, 7))]
    in_shape = list(shape)
    nodes, inits, cur, seen = [], {}, "x", {tuple(shape): "x"}
    ops = draw(st.lists(st.sampled_from(CHAIN_OPS), min_size=2, max_size=4))
    for k, op in enumerate(ops):
        out = f"t{k}"
        c, h, w = shape[1], shape[2], shape[3]
        if op in ("conv", "depthwise"):
            o = c * draw(st.integers(1, 2)) if op == "depthwise" else draw(st.integers(1, 4))
            kk = draw(st.integers(1, 3))
            inits[f"w{k}"] = (rng.normal(size=(o, 1 if op == "depthwise" else c, kk, kk)) / kk).astype(np.float32)
            inits[f"b{k}"] = rng.normal(size=o).astype(np.float32)
            nodes.append(helper.make_node("Conv", [cur, f"w{k}", f"b{k}"], [out], pads=[kk // 2] * 4,
                                          group=c if op == "depthwise" else 1))
            shape = [1, o, h + 2 * (kk // 2) - kk + 1, w + 2 * (kk // 2) - kk + 1]
        elif op in ("relu", "sigmoid"):
            nodes.append(helper.make_node(op.capitalize(), [cur], [out]))
        elif op == "add_const":
            inits[f"a{k}"] = rng.normal(size=(1, c, 1, 1)).astype(np.float32)
            nodes.append(helper.make_node("Add", [cur, f"a{k}"], [out]))
        elif op == "residual":
            other = seen.get(tuple(shape), cur)  # an earlier tensor of this shape (or the tensor itself)
            nodes.append(helper.make_node("Add", [cur, other], [out]))
        elif op in ("maxpool", "avgpool") and min(h, w) >= 2:
            nodes.append(helper.make_node("MaxPool" if op == "maxpool" else "AveragePool", [cur], [out],
                                          kernel_shape=[2, 2], strides=[2, 2]))
            shape = [1, c, h // 2, w // 2]
        elif op == "concat":
            axis = draw(st.integers(1, 3))
            nodes.append(helper.make_node("Concat", [cur, cur], [out], axis=axis))
            shape[axis] *= 2
        elif op == "transpose":
            perm = [0, *draw(st.permutations([1, 2, 3]))]
            nodes.append(helper.make_node("Transpose", [cur], [out], perm=perm))
            shape = [shape[p] for p in perm]
        elif op == "reshape":
            new = [1, c * h, w, 1] if draw(st.booleans()) else [1, c, w, h]
            inits[f"s{k}"] = np.array(new, np.int64)
            nodes.append(helper.make_node("Reshape", [cur, f"s{k}"], [out]))
            shape = new
        elif op == "gemm":
            nodes.append(helper.make_node("Flatten", [cur], [f"f{k}"]))
            units, kdim = draw(st.integers(1, 6)), c * h * w
            inits[f"g{k}"] = (rng.normal(size=(units, kdim)) / np.sqrt(kdim)).astype(np.float32)
            inits[f"gb{k}"] = rng.normal(size=units).astype(np.float32)
            nodes.append(helper.make_node("Gemm", [f"f{k}", f"g{k}", f"gb{k}"], [out], transB=1))
            cur = out
            break
        else:
            continue
        seen.setdefault(tuple(shape), out)
        cur = out
    if not nodes:
        nodes.append(helper.make_node("Relu", [cur], ["t"]))
        cur = "t"
    return nodes, inits, cur, in_shape


@SETTINGS
@given(float_chains(), st.integers(0, 2**31))
def test_float_multi_op_models_match_onnxruntime(chain, seed):
    nodes, inits, last, shape = chain
    nodes.append(helper.make_node("Identity", [last], ["y"]))
    data = make_model(nodes, {"x": (F, shape)}, {"y": (F, None)}, inits)
    check_float(data, {"x": np.random.default_rng(seed).normal(size=shape).astype(np.float32)})


@st.composite
def qdq_chains(draw):
    """2-4 QDQ int8 ops chained (weights per tensor or per channel); every compute op's output is
    requantized, data movement runs on the quantized tensor. Returns the model, the input and a
    bound on the output difference in steps: each requantization may round one step apart
    (docs/onnx.md) and an earlier difference e (real units) grows through a layer by at most its
    gain (Conv / Gemm: the largest sum of |dequantized weight| of an output; Add: e_a + e_b), so a
    requantized output may differ by G * e + s_out."""
    rng = np.random.default_rng(draw(st.integers(0, 2**31)))
    per_channel = draw(st.booleans())
    b = QDQ()
    shape = [1, draw(st.integers(1, 4)), draw(st.integers(2, 7)), draw(st.integers(2, 7))]
    in_shape = list(shape)
    sx, zx = draw(st.floats(0.005, 0.03)), draw(st.integers(-10, 10))
    cur, (s, z) = b.qdq("x", sx, zx), (sx, zx)
    err = {cur: 0.0}  # bound on the real difference of each tensor
    seen = {tuple(shape): (cur, s, z)}
    for op in draw(st.lists(st.sampled_from(CHAIN_OPS[:-1]), min_size=2, max_size=4)):
        c, h, w = shape[1:]
        e_in = err[cur]
        s_out, z_out = draw(st.floats(0.01, 0.06)), draw(st.integers(-10, 10))
        if op in ("conv", "depthwise"):
            o = c * draw(st.integers(1, 2)) if op == "depthwise" else draw(st.integers(1, 4))
            kk = draw(st.integers(1, 3))
            wd = b.weight((rng.normal(size=(o, 1 if op == "depthwise" else c, kk, kk)) / kk).astype(np.float32),
                          per_channel)
            y = b.node("Conv", [cur, wd, b.bias(rng.normal(0, 0.3, o), s, b.scales_of(wd))], pads=[kk // 2] * 4,
                       group=c if op == "depthwise" else 1)
            if draw(st.booleans()):
                y = b.node("Relu", [y])
            shape = [1, o, h + 2 * (kk // 2) - kk + 1, w + 2 * (kk // 2) - kk + 1]
            e = _gain(b, wd) * err[cur] + s_out
            cur, s, z = b.qdq(y, s_out, z_out), s_out, z_out
            err[cur] = e
        elif op in ("residual", "add_const"):
            other = seen.get(tuple(shape), (cur, s, z))[0]
            e = err[cur] + err[other] + s_out
            cur, s, z = b.qdq(b.node("Add", [cur, other]), s_out, z_out), s_out, z_out
            err[cur] = e
        elif op == "relu":
            cur = b.node("Relu", [cur])
        elif op == "maxpool" and min(h, w) >= 2:
            cur = b.node("MaxPool", [cur], kernel_shape=[2, 2], strides=[2, 2])
            shape = [1, c, h // 2, w // 2]
        elif op == "avgpool" and min(h, w) >= 2:
            cur = b.qdq(b.node("AveragePool", [cur], kernel_shape=[2, 2], strides=[2, 2]), s, z)
            shape, err[cur] = [1, c, h // 2, w // 2], e_in + s
        elif op == "concat":
            axis = draw(st.integers(1, 3))
            cur = b.node("Concat", [cur, cur], axis=axis)
            shape[axis] *= 2
        elif op == "transpose":
            perm = [0, *draw(st.permutations([1, 2, 3]))]
            cur = b.node("Transpose", [cur], perm=perm)
            shape = [shape[p] for p in perm]
        elif op == "reshape":
            new = [1, c * h, w, 1]
            b.inits[f"shape{len(b.nodes)}"] = np.array(new, np.int64)
            cur, shape = b.node("Reshape", [cur, f"shape{len(b.nodes)}"]), new
        elif op == "gemm":
            flat = b.node("Flatten", [cur])
            units, kdim = draw(st.integers(1, 6)), c * h * w
            wd = b.weight((rng.normal(size=(units, kdim)) / np.sqrt(kdim)).astype(np.float32), per_channel)
            y = b.node("Gemm", [flat, wd, b.bias(rng.normal(0, 0.3, units), s, b.scales_of(wd))], transB=1)
            e = _gain(b, wd) * e_in + s_out
            cur, s, z = b.qdq(y, s_out, z_out), s_out, z_out
            err[cur] = e
            break
        err.setdefault(cur, e_in)
        seen.setdefault(tuple(shape), (cur, s, z))
    b.inits["ys"], b.inits["yz"] = np.float32(s), np.array(z, np.int8)
    b.nodes.append(helper.make_node("QuantizeLinear", [cur, "ys", "yz"], ["y"]))
    data = make_model(b.nodes, {"x": (F, in_shape)}, {"y": (TensorProto.INT8, None)}, b.inits)
    return data, rng.uniform(-1.5, 1.5, in_shape).astype(np.float32), int(np.floor(err[cur] / s + 1e-6))


def _gain(b: QDQ, dq_name: str) -> float:
    """The largest sum of |dequantized weight| over one output (axis 0) of DQ weights ``dq_name``."""
    node = next(n for n in b.nodes if n.output[0] == dq_name)
    q, scale = b.inits[node.input[0]].astype(np.float64), b.inits[node.input[1]].astype(np.float64)
    w = q * scale.reshape((-1,) + (1,) * (q.ndim - 1)) if scale.size > 1 else q * float(scale.reshape(-1)[0])
    return float(np.abs(w).reshape(w.shape[0], -1).sum(axis=1).max())


@SETTINGS
@given(qdq_chains())
def test_qdq_int8_multi_op_models_match_onnxruntime(case):
    """Within the propagated bound of :func:`qdq_chains` (0 for pure data movement: exact)."""
    data, x, bound = case
    m = import_onnx_bytes(data)
    assert "DEQUANTIZE" not in [o.type for o in m.main.operations]  # every op ran quantized
    want = ort_run(data, {"x": x})[0]
    got = run_model(m, [x])[0].reshape(want.shape)
    diff = np.abs(got.astype(np.int32) - want.astype(np.int32))
    assert diff.max() <= bound, (diff.max(), bound)


def test_quantize_linear_rounds_ties_to_even_as_onnxruntime():
    """Exact ties x / s = k + 1/2 (every other value here) and random values: bit-exact, int8 and uint8."""
    rng = np.random.default_rng(0)
    x = np.concatenate([np.arange(-1000, 1000) * 0.125, rng.normal(0, 20, 1000)]).astype(np.float32)[None]
    for elem, dtype in ((TensorProto.INT8, np.int8), (TensorProto.UINT8, np.uint8)):
        inits = {"s": np.float32(0.25), "z": np.array(3, dtype)}
        data = make_model([helper.make_node("QuantizeLinear", ["x", "s", "z"], ["y"])], {"x": (F, list(x.shape))},
                          {"y": (elem, list(x.shape))}, inits)
        want = ort_run(data, {"x": x})[0]
        got = run_model(import_onnx_bytes(data), [x])[0]
        np.testing.assert_array_equal(got, want)


def test_integer_div_truncates_and_8bit_max_compares_as_onnxruntime():
    rng = np.random.default_rng(1)
    for elem, dtype in ((TensorProto.INT32, np.int32), (TensorProto.INT64, np.int64)):
        a = rng.integers(-50, 50, (4, 25)).astype(dtype)
        b = rng.integers(1, 9, (4, 25)).astype(dtype) * rng.choice([-1, 1], (4, 25)).astype(dtype)
        data = make_model([helper.make_node("Div", ["a", "b"], ["y"])], {"a": (elem, [4, 25]), "b": (elem, [4, 25])},
                          {"y": (elem, [4, 25])})
        want = ort_run(data, {"a": a, "b": b})[0]
        got = run_model(import_onnx_bytes(data), [a.astype(np.int32), b.astype(np.int32)])[0]
        np.testing.assert_array_equal(got, want)
    for op in ("Max", "Min"):
        a, b = (rng.integers(0, 256, (3, 7)).astype(np.uint8) for _ in range(2))
        u8 = TensorProto.UINT8
        data = make_model([helper.make_node(op, ["a", "b"], ["y"])], {"a": (u8, [3, 7]), "b": (u8, [3, 7])},
                          {"y": (u8, [3, 7])})
        np.testing.assert_array_equal(run_model(import_onnx_bytes(data), [a, b])[0], ort_run(data, {"a": a, "b": b})[0])
