"""``nnaccel sweep`` on embedded Ray: a 4-point grid (plus invalid points) over two small models,
the cache on a rerun, the written files, and a row's figures against ``nnaccel run --report``."""

import csv
import json

import pytest
from nnaccel.compiler.reference_models import mlp, small_cnn
from nnaccel.explore.plots import pareto_front
from nnaccel.explore.sweep import grid_points, parse_grid, point_config

from nnaccel.cli import main
from nnaccel.formats import save_models
from nnaccel.hwconfig import ConfigError


def test_grid_parsing_and_configs():
    g = parse_grid(["rows=4,8", "act_kib=16,64", "in_order=false"])
    assert g == {"rows": [4, 8], "act_kib": [16, 64], "in_order": [False]}
    pts = grid_points(g)
    assert len(pts) == 4 and pts[1] == {"rows": 4, "act_kib": 64, "in_order": False}
    cfg = point_config("small", pts[1])
    assert (cfg.rows, cfg.cols, cfg.act_bytes, cfg.wgt_bytes) == (4, 4, 64 * 1024, 8 * 1024)
    with pytest.raises(ConfigError, match="power"):
        point_config("small", {"act_kib": 3})


@pytest.mark.parametrize("spec,msg", [("rows", "NAME=V1,V2"), ("bogus=1", "not a hardware configuration field"),
                                      ("rows=4,x", "not an integer"), ("name=a", "not a hardware"),
                                      ("rows=4 --synth-design array", "--synth-design needs --synth")])
def test_bad_grid_exits_2(tmp_path, capsys, spec, msg):
    model = tmp_path / "m.json"
    save_models([mlp()], model)
    spec, *more = spec.split()
    assert main(["sweep", str(model), "--grid", spec, *more, "--out", str(tmp_path / "o"), "-q"]) == 2
    assert msg in capsys.readouterr().err


def test_pareto_front():
    pts = [(10, 1.0), (20, 3.0), (15, 0.5), (30, 2.0), (40, 4.0)]
    assert pareto_front(pts) == [(10, 1.0), (20, 3.0), (40, 4.0)]


def test_sweep_on_embedded_ray(tmp_path, capsys):
    pytest.importorskip("ray")
    a, b = tmp_path / "mlp.json", tmp_path / "cnn.json"
    save_models([mlp()], a)
    save_models([small_cnn()], b)
    out = tmp_path / "sweep"
    # 8 points: the 4 with a 3 KiB ACC scratchpad are invalid (not a power of two)
    argv = ["sweep", str(a), str(b), "--preset", "small", "--grid", "rows=4,8", "--grid", "act_kib=8,32",
            "--grid", "acc_kib=3,32", "--num-cpus", "2", "--clock-mhz", "10", "--out", str(out), "-q"]
    assert main(argv[:-1]) == 0         # without -q: stderr (not a terminal) has a line per point computed
    first, err = capsys.readouterr()
    assert sorted(ln.split(" done")[0] for ln in err.splitlines() if ln.startswith("sweep: point")) == [
        f"sweep: point {p}" for p in (1, 3, 5, 7)]      # the valid points (32 KiB ACC)
    assert "(4 of 4 to compute): ok" in err
    assert "8 points x 2 models: 4 points computed, 0 from the cache; 8 of 16 rows ok" in first
    rows = json.loads((out / "results.json").read_text())["rows"]
    assert len(rows) == 16
    bad = [r for r in rows if r["status"] != "ok"]
    assert len(bad) == 8 and all(r["status"] == "invalid" and r["acc_kib"] == 3 and "powers of two" in r["reason"]
                                 for r in bad)
    with (out / "results.csv").open() as f:
        assert len(list(csv.DictReader(f))) == 16
    assert (out / "pareto.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    page = (out / "index.html").read_text()
    assert 'id="pareto"' in page and 'src="data:image/png;base64,' in page and page.count("<tr") == 17

    # the rerun takes every point from the cache (Ray is not even started) and gives the same rows
    assert main(argv) == 0
    assert "4 points computed" not in (second := capsys.readouterr().out)
    assert "0 points computed, 4 from the cache" in second
    assert json.loads((out / "results.json").read_text())["rows"] == rows

    # one row against a direct run of its configuration (written by hand, not by the sweep)
    row = next(r for r in rows if r["model"] == "small_cnn" and r["rows"] == 8 and r["act_kib"] == 32
               and r["acc_kib"] == 32)
    cfg = tmp_path / "point.json"
    cfg.write_text(json.dumps({"preset": "small", "rows": 8, "cols": 8, "act_bytes": 32768, "acc_bytes": 32768}))
    rep_path = tmp_path / "r.json"
    assert main(["run", str(b), "--backend", "isa", "--config", str(cfg), "--report", str(rep_path)]) == 0
    rep = json.loads(rep_path.read_text())
    assert row["cycles"] == rep["total"]["cycles"] > 0
    assert row["macs"] == rep["total"]["macs"]
    assert row["utilization_issued"] == pytest.approx(rep["total"]["utilization"])
    assert (row["accelerator_ops"], row["host_ops"]) == (len(rep["accelerator_ops"]), len(rep["host_ops"]))
    assert row["inferences_per_s"] == pytest.approx(10e6 / rep["total"]["cycles"])
    assert row["clock_source"].startswith("assumed")


def test_rows_take_resources_and_fmax_from_the_synthesis():
    from nnaccel.explore.sweep import Sweep, SweepModel, config_hash, result_rows
    cfg = point_config("small", {"rows": 4})
    m = SweepModel("m", "h", None)
    run = {"status": "ok", "reason": "", "cycles": 5000, "macs": 10, "utilization_issued": 0.5}
    pts = [{"point": 0, "params": {"rows": 4}, "cfg": cfg, "hash": config_hash(cfg), "runs": {"h": run},
            "synth": {"status": "ok", "reason": "", "lut": 900, "ff": 800, "dsp": 8, "bram": 20, "fits": True,
                      "fmax_mhz": 20.0, "device": "iCE40UP5K"}},
           {"point": 1, "params": {"rows": 8}, "cfg": cfg, "hash": "x", "runs": {"h": run},
            "synth": {"status": "does not fit", "reason": "exceeds lut", "lut": 9000, "ff": 800, "dsp": 8,
                      "bram": 20, "fits": False, "fmax_mhz": None, "device": "iCE40UP5K"}}]
    ok, nofit = result_rows(Sweep([m], {"rows": [4, 8]}, "small", "ice40", clock_mhz=12.0), pts)
    assert (ok["status"], ok["lut"], ok["fmax_mhz"], ok["clock_source"]) == ("ok", 900, 20.0, "fmax (nextpnr)")
    assert ok["inferences_per_s"] == pytest.approx(20e6 / 5000)
    assert (nofit["status"], nofit["reason"], nofit["fits"]) == ("does not fit", "exceeds lut", False)
    assert nofit["clock_source"] == "assumed (--clock-mhz)" and nofit["cycles"] == 5000


@pytest.mark.synth
def test_sweep_synthesizes_each_point_and_records_the_one_that_does_not_fit(tmp_path, capsys):
    """``--synth ice40 --synth-design scratchpad``: Yosys and nextpnr (YoWASP) run in each point's Ray
    task on one ACT bank. 4 KiB (2 banks of 512 x 32 bit) fits the iCE40UP5K and is routed (fmax,
    inferences per second at it); 128 KiB does not (2 banks of 16384 x 32 bit: more 4-Kbit block
    RAMs than the device's 30) and is recorded with that reason while the sweep goes on. The rerun
    takes both from the cache (a non-fitting point is cached too)."""
    pytest.importorskip("ray")
    model = tmp_path / "mlp.json"
    save_models([mlp()], model)
    out = tmp_path / "sweep"
    argv = ["sweep", str(model), "--preset", "tiny", "--grid", "act_kib=4,128", "--synth", "ice40",
            "--synth-design", "scratchpad", "--num-cpus", "2", "--out", str(out), "-q"]
    assert main(argv) == 0
    first = capsys.readouterr().out
    assert "2 points x 1 models: 2 points computed, 0 from the cache; 1 of 2 rows ok" in first
    assert "point 1 demo_mlp: does not fit: exceeds the iCE40UP5K: bram 128 / 30" in first
    ok, big = json.loads((out / "results.json").read_text())["rows"]
    # block RAMs from the bank's bits (an SB_RAM40_4K holds 4 Kbit), not from the synthesis report
    assert (ok["status"], ok["fits"], ok["device"], ok["bram"]) == ("ok", True, "iCE40UP5K", 4 * 1024 // 2 * 8 // 4096)
    assert ok["lut"] > 0 and ok["ff"] > 0 and ok["fmax_mhz"] > 12
    assert ok["clock_source"].startswith("fmax of the scratchpad block")
    assert ok["inferences_per_s"] == pytest.approx(ok["fmax_mhz"] * 1e6 / ok["cycles"])
    assert (big["status"], big["fits"], big["bram"]) == ("does not fit", False, 128 * 1024 // 2 * 8 // 4096)
    assert big["cycles"] > 0 and big["fmax_mhz"] is None and big["inferences_per_s"] is None
    with (out / "results.csv").open() as f:
        assert [r["status"] for r in csv.DictReader(f)] == ["ok", "does not fit"]
    assert (out / "pareto.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

    assert main(argv) == 0
    assert "0 points computed, 2 from the cache; 1 of 2 rows ok" in capsys.readouterr().out
    assert json.loads((out / "results.json").read_text())["rows"] == [ok, big]


@pytest.mark.slow
@pytest.mark.synth
def test_sweep_places_and_routes_the_tiny_accelerator(tmp_path, capsys):
    """One point, the whole tiny accelerator (``--synth ice40``, design top) placed and routed on the
    iCE40UP5K inside a Ray task (10-30 minutes of nextpnr): it fits, and the row's inferences per
    second are its fmax over the cycles of a direct ``nnaccel run`` of the model."""
    pytest.importorskip("ray")
    model = tmp_path / "mlp.json"
    save_models([mlp()], model)
    out = tmp_path / "sweep"
    assert main(["sweep", str(model), "--preset", "tiny", "--grid", "rows=4", "--synth", "ice40",
                 "--num-cpus", "1", "--out", str(out), "-q"]) == 0
    (row,) = json.loads((out / "results.json").read_text())["rows"]
    assert (row["status"], row["fits"], row["device"]) == ("ok", True, "iCE40UP5K"), row["reason"]
    assert 0 < row["lut"] <= 5280 and 0 < row["dsp"] <= 8 and 0 < row["bram"] <= 30 and row["fmax_mhz"] > 0
    assert row["clock_source"] == "fmax (nextpnr)"
    rep_path = tmp_path / "r.json"
    assert main(["run", str(model), "--backend", "isa", "--config", "tiny", "--report", str(rep_path)]) == 0
    cycles = json.loads(rep_path.read_text())["total"]["cycles"]
    assert row["inferences_per_s"] == pytest.approx(row["fmax_mhz"] * 1e6 / cycles)
