"""A scratchpad bank: ``depth`` lines of ``width`` bits with one write port and one synchronous read
port, written so that Yosys infers block RAM (EBR / SPRAM on iCE40, DP16KD on ECP5).

Contract: with ``w_en``, line ``w_addr`` := ``w_data`` at the clock edge; ``r_data`` is line
``r_addr`` as it was before the edge (read-before-write), one cycle after ``r_addr`` is presented.
"""

from __future__ import annotations

from math import gcd

from amaranth.hdl import Array, Cat, Const, Elaboratable, Module, Mux, Signal, unsigned
from amaranth.lib import wiring
from amaranth.lib.memory import Memory
from amaranth.lib.wiring import In, Out

__all__ = ["COLLISION_UNDEFINED", "BankedScratchpad", "Scratchpad", "read_port_signature", "write_port_signature"]

#: The attribute that marks a block-RAM memory (``Memory(attrs=COLLISION_UNDEFINED)``) whose read
#: of the word its write port writes in the same cycle is never needed: synthesis leaves such a
#: read undefined (``boards/synth.py``: Yosys' ``COLLISION_X_MASK``), as block RAM does, instead of
#: emulating read-before-write with a register and a multiplexer per bit. The simulation keeps
#: read-before-write, so every marked memory's owner must prove the rule or check it where every
#: RTL run sees it (the accelerator's ``sp_collision``).
COLLISION_UNDEFINED = {"nnaccel_collision_undefined": 1}


class Scratchpad(wiring.Component):
    """One bank (see the module docstring).

    With ``granularity`` ``w_en`` has one bit per ``granularity`` bits of the line (bit ``i``
    writes bits ``i * granularity ..``: block RAM write enables / masks); with ``read_enable`` the
    read port has ``r_en``: without it the port reads nothing and ``r_data`` keeps its line (the
    block RAM's read enable)."""

    def __init__(self, depth: int, width: int, granularity: int | None = None, read_enable: bool = False):
        self.depth, self.width, self.granularity, self.read_enable = depth, width, granularity, read_enable
        ports = {
            "w_en": In(width // granularity if granularity else 1), "w_addr": In(range(depth)),
            "w_data": In(width), "r_addr": In(range(depth)), "r_data": Out(width),
        }
        if read_enable:
            ports["r_en"] = In(1)
        super().__init__(ports)

    def elaborate(self, platform):
        m = Module()
        # collisions: BankedScratchpad.collision
        m.submodules.sp_mem = mem = Memory(shape=unsigned(self.width), depth=self.depth, init=[],
                                           attrs=COLLISION_UNDEFINED)
        w = mem.write_port(granularity=self.granularity) if self.granularity else mem.write_port()
        r = mem.read_port()
        m.d.comb += [w.en.eq(self.w_en), w.addr.eq(self.w_addr), w.data.eq(self.w_data),
                     r.addr.eq(self.r_addr), self.r_data.eq(r.data)]
        if self.read_enable:
            m.d.comb += r.en.eq(self.r_en)
        return m


def _match_late(m: Module, name: str, en, a, b):
    """``en & (a == b)`` of the previous cycle: the addresses' bits compared two by two before the
    clock edge (on the iCE40 one LUT4 a pair, its flip-flop in the same logic cell) and the pairs
    and ``en`` combined after it, so the compare does not lengthen the path of the addresses."""
    assert len(a) == len(b)
    en_r = Signal(name=f"{name}_en")
    m.d.sync += en_r.eq(en)
    if len(a) == 0:
        return en_r
    pairs = Signal((len(a) + 1) // 2, name=f"{name}_pairs")
    m.d.sync += [pairs[i // 2].eq(a[i:i + 2] == b[i:i + 2]) for i in range(0, len(a), 2)]
    return en_r & pairs.all()


def read_port_signature(depth: int, width: int) -> wiring.Signature:
    """A scratchpad read port, seen from its reader: ``addr`` (out, a line), ``valid`` (out: the
    reader needs this cycle's line; it wins its bank over readers that do not) and ``data`` (in, the
    line read, one cycle after its address)."""
    return wiring.Signature({"addr": Out(range(depth)), "valid": Out(1, init=1), "data": In(width)})


def write_port_signature(depth: int, width: int) -> wiring.Signature:
    """A scratchpad write port, seen from its writer: ``addr``, ``data`` and ``en`` (all out)."""
    return wiring.Signature({"addr": Out(range(depth)), "data": Out(width), "en": Out(1)})


class _Port(wiring.PureInterface):
    """One logical port of a :class:`BankedScratchpad`: the scratchpad's side of
    :func:`read_port_signature` / :func:`write_port_signature` (connect the reader's or writer's
    port to it with ``wiring.connect``)."""

    def __init__(self, name, depth, width, write):
        sig = (write_port_signature if write else read_port_signature)(depth, width)
        super().__init__(sig.flip(), path=(name,))
        self.name = name
        self.mask = None                # write_mask: element write enables
        self.granularity = width
        self.hold = None                # read_hold: the reader keeps its line
        self.lane = 0                   # (exclusive) the read bus it shares


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

    :meth:`write_mask` gives a write port element write enables (the bank's block RAM then has a
    write enable per ``granularity`` bits); :meth:`read_hold` lets a reader keep the line it read
    last (its bank reads nothing while it holds: the block RAM's read enable low), so a line may be
    written, element by element, while its reader still uses what it read before (no collision:
    nothing reads the line then). Both are for a core that runs one instruction at a time (tiny's
    ``in_order``): a holding reader stops its bank's read for every other reader too.

    With ``exclusive`` (a core that runs one instruction at a time: tiny's ``in_order``) at most
    one writer has ``en`` set in any cycle, and the readers of one *lane* (:meth:`read_port`'s
    ``lane``) never have ``valid`` set in the same cycle: the writers share one address / data bus
    (a chain over their ``en``, the first port outermost) that every bank takes, and each lane one
    read address bus (a chain over its readers' ``valid``, the last reader the default) and one
    multiplexer over the banks' lines for all its readers (the bank it read last; it keeps it while
    no reader of the lane is valid, so a holding reader keeps its line). Per bank the lanes are
    picked as the readers are otherwise. Without it (the queue cores) every port is multiplexed
    onto every bank (the rules above).

    ``collision`` is 1 in the cycle after one in which some bank writes the line that a reader
    with ``valid`` set reads from it (registered: :func:`_match_late`). The bank's read is then read-before-write in simulation, but synthesis
    leaves such a read undefined (block RAM does not define a read of the line its other port
    writes, and emulating it costs a register and a multiplexer per bit: ``SynthHarness``,
    ``docs/rtl.md``), so the accelerator reports it (:class:`~nnaccel.hw.accel.Accelerator`'s
    ``sp_collision``) and every RTL run checks that it never happens.
    """

    def __init__(self, depth: int, width: int, banks: int, name: str = "sp", exclusive: bool = False):
        assert banks >= 1 and depth % banks == 0 and (depth // banks) & (depth // banks - 1) == 0
        self.depth, self.width, self.banks, self.name = depth, width, banks, name
        self.exclusive = exclusive
        self.bank_lines = depth // banks
        self._w: list[_Port] = []
        self._r: list[_Port] = []
        self.collision = Signal(name=f"{name}_collision")

    def write_port(self, name: str) -> _Port:
        p = _Port(f"{self.name}_w_{name}", self.depth, self.width, True)
        self._w.append(p)
        return p

    def read_port(self, name: str, lane: int = 0) -> _Port:
        """A reader; with ``exclusive``, readers of one ``lane`` share its read bus (never valid
        in the same cycle); readers of different lanes may read in the same cycle (other banks)."""
        p = _Port(f"{self.name}_r_{name}", self.depth, self.width, False)
        p.lane = lane
        self._r.append(p)
        return p

    def write_mask(self, port: _Port, granularity: int) -> Signal:
        """Element write enables for the write ``port``: one bit per ``granularity`` bits of the
        line (all 1 unless driven); the port writes those of its ``en`` cycle's elements."""
        assert self.width % granularity == 0 and port.mask is None
        port.mask = Signal(self.width // granularity, init=(1 << (self.width // granularity)) - 1,
                           name=f"{port.name}_mask")
        port.granularity = granularity
        return port.mask

    def read_hold(self, port: _Port) -> Signal:
        """A hold for the reader ``port`` (0 unless driven): while 1, the bank of its ``addr`` reads
        nothing and the reader's ``data`` keeps the line it read last."""
        assert port.hold is None
        port.hold = Signal(name=f"{port.name}_hold")
        return port.hold

    def elaborate(self, platform):
        if self.exclusive:
            return self._elaborate_exclusive()
        m = Module()
        lb = self.bank_lines.bit_length() - 1
        masked = [p for p in self._w if p.mask is not None]
        gran = None
        if masked:
            gran = self.width
            for p in self._w:
                gran = gcd(gran, p.granularity)
        held = [p for p in self._r if p.hold is not None]

        def bank(a):
            return a[lb:] if self.banks > 1 else Const(0, 1)

        rdata = []
        collide = Const(0, 1)
        for b in range(self.banks):
            m.submodules[f"bank{b}"] = bk = Scratchpad(self.bank_lines, self.width, gran, bool(held))
            rdata.append(bk.r_data)
            # the last candidate is the default (no "else 0" level): the write enable, or the
            # reader's bank choice, makes the address / data of a port that does not win irrelevant
            en = Const(0, 1)
            waddr, wdata = self._w[-1].addr[:lb], self._w[-1].data
            for p in reversed(self._w[:-1]):
                hit = p.en & (bank(p.addr) == b)
                waddr, wdata = Mux(hit, p.addr[:lb], waddr), Mux(hit, p.data, wdata)
            for p in self._w:
                en = en | (p.en & (bank(p.addr) == b))
            if gran:
                # each port's element enables, widened to the bank's granularity
                wen = Const(0, self.width // gran)
                for p in self._w:
                    hit = p.en & (bank(p.addr) == b)
                    if p.mask is None:
                        wen = wen | hit.replicate(len(wen))
                    else:
                        r = p.granularity // gran
                        wen = wen | (hit.replicate(len(wen)) & Cat(*[p.mask[i // r] for i in range(len(wen))]))
                m.d.comb += bk.w_en.eq(wen)
            else:
                m.d.comb += bk.w_en.eq(en)
            m.d.comb += [bk.w_addr.eq(waddr), bk.w_data.eq(wdata)]
            if held:
                hold = Const(0, 1)
                for p in held:
                    hold = hold | (p.hold & (bank(p.addr) == b))
                m.d.comb += bk.r_en.eq(~hold)
            reqs = [p.valid & (bank(p.addr) == b) for p in self._r]
            cands = list(zip(self._r, reqs))
            raddr = cands[-1][0].addr[:lb]
            for p, req in reversed(cands[:-1]):
                raddr = Mux(req, p.addr[:lb], raddr)
            m.d.comb += bk.r_addr.eq(raddr)
            needed = Const(0, 1)
            for req in reqs:
                needed = needed | req
            collide = collide | _match_late(m, f"{self.name}_bank{b}_meet", en & needed, waddr, raddr)
        m.d.comb += self.collision.eq(collide)
        for p in self._r:
            if self.banks == 1:
                m.d.comb += p.data.eq(rdata[0])
            else:
                sel = Signal(range(self.banks), name=f"{p.name}_bank")
                m.d.sync += sel.eq(bank(p.addr))
                m.d.comb += p.data.eq(Array(rdata)[sel])
        return m

    def _elaborate_exclusive(self):
        """``exclusive``: one write bus, one read bus per lane (see the class docstring)."""
        m = Module()
        lb = self.bank_lines.bit_length() - 1
        gran = None
        if any(p.mask is not None for p in self._w):
            gran = self.width
            for p in self._w:
                gran = gcd(gran, p.granularity)

        def bank(a):
            return a[lb:] if self.banks > 1 else Const(0, 1)

        def chain(ports, sig):
            # the first port outermost, the last one the default
            v = getattr(ports[-1], sig)
            for p in reversed(ports[:-1]):
                v = Mux(p.en if hasattr(p, "en") else p.valid, getattr(p, sig), v)
            return v

        # the write bus
        waddr = Signal(range(self.depth), name=f"{self.name}_waddr")
        wdata = Signal(self.width, name=f"{self.name}_wdata")
        m.d.comb += [waddr.eq(chain(self._w, "addr")), wdata.eq(chain(self._w, "data"))]
        wen_any = Const(0, 1)
        for p in self._w:
            wen_any = wen_any | p.en
        if gran:
            wen = Const(0, self.width // gran)
            for p in self._w:
                if p.mask is None:
                    wen = wen | p.en.replicate(len(wen))
                else:
                    r = p.granularity // gran
                    wen = wen | (p.en.replicate(len(wen)) & Cat(*[p.mask[i // r] for i in range(len(wen))]))
        else:
            wen = wen_any
        # the read buses
        lanes = sorted({p.lane for p in self._r})
        raddr, rvalid = {}, {}
        for ln in lanes:
            ports = [p for p in self._r if p.lane == ln]
            raddr[ln] = Signal(range(self.depth), name=f"{self.name}_raddr{ln}")
            rvalid[ln] = Signal(name=f"{self.name}_rvalid{ln}")
            valid = Const(0, 1)
            for p in ports:
                valid = valid | p.valid
            m.d.comb += [raddr[ln].eq(chain(ports, "addr")), rvalid[ln].eq(valid)]
        held = [p for p in self._r if p.hold is not None]
        rdata = []
        collide = Const(0, 1)
        for b in range(self.banks):
            m.submodules[f"bank{b}"] = bk = Scratchpad(self.bank_lines, self.width, gran, bool(held))
            rdata.append(bk.r_data)
            hit = bank(waddr) == b
            m.d.comb += [bk.w_en.eq(wen & hit.replicate(len(bk.w_en))), bk.w_addr.eq(waddr[:lb]),
                         bk.w_data.eq(wdata)]
            if held:
                hold = Const(0, 1)
                for p in held:
                    hold = hold | (p.hold & (bank(p.addr) == b))
                m.d.comb += bk.r_en.eq(~hold)
            reqs = [rvalid[ln] & (bank(raddr[ln]) == b) for ln in lanes]
            ra = raddr[lanes[-1]][:lb]
            for ln, req in reversed(list(zip(lanes, reqs))[:-1]):
                ra = Mux(req, raddr[ln][:lb], ra)
            m.d.comb += bk.r_addr.eq(ra)
            needed = Const(0, 1)
            for req in reqs:
                needed = needed | req
            collide = collide | _match_late(m, f"{self.name}_bank{b}_meet", wen_any & hit & needed, waddr[:lb], ra)
        m.d.comb += self.collision.eq(collide)
        for ln in lanes:
            if self.banks == 1:
                data = rdata[0]
            else:
                sel = Signal(range(self.banks), name=f"{self.name}_bank{ln}")
                with m.If(rvalid[ln]):
                    m.d.sync += sel.eq(bank(raddr[ln]))
                data = Array(rdata)[sel]
            for p in self._r:
                if p.lane == ln:
                    m.d.comb += p.data.eq(data)
        return m
