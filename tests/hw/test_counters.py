"""The performance counters on the RTL, against the ISA simulator.

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

import numpy as np
import pytest
from nnaccel.sim.isasim import IsaSim, find_conflicts
from support.counter_programs import counter_snapshot_program

from nnaccel.hwconfig import load_config
from nnaccel.isa import COUNTERS, N_COUNTERS, decode
from nnaccel.isa.cycles import instruction_cycles
from nnaccel.isa.table import STALL_COUNTERS

pytestmark = pytest.mark.rtl

TINY = load_config("tiny")
CONFIGS = {"tiny": TINY, "tiny-c8": TINY.replace(name="tiny-c8", counter_bits=8)}
SNAP = 0x3000                       # snapshot k at SNAP + 0x100 * k
NAMES = [c.name for c in COUNTERS]


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
