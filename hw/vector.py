"""Vector unit lanes: bias + fixed-point requantization + clamp, bit-exact with ``nnaccel.quant``.

:class:`RequantLane` is one pipelined lane; a vector unit is ``lanes`` of them side by side with a
shared control word. Its arithmetic is exactly the golden model's (``nnaccel/quant.py``)::

    x      = wrap32(acc + bias)
    left   = max(shift, 0); right = max(-shift, 0)
    scaled = wrap32(x << left)
    ab     = scaled * multiplier                       (64-bit signed product)
    high   = trunc((ab + (2**30 if ab >= 0 else 1 - 2**30)) / 2**31)   (toward zero)
    high   = INT32_MAX if scaled == multiplier == INT32_MIN             (SRDHM saturation)
    q      = (high >> right) + ((high & (2**right-1)) > ((2**right-1) >> 1) + (high < 0))
    out    = clamp(q + out_zp, qmin, qmax)

which is ``clamp(out_zp + multiply_by_quantized_multiplier(acc + bias, multiplier, shift))`` —
the requantization of every quantized accelerator op (per-tensor: one multiplier/shift for all
lanes; per-channel: each lane its own). ``shift`` ranges over [-31, 31].

Timing: one input per cycle per lane, result after :data:`REQUANT_LATENCY` cycles (``o_valid``).
"""

from __future__ import annotations

import numpy as np
from amaranth.hdl import Module, Mux, Signal, signed, unsigned
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

from nnaccel import quant

__all__ = ["REQUANT_LATENCY", "LookupLane", "RequantLane", "lookup_model", "requant_model"]

REQUANT_LATENCY = 5
INT32_MIN = -(1 << 31)
INT32_MAX = (1 << 31) - 1


def requant_model(acc, bias, multiplier, shift, out_zp, qmin, qmax):
    """The lane's software model, written with the golden model's functions."""
    x = quant.wrap_int32(np.asarray(acc, np.int64) + np.asarray(bias, np.int64))
    q = quant.multiply_by_quantized_multiplier(x, multiplier, shift) + np.asarray(out_zp, np.int64)
    return np.clip(q, qmin, qmax)


class RequantLane(wiring.Component):
    """One requantization lane (see the module docstring)."""

    def __init__(self):
        super().__init__({
            "i_valid": In(1),
            "acc": In(signed(32)),
            "bias": In(signed(32)),
            "multiplier": In(signed(32)),
            "shift": In(signed(6)),
            "out_zp": In(signed(10)),
            "qmin": In(signed(10)),
            "qmax": In(signed(10)),
            "o_valid": Out(1),
            "out": Out(signed(10)),
        })

    def elaborate(self, platform):
        m = Module()
        valid = Signal(REQUANT_LATENCY)
        m.d.sync += valid.eq((valid << 1) | self.i_valid)
        m.d.comb += self.o_valid.eq(valid[-1])

        # control travels beside the data (so per-channel parameters may change every cycle)
        def stage(sig, n, name):
            regs = []
            prev = sig
            for k in range(n):
                r = Signal.like(sig, name=f"{name}_s{k}")
                m.d.sync += r.eq(prev)
                regs.append(r)
                prev = r
            return regs

        mult = stage(self.multiplier, 2, "mult")
        shift = stage(self.shift, 4, "shift")
        zp = stage(self.out_zp, 5, "zp")
        qmin = stage(self.qmin, 5, "qmin")
        qmax = stage(self.qmax, 5, "qmax")

        # S0: bias add (int32 wrap)
        x = Signal(signed(32))
        m.d.sync += x.eq(self.acc + self.bias)
        # S1: left shift (wrap)
        left = Mux(shift[0] > 0, shift[0], 0).as_unsigned()[:5]
        scaled = Signal(signed(32))
        m.d.sync += scaled.eq((x << left)[:32].as_signed())
        # S2: 32x32 product
        ab = Signal(signed(64))
        sat = Signal()
        m.d.sync += [ab.eq(scaled * mult[1]),
                     sat.eq((scaled == INT32_MIN) & (mult[1] == INT32_MIN))]
        # S3: nudge, divide by 2**31 toward zero, saturate
        s = Signal(signed(65))
        m.d.comb += s.eq(ab + Mux(ab >= 0, 1 << 30, 1 - (1 << 30)))
        high = Signal(signed(32))
        trunc = Mux(s >= 0, s >> 31, (s + ((1 << 31) - 1)) >> 31)
        m.d.sync += high.eq(Mux(sat, INT32_MAX, trunc[:32].as_signed()))
        # S4: rounding divide by 2**right, add the zero point, clamp
        right = Mux(shift[3] < 0, -shift[3], 0).as_unsigned()[:5]
        mask = Signal(unsigned(32))
        m.d.comb += mask.eq((1 << right) - 1)
        remainder = Signal(unsigned(32))
        m.d.comb += remainder.eq(high.as_unsigned() & mask)
        threshold = Signal(unsigned(33))
        m.d.comb += threshold.eq((mask >> 1) + (high < 0))
        q = Signal(signed(34))
        m.d.comb += q.eq((high >> right) + (remainder > threshold) + zp[3])
        m.d.sync += self.out.eq(Mux(q < qmin[3], qmin[3], Mux(q > qmax[3], qmax[3], q))[:10].as_signed())
        return m


def lookup_model(table, x, signed_in: bool):
    """``table[x]`` with int8 inputs indexed by ``x + 128`` (uint8 by ``x``)."""
    idx = np.asarray(x, np.int64) + (128 if signed_in else 0)
    return np.asarray(table, np.int64)[idx]


class LookupLane(wiring.Component):
    """The int8 look-up table of the vector unit: a 256-entry, 8-bit table in block RAM.

    ``t_we`` writes ``t_data`` at ``t_addr``; each cycle with ``i_valid``, ``x`` (8-bit; int8 when
    ``signed_in``, indexed by ``x + 128``) is looked up and ``out`` holds ``table[index]`` one cycle
    later with ``o_valid``."""

    def __init__(self):
        super().__init__({
            "t_we": In(1), "t_addr": In(8), "t_data": In(8),
            "i_valid": In(1), "x": In(8), "signed_in": In(1),
            "o_valid": Out(1), "out": Out(8),
        })

    def elaborate(self, platform):
        from amaranth.lib.memory import Memory
        m = Module()
        m.submodules.mem = mem = Memory(shape=unsigned(8), depth=256, init=[])
        w = mem.write_port()
        r = mem.read_port()
        m.d.comb += [w.en.eq(self.t_we), w.addr.eq(self.t_addr), w.data.eq(self.t_data),
                     r.addr.eq(self.x ^ Mux(self.signed_in, 0x80, 0)), r.en.eq(1),
                     self.out.eq(r.data)]
        m.d.sync += self.o_valid.eq(self.i_valid)
        return m


# ------------------------------------------------------------------------------ combinational
def clamp(v, lo, hi):
    """``min(max(v, lo), hi)`` (NumPy's ``clip`` order, also when ``lo > hi``)."""
    low = Mux(v < lo, lo, v)
    return Mux(low > hi, hi, low)


def clamp_parallel(v, lo, hi, lo_above_hi):
    """:func:`clamp` with its comparisons side by side instead of one after the other (one more
    comparator): ``lo_above_hi`` is ``lo > hi``, so ``max(v, lo) > hi`` is ``lo > hi`` when
    ``v < lo`` and ``v > hi`` otherwise."""
    return Mux(v < lo, Mux(lo_above_hi, hi, lo), Mux(v > hi, hi, v))
