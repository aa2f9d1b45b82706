"""BankedScratchpad in the Amaranth simulator: bank routing of its logical ports and the collision
flag (a valid read of the line its bank writes in the same cycle: undefined on the FPGA, where
synthesis declares it so; hw/scratchpad.py, boards/synth.py)."""

from __future__ import annotations

import random

from amaranth.hdl import Elaboratable, Module
from amaranth.sim import Simulator
from nnaccel.hw.scratchpad import BankedScratchpad

DEPTH, WIDTH, BANKS = 16, 8, 2          # banks of lines 0-7 and 8-15


class _Dut(Elaboratable):
    def __init__(self):
        self.sp = BankedScratchpad(DEPTH, WIDTH, BANKS, name="t")
        self.w = [self.sp.write_port("a"), self.sp.write_port("b")]
        self.r = [self.sp.read_port("x"), self.sp.read_port("y")]

    def elaborate(self, platform):
        m = Module()
        m.submodules.sp = self.sp
        return m


def _run(steps):
    """``steps``: per cycle ``(writes, reads)`` with writes ``[(port, line, value)]`` and reads
    ``[(port, line, valid)]``. Returns per cycle the collision flag and the data each read saw."""
    dut = _Dut()
    seen = []

    async def bench(ctx):
        for writes, reads in steps:
            for p in dut.w:
                ctx.set(p.en, 0)
            for i, line, value in writes:
                ctx.set(dut.w[i].en, 1)
                ctx.set(dut.w[i].addr, line)
                ctx.set(dut.w[i].data, value)
            for i, line, valid in reads:
                ctx.set(dut.r[i].addr, line)
                ctx.set(dut.r[i].valid, valid)
            flag = ctx.get(dut.sp.collision)
            await ctx.tick()
            seen.append((flag, [ctx.get(dut.r[i].data) for i, _, _ in reads]))

    sim = Simulator(dut)
    sim.add_clock(1e-6)
    sim.add_testbench(bench)
    sim.run()
    return seen


def test_reads_and_writes_reach_their_banks():
    """Random writes of both ports into different banks, then every line read back by both
    readers: the contents equal a Python model."""
    rng = random.Random(1)
    model = {}
    steps = []
    for _ in range(40):
        a, b = rng.randrange(8), 8 + rng.randrange(8)
        va, vb = rng.randrange(256), rng.randrange(256)
        steps.append(([(0, a, va), (1, b, vb)], [(0, 0, 0), (1, 0, 0)]))   # readers idle
        model[a], model[b] = va, vb
    for line in sorted(model):
        steps.append(([], [(0, line, 1), (1, (line + 8) % 16, 1)]))
    seen = _run(steps)
    for (_, data), line in zip(seen[40:], sorted(model)):
        other = (line + 8) % 16
        assert data[0] == model[line]
        if other in model:
            assert data[1] == model[other]
    assert not any(flag for flag, _ in seen)


def test_collision_flag():
    """The flag rises only when a bank writes the line that a valid reader of that bank reads in
    the same cycle."""
    steps = [
        ([(0, 3, 0x11)], [(0, 3, 1)]),     # same line, valid reader: collision
        ([(0, 3, 0x22)], [(0, 3, 0)]),     # same line, reader not valid: none
        ([(0, 3, 0x33)], [(0, 4, 1)]),     # other line of the bank: none
        ([(1, 11, 0x44)], [(1, 11, 1)]),   # the other bank, the other ports: collision
        ([(0, 3, 0x55)], [(1, 11, 1)]),    # a write in one bank, a read in the other: none
        ([], [(0, 3, 1)]),                 # a read alone: none
    ]
    assert [flag for flag, _ in _run(steps)] == [1, 0, 0, 1, 0, 0]
