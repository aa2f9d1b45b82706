"""The accelerator: fetch + decode, four in-order engines (load / compute = GEMM / vector = VEC /
store, the queues of ``nnaccel.isa.table.QUEUES``) with instruction queues and the dependency-token
channels of ``TOKEN_CHANNELS``, scratchpads, the double-buffered systolic array, the vector unit,
DMA, performance counters and status registers — and :class:`SimTop`, the accelerator wired to the
external-memory model for simulation.

Timing is the ISA's queue model exactly (``docs/isa.md``): the fetch unit appends an instruction
to its queue ``fetch_cycles`` (the table's, per kind) cycles after the previous one at the
earliest (a queue holds ``queue_depth`` waiting instructions), an engine starts its queue's head in the first cycle in which it is idle, the head has been fetched at least one cycle
earlier and every token it pops is there, and then stays busy for exactly the instruction's
``cycles`` (a step counter ``k = 0 .. cycles-1``); tokens it pushes and the counters it adds become
visible at its completion cycle. So ``f(i)``, ``s(i)`` and ``e(i)`` of every instruction equal the
ISA simulator's. The GEMM and VEC engines run concurrently.

Inside an instruction (step ``k``, relative to its start):

- LOAD / STORE: ``ext_latency`` steps of memory latency, then one line per
  ``B = max(1, ceil(len * element_bytes / dma_bytes_per_cycle))`` steps; the line is written at the
  last step of its slot (STORE reads its scratchpad line one step ahead).
- GEMM (``kt + 1`` K tiles, slot ``T = max(nx * ny, rows)`` each): with ``preload``, steps
  ``0 .. rows-1`` read tile 0's weights (loaded into the idle buffer of the array one step later);
  from step ``pre`` on, tile ``t`` streams one activation line per step in steps
  ``pre + t*T .. pre + t*T + nx*ny - 1`` while tile ``t+1``'s weights are read in the first ``rows``
  steps of the same slot into the other buffer. Results leave the array ``rows + cols - 1`` steps
  after the line entered and are written to ACC (added to the old line when ``accumulate`` or
  ``t > 0``), the last one at step ``cycles - 1``.
- VEC: ``P`` steps read the parameter block; then each line takes ``ceil(cols / vector_lanes) * S``
  steps (``S`` = ``VecFunc.steps``: each lane has one fixed-point multiplier, which ADDQ / SUBQ use
  three times); the line is written at the step after its last lane group; ``vector_latency``
  steps end the instruction.
- RDPERF: counters are sampled at step 0; after the latency they are written
  :func:`~nnaccel.hw.extmem.counters_per_beat` per step.

Faults are decided at fetch by the generated :class:`~nnaccel.hw.decoder.Decoder`; the machine then
stops (``done`` with ``error`` = the fault code, ``fault_pc`` = the instruction index) without
starting the faulting instruction, so a DMA outside the window writes nothing. DEADLOCK is raised
when no engine is busy or can start and fetch cannot go on. A program must set ``prog_len``;
fetching past it is NO_FINISH.

Requires ``ext_latency >= 1`` (STORE reads its first line during the last latency step).
"""

from __future__ import annotations

from amaranth.hdl import Array, Cat, Const, Module, Mux, Signal, signed, unsigned
from amaranth.lib import wiring
from amaranth.lib.memory import Memory
from amaranth.lib.wiring import In, Out

from nnaccel.hwconfig import ELEMENT_BYTES, load_config
from nnaccel.isa.table import (
    ADD_LEFT_SHIFT,
    COUNTER_BY_NAME,
    FLAG_CHANNEL,
    N_COUNTERS,
    QUEUES,
    SPACE_ENUM,
    TOKEN_CHANNELS,
    VEC_BY_NAME,
    VEC_FUNCS,
)

from .array import SystolicArray
from .decoder import CONTROL_QUEUE, QUEUE_CODE, Decoder, fault_code, field, opcode_of
from .extmem import ExtMemory, counters_per_beat, word_bytes
from .scratchpad import BankedScratchpad
from .vector import clamp, mbqm_round, mbqm_scale

__all__ = ["Accelerator", "SimTop"]

ENTRY_PC = 24
ENTRY_STALL = 32
CNT = {c: COUNTER_BY_NAME[c].id for c in COUNTER_BY_NAME}
SP = {s: k for k, s in enumerate(SPACE_ENUM)}


def _ceil(a, b):
    return -(-a // b)


class _Fifo:
    """A register FIFO of ``depth`` entries: ``count`` registered, push at the tail, pop the head."""

    def __init__(self, m: Module, depth: int, width: int, name: str):
        self.depth = depth
        self.regs = Array([Signal(width, name=f"{name}_e{i}") for i in range(depth)])
        self.head = Signal(range(depth), name=f"{name}_head")
        self.tail = Signal(range(depth), name=f"{name}_tail")
        self.count = Signal(range(depth + 1), name=f"{name}_count")
        self.push = Signal(name=f"{name}_push")
        self.pop = Signal(name=f"{name}_pop")
        self.wdata = Signal(width, name=f"{name}_wdata")
        self.rdata = Signal(width, name=f"{name}_rdata")
        m.d.comb += self.rdata.eq(self.regs[self.head])
        with m.If(self.push):
            m.d.sync += [self.regs[self.tail].eq(self.wdata),
                         self.tail.eq(Mux(self.tail == depth - 1, 0, self.tail + 1))]
        with m.If(self.pop):
            m.d.sync += self.head.eq(Mux(self.head == depth - 1, 0, self.head + 1))
        m.d.sync += self.count.eq(self.count + self.push - self.pop)


class _Walker:
    """A 2-D strided iterator over lines: ``cur`` is the current value (the base while
    ``restart``), ``advance`` moves to ``x + 1`` (or the next row) at the clock edge."""

    def __init__(self, m: Module, name: str, width: int, restart, base, nx, xs, ys, wrap=None):
        self.cur_r = Signal(width, name=f"{name}_cur")
        self.row_r = Signal(width, name=f"{name}_row")
        self.x_r = Signal(8, name=f"{name}_x")
        self.advance = Signal(name=f"{name}_adv")
        self.cur = Signal(width, name=f"{name}_curc")
        row = Signal(width, name=f"{name}_rowc")
        x = Signal(8, name=f"{name}_xc")
        m.d.comb += [self.cur.eq(Mux(restart, base, self.cur_r)), row.eq(Mux(restart, base, self.row_r)),
                     x.eq(Mux(restart, 0, self.x_r))]
        last = x + 1 >= nx
        wrap = Const(0, 1) if wrap is None else wrap     # advance back to the base (next K tile)
        self.nxt = Signal(width, name=f"{name}_nxt")
        m.d.comb += self.nxt.eq(Mux(wrap, base, Mux(last, row + ys, self.cur + xs)))
        with m.If(self.advance):
            m.d.sync += [self.cur_r.eq(self.nxt), self.row_r.eq(Mux(wrap, base, Mux(last, row + ys, row))),
                         self.x_r.eq(Mux(wrap | last, 0, x + 1))]
        with m.Else():
            m.d.sync += [self.cur_r.eq(self.cur), self.row_r.eq(row), self.x_r.eq(x)]


class _Engine:
    """Shared engine skeleton: start/busy/step, the current instruction, completion."""

    def __init__(self, m: Module, name: str, fifo: _Fifo, can_start):
        self.busy = Signal(name=f"{name}_busy")
        self.step_r = Signal(32, name=f"{name}_step")
        self.ins_r = Signal(128 + ENTRY_PC + ENTRY_STALL, name=f"{name}_ins")
        self.cycles_r = Signal(32, name=f"{name}_cycles")
        self.tstall_r = Signal(32, name=f"{name}_tstall")
        self.waiting = Signal(32, name=f"{name}_waiting")
        self.start = Signal(name=f"{name}_start")
        self.active = Signal(name=f"{name}_active")
        self.complete = Signal(name=f"{name}_complete")
        self.entry = Signal(128 + ENTRY_PC + ENTRY_STALL, name=f"{name}_entry")
        self.step = Signal(32, name=f"{name}_stepc")
        self.cycles = Signal(32, name=f"{name}_cyclesc")
        m.d.comb += [self.start.eq(~self.busy & (fifo.count != 0) & can_start),
                     self.active.eq(self.busy | self.start),
                     self.entry.eq(Mux(self.busy, self.ins_r, fifo.rdata)),
                     self.step.eq(Mux(self.busy, self.step_r, 0)),
                     fifo.pop.eq(self.start)]
        self.word = self.entry[:128]
        self.fstall = self.entry[128 + ENTRY_PC:]
        self.tstall = Mux(self.busy, self.tstall_r, self.waiting)
        self.last = Signal(name=f"{name}_last")
        m.d.comb += self.complete.eq(self.active & self.last)
        with m.If(self.active):
            m.d.sync += [self.ins_r.eq(self.entry), self.step_r.eq(self.step + 1),
                         self.busy.eq(~self.last), self.cycles_r.eq(self.cycles),
                         self.tstall_r.eq(self.tstall), self.waiting.eq(0)]
        with m.Elif(fifo.count != 0):
            m.d.sync += self.waiting.eq(self.waiting + 1)  # head there, engine idle: tokens missing

    def set_cycles(self, m, value):
        """The instruction takes ``value`` cycles (read at the start step)."""
        m.d.comb += [self.cycles.eq(Mux(self.busy, self.cycles_r, value)),
                     self.last.eq(self.step + 1 >= self.cycles)]

    def set_last(self, m, last):
        """The instruction ends at the step where ``last`` holds (counting loops, no product);
        ``cycles`` is then ``step + 1`` at the completion step."""
        m.d.comb += [self.cycles.eq(self.step + 1), self.last.eq(last)]


class Accelerator(wiring.Component):
    """The accelerator core for one hardware configuration (ports: control/status, counters, and
    the instruction / load / store ports of external memory; see :class:`SimTop`)."""

    def __init__(self, config="tiny", dsp_cells: int | None = None):
        self.cfg = cfg = load_config(config)
        self.dsp_cells = dsp_cells          # array cells on DSP multipliers (None: all; synthesis sets it)
        if cfg.ext_latency < 1:
            raise ValueError("The RTL needs ext_latency >= 1 (STORE reads its first line during the "
                             "last latency cycle).")
        self.wb = word_bytes(cfg)
        wbits = self.wb * 8
        super().__init__({
            "start": In(1), "prog_addr": In(32), "prog_len": In(ENTRY_PC),
            "busy": Out(1), "done": Out(1), "error": Out(3), "fault_pc": Out(ENTRY_PC),
            "counters": Out(unsigned(64 * N_COUNTERS)),
            "i_addr": Out(32), "i_data": In(128),
            "ld_addr": Out(32), "ld_data": In(wbits),
            "st_en": Out(1), "st_addr": Out(32), "st_len": Out(range(self.wb + 1)), "st_data": Out(wbits),
        })

    # ------------------------------------------------------------------------------------------
    def elaborate(self, platform):
        m = Module()
        cfg = self.cfg
        R, C = cfg.rows, cfg.cols
        lanes = cfg.vector_lanes
        nchunks = _ceil(C, lanes)
        L = cfg.ext_latency
        dpc = cfg.dma_bytes_per_cycle

        # ---------------------------------------------------------------- scratchpads
        widths = {s: C * 8 * ELEMENT_BYTES[s] for s in SPACE_ENUM}
        # one BankedScratchpad per space: cfg.banks(s) block RAMs of one write and one read port
        # each, shared by the logical ports below through per-bank multiplexers (docs/rtl.md)
        mems = {}
        for s in SPACE_ENUM:
            m.submodules[f"sp_{s.lower()}"] = mems[s] = BankedScratchpad(cfg.lines(s), widths[s], cfg.banks(s),
                                                                         name=f"sp_{s.lower()}")
        # logical ports per space: ACT 2 writes (load, vector) + 4 reads (GEMM, VEC src, VEC src2,
        # store); ACC 3 writes (load, GEMM, vector) + 3 reads; WGT and VEC 1 write (load) + 2 reads
        wl = {s: mems[s].write_port("load") for s in SPACE_ENUM}              # load engine
        wg_acc = mems["ACC"].write_port("gemm")                               # GEMM engine
        wv = {s: mems[s].write_port("vec") for s in ("ACT", "ACC")}           # vector engine
        rg = {s: mems[s].read_port("gemm") for s in ("ACT", "WGT", "ACC")}    # GEMM engine
        rv = {s: mems[s].read_port("vec") for s in ("ACT", "ACC", "VEC")}     # vector engine
        rv2 = mems["ACT"].read_port("vec2")                                   # VEC second source
        rs = {s: mems[s].read_port("store") for s in SPACE_ENUM}              # store engine

        # ---------------------------------------------------------------- control, fetch, queues
        IDLE, RUN, DONE = 0, 1, 2
        state = Signal(2)
        cycle = Signal(64)
        pc = Signal(ENTRY_PC)
        last_f = Signal(64)
        finished = Signal()
        counters = Array([Signal(64, name=f"cnt_{c}") for c in CNT])
        m.d.comb += [self.busy.eq(state == RUN), self.done.eq(state == DONE),
                     self.counters.eq(Cat(*counters))]

        width = 128 + ENTRY_PC + ENTRY_STALL
        fifos = [_Fifo(m, cfg.queue_depth, width, f"{q[0]}q") for q in QUEUES]

        m.submodules.decoder = dec = Decoder(cfg)
        m.d.comb += [self.i_addr.eq(self.prog_addr + (pc << 4)), dec.word.eq(self.i_data)]

        # tokens: one counter per channel of the table; each queue's flags name its channels
        tok = {c: Signal(16, name=f"tok_{c}") for c in TOKEN_CHANNELS.values()}
        pops = {q: {f: ch for (qq, f), ch in FLAG_CHANNEL.items() if qq == name and f.startswith("pop")}
                for q, name in enumerate(QUEUES)}
        pushes = {q: {f: ch for (qq, f), ch in FLAG_CHANNEL.items() if qq == name and f.startswith("push")}
                  for q, name in enumerate(QUEUES)}

        def hdr(word, flag):
            return field(word, "NOP", flag)

        engines = []
        for q in range(len(QUEUES)):
            head = fifos[q].rdata[:128]
            ok = Const(1, 1)
            for flag, ch in pops[q].items():
                ok = ok & (~hdr(head, flag) | (tok[ch] != 0))
            engines.append(_Engine(m, QUEUES[q], fifos[q], ok & (state == RUN)))
        le, ge, ve, se = (engines[QUEUE_CODE[q]] for q in ("load", "compute", "vector", "store"))

        for ch, count in tok.items():
            inc = Const(0, 2)
            dec_ = Const(0, 2)
            for q, e in enumerate(engines):
                for flag, c2 in pushes[q].items():
                    if c2 == ch:
                        inc = inc + (e.complete & hdr(e.word, flag))
                for flag, c2 in pops[q].items():
                    if c2 == ch:
                        dec_ = dec_ + (e.start & hdr(e.word, flag))
            m.d.sync += count.eq(count + inc - dec_)

        # fetch
        q_of = dec.queue
        room = Signal()
        m.d.comb += room.eq(q_of >= len(QUEUES))
        for q, f in enumerate(fifos):
            with m.If(q_of == q):
                m.d.comb += room.eq(f.count < f.depth)
        for q, f in enumerate(fifos):      # f(i) >= f(i-1) + fetch_cycles(i): the rest is stall
            m.d.comb += f.wdata.eq(Cat(self.i_data, pc, (cycle - last_f - dec.fetch_cycles)[:ENTRY_STALL]))
        fetching = (state == RUN) & ~finished
        advance = Signal()      # the word is appended: the decoder's checks restart on the next one
        m.d.comb += dec.restart.eq(advance | ((state == IDLE) & self.start))
        halt = Signal()
        halt_code = Signal(3)
        halt_pc = Signal(ENTRY_PC)
        with m.If(fetching):
            with m.If(pc == self.prog_len):
                m.d.comb += [halt.eq(1), halt_code.eq(fault_code("NO_FINISH")), halt_pc.eq(pc)]
            with m.Elif(dec.fault != 0):
                m.d.comb += [halt.eq(1), halt_code.eq(dec.fault), halt_pc.eq(pc)]
            with m.Elif(dec.is_finish):
                m.d.sync += finished.eq(1)
            with m.Elif(room & dec.ready):
                for q, f in enumerate(fifos):
                    m.d.comb += f.push.eq(q_of == q)
                m.d.comb += advance.eq(1)
                m.d.sync += [pc.eq(pc + 1), last_f.eq(cycle)]
        with m.If(pc == 0):
            m.d.comb += [f.wdata[128 + ENTRY_PC:].eq(0) for f in fifos]

        # deadlock: nothing busy, nothing can start, fetch cannot go on, something still queued
        any_busy = Const(0, 1)
        any_start = Const(0, 1)
        any_queued = Const(0, 1)
        for e, f in zip(engines, fifos):
            any_busy = any_busy | e.busy
            any_start = any_start | e.start
            any_queued = any_queued | (f.count != 0)
        fetch_blocked = finished | (dec.ready & (~room | dec.is_finish))
        min_pc = Signal(ENTRY_PC)
        cand = Const((1 << ENTRY_PC) - 1, ENTRY_PC)
        for f in reversed(fifos):
            hp = f.rdata[128:128 + ENTRY_PC]
            cand = Mux((f.count != 0) & (hp < cand), hp, cand)
        m.d.comb += min_pc.eq(cand)
        with m.If((state == RUN) & ~any_busy & ~any_start & any_queued & fetch_blocked
                  & ~(fetching & (pc == self.prog_len)) & ~(fetching & (dec.fault != 0))):
            m.d.comb += [halt.eq(1), halt_code.eq(fault_code("DEADLOCK")), halt_pc.eq(min_pc)]

        with m.Switch(state):
            with m.Case(IDLE), m.If(self.start):
                m.d.sync += [state.eq(RUN), cycle.eq(0), pc.eq(0), finished.eq(0), last_f.eq(0)]
            with m.Case(RUN):
                m.d.sync += cycle.eq(cycle + 1)
                with m.If(halt):
                    m.d.sync += [state.eq(DONE), self.error.eq(halt_code), self.fault_pc.eq(halt_pc),
                                 counters[CNT["cycles"]].eq(cycle)]
                with m.Elif(finished & ~any_busy & ~any_queued):
                    m.d.sync += [state.eq(DONE), counters[CNT["cycles"]].eq(cycle)]

        # ---------------------------------------------------------------- counters at completion
        events = {c: [] for c in CNT}

        def add_event(name, cond, value):
            events[name].append(Mux(cond, value, 0))

        # ---------------------------------------------------------------- load engine
        w = le.word
        is_load = field(w, "NOP", "opcode") == opcode_of("LOAD")
        F = {n: field(w, "LOAD", n) for n in ("sp", "len", "sp_addr", "ext_addr", "x_size", "y_size",
                                              "x_stride", "y_stride", "pad_top", "pad_bottom",
                                              "pad_left", "pad_right", "fill")}
        eb4 = (F["sp"] == SP["ACC"]) | (F["sp"] == SP["VEC"])
        nbytes = Mux(eb4, F["len"] << 2, F["len"])
        beats = Signal(8)
        m.d.comb += beats.eq(Mux(nbytes == 0, 1, (nbytes + dpc - 1) // dpc))
        lbeat = Signal(8)
        lline = Signal(16)
        lx = Signal(8)
        ly = Signal(8)
        lrow = Signal(32)
        lcur = Signal(32)
        in_data_phase = le.step >= L
        start = le.start
        cur_beat = Mux(start | ~in_data_phase, 0, lbeat)
        cx = Mux(start, 0, lx)
        cy = Mux(start, 0, ly)
        crow = Mux(start, F["ext_addr"], lrow)
        ccur = Mux(start, F["ext_addr"], lcur)
        line_end = le.active & is_load & in_data_phase & (cur_beat == beats - 1)
        data_line = ((cy >= F["pad_top"]) & (cy < F["y_size"] - F["pad_bottom"]) &
                     (cx >= F["pad_left"]) & (cx < F["x_size"] - F["pad_right"]))
        # the end: the last beat of the box's last line, or the last latency step of an empty box
        lempty = (F["x_size"] == 0) | (F["y_size"] == 0)
        l_last_line = (cx + 1 >= F["x_size"]) & (cy + 1 >= F["y_size"])
        le.set_last(m, Mux(is_load, Mux(lempty, le.step == L - 1, line_end & l_last_line), 1))
        # data bytes moved, counted per line (no product): the lines before this step + this one
        lbytes_r = Signal(40)
        lbytes = Mux(start, 0, lbytes_r) + Mux(line_end & data_line, nbytes, 0)
        with m.If(le.active):
            m.d.sync += lbytes_r.eq(lbytes)
        m.d.comb += self.ld_addr.eq(ccur)
        with m.If(le.active):
            m.d.sync += [lbeat.eq(cur_beat), lx.eq(cx), ly.eq(cy), lrow.eq(crow), lcur.eq(ccur),
                         lline.eq(Mux(start, 0, lline))]
            with m.If(is_load & in_data_phase):
                m.d.sync += lbeat.eq(Mux(cur_beat == beats - 1, 0, cur_beat + 1))
            with m.If(line_end):
                last_x = cx + 1 >= F["x_size"]
                m.d.sync += [lline.eq(Mux(start, 0, lline) + 1), lx.eq(Mux(last_x, 0, cx + 1)),
                             ly.eq(Mux(last_x, cy + 1, cy))]
                with m.If(data_line):
                    last_dx = cx + 1 >= F["x_size"] - F["pad_right"]
                    with m.If(last_dx):
                        m.d.sync += [lrow.eq(crow + F["y_stride"]), lcur.eq(crow + F["y_stride"])]
                    with m.Else():
                        m.d.sync += lcur.eq(ccur + F["x_stride"])
        fill8 = F["fill"]
        fill32 = Cat(fill8, fill8[7].replicate(24))  # the fill byte sign-extended for int32 spaces
        line8 = Cat(*[Mux(data_line & (e < F["len"]), self.ld_data[8 * e:8 * e + 8], fill8) for e in range(C)])
        line32 = Cat(*[Mux(data_line & (e < F["len"]), self.ld_data[32 * e:32 * e + 32], fill32)
                       for e in range(C)])
        for s in SPACE_ENUM:
            m.d.comb += [wl[s].addr.eq(F["sp_addr"] + Mux(start, 0, lline)),
                         wl[s].data.eq(line8 if ELEMENT_BYTES[s] == 1 else line32),
                         wl[s].en.eq((line_end & (F["sp"] == SP[s])).replicate(len(wl[s].en)))]
        add_event("load_busy", le.complete, le.cycles)
        add_event("dma_load_bytes", le.complete & is_load, lbytes)
        add_event("dma_latency", le.complete & is_load, L)

        # ---------------------------------------------------------------- store engine
        w = se.word
        op = field(w, "NOP", "opcode")
        is_store = op == opcode_of("STORE")
        is_rdperf = op == opcode_of("RDPERF")
        S = {n: field(w, "STORE", n) for n in ("sp", "len", "sp_addr", "ext_addr", "x_size", "y_size",
                                               "x_stride", "y_stride")}
        seb4 = (S["sp"] == SP["ACC"]) | (S["sp"] == SP["VEC"])
        snbytes = Mux(seb4, S["len"] << 2, S["len"])
        sbeats = Signal(8)
        m.d.comb += sbeats.eq(Mux(snbytes == 0, 1, (snbytes + dpc - 1) // dpc))
        perf_cycles = _ceil(8 * N_COUNTERS, dpc)
        sstart = se.start
        sbeat = Signal(8)
        sline = Signal(16)
        sx = Signal(8)
        sy = Signal(8)
        srow = Signal(32)
        scur = Signal(32)
        s_data = se.step >= L
        scb = Mux(sstart | ~s_data, 0, sbeat)
        scx = Mux(sstart, 0, sx)
        csrow = Mux(sstart, S["ext_addr"], srow)
        cscur = Mux(sstart, S["ext_addr"], scur)
        csline = Mux(sstart, 0, sline)
        scy = Mux(sstart, 0, sy)
        s_line_end = se.active & is_store & s_data & (scb == sbeats - 1)
        s_last_line = (scx + 1 >= S["x_size"]) & (scy + 1 >= S["y_size"])
        sempty = (S["x_size"] == 0) | (S["y_size"] == 0)
        se.set_last(m, Mux(is_store, Mux(sempty, se.step == L - 1, s_line_end & s_last_line),
                           Mux(is_rdperf, se.step == L + perf_cycles - 1, 1)))
        sbytes_r = Signal(40)
        sbytes = Mux(sstart, 0, sbytes_r) + Mux(s_line_end, snbytes, 0)
        with m.If(se.active):
            m.d.sync += sbytes_r.eq(sbytes)
        with m.If(se.active):
            m.d.sync += [sbeat.eq(scb), sx.eq(scx), sy.eq(scy), srow.eq(csrow), scur.eq(cscur),
                         sline.eq(csline)]
            with m.If(is_store & s_data):
                m.d.sync += sbeat.eq(Mux(scb == sbeats - 1, 0, scb + 1))
            with m.If(s_line_end):
                last_x = scx + 1 >= S["x_size"]
                m.d.sync += [sline.eq(csline + 1), sx.eq(Mux(last_x, 0, scx + 1)), sy.eq(scy + last_x),
                             srow.eq(Mux(last_x, csrow + S["y_stride"], csrow)),
                             scur.eq(Mux(last_x, csrow + S["y_stride"], cscur + S["x_stride"]))]
        # the scratchpad line of the slot that contains the next step
        rd_line = S["sp_addr"] + csline + s_line_end
        for s in SPACE_ENUM:
            m.d.comb += [rs[s].addr.eq(rd_line),
                         rs[s].valid.eq(se.active & is_store & (S["sp"] == SP[s]) & ~(s_line_end & s_last_line))]
        sdata8 = Array([rs[s].data for s in SPACE_ENUM])[S["sp"]]
        # RDPERF: snapshot at start, then counters_per_beat counters per data step
        k_per = counters_per_beat(cfg)
        snap = Signal(64 * N_COUNTERS)
        live = Cat(*[Mux(i == CNT["cycles"], cycle, counters[i]) for i in range(N_COUNTERS)])
        pidx = Signal(range(perf_cycles + 1))
        m.d.comb += pidx.eq(se.step - L)
        perf_chunk = snap[:64 * k_per]          # the snapshot shifts down as it is written
        perf_len = Signal(range(self.wb + 1))
        remaining = 8 * N_COUNTERS - pidx * 8 * k_per
        m.d.comb += perf_len.eq(Mux(remaining > 8 * k_per, 8 * k_per, remaining))
        perf_write = se.active & is_rdperf & s_data & (pidx * k_per < N_COUNTERS)
        with m.If(sstart & is_rdperf):
            m.d.sync += snap.eq(live)
        with m.Elif(perf_write):
            m.d.sync += snap.eq(snap >> (64 * k_per))
        m.d.comb += [
            self.st_en.eq(s_line_end | perf_write),
            self.st_addr.eq(Mux(is_rdperf, field(w, "RDPERF", "ext_addr") + pidx * 8 * k_per, cscur)),
            self.st_len.eq(Mux(is_rdperf, perf_len, snbytes)),
            self.st_data.eq(Mux(is_rdperf, perf_chunk, sdata8)),
        ]
        add_event("store_busy", se.complete, se.cycles)
        add_event("dma_store_bytes", se.complete & is_store, sbytes)
        add_event("dma_store_bytes", se.complete & is_rdperf, 8 * N_COUNTERS)
        add_event("dma_latency", se.complete & (is_store | is_rdperf), L)

        # ---------------------------------------------------------------- GEMM engine (compute queue)
        w = ge.word
        is_gemm = field(w, "NOP", "opcode") == opcode_of("GEMM")
        gstart = ge.start
        step = ge.step
        G = {n: field(w, "GEMM", n) for n in ("accumulate", "preload", "act_signed", "wgt_signed", "act",
                                              "acc", "wgt", "za", "zw", "nx", "ny", "act_xs", "act_ys",
                                              "acc_xs", "acc_ys", "kt")}
        lr = R.bit_length() - 1                       # rows is a power of two
        pre = Mux(G["preload"], R, 0)
        gn_any = (G["nx"] != 0) & (G["ny"] != 0)      # the tiles stream nx*ny lines (counted, no product)
        m.submodules.array = arr = SystolicArray(R, C, dsp_cells=self.dsp_cells)
        gact = ge.active & is_gemm
        # the weight buffer that holds the most recent tile; a preloading GEMM starts in the other
        cur_buf = Signal()
        b0 = ~cur_buf
        with m.If(ge.complete & is_gemm & G["preload"]):
            m.d.sync += cur_buf.eq(b0 ^ G["kt"][0])
        # position in the K tiles: tile index and step within its slot (from step `pre` on)
        tpos_r = Signal(16)
        tidx_r = Signal(5)
        tpos = Mux(gstart, 0, tpos_r)
        tidx = Mux(gstart, 0, tidx_r)
        in_tiles = step >= pre
        # the tile's stream position (x, y) in its slot; son: lines left to stream in this slot
        px_r = Signal(8)
        py_r = Signal(8)
        son_r = Signal()
        tfirst = tpos == 0
        px = Mux(tfirst, 0, px_r)
        py = Mux(tfirst, 0, py_r)
        son = Mux(tfirst, gn_any, son_r)
        px_last = px + 1 >= G["nx"]
        s_last = son & px_last & (py + 1 >= G["ny"])
        # a slot lasts max(nx*ny, rows) steps: at least rows, and until its last line streamed
        tlast = (tpos >= R - 1) & (~son | s_last)
        with m.If(ge.active):
            m.d.sync += [tpos_r.eq(Mux(in_tiles, Mux(tlast, 0, tpos + 1), 0)),
                         tidx_r.eq(Mux(in_tiles, tidx + tlast, 0)),
                         px_r.eq(Mux(px_last, 0, px + 1)), py_r.eq(py + px_last), son_r.eq(son & ~s_last)]
        streaming = gact & in_tiles & son & (tidx <= G["kt"])
        # the end: rows + cols steps after the last tile's slot
        in_drain = tidx > G["kt"]
        dcnt_r = Signal(range(R + C + 1))
        dcnt = Mux(gstart, 0, dcnt_r)
        with m.If(ge.active):
            m.d.sync += dcnt_r.eq(Mux(in_drain, dcnt + 1, 0))
        ge.set_last(m, Mux(is_gemm, in_drain & (dcnt == R + C - 1), 1))
        macs_r = Signal(40)
        macs = Mux(gstart, 0, macs_r) + Mux(streaming, R * C, 0)
        with m.If(ge.active):
            m.d.sync += macs_r.eq(macs)
        # activations: the walker runs on across tiles (tile t's base is act + t*ny*act_ys)
        act_w = _Walker(m, "gact", 16, gstart, G["act"], G["nx"], G["act_xs"], G["act_ys"])
        m.d.comb += act_w.advance.eq(streaming)
        # weights: tile 0 in steps 0..rows-1, tile t+1 in the first rows steps of tile t's slot
        wcnt_r = Signal(16)
        wcnt = Mux(gstart, 0, wcnt_r)
        wread = gact & G["preload"] & ((step < R) | (in_tiles & (tpos < R) & (tidx < G["kt"])))
        with m.If(ge.active):
            m.d.sync += wcnt_r.eq(wcnt + wread)
        w_we = Signal()
        w_row = Signal(max(lr, 1))
        w_sel = Signal()
        a_valid = Signal()
        a_sel = Signal()
        m.d.sync += [w_we.eq(wread), w_row.eq(wcnt[:max(lr, 1)] if lr else 0), w_sel.eq(b0 ^ wcnt[lr]),
                     a_valid.eq(streaming), a_sel.eq(Mux(G["preload"], b0 ^ tidx[0], cur_buf))]

        def byte9(v, sgn):
            return Mux(sgn, v.as_signed(), v.as_unsigned())

        m.d.comb += [
            arr.w_we.eq(w_we), arr.w_row.eq(w_row), arr.w_sel.eq(w_sel), arr.w_data.eq(rg["WGT"].data),
            arr.w_signed.eq(G["wgt_signed"]), arr.w_zp.eq(byte9(G["zw"], G["wgt_signed"])),
            arr.a_valid.eq(a_valid), arr.a_sel.eq(a_sel), arr.a_data.eq(rg["ACT"].data),
            arr.a_signed.eq(G["act_signed"]), arr.a_zp.eq(byte9(G["za"], G["act_signed"])),
        ]
        # results: tile t's line x is added to ACC (tiles after the first always accumulate)
        gwrite = gact & arr.o_valid
        ox_r = Signal(8)
        oy_r = Signal(8)
        otile_r = Signal(5)
        ox = Mux(gstart, 0, ox_r)
        oy = Mux(gstart, 0, oy_r)
        otile = Mux(gstart, 0, otile_r)
        ox_last = ox + 1 >= G["nx"]
        olast = ox_last & (oy + 1 >= G["ny"])
        with m.If(ge.active):
            m.d.sync += [ox_r.eq(ox), oy_r.eq(oy), otile_r.eq(otile)]
            with m.If(gwrite):
                m.d.sync += [ox_r.eq(Mux(ox_last, 0, ox + 1)), oy_r.eq(Mux(olast, 0, oy + ox_last)),
                             otile_r.eq(otile + olast)]
        accw = _Walker(m, "gacc", 16, gstart, G["acc"], G["nx"], G["acc_xs"], G["acc_ys"], wrap=olast)
        m.d.comb += accw.advance.eq(gwrite)
        old = rg["ACC"].data
        use_old = G["accumulate"] | (otile != 0)
        gsum = Cat(*[(arr.o_data[j] + Mux(use_old, old[32 * j:32 * j + 32], 0))[:32] for j in range(C)])
        m.d.comb += [
            rg["ACT"].addr.eq(act_w.cur),
            rg["WGT"].addr.eq(G["wgt"] + wcnt),
            rg["ACC"].addr.eq(Mux(gwrite, accw.nxt, accw.cur)),     # the old line, one step ahead
            rg["ACT"].valid.eq(streaming), rg["WGT"].valid.eq(wread),
            rg["ACC"].valid.eq(gact & (G["accumulate"] | (G["kt"] != 0))),
            wg_acc.addr.eq(accw.cur), wg_acc.data.eq(gsum),
            wg_acc.en.eq(gwrite.replicate(len(wg_acc.en))),
        ]
        add_event("array_busy", ge.complete & is_gemm, ge.cycles)
        add_event("macs", ge.complete & is_gemm, macs)

        # ---------------------------------------------------------------- vector engine (vector queue)
        w = ve.word
        is_vec = field(w, "NOP", "opcode") == opcode_of("VEC")
        vstart = ve.start
        vstep = ve.step
        V = {n: field(w, "VEC", n) for n in ("func", "signed", "accumulate", "dst", "src", "src2", "param",
                                             "nx", "ny", "dst_xs", "dst_ys", "src_xs", "src_ys")}
        func = V["func"]
        npar_max = max(len(vf.params) for vf in VEC_FUNCS if vf.params != ("table",))
        lut_lines = cfg.lut_lines
        P = Signal(16)
        S = Signal(4)                                 # steps per lane group (VecFunc.steps)
        pexpr = Const(0, 16)
        sexpr = Const(1, 4)
        for vf in VEC_FUNCS:
            pexpr = Mux(func == vf.code, vf.param_lines(C) if vf.params else 0, pexpr)
            sexpr = Mux(func == vf.code, vf.steps, sexpr)
        m.d.comb += [P.eq(pexpr), S.eq(sexpr)]
        # the read phase ends with the last line's last step (x / y line counters, no product)
        vlx_r = Signal(8)
        vly_r = Signal(8)
        rdone_r = Signal()
        vlx = Mux(vstart, 0, vlx_r)
        vly = Mux(vstart, 0, vly_r)
        rdone = Mux(vstart, (V["nx"] == 0) | (V["ny"] == 0), rdone_r)
        vlx_last = vlx + 1 >= V["nx"]
        vlast_line = vlx_last & (vly + 1 >= V["ny"])
        vparam_phase = ve.active & is_vec & (vstep < P)
        vread_phase = ve.active & is_vec & (vstep >= P) & ~rdone
        vcomp = Signal()      # a lane-group step is computed this cycle (from the data read last step)
        vchunk = Signal(range(nchunks + 1))
        vsub = Signal(4)
        rchunk_r = Signal(range(nchunks + 1))
        rsub_r = Signal(4)
        rchunk = Mux(vstart, 0, rchunk_r)
        rsub = Mux(vstart, 0, rsub_r)
        sub_last = rsub == S - 1
        chunk_last = rchunk == nchunks - 1
        with m.If(ve.active):
            m.d.sync += [rsub_r.eq(Mux(vread_phase & ~sub_last, rsub + 1, 0)),
                         rchunk_r.eq(Mux(vread_phase, Mux(sub_last, Mux(chunk_last, 0, rchunk + 1), rchunk), 0))]
        m.d.sync += [vcomp.eq(vread_phase), vchunk.eq(rchunk), vsub.eq(rsub)]
        radv = vread_phase & chunk_last & sub_last
        # then vector_latency steps end the instruction
        vtail_r = Signal(range(cfg.vector_latency + 1))
        vtail = Mux(vstart, 0, vtail_r)
        in_tail = (vstep >= P) & rdone
        with m.If(ve.active):
            m.d.sync += [vlx_r.eq(vlx), vly_r.eq(vly), rdone_r.eq(rdone | (radv & vlast_line)),
                         vtail_r.eq(Mux(in_tail, vtail + 1, 0))]
            with m.If(radv):
                m.d.sync += [vlx_r.eq(Mux(vlx_last, 0, vlx + 1)), vly_r.eq(vly + vlx_last)]
        ve.set_last(m, Mux(is_vec, in_tail & (vtail == cfg.vector_latency - 1), 1))
        src_w = _Walker(m, "vsrc", 16, vstart, V["src"], V["nx"], V["src_xs"], V["src_ys"])
        src2_w = _Walker(m, "vsrc2", 16, vstart, V["src2"], V["nx"], V["dst_xs"], V["dst_ys"])
        dstr_w = _Walker(m, "vdstr", 16, vstart, V["dst"], V["nx"], V["dst_xs"], V["dst_ys"])
        dstw_w = _Walker(m, "vdstw", 16, vstart, V["dst"], V["nx"], V["dst_xs"], V["dst_ys"])
        m.d.comb += [src_w.advance.eq(radv), src2_w.advance.eq(radv), dstr_w.advance.eq(radv)]
        # The LUT reads its table memory synchronously (block RAM) when vector_latency leaves the
        # one extra step this costs: its results land one step after the other functions'.
        lut_sync = cfg.vector_latency >= 2
        is_lut = func == VEC_BY_NAME["LUT"].code
        lut_late = is_lut if lut_sync else Const(0, 1)
        vcomp_d = Signal()
        vchunk_d = Signal.like(vchunk)
        m.d.sync += [vcomp_d.eq(vcomp), vchunk_d.eq(vchunk)]
        vgroup_done = Mux(lut_late, vcomp_d, vcomp & (vsub == S - 1))   # a lane group's results are final
        vgroup = Mux(lut_late, vchunk_d, vchunk)
        vwrite = vgroup_done & (vgroup == nchunks - 1)
        m.d.comb += dstw_w.advance.eq(vwrite)

        # parameter registers (line j, lane n); the lookup table in one memory per lane
        params = [[Signal(signed(32), name=f"par{j}_{n}") for n in range(C)] for j in range(npar_max)]
        pline = Signal(16)
        pvalid = Signal()
        m.d.sync += [pvalid.eq(vparam_phase), pline.eq(vstep[:16])]
        vecdata = rv["VEC"].data
        with m.If(pvalid & ve.busy), m.Switch(pline):
            for j in range(npar_max):
                with m.Case(j):
                    m.d.sync += [params[j][n].eq(vecdata[32 * n:32 * n + 32]) for n in range(C)]
        lc = C.bit_length() - 1                       # cols is a power of two: entry e = line e >> lc
        lut_row = Cat(*[vecdata[32 * n:32 * n + 8] for n in range(C)])
        lut_we = pvalid & ve.busy & is_lut & (pline < lut_lines)

        # lanes: one fixed-point multiplier (mbqm) each; ADDQ / SUBQ use it in three steps
        act1 = rv["ACT"].data
        act2 = rv2.data
        accd = rv["ACC"].data
        results8 = []
        results32 = []
        sel = vchunk if nchunks > 1 else Const(0, 1)
        f = {vf.name: func == vf.code for vf in VEC_FUNCS}
        addsub = f["ADDQ"] | f["SUBQ"]
        for lane in range(lanes):
            def pick(vals, lane=lane):
                if nchunks == 1:
                    return vals[lane]
                return Array([vals[ch * lanes + lane] for ch in range(nchunks)])[sel]

            a8 = pick([act1[8 * e:8 * e + 8] for e in range(C)])
            b8 = pick([act2[8 * e:8 * e + 8] for e in range(C)])
            a_acc = pick([accd[32 * e:32 * e + 32] for e in range(C)]).as_signed()
            a_act = Signal(signed(10), name=f"la{lane}")
            b_act = Signal(signed(10), name=f"lb{lane}")
            m.d.comb += [a_act.eq(Mux(V["signed"], a8.as_signed(), a8.as_unsigned())),
                         b_act.eq(Mux(V["signed"], b8.as_signed(), b8.as_unsigned()))]

            def par(fname, pname):
                j = VEC_BY_NAME[fname].params.index(pname)
                return pick([params[j][e] for e in range(C)])

            x1 = Signal(signed(32), name=f"x1_{lane}")        # ADDQ / SUBQ: step 0's result
            x2 = Signal(signed(32), name=f"x2_{lane}")        # step 1's result
            x_in = Signal(signed(64), name=f"u_in{lane}")
            m_in = Signal(signed(32), name=f"u_m{lane}")
            e_in = Signal(signed(32), name=f"u_e{lane}")
            with m.If(f["REQ"]):
                m.d.comb += [x_in.eq(a_acc + par("REQ", "bias")), m_in.eq(par("REQ", "mult")),
                             e_in.eq(par("REQ", "shift"))]
            with m.Elif(f["MULQ"]):
                # MULQ zero points: their low 9 bits, signed (docs/isa.md) -> a 10 x 10-bit product
                m.d.comb += [x_in.eq((a_act - par("MULQ", "z1")[:9].as_signed())
                                     * (b_act - par("MULQ", "z2")[:9].as_signed())),
                             m_in.eq(par("MULQ", "m")), e_in.eq(par("MULQ", "e"))]
            with m.Elif(vsub == 0):
                m.d.comb += [x_in.eq((a_act - par("ADDQ", "z1")) << ADD_LEFT_SHIFT), m_in.eq(par("ADDQ", "m1")),
                             e_in.eq(par("ADDQ", "e1"))]
            with m.Elif(vsub == 1):
                m.d.comb += [x_in.eq((b_act - par("ADDQ", "z2")) << ADD_LEFT_SHIFT), m_in.eq(par("ADDQ", "m2")),
                             e_in.eq(par("ADDQ", "e2"))]
            with m.Else():
                m.d.comb += [x_in.eq(Mux(f["SUBQ"], x1 - x2, x1 + x2)), m_in.eq(par("ADDQ", "mo")),
                             e_in.eq(par("ADDQ", "eo"))]
            scaled = mbqm_scale(m, x_in, e_in, name=f"u{lane}")
            # DIV: x = wrap32(abs(acc) + half) times m on the same multiplier, then >> (s & 63)
            mag = Mux(a_acc < 0, -a_acc, a_acc).as_unsigned()[:33]
            xdiv = Signal(signed(32), name=f"xdiv{lane}")
            m.d.comb += xdiv.eq((mag + par("DIV", "half"))[:32].as_signed())
            op_a = Mux(f["DIV"], xdiv, scaled)
            op_b = Mux(f["DIV"], par("DIV", "m"), m_in)
            ab = Signal(signed(64), name=f"u{lane}_ab")
            m.d.comb += ab.eq(op_a * op_b)
            u = mbqm_round(m, ab, scaled, m_in, e_in, name=f"u{lane}")
            with m.If(vcomp & addsub & (vsub == 0)):
                m.d.sync += x1.eq(u)
            with m.If(vcomp & addsub & (vsub == 1)):
                m.d.sync += x2.eq(u)
            quo = Signal(signed(64), name=f"quo{lane}")
            m.d.comb += quo.eq(ab >> par("DIV", "s")[:6])
            sq = Mux(a_acc < 0, -quo, quo)
            # LUT: entry a8 is byte (a8 mod cols) of table line a8 / cols
            lut = Memory(shape=unsigned(8 * C), depth=lut_lines, init=[])
            m.submodules[f"lut{lane}"] = lut
            lw = lut.write_port()
            lrd = lut.read_port() if lut_sync else lut.read_port(domain="comb")
            m.d.comb += [lw.en.eq(lut_we), lw.addr.eq(pline), lw.data.eq(lut_row), lrd.addr.eq(a8[lc:])]
            byte = a8[:lc]
            if lut_sync and lc:
                byte = Signal(lc, name=f"lut_byte{lane}")
                m.d.sync += byte.eq(a8[:lc])
            lut_out = lrd.data.word_select(byte, 8) if lc else lrd.data
            r = Signal(signed(40), name=f"res{lane}")
            with m.Switch(func):
                with m.Case(VEC_BY_NAME["REQ"].code):
                    m.d.comb += r.eq(clamp(u + par("REQ", "zo"), par("REQ", "lo"), par("REQ", "hi")))
                with m.Case(VEC_BY_NAME["ADDQ"].code, VEC_BY_NAME["SUBQ"].code):
                    m.d.comb += r.eq(clamp(u + par("ADDQ", "zo"), par("ADDQ", "lo"), par("ADDQ", "hi")))
                with m.Case(VEC_BY_NAME["MULQ"].code):
                    m.d.comb += r.eq(clamp(u + par("MULQ", "zo"), par("MULQ", "lo"), par("MULQ", "hi")))
                with m.Case(VEC_BY_NAME["MAX"].code):
                    m.d.comb += r.eq(Mux(a_act > b_act, a_act, b_act))
                with m.Case(VEC_BY_NAME["SUMW"].code):
                    m.d.comb += r.eq(a_act + Mux(V["accumulate"], a_acc, 0))
                with m.Case(VEC_BY_NAME["DIV"].code):
                    m.d.comb += r.eq(clamp(sq, par("DIV", "lo"), par("DIV", "hi")))
                with m.Case(VEC_BY_NAME["LUT"].code):
                    m.d.comb += r.eq(lut_out)
                with m.Case(VEC_BY_NAME["CLAMP"].code):
                    m.d.comb += r.eq(clamp(a_act, par("CLAMP", "lo"), par("CLAMP", "hi")))
                with m.Case(VEC_BY_NAME["BIAS"].code):
                    m.d.comb += r.eq(a_acc + par("BIAS", "bias"))
            results8.append(r[:8])
            results32.append(r[:32])

        # line buffers: lane groups land here; the whole line is written after the last group
        buf8 = [Signal(8, name=f"vb8_{e}") for e in range(C)]
        buf32 = [Signal(32, name=f"vb32_{e}") for e in range(C)]
        line_out8 = []
        line_out32 = []
        for e in range(C):
            ch, lane = divmod(e, lanes)
            here = vgroup == ch
            line_out8.append(Mux(here, results8[lane], buf8[e]))
            line_out32.append(Mux(here, results32[lane], buf32[e]))
            with m.If(vgroup_done & here):
                m.d.sync += [buf8[e].eq(results8[lane]), buf32[e].eq(results32[lane])]

        vdst_act = Const(0, 1)
        vdst_acc = Const(0, 1)
        vsrc_acc = Const(0, 1)
        vbinary = Const(0, 1)
        for vf in VEC_FUNCS:
            if vf.binary:
                vbinary = vbinary | (func == vf.code)
            if vf.dst == "ACT":
                vdst_act = vdst_act | (func == vf.code)
            else:
                vdst_acc = vdst_acc | (func == vf.code)
            if vf.src == "ACC":
                vsrc_acc = vsrc_acc | (func == vf.code)
        m.d.comb += [
            rv["ACT"].addr.eq(src_w.cur),
            rv2.addr.eq(src2_w.cur),
            rv["VEC"].addr.eq(V["param"] + vstep[:16]),
            rv["ACC"].addr.eq(Mux(vsrc_acc, src_w.cur, dstr_w.cur)),
            rv["ACT"].valid.eq(vread_phase & ~vsrc_acc), rv2.valid.eq(vread_phase & vbinary),
            rv["VEC"].valid.eq(vparam_phase),
            rv["ACC"].valid.eq(vread_phase & (vsrc_acc | (f["SUMW"] & V["accumulate"]))),
            wv["ACT"].addr.eq(dstw_w.cur), wv["ACT"].data.eq(Cat(*line_out8)),
            wv["ACT"].en.eq(ve.active & is_vec & vwrite & vdst_act),
            wv["ACC"].addr.eq(dstw_w.cur), wv["ACC"].data.eq(Cat(*line_out32)),
            wv["ACC"].en.eq((ve.active & is_vec & vwrite & vdst_acc).replicate(len(wv["ACC"].en))),
        ]
        add_event("vector_busy", ve.complete & is_vec, ve.cycles)

        for q, e in enumerate(engines):
            add_event("instructions", e.complete, 1)
            add_event("fetch_stall", e.complete, e.fstall)
            add_event(f"{QUEUES[q]}_token_stall", e.complete, e.tstall)

        with m.If(state == RUN):
            for name, terms in events.items():
                if name == "cycles" or not terms:
                    continue
                total = terms[0]
                for t in terms[1:]:
                    total = total + t
                m.d.sync += counters[CNT[name]].eq(counters[CNT[name]] + total)
        return m


assert QUEUE_CODE == {q: n for n, q in enumerate(QUEUES)} and CONTROL_QUEUE == len(QUEUES)


class SimTop(wiring.Component):
    """:class:`Accelerator` + :class:`~nnaccel.hw.extmem.ExtMemory`: the simulation top level.

    The host port (``h_addr`` word index, ``h_we``, ``h_wdata``, ``h_rdata``) loads memory while
    the accelerator is idle; ``start`` (one cycle) runs the program at ``prog_addr`` (16-byte
    aligned) of ``prog_len`` instructions; ``done`` rises when it has finished or faulted."""

    def __init__(self, config="tiny", mem_bytes: int = 1 << 20):
        self.cfg = load_config(config)
        self.mem_bytes = mem_bytes
        self.wb = word_bytes(self.cfg)
        depth = mem_bytes // self.wb
        super().__init__({
            "start": In(1), "prog_addr": In(32), "prog_len": In(ENTRY_PC),
            "busy": Out(1), "done": Out(1), "error": Out(3), "fault_pc": Out(ENTRY_PC),
            "counters": Out(unsigned(64 * N_COUNTERS)),
            "h_addr": In(range(depth)), "h_we": In(1), "h_wdata": In(self.wb * 8), "h_rdata": Out(self.wb * 8),
        })

    def elaborate(self, platform):
        m = Module()
        m.submodules.accel = acc = Accelerator(self.cfg)
        m.submodules.mem = mem = ExtMemory(self.cfg, self.mem_bytes)
        m.d.comb += [
            acc.start.eq(self.start), acc.prog_addr.eq(self.prog_addr), acc.prog_len.eq(self.prog_len),
            self.busy.eq(acc.busy), self.done.eq(acc.done), self.error.eq(acc.error),
            self.fault_pc.eq(acc.fault_pc), self.counters.eq(acc.counters),
            mem.i_addr.eq(acc.i_addr), acc.i_data.eq(mem.i_data),
            mem.ld_addr.eq(acc.ld_addr), acc.ld_data.eq(mem.ld_data),
            mem.st_en.eq(acc.st_en), mem.st_addr.eq(acc.st_addr), mem.st_len.eq(acc.st_len),
            mem.st_data.eq(acc.st_data),
            mem.h_addr.eq(self.h_addr), mem.h_we.eq(self.h_we), mem.h_wdata.eq(self.h_wdata),
            self.h_rdata.eq(mem.h_rdata),
        ]
        return m
