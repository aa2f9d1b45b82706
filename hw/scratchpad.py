"""A scratchpad bank: ``depth`` lines of ``width`` bits with one write port and one synchronous read
port, written so that Yosys infers block RAM (EBR / SPRAM on iCE40, DP16KD on ECP5).

Contract: with ``w_en``, line ``w_addr`` := ``w_data`` at the clock edge (with a write
``granularity``, ``w_en`` has a bit per granule and only those granules are written); ``r_data`` is line
``r_addr`` as it was before the edge (read-before-write), one cycle after ``r_addr`` is presented.
"""

from __future__ import annotations

from amaranth.hdl import Array, Const, Elaboratable, Module, Mux, Signal, unsigned
from amaranth.lib import wiring
from amaranth.lib.memory import Memory
from amaranth.lib.wiring import In, Out

__all__ = ["BankedScratchpad", "Scratchpad"]


class Scratchpad(wiring.Component):
    """One bank (see the module docstring)."""

    def __init__(self, depth: int, width: int, granularity: int | None = None):
        self.depth, self.width, self.granularity = depth, width, granularity
        super().__init__({
            "w_en": In(width // granularity if granularity else 1), "w_addr": In(range(depth)),
            "w_data": In(width), "r_addr": In(range(depth)), "r_data": Out(width),
        })

    def elaborate(self, platform):
        m = Module()
        m.submodules.sp_mem = mem = Memory(shape=unsigned(self.width), depth=self.depth, init=[])
        w = mem.write_port(granularity=self.granularity) if self.granularity else mem.write_port()
        r = mem.read_port()
        m.d.comb += [w.en.eq(self.w_en), w.addr.eq(self.w_addr), w.data.eq(self.w_data),
                     r.addr.eq(self.r_addr), self.r_data.eq(r.data)]
        return m


class _Port:
    def __init__(self, name, depth, width, write, granules=1):
        self.name = name
        self.addr = Signal(range(depth), name=f"{name}_addr")
        self.data = Signal(width, name=f"{name}_data")
        if write:
            self.en = Signal(granules, name=f"{name}_en")
        else:
            #: the reader needs this cycle's line (it wins its bank over readers that do not)
            self.valid = Signal(init=1, name=f"{name}_valid")


class BankedScratchpad(Elaboratable):
    """A scratchpad of ``depth`` lines built from ``banks`` :class:`Scratchpad` banks of
    ``depth // banks`` consecutive lines each (``docs/isa.md``, "Scratchpad banks"), with any number
    of *logical* ports shared over the banks' one write and one read port.

    :meth:`write_port` / :meth:`read_port` return objects with ``addr``, ``data`` and ``en`` (write)
    or ``valid`` (read) signals that behave like an Amaranth memory port (the read is synchronous:
    ``data`` is the line ``addr`` selected one cycle earlier, read-before-write). Per bank and cycle,
    the write port goes to the first writer (creation order) with ``en`` set whose address lies in
    the bank; the read port to the first reader with ``valid`` set whose address lies in the bank,
    else to the last reader (a read nobody needs: its line is never used). The bank rules guarantee one
    writer and one valid reader per bank for valid programs; for a program that breaks them the
    other ports' lines are lost (writes) or wrong (reads).

    ``collision`` is 1 in a cycle in which some bank writes the line that a reader with ``valid``
    set reads from it. The bank's read is then read-before-write in simulation, but synthesis
    leaves such a read undefined (block RAM does not define a read of the line its other port
    writes, and emulating it costs a register and a multiplexer per bit: ``SynthHarness``,
    ``docs/rtl.md``), so the accelerator reports it (:class:`~nnaccel.hw.accel.Accelerator`'s
    ``sp_collision``) and every RTL run checks that it never happens.
    """

    def __init__(self, depth: int, width: int, banks: int, name: str = "sp", granularity: int | None = None):
        assert banks >= 1 and depth % banks == 0 and (depth // banks) & (depth // banks - 1) == 0
        assert granularity is None or width % granularity == 0
        self.depth, self.width, self.banks, self.name = depth, width, banks, name
        self.granularity = granularity
        #: bits of every write port's ``en``: one per ``granularity`` bits of a line (1 without)
        self.granules = width // granularity if granularity else 1
        self.bank_lines = depth // banks
        self._w: list[_Port] = []
        self._r: list[_Port] = []
        self.collision = Signal(name=f"{name}_collision")

    def write_port(self, name: str) -> _Port:
        p = _Port(f"{self.name}_w_{name}", self.depth, self.width, True, self.granules)
        self._w.append(p)
        return p

    def read_port(self, name: str) -> _Port:
        p = _Port(f"{self.name}_r_{name}", self.depth, self.width, False)
        self._r.append(p)
        return p

    def elaborate(self, platform):
        m = Module()
        lb = self.bank_lines.bit_length() - 1

        def bank(a):
            return a[lb:] if self.banks > 1 else Const(0, 1)

        rdata = []
        collide = Const(0, 1)
        for b in range(self.banks):
            m.submodules[f"bank{b}"] = bk = Scratchpad(self.bank_lines, self.width, self.granularity)
            rdata.append(bk.r_data)
            # the last candidate is the default (no "else 0" level): the write enable, or the
            # reader's bank choice, makes the address / data of a port that does not win irrelevant
            g = self.granules
            en = Const(0, g)
            waddr, wdata = self._w[-1].addr[:lb], self._w[-1].data
            for p in reversed(self._w[:-1]):
                hit = p.en.any() & (bank(p.addr) == b)
                waddr, wdata = Mux(hit, p.addr[:lb], waddr), Mux(hit, p.data, wdata)
            for p in self._w:
                en = en | (p.en & (bank(p.addr) == b).replicate(g))
            m.d.comb += [bk.w_en.eq(en), bk.w_addr.eq(waddr), bk.w_data.eq(wdata)]
            en = en.any()
            reqs = [p.valid & (bank(p.addr) == b) for p in self._r]
            cands = list(zip(self._r, reqs))
            raddr = cands[-1][0].addr[:lb]
            for p, req in reversed(cands[:-1]):
                raddr = Mux(req, p.addr[:lb], raddr)
            m.d.comb += bk.r_addr.eq(raddr)
            needed = Const(0, 1)
            for req in reqs:
                needed = needed | req
            collide = collide | (en & needed & (waddr == raddr))
        m.d.comb += self.collision.eq(collide)
        for p in self._r:
            if self.banks == 1:
                m.d.comb += p.data.eq(rdata[0])
            else:
                sel = Signal(range(self.banks), name=f"{p.name}_bank")
                m.d.sync += sel.eq(bank(p.addr))
                m.d.comb += p.data.eq(Array(rdata)[sel])
        return m
