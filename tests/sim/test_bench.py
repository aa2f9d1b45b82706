"""``nnaccel bench gemm``: figures (the compiled FULLY_CONNECTED on the runtime), JSON, backends, and
the 90% utilization target."""

import json

import pytest

from nnaccel.cli import main
from nnaccel.cli_bench import bench_gemm
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


def test_bad_backend_size_or_config_exit_2(capsys):
    with pytest.raises(InputError, match="Unknown backend 'fpga'; bench gemm runs on isa, rtl"):
        bench_gemm("tiny", 5, backend="fpga")
    with pytest.raises(InputError, match="must be from 1 to 8192"):
        bench_gemm("tiny", 0)
    with pytest.raises(SystemExit) as e:           # argparse: the choices are in --help
        main(["bench", "gemm", "--config", "tiny", "--size", "4", "--backend", "fpga"])
    assert e.value.code == 2
    assert main(["bench", "gemm", "--config", "nope"]) == 2


@pytest.mark.slow
def test_base_1024_reaches_the_pointwise_schedule_bound():
    """`nnaccel bench gemm --config base --size 1024` (README): the compiler's pointwise schedule
    keeps all 64 K tiles of a pixel block in ACT (two input slots of 64 x P lines beside the
    staging bank), so P = 24 pixels and each GEMM streams 16 K tiles x 24 lines after the 48-cycle
    preload + fill / drain of base's 16 x 16 array: at most 384 / 432 of the cycles issue MACs."""
    r = bench_gemm("base", 1024)
    bound = 16 * 24 / (16 * 24 + 16 + 16 + 16)
    assert r["bit_exact"] and 0.98 * bound <= r["utilization"] <= bound
