"""PE and systolic array: Amaranth simulation against NumPy, and Verilator/cocotb against the model."""

import numpy as np
import pytest
from amaranth.sim import Simulator
from nnaccel.hw.array import SystolicArray, array_latency, array_model
from nnaccel.hw.pe import PE


def _operand(x: int, mul: str) -> tuple[int, int]:
    """A value in [-255, 255] as a cell's (8-bit part, sign bit): sign-magnitude, or the 9-bit two's
    complement for ``mul="signed"``."""
    return ((x & 0xFF, (x >> 8) & 1) if mul == "signed" else (abs(x), int(x < 0)))


@pytest.mark.parametrize("pipeline", [0, 1])
@pytest.mark.parametrize("mul", ["dsp", "lut", "signed", "ccu2c"])
def test_pe_mac(mul, pipeline):
    """A cell adds (or subtracts, by the XOR of the signs) the 8 x 8 product of the magnitudes:
    the signed product of two values in [-255, 255], wrapping at 32 bits (``mul="signed"``: the
    same product of the two's complement operands). ``pipeline``: the product of the activation
    of one cycle is added to the partial sum of the next (the activation then changes to another
    value, which must not reach the sum)."""
    dut = PE(mul=mul, pipeline=pipeline)
    rng = np.random.default_rng(1)
    cases = [(int(a), int(w), int(p)) for a, w, p in zip(rng.integers(-255, 256, 40),
                                                          rng.integers(-255, 256, 40),
                                                          rng.integers(-2**31, 2**31, 40))]
    cases += [(-255, -255, 2**31 - 1), (255, -255, -2**31), (-255, 255, 0), (0, -7, 5), (-3, 0, -1)]

    async def bench(ctx):
        for a, w, p in cases:
            ctx.set(dut.w_in, _operand(w, mul)[0])
            ctx.set(dut.w_neg, _operand(w, mul)[1])
            ctx.set(dut.w_load, 1)
            await ctx.tick()
            ctx.set(dut.w_load, 0)
            ctx.set(dut.a_in, _operand(a, mul)[0])
            ctx.set(dut.a_neg, _operand(a, mul)[1])
            if mul == "lut":
                ctx.set(dut.a3_in, 3 * abs(a))
            ctx.set(dut.ps_in, p)
            await ctx.tick()
            assert (ctx.get(dut.a_out), ctx.get(dut.a_neg_out)) == _operand(a, mul)
            if pipeline:
                other = -a if a else 1
                ctx.set(dut.a_in, _operand(other, mul)[0])
                ctx.set(dut.a_neg, _operand(other, mul)[1])
                if mul == "lut":
                    ctx.set(dut.a3_in, 3 * abs(other))
                await ctx.tick()
            want = ((p + a * w + 2**31) % 2**32) - 2**31
            assert ctx.get(dut.ps_out) == want, (a, w, p)

    sim = Simulator(dut)
    sim.add_clock(1e-6)
    sim.add_testbench(bench)
    sim.run()


def _drive_array(rows, cols, w, a_vectors, a_zp, w_zp, a_signed, w_signed, dsp_cells=None, dsp=None, pipeline=0):
    dut = SystolicArray(rows, cols, dsp_cells=dsp_cells, dsp=dsp, pipeline=pipeline)
    got = []

    async def bench(ctx):
        ctx.set(dut.w_signed, w_signed)
        ctx.set(dut.w_zp, w_zp)
        ctx.set(dut.a_signed, a_signed)
        ctx.set(dut.a_zp, a_zp)
        for i in range(rows):
            ctx.set(dut.w_we, 1)
            ctx.set(dut.w_row, i)
            ctx.set(dut.w_data, [int(x) & 0xFF for x in w[i]])
            await ctx.tick()
        ctx.set(dut.w_we, 0)
        cycle = 0
        sent = []
        n = len(a_vectors)
        while len(got) < n:
            if cycle < n:
                ctx.set(dut.a_valid, 1)
                ctx.set(dut.a_data, [int(x) & 0xFF for x in a_vectors[cycle]])
                sent.append(cycle)
            else:
                ctx.set(dut.a_valid, 0)
            await ctx.tick()
            cycle += 1
            if ctx.get(dut.o_valid):
                got.append((cycle, [ctx.get(dut.o_data[j]) for j in range(cols)]))
            assert cycle < n + 4 * (rows + cols) + 10, "the array never produced all its outputs"

    sim = Simulator(dut)
    sim.add_clock(1e-6)
    sim.add_testbench(bench)
    sim.run()
    return dut, got


@pytest.mark.parametrize("pipeline", [0, 1])
@pytest.mark.parametrize("dsp", [None, "dual8", "signed9"])
@pytest.mark.parametrize("rows,cols,a_signed,w_signed", [(4, 4, 1, 1), (3, 5, 0, 1), (4, 2, 0, 0), (4, 4, 0, 1),
                                                         (4, 4, 1, 0)])
def test_array_matches_numpy(rows, cols, a_signed, w_signed, dsp, pipeline):
    """The array against NumPy; one result a cycle, ``rows + cols - 1`` cycles after its vector
    (``rows - 1`` skew, ``rows`` cells, ``cols - 1`` de-skew) and one more with ``pipeline`` (the
    cells' product register, or with ``dual8``, whose DSP pairs accumulate in the cell, one more
    output register)."""
    rng = np.random.default_rng(rows * 7 + cols)
    lo_a, hi_a = (-128, 128) if a_signed else (0, 256)
    lo_w, hi_w = (-128, 128) if w_signed else (0, 256)
    w = rng.integers(lo_w, hi_w, (rows, cols))
    a = rng.integers(lo_a, hi_a, (9, rows))
    a_zp = int(rng.integers(lo_a, hi_a))
    w_zp = int(rng.integers(lo_w, hi_w))
    # dual8 with an odd number of DSP cells leaves one SB_MAC16 half unused
    dsp_cells = rows * cols // 2 + (1 if dsp else 0)
    dut, got = _drive_array(rows, cols, w, a, a_zp, w_zp, a_signed, w_signed, dsp_cells=dsp_cells, dsp=dsp,
                            pipeline=pipeline)
    want = array_model(a, w, a_zp, w_zp)
    assert [g for _, g in got] == want.tolist()
    # fixed latency, one result per cycle
    assert [c for c, _ in got] == [rows + cols - 1 + pipeline + k for k in range(len(a))]
    assert dut.latency == array_latency(rows, cols, pipeline) == rows + cols - 1 + pipeline


def test_array_extremes():
    rows = cols = 4
    w = np.full((rows, cols), -128)
    a = np.full((2, rows), -128)
    _, got = _drive_array(rows, cols, w, a, 127, 127, 1, 1)
    assert [g for _, g in got] == array_model(a, w, 127, 127).tolist() == [[4 * 255 * 255] * cols] * 2


@pytest.mark.rtl
@pytest.mark.parametrize("dsp,a_signed,w_signed,a_zp,w_zp,buffers,pipeline", [
    (None, 0, 1, 3, -2, 2, 0), ("ice40_dual8", 1, 0, -100, 201, 2, 0), ("ice40_dual8", 0, 1, 7, -128, 1, 0),
    ("ecp5", 0, 0, 255, 0, 2, 0), ("ecp5", 1, 1, -128, 127, 2, 0), ("ecp5", 1, 0, -128, 255, 2, 1),
    ("ecp5", 0, 1, 0, -128, 2, 1)])
@pytest.mark.parametrize("rows,cols", [(4, 4), pytest.param(8, 8, marks=pytest.mark.slow)])
def test_array_verilator(rows, cols, dsp, a_signed, w_signed, a_zp, w_zp, buffers, pipeline):
    """Verilator against the model, the last 5 cells (row-major) on LUT multipliers; with
    ``ice40_dual8`` the array's SB_MAC16 instances run Yosys' own behavioural model of the cell
    (``ice40/cells_sim.v``): the array as it is placed on the iCE40, parameters and pairing included
    (with one weight buffer, tiny's: the weights held in the cells' B registers, ``B_REG`` /
    ``BHOLD`` / ``IRSTBOT``); with ``ecp5`` the LUT cells' CCU2C instances run Yosys' model of that
    cell (``ecp5/cells_sim.v``)."""
    from nnaccel.sim import rtl_runner
    verilog = rtl_runner.to_verilog(SystolicArray(rows, cols, dsp_cells=rows * cols - 5, dsp=dsp, buffers=buffers,
                                                  pipeline=pipeline), "array")
    if dsp == "ice40_dual8":
        verilog += "\n" + _yosys_ice40_cell_model("SB_MAC16")
    if dsp == "ecp5":
        verilog += "\n" + "".join(_yosys_ice40_cell_model(c, "ecp5") for c in ("CCU2C", "LUT4", "LUT2"))
    if dsp == "ecp5" and pipeline:
        verilog += "\n" + _mult18x18d_model()
    rtl = rtl_runner.build(verilog, "array")
    rng = np.random.default_rng(5)
    lo_a, hi_a = (-128, 128) if a_signed else (0, 256)
    lo_w, hi_w = (-128, 128) if w_signed else (0, 256)
    w = rng.integers(lo_w, hi_w, (rows, cols))
    a = rng.integers(lo_a, hi_a, (64, rows))
    a[0], w[0] = lo_a, lo_w                             # extremes: |x - zp| up to 255
    a[1] = hi_a - 1
    res = rtl_runner.run(rtl, "nnaccel.sim.tb.cocotb_array",
                         {"rows": rows, "cols": cols, "w": w.tolist(), "a": a.tolist(), "a_zp": a_zp,
                          "w_zp": w_zp, "a_signed": a_signed, "w_signed": w_signed})
    assert res["out"] == array_model(a, w, a_zp, w_zp).tolist()
    assert res["latency"] == rows + cols - 1 + pipeline


def _drive(dut, settings: dict, schedule: dict, cycles: int):
    """Run ``dut`` (a :class:`SystolicArray`) for ``cycles`` cycles: the ports of ``settings``
    (``{port name: value}``) held throughout; ``schedule[cycle]``: ``"w": (row, buffer, line)``
    writes a weight row, ``"a": (buffer, line)`` streams an activation line (bytes as signed or
    unsigned ints). Returns ``(cycle, output line)`` for every valid output, ``cycle`` the one
    after which it showed."""
    got = []

    async def bench(ctx):
        for name, value in settings.items():
            ctx.set(getattr(dut, name), value)
        for cyc in range(cycles):
            s = schedule.get(cyc, {})
            ctx.set(dut.w_we, "w" in s)
            if "w" in s:
                r, sel, data = s["w"]
                ctx.set(dut.w_row, r)
                ctx.set(dut.w_sel, sel)
                ctx.set(dut.w_data, [int(x) & 0xFF for x in data])
            ctx.set(dut.a_valid, "a" in s)
            if "a" in s:
                sel, data = s["a"]
                ctx.set(dut.a_sel, sel)
                ctx.set(dut.a_data, [int(x) & 0xFF for x in data])
            if "skip" in s or "dw_skip" in dut.signature.members:
                ctx.set(dut.dw_skip, s.get("skip", 0))
            await ctx.tick()
            if ctx.get(dut.o_valid):
                got.append((cyc + 1, [ctx.get(dut.o_data[j]) for j in range(len(dut.o_data))]))

    sim = Simulator(dut)
    sim.add_clock(1e-6)
    sim.add_testbench(bench)
    sim.run()
    return got


def _drive_tiles(rows, cols, ws, tiles, a_zp, w_zp, a_signed, w_signed, b0=0, dsp=None, pipeline=0):
    """The GEMM engine's K-tile schedule: tile 0's weights in ``rows`` cycles, then tile t's
    vectors stream through buffer ``b0 ^ (t & 1)`` for ``max(n, rows)`` cycles while tile t+1's
    weights are loaded into the other buffer, starting in the same cycle as tile t's first vector."""
    dut = SystolicArray(rows, cols, dsp_cells=rows * cols // 2, dsp=dsp, pipeline=pipeline)
    n = len(tiles[0])
    T = max(n, rows)
    sched = {}
    for r in range(rows):
        sched.setdefault(r, {})["w"] = (r, b0, ws[0][r])
    for t, a in enumerate(tiles):
        base = rows + t * T
        for x in range(n):
            sched.setdefault(base + x, {})["a"] = (b0 ^ (t & 1), a[x])
        if t + 1 < len(tiles):
            for r in range(rows):
                sched.setdefault(base + r, {})["w"] = (r, b0 ^ ((t + 1) & 1), ws[t + 1][r])
    end = rows + len(tiles) * T + rows + cols + pipeline + 4
    settings = {"w_signed": w_signed, "w_zp": w_zp, "a_signed": a_signed, "a_zp": a_zp}
    return _drive(dut, settings, sched, end), T


@pytest.mark.parametrize("rows,cols,n,ntiles,b0,dsp,pipeline", [
    (4, 4, 7, 3, 0, None, 0), (4, 4, 4, 4, 1, "dual8", 0), (4, 2, 2, 3, 0, None, 0), (2, 4, 5, 2, 1, "dual8", 0),
    (8, 8, 8, 3, 0, "dual8", 0), (8, 8, 1, 3, 1, None, 0), (4, 4, 5, 3, 1, "signed9", 0),
    (8, 8, 8, 2, 0, "signed9", 0), (4, 4, 4, 4, 1, None, 1), (8, 8, 8, 3, 0, "signed9", 1), (4, 4, 5, 2, 0, "dual8", 1)])
def test_array_double_buffered_tiles(rows, cols, n, ntiles, b0, dsp, pipeline):
    """Tile t+1's weights load into the idle buffer while tile t streams (including ``n == rows``,
    where the next tile's first vector follows the last one of this tile in the next cycle):
    every result is the NumPy product of its own tile (with ``pipeline`` too: the product
    register holds the product of the weight a vector met)."""
    rng = np.random.default_rng(rows * 100 + n * 10 + ntiles)
    ws = [rng.integers(-128, 128, (rows, cols)) for _ in range(ntiles)]
    tiles = [rng.integers(0, 256, (n, rows)) for _ in range(ntiles)]
    got, T = _drive_tiles(rows, cols, ws, tiles, a_zp=17, w_zp=-5, a_signed=0, w_signed=1, b0=b0, dsp=dsp,
                          pipeline=pipeline)
    want = [row for w, a in zip(ws, tiles) for row in array_model(a, w, 17, -5).tolist()]
    assert [g for _, g in got] == want
    lat = rows + cols - 1 + pipeline
    assert [c for c, _ in got] == [rows + t * T + x + lat for t in range(ntiles) for x in range(n)]


def test_partial_sums_are_narrow_and_exact():
    """The array's partial sums are ceil(log2(rows * 255**2)) + 1 bits: the extreme sums still come
    out exact (sign-extended to 32 bits)."""
    import math

    from nnaccel.hw.pe import partial_sum_width
    for r in (2, 4, 8, 16, 32):
        assert partial_sum_width(r) == math.ceil(math.log2(r * 255 * 255)) + 1
    rows = cols = 8
    for av, wv, azp, wzp in [(-128, 127, 127, -128), (-128, -128, 127, 127), (255, 0, 0, 255)]:
        w = np.full((rows, cols), wv)
        a = np.full((2, rows), av)
        signed = int(av < 0 or wv < 0)
        want = array_model(a, w, azp, wzp)
        assert abs(int(want[0, 0])) == rows * 255 * 255
        for dsp, pipeline in ((None, 0), ("signed9", 0), ("signed9", 1)):
            # signed9: 20 signed cells, then LUT cells (row 2 mixed)
            _, got = _drive_array(rows, cols, w, a, azp, wzp, signed, signed, dsp_cells=20, dsp=dsp, pipeline=pipeline)
            assert [g for _, g in got] == want.tolist(), (dsp, pipeline)


def _yosys_ice40_cell_model(name: str, family: str = "ice40") -> str:
    """The Verilog of one iCE40 (or ``family``) cell from Yosys' own behavioural models
    (``ice40/cells_sim.v`` of the Yosys that synthesizes, the project's YoWASP one unless a native
    Yosys is preferred, so the check uses the model of the cell that gets placed)."""
    import re

    from nnaccel.boards.synth import yosys_share
    folder = yosys_share() / family

    def expand(text: str) -> str:              # the models' `include "x.vh"` files, inlined
        return re.sub(r'^`include "([^"]+)"\s*$', lambda m: expand((folder / m.group(1)).read_text()), text,
                      flags=re.MULTILINE)
    text = expand((folder / "cells_sim.v").read_text())
    start = text.index(f"module {name} (") if f"module {name} (" in text else text.index(f"module {name}(")
    # the file's header defines the macros its models use for their default port values
    head = text[:text.index("module ")]
    return head + text[start:text.index("endmodule", start) + len("endmodule")] + "\n"


def _mult18x18d_model() -> str:
    """A Verilog model of the ECP5 MULT18X18D as ``mult18x18d_registered`` sets it up (Yosys has
    only a black box): ``P`` = the 36-bit product of ``A`` and ``B`` (each signed when its
    ``SIGNEDA`` / ``SIGNEDB`` is set, as the Lattice sysDSP guide defines), through the output
    register on ``CLK0`` (``CE0`` enables, ``RST0`` clears synchronously); any other register
    setting stops the simulation."""
    ins = [f"{n}{k}" for n in "ABC" for k in range(18)] + ["SIGNEDA", "SIGNEDB", "SOURCEA", "SOURCEB"]
    ins += [f"{n}{k}" for n in ("CLK", "CE", "RST") for k in range(4)]
    outs = [f"P{k}" for k in range(36)]
    params = {"REG_INPUTA_CLK": "NONE", "REG_INPUTB_CLK": "NONE", "REG_INPUTC_CLK": "NONE",
              "REG_PIPELINE_CLK": "NONE", "REG_OUTPUT_CLK": "CLK0", "REG_OUTPUT_CE": "CE0",
              "REG_OUTPUT_RST": "RST0", "RESETMODE": "SYNC", "MULT_BYPASS": "DISABLED"}
    others = ("REG_INPUTA_CE", "REG_INPUTA_RST", "REG_INPUTB_CE", "REG_INPUTB_RST", "REG_INPUTC_CE", "REG_INPUTC_RST",
              "REG_PIPELINE_CE", "REG_PIPELINE_RST", "CLK0_DIV", "CLK1_DIV", "CLK2_DIV", "CLK3_DIV", "HIGHSPEED_CLK",
              "GSR", "CAS_MATCH_REG", "SOURCEB_MODE")

    def bus(n, w):
        return "{" + ", ".join(f"{n}{k}" for k in reversed(range(w))) + "}"
    check = " || ".join(f'{k} != "{v}"' for k, v in params.items())
    return "\n".join([
        f"module MULT18X18D({', '.join(ins + outs)});",
        *[f"  input {n};" for n in ins], *[f"  output {n};" for n in outs],
        *[f'  parameter {k} = "{v}";' for k, v in params.items()], *[f'  parameter {k} = "";' for k in others],
        f"  wire [17:0] a = {bus('A', 18)};", f"  wire [17:0] b = {bus('B', 18)};",
        "  wire signed [36:0] prod = $signed({SIGNEDA & a[17], a}) * $signed({SIGNEDB & b[17], b});",
        "  reg [35:0] r;",
        "  always @(posedge CLK0) if (RST0) r <= 36'd0; else if (CE0) r <= prod[35:0];",
        f"  assign {bus('P', 36)} = r;",
        f'  initial if ({check}) $fatal(1, "MULT18X18D: a register setting the model does not have");',
        "endmodule", ""])


def _yosys_check(tmp_path, cells, component, commands) -> str:
    """Runs Yosys on ``component`` (as module ``check``) with Yosys' behavioural models of the iCE40
    ``cells``: the usual preparation, then ``commands``; returns its output (it must succeed)."""
    import subprocess

    from amaranth.back import rtlil
    (tmp_path / "cells.v").write_text("".join(_yosys_ice40_cell_model(c) for c in cells))
    (tmp_path / "check.il").write_text(rtlil.convert(component, name="check"))
    script = ["read_verilog cells.v", "read_rtlil check.il", "hierarchy -top check", "proc", "flatten",
              *commands]
    (tmp_path / "t.ys").write_text("\n".join(script) + "\n")
    from nnaccel.boards.synth import yosys_command
    p = subprocess.run([*yosys_command(), "-s", "t.ys"], cwd=tmp_path, capture_output=True, text=True, timeout=600,
                       check=False)
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-2000:]
    return p.stdout


@pytest.mark.synth
def test_sb_mac16_dual8_against_yosys_model(tmp_path):
    """The hand-instantiated SB_MAC16 of :class:`Dual8x8` (its parameters: 8x8 mode, unsigned, no
    registers, each half's adder turning its product into the ones' complement when its sign is
    set) computes two independent 8 x 8 unsigned products, XORed with their signs: evaluated with
    Yosys' behavioural model of the cell on NumPy's random and extreme operands, and proven for
    every input with Yosys' SAT solver. (Verilator and the Amaranth simulator run the plain
    products; a wrong parameter would pass every other simulation and fail on the board.)"""
    import re

    from amaranth.hdl import Module, Signal
    from amaranth.lib import wiring
    from amaranth.lib.wiring import In, Out
    from nnaccel.hw.pe import Dual8x8

    class Check(wiring.Component):
        def __init__(self):
            super().__init__({"a0": In(8), "b0": In(8), "n0": In(1), "a1": In(8), "b1": In(8), "n1": In(1),
                              "p0": Out(16), "p1": Out(16), "ok": Out(1)})

        def elaborate(self, platform):
            m = Module()
            m.submodules.mac = mac = Dual8x8(instance=True)
            ref0, ref1 = Signal(16), Signal(16)
            m.d.comb += [mac.a0.eq(self.a0), mac.b0.eq(self.b0), mac.n0.eq(self.n0),
                         mac.a1.eq(self.a1), mac.b1.eq(self.b1), mac.n1.eq(self.n1),
                         self.p0.eq(mac.p0), self.p1.eq(mac.p1),
                         ref0.eq((self.a0 * self.b0) ^ self.n0.replicate(16)),
                         ref1.eq((self.a1 * self.b1) ^ self.n1.replicate(16)),
                         self.ok.eq((mac.p0 == ref0) & (mac.p1 == ref1))]
            return m

    rng = np.random.default_rng(8)
    ops = np.concatenate([rng.integers(0, 256, (200, 4)), rng.integers(0, 2, (200, 2))], axis=1).tolist()
    ops += [[255, 255, 255, 255, 1, 0], [0, 255, 255, 0, 1, 1], [255, 1, 1, 255, 0, 1], [128, 2, 3, 128, 0, 0],
            [0, 0, 0, 0, 1, 1]]
    commands = ["opt_clean"]
    for a0, b0, a1, b1, n0, n1 in ops:
        commands.append(f"eval -set a0 {a0} -set b0 {b0} -set n0 {n0} -set a1 {a1} -set b1 {b1} -set n1 {n1} "
                        "-show p0 -show p1")
    commands.append("sat -prove ok 1 -verify")
    out = _yosys_check(tmp_path, ["SB_MAC16"], Check(), commands)
    got = [int(v, 2) for v in re.findall(r"Eval result: \\p[01] = 16'([01]+)\.", out)]
    want = [x for a0, b0, a1, b1, n0, n1 in ops for x in ((a0 * b0) ^ (0xFFFF * n0), (a1 * b1) ^ (0xFFFF * n1))]
    assert got == want
    assert "SAT proof finished - no model found: SUCCESS!" in out


@pytest.mark.synth
def test_sb_mac16_top_half_accumulates_against_yosys_model(tmp_path):
    """:class:`Dual8x8` with ``acc1`` (the top half adds or subtracts its product to ``c1`` into the
    cell's output register, ``co1`` its carry out; the odd array columns, PE ``mul="ext_acc"``):
    the hand-instantiated SB_MAC16 (Yosys' behavioural model of the cell) and the plain logic that
    the Amaranth simulator runs give the same ``p0``, ``p1`` and ``co1`` in every cycle from reset
    on, for every input sequence (Yosys' SAT solver, temporal induction); the plain logic itself is
    checked against NumPy by the array tests (``dsp="dual8"``), and the whole array with the cell's
    model, weights held in its B register included, by ``test_array_verilator`` (``ice40_dual8``).
    (With ``hold_b`` the held weights are state the outputs do not show: induction over the outputs
    cannot close, and a bounded proof through two different multipliers is too slow for SAT.)"""
    from amaranth.hdl import Module
    from amaranth.lib import wiring
    from amaranth.lib.wiring import In, Out
    from nnaccel.hw.pe import Dual8x8

    class Check(wiring.Component):
        def __init__(self):
            super().__init__({"a0": In(8), "b0": In(8), "n0": In(1), "a1": In(8), "b1": In(8), "n1": In(1),
                              "c1": In(16), "ok": Out(1)})

        def elaborate(self, platform):
            m = Module()
            macs = []
            for name, inst in (("cell", True), ("plain", False)):
                m.submodules[name] = mac = Dual8x8(instance=inst, acc1=True)
                m.d.comb += [mac.a0.eq(self.a0), mac.b0.eq(self.b0), mac.n0.eq(self.n0), mac.a1.eq(self.a1),
                             mac.b1.eq(self.b1), mac.n1.eq(self.n1), mac.c1.eq(self.c1)]
                macs.append(mac)
            cell, plain = macs
            m.d.comb += self.ok.eq((cell.p0 == plain.p0) & (cell.p1 == plain.p1) & (cell.co1 == plain.co1))
            return m

    out = _yosys_check(tmp_path, ["SB_MAC16"], Check(), [
        "async2sync", "opt_clean", "sat -tempinduct -prove ok 1 -set rst 0 -set-init-zero -verify"])
    assert "Induction step proven: SUCCESS!" in out


@pytest.mark.synth
def test_add_or_pass_cells_against_yosys_model(tmp_path):
    """:func:`add_or_pass` with ``instance=True`` (what the iCE40 synthesis of the GEMM engine's
    accumulation builds: an SB_CARRY chain with one SB_LUT4 a bit) is ``a + b`` (mod 2**w) when
    ``en`` and ``a`` otherwise: evaluated with Yosys' behavioural models of the two cells on random
    and extreme operands against Python's integers, and proven for every input with Yosys' SAT
    solver against the plain-logic version the simulators run."""
    import re

    from amaranth.hdl import Module
    from amaranth.lib import wiring
    from amaranth.lib.wiring import In, Out
    from nnaccel.hw.pe import add_or_pass

    W = 12

    class Check(wiring.Component):
        def __init__(self):
            super().__init__({"a": In(W), "b": In(W), "en": In(1), "r": Out(W), "ok": Out(1)})

        def elaborate(self, platform):
            m = Module()
            cells = add_or_pass(m, self.a, self.b, self.en, True, "cells")
            plain = add_or_pass(m, self.a, self.b, self.en, False, "plain")
            m.d.comb += [self.r.eq(cells), self.ok.eq(cells == plain)]
            return m

    rng = np.random.default_rng(12)
    ops = [(int(a), int(b), int(e)) for a, b, e in zip(rng.integers(0, 1 << W, 60), rng.integers(0, 1 << W, 60),
                                                      rng.integers(0, 2, 60))]
    ops += [((1 << W) - 1, 1, 1), ((1 << W) - 1, (1 << W) - 1, 1), ((1 << W) - 1, (1 << W) - 1, 0), (0, 0, 1),
            (1 << (W - 1), 1 << (W - 1), 1), (5, (1 << W) - 5, 0)]
    commands = ["opt_clean", *(f"eval -set a {a} -set b {b} -set en {e} -show r" for a, b, e in ops),
                "sat -prove ok 1 -verify"]
    out = _yosys_check(tmp_path, ["SB_LUT4", "SB_CARRY"], Check(), commands)
    got = [int(v, 2) for v in re.findall(rf"Eval result: \\r = {W}'([01]+)\.", out)]
    assert got == [((a + b) % (1 << W)) if e else a for a, b, e in ops]
    assert "SAT proof finished - no model found: SUCCESS!" in out


@pytest.mark.parametrize("dsp,pipeline", [(None, 0), ("dual8", 0), (None, 1), ("dual8", 1)])
@pytest.mark.parametrize("n0, n1", [(5, 3), (1, 1), (2, 6)])
def test_array_one_weight_buffer_tiles(n0, n1, dsp, pipeline):
    """``buffers = 1`` (the ISA's ``weight_buffers = 1``): the next tile's weight rows are presented
    in the cycles right after the previous tile's last vector, and its vectors right after the
    last weight row, as tiny's GEMM engine schedules them; every vector meets its own tile's
    weights (expected: NumPy)."""
    rows, cols = 4, 4
    rng = np.random.default_rng(n0 * 10 + n1)
    ws = [rng.integers(-128, 128, (rows, cols)) for _ in range(2)]
    avs = [rng.integers(-128, 128, (n, rows)) for n in (n0, n1)]
    dut = SystolicArray(rows, cols, dsp_cells=rows * cols // 2, dsp=dsp, buffers=1, pipeline=pipeline)
    sched = {}                      # tile t's rows, then its vectors, then tile t + 1's
    for t in range(2):
        sched.update({len(sched) + i: {"w": (i, 0, ws[t][i])} for i in range(rows)})
        sched.update({len(sched) + k: {"a": (0, avs[t][k])} for k in range(len(avs[t]))})
    got = [line for _, line in _drive(dut, {"w_signed": 1, "a_signed": 1, "w_zp": 0, "a_zp": 0}, sched,
                                      len(sched) + rows + cols + pipeline + 2)]
    want = np.concatenate([array_model(avs[t], ws[t]) for t in range(2)])
    assert got == want.tolist()


@pytest.mark.parametrize("rows, fh, fw, nx, ny, line_buffers, dsp, dsp_cells, buffers, pipeline", [
    (4, 1, 3, 5, 3, 0, None, None, 2, 0),
    (4, 1, 4, 3, 2, 0, "dual8", None, 1, 0),      # the pairs that take their activations a cycle early
    (8, 2, 3, 5, 3, 1, None, None, 2, 0),
    (8, 2, 4, 1, 3, 1, "signed9", 27, 2, 0),      # signed cells, then LUT cells, in one column
    (8, 2, 4, 2, 3, 1, "signed9", 27, 2, 1),      # ... their products registered
    (16, 3, 3, 6, 4, 2, None, None, 2, 1),
    pytest.param(16, 3, 5, 2, 2, 2, "signed9", 100, 2, 0, marks=pytest.mark.slow),   # (a larger build)
])
def test_array_depthwise_mode(rows, fh, fw, nx, ny, line_buffers, dsp, dsp_cells, buffers, pipeline):
    """The depthwise mode against a direct loop: a window of ``(ny + fh - 1) x (nx + fw - 1)``
    lines streamed one a cycle, each with random ``dw_skip`` flags; the output of every position
    with a full window is, per column j, the sum over the taps whose array row the position's
    line does not flag of (byte j of the tap's line - za) * (weight row T - 1 - tap - zw), the
    weight rows from T on holding the zero point."""
    rng = np.random.default_rng(rows + fh * 7 + fw)
    taps, lw, lh = fh * fw, nx + fw - 1, ny + fh - 1
    lines = rng.integers(0, 256, (lh * lw, rows))
    w = rng.integers(0, 256, (rows, rows))
    za, zw = 100, 50
    w[taps:] = zw
    dut = SystolicArray(rows, rows, dsp=dsp, dsp_cells=dsp_cells, buffers=buffers, line_buffers=line_buffers,
                        pipeline=pipeline)
    settings = {"dw": 1, "dw_fw": fw, "a_zp": za, "w_zp": zw}
    if line_buffers:
        settings.update(dw_fh=fh, dw_nx=nx)
    # the weight rows, 2 * rows + 2 idle cycles, then the window's lines one a cycle
    first = 3 * rows + 2
    sched = {r: {"w": (r, 0, w[r])} for r in range(rows)}
    skips = rng.integers(0, 1 << rows, lh * lw) & rng.integers(0, 1 << rows, lh * lw)   # (a quarter of the rows)
    sched.update({first + s: {"a": (0, lines[s]), "skip": int(skips[s])} for s in range(lh * lw)})
    outs = [line for _, line in _drive(dut, settings, sched, first + lh * lw + dut.latency + 2)]
    assert len(outs) == lh * lw
    a = lines.reshape(lh, lw, rows) - za
    for k, o in enumerate(outs):
        r, x = divmod(k, lw)
        if r >= fh - 1 and x >= fw - 1:
            oy, ox = r - fh + 1, x - fw + 1
            row = [taps - 1 - (ky * fw + kx) for ky in range(fh) for kx in range(fw)]
            want = sum(a[oy + t // fw, ox + t % fw] * (w[i] - zw) for t, i in enumerate(row) if not skips[k] >> i & 1)
            assert o == list(want), (oy, ox)
