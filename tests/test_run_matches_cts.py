"""``nnaccel run`` gives the conformance models the outputs ``nnaccel cts`` gives them.

Each model runs as a user runs it: ``nnaccel run FILE --name NAME --outputs out.npz`` in a
subprocess, the written outputs compared with the file's expected outputs by the conformance
runner's own comparison (:func:`nnaccel.cts.compare_outputs`, the harness tolerances). Invalid
(``expect_failure``) models must exit 2 with a one-line error. The default tier runs the
recurrent models with omitted optional inputs and a fixed sample; ``-m slow`` runs every model.
"""

import json
import random
import subprocess
import sys

import numpy as np
import pytest

from nnaccel.cts import compare_outputs, cts_dir
from nnaccel.formats import load_models


def _all_models() -> list[tuple[str, str]]:
    index = cts_dir() / "index.json"
    if not index.is_file():
        return []
    doc = json.loads(index.read_text())
    return sorted((f["path"], name) for f in doc["files"] for name in f["models"])


ALL = _all_models()
#: Models with omitted optional inputs (an empty data list), which once ran on made-up data.
NAMED = [
    ("V1_3/qlstm_noprojection.json.gz", "qlstm_noprojection"),
    ("V1_1/svdf2_relaxed.json.gz", "svdf2_relaxed"),
    ("V1_2/svdf_float16.json.gz", "svdf_float16"),
    ("V1_2/lstm2_float16.json.gz", "lstm2_float16"),
    ("V1_2/lsh_projection_deprecated.json.gz", "lsh_projection_deprecated"),
    ("V1_2/bidirectional_sequence_lstm.json.gz", "bidirectional_sequence_lstm_blackbox"),
    ("V1_2/bidirectional_sequence_lstm_aux_input.json.gz", "bidirectional_sequence_lstm_aux_input_blackbox"),
    ("V1_2/bidirectional_sequence_lstm_norm_fw_output.json.gz",
     "bidirectional_sequence_lstm_norm_fw_output_blackbox"),
    ("V1_3/bidirectional_sequence_lstm_state_output.json.gz",
     "bidirectional_sequence_lstm_state_output_blackbox"),
    # invalid models: rejected through run as through cts
    ("V1_2/depthwise_conv2d_invalid_filter_dims.json.gz", "depthwise_conv2d_invalid_filter_dims_nchw"),
    ("V1_2/strided_slice_invalid.json.gz", "strided_slice_invalid_output_dims"),
    ("V1_3/if_no_value.json.gz", "if_no_value_quant8_signed"),
    ("V1_3/while_infinite_loop.json.gz", "while_infinite_loop_relaxed"),
]
SAMPLE = NAMED + random.Random(23).sample([m for m in ALL if m not in NAMED], min(30, len(ALL)))
_cache: dict = {}


def _model(root, path, name):
    if path not in _cache:
        _cache.clear()
        _cache[path] = {m.name: m for m in load_models(root / path)}
    return _cache[path][name]


def check_run_matches_cts(root, tmp_path, path, name):
    model = _model(root, path, name)
    out = tmp_path / "out.npz"
    proc = subprocess.run([sys.executable, "-m", "nnaccel", "run", str(root / path), "--name", name,
                           "--outputs", str(out)], capture_output=True, text=True, timeout=300, check=False)
    assert "Traceback" not in proc.stderr, proc.stderr
    if model.meta.get("expect_failure"):
        assert proc.returncode == 2, (proc.stdout, proc.stderr)
        assert proc.stderr.strip().count("\n") == 0 and proc.stderr.strip().endswith("."), proc.stderr
        assert not out.exists()
        return
    assert proc.returncode == 0, proc.stderr
    assert "random" not in proc.stderr, proc.stderr  # the file's own inputs, never made-up data
    with np.load(out) as z:
        actual = [z[f"output{k}"] for k in range(len(model.main.output_indexes))]
    problem = compare_outputs(model, actual)
    assert problem is None, f"{name}: {problem}"


def _id(m):
    return f"{m[0][:-8]}:{m[1]}"


def test_named_models_are_in_the_suite(cts_root):
    assert set(NAMED) <= set(ALL)
    assert _model(cts_root, *NAMED[-1]).meta.get("expect_failure")


@pytest.mark.parametrize("path,name", SAMPLE, ids=[_id(m) for m in SAMPLE])
def test_run_matches_cts_sample(cts_root, tmp_path, path, name):
    check_run_matches_cts(cts_root, tmp_path, path, name)


@pytest.mark.slow
@pytest.mark.parametrize("path,name", ALL, ids=[_id(m) for m in ALL])
def test_run_matches_cts_every_model(cts_root, tmp_path, path, name):
    check_run_matches_cts(cts_root, tmp_path, path, name)
