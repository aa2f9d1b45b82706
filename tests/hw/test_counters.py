"""The performance counters: the block alone against its software model, and on the RTL against
the ISA simulator.

:class:`~nnaccel.hw.counters.PerfCounters` in the Amaranth simulator against
:func:`~nnaccel.hw.counters.counter_model`: random increments (within each input's bound, some in
units of a power of two) on an in-order and a queued configuration, one with one counter group and
one with a ring in block RAM, and 8-bit counters that wrap; runs that stop and clear; every
cycle's phase, every value shown and the collision flag.

The in-order core (tiny) counts the events as they pass (a busy cycle, a streamed line, a line's
bytes) and RDPERF's own at its completion: RDPERF in the middle of a program, right after a LOAD
(padding, a partial line, multi-beat int32 lines), a GEMM, a VEC, a STORE, another RDPERF and NOPs
carrying tokens; every snapshot's bytes and the final counters must equal the ISA simulator's, and
a few facts of the snapshots are also checked by hand (instructions completed, the MACs of the
GEMM, RDPERF's own cycles and bytes, no stalls in order).

Counters of ``counter_bits`` < 64: an 8-bit-counter copy of tiny runs a program whose counters wrap
several times (RDPERF in the middle and at the end); the RDPERF bytes and every counter equal the
ISA simulator's, which equal the 64-bit machine's reduced modulo 2 ** 8; the run's length
(``RtlResult.cycles``) and MACs do not wrap."""

import random

import numpy as np
import pytest
from amaranth.sim import Simulator
from nnaccel.hw.counters import CounterInput, PerfCounters, counter_model
from nnaccel.sim.isasim import IsaSim, find_conflicts
from support.counter_programs import counter_snapshot_program

from nnaccel.hwconfig import load_config
from nnaccel.isa import COUNTERS, N_COUNTERS, decode
from nnaccel.isa.cycles import instruction_cycles
from nnaccel.isa.table import STALL_COUNTERS

TINY = load_config("tiny")
CONFIGS = {"tiny": TINY, "tiny-c8": TINY.replace(name="tiny-c8", counter_bits=8)}
SNAP = 0x3000                       # snapshot k at SNAP + 0x100 * k
NAMES = [c.name for c in COUNTERS]


# in-order tiny (counters of 4 bytes a beat: k = 1, a ring of N_COUNTERS groups in block RAM),
# the same queued, and a queued one of 16-byte beats (k = 2) with 8-bit counters
BLOCK_CONFIGS = {
    "tiny": TINY,
    "tiny-queued": TINY.replace(name="tiny-queued", in_order=False),
    "small-c8": load_config("small").replace(name="small-c8", counter_bits=8),
}


def _block_inputs(cfg):
    """An increment port for most counters (the last two have none and stay 0): 1 to 6 bits, the
    macs in units of 16, each bounded by its widest increment on every cycle of a window."""
    from nnaccel.hw.bounds import CNT
    from nnaccel.hw.extmem import counters_per_beat
    n_beats = -(-N_COUNTERS // counters_per_beat(cfg))
    inputs = {}
    for i, name in enumerate(list(CNT)[:-2]):
        width = 1 + i % 6
        inputs[name] = CounterInput(width, n_beats * ((1 << width) - 1), 16 if name == "macs" else 1)
    return inputs


@pytest.mark.parametrize("name", list(BLOCK_CONFIGS))
def test_counter_block_against_model(name):
    cfg = BLOCK_CONFIGS[name]
    inputs = _block_inputs(cfg)
    dut = PerfCounters(cfg, inputs)
    rng = random.Random(name)
    ports, cycles = [], []          # per cycle: the ports' values (in units) and the model's cycle
    for t in range(700):
        clear = t in (0, 301, 302, 520)                 # a run starts (twice in a row once)
        run = not clear and not 440 <= t < 460          # stopped for a while
        top = t % 7 == 0                                # every increment at its largest
        inc = {n: (1 << s.width) - 1 if top else rng.randrange(1 << s.width) for n, s in inputs.items()}
        ports.append(inc)
        cycles.append((run, clear, {n: v * inputs[n].unit for n, v in inc.items()}))
    want = counter_model(cfg, cycles)
    k = dut.k
    assert any(v != 0 for _, vals in want for v in vals.values())
    if cfg.counter_bits == 8:   # the values wrap
        assert sum(inc["macs"] for run, _, inc in cycles[:301] if run) >= 1 << cfg.counter_bits
    else:                       # ... or not: the model's values then reach beyond 8 bits
        assert max(v for _, vals in want for v in vals.values()) >= 1 << 8

    async def bench(ctx):
        seen = set()
        for (run, clear, _), inc, (phase, values) in zip(cycles, ports, want):
            ctx.set(dut.run, run)
            ctx.set(dut.clear, clear)
            for n, v in inc.items():
                ctx.set(getattr(dut, f"inc_{n}"), v)
            assert ctx.get(dut.read.phase) == phase
            data = ctx.get(dut.read.data)
            for j in range(k):
                cid = k * phase + j
                if cid < N_COUNTERS:
                    got = data >> (cfg.counter_bits * j) & ((1 << cfg.counter_bits) - 1)
                    assert got == values[cid], (NAMES[cid], phase)
                    seen.add(cid)
            assert not ctx.get(dut.collision)
            await ctx.tick()
        assert seen == set(range(N_COUNTERS))

    sim = Simulator(dut)
    sim.add_clock(1e-6)
    sim.add_testbench(bench)
    sim.run()


def _rdperf_program(cfg):
    """The program and, per snapshot, the index of its RDPERF."""
    from nnaccel.program import ProgramBuilder
    p = ProgramBuilder(cfg)
    C = cfg.cols
    snaps = []

    def rdperf(**flags):
        snaps.append(p.rdperf(SNAP + 0x100 * len(snaps), **flags))

    # LOADs: ACT with padding and a partial line, WGT, ACC int32 lines of several beats
    p.load("ACT", 0, 0x0, C - 1, x_size=4, y_size=3, x_stride=C, y_stride=4 * C, pad=(1, 0, 1, 0), fill=-3)
    rdperf()
    p.load("ACT", 16, 0x40, C, x_size=12, x_stride=C)           # both K tiles' lines
    p.load("ACT", cfg.bank_lines("ACT"), 0x80, C, x_size=3, x_stride=C)   # MAX's src2: the other bank
    p.load("WGT", 0, 0x100, C, x_size=2 * cfg.rows, x_stride=C)
    p.load("ACC", 0, 0x200, C - 1, x_size=3, x_stride=4 * C, push_next=1)
    rdperf()
    # a GEMM of two K tiles over a 3 x 2 walk, accumulating onto the loaded ACC lines
    p.gemm(16, 0, 3, 2, preload=True, accumulate=True, act_ys=3, acc_ys=3, kt=1, pop_prev=1, push_next=1)
    rdperf()
    p.vec("MAX", 32, 16, 3, src2=cfg.bank_lines("ACT"), pop_prev=1, push_next=1)
    rdperf()
    p.store("ACC", 0, 0x800, C, x_size=6, x_stride=4 * C, pop_prev=1)
    p.store("ACT", 32, 0x900, C - 1, x_size=3, x_stride=C)
    rdperf()
    rdperf()                                        # RDPERF right after RDPERF
    p.nop("load", push_next=1)
    p.nop("compute", pop_prev=1, push_next=1)
    p.nop("vector", pop_prev=1, push_next=1)
    p.nop("store", pop_prev=1)
    rdperf()
    p.finish()
    return p.words, snaps


@pytest.mark.rtl
@pytest.mark.parametrize("name", list(CONFIGS))
def test_rdperf_mid_program_in_order(name):
    from nnaccel.sim.rtl_runner import run_words_rtl
    cfg = CONFIGS[name]
    assert cfg.in_order
    words, snaps = _rdperf_program(cfg)
    assert not find_conflicts(words, cfg)
    rng = np.random.default_rng(8)
    image = {0: rng.integers(0, 256, 0x400, dtype=np.uint8)}
    sim = IsaSim(cfg, mem_size=1 << 16)
    sim.write(0, image[0])
    res = sim.run(words)
    read = [(SNAP + 0x100 * k, 8 * N_COUNTERS) for k in range(len(snaps))] + [(0x800, 0x200)]
    want = [sim.mem[a:a + n].tobytes() for a, n in read]
    rtl = run_words_rtl(cfg, words, image, read=read, max_cycles=200_000)
    assert rtl.fault == "OK"
    assert rtl.regions == want                        # every snapshot and the stored lines
    assert rtl.counters == res.counters

    # what the ISA says, by hand (modulo 2 ** counter_bits)
    mask = (1 << cfg.counter_bits) - 1
    vals = [dict(zip(NAMES, np.frombuffer(w, "<u8").tolist())) for w in want[:len(snaps)]]
    for k, (pc, v) in enumerate(zip(snaps, vals)):
        assert v["instructions"] == pc & mask         # every instruction before it, none after
        assert all(v[s] == 0 for s in STALL_COUNTERS)  # no stalls in order
    g = decode(words[snaps[1] + 1])                    # the GEMM between snapshots 1 and 2
    assert g.name == "GEMM"
    assert (vals[2]["macs"] - vals[1]["macs"]) & mask == (g.kt + 1) * g.nx * g.ny * cfg.rows * cfg.cols & mask
    # snapshots 4 and 5 are consecutive RDPERFs: the first one's own cycles and bytes, and nothing
    # of the second (it samples only completed instructions)
    rd = instruction_cycles(decode(words[snaps[4]]), cfg)
    assert (vals[5]["store_busy"] - vals[4]["store_busy"]) & mask == rd & mask
    assert (vals[5]["dma_store_bytes"] - vals[4]["dma_store_bytes"]) & mask == 8 * N_COUNTERS & mask
    assert (vals[5]["dma_latency"] - vals[4]["dma_latency"]) & mask == cfg.ext_latency & mask
    assert all(vals[5][c] == vals[4][c] for c in ("array_busy", "vector_busy", "load_busy", "macs",
                                                  "dma_load_bytes"))


SNAPS = (0x6000, 0x7000)
WIDE = load_config("tiny").replace(name="tiny-c64", counter_bits=64)
NARROW = WIDE.replace(name="tiny-c8", counter_bits=8)


def _wrap_program(cfg):
    return counter_snapshot_program(cfg, SNAPS, 3, 1)


@pytest.mark.rtl
def test_counters_wrap_like_isa_sim():
    from nnaccel.sim.rtl_runner import run_words_rtl
    image = {0: np.arange(32 * NARROW.rows, dtype=np.uint8)}
    res = {}
    for cfg in (WIDE, NARROW):
        sim = IsaSim(cfg, mem_size=1 << 16)
        sim.write(0, image[0])
        r = sim.run(_wrap_program(cfg))
        res[cfg.counter_bits] = (r, [sim.mem[a:a + 8 * N_COUNTERS].tobytes() for a in SNAPS])
    (rw, sw), (rn, sn) = res[64], res[8]
    assert rw.counters["macs"] > 256 and rw.counters["cycles"] > 256         # it does wrap
    assert rn.counters == {k: v % 256 for k, v in rw.counters.items()}
    for a, b in zip(sw, sn):
        assert (np.frombuffer(b, "<u8") == np.frombuffer(a, "<u8") % 256).all()
    rtl = run_words_rtl(NARROW, _wrap_program(NARROW), image, read=[(a, 8 * N_COUNTERS) for a in SNAPS],
                        max_cycles=100_000)
    assert rtl.fault == "OK"
    assert rtl.regions == sn
    assert rtl.counters == rn.counters
    # the run's length does not wrap (the simulation top level counts it in 64 bits): the ISA
    # simulator's total_cycles, which the wide machine's cycles counter reads; the cycles counter
    # is it modulo 2 ** 8; the MACs likewise
    assert rtl.cycles == rn.schedule.total_cycles == rw.counters["cycles"] > 256
    assert rtl.counters["cycles"] == rtl.cycles % 256 != rtl.cycles
    assert rtl.macs == rw.counters["macs"] and rtl.counters["macs"] == rtl.macs % 256
