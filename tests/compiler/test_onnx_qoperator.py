"""Differential test of the com.microsoft QOperator ops the ONNX node tests do not cover
(QLinearAdd, QLinearMul, QLinearAveragePool, QLinearGlobalAveragePool, QLinearSigmoid):
hypothesis-drawn single-node models, uint8 and int8, through onnxruntime (CPU, which implements
these contrib ops) and through import + golden. Outputs must agree within the op's
``quant_tolerance`` in OP_TABLE (the documented difference in docs/onnx.md), and exactly wherever the
real result is not within :data:`NEAR_TIE` of a half step (the real result comes from the float op
on onnxruntime applied to the dequantized inputs). The budget is fixed (NNACCEL_ORT_EXAMPLES)."""

from __future__ import annotations

import math
import os

import numpy as np
import onnxruntime as ort
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from nnaccel.compiler.onnx_import import OP_TABLE, import_onnx_bytes
from onnx import TensorProto, helper
from support.onnx_build import make_model

from nnaccel.golden.interpreter import run_model

EXAMPLES = int(os.environ.get("NNACCEL_ORT_EXAMPLES", "25"))
SETTINGS = settings(max_examples=EXAMPLES, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
#: How close (in quantized steps) to a half step the real result must be for the two to round apart:
#: average rounding differs only at ties, ADD's requantization (inputs shifted left by 20) within
#: fixed-point error of them; NNAPI's fixed-point logistic is less precise. MUL: see _near_tie.
NEAR_TIE = {"QLinearSigmoid": 0.05}
NEAR_TIE_DEFAULT = 1e-3
FLOAT_OP = {"QLinearAdd": "Add", "QLinearMul": "Mul", "QLinearAveragePool": "AveragePool",
            "QLinearGlobalAveragePool": "GlobalAveragePool", "QLinearSigmoid": "Sigmoid"}


def ort_run(data: bytes, feeds: dict) -> list:
    so = ort.SessionOptions()
    so.log_severity_level = 3
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    return ort.InferenceSession(data, so, providers=["CPUExecutionProvider"]).run(None, feeds)


def _qparams(draw, prefix: str, dtype, inits: dict, lo: float = 0.005, hi: float = 0.1) -> list[str]:
    s, z = f"{prefix}_s", f"{prefix}_z"
    inits[s] = np.float32(draw(st.floats(lo, hi)))
    info = np.iinfo(dtype)
    inits[z] = np.array(draw(st.integers(int(info.min) + 10, int(info.max) - 10)), dtype)
    return [s, z]


@st.composite
def qoperator_models(draw):
    op = draw(st.sampled_from(["QLinearAdd", "QLinearMul", "QLinearAveragePool", "QLinearGlobalAveragePool",
                               "QLinearSigmoid"]))
    dtype = draw(st.sampled_from([np.uint8, np.int8]))
    elem = TensorProto.UINT8 if dtype == np.uint8 else TensorProto.INT8
    rng = np.random.default_rng(draw(st.integers(0, 2**31)))
    shape = [1, draw(st.integers(1, 4)), draw(st.integers(2, 7)), draw(st.integers(2, 7))]
    inits: dict = {}
    inputs = {"a": (elem, shape)}
    info = np.iinfo(dtype)
    feeds = {"a": rng.integers(info.min, int(info.max) + 1, shape).astype(dtype)}
    attrs: dict = {}
    if op in ("QLinearAdd", "QLinearMul"):
        b_shape = draw(st.sampled_from([shape, [1, shape[1], 1, 1], [shape[3]], [1, 1, shape[2], shape[3]]]))
        inputs["b"] = (elem, b_shape)
        feeds["b"] = rng.integers(info.min, int(info.max) + 1, b_shape).astype(dtype)
        qa, qb = _qparams(draw, "a", dtype, inits), _qparams(draw, "b", dtype, inits)
        # NNAPI's quantized MUL needs s_out > s_a * s_b; outputs scaled to the product's range
        qy = _qparams(draw, "y", dtype, inits, 0.01, 0.2) if op == "QLinearAdd" else \
            _qparams(draw, "y", dtype, inits, 0.5, 3.0)
        if op == "QLinearMul":
            sa, sb = float(inits["a_s"]), float(inits["b_s"])
            inits["y_s"] = np.float32(float(inits["y_s"]) * sa * sb * 127 * 127 / 60)
        ins = ["a", *qa, "b", *qb, *qy]
    else:
        same = draw(st.booleans())
        qa = _qparams(draw, "a", dtype, inits)
        qy = qa if same else _qparams(draw, "y", dtype, inits, 0.003, 0.1)
        if op == "QLinearSigmoid":
            if draw(st.booleans()):  # NNAPI's own logistic output quantization: the quantized LOGISTIC
                inits["y_s"] = np.float32(1 / 256)
                inits["y_z"] = np.array(0 if dtype == np.uint8 else -128, dtype)
                qy = ["y_s", "y_z"]
            elif same:
                qy = _qparams(draw, "y", dtype, inits, 0.003, 0.01)
        if op == "QLinearAveragePool":
            k = draw(st.integers(1, min(3, shape[2], shape[3])))
            attrs = {"kernel_shape": [k, k], "strides": [draw(st.integers(1, 2))] * 2,
                     "pads": [draw(st.integers(0, k - 1)) for _ in range(4)],
                     "count_include_pad": int(draw(st.booleans()))}
        ins = ["a", *qa, *qy]
    node = helper.make_node(op, ins, ["y"], domain="com.microsoft", **attrs)
    data = make_model([node], inputs, {"y": (elem, _out_shape(op, shape, inputs, attrs))}, inits, ms=True)
    return data, feeds, op, (node, inits)


def real_result(op: str, node, inits: dict, feeds: dict, out_shape) -> np.ndarray:
    """The unrounded quantized result: the float op on onnxruntime over the dequantized inputs,
    divided by the output scale, plus the output zero point."""
    ins = list(node.input)
    names = ["a", "b"] if op in ("QLinearAdd", "QLinearMul") else ["a"]
    deq = {}
    for k, name in enumerate(names):
        s, z = inits[ins[3 * k + 1]], inits[ins[3 * k + 2]]
        deq[name] = ((feeds[name].astype(np.float64) - int(z)) * float(s)).astype(np.float32)
    attrs = {a.name: helper.get_attribute_value(a) for a in node.attribute}
    f = TensorProto.FLOAT
    data = make_model([helper.make_node(FLOAT_OP[op], names, ["r"], **attrs)],
                      {k: (f, list(v.shape)) for k, v in deq.items()}, {"r": (f, out_shape)})
    r = ort_run(data, deq)[0].astype(np.float64)
    return r / float(inits[ins[-2]]) + int(inits[ins[-1]])


def _near_tie(op: str, inits: dict) -> float:
    """MUL requantizes the integer product by a Q31 multiplier and a rounding right shift by n, where
    s_a * s_b / s_y = q * 2^-n with q in [0.5, 1): the first rounding is off by up to half a unit of
    2^-n steps, so a value within 2^-(n + 1) of a half step can round apart."""
    if op != "QLinearMul":
        return NEAR_TIE.get(op, NEAR_TIE_DEFAULT)
    real = float(inits["a_s"]) * float(inits["b_s"]) / float(inits["y_s"])
    n = -math.frexp(real)[1]
    return 2.0 ** -(n + 1) + NEAR_TIE_DEFAULT if n > 0 else NEAR_TIE_DEFAULT


def _out_shape(op: str, shape: list, inputs: dict, attrs: dict) -> list:
    """The output shape (ONNX shape inference does not know the com.microsoft ops)."""
    if op in ("QLinearAdd", "QLinearMul"):
        return list(np.broadcast_shapes(tuple(shape), tuple(inputs["b"][1])))
    if op == "QLinearGlobalAveragePool":
        return shape[:2] + [1, 1]
    if op == "QLinearAveragePool":
        (k, _), (s, _), p = attrs["kernel_shape"], attrs["strides"], attrs["pads"]
        return shape[:2] + [(shape[2 + a] + p[a] + p[a + 2] - k) // s + 1 for a in range(2)]
    return shape


def _differences(data: bytes, feeds: dict) -> np.ndarray:
    want = ort_run(data, feeds)[0]
    got = run_model(import_onnx_bytes(data), list(feeds.values()))[0]
    return np.abs(np.asarray(got).reshape(want.shape).astype(np.int32) - want.astype(np.int32))


@SETTINGS
@given(qoperator_models())
def test_qoperator_ops_match_onnxruntime(case):
    data, feeds, op, (node, inits) = case
    diff = _differences(data, feeds)
    assert diff.max() <= OP_TABLE[op].quant_tolerance, (op, int(diff.max()))
    real = real_result(op, node, inits, feeds, list(diff.shape))
    near_tie = np.abs(real - np.floor(real) - 0.5) <= _near_tie(op, inits)
    apart = diff != 0
    assert not np.any(apart & ~near_tie), (op, real[apart & ~near_tie][:5])


def test_qoperator_ops_import_as_quantized_nnapi_ops():
    """Equal input / output quantization keeps the op quantized (no float detour)."""
    u8 = TensorProto.UINT8
    inits = {"s": np.float32(0.02), "z": np.uint8(128), "t": np.float32(0.03), "u": np.uint8(120)}
    shape = [1, 2, 4, 4]
    cases = {
        "QLinearAdd": (["a", "s", "z", "b", "t", "u", "s", "z"], {}, "ADD"),
        "QLinearAveragePool": (["a", "s", "z", "s", "z"], {"kernel_shape": [2, 2]}, "AVERAGE_POOL_2D"),
        "QLinearGlobalAveragePool": (["a", "s", "z", "s", "z"], {}, "AVERAGE_POOL_2D"),
    }
    for op, (ins, attrs, nn) in cases.items():
        inputs = {"a": (u8, shape)}
        if "b" in ins:
            inputs["b"] = (u8, shape)
        out = [1, 2, 3, 3] if op == "QLinearAveragePool" else [1, 2, 1, 1] if "Global" in op else shape
        data = make_model([helper.make_node(op, ins, ["y"], domain="com.microsoft", **attrs)], inputs,
                          {"y": (u8, out)}, inits, ms=True)
        types = [o.type for o in import_onnx_bytes(data).main.operations]
        assert nn in types and "DEQUANTIZE" not in types and "QUANTIZE" not in types, (op, types)


def test_qlinear_sigmoid_with_nnapi_output_quantization_is_exact():
    """Output scale 1/256, zero point 0: NNAPI's quantized LOGISTIC; every uint8 input value."""
    u8 = TensorProto.UINT8
    inits = {"s": np.float32(0.05), "z": np.uint8(128), "t": np.float32(1 / 256), "u": np.uint8(0)}
    data = make_model([helper.make_node("QLinearSigmoid", ["a", "s", "z", "t", "u"], ["y"],
                                        domain="com.microsoft")], {"a": (u8, [1, 256])}, {"y": (u8, [1, 256])},
                      inits, ms=True)
    assert [o.type for o in import_onnx_bytes(data).main.operations] == ["LOGISTIC"]
    diff = _differences(data, {"a": np.arange(256, dtype=np.uint8).reshape(1, 256)})
    assert diff.max() <= OP_TABLE["QLinearSigmoid"].quant_tolerance
    assert np.count_nonzero(diff) <= 0.1 * diff.size


def test_qlinear_matmul_uint8_batched_runs_on_int8_twins():
    """uint8 QLinearMatMul with a 3-D B input (NNAPI's BATCH_MATMUL has no uint8 form): within one
    requantization step of onnxruntime, and exact where the real result is not near a half step."""
    u8 = TensorProto.UINT8
    rng = np.random.default_rng(3)
    inits = {"sa": np.float32(0.02), "za": np.uint8(120), "sb": np.float32(0.03), "zb": np.uint8(130),
             "sy": np.float32(0.05), "zy": np.uint8(125)}
    node = helper.make_node("QLinearMatMul", ["a", "sa", "za", "b", "sb", "zb", "sy", "zy"], ["y"])
    data = make_model([node], {"a": (u8, [2, 3, 4]), "b": (u8, [2, 4, 5])}, {"y": (u8, [2, 3, 5])}, inits)
    feeds = {"a": rng.integers(0, 256, (2, 3, 4)).astype(np.uint8), "b": rng.integers(0, 256, (2, 4, 5)).astype(np.uint8)}
    diff = _differences(data, feeds)
    real = np.matmul(feeds["a"].astype(np.float64) - 120, feeds["b"].astype(np.float64) - 130) * 0.02 * 0.03 / 0.05
    real = np.clip(real + 125, 0, 255)
    assert diff.max() <= OP_TABLE["QLinearMatMul"].quant_tolerance
    assert not np.any((diff != 0) & (np.abs(real - np.floor(real) - 0.5) > 0.01))
