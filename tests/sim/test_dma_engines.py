"""One DMA engine for the load and store queues (``dma_engines = 1``): the queue model's rule (at
most one LOAD / STORE / RDPERF runs at a time; the DMA starts a head in the first cycle in which it
is idle and that head can start; ``DMA_PRIORITY`` decides a tie), checked on hand-computed
programs and, as a rule, on every schedule of compiled one-operation models."""

import itertools

import numpy as np
import pytest
from nnaccel.sim import isasim
from nnaccel.sim.isasim import IsaSim, decode_program, schedule
from support.one_op import filter_consts, one_op_model, segment_words

from nnaccel.hwconfig import ConfigError, load_config
from nnaccel.isa import AcceleratorFault
from nnaccel.isa.table import DMA_PRIORITY, DMA_QUEUES, FETCH_CYCLES, FLAG_CHANNEL
from nnaccel.program import ProgramBuilder

TINY = load_config("tiny").replace(in_order=False)  # the queue model with one DMA engine
ONE = TINY.replace(name="tiny-dma1", dma_engines=1)
TWO = TINY.replace(name="tiny-dma2", dma_engines=2)
LAT = TINY.ext_latency
FL, FS, FN = FETCH_CYCLES["LOAD"], FETCH_CYCLES["STORE"], FETCH_CYCLES["NOP"]


def box(lines):
    """Cycles of a LOAD / STORE of ``lines`` ACT lines of 4 bytes (one DMA beat a line on tiny)."""
    assert TINY.dma_bytes_per_cycle == 4 and TINY.cols == 4
    return LAT + lines


def sched(cfg, words):
    return schedule(decode_program(words, cfg), cfg)


def out_of_order():
    """LOAD waits for a compute token, the STORE fetched after it can start first."""
    p = ProgramBuilder(TINY)
    p.load("ACT", 0, 0, 4, x_size=4, x_stride=4, pop_next=1)       # 0
    p.store("ACT", 64, 0x1000, 4)                                  # 1
    p.nop("compute", push_prev=1)                                  # 2
    p.finish()                                                     # 3
    return p.words


def tie():
    """A long LOAD; the STORE and the next LOAD both wait for the DMA and can start when it ends."""
    p = ProgramBuilder(TINY)
    p.load("ACT", 0, 0, 4, x_size=22, x_stride=4)                  # 0
    p.store("ACT", 64, 0x1000, 4)                                  # 1
    p.load("ACT", 128, 0x400, 4)                                   # 2
    p.finish()                                                     # 3
    return p.words


def test_config_field():
    assert TINY.dma_engines == 1
    assert all(load_config(n).dma_engines == 2 for n in ("small", "base", "large"))
    with pytest.raises(ConfigError, match="dma_engines"):
        TINY.replace(dma_engines=3)
    with pytest.raises(ConfigError, match="ext_latency"):
        TINY.replace(ext_latency=0)
    assert TINY.replace(ext_latency=0, dma_engines=2).ext_latency == 0


def test_shared_dma_starts_the_head_that_can_start():
    words = out_of_order()
    f0 = FL - 1                      # fetch cycles, by hand: 9, 19, 20, 21
    f1 = f0 + FS
    f2 = f1 + FN
    f3 = f2 + 1
    token = f2 + 1 + 1               # the compute NOP runs in f2 + 1 and pushes at its end
    # two engines: each starts when it can
    two = sched(TWO, words)
    assert list(two.start[:3]) == [token, f1 + 1, f2 + 1]
    assert list(two.end[:3]) == [token + box(4), f1 + 1 + box(1), token]
    # one engine: the STORE (able at f1 + 1, before the token) runs first, the LOAD waits for it
    one = sched(ONE, words)
    s_store = f1 + 1
    s_load = max(token, s_store + box(1))
    assert list(one.start[:3]) == [s_load, s_store, f2 + 1]
    assert list(one.end[:3]) == [s_load + box(4), s_store + box(1), token]
    assert one.total_cycles == max(f3 + 1, s_load + box(4))
    # token stall: from max(f + 1, end of the queue's previous instruction) to the start, the cycles
    # waiting for the busy DMA included
    assert list(one.token_stall[:2]) == [s_load - (f0 + 1), 0]


def test_shared_dma_counters():
    words = out_of_order()
    res = IsaSim(ONE, mem_size=1 << 16).run(words)
    one = sched(ONE, words)
    f0 = FL - 1
    c = res.counters
    assert c["load_busy"] == box(4) and c["store_busy"] == box(1)
    assert c["load_token_stall"] == one.start[0] - (f0 + 1) > 0
    assert c["store_token_stall"] == 0
    assert c["dma_load_bytes"] == 16 and c["dma_store_bytes"] == 4 and c["dma_latency"] == 2 * LAT
    assert c["cycles"] == one.total_cycles


@pytest.mark.parametrize("first", ["load", "store"])
def test_tie_goes_to_the_priority_queue(monkeypatch, first):
    monkeypatch.setattr(isasim, "DMA_PRIORITY", first)
    words = tie()
    f0 = FL - 1
    f1 = f0 + FS
    f2 = f1 + FL
    e0 = f0 + 1 + box(22)
    assert e0 > f2 + 1               # both heads able before the long LOAD ends
    one = sched(ONE, words)
    assert one.start[0] == f0 + 1 and one.end[0] == e0
    if first == "load":
        assert (one.start[2], one.start[1]) == (e0, e0 + box(1))
        assert list(one.token_stall[:3]) == [0, e0 + box(1) - (f1 + 1), 0]
    else:
        assert (one.start[1], one.start[2]) == (e0, e0 + box(1))
        assert list(one.token_stall[:3]) == [0, e0 - (f1 + 1), e0 + box(1) - e0]
    two = sched(TWO, words)
    assert list(two.start[:3]) == [f0 + 1, f1 + 1, e0]


def test_deadlock_with_a_shared_dma():
    p = ProgramBuilder(TINY)
    p.nop("load")
    p.load("ACT", 0, 0, 4, pop_next=1)          # never gets its token
    p.store("ACT", 0, 0x1000, 4)                # runs (the DMA is idle)
    p.finish()
    with pytest.raises(AcceleratorFault) as e:
        sched(ONE, p.words)
    assert (e.value.fault, e.value.pc) == ("DEADLOCK", 1)


def able_cycles(decoded, sch):
    """Per instruction: the first cycle at which it could start if its engine were free of other
    queues: ``max(f + 1, e(previous of its queue), e(pusher of each token it pops))`` — computed
    from the schedule's own f / e, channel by channel (the k-th pop takes the k-th push)."""
    n = len(decoded)
    pushes = {}
    for i, d in enumerate(decoded):
        for flag in ("push_prev", "push_next"):
            if d.queue in ("load", "compute", "vector", "store") and d.fields[flag]:
                pushes.setdefault(FLAG_CHANNEL[(d.queue, flag)], []).append(int(sch.end[i]))
    taken = {}
    prev = {}
    able = [None] * n
    for i, d in enumerate(decoded):
        if d.name == "FINISH":
            continue
        t = int(sch.fetch[i]) + 1
        if d.queue in prev:
            t = max(t, int(sch.end[prev[d.queue]]))
        for flag in ("pop_prev", "pop_next"):
            if d.fields[flag]:
                ch = FLAG_CHANNEL[(d.queue, flag)]
                k = taken.get(ch, 0)
                taken[ch] = k + 1
                t = max(t, pushes[ch][k])
        prev[d.queue] = i
        able[i] = t
    return able


def check_shared_dma_rule(decoded, sch, first):
    able = able_cycles(decoded, sch)
    dma = [i for i, d in enumerate(decoded) if d.queue in DMA_QUEUES]
    runs = sorted((int(sch.start[i]), int(sch.end[i]), i) for i in dma)
    for (s0, e0, _), (s1, _, _) in itertools.pairwise(runs):
        assert e0 <= s1 and s0 < s1           # one at a time, one start a cycle
    for i in dma:
        s = int(sch.start[i])
        assert s >= able[i]
        # every cycle it waited while able, the DMA ran (or started) another instruction
        for t in range(able[i], s):
            others = [j for j in dma if j != i and sch.start[j] <= t < max(sch.end[j], sch.start[j] + 1)]
            assert len(others) == 1, (i, t)
            j = others[0]
            if sch.start[j] == t:             # both could start at t: the priority queue's head did
                assert decoded[j].queue == first != decoded[i].queue, (i, j, t)
        # token stall = from max(f + 1, e(previous of its queue)) to the start
        ready = int(sch.fetch[i]) + 1
        prevs = [j for j in dma if decoded[j].queue == decoded[i].queue and j < i]
        if prevs:
            ready = max(ready, int(sch.end[prevs[-1]]))
        assert sch.token_stall[i] == s - ready


def layer_programs():
    """The instruction words of one-operation models compiled for tiny in which LOAD and STORE would
    overlap on two engines: 3x3 CONV_2D (SAME) of 8 and of 5 channels, and a FULLY_CONNECTED."""
    from nnaccel.compiler import compile_model
    rng = np.random.default_rng(3)
    xq, wq, oq = (0.1, -1), (0.05, 0), (1.5, 2)
    models = []
    for hw, c in ((8, 8), (12, 5)):
        w = rng.integers(-128, 128, (c, 3, 3, c)).astype(np.int8)
        models.append(one_op_model("CONV_2D", [np.zeros((1, hw, hw, c), np.int8)], [xq], (1, hw, hw, c), oq,
                                   np.int8, filter_consts(np.int8, w, wq, np.zeros(c, np.int32), xq), [1, 1, 1, 1]))
    w = rng.integers(-128, 128, (24, 40)).astype(np.int8)
    models.append(one_op_model("FULLY_CONNECTED", [np.zeros((64, 40), np.int8)], [xq], (64, 24), oq, np.int8,
                               filter_consts(np.int8, w, wq, np.zeros(24, np.int32), xq), [0]))
    for model in models:
        yield segment_words(compile_model(model, TINY))


@pytest.mark.parametrize("first", ["load", "store"])
def test_layer_programs_keep_the_shared_dma_rule(monkeypatch, first):
    monkeypatch.setattr(isasim, "DMA_PRIORITY", first)
    contended = 0
    for words in layer_programs():
        dec = decode_program(words, ONE)
        one = schedule(dec, ONE)
        check_shared_dma_rule(dec, one, first)
        two = schedule(dec, TWO)
        contended += int((one.start != two.start).any())
    assert contended == 3                     # the rule mattered in each


def test_priority_is_the_table_constant():
    assert DMA_PRIORITY in DMA_QUEUES and set(DMA_QUEUES) == {"load", "store"}
