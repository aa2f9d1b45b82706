"""A scratchpad bank: ``depth`` lines of ``width`` bits with one write port and one synchronous read
port, written so that Yosys infers block RAM (EBR / SPRAM on iCE40, DP16KD on ECP5).

Contract: with ``w_en``, line ``w_addr`` := ``w_data`` at the clock edge; ``r_data`` is line
``r_addr`` as it was before the edge (read-before-write), one cycle after ``r_addr`` is presented.
"""

from __future__ import annotations

from amaranth.hdl import Module, unsigned
from amaranth.lib import wiring
from amaranth.lib.memory import Memory
from amaranth.lib.wiring import In, Out

__all__ = ["Scratchpad"]


class Scratchpad(wiring.Component):
    """One bank (see the module docstring)."""

    def __init__(self, depth: int, width: int):
        self.depth, self.width = depth, width
        super().__init__({
            "w_en": In(1), "w_addr": In(range(depth)), "w_data": In(width),
            "r_addr": In(range(depth)), "r_data": Out(width),
        })

    def elaborate(self, platform):
        m = Module()
        m.submodules.mem = mem = Memory(shape=unsigned(self.width), depth=self.depth, init=[])
        w = mem.write_port()
        r = mem.read_port()
        m.d.comb += [w.en.eq(self.w_en), w.addr.eq(self.w_addr), w.data.eq(self.w_data),
                     r.addr.eq(self.r_addr), self.r_data.eq(r.data)]
        return m
