"""``nnaccel bench mlperf``: the MLPerf Tiny models from their .tflite files, bit-exact, with the
useful MACs of their published multiply-add counts (the models' README) and inferences per second
from a results file's post-route fmax."""

import json

import pytest

from nnaccel.cli import main

#: multiply-adds (conv / depthwise / FC) as published with the models
PUBLISHED_MACS = {"kws": 2_656_768, "vww": 7_489_664, "ic": 12_501_632, "ad": 264_192}


def test_every_model_useful_macs_match_the_published_counts(mlperf_tiny_root):
    from nnaccel.compiler.tflite_import import load_tflite

    from nnaccel.cli_mlperf import MLPERF_MODELS
    from nnaccel.macs import layer_useful_macs
    for short, file, _ in MLPERF_MODELS:
        model = load_tflite(mlperf_tiny_root / file)
        assert sum(layer_useful_macs(model.main).values()) == PUBLISHED_MACS[short], short


def test_bench_mlperf_json_and_inferences_per_second(mlperf_tiny_root, tmp_path, capsys):
    results = tmp_path / "results.json"
    results.write_text(json.dumps({"synth-small-top": {"rows": [{"fmax": "12.50 MHz", "routed": "yes"}]}}))
    out = tmp_path / "m.json"
    assert main(["bench", "mlperf", "--config", "small", "--model", "ad", "--model", "kws",
                 "--results", str(results), "--json", str(out)]) == 0
    doc = json.loads(out.read_text())
    (run,) = doc["runs"]
    assert run["config"] == "small" and run["fmax_mhz"] == 12.5
    by = {m["model"]: m for m in run["models"]}
    assert set(by) == {"ad", "kws"}
    for short, m in by.items():
        assert m["bit_exact"] and m["cycles"] > 0
        assert m["useful_macs"] == PUBLISHED_MACS[short]
        assert m["useful_utilization"] == pytest.approx(m["useful_macs"] / (m["cycles"] * 64))
        assert m["inferences_per_second"] == pytest.approx(12.5e6 / m["cycles"])
        assert m["sim_cycles_per_second"] > 0 and m["compile_seconds"] > 0
    assert by["kws"]["host_ops"] == ["SOFTMAX"]
    text = capsys.readouterr().out
    assert "KWS DS-CNN" in text and "12.50 MHz" in text


def test_bench_mlperf_without_fmax_and_bad_arguments(mlperf_tiny_root, tmp_path, capsys):
    out = tmp_path / "m.json"
    assert main(["bench", "mlperf", "--config", "tiny", "--model", "ad", "--results", str(tmp_path / "none.json"),
                 "--json", str(out)]) == 0
    m = json.loads(out.read_text())["runs"][0]["models"][0]
    assert m["fmax_mhz"] is None and m["inferences_per_second"] is None and m["bit_exact"]
    assert main(["bench", "mlperf", "--model", "resnet50"]) == 2
    assert "Unknown model resnet50" in capsys.readouterr().err
    assert main(["bench", "mlperf", "--models-dir", str(tmp_path / "nowhere")]) == 2


def test_bench_mlperf_on_a_configuration_file(mlperf_tiny_root, tmp_path):
    """A .toml configuration runs under its own name: the preset's measured fmax is not its own,
    and a one-cycle vector multiplier takes fewer cycles than the preset's four-cycle one."""
    results = tmp_path / "results.json"
    results.write_text(json.dumps({"synth-small-top": {"rows": [{"fmax": "12.50 MHz", "routed": "yes"}]}}))
    cfg = tmp_path / "fast.toml"
    cfg.write_text('preset = "small"\nname = "small-mul1"\nvector_mul_steps = 1\n')
    runs = {}
    for config in ("small", str(cfg)):
        out = tmp_path / "m.json"
        assert main(["bench", "mlperf", "--config", config, "--model", "ad", "--results", str(results),
                     "--json", str(out)]) == 0
        (run,) = json.loads(out.read_text())["runs"]
        runs[run["config"]] = run
    assert set(runs) == {"small", "small-mul1"}
    assert runs["small-mul1"]["fmax_mhz"] is None and runs["small"]["fmax_mhz"] == 12.5
    (fast,), (slow,) = runs["small-mul1"]["models"], runs["small"]["models"]
    assert fast["bit_exact"] and fast["cycles"] < slow["cycles"]


def test_bench_mlperf_on_a_board_reports_what_fits(mlperf_tiny_root, tmp_path, capsys):
    """``--board``: the board's configuration and clock; a model gets inferences per second at the
    board clock where its data and program fit the board's memory (KWS on the ULX3S's 256 KiB), and
    none where they do not (AD: its data alone exceeds the DMA window, so it is not compiled)."""
    out = tmp_path / "m.json"
    assert main(["bench", "mlperf", "--board", "ulx3s-85f", "--model", "kws", "--model", "ad",
                 "--json", str(out)]) == 0
    (run,) = json.loads(out.read_text())["runs"]
    assert run["board"] == "ulx3s-85f" and run["config"] == "small-ulx3s-85f" and run["fmax_mhz"] == 10.0
    by = {m["model"]: m for m in run["models"]}
    kws, ad = by["kws"], by["ad"]
    assert kws["fits"] and 128 * 1024 < kws["memory_bytes"] <= 256 * 1024 and kws["bit_exact"]
    assert kws["inferences_per_second"] == pytest.approx(10e6 / kws["cycles"])
    assert not ad["fits"] and ad["memory_bytes"] is None and "DMA window" in ad["why"]
    assert ad["inferences_per_second"] is None
    assert "AD FC autoencoder      does not fit the ulx3s-85f's 262,144 bytes" in capsys.readouterr().out
