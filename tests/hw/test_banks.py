"""The in-order core's shared scratchpad buses and walks (branch banks, docs/rtl.md "banks
(session 8)"): ``BankedScratchpad(exclusive=True)`` against a list model (one write bus, one read
bus per lane, a held line kept), and GEMM / VEC programs whose walks and line counters share
registers, RTL == ISA simulator in bytes and every counter."""

from __future__ import annotations

import numpy as np
import pytest
from amaranth.sim import Simulator
from nnaccel.hw.scratchpad import BankedScratchpad
from nnaccel.sim.isasim import IsaSim, find_conflicts

from nnaccel.hwconfig import load_config
from nnaccel.program import ProgramBuilder

DEPTH, WIDTH = 32, 8


def _exclusive(banks):
    dut = BankedScratchpad(DEPTH, WIDTH, banks, name="x", exclusive=True)
    ws = [dut.write_port(f"w{i}") for i in range(3)]
    lane0 = [dut.read_port(f"a{i}") for i in range(3)]
    lane1 = [dut.read_port("b", lane=1)]
    return dut, ws, lane0, lane1


@pytest.mark.parametrize("banks", [1, 2, 4])
def test_exclusive_ports_against_a_model(banks):
    """Each cycle at most one writer has ``en`` (one instruction at a time), at most one reader of
    each lane is valid and the two lanes' valid readers use different banks; idle readers point
    anywhere. Every valid reader gets its line one cycle later (read-before-write), every write
    lands, and ``collision`` is 1 exactly in the cycles in which the written line is a valid
    reader's line (decided here from the addresses)."""
    dut, ws, lane0, lane1 = _exclusive(banks)
    bl = DEPTH // banks
    rng = np.random.default_rng(banks)
    model = [0] * DEPTH
    checked = [0, 0]

    async def bench(ctx):
        for _ in range(500):
            writer = int(rng.integers(-1, len(ws)))          # -1: nobody writes
            write = None
            for i, p in enumerate(ws):
                a, d = int(rng.integers(DEPTH)), int(rng.integers(256))
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
                        a = int(rng.integers(DEPTH))
                    ctx.set(p.valid, valid)
                    ctx.set(p.addr, a)
            if write is not None and rng.random() < 0.3 and lines:
                ctx.set(ws[writer].addr, lines[0])           # now and then: the line being read
                write = (lines[0], write[1])
            collide = write is not None and write[0] in lines
            assert ctx.get(dut.collision) == collide
            checked[1] += collide
            await ctx.tick()
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


def _walks_program(cfg, rng):
    """GEMMs and VECs back to back with 2-D strided walks (each kind's x / y / row registers are
    the other's on the in-order core), K tiles (the ACC walk wraps), loads in between."""
    R, C = cfg.rows, cfg.cols
    b2 = cfg.bank_lines("ACT")
    p = ProgramBuilder(cfg)
    p.load_lines("ACT", 0, 0x0, 96, C, C)
    p.load_lines("ACT", b2, 0x1000, 64, C, C)
    p.load_lines("WGT", 0, 0x2000, 4 * R, C, C)
    p.load_lines("ACC", 0, 0x3000, 64, 4 * C, C, push_next=1)
    p.gemm(2, 1, 3, 2, wgt=0, preload=True, kt=1, accumulate=True, za=3, zw=250, act_signed=True,
           act_xs=2, act_ys=7, acc_xs=2, acc_ys=9, pop_prev=1)
    p.vec("MAX", 40, 1, 3, 2, src2=b2 + 5, dst_xs=3, dst_ys=11, src_xs=2, src_ys=9)
    p.vec("SUMW", 30, 3, 2, 3, accumulate=True, dst_xs=1, dst_ys=5, src_xs=3, src_ys=13)
    p.gemm(50, 20, 4, 1, wgt=R, preload=True, kt=2, act_xs=1, act_ys=5, acc_xs=3, acc_ys=1)
    p.gemm(1, 44, 1, 3, kt=0, accumulate=True, act_xs=0, act_ys=4, acc_xs=1, acc_ys=2)
    p.vec("SUMW", 56, b2 + 7, 3, 2, dst_xs=2, dst_ys=1, src_xs=5, src_ys=1)
    p.vec("MAX", b2 + 30, 60, 2, 2, src2=b2 + 40, dst_xs=1, dst_ys=2, src_xs=4, src_ys=3, push_next=1)
    p.store_lines("ACC", 0, 0x8000, 64, 4 * C, C, pop_prev=1)
    p.store_lines("ACT", 0, 0x9000, 96, C, C)
    p.store_lines("ACT", b2, 0xA000, 64, C, C)
    p.finish()
    image = {0x0: rng.integers(0, 256, (96, C)).astype(np.uint8),
             0x1000: rng.integers(0, 256, (64, C)).astype(np.uint8),
             0x2000: rng.integers(0, 256, (4 * R, C)).astype(np.uint8),
             0x3000: rng.integers(-2**31, 2**31, (64, C)).astype(np.int32)}
    read = [(0x8000, 64 * 4 * C), (0x9000, 96 * C), (0xA000, 64 * C)]
    return p.words, image, read


@pytest.mark.rtl
@pytest.mark.parametrize("config", ["tiny", "tiny-serial-lanes2", "tiny-mul1"])
def test_shared_walks_match_isa_sim(config):
    """The in-order core's GEMM and VEC share their walks (the GEMM's activation walk is the
    VEC's destination walk, its ACC walk the VEC's source walk) and line counters: strided 2-D
    GEMMs (K tiles, accumulate) and VECs (ACT and ACC sources and destinations, two ACT banks)
    alternate; ACC and ACT bytes and every counter equal the ISA simulator's, and the program
    changed them."""
    from nnaccel.sim.rtl_runner import run_words_rtl
    over = {"tiny": {}, "tiny-serial-lanes2": {"vector_mul_steps": 32, "vector_lanes": 2},
            "tiny-mul1": {"vector_mul_steps": 1}}[config]
    cfg = load_config("tiny").replace(name=config, **over)
    assert cfg.in_order
    words, image, read = _walks_program(cfg, np.random.default_rng(7))
    assert not find_conflicts(words, cfg)
    sim = IsaSim(cfg, mem_size=0xB000)
    for a, d in image.items():
        sim.write(a, d)
    res = sim.run(words)
    want = [sim.mem[a:a + n].tobytes() for a, n in read]
    assert want[0] != image[0x3000].tobytes()
    rtl = run_words_rtl(cfg, words, image, read=read)
    assert rtl.fault == "OK"
    assert list(rtl.regions) == want
    assert rtl.counters == res.counters
