"""The RTL build cache: changing a Verilator or C++ compiler flag, or the simulation wrapper, must
select another build (a stale model built with other flags would be reused otherwise)."""

import pytest
from nnaccel.sim import rtl_runner


@pytest.mark.parametrize("name", ["VERILATOR_ARGS", "MAKE_ARGS"])
def test_changing_build_flags_changes_the_key(monkeypatch, name):
    key = rtl_runner._source_key("tiny", 1)
    monkeypatch.setattr(rtl_runner, name, [*getattr(rtl_runner, name), "-DNNACCEL_OTHER"])
    assert rtl_runner._source_key("tiny", 1) != key


def test_changing_the_wrapper_changes_the_key(monkeypatch):
    key = rtl_runner._source_key("tiny", 1)
    monkeypatch.setattr(rtl_runner, "_sim_top", lambda top, waves=False: top)
    assert rtl_runner._source_key("tiny", 1) != key


def test_the_build_command_keeps_only_top_level_signals_public(tmp_path):
    """cocotb's --public-flat-rw (every signal visible to VPI) is taken out of its Verilator
    command; make gets the C++ flags."""
    rtl_runner._setup_verilator_env()
    runner = rtl_runner._verilator_runner()
    cmds = []
    runner._execute = lambda c, cwd: cmds.extend(c)
    src = tmp_path / "t.v"
    src.write_text("module t(input a, output b); assign b = a; endmodule\n")
    runner.build(sources=[src], hdl_toplevel="t", build_dir=tmp_path / "b", always=True,
                 build_args=rtl_runner.VERILATOR_ARGS)
    verilate, make = cmds[0], cmds[-1]
    assert "--public-flat-rw" not in verilate and "--public-depth" in verilate
    assert make[0] == "make" and all(a in make for a in rtl_runner.MAKE_ARGS)
