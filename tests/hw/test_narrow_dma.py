"""The narrow DMA datapath (``hw/accel.py``, ``_DmaPath``): the load and store ports are one beat of
``dma_bytes_per_cycle`` bytes, a LOAD writes a line's elements with element write enables at the
beats that carry them (the fill at the line's first beat), a STORE sends beat ``b``'s bytes at the
line's address + ``b * dma_bytes_per_cycle``. Lines shorter than a line and than a beat, padding,
negative fill bytes (sign-extended in the int32 spaces), unaligned external addresses, a sentinel
around every stored line (a beat must write only its ``st_len`` bytes), RDPERF: the RTL's bytes and
every counter equal the ISA simulator's, on tiny with one and with two DMA engines (and on small).
"""

import numpy as np
import pytest
from nnaccel.sim.isasim import IsaSim, find_conflicts

from nnaccel.hwconfig import load_config
from nnaccel.isa import N_COUNTERS
from nnaccel.program import ProgramBuilder

pytestmark = pytest.mark.rtl

TINY = load_config("tiny")
CONFIGS = [TINY, TINY.replace(name="tiny-dma2", in_order=False, dma_engines=2),
           pytest.param(load_config("small"), marks=pytest.mark.slow)]

SRC, DST, PERF, SENTINEL = 0x1000, 0x3000, 0x3800, 0xA5
# the ACC box: 3 x 3 lines, the first row and column padding, `len` 3 of the line's elements
BOX = {"x_size": 3, "y_size": 3, "x_stride": 19, "y_stride": 61, "pad": (1, 0, 1, 0)}


def _program(cfg):
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


@pytest.mark.parametrize("cfg", CONFIGS, ids=lambda c: c.name)
def test_narrow_dma_lines_match_isa_sim(cfg):
    from nnaccel.sim.rtl_runner import run_words_rtl
    C = cfg.cols
    words, lines = _program(cfg)
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
