"""The external bytes of a DMA (``nnaccel.isa.footprint.Bytes``): the runs of a LOAD / STORE box
walk against the bytes enumerated one by one from the instruction's semantics (``docs/isa.md``:
data lines only, padding lines read nothing), and the run-intersection test against pairs of such
byte sets."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nnaccel.hwconfig import ELEMENT_BYTES, load_config
from nnaccel.isa import decode, encode
from nnaccel.isa.footprint import Bytes, Lines, footprint, merge_runs, runs_meet
from nnaccel.isa.table import SPACE_ENUM

TINY = load_config("tiny")      # lines of 4 elements


def dma(name, sp="ACT", ext=0x100, length=4, nx=1, ny=1, xs=0, ys=0, pad=(0, 0, 0, 0)):
    f = {"sp": sp, "sp_addr": 0, "ext_addr": ext, "len": length, "x_size": nx, "y_size": ny, "x_stride": xs,
         "y_stride": ys}
    if name == "LOAD":
        f.update(zip(("pad_top", "pad_bottom", "pad_left", "pad_right"), pad))
    return decode(encode(name, **f))


def brute_bytes(d) -> set[int]:
    """Every external byte of LOAD / STORE ``d``, line by line as docs/isa.md defines the walk."""
    t, b, le, r = (d.pad_top, d.pad_bottom, d.pad_left, d.pad_right) if d.name == "LOAD" else (0, 0, 0, 0)
    n = d.len * ELEMENT_BYTES[SPACE_ENUM[d.sp]]
    out = set()
    for y in range(t, d.y_size - b):
        for x in range(le, d.x_size - r):
            first = d.ext_addr + (y - t) * d.y_stride + (x - le) * d.x_stride
            out.update(range(first, first + n))
    return out


def ext_of(d):
    return [a.where for a in footprint(d, TINY) if a.space == "EXT"]


def check_runs(d):
    want = brute_bytes(d)
    got = ext_of(d)
    if not want:
        assert got == []
        return
    (b,) = got
    runs = b.runs
    assert (runs[:, 0] <= runs[:, 1]).all()
    assert (runs[1:, 0] > runs[:-1, 1] + 1).all()           # sorted, disjoint, not adjacent
    assert set().union(*(range(lo, hi + 1) for lo, hi in runs.tolist())) == want
    assert (b.first, b.last) == (min(want), max(want))


def walk(**kw):
    return kw


CASES = [
    walk(nx=5, ny=3, xs=8, ys=64),              # gaps between lines and rows
    walk(nx=5, ny=3, xs=4, ys=64),              # contiguous rows: one run each
    walk(nx=4, ny=2, xs=5, ys=40),              # one-byte gaps between lines
    walk(nx=5, ny=3, xs=4, ys=20),              # contiguous rows back to back: one run
    walk(nx=4, ny=3, xs=2, ys=5),               # lines overlap, rows overlap
    walk(nx=6, ny=2, xs=0, ys=0),               # every line the same bytes
    walk(nx=3, ny=4, xs=16, ys=4),              # rows interleave with each other's lines
    walk(nx=1, ny=5, ys=3),                     # one line per row, overlapping rows
    walk(nx=7, ny=5, xs=8, ys=100, pad=(1, 1, 2, 1)),   # a padded LOAD: the data lines only
    walk(nx=3, ny=3, xs=8, ys=100, pad=(1, 2, 0, 0)),   # all rows padding: no external byte
    walk(nx=3, ny=2, xs=8, ys=100, pad=(0, 0, 2, 1)),   # all lines padding
    walk(nx=3, ny=2, xs=8, ys=40, length=0),    # nothing transferred
    walk(sp="ACC", nx=3, ny=2, xs=20, ys=100),  # int32 lines: 16 bytes each, 4-byte gaps
    walk(sp="ACC", nx=3, ny=2, xs=16, ys=48),   # int32 lines back to back: one run
]


@pytest.mark.parametrize("name", ["LOAD", "STORE"])
@pytest.mark.parametrize("case", CASES)
def test_runs_are_the_box_walk_bytes(name, case):
    if name == "STORE" and "pad" in case:
        case = {k: v for k, v in case.items() if k != "pad"}
    check_runs(dma(name, **case))


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(["LOAD", "STORE"]), st.sampled_from(["ACT", "ACC"]), st.integers(0, 4),
       st.integers(0, 6), st.integers(0, 5), st.integers(0, 24), st.integers(0, 80),
       st.tuples(*[st.integers(0, 2)] * 4))
def test_runs_random_walks(name, sp, length, nx, ny, xs, ys, pad):
    t, b, le, r = pad
    if t + b > ny or le + r > nx:
        pad = (0, 0, 0, 0)
    check_runs(dma(name, sp, 0x40, length, nx, ny, xs, ys, pad))


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 4), st.integers(1, 5), st.integers(0, 12), st.integers(0, 40),
                          st.integers(0, 60)), min_size=2, max_size=2))
def test_meets_is_a_common_byte(walks):
    (a, b) = (dma("STORE", ext=0x40 + off, length=n, nx=nx, ny=2, xs=xs, ys=ys) for n, nx, xs, ys, off in walks)
    (ba,), (bb,) = ext_of(a), ext_of(b)
    want = bool(brute_bytes(a) & brute_bytes(b))
    assert ba.meets(bb) == want == bb.meets(ba)
    assert runs_meet(ba.runs, bb.runs) == want


def test_merge_runs_unions_intervals():
    runs = merge_runs(np.array([10, 0, 4, 30, 12]), np.array([11, 3, 6, 31, 20]))
    assert runs.tolist() == [[0, 6], [10, 20], [30, 31]]
    assert merge_runs(np.array([], np.int64), np.array([], np.int64)).shape == (0, 2)
    assert Bytes(5, 3).runs.tolist() == [[5, 7]]
    assert Bytes(5, 0, 3, 3, 4, 10).runs.shape == (0, 2) and not Bytes(5, 0).meets(Bytes(5, 4))


def test_lines_are_the_strided_grid():
    rng = np.random.default_rng(11)
    for _ in range(300):
        base, nx, ny, xs, ys = (int(v) for v in rng.integers(0, [100, 9, 4, 3, 40]))
        want = [base + y * ys + x * xs for y in range(ny) for x in range(nx)]
        got = Lines(base, nx, ny, xs, ys).lines()
        assert got.dtype == np.int64 and got.tolist() == want
