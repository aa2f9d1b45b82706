"""The DMA engine (``hw/dma.py``) alone against the ISA simulator's LOAD / STORE, and on the RTL
against the ISA simulator (bytes and every counter).

The block alone (:class:`~nnaccel.hw.dma.DmaEngine` in Amaranth's simulator, driven the way its
sequencer drives it, with models of the scratchpads, the external memory and the counters beside
it): LOADs (padding on each side, partial lines, negative fills, lines of several beats, len 0,
empty boxes) and STOREs into and out of every space, and RDPERF; the scratchpad or the memory
after each must equal the ISA simulator's, and the instruction must end after the ISA's cycles
(``nnaccel.isa.cycles``); on tiny (one engine for both queues, in order), tiny with two queued
engines, and small.

The one-beat datapath (``_DmaPath``): the load and store ports are one beat of
``dma_bytes_per_cycle`` bytes, a LOAD writes a line's elements with element write enables at the
beats that carry them (the fill at the line's first beat), a STORE sends beat ``b``'s bytes at the
line's address + ``b * dma_bytes_per_cycle``. Lines shorter than a line and than a beat, padding,
negative fill bytes (sign-extended in the int32 spaces), unaligned external addresses, a sentinel
around every stored line (a beat must write only its ``st_len`` bytes), RDPERF, on tiny with one
and with two DMA engines (and on small).

The box walk (``_BoxWalk``) on the in-order core, whose loop ends are not comparisons (the x / y
ends as equalities, the bottom / right padding as flags, ``step >= c`` as the in-order
sequencer's flags): boxes at the edges of each rule (padding on every side, boxes of padding
only, one-line and empty boxes), the simulator's bytes also checked by hand where a rule could go
wrong."""

import numpy as np
import pytest
from amaranth.sim import Simulator
from nnaccel.hw.dma import DmaEngine
from nnaccel.sim.isasim import IsaSim, find_conflicts
from support.rtl_check import run_isa_and_rtl

from nnaccel.hwconfig import ELEMENT_BYTES, load_config
from nnaccel.isa import BY_NAME, N_COUNTERS, decode
from nnaccel.isa.cycles import instruction_cycles
from nnaccel.isa.table import SPACE_ENUM
from nnaccel.program import ProgramBuilder

TINY = load_config("tiny")
CONFIGS = [TINY, TINY.replace(name="tiny-dma2", in_order=False, dma_engines=2),
           pytest.param(load_config("small"), marks=pytest.mark.slow)]

SRC, DST, PERF, SENTINEL = 0x1000, 0x3000, 0x3800, 0xA5
# the ACC box: 3 x 3 lines, the first row and column padding, `len` 3 of the line's elements
BOX = {"x_size": 3, "y_size": 3, "x_stride": 19, "y_stride": 61, "pad": (1, 0, 1, 0)}


BLOCK_CONFIGS = [TINY, TINY.replace(name="tiny-dma2", in_order=False, dma_engines=2), load_config("small")]


def _counter_value(cfg, c: int) -> int:
    """The value the counters model shows for counter ``c``."""
    return (0x9E3779B97F4A7C15 * (c + 1)) % (1 << cfg.counter_bits)


def _line_value(line, eb: int) -> int:
    """A scratchpad line (elements) as the port's bits: element 0 lowest."""
    return sum((int(v) % (1 << 8 * eb)) << (8 * eb * e) for e, v in enumerate(line))


def _run_block(cfg, word, mem, sp):
    """``word`` on a :class:`DmaEngine` of its queue (of both with one DMA engine) with the
    memory ``mem`` (bytes, updated) and the scratchpads ``sp`` (``{space: array of lines}``,
    updated), the sequencer, memory and counters modelled here. Returns the steps it took."""
    queue = BY_NAME[decode(word).name].queue
    queues = ("load", "store") if cfg.in_order or cfg.dma_engines == 1 else (queue,)
    dut = DmaEngine(cfg, queues, 16)
    phase0 = 3 % dut.n_beats                    # the ring is anywhere when the instruction starts
    out = {}

    async def bench(ctx):
        reads = {}                              # space: the line presented last cycle
        step = 0
        while step < 10_000:
            ctx.set(dut.seq.word, word)
            ctx.set(dut.seq.start, step == 0)
            ctx.set(dut.seq.active, 1)
            ctx.set(dut.seq.step, step)
            for c in dut.marks:
                ctx.set(getattr(dut.seq, f"at_least_{c}"), step >= c)
            if "store" in queues:
                phase = (phase0 + step) % dut.n_beats
                ctx.set(dut.counters.phase, phase)
                ctx.set(dut.counters.data, sum(_counter_value(cfg, dut.k_per * phase + j) << (cfg.counter_bits * j)
                                               for j in range(dut.k_per) if dut.k_per * phase + j < N_COUNTERS))
                for s in SPACE_ENUM:
                    if s in reads:
                        ctx.set(getattr(dut, f"rd_{s.lower()}").data, _line_value(sp[s][reads[s]], ELEMENT_BYTES[s]))
            if "load" in queues:
                addr = ctx.get(dut.ld.addr)
                beat = len(dut.ld.data) // 8
                ctx.set(dut.ld.data, int.from_bytes(bytes(mem[addr:addr + beat]).ljust(beat, b"\0"), "little"))
            last = ctx.get(dut.seq.last)
            ctx.set(dut.seq.complete, last)
            writes = []
            if "load" in queues:
                for s in SPACE_ENUM:
                    wr = getattr(dut, f"wr_{s.lower()}")
                    if ctx.get(wr.en):
                        mask = (ctx.get(getattr(dut, f"wr_{s.lower()}_mask")) if not dut.one_beat[s]
                                else (1 << cfg.cols) - 1)
                        writes.append((s, ctx.get(wr.addr), ctx.get(wr.data), mask))
            if "store" in queues:
                reads = {s: ctx.get(getattr(dut, f"rd_{s.lower()}").addr) for s in SPACE_ENUM}
                if ctx.get(dut.st.en):
                    a, n, data = ctx.get(dut.st.addr), ctx.get(dut.st.len), ctx.get(dut.st.data)
                    mem[a:a + n] = np.frombuffer(data.to_bytes(len(dut.st.data) // 8, "little")[:n], np.uint8)
            await ctx.tick()
            for s, line, data, mask in writes:
                eb = ELEMENT_BYTES[s]
                for e in range(cfg.cols):
                    if mask >> e & 1:
                        v = data >> (8 * eb * e) & ((1 << 8 * eb) - 1)
                        sp[s][line, e] = v - (1 << 32) if eb == 4 and v >> 31 else v
            if last:
                out["steps"] = step + 1
                return
            step += 1

    sim = Simulator(dut)
    sim.add_clock(1e-6)
    sim.add_testbench(bench)
    sim.run()
    return out["steps"]


def _block_programs(cfg):
    """One-instruction programs for the block: LOADs and STOREs of every space and RDPERF."""
    C = cfg.cols
    p = ProgramBuilder(cfg)
    p.load("ACC", 3, SRC + 3, C - 1, fill=-3, **BOX)
    p.load("ACC", 9, SRC + 0x201, 1, x_size=2, x_stride=4, fill=0x7F)
    p.load("VEC", 0, SRC + 0x302, C // 2, x_size=2, y_size=2, x_stride=9, y_stride=40, pad=(0, 1, 1, 0), fill=-128)
    p.load("VEC", 2, SRC + 0x341, 0, fill=-2)
    p.load("ACT", 0, SRC + 0x401, C - 1, x_size=3, y_size=2, x_stride=5, y_stride=30, pad=(0, 0, 0, 1), fill=0x55)
    p.load("WGT", 5, SRC + 0x503, C, x_size=4, x_stride=C + 1, pad=(0, 0, 2, 1), fill=-1)
    p.load("ACT", 0, SRC, C, x_size=0)
    p.store("ACC", 1, DST + 3, C - 1, x_size=3, y_size=2, x_stride=4 * C + 3, y_stride=100)
    p.store("VEC", 0, DST + 1, C, x_size=2, x_stride=4 * C)
    p.store("ACT", 2, DST + 5, C - 1, x_size=3, x_stride=C + 2)
    p.store("WGT", 0, DST, 1, x_size=2, x_stride=3)
    p.store("ACT", 0, DST, C, x_size=2, y_size=0)
    p.rdperf(PERF)
    return p.words


@pytest.mark.parametrize("cfg", BLOCK_CONFIGS, ids=lambda c: c.name)
def test_dma_engine_against_isa_sim(cfg):
    from nnaccel.sim.isasim import _SPACE_DTYPE
    rng = np.random.default_rng(5)
    for word in _block_programs(cfg):
        d = decode(word)
        sim = IsaSim(cfg, mem_size=1 << 16)
        sim.write(0, rng.integers(0, 256, 1 << 16, dtype=np.uint8))     # (a byte written astray shows)
        for s in SPACE_ENUM:
            info = np.iinfo(_SPACE_DTYPE[s])
            sim.sp[s][:] = rng.integers(info.min, int(info.max) + 1, sim.sp[s].shape, dtype=np.int64)
        mem, sp = sim.mem.copy(), {s: v.copy() for s, v in sim.sp.items()}
        steps = _run_block(cfg, word, mem, sp)
        sim.run([word, _finish(cfg)])
        if d.name == "RDPERF":              # each counter at its place, whatever the ring's phase
            got = np.frombuffer(mem[PERF:PERF + 8 * N_COUNTERS].tobytes(), "<u8").tolist()
            assert got == [_counter_value(cfg, c) for c in range(N_COUNTERS)]
            mem[PERF:PERF + 8 * N_COUNTERS] = sim.mem[PERF:PERF + 8 * N_COUNTERS]
        assert steps == instruction_cycles(d, cfg), d
        assert (mem == sim.mem).all(), d
        for s in SPACE_ENUM:
            assert (sp[s] == sim.sp[s]).all(), (d, s)


def _finish(cfg):
    p = ProgramBuilder(cfg)
    p.finish()
    return p.words[0]


def _narrow_program(cfg):
    """LOADs into every space with ``len`` below a line (and below a beat), then STOREs of those
    lines with ``len`` not a multiple of the beat, to unaligned addresses 3 bytes apart."""
    C = cfg.cols
    p = ProgramBuilder(cfg)
    p.load("ACC", 0, SRC + 3, C - 1, fill=-3, **BOX)                    # lines 0..8
    p.load("ACC", 9, SRC + 0x201, 1, x_size=2, x_stride=4, fill=0x7F)   # lines 9, 10: one element
    p.load("ACC", 11, SRC + 0x242, C, x_size=2, x_stride=4 * C + 1)     # whole lines
    p.load("VEC", 0, SRC + 0x302, C // 2, x_size=2, x_stride=9, fill=-128)
    p.load("VEC", 2, SRC + 0x341, 0, fill=-2)                           # len 0: only fill
    p.load("ACT", 0, SRC + 0x401, C - 1, x_size=3, x_stride=5, pad=(0, 0, 0, 1), fill=0x55)
    p.load("WGT", 0, SRC + 0x503, 1, x_size=2, x_stride=2, fill=-1, push_next=1)
    p.nop("compute", pop_prev=1, push_next=1)
    p.nop("vector", pop_prev=1, push_next=1)
    lines = []                                    # (space, first line, lines, len, element bytes)

    def store(sp, line, n, length, eb, **flags):
        ext = DST + 3 + sum(k * (4 * C + 3) for (_, _, k, _, _) in lines)
        lines.append((sp, line, n, length, eb))
        p.store(sp, line, ext, length, x_size=n, x_stride=4 * C + 3, **flags)

    store("ACC", 0, 9, C - 1, 4, pop_prev=1)      # C - 1 elements: the last beat of each line unsent
    store("ACC", 9, 2, C, 4)                      # whole lines: the fill of the one-element load
    store("ACC", 11, 2, C // 2 + 1, 4)
    store("VEC", 0, 3, C, 4)
    store("ACT", 0, 3, C - 1, 1)                  # part of a beat
    store("WGT", 0, 2, 1, 1)
    store("ACT", 1, 1, 0, 1)                      # len 0: writes nothing
    p.rdperf(PERF)
    p.finish()
    return p.words, lines


@pytest.mark.rtl
@pytest.mark.parametrize("cfg", CONFIGS, ids=lambda c: c.name)
def test_narrow_dma_lines_match_isa_sim(cfg):
    from nnaccel.sim.rtl_runner import run_words_rtl
    C = cfg.cols
    words, lines = _narrow_program(cfg)
    rng = np.random.default_rng(7)
    src = rng.integers(0, 256, 0x600, dtype=np.uint8)
    out = np.full(0x900, SENTINEL, np.uint8)
    sim = IsaSim(cfg, mem_size=0x4000)
    sim.write(SRC, src)
    sim.write(DST, out)
    assert not find_conflicts(words, cfg)
    res = sim.run(words)
    want = sim.mem[DST:DST + 0x900]
    # the ISA simulator's bytes, checked here against the fields by hand: the padding line (0, 0) of
    # the ACC box holds the fill -3 as int32, its first data line (1, 1) the source bytes at SRC + 3,
    # and the byte after each stored line's `len` elements is untouched
    row = 4 * C + 3
    assert (want[3:3 + 4 * (C - 1)].view("<i4") == -3).all()
    line4 = 3 + 4 * row                                          # line 4 = (x 1, y 1)
    assert want[line4:line4 + 4 * (C - 1)].tobytes() == src[3:3 + 4 * (C - 1)].tobytes()
    assert want[3 + 4 * (C - 1)] == SENTINEL
    acc9 = 3 + 9 * row                                           # line 9: one element, then 0x7F
    assert want[acc9:acc9 + 4].tobytes() == src[0x201:0x205].tobytes()
    assert (want[acc9 + 4:acc9 + 4 * C].view("<i4") == 0x7F).all()
    act = 3 + sum(n for (_, _, n, _, _) in lines[:4]) * row      # ACT line 0: C - 1 bytes, then the sentinel
    assert want[act:act + C - 1].tobytes() == src[0x401:0x400 + C].tobytes()
    assert want[act + C - 1] == SENTINEL
    rtl = run_words_rtl(cfg, words, {SRC: src, DST: out}, read=[(DST, 0x900)], max_cycles=200_000)
    assert rtl.fault == "OK"
    got = np.frombuffer(rtl.regions[0], np.uint8)
    bad = np.flatnonzero(got != want)
    assert bad.size == 0, f"{bad.size} bytes differ, the first at {DST + bad[0]:#x}"
    assert got[PERF - DST:PERF - DST + 8 * N_COUNTERS].view("<u8")[0] > 0     # RDPERF wrote its counters
    assert rtl.counters == res.counters


BOX_SRC, BOX_DST = 0x0, 0x4000          # the padded boxes' source and stores
FILL = 0x5A

#: LOAD boxes: (space, sp_addr, x_size, y_size, (top, bottom, left, right), len, x_stride, y_stride)
BOXES = [
    ("ACT", 0, 5, 4, (1, 2, 2, 1), 4, 4, 9),       # padding on every side: 2 data lines
    ("ACT", 20, 4, 3, (3, 0, 0, 3), 4, 4, 9),      # top == y_size: padding only
    ("ACT", 32, 3, 3, (0, 3, 0, 0), 4, 4, 9),      # bottom == y_size (y_size - bottom == 0)
    ("ACT", 41, 3, 2, (0, 0, 1, 2), 4, 4, 9),      # left + right == x_size: padding only
    ("ACT", 47, 6, 5, (2, 2, 3, 2), 3, 5, 11),     # one data line in the middle
    ("ACT", 77, 1, 1, (0, 0, 0, 0), 3, 0, 0),      # one line
    ("ACT", 78, 0, 3, (0, 0, 0, 0), 4, 4, 4),      # empty (x_size 0)
    ("ACT", 79, 3, 0, (0, 0, 0, 0), 4, 4, 4),      # empty (y_size 0)
    ("ACT", 80, 250, 1, (0, 0, 3, 3), 4, 4, 0),    # a long row, x up to 249
    ("ACT", 400, 2, 120, (3, 3, 0, 1), 2, 1, 7),   # a long column, y up to 119
    ("ACC", 0, 3, 4, (0, 1, 1, 0), 3, 17, 60),
    ("ACC", 12, 7, 1, (0, 0, 3, 3), 4, 16, 0),     # one data line between 3 + 3 of padding
    ("VEC", 0, 2, 3, (1, 1, 0, 0), 2, 8, 24),
]


def _box_program(cfg):
    C = cfg.cols
    p = ProgramBuilder(cfg)
    for sp, line, xs, ys, pad, ln, xst, yst in BOXES:
        p.load(sp, line, BOX_SRC + 3 * line + 1, ln, x_size=xs, y_size=ys, x_stride=xst, y_stride=yst, pad=pad,
               fill=FILL)
    reads = [("ACT", 0, 640, C), ("ACC", 0, 20, 4 * C), ("VEC", 0, 6, 4 * C)]
    ext = BOX_DST
    out = []
    for sp, line, n, row in reads:
        p.store_lines(sp, line, ext, n, row, C)
        out.append((ext, n * row))
        ext += n * row
    p.store("ACT", 0, ext, C, x_size=0, y_size=2)            # empty STOREs
    p.store("ACT", 0, ext, C, x_size=2, y_size=0)
    p.rdperf(ext)
    out.append((ext, 8 * N_COUNTERS))
    p.finish()
    return p.words, out


_run = run_isa_and_rtl


@pytest.mark.rtl
def test_padded_boxes_match_isa_sim():
    cfg = TINY
    C = cfg.cols
    words, out = _box_program(cfg)
    src = np.random.default_rng(3).integers(0, 256, 0x1000, dtype=np.uint8)
    src[src == FILL] = FILL + 1                       # a data byte is never the fill
    want = _run(cfg, words, {BOX_SRC: src}, out, 0x8000)
    act = np.frombuffer(want[0], np.uint8).reshape(-1, C)
    # the simulator's bytes by hand: box 0's data lines are (y 1, x 2) and (y 1, x 3) (lines 7, 8),
    # every other line of it is the fill; the padding-only boxes are the fill throughout; box 4's
    # one data line is (y 2, x 3) = line 47 + 15, its 3 bytes then the fill
    data0 = {7: BOX_SRC + 1, 8: BOX_SRC + 1 + 4}
    for ln in range(20):
        if ln in data0:
            assert act[ln].tobytes() == src[data0[ln]:data0[ln] + C].tobytes()
        else:
            assert (act[ln] == FILL).all(), ln
    assert (act[20:47] == FILL).all()
    assert act[62, :3].tobytes() == src[3 * 47 + 1:3 * 47 + 4].tobytes() and act[62, 3] == FILL
    assert (np.delete(act[47:77], 15, axis=0) == FILL).all()
    # the long row: x 3 .. 246 are data (external x - 3 at stride 4), the 3 + 3 lines at its ends fill
    row = act[80:330]
    assert (row[:3] == FILL).all() and (row[247:] == FILL).all()
    assert row[3].tobytes() == src[3 * 80 + 1:3 * 80 + 1 + C].tobytes()
    assert row[246].tobytes() == src[3 * 80 + 1 + 4 * 243:3 * 80 + 1 + 4 * 244].tobytes()
    # the long column: y 3 .. 116 data in its x 0, the rest fill
    col = act[400:640].reshape(120, 2, C)
    assert (col[:3] == FILL).all() and (col[117:] == FILL).all() and (col[:, 1] == FILL).all()
    assert col[3, 0, :2].tobytes() == src[3 * 400 + 1:3 * 400 + 3].tobytes() and (col[3, 0, 2:] == FILL).all()
    assert col[116, 0, :2].tobytes() == src[3 * 400 + 1 + 7 * 113:3 * 400 + 3 + 7 * 113].tobytes()
