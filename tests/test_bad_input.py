"""Bad input through every entry point ends in exit 2 with one sentence, before anything of the
input's declared size is allocated: absurd shapes (model JSON, .tflite, package, hardware config),
unknown types, cycles, truncated gzip, files of the wrong kind. Also: output files that cannot be
written fail before the run, and outputs are never left half written."""

from __future__ import annotations

import dataclasses
import gzip
import json
import re
from pathlib import Path

import numpy as np
import pytest
from nnaccel.compiler.package import Package
from support.tflite_build import TFLiteBuilder

from nnaccel.cli import main
from nnaccel.formats import model_to_dict
from nnaccel.model import MAX_TENSOR_BYTES, MAX_TENSOR_ELEMENTS, ModelBuilder, OperandType

GOLDEN_PACKAGE = Path(__file__).parent / "golden_packages" / "mlp.small.nnpkg"
HUGE = [2**20, 2**20, 2**20]
TOO_MANY = rf"\({2**60} elements\), above the limit of {MAX_TENSOR_ELEMENTS} elements per tensor"


def run_cli(capsys, *argv):
    code = main([str(a) for a in argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def assert_exit_2_one_sentence(capsys, pattern, *argv):
    code, out, err = run_cli(capsys, *argv)
    assert code == 2, (out, err)
    text = err.strip()
    assert "Traceback" not in text and text.count("\n") == 0 and text.endswith("."), text
    assert re.search(pattern, text), text
    return text


def add_model(dims=(2,), op_type=OperandType.TENSOR_FLOAT32, with_data=True):
    b = ModelBuilder("add")
    x = b.add_operand(op_type, dims)
    y = b.add_operand(op_type, dims)
    act = b.add_constant(OperandType.INT32, 0)
    z = b.add_operand(op_type, dims)
    b.add_operation("ADD", [x, y, act], [z])
    b.identify_inputs_and_outputs([x, y], [z])
    m = b.finish()
    if with_data:
        m.stored_inputs = [np.ones(dims, np.float32), np.ones(dims, np.float32)]
    return m


def write_json(tmp_path, doc, name="m.json"):
    p = tmp_path / name
    p.write_text(json.dumps(doc))
    return p


# ----------------------------------------------------------------------------- size limits
def test_size_limit_is_one_shared_check():
    from nnaccel.errors import ModelError
    from nnaccel.model import check_tensor_size
    check_tensor_size(OperandType.TENSOR_FLOAT32, (MAX_TENSOR_ELEMENTS // 4,), "x")
    with pytest.raises(ModelError, match=r"^Operand 7 has shape 268435457 \(268435457 elements\), above "
                                         r"the limit of 268435456 elements per tensor\.$"):
        check_tensor_size(OperandType.TENSOR_QUANT8_ASYMM, (MAX_TENSOR_ELEMENTS + 1,), "Operand 7")
    with pytest.raises(ModelError, match=rf"\({MAX_TENSOR_BYTES + 4} bytes\), above the limit of "
                                         rf"{MAX_TENSOR_BYTES} bytes per tensor"):
        check_tensor_size(OperandType.TENSOR_FLOAT32, (MAX_TENSOR_BYTES // 4 + 1,), "t")
    check_tensor_size(OperandType.TENSOR_FLOAT32, (0, 2**20, 0), "unknown dims are not counted")


@pytest.mark.parametrize("command", ["run", "info"])
def test_huge_shape_in_model_json(tmp_path, capsys, command):
    p = write_json(tmp_path, model_to_dict(add_model(HUGE, with_data=False)))
    assert_exit_2_one_sentence(capsys, r"^nnaccel: error: Operand 0 of subgraph main has shape "
                                       r"1048576x1048576x1048576 " + TOO_MANY, command, p)


def test_huge_shape_built_in_python_is_rejected_by_validation():
    from nnaccel.errors import ModelError
    from nnaccel.validate import validate_model
    with pytest.raises(ModelError, match=TOO_MANY):
        validate_model(add_model(HUGE, with_data=False))


@pytest.mark.parametrize("command", ["run", "info"])
def test_huge_shape_in_tflite(tmp_path, capsys, command):
    b = TFLiteBuilder()
    x, y, z = (b.add_tensor(HUGE, "FLOAT32") for _ in range(3))
    b.add_op("ADD", [x, y], [z], "AddOptions", FusedActivationFunction=0)
    p = tmp_path / "huge.tflite"
    p.write_bytes(b.finish([x, y], [z]))
    assert_exit_2_one_sentence(capsys, TOO_MANY, command, p)


def _package_with(tmp_path, manifest=None, model=None):
    pkg = Package.load(GOLDEN_PACKAGE)
    if manifest is not None:
        m = json.loads(json.dumps(pkg.manifest))
        manifest(m)
        pkg = dataclasses.replace(pkg, manifest=m)
    if model is not None:
        d = json.loads(pkg.model_json)
        model(d)
        pkg = dataclasses.replace(pkg, model_json=json.dumps(d).encode())
    p = tmp_path / "p.nnpkg"
    p.write_bytes(pkg.to_bytes())
    return p


def test_huge_shape_in_package_model(tmp_path, capsys):
    def grow(d):
        d["main"]["operands"][d["main"]["input_indexes"][0]]["dimensions"] = HUGE
    p = _package_with(tmp_path, model=grow)
    assert_exit_2_one_sentence(capsys, TOO_MANY, "run", p, "--backend", "isa", "--config", "small")


def test_huge_memory_in_package_manifest(tmp_path, capsys):
    def grow(m):
        m["memory"]["size"] = 2**62
    p = _package_with(tmp_path, manifest=grow)
    assert_exit_2_one_sentence(capsys, rf"external memory .* above the limit of {MAX_TENSOR_BYTES} bytes",
                               "run", p, "--backend", "isa", "--config", "small")


@pytest.mark.parametrize("suffix", [".toml", ".json"])
@pytest.mark.parametrize("field,value,pattern", [
    ("act_bytes", 2**62, r"at most 65536 lines"),
    ("rows", 2**40, r"rows is 1099511627776, but it must be a power of two from 2 to 32"),
    ("dma_size", 2**40, r"must be non-empty and lie within the 32-bit address space"),
    ("queue_depth", 2**31, r"queue_depth is 2147483648, but it must be from 1 to 256"),
])
def test_huge_sizes_in_hardware_config(tmp_path, capsys, suffix, field, value, pattern):
    p = tmp_path / f"cfg{suffix}"
    p.write_text(f'preset = "small"\n{field} = {value}\n' if suffix == ".toml"
                 else json.dumps({"preset": "small", field: value}))
    assert_exit_2_one_sentence(capsys, pattern, "isa", "config", "--config", p)
    m = write_json(tmp_path, model_to_dict(add_model()))
    assert_exit_2_one_sentence(capsys, pattern, "run", m, "--backend", "isa", "--config", p)


# ----------------------------------------------------------------------------- the bad-input set
def _doc_with(fn):
    d = model_to_dict(add_model())
    fn(d)
    return d


def _cycle(d):
    ops = d["main"]["operands"]
    ops.append(dict(ops[3], lifetime="TEMPORARY_VARIABLE", data=[]))
    d["main"]["operations"] = [{"type": "ADD", "inputs": [0, 4, 2], "outputs": [3]},
                               {"type": "ADD", "inputs": [3, 1, 2], "outputs": [4]}]


def _bad_files(tmp_path) -> dict[str, tuple[Path, str]]:
    full = gzip.compress(json.dumps(model_to_dict(add_model())).encode())
    files = {
        "absurd_shape": (write_json(tmp_path, model_to_dict(add_model(HUGE, with_data=False)), "a.json"),
                         TOO_MANY),
        "negative_dimension": (write_json(tmp_path, _doc_with(
            lambda d: d["main"]["operands"][0].update(dimensions=[-2]))), r"negative dimension|-2"),
        "unknown_operand_type": (write_json(tmp_path, _doc_with(
            lambda d: d["main"]["operands"][0].update(type="TENSOR_FLOAT128")), "b.json"),
            r"unknown operand type 'TENSOR_FLOAT128'"),
        "unknown_operation": (write_json(tmp_path, _doc_with(
            lambda d: d["main"]["operations"][0].update(type="FROBNICATE")), "c.json"),
            r"unknown type 'FROBNICATE'"),
        "cycle": (write_json(tmp_path, _doc_with(_cycle), "d.json"), r"without cycles"),
        "truncated_gzip": (tmp_path / "t.json.gz", r"is truncated: its compressed data ends early"),
        "gzip_of_garbage": (tmp_path / "g.json.gz", r"is not JSON text \(byte 0 is not UTF-8\)"),
        "not_gzip": (tmp_path / "n.json.gz", r"cannot be read \(Not a gzipped file"),
        "png_as_json": (tmp_path / "image.json", r"is not JSON text \(byte 0 is not UTF-8\)"),
        "json_as_tflite": (tmp_path / "m.tflite", r"not a TFLite model"),
        "truncated_tflite": (tmp_path / "cut.tflite", r"TFLite model .* (corrupt|truncated)"),
        "npz_as_model": (tmp_path / "x.npz", r"is not JSON text|not an nnaccel program package"),
        "empty_file": (tmp_path / "empty.json", r"not valid JSON"),
        "json_not_a_model": (write_json(tmp_path, [1, 2, 3], "list.json"), r"not a model object"),
        "folder": (tmp_path / "folder.json", r"folder|cannot be read"),
        "gzip_bomb": (tmp_path / "bomb.json.gz", rf"decompresses to more than the limit of {MAX_TENSOR_BYTES} bytes\.$"),
    }
    # MAX_TENSOR_BYTES + 1 MiB of JSON whitespace in 1 KiB: gzip members, concatenated
    member = gzip.compress(b" " * (1 << 20), compresslevel=9)
    (tmp_path / "bomb.json.gz").write_bytes(member * (MAX_TENSOR_BYTES // (1 << 20) + 1))
    (tmp_path / "t.json.gz").write_bytes(full[: len(full) // 2])
    (tmp_path / "g.json.gz").write_bytes(gzip.compress(b"\x89PNG\r\n\x1a\n\0\0garbage"))
    (tmp_path / "n.json.gz").write_bytes(b'{"name": "plain json with a .gz name"}')
    (tmp_path / "image.json").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)))
    (tmp_path / "m.tflite").write_text(json.dumps(model_to_dict(add_model())))
    b = TFLiteBuilder()
    x, y, z = (b.add_tensor([1, 4], "FLOAT32") for _ in range(3))
    b.add_op("ADD", [x, y], [z], "AddOptions", FusedActivationFunction=0)
    (tmp_path / "cut.tflite").write_bytes(b.finish([x, y], [z])[:60])
    np.savez(tmp_path / "x.npz", input0=np.zeros(3))
    (tmp_path / "empty.json").write_bytes(b"")
    (tmp_path / "folder.json").mkdir()
    return files


BAD = ["absurd_shape", "negative_dimension", "unknown_operand_type", "unknown_operation", "cycle",
       "truncated_gzip", "gzip_of_garbage", "not_gzip", "png_as_json", "json_as_tflite", "truncated_tflite",
       "npz_as_model", "empty_file", "json_not_a_model", "folder", "gzip_bomb"]


@pytest.mark.parametrize("command", ["run", "info"])
@pytest.mark.parametrize("case", BAD)
def test_bad_input_exits_2_with_one_sentence(tmp_path, capsys, command, case):
    path, pattern = _bad_files(tmp_path)[case]
    assert_exit_2_one_sentence(capsys, pattern, command, path)


def test_bad_input_set_is_complete(tmp_path):
    assert sorted(_bad_files(tmp_path)) == sorted(BAD)


def test_inputs_archive_declaring_a_huge_array_is_rejected_before_numpy_allocates(tmp_path, capsys):
    """An .npz whose input0.npy header declares 2^40 float32 elements (its data: 16 bytes)."""
    import zipfile
    m = write_json(tmp_path, model_to_dict(add_model()))
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': (1099511627776,), }"
    header += " " * (63 - (10 + len(header)) % 64) + "\n"
    npy = b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header.encode("latin1") + bytes(16)
    with zipfile.ZipFile(tmp_path / "in.npz", "w") as z:
        z.writestr("input0.npy", npy)
        z.writestr("input1.npy", npy)
    assert_exit_2_one_sentence(capsys, rf"The inputs file .*in.npz has an array input0 of shape 1099511627776 "
                                       rf"\(4398046511104 bytes\), above the limit of {MAX_TENSOR_BYTES} bytes",
                               "run", m, "--inputs", tmp_path / "in.npz")
    np.save(tmp_path / "one.npy", np.zeros(2, np.float32))
    assert_exit_2_one_sentence(capsys, r"is a single .npy array, not an .npz archive", "run", m, "--inputs",
                               tmp_path / "one.npy")


# ------------------------------------------------------------------------------ no data loss
def test_unwritable_outputs_fail_before_the_run(tmp_path, capsys, monkeypatch):
    import nnaccel.firmware.runtime as rt
    m = write_json(tmp_path, model_to_dict(add_model()))

    def no_run(*a, **k):
        raise AssertionError("the run started")
    monkeypatch.setattr(rt, "run_on_backend", no_run)
    assert_exit_2_one_sentence(capsys, r"outputs file .* folder .* does not exist", "run", m, "--outputs",
                               tmp_path / "nope" / "out.npz")
    assert_exit_2_one_sentence(capsys, r"outputs file .* is a folder", "run", m, "--outputs", tmp_path)
    assert_exit_2_one_sentence(capsys, r"report file .* does not exist", "run", m, "--report",
                               tmp_path / "nope" / "r.json")


def test_outputs_are_written_whole_or_not_at_all(tmp_path, capsys, monkeypatch):
    m = write_json(tmp_path, model_to_dict(add_model()))
    out = tmp_path / "out.npz"
    out.write_bytes(b"previous results")
    import os
    real_replace = os.replace

    def failing_replace(src, dst):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(os, "replace", failing_replace)
    assert_exit_2_one_sentence(capsys, r"outputs file .* cannot be written \(No space left on device\)",
                               "run", m, "--outputs", out)
    monkeypatch.setattr(os, "replace", real_replace)
    assert out.read_bytes() == b"previous results"  # the old file is intact
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.json", "out.npz"]  # no temporary left
    assert run_cli(capsys, "run", m, "--outputs", out)[0] == 0
    assert np.load(out)["output0"].tolist() == [2.0, 2.0]


#: Every output option of every command, with a path whose folder does not exist ({bad}); the model
#: (or other input) files exist, so that only the output path is wrong.
OUTPUT_OPTIONS = {
    "run --outputs": ["run", "{m}", "--outputs", "{bad}"],
    "run --report": ["run", "{m}", "--report", "{bad}"],
    "run --trace": ["run", "{m}", "--backend", "isa", "--trace", "{bad}"],
    "run --wave": ["run", "{m}", "--backend", "rtl", "--wave", "{bad}"],
    "compile -o": ["compile", "{m}", "-o", "{bad}"],
    "report --json": ["report", "{m}", "--json", "{bad}"],
    "report --html": ["report", "{m}", "--html", "{bad}"],
    "cts --json": ["cts", "--spec", "V1_0/add", "--json", "{bad}"],
    "bench gemm --json": ["bench", "gemm", "--size", "8", "--json", "{bad}"],
    "bench mlperf --json": ["bench", "mlperf", "--model", "kws", "--json", "{bad}"],
    "synth --json": ["synth", "--config", "tiny", "--json", "{bad}"],
    "build --json": ["build", "--board", "icebreaker", "--json", "{bad}"],
    "build -o": ["build", "--board", "icebreaker", "-o", "{bad}"],
    "import -o": ["import", "{tflite}", "-o", "{bad}.json"],
    "sweep --out": ["sweep", "{m}", "--out", "{m}"],
    "isa asm -o": ["isa", "asm", "{asm}", "-o", "{bad}"],
    "isa disasm -o": ["isa", "disasm", "{bin}", "-o", "{bad}"],
    "isa doc -o": ["isa", "doc", "-o", "{bad}"],
    "isa doc --accelerator-doc": ["isa", "doc", "--accelerator-doc", "{bad}"],
    "isa run --dump": ["isa", "run", "{asm}", "--dump", "0:16={bad}"],
}


def _output_option_files(tmp_path) -> dict:
    b = TFLiteBuilder()
    x, y, z = (b.add_tensor([1, 4], "FLOAT32") for _ in range(3))
    b.add_op("ADD", [x, y], [z], "AddOptions", FusedActivationFunction=0)
    (tmp_path / "add.tflite").write_bytes(b.finish([x, y], [z]))
    (tmp_path / "p.s").write_text("HALT\n")
    (tmp_path / "p.bin").write_bytes(bytes(16))
    return {"m": write_json(tmp_path, model_to_dict(add_model())), "bad": tmp_path / "nope" / "out",
            "tflite": tmp_path / "add.tflite", "asm": tmp_path / "p.s", "bin": tmp_path / "p.bin"}


@pytest.mark.parametrize("option", sorted(OUTPUT_OPTIONS))
def test_unwritable_output_of_every_command_fails_before_it_starts(tmp_path, capsys, option):
    files = _output_option_files(tmp_path)
    argv = [a.format(**files) for a in OUTPUT_OPTIONS[option]]
    code, out, err = run_cli(capsys, *argv)
    assert (code, out) == (2, ""), (code, out, err)  # nothing ran, nothing printed
    text = err.strip()
    assert "Traceback" not in text and text.count("\n") == 0 and text.endswith("."), text
    assert re.search(r"cannot be written: the folder .*nope does not exist\.$|output folder .* is a file, "
                     r"not a folder\.$", text), text


def _value_options(parser, path=()):
    """(command words, option action) of every option that takes a value, in every sub-command."""
    import argparse
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _value_options(sub, (*path, name))
        elif action.option_strings and action.nargs != 0:
            yield path, parser, action


def test_every_output_option_is_checked_before_the_command():
    """Every option whose help says it writes is declared with add_output_arg (so that the command
    line checks it before the command starts; ``isa run --dump`` takes ADDR:BYTES=FILE and checks
    its own) and is in OUTPUT_OPTIONS."""
    from nnaccel.cli import build_parser
    declared, writes = {"isa run --dump"}, set()
    for words, parser, action in _value_options(build_parser()):
        key = f"{' '.join(words)} {action.option_strings[0]}"
        if action.dest in {d for d, _, _ in parser.get_default("_output_files") or ()}:
            declared.add(key)
        if re.search(r"\bwrite\b|output folder", action.help or "") and key != "isa run --load":
            writes.add(key)
    assert writes <= declared, sorted(writes - declared)
    assert declared == set(OUTPUT_OPTIONS)


def test_subprocess_unwritable_output_exits_2_before_the_run(tmp_path):
    import subprocess
    import sys
    m = write_json(tmp_path, model_to_dict(add_model()))
    r = subprocess.run([sys.executable, "-m", "nnaccel", "run", str(m), "--outputs", str(tmp_path / "no" / "o.npz")],
                       check=False, capture_output=True, text=True, timeout=120)
    assert (r.returncode, r.stdout) == (2, ""), (r.returncode, r.stdout, r.stderr)
    assert r.stderr == f"nnaccel: error: The outputs file {tmp_path / 'no' / 'o.npz'} cannot be written: the folder " \
                       f"{tmp_path / 'no'} does not exist.\n"


def test_interrupted_write_leaves_no_partial_file(tmp_path, monkeypatch):
    import os

    from nnaccel.ioutil import write_atomic
    out = tmp_path / "r.json"
    out.write_text("previous")
    real_fdopen = os.fdopen

    class Interrupted:  # a file whose write stops half-way with Ctrl-C
        def __init__(self, fd, mode):
            self.f = real_fdopen(fd, mode)

        def write(self, data):
            self.f.write(data[: len(data) // 2])
            self.f.flush()
            raise KeyboardInterrupt

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.f.close()
    monkeypatch.setattr(os, "fdopen", Interrupted)
    with pytest.raises(KeyboardInterrupt):
        write_atomic(out, b"x" * 100000)
    monkeypatch.setattr(os, "fdopen", real_fdopen)
    assert out.read_text() == "previous"
    assert [p.name for p in tmp_path.iterdir()] == ["r.json"]  # no temporary file left
    write_atomic(out, "new")
    assert out.read_text() == "new" and [p.name for p in tmp_path.iterdir()] == ["r.json"]


def test_run_says_when_it_makes_up_inputs(tmp_path, capsys):
    p = write_json(tmp_path, model_to_dict(add_model(with_data=False)))
    code, _, err = run_cli(capsys, "run", p)
    assert code == 0
    assert err == ("nnaccel: note: input0, input1 are deterministic random data (seed 0), as the model stores "
                   "no input data; give --inputs FILE.npz to choose the inputs.\n")
    pkg = tmp_path / "add.nnpkg"
    assert run_cli(capsys, "compile", p, "-o", pkg, "--config", "small")[0] == 0
    code, _, err = run_cli(capsys, "run", pkg)
    assert code == 0 and "are deterministic random data (seed 0), as the package stores no input data" in err
    code, _, err = run_cli(capsys, "run", write_json(tmp_path, model_to_dict(add_model()), "d.json"))
    assert code == 0 and err == ""  # stored inputs: nothing made up


def test_cts_results_file_checked_before_the_run(tmp_path, capsys, cts_root):
    assert_exit_2_one_sentence(capsys, r"results file .* folder .* does not exist", "cts", "--spec", "V1_0/add",
                               "--json", tmp_path / "nope" / "r.json")
