"""The rows x cols weight-stationary systolic array, with operand zero points removed at its edge.

Contract:

- Two weight buffers (double buffering). Weight load: with ``w_we`` high, ``w_row`` selects array
  row ``i``, ``w_sel`` the buffer ``b`` and ``w_data`` holds the ``cols`` raw 8-bit weights
  ``W_b[i, 0..cols-1]``; the cell stores ``W_b[i, j] - w_zp``. One row per cycle, so a full tile
  takes ``rows`` cycles. Weights stay until overwritten.
- Streaming: each cycle with ``a_valid`` high, ``a_data`` holds ``rows`` raw 8-bit activations
  ``A[0..rows-1]`` of one input vector and ``a_sel`` the buffer ``b`` it multiplies. After exactly
  :attr:`SystolicArray.latency` cycles, ``o_valid`` is high and
  ``o_data[j] = sum_i (A[i] - a_zp) * (W_b[i, j] - w_zp)`` (int32), for every j at once; one vector
  in per cycle, one out per cycle (fully pipelined).
- Loading one buffer while vectors stream through the other is safe: a weight row presented at
  cycle ``c`` reaches column ``j`` at ``c + j``, the same skew the activations have, so it replaces
  a cell's weight exactly after the vectors presented up to cycle ``c`` have passed that cell, and
  is in place for every vector presented after ``c``.
- ``a_signed`` / ``w_signed``: the raw 8-bit lanes are int8 (1) or uint8 (0); a zero point is a
  9-bit signed value (-128..255). ``a_signed``, ``a_zp`` must be held while vectors are in flight.

Inside, the zero point is removed combinationally, row ``i`` of the input is delayed ``i`` cycles
(skew), activations (with their buffer-select bit) move right and partial sums move down one cell
per cycle, column ``j`` of the weight rows is delayed ``j`` cycles, and column ``j`` of the result
is delayed ``cols - 1 - j`` cycles (de-skew). Partial sums inside are
:func:`~nnaccel.hw.pe.partial_sum_width` bits (exact, no wrap) and sign-extended to 32 bits at the
bottom edge. The software model is :func:`array_model`.
"""

from __future__ import annotations

import numpy as np
from amaranth.hdl import Module, Mux, Signal, signed, unsigned
from amaranth.lib import data, wiring
from amaranth.lib.wiring import In, Out

from .pe import ACC_WIDTH, OPERAND_WIDTH, PE, partial_sum_width

__all__ = ["SystolicArray", "array_latency", "array_model"]


def array_latency(rows: int, cols: int) -> int:
    """Cycles from a vector entering (``a_valid``) to its result (``o_valid``): ``rows + cols - 1``
    (``rows - 1`` skew + ``rows`` cells down + ``cols - 1`` de-skew); the GEMM cycle formula of the
    ISA, ``preload + (kt + 1) * max(nx * ny, rows) + rows + cols``, leaves exactly this much after
    the last tile's streaming slot (the activation read one cycle before it enters)."""
    return rows + cols - 1


def array_model(a: np.ndarray, w: np.ndarray, a_zp: int = 0, w_zp: int = 0) -> np.ndarray:
    """The software model: ``(A - a_zp) @ (W - w_zp)`` with int32 wrap-around; A is (n, rows), W (rows, cols)."""
    acc = (np.asarray(a, np.int64) - a_zp) @ (np.asarray(w, np.int64) - w_zp)
    return (((acc + (1 << 31)) & 0xFFFFFFFF) - (1 << 31)).astype(np.int32)


def _extend(raw, is_signed):
    """A raw 8-bit lane as a 9-bit signed value: sign- or zero-extended."""
    return Mux(is_signed, raw.as_signed(), raw.as_unsigned())


class SystolicArray(wiring.Component):
    """``rows`` x ``cols`` MAC array (see the module docstring). ``dsp_cells`` cells (row-major
    first) use a ``*`` that Yosys may map to a DSP; the rest use LUT multipliers."""

    def __init__(self, rows: int, cols: int, dsp_cells: int | None = None):
        self.rows, self.cols = rows, cols
        self.dsp_cells = rows * cols if dsp_cells is None else dsp_cells
        self.latency = array_latency(rows, cols)
        super().__init__({
            "w_we": In(1),
            "w_sel": In(1),
            "w_row": In(range(max(rows, 2))),
            "w_data": In(data.ArrayLayout(unsigned(8), cols)),
            "w_signed": In(1),
            "w_zp": In(signed(OPERAND_WIDTH)),
            "a_valid": In(1),
            "a_data": In(data.ArrayLayout(unsigned(8), rows)),
            "a_sel": In(1),
            "a_signed": In(1),
            "a_zp": In(signed(OPERAND_WIDTH)),
            "o_valid": Out(1),
            "o_data": Out(data.ArrayLayout(signed(ACC_WIDTH), cols)),
        })

    def elaborate(self, platform):
        m = Module()
        R, C = self.rows, self.cols
        psw = min(ACC_WIDTH, partial_sum_width(R))
        pes = [[None] * C for _ in range(R)]
        for i in range(R):
            for j in range(C):
                pe = PE(use_dsp=(i * C + j) < self.dsp_cells, ps_width=psw)
                m.submodules[f"pe_{i}_{j}"] = pe
                pes[i][j] = pe

        def delay(sig, n, name):
            prev = sig
            for k in range(n):
                d = Signal.like(sig, name=f"{name}_{k}")
                m.d.sync += d.eq(prev)
                prev = d
            return prev

        # input stage: remove the zero point (combinational), then skew row i by i cycles; the
        # buffer-select bit travels with the activation
        for i in range(R):
            a0 = Signal(signed(OPERAND_WIDTH), name=f"a_in{i}")
            m.d.comb += a0.eq(_extend(self.a_data[i], self.a_signed) - self.a_zp)
            m.d.comb += [pes[i][0].a_in.eq(delay(a0, i, f"a_skew{i}")),
                         pes[i][0].sel_in.eq(delay(self.a_sel, i, f"s_skew{i}"))]
            for j in range(1, C):
                m.d.comb += [pes[i][j].a_in.eq(pes[i][j - 1].a_out),
                             pes[i][j].sel_in.eq(pes[i][j - 1].sel_out)]

        # weights: one row per cycle, zero point removed on the way in, column j delayed j cycles
        for j in range(C):
            wj = Signal(signed(OPERAND_WIDTH), name=f"w_in{j}")
            m.d.comb += wj.eq(_extend(self.w_data[j], self.w_signed) - self.w_zp)
            we = delay(self.w_we, j, f"w_we_skew{j}")
            row = delay(self.w_row, j, f"w_row_skew{j}")
            sel = delay(self.w_sel, j, f"w_sel_skew{j}")
            wd = delay(wj, j, f"w_skew{j}")
            for i in range(R):
                pe = pes[i][j]
                m.d.comb += [
                    pe.w_load.eq(we & (row == i)),
                    pe.w_sel.eq(sel),
                    pe.w_in.eq(wd),
                    pe.ps_in.eq(0 if i == 0 else pes[i - 1][j].ps_out),
                ]

        # de-skew: column j waits cols-1-j cycles, then sign-extends to 32 bits
        for j in range(C):
            m.d.comb += self.o_data[j].eq(delay(pes[R - 1][j].ps_out, C - 1 - j, f"o_skew{j}"))

        # valid travels beside the data: a fixed-length shift register
        vpipe = Signal(self.latency)
        m.d.sync += vpipe.eq((vpipe << 1) | self.a_valid)
        m.d.comb += self.o_valid.eq(vpipe[-1])
        return m
