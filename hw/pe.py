"""Processing element: one int8/uint8 multiply-accumulate cell of the weight-stationary array.

Operands travel in sign-magnitude form: an 8-bit value (int8 or uint8) minus its zero point lies in
[-255, 255], i.e. an 8-bit magnitude and a sign bit. So every product is an 8 x 8 UNSIGNED
multiply of the magnitudes, and the cell adds or subtracts it by the XOR of the signs (exact, no
correction terms). An iCE40 SB_MAC16 holds two such products (its 8x8 mode, see
:class:`Dual8x8`); the plain ``*`` (``mul="dsp"``) is what simulators run and what a DSP mapper
may infer; ``mul="lut"`` builds the product from multiplexed multiples of the activation (:func:`lut_multiply`,
with ``a3_in`` = 3 * ``a_in``, passed on as ``a3_out``) so that Yosys keeps it in LUTs (a device
has a fixed number of DSP multipliers; the array hands them out);
``mul="signed"`` takes both operands in two's complement instead (``Cat(a_in, a_neg)`` and
``Cat(w_in, w_neg)`` are 9-bit signed values) and adds their signed 9 x 9 product: one signed
multiplier (an ECP5 MULT18X18D) and the partial-sum adder, no sign logic in LUTs;
``mul="ext"`` leaves the product to the parent (``m_a``, ``m_b``, ``m_neg`` out; ``m_p`` in: the
product XORed with ``m_neg`` on all 16 bits, from a shared DSP, see :class:`Dual8x8`).

Contract (one clock per step; every output is a register):

- two stationary weights ``w[0]``, ``w[1]`` (double buffering: one is loaded while the other is in
  use). ``w_load``: ``w[w_sel]`` := (``w_in``, ``w_neg``) (magnitude and sign of the weight minus
  its zero point).
- every cycle: ``a_out := a_in``, ``a_neg_out := a_neg``, ``sel_out := sel_in`` (the activation
  and the select bit that travel with it move one column right) and
  ``ps_out := ps_in +- a_in * w[sel_in]`` (minus when exactly one of ``a_neg`` and the weight's sign
  is set; the partial sum moves one row down), wrapping at ``ps_width`` bits (32 by default; the
  array gives row ``i`` what ``i + 1`` products can reach and sign-extends at its bottom edge).
- ``pipeline=1`` (the configuration's ``pe_pipeline``; kinds :attr:`PE.PIPELINED`): the product
  is registered, so ``ps_out`` takes ``ps_in`` plus the product of the activation (and weight) of
  the cycle before: the array's latency grows by one cycle, the cell's path is the product or the
  accumulation, not both.
"""

from __future__ import annotations

from amaranth.hdl import Cat, ClockSignal, Const, Instance, Module, Mux, ResetSignal, Signal, signed, unsigned
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

from nnaccel.isa.table import PE_PIPELINE

MAG_WIDTH = 8
OPERAND_WIDTH = 9          # a zero-point-free operand: 8-bit magnitude + sign, i.e. [-255, 255]
ACC_WIDTH = 32

__all__ = [
    "ACC_WIDTH",
    "ICE40_ADD_OR_PASS",
    "MAG_WIDTH",
    "OPERAND_WIDTH",
    "PE",
    "SB_MAC16_ACC1",
    "SB_MAC16_DUAL8",
    "SB_MAC16_FIRST0",
    "Dual8x8",
    "add_or_pass",
    "lut_multiply",
    "mult18x18d_registered",
    "partial_sum_width",
    "shift_add_mul",
    "sign_magnitude",
    "to_sign_magnitude",
    "zero_point_free",
]


def partial_sum_width(rows: int) -> int:
    """Bits that hold every partial sum of ``rows`` products of 9-bit operands in [-255, 255]
    exactly: ``ceil(log2(rows * 255 * 255)) + 1`` (sign)."""
    return (rows * 255 * 255).bit_length() + 1


def zero_point_free(m: Module, raw, is_signed, zp, name: str):
    """A raw 8-bit lane (int8 when ``is_signed``, else uint8) minus its zero point ``zp`` (9-bit
    signed, in the range of the lane's type, as NNAPI requires): a 9-bit two's complement value in
    [-255, 255]. Both are moved into [0, 255] by flipping the sign bit of int8 (``x ^ 0x80`` = ``x +
    128``), which leaves their difference unchanged."""
    flip = Cat(Const(0, 7), is_signed)
    d = Signal(signed(OPERAND_WIDTH), name=f"{name}_d")
    m.d.comb += d.eq((raw ^ flip).as_unsigned() - (zp[:MAG_WIDTH] ^ flip).as_unsigned())
    return d


def sign_magnitude(m: Module, raw, is_signed, zp, name: str):
    """:func:`zero_point_free` as (magnitude 8 bits, sign)."""
    return to_sign_magnitude(m, zero_point_free(m, raw, is_signed, zp, name), name)


def to_sign_magnitude(m: Module, d, name: str):
    """A 9-bit two's complement value in [-255, 255] as (magnitude 8 bits, sign)."""
    neg = Signal(name=f"{name}_neg")
    mag = Signal(MAG_WIDTH, name=f"{name}_mag")
    # |d| = d, or ~d + 1 when negative (one adder with carry-in: 47 LUT4 fewer on tiny's array than
    # Mux(neg, -d, d))
    m.d.comb += [neg.eq(d[-1]), mag.eq(((d[:MAG_WIDTH] ^ neg.replicate(MAG_WIDTH)) + neg)[:MAG_WIDTH])]
    return mag, neg


def lut_multiply(m: Module, a, a3, b, width: int):
    """``a * b`` (unsigned) in LUTs, no ``$mul`` cell for a DSP mapper: radix 4 on ``b`` (the
    stationary weight), each 2-bit digit selecting 0, ``a``, ``2a`` or ``a3`` (= ``3a``, computed
    once per array row and passed from cell to cell), the four terms summed in a tree. For one
    ``PE(mul="lut")`` (8 x 8, harness included) ~152 LUT4 on iCE40 / ~177 on ECP5, against 183 / 272
    for eight partial products in a tree (``Mux(b[k], a << k, 0)``; 205 / 519 with AND masks)."""
    terms = []
    for k in range(0, len(b), 2):
        hi = b[k + 1] if k + 1 < len(b) else 0
        d = Signal(len(a3), name=f"digit{k // 2}")
        m.d.comb += d.eq(Mux(hi, Mux(b[k], a3, a.as_unsigned() << 1), Mux(b[k], a, 0)))
        t = Signal(width, name=f"term{k // 2}")
        m.d.comb += t.eq(d << k)
        terms.append(t)
    while len(terms) > 1:
        terms = [terms[i] + terms[i + 1] if i + 1 < len(terms) else terms[i] for i in range(0, len(terms), 2)]
    out = Signal(width)
    m.d.comb += out.eq(terms[0])
    return out


def _ccu2c_init(f) -> int:
    """A CCU2C half's 16-bit INIT for the LUT4 function ``f(a, b, c, d)`` (``A`` the index's LSB)."""
    return sum(int(bool(f(i & 1, i >> 1 & 1, i >> 2 & 1, i >> 3 & 1))) << i for i in range(16))


#: ``A + ((B & C) << 0)``-style halves of hand-placed ECP5 CCU2C adders. A half's carry logic
#: propagates CIN when its LUT4 output is 1 and otherwise outputs the LUT's value at ``C = D = 0``
#: (``INIT[3:0]``, a function of ``A``, ``B``; Yosys' ``ecp5/cells_sim.v``), so a sum bit may
#: include logic: ``PAIR``: bit k of ``(a & w0) + ((a & w1) << 1)`` with A = a[k], B = w0,
#: C = a[k-1], D = w1 (propagate ``(A & B) ^ (C & D)``, generate ``A & B``); ``ADD_XOR``: bit k of
#: ``x + (y ^ n)`` with A = x, B = y, C = n, D = 1 (propagate ``A ^ B ^ C``; at D = 0 the generate
#: ``A``, right whenever the propagate is 0).
CCU2C_PAIR = _ccu2c_init(lambda a, b, c, d: (a & b) ^ (c & d))
CCU2C_ADD_XOR = _ccu2c_init(lambda a, b, c, d: (a ^ b ^ c) if d else a)
#: bit k of ``x + (y & w)``: A = x, B = y, C = w, D = 1 (propagate ``A ^ (B & C)``, generate ``A``).
CCU2C_ADD_AND = _ccu2c_init(lambda a, b, c, d: (a ^ (b & c)) if d else a)


class CarryChain:
    """One chain of ECP5 CCU2C cells built from segments: each :meth:`add` appends sum bits (one
    ``(A, B, C, D)`` each, with that half's LUT ``init``) and returns their outputs at once, so a
    later segment may take an earlier one's sums as inputs. Every segment must end with a bit whose
    carry-out is 0 (propagate and generate 0: ``(0, 0, 0, d)`` for :data:`CCU2C_PAIR` /
    :data:`CCU2C_ADD_AND`), which is then the next segment's carry-in: one chain, so nextpnr adds
    one carry feed-in cell instead of one per adder. ``instance=False`` builds the same function in
    plain logic (simulators have no CCU2C)."""

    def __init__(self, name: str):
        self.name = name
        self.bits = []
        self.outs = []

    def add(self, bits, init: int) -> list:
        outs = [Signal(name=f"{self.name}_s{len(self.outs) + k}") for k in range(len(bits))]
        self.bits += [(*bit, init) for bit in bits]
        self.outs += outs
        return outs

    def build(self, m: Module, cin, instance: bool):
        bits, outs, name = self.bits, self.outs, self.name
        if not instance:
            carry = cin
            for k, (a, b, c, d, init) in enumerate(bits):
                prop, gen, nc = Signal(name=f"{name}_p{k}"), Signal(name=f"{name}_g{k}"), Signal(name=f"{name}_c{k}")
                m.d.comb += [prop.eq(Const(init, 16).bit_select(Cat(a, b, c, d), 1)),
                             gen.eq(Const(init & 15, 4).bit_select(Cat(a, b), 1)),
                             outs[k].eq(prop ^ carry), nc.eq(Mux(prop, carry, gen))]
                carry = nc
            return
        carry = cin
        for q in range(0, len(bits), 2):
            b0 = bits[q]
            b1 = bits[q + 1] if q + 1 < len(bits) else (0, 0, 0, 0, 0)
            s1, co = Signal(name=f"{name}_x{q}"), Signal(name=f"{name}_co{q}")
            m.submodules[f"{name}_{q // 2}"] = Instance(
                "CCU2C", p_INIT0=Const(b0[4], 16), p_INIT1=Const(b1[4], 16), p_INJECT1_0="NO", p_INJECT1_1="NO",
                i_CIN=carry, i_A0=b0[0], i_B0=b0[1], i_C0=b0[2], i_D0=b0[3], i_A1=b1[0], i_B1=b1[1],
                i_C1=b1[2], i_D1=b1[3], o_S0=outs[q], o_S1=s1, o_COUT=co)
            if q + 1 < len(bits):
                m.d.comb += outs[q + 1].eq(s1)
            carry = co


def ccu2c_multiply(chain: CarryChain, a, b):
    """``a * b`` (unsigned, ``len(a) + len(b)`` bits) for ECP5 LUTs, as segments of ``chain``: one
    per weight bit, each AND row added inside the chain's LUTs: rows 0 and 1 as
    :data:`CCU2C_PAIR`, then row k onto the running sum as :data:`CCU2C_ADD_AND` (one LUT4 per sum
    bit, no logic outside the chain). Returns the product's bits."""
    n = len(a)
    w1 = b[1] if len(b) > 1 else Const(0, 1)
    bits = [(a[k] if k < n else 0, b[0], a[k - 1] if k else 0, w1) for k in range(n + 1)]
    bits.append((0, 0, 0, 0))               # the carry, as a sum bit; carry-out 0
    acc = chain.add(bits, CCU2C_PAIR)       # bits 0 .. n + 1 of the running sum
    for k in range(2, len(b)):
        bits = [(acc[k + i] if k + i < len(acc) else 0, a[i], b[k], 1) for i in range(n)]
        bits.append((0, 0, 0, 1))
        acc = acc[:k] + chain.add(bits, CCU2C_ADD_AND)
    return acc[:n + len(b)]


def _lut4_init(f) -> int:
    """An iCE40 SB_LUT4's 16-bit ``LUT_INIT`` for ``f(i0, i1, i2, i3)`` (``I0`` the index's LSB)."""
    return sum(int(bool(f(i & 1, i >> 1 & 1, i >> 2 & 1, i >> 3 & 1))) << i for i in range(16))


#: The LUT of :func:`add_or_pass`: ``I0`` = ``en``, ``I1`` = ``a``, ``I2`` = ``b``, ``I3`` = the carry in.
ICE40_ADD_OR_PASS = _lut4_init(lambda en, a, b, c: (a ^ b ^ c) if en else a)


def add_or_pass(m: Module, a, b, en, instance: bool, name: str):
    """``Mux(en, a + b, a)`` (unsigned, ``len(a)`` bits; ``b`` as wide). ``instance``: one iCE40
    logic cell a bit, hand-instantiated: the SB_CARRY of ``a + b`` and, in the same cell, an SB_LUT4
    of ``en``, the two addend bits and the carry in, which gives the sum bit or ``a``'s (Yosys
    builds the adder's LUTs and then one LUT a bit for the multiplexer after it, or for an operand
    gated before it: twice the cells). The carries are those of ``a + b`` whatever ``en``.
    Without ``instance`` the same in plain logic (simulators have no SB_LUT4)."""
    w = len(a)
    out = Signal(w, name=name)
    if not instance:
        m.d.comb += out.eq(Mux(en, (a + b)[:w], a))
        return out
    carry = Const(0, 1)
    for i in range(w):
        m.submodules[f"{name}_lut{i}"] = Instance("SB_LUT4", p_LUT_INIT=Const(ICE40_ADD_OR_PASS, 16),
                                                  i_I0=en, i_I1=a[i], i_I2=b[i], i_I3=carry, o_O=out[i])
        if i + 1 < w:
            co = Signal(name=f"{name}_c{i + 1}")
            m.submodules[f"{name}_carry{i}"] = Instance("SB_CARRY", i_I0=a[i], i_I1=b[i], i_CI=carry, o_CO=co)
            carry = co
    return out


#: SB_MAC16 in its 8x8 mode, no registers: ``O[31:16] = (A[15:8] * B[15:8]) ^ (C[15:0] ? 0xFFFF)``,
#: ``O[15:0] = (A[7:0] * B[7:0]) ^ D`` (unsigned products) when ``C`` (``D``) is ``ADDSUBTOP``
#: (``ADDSUBBOT``) on all 16 bits: each half's adder computes ``product + (C ^ sub)`` = the product,
#: and its output is XORed with ``sub``: the ones' complement of the product when ``sub`` is set (the
#: cell adds the +1 as its carry-in). Checked against Yosys' own behavioural model of the cell
#: (``ice40/cells_sim.v``) by ``tests/hw/test_array.py::test_sb_mac16_dual8_against_yosys_model``.
SB_MAC16_DUAL8 = {
    "NEG_TRIGGER": 0, "C_REG": 0, "A_REG": 0, "B_REG": 0, "D_REG": 0,
    "TOP_8x8_MULT_REG": 0, "BOT_8x8_MULT_REG": 0, "PIPELINE_16x16_MULT_REG1": 0, "PIPELINE_16x16_MULT_REG2": 0,
    "TOPOUTPUT_SELECT": 0, "TOPADDSUB_LOWERINPUT": 1, "TOPADDSUB_UPPERINPUT": 1, "TOPADDSUB_CARRYSELECT": 0,
    "BOTOUTPUT_SELECT": 0, "BOTADDSUB_LOWERINPUT": 1, "BOTADDSUB_UPPERINPUT": 1, "BOTADDSUB_CARRYSELECT": 0,
    "MODE_8x8": 1, "A_SIGNED": 0, "B_SIGNED": 0,
}


#: :class:`Dual8x8` ``acc1``: the top half's adder takes ``C`` (upper input) and the product (lower
#: input), and adds (``ADDSUBTOP`` = 0) or subtracts the product (1: the cell computes ``C - X``),
#: into the output register ``rQ`` (``TOPOUTPUT_SELECT`` = 1), carry in 0; ``CO`` is its carry out
#: (``ACCUMCO ^ ADDSUBTOP`` in Yosys' model: NOT the borrow when subtracting).
SB_MAC16_ACC1 = {"TOPOUTPUT_SELECT": 1, "TOPADDSUB_LOWERINPUT": 1, "TOPADDSUB_UPPERINPUT": 1,
                 "TOPADDSUB_CARRYSELECT": 0}
#: :class:`Dual8x8` ``first0``: the bottom half's adder takes ``D`` = 0 and the product, adds or
#: subtracts (``ADDSUBBOT``), into its output register ``rS`` (``BOTOUTPUT_SELECT`` = 1).
SB_MAC16_FIRST0 = {"BOTOUTPUT_SELECT": 1, "BOTADDSUB_LOWERINPUT": 1, "BOTADDSUB_UPPERINPUT": 1,
                   "BOTADDSUB_CARRYSELECT": 0}


class Dual8x8(wiring.Component):
    """Two independent 8 x 8 unsigned products, each XORed with its sign bit on all 16 bits (the
    ones' complement when negative): ``p0 = (a0 * b0) ^ (0xFFFF if n0 else 0)``, ``p1`` likewise.
    ``instance=True``: one hand-instantiated iCE40 SB_MAC16 in its 8x8 mode (Yosys infers only its
    16x16 mode; the XOR is the cell's add/subtract stage); ``instance=False``: plain ``*`` and XOR
    (simulators have no SB_MAC16).

    ``hold_b=True``: the ``b`` operands are the cell's stationary weights, held in the SB_MAC16's own
    B input register (``B_REG``, kept by ``BHOLD``; no fabric flip-flops): ``b_load`` loads ``b0``
    and ``b1`` at the clock edge (both halves at once), the products use the held values; the
    register resets to 0 with the ``sync`` domain (``IRSTBOT``), like a flip-flop.

    ``acc1=True``: the top half accumulates instead (:data:`SB_MAC16_ACC1`): ``p1`` is a register
    (the cell's output register ``rQ``, reset with the ``sync`` domain through ``ORSTTOP``) that
    takes ``(c1 - a1 * b1) mod 2**16`` when ``n1``, else ``(c1 + a1 * b1) mod 2**16``, and ``co1``
    (combinational, of this cycle's operands) is that adder's carry out (``CO``): the carry of the
    sum, or NOT the borrow of the difference. The bottom half's adder has no carry output, so only
    the top half can take the low 16 bits of a partial sum (:class:`PE` ``mul="ext_acc"``).

    ``areg=True``: ``a0`` and ``a1`` pass the cell's A input register (``A_REG``, reset with the
    ``sync`` domain through ``IRSTTOP``): the products use the values of the cycle before (the
    array feeds the last pair of a row its activations one cycle early, so the row's last
    activation register is the cell's).

    ``first0=True``: the bottom half of a first-row pair (no partial sum comes in): ``p0`` is a
    register (``rS``, reset through ``ORSTBOT``) that takes ``(0 - a0 * b0) mod 2**16`` when
    ``n0``, else the product (:data:`SB_MAC16_FIRST0`)."""

    def __init__(self, instance: bool, hold_b: bool = False, acc1: bool = False, areg: bool = False,
                 first0: bool = False):
        self.instance = instance
        self.hold_b = hold_b
        self.acc1 = acc1
        self.areg = areg
        self.first0 = first0
        ports = {"a0": In(8), "b0": In(8), "n0": In(1), "a1": In(8), "b1": In(8), "n1": In(1),
                 "p0": Out(16), "p1": Out(16)}
        if hold_b:
            ports["b_load"] = In(1)
        if acc1:
            ports.update(c1=In(16), co1=Out(1))
        super().__init__(ports)

    def elaborate(self, platform):
        m = Module()
        if not self.instance:
            b0, b1 = self.b0, self.b1
            a0, a1 = self.a0, self.a1
            if self.areg:
                a0, a1 = Signal(8, name="a0_reg"), Signal(8, name="a1_reg")
                m.d.sync += [a0.eq(self.a0), a1.eq(self.a1)]
            if self.hold_b:
                b0, b1 = Signal(8, name="b0_held"), Signal(8, name="b1_held")
                with m.If(self.b_load):
                    m.d.sync += [b0.eq(self.b0), b1.eq(self.b1)]
            if self.first0:
                prod0 = Signal(16)
                m.d.comb += prod0.eq(a0 * b0)
                m.d.sync += self.p0.eq(Mux(self.n0, -prod0, prod0)[:16])
            else:
                m.d.comb += self.p0.eq((a0 * b0) ^ self.n0.replicate(16))
            if self.acc1:
                prod = Signal(16)
                m.d.comb += [prod.eq(a1 * b1),
                             self.co1.eq(Mux(self.n1, prod <= self.c1, (self.c1 + prod)[16]))]
                m.d.sync += self.p1.eq(Mux(self.n1, self.c1 - prod, self.c1 + prod)[:16])
            else:
                m.d.comb += self.p1.eq((a1 * b1) ^ self.n1.replicate(16))
            return m
        o = Signal(32)
        params = {f"p_{k}": v for k, v in SB_MAC16_DUAL8.items()}
        ports = {"i_CLK": 0, "i_CE": 0, "i_C": self.n1.replicate(16), "i_A": Cat(self.a0, self.a1),
                 "i_B": Cat(self.b0, self.b1), "i_D": self.n0.replicate(16), "i_ADDSUBTOP": self.n1,
                 "i_ADDSUBBOT": self.n0, "o_O": o}
        for pin in ("AHOLD", "BHOLD", "CHOLD", "DHOLD", "IRSTTOP", "IRSTBOT", "ORSTTOP", "ORSTBOT", "OLOADTOP",
                    "OLOADBOT", "OHOLDTOP", "OHOLDBOT", "CI", "ACCUMCI", "SIGNEXTIN"):
            ports[f"i_{pin}"] = 0
        if self.hold_b or self.acc1 or self.areg or self.first0:
            ports.update(i_CLK=ClockSignal("sync"), i_CE=1)
        if self.first0:
            params.update({f"p_{k}": v for k, v in SB_MAC16_FIRST0.items()})
            ports.update(i_D=Const(0, 16), i_ORSTBOT=ResetSignal("sync"))
        if self.areg:
            params["p_A_REG"] = 1
            ports.update(i_IRSTTOP=ResetSignal("sync"))
        if self.hold_b:
            params["p_B_REG"] = 1
            ports.update(i_BHOLD=~self.b_load, i_IRSTBOT=ResetSignal("sync"))
        if self.acc1:
            params.update({f"p_{k}": v for k, v in SB_MAC16_ACC1.items()})
            co = Signal()
            ports.update(i_C=self.c1, i_ORSTTOP=ResetSignal("sync"), o_CO=co)
            m.d.comb += self.co1.eq(co)
        m.submodules.mac = Instance("SB_MAC16", **params, **ports)
        m.d.comb += [self.p0.eq(o[:16]), self.p1.eq(o[16:])]
        return m


class PE(wiring.Component):
    """One weight-stationary MAC cell (see the module docstring for the contract)."""

    #: the kinds that can register their product (``pipeline``); the others take it from a DSP the
    #: parent holds, which accumulates in the same cycle
    PIPELINED = ("dsp", "lut", "signed", "ccu2c")

    def __init__(self, mul: str = "dsp", ps_width: int = ACC_WIDTH, ccu2c: bool = False, buffers: int = 2,
                 pipeline: int = 0):
        assert mul in ("dsp", "lut", "ext", "ext_acc", "ext_first", "signed", "ccu2c"), mul
        assert buffers in (1, 2), buffers
        assert pipeline in PE_PIPELINE and (not pipeline or mul in self.PIPELINED), (mul, pipeline)
        self.mul = mul
        self.pipeline = pipeline    # 1: the product is registered, the accumulation a cycle later
        self.buffers = buffers      # 1: one stationary weight (``w_sel`` / ``sel_in`` unused)
        self.ccu2c = ccu2c          # mul="ccu2c": instantiate ECP5 CCU2C cells (else the same in logic)
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
        if mul in ("ext", "ext_acc", "ext_first"):
            ports.update({"m_a": Out(MAG_WIDTH), "m_b": Out(MAG_WIDTH), "m_neg": Out(1), "m_p": In(2 * MAG_WIDTH)})
            if buffers == 1:        # the parent holds the weight's magnitude (Dual8x8(hold_b=True))
                ports["m_load"] = Out(1)
        if mul == "ext_acc":        # the parent's DSP adds the low 16 bits (Dual8x8(acc1=True))
            assert ps_width > 2 * MAG_WIDTH, ps_width
            ports.update({"m_c": Out(2 * MAG_WIDTH), "m_co": In(1)})
        if mul == "lut":        # 3 * a_in, travelling with the activation (see lut_multiply)
            ports.update({"a3_in": In(MAG_WIDTH + 2), "a3_out": Out(MAG_WIDTH + 2)})
        super().__init__(ports)

    def elaborate(self, platform):
        m = Module()
        w0 = Signal(OPERAND_WIDTH)          # {sign, magnitude}
        w = Signal(OPERAND_WIDTH)
        common = [self.a_out.eq(self.a_in), self.a_neg_out.eq(self.a_neg)]
        if self.mul in ("ext", "ext_acc", "ext_first") and self.buffers == 1:
            # only the sign here; the magnitude loads into the DSP's register at the same edge
            with m.If(self.w_load):
                m.d.sync += w0[MAG_WIDTH].eq(self.w_neg)
            m.d.comb += [w.eq(w0), self.m_load.eq(self.w_load)]
        elif self.buffers == 1:
            with m.If(self.w_load):
                m.d.sync += w0.eq(Cat(self.w_in, self.w_neg))
            m.d.comb += w.eq(w0)
        else:
            w1 = Signal(OPERAND_WIDTH)
            with m.If(self.w_load & ~self.w_sel):
                m.d.sync += w0.eq(Cat(self.w_in, self.w_neg))
            with m.If(self.w_load & self.w_sel):
                m.d.sync += w1.eq(Cat(self.w_in, self.w_neg))
            m.d.comb += w.eq(Mux(self.sel_in, w1, w0))
            common.append(self.sel_out.eq(self.sel_in))
        if self.mul == "signed":     # two's complement operands: ps_in + a * w, one signed multiply
            a9 = Cat(self.a_in, self.a_neg).as_signed()
            if self.pipeline and self.ccu2c:    # the product in the MULT18X18D's own output register
                prod = mult18x18d_registered(m, a9, w.as_signed(), "prod")
            else:
                prod = Signal(signed(2 * OPERAND_WIDTH))
                m.d.comb += prod.eq(a9 * w.as_signed())
                prod = self._stage(m, prod, "prod")
            m.d.sync += [*common, self.ps_out.eq((self.ps_in + prod)[:self.ps_width].as_signed())]
            return m
        wmag = w[:MAG_WIDTH]
        neg = Signal()
        m.d.comb += neg.eq(self.a_neg ^ w[MAG_WIDTH])
        if self.mul == "ccu2c":
            m.d.sync += common
            self._ccu2c_mac(m, wmag, neg)
            return m
        if self.mul in ("ext", "ext_acc", "ext_first"):
            # the parent's DSP multiplies; with one weight buffer it holds the weight's magnitude, so
            # m_b is the value to load
            m.d.comb += [self.m_a.eq(self.a_in), self.m_b.eq(self.w_in if self.buffers == 1 else wmag),
                         self.m_neg.eq(neg)]
        if self.mul == "ext_first":
            # a first-row cell (ps_in is 0): the DSP's register holds +- the product's low 16 bits;
            # the sign above them is the registered neg, unless the product was 0
            assert self.ps_width == 2 * MAG_WIDTH + 1, self.ps_width
            neg_r = Signal()
            m.d.sync += [*common, neg_r.eq(neg)]
            m.d.comb += self.ps_out.eq(Cat(self.m_p, neg_r & (self.m_p != 0)).as_signed())
            return m
        if self.mul == "ext_acc":
            # the DSP's register holds ps_out's low 16 bits (ps_in's +- the product, its carry out
            # m_co); the high bits here: ps_in's + the carry, or - the borrow (= m_co - 1)
            hi = Signal(self.ps_width - 2 * MAG_WIDTH)
            m.d.comb += self.m_c.eq(self.ps_in[:2 * MAG_WIDTH])
            m.d.sync += [*common, hi.eq(self.ps_in[2 * MAG_WIDTH:] + self.m_co - neg)]
            m.d.comb += self.ps_out.eq(Cat(self.m_p, hi).as_signed())
            return m
        # pc: the 16-bit product, XORed with neg (its ones' complement when negative); with the
        # sign extension and a carry-in of neg, ps_in + pc is ps_in +- product (two's complement)
        pc = Signal(2 * MAG_WIDTH)
        if self.mul == "ext":
            m.d.comb += pc.eq(self.m_p)
        else:
            if self.mul == "dsp":
                prod = self.a_in * wmag
            else:
                prod = lut_multiply(m, self.a_in, self.a3_in, wmag, 2 * MAG_WIDTH)
                m.d.sync += self.a3_out.eq(self.a3_in)
            m.d.comb += pc.eq(prod ^ neg.replicate(2 * MAG_WIDTH))
            pc, neg = self._stage(m, pc, "pc"), self._stage(m, neg, "neg")
        sp = Cat(pc, neg.replicate(self.ps_width - 2 * MAG_WIDTH))
        m.d.sync += [*common, self.ps_out.eq((self.ps_in + sp + neg)[:self.ps_width].as_signed())]
        return m

    def _stage(self, m: Module, v, name: str):
        """``v``, through the product's register when the cell is pipelined."""
        if not self.pipeline:
            return v
        r = Signal.like(v, name=f"{name}_r")
        m.d.sync += r.eq(v)
        return r

    def _ccu2c_mac(self, m: Module, wmag, neg):
        """``ps_out := ps_in + (prod ^ neg) + neg`` in ECP5 CCU2C carry chains (the LUT cell of
        ``mul="ccu2c"``). Unpipelined, one chain: the product's segments, then the accumulation.
        Pipelined, the product in two halves that run side by side (``a * w[0:4]``, ``a * w[4:8]``:
        three segments each instead of seven), registered with ``neg``; the next cycle's chain adds
        them (``lo + (hi << 4)``) and accumulates."""
        if not self.pipeline:
            chain = CarryChain("mac")
            prod = ccu2c_multiply(chain, self.a_in, wmag)
        else:
            half = MAG_WIDTH // 2
            lo_chain, hi_chain = CarryChain("mlo"), CarryChain("mhi")
            lo = self._stage(m, Cat(*ccu2c_multiply(lo_chain, self.a_in, wmag[:half])), "plo")
            hi = self._stage(m, Cat(*ccu2c_multiply(hi_chain, self.a_in, wmag[half:])), "phi")
            neg = self._stage(m, neg, "neg")
            lo_chain.build(m, Const(0, 1), self.ccu2c)
            hi_chain.build(m, Const(0, 1), self.ccu2c)
            chain = CarryChain("mac")
            # lo + (hi << 4) < 2 ** 16 (an 8 x 8 product): bits 0..3 are lo's, no carry out of bit 15
            # (the next segment's carry-in is 0); plain adds (the XOR table with C = 0)
            top = chain.add([(lo[k] if k < len(lo) else 0, hi[k - half], 0, 1) for k in range(half, 2 * MAG_WIDTH)],
                            CCU2C_ADD_XOR)
            prod = [lo[k] for k in range(half)] + top
        # the accumulation: its carry-in (neg) enters through a first bit adding 0 + neg + neg
        # (= generate neg: the XOR table's generate is A, so A = neg there), sum bit dropped
        acc = chain.add([(neg, 0, neg, 1)] + [(self.ps_in[k], prod[k] if k < len(prod) else 0, neg, 1)
                                              for k in range(self.ps_width)], CCU2C_ADD_XOR)
        chain.build(m, Const(0, 1), self.ccu2c)
        m.d.sync += self.ps_out.eq(Cat(*acc[1:]).as_signed())


#: The parameters of :func:`mult18x18d_registered`'s ECP5 MULT18X18D: signed operands, no input or
#: pipeline register, the output register on ``CLK0`` / ``CE0`` / ``RST0`` (the one clock nextpnr's
#: timing model allows for a registered port), reset synchronously and not by the global set/reset.
MULT18X18D_OUTREG = {
    "REG_INPUTA_CLK": "NONE", "REG_INPUTB_CLK": "NONE", "REG_INPUTC_CLK": "NONE", "REG_PIPELINE_CLK": "NONE",
    "REG_OUTPUT_CLK": "CLK0", "REG_OUTPUT_CE": "CE0", "REG_OUTPUT_RST": "RST0",
    "CLK0_DIV": "ENABLED", "CLK1_DIV": "ENABLED", "CLK2_DIV": "ENABLED", "CLK3_DIV": "ENABLED",
    "HIGHSPEED_CLK": "NONE", "GSR": "DISABLED", "CAS_MATCH_REG": "FALSE", "SOURCEB_MODE": "B_SHIFT",
    "MULT_BYPASS": "DISABLED", "RESETMODE": "SYNC",
}


def mult18x18d_registered(m: Module, a, b, name: str) -> Signal:
    """``a * b`` (signed, at most 18 bits each; ``len(a) + len(b)`` bits) one cycle later, from a
    hand-instantiated ECP5 MULT18X18D whose output register holds it (Yosys maps a ``*`` onto the
    cell without its registers, and the fabric flip-flops after it sit a long route away); reset
    to 0 with the ``sync`` domain. ``tests/hw/test_array.py`` simulates it with a Verilog model of
    the function these parameters select (Yosys has none)."""
    width = len(a) + len(b)
    assert len(a) <= 18 and len(b) <= 18, (len(a), len(b))
    ax, bx = Signal(signed(18), name=f"{name}_a"), Signal(signed(18), name=f"{name}_b")
    p = Signal(36, name=f"{name}_p")
    m.d.comb += [ax.eq(a), bx.eq(b)]
    ports = {f"i_A{k}": ax[k] for k in range(18)}
    ports.update({f"i_B{k}": bx[k] for k in range(18)})
    ports.update({f"i_C{k}": 0 for k in range(18)})
    ports.update({f"o_P{k}": p[k] for k in range(36)})
    ports.update(i_SIGNEDA=1, i_SIGNEDB=1, i_SOURCEA=0, i_SOURCEB=0, i_CLK0=ClockSignal("sync"), i_CE0=1,
                 i_RST0=ResetSignal("sync"), i_CLK1=0, i_CLK2=0, i_CLK3=0, i_CE1=0, i_CE2=0, i_CE3=0, i_RST1=0,
                 i_RST2=0, i_RST3=0)
    m.submodules[f"{name}_mult"] = Instance("MULT18X18D", **{f"p_{k}": v for k, v in MULT18X18D_OUTREG.items()},
                                            **ports)
    out = Signal(signed(width), name=name)
    m.d.comb += out.eq(p[:width].as_signed())
    return out


def shift_add_mul(m: Module, a, b, name: str) -> Signal:
    """Unsigned ``a * b`` as a balanced sum of shifted partial products: no ``$mul`` cell, so no
    DSP (Yosys maps every multiply of two operands of 2 bits or more onto one; on the target
    devices every DSP belongs to the systolic array). For the control path's small products."""
    terms = [Mux(b[k], a, 0) << k for k in range(len(b))]
    while len(terms) > 1:
        nxt = [terms[i] + terms[i + 1] for i in range(0, len(terms) - 1, 2)]
        if len(terms) % 2:
            nxt.append(terms[-1])
        terms = nxt
    out = Signal(len(a) + len(b), name=name)
    m.d.comb += out.eq(terms[0])
    return out
