"""The command line: bad input gives a one-sentence error and exit 2; run / info / cts / demo work."""

import gzip
import json
import re

import numpy as np
import pytest
from nnaccel.compiler.reference_models import build_demo_model

from nnaccel.cli import main
from nnaccel.formats import model_to_dict


def add_model_dict():
    """A float32 ADD model as a dict of the conformance schema."""
    def operand(t, dims, lifetime, data=(), scale=0.0, zp=0):
        return {"name": None, "type": t, "dtype": "float32" if "FLOAT" in t else "int32",
                "dimensions": dims, "scale": scale, "zero_point": zp, "channel_quant": None,
                "lifetime": lifetime, "is_ignored": False, "number_of_consumers": 1, "data": list(data)}
    return {"name": "add", "is_relaxed": False, "expect_failure": False,
            "main": {"input_indexes": [0, 1], "output_indexes": [3],
                     "operations": [{"type": "ADD", "inputs": [0, 1, 2], "outputs": [3]}],
                     "operands": [operand("TENSOR_FLOAT32", [2], "SUBGRAPH_INPUT", [1.0, 2.0]),
                                  operand("TENSOR_FLOAT32", [2], "SUBGRAPH_INPUT", [3.0, 4.0]),
                                  operand("INT32", [], "CONSTANT_COPY", [0]),
                                  operand("TENSOR_FLOAT32", [2], "SUBGRAPH_OUTPUT", [4.0, 6.0])]},
            "referenced": []}


def write(tmp_path, doc, name="m.json"):
    p = tmp_path / name
    p.write_text(doc if isinstance(doc, str) else json.dumps(doc))
    return str(p)


def run_cli(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def assert_one_sentence(err):
    text = err.strip()
    assert "Traceback" not in text
    assert text.count("\n") == 0, text
    assert text.endswith("."), text


def mutate(fn):
    d = add_model_dict()
    fn(d)
    return d


BAD_MODELS = {
    "malformed_json": ('{"name": "x", "main": ', r"not valid JSON"),
    "unknown_op": (mutate(lambda d: d["main"]["operations"][0].update(type="FROBNICATE")),
                   r"unknown type 'FROBNICATE'"),
    "index_out_of_range": (mutate(lambda d: d["main"]["operations"][0].update(inputs=[0, 9, 2])),
                           r"input 1 is operand 9, out of range"),
    "constant_wrong_length": (mutate(lambda d: d["main"]["operands"][2].update(
        type="TENSOR_INT32", dimensions=[3], data=[1, 2])), r"holds 2 values"),
    "scale_zero": (mutate(lambda d: [d["main"]["operands"][k].update(type="TENSOR_QUANT8_ASYMM",
                                                                     dtype="uint8", data=[1, 2],
                                                                     scale=0.0) for k in (0, 1, 3)]),
                   r"requires a finite scale > 0"),
    "scale_nan": (mutate(lambda d: [d["main"]["operands"][k].update(type="TENSOR_QUANT8_ASYMM",
                                                                    dtype="uint8", data=[1, 2],
                                                                    scale=float("nan")) for k in (0, 1, 3)]),
                  r"requires a finite scale > 0"),
    "reads_unwritten": (mutate(lambda d: (d["main"]["operands"].append(
        {"type": "TENSOR_FLOAT32", "dimensions": [2], "lifetime": "TEMPORARY_VARIABLE"}),
        d["main"]["operations"][0].update(inputs=[0, 4, 2]))), r"which no operation writes"),
}


@pytest.mark.parametrize("command", ["run", "info"])
@pytest.mark.parametrize("case", sorted(BAD_MODELS))
def test_bad_models_exit_2_with_one_sentence(tmp_path, capsys, command, case):
    doc, pattern = BAD_MODELS[case]
    if isinstance(doc, dict):
        doc = json.dumps(doc).replace("NaN", "NaN")
    path = write(tmp_path, doc)
    code, out, err = run_cli(capsys, command, path)
    assert code == 2, (out, err)
    assert re.search(pattern, err), err
    assert_one_sentence(err)


def test_missing_file_and_bad_arguments(tmp_path, capsys):
    code, _, err = run_cli(capsys, "run", str(tmp_path / "nope.json"))
    assert code == 2 and "does not exist" in err
    with pytest.raises(SystemExit) as e:
        main(["run"])
    assert e.value.code == 2


def test_run_with_stored_inputs_and_npz(tmp_path, capsys):
    path = write(tmp_path, add_model_dict())
    out_npz = tmp_path / "out.npz"
    code, out, _ = run_cli(capsys, "run", path, "--outputs", str(out_npz))
    assert code == 0 and "output0: TENSOR_FLOAT32 shape [2]" in out
    assert np.load(out_npz)["output0"].tolist() == [4.0, 6.0]
    in_npz = tmp_path / "in.npz"
    np.savez(in_npz, input0=np.array([10, 20], np.float32), input1=np.array([1, 2], np.float32))
    code, _, _ = run_cli(capsys, "run", path, "--inputs", str(in_npz), "--outputs", str(out_npz))
    assert code == 0
    assert np.load(out_npz)["output0"].tolist() == [11.0, 22.0]


def test_run_rejects_incomplete_npz(tmp_path, capsys):
    path = write(tmp_path, add_model_dict())
    in_npz = tmp_path / "in.npz"
    np.savez(in_npz, input0=np.array([1, 2], np.float32))
    code, _, err = run_cli(capsys, "run", path, "--inputs", str(in_npz))
    assert code == 2 and "input1" in err
    assert_one_sentence(err)


def test_run_never_reads_stored_outputs(tmp_path, capsys):
    d = add_model_dict()
    d["main"]["operands"][3]["data"] = [99.0, 99.0]
    out_npz = tmp_path / "out.npz"
    assert run_cli(capsys, "run", write(tmp_path, d), "--outputs", str(out_npz))[0] == 0
    assert np.load(out_npz)["output0"].tolist() == [4.0, 6.0]


def test_random_inputs_when_none_stored(tmp_path, capsys):
    model, _, _ = build_demo_model()
    model.stored_inputs = None
    d = model_to_dict(model)
    p = tmp_path / "demo.json.gz"
    with gzip.open(p, "wt") as f:
        json.dump(d, f)
    o1, o2 = tmp_path / "a.npz", tmp_path / "b.npz"
    assert run_cli(capsys, "run", str(p), "--outputs", str(o1))[0] == 0
    assert run_cli(capsys, "run", str(p), "--outputs", str(o2))[0] == 0
    assert np.array_equal(np.load(o1)["output0"], np.load(o2)["output0"])  # deterministic


def test_not_implemented_exits_3(tmp_path, capsys, monkeypatch):
    from nnaccel import registry
    d = add_model_dict()
    d["main"]["operations"][0]["type"] = "MUL"
    monkeypatch.setattr(registry.get("MUL"), "kernel", None)
    code, _, err = run_cli(capsys, "run", write(tmp_path, d))
    assert code == 3 and "not implemented" in err and "MUL" in err


def test_name_picks_model_from_list(tmp_path, capsys):
    a, b = add_model_dict(), add_model_dict()
    b["name"] = "second"
    b["main"]["operands"][0]["data"] = [0.0, 0.0]
    path = write(tmp_path, [a, b])
    code, _, err = run_cli(capsys, "run", path)
    assert code == 2 and "--name" in err
    out_npz = tmp_path / "o.npz"
    assert run_cli(capsys, "run", path, "--name", "second", "--outputs", str(out_npz))[0] == 0
    assert np.load(out_npz)["output0"].tolist() == [3.0, 4.0]
    code, _, err = run_cli(capsys, "run", path, "--name", "third")
    assert code == 2 and "no model named 'third'" in err


def test_info_lists_support_status(tmp_path, capsys):
    code, out, _ = run_cli(capsys, "info", write(tmp_path, add_model_dict()))
    assert code == 0
    assert "ADD" in out and "[golden]" in out and "valid model" in out


def test_version_and_help(capsys):
    from nnaccel import __version__
    with pytest.raises(SystemExit) as e:
        main(["--version"])
    assert e.value.code == 0 and __version__ in capsys.readouterr().out
    for cmd in ("run", "info", "cts", "demo"):
        with pytest.raises(SystemExit) as e:
            main([cmd, "--help"])
        assert e.value.code == 0
        assert "usage" in capsys.readouterr().out


def test_demo_passes(capsys):
    code, out, _ = run_cli(capsys, "demo")
    assert code == 0 and "PASSED" in out


def test_cts_subset_and_json(tmp_path, capsys, cts_root):
    report = tmp_path / "cts.json"
    code, out, _ = run_cli(capsys, "cts", "--spec", "V1_0/add", "--json", str(report))
    assert code == 0
    assert "TOTAL: 2 models, 2 passed, 0 failed" in out
    doc = json.loads(report.read_text())
    assert doc["passed"] == 2 and doc["per_op"]["ADD"]["passed"] == 2


def test_cts_rejects_unknown_op_and_target(capsys, cts_root):
    code, _, err = run_cli(capsys, "cts", "--op", "NOPE")
    assert code == 2 and "Unknown operation NOPE" in err
    code, _, err = run_cli(capsys, "cts", "--target", "fpga")
    assert code == 2 and "Unknown target" in err
