"""The four MLPerf Tiny reference models (``../shared/models/mlperf_tiny``, see its README) as they
are: imported with their static batch 1 (their ``shape_signature`` marks the batch -1), run on the
golden model bit-exact with LiteRT's reference kernels (``BUILTIN_REF``), compiled for ``base`` and
run on the ISA simulator through the firmware runtime bit-exact with the golden model, with at least
90 % of their operations on the accelerator.

The models are read from ``$NNACCEL_MLPERF_TINY_DIR`` (default ``../shared/models/mlperf_tiny``);
without them the tests skip, except under ``CI=true``, where they fail.
"""

from __future__ import annotations

import numpy as np
import pytest
from nnaccel.compiler.compile import compile_model
from nnaccel.compiler.tflite_import import load_tflite
from nnaccel.firmware.runtime import Runtime
from support.tflite_litert import LiteRTWorker

from nnaccel.golden.interpreter import run_model

#: file -> (input shape, output shape) as the README's table gives them.
MODELS = {
    "kws_ref_model.tflite": ((1, 49, 10, 1), (1, 12)),
    "vww_96_int8.tflite": ((1, 96, 96, 3), (1, 2)),
    "pretrainedResnet_quant.tflite": ((1, 32, 32, 3), (1, 10)),
    "ad01_int8.tflite": ((1, 640), (1, 640)),
}
SEEDS = (0, 1)
MIN_ACCELERATED = 0.9


@pytest.fixture(scope="module")
def litert():
    with LiteRTWorker() as w:
        yield w


def seeded_inputs(model, seed: int) -> list:
    r = np.random.default_rng(seed)
    return [r.integers(-128, 128, model.main.operands[i].dimensions).astype(np.int8)
            for i in model.main.input_indexes]


def load(root, name):
    path = root / name
    model = load_tflite(path)
    sg = model.main
    assert [sg.operands[i].dimensions for i in sg.input_indexes] == [MODELS[name][0]]
    assert [sg.operands[i].dimensions for i in sg.output_indexes] == [MODELS[name][1]]
    return path.read_bytes(), model


def golden_matches_litert(litert, data: bytes, model) -> None:
    for seed in SEEDS:
        inputs = seeded_inputs(model, seed)
        status, ref = litert.run(data, inputs)
        assert status == "ok", ref
        golden = run_model(model, inputs)
        for k, (g, r) in enumerate(zip(golden, ref)):
            diff = np.abs(g.astype(np.int64) - r.astype(np.int64))
            assert r.dtype == np.int8 and diff.max() == 0, (
                f"seed {seed} output{k}: {int((diff > 0).sum())} of {diff.size} values differ, up to "
                f"{int(diff.max())} steps")


@pytest.mark.parametrize("name", list(MODELS))
def test_golden_is_bit_exact_with_litert(mlperf_tiny_root, litert, name):
    data, model = load(mlperf_tiny_root, name)
    golden_matches_litert(litert, data, model)


@pytest.mark.parametrize("name", list(MODELS))
def test_accelerated_on_base_and_isa_bit_exact_with_golden(mlperf_tiny_root, name):
    _, model = load(mlperf_tiny_root, name)
    pkg = compile_model(model, "base")
    ops = model.main.operations
    accelerated = len(pkg.manifest["accelerator_ops"])
    assert accelerated >= MIN_ACCELERATED * len(ops), (
        f"{accelerated} of {len(ops)} operations on the accelerator; on the host: "
        + ", ".join(f"{o['index']} {o['type']}" for o in pkg.manifest["host_ops"]))
    runtime = Runtime(pkg)
    for seed in SEEDS:
        inputs = seeded_inputs(model, seed)
        outputs, report = runtime.run(inputs, "isa", check=True)
        assert len(report["accelerator_ops"]) == accelerated and report["total"]["macs"] > 0
        for k, (a, g) in enumerate(zip(outputs, run_model(model, inputs))):
            np.testing.assert_array_equal(a, g, err_msg=f"seed {seed} output{k}")


#: Issue #24's target for the autoencoder on base (ISA cycles of its one segment).
AD_BASE_CYCLES = 21_500


def test_autoencoder_on_base_within_its_cycle_target_without_races(mlperf_tiny_root):
    """The FC autoencoder on base: at most ``AD_BASE_CYCLES`` cycles, no race under the exact
    schedule, and each 640-wide layer's 40 x 8 weight tiles (16 x 16) in full GEMMs: two output
    tiles a group, a group's 80 tiles in 5 GEMMs of 16 (the 16 K tiles a GEMM can take), 20
    per layer, where one output tile at a time takes 3 GEMMs each."""
    from nnaccel.sim.isasim import find_conflicts, schedule

    from nnaccel.isa import bytes_to_words, decode
    _, model = load(mlperf_tiny_root, "ad01_int8.tflite")
    pkg = compile_model(model, "base")
    (seg,) = pkg.manifest["segments"]
    words = bytes_to_words(pkg.segment_words(seg))
    assert find_conflicts(words, pkg.config()) == []
    prog = [decode(w) for w in words]
    assert schedule(prog, pkg.config()).total_cycles <= AD_BASE_CYCLES
    first = next(lay for lay in seg["layers"] if lay["op"] == 0)
    gemms = [d for d in prog[first["first"]:first["last"] + 1] if d.name == "GEMM"]
    assert len(gemms) == 8 // 2 * (2 * 40 // 16) and all(d.kt + 1 == 16 and d.ny == 2 for d in gemms)


def test_kws_depthwise_layers_take_whole_image_tiles_on_base(mlperf_tiny_root):
    """KWS on base: each depthwise layer's output goes straight into its 1x1 convolution's input
    slot, and its estimate counts no STOREs there, so it takes one whole-image output tile per
    channel block (one DWCONV each), and stores nothing."""
    _, model = load(mlperf_tiny_root, "kws_ref_model.tflite")
    pkg = compile_model(model, "base")
    sg = model.main
    dw = [k for k, o in enumerate(sg.operations) if o.type == "DEPTHWISE_CONV_2D"]
    assert dw
    lines = pkg.listing.splitlines()
    for k in dw:
        mine = [ln for ln in lines if f"[op {k} DEPTHWISE_CONV_2D]" in ln]
        blocks = -(-sg.operands[sg.operations[k].outputs[0]].dimensions[3] // pkg.config().rows)
        assert sum(": DWCONV " in ln for ln in mine) == blocks, k
        assert not any(": STORE " in ln for ln in mine), k
