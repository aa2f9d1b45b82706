"""Model IR, builder, file format round trip, structural validation, interpreter basics."""

import time

import numpy as np
import pytest

from nnaccel import ExecutionError, ModelError, registry
from nnaccel.cts import cts_dir
from nnaccel.formats import load_models, model_from_dict, model_to_dict, save_models
from nnaccel.golden.interpreter import Interpreter, run_model
from nnaccel.model import ChannelQuant, ModelBuilder, OperandLifetime, OperandType, Subgraph
from nnaccel.validate import validate_model

T = OperandType


def float_add_model():
    b = ModelBuilder("add")
    x = b.add_operand(T.TENSOR_FLOAT32, [2, 2])
    y = b.add_operand(T.TENSOR_FLOAT32, [2])
    act = b.add_constant(T.INT32, 1)
    out = b.add_operand(T.TENSOR_FLOAT32, [0, 0])  # unknown output shape, resolved at run time
    b.add_operation("ADD", [x, y, act], [out])
    b.identify_inputs_and_outputs([x, y], [out])
    return b.finish()


def test_registry_has_all_103_operations():
    assert len(registry.OPS) == 103
    assert registry.OPS["ADD"].code == 0 and registry.OPS["BATCH_MATMUL"].code == 102
    assert registry.OPS["HARD_SWISH"].code == 99 and registry.OPS["IF"].since == "V1_3"
    assert registry.OPS["SUB"].since == "V1_1" and registry.OPS["BATCH_MATMUL"].since == "FL_6"
    assert sorted(op.code for op in registry.OPS.values()) == list(range(103))


def test_registry_names_match_the_spec():
    spec = cts_dir().parent / "spec" / "OperationType.aidl"
    if not spec.exists():
        pytest.skip(f"{spec} is absent")
    import re
    found = {n: int(c) for n, c in re.findall(r"^\s+([A-Z_0-9]+) = (\d+),", spec.read_text(), re.MULTILINE)}
    assert found == {op.name: op.code for op in registry.OPS.values()}


def test_builder_run_broadcast_and_activation():
    model = float_add_model()
    (out,) = run_model(model, [np.array([[1, -5], [2, 3]], np.float32), np.array([1, 1], np.float32)])
    assert out.tolist() == [[2, 0], [3, 4]]


def test_format_round_trip(tmp_path):
    model = float_add_model()
    model.stored_inputs = [np.ones((2, 2), np.float32), np.zeros(2, np.float32)]
    path = tmp_path / "m.json.gz"
    save_models([model], path)
    (back,) = load_models(path)
    assert model_to_dict(back) == model_to_dict(model)
    assert back.main.operands[3].dimensions == (0, 0)


def test_origin_is_stored_only_when_not_nnapi(tmp_path):
    model = float_add_model()
    assert model.origin == "nnapi" and "origin" not in model_to_dict(model)
    model.origin = "tflite"
    save_models([model], tmp_path / "m.json")
    (back,) = load_models(tmp_path / "m.json")
    assert back.origin == "tflite" and model_to_dict(back)["origin"] == "tflite"


def test_unknown_origin_is_rejected():
    d = model_to_dict(float_add_model())
    d["origin"] = "onnx"
    expect_invalid(d, r"^Model 'add' has origin 'onnx', but the origin must be one of 'nnapi', 'tflite'\.$")


def test_loads_every_conformance_file_shape(cts_root):
    models = load_models(cts_root / "V1_2" / "conv2d_per_channel.json.gz")
    filt = models[0].main.operands[1]
    assert filt.type is T.TENSOR_QUANT8_SYMM_PER_CHANNEL
    assert filt.channel_quant == ChannelQuant((0.5, 0.75, 1.0), 0)
    assert filt.data.shape == (3, 1, 1, 2)


def base_dict():
    return model_to_dict(float_add_model())


def expect_invalid(d, pattern):
    with pytest.raises(ModelError, match=pattern):
        validate_model(model_from_dict(d))


def test_zero_point_out_of_range():
    d = base_dict()
    for k in (0, 1, 3):
        d["main"]["operands"][k].update(type="TENSOR_QUANT8_ASYMM", scale=0.5, zero_point=300)
    expect_invalid(d, r"zero point 300, outside the range \[0, 255\]")


def test_per_channel_scale_count():
    b = ModelBuilder()
    w = b.add_constant(T.TENSOR_QUANT8_SYMM_PER_CHANNEL, np.zeros((3, 2), np.int8),
                       channel_quant=ChannelQuant((0.5, 0.5), 0))
    with pytest.raises(ModelError, match="2 per-channel scales, but its channel dimension 0 has size 3"):
        validate_model(b.finish())
    assert w == 0


def test_operand_written_twice():
    d = base_dict()
    d["main"]["operations"].append(dict(d["main"]["operations"][0]))
    expect_invalid(d, r"which operation 0 already writes")


def test_operations_out_of_order():
    model = float_add_model()
    sg = model.main
    mid = len(sg.operands)
    sg.operands.append(type(sg.operands[0])(T.TENSOR_FLOAT32, (2, 2)))
    sg.operations.insert(0, type(sg.operations[0])("ADD", [mid, 1, 2], [3]))
    sg.operations[1].outputs = [mid]
    with pytest.raises(ModelError, match="written by the later operation 1"):
        validate_model(model)


def test_if_references_missing_subgraph():
    b = ModelBuilder()
    cond = b.add_operand(T.TENSOR_BOOL8, [1])
    then = b.add_subgraph_operand(Subgraph())
    x = b.add_operand(T.TENSOR_FLOAT32, [1])
    out = b.add_operand(T.TENSOR_FLOAT32, [1])
    b.add_operation("IF", [cond, then, then, x], [out])
    b.identify_inputs_and_outputs([cond, x], [out])
    model = b.finish()
    model.main.operands[then].data = np.array([5], np.uint32)
    with pytest.raises(ModelError, match="names subgraph 5, but the model has 1 referenced subgraphs"):
        validate_model(model)


def test_operation_signature_mismatch_message():
    d = base_dict()
    d["main"]["operands"][2]["type"] = "FLOAT32"
    expect_invalid(d, r"Operation 0 \(ADD\) has operands .* which match none of its signatures")


def test_omitted_optional_input_is_none():
    model = float_add_model()
    assert model.main.operands[2].lifetime is OperandLifetime.CONSTANT_COPY
    with pytest.raises(ExecutionError, match=r"input 0 \(operand 0\) has no value"):
        Interpreter(model).run([None, np.zeros(2, np.float32)])


def test_while_infinite_loop_hits_the_guard(cts_root):
    models = load_models(cts_root / "V1_3" / "while_infinite_loop.json.gz")
    model = models[0]
    missing = [n for n in ("WHILE", "GREATER_EQUAL", "ADD") if not registry.get(n).implemented]
    if missing:
        pytest.skip(f"golden kernels not implemented yet: {missing}")
    t0 = time.monotonic()
    with pytest.raises(ExecutionError, match="exceeded the loop timeout of 0.2 s"):
        Interpreter(model, loop_timeout=0.2).run(model.stored_inputs)
    assert time.monotonic() - t0 < 5
