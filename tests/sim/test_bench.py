"""``nnaccel bench gemm``: figures, JSON, backend dispatch, and the 90% utilization target."""

import json

import pytest
from nnaccel.sim.bench import BACKENDS, bench_gemm, get_backend, register_backend, run_isa

from nnaccel.cli import main
from nnaccel.errors import InputError

KEYS = {"cycles", "macs", "utilization", "bit_exact", "sim_cycles_per_second"}


def test_bench_gemm_small_is_exact():
    r = bench_gemm("tiny", 21)
    assert KEYS <= set(r) and r["bit_exact"] and r["mismatches"] == 0
    assert r["macs"] >= 21 ** 3 and 0 < r["utilization"] <= 1
    assert r["utilization"] == pytest.approx(r["macs"] / (r["cycles"] * 16))


def test_bench_cli_json(tmp_path, capsys):
    path = tmp_path / "b.json"
    assert main(["bench", "gemm", "--config", "small", "--size", "40", "--json", str(path)]) == 0
    data = json.loads(path.read_text())
    assert KEYS <= set(data) and data["bit_exact"] is True and data["config"] == "small"
    assert "MAC utilization" in capsys.readouterr().out


def test_backend_dispatch():
    assert get_backend("isa") is run_isa
    with pytest.raises(InputError, match="Unknown backend 'fpga'; the backends are isa"):
        get_backend("fpga")
    register_backend("isa2", run_isa)
    try:
        assert bench_gemm("tiny", 5, backend="isa2")["backend"] == "isa2"
    finally:
        del BACKENDS["isa2"]
    assert main(["bench", "gemm", "--config", "tiny", "--size", "4", "--backend", "fpga"]) == 2
    assert main(["bench", "gemm", "--config", "nope"]) == 2


def test_base_1024_reaches_90_percent():
    """The target of docs/accelerator.md: `nnaccel bench gemm --config base --size 1024`."""
    r = bench_gemm("base", 1024)
    assert r["bit_exact"] and r["utilization"] >= 0.90
