"""Processing element: one int8/uint8 multiply-accumulate cell of the weight-stationary array.

Contract (one clock per step; every output is a register):

- ``w_load``: ``w`` (the stationary weight, already minus its zero point, 9-bit signed) := ``w_in``.
- every cycle: ``a_out := a_in`` (the activation moves one column right) and
  ``ps_out := ps_in + a_in * w`` (the partial sum moves one row down), int32 with wrap-around,
  the same as the int32 accumulator of the golden model (which never overflows for real layers).

Operands are 9-bit signed: an 8-bit value (int8 or uint8) minus its zero point lies in [-255, 255].
The product needs 18 bits; ``use_dsp=False`` builds it from shifted partial products so that Yosys
keeps it in LUTs (a device has a fixed number of DSP multipliers; the array hands them out).
"""

from __future__ import annotations

from amaranth.hdl import Cat, Module, Signal, signed
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

OPERAND_WIDTH = 9
ACC_WIDTH = 32

__all__ = ["ACC_WIDTH", "OPERAND_WIDTH", "PE", "lut_multiply"]


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

    def __init__(self, use_dsp: bool = True):
        self.use_dsp = use_dsp
        super().__init__({
            "w_load": In(1),
            "w_in": In(signed(OPERAND_WIDTH)),
            "a_in": In(signed(OPERAND_WIDTH)),
            "ps_in": In(signed(ACC_WIDTH)),
            "a_out": Out(signed(OPERAND_WIDTH)),
            "ps_out": Out(signed(ACC_WIDTH)),
        })

    def elaborate(self, platform):
        m = Module()
        w = Signal(signed(OPERAND_WIDTH))
        with m.If(self.w_load):
            m.d.sync += w.eq(self.w_in)
        if self.use_dsp:
            prod = self.a_in * w
        else:
            prod = lut_multiply(m, self.a_in, w, 2 * OPERAND_WIDTH)
        m.d.sync += [
            self.a_out.eq(self.a_in),
            self.ps_out.eq(self.ps_in + prod),
        ]
        return m
