"""Processing element: one int8/uint8 multiply-accumulate cell of the weight-stationary array.

Operands travel in sign-magnitude form: an 8-bit value (int8 or uint8) minus its zero point lies in
[-255, 255], i.e. an 8-bit magnitude and a sign bit. So every product is an 8 x 8 UNSIGNED
multiply of the magnitudes, and the cell adds or subtracts it by the XOR of the signs (exact, no
correction terms). An iCE40 SB_MAC16 holds two such products (its 8x8 mode, see
:class:`Dual8x8`); the plain ``*`` (``mul="dsp"``) is what simulators run and what a DSP mapper
may infer; ``mul="lut"`` builds the product from shifted partial products so that Yosys keeps it
in LUTs (a device has a fixed number of DSP multipliers; the array hands them out);
``mul="ext"`` leaves the product to the parent (``m_a``, ``m_b`` out, ``m_p`` in: a shared DSP).

Contract (one clock per step; every output is a register):

- two stationary weights ``w[0]``, ``w[1]`` (double buffering: one is loaded while the other is in
  use). ``w_load``: ``w[w_sel]`` := (``w_in``, ``w_neg``) (magnitude and sign of the weight minus
  its zero point).
- every cycle: ``a_out := a_in``, ``a_neg_out := a_neg``, ``sel_out := sel_in`` (the activation
  and the select bit that travel with it move one column right) and
  ``ps_out := ps_in +- a_in * w[sel_in]`` (minus when exactly one of ``a_neg`` and the weight's sign
  is set; the partial sum moves one row down), wrapping at ``ps_width`` bits (32 by default; the
  array narrows it to what ``rows`` products can reach and sign-extends at its bottom edge).
"""

from __future__ import annotations

from amaranth.hdl import Cat, Const, Instance, Module, Mux, Signal, signed, unsigned
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

MAG_WIDTH = 8
OPERAND_WIDTH = 9          # a zero-point-free operand: 8-bit magnitude + sign, i.e. [-255, 255]
ACC_WIDTH = 32

__all__ = ["ACC_WIDTH", "MAG_WIDTH", "OPERAND_WIDTH", "PE", "SB_MAC16_DUAL8", "Dual8x8", "lut_multiply",
           "partial_sum_width", "sign_magnitude"]


def partial_sum_width(rows: int) -> int:
    """Bits that hold every partial sum of ``rows`` products of 9-bit operands in [-255, 255]
    exactly: ``ceil(log2(rows * 255 * 255)) + 1`` (sign)."""
    return (rows * 255 * 255).bit_length() + 1


def sign_magnitude(m: Module, raw, is_signed, zp, name: str):
    """A raw 8-bit lane (int8 when ``is_signed``, else uint8) minus its zero point ``zp`` (9-bit
    signed, in the range of the lane's type, as NNAPI requires) as (magnitude 8 bits, sign).
    Both are moved into [0, 255] by flipping the sign bit of int8 (``x ^ 0x80`` = ``x + 128``),
    which leaves their difference unchanged."""
    flip = Cat(Const(0, 7), is_signed)
    d = Signal(signed(MAG_WIDTH + 1), name=f"{name}_d")
    m.d.comb += d.eq((raw ^ flip).as_unsigned() - (zp[:MAG_WIDTH] ^ flip).as_unsigned())
    neg = Signal(name=f"{name}_neg")
    mag = Signal(MAG_WIDTH, name=f"{name}_mag")
    m.d.comb += [neg.eq(d[-1]), mag.eq(Mux(neg, -d, d)[:MAG_WIDTH])]
    return mag, neg


def lut_multiply(m: Module, a, b, width: int):
    """``a * b`` (unsigned) as a sum of shifted partial products: no ``$mul`` cell for a DSP mapper.
    The partial products are summed in one chained expression (Yosys builds one carry-save
    ``$macc`` from it): on a cell with an 8 x 8 product 192 LUT4 on iCE40 / 429 on ECP5, against
    205 / 519 for a balanced tree of two-input adders (measured with ``synthesize`` on one
    ``PE(mul="lut")``, harness included)."""
    total = None
    for k in range(len(b)):
        pp = Signal(width, name=f"pp{k}")
        m.d.comb += pp.eq(Mux(b[k], a.as_unsigned() << k, 0))
        total = pp if total is None else total + pp
    out = Signal(width)
    m.d.comb += out.eq(total)
    return out


#: SB_MAC16 in its 8x8 mode, no registers, both adders bypassed: ``O[31:16] = A[15:8] * B[15:8]``,
#: ``O[15:0] = A[7:0] * B[7:0]`` (unsigned). Checked against Yosys' own behavioural model of the
#: cell (``ice40/cells_sim.v``) by ``tests/hw/test_array.py::test_sb_mac16_dual8_against_yosys_model``.
SB_MAC16_DUAL8 = {
    "NEG_TRIGGER": 0, "C_REG": 0, "A_REG": 0, "B_REG": 0, "D_REG": 0,
    "TOP_8x8_MULT_REG": 0, "BOT_8x8_MULT_REG": 0, "PIPELINE_16x16_MULT_REG1": 0, "PIPELINE_16x16_MULT_REG2": 0,
    "TOPOUTPUT_SELECT": 2, "TOPADDSUB_LOWERINPUT": 0, "TOPADDSUB_UPPERINPUT": 0, "TOPADDSUB_CARRYSELECT": 0,
    "BOTOUTPUT_SELECT": 2, "BOTADDSUB_LOWERINPUT": 0, "BOTADDSUB_UPPERINPUT": 0, "BOTADDSUB_CARRYSELECT": 0,
    "MODE_8x8": 1, "A_SIGNED": 0, "B_SIGNED": 0,
}


class Dual8x8(wiring.Component):
    """Two independent 8 x 8 unsigned products: ``p0 = a0 * b0``, ``p1 = a1 * b1`` (16 bits each).
    ``instance=True``: one hand-instantiated iCE40 SB_MAC16 in its 8x8 mode (Yosys infers only its
    16x16 mode); ``instance=False``: two plain ``*`` (simulators have no SB_MAC16)."""

    def __init__(self, instance: bool):
        self.instance = instance
        super().__init__({"a0": In(8), "b0": In(8), "a1": In(8), "b1": In(8), "p0": Out(16), "p1": Out(16)})

    def elaborate(self, platform):
        m = Module()
        if not self.instance:
            m.d.comb += [self.p0.eq(self.a0 * self.b0), self.p1.eq(self.a1 * self.b1)]
            return m
        o = Signal(32)
        zero16 = Signal(16)
        params = {f"p_{k}": v for k, v in SB_MAC16_DUAL8.items()}
        ports = {"i_CLK": 0, "i_CE": 0, "i_C": zero16, "i_A": Cat(self.a0, self.a1), "i_B": Cat(self.b0, self.b1),
                 "i_D": zero16, "o_O": o}
        for pin in ("AHOLD", "BHOLD", "CHOLD", "DHOLD", "IRSTTOP", "IRSTBOT", "ORSTTOP", "ORSTBOT", "OLOADTOP",
                    "OLOADBOT", "ADDSUBTOP", "ADDSUBBOT", "OHOLDTOP", "OHOLDBOT", "CI", "ACCUMCI", "SIGNEXTIN"):
            ports[f"i_{pin}"] = 0
        m.submodules.mac = Instance("SB_MAC16", **params, **ports)
        m.d.comb += [self.p0.eq(o[:16]), self.p1.eq(o[16:])]
        return m


class PE(wiring.Component):
    """One weight-stationary MAC cell (see the module docstring for the contract)."""

    def __init__(self, mul: str = "dsp", ps_width: int = ACC_WIDTH):
        assert mul in ("dsp", "lut", "ext"), mul
        self.mul = mul
        self.ps_width = ps_width
        ports = {
            "w_load": In(1),
            "w_sel": In(1),
            "w_in": In(unsigned(MAG_WIDTH)),
            "w_neg": In(1),
            "a_in": In(unsigned(MAG_WIDTH)),
            "a_neg": In(1),
            "sel_in": In(1),
            "ps_in": In(signed(ps_width)),
            "a_out": Out(unsigned(MAG_WIDTH)),
            "a_neg_out": Out(1),
            "sel_out": Out(1),
            "ps_out": Out(signed(ps_width)),
        }
        if mul == "ext":
            ports.update({"m_a": Out(MAG_WIDTH), "m_b": Out(MAG_WIDTH), "m_p": In(2 * MAG_WIDTH)})
        super().__init__(ports)

    def elaborate(self, platform):
        m = Module()
        w0 = Signal(OPERAND_WIDTH)          # {sign, magnitude}
        w1 = Signal(OPERAND_WIDTH)
        with m.If(self.w_load & ~self.w_sel):
            m.d.sync += w0.eq(Cat(self.w_in, self.w_neg))
        with m.If(self.w_load & self.w_sel):
            m.d.sync += w1.eq(Cat(self.w_in, self.w_neg))
        w = Signal(OPERAND_WIDTH)
        m.d.comb += w.eq(Mux(self.sel_in, w1, w0))
        wmag = w[:MAG_WIDTH]
        if self.mul == "dsp":
            prod = self.a_in * wmag
        elif self.mul == "lut":
            prod = lut_multiply(m, self.a_in, wmag, 2 * MAG_WIDTH)
        else:
            m.d.comb += [self.m_a.eq(self.a_in), self.m_b.eq(wmag)]
            prod = self.m_p
        neg = Signal()
        m.d.comb += neg.eq(self.a_neg ^ w[MAG_WIDTH])
        p = Signal(2 * MAG_WIDTH)
        m.d.comb += p.eq(prod)
        # ps +- p as one adder: ps + (p ^ neg...) + neg (two's complement negation folded in)
        sp = Signal(self.ps_width)
        m.d.comb += sp.eq(p ^ neg.replicate(self.ps_width))
        m.d.sync += [
            self.a_out.eq(self.a_in),
            self.a_neg_out.eq(self.a_neg),
            self.sel_out.eq(self.sel_in),
            self.ps_out.eq((self.ps_in + sp + neg)[:self.ps_width].as_signed()),
        ]
        return m
