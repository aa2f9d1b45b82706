"""The TFLite importer: flatbuffer reading, type / quantization mapping, folding, decompositions,
every rejection, the ``nnaccel import`` / ``run`` / ``info`` CLI paths, and the generated doc.

Expected values come from NumPy computations written here, not from the code under test.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from nnaccel.compiler.tflite_import import OP_TABLE, import_tflite_bytes, load_tflite, render_doc
from support.tflite_build import TFLiteBuilder

from nnaccel.cli import main as cli_main
from nnaccel.errors import InputError, NotImplementedOpError
from nnaccel.formats import load_model
from nnaccel.golden.interpreter import run_model
from nnaccel.model import OperandLifetime, OperandType

T = OperandType
DOC = Path(__file__).resolve().parents[2] / "docs" / "tflite.md"


def conv_ref(x, w, b, stride=1):
    """Float NHWC VALID convolution, OHWI filter (independent loops)."""
    n, h, wd, _c = x.shape
    o, kh, kw, _ = w.shape
    oh, ow = (h - kh) // stride + 1, (wd - kw) // stride + 1
    out = np.zeros((n, oh, ow, o))
    for i in range(oh):
        for j in range(ow):
            patch = x[:, i * stride:i * stride + kh, j * stride:j * stride + kw, :].astype(np.float64)
            out[:, i, j, :] = np.einsum("nhwc,ohwc->no", patch, w.astype(np.float64)) + b
    return out


def ops_of(model):
    return [op.type for op in model.main.operations]


def add_model(**kw) -> bytes:
    b = TFLiteBuilder(**kw)
    x = b.add_tensor([1, 4], "FLOAT32", name="x")
    y = b.add_tensor([1, 4], "FLOAT32", data=[1, 2, 3, 4], name="y")
    z = b.add_tensor([1, 4], "FLOAT32", name="z")
    b.add_op("ADD", [x, y], [z], "AddOptions", FusedActivationFunction=1)
    return b.finish([x], [z])


# ================================================================================ reading the file
@pytest.mark.parametrize("kw", [{}, {"legacy_opcodes": True}, {"external_buffers": True},
                                {"legacy_opcodes": True, "external_buffers": True}])
def test_add_with_fused_relu_in_every_file_layout(kw):
    """Old files (opcode only in deprecated_builtin_code) and buffers stored after the flatbuffer."""
    m = import_tflite_bytes(add_model(**kw))
    assert ops_of(m) == ["ADD"]
    act = m.main.operands[m.main.operations[0].inputs[2]]
    assert act.type is T.INT32 and act.value() == 1
    out = run_model(m, [np.array([[-5, 0, 1, 2]], np.float32)])[0]
    np.testing.assert_array_equal(out, [[0, 2, 4, 6]])


def test_opcode_is_the_larger_of_the_two_fields():
    """Codes >= 127 live only in builtin_code (deprecated_builtin_code holds 127): CUMSUM is 128."""
    b = TFLiteBuilder()
    x, y = b.add_tensor([4], "FLOAT32"), b.add_tensor([4], "FLOAT32")
    b.add_op("CUMSUM", [x], [y])
    with pytest.raises(NotImplementedOpError, match=r"CUMSUM \(1x\)"):
        import_tflite_bytes(b.finish([x], [y]))


def test_unmapped_builtin_and_custom_ops_are_all_named_with_counts(tmp_path):
    b = TFLiteBuilder()
    x = b.add_tensor([1, 4], "FLOAT32")
    t1, t2, t3 = (b.add_tensor([1, 4], "FLOAT32") for _ in range(3))
    b.add_op("CUMSUM", [x], [t1])
    b.add_op("CUMSUM", [t1], [t2])
    b.add_op("CUSTOM", [t2], [t3], custom_code="MyOp")
    p = tmp_path / "unk.tflite"
    p.write_bytes(b.finish([x], [t3]))
    with pytest.raises(NotImplementedOpError, match=r"CUMSUM \(2x\), CUSTOM:MyOp \(1x\)"):
        load_tflite(p)
    assert cli_main(["run", str(p)]) == 3


@pytest.mark.parametrize("data,match", [
    (b"", "not a TFLite model"),
    (b"\0\0\0\0JSON....", "not a TFLite model"),
    (b"\x10\0\0\0TFL3\xff\xff\xff\x7f", "corrupt"),
])
def test_corrupt_files_are_input_errors(tmp_path, data, match):
    p = tmp_path / "bad.tflite"
    p.write_bytes(data)
    with pytest.raises(InputError, match=match):
        load_tflite(p)
    assert cli_main(["info", str(p)]) == 2


def test_truncated_file_is_an_input_error():
    data = add_model()
    with pytest.raises(InputError, match="corrupt|truncated"):
        import_tflite_bytes(data[: len(data) // 2])


def test_external_buffer_past_the_end_is_reported():
    data = add_model(external_buffers=True)
    with pytest.raises(InputError, match="truncated: buffer 1 lies at bytes"):
        import_tflite_bytes(data[:-8])


def test_missing_file(tmp_path):
    with pytest.raises(InputError, match="cannot be read"):
        load_tflite(tmp_path / "nope.tflite")


# ============================================================================= types and quantities
def quant_fc(per_channel: bool):
    b = TFLiteBuilder()
    x = b.add_tensor([2, 4], "INT8", scale=0.1, zero_point=3)
    w = np.arange(12, dtype=np.int8).reshape(3, 4) - 6
    ws = [0.02, 0.03, 0.04] if per_channel else 0.02
    wt = b.add_tensor([3, 4], "INT8", data=w, scale=ws, zero_point=[0, 0, 0] if per_channel else 0)
    bs = [0.1 * s for s in ws] if per_channel else 0.1 * ws
    bt = b.add_tensor([3], "INT32", data=[10, -20, 30], scale=bs, zero_point=[0, 0, 0] if per_channel else 0)
    y = b.add_tensor([2, 3], "INT8", scale=0.05, zero_point=-2)
    b.add_op("FULLY_CONNECTED", [x, wt, bt], [y], "FullyConnectedOptions", FusedActivationFunction=0)
    return b.finish([x], [y]), w, np.atleast_1d(ws)


def test_int8_fully_connected_types_and_bias_scale():
    m = import_tflite_bytes(quant_fc(False)[0])
    x, w, b, _ = (m.main.operands[i] for i in m.main.operations[0].inputs)
    assert (x.type, w.type, b.type) == (T.TENSOR_QUANT8_ASYMM_SIGNED,) * 2 + (T.TENSOR_INT32,)
    assert (x.scale, x.zero_point) == (pytest.approx(0.1), 3)
    assert b.scale == float(np.float32(x.scale * w.scale))  # NNAPI scales are C++ floats


def test_per_channel_fully_connected_keeps_per_channel_weights_with_exact_results():
    data, w, ws = quant_fc(True)
    m = import_tflite_bytes(data)
    # one FULLY_CONNECTED with LiteRT's per-channel weights (NNAPI has none: TFLite models only)
    assert ops_of(m) == ["FULLY_CONNECTED"] and m.origin == "tflite"
    filt, bias = (m.main.operands[i] for i in m.main.operations[0].inputs[1:3])
    assert filt.type is T.TENSOR_QUANT8_SYMM_PER_CHANNEL and filt.dimensions == (3, 4)
    assert filt.channel_quant.channel_dim == 0 and filt.channel_quant.scales == pytest.approx(ws)
    assert bias.scale == 0.0
    xq = np.array([[1, 2, 3, 4], [-50, 60, -70, 80]], np.int8)
    out = run_model(m, [xq])[0]
    real = ((xq.astype(np.float64) - 3) * 0.1) @ (w * ws[:, None]).T + np.array([10, -20, 30]) * 0.1 * ws
    q = real / 0.05  # no value lies within 0.01 of a half step
    expect = np.clip(np.sign(q) * np.floor(np.abs(q) + 0.5) - 2, -128, 127)
    np.testing.assert_array_equal(out, expect)  # LiteRT's one rounding, half away from zero


def test_per_channel_conv_filter_dimension_and_uint8_mapping():
    b = TFLiteBuilder()
    x = b.add_tensor([1, 3, 3, 2], "INT8", scale=0.5, zero_point=0)
    w = b.add_tensor([2, 1, 1, 2], "INT8", data=[[[[1, 2]]], [[[3, 4]]]], scale=[0.1, 0.2], zero_point=[0, 0])
    bias = b.add_tensor([2], "INT32", data=[0, 0], scale=[0.05, 0.1], zero_point=[0, 0])
    y = b.add_tensor([1, 3, 3, 2], "INT8", scale=0.25, zero_point=1)
    b.add_op("CONV_2D", [x, w, bias], [y], "Conv2DOptions", Padding=1, StrideW=1, StrideH=1)
    dw_in = b.add_tensor([1, 3, 3, 2], "UINT8", scale=0.5, zero_point=128)
    dw_w = b.add_tensor([1, 2, 2, 4], "UINT8", data=np.full((1, 2, 2, 4), 130), scale=0.1, zero_point=128)
    dw_b = b.add_tensor([4], "INT32", data=[0] * 4, scale=0.05)
    dw_y = b.add_tensor([1, 2, 2, 4], "UINT8", scale=0.5, zero_point=128)
    b.add_op("DEPTHWISE_CONV_2D", [dw_in, dw_w, dw_b], [dw_y], "DepthwiseConv2DOptions", Padding=1, StrideW=1,
             StrideH=1, DepthMultiplier=2)
    m = import_tflite_bytes(b.finish([x, dw_in], [y, dw_y]))
    conv, dw = m.main.operations
    f = m.main.operands[conv.inputs[1]]
    assert f.type is T.TENSOR_QUANT8_SYMM_PER_CHANNEL and f.channel_quant.scales == pytest.approx((0.1, 0.2))
    assert f.channel_quant.channel_dim == 0
    assert m.main.operands[dw.inputs[0]].type is T.TENSOR_QUANT8_ASYMM
    assert m.main.operands[dw.inputs[6]].value() == 2  # depth multiplier
    assert m.main.operands[dw.inputs[3]].value() == 2  # VALID -> NNAPI padding code 2


def test_float_conv_matches_an_independent_convolution():
    r = np.random.default_rng(0)
    x = r.uniform(-1, 1, (1, 5, 6, 3)).astype(np.float32)
    w = r.uniform(-1, 1, (4, 3, 2, 3)).astype(np.float32)
    bias = r.uniform(-1, 1, 4).astype(np.float32)
    b = TFLiteBuilder()
    xt = b.add_tensor(x.shape, "FLOAT32")
    wt, bt = b.add_tensor(w.shape, "FLOAT32", data=w), b.add_tensor([4], "FLOAT32", data=bias)
    y = b.add_tensor([1, 3, 5, 4], "FLOAT32")
    b.add_op("CONV_2D", [xt, wt, bt], [y], "Conv2DOptions", Padding=1, StrideW=1, StrideH=1)
    out = run_model(import_tflite_bytes(b.finish([xt], [y])), [x])[0]
    np.testing.assert_allclose(out, conv_ref(x, w, bias), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("wdtype", ["FLOAT16", "INT8"])
def test_constant_dequantize_is_folded_into_float32_weights(wdtype):
    r = np.random.default_rng(1)
    w16 = r.uniform(-1, 1, (3, 4)).astype(np.float16)
    wq = r.integers(-127, 128, (3, 4)).astype(np.int8)
    b = TFLiteBuilder()
    x = b.add_tensor([2, 4], "FLOAT32")
    if wdtype == "FLOAT16":
        wt = b.add_tensor([3, 4], "FLOAT16", data=w16)
        expect_w = w16.astype(np.float32)
    else:
        wt = b.add_tensor([3, 4], "INT8", data=wq, scale=[0.01, 0.02, 0.03], zero_point=[0, 0, 0])
        expect_w = (wq * np.array([0.01, 0.02, 0.03])[:, None]).astype(np.float32)
    wf = b.add_tensor([3, 4], "FLOAT32")
    y = b.add_tensor([2, 3], "FLOAT32")
    b.add_op("DEQUANTIZE", [wt], [wf])
    b.add_op("FULLY_CONNECTED", [x, wf, -1], [y], "FullyConnectedOptions")
    m = import_tflite_bytes(b.finish([x], [y]))
    assert ops_of(m) == ["FULLY_CONNECTED"]
    w = m.main.operands[m.main.operations[0].inputs[1]]
    assert w.type is T.TENSOR_FLOAT32 and w.lifetime is OperandLifetime.CONSTANT_COPY
    np.testing.assert_allclose(w.data, expect_w, rtol=1e-6)
    xin = r.uniform(-1, 1, (2, 4)).astype(np.float32)
    np.testing.assert_allclose(run_model(m, [xin])[0], xin @ expect_w.T, rtol=1e-5, atol=1e-6)


def test_quantize_between_quantized_types_is_litert_requantize():
    b = TFLiteBuilder()
    x = b.add_tensor([4], "INT8", scale=0.1, zero_point=0)
    y = b.add_tensor([4], "UINT8", scale=0.2, zero_point=128)
    b.add_op("QUANTIZE", [x], [y])
    m = import_tflite_bytes(b.finish([x], [y]))
    # the rescale is a MEAN over one element (in int8, zero point 0), the int8 -> uint8 shift an
    # exact DEQUANTIZE + QUANTIZE
    assert ops_of(m) == ["EXPAND_DIMS", "MEAN", "DEQUANTIZE", "QUANTIZE"]
    out = run_model(m, [np.array([-100, -3, 0, 101], np.int8)])[0]
    # (q - z) / 2 in gemmlowp's fixed point (LiteRT's Requantize): -50; -1.5 -> -1 (the high
    # multiply's nudge takes a negative half toward zero); 0; 50.5 -> 51
    np.testing.assert_array_equal(out, [78, 127, 128, 179])


def test_pack_on_the_last_axis_reshapes_each_input():
    b = TFLiteBuilder()
    xs = [b.add_tensor([2, 3], "FLOAT32") for _ in range(2)]
    y = b.add_tensor([2, 3, 2], "FLOAT32")
    b.add_op("PACK", xs, [y], "PackOptions", ValuesCount=2, Axis=2)
    m = import_tflite_bytes(b.finish(xs, [y]))
    assert ops_of(m) == ["RESHAPE", "RESHAPE", "CONCATENATION"]
    a, c = np.arange(6, dtype=np.float32).reshape(2, 3), -np.arange(6, dtype=np.float32).reshape(2, 3)
    np.testing.assert_array_equal(run_model(m, [a, c])[0], np.stack([a, c], axis=2))


def test_leaky_relu_alpha_becomes_an_exact_prelu_alpha():
    b = TFLiteBuilder()
    x, y = b.add_tensor([4], "FLOAT32"), b.add_tensor([4], "FLOAT32")
    b.add_op("LEAKY_RELU", [x], [y], "LeakyReluOptions", Alpha=0.25)
    m = import_tflite_bytes(b.finish([x], [y]))
    assert ops_of(m) == ["PRELU"]
    np.testing.assert_array_equal(run_model(m, [np.array([-4, -1, 0, 2], np.float32)])[0], [-1, -0.25, 0, 2])


# ======================================================================================= rejections
def single_op(op, options=None, shapes=((4,), (4,)), dtype="FLOAT32", out_shape=(4,), q=None, **fields):
    b = TFLiteBuilder()
    q = q or {}
    ins = [b.add_tensor(s, dtype, **q.get(k, {})) for k, s in enumerate(shapes)]
    y = b.add_tensor(out_shape, dtype, **q.get("out", {}))
    b.add_op(op, ins, [y], options, **fields)
    return b.finish(ins, [y])


def test_fused_tanh_is_not_implemented():
    with pytest.raises(NotImplementedOpError, match=r"operator 0 \(ADD\) cannot be imported: its fused "
                                                    r"activation 4 has no NNAPI FuseCode"):
        import_tflite_bytes(single_op("ADD", "AddOptions", FusedActivationFunction=4))


def test_quantized_mul_needs_output_scale_above_the_product():
    q = {0: {"scale": 0.5, "zero_point": 0}, 1: {"scale": 0.5, "zero_point": 0},
         "out": {"scale": 0.25, "zero_point": 0}}
    with pytest.raises(NotImplementedOpError, match=r"output scale \(0.25\) to exceed the product"):
        import_tflite_bytes(single_op("MUL", "MulOptions", dtype="INT8", q=q))


def test_select_v2_with_broadcasting_is_not_implemented():
    b = TFLiteBuilder()
    c, a, e = b.add_tensor([4], "BOOL"), b.add_tensor([1], "FLOAT32"), b.add_tensor([4], "FLOAT32")
    y = b.add_tensor([4], "FLOAT32")
    b.add_op("SELECT_V2", [c, a, e], [y])
    with pytest.raises(NotImplementedOpError, match="NNAPI SELECT does not broadcast"):
        import_tflite_bytes(b.finish([c, a, e], [y]))


def test_strided_slice_ellipsis_is_not_implemented():
    b = TFLiteBuilder()
    x = b.add_tensor([4, 4], "FLOAT32")
    consts = [b.add_tensor([2], "INT32", data=v) for v in ([0, 0], [2, 2], [1, 1])]
    y = b.add_tensor([2, 2], "FLOAT32")
    b.add_op("STRIDED_SLICE", [x, *consts], [y], "StridedSliceOptions", EllipsisMask=1)
    with pytest.raises(NotImplementedOpError, match="ellipsis_mask / new_axis_mask"):
        import_tflite_bytes(b.finish([x], [y]))


def test_non_constant_axis_is_not_implemented():
    b = TFLiteBuilder()
    x, a = b.add_tensor([2, 3], "FLOAT32"), b.add_tensor([], "INT32")
    y = b.add_tensor([1, 2, 3], "FLOAT32")
    b.add_op("EXPAND_DIMS", [x, a], [y])
    with pytest.raises(NotImplementedOpError, match=r"its axis \(tensor t1\) is not a constant"):
        import_tflite_bytes(b.finish([x, a], [y]))


def test_per_channel_filter_with_nonzero_zero_points_is_not_implemented():
    b = TFLiteBuilder()
    x = b.add_tensor([1, 2, 2, 1], "INT8", scale=0.5, zero_point=0)
    w = b.add_tensor([2, 1, 1, 1], "INT8", data=[1, 2], scale=[0.1, 0.2], zero_point=[0, 3])
    bias = b.add_tensor([2], "INT32", data=[0, 0], scale=[0.05, 0.1], zero_point=[0, 0])
    y = b.add_tensor([1, 2, 2, 2], "INT8", scale=0.25, zero_point=0)
    b.add_op("CONV_2D", [x, w, bias], [y], "Conv2DOptions", Padding=1, StrideW=1, StrideH=1)
    with pytest.raises(NotImplementedOpError, match="non-zero zero points"):
        import_tflite_bytes(b.finish([x], [y]))


def test_unsupported_tensor_type_is_named():
    with pytest.raises(NotImplementedOpError, match="TFLite type COMPLEX64"):
        import_tflite_bytes(single_op("ADD", "AddOptions", dtype="COMPLEX64"))


def test_graph_input_as_output_is_rejected():
    b = TFLiteBuilder()
    x, y = b.add_tensor([4], "FLOAT32"), b.add_tensor([4], "FLOAT32")
    b.add_op("RELU", [x], [y])
    with pytest.raises(NotImplementedOpError, match="is a graph input or a constant"):
        import_tflite_bytes(b.finish([x], [y, x]))


# ============================================================================================= CLI
def write_two_input_model(path: Path) -> None:
    b = TFLiteBuilder()
    x = b.add_tensor([1, 3], "FLOAT32", name="x")
    y = b.add_tensor([1, 3], "FLOAT32", name="y")
    s = b.add_tensor([1, 3], "FLOAT32", name="sub")
    m = b.add_tensor([1, 3], "FLOAT32", name="max")
    b.add_op("SUB", [x, y], [s], "SubOptions")
    b.add_op("MAXIMUM", [x, y], [m])
    path.write_bytes(b.finish([x, y], [s, m]))


def test_cli_import_run_and_info(tmp_path, capsys):
    src = tmp_path / "two.tflite"
    write_two_input_model(src)
    out = tmp_path / "two.json.gz"
    assert cli_main(["import", str(src), "-o", str(out)]) == 0
    assert "2 NNAPI operations, 2 inputs, 2 outputs" in capsys.readouterr().out
    model = load_model(out)
    assert ops_of(model) == ["SUB", "MAXIMUM"]
    x, y = np.array([[1, 5, -2]], np.float32), np.array([[3, 1, -1]], np.float32)
    np.savez(tmp_path / "in.npz", input0=x, input1=y)
    for path in (src, out):
        res = tmp_path / f"out-{path.suffix}.npz"
        assert cli_main(["run", str(path), "--inputs", str(tmp_path / "in.npz"), "--outputs", str(res)]) == 0
        got = np.load(res)
        np.testing.assert_array_equal(got["output0"], x - y)  # subgraph input / output order kept
        np.testing.assert_array_equal(got["output1"], np.maximum(x, y))
    assert cli_main(["info", str(src)]) == 0
    assert "valid model" in capsys.readouterr().out


def test_cli_import_default_output_and_errors(tmp_path, capsys):
    src = tmp_path / "two.tflite"
    write_two_input_model(src)
    assert cli_main(["import", str(src)]) == 0
    assert (tmp_path / "two.json.gz").exists()
    assert cli_main(["import", str(tmp_path / "none.tflite")]) == 2
    assert "does not exist" in capsys.readouterr().err
    assert cli_main(["import", str(tmp_path / "two.json.gz")]) == 2
    assert "is not a .tflite or .onnx file" in capsys.readouterr().err
    assert cli_main(["import", str(src), "-o", str(tmp_path / "x.npz")]) == 2
    assert "must end in .json or .json.gz" in capsys.readouterr().err


# ============================================================================= the generated doc
def test_doc_op_table_is_generated_from_the_importer_table():
    text = DOC.read_text(encoding="utf-8")
    assert render_doc(text) == text, ("docs/tflite.md's op table is stale; regenerate it with: "
                                      "python -m nnaccel.compiler.tflite_import --write-doc docs/tflite.md")
    for name in OP_TABLE:
        assert f"| `{name}` |" in text


# ==================================================================================== LiteRT worker
def test_litert_worker_reports_errors_and_survives_a_crash():
    import os
    import signal

    from support.tflite_litert import LiteRTWorker
    data = add_model()
    x = np.array([[-5, 0, 1, 2]], np.float32)
    with LiteRTWorker() as w:
        assert w.run(data, [x])[0] == "ok"
        status, msg = w.run(b"not a model", [])
        assert status == "error" and "ValueError" in msg
        os.kill(w.proc.pid, signal.SIGKILL)  # the worker dies as an abort inside LiteRT makes it
        w.proc.wait()
        w.proc.poll = lambda: None  # ... while run() believes it alive: the crash path
        status, _ = w.run(data, [x])
        assert status == "crash" and w.crashes == 1
        status, out = w.run(data, [x])  # a fresh worker
        assert status == "ok"
        np.testing.assert_array_equal(out[0], [[0, 2, 4, 6]])


def test_hybrid_ops_get_dequantized_float_weights():
    """Dynamic-range quantized models (float activations, int8 weights): NNAPI has no hybrid ops, so
    the weights become float32 constants and the op runs in float."""
    r = np.random.default_rng(3)
    x = r.uniform(-1, 1, (1, 4, 4, 2)).astype(np.float32)
    wq = r.integers(-127, 128, (3, 2, 2, 2)).astype(np.int8)
    ws = np.array([0.01, 0.02, 0.005])
    bias = r.uniform(-1, 1, 3).astype(np.float32)
    fq = r.integers(-127, 128, (5, 27)).astype(np.int8)
    b = TFLiteBuilder()
    xt = b.add_tensor(x.shape, "FLOAT32")
    wt = b.add_tensor(wq.shape, "INT8", data=wq, scale=list(ws), zero_point=[0, 0, 0])
    bt = b.add_tensor([3], "FLOAT32", data=bias)
    y = b.add_tensor([1, 3, 3, 3], "FLOAT32")
    b.add_op("CONV_2D", [xt, wt, bt], [y], "Conv2DOptions", Padding=1, StrideW=1, StrideH=1)
    ft = b.add_tensor([5, 27], "INT8", data=fq, scale=0.02, zero_point=0)
    z = b.add_tensor([1, 5], "FLOAT32")
    b.add_op("FULLY_CONNECTED", [y, ft, -1], [z], "FullyConnectedOptions")
    m = import_tflite_bytes(b.finish([xt], [y, z]))
    assert ops_of(m) == ["CONV_2D", "FULLY_CONNECTED"]
    for op in m.main.operations:
        assert m.main.operands[op.inputs[1]].type is T.TENSOR_FLOAT32
    conv_out, fc_out = run_model(m, [x])
    w = wq * ws[:, None, None, None].astype(np.float32)
    expect = conv_ref(x, w, bias)
    np.testing.assert_allclose(conv_out, expect, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(fc_out, expect.reshape(1, 27) @ (fq * np.float32(0.02)).T, rtol=1e-4, atol=1e-5)
