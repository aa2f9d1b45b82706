"""Inputs the fuzz tests (``tests/test_fuzz.py``) found crashing a loader, each kept as a regression
test: every one now ends in exit 2 with a one-sentence error."""

from __future__ import annotations

import dataclasses
import gzip
import json
import re
from pathlib import Path

import pytest
from nnaccel.compiler.package import Package
from nnaccel.compiler.reference_models import build_demo_model
from support.tflite_build import TFLiteBuilder

from nnaccel.cli import main
from nnaccel.formats import model_to_dict

GOLDEN_PACKAGE = Path(__file__).parent / "golden_packages" / "mlp.small.nnpkg"


def exit_2(capsys, pattern, *argv):
    code = main([str(a) for a in argv])
    err = capsys.readouterr().err.strip()
    assert code == 2, err
    assert "Traceback" not in err and err.count("\n") == 0 and err.endswith("."), err
    assert re.search(pattern, err), err


def _model_doc(change):
    d = model_to_dict(build_demo_model()[0])
    change(d)
    return d


def _operand0(**fields):
    return lambda d: d["main"]["operands"][0].update(fields)


JSON_CASES = {
    "channel_quant_not_an_object": (_operand0(channel_quant=[1, 2]), r"channel_quant .* not an object"),
    "channel_quant_without_scales": (_operand0(channel_quant={"channel_dim": 0}), r"channel_quant"),
    "operation_inputs_null": (lambda d: d["main"]["operations"][0].update(inputs=None),
                              r"Operation 0 of subgraph main has inputs None, which is not a list of integers"),
    "operands_not_a_list": (lambda d: d["main"].update(operands=7), r"has operands 7, which is not a list"),
    "lifetime_a_list": (_operand0(lifetime=["SUBGRAPH_INPUT"]), r"unknown lifetime"),
    "type_a_list": (_operand0(type=["TENSOR_FLOAT32"]), r"unknown operand type"),
    "scale_beyond_float": (_operand0(scale=10**400), r"scale .* not a float32 number"),
}


@pytest.mark.parametrize("case", sorted(JSON_CASES))
def test_json_model_regressions(tmp_path, capsys, case):
    change, pattern = JSON_CASES[case]
    p = tmp_path / "m.json"
    p.write_text(json.dumps(_model_doc(change)))
    exit_2(capsys, pattern, "run", p)


def test_gzip_with_a_corrupt_deflate_stream(tmp_path, capsys):
    data = bytearray(gzip.compress(json.dumps(model_to_dict(build_demo_model()[0])).encode(), mtime=0))
    data[40] ^= 0x55  # "invalid distance too far back" / "invalid code lengths set"
    p = tmp_path / "m.json.gz"
    p.write_bytes(bytes(data))
    exit_2(capsys, r"is damaged: its compressed data is invalid|cannot be read \(CRC check failed|not valid JSON", "info", p)


def _package(tmp_path, change):
    pkg = Package.load(GOLDEN_PACKAGE)
    m = json.loads(json.dumps(pkg.manifest))
    change(m)
    p = tmp_path / "p.nnpkg"
    p.write_bytes(dataclasses.replace(pkg, manifest=m).to_bytes())
    return p


PACKAGE_CASES = {
    "layer_without_first": (lambda m: m["segments"][0]["layers"][0].pop("first"), r"fields first, last"),
    "segment_operations_nested": (lambda m: m["segments"][0].update(operations=[[0, 1]]),
                                  r"an entry of segment 0 operations is \[0, 1\]"),
    "host_ops_null": (lambda m: m.update(host_ops=None), r"host_ops is not a list"),
    "layer_type_a_list": (lambda m: m["segments"][0]["layers"][0].update(type=[1]), r"layer type"),
    "tensor_outside_memory": (lambda m: m["tensors"]["0"].update(addr=2**40), r"tensor 0 lies outside"),
    "segments_an_object": (lambda m: m.update(segments={"0": {}}), r"segments is not a list"),
}


@pytest.mark.parametrize("command", ["report", "run"])
@pytest.mark.parametrize("case", sorted(PACKAGE_CASES))
def test_package_manifest_regressions(tmp_path, capsys, case, command):
    change, pattern = PACKAGE_CASES[case]
    exit_2(capsys, r"damaged manifest: .*" + pattern, command, _package(tmp_path, change))


def test_package_with_a_bad_zip_directory(tmp_path, capsys):
    data = bytearray(GOLDEN_PACKAGE.read_bytes())
    end = data.rfind(b"PK\x05\x06")
    data[end + 16:end + 20] = (len(data) + 31).to_bytes(4, "little")  # central directory past the end
    p = tmp_path / "p.nnpkg"
    p.write_bytes(bytes(data))
    exit_2(capsys, r"damaged or truncated", "run", p)


def test_tflite_operator_with_too_few_inputs(tmp_path, capsys):
    b = TFLiteBuilder()
    x, y = b.add_tensor([2, 2], "FLOAT32"), b.add_tensor([4, 4], "FLOAT32")
    b.add_op("TILE", [x], [y])
    p = tmp_path / "m.tflite"
    p.write_bytes(b.finish([x], [y]))
    exit_2(capsys, r"malformed: operator 0 \(TILE, 1 inputs, 1 outputs\) cannot be converted", "info", p)


def test_tflite_binary_operator_with_one_input(tmp_path, capsys):
    b = TFLiteBuilder()
    x, y = b.add_tensor([1, 4], "FLOAT32"), b.add_tensor([1, 4], "FLOAT32")
    b.add_op("MUL", [x], [y], "MulOptions", FusedActivationFunction=0)
    p = tmp_path / "m.tflite"
    p.write_bytes(b.finish([x], [y]))
    exit_2(capsys, r"malformed: operator 0 \(MUL", "run", p)


@pytest.mark.parametrize("command", ["disasm", "run"])
def test_isa_program_with_an_illegal_opcode(tmp_path, capsys, command):
    p = tmp_path / "p.bin"
    p.write_bytes(bytes(16))
    exit_2(capsys, r"opcode 0 names no instruction", "isa", command, p)


def test_isa_asm_of_a_file_that_is_not_text(tmp_path, capsys):
    """Found by atheris (isa_asm): a byte that is not UTF-8 in an assembly source."""
    p = tmp_path / "p.s"
    p.write_bytes(b"NOP\n\xae\xff FINISH\n")
    exit_2(capsys, r"is not UTF-8 text \(byte 4\)", "isa", "asm", p, "-o", tmp_path / "p.bin")


def test_constant_of_unknown_rank(tmp_path, capsys):
    """Found by hypothesis (json_model structure): FULLY_CONNECTED weights whose dimensions were
    removed reached the kernel as a 1-D array."""
    from nnaccel.compiler.reference_models import REFERENCE_MODELS
    d = model_to_dict(REFERENCE_MODELS["mlp"]())
    fc = next(op for op in d["main"]["operations"] if op["type"] == "FULLY_CONNECTED")
    d["main"]["operands"][fc["inputs"][1]]["dimensions"] = []
    p = tmp_path / "m.json"
    p.write_text(json.dumps(d))
    exit_2(capsys, r"is a constant of unknown rank; a constant's shape must be known", "run", p)


def test_tflite_operator_with_options_of_another_kind(tmp_path, capsys):
    """Found by hypothesis (tflite_run mutation): RESIZE_BILINEAR carrying ReshapeOptions."""
    b = TFLiteBuilder()
    x, size = b.add_tensor([1, 2, 2, 1], "FLOAT32"), b.add_tensor([2], "INT32", data=[4, 4])
    y = b.add_tensor([1, 4, 4, 1], "FLOAT32")
    b.add_op("RESIZE_BILINEAR", [x, size], [y], "ReshapeOptions", NewShape=[1, 4, 4, 1])
    p = tmp_path / "m.tflite"
    p.write_bytes(b.finish([x], [y]))
    exit_2(capsys, r"malformed: operator 0 \(RESIZE_BILINEAR", "info", p)


def test_tflite_graph_input_out_of_range(tmp_path, capsys):
    """Found by hypothesis (tflite_run mutation): a subgraph input naming a tensor that does not exist."""
    b = TFLiteBuilder()
    x, y = b.add_tensor([1, 4], "FLOAT32"), b.add_tensor([1, 4], "FLOAT32")
    b.add_op("RELU", [x], [y])
    p = tmp_path / "m.tflite"
    p.write_bytes(b.finish([7], [y]))
    exit_2(capsys, r"corrupt: its subgraph names tensor 7 of 2 as an input or output", "run", p)
