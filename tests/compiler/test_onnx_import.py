"""The ONNX importer: rejections (exit 2 / 3), the CLI paths, the NHWC layout, and the QDQ CNN
running end to end on the accelerator (bit-exact with golden, checked against onnxruntime).

Expected values come from onnxruntime or NumPy computations written here."""

from __future__ import annotations

import numpy as np
import onnxruntime as ort
import pytest
from nnaccel.compiler.compile import compile_model
from nnaccel.compiler.onnx_import import import_onnx_bytes, load_onnx
from nnaccel.firmware.runtime import run_on_backend
from onnx import TensorProto, helper
from support.onnx_build import make_model, qdq_cnn

from nnaccel.cli import main as cli_main
from nnaccel.errors import InputError, NotImplementedOpError
from nnaccel.formats import load_model
from nnaccel.golden.interpreter import run_model

F = TensorProto.FLOAT


def ort_run(data: bytes, feeds: dict) -> list:
    return ort.InferenceSession(data, providers=["CPUExecutionProvider"]).run(None, feeds)


def conv_relu_conv() -> bytes:
    rng = np.random.default_rng(0)
    nodes = [helper.make_node("Conv", ["x", "w1", "b1"], ["c1"], pads=[1, 1, 1, 1]),
             helper.make_node("Relu", ["c1"], ["r1"]),
             helper.make_node("Conv", ["r1", "w2"], ["y"], strides=[2, 2], auto_pad="SAME_UPPER")]
    inits = {"w1": rng.normal(size=(4, 3, 3, 3)).astype(np.float32), "b1": rng.normal(size=4).astype(np.float32),
             "w2": rng.normal(size=(5, 4, 3, 3)).astype(np.float32)}
    return make_model(nodes, {"x": (F, [1, 3, 8, 8])}, {"y": (F, [1, 5, 4, 4])}, inits)


def test_float_conv_chain_runs_nhwc_between_its_convolutions():
    data = conv_relu_conv()
    m = import_onnx_bytes(data)
    ops = [o.type for o in m.main.operations]
    assert ops == ["TRANSPOSE", "CONV_2D", "RELU", "CONV_2D", "TRANSPOSE"]
    x = np.random.default_rng(1).normal(size=(1, 3, 8, 8)).astype(np.float32)
    want = ort_run(data, {"x": x})[0]
    np.testing.assert_allclose(run_model(m, [x])[0], want, rtol=1e-5, atol=1e-5 * np.abs(want).max())


def test_unmapped_ops_are_all_named_with_counts(tmp_path):
    nodes = [helper.make_node("Erf", ["x"], ["a"]), helper.make_node("Erf", ["a"], ["b"]),
             helper.make_node("Einsum", ["b"], ["y"], equation="ij->ji")]
    p = tmp_path / "unk.onnx"
    p.write_bytes(make_model(nodes, {"x": (F, [2, 2])}, {"y": (F, [2, 2])}))
    with pytest.raises(NotImplementedOpError, match=r"Einsum \(1x\), Erf \(2x\)"):
        load_onnx(p)
    assert cli_main(["run", str(p)]) == 3
    assert cli_main(["import", str(p), "-o", str(tmp_path / "m.json.gz")]) == 3


@pytest.mark.parametrize("data,match", [(b"", "no graph"), (b"\x08\x07garbage\xff\xff", "not an ONNX model"),
                                        (b"not a protobuf at all", "not an ONNX model")])
def test_malformed_files_are_input_errors(tmp_path, data, match):
    p = tmp_path / "bad.onnx"
    p.write_bytes(data)
    with pytest.raises(InputError, match=match):
        load_onnx(p)
    assert cli_main(["info", str(p)]) == 2


def test_invalid_graph_is_an_input_error():
    bad = make_model([helper.make_node("Relu", ["nowhere"], ["y"])], {"x": (F, [2])}, {"y": (F, [2])})
    with pytest.raises(InputError, match="invalid"):
        import_onnx_bytes(bad)


def test_parameter_computed_at_run_time_is_not_implemented():
    nodes = [helper.make_node("Clip", ["x", "lo", ""], ["y"])]
    data = make_model(nodes, {"x": (F, [4]), "lo": (F, [])}, {"y": (F, [4])})
    with pytest.raises(NotImplementedOpError, match=r"node 0 \(Clip\).*min \(tensor 'lo'\) is not a constant"):
        import_onnx_bytes(data)


def test_cli_import_then_run_and_info(tmp_path, capsys):
    p = tmp_path / "cnn.onnx"
    p.write_bytes(conv_relu_conv())
    out = tmp_path / "cnn.json.gz"
    assert cli_main(["import", str(p), "-o", str(out)]) == 0
    m = load_model(out)
    assert [o.type for o in m.main.operations].count("CONV_2D") == 2
    assert cli_main(["info", str(p)]) == 0
    x = np.random.default_rng(2).normal(size=(1, 3, 8, 8)).astype(np.float32)
    np.savez(tmp_path / "in.npz", input0=x)
    assert cli_main(["run", str(p), "--inputs", str(tmp_path / "in.npz"), "--outputs",
                     str(tmp_path / "out.npz")]) == 0
    want = ort_run(p.read_bytes(), {"x": x})[0]
    got = np.load(tmp_path / "out.npz")["output0"]
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5 * np.abs(want).max())


@pytest.mark.parametrize("per_channel,elem", [(True, TensorProto.INT8), (False, TensorProto.UINT8)])
def test_qdq_cnn_runs_on_the_accelerator_bit_exact(tmp_path, per_channel, elem):
    """Done-when: the QDQ CNN (conv, depthwise, residual add, pooling, FC) imports into quantized
    NNAPI ops, its convolutions run on the accelerator (ISA simulator) bit-exact with golden, and
    golden agrees with onnxruntime within one output step."""
    data = qdq_cnn(per_channel=per_channel, elem=elem)
    m = import_onnx_bytes(data)
    ops = [o.type for o in m.main.operations]
    assert ops.count("DEPTHWISE_CONV_2D") == 1 and "ADD" in ops and "MAX_POOL_2D" in ops
    # int8 weights under a uint8 input become per-channel symmetric: the FC is then a 1x1 CONV_2D
    assert ops.count("CONV_2D") == 2 and "FULLY_CONNECTED" in ops if per_channel else ops.count("CONV_2D") == 3
    x = np.random.default_rng(3).uniform(-1, 1, (1, 3, 12, 12)).astype(np.float32)
    golden = run_model(m, [x])[0]
    outs, report = run_on_backend(compile_model(m, "small"), [x], backend="isa", check=True)
    np.testing.assert_array_equal(outs[0], golden)
    accelerated = [o["type"] for o in report["accelerator_ops"]]
    assert accelerated.count("CONV_2D") == ops.count("CONV_2D") and "DEPTHWISE_CONV_2D" in accelerated
    want = ort_run(data, {"x": x})[0]
    assert np.abs(golden - want).max() <= 0.02 + 1e-6  # one step of the output scale
    p = tmp_path / "cnn.onnx"
    p.write_bytes(data)
    np.savez(tmp_path / "in.npz", input0=x)
    assert cli_main(["run", str(p), "--backend", "isa", "--config", "small", "--inputs", str(tmp_path / "in.npz"),
                     "--outputs", str(tmp_path / "out.npz")]) == 0
    np.testing.assert_array_equal(np.load(tmp_path / "out.npz")["output0"], golden)
