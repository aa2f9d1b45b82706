"""The DMA blocks: the walk of a LOAD / STORE box and the one-beat DMA datapath."""

from __future__ import annotations

from amaranth.hdl import Array, Cat, Const, Module, Mux, Signal

from nnaccel.hwconfig import ELEMENT_BYTES
from nnaccel.isa.table import N_COUNTERS, SPACE_ENUM

from .bounds import SP, _bits, _ceil, ext_bits
from .decoder import _ge
from .extmem import rdperf_split


def _ge_narrow(v, t):
    """Unsigned ``v >= t`` for a narrow ``t`` (a 2-bit padding field): ``v``'s bits above ``t``'s
    width, or a bitwise comparison of the low bits (logic, not a carry chain as wide as ``v``)."""
    w = len(t)
    ge = Const(1, 1)                    # v[:i] >= t[:i] over the bits seen so far (from the LSB up)
    for i in range(w):
        ge = Mux(v[i] == t[i], ge, v[i])
    return (v[w:] != 0) | ge if len(v) > w else ge


def _step_ge(eng, c: int):
    """``eng.step >= c`` for a constant ``c``: the in-order executor's flag (:meth:`_InOrder.step_ge`),
    else the comparison."""
    ge = getattr(eng, "step_ge", None)
    return ge(c) if ge is not None else eng.step >= c


def _step_lt(eng, c: int):
    """``eng.step < c`` for a constant ``c`` (see :func:`_step_ge`)."""
    ge = getattr(eng, "step_ge", None)
    return ~ge(c) if ge is not None else eng.step < c


def _step_eq(eng, c: int):
    """``eng.step == c`` for a constant ``c``: in order, ``step < c + 1`` (a flag) and the low bits."""
    ge = getattr(eng, "step_ge", None)
    if ge is None:
        return eng.step == c
    return ~ge(c + 1) & (eng.step[:c.bit_length()] == c)


class _BoxWalk:
    """The walk of a LOAD / STORE box for the engine ``eng`` (its instruction's fields ``F``) while
    ``run``: ``ext_latency`` latency steps, then one line per ``beats`` = ``max(1, ceil(len *
    element_bytes / dma_bytes_per_cycle))`` steps; ``line_end`` is the last step of a line's slot.
    It keeps the beat, the line, x / y, the external row and cursor (``cur``: the line's external
    address) and the data bytes moved (``bytes``: the lines before this step + this one). Its
    counters clear at completion (0 when the next instruction starts: no multiplexer in front of
    their adders) and the addresses load at the start step (every use lies in the data steps, step
    >= L >= 1, except the byte count of an empty box, 0). ``pads``: (top, bottom, left, right) of a
    LOAD (padding lines are not data: no bytes, the cursor stays), or None (every line is data)."""

    def __init__(self, m: Module, name: str, cfg, F, eng, run, pads, byte_bits: int):
        L, dpc, XB = cfg.ext_latency, cfg.dma_bytes_per_cycle, ext_bits(cfg)
        beats_max = max(1, _ceil(cfg.line_elems * max(ELEMENT_BYTES.values()), dpc))
        eb4 = (F["sp"] == SP["ACC"]) | (F["sp"] == SP["VEC"])
        # (in order: `len` as wide as its legal values, 0 .. line_elems, which the decoder checks
        # (ILLEGAL_FIELD above): the byte count, the beats and their adders that narrow)
        self.len = ln = F["len"][:_bits(cfg.line_elems)] if cfg.in_order else F["len"]
        self.nbytes = nbytes = Mux(eb4, ln << 2, ln)
        beats = Signal(range(beats_max + 1), name=f"{name}_beats")
        m.d.comb += beats.eq(Mux(nbytes == 0, 1, (nbytes + dpc - 1) // dpc))
        beat = Signal(range(max(2, beats_max)), name=f"{name}_beat")
        self.line = line = Signal(max(_bits(cfg.lines(s) - 1) for s in SPACE_ENUM), name=f"{name}_line")
        x, y = Signal(8, name=f"{name}_x"), Signal(8, name=f"{name}_y")
        row, self.cur = Signal(XB, name=f"{name}_row"), Signal(XB, name=f"{name}_cur")
        cur = self.cur
        in_data = _step_ge(eng, L)
        #: a data step of the box (``beat`` is this step's beat of its line, ``addr`` its external address)
        self.in_beat = in_beat = eng.active & run & in_data
        self.beat, self.beats = beat, beats
        self.line_end = line_end = in_beat & (beat == beats - 1)
        in_order = cfg.in_order
        if in_order:
            # In order x / y count up by one from 0 (x back to 0 after its last, both cleared at
            # completion) and a box ends at its last line, so x < x_size and y < y_size wherever
            # they count (an empty box has no line steps): the ends are equalities with the
            # incrementers' sums, where >= would be a carry chain (one logic cell a bit)
            last_x = x + 1 == F["x_size"]
            last_y = y + 1 == F["y_size"]
        else:
            last_x = x + 1 >= F["x_size"]
            last_y = y + 1 >= F["y_size"]
        if pads is None:
            self.data_line = data_line = Const(1, 1)
            last_dx = last_x
        elif in_order:
            top, bottom, left, right = pads
            yb, xb = F["y_size"] - bottom, F["x_size"] - right
            # x < x_size - right, y < y_size - bottom: flags set as x / y step onto the first
            # line of the bottom / right padding (x + 1 == xb: the counter passes each value),
            # cleared with the counter; none of its lines are data when xb (yb) is 0
            ypad_r, xpad_r = Signal(name=f"{name}_ypad"), Signal(name=f"{name}_xpad")
            x_to_pad = x + 1 == xb
            self.data_line = data_line = (_ge_narrow(y, top) & ~ypad_r & (yb != 0) &
                                          _ge_narrow(x, left) & ~xpad_r & (xb != 0))
            last_dx = x_to_pad                     # (used in data lines only, where x < xb)
            with m.If(eng.active):
                with m.If(line_end):
                    m.d.sync += [xpad_r.eq(~last_x & (xpad_r | x_to_pad)),
                                 ypad_r.eq(ypad_r | (last_x & (y + 1 == yb)))]
                with m.If(eng.complete):
                    m.d.sync += [xpad_r.eq(0), ypad_r.eq(0)]
        else:
            top, bottom, left, right = pads
            self.data_line = data_line = ((y >= top) & (y < F["y_size"] - bottom) &
                                          (x >= left) & (x < F["x_size"] - right))
            last_dx = x + 1 >= F["x_size"] - right
        self.empty = (F["x_size"] == 0) | (F["y_size"] == 0)
        self.last_line = last_x & last_y
        bytes_r = Signal(byte_bits, name=f"{name}_bytes")
        self.bytes = bytes_r + Mux(line_end & data_line, nbytes, 0)
        with m.If(eng.start):
            m.d.sync += [row.eq(F["ext_addr"][:XB]), cur.eq(F["ext_addr"][:XB])]
        with m.If(eng.active):
            m.d.sync += bytes_r.eq(self.bytes)
            with m.If(run & in_data):
                m.d.sync += beat.eq(Mux(beat == beats - 1, 0, beat + 1))
            with m.If(line_end):
                m.d.sync += [line.eq(line + 1), x.eq(Mux(last_x, 0, x + 1)), y.eq(Mux(last_x, y + 1, y))]
                with m.If(data_line):
                    with m.If(last_dx):
                        m.d.sync += [row.eq(row + F["y_stride"]), cur.eq(row + F["y_stride"])]
                    with m.Else():
                        m.d.sync += cur.eq(cur + F["x_stride"])
            with m.If(eng.complete):
                m.d.sync += [beat.eq(0), x.eq(0), y.eq(0), line.eq(0), bytes_r.eq(0)]


class _DmaPath:
    """The DMA datapath, one beat (``dma_bytes_per_cycle`` bytes) a data step, used by the load /
    store engines (``dma_engines = 2``) and by the one DMA engine (``dma_engines = 1``) alike.

    LOAD (:meth:`load`): beat ``b`` of a line reads its bytes at the line's external address + ``b *
    dma_bytes_per_cycle`` (``ld_data`` is one beat) and writes the scratchpad elements they hold in
    that step (element write enables: ``BankedScratchpad.write_mask``); the elements past
    ``len``, and every element of a padding line, get the fill byte (sign-extended for the int32
    spaces) at the line's last beat. A 1-byte space's line is one beat (``cols <= dma_bytes_per_cycle``,
    checked by :class:`Accelerator`), written whole at that beat. The line's elements end as before
    (at the last step of the slot); the ones of a multi-beat line are written at their beats.

    STORE (:meth:`store`): the scratchpad line is read one step ahead of its slot (the read port
    holds it through the slot: a STORE reads its bank alone, the ISA's bank rules) and beat ``b``
    writes its ``dma_bytes_per_cycle`` bytes at the line's address + ``b * dma_bytes_per_cycle``
    (``st_len``: those of the line's ``len`` elements). RDPERF: the ``k`` counters at the ring's
    head in each of its first ``n_beats`` data steps (``rdperf_sample_cycle``); with 4-byte beats
    and ``counter_bits <= 32`` (:func:`~nnaccel.hw.extmem.rdperf_split`) their low halves there and
    the zero upper halves in the remaining data steps."""

    def __init__(self, m: Module, cfg, top, phase, n_beats: int, k_per: int):
        self.m, self.cfg, self.top = m, cfg, top
        self.phase, self.n_beats, self.k_per = phase, n_beats, k_per
        self.perf_cycles = _ceil(8 * N_COUNTERS, cfg.dma_bytes_per_cycle)

    def last(self, eng, walk, is_box, is_rdperf):
        """The instruction's last step: a box's last line, or the latency alone for an empty box;
        RDPERF after its ``ceil(8 * N_COUNTERS / dma_bytes_per_cycle)`` data steps."""
        L = self.cfg.ext_latency
        return Mux(is_box, Mux(walk.empty, _step_eq(eng, L - 1), walk.line_end & walk.last_line),
                   Mux(is_rdperf, _step_eq(eng, L + self.perf_cycles - 1), 1))

    def load(self, walk, F, is_load, wl, mems, addr=None):
        """``addr``: this beat's external address when :meth:`store` made it (one engine), else
        the walk's line address + the beat's offset; ``mems``: the scratchpads (a line of more than
        one beat is written element by element: their write masks)."""
        m, cfg, top = self.m, self.cfg, self.top
        dpc = cfg.dma_bytes_per_cycle
        # ---------------------------------------------------------------- DMA load beat
        if addr is None:
            addr = (walk.cur + (walk.beat << (dpc.bit_length() - 1)))[:ext_bits(cfg)]
            m.d.comb += top.ld_addr.eq(addr)
        fill8 = F["fill"]
        go = walk.in_beat & is_load
        first = walk.beat == 0
        # an element of the line's first beat: its bytes or the fill, at that beat; an element of a
        # later beat: its bytes at its beat, or the fill at the first beat (then its beat's place
        # carries the fill: one bus per place in the beat, not one multiplexer per element)
        buses = {}
        for s in SPACE_ENUM:
            eb = ELEMENT_BYTES[s]
            fill = fill8 if eb == 1 else Cat(fill8, fill8[7].replicate(8 * eb - 8))
            here = go & (F["sp"] == SP[s])
            data, en = [], []
            for e in range(cfg.cols):
                # (in order: a comparison with a constant as logic, not a carry chain)
                valid = walk.data_line & (_ge(walk.len, e + 1) if cfg.in_order else e < F["len"])
                b, o = divmod(e * eb, dpc)                # its beat and its bytes' place in it
                ld = top.ld_data[8 * o:8 * o + 8 * eb]
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
            one = cfg.cols * eb <= dpc                  # a one-beat line: written whole at its beat
            m.d.comb += [wl[s].addr.eq(F["sp_addr"] + walk.line), wl[s].data.eq(Cat(*data)),
                         wl[s].en.eq(here & first if one else Cat(*en).any())]
            if not one:                                 # element write enables
                m.d.comb += mems[s].write_mask(wl[s], 8 * eb).eq(Cat(*en))

    def store(self, eng, walk, F, is_store, is_rdperf, rs):
        m, cfg, top = self.m, self.cfg, self.top
        dpc, L, C = cfg.dma_bytes_per_cycle, cfg.ext_latency, cfg.cols
        XB = ext_bits(cfg)
        k_per, n_beats, phase = self.k_per, self.n_beats, self.phase
        # ---------------------------------------------------------------- DMA store beat
        # the scratchpad line of the slot that contains the next step
        rd_line = F["sp_addr"] + walk.line + walk.line_end
        for s in SPACE_ENUM:
            m.d.comb += [rs[s].addr.eq(rd_line),
                         rs[s].valid.eq(eng.active & is_store & (F["sp"] == SP[s]) & ~(walk.line_end & walk.last_line))]
        # this beat's bytes of the line of space sp: the 1-byte spaces' line is one beat; the
        # 4-byte spaces' beat is picked by sp[0] and the beat at once (sp[1] tells the two kinds
        # apart). (ACC / VEC first, then the beat: tiny 2 logic cells fewer, small 120
        # TRELLIS_COMB more.)
        assert SPACE_ENUM == ("ACT", "WGT", "ACC", "VEC")
        P = 8 * dpc
        narrow = Mux(F["sp"][0], rs["WGT"].data, rs["ACT"].data)
        nch = max(1, 4 * C // dpc)
        chunks = [rs[s].data[P * i:P * i + P] for s in ("ACC", "VEC") for i in range(nch)]
        lg = (nch - 1).bit_length()
        wide = Array(chunks)[Cat(walk.beat[:lg], F["sp"][0])] if lg else Mux(F["sp"][0], chunks[1], chunks[0])
        bdata = Mux(F["sp"][1], wide, narrow)
        nbytes = walk.nbytes
        rem = nbytes[:dpc.bit_length() - 1]
        blen = Mux(walk.line_end & (rem != 0), rem, Mux(nbytes == 0, 0, dpc)) if dpc > 1 else (nbytes != 0)
        # ---------------------------------------------------------------- DMA RDPERF
        # (the walk's cursor is RDPERF's ext_addr: it loads at the start, moves only in a box)
        in_data = eng.active & is_rdperf & _step_ge(eng, L)
        sample = _step_lt(eng, L + n_beats)            # the first n_beats data steps
        if rdperf_split(cfg):
            # the low half of the counter at the ring's head at each sample step, then its zero
            # upper half at each later data step (the ring goes round once more: each once)
            perf_write = in_data
            perf_len = dpc
            perf_off = Cat(Const(0, 2), ~sample, phase)
            perf_data = Mux(sample, top.cnt_data[:P], 0)
        else:
            perf_write = in_data & sample
            perf_len = Mux(phase == n_beats - 1, 8 * (N_COUNTERS - (n_beats - 1) * k_per), 8 * k_per)
            perf_off = phase * (8 * k_per)
            perf_data = top.cnt_data
        #: this step's external address (a box's beat, or RDPERF's counters)
        self.addr = (walk.cur + Mux(is_rdperf, perf_off, walk.beat << (dpc.bit_length() - 1)))[:XB]
        # ---------------------------------------------------------------- DMA store port
        m.d.comb += [
            top.st_en.eq((walk.in_beat & is_store) | perf_write),
            (top.dma_addr if self.cfg.dma_engines == 1 else top.st_addr).eq(self.addr),
            top.st_len.eq(Mux(is_rdperf, perf_len, blen)),
            top.st_data.eq(Mux(is_rdperf, perf_data, bdata)),
        ]


