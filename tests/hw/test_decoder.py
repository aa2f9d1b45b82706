"""The decoder generated from the ISA table against the ISA simulator's decode + checks: same fault
code (or none) and the same queue for every word (Amaranth simulation)."""

import numpy as np
from amaranth.sim import Simulator
from nnaccel.hw.decoder import CONTROL_QUEUE, QUEUE_CODE, Decoder
from nnaccel.sim.isasim import check_instruction

from nnaccel.hwconfig import load_config
from nnaccel.isa import INSTRUCTIONS, AcceleratorFault, decode
from nnaccel.isa.table import FAULT_BY_NAME


def expected(word, cfg):
    try:
        d = decode(word)
        check_instruction(d, 0, cfg)
    except AcceleratorFault as e:
        return e.code, None
    return 0, QUEUE_CODE.get(d.queue, CONTROL_QUEUE)


def words_for(cfg, rng, n):
    """Random words of every opcode: fields drawn small, near the limits, or random; some with
    reserved bits or undefined values."""
    out = []
    for _ in range(n):
        ins = INSTRUCTIONS[rng.integers(len(INSTRUCTIONS))]
        vals = {}
        for f in ins.fields:
            r = rng.random()
            if r < 0.5:
                vals[f.name] = int(rng.integers(0, min(f.max, 8) + 1))
            elif r < 0.8:
                vals[f.name] = int(rng.integers(0, f.max + 1))
            else:
                vals[f.name] = int(max(0, f.max - rng.integers(0, 3)))
            if f.enum is not None and rng.random() < 0.9:
                vals[f.name] %= len(f.enum)
        w = ins.opcode                      # raw fields: undefined enum values stay possible
        for f in ins.fields:
            w |= vals[f.name] << f.lo
        for flag in range(4, 8):
            if rng.random() < 0.15:
                w |= 1 << flag
        if rng.random() < 0.1:
            w |= 1 << int(rng.integers(8, 128))
        if rng.random() < 0.03:
            w = (w & ~0xF) | int(rng.integers(8, 16))
        out.append(w)
    return out


def test_decoder_matches_isa_simulator():
    for name in ("tiny", "small"):
        cfg = load_config(name)
        if name == "small":
            cfg = cfg.replace(dma_base=0x100000, dma_size=0x400000)   # a window with a lower bound
        words = words_for(cfg, np.random.default_rng(3), 600)
        dut = Decoder(cfg)
        seen = set()

        async def bench(ctx, words=words, dut=dut, cfg=cfg, seen=seen):
            for w in words:
                ctx.set(dut.word, w)
                code, queue = expected(w, cfg)
                got = ctx.get(dut.fault)
                assert got == code, (hex(w), got, code)
                if code == 0:
                    assert ctx.get(dut.queue) == queue
                    assert ctx.get(dut.is_finish) == ((w & 0xF) == 7)
                seen.add(code)
                await ctx.delay(1e-9)

        sim = Simulator(dut)
        sim.add_testbench(bench)
        sim.run()
        # every fault the decoder decides at fetch was exercised
        for f in ("ILLEGAL_OPCODE", "ILLEGAL_FIELD", "SCRATCHPAD_RANGE", "DMA_WINDOW"):
            assert FAULT_BY_NAME[f].code in seen, f
        assert 0 in seen
