"""RTL == ISA simulator with one DMA engine for the load and store queues (``dma_engines = 1``,
tiny's): programs in which a LOAD / STORE / RDPERF waits for the busy DMA, both heads can start in
the same cycle (either priority), and a compiled layer whose DMA instructions would overlap on two
engines; the same layer with two engines on tiny (the separate engines' path)."""

import numpy as np
import pytest
from nnaccel.hw import sequencer
from nnaccel.sim import isasim
from nnaccel.sim.isasim import IsaSim, decode_program, find_conflicts, schedule
from support.one_op import filter_consts, isa_and_rtl, one_op_model, segment_words

from nnaccel.hwconfig import load_config
from nnaccel.isa import N_COUNTERS
from nnaccel.program import ProgramBuilder

TINY = load_config("tiny").replace(in_order=False)  # the queue model with one DMA engine
TWO = TINY.replace(name="tiny-dma2", dma_engines=2)
DATA = np.arange(256, dtype=np.uint8)


def _out_of_order(p):
    p.load("ACT", 0, 0, 4, x_size=4, x_stride=4, pop_next=1)    # waits for the compute token ...
    p.store("ACT", 64, 0x1000, 4)                               # ... the STORE fetched later runs first
    p.nop("compute", push_prev=1)


def _tie(p):
    p.load("ACT", 0, 0, 4, x_size=40, x_stride=4, push_next=1)
    p.gemm(TINY.bank_lines("ACT"), 0, 4, preload=True, pop_prev=1, push_next=1)   # the other ACT bank
    p.nop("vector", pop_prev=1, push_next=1)
    p.store("ACT", 0, 0x1000, 4, x_size=3, x_stride=4)          # able while the long LOAD runs
    p.load("ACT", 128, 0x40, 4, x_size=2, x_stride=4)           # able too: both when it ends
    p.store("ACT", 128, 0x1100, 4, x_size=2, x_stride=4, pop_prev=1)


def _rdperf(p):
    p.load("ACT", 0, 0, 4, x_size=22, x_stride=4)
    p.load("ACT", 128, 0x40, 4, x_size=3, x_stride=4)
    p.rdperf(0x2000)                                            # ties with the second LOAD
    p.store("ACT", 128, 0x1100, 4, x_size=3, x_stride=4)
    p.rdperf(0x2100)


PROGRAMS = {"out_of_order": _out_of_order, "tie": _tie, "rdperf": _rdperf}
READ = [(0x1000, 16), (0x1100, 16), (0x2000, 8 * N_COUNTERS), (0x2100, 8 * N_COUNTERS)]


def _check(cfg, words, image, read):
    from nnaccel.sim.rtl_runner import run_words_rtl
    assert not find_conflicts(words, cfg)      # the bank rules hold
    sim = IsaSim(cfg)
    for addr, data in image.items():
        sim.write(addr, data)
    res = sim.run(words)
    rtl = run_words_rtl(cfg, words, image, read=read, max_cycles=1_000_000)
    assert rtl.fault == "OK"
    for (addr, n), got in zip(read, rtl.regions):
        assert got == sim.mem[addr:addr + n].tobytes()
    assert rtl.counters == res.counters
    return res


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_shared_dma_matches_isa_sim(name):
    p = ProgramBuilder(TINY)
    PROGRAMS[name](p)
    p.finish()
    assert TINY.dma_engines == 1
    res = _check(TINY, p.words, {0: DATA}, READ)
    # the shared DMA made a difference: the schedule with two engines differs
    two = schedule(decode_program(p.words, TWO), TWO)
    assert (two.start != res.schedule.start).any()


@pytest.mark.slow
@pytest.mark.ci_slow
@pytest.mark.parametrize("name", ["tie", "rdperf"])
def test_other_priority_matches_isa_sim(monkeypatch, name):
    """The other fixed priority (a build of its own: the configuration's name keys the build)."""
    other = "store" if sequencer.DMA_PRIORITY == "load" else "load"
    monkeypatch.setattr(sequencer, "DMA_PRIORITY", other)     # (the queued machine reads it there)
    monkeypatch.setattr(isasim, "DMA_PRIORITY", other)
    cfg = TINY.replace(name=f"tiny-dma1-{other}-first")
    p = ProgramBuilder(cfg)
    PROGRAMS[name](p)
    p.finish()
    res = _check(cfg, p.words, {0: DATA}, READ)
    monkeypatch.setattr(isasim, "DMA_PRIORITY", "load" if other == "store" else "store")
    assert (schedule(decode_program(p.words, cfg), cfg).start != res.schedule.start).any()


def _conv():
    rng = np.random.default_rng(3)
    x = rng.integers(-128, 128, (1, 8, 8, 8)).astype(np.int8)
    w = rng.integers(-128, 128, (8, 3, 3, 8)).astype(np.int8)
    xq = (0.1, -1)
    return one_op_model("CONV_2D", [x], [xq], (1, 8, 8, 8), (1.5, 2), np.int8,
                        filter_consts(np.int8, w, (0.05, 0), np.zeros(8, np.int32), xq), [1, 1, 1, 1]), [x]


@pytest.mark.parametrize("cfg", [TINY, TWO], ids=["one_dma", "two_dma"])
def test_layer_with_dma_contention(cfg):
    from nnaccel.compiler import compile_model
    model, inputs = _conv()
    words = segment_words(compile_model(model, cfg))
    one = schedule(decode_program(words, TINY), TINY)
    two = schedule(decode_program(words, TWO), TWO)
    assert (one.start != two.start).any()
    isa_and_rtl(model, cfg, inputs)
