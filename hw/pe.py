"""Processing element: one int8/uint8 multiply-accumulate cell of the weight-stationary array.

Contract (one clock per step; every output is a register):

- two stationary weights ``w[0]``, ``w[1]`` (double buffering: one is loaded while the other is in
  use). ``w_load``: ``w[w_sel]`` (already minus its zero point, 9-bit signed) := ``w_in``.
- every cycle: ``a_out := a_in``, ``sel_out := sel_in`` (the activation and the select bit that
  travels with it move one column right) and ``ps_out := ps_in + a_in * w[sel_in]`` (the partial
  sum moves one row down), wrapping at ``ps_width`` bits (32 by default; the array narrows it to
  what ``rows`` products can reach and sign-extends at its bottom edge).

Operands are 9-bit signed: an 8-bit value (int8 or uint8) minus its zero point lies in [-255, 255].
The product needs 18 bits; ``use_dsp=False`` builds it from shifted partial products so that Yosys
keeps it in LUTs (a device has a fixed number of DSP multipliers; the array hands them out).
"""

from __future__ import annotations

from amaranth.hdl import Cat, Module, Mux, Signal, signed
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

OPERAND_WIDTH = 9
ACC_WIDTH = 32

__all__ = ["ACC_WIDTH", "OPERAND_WIDTH", "PE", "lut_multiply", "partial_sum_width"]


def partial_sum_width(rows: int) -> int:
    """Bits that hold every partial sum of ``rows`` products of 9-bit operands in [-255, 255]
    exactly: ``ceil(log2(rows * 255 * 255)) + 1`` (sign)."""
    return (rows * 255 * 255).bit_length() + 1


def lut_multiply(m: Module, a, b, width: int):
    """``a * b`` (signed) as a sum of shifted partial products: no ``$mul`` cell for a DSP mapper."""
    n = len(b)
    terms = []
    for k in range(n):
        pp = Signal(signed(width), name=f"pp{k}")
        shifted = (a.as_signed() << k)
        # the top bit of a two's-complement multiplier has weight -2**(n-1)
        m.d.comb += pp.eq(((-shifted) if k == n - 1 else shifted) & Cat(*([b[k]] * width)).as_signed())
        terms.append(pp)
    while len(terms) > 1:
        nxt = []
        for i in range(0, len(terms) - 1, 2):
            s = Signal(signed(width))
            m.d.comb += s.eq(terms[i] + terms[i + 1])
            nxt.append(s)
        if len(terms) % 2:
            nxt.append(terms[-1])
        terms = nxt
    return terms[0]


class PE(wiring.Component):
    """One weight-stationary MAC cell (see the module docstring for the contract)."""

    def __init__(self, use_dsp: bool = True, ps_width: int = ACC_WIDTH):
        self.use_dsp = use_dsp
        self.ps_width = ps_width
        super().__init__({
            "w_load": In(1),
            "w_sel": In(1),
            "w_in": In(signed(OPERAND_WIDTH)),
            "a_in": In(signed(OPERAND_WIDTH)),
            "sel_in": In(1),
            "ps_in": In(signed(ps_width)),
            "a_out": Out(signed(OPERAND_WIDTH)),
            "sel_out": Out(1),
            "ps_out": Out(signed(ps_width)),
        })

    def elaborate(self, platform):
        m = Module()
        w0 = Signal(signed(OPERAND_WIDTH))
        w1 = Signal(signed(OPERAND_WIDTH))
        with m.If(self.w_load & ~self.w_sel):
            m.d.sync += w0.eq(self.w_in)
        with m.If(self.w_load & self.w_sel):
            m.d.sync += w1.eq(self.w_in)
        w = Signal(signed(OPERAND_WIDTH))
        m.d.comb += w.eq(Mux(self.sel_in, w1, w0))
        if self.use_dsp:
            prod = self.a_in * w
        else:
            prod = lut_multiply(m, self.a_in, w, 2 * OPERAND_WIDTH)
        m.d.sync += [
            self.a_out.eq(self.a_in),
            self.sel_out.eq(self.sel_in),
            self.ps_out.eq((self.ps_in + prod)[:self.ps_width].as_signed()),
        ]
        return m
