"""``nnaccel run --backend rtl --wave FILE.fst --wave-window START:END``: the FST-tracing Verilator
build writes a waveform of just that window of the run, which an FST reader (pywellen) parses, and
the traced run is still bit-exact with the golden model."""

import os
from pathlib import Path

import pytest
from nnaccel.compiler.reference_models import mlp

from nnaccel.cli import main
from nnaccel.formats import save_models


@pytest.mark.parametrize("argv,msg", [
    (["--backend", "isa", "--wave", "w.fst"], "--wave needs --backend rtl"),
    (["--backend", "rtl", "--wave-window", "1:2"], "--wave-window needs --wave"),
    (["--backend", "rtl", "--wave", "w.fst", "--wave-window", "9:3"], "is not START:END"),
    (["--backend", "rtl", "--wave", "w.fst", "--wave-window", "x"], "is not START:END"),
])
def test_wave_arguments(tmp_path, capsys, argv, msg):
    model = tmp_path / "m.json"
    save_models([mlp()], model)
    assert main(["run", str(model), "--config", "tiny", *argv]) == 2
    assert msg in capsys.readouterr().err


def _lz4_headers():
    if not Path("/usr/include/lz4.h").exists():
        msg = ("Verilator's FST writer needs the LZ4 headers (Debian's liblz4-dev, which .ci/run "
               "installs)")
        if os.environ.get("CI") == "true":
            pytest.fail(msg + "; under CI they must be present")
        pytest.skip(msg)


@pytest.mark.rtl
@pytest.mark.slow
def test_wave_window_writes_a_parsable_fst(tmp_path):
    _lz4_headers()
    pywellen = pytest.importorskip("pywellen")
    from nnaccel.compiler.compile import compile_model
    from nnaccel.firmware.runtime import run_on_backend

    from nnaccel.formats import run_inputs
    model = mlp()
    wave = tmp_path / "run.fst"
    first, last = 100, 300
    _, rep = run_on_backend(compile_model(model, "tiny"), run_inputs(model)[0], "rtl", check=True,
                            wave=(str(wave), (first, last)))
    assert len(rep["segments"]) == 1 and rep["total"]["cycles"] > last
    assert wave.stat().st_size > 0
    w = pywellen.Waveform(str(wave))
    assert w.file_format == "FST"
    by_name = {v.full_name: v for v in w.all_vars()}
    rc = next(v for name, v in by_name.items() if name.endswith("simtop.run_cycles"))
    assert any(name.endswith(".clk") for name in by_name)
    seen = []
    w.stream_changes(lambda t, sig, value: seen.append(int(value)), [rc])
    # the window and nothing else: run_cycles from START (opened in its first cycle) to END + 1
    assert seen and first <= seen[0] <= first + 1 and last <= seen[-1] <= last + 2
    assert len(seen) >= last - first
