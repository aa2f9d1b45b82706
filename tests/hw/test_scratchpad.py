"""BankedScratchpad in the Amaranth simulator: bank routing of its logical ports and the collision
flag (a valid read of the line its bank writes in the same cycle: undefined on the FPGA, where
synthesis declares it so; hw/scratchpad.py, boards/synth.py); the in-order core's exclusive
scratchpad (``exclusive=True``: one write bus, one read bus per lane, a held line kept) against a
list model."""

from __future__ import annotations

import random

import numpy as np
import pytest
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
            await ctx.tick()
            flag = ctx.get(dut.sp.collision)        # (registered: the cycle's flag after its edge)
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
    """The flag rises (in the next cycle) only when a bank writes the line that a valid reader of
    that bank reads in the same cycle."""
    steps = [
        ([(0, 3, 0x11)], [(0, 3, 1)]),     # same line, valid reader: collision
        ([(0, 3, 0x22)], [(0, 3, 0)]),     # same line, reader not valid: none
        ([(0, 3, 0x33)], [(0, 4, 1)]),     # other line of the bank: none
        ([(1, 11, 0x44)], [(1, 11, 1)]),   # the other bank, the other ports: collision
        ([(0, 3, 0x55)], [(1, 11, 1)]),    # a write in one bank, a read in the other: none
        ([], [(0, 3, 1)]),                 # a read alone: none
    ]
    assert [flag for flag, _ in _run(steps)] == [1, 0, 0, 1, 0, 0]


XDEPTH, XWIDTH = 32, 8                   # the exclusive (in-order) scratchpad below


def _exclusive(banks):
    dut = BankedScratchpad(XDEPTH, XWIDTH, banks, name="x", exclusive=True)
    ws = [dut.write_port(f"w{i}") for i in range(3)]
    lane0 = [dut.read_port(f"a{i}") for i in range(3)]
    lane1 = [dut.read_port("b", lane=1)]
    return dut, ws, lane0, lane1


@pytest.mark.parametrize("banks", [1, 2, 4])
def test_exclusive_ports_against_a_model(banks):
    """Each cycle at most one writer has ``en`` (one instruction at a time), at most one reader of
    each lane is valid and the two lanes' valid readers use different banks; idle readers point
    anywhere. Every valid reader gets its line one cycle later (read-before-write), every write
    lands, and ``collision`` is 1 exactly in the cycles after those in which the written line is a
    valid reader's line (decided here from the addresses)."""
    dut, ws, lane0, lane1 = _exclusive(banks)
    bl = XDEPTH // banks
    rng = np.random.default_rng(banks)
    model = [0] * XDEPTH
    checked = [0, 0]

    async def bench(ctx):
        for _ in range(500):
            writer = int(rng.integers(-1, len(ws)))          # -1: nobody writes
            write = None
            for i, p in enumerate(ws):
                a, d = int(rng.integers(XDEPTH)), int(rng.integers(256))
                ctx.set(p.en, i == writer)
                ctx.set(p.addr, a)
                ctx.set(p.data, d)
                if i == writer:
                    write = (a, d)
            rb = rng.permutation(banks)
            expect, lines = [], []
            for lane, ports in enumerate((lane0, lane1)):
                who = int(rng.integers(-1, len(ports)))
                for i, p in enumerate(ports):
                    valid = i == who and (lane == 0 or banks > 1)
                    if valid:
                        a = int(rb[lane % banks] * bl + rng.integers(bl))
                        expect.append((p, model[a]))
                        lines.append(a)
                    else:
                        a = int(rng.integers(XDEPTH))
                    ctx.set(p.valid, valid)
                    ctx.set(p.addr, a)
            if write is not None and rng.random() < 0.3 and lines:
                ctx.set(ws[writer].addr, lines[0])           # now and then: the line being read
                write = (lines[0], write[1])
            collide = write is not None and write[0] in lines
            checked[1] += collide
            await ctx.tick()
            assert ctx.get(dut.collision) == collide        # (registered: after the cycle's edge)
            for p, v in expect:
                assert ctx.get(p.data) == v
                checked[0] += 1
            if write is not None:
                model[write[0]] = write[1]

    sim = Simulator(dut)
    sim.add_clock(1e-6)
    sim.add_testbench(bench)
    sim.run()
    assert checked[0] > 300 and checked[1] > 10


def test_exclusive_lane_keeps_a_held_line():
    """A lane-0 reader reads a line of bank 0 and then holds it (``read_hold``): while it holds,
    other lane-0 readers point into bank 1 (not valid), lane 1 reads bank 1 and the held line is
    overwritten; the holding reader still sees the line it read (its lane keeps the bank it read)."""
    dut, ws, lane0, lane1 = _exclusive(2)
    hold = dut.read_hold(lane0[1])
    held_line, other = 5, 16 + 3

    async def bench(ctx):
        for p in ws:
            ctx.set(p.en, 0)
        for p in lane0 + lane1:
            ctx.set(p.valid, 0)                 # (a reader's valid is 1 unless driven)
        ctx.set(ws[0].en, 1)
        for a, d in ((held_line, 0x5A), (other, 0xC3)):
            ctx.set(ws[0].addr, a)
            ctx.set(ws[0].data, d)
            await ctx.tick()
        ctx.set(ws[0].en, 0)
        ctx.set(lane0[1].addr, held_line)
        ctx.set(lane0[1].valid, 1)
        await ctx.tick()
        assert ctx.get(lane0[1].data) == 0x5A
        ctx.set(lane0[1].valid, 0)
        ctx.set(hold, 1)
        ctx.set(lane0[0].addr, other)
        ctx.set(lane0[2].addr, other)
        ctx.set(lane1[0].addr, other)
        ctx.set(lane1[0].valid, 1)
        ctx.set(ws[1].en, 1)
        ctx.set(ws[1].addr, held_line)
        ctx.set(ws[1].data, 0x11)
        for _ in range(4):
            await ctx.tick()
            assert ctx.get(lane0[1].data) == 0x5A
            assert ctx.get(lane1[0].data) == 0xC3
        ctx.set(ws[1].en, 0)
        ctx.set(hold, 0)
        ctx.set(lane1[0].valid, 0)
        ctx.set(lane0[1].valid, 1)
        await ctx.tick()
        assert ctx.get(lane0[1].data) == 0x11

    sim = Simulator(dut)
    sim.add_clock(1e-6)
    sim.add_testbench(bench)
    sim.run()
