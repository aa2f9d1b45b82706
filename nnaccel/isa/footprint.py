"""What each instruction touches: its scratchpad lines and external bytes, read or written.

One entry per instruction (:data:`FOOTPRINTS`); the ISA simulator derives from it the range and
window checks (faults), the race check and the scratchpad-bank rules (``docs/isa.md``), so an
instruction's operands are described once, beside its cycles (``nnaccel.isa.cycles``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from nnaccel.hwconfig import ELEMENT_BYTES, HwConfig

from .cycles import dma_geometry
from .table import N_COUNTERS, SPACE_ENUM, VEC_BY_CODE, dw_window

__all__ = ["FOOTPRINTS", "Access", "Bytes", "Lines", "footprint", "merge_runs", "runs_meet"]


@dataclass(frozen=True)
class Lines:
    """A 2-D strided set of scratchpad lines: ``base + y * ys + x * xs`` for ``x < nx``, ``y < ny``."""

    base: int
    nx: int
    ny: int = 1
    xs: int = 1
    ys: int = 0

    @property
    def empty(self) -> bool:
        return self.nx == 0 or self.ny == 0

    @property
    def last(self) -> int | None:
        """The highest line, or None when the set is empty."""
        return None if self.empty else self.base + (self.ny - 1) * self.ys + (self.nx - 1) * self.xs

    def lines(self) -> np.ndarray:
        """Every line, in stream order (row by row)."""
        if self.ny == 1 and self.xs == 1:       # one run of consecutive lines
            return np.arange(self.base, self.base + self.nx, dtype=np.int64)
        return (self.base + self.ys * np.arange(self.ny, dtype=np.int64)[:, None]
                + self.xs * np.arange(self.nx, dtype=np.int64)[None, :]).reshape(-1)


def merge_runs(starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """The union of the inclusive byte intervals ``[starts[k], ends[k]]`` as sorted, disjoint,
    non-adjacent runs: an ``(n, 2)`` int64 array of ``(first, last)``."""
    starts, ends = np.asarray(starts, np.int64).reshape(-1), np.asarray(ends, np.int64).reshape(-1)
    if not starts.size:
        return np.zeros((0, 2), np.int64)
    order = np.argsort(starts, kind="stable")
    lo, hi = starts[order], np.maximum.accumulate(ends[order])
    new = np.empty(lo.size, bool)
    new[0] = True
    new[1:] = lo[1:] > hi[:-1] + 1          # a gap before it: a run starts here
    first = np.flatnonzero(new)
    last = np.append(first[1:] - 1, lo.size - 1)
    return np.stack([lo[first], hi[last]], axis=1)


def runs_meet(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether two run arrays of :func:`merge_runs` share a byte."""
    if not len(a) or not len(b):
        return False
    k = np.searchsorted(b[:, 1], a[:, 0])    # per run of a, the first run of b not ending before it
    ok = k < len(b)
    return bool((b[k[ok], 0] <= a[ok, 1]).any())


@dataclass(frozen=True)
class Bytes:
    """The external bytes of a DMA box walk: ``addr + y * ys + x * xs + [0, nbytes)`` for
    ``x < nx``, ``y < ny`` (strides are unsigned, so ``first`` and ``last`` are the walk's ends)."""

    addr: int
    nbytes: int
    nx: int = 1
    ny: int = 1
    xs: int = 0
    ys: int = 0

    @property
    def first(self) -> int:
        return self.addr

    @property
    def last(self) -> int:
        return self.addr + (self.ny - 1) * self.ys + (self.nx - 1) * self.xs + self.nbytes - 1

    @cached_property
    def runs(self) -> np.ndarray:
        """Every byte touched, as :func:`merge_runs` runs (the walk's lines where they touch or
        overlap merged; a row whose lines are contiguous is one run)."""
        if not (self.nx and self.ny and self.nbytes):
            return np.zeros((0, 2), np.int64)
        if self.nx > 1 and self.xs <= self.nbytes:      # each row is one run
            row = (0, (self.nx - 1) * self.xs + self.nbytes - 1)
            starts = self.addr + self.ys * np.arange(self.ny, dtype=np.int64)
            return merge_runs(starts + row[0], starts + row[1])
        starts = (self.addr + self.ys * np.arange(self.ny, dtype=np.int64)[:, None]
                  + self.xs * np.arange(self.nx, dtype=np.int64)[None, :])
        return merge_runs(starts, starts + self.nbytes - 1)

    def meets(self, other: Bytes) -> bool:
        """Whether the two walks share a byte."""
        if self.first > other.last or other.first > self.last:
            return False
        return runs_meet(self.runs, other.runs)


@dataclass(frozen=True)
class Access:
    """One operand of an instruction: ``space`` a scratchpad with its :class:`Lines`, or ``"EXT"``
    with its external :class:`Bytes`; whether the instruction reads and / or writes
    it; ``what`` names the operand in a fault; ``role`` marks a binary VEC's two sources (the
    bank rule that they lie in different banks)."""

    space: str
    where: Lines | Bytes
    write: bool
    what: str
    read: bool | None = None            # None: the opposite of ``write``
    role: str = ""

    @property
    def reads(self) -> bool:
        return (not self.write) if self.read is None else self.read


def _dma(d, cfg: HwConfig) -> list[Access]:
    load = d.name == "LOAD"
    space = SPACE_ENUM[d.sp]
    out = [Access(space, Lines(d.sp_addr, d.x_size * d.y_size), load, "box")]
    rows, cols = dma_geometry(d, load)
    nbytes = d.len * ELEMENT_BYTES[space]
    if rows > 0 and cols > 0 and nbytes:
        out.append(Access("EXT", Bytes(d.ext_addr, nbytes, cols, rows, d.x_stride, d.y_stride), not load,
                          "external bytes"))
    return out


def _gemm(d, cfg: HwConfig) -> list[Access]:
    out = [Access("ACT", Lines(d.act, d.nx, d.ny * (d.kt + 1), d.act_xs, d.act_ys), False, "activation"),
           Access("ACC", Lines(d.acc, d.nx, d.ny, d.acc_xs, d.acc_ys), True, "result", read=bool(d.accumulate or d.kt))]
    return out + ([Access("WGT", Lines(d.wgt, (d.kt + 1) * cfg.rows), False, "weight tiles")] if d.preload else [])


def _dwconv(d, cfg: HwConfig) -> list[Access]:
    h, w = dw_window(d)
    return [Access("ACT", Lines(d.act, w, h, 1, d.act_ys), False, "input window"),
            Access("ACC", Lines(d.acc, d.nx, d.ny, 1, d.acc_ys), True, "result", read=bool(d.accumulate)),
            Access("WGT", Lines(d.wgt, cfg.rows), False, "filter tile")]


def _vec(d, cfg: HwConfig) -> list[Access]:
    vf = VEC_BY_CODE[d.func]
    out = [Access(vf.dst, Lines(d.dst, d.nx, d.ny, d.dst_xs, d.dst_ys), True, "destination",
                  read=vf.name == "SUMW" and bool(d.accumulate)),
           Access(vf.src, Lines(d.src, d.nx, d.ny, d.src_xs, d.src_ys), False, "source", role="src")]
    if vf.binary:       # the second source walks as the destination does
        out.append(Access(vf.src2, Lines(d.src2, d.nx, d.ny, d.dst_xs, d.dst_ys), False, "second source",
                          role="src2"))
    p = vf.param_lines(cfg.cols) if vf.params else 0
    return out + ([Access("VEC", Lines(d.param, p), False, "parameter block")] if p else [])


def _rdperf(d, cfg: HwConfig) -> list[Access]:
    return [Access("EXT", Bytes(d.ext_addr, 8 * N_COUNTERS), True, "counter snapshot")]


#: Instruction name -> its operands (NOP and FINISH touch nothing).
FOOTPRINTS: dict[str, Callable[..., list[Access]]] = {
    "LOAD": _dma, "STORE": _dma, "GEMM": _gemm, "DWCONV": _dwconv, "VEC": _vec, "RDPERF": _rdperf,
}


def footprint(d, cfg: HwConfig) -> list[Access]:
    """The operands of decoded instruction ``d`` on configuration ``cfg``."""
    fn = FOOTPRINTS.get(d.name)
    return fn(d, cfg) if fn is not None else []
