"""InstructionQueue in the Amaranth simulator against its software model (a list of
:func:`~nnaccel.hw.queue.queue_model` entries): random pushes and pops on the shift-register
queues (up to 3 entries) and the ring (deeper), every cycle's head and occupancy; and unpacking
gives back an instruction whose fields lie within what the decoder lets through."""

from __future__ import annotations

import random

import pytest
from amaranth.hdl import Module, Signal
from amaranth.sim import Simulator
from nnaccel.hw.queue import InstructionQueue, queue_model

from nnaccel.hwconfig import load_config
from nnaccel.isa import BY_NAME, INSTRUCTIONS, decode, encode

QUEUED = load_config("tiny").replace(name="tiny-queued", in_order=False)


def _words(queue: str, rng: random.Random, n: int):
    """Random 128-bit words whose opcode is one of the queue's (or NOP)."""
    codes = [i.opcode for i in INSTRUCTIONS if i.queue == queue] + [BY_NAME["NOP"].opcode]
    return [(rng.getrandbits(128) & ~0xF) | rng.choice(codes) for _ in range(n)]


@pytest.mark.parametrize("queue,depth", [("compute", 1), ("vector", 2), ("load", 4), ("store", 3)])
def test_queue_against_model(queue, depth):
    cfg = QUEUED.replace(name=f"q{depth}", queue_depth=depth)
    dut = InstructionQueue(cfg, queue)
    assert dut.depth == depth
    rng = random.Random(depth)
    words = _words(queue, rng, 400)

    async def bench(ctx):
        model = []
        for w in words:
            push = len(model) < dut.cap and rng.random() < 0.6
            pop = bool(model) and rng.random() < 0.5
            assert ctx.get(dut.occ) == len(model)
            if model:
                assert ctx.get(dut.r_data) == model[0]
            ctx.set(dut.push, push)
            ctx.set(dut.pop, pop)
            ctx.set(dut.w_data, w)
            await ctx.tick()
            if pop:
                model.pop(0)
            if push:
                model.append(queue_model(cfg, queue, w))

    sim = Simulator(dut)
    sim.add_clock(1e-6)
    sim.add_testbench(bench)
    sim.run()


GEMM = {"accumulate": 1, "preload": 1, "act_signed": 1, "act": 200, "acc": 60, "wgt": 100, "za": 7,
        "zw": 250, "nx": 3, "ny": 2, "act_xs": 1, "act_ys": 5, "acc_xs": 1, "acc_ys": 3, "kt": 2,
        "pop_prev": 1, "push_next": 1}
LOAD = {"sp": 2, "len": 4, "sp_addr": 17, "ext_addr": 0x1234, "x_size": 3, "y_size": 2, "x_stride": 16,
        "y_stride": 64, "pad_top": 1, "fill": 0x80, "push_next": 1}


@pytest.mark.parametrize("name,fields", [("GEMM", GEMM), ("LOAD", LOAD)])
def test_unpack_keeps_the_fields(name, fields):
    queue = BY_NAME[name].queue
    dut = InstructionQueue(QUEUED, queue)
    word = encode(name, **fields)
    m = Module()
    m.submodules.q = dut
    out = Signal(128)
    m.d.comb += out.eq(dut.unpack(m, dut.r_data, "w"))

    async def bench(ctx):
        ctx.set(dut.w_data, word)
        ctx.set(dut.push, 1)
        await ctx.tick()
        ctx.set(dut.push, 0)
        assert ctx.get(dut.r_data) == queue_model(QUEUED, queue, word)
        got = decode(ctx.get(out))
        for k, v in fields.items():
            assert getattr(got, k) == v, k

    sim = Simulator(m)
    sim.add_clock(1e-6)
    sim.add_testbench(bench)
    sim.run()
