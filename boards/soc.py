"""A board's SoC: the accelerator, memory behind its external-memory port, a UART host link
(``nnaccel.linkproto``) and busy / error LEDs.

:class:`SoC` is everything clocked by the SoC clock (its ports: ``rx``, ``tx``, ``led_busy``,
``led_error``); ``board-sim`` runs it in Verilator. :class:`BoardTop` adds the board's clock (a
divider onto a global buffer, or a PLL), reset and I/O for a bitstream.

**Memory.** The accelerator's external-memory ports answer combinationally (``i_addr`` -> the
128-bit ``i_data``, ``ld_addr`` -> a beat), which block RAM and SPRAM cannot. So the accelerator runs
on a clock enable (a *step*), and :class:`MemoryAdapter` serves each step from synchronous RAM
before enabling it: when ``i_addr`` has changed it reads the instruction into a register (two
words per cycle), then it reads the beat at the load address, then it enables one accelerator
cycle, in which it also writes the store port's bytes. A step takes two SoC cycles, and
``1 + 16 / (2 W)`` more when the instruction changes (``W``: the bank word, ``dma_bytes_per_cycle``
bytes). The memory is two banks of ``W``-byte words (even and odd words), so a beat at any byte
address is one read of each. The accelerator's cycles, which its counters count, are steps: they
equal the ISA simulator's for the board's configuration (``Board.config``) whatever the RAM's
latency.

Clocked vendor primitives inside the accelerator (the iCE40's hand-instantiated SB_MAC16) get the
enable on their clock-enable pin (:class:`StepEnable`); any other clocked primitive is refused.
"""

from __future__ import annotations

from types import SimpleNamespace

from amaranth.hdl import (
    Cat,
    ClockDomain,
    ClockSignal,
    Const,
    DomainRenamer,
    Elaboratable,
    EnableInserter,
    Instance,
    Module,
    Mux,
    ResetSignal,
    Signal,
)
from amaranth.hdl._ir import Instance as _InstanceFragment
from amaranth.lib import wiring
from amaranth.lib.crc import Algorithm
from amaranth.lib.memory import Memory
from amaranth.lib.wiring import In, Out

from nnaccel import linkproto as lp
from nnaccel.isa.table import N_COUNTERS

__all__ = ["BoardTop", "MemoryAdapter", "SoC", "StepEnable", "UartRx", "UartTx", "baud_divisor",
           "max_step_cycles"]

#: Clock-enable pin of each clocked vendor primitive that may appear inside the accelerator.
PRIMITIVE_ENABLE = {"SB_MAC16": "CE"}


def max_step_cycles(cfg) -> int:
    """SoC cycles one accelerator cycle (a step of :class:`MemoryAdapter`) takes at most: 2, and
    ``1 + 16 / (2 W)`` more when the instruction changes."""
    return 2 + 1 + _instruction_reads(cfg.dma_bytes_per_cycle)


def _instruction_reads(bank_bytes: int) -> int:
    """Reads of both banks (``bank_bytes``-byte words) that fetch one 16-byte instruction."""
    return 16 // (2 * bank_bytes)


def baud_divisor(clock_hz: float, baud: int) -> int:
    """SoC cycles per UART bit; the rate must be within 2 % of ``baud``."""
    d = round(clock_hz / baud)
    if d < 4 or abs(clock_hz / d - baud) > 0.02 * baud:
        raise ValueError(f"A {clock_hz / 1e6:g} MHz clock cannot make {baud} baud within 2 % with at least 4 "
                         f"cycles a bit.")
    return d


# ------------------------------------------------------------------------------------ UART
class UartRx(wiring.Component):
    """8N1 receiver: ``data`` is valid in the cycle ``valid`` is high (a good stop bit)."""

    def __init__(self, divisor: int):
        self.divisor = divisor
        super().__init__({"rx": In(1, init=1), "data": Out(8), "valid": Out(1)})

    def elaborate(self, platform):
        m = Module()
        d = self.divisor
        s1, s2 = Signal(init=1), Signal(init=1)
        m.d.sync += [s1.eq(self.rx), s2.eq(s1)]
        cnt = Signal(range(d + d // 2 + 1))
        bit = Signal(range(10))
        sh = Signal(8)
        busy = Signal()
        m.d.sync += self.valid.eq(0)
        with m.If(~busy), m.If(~s2):
            m.d.sync += [busy.eq(1), cnt.eq(d + d // 2 - 1), bit.eq(0)]     # to the middle of bit 0
        with m.Elif(cnt != 0):
            m.d.sync += cnt.eq(cnt - 1)
        with m.Elif(bit == 8):
            m.d.sync += [busy.eq(0), self.valid.eq(s2), self.data.eq(sh)]
        with m.Else():
            m.d.sync += [sh.eq(Cat(sh[1:], s2)), bit.eq(bit + 1), cnt.eq(d - 1)]
        return m


class UartTx(wiring.Component):
    """8N1 transmitter: ``start`` (while not ``busy``) sends ``data``."""

    def __init__(self, divisor: int):
        self.divisor = divisor
        super().__init__({"data": In(8), "start": In(1), "busy": Out(1), "tx": Out(1, init=1)})

    def elaborate(self, platform):
        m = Module()
        d = self.divisor
        cnt = Signal(range(d))
        sh = Signal(9, init=0x1FF)
        left = Signal(range(11))
        m.d.comb += [self.busy.eq(left != 0), self.tx.eq(sh[0])]
        with m.If(left == 0), m.If(self.start):
            m.d.sync += [sh.eq(Cat(Const(0, 1), self.data)), left.eq(10), cnt.eq(d - 1)]
        with m.Elif(cnt != 0):
            m.d.sync += cnt.eq(cnt - 1)
        with m.Else():
            m.d.sync += [sh.eq(Cat(sh[1:], Const(1, 1))), left.eq(left - 1), cnt.eq(d - 1)]
        return m


# ------------------------------------------------------------------------------------ memory
class _Bank(wiring.Component):
    """One single-port RAM bank of ``width``-byte words: synchronous read (``rdata`` the cycle after
    ``addr`` with ``wen`` 0), byte-enabled writes. On an iCE40 (``spram``) two SB_SPRAM256KA side by
    side per 32 bits; otherwise an Amaranth memory (block RAM, or the simulator's model)."""

    def __init__(self, width: int, depth: int, spram: bool):
        self.width, self.depth, self.spram = width, depth, spram
        super().__init__({"addr": In(range(depth)), "wdata": In(8 * width), "wen": In(width),
                          "rdata": Out(8 * width)})

    def elaborate(self, platform):
        m = Module()
        if self.spram:
            assert self.depth == 16384 and self.width % 2 == 0
            for h in range(self.width // 2):
                nib = Cat(*[self.wen[2 * h + (k // 2)] for k in range(4)])
                m.submodules[f"spram{h}"] = Instance(
                    "SB_SPRAM256KA", i_ADDRESS=self.addr, i_DATAIN=self.wdata[16 * h:16 * h + 16],
                    i_MASKWREN=nib, i_WREN=self.wen.any(), i_CHIPSELECT=1, i_CLOCK=ClockSignal("sync"),
                    i_STANDBY=0, i_SLEEP=0, i_POWEROFF=1, o_DATAOUT=self.rdata[16 * h:16 * h + 16])
            return m
        m.submodules.mem = mem = Memory(shape=8 * self.width, depth=self.depth, init=[])
        rd = mem.read_port(transparent_for=())
        wr = mem.write_port(granularity=8)
        m.d.comb += [rd.addr.eq(self.addr), rd.en.eq(~self.wen.any()), self.rdata.eq(rd.data),
                     wr.addr.eq(self.addr), wr.data.eq(self.wdata), wr.en.eq(self.wen)]
        return m


class MemoryAdapter(wiring.Component):
    """The accelerator's external memory (see the module docstring): two :class:`_Bank` of ``W``-byte
    words; ``ce`` enables one accelerator cycle. The host side (``h_*``, byte-wide, reads one cycle
    later) may use the memory while ``hold`` is granted (``held``), between steps."""

    def __init__(self, cfg, mem_bytes: int, spram: bool):
        self.cfg = cfg
        self.W = W = cfg.dma_bytes_per_cycle
        assert W in (4, 8) and mem_bytes % (2 * W) == 0
        self.depth = mem_bytes // (2 * W)
        self.spram = spram
        self.abits = (mem_bytes - 1).bit_length()
        self.n_if = _instruction_reads(W)
        super().__init__({
            "i_addr": In(32), "i_data": Out(128), "ld_addr": In(32), "ld_data": Out(8 * W),
            "st_en": In(1), "st_addr": In(32), "st_len": In(range(W + 1)), "st_data": In(8 * W),
            "ce": Out(1), "hold": In(1), "held": Out(1),
            "h_addr": In(self.abits), "h_we": In(1), "h_wdata": In(8), "h_rdata": Out(8),
        })

    def elaborate(self, platform):
        m = Module()
        W, n_if = self.W, self.n_if
        wsh = (W - 1).bit_length()
        banks = [_Bank(W, self.depth, self.spram) for _ in range(2)]
        m.submodules.even, m.submodules.odd = banks

        def split(addr):
            """(even bank address, odd bank address, the low word is odd, byte offset)."""
            a = addr[wsh:self.abits]
            return (a + 1) >> 1, a >> 1, a[0], addr[:wsh]

        ireg = Signal(128)
        i_tag = Signal(self.abits - 4)         # the instruction's 16-byte line
        i_ok = Signal()
        m.d.comb += self.i_data.eq(ireg)
        phase = Signal(range(n_if + 1))    # instruction part being captured (n_if: none)
        IDLE, FETCH, STEP, HELD = range(4)
        st = Signal(range(4))
        need = ~i_ok | (self.i_addr[4:self.abits] != i_tag)
        ld_e, ld_o, ld_odd, ld_off = split(self.ld_addr)
        lo = Mux(ld_odd, banks[1].rdata, banks[0].rdata)
        hi = Mux(ld_odd, banks[0].rdata, banks[1].rdata)
        m.d.comb += self.ld_data.eq((Cat(lo, hi) >> Cat(Const(0, 3), ld_off))[:8 * W])
        # instruction words 2j, 2j + 1 (the instruction is 16-byte aligned: word 0 is even)
        iw = self.i_addr[wsh + 1:self.abits]

        wdata = Signal(8 * W)       # both banks' write data (the store beat's, or the host's byte)
        m.d.comb += [banks[0].wdata.eq(wdata), banks[1].wdata.eq(wdata)]

        def rd(e_addr, o_addr):
            m.d.comb += [banks[0].addr.eq(e_addr), banks[1].addr.eq(o_addr)]

        with m.If(phase != n_if):
            for j in range(n_if):
                with m.If(phase == j):
                    m.d.sync += ireg[j * 16 * W:(j + 1) * 16 * W].eq(Cat(banks[0].rdata, banks[1].rdata))
            m.d.sync += phase.eq(n_if)
        with m.Switch(st):
            with m.Case(IDLE):      # a step begins: fetch or read the beat
                with m.If(self.hold):
                    m.d.sync += [st.eq(HELD), i_ok.eq(0)]
                with m.Elif(need):
                    rd(iw, iw)
                    m.d.sync += [st.eq(FETCH), phase.eq(0), i_tag.eq(self.i_addr[4:self.abits]),
                                 i_ok.eq(1)]
                with m.Else():
                    rd(ld_e, ld_o)
                    m.d.sync += st.eq(STEP)
            with m.Case(FETCH):     # parts 1 .. n_if - 1, then a cycle to capture the last one
                for j in range(1, n_if):
                    with m.If(phase == j - 1):
                        rd(iw + j, iw + j)
                        m.d.sync += phase.eq(j)
                with m.If(phase == n_if - 1):
                    m.d.sync += st.eq(IDLE)
            with m.Case(STEP):
                m.d.comb += self.ce.eq(1)
                # the beat's bytes at byte (address mod 2 W) of the two banks' words (even, odd),
                # wrapping: each bank's data is the beat rotated by the address mod W, its byte
                # enables the beat's rotated by the address mod 2 W
                s_e, s_o, _, s_off = split(self.st_addr)
                m.d.comb += wdata.eq((Cat(self.st_data, self.st_data) << Cat(Const(0, 3), s_off))[8 * W:16 * W])
                mask = ((Const(1, W + 1) << self.st_len) - 1)[:W]
                en4 = Signal(4 * W)
                en = Signal(2 * W)
                m.d.comb += [en4.eq(Cat(mask, Const(0, W)) << self.st_addr[:wsh + 1]), en.eq(en4[:2 * W] | en4[2 * W:])]
                with m.If(self.st_en):
                    rd(s_e, s_o)
                    m.d.comb += [banks[0].wen.eq(en[:W]), banks[1].wen.eq(en[W:])]
                m.d.sync += st.eq(IDLE)
            with m.Case(HELD):
                m.d.comb += self.held.eq(1)
                word = self.h_addr[wsh + 1:]
                m.d.comb += [banks[0].addr.eq(word), banks[1].addr.eq(word), wdata.eq(self.h_wdata.replicate(W))]
                sel = Const(1, W) << self.h_addr[:wsh]
                with m.If(self.h_we):
                    m.d.comb += [banks[0].wen.eq(Mux(self.h_addr[wsh], 0, sel)),
                                 banks[1].wen.eq(Mux(self.h_addr[wsh], sel, 0))]
                with m.If(~self.hold):
                    m.d.sync += st.eq(IDLE)
        h_q = Signal(wsh + 1)
        m.d.sync += h_q.eq(self.h_addr[:wsh + 1])
        word = Mux(h_q[wsh], banks[1].rdata, banks[0].rdata)
        m.d.comb += self.h_rdata.eq(word.word_select(h_q[:wsh], 8))
        return m


# ------------------------------------------------------------------------------------ accelerator
class StepEnable(EnableInserter):
    """``EnableInserter`` that also drives the clock-enable pin of the clocked vendor primitives of
    :data:`PRIMITIVE_ENABLE` (which it would leave running) and refuses any other primitive clocked
    by an enabled domain."""

    def on_fragment(self, fragment):
        new = super().on_fragment(fragment)
        if isinstance(new, _InstanceFragment):
            clocked = [d for d in self.controls
                       for v, _ in new.ports.values() if isinstance(v, ClockSignal) and v.domain == d]
            if clocked:
                pin = PRIMITIVE_ENABLE.get(new.type)
                if pin is None:
                    raise ValueError(f"The primitive {new.type} is clocked by the stepped domain "
                                     f"{clocked[0]!r}, and no clock enable of it is known.")
                v, kind = new.ports[pin]
                new.ports[pin] = (v & self.controls[clocked[0]] if not isinstance(v, int) or v != 1
                                  else self.controls[clocked[0]], kind)
        return new


class SoC(wiring.Component):
    """The SoC of one board (see the module docstring). ``sim``: no vendor primitives (behavioral
    RAM, and the array's DSP arrangement without instantiated DSPs), for Verilator."""

    def __init__(self, board, sim: bool = False):
        from .targets import TARGETS
        self.board = board
        self.cfg = board.config()
        self.sim = sim
        self.target = TARGETS[board.target]
        self.divisor = baud_divisor(board.clock_mhz * 1e6, board.baud)
        super().__init__({"rx": In(1, init=1), "tx": Out(1, init=1), "led_busy": Out(1), "led_error": Out(1)})
        #: High in the cycles the accelerator steps (its clock enable; not a port): with ``led_busy``,
        #: the accelerator's cycles, which ``board-sim``'s waveform window counts.
        self.acc_step = Signal(name="acc_step")

    def accelerator(self):
        from nnaccel.hw.accel import Accelerator
        cfg, t = self.cfg, self.target
        dsp = t.array_dsp
        if self.sim and dsp == "ice40_dual8":
            dsp = "dual8"            # the same arrangement in plain logic (simulators have no SB_MAC16)
        return Accelerator(cfg, dsp_cells=t.array_dsp_cells(cfg), array_dsp=dsp)

    def elaborate(self, platform):
        m = Module()
        cfg = self.cfg
        acc = self.accelerator()
        m.domains.acc = cd_acc = ClockDomain("acc")
        acc_rst = Signal()
        m.d.comb += cd_acc.clk.eq(ClockSignal("sync"))
        # the accelerator's reset reaches nearly all of its flip-flops: on the clock network where the
        # target has a buffer for it (ECP5's DCCA; nextpnr-ecp5 promotes only clocks by itself, and
        # on general routing this one net crowds every tile's wires)
        acc_reset = Signal()
        m.d.comb += acc_reset.eq(ResetSignal("sync") | acc_rst)
        if self.target.reset_buffer and not self.sim:
            m.submodules.acc_reset_buffer = Instance(self.target.reset_buffer, i_CLKI=acc_reset, i_CE=Const(1, 1),
                                                     o_CLKO=cd_acc.rst)
        else:
            m.d.comb += cd_acc.rst.eq(acc_reset)
        ce = Signal()
        m.submodules.accel = StepEnable({"acc": ce})(DomainRenamer({"sync": "acc"})(acc))
        m.submodules.mem = mem = MemoryAdapter(cfg, self.board.mem_bytes, spram=self.board.memory == "spram"
                                               and not self.sim)
        one_engine = cfg.dma_engines == 1
        m.d.comb += [mem.i_addr.eq(acc.i_addr), acc.i_data.eq(mem.i_data),
                     mem.ld_addr.eq(acc.dma_addr if one_engine else acc.ld_addr), acc.ld_data.eq(mem.ld_data),
                     mem.st_addr.eq(acc.dma_addr if one_engine else acc.st_addr),
                     mem.st_en.eq(acc.st_en), mem.st_len.eq(acc.st_len), mem.st_data.eq(acc.st_data)]
        m.submodules.link = link = _Link(cfg, self.divisor, mem.abits)
        m.d.comb += [link.rx.eq(self.rx), self.tx.eq(link.tx),
                     mem.hold.eq(link.hold), link.held.eq(mem.held),
                     mem.h_addr.eq(link.h_addr), mem.h_we.eq(link.h_we), mem.h_wdata.eq(link.h_wdata),
                     link.h_rdata.eq(mem.h_rdata),
                     ce.eq(mem.ce | link.ce), acc_rst.eq(link.acc_rst),
                     acc.start.eq(link.start & mem.ce), link.stepped.eq(mem.ce),
                     acc.prog_addr.eq(link.prog_addr), acc.prog_len.eq(link.prog_len),
                     link.busy.eq(acc.busy), link.done.eq(acc.done), link.error.eq(acc.error),
                     link.fault_pc.eq(acc.fault_pc), link.cnt_id.eq(acc.cnt_id), link.cnt_data.eq(acc.cnt_data),
                     self.led_busy.eq(acc.busy), self.led_error.eq(acc.error != 0), self.acc_step.eq(ce)]
        return m


# ------------------------------------------------------------------------------------ host link
class _Link(wiring.Component):
    """The link's gateware: UART, request parser, CRC check, command execution, reply (the
    protocol of :mod:`nnaccel.linkproto`)."""

    def __init__(self, cfg, divisor: int, abits: int):
        from nnaccel.hw.accel import ENTRY_PC
        self.cfg, self.divisor, self.abits = cfg, divisor, abits
        from nnaccel.hw.extmem import counters_per_beat
        self.k = k = counters_per_beat(cfg)
        self.n_beats = -(-N_COUNTERS // k)
        super().__init__({
            "rx": In(1, init=1), "tx": Out(1, init=1),
            "hold": Out(1), "held": In(1), "h_addr": Out(abits), "h_we": Out(1), "h_wdata": Out(8), "h_rdata": In(8),
            "ce": Out(1), "acc_rst": Out(1), "start": Out(1), "stepped": In(1),
            "prog_addr": Out(abits), "prog_len": Out(ENTRY_PC),
            "busy": In(1), "done": In(1), "error": In(3), "fault_pc": In(ENTRY_PC),
            "cnt_id": In(range(self.n_beats)), "cnt_data": In(64 * k),
        })

    def elaborate(self, platform):
        m = Module()
        d = self.divisor
        m.submodules.urx = urx = UartRx(d)
        m.submodules.utx = utx = UartTx(d)
        c = lp.CRC
        m.submodules.crc = crc = Algorithm(crc_width=c.width, polynomial=c.polynomial, initial_crc=c.initial,
                                           reflect_input=c.reflect_input, reflect_output=c.reflect_output,
                                           xor_output=c.xor_output)(8).create()
        m.d.comb += [urx.rx.eq(self.rx), self.tx.eq(utx.tx)]
        cmd = Signal(3)
        # the address and length fields as wide as the memory needs (a request naming bits above
        # them is a BAD_COMMAND); a START's program address is kept in 16-byte lines
        addr = Signal(self.abits)
        length = Signal(self.abits + 1)        # bytes, or a START's instructions (fewer)
        prog_line = Signal(self.abits - 4)
        m.d.comb += self.prog_addr.eq(Cat(Const(0, 4), prog_line))
        hdr = Signal(range(8))
        code = Signal(2)
        idle = Signal(range(lp.IDLE_TIMEOUT_BITS * d + 1))
        dropping = Signal()     # a WRITE while busy: its payload is not stored
        ident = lp.encode_identity(self.cfg)
        status = Cat(self.busy, self.done, self.error, Const(0, 3), self.fault_pc)
        n_cnt = 8 * N_COUNTERS
        beat_bytes = 8 * self.k
        bidx = Signal(range(max(beat_bytes, lp.IDENT_BYTES)))   # byte of a beat / identity / status
        sent = Signal(range(n_cnt + 1))
        want = Signal(range(self.n_beats + 1))
        m.d.comb += [self.h_addr.eq(addr), self.h_wdata.eq(urx.data), crc.data.eq(urx.data)]
        CM = {name: lp.CMD[name] for name in lp.CMD}
        # bit times since the last byte: a request that stops arriving is dropped (back to SYNC)
        timeout = Signal()
        m.d.comb += timeout.eq(idle == lp.IDLE_TIMEOUT_BITS * d)
        with m.If(urx.valid):
            m.d.sync += idle.eq(0)
        with m.Elif(~timeout):
            m.d.sync += idle.eq(idle + 1)
        s = SimpleNamespace(urx=urx, utx=utx, crc=crc, cmd=cmd, addr=addr, length=length, prog_line=prog_line,
                            hdr=hdr, code=code, dropping=dropping, timeout=timeout, ident=ident, status=status,
                            n_cnt=n_cnt, beat_bytes=beat_bytes, bidx=bidx, sent=sent, want=want, CM=CM)
        with m.FSM():
            self._request(m, s)
            self._reply(m, s)
        with m.If(self.stepped):
            m.d.sync += self.start.eq(0)
        return m

    def _request(self, m, s):
        """The FSM's states that take a request in: its header, a WRITE's payload (stored as it
        arrives), the CRC, the checks, and a START's reset of the accelerator."""
        urx, crc, cmd, addr, length, prog_line = s.urx, s.crc, s.cmd, s.addr, s.length, s.prog_line
        hdr, code, dropping, timeout, CM = s.hdr, s.code, s.dropping, s.timeout, s.CM
        with m.State("SYNC"):
            m.d.sync += [hdr.eq(0), code.eq(lp.CODE["OK"]), dropping.eq(0)]
            with m.If(urx.valid & (urx.data == lp.REQ_SYNC)):
                m.d.comb += crc.start.eq(1)
                m.next = "HEADER"
        with m.State("HEADER"):
            with m.If(urx.valid):
                m.d.comb += crc.valid.eq(1)
                m.d.sync += hdr.eq(hdr + 1)
                with m.If(hdr == 0):
                    m.d.sync += cmd.eq(urx.data)
                    with m.If((urx.data == 0) | (urx.data > max(CM.values()))):
                        m.d.sync += code.eq(lp.CODE["BAD_COMMAND"])
                for field, first, n in ((addr, 1, lp.ADDR_BYTES), (length, 1 + lp.ADDR_BYTES, lp.LEN_BYTES)):
                    for i in range(n):
                        with m.Elif(hdr == first + i):
                            keep = max(0, min(8, len(field) - 8 * i))
                            if keep:
                                m.d.sync += field[8 * i:8 * i + keep].eq(urx.data[:keep])
                            if keep < 8:
                                with m.If(urx.data[keep:] != 0):
                                    m.d.sync += code.eq(lp.CODE["BAD_COMMAND"])
                with m.If(hdr == lp.ADDR_BYTES + lp.LEN_BYTES):
                    m.d.sync += hdr.eq(0)
                    top = 8 * (lp.LEN_BYTES - 1)        # the last length byte is arriving
                    with m.If((cmd == CM["WRITE"]) & ((length[:top] != 0) | (urx.data != 0))):
                        m.d.sync += dropping.eq(self.busy)
                        m.next = "PAYLOAD"
                    with m.Else():
                        m.next = "CRC"
            with m.Elif(timeout):
                m.next = "SYNC"
        with m.State("PAYLOAD"):            # WRITE: each byte stored as it arrives
            m.d.comb += self.hold.eq(~dropping)
            with m.If(urx.valid):
                m.d.comb += [crc.valid.eq(1), self.h_we.eq(~dropping & self.held)]
                m.d.sync += [addr.eq(addr + 1), length.eq(length - 1)]
                with m.If(length == 1):
                    m.next = "CRC"
            with m.Elif(timeout):
                m.next = "SYNC"
        with m.State("CRC"):
            with m.If(urx.valid):
                m.d.comb += crc.valid.eq(1)
                m.d.sync += hdr.eq(hdr + 1)
                with m.If(hdr == 1):
                    m.next = "CHECK"
            with m.Elif(timeout):
                m.next = "SYNC"
        with m.State("CHECK"):
            with m.If(~crc.match_detected):
                m.d.sync += code.eq(lp.CODE["CRC_ERROR"])
                m.next = "REPLY"
            with m.Elif(code != lp.CODE["OK"]):
                m.next = "REPLY"
            with m.Elif(dropping | (self.busy & ((cmd == CM["READ"]) | (cmd == CM["START"]) |
                                                 (cmd == CM["COUNTERS"])))):
                m.d.sync += code.eq(lp.CODE["BUSY"])
                m.next = "REPLY"
            with m.Elif(cmd == CM["START"]):
                m.next = "RESET"
            with m.Else():
                m.next = "REPLY"
        with m.State("RESET"):              # START: the accelerator reset with the memory held
            m.d.comb += self.hold.eq(1)
            with m.If(self.held):
                m.d.comb += [self.acc_rst.eq(1), self.ce.eq(1)]
                m.d.sync += [prog_line.eq(addr[4:]), self.prog_len.eq(length), self.start.eq(1)]
                m.next = "REPLY"

    def _reply(self, m, s):
        """The FSM's states that send the reply: its code, then the identity, the status, the
        bytes read or the counters, and the CRC."""
        utx, crc, cmd, addr, length, code = s.utx, s.crc, s.cmd, s.addr, s.length, s.code
        ident, status, n_cnt, beat_bytes, bidx, sent, want, CM = (s.ident, s.status, s.n_cnt, s.beat_bytes,
                                                                 s.bidx, s.sent, s.want, s.CM)
        with m.State("REPLY"), m.If(~utx.busy):
            m.d.comb += [utx.data.eq(lp.RSP_SYNC), utx.start.eq(1)]
            m.next = "CODE"
        with m.State("CODE"), m.If(~utx.busy):
            m.d.comb += [utx.data.eq(code), utx.start.eq(1), crc.data.eq(code), crc.start.eq(1),
                         crc.valid.eq(1)]
            m.d.sync += [bidx.eq(0), sent.eq(0), want.eq(0)]
            with m.If(code != lp.CODE["OK"]):
                m.next = "CRC_HI"
            with m.Elif(cmd == CM["IDENT"]):
                m.next = "IDENT"
            with m.Elif(cmd == CM["STATUS"]):
                m.next = "STATUS"
            with m.Elif((cmd == CM["READ"]) & (length != 0)):
                m.next = "READ"
            with m.Elif(cmd == CM["COUNTERS"]):
                m.next = "COUNTERS"
            with m.Else():
                m.next = "CRC_HI"

        def send(byte, last, nxt):
            with m.If(~utx.busy):
                m.d.comb += [utx.data.eq(byte), utx.start.eq(1), crc.data.eq(byte), crc.valid.eq(1)]
                m.d.sync += bidx.eq(bidx + 1)
                with m.If(last):
                    m.next = nxt

        with m.State("IDENT"):
            send(Const(int.from_bytes(ident, "little"), 8 * len(ident)).word_select(bidx[:3], 8),
                 bidx == len(ident) - 1, "CRC_HI")
        with m.State("STATUS"):
            send(status.word_select(bidx[:2], 8), bidx == lp.STATUS_BYTES - 1, "CRC_HI")
        with m.State("READ"):               # one byte: hold, read, send
            m.d.comb += self.hold.eq(1)
            with m.If(self.held & ~utx.busy):
                m.next = "READ_DATA"
        with m.State("READ_DATA"):
            m.d.comb += self.hold.eq(1)
            m.d.comb += [utx.data.eq(self.h_rdata), utx.start.eq(1), crc.data.eq(self.h_rdata),
                         crc.valid.eq(1)]
            m.d.sync += [addr.eq(addr + 1), length.eq(length - 1)]
            with m.If(length == 1):
                m.next = "CRC_HI"
            with m.Else():
                m.next = "READ"
        with m.State("COUNTERS"):           # the counter ring stepped to beat `want`, then sent
            m.d.comb += self.hold.eq(1)
            with m.If(self.held):
                with m.If(self.cnt_id != want):
                    m.d.comb += self.ce.eq(1)
                with m.Elif(~utx.busy):
                    byte = self.cnt_data.word_select(bidx[:(beat_bytes - 1).bit_length()], 8)
                    m.d.comb += [utx.data.eq(byte), utx.start.eq(1), crc.data.eq(byte), crc.valid.eq(1)]
                    m.d.sync += [bidx.eq(bidx + 1), sent.eq(sent + 1)]
                    with m.If(bidx == beat_bytes - 1):
                        m.d.sync += [bidx.eq(0), want.eq(want + 1)]
                    with m.If(sent == n_cnt - 1):
                        m.next = "CRC_HI"
        with m.State("CRC_HI"), m.If(~utx.busy):
            m.d.comb += [utx.data.eq(crc.crc[8:]), utx.start.eq(1)]
            m.next = "CRC_LO"
        with m.State("CRC_LO"), m.If(~utx.busy):
            m.d.comb += [utx.data.eq(crc.crc[:8]), utx.start.eq(1)]
            m.next = "SYNC"


# ------------------------------------------------------------------------------------ board top
class BoardTop(Elaboratable):
    """The bitstream's top level: the board's clock and reset, I/O, and :class:`SoC`."""

    def __init__(self, board):
        self.board = board

    def elaborate(self, platform):
        b = self.board
        m = Module()
        m.submodules.soc = soc = SoC(b)
        clk_in = platform.request(platform.default_clk, 0).i
        m.domains.sync = cd = ClockDomain("sync")
        n = divider(b) if b.clock == "divide" else None
        if n == 1:
            m.d.comb += cd.clk.eq(clk_in)      # the oscillator's pin is a global buffer input
            locked = Const(1, 1)
        elif n:
            m.domains.osc = ClockDomain("osc", reset_less=True)
            m.d.comb += ClockSignal("osc").eq(clk_in)
            tog = Signal()
            half = Signal(range(n // 2))
            m.d.osc += half.eq(Mux(half == n // 2 - 1, 0, half + 1))
            with m.If(half == n // 2 - 1):
                m.d.osc += tog.eq(~tog)
            m.submodules.clk_gb = Instance("SB_GB", i_USER_SIGNAL_TO_GLOBAL_BUFFER=tog,
                                           o_GLOBAL_BUFFER_OUTPUT=cd.clk)
            locked = Const(1, 1)
        else:
            locked = Signal()
            m.submodules.pll = _ecp5_pll(clk_in, cd.clk, locked, b.osc_mhz, b.clock_mhz)
        platform.add_clock_constraint(cd.clk, b.clock_mhz * 1e6)
        # power-on reset: held for 2**12 cycles after the clock runs (and the PLL locks)
        por = Signal(12, reset_less=True)
        por_done = Signal()
        m.d.comb += por_done.eq(por.all())
        rst_raw = Signal(reset_less=True)
        with m.If(~locked):
            m.d.sync += por.eq(0)
        with m.Elif(~por_done):
            m.d.sync += por.eq(por + 1)
        m.d.sync += rst_raw.eq(~por_done)
        # on general routing: the SoC's own flip-flops are few; the accelerator's reset, which is
        # this one or the link's, goes on the clock network inside SoC
        m.d.comb += cd.rst.eq(rst_raw)
        uart = platform.request("uart", 0)
        m.d.comb += [soc.rx.eq(uart.rx.i), uart.tx.o.eq(soc.tx)]
        if b.uart_tx_enable:
            m.d.comb += platform.request("uart_tx_enable", 0).o.eq(1)
        busy, err = b.leds
        led_b = platform.request(busy, 0)
        led_e = platform.request(err, 1 if err == busy else 0)
        m.d.comb += [led_b.o.eq(soc.led_busy), led_e.o.eq(soc.led_error)]
        return m


def divider(board) -> int:
    """The ratio of the oscillator to the SoC clock of a ``divide`` board: 1 (the oscillator itself)
    or even (a flip-flop toggling)."""
    n = round(board.osc_mhz / board.clock_mhz)
    if n < 1 or (n > 1 and n % 2) or abs(board.osc_mhz / n - board.clock_mhz) > 1e-6:
        raise ValueError(f"The {board.name}'s clock is its {board.osc_mhz:g} MHz oscillator, or that divided by "
                         f"an even number; {board.clock_mhz:g} MHz is neither.")
    return n


def pll_params(fin: float, fout: float) -> dict:
    """EHXPLLL dividers for ``fout`` MHz from ``fin`` MHz: PFD >= 3.125 MHz, VCO 400-800 MHz."""
    best = None
    for ref in range(1, 129):
        pfd = fin / ref
        if pfd < 3.125:
            break
        for fb in range(1, 81):
            for op in range(1, 129):
                vco = pfd * fb * op
                if 400 <= vco <= 800:
                    err = abs(pfd * fb - fout)
                    if best is None or err < best[0]:
                        best = (err, ref, fb, op, vco)
    if best is None or best[0] > 0.001 * fout:
        raise ValueError(f"No EHXPLLL setting makes {fout} MHz from {fin} MHz.")
    _, ref, fb, op, vco = best
    return {"CLKI_DIV": ref, "CLKFB_DIV": fb, "CLKOP_DIV": op, "vco_mhz": vco}


def _ecp5_pll(clk_in, clk_out, locked, fin, fout):
    p = pll_params(fin, fout)
    return Instance(
        "EHXPLLL", a_FREQUENCY_PIN_CLKI=str(fin), a_FREQUENCY_PIN_CLKOP=str(fout), a_ICP_CURRENT="12",
        a_LPF_RESISTOR="8", a_MFG_ENABLE_FILTEROPAMP="1", a_MFG_GMCREF_SEL="2",
        p_PLLRST_ENA="DISABLED", p_INTFB_WAKE="DISABLED", p_STDBY_ENABLE="DISABLED", p_DPHASE_SOURCE="DISABLED",
        p_OUTDIVIDER_MUXA="DIVA", p_OUTDIVIDER_MUXB="DIVB", p_OUTDIVIDER_MUXC="DIVC", p_OUTDIVIDER_MUXD="DIVD",
        p_CLKI_DIV=p["CLKI_DIV"], p_CLKOP_ENABLE="ENABLED", p_CLKOP_DIV=p["CLKOP_DIV"], p_CLKOP_CPHASE=p["CLKOP_DIV"] - 1,
        p_CLKOP_FPHASE=0, p_FEEDBK_PATH="CLKOP", p_CLKFB_DIV=p["CLKFB_DIV"],
        i_RST=0, i_STDBY=0, i_CLKI=clk_in, o_CLKOP=clk_out, i_CLKFB=clk_out, i_PHASESEL0=0,
        i_PHASESEL1=0, i_PHASEDIR=1, i_PHASESTEP=1, i_PHASELOADREG=1, i_PLLWAKESYNC=0, i_ENCLKOP=0, o_LOCK=locked)
