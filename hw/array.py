"""The rows x cols weight-stationary systolic array, with operand zero points removed at its edge.

Contract:

- Two weight buffers (double buffering; with ``buffers = 1`` one, and ``w_sel`` / ``a_sel`` are
  unused: the GEMM engine loads a tile only after the previous tile's vectors, see the ISA's
  ``weight_buffers``). Weight load: with ``w_we`` high, ``w_row`` selects array
  row ``i``, ``w_sel`` the buffer ``b`` and ``w_data`` holds the ``cols`` raw 8-bit weights
  ``W_b[i, 0..cols-1]``; the cell stores ``W_b[i, j] - w_zp``. One row per cycle, so a full tile
  takes ``rows`` cycles. Weights stay until overwritten.
- Streaming: each cycle with ``a_valid`` high, ``a_data`` holds ``rows`` raw 8-bit activations
  ``A[0..rows-1]`` of one input vector and ``a_sel`` the buffer ``b`` it multiplies. After exactly
  :attr:`SystolicArray.latency` cycles, ``o_valid`` is high and
  ``o_data[j] = sum_i (A[i] - a_zp) * (W_b[i, j] - w_zp)`` (int32), for every j at once; one vector
  in per cycle, one out per cycle (fully pipelined).
- Loading one buffer while vectors stream through the other is safe: weight row ``i`` presented
  at cycle ``c`` reaches column ``j`` at ``c + 1 + j`` (its zero point is removed into a register
  first), a vector presented at cycle ``a`` reaches row ``i``'s cell ``j`` at ``a + i + j`` (the
  same column skew), so the row replaces its cells' weights right after the vectors presented up
  to cycle ``c + 1 - i`` have passed them: a tile presented row by row from cycle ``c`` on (row
  ``i`` at ``c + i``) is used by every vector presented from ``c + 2`` on, and by none before.
- ``a_signed`` / ``w_signed``: the raw 8-bit lanes are int8 (1) or uint8 (0); a zero point is a
  9-bit signed value in the range of its lane's type (int8: -128..127, uint8: 0..255; NNAPI's rule,
  which the GEMM engine's 8-bit ``za`` / ``zw`` fields guarantee). ``a_signed``, ``a_zp`` must be
  held while vectors are in flight.

Inside, the zero point is removed (from an activation combinationally, from a weight row into a
register), giving an 8-bit magnitude and a sign (see
:mod:`~nnaccel.hw.pe`: every product is 8 x 8 unsigned, two of them fit one iCE40 SB_MAC16), row
``i`` of the input is delayed ``i`` cycles (skew), activations (with their sign and buffer-select
bit) move right and partial sums move down one cell
per cycle, column ``j`` of the weight rows is delayed ``j`` cycles, and column ``j`` of the result
is delayed ``cols - 1 - j`` cycles (de-skew). Partial sums of row ``i`` are
:func:`~nnaccel.hw.pe.partial_sum_width` ``(i + 1)`` bits (exact, no wrap; sign-extended into the
next row) and sign-extended to 32 bits at the bottom edge. The software model is :func:`array_model`.
"""

from __future__ import annotations

import numpy as np
from amaranth.hdl import Cat, Module, Mux, Signal, signed, unsigned
from amaranth.lib import data, wiring
from amaranth.lib.memory import Memory
from amaranth.lib.wiring import In, Out

from nnaccel.isa.table import PE_PIPELINE, array_drain

from .pe import (
    ACC_WIDTH,
    OPERAND_WIDTH,
    PE,
    Dual8x8,
    partial_sum_width,
    sign_magnitude,
    to_sign_magnitude,
    zero_point_free,
)

__all__ = ["SystolicArray", "array_latency", "array_model"]


def array_latency(rows: int, cols: int, pipeline: int = 0) -> int:
    """Cycles from a vector entering (``a_valid``) to its result (``o_valid``): ``rows + cols - 1 +
    pipeline`` (``rows - 1`` skew + ``rows`` cells down + ``cols - 1`` de-skew + the product's
    register): the ISA's ``array_drain`` (the GEMM / DWCONV term after the last streaming slot)
    less the cycle of the activation's read, one before it enters."""
    return array_drain(rows, cols, pipeline) - 1


def array_model(a: np.ndarray, w: np.ndarray, a_zp: int = 0, w_zp: int = 0) -> np.ndarray:
    """The software model: ``(A - a_zp) @ (W - w_zp)`` with int32 wrap-around; A is (n, rows), W (rows, cols)."""
    acc = (np.asarray(a, np.int64) - a_zp) @ (np.asarray(w, np.int64) - w_zp)
    return (((acc + (1 << 31)) & 0xFFFFFFFF) - (1 << 31)).astype(np.int32)


class SystolicArray(wiring.Component):
    """``rows`` x ``cols`` MAC array (see the module docstring). ``dsp_cells`` cells (row-major
    first; default all) multiply on DSPs, the rest in LUTs. ``dsp`` says how:

    - ``None``: one plain ``*`` per cell (8 x 8 unsigned; what simulators run, and what Yosys maps
      to one DSP each: an iCE40 SB_MAC16 in its 16x16 mode, an ECP5 MULT18X18D);
    - ``"ice40_dual8"``: two cells per hand-instantiated SB_MAC16 in its 8x8 mode (``dsp_cells``
      cells on ``ceil(dsp_cells / 2)`` SB_MAC16), for synthesis (and Verilator with Yosys' model of
      the cell, see ``tests/hw/test_array.py``);
    - ``"dual8"``: the same pairing with plain products (to simulate the paired wiring);
    - ``"ecp5"``: one signed 9 x 9 product per cell (an ECP5 MULT18X18D), operands in two's
      complement (``PE(mul="signed")``): the zero-point-free values travel as they are computed,
      and are turned into sign-magnitude only where a LUT cell needs them (after a column's skew,
      and in a row where its LUT cells begin), so DSP cells have no sign logic in LUTs; the LUT
      cells multiply in hand-placed CCU2C carry chains (``PE(mul="ccu2c")``, for synthesis, and
      Verilator with Yosys' model of the cell);
    - ``"signed9"``: the same with the CCU2C cells' function in plain logic (to simulate it).
    """

    DSP_KINDS = (None, "dual8", "ice40_dual8", "signed9", "ecp5")

    def __init__(self, rows: int, cols: int, dsp_cells: int | None = None, dsp: str | None = None,
                 buffers: int = 2, line_buffers: int = 0, depthwise: bool = True, pipeline: int = 0):
        assert dsp in self.DSP_KINDS, dsp
        assert pipeline in PE_PIPELINE, pipeline
        self.rows, self.cols = rows, cols
        self.pipeline = pipeline    # the configuration's pe_pipeline: one more cycle of latency
        self.buffers = buffers      # weight tiles a cell holds (1: ``w_sel`` / ``a_sel`` unused)
        self.dsp_cells = rows * cols if dsp_cells is None else min(dsp_cells, rows * cols)
        self.dsp = dsp
        self.latency = array_latency(rows, cols, pipeline)
        self.line_buffers = line_buffers    # depthwise mode: line buffers between filter rows
        self.depthwise = depthwise          # the depthwise mode is built (else ``dw`` is ignored)
        dw_ports = {"dw": In(1), "dw_fw": In(range(rows + 1)), "dw_skip": In(rows)}
        if line_buffers:
            dw_ports.update(dw_fh=In(range(line_buffers + 2)), dw_nx=In(8))
        super().__init__({
            **dw_ports,
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

    @property
    def dsp_blocks(self) -> int:
        """DSP blocks the cells on DSPs take (one per cell, or one per pair with the 8x8 mode)."""
        return self.dsp_cells if self.dsp in (None, "signed9", "ecp5") else (self.dsp_cells + 1) // 2

    def elaborate(self, platform):
        m = Module()
        R, C = self.rows, self.cols
        pes = [[None] * C for _ in range(R)]
        kinds = {}
        for i in range(R):
            for j in range(C):
                k = i * C + j
                ecp5 = self.dsp in ("signed9", "ecp5")
                if k >= self.dsp_cells:
                    mul = "ccu2c" if ecp5 else "lut"
                else:
                    mul = "signed" if ecp5 else "dsp" if self.dsp is None else "ext"
                    if mul == "ext" and k % 2 == 1:
                        mul = "ext_acc"     # the top half of its pair's DSP: it adds the low 16 bits
                    elif mul == "ext" and i == 0 and k + 1 < self.dsp_cells:
                        mul = "ext_first"   # a first-row bottom half: the DSP forms +- the product
                kinds[i, j] = mul
        # the pipeline's register: in every cell (each registers its product), or, where a cell's
        # DSP pair accumulates in the same cycle (the SB_MAC16 pairs), one more de-skew register
        pe_pipe = self.pipeline if all(k in PE.PIPELINED for k in kinds.values()) else 0
        for i in range(R):
            for j in range(C):
                # row i's partial sums hold i + 1 products: exact in partial_sum_width(i + 1) bits
                pe = PE(mul=kinds[i, j], ps_width=min(ACC_WIDTH, partial_sum_width(i + 1)),
                        ccu2c=self.dsp == "ecp5", buffers=self.buffers, pipeline=pe_pipe)
                m.submodules[f"pe_{i}_{j}"] = pe
                pes[i][j] = pe
        # the 8x8 mode: DSP cells 2q and 2q+1 (row-major) share DSP q
        # one weight buffer (C even): a pair's two weights live in its SB_MAC16's B register, loaded
        # in one cycle: the odd column of each pair takes its weights one cycle early (with the
        # even one), which one weight buffer allows: the GEMM engine presents a tile's weights
        # only after the previous tile's last vector, so that vector has used column j + 1's old
        # weight in the very cycle of the load (docs/rtl.md)
        held = self.buffers == 1 and self.dsp in ("dual8", "ice40_dual8") and C % 2 == 0
        areg_macs = []      # (mac, row, column) of the pairs that take their activations early
        if self.dsp in ("dual8", "ice40_dual8"):
            cells = [pes[k // C][k % C] for k in range(self.dsp_cells)]
            for q in range(0, len(cells), 2):
                top = cells[q + 1] if q + 1 < len(cells) else None
                # a row's last pair takes its activations one cycle early, into the cell's A register
                # (the activation a cell passes on is its input of the cycle before: the pair gets
                # the inputs of the cells to its left; the row's last activation register is dead)
                i, j = divmod(q, C)
                areg = top is not None and j + 1 == C - 1 and j >= 1
                mac = Dual8x8(instance=self.dsp == "ice40_dual8", hold_b=held, acc1=top is not None, areg=areg,
                              first0=cells[q].mul == "ext_first")
                m.submodules[f"mac_{q // 2}"] = mac
                if areg:
                    areg_macs.append((mac, i, j))
                m.d.comb += [mac.a0.eq(pes[i][j - 1].a_in if areg else cells[q].m_a), mac.b0.eq(cells[q].m_b),
                             mac.n0.eq(cells[q].m_neg), cells[q].m_p.eq(mac.p0)]
                if held:
                    m.d.comb += mac.b_load.eq(cells[q].m_load)
                if top is not None:     # the top half adds its cell's partial sum (PE "ext_acc")
                    m.d.comb += [mac.a1.eq(cells[q].a_in if areg else top.m_a), mac.b1.eq(top.m_b),
                                 mac.n1.eq(top.m_neg), mac.c1.eq(top.m_c), top.m_p.eq(mac.p1),
                                 top.m_co.eq(mac.co1)]

        def delay(sig, n, name):
            prev = sig
            for k in range(n):
                d = Signal.like(sig, name=f"{name}_{k}")
                m.d.sync += d.eq(prev)
                prev = d
            return prev

        # input stage: remove the zero point (combinational, sign-magnitude), then skew row i by i
        # cycles; the sign and the buffer-select bit travel with the activation
        # (signed cells take the two's complement value: turned into sign-magnitude after the skew
        # or where the row's LUT cells begin)
        # (the depthwise mode takes every row's skewed input, in sign-magnitude, and the value of
        # the cycle before it: ``skew_sm``, ``skew_early``)
        skew_sm, skew_early = [], []
        for i in range(R):
            if pes[i][0].mul == "signed":
                d0 = zero_point_free(m, self.a_data[i], self.a_signed, self.a_zp, f"a_in{i}")
                de = delay(d0, i - 1, f"a_skew{i}") if i else d0
                d = delay(de, 1, f"a_skewl{i}") if i else d0
                m.d.comb += [pes[i][0].a_in.eq(d[:-1]), pes[i][0].a_neg.eq(d[-1])]
                skew_sm.append(to_sign_magnitude(m, d, f"a_dsm{i}"))
                skew_early.append(to_sign_magnitude(m, de, f"a_dsme{i}") if i else None)
            else:
                mag, neg = sign_magnitude(m, self.a_data[i], self.a_signed, self.a_zp, f"a_in{i}")
                me = delay(mag, i - 1, f"a_skew{i}") if i else mag
                ne = delay(neg, i - 1, f"n_skew{i}") if i else neg
                ml = delay(me, 1, f"a_skewl{i}") if i else mag
                nl = delay(ne, 1, f"n_skewl{i}") if i else neg
                m.d.comb += [pes[i][0].a_in.eq(ml), pes[i][0].a_neg.eq(nl)]
                skew_sm.append((ml, nl))
                skew_early.append((me, ne) if i else None)
            if self.buffers == 2:
                m.d.comb += pes[i][0].sel_in.eq(delay(self.a_sel, i, f"s_skew{i}"))
            for j in range(1, C):
                a, neg = pes[i][j - 1].a_out, pes[i][j - 1].a_neg_out
                if pes[i][j - 1].mul == "signed" and pes[i][j].mul != "signed":
                    # the first LUT cell takes sign-magnitude: converted from the input of the cell
                    # before it, into a register that stands in for that cell's a_out (no adder
                    # between the register and the LUT cell's multiplier)
                    prev = pes[i][j - 1]
                    cm, cn = to_sign_magnitude(m, Cat(prev.a_in, prev.a_neg).as_signed(), f"a_sm{i}_{j}")
                    a, neg = Signal.like(cm, name=f"a_smr{i}_{j}"), Signal(name=f"n_smr{i}_{j}")
                    m.d.sync += [a.eq(cm), neg.eq(cn)]
                m.d.comb += [pes[i][j].a_in.eq(a), pes[i][j].a_neg.eq(neg),
                             pes[i][j].sel_in.eq(pes[i][j - 1].sel_out)]
            # LUT cells (the row-major tail) take 3 * a: computed once per row at the first of them
            for j in range(C):
                if pes[i][j].mul == "lut":
                    a3 = pes[i][j - 1].a3_out if j and pes[i][j - 1].mul == "lut" else \
                        pes[i][j].a_in + (pes[i][j].a_in << 1)
                    m.d.comb += pes[i][j].a3_in.eq(a3)

        if self.depthwise and R == C:   # (the depthwise mode takes column j's chain from row j's input)
            self._depthwise(m, pes, skew_sm, skew_early, areg_macs)

        # weights: one row per cycle, zero point removed on the way in into a register (the row's
        # write enable, row and buffer wait with it), column j delayed j cycles more (with signed
        # cells in the column: the two's complement value is delayed, and turned into
        # sign-magnitude after the skew for the column's LUT cells)
        for j in range(C):
            dj = (j - j % 2 if held else j) + 1     # (held: a pair's odd column loads with the even one)
            we = delay(self.w_we, dj, f"w_we_skew{j}")
            row = delay(self.w_row, dj, f"w_row_skew{j}")
            sel = delay(self.w_sel, j + 1, f"w_sel_skew{j}") if self.buffers == 2 else 0
            kinds = {pes[i][j].mul == "signed" for i in range(R)}
            if True in kinds:
                d = delay(zero_point_free(m, self.w_data[j], self.w_signed, self.w_zp, f"w_in{j}"), j + 1,
                          f"w_skew{j}")
                wd = (d[:-1], d[-1])
                wm, wn = to_sign_magnitude(m, d, f"w_sm{j}") if False in kinds else wd
            else:
                mag, neg = sign_magnitude(m, self.w_data[j], self.w_signed, self.w_zp, f"w_in{j}")
                wm, wn = delay(mag, dj, f"w_skew{j}"), delay(neg, dj, f"w_nskew{j}")
            for i in range(R):
                pe = pes[i][j]
                win, wneg = wd if pe.mul == "signed" else (wm, wn)
                m.d.comb += [
                    pe.w_load.eq(we & (row == i)),
                    pe.w_sel.eq(sel),
                    pe.w_in.eq(win),
                    pe.w_neg.eq(wneg),
                    pe.ps_in.eq(0 if i == 0 else pes[i - 1][j].ps_out),
                ]

        # de-skew: column j waits cols-1-j cycles (and the pipeline's cycle if no cell has it),
        # then sign-extends to 32 bits
        extra = self.pipeline - pe_pipe
        for j in range(C):
            m.d.comb += self.o_data[j].eq(delay(pes[R - 1][j].ps_out, C - 1 - j + extra, f"o_skew{j}"))

        # valid travels beside the data: a fixed-length shift register
        vpipe = Signal(self.latency)
        m.d.sync += vpipe.eq((vpipe << 1) | self.a_valid)
        m.d.comb += self.o_valid.eq(vpipe[-1])
        return m

    def _depthwise(self, m, pes, skew_sm, skew_early, areg_macs):
        """The depthwise mode (``dw``): cell (i, j) multiplies byte j of the line that entered
        ``2 * i`` cycles before the one row i's skew would give it (row i holds tap T - 1 - i), so
        each column keeps its own channel: column j's chain starts at row j's skewed input (which
        is byte j of the line, delayed j cycles: the column's skew), and each row adds two registers;
        at the first row of filter row k (row k * fw) a line buffer adds ``dw_nx - 1`` cycles more
        (one input row of ``dw_nx + fw - 1`` lines). ``dw_skip[i]`` beside a vector: row ``i``'s tap
        of that window position adds 0 (zero padding): the flag follows the position's partial sum,
        ``i`` cycles to column 0 of row ``i``, then one column a cycle. Values travel in
        sign-magnitude form; the cells' own activation chain is unused. Square arrays only (the
        accelerator's); a non-square one ignores ``dw``."""
        R, C = self.rows, self.cols
        W = 9 * C

        def pack(vals):
            return Cat(*[Cat(mg, ng) for mg, ng in vals])

        def unpack(v):
            return [(v[9 * j:9 * j + 8], v[9 * j + 8]) for j in range(C)]

        d_rows = [pack(skew_sm[j] for j in range(C))]      # row i's value (all columns)
        early = [pack(skew_early[j] if j else skew_sm[0] for j in range(C))]  # ... one cycle before
        bufs = []
        for k in range(1, self.line_buffers + 1):
            # line buffer k: written with the value of row k * fw - 1, read nx cycles later
            mem = Memory(shape=W, depth=256, init=[])
            m.submodules[f"dw_line{k}"] = mem
            wp = Signal(8, name=f"dw_wp{k}")
            m.d.sync += wp.eq(wp + 1)
            wr = mem.write_port()
            rd = mem.read_port(transparent_for=(wr,))
            src = Signal(W, name=f"dw_lb{k}_in")
            m.d.comb += [wr.addr.eq(wp), wr.data.eq(src), wr.en.eq(1), rd.addr.eq(wp - self.dw_nx + 1)]
            out = Signal(W, name=f"dw_lb{k}_out")
            m.d.sync += out.eq(rd.data)
            bufs.append((k, src, rd.data, out))
        for i in range(1, R):
            e = Signal(W, name=f"dw_e{i}")
            d = Signal(W, name=f"dw_d{i}")
            m.d.sync += [e.eq(d_rows[i - 1]), d.eq(e)]
            dv, ev = d, e
            for k, _, lb_early, lb_out in bufs:
                here = (self.dw_fh > k) & (self.dw_fw * k == i)
                dv, ev = Mux(here, lb_out, dv), Mux(here, lb_early, ev)
            dm, em = Signal(W, name=f"dw_dm{i}"), Signal(W, name=f"dw_em{i}")
            m.d.comb += [dm.eq(dv), em.eq(ev)]
            d_rows.append(dm)
            early.append(em)
        for k, src, _, _ in bufs:
            sel = d_rows[0]
            for i in range(R):
                sel = Mux(self.dw_fw * k == i + 1, d_rows[i], sel)
            m.d.comb += src.eq(sel)

        def as_cell(pe, mag, neg, name):
            """A sign-magnitude value in the representation of cell ``pe``'s activation input."""
            if pe.mul != "signed":
                return mag, neg
            d = Signal(9, name=name)
            m.d.comb += d.eq(Mux(neg, -mag, mag))
            return d[:8], d[8]

        # the skip flags where each cell multiplies the position's value: row i, column j at
        # i + j cycles after the vector
        def delay(sig, n, name):
            for k in range(n):
                d = Signal(name=f"{name}_{k}")
                m.d.sync += d.eq(sig)
                sig = d
            return sig

        skip = []
        for i in range(R):
            chain = [delay(self.dw_skip[i], i, f"dw_skip{i}")]
            for j in range(1, C):
                chain.append(delay(chain[-1], 1, f"dw_skip{i}c{j}"))
            skip.append(chain)

        def masked(mag, neg, off):
            return Mux(off, 0, mag), neg & ~off

        with m.If(self.dw):
            for i in range(R):
                vals = unpack(d_rows[i])
                for j in range(C):
                    pe = pes[i][j]
                    mag, neg = as_cell(pe, *masked(*vals[j], skip[i][j]), f"dw_a{i}_{j}")
                    m.d.comb += [pe.a_in.eq(mag), pe.a_neg.eq(neg)]
                    if pe.mul == "lut":
                        m.d.comb += pe.a3_in.eq(pe.a_in + (pe.a_in << 1))
            for mac, i, j in areg_macs:
                # (one cycle early: the flags of the column before, which move on next cycle)
                ev = unpack(early[i])
                m.d.comb += [mac.a0.eq(Mux(skip[i][j - 1], 0, ev[j][0])), mac.a1.eq(Mux(skip[i][j], 0, ev[j + 1][0]))]
