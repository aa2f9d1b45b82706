"""The fetch unit (``hw/fetch.py``'s ``Fetch``: fetch, the queues or the in-order executor, the
dependency tokens, the halts) alone in Amaranth's simulator, the instruction memory and the
engines modelled here (an engine ends an instruction after the ISA's cycles,
``nnaccel.isa.cycles.instruction_cycles``): each queue runs its instructions in program order,
an instruction that pops a token starts only after the instruction that pushed it has completed,
a token pushed and popped in the same queue pair passes at most once, the run ends with DONE and
no fault; and DEADLOCK, NO_FINISH and a decoder fault stop the run with the ISA's code at the
instruction the ISA names (docs/isa.md), on the in-order tiny, tiny with two queued DMA engines
and small."""

import pytest
from amaranth.sim import Simulator

from nnaccel.hwconfig import load_config
from nnaccel.isa import BY_OPCODE, QUEUES, decode
from nnaccel.isa.cycles import instruction_cycles
from nnaccel.isa.table import FAULTS, FLAG_CHANNEL
from nnaccel.program import ProgramBuilder

TINY = load_config("tiny")
CONFIGS = [TINY, TINY.replace(name="tiny-dma2", in_order=False, dma_engines=2), load_config("small")]
PROG = 0x100
CODE = {f.name: f.code for f in FAULTS}


def _run(cfg, words, prog_len=None, limit=3000):
    """``words`` on a :class:`~nnaccel.hw.fetch.Fetch` alone. Returns ``(error, fault_pc, events)``
    with ``events``: ``(cycle, "start" | "complete", queue, word)`` as the queue views show them."""
    from nnaccel.hw.fetch import Fetch
    dut = Fetch(cfg, {})
    prog_len = len(words) if prog_len is None else prog_len
    out = {"events": []}

    async def bench(ctx):
        ctx.set(dut.prog_addr, PROG)
        ctx.set(dut.prog_len, prog_len)
        ctx.set(dut.start, 1)
        await ctx.tick()
        ctx.set(dut.start, 0)
        for cycle in range(limit):
            k = (ctx.get(dut.i_addr) - PROG) >> 4
            ctx.set(dut.i_data, words[k] if 0 <= k < len(words) else 0)
            for r in dut.runners:
                port = getattr(dut, r)
                n = instruction_cycles(decode(ctx.get(port.word)), cfg) if ctx.get(port.active) else 1
                ctx.set(port.last, ctx.get(port.step) + 1 >= max(n, 1))
                if hasattr(port, "done"):
                    # (the array overlap's port: an engine that releases an instruction at its
                    # completion, nothing draining behind it)
                    d = decode(ctx.get(port.word))
                    ctx.set(port.may_start, 1)
                    ctx.set(port.draining, 0)
                    ctx.set(port.done, ctx.get(port.complete))
                    ctx.set(port.done_push, d.fields["push_prev"] | d.fields["push_next"] << 1)
            for q in QUEUES:
                v = getattr(dut, f"q_{q}")
                word = ctx.get(getattr(dut, _runner(dut, q)).word)
                for what in ("start", "complete"):
                    if ctx.get(getattr(v, what)):
                        out["events"].append((cycle, what, q, word))
            if ctx.get(dut.done):
                out["error"], out["fault_pc"] = ctx.get(dut.error), ctx.get(dut.fault_pc)
                return
            await ctx.tick()

    sim = Simulator(dut)
    sim.add_clock(1e-6)
    sim.add_testbench(bench)
    sim.run()
    assert "error" in out, "the run did not end"
    return out["error"], out["fault_pc"], out["events"]


def _runner(dut, queue):
    return "dma" if queue in ("load", "store") and "dma" in dut.runners else queue


def _program(cfg):
    """Instructions of every queue, tokens on every channel (pushes before and after their pops
    are fetched), LOAD / GEMM / VEC / STORE of several cycles beside NOPs."""
    C = cfg.cols
    p = ProgramBuilder(cfg)
    p.load("ACT", 0, 0x1000, C, x_size=2, x_stride=C, push_next=1)
    p.load("WGT", 0, 0x1100, C, x_size=cfg.rows, x_stride=C)
    p.gemm(0, 0, 2, 1, wgt=0, preload=True, act_xs=1, acc_xs=1, pop_prev=1, push_next=1)
    p.nop("load", push_next=1)
    p.nop("compute", pop_prev=1, push_prev=1)
    p.vec("MAX", 4, 0, 2, 1, src2=2, pop_prev=1, push_next=1)
    p.nop("load", pop_next=1)
    p.store("ACC", 0, 0x2000, C, x_size=2, x_stride=4 * C, pop_prev=1, push_prev=1)
    p.nop("vector", pop_next=1, push_prev=1)
    p.nop("compute", pop_next=1)
    p.nop("store")
    p.finish()
    return p.words


@pytest.mark.parametrize("cfg", CONFIGS, ids=lambda c: c.name)
def test_fetch_runs_each_queue_in_order_and_keeps_the_tokens(cfg):
    words = _program(cfg)
    error, _, events = _run(cfg, words)
    assert error == CODE["OK"]
    by_queue = {q: [w for w in words if decode(w).queue == q] for q in QUEUES}
    for q in QUEUES:
        starts = [w for _, what, qq, w in events if what == "start" and qq == q]
        assert starts == by_queue[q], q                     # every instruction, in program order
    # the k-th pop of a channel starts after the k-th push on it completed
    pushes, pops = {}, {}
    for cycle, what, q, w in events:
        f = decode(w).fields
        for (qq, flag), ch in FLAG_CHANNEL.items():
            if qq == q and f.get(flag):
                if flag.startswith("push") and what == "complete":
                    pushes.setdefault(ch, []).append(cycle)
                if flag.startswith("pop") and what == "start":
                    pops.setdefault(ch, []).append(cycle)
    assert pops and set(pops) <= set(pushes)
    for ch, cycles in pops.items():
        assert len(cycles) <= len(pushes[ch])
        assert all(s > c for s, c in zip(cycles, pushes[ch])), ch
    # an engine runs one instruction at a time: each start after the previous completion
    for q in QUEUES:
        assert [what for _, what, qq, _ in events if qq == q] == ["start", "complete"] * len(by_queue[q]), q


@pytest.mark.parametrize("cfg", CONFIGS, ids=lambda c: c.name)
def test_fetch_halts_with_the_isa_fault_and_pc(cfg):
    p = ProgramBuilder(cfg)
    p.nop("load", push_next=1)
    p.nop("compute", pop_prev=1)
    p.nop("compute", pop_prev=1)            # no second token: DEADLOCK here
    p.nop("vector")
    p.finish()
    assert _run(cfg, p.words)[:2] == (CODE["DEADLOCK"], 2)
    p = ProgramBuilder(cfg)
    p.nop("load")
    p.nop("store")
    assert _run(cfg, p.words)[:2] == (CODE["NO_FINISH"], 2)         # fetch past prog_len
    free = min(set(range(256)) - set(BY_OPCODE))
    p = ProgramBuilder(cfg)
    p.nop("load")
    p.nop("vector")
    words = [*p.words, free, *p.words]
    assert _run(cfg, words)[:2] == (CODE["ILLEGAL_OPCODE"], 2)
