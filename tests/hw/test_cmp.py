"""The in-order core's loop ends without comparisons (branch cmp, docs/rtl.md "cmp (session 9)"):
the step counter's ``step >= c`` as flags (``_InOrder.step_ge``), the box walk's x / y ends as
equalities and its bottom / right padding as flags, the GEMM's drain as a flag and its line
counters' ends as equalities, the VEC's parameter phase as an equality. Programs at the edges of
each rule (padding on every side, boxes of padding only, one-line and empty boxes, K tiles 1 .. 4,
one-line and empty GEMMs and VECs, RDPERF after them): the RTL's bytes and every counter equal the
ISA simulator's, and the simulator's bytes are checked by hand where a rule could go wrong."""

import numpy as np
import pytest
from nnaccel.sim.isasim import IsaSim, find_conflicts

from nnaccel.hwconfig import load_config
from nnaccel.isa import N_COUNTERS
from nnaccel.program import ProgramBuilder

pytestmark = pytest.mark.rtl

TINY = load_config("tiny")
SRC, DST = 0x0, 0x4000
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
        p.load(sp, line, SRC + 3 * line + 1, ln, x_size=xs, y_size=ys, x_stride=xst, y_stride=yst, pad=pad,
               fill=FILL)
    reads = [("ACT", 0, 640, C), ("ACC", 0, 20, 4 * C), ("VEC", 0, 6, 4 * C)]
    ext = DST
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


def _run(cfg, words, image, out, mem):
    from nnaccel.sim.rtl_runner import run_words_rtl
    assert not find_conflicts(words, cfg)
    sim = IsaSim(cfg, mem_size=mem)
    for a, d in image.items():
        sim.write(a, d)
    res = sim.run(words)                  # (a fault raises)
    want = [sim.mem[a:a + n].tobytes() for a, n in out]
    rtl = run_words_rtl(cfg, words, image, read=out, max_cycles=400_000)
    assert rtl.fault == "OK"
    assert list(rtl.regions) == want
    assert rtl.counters == res.counters
    return want


def test_padded_boxes_match_isa_sim():
    cfg = TINY
    C = cfg.cols
    words, out = _box_program(cfg)
    src = np.random.default_rng(3).integers(0, 256, 0x1000, dtype=np.uint8)
    src[src == FILL] = FILL + 1                       # a data byte is never the fill
    want = _run(cfg, words, {SRC: src}, out, 0x8000)
    act = np.frombuffer(want[0], np.uint8).reshape(-1, C)
    # the simulator's bytes by hand: box 0's data lines are (y 1, x 2) and (y 1, x 3) (lines 7, 8),
    # every other line of it is the fill; the padding-only boxes are the fill throughout; box 4's
    # one data line is (y 2, x 3) = line 47 + 15, its 3 bytes then the fill
    data0 = {7: SRC + 1, 8: SRC + 1 + 4}
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


def _gemm_program(cfg):
    R, C = cfg.rows, cfg.cols
    p = ProgramBuilder(cfg)
    b2 = cfg.bank_lines("ACT")                    # MAX's second source: the other ACT bank
    p.load_lines("ACT", 0, 0x0, 64, C, C)
    p.load_lines("ACT", b2, 0x1400, 32, C, C)
    p.load_lines("WGT", 0, 0x400, 8 * R, C, C)
    p.load_lines("ACC", 0, 0x800, 64, 4 * C, C)
    p.load_lines("VEC", 0, 0xC00, 6, 4 * C, C, push_next=1)          # REQ's parameters
    p.gemm(0, 0, 1, 1, wgt=0, preload=True, kt=0, pop_prev=1)                 # one line, one tile
    p.gemm(4, 4, 3, 1, wgt=R, preload=True, kt=3, act_xs=1, act_ys=3, acc_xs=1)   # 4 tiles
    p.gemm(20, 10, 1, 3, wgt=0, preload=True, kt=1, act_ys=1, acc_ys=1, accumulate=True)
    p.gemm(0, 20, 2, 2, kt=0, accumulate=True, act_xs=1, act_ys=2, acc_xs=1, acc_ys=2)  # no preload
    p.gemm(0, 30, 0, 2, wgt=0, preload=True, kt=1)                             # empty: nx = 0
    p.gemm(0, 30, 2, 0, kt=0)                                                  # empty: ny = 0
    p.gemm(40, 32, 5, 2, wgt=2 * R, preload=True, kt=2, act_xs=1, act_ys=5, acc_xs=1, acc_ys=5,
           za=7, zw=250, act_signed=True)
    p.vec("MAX", 100, 0, 1, 1, src2=b2 + 10)                                   # one line
    p.vec("MAX", 101, 0, 0, 3, src2=b2 + 10)                                   # empty
    p.vec("MAX", 102, 3, 3, 2, src2=b2 + 20, dst_xs=1, dst_ys=3, src_xs=2, src_ys=7)
    p.vec("SUMW", 50, 0, 2, 3, accumulate=True, dst_xs=1, dst_ys=2, src_xs=1, src_ys=4)
    p.vec("SUMW", 60, 0, 3, 0)                                                 # empty
    p.vec("REQ", 110, 0, 2, 2, param=0, dst_xs=1, dst_ys=2, src_xs=1, src_ys=2, push_next=1)
    out = [(0x2000, 64 * 4 * C), (0x3000, 128 * C), (0x3800, 8 * N_COUNTERS)]
    p.store_lines("ACC", 0, out[0][0], 64, 4 * C, C, pop_prev=1)
    p.store_lines("ACT", 0, out[1][0], 128, C, C)
    p.rdperf(out[2][0])
    p.finish()
    return p.words, out


def test_gemm_and_vec_edges_match_isa_sim():
    cfg = TINY
    R, C = cfg.rows, cfg.cols
    rng = np.random.default_rng(5)
    words, out = _gemm_program(cfg)
    image = {0x0: rng.integers(0, 256, (64, C)).astype(np.uint8),
             0x400: rng.integers(0, 256, (8 * R, C)).astype(np.uint8),
             0x800: rng.integers(-2**20, 2**20, (64, C)).astype(np.int32),
             0x1400: rng.integers(0, 256, (32, C)).astype(np.uint8),
             0xC00: rng.integers(-2**31, 2**31, (6, C)).astype(np.int32)}
    want = _run(cfg, words, image, out, 0x4000)
    # the simulator's first GEMM by hand: ACC line 0 = act line 0 (uint8) @ the first weight tile
    # (uint8, rows x cols) without accumulation
    acc = np.frombuffer(want[0], "<i4").reshape(64, C)
    a = image[0x0][0].astype(np.int64)
    w = image[0x400][:R].astype(np.int64)
    assert (acc[0] == a @ w).all()
