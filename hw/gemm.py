"""The GEMM engine (the compute queue's engine): :class:`GemmEngine`, which runs GEMM and DWCONV
on the double-buffered systolic array it owns, and its walkers and line counters."""

from __future__ import annotations

from types import SimpleNamespace

from amaranth.hdl import Cat, Const, Module, Mux, Signal
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

from nnaccel.hwconfig import ELEMENT_BYTES
from nnaccel.isa.table import DW_STREAM_START, MAX_KTILES, array_overlap_on

from .array import SystolicArray
from .bounds import LAYOUT, _bits, max_event
from .decoder import field, opcode_of
from .dma import engine_signature
from .pe import add_or_pass, shift_add_mul
from .scratchpad import read_port_signature, write_port_signature
from .vecengine import _Walk, walk_bits

__all__ = ["GemmEngine", "shared_walks_signature"]


def shared_walks_signature(cfg) -> wiring.Signature:
    """The walks and line counters an in-order GEMM engine shares with the vector engine, seen from
    the GEMM engine (it holds them): ``dst_cur`` / ``src_cur`` (out: the VEC's destination and source
    lines: the GEMM's activation and ACC walks), ``rx_last`` / ``rline_last`` / ``wx_last`` (out: the
    read side's last line of its x loop, its last line, the write side's x loop's last line: the
    GEMM's stream and result counters), and from the vector engine ``dst_adv`` / ``src_adv`` (in:
    its walks move on) and ``idle`` (in: the in-order executor runs nothing: the walks load their
    bases, the counters reset)."""
    wb = walk_bits(cfg)
    return wiring.Signature({"dst_cur": Out(wb), "src_cur": Out(wb), "rx_last": Out(1), "rline_last": Out(1),
                             "wx_last": Out(1), "dst_adv": In(1), "src_adv": In(1), "idle": In(1)})


class _LineCount:
    """An 8-bit line counter of the GEMM engine (px / py: the stream's position, ox / oy: the
    results'; in order also the VEC's line counters) that counts to its field ``fields[n]`` of the
    word: ``nxt`` is the value its register takes at the clock edge (the register's own unless an
    engine drives it with :meth:`count` / :meth:`reset`: comb statements, the last one wins);
    :meth:`clear_when` makes it read as at its start while a condition holds.

    :meth:`last`: the position ``c`` is its last, ``c + 1 >= fields[n]``. The queued machine counts
    ``c`` up. The in-order machine counts down the lines left, ``fields[n] - c`` (mod 256), from
    ``fields[n]``, so its last is ``left == 1`` or ``fields[n] == 0`` (for ``c < fields[n]``, as ``c + 1 ==
    fields[n]``): no carry chain between the counter and the walks' addresses. Its starts take the
    word's field: the word is on the instruction port from a cycle before the instruction can
    start (the counters reset while the executor is idle) until it completes."""

    def __init__(self, m: Module, name: str, fields: dict, n: str, down: bool):
        self.m, self.fields, self.n, self.down = m, fields, n, down
        self.r = Signal(8, name=f"{name}_{'left' if down else 'r'}")
        self.nxt = Signal(8, name=f"{name}_n")
        m.d.comb += self.nxt.eq(self.r)
        m.d.sync += self.r.eq(self.nxt)
        self.clear = None
        self.value = self.r

    def _start(self):
        return self.fields[self.n] if self.down else 0

    def clear_when(self, clear):
        self.clear = clear
        self.value = Mux(clear, self._start(), self.r)

    def count(self, inc, wrap):
        """The statement: one step on by ``inc`` (0 / 1), or back to the start where ``wrap``."""
        return self.nxt.eq(Mux(wrap, self._start(), (self.value - inc) if self.down else (self.value + inc)))

    def reset(self):
        return self.nxt.eq(self._start())

    def last(self):
        f = self.fields[self.n]
        if not self.down:
            return self.value + 1 >= f
        one = (self.r == 1) | (f == 0)
        return one if self.clear is None else Mux(self.clear, f[1:] == 0, one)

    def up(self):
        """The position ``c`` (counting up from 0; the in-order machine's ``fields[n] - left``)."""
        return (self.fields[self.n] - self.value)[:8] if self.down else self.value

    def reached(self, k, nk):
        """``c + 1 >= k`` for a field ``k`` with ``fields[n] = nk + k - 1`` (DWCONV's window: x >= fw - 1)."""
        return (self.value <= nk) if self.down else (self.value + 1 >= k)


class GemmEngine(wiring.Component):
    """The GEMM engine of configuration ``cfg``: it runs the GEMM / DWCONV its sequencer starts on
    the systolic array it holds (:class:`~nnaccel.hw.array.SystolicArray`: ``dsp_cells`` /
    ``array_dsp`` are its ``dsp_cells`` / ``dsp``), and ends it (timing: the module docstring of
    :mod:`nnaccel.hw.accel`).

    Ports:

    - ``seq`` (in, :func:`~nnaccel.hw.dma.engine_signature`, ``step_bits`` wide; in order with the
      step flag of :attr:`marks`, ``step >= rows``): the compute queue's instruction and steps;
      ``seq.last`` is the engine's end (an instruction other than GEMM / DWCONV ends at its first
      step);
    - ``rd_act`` / ``rd_wgt`` / ``rd_acc`` (out, :func:`~nnaccel.hw.scratchpad.read_port_signature`):
      the activation lines it streams, the weight lines it loads into the array, the old ACC lines
      it adds to; ``wr_acc`` (out, :func:`~nnaccel.hw.scratchpad.write_port_signature`): the result
      lines;
    - ``is_arr`` (out): the instruction in ``seq.word`` runs on the array (GEMM or DWCONV);
      ``streaming`` (out): an activation line enters the array this step (``rows * cols`` MACs);
      ``macs`` (out): the MACs of the instruction so far, this step's line included (its total at
      completion) — the counters' events;
    - ``walks`` (out, :func:`shared_walks_signature`, in order only): its walks and line counters,
      which the vector engine's instructions use too (one instruction at a time)."""

    def __init__(self, cfg, step_bits: int, dsp_cells: int | None = None, array_dsp: str | None = None):
        self.cfg = cfg
        self.dsp_cells, self.array_dsp = dsp_cells, array_dsp
        R, C = cfg.rows, cfg.cols
        #: the step flags an in-order sequencer gives: the end of a preload's weight reads
        self.marks = (R,) if cfg.in_order else ()
        self.macs_bits = _bits(max_event(cfg, ["GEMM", "DWCONV"], "macs"))

        def line(s):
            return C * 8 * ELEMENT_BYTES[s]

        #: the ISA's array overlap: an array instruction ends at its stream's end, its results
        #: drain behind it (:meth:`_overlap`)
        self.overlap = array_overlap_on(cfg)
        ports = {"seq": In(engine_signature(step_bits, self.marks, overlap=self.overlap)),
                 **{f"rd_{s.lower()}": Out(read_port_signature(cfg.lines(s), line(s))) for s in ("ACT", "WGT", "ACC")},
                 "wr_acc": Out(write_port_signature(cfg.lines("ACC"), line("ACC"))),
                 "is_arr": Out(1), "streaming": Out(1),
                 # (as wide as the sum it is: the counters' increment port takes its width)
                 "macs": Out(len(Signal(self.macs_bits) + Mux(Signal(), R * C, 0)))}
        if cfg.in_order:
            ports["walks"] = Out(shared_walks_signature(cfg))
        if self.overlap:
            # the counters' events of an array instruction at its completion: its MACs and cycles
            ports.update(arr_done=Out(1), done_macs=Out(self.macs_bits), done_cycles=Out(step_bits))
        super().__init__(ports)

    def elaborate(self, platform):
        m = Module()
        cfg = self.cfg
        ctx = SimpleNamespace(m=m, cfg=cfg, R=cfg.rows, C=cfg.cols, in_order=cfg.in_order)
        self._sequence(ctx)
        if self.overlap:
            self._overlap(ctx)
        self._datapath(ctx)
        if cfg.in_order:
            self._shared_walks(ctx)
        return m

    def _sequence(self, ctx):
        """The K tiles, the stream and the activation walk."""
        m, cfg, C, R, in_order = ctx.m, ctx.cfg, ctx.C, ctx.R, ctx.in_order
        eng = self.seq
        rows_done = more = wk_adv = wk_last = None      # (in order / one weight buffer only)
        w = eng.word
        is_gemm = field(w, "NOP", "opcode") == opcode_of("GEMM")
        gstart = eng.start
        step = eng.step
        gemm = {n: field(w, "GEMM", n) for n in ("accumulate", "preload", "act_signed", "wgt_signed", "act",
                                              "acc", "wgt", "za", "zw", "nx", "ny", "act_xs", "act_ys",
                                              "acc_xs", "acc_ys", "kt")}
        # DWCONV runs on the GEMM engine as one preloaded K tile that streams its window
        # (nx + fw - 1 lines a row, ny + fh - 1 rows; x stride 1) and writes the outputs of the
        # positions with a full window; its fields lie at GEMM's bits but for fh / fw
        dw = self._dw_fields(ctx, w, gemm)
        is_arr = is_gemm | dw.is_dw                  # an instruction of the array
        m.d.comb += self.is_arr.eq(is_arr)
        gemm["kt"], gemm["preload"] = Mux(dw.is_dw, 0, gemm["kt"]), gemm["preload"] | dw.is_dw
        gemm["act_xs"], gemm["acc_xs"] = Mux(dw.is_dw, 1, gemm["act_xs"]), Mux(dw.is_dw, 1, gemm["acc_xs"])
        gemm["snx"], gemm["sny"] = Mux(dw.is_dw, dw.snx, gemm["nx"]), Mux(dw.is_dw, dw.sny, gemm["ny"])
        lr = R.bit_length() - 1                       # rows is a power of two
        # (a DWCONV streams from step DW_STREAM_START, beside its filter tile's rows: row i is in
        # place before the first line reaches it)
        pre = Mux(dw.is_dw, DW_STREAM_START, Mux(gemm["preload"], R, 0))
        gn_any = (gemm["nx"] != 0) & (gemm["ny"] != 0)      # the tiles stream nx*ny lines (counted, no product)

        def last_of(c, n):
            """``c + 1 >= gemm[n]`` for a line counter ``c`` (:class:`_LineCount`) that counts by one
            from its start and goes back to it at its last (in order: px / py / ox / oy, reset while
            idle or at completion, so ``c < gemm[n]`` whenever ``gemm[n] > 0``; py passes ny - 1 only
            outside a slot's stream, where its last does not count: ``son`` is 0)."""
            assert c.n == n or (c.n, n) == ("sny", "ny"), (c.n, n)   # (a VEC's sny is its ny)
            return c.last()
        single = cfg.weight_buffers == 1     # one weight tile: the next tile's weights after the stream
        m.submodules.array = arr = SystolicArray(R, C, dsp_cells=self.dsp_cells, dsp=self.array_dsp,
                                                 buffers=cfg.weight_buffers, line_buffers=cfg.dw_line_buffers,
                                                 depthwise=cfg.depthwise_mode, pipeline=cfg.pe_pipeline)
        gact = eng.active & is_arr
        # the weight buffer that holds the most recent tile; a preloading GEMM starts in the other
        cur_buf = Signal()
        b0 = ~cur_buf
        with m.If(eng.complete & is_arr & gemm["preload"]):
            m.d.sync += cur_buf.eq(b0 ^ gemm["kt"][0])
        # position in the K tiles: tile index and step within its slot (from step `pre` on)
        tpos_r = Signal(lr + 1)                       # saturates at rows: only 0, < rows, >= rows - 1 matter
        tidx_r = Signal(5)
        # (these counters clear at completion: 0 when the next GEMM starts, no start multiplexer)
        tpos = tpos_r
        tidx = tidx_r
        if in_order:
            rows_done = getattr(eng, f"at_least_{R}")     # step >= rows: the sequencer's flag
            # step >= DW_STREAM_START: a flag per step since the start
            past = Const(1, 1)
            for k in range(DW_STREAM_START):
                p = Signal(name=f"dw_past{k}")
                m.d.sync += p.eq(eng.active & ~eng.complete & past)
                past = p
            in_tiles = Mux(dw.is_dw, past, Mux(gemm["preload"], rows_done, 1))  # step >= pre
        else:
            in_tiles = step >= pre
        # the tile's stream position (x, y) in its slot; son: lines left to stream in this slot
        pxc, pyc = _LineCount(m, "px", gemm, "snx", in_order), _LineCount(m, "py", gemm, "sny", in_order)
        son_r = Signal()
        tfirst = tpos == 0
        # (in order px / py are also the VEC's read-side line counters: they clear in a GEMM only)
        pclr = (tfirst & is_arr) if in_order else tfirst
        pxc.clear_when(pclr), pyc.clear_when(pclr)
        son = Mux(tfirst, gn_any, son_r)
        px_last = pxc.last()
        # (a DWCONV with right padding ends its stream pad_right lines into its last row)
        x_end = Mux(dw.is_dw & (dw.pr != 0), pxc.up() == dw.pr - 1, px_last)
        s_last = son & x_end & pyc.last()
        if single:
            # a slot streams its nx*ny lines, then (all but the last tile) reads the next tile's
            # weights in rows steps; tpos counts those steps, `snf` is 0 in a slot's first step
            snf_r = Signal()
            tfirst = ~snf_r
            pclr = (tfirst & is_arr) if in_order else tfirst
            pxc.clear_when(pclr), pyc.clear_when(pclr)
            son = Mux(tfirst, gn_any, son_r)
            px_last = last_of(pxc, "snx")
            x_end = Mux(dw.is_dw & (dw.pr != 0), pxc.up() == dw.pr - 1, px_last)
            s_last = son & x_end & last_of(pyc, "sny")
            # the drain (tidx > kt): a flag set as tidx steps from kt to kt + 1, where it stays
            # (tidx counts up by one from 0 and stops there: no comparison, no carry chain)
            drain_r = Signal()
            at_kt = tidx == gemm["kt"]
            more = ~drain_r & ~at_kt                  # tidx < kt
            tlast = Mux(more, ~son & (tpos == R - 1), ~son | s_last)
            with m.If(eng.active):
                m.d.sync += [snf_r.eq(in_tiles & ~tlast),
                             tpos_r.eq(Mux(in_tiles & ~son & ~tlast, tpos + 1, 0)),
                             # (no count in the drain, where tlast holds every step)
                             tidx_r.eq(Mux(in_tiles, tidx + (tlast & ~drain_r), 0)),
                             drain_r.eq(in_tiles & (drain_r | (tlast & at_kt))), son_r.eq(son & ~s_last)]
                m.d.comb += [pxc.count(1, px_last), pyc.count(px_last, 0)]
            with m.If(eng.complete):
                m.d.sync += [snf_r.eq(0), drain_r.eq(0)]
        else:
            # a slot lasts max(nx*ny, rows) steps: at least rows, and until its last line streamed
            # (a DWCONV's one slot: its stream)
            tlast = (dw.is_dw | (tpos >= R - 1)) & (~son | s_last)
            with m.If(eng.active):
                m.d.sync += [tpos_r.eq(Mux(in_tiles, Mux(tlast, 0, Mux(tpos[lr], tpos, tpos + 1)), 0)),
                             tidx_r.eq(Mux(in_tiles, tidx + tlast, 0)), son_r.eq(son & ~s_last)]
                m.d.comb += [pxc.count(1, px_last), pyc.count(px_last, 0)]
        # the end: the ISA's array_drain steps after the last tile's slot
        in_drain = drain_r if single else tidx > gemm["kt"]
        streaming = gact & in_tiles & son & (~drain_r if single else tidx <= gemm["kt"])
        dcnt_r = Signal(range(cfg.gemm_pipeline + 1))
        dcnt = dcnt_r
        with m.If(eng.active):
            m.d.sync += dcnt_r.eq(Mux(in_drain, dcnt + 1, 0))
        if self.overlap:
            # the release: the last tile's slot ends (or, where the drain before it still runs, it ended)
            ctx.s_end, ctx.in_drain, ctx.dcnt = (in_tiles & tlast & (tidx == gemm["kt"])) | in_drain, in_drain, dcnt
        else:
            m.d.comb += eng.last.eq(Mux(is_arr, in_drain & (dcnt == cfg.gemm_pipeline - 1), 1))
        macs_r = Signal(self.macs_bits)
        macs = macs_r + Mux(streaming, R * C, 0)
        with m.If(eng.active):
            m.d.sync += macs_r.eq(macs)
        m.d.comb += [self.streaming.eq(streaming), self.macs.eq(macs)]
        # activations: the walker runs on across tiles (tile t's base is act + t*ny*act_ys)
        if in_order:
            # One instruction at a time: the GEMM's two walks are the VEC's destination and source
            # walks (the same registers and adders, hw/vecengine.py's _Walk): their base / stride
            # fields lie at the same bits of the word, so only advance / last are picked. The GEMM's
            # x positions are the stream's (px while streaming) and the results' (ox).
            for gn, vn in (("act", "dst"), ("act_xs", "dst_xs"), ("act_ys", "dst_ys"), ("acc", "src"),
                           ("acc_xs", "src_xs"), ("acc_ys", "src_ys"), ("nx", "nx")):
                assert LAYOUT["GEMM"]["fields"][gn] == LAYOUT["VEC"]["fields"][vn], (gn, vn)
            wk_adv = {k: Signal(name=f"wk_{k}_adv") for k in ("dst", "src")}
            wk_last = {k: Signal(name=f"wk_{k}_last") for k in ("dst", "src")}
            act_w = _Walk(m, "wk_dst", walk_bits(cfg), None, gemm["act"], gemm["act_xs"], gemm["act_ys"],
                          wk_adv["dst"], wk_last["dst"], load=self.walks.idle)
        else:
            act_w = _Walker(m, "gact", _bits(cfg.lines("ACT") - 1), gstart, gemm["act"], gemm["snx"], gemm["act_xs"],
                            gemm["act_ys"])
            m.d.comb += act_w.advance.eq(streaming)
        ctx.gemm, ctx.act_w, ctx.arr, ctx.b0, ctx.cur_buf = gemm, act_w, arr, b0, cur_buf
        ctx.gact, ctx.rows_done, ctx.gn_any, ctx.gstart, ctx.in_tiles = gact, rows_done, gn_any, gstart, in_tiles
        ctx.is_arr, ctx.last_of, ctx.lr, ctx.dw, ctx.more = is_arr, last_of, lr, dw, more
        ctx.px_last, ctx.pxc, ctx.pyc, ctx.single, ctx.son, ctx.pclr = px_last, pxc, pyc, single, son, pclr
        ctx.step, ctx.streaming, ctx.tidx, ctx.tpos = step, streaming, tidx, tpos
        ctx.tpos_r, ctx.tidx_r, ctx.dcnt_r, ctx.macs_r = tpos_r, tidx_r, dcnt_r, macs_r
        ctx.wk_adv, ctx.wk_last = wk_adv, wk_last

    def _overlap(self, ctx):
        """(The ISA's array overlap, ``nnaccel.isa.table.array_overlaps``) An array instruction
        ends (releases the compute queue) when its last tile's slot has ended and its weight rows
        are read, and not before the drain ahead of it has ended; its results drain behind it
        (``draining``) for the ``gemm_pipeline`` cycles of its own drain, where ``done`` reports its
        completion (tokens, counter events). The queue's head may start at a release where it
        overlaps the draining instruction (``may_start``). The write context ``wf`` (the fields
        its results are written with) is the draining instruction's until its drain ends, then
        the running one's (``wload``; ``wfresh`` a cycle later, its walker's start)."""
        m, cfg, eng, gemm, dw, is_arr = ctx.m, ctx.cfg, self.seq, ctx.gemm, ctx.dw, ctx.is_arr
        P = cfg.gemm_pipeline
        bg_busy, bg_done, bg_dw, bg_push = (Signal(name=f"bg_{n}") if n != "push" else Signal(2, name="bg_push")
                                            for n in ("busy", "done", "dw", "push"))
        key = Cat(dw.fh, dw.fw, dw.lbx)
        bg_key = Signal(len(key), name="bg_key")
        bg_cnt = Signal(range(P + 1), name="bg_cnt")
        bg_macs, bg_cyc = Signal(self.macs_bits, name="bg_macs"), Signal(len(eng.step), name="bg_cyc")
        m.d.comb += bg_done.eq(bg_busy & (bg_cnt == P - 1))
        push = Cat(field(eng.word, "NOP", "push_prev"), field(eng.word, "NOP", "push_next"))
        release = eng.complete & is_arr
        with m.If(release):
            m.d.sync += [bg_busy.eq(1), bg_cnt.eq(Mux(ctx.in_drain, ctx.dcnt + 1, 0)), bg_macs.eq(self.macs),
                         bg_cyc.eq(eng.step + 1), bg_push.eq(push), bg_dw.eq(dw.is_dw), bg_key.eq(key)]
        with m.Elif(bg_done):
            m.d.sync += bg_busy.eq(0)
        with m.Elif(bg_busy):
            m.d.sync += [bg_cnt.eq(bg_cnt + 1), bg_cyc.eq(bg_cyc + 1)]
        is_gemm = is_arr & ~dw.is_dw
        overlaps = Mux(bg_dw, dw.is_dw & (key == bg_key), is_gemm & field(eng.word, "GEMM", "preload"))
        m.d.comb += [eng.last.eq(Mux(is_arr, ctx.s_end & (eng.step >= ctx.R - 1) & (~bg_busy | bg_done), 1)),
                     eng.may_start.eq(~bg_busy | overlaps), eng.draining.eq(bg_busy),
                     eng.done.eq(bg_done | (eng.complete & ~is_arr)), eng.done_push.eq(Mux(bg_done, bg_push, push)),
                     self.arr_done.eq(bg_done), self.done_macs.eq(bg_macs), self.done_cycles.eq(bg_cyc + 1)]
        # the write context
        names = ("acc", "nx", "ny", "acc_xs", "acc_ys", "accumulate", "kt")
        wf = {n: Signal(len(gemm[n]), name=f"wc_{n}") for n in names}
        w_valid, w_cur, wload, wfresh = (Signal(name=f"wc_{n}") for n in ("valid", "cur", "load", "fresh"))
        m.d.comb += wload.eq(eng.active & is_arr & ~w_cur & (~bg_busy | bg_done))
        m.d.sync += wfresh.eq(wload)
        with m.If(wload):
            m.d.sync += [*[wf[n].eq(gemm[n]) for n in names], w_valid.eq(1), w_cur.eq(~release)]
        with m.Elif(release):
            m.d.sync += w_cur.eq(0)
        with m.Elif(bg_done):
            m.d.sync += w_valid.eq(0)
        ctx.wf, ctx.wload, ctx.wfresh, ctx.w_valid = wf, wload, wfresh, w_valid
        ctx.w_any = (wf["nx"] != 0) & (wf["ny"] != 0)

    def _dw_fields(self, ctx, w, gemm):
        """DWCONV's own fields and what the GEMM engine derives from them: the stream's row length
        and rows (``snx``, ``sny``: the decoder bounds both by 255), the taps."""
        m = ctx.m
        is_dw = Signal(name="dw_is")
        if ctx.cfg.depthwise_mode:       # (else the decoder faults DWCONV: none runs)
            m.d.comb += is_dw.eq(field(w, "NOP", "opcode") == opcode_of("DWCONV"))
        fh, fw = field(w, "DWCONV", "fh"), field(w, "DWCONV", "fw")
        pt, pb, pl, pr = (field(w, "DWCONV", f) for f in ("pad_top", "pad_bottom", "pad_left", "pad_right"))
        # the window: H rows of L lines (the output's window less the padding); the stream: its
        # lines, pad_bottom rows more and pad_right lines of one more row (the last output's taps)
        snx, sny, h = Signal(8, name="dw_snx"), Signal(8, name="dw_sny"), Signal(8, name="dw_h")
        lbx = Signal(8, name="dw_lb_nx")          # the line buffers' delay: L - fw + 1
        ax, by = Signal(6, name="dw_ax"), Signal(2, name="dw_by")    # fw - 1 - pad_left, fh - 1 - pad_top
        taps = Signal(len(fh) + len(fw), name="dw_taps")
        m.d.comb += [snx.eq(gemm["nx"] + fw - 1 - pl - pr), h.eq(gemm["ny"] + fh - 1 - pt - pb),
                     sny.eq(h + pb + (pr != 0)), lbx.eq(gemm["nx"] - pl - pr),
                     ax.eq(fw - 1 - pl), by.eq(fh - 1 - pt), taps.eq(shift_add_mul(m, fw, fh, "dw_taps_mul"))]
        return SimpleNamespace(is_dw=is_dw, fh=fh, fw=fw, snx=snx, sny=sny, h=h, lbx=lbx, ax=ax, by=by,
                               pt=pt, pb=pb, pl=pl, pr=pr, taps=taps)

    def _datapath(self, ctx):
        """The weights, the array and the results."""
        m, cfg, C, R, gemm, act_w, arr = ctx.m, ctx.cfg, ctx.C, ctx.R, ctx.gemm, ctx.act_w, ctx.arr
        b0, cur_buf, gact, rows_done, gn_any, gstart = ctx.b0, ctx.cur_buf, ctx.gact, ctx.rows_done, ctx.gn_any, ctx.gstart
        in_order, in_tiles, is_arr, last_of, lr, more = ctx.in_order, ctx.in_tiles, ctx.is_arr, ctx.last_of, ctx.lr, ctx.more
        son, step, streaming, tidx, tpos = ctx.son, ctx.step, ctx.streaming, ctx.tidx, ctx.tpos
        eng, rd_act, rd_wgt, rd_acc, wr_acc = self.seq, self.rd_act, self.rd_wgt, self.rd_acc, self.wr_acc
        # weights: tile 0 in steps 0..rows-1, tile t+1 in the first rows steps of tile t's slot
        wcnt_r = Signal(_bits(MAX_KTILES * R))
        wcnt = wcnt_r
        if ctx.single:      # tile t + 1's weights in the rows steps after tile t's stream
            wread = gact & gemm["preload"] & ((~rows_done if in_order else step < R) | (in_tiles & ~son & more))
        else:           # ... in the first rows steps of tile t's slot, while it streams
            wread = gact & gemm["preload"] & ((step < R) | (in_tiles & (tpos < R) & (tidx < gemm["kt"])))
        with m.If(eng.active):
            m.d.sync += wcnt_r.eq(wcnt + wread)
        w_we = Signal()
        w_row = Signal(max(lr, 1))
        w_sel = Signal()
        a_valid = Signal()
        a_sel = Signal()
        # a DWCONV writes an output at the stream steps where its last tap's line (or padding)
        # enters (a flag beside the line, through the array's latency), and masks the taps of the
        # array rows whose input lies in the padding (``dw_skip``, from the output's position)
        dw = ctx.dw
        a_ok = Signal()
        dw_out, dw_skip = self._dw_positions(ctx)
        # the filter tile's rows beyond its taps hold 0 (the zero point, removed): the row's flag
        # is registered with the row (no comparison between the row register and the array)
        w_zero = Signal() if cfg.depthwise_mode else Const(0, 1)
        m.d.sync += [w_we.eq(wread), w_row.eq(wcnt[:max(lr, 1)] if lr else 0), w_sel.eq(b0 ^ wcnt[lr]),
                     *([w_zero.eq(dw.is_dw & ((wcnt[:lr] >= dw.taps) if lr else (dw.taps == 0)))]
                       if cfg.depthwise_mode else []),
                     a_valid.eq(streaming), a_sel.eq(Mux(gemm["preload"], b0 ^ tidx[0], cur_buf)),
                     a_ok.eq(~dw.is_dw | dw_out)]
        if cfg.depthwise_mode:
            skip_r = Signal(R, name="dw_skip_r")
            m.d.sync += skip_r.eq(dw_skip)
            m.d.comb += arr.dw_skip.eq(skip_r)
        ok_pipe = Signal(arr.latency, name="dw_ok_pipe")
        if cfg.depthwise_mode:
            m.d.sync += ok_pipe.eq((ok_pipe << 1) | a_ok)
        o_ok = ok_pipe[-1] if cfg.depthwise_mode else Const(1, 1)
        mode = {"dw": dw.is_dw, "fw": dw.fw, "fh": dw.fh, "nx": dw.lbx}
        edge = {n: gemm[n] for n in ("zw", "wgt_signed", "za", "act_signed")}
        if self.overlap:
            # the array's depthwise set-up holds from an array instruction's start until the next
            # one's, while its results drain; a line's (or weight row's) zero point and sign are
            # the instruction's that read it a cycle before (the next one may have started since)
            for n, v in list(mode.items()):
                r = Signal(len(v), name=f"arr_mode_{n}")
                mode[n] = Mux(eng.start & is_arr, v, r)
                m.d.sync += r.eq(mode[n])
            for n, v in list(edge.items()):
                edge[n] = Signal(len(v), name=f"edge_{n}")
                m.d.sync += edge[n].eq(v)
        m.d.comb += [arr.dw.eq(mode["dw"]), arr.dw_fw.eq(mode["fw"])]
        if cfg.dw_line_buffers:
            m.d.comb += [arr.dw_fh.eq(mode["fh"]), arr.dw_nx.eq(mode["nx"])]

        def byte9(v, sgn):
            return Mux(sgn, v.as_signed(), v.as_unsigned())

        m.d.comb += [
            arr.w_we.eq(w_we), arr.w_row.eq(w_row), arr.w_sel.eq(w_sel),
            arr.w_data.eq(Mux(w_zero, edge["zw"].replicate(C), rd_wgt.data)),
            arr.w_signed.eq(edge["wgt_signed"]), arr.w_zp.eq(byte9(edge["zw"], edge["wgt_signed"])),
            arr.a_valid.eq(a_valid), arr.a_sel.eq(a_sel), arr.a_data.eq(rd_act.data),
            arr.a_signed.eq(edge["act_signed"]), arr.a_zp.eq(byte9(edge["za"], edge["act_signed"])),
        ]
        # results: tile t's line x is added to ACC (tiles after the first always accumulate)
        # the write side's fields: the instruction's own, or with the overlap the write context's
        wf = ctx.wf if self.overlap else gemm
        gwrite = (arr.o_valid & o_ok) if self.overlap else (gact & arr.o_valid & o_ok)
        oxc, oyc = _LineCount(m, "ox", wf, "nx", in_order), _LineCount(m, "oy", wf, "ny", in_order)
        otile_r = Signal(5)
        otile = otile_r
        ox_last = last_of(oxc, "nx")
        olast = ox_last & last_of(oyc, "ny")
        with m.If(Const(1, 1) if self.overlap else eng.active):    # (overlap: the writes drain behind it)
            m.d.sync += otile_r.eq(otile)
            with m.If(gwrite):
                m.d.comb += [oxc.count(1, ox_last), oyc.count(ox_last, olast)]
                m.d.sync += otile_r.eq(otile + olast)
        with m.If(eng.complete):
            m.d.sync += [r.eq(0) for r in (ctx.tpos_r, ctx.tidx_r, ctx.dcnt_r, ctx.macs_r, wcnt_r)]
            if not self.overlap:
                m.d.sync += otile_r.eq(0)
                m.d.comb += [oxc.reset(), oyc.reset()]
        if self.overlap:
            # (the write context's results start from its first line and tile)
            with m.If(ctx.wload):
                m.d.sync += otile_r.eq(0)
                m.d.comb += [oxc.reset(), oyc.reset()]
        if in_order:
            accw = _Walk(m, "wk_src", walk_bits(cfg), None, gemm["acc"], gemm["acc_xs"], gemm["acc_ys"],
                         ctx.wk_adv["src"], ctx.wk_last["src"], wrap=is_arr & olast, load=self.walks.idle)
        else:
            accw = _AheadWalker(m, "gacc", _bits(cfg.lines("ACC") - 1), ctx.wfresh if self.overlap else gstart,
                                wf["acc"], wf["nx"], wf["acc_xs"], wf["acc_ys"], wrap=olast)
            m.d.comb += accw.advance.eq(gwrite)
        ab = _bits(cfg.lines("ACC") - 1)
        old = rd_acc.data
        use_old = wf["accumulate"] | (otile != 0)
        if self.array_dsp == "ecp5":
            # the ECP5's CCU2C takes the gated operand into the LUTs of its carry chain
            gsum = Cat(*[(arr.o_data[j] + Mux(use_old, old[32 * j:32 * j + 32], 0))[:32] for j in range(C)])
        else:
            # the sum, or the result alone: on the iCE40 one logic cell a bit (add_or_pass: the
            # multiplexer in the adder's own LUT; Yosys would spend a second LUT a bit on it)
            gsum = Cat(*[add_or_pass(m, arr.o_data[j].as_unsigned(), old[32 * j:32 * j + 32], use_old,
                                     self.array_dsp == "ice40_dual8", f"gsum{j}") for j in range(C)])
        m.d.comb += [
            rd_act.addr.eq(act_w.cur),
            rd_wgt.addr.eq(gemm["wgt"] + wcnt),
            rd_acc.addr.eq(Mux(gwrite, accw.nxt, accw.cur)),     # the old line, one step ahead
            # (a DWCONV's padding steps after its window read nothing)
            rd_act.valid.eq(streaming & ~(dw.is_dw & (ctx.pyc.up() >= dw.h))), rd_wgt.valid.eq(wread),
            # an empty GEMM reads none; nor does the write of a one-line tile's line, whose next line
            # (the walker wrapped for the next K tile) is that same line: the line is read again in
            # the cycles before that tile's result (a slot lasts >= rows steps), so the read that
            # meets the write is never used (the block RAM leaves it undefined: BankedScratchpad)
            rd_acc.valid.eq((ctx.w_valid & ctx.w_any if self.overlap else gact & gn_any)
                            & (wf["accumulate"] | (wf["kt"] != 0))
                            & ~(gwrite & (accw.nxt_is_cur(ab) if not in_order else
                                          accw.nxt[:ab] == accw.cur[:ab]))),
            wr_acc.addr.eq(accw.cur), wr_acc.data.eq(gsum),
            wr_acc.en.eq(gwrite.replicate(len(wr_acc.en))),
        ]
        ctx.accw, ctx.gwrite, ctx.ox_last, ctx.oxc, ctx.oyc = accw, gwrite, ox_last, oxc, oyc

    def _dw_positions(self, ctx):
        """(A DWCONV) whether this stream step's line completes an output, and the array rows whose
        tap of that output lies in the padding. With ``A = fw - 1 - pad_left``, ``B = fh - 1 -
        pad_top``, stream position ``(x, y)`` completes output ``(y - B, x - A)`` for ``x >= A``,
        and ``(y - B - 1, x - A + L)`` for ``x < pad_right``. Counters of that output's position
        (column ``ox`` from the left and ``rx`` from the right, row ``oy`` from the top and ``by``
        from the bottom) advance with the outputs; array row ``i`` holds the tap ``(fh - 1 - dy,
        fw - 1 - dx)``, ``(dy, dx) = divmod(i, fw)``, which lies in the padding where ``ox + A <
        dx``, ``rx + dx < pad_right``, ``oy + B < dy`` or ``by + dy < pad_bottom``."""
        m, R, dw, gemm = ctx.m, ctx.R, ctx.dw, ctx.gemm
        cx, cy = ctx.pxc.up(), ctx.pyc.up()
        out = Signal(name="dw_out")
        m.d.comb += out.eq(((cx >= dw.ax) & (cy >= dw.by)) | ((cx < dw.pr) & (cy > dw.by)))
        clr = ctx.pclr
        regs = {k: Signal(8, name=f"dw_{k}") for k in ("ox", "rx", "oy", "by")}
        start = {"ox": 0, "rx": gemm["nx"] - 1, "oy": 0, "by": gemm["ny"] - 1}
        cur = {k: Mux(clr, start[k], r) for k, r in regs.items()}
        row_end = cur["rx"] == 0
        with m.If(ctx.gact):
            m.d.sync += [r.eq(cur[k]) for k, r in regs.items()]
            with m.If(ctx.streaming & out):
                m.d.sync += [regs["ox"].eq(Mux(row_end, 0, cur["ox"] + 1)),
                             regs["rx"].eq(Mux(row_end, gemm["nx"] - 1, cur["rx"] - 1)),
                             regs["oy"].eq(cur["oy"] + row_end), regs["by"].eq(cur["by"] - row_end)]
        skip = Signal(R, name="dw_skip")
        for i in range(R):
            # the tap's filter row dy and column dx (i = dy * fw + dx), without a product of two
            # signals (it would take a DSP): one comparison and one fw per filter row passed
            past = [i >= dw.fw * k for k in range(1, self.cfg.dw_line_buffers + 1)]
            dy = sum(past, Const(0, 2))
            dx = (i - sum((Mux(p, dw.fw, 0) for p in past), Const(0, 8)))[:6]
            m.d.comb += skip[i].eq((cur["ox"] + dw.ax < dx) | (cur["rx"] + dx < dw.pr)
                                   | (cur["oy"] + dw.by < dy) | (cur["by"] + dy < dw.pb))
        return out, skip

    def _shared_walks(self, ctx):
        """(In order) the walks and line counters as the vector engine's instructions use them: the
        GEMM's stream position (px, py) is the VEC's read side (x, y), its results' x (ox) the VEC's
        write side x; the walks move with the running instruction's advance, to the next row at
        its last (after the GEMM's own statements: the last one wins)."""
        m, walks, is_arr, last_of = ctx.m, self.walks, ctx.is_arr, ctx.last_of
        px_last, ox_last, pxc, pyc, oxc, oyc = ctx.px_last, ctx.ox_last, ctx.pxc, ctx.pyc, ctx.oxc, ctx.oyc
        wk_adv, wk_last = ctx.wk_adv, ctx.wk_last
        m.d.comb += [walks.dst_cur.eq(ctx.act_w.cur), walks.src_cur.eq(ctx.accw.cur),
                     walks.rx_last.eq(px_last), walks.rline_last.eq(px_last & last_of(pyc, "ny")),
                     walks.wx_last.eq(ox_last),
                     wk_adv["dst"].eq(ctx.streaming | walks.dst_adv), wk_last["dst"].eq(Mux(is_arr, px_last, ox_last)),
                     wk_adv["src"].eq(ctx.gwrite | walks.src_adv), wk_last["src"].eq(Mux(is_arr, ox_last, px_last))]
        with m.If(walks.idle):
            # (oy too, reset at completion: its start is the next instruction's ny)
            m.d.comb += [pxc.reset(), pyc.reset(), oxc.reset(), oyc.reset()]
        with m.Else():
            with m.If(walks.src_adv):
                m.d.comb += [pxc.count(1, px_last), pyc.count(px_last, 0)]
            with m.If(walks.dst_adv):          # (in the same cycle as a read side's advance, too)
                m.d.comb += oxc.count(1, ox_last)


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


class _AheadWalker:
    """:class:`_Walker` with ``nxt`` (and ``nxt_is_cur``: ``nxt == cur``) from registers: it keeps
    ``cur + xs``, ``row + ys`` and whether ``x`` is its row's last beside ``cur``, ``row`` and
    ``x``, so no adder or comparison lies between ``restart`` / ``wrap`` and ``nxt`` (the GEMM's
    ACC read address, one line ahead of its write)."""

    def __init__(self, m: Module, name: str, width: int, restart, base, nx, xs, ys, wrap=None):
        regs = {k: Signal(width, name=f"{name}_{k}") for k in ("cur", "row", "px", "py")}
        x_r, last_r = Signal(8, name=f"{name}_x"), Signal(name=f"{name}_xlast")
        self.advance = Signal(name=f"{name}_adv")
        first = {"cur": base, "row": base, "px": base + xs, "py": base + ys}
        v = {k: Signal(width, name=f"{name}_{k}c") for k in regs}
        m.d.comb += [v[k].eq(Mux(restart, first[k], r)) for k, r in regs.items()]
        x = Mux(restart, 0, x_r)
        last = Mux(restart, nx <= 1, last_r)
        wrap = Const(0, 1) if wrap is None else wrap     # advance back to the base (next K tile)
        self.cur = v["cur"]
        self.nxt = Signal(width, name=f"{name}_nxt")
        m.d.comb += self.nxt.eq(Mux(wrap, base, Mux(last, v["py"], v["px"])))
        self._cmp = (wrap, last, base, v)
        with m.If(self.advance):
            m.d.sync += [regs["cur"].eq(self.nxt), regs["row"].eq(Mux(wrap, base, Mux(last, v["py"], v["row"]))),
                         regs["px"].eq(Mux(wrap, base + xs, Mux(last, v["py"] + xs, v["px"] + xs))),
                         regs["py"].eq(Mux(wrap, base + ys, Mux(last, v["py"] + ys, v["py"]))),
                         x_r.eq(Mux(wrap | last, 0, x + 1)), last_r.eq(Mux(wrap | last, nx <= 1, x + 2 >= nx))]
        with m.Else():
            m.d.sync += [*[r.eq(v[k]) for k, r in regs.items()], x_r.eq(x), last_r.eq(last)]

    def nxt_is_cur(self, bits: int):
        """``nxt == cur`` in their low ``bits`` bits, each candidate compared with ``cur`` before the
        selection."""
        wrap, last, base, v = self._cmp
        c = v["cur"][:bits]
        return Mux(wrap, base[:bits] == c, Mux(last, v["py"][:bits] == c, v["px"][:bits] == c))
