"""The compiler: partition through the registry's lowerings, segments, host fallback with a warning,
package format and its rejections (one sentence, exit status 2 on the command line)."""

from __future__ import annotations

import json
import zipfile

import numpy as np
import pytest
from nnaccel.compiler.compile import CompileWarning, compile_model, plan_model
from nnaccel.compiler.lower import LOWERINGS
from nnaccel.compiler.package import VERSION, Package, PackageError
from nnaccel.compiler.reference_models import mobilenet_block, small_cnn
from nnaccel.firmware.runtime import Runtime

from nnaccel import registry
from nnaccel.cli import main
from nnaccel.formats import save_models
from nnaccel.golden.interpreter import run_model
from nnaccel.model import ChannelQuant, ModelBuilder, OperandType

T = OperandType
Q = T.TENSOR_QUANT8_ASYMM


def test_the_lowering_table_is_read_only_and_names_registry_ops():
    before = dict(LOWERINGS)
    compile_model(mobilenet_block(4, 4, 4), "tiny")
    assert dict(LOWERINGS) == before and set(LOWERINGS) <= set(registry.OPS)
    assert "SOFTMAX" not in LOWERINGS and not hasattr(registry.OPS["CONV_2D"], "lowering")
    with pytest.raises(TypeError):
        LOWERINGS["SOFTMAX"] = LOWERINGS["RELU"]


def test_consecutive_accelerator_ops_form_one_segment():
    pkg = compile_model(mobilenet_block(4, 4, 4), "small")
    m = pkg.manifest
    assert [s["operations"] for s in m["segments"]] == [[0, 1, 2, 3]]
    assert m["host_ops"] == []
    assert m["segments"][0]["inputs"] == [0] and m["segments"][0]["outputs"] == [m["segments"][0]["outputs"][0]]


def test_host_op_splits_segments_and_names_its_reason():
    pkg = compile_model(small_cnn(), "small")
    m = pkg.manifest
    assert [(h["type"], h["reason"]) for h in m["host_ops"]] == [("SOFTMAX", "no accelerator lowering")]
    assert [o["type"] for o in m["accelerator_ops"]] == ["CONV_2D", "MAX_POOL_2D", "AVERAGE_POOL_2D", "LOGISTIC",
                                                         "RESHAPE", "FULLY_CONNECTED"]


def _quant_chain(ops_between_float: bool):
    """ADD (quant) -> [DEQUANTIZE -> QUANTIZE on the host] -> ADD (quant)."""
    b = ModelBuilder("chain")
    x = b.add_operand(Q, (2, 8), 0.1, 10)
    zero = b.add_constant(T.INT32, 0)
    a = b.add_operand(Q, (2, 8), 0.2, 5)
    b.add_operation("ADD", [x, x, zero], [a])
    if ops_between_float:
        f = b.add_operand(T.TENSOR_FLOAT32, (2, 8))
        b.add_operation("DEQUANTIZE", [a], [f])
        a2 = b.add_operand(Q, (2, 8), 0.2, 5)
        b.add_operation("QUANTIZE", [f], [a2])
        a = a2
    y = b.add_operand(Q, (2, 8), 0.3, 0)
    b.add_operation("ADD", [a, x, zero], [y])
    b.identify_inputs_and_outputs([x], [y])
    return b.finish()


def test_two_segments_around_host_ops_and_bit_exact():
    model = _quant_chain(True)
    pkg = compile_model(model, "tiny")
    assert [s["operations"] for s in pkg.manifest["segments"]] == [[0], [3]]
    assert [h["type"] for h in pkg.manifest["host_ops"]] == ["DEQUANTIZE", "QUANTIZE"]
    x = np.arange(16, dtype=np.uint8).reshape(2, 8) * 13
    outs, report = Runtime(pkg).run([x], "isa", check=True)
    np.testing.assert_array_equal(outs[0], run_model(model, [x])[0])
    assert len(report["segments"]) == 2 and report["total"]["cycles"] == sum(s["cycles"] for s in report["segments"])
    assert {"cycles", "macs", "utilization"} <= set(report["total"])
    assert [o["index"] for o in report["host_ops"]] == [1, 2]


def test_alias_alone_stays_on_the_host():
    b = ModelBuilder("reshape_only")
    x = b.add_operand(Q, (2, 8), 0.1, 10)
    y = b.add_operand(Q, (16,), 0.1, 10)
    b.add_operation("RESHAPE", [x, b.add_constant(T.TENSOR_INT32, np.array([16], np.int32))], [y])
    b.identify_inputs_and_outputs([x], [y])
    pkg = compile_model(b.finish(), "tiny")
    assert pkg.manifest["segments"] == []
    assert pkg.manifest["host_ops"][0]["reason"] == "a layout no-op between host operations"


def _big_filter_conv(c: int):
    rng = np.random.default_rng(0)
    b = ModelBuilder("big_filter_conv")
    x = b.add_operand(Q, (1, 10, 10, c), 0.1, 100)
    w = b.add_constant(T.TENSOR_QUANT8_SYMM_PER_CHANNEL, rng.integers(-127, 128, (4, 10, 10, c)).astype(np.int8),
                       channel_quant=ChannelQuant((0.01,) * 4, 0))
    bias = b.add_constant(T.TENSOR_INT32, np.zeros(4, np.int32))
    y = b.add_operand(Q, (1, 10, 10, 4), 0.5, 128)
    b.add_operation("CONV_2D", [x, w, bias, *[b.add_constant(T.INT32, v) for v in (1, 1, 1, 0)]], [y])
    b.identify_inputs_and_outputs([x], [y])
    return b.finish()


def test_layer_that_cannot_be_tiled_falls_back_with_a_warning():
    """A 10x10 CONV_2D on 16 channels needs 100 weight tiles per output block (one per tap) at once;
    base's WGT holds 64 (and streaming needs all taps of an input block in half of it); small's
    holds 128 (on 8 channels). On 4 channels base runs it: the im2col strips put the taps into 25 K tiles."""
    rng = np.random.default_rng(0)
    model = _big_filter_conv(16)
    with pytest.warns(CompileWarning, match=r"operation 0 \(CONV_2D\) runs on the host: no tiling fits: one "
                                            r"output block needs 100 weight tiles, WGT holds 64"):
        pkg = compile_model(model, "base")
    assert pkg.manifest["segments"] == []
    xin = rng.integers(0, 256, (1, 10, 10, 16)).astype(np.uint8)
    np.testing.assert_array_equal(Runtime(pkg).run([xin], "isa")[0][0], run_model(model, [xin])[0])
    # on 8 channels, as many as small has rows: one tile per tap, 100 of the 128 WGT holds
    assert compile_model(_big_filter_conv(8), "small").manifest["accelerator_ops"] == [{"index": 0, "type": "CONV_2D"}]
    few = _big_filter_conv(4)
    pkg = compile_model(few, "base")
    assert pkg.manifest["accelerator_ops"] == [{"index": 0, "type": "CONV_2D"}] and "im2col strips" in pkg.listing
    xin = rng.integers(0, 256, (1, 10, 10, 4)).astype(np.uint8)
    np.testing.assert_array_equal(Runtime(pkg).run([xin], "isa", check=True)[0][0], run_model(few, [xin])[0])


# ------------------------------------------------------------------------------ package rejections
@pytest.fixture
def pkg_bytes():
    return compile_model(mobilenet_block(4, 4, 4), "small").to_bytes()


def test_truncated_package_is_rejected(pkg_bytes):
    with pytest.raises(PackageError, match=r"^The package x is damaged or truncated \("):
        Package.from_bytes(pkg_bytes[:len(pkg_bytes) // 2], "x")


def test_other_version_is_rejected(pkg_bytes, tmp_path):
    pkg = Package.from_bytes(pkg_bytes)
    pkg.manifest["version"] = VERSION + 1
    with pytest.raises(PackageError, match=rf"^The package x has format version {VERSION + 1}, but this runtime "
                                           rf"reads version {VERSION}; compile the model again\.$"):
        Package.from_bytes(pkg.to_bytes(), "x")


def test_package_without_a_newer_field_takes_its_default(pkg_bytes):
    # a package written before a configuration field existed: the field's default (the hardware
    # it was compiled for), not the base preset's value
    import dataclasses

    from nnaccel.hwconfig import HwConfig
    pkg = Package.from_bytes(pkg_bytes)
    full = pkg.config()
    for name in ("counter_bits", "vector_mul_steps"):
        pkg.manifest["config"].pop(name)
        default = next(f.default for f in dataclasses.fields(HwConfig) if f.name == name)
        assert getattr(Package.from_bytes(pkg.to_bytes()).config(), name) == default
    assert Package.from_bytes(pkg.to_bytes()).config().rows == full.rows == 8


def test_damaged_member_is_rejected(pkg_bytes, tmp_path):
    p = tmp_path / "p.nnpkg"
    p.write_bytes(pkg_bytes)
    with zipfile.ZipFile(p) as z:
        parts = {n: z.read(n) for n in z.namelist()}
    parts["consts.bin"] = b"\x00" + parts["consts.bin"][1:]
    with zipfile.ZipFile(p, "w") as z:
        for n, d in parts.items():
            z.writestr(n, d)
    with pytest.raises(PackageError, match=r"is damaged: consts.bin does not match its checksum\.$"):
        Package.load(p)


def test_not_a_package_and_missing_members(tmp_path):
    p = tmp_path / "q.zip"
    with zipfile.ZipFile(p, "w") as z:
        z.writestr("manifest.json", json.dumps({"format": "other"}))
    with pytest.raises(PackageError, match=r"lacks program.bin, consts.bin, listing.s, model.json, model.bin; it is "
                                           r"not an nnaccel program package\.$"):
        Package.load(p)


def test_config_mismatch_is_rejected(pkg_bytes):
    with pytest.raises(PackageError, match=r"^The package was built for configuration 'small', not 'tiny'; "
                                           r"compile the model again for 'tiny'\.$"):
        Runtime(Package.from_bytes(pkg_bytes), "tiny")


# ------------------------------------------------------------------------------ command line
def _one_sentence_error(capsys, argv, pattern):
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("nnaccel: error: ") and err[0].endswith(".")
    assert pattern in err[0], err[0]


def test_cli_compile_run_disasm_report(tmp_path, capsys):
    mpath = tmp_path / "m.json"
    save_models([mobilenet_block(4, 4, 4)], mpath)
    pkg = tmp_path / "m.nnpkg"
    assert main(["compile", str(mpath), "-o", str(pkg), "--config", "small"]) == 0
    assert main(["disasm", str(pkg)]) == 0
    out = capsys.readouterr().out
    assert "GEMM" in out and "[op 0 CONV_2D]" in out
    rep = tmp_path / "r.json"
    assert main(["run", str(pkg), "--backend", "isa", "--report", str(rep)]) == 0
    r = json.loads(rep.read_text())
    assert {"cycles", "macs", "utilization"} <= set(r["total"]) and r["total"]["cycles"] > 0
    assert {"cycles", "macs", "utilization", "operations"} <= set(r["segments"][0])
    assert [o["type"] for o in r["accelerator_ops"]] == ["CONV_2D", "DEPTHWISE_CONV_2D", "CONV_2D", "ADD"]
    assert r["host_ops"] == []
    assert main(["report", str(pkg)]) == 0
    out = capsys.readouterr().out
    assert "DEPTHWISE_CONV_2D" in out and "total:" in out
    assert main(["run", str(mpath), "--backend", "golden"]) == 0


def test_cli_rejections(tmp_path, capsys, pkg_bytes):
    bad = tmp_path / "trunc.nnpkg"
    bad.write_bytes(pkg_bytes[:100])
    _one_sentence_error(capsys, ["run", str(bad)], "is damaged or truncated")
    good = tmp_path / "good.nnpkg"
    good.write_bytes(pkg_bytes)
    _one_sentence_error(capsys, ["run", str(good), "--backend", "isa", "--config", "tiny"], "was built for configuration 'small'")
    pkg = Package.from_bytes(pkg_bytes)
    pkg.manifest["version"] = 99
    old = tmp_path / "old.nnpkg"
    old.write_bytes(pkg.to_bytes())
    _one_sentence_error(capsys, ["run", str(old), "--backend", "isa"], "has format version 99")
    _one_sentence_error(capsys, ["disasm", str(bad)], "is damaged or truncated")
    # a model the validator rejects: ADD with a fused activation code of 7
    b = ModelBuilder("bad")
    x = b.add_operand(Q, (2,), 0.1, 0)
    y = b.add_operand(Q, (2,), 0.1, 0)
    b.add_operation("ADD", [x, x, b.add_constant(T.INT32, 7)], [y])
    b.identify_inputs_and_outputs([x], [y])
    mpath = tmp_path / "bad.json"
    save_models([b.finish()], mpath)
    assert main(["compile", str(mpath), "-o", str(tmp_path / "bad.nnpkg")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("nnaccel: error: Operation 0 (ADD)")
    _one_sentence_error(capsys, ["compile", str(mpath), "-o", str(tmp_path / "x.nnpkg"), "--config", "nope"],
                        "Unknown hardware configuration 'nope'")


def _add_relu(relu: str, extra_consumer: bool):
    """ADD -> RELU* (-> output), optionally with the ADD's result also a model output."""
    b = ModelBuilder("add_relu")
    x = b.add_operand(Q, (3, 7), 0.05, 100)
    a = b.add_operand(Q, (3, 7), 0.02, 128)
    b.add_operation("ADD", [x, x, b.add_constant(T.INT32, 0)], [a])
    y = b.add_operand(Q, (3, 7), 0.02, 128)
    b.add_operation(relu, [a], [y])
    b.identify_inputs_and_outputs([x], [y, a] if extra_consumer else [y])
    return b.finish()


@pytest.mark.parametrize("relu", ["RELU", "RELU1", "RELU6"])
def test_relu_is_fused_into_its_producer(relu):
    model = _add_relu(relu, False)
    pkg = compile_model(model, "tiny")
    assert pkg.manifest["fused"] == {"0": 1}
    layers = pkg.manifest["segments"][0]["layers"]
    assert [lay["op"] for lay in layers] == [0]  # the RELU emits no instruction
    x = np.arange(21, dtype=np.uint8).reshape(3, 7) * 12
    outs, _ = Runtime(pkg).run([x], "isa", check=True)
    np.testing.assert_array_equal(outs[0], run_model(model, [x])[0])


def test_relu_is_not_fused_when_the_producer_output_is_used_elsewhere():
    model = _add_relu("RELU6", True)
    pkg = compile_model(model, "tiny")
    assert pkg.manifest["fused"] == {}
    x = np.arange(21, dtype=np.uint8).reshape(3, 7) * 12
    outs, _ = Runtime(pkg).run([x], "isa", check=True)
    for a, b in zip(outs, run_model(model, [x])):
        np.testing.assert_array_equal(a, b)


def test_large_fully_connected_is_tiled():
    """300 rows of 1000 inputs (300 KB, more than any ACT scratchpad) -> 70 units."""
    rng = np.random.default_rng(5)
    b = ModelBuilder("big_fc")
    x = b.add_operand(Q, (300, 1000), 0.02, 128)
    w = b.add_constant(Q, rng.integers(0, 256, (70, 1000)).astype(np.uint8), scale=0.003, zero_point=120)
    bias = b.add_constant(T.TENSOR_INT32, rng.integers(-999, 999, 70).astype(np.int32),
                          scale=float(np.float32(0.02) * np.float32(0.003)))
    y = b.add_operand(Q, (300, 70), 0.4, 100)
    b.add_operation("FULLY_CONNECTED", [x, w, bias, b.add_constant(T.INT32, 1)], [y])
    b.identify_inputs_and_outputs([x], [y])
    model = b.finish()
    pkg = compile_model(model, "small")
    assert pkg.manifest["accelerator_ops"] == [{"index": 0, "type": "FULLY_CONNECTED"}]
    xin = rng.integers(0, 256, (300, 1000)).astype(np.uint8)
    outs, rep = Runtime(pkg).run([xin], "isa")
    np.testing.assert_array_equal(outs[0], run_model(model, [xin])[0])
    assert rep["total"]["macs"] >= 300 * 1000 * 70


def test_cli_cts_isa_counts_accelerated_models(capsys, cts_root, tmp_path):
    out_json = tmp_path / "cts.json"
    assert main(["cts", "--target", "isa", "--spec", "V1_0/conv_quant8", "--spec", "V1_0/relu_quant8_1",
                 "--json", str(out_json)]) == 0
    out = capsys.readouterr().out
    assert "TOTAL: " in out and " 0 failed" in out
    line = next(x for x in out.splitlines() if "ran at least one operation on the accelerator" in x)
    assert line.split(" of ")[0].isdigit() and int(line.split(" of ")[0]) >= 2
    assert "CONV_2D" in line and "RELU" in line
    acc = json.loads(out_json.read_text())["accelerated"]          # the same counts in the JSON
    assert f"{acc['models']} of {acc['compiled']} models" in line
    assert acc["by_type"]["CONV_2D"] >= 1 and acc["by_type"]["RELU"] >= 1


def test_cts_target_isa_is_registered(capsys, cts_root):
    """``nnaccel cts --target isa`` (the CTS runner's own command) reaches the compiler + runtime."""
    assert main(["cts", "--target", "isa", "--spec", "V1_0/conv_quant8"]) == 0
    out = capsys.readouterr().out
    assert "CONV_2D" in out and "target isa" in out and " 0 failed" in out


# ------------------------------------------------------------------------------ placements
def test_partition_records_where_each_operation_runs_and_why():
    places = plan_model(small_cnn(), "small")
    assert [(p.index, p.where) for p in places] == [(i, "accelerator") for i in range(6)] + [(6, "host")]
    assert places[6].sentence() == "operation 6 (SOFTMAX) runs on the host: no accelerator lowering."
    assert places[0].reason == "a convolution on the systolic array, in segment 0"
    fused = plan_model(_add_relu("RELU6", False), "tiny")
    assert fused[1].where == "accelerator" and fused[1].reason.startswith("fused into the output clamp of operation 0")
    # an operation its lowering rejects: the lowering's own reason
    b = ModelBuilder("float_add")
    x = b.add_operand(T.TENSOR_FLOAT32, (2, 3))
    y = b.add_operand(T.TENSOR_FLOAT32, (2, 3))
    b.add_operation("ADD", [x, x, b.add_constant(T.INT32, 0)], [y])
    b.identify_inputs_and_outputs([x], [y])
    (p,) = plan_model(b.finish(), "tiny")
    assert p.where == "host" and p.reason == "operand 0 is TENSOR_FLOAT32, not 8-bit quantized"


def test_cli_names_each_host_operation_and_why(tmp_path, capsys):
    mpath = tmp_path / "cnn.json"
    save_models([small_cnn()], mpath)
    line = "nnaccel: operation 6 (SOFTMAX) runs on the host: no accelerator lowering."
    pkg = tmp_path / "cnn.nnpkg"
    assert main(["compile", str(mpath), "-o", str(pkg), "--config", "small"]) == 0
    assert capsys.readouterr().err.splitlines() == [line]
    note = ("nnaccel: note: input0 is deterministic random data (seed 0), as the {} stores no input data; "
            "give --inputs FILE.npz to choose the inputs.")
    assert main(["run", str(pkg), "--backend", "isa"]) == 0
    assert capsys.readouterr().err.splitlines() == [line, note.format("package")]
    assert main(["run", str(mpath), "--backend", "isa", "--config", "small"]) == 0
    assert capsys.readouterr().err.splitlines() == [line, note.format("model")]
    assert main(["info", str(mpath), "--config", "small"]) == 0
    out = capsys.readouterr().out.splitlines()
    rows = out[out.index("placement when compiled for small:") + 1:]
    assert len(rows) == 7 and rows[6].split() == ["op", "6:", "SOFTMAX", "host:", "no", "accelerator", "lowering"]
    assert rows[0].split()[2:4] == ["CONV_2D", "accelerator:"] and "segment 0" in rows[0]
