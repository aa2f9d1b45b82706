"""The DMA engine: the walk of a LOAD / STORE box and the one-beat DMA datapath, and the
signatures of an engine's sequencer port and of the external-memory beats."""

from __future__ import annotations

from amaranth.hdl import Array, Cat, Const, Module, Mux, Signal
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

from nnaccel.hwconfig import ELEMENT_BYTES
from nnaccel.isa.table import N_COUNTERS, SPACE_ENUM

from .bounds import LAYOUT, SP, _bits, _ceil, ext_bits, max_event
from .counters import counter_read_signature
from .decoder import _at_least, field, opcode_of
from .extmem import counters_per_beat, load_port_bytes, rdperf_split, store_port_bytes
from .scratchpad import read_port_signature, write_port_signature

__all__ = ["DmaEngine", "engine_signature", "load_beat_signature", "store_beat_signature"]


def _above_narrow(v, t):
    """Unsigned ``v > t`` for a narrow ``t`` (a 2-bit padding field): ``v``'s bits above ``t``'s
    width, or a bitwise comparison of the low bits (logic, not a carry chain as wide as ``v``)."""
    w = len(t)
    above = Const(0, 1)                       # v[:i] > t[:i] over the bits seen so far (from the LSB up)
    for i in range(w):
        above = Mux(v[i] == t[i], above, v[i])
    return (v[w:] != 0) | above if len(v) > w else above


def _line_bytes(length, four_bytes):
    """A line's bytes: ``length`` elements of 4 bytes (``four_bytes``) or of 1."""
    return Mux(four_bytes, length << 2, length)


def _byte_count(before, line_done, nbytes):
    """The bytes moved: ``before``, and ``nbytes`` more where ``line_done``."""
    return before + Mux(line_done, nbytes, 0)


def _count_widths(cfg, byte_bits: int) -> tuple[int, int]:
    """The widths of :class:`_BoxWalk`'s ``bytes`` and ``nbytes`` (its ``len`` is as wide as its
    legal values in order, the field elsewhere)."""
    length = Signal(_bits(cfg.line_elems) if cfg.in_order else LAYOUT["LOAD"]["fields"]["len"][1])
    nbytes = _line_bytes(length, Signal())
    return len(_byte_count(Signal(byte_bits), Signal(), nbytes)), len(nbytes)


class _BoxWalk:
    """The walk of a LOAD / STORE box for the engine ``eng`` (a :class:`_Steps`; its instruction's
    ``fields``) while
    ``run``: ``ext_latency`` latency steps, then one line per ``beats`` = ``max(1, ceil(len *
    element_bytes / dma_bytes_per_cycle))`` steps; ``line_end`` is the last step of a line's slot.
    It keeps the beat, the line, x + 1 / y + 1 (the box position, counted from 1), the external row and cursor (``cur``: the line's external
    address) and the data bytes moved (``bytes``: the lines before this step + this one). Its
    counters clear at completion (0 when the next instruction starts: no multiplexer in front of
    their adders) and the addresses load at the start step (every use lies in the data steps, step
    >= L >= 1, except the byte count of an empty box, 0). ``pads``: (top, bottom, left, right) of a
    LOAD (padding lines are not data: no bytes, the cursor stays), or None (every line is data)."""

    def __init__(self, m: Module, name: str, cfg, fields, eng, run, pads, byte_bits: int):
        L, beat_bytes, addr_bits = cfg.ext_latency, cfg.dma_bytes_per_cycle, ext_bits(cfg)
        beats_max = max(1, _ceil(cfg.line_elems * max(ELEMENT_BYTES.values()), beat_bytes))
        eb4 = (fields["sp"] == SP["ACC"]) | (fields["sp"] == SP["VEC"])
        # (in order: `len` as wide as its legal values, 0 .. line_elems, which the decoder checks
        # (ILLEGAL_FIELD above): the byte count, the beats and their adders that narrow)
        self.len = ln = fields["len"][:_bits(cfg.line_elems)] if cfg.in_order else fields["len"]
        self.nbytes = nbytes = _line_bytes(ln, eb4)
        beats = Signal(range(beats_max + 1), name=f"{name}_beats")
        m.d.comb += beats.eq(Mux(nbytes == 0, 1, (nbytes + beat_bytes - 1) // beat_bytes))
        beat = Signal(range(max(2, beats_max)), name=f"{name}_beat")
        # a line's last beat, loaded at the start step (the fields' arithmetic off the step's
        # control paths: the beats count only in the data steps, step >= L >= 1)
        beat_last = Signal.like(beat, name=f"{name}_beat_last")
        with m.If(eng.start):
            m.d.sync += beat_last.eq(beats - 1)
        self.line = line = Signal(max(_bits(cfg.lines(s) - 1) for s in SPACE_ENUM), name=f"{name}_line")
        # x + 1 and y + 1 (1 .. x_size, 1 .. y_size), so the ends compare registers with the fields
        # and no incrementer's carry chain lies in front of a comparison
        x1, y1 = Signal(8, init=1, name=f"{name}_x1"), Signal(8, init=1, name=f"{name}_y1")
        row, self.cur = Signal(addr_bits, name=f"{name}_row"), Signal(addr_bits, name=f"{name}_cur")
        cur = self.cur
        in_data = eng.at_least(L)
        #: a data step of the box (``beat`` is this step's beat of its line, ``addr`` its external address)
        self.in_beat = in_beat = eng.active & run & in_data
        self.beat, self.beats = beat, beats
        self.line_end = line_end = in_beat & (beat == beat_last)
        in_order = cfg.in_order
        if in_order:
            # In order x + 1 / y + 1 count up by one from 1 (x + 1 back to 1 after its last, both
            # back to 1 at completion) and a box ends at its last line, so x + 1 <= x_size and
            # y + 1 <= y_size wherever they count (an empty box has no line steps): the ends are
            # equalities, where >= would be a carry chain (one logic cell a bit)
            last_x = x1 == fields["x_size"]
            last_y = y1 == fields["y_size"]
        else:
            last_x = x1 >= fields["x_size"]
            last_y = y1 >= fields["y_size"]
        if pads is None:
            self.data_line = data_line = Const(1, 1)
            last_dx = last_x
        elif in_order:
            top, bottom, left, right = pads
            yb, xb = fields["y_size"] - bottom, fields["x_size"] - right
            # x < x_size - right, y < y_size - bottom: flags set as x / y step onto the first
            # line of the bottom / right padding (x + 1 == xb: the counter passes each value),
            # cleared with the counter; none of its lines are data when xb (yb) is 0
            ypad_r, xpad_r = Signal(name=f"{name}_ypad"), Signal(name=f"{name}_xpad")
            x_to_pad = x1 == xb
            self.data_line = data_line = (_above_narrow(y1, top) & ~ypad_r & (yb != 0) &
                                          _above_narrow(x1, left) & ~xpad_r & (xb != 0))
            last_dx = x_to_pad                     # (used in data lines only, where x < xb)
            with m.If(eng.active):
                with m.If(line_end):
                    m.d.sync += [xpad_r.eq(~last_x & (xpad_r | x_to_pad)),
                                 ypad_r.eq(ypad_r | (last_x & (y1 == yb)))]
                with m.If(eng.complete):
                    m.d.sync += [xpad_r.eq(0), ypad_r.eq(0)]
        else:
            top, bottom, left, right = pads
            self.data_line = data_line = ((y1 > top) & (y1 <= fields["y_size"] - bottom) &
                                          (x1 > left) & (x1 <= fields["x_size"] - right))
            last_dx = x1 >= fields["x_size"] - right
        self.empty = (fields["x_size"] == 0) | (fields["y_size"] == 0)
        self.last_line = last_x & last_y
        bytes_r = Signal(byte_bits, name=f"{name}_bytes")
        self.bytes = _byte_count(bytes_r, line_end & data_line, nbytes)
        with m.If(eng.start):
            m.d.sync += [row.eq(fields["ext_addr"][:addr_bits]), cur.eq(fields["ext_addr"][:addr_bits])]
        with m.If(eng.active):
            m.d.sync += bytes_r.eq(self.bytes)
            with m.If(run & in_data):
                m.d.sync += beat.eq(Mux(beat == beat_last, 0, beat + 1))
            with m.If(line_end):
                m.d.sync += [line.eq(line + 1), x1.eq(Mux(last_x, 1, x1 + 1)), y1.eq(Mux(last_x, y1 + 1, y1))]
                with m.If(data_line):
                    with m.If(last_dx):
                        m.d.sync += [row.eq(row + fields["y_stride"]), cur.eq(row + fields["y_stride"])]
                    with m.Else():
                        m.d.sync += cur.eq(cur + fields["x_stride"])
            with m.If(eng.complete):
                m.d.sync += [beat.eq(0), x1.eq(1), y1.eq(1), line.eq(0), bytes_r.eq(0)]


def engine_signature(step_bits: int, marks=(), overlap: bool = False) -> wiring.Signature:
    """An engine's port to the sequencer that runs its queue's instructions, seen from the
    sequencer: ``word`` (the instruction, 128 bits: those its queue keeps), ``start`` (its first
    step), ``active`` (it runs, or starts, this cycle), ``complete`` (its last step), ``step`` (its
    steps so far, 0 while idle: it clears at completion), ``at_least_<c>`` for each constant ``c``
    of ``marks``: ``step >= c`` as a flag (the in-order executor's, :meth:`_InOrder.step_at_least`), and
    from the engine ``last`` (in: the running instruction ends at this step). With ``overlap``
    (the GEMM engine's, the ISA's array overlap) ``last`` is an array instruction's release, and
    from the engine: ``done`` (an instruction of the queue completes: its tokens and counter
    events), ``done_push`` (the push flags ``push_prev``, ``push_next`` of the one that does),
    ``may_start`` (the queue's head may start: nothing drains, or it overlaps the one that does)
    and ``draining`` (a released instruction's results still drain)."""
    more = ({"done": In(1), "done_push": In(2), "may_start": In(1), "draining": In(1)} if overlap else {})
    return wiring.Signature({"word": Out(128), "start": Out(1), "active": Out(1), "complete": Out(1),
                             "step": Out(step_bits), **{f"at_least_{c}": Out(1) for c in marks},
                             "last": In(1), **more})


def load_beat_signature(cfg) -> wiring.Signature:
    """The DMA's load port, seen from the DMA: ``addr`` (out: the beat's external byte address) and
    ``data`` (in: the ``dma_bytes_per_cycle`` bytes there, in the same cycle)."""
    return wiring.Signature({"addr": Out(32), "data": In(8 * load_port_bytes(cfg))})


def store_beat_signature(cfg) -> wiring.Signature:
    """The DMA's store port, seen from the DMA: with ``en``, the first ``len`` bytes of ``data`` are
    written at ``addr`` (all out)."""
    sb = store_port_bytes(cfg)
    return wiring.Signature({"en": Out(1), "addr": Out(32), "len": Out(range(sb + 1)), "data": Out(8 * sb)})


class DmaEngine(wiring.Component):
    """The DMA engine of ``queues`` for configuration ``cfg``: ``("load",)`` or ``("store",)`` (the
    two engines of ``dma_engines = 2``), or ``("load", "store")`` (one engine for both queues:
    ``dma_engines = 1``, and the in-order machine). It runs the instruction its sequencer starts,
    LOAD / STORE (one box walk, :class:`_BoxWalk`) or RDPERF, and ends it.

    Ports:

    - ``seq`` (in, :func:`engine_signature`): the sequencer's instruction and steps (``step_bits``
      wide; in order with the step flags of :attr:`marks`); ``seq.last`` is the engine's end;
    - ``wr_<space>`` (out, :func:`~nnaccel.hw.scratchpad.write_port_signature`, a LOAD engine):
      the scratchpad lines it writes, and ``wr_<space>_mask`` (out, ``cols`` bits) the element write
      enables of the spaces whose line is more than one beat;
    - ``rd_<space>`` (out, :func:`~nnaccel.hw.scratchpad.read_port_signature`, a STORE engine): the
      lines it stores;
    - ``ld`` (:func:`load_beat_signature`, a LOAD engine) and ``st`` (:func:`store_beat_signature`,
      a STORE engine): the external-memory beats; one engine for both queues has one address
      (``st.addr``, which ``ld.addr`` repeats);
    - ``counters`` (in, :func:`~nnaccel.hw.counters.counter_read_signature`, a STORE engine): the
      counters at the ring's head, which RDPERF writes;
    - ``is_load`` / ``is_store`` / ``is_rdperf`` (out): the instruction in ``seq.word`` is one;
    - ``bytes`` (out): the data bytes the instruction has moved, this step's beat included (its
      total at completion); ``line_bytes`` (out): the bytes of a data line in its last step, else 0
      (an in-order machine counts them as they pass).

    Timing: ``ext_latency`` steps of memory latency, then one line per ``B = max(1, ceil(len *
    element_bytes / dma_bytes_per_cycle))`` steps, one beat a step. LOAD (:meth:`_load`): beat
    ``b`` of a line reads its bytes at the line's external address + ``b * dma_bytes_per_cycle``
    and writes the scratchpad elements they hold in that step; the elements past ``len``, and
    every element of a padding line, get the fill byte (sign-extended for the int32 spaces) at the
    line's first beat. A 1-byte space's line is one beat (``cols <= dma_bytes_per_cycle``,
    checked by :class:`~nnaccel.hw.accel.Accelerator`), written whole at that beat.

    STORE (:meth:`_store`): the scratchpad line is read one step ahead of its slot (the read port
    holds it through the slot: a STORE reads its bank alone, the ISA's bank rules) and beat ``b``
    writes its ``dma_bytes_per_cycle`` bytes at the line's address + ``b * dma_bytes_per_cycle``
    (``st.len``: those of the line's ``len`` elements). RDPERF: the ``k`` counters at the ring's
    head in each of its first ``n_beats`` data steps (``rdperf_sample_cycle``); with 4-byte beats
    and ``counter_bits <= 32`` (:func:`~nnaccel.hw.extmem.rdperf_split`) their low halves there and
    the zero upper halves in the remaining data steps. A LOAD engine's NOP (a store engine's too)
    ends at its first step."""

    def __init__(self, cfg, queues: tuple, step_bits: int):
        assert queues in (("load",), ("store",), ("load", "store")), queues
        self.cfg, self.queues = cfg, queues
        self.name = queues[0] if len(queues) == 1 else "dma"
        L = cfg.ext_latency
        self.k_per = counters_per_beat(cfg)
        self.n_beats = _ceil(N_COUNTERS, self.k_per)
        #: RDPERF's data steps: its ``8 * N_COUNTERS`` bytes, a beat a step
        self.perf_cycles = _ceil(8 * N_COUNTERS, cfg.dma_bytes_per_cycle)
        #: the step flags an in-order sequencer gives (``step >= c``): the data steps, an empty
        #: box's and RDPERF's last steps, RDPERF's sample steps
        self.marks = tuple(sorted({L, L + self.perf_cycles, L + self.n_beats})) if cfg.in_order else ()
        loads, stores = "load" in queues, "store" in queues
        byte_bits = max(_bits(max_event(cfg, [q.upper()], f"dma_{q}_bytes")) for q in queues)
        self.byte_bits = byte_bits
        count_bits, line_bits = _count_widths(cfg, byte_bits)
        ports = {"seq": In(engine_signature(step_bits, self.marks))}
        self.one_beat = {}
        for s in SPACE_ENUM:
            eb = ELEMENT_BYTES[s]
            if loads:
                ports[f"wr_{s.lower()}"] = Out(write_port_signature(cfg.lines(s), cfg.cols * 8 * eb))
                self.one_beat[s] = cfg.cols * eb <= cfg.dma_bytes_per_cycle
                if not self.one_beat[s]:
                    ports[f"wr_{s.lower()}_mask"] = Out(cfg.cols)
            if stores:
                ports[f"rd_{s.lower()}"] = Out(read_port_signature(cfg.lines(s), cfg.cols * 8 * eb))
        if loads:
            ports["ld"] = Out(load_beat_signature(cfg))
        if stores:
            ports["st"] = Out(store_beat_signature(cfg))
            ports["counters"] = In(counter_read_signature(cfg))
        ports.update(is_load=Out(1), is_store=Out(1), is_rdperf=Out(1),
                     bytes=Out(count_bits), line_bytes=Out(line_bits))
        super().__init__(ports)

    def elaborate(self, platform):
        m = Module()
        cfg, queues, seq = self.cfg, self.queues, self.seq
        w = seq.word
        op = field(w, "NOP", "opcode")
        loads, stores = "load" in queues, "store" in queues
        if loads:
            m.d.comb += self.is_load.eq(op == opcode_of("LOAD"))
        if stores:
            m.d.comb += [self.is_store.eq(op == opcode_of("STORE")), self.is_rdperf.eq(op == opcode_of("RDPERF"))]
        is_box = self.is_load | self.is_store
        # STORE's fields lie at LOAD's (an engine of both queues reads LOAD's: STORE's padding
        # fields read 0, the store queue's entries do not keep those bits); RDPERF's ext_addr at STORE's
        assert all(LAYOUT["LOAD"]["fields"][n] == LAYOUT["STORE"]["fields"][n] for n in LAYOUT["STORE"]["fields"])
        assert LAYOUT["RDPERF"]["fields"]["ext_addr"] == LAYOUT["STORE"]["fields"]["ext_addr"]
        names = ["sp", "len", "sp_addr", "ext_addr", "x_size", "y_size", "x_stride", "y_stride"]
        if loads:
            names += ["pad_top", "pad_bottom", "pad_left", "pad_right", "fill"]
        fields = {n: field(w, "LOAD" if loads else "STORE", n) for n in names}
        marks = {c: getattr(seq, f"at_least_{c}") for c in self.marks}
        eng = _Steps(seq, marks if cfg.in_order else None)
        pads = (fields["pad_top"], fields["pad_bottom"], fields["pad_left"], fields["pad_right"]) if loads else None
        walk = _BoxWalk(m, self.name, cfg, fields, eng, is_box, pads, self.byte_bits)
        assert len(walk.bytes) == len(self.bytes) and len(walk.nbytes) == len(self.line_bytes)
        m.d.comb += [seq.last.eq(self._last(eng, walk, is_box)), self.bytes.eq(walk.bytes),
                     self.line_bytes.eq(Mux(walk.line_end & walk.data_line, walk.nbytes, 0))]
        addr = None
        if stores:
            addr = self._store(m, eng, walk, fields)
        if loads:
            self._load(m, walk, fields, addr)
        return m

    def _last(self, eng, walk, is_box):
        """The instruction's last step: a box's last line, or the latency alone for an empty box;
        RDPERF after its ``ceil(8 * N_COUNTERS / dma_bytes_per_cycle)`` data steps."""
        L = self.cfg.ext_latency
        return Mux(is_box, Mux(walk.empty, eng.eq(L - 1), walk.line_end & walk.last_line),
                   Mux(self.is_rdperf, eng.eq(L + self.perf_cycles - 1), 1))

    def _load(self, m, walk, fields, addr):
        """The LOAD beat. ``addr``: this beat's external address when :meth:`_store` made it (one
        engine for both queues), else the walk's line address + the beat's offset."""
        cfg = self.cfg
        beat_bytes = cfg.dma_bytes_per_cycle
        if addr is None:
            addr = (walk.cur + (walk.beat << (beat_bytes.bit_length() - 1)))[:ext_bits(cfg)]
        m.d.comb += self.ld.addr.eq(addr)
        fill8 = fields["fill"]
        go = walk.in_beat & self.is_load
        first = walk.beat == 0
        # an element of the line's first beat: its bytes or the fill, at that beat; an element of a
        # later beat: its bytes at its beat, or the fill at the first beat (then its beat's place
        # carries the fill: one bus per place in the beat, not one multiplexer per element)
        buses = {}
        for s in SPACE_ENUM:
            eb = ELEMENT_BYTES[s]
            fill = fill8 if eb == 1 else Cat(fill8, fill8[7].replicate(8 * eb - 8))
            here = go & (fields["sp"] == SP[s])
            data, en = [], []
            for e in range(cfg.cols):
                # (in order: a comparison with a constant as logic, not a carry chain)
                valid = walk.data_line & (_at_least(walk.len, e + 1) if cfg.in_order else e < fields["len"])
                b, o = divmod(e * eb, beat_bytes)                # its beat and its bytes' place in it
                ld = self.ld.data[8 * o:8 * o + 8 * eb]
                if b == 0:
                    key = (eb, "first", e)
                    if key not in buses:
                        buses[key] = Mux(valid, ld, fill)
                    en.append(here & first)
                else:
                    key = (eb, "later", o)
                    if key not in buses:
                        buses[key] = Mux(first, fill, ld)
                    en.append(here & Mux(valid, walk.beat == b, first))
                data.append(buses[key])
            wr = getattr(self, f"wr_{s.lower()}")
            one = self.one_beat[s]                      # a one-beat line: written whole at its beat
            m.d.comb += [wr.addr.eq(fields["sp_addr"] + walk.line), wr.data.eq(Cat(*data)),
                         wr.en.eq(here & first if one else Cat(*en).any())]
            if not one:                                 # element write enables
                m.d.comb += getattr(self, f"wr_{s.lower()}_mask").eq(Cat(*en))

    def _store(self, m, eng, walk, fields):
        """The STORE and RDPERF beats; returns this step's external address."""
        cfg = self.cfg
        beat_bytes, L, C = cfg.dma_bytes_per_cycle, cfg.ext_latency, cfg.cols
        k_per, n_beats, phase = self.k_per, self.n_beats, self.counters.phase
        rd = {s: getattr(self, f"rd_{s.lower()}") for s in SPACE_ENUM}
        # the scratchpad line of the slot that contains the next step
        rd_line = fields["sp_addr"] + walk.line + walk.line_end
        for s in SPACE_ENUM:
            m.d.comb += [rd[s].addr.eq(rd_line),
                         rd[s].valid.eq(eng.active & self.is_store & (fields["sp"] == SP[s])
                                        & ~(walk.line_end & walk.last_line))]
        # this beat's bytes of the line of space sp: the 1-byte spaces' line is one beat; the
        # 4-byte spaces' beat is picked by sp[0] and the beat at once (sp[1] tells the two kinds
        # apart; ACC / VEC first, then the beat, takes fewer logic cells on the iCE40)
        assert SPACE_ENUM == ("ACT", "WGT", "ACC", "VEC")
        P = 8 * beat_bytes
        narrow = Mux(fields["sp"][0], rd["WGT"].data, rd["ACT"].data)
        nch = max(1, 4 * C // beat_bytes)
        chunks = [rd[s].data[P * i:P * i + P] for s in ("ACC", "VEC") for i in range(nch)]
        lg = (nch - 1).bit_length()
        wide = Array(chunks)[Cat(walk.beat[:lg], fields["sp"][0])] if lg else Mux(fields["sp"][0], chunks[1], chunks[0])
        bdata = Mux(fields["sp"][1], wide, narrow)
        nbytes = walk.nbytes
        rem = nbytes[:beat_bytes.bit_length() - 1]
        blen = (Mux(walk.line_end & (rem != 0), rem, Mux(nbytes == 0, 0, beat_bytes)) if beat_bytes > 1
                else (nbytes != 0))
        # RDPERF (the walk's cursor is its ext_addr: it loads at the start, moves only in a box);
        # the counters zero-extended to 64 bits
        bits = cfg.counter_bits
        counters = Cat(*[Cat(self.counters.data[bits * j:bits * (j + 1)], Const(0, 64 - bits))
                         for j in range(k_per)])
        in_data = eng.active & self.is_rdperf & eng.at_least(L)
        sample = eng.lt(L + n_beats)            # the first n_beats data steps
        if rdperf_split(cfg):
            # the low half of the counter at the ring's head at each sample step, then its zero
            # upper half at each later data step (the ring goes round once more: each once)
            perf_write = in_data
            perf_len = beat_bytes
            perf_off = Cat(Const(0, 2), ~sample, phase)
            perf_data = Mux(sample, counters[:P], 0)
        else:
            perf_write = in_data & sample
            perf_len = Mux(phase == n_beats - 1, 8 * (N_COUNTERS - (n_beats - 1) * k_per), 8 * k_per)
            perf_off = phase * (8 * k_per)
            perf_data = counters
        addr = (walk.cur + Mux(self.is_rdperf, perf_off, walk.beat << (beat_bytes.bit_length() - 1)))[:ext_bits(cfg)]
        m.d.comb += [
            self.st.en.eq((walk.in_beat & self.is_store) | perf_write),
            self.st.addr.eq(addr),
            self.st.len.eq(Mux(self.is_rdperf, perf_len, blen)),
            self.st.data.eq(Mux(self.is_rdperf, perf_data, bdata)),
        ]
        return addr


class _Steps:
    """The sequencer port ``seq`` as :class:`_BoxWalk` and :class:`DmaEngine` use it: ``active``,
    ``start``, ``complete``, ``step``, and comparisons of the step with constants: with ``flags``
    (``{c: step >= c}``, the in-order executor's) from those flags and the step's low bits, else
    comparisons (the queued engines)."""

    def __init__(self, seq, flags: dict | None):
        self.active, self.start, self.complete, self.step = seq.active, seq.start, seq.complete, seq.step
        self.flags = flags

    def at_least(self, c: int):
        """``step >= c``."""
        if self.flags is None:
            return self.step >= c
        return Const(1, 1) if c <= 0 else self.flags[c]

    def lt(self, c: int):
        """``step < c``."""
        return ~self.at_least(c) if self.flags is not None else self.step < c

    def eq(self, c: int):
        """``step == c``: in order ``step < c + 1`` (a flag) and the low bits."""
        if self.flags is None:
            return self.step == c
        return ~self.at_least(c + 1) & (self.step[:c.bit_length()] == c)
