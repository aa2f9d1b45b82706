"""The GEMM engine's walkers."""

from __future__ import annotations

from amaranth.hdl import Const, Module, Mux, Signal


class _Walker:
    """A 2-D strided iterator over lines: ``cur`` is the current value (the base while
    ``restart``), ``advance`` moves to ``x + 1`` (or the next row) at the clock edge."""

    def __init__(self, m: Module, name: str, width: int, restart, base, nx, xs, ys, wrap=None):
        self.cur_r = Signal(width, name=f"{name}_cur")
        self.row_r = Signal(width, name=f"{name}_row")
        self.x_r = Signal(8, name=f"{name}_x")
        self.advance = Signal(name=f"{name}_adv")
        self.cur = Signal(width, name=f"{name}_curc")
        row = Signal(width, name=f"{name}_rowc")
        x = Signal(8, name=f"{name}_xc")
        m.d.comb += [self.cur.eq(Mux(restart, base, self.cur_r)), row.eq(Mux(restart, base, self.row_r)),
                     x.eq(Mux(restart, 0, self.x_r))]
        last = x + 1 >= nx
        wrap = Const(0, 1) if wrap is None else wrap     # advance back to the base (next K tile)
        self.nxt = Signal(width, name=f"{name}_nxt")
        m.d.comb += self.nxt.eq(Mux(wrap, base, Mux(last, row + ys, self.cur + xs)))
        with m.If(self.advance):
            m.d.sync += [self.cur_r.eq(self.nxt), self.row_r.eq(Mux(wrap, base, Mux(last, row + ys, row))),
                         self.x_r.eq(Mux(wrap | last, 0, x + 1))]
        with m.Else():
            m.d.sync += [self.cur_r.eq(self.cur), self.row_r.eq(row), self.x_r.eq(x)]
