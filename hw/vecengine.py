"""The accelerator's vector engine (the ``vector`` queue): VEC instructions line by line, lane
group by lane group, with the parameter block read first (timing: :mod:`nnaccel.hw.accel`).

:class:`VectorEngine` is driven by the engine skeleton of the accelerator (``start`` / ``active``
/ ``busy`` of the instruction ``word`` at the head of the vector queue) and reads and writes the
scratchpads through the ports named below; ``last`` marks the instruction's last step.

Built for area (docs/rtl.md): every lane has one datapath — one adder for the ``acc + bias`` /
``abs(acc) + half`` / SUMW sums, one fixed-point multiply (:func:`mbqm`: left shift, 32 x 32
product, SRDHM, rounding right shift) used by REQ / ADDQ / SUBQ / MULQ and by DIV's product, and
one clamp after the function select, on 12-bit values: the parameters that bound byte results
(zero points, ``lo``, ``hi``) count with their low 9 bits (``VecFunc.bits``), so a wider value is
first saturated to 11 bits, which changes no clamp result. The parameters are held in registers
only as wide as the table says they count, one set of *slots* shared by all functions (a
function's 32-bit parameters go to the 32-bit slots in their order, and so on), loaded from the
parameter lines by the function's own line-to-slot map.

With ``vector_pipeline`` 1 the lane is pipelined (:meth:`VectorEngine._lane_piped`, the ISA table's
``VECTOR_LANE_STAGES``): the same datapath with registers between its parts, the multiply's
pieces on the DSP with registers on both sides; a function whose last step takes an earlier
step's result (``VecFunc.waits``) runs its lane groups in batches (:meth:`VectorEngine._batches`,
``vector_groups_in_flight``): the other steps of each group of a batch, then the batch's last
steps, which take the results from a queue per lane, so the other groups' steps cover the wait.
"""

from __future__ import annotations

from types import SimpleNamespace

from amaranth.hdl import Array, Cat, Const, Module, Mux, Signal, signed, unsigned
from amaranth.lib import wiring
from amaranth.lib.memory import Memory
from amaranth.lib.wiring import In, Out

from nnaccel.hwconfig import ELEMENT_BYTES, mul_piece
from nnaccel.isa.table import (
    ADD_LEFT_SHIFT,
    SERIAL_MUL_STEPS,
    VEC_FUNCS,
    VECTOR_LANE_STAGES,
    batch_wait,
    mul_step_cycles,
    vector_groups_in_flight,
    vector_step_wait,
)

from .decoder import field, opcode_of
from .scratchpad import COLLISION_UNDEFINED, read_port_signature, write_port_signature
from .vector import INT32_MAX, clamp, clamp_parallel

__all__ = ["STEP_PARAMS", "VectorEngine", "walk_bits"]

#: The (multiplier, shift) pair each step of a multi-step function's product takes (the lane's
#: ADDQ / SUBQ: ``mbqm(da << 20, m1, e1)``, ``mbqm(db << 20, m2, e2)``, ``mbqm(x1 +- x2, mo, eo)``).
STEP_PARAMS = {name: (("m1", "e1"), ("m2", "e2"), ("mo", "eo")) for name in ("ADDQ", "SUBQ")}


def _ceil(a, b):
    return -(-a // b)


class VectorEngine(wiring.Component):
    """The vector engine of one hardware configuration (see the module docstring)."""

    def __init__(self, cfg, shared_walks: bool = False):
        self.cfg = cfg
        #: (in order) the source and destination walks are the accelerator's, shared with the GEMM
        #: engine (ports ``src_cur`` / ``dst_cur`` in, their ``_adv`` / ``_last`` out)
        self.shared_walks = shared_walks
        assert cfg.in_order or not shared_walks
        #: the LUT's table memory (block RAM, COLLISION_UNDEFINED) is written in a cycle in which a
        #: table read whose value is used is made (never: the table is written in the parameter
        #: phase, read in the compute phase after it); the accelerator reports it (``sp_collision``)
        self.collision = Signal(name="vec_lut_collision")
        C = cfg.cols

        def line(s):
            return C * 8 * ELEMENT_BYTES[s]

        ports = {
            "word": In(128), "start": In(1), "active": In(1), "busy": In(1),
            "last": Out(1),
            # scratchpad ports: reads of the source (rd_act), the second source (rd_act2), ACC
            # (rd_acc) and the parameters (rd_vec); writes of the destination line (wr_act / wr_acc)
            **{f"rd_{n}": Out(read_port_signature(cfg.lines(s), line(s)))
               for n, s in (("act", "ACT"), ("act2", "ACT"), ("acc", "ACC"), ("vec", "VEC"))},
            **{f"wr_{n}": Out(write_port_signature(cfg.lines(s), line(s))) for n, s in (("act", "ACT"), ("acc", "ACC"))},
        }
        if cfg.in_order:
            # one instruction at a time: element write enables and a read hold (see elaborate)
            ports.update({"wact_mask": Out(C), "wacc_mask": Out(C), "hold": Out(1), "vhold": Out(1)})
        if shared_walks:
            wb = walk_bits(cfg)
            # the line counters too: the read side's x / y (``rx_last``: its x loop's last line,
            # ``rline_last``: the last line) and the write side's x (``wx_last``) count in the
            # accelerator's registers, which clear while it is idle and move with ``src_adv`` /
            # ``dst_adv``
            ports.update({"src_cur": In(wb), "src_adv": Out(1), "dst_cur": In(wb), "dst_adv": Out(1),
                          "rx_last": In(1), "rline_last": In(1), "wx_last": In(1)})
        super().__init__(ports)

    def elaborate(self, platform):
        m = Module()
        ctx = SimpleNamespace(m=m)
        self._sequence(ctx)
        self._walks(ctx)
        self._slots(ctx)
        self._param_regs(ctx)
        self._lanes(ctx)
        self._ports(ctx)
        return m

    def _sequence(self, ctx):
        """The instruction's phases (parameters, line reads, lane groups, the tail) and their counters."""
        m = ctx.m
        cfg = self.cfg
        C = cfg.cols
        lanes = cfg.vector_lanes
        nchunks = _ceil(C, lanes)
        L = cfg.vector_latency

        w = self.word
        is_vec = field(w, "NOP", "opcode") == opcode_of("VEC")
        vstart = self.start
        V = {n: field(w, "VEC", n) for n in ("func", "signed", "accumulate", "round", "dst", "src", "src2", "param",
                                             "nx", "ny", "dst_xs", "dst_ys", "src_xs", "src_ys")}
        func = V["func"]
        f = {vf.name: func == vf.code for vf in VEC_FUNCS}
        if cfg.in_order:
            # the function's flags from a register: in order the word is on the instruction port
            # from its fetch checks (at least two cycles before it starts) until it completes
            fq = {n: Signal(name=f"vf_{n.lower()}") for n in f}
            m.d.sync += [fq[n].eq(v) for n, v in f.items()]
            f = fq
        lut_lines = cfg.lut_lines
        pmax = max(vf.param_lines(C) if vf.params else 0 for vf in VEC_FUNCS)
        # a multiplying function's steps take M cycles each (the lane's product over M pieces):
        # group_cycles below counts the cycles per lane group, VecFunc.group_cycles
        M = cfg.vector_mul_steps
        serial = M == SERIAL_MUL_STEPS                # the bit-serial lane (serial_mbqm)
        piped = bool(cfg.vector_pipeline)             # the pipelined lane (_lane_piped)
        split = serial or piped                       # the step and its cycle counted apart
        MS = mul_step_cycles(M)                       # cycles of a multiplying step
        W = vector_step_wait(cfg.vector_pipeline)     # (piped) a waiting step's wait
        mbits = 0 if serial else M.bit_length() - 1
        smax = max(vf.group_cycles(cfg) for vf in VEC_FUNCS)
        param_lines = Signal(range(pmax + 1))
        group_cycles = Signal(range(smax + 1))        # cycles per lane group
        pexpr = Const(0, param_lines.shape())
        sexpr = Const(1, group_cycles.shape())
        mulf = Const(0, 1)                            # the function multiplies (VecFunc.multiplies)
        nst = max(vf.steps for vf in VEC_FUNCS)
        stexpr = Const(0, range(nst))                 # serial: the function's last step
        for vf in VEC_FUNCS:
            pexpr = Mux(f[vf.name], vf.param_lines(C) if vf.params else 0, pexpr)
            sexpr = Mux(f[vf.name], vf.group_cycles(cfg), sexpr)
            stexpr = Mux(f[vf.name], vf.steps - 1, stexpr)
            if vf.multiplies:
                mulf = mulf | f[vf.name]
        m.d.comb += [param_lines.eq(pexpr), group_cycles.eq(sexpr)]
        # the parameter phase: the first param_lines steps (a counter that stops there)
        pcnt_r = Signal(range(pmax + 1))
        pcnt = Mux(vstart, 0, pcnt_r)
        # (in order: pcnt counts up by one from 0 and stops at param_lines, so pcnt < param_lines
        # is pcnt != param_lines: an equality, not a carry chain)
        in_params = (pcnt != param_lines) if cfg.in_order else pcnt < param_lines
        # the read phase ends with the last line's last step (x / y line counters, no product)
        if self.shared_walks:                         # (the accelerator's x / y)
            rdone_r = Signal()
            rdone = Mux(vstart, (V["nx"] == 0) | (V["ny"] == 0), rdone_r)
            vlx_last, vlast_line = self.rx_last, self.rline_last
        else:
            vlx_r = Signal(8)
            vly_r = Signal(8)
            rdone_r = Signal()
            vlx = Mux(vstart, 0, vlx_r)
            vly = Mux(vstart, 0, vly_r)
            rdone = Mux(vstart, (V["nx"] == 0) | (V["ny"] == 0), rdone_r)
            vlx_last = vlx + 1 >= V["nx"]
            vlast_line = vlx_last & (vly + 1 >= V["ny"])
        vparam_phase = self.active & is_vec & in_params
        # (piped) rdef: the read side issues a batch's deferred last steps (_batches); the read
        # phase goes on after the last line's other steps until they are issued
        rdef = Signal(name="vdef") if piped else Const(0, 1)
        vread_phase = self.active & is_vec & ~in_params & (~rdone | rdef)
        vcomp = Signal()      # a lane-group step is computed this cycle (from the data read last step)
        vchunk = Signal(range(nchunks + 1))
        vsub = Signal(range(nst if split else smax))
        rchunk_r = Signal(range(nchunks + 1))
        rsub_r = Signal(range(nst if split else smax))
        rchunk = Mux(vstart, 0, rchunk_r)
        rsub = Mux(vstart, 0, rsub_r)
        chunk_last = rchunk == nchunks - 1
        rfirst = (rchunk == 0) & (rsub == 0)          # a line's first read cycle (serial: & rph == 0)
        rph = None                                    # (serial: the read side's product phase)
        bubble = Const(0, 1)                          # (piped) a batch's wait: no step issued
        vstep_of = rsub                               # the step issued (piped: a deferred one's)
        if split:
            # the bit-serial lane: the cycle within a step (0 .. MS - 1) and the step, counted apart;
            # the pipelined lane likewise, with the lane groups in batches (_batches)
            rph_r = Signal(range(MS + W))
            rph = Mux(vstart, 0, rph_r)
            rfirst = rfirst & (rph == 0)
            if piped:
                bt = self._batches(m, f, mulf, rph, rsub, rchunk, chunk_last & vlast_line, vread_phase, rdef)
                ph_last, sub_last, bubble, group_last = bt.ph_last, bt.head_end, bt.bubble, bt.group_last
                rsub_next = Mux(rdef | sub_last, 0, Mux(ph_last, rsub + 1, rsub))
                vstep_of = Mux(rdef, stexpr, rsub)
            else:
                ph_last = ~mulf | (rph == MS - 1)
                sub_last = group_last = ph_last & (rsub == stexpr)
                rsub_next = Mux(~sub_last, Mux(ph_last, rsub + 1, rsub), 0)
            with m.If(self.active):
                m.d.sync += [rph_r.eq(Mux(vread_phase & ~ph_last & ~bubble, rph + 1, 0)),
                             rsub_r.eq(Mux(vread_phase, rsub_next, 0))]
            vphase = Signal(range(MS + W))
            vlast = Signal()                          # the lane group's last cycle
            m.d.sync += [vphase.eq(rph), vlast.eq(group_last)]
        else:
            sub_last = rsub == group_cycles - 1
            with m.If(self.active):
                m.d.sync += rsub_r.eq(Mux(vread_phase & ~sub_last, rsub + 1, 0))
            vlast = vsub == group_cycles - 1
        with m.If(self.active):
            m.d.sync += [rchunk_r.eq(Mux(vread_phase, Mux(sub_last, Mux(chunk_last, 0, rchunk + 1), rchunk), 0)),
                         pcnt_r.eq(Mux(in_params, pcnt + 1, pcnt))]
        m.d.sync += [vcomp.eq(vread_phase & ~bubble), vchunk.eq(bt.dchunk if piped else rchunk), vsub.eq(vstep_of)]
        # the computed cycle's function step and product piece (phase): vsub = step * M + phase
        # for a multiplying function, vsub = step for the others (serial: vsub = step, vphase apart)
        if split:
            vstep = vsub
            vstep_done = ~mulf | (vphase == MS - 1)
        else:
            vphase = vsub[:mbits] if mbits else Const(0, 1)
            vstep = Mux(mulf, vsub[mbits:], vsub) if mbits else vsub
            vstep_done = (~mulf | (vphase == M - 1)) if mbits else Const(1, 1)
        radv = vread_phase & chunk_last & sub_last
        # then vector_latency steps end the instruction
        vtail_r = Signal(range(L + 1))
        vtail = Mux(vstart, 0, vtail_r)
        in_tail = ~in_params & rdone & ~rdef
        with m.If(self.active):
            if self.shared_walks:
                m.d.sync += [rdone_r.eq(rdone | (radv & vlast_line)), vtail_r.eq(Mux(in_tail, vtail + 1, 0))]
            else:
                m.d.sync += [vlx_r.eq(vlx), vly_r.eq(vly), rdone_r.eq(rdone | (radv & vlast_line)),
                             vtail_r.eq(Mux(in_tail, vtail + 1, 0))]
                with m.If(radv):
                    m.d.sync += [vlx_r.eq(Mux(vlx_last, 0, vlx + 1)), vly_r.eq(vly + vlx_last)]
        m.d.comb += self.last.eq(Mux(is_vec, in_tail & (vtail == L - 1), 1))
        ctx.C, ctx.L, ctx.M, ctx.MS, ctx.V, ctx.cfg, ctx.f, ctx.is_vec = C, L, M, MS, V, cfg, f, is_vec
        ctx.lanes, ctx.lut_lines, ctx.mulf, ctx.nchunks, ctx.pcnt = lanes, lut_lines, mulf, nchunks, pcnt
        ctx.pmax, ctx.radv, ctx.rfirst, ctx.rph, ctx.rsub, ctx.serial = pmax, radv, rfirst, rph, rsub, serial
        ctx.vchunk, ctx.vcomp, ctx.vlast, ctx.vlx_last = vchunk, vcomp, vlast, vlx_last
        ctx.vparam_phase, ctx.vphase, ctx.vread_phase, ctx.vstart = vparam_phase, vphase, vread_phase, vstart
        ctx.vstep, ctx.vstep_done = vstep, vstep_done
        ctx.piped, ctx.vread_rd = piped, vread_phase & ~rdef
        ctx.rdef = rdef
        if piped:
            self._pipe_control(ctx, bt)

    def _batches(self, m, f, mulf, rph, rsub, rchunk, last_group, vread_phase, rdef):
        """(the pipelined lane) The read side's order of a function's steps when its last step
        waits for an earlier step's result (``VecFunc.waits``): the other steps (the *head*) of up
        to ``B`` consecutive lane groups (``vector_groups_in_flight``; the last batch ends with the
        instruction's last group, ``last_group``), then their deferred last steps (``rdef``) in the
        same order, each ``M`` cycles, after ``batch_wait`` cycles (``bubble``, only when the batch
        is short). Returns ``ph_last`` (a step's last cycle), ``head_end`` (a group's head ends: its
        line reads are done), ``group_last`` (a group's last step ends), ``bubble``, ``dchunk`` (the
        lane group of the step issued: the deferred one's, else the read side's) and ``hlast`` (the
        step issued is a head's last)."""
        cfg = self.cfg
        M, nchunks = cfg.vector_mul_steps, _ceil(cfg.cols, cfg.vector_lanes)
        B = vector_groups_in_flight(M, cfg.vector_pipeline)
        W = vector_step_wait(cfg.vector_pipeline)
        wf = Const(0, 1)                              # the function's last step waits
        hexpr = Const(0, range(max(vf.steps for vf in VEC_FUNCS)))     # its head's last step
        for vf in VEC_FUNCS:
            hexpr = Mux(f[vf.name], vf.steps - 1 - len(vf.waits), hexpr)
            if vf.waits:
                wf = wf | f[vf.name]
        bcnt = Signal(range(B), name="vdef_heads")    # the batch's heads before the current one
        dcnt = Signal(range(B), name="vdef_cnt")      # the batch's deferred steps issued
        dwait = Signal(range(W + 1), name="vdef_wait")
        bubble = rdef & (dwait != 0)
        ph_last = ~mulf | ((rph == M - 1) & ~bubble)
        hlast = ~rdef & (rsub == hexpr)
        head_end = ph_last & hlast
        to_def = wf & head_end & ((bcnt == B - 1) | last_group)
        def_end = rdef & ph_last
        batch_end = def_end & (dcnt == bcnt)
        waits = Array([Const(batch_wait(M, cfg.vector_pipeline, k + 1), range(W + 1)) for k in range(B)])
        with m.If(self.active):
            m.d.sync += [rdef.eq(vread_phase & Mux(rdef, ~batch_end, to_def)),
                         bcnt.eq(Mux(vread_phase & ~batch_end, Mux(wf & head_end & ~to_def, bcnt + 1, bcnt), 0)),
                         dcnt.eq(Mux(vread_phase & rdef, Mux(def_end, Mux(batch_end, 0, dcnt + 1), dcnt), 0)),
                         dwait.eq(Mux(vread_phase & to_def, waits[bcnt], Mux(bubble, dwait - 1, 0)))]
        dchunk = rchunk
        if nchunks > 1:                               # the deferred steps' own lane group count
            dch = Signal(range(nchunks), name="vdef_chunk")
            with m.If(self.active):
                m.d.sync += dch.eq(Mux(vread_phase, Mux(def_end, Mux(dch == nchunks - 1, 0, dch + 1), dch), 0))
            dchunk = Mux(rdef, dch, rchunk)
        return SimpleNamespace(ph_last=ph_last, head_end=head_end, group_last=Mux(rdef, ph_last, head_end & ~wf),
                               bubble=bubble, hlast=hlast & wf, dchunk=dchunk)

    def _pipe_control(self, ctx, bt):
        """(the pipelined lane) The compute cycle's control, delayed beside the data: ``pctl[n][k]``
        is stage ``k``'s (``k`` cycles later) step, product piece (phase), piece enable and step
        completion; and the queue of the results the deferred last steps take (:meth:`_batches`),
        a shift register per lane whose entry 0 is the oldest: a head's last step puts its group's
        result in entry ``count`` when it is made (stage ``_X1_STAGE``; ``x1_new[i]``: entry ``i``
        takes it), a deferred step takes entry 0 in stage 1 and then the entries move down by one
        (``x1_shift``), the groups in order; so the deferred step's operand is a register."""
        m = ctx.m
        vhl, vdf = Signal(name="vdef_hlast_c"), Signal(name="vdef_c")
        m.d.sync += [vhl.eq(bt.hlast), vdf.eq(ctx.rdef)]
        done = ctx.vcomp & ctx.vstep_done
        ctl = {"step": ctx.vstep, "phase": ctx.vphase, "en": ctx.vcomp & ctx.mulf & (ctx.vphase < ctx.M),
               "done": done}
        ctx.pctl = {n: _delays(m, v, VECTOR_LANE_STAGES, f"vp_{n}") for n, v in ctl.items()}
        push = _delays(m, done & vhl, _X1_STAGE, "vp_push")[_X1_STAGE]
        pop = _delays(m, done & vdf, 1, "vp_pop")[1]
        B = vector_groups_in_flight(self.cfg.vector_mul_steps, self.cfg.vector_pipeline)
        count = Signal(range(B + 1), name="vdef_queued")
        with m.If(ctx.vparam_phase):                  # (each instruction takes all it puts)
            m.d.sync += count.eq(0)
        with m.Elif(push & ~pop):
            m.d.sync += count.eq(count + 1)
        with m.Elif(pop & ~push):
            m.d.sync += count.eq(count - 1)
        at = Signal(range(B + 1), name="vdef_put")   # the entry a result goes to
        m.d.comb += at.eq(count - pop)
        ctx.x1_new = [push & (at == i) for i in range(B)]
        ctx.x1_shift, ctx.x1_entries = pop, B

    def _walks(self, ctx):
        """The source and destination line walks."""
        m, cfg, L, V, f, is_vec, nchunks = ctx.m, ctx.cfg, ctx.L, ctx.V, ctx.f, ctx.is_vec, ctx.nchunks
        radv, vchunk, vcomp, vlast, vlx_last = ctx.radv, ctx.vchunk, ctx.vcomp, ctx.vlast, ctx.vlx_last
        vstart = ctx.vstart
        # source lines; src2 and the SUMW destination read walk the destination's strides from
        # their bases (one offset walker); the destination write walks behind
        # (addresses as wide as the largest space read or written: the decoder has checked them)
        aw = max(cfg.lines(sp) for sp in ("ACT", "ACC")).bit_length()
        if self.shared_walks:
            src_cur = self.src_cur
            m.d.comb += self.src_adv.eq(radv)
        else:
            src_cur = _Walk(m, "vsrc", aw, vstart, V["src"], V["src_xs"], V["src_ys"], radv, vlx_last).cur
        rel_w = _Walk(m, "vrel", aw, None if self.shared_walks else vstart, Const(0, aw), V["dst_xs"], V["dst_ys"],
                      radv, vlx_last, load=~self.active if self.shared_walks else None)
        # The lane's results pass `depth` registers (vector_latency leaves the steps: the last
        # group's results must land inside the instruction, the line buffer's write one step
        # later when there is one): the first after the sums, the saturated product and the max
        # (and the LUT's table read, block RAM), the second (in order: no line buffer) after the
        # clamp and the function select. The cycle model is unchanged.
        depth = min((3 if ctx.serial else 2) if cfg.in_order else 1, L - 1)
        if ctx.piped:                                 # (the pipelined lane: its stages)
            depth = VECTOR_LANE_STAGES
        lut_sync = depth >= 1
        is_lut = f["LUT"]
        vgroup_done, vgroup = vcomp & vlast, vchunk       # a lane group's results are final
        for n in range(depth):
            gd, gc = Signal(name=f"vgroup_done_d{n}"), Signal.like(vchunk, name=f"vgroup_d{n}")
            m.d.sync += [gd.eq(vgroup_done), gc.eq(vgroup)]
            vgroup_done, vgroup = gd, gc
        vwrite = vgroup_done & (vgroup == nchunks - 1)
        # With the steps for it the line is written from the line buffer one step after its last
        # group lands (still inside the instruction); with fewer, the last group bypasses the buffer.
        late = L >= depth + 2
        if late and not cfg.in_order:                 # (in order: no line buffer, see below)
            wr = Signal(name="vwrite_d")
            m.d.sync += wr.eq(vwrite & self.active)
        else:
            wr = vwrite
        if self.shared_walks:
            dst_cur = self.dst_cur
            m.d.comb += self.dst_adv.eq(wr & self.active & is_vec)
        else:
            wx_r = Signal(8)                          # the write side's own x count
            wx = Mux(vstart, 0, wx_r)
            wx_last = wx + 1 >= V["nx"]
            m.d.sync += wx_r.eq(Mux(wr, Mux(wx_last, 0, wx + 1), wx))
            dst_cur = _Walk(m, "vdstw", aw, vstart, V["dst"], V["dst_xs"], V["dst_ys"], wr, wx_last).cur

        ctx.depth, ctx.dst_cur, ctx.is_lut, ctx.late, ctx.lut_sync = depth, dst_cur, is_lut, late, lut_sync
        ctx.rel_w = rel_w
        ctx.src_cur, ctx.vgroup, ctx.vgroup_done, ctx.wr = src_cur, vgroup, vgroup_done, wr

    def _slots(self, ctx):
        """Where each function's parameters are kept (slot_of) and which lines load them (loads)."""
        cfg, serial = ctx.cfg, ctx.serial
        # ---- parameter slots (see the module docstring)
        def store_bits(vf, name):
            # DIV's shift is 30 + ((s - 30) & 31): the low 5 bits of s are held (in a 6-bit slot)
            return 6 if (vf.name, name) == ("DIV", "s") else vf.param_bits(name)

        # per-element slots first (a function's per-element parameters of one width go to that
        # width's slots in order); a per-tensor parameter goes to lane 0's register of a free
        # per-element slot at least as wide, else to a slot with lane 0 only
        slot_of = {}                                  # (function, parameter) -> (kind, bits, index)
        loads = {}                                    # slot -> [(function, line)]
        funcs = [vf for vf in VEC_FUNCS if vf.params and vf.params != ("table",)]
        vf_of = {vf.name: vf for vf in funcs}
        npe = {}
        for vf in funcs:
            used = {}
            for j, name in enumerate(vf.params):
                if name in vf.per_tensor:
                    continue
                b = store_bits(vf, name)
                k = used.get(b, 0)
                used[b] = k + 1
                slot_of[(vf.name, name)] = ("pe", b, k)
                npe[b] = max(npe.get(b, 0), k + 1)
        # The bit-serial lane on the in-order core (pseq) reads its per-element parameters when it
        # needs them: one line (bias / half, line 0) stays on the VEC port's output during the
        # product's 32 phases (no registers: ``held``), the multiplier (line 1) and the shift
        # (line 2) wait in one register per lane, reloaded for the next lane group in the step's
        # later phases (the multiplier after phase 31, the shift in the last phase). Nothing else
        # reads VEC meanwhile (one instruction at a time). Per-tensor parameters stay in slots.
        pseq = serial and cfg.in_order
        held = None
        if pseq:
            pe_line = {}
            for (fname, name), key in slot_of.items():
                pe_line.setdefault(key, set()).add(vf_of[fname].params.index(name))
            held = slot_of[("REQ", "bias")]
            assert pe_line == {held: {0}, ("pe", 32, 1): {1}, ("pe", 6, 0): {2}}, pe_line
        # pseq: a function whose multiplying steps each take their own per-tensor multiplier and
        # shift (STEP_PARAMS) keeps the current step's pair in the per-element multiplier / shift
        # registers (free: its parameters are all per tensor), reloaded from VEC for the next step
        # as an element's are for the next lane group; the parameter phase loads step 0's pair
        stepped = {vf.name: STEP_PARAMS[vf.name] for vf in funcs if pseq and vf.name in STEP_PARAMS}
        step_slot = (("pe", 32, 1), ("pe", 6, 0))     # (multiplier, shift)
        for fname, pairs in stepped.items():
            assert not set(vf_of[fname].params) - set(vf_of[fname].per_tensor), fname
            for pair in pairs:
                for name, key in zip(pair, step_slot):
                    slot_of[(fname, name)] = key
        for vf in funcs:
            taken = {slot_of[(vf.name, n)] for n in vf.params if n not in vf.per_tensor}
            if vf.name in stepped:
                taken |= set(step_slot)
            free = sorted((b, k) for b, n in npe.items() for k in range(n)
                          if ("pe", b, k) not in taken and ("pe", b, k) != held)
            used = {}
            for j, name in sorted(enumerate(vf.params), key=lambda jn: -store_bits(vf, jn[1])):
                if name not in vf.per_tensor or (vf.name, name) in slot_of:
                    continue
                b = store_bits(vf, name)
                fit = [fk for fk in free if fk[0] >= b]
                if fit:
                    free.remove(fit[0])
                    slot_of[(vf.name, name)] = ("pe", *fit[0])
                else:
                    k = used.get(b, 0)
                    used[b] = k + 1
                    slot_of[(vf.name, name)] = ("pt", b, k)
        for vf in funcs:
            later = {n for pair in stepped.get(vf.name, ())[1:] for n in pair}     # reloaded, not loaded
            for j, name in enumerate(vf.params):
                if name not in later:
                    loads.setdefault(slot_of[(vf.name, name)], []).append((vf.name, j))
        ctx.held, ctx.loads, ctx.pseq, ctx.slot_of, ctx.step_slot = held, loads, pseq, slot_of, step_slot
        ctx.stepped, ctx.store_bits, ctx.vf_of = stepped, store_bits, vf_of

    def _param_regs(self, ctx):
        """The parameter registers, loaded in the parameter phase, and the LUT's table."""
        m, C, MS, f, held, is_lut, lanes = ctx.m, ctx.C, ctx.MS, ctx.f, ctx.held, ctx.is_lut, ctx.lanes
        loads, lut_lines, lut_sync, nchunks = ctx.loads, ctx.lut_lines, ctx.lut_sync, ctx.nchunks
        pcnt, pmax, pseq, slot_of, step_slot = ctx.pcnt, ctx.pmax, ctx.pseq, ctx.slot_of, ctx.step_slot
        stepped, vchunk, vcomp, vf_of, vlast = ctx.stepped, ctx.vchunk, ctx.vcomp, ctx.vf_of, ctx.vlast
        vparam_phase, vphase = ctx.vparam_phase, ctx.vphase
        pline = Signal(range(pmax + 1))
        pvalid = Signal()
        m.d.sync += [pvalid.eq(vparam_phase), pline.eq(pcnt)]
        vecdata = self.rd_vec.data
        regs = {}
        # A per-element slot rotates by one lane group after each group its function computes
        # (a function that holds per-element parameters in it), so lane ``l`` always finds its
        # element's value in register ``l``: no multiplexer over the line's groups. Each line
        # rotates the slot ``nchunks`` times, a whole turn, so every line starts as loaded.
        # Only up to 4 groups a line (tiny): the load / rotate choice costs a LUT per flip-flop,
        # which iCE40 packs with the flip-flop, while ECP5 counts it (small, 8 groups: measured
        # +435 TRELLIS_COMB with rotation; its 8:1 multiplexers use the slices' wide muxes).
        rotate = 1 < nchunks <= 4 and not pseq
        group_end = vcomp & vlast
        # pseq: the next lane group's elements (reloads), its VEC reads and their lines
        nxt = Mux(vchunk == nchunks - 1, 0, vchunk + 1) if nchunks > 1 else Const(0, 1)
        step_f = Const(0, 1)                          # a stepped function (per-tensor pairs)
        for fname in stepped:
            step_f = step_f | f[fname]
        if stepped and nchunks > 1:
            nxt = Mux(step_f, 0, nxt)                 # a per-tensor value is element 0's
        pe_users = Const(0, 1)                        # the function holds per-element parameters
        for (fname, name) in slot_of:
            if name not in vf_of[fname].per_tensor:
                pe_users = pe_users | f[fname]
        reload = {("pe", 32, 1): vcomp & (vphase == 32), ("pe", 6, 0): vcomp & (vphase == MS - 1)} if pseq else {}
        for (kind, b, k), srcs in sorted(loads.items()):
            if (kind, b, k) == held:
                continue
            n_el = (lanes if pseq else C) if kind == "pe" else 1
            regs[(kind, b, k)] = rs = [Signal(signed(b), name=f"par_{kind}{b}_{k}_{n}") for n in range(n_el)]
            hit = Const(0, 1)
            rot = Const(0, 1)
            for fname, j in srcs:
                hit = hit | (f[fname] & (pline == j))
                if kind == "pe" and vf_of[fname].params[j] not in vf_of[fname].per_tensor:
                    rot = rot | f[fname]
            with m.If(pvalid & self.busy & hit):
                m.d.sync += [rs[n].eq(vecdata[32 * n:32 * n + b]) for n in range(n_el)]
            if kind == "pe" and rotate:
                with m.Elif(group_end & rot):
                    m.d.sync += [rs[n].eq(rs[(n + lanes) % C]) for n in range(n_el)]
            if kind == "pe" and pseq:
                with m.Elif(reload[(kind, b, k)] & (rot | (step_f if (kind, b, k) in step_slot else 0))):
                    for n in range(n_el):
                        els = [vecdata[32 * (ch * lanes + n):32 * (ch * lanes + n) + b] for ch in range(nchunks)]
                        m.d.sync += rs[n].eq(Array(els)[nxt] if nchunks > 1 else els[0])
        lc = C.bit_length() - 1                       # cols is a power of two: entry e = line e >> lc
        lut_row = Cat(*[vecdata[32 * n:32 * n + 8] for n in range(C)])
        lut_we = pvalid & self.busy & is_lut & (pline < lut_lines)
        if lut_sync:    # the table reads of a LUT step are used (vgroup_done, the next cycle)
            # (the pipelined lane reads the table in its stage 6, _lane_out)
            rd_cycle = ctx.pctl["done"][ctx.depth - 2] if ctx.piped else vcomp
            m.d.comb += self.collision.eq(lut_we & rd_cycle & is_lut)

        ctx.lc, ctx.lut_row, ctx.lut_we, ctx.pe_users, ctx.pline = lc, lut_row, lut_we, pe_users, pline
        ctx.regs, ctx.rotate, ctx.step_f, ctx.vecdata = regs, rotate, step_f, vecdata

    def _lanes(self, ctx):
        """The lanes, one datapath each."""
        nchunks, vchunk = ctx.nchunks, ctx.vchunk
        # ---- lanes: one datapath each
        act1 = self.rd_act.data
        act2 = self.rd_act2.data
        accd = self.rd_acc.data
        sel = vchunk if nchunks > 1 else Const(0, 1)
        ctx.act1, ctx.act2, ctx.accd, ctx.sel = act1, act2, accd, sel
        lctx = ctx
        if ctx.piped:
            # The pipelined lane takes the function's flags and the word's flags from registers: it
            # uses them from its stage 1 on, at least two cycles after the instruction starts (the
            # first compute cycle follows the start), and its last stage is done with its last
            # cycle, before the next instruction's word can reach the registers' outputs.
            m = ctx.m
            lctx = SimpleNamespace(**vars(ctx))
            lctx.f = {n: _held(m, v, f"vl_{n.lower()}") for n, v in ctx.f.items()}
            lctx.V = {**ctx.V, **{n: _held(m, ctx.V[n], f"vl_{n}") for n in ("signed", "accumulate", "round")}}
            lctx.is_lut = lctx.f["LUT"]
        ctx.results = [self._lane(lctx, lane) for lane in range(ctx.lanes)]

    def _lane(self, ctx, lane):
        """One lane: its parameters (``par``, ``by_func``) and operands, then :meth:`_lane_result`."""
        m, C, V, accd, act1, act2, f = ctx.m, ctx.C, ctx.V, ctx.accd, ctx.act1, ctx.act2, ctx.f
        held, lanes, nchunks, pseq, regs = ctx.held, ctx.lanes, ctx.nchunks, ctx.pseq, ctx.regs
        rotate, sel, slot_of, store_bits = ctx.rotate, ctx.sel, ctx.slot_of, ctx.store_bits
        vecdata, vf_of = ctx.vecdata, ctx.vf_of
        def pick(vals, lane=lane):
            if nchunks == 1:
                return vals[lane]
            return Array([vals[ch * lanes + lane] for ch in range(nchunks)])[sel]

        piped = ctx.piped
        slot = {}
        slot_c = {}                               # (piped) the element's parameters before stage 0's registers
        if held is not None:                      # the VEC line on the port's output
            slot[held] = Signal(signed(32), name=f"l{lane}_held")
            m.d.comb += slot[held].eq(pick([vecdata[32 * e:32 * e + 32] for e in range(C)]))
        for key, rs in regs.items():
            if key[0] == "pe" and (rotate or pseq) and not piped:
                slot[key] = rs[lane]             # rotated into place / this lane's (see the slots above)
            elif key[0] == "pe":
                # (piped: the element's parameters registered with its operands, the first stage)
                slot[key] = Signal(signed(key[1]), name=f"l{lane}_par{key[1]}_{key[2]}")
                slot_c[key] = rs[lane] if rotate else pick(rs)
                dom = m.d.sync if piped else m.d.comb
                dom += slot[key].eq(slot_c[key])

        def par(fname, pname, slot=slot):
            vf = vf_of[fname]
            key = slot_of[(fname, pname)]
            if pname in vf.per_tensor:           # lane 0's register, its low bits
                return regs[key][0][:store_bits(vf, pname)].as_signed()
            return slot[key]

        def by_func(pairs, default, slot=slot):
            """The parameter of the current function among ``pairs`` [(function, parameter)]:
            one multiplexer input per distinct source."""
            conds = {}
            vals = {}
            for fname, pname in pairs:
                v = par(fname, pname, slot)
                key = (slot_of[(fname, pname)], pname in vf_of[fname].per_tensor, len(v))
                conds[key] = conds.get(key, Const(0, 1)) | f[fname]
                vals[key] = v
            out = default
            for key, cond in conds.items():
                out = Mux(cond, vals[key], out)
            return out

        a8 = Signal(8, name=f"a8_{lane}")
        b8 = Signal(8, name=f"b8_{lane}")
        a_acc = Signal(signed(32), name=f"acc{lane}")
        sel3 = [pick([act1[8 * e:8 * e + 8] for e in range(C)]), pick([act2[8 * e:8 * e + 8] for e in range(C)]),
                pick([accd[32 * e:32 * e + 32] for e in range(C)])]
        dom = m.d.sync if piped else m.d.comb      # (piped: the element select's registers)
        dom += [a8.eq(sel3[0]), b8.eq(sel3[1]), a_acc.eq(sel3[2])]

        def act(v8, name):
            out = Signal(signed(10), name=name)
            m.d.comb += out.eq(Mux(V["signed"], v8.as_signed(), v8.as_unsigned()))
            return out

        a_act, b_act = act(a8, f"la{lane}"), act(b8, f"lb{lane}")
        if piped:
            # stage 0 also registers the adder's operands and the zero-point differences, made from
            # the selected element and its parameters before their registers
            pre = self._adder_operands(ctx, lane, sel3[2].as_signed(), act(sel3[0], f"la{lane}_c"),
                                       act(sel3[1], f"lb{lane}_c"),
                                       lambda pairs, default: by_func(pairs, default, slot_c), m.d.sync)
            return self._lane_piped(ctx, lane, a8, a_acc, a_act, b_act, by_func, par, pre)
        return self._lane_result(ctx, lane, a8, a_acc, a_act, b_act, by_func, par)

    def _adder_operands(self, ctx, lane, a_acc, a_act, b_act, by_func, dom=None):
        """``(cin, add_a, add_b, da, db)``: the operands of a lane's adder and the zero-point
        differences, in ``dom`` (default comb; the pipelined lane's stage 0 registers them)."""
        m, V, f = ctx.m, ctx.V, ctx.f
        dom = m.d.comb if dom is None else dom
        # one 32-bit adder: acc + bias (REQ, BIAS), abs(acc) + half (DIV), a (+ acc) (SUMW)
        # (DIV: abs(acc) = (acc ^ sign) + sign, the sign the adder's carry-in)
        cin = Signal(name=f"addc{lane}")
        add_a = Signal(32, name=f"adda{lane}")
        add_b = Signal(32, name=f"addb{lane}")
        neg = f["DIV"] & a_acc[-1]
        # the zero-point differences (ADDQ / SUBQ steps 0 and 1, MULQ's product)
        da = Signal(signed(10), name=f"da{lane}")
        db = Signal(signed(10), name=f"db{lane}")
        dom += [cin.eq(neg),
                add_a.eq(Mux(f["DIV"], a_acc ^ neg.replicate(32), Mux(f["SUMW"] & ~V["accumulate"], 0, a_acc))),
                add_b.eq(Mux(f["SUMW"], a_act, by_func([("REQ", "bias"), ("BIAS", "bias"), ("DIV", "half")], 0))),
                da.eq(a_act - by_func([("ADDQ", "z1"), ("SUBQ", "z1"), ("MULQ", "z1")], 0)),
                db.eq(b_act - by_func([("ADDQ", "z2"), ("SUBQ", "z2"), ("MULQ", "z2")], 0))]
        return cin, add_a, add_b, da, db

    def _lane_operands(self, ctx, lane, a_acc, a_act, b_act, by_func, par, vstep, pre=None, xw=None):
        """A lane's adder and its fixed-point multiply's operands in the cycle of step ``vstep``
        (``par`` / ``by_func``: its parameters, :meth:`_lane`; ``pre``: :meth:`_adder_operands`'s,
        else made here; ``xw``: the earlier steps' result a waiting step takes, else ``x1``)."""
        m, V, f, serial = ctx.m, ctx.V, ctx.f, ctx.serial
        if pre is None:
            pre = self._adder_operands(ctx, lane, a_acc, a_act, b_act, by_func)
        cin, add_a, add_b, da, db = pre
        sum32 = Signal(signed(32), name=f"sum{lane}")
        m.d.comb += sum32.eq((Cat(cin, add_a) + Cat(cin, add_b))[1:33])
        # ADDQ / SUBQ: step 0's result, then x1 +- x2 at step 1; MULQ: step 0's product
        x1 = Signal(signed(32), name=f"x1_{lane}")
        xw = x1 if xw is None else xw
        x_in = Signal(signed(32), name=f"u_in{lane}")
        m_in = Signal(signed(32), name=f"u_m{lane}")
        e_in = Signal(signed(6), name=f"u_e{lane}")
        addsub = f["ADDQ"] | f["SUBQ"]
        with m.If(f["MULQ"] & (vstep == 0)):        # MULQ step 0: (a - z1) * (b - z2)
            if serial:                            # (da * 2**20) * (db * 2**10) / 2**30, exact
                m.d.comb += [x_in.eq(da << ADD_LEFT_SHIFT), m_in.eq(db << (30 - ADD_LEFT_SHIFT)),
                             e_in.eq(0)]
            else:
                m.d.comb += [x_in.eq(da), m_in.eq(db), e_in.eq(0)]
        with m.Elif(f["MULQ"]):                    # step 1: mbqm of step 0's product
            m.d.comb += [x_in.eq(xw), m_in.eq(par("MULQ", "m")), e_in.eq(par("MULQ", "e"))]
        sp = STEP_PARAMS["ADDQ"]
        with m.Elif(addsub & (vstep == 0)):
            m.d.comb += [x_in.eq(da << ADD_LEFT_SHIFT), m_in.eq(par("ADDQ", sp[0][0])), e_in.eq(par("ADDQ", sp[0][1]))]
        with m.Elif(addsub & (vstep == 1)):
            m.d.comb += [x_in.eq(db << ADD_LEFT_SHIFT), m_in.eq(par("ADDQ", sp[1][0])), e_in.eq(par("ADDQ", sp[1][1]))]
        with m.Elif(addsub):
            m.d.comb += [x_in.eq(xw), m_in.eq(par("ADDQ", sp[2][0])), e_in.eq(par("ADDQ", sp[2][1]))]
        with m.Elif(f["DIV"]):                     # x = wrap32(abs(acc) + half), no left shift
            m.d.comb += [x_in.eq(sum32), m_in.eq(par("DIV", "m")), e_in.eq(0)]
        with m.Else():                            # REQ
            m.d.comb += [x_in.eq(sum32), m_in.eq(par("REQ", "mult")), e_in.eq(par("REQ", "shift"))]
        # DIV: q = (x * m) >> (30 + k), k = (s - 30) & 31, on mbqm's product and right shifter
        k = (par("DIV", "s") + 2)[:5]
        # the exact product for DIV and MULQ's step 0, SRDHM's nudge in it for the others;
        # REQ with round = 1: one rounding of the product (single_rounding_multiply)
        exact = f["DIV"] | (f["MULQ"] & (vstep == 0))
        single = f["REQ"] & V["round"]
        return SimpleNamespace(addsub=addsub, da=da, db=db, e_in=e_in, exact=exact, k=k, m_in=m_in,
                               single=single, sum32=sum32, x1=x1, x_in=x_in)

    def _lane_result(self, ctx, lane, a8, a_acc, a_act, b_act, by_func, par):
        """A lane's adder and fixed-point multiply (:meth:`_lane_operands`), then :meth:`_lane_out`
        (``par`` / ``by_func``: its parameters, :meth:`_lane`)."""
        m, M, f = ctx.m, ctx.M, ctx.f
        mulf, serial, vcomp, vphase = ctx.mulf, ctx.serial, ctx.vcomp, ctx.vphase
        vstep, vstep_done = ctx.vstep, ctx.vstep_done
        op = self._lane_operands(ctx, lane, a_acc, a_act, b_act, by_func, par, vstep)
        addsub, da, db, e_in, exact, k = op.addsub, op.da, op.db, op.e_in, op.exact, op.k
        m_in, single, sum32, x1, x_in = op.m_in, op.single, op.sum32, op.x1, op.x_in
        if serial:
            # x_in from its three sources (the serial multiply needs it in phase 0 only)
            dd = Signal(signed(10), name=f"dd{lane}")          # ADDQ / SUBQ / MULQ: (da | db) << 20
            m.d.comb += dd.eq(Mux(addsub & (vstep == 1), db, da))
            sel_sum = f["REQ"] | f["DIV"]
            sel_x1 = (f["MULQ"] & (vstep != 0)) | (addsub & (vstep == 2))

            # (da | db) << 20 as 32 bits
            dd32 = Cat(Const(0, ADD_LEFT_SHIFT), dd, dd[-1].replicate(32 - ADD_LEFT_SHIFT - len(dd)))
            xs = Signal(32, name=f"xs{lane}")
            m.d.comb += xs.eq(Mux(sel_sum, sum32, Mux(sel_x1, x1, dd32)))
            q = serial_mbqm(m, xs, m_in, e_in, ~exact & ~single, Mux(f["DIV"], k, 0), vphase, vcomp & mulf,
                            name=f"u{lane}", single=single)
            ab = q                                # MULQ's step 0: the product itself
        else:
            ab, q = mbqm(m, x_in, m_in, e_in, f["DIV"], k, name=f"u{lane}", steps=M, phase=vphase,
                         en=vcomp & mulf, nudge=~exact & ~single, single=single)
        u = q[:32].as_signed()
        sdone = vcomp & vstep_done                 # a step's product is complete this cycle
        _step_results(m, f, x1, addsub, ab, sdone, vstep, u, sdone, vstep)
        zo = by_func([("REQ", "zo"), ("ADDQ", "zo"), ("SUBQ", "zo"), ("MULQ", "zo")], 0)
        wide = f["SUMW"] | f["BIAS"]
        mx = Mux(a_act > b_act, a_act, b_act)[:8]
        # one clamp, on 12-bit values (the module docstring says why this is exact)
        v = Signal(signed(12), name=f"v{lane}")
        qa = None                                 # (serial, depth >= 2) the first result register
        if serial:
            # one saturation for all: q is DIV's quotient, else mbqm's int32 result (u), whose
            # 11-bit saturation is q's; then one adder: DIV's -qs = ~qs + 1, the others' + zo,
            # CLAMP's + 0 (tiny: 30 logic cells fewer; on small's ECP5 lanes ~1,000 LUTs more)
            dneg = f["DIV"] & (a_acc < 0)
            qv = q
            if ctx.depth >= 2:                    # the register before the saturation (see _walks)
                qa, dq = Signal(signed(len(q)), name=f"resq{lane}"), Signal(name=f"resqn{lane}")
                m.d.sync += [qa.eq(Mux(wide, sum32, Mux(f["MAX"], mx, Mux(f["CLAMP"], a_act, q)))),
                             dq.eq(dneg)]
                qv, dneg = qa, dq
            qs = sat(m, qv, 11, f"qs{lane}")
            v_a = Signal(signed(12), name=f"va{lane}")
            v_b = Signal(signed(12), name=f"vb{lane}")
            m.d.comb += [v_a.eq(Mux(f["CLAMP"], qv[:12] if qa is not None else a_act,
                                    qs ^ dneg.replicate(11).as_signed())),
                         v_b.eq(Mux(f["DIV"], dneg, Mux(f["CLAMP"], 0, zo))), v.eq(v_a + v_b)]
        else:
            qs = sat(m, q, 11, f"qs{lane}")
            with m.If(f["DIV"]):
                m.d.comb += v.eq(Mux(a_acc < 0, -qs, qs))
            with m.Elif(f["CLAMP"]):
                m.d.comb += v.eq(a_act)
            with m.Else():
                m.d.comb += v.eq(qs + zo)          # q: mbqm's / srm's result (srm's may be 2**31)
        return self._lane_out(ctx, lane, a8, by_func, qa, v, wide, sum32, mx)

    def _lane_piped(self, ctx, lane, a8, a_acc, a_act, b_act, by_func, par, pre):
        """The pipelined lane (``vector_pipeline`` 1) from its stage 1 on (:meth:`_lane` registered
        the element's operands and parameters, stage 0): the adder and the shifted operand (stage
        1), the multiply (:func:`_product_piped`: the pieces' magnitudes, the product, their sum in
        stages 2 .. 4), the rounding shift (5), its rounding bit (6), the saturation and the zero
        point (7) into :meth:`_lane_out`'s result register (the result in stage 8). What a later stage uses travels beside the
        data (``pipe``), the control in ``ctx.pctl``; the parameters a later stage uses are per
        tensor (held still). The results a deferred last step takes (``VecFunc.waits``) wait in a
        queue per lane (:meth:`_pipe_control`, :meth:`_batches`)."""
        m, M, f, pc = ctx.m, ctx.M, ctx.f, ctx.pctl

        def pipe(v, k, name):                      # v of stage 1, at stage k
            return _delays(m, v, k - 1, f"l{lane}_{name}")[k - 1]

        # the queue of the heads' results (_pipe_control): entry 0 is a deferred step's operand
        xq = [Signal(signed(32), name=f"l{lane}_xq{i}") for i in range(ctx.x1_entries)]
        op = self._lane_operands(ctx, lane, a_acc, a_act, b_act, by_func, par, pc["step"][1], pre, xw=xq[0])
        e_in = op.e_in
        scaled = Signal(signed(32), name=f"u{lane}_scaled")
        mult = Signal(signed(32), name=f"u{lane}_mult")
        m.d.sync += [scaled.eq((op.x_in << Mux(e_in[-1], 0, e_in[:5]))[:32]), mult.eq(op.m_in)]
        rr = _round_shift(m, e_in, op.single, f"u{lane}")
        # SRDHM's nudge and single rounding's low addend (mbqm) from the next stage's operands
        nudge = ~op.exact & ~op.single
        low = Mux(pipe(op.single, 2, "single") & (scaled[-1] ^ mult[-1]), (1 << 30) - 1, 0)
        ab = _product_piped(m, scaled, mult, M, pc, pipe(nudge, 4, "nudge"), _delays(m, low, 2, f"l{lane}_low")[2],
                            f"u{lane}")
        # stage 5: the value to round (from the product's register) through the right shift, with
        # the bits shifted out ORed (_shift_sticky); stage 6 adds its rounding bit (_round_bit)
        ab_r = Signal(signed(64), name=f"u{lane}_abr")
        m.d.sync += ab_r.eq(ab)
        S = _X1_STAGE
        div5 = f["DIV"]
        rv = _round_value(m, ab_r, pipe(op.single, 5, "single"), div5, f"u{lane}")
        sh, sticky = _shift_sticky(m, Cat(Const(0, 1), rv).as_signed(), pipe(Mux(f["DIV"], op.k, rr), S - 1, "right"),
                                   f"u{lane}_rs")
        t_r = Signal(signed(len(sh)), name=f"u{lane}_tr")
        c_r = Signal(name=f"u{lane}_rbit")
        m.d.sync += [t_r.eq(sh), c_r.eq(_round_bit(div5, rv[-1], sticky))]
        # stage 6: the rounding bit added (half of the shifted value, :func:`_round_bit`) and the
        # steps' results
        q = Signal(signed(34), name=f"u{lane}_out")
        m.d.comb += q.eq(((t_r + c_r) >> 1)[:34])
        # MULQ's product (stage 5) and ADDQ / SUBQ's step 0 result in x1, then into the queue with
        # the head's last step: MULQ's x1, ADDQ / SUBQ's x1 +- step 1's result (_step_results)
        u, sub = q[:32].as_signed(), f["SUBQ"].replicate(32)
        with m.If(pc["done"][S - 1] & f["MULQ"] & (pc["step"][S - 1] == 0)):
            m.d.sync += op.x1.eq(ab_r[:32])
        with m.If(pc["done"][S] & op.addsub & (pc["step"][S] == 0)):
            m.d.sync += op.x1.eq(u ^ sub)
        xnew = Mux(f["MULQ"], op.x1, (op.x1 + u)[:32] ^ sub)
        for i, e in enumerate(xq):
            with m.If(ctx.x1_new[i]):
                m.d.sync += e.eq(xnew)
            if i + 1 < len(xq):
                with m.Elif(ctx.x1_shift):
                    m.d.sync += e.eq(xq[i + 1])
        # stage 7: the saturation and the zero point
        R = VECTOR_LANE_STAGES - 1
        q_r = Signal(signed(34), name=f"u{lane}_outr")
        m.d.sync += q_r.eq(q)
        wide = f["SUMW"] | f["BIAS"]
        pre = Signal(32, name=f"pre{lane}")       # the functions that do not multiply: their result
        m.d.comb += pre.eq(Mux(wide, op.sum32, Mux(f["MAX"], Mux(a_act > b_act, a_act, b_act)[:8], a_act)))
        pre6 = pipe(pre, R, "pre")
        dneg = pipe(f["DIV"] & (a_acc < 0), R, "dneg")
        qs = sat(m, q_r, 11, f"qs{lane}")
        zo = _held(m, by_func([("REQ", "zo"), ("ADDQ", "zo"), ("SUBQ", "zo"), ("MULQ", "zo")], 0), f"zo{lane}")
        v = Signal(signed(12), name=f"v{lane}")
        with m.If(f["DIV"]):
            m.d.comb += v.eq(Mux(dneg, -qs, qs))
        with m.Elif(f["CLAMP"]):
            m.d.comb += v.eq(pre6[:12].as_signed())
        with m.Else():
            m.d.comb += v.eq(qs + zo)
        return self._lane_out(ctx, lane, pipe(a8, R - 1, "a8"), by_func, None, v, wide, pre6, pre6)

    def _lane_out(self, ctx, lane, a8, by_func, qa, v, wide, sum32, mx):
        """A lane's clamp, LUT, result select and result registers (``qa``: the serial lane's first
        result register or None; ``v``: the value to clamp; ``wide``: the function's result is
        ``sum32``; ``mx``: MAX's)."""
        m, C, f, is_lut, lc = ctx.m, ctx.C, ctx.f, ctx.is_lut, ctx.lc
        lut_lines, lut_row, lut_sync, lut_we, pline = ctx.lut_lines, ctx.lut_row, ctx.lut_sync, ctx.lut_we, ctx.pline
        lo = by_func([(vf.name, "lo") for vf in VEC_FUNCS if "lo" in vf.params], 0)
        hi = by_func([(vf.name, "hi") for vf in VEC_FUNCS if "hi" in vf.params], 0)
        clamp_ra = clamp
        if ctx.piped:
            lo, hi = _held(m, lo, f"lo{lane}"), _held(m, hi, f"hi{lane}")
            # its three comparisons side by side (``lo > hi`` from a register: lo / hi held still)
            lo_above = _held(m, lo > hi, f"lohi{lane}")
            clamp_ra = lambda v, lo, hi: clamp_parallel(v, lo, hi, lo_above)
        # LUT: entry a8 is byte (a8 mod cols) of table line a8 / cols
        # (a synchronous table asks for block RAM: Yosys 0.23 would build it from LUT RAM on ECP5)
        lut = Memory(shape=unsigned(8 * C), depth=lut_lines, init=[],
                     attrs={"ram_style": "block", **COLLISION_UNDEFINED} if lut_sync else None)
        m.submodules[f"lut{lane}"] = lut
        lw = lut.write_port()
        lrd = lut.read_port() if lut_sync else lut.read_port(domain="comb")
        m.d.comb += [lw.en.eq(lut_we), lw.addr.eq(pline), lw.data.eq(lut_row), lrd.addr.eq(a8[lc:])]
        byte = a8[:lc]
        if lut_sync and lc:
            byte = Signal(lc, name=f"lut_byte{lane}")
            m.d.sync += byte.eq(a8[:lc])
        lut_out = lrd.data.word_select(byte, 8) if lc else lrd.data
        if ctx.piped:
            # the pipelined lane reads the table a stage early (``a8`` of stage 6) and registers the
            # entry, so no block RAM output is on the result's path to the line buffer
            lut_q = Signal(8, name=f"lutq{lane}")
            m.d.sync += lut_q.eq(lut_out)
            lut_out = lut_q
        r = Signal(32, name=f"res{lane}")
        if qa is not None:
            # serial: the result registers after the saturated sum (depth 3) and after the clamp
            ra = qa[:32]
            if ctx.depth >= 3:
                ra, lut_q = Signal(32, name=f"resa{lane}"), Signal(8, name=f"lutq{lane}")
                m.d.sync += [ra.eq(Mux(wide | f["MAX"], qa[:32], v.as_signed())), lut_q.eq(lut_out)]
                v, lut_out = ra[:12].as_signed(), lut_q
            m.d.comb += r.eq(Mux(wide | f["MAX"], ra, Mux(is_lut, lut_out, clamp(v, lo, hi)[:8])))
        elif ctx.depth:
            # the first result register (see _walks): the sum, the max or the value to clamp
            ra = Signal(32, name=f"resa{lane}")
            m.d.sync += ra.eq(Mux(wide, sum32, Mux(f["MAX"], mx, v.as_signed())))
            m.d.comb += r.eq(Mux(wide | f["MAX"], ra, Mux(is_lut, lut_out, clamp_ra(ra[:12].as_signed(), lo, hi)[:8])))
        else:
            with m.If(wide):
                m.d.comb += r.eq(sum32)
            with m.Elif(f["MAX"]):
                m.d.comb += r.eq(mx)
            with m.Elif(is_lut):
                m.d.comb += r.eq(lut_out)
            with m.Else():
                m.d.comb += r.eq(clamp(v, lo, hi)[:8])
        if ctx.depth < 2 or ctx.piped:
            return r
        rb = Signal(32, name=f"resb{lane}")               # the last result register
        m.d.sync += rb.eq(r)
        return rb

    def _ports(self, ctx):
        """The line buffer and the scratchpad ports."""
        m, cfg, C, MS, V, dst_cur, f = ctx.m, ctx.cfg, ctx.C, ctx.MS, ctx.V, ctx.dst_cur, ctx.f
        is_vec, lanes, late, pcnt, pe_users = ctx.is_vec, ctx.lanes, ctx.late, ctx.pcnt, ctx.pe_users
        pmax, pseq, rel_w, results, rfirst = ctx.pmax, ctx.pseq, ctx.rel_w, ctx.results, ctx.rfirst
        rph, rsub, src_cur, step_f, stepped = ctx.rph, ctx.rsub, ctx.src_cur, ctx.step_f, ctx.stepped
        vf_of, vgroup, vgroup_done, vparam_phase = ctx.vf_of, ctx.vgroup, ctx.vgroup_done, ctx.vparam_phase
        vread_phase, wr = ctx.vread_phase, ctx.wr
        # ---- line buffer and ports: lane groups land here; ACT takes the low byte of each element
        if cfg.in_order:
            # One instruction at a time: each lane group's results are written to the destination
            # line as they land (element write enables), no line buffer. The sources are read once
            # a line, in its first read cycle, and held (the banks read nothing else meanwhile:
            # nothing else runs), so an in-place line (dst == src / src2, SUMW's accumulated
            # destination) keeps giving the lanes what it held before the instruction wrote it.
            line_out = [results[e % lanes] for e in range(C)]
            emask = Cat(*[vgroup == e // lanes for e in range(C)])
            m.d.comb += [self.wact_mask.eq(emask), self.wacc_mask.eq(emask),
                         self.hold.eq(vread_phase & ~rfirst)]
        else:
            buf = [Signal(32, name=f"vb_{e}") for e in range(C)]
            line_out = []
            for e in range(C):
                ch, lane = divmod(e, lanes)
                here = vgroup == ch
                line_out.append(buf[e] if late else Mux(here, results[lane], buf[e]))
                with m.If(vgroup_done & here):
                    m.d.sync += buf[e].eq(results[lane])

        if pseq:
            # VEC reads in the read phase (read-side phase rph = the compute phase of the next cycle):
            # line 0 for phase 0 (held through the product), line 1 for phase 32, line 2 for the last
            vrd = vread_phase & pe_users & ((rph == 0) | (rph == 32) | (rph == MS - 1))
            vline = Mux(rph == 0, 0, Mux(rph == 32, 1, 2))
            if stepped:
                # a stepped function reads the next step's multiplier for phase 32 and its shift
                # for the last phase (the read side's step rsub: the next one's pair)
                vrd = vrd | (vread_phase & step_f & ((rph == 32) | (rph == MS - 1)))
                lines = {}
                for fname, pairs in stepped.items():
                    params = vf_of[fname].params
                    for which in range(2):
                        nexts = [params.index(pairs[(st + 1) % len(pairs)][which]) for st in range(len(pairs))]
                        key = (which, tuple(nexts))
                        lines[key] = lines.get(key, Const(0, 1)) | f[fname]
                for (which, nexts), cond in lines.items():
                    pick_line = Array([Const(n, range(pmax + 1)) for n in nexts])[rsub]
                    vline = Mux(cond & ((rph == 32) if which == 0 else (rph != 32)), pick_line, vline)
            m.d.comb += self.vhold.eq(self.active & is_vec & ~vparam_phase & ~vrd)
        else:
            vrd = Const(0, 1)
            if cfg.in_order:
                m.d.comb += self.vhold.eq(0)
        vdst_act = Const(0, 1)
        vsrc_acc = Const(0, 1)
        vbinary = Const(0, 1)
        for vf in VEC_FUNCS:
            if vf.binary:
                vbinary = vbinary | f[vf.name]
            if vf.dst == "ACT":
                vdst_act = vdst_act | f[vf.name]
            if vf.src == "ACC":
                vsrc_acc = vsrc_acc | f[vf.name]
        wen = self.active & is_vec & (vgroup_done if cfg.in_order else wr)
        rd = vread_phase & rfirst if cfg.in_order else ctx.vread_rd
        m.d.comb += [
            self.rd_act.addr.eq(src_cur),
            self.rd_act2.addr.eq(V["src2"] + rel_w.cur),
            self.rd_vec.addr.eq(V["param"] + (Mux(vparam_phase, pcnt, vline) if pseq else pcnt)),
            self.rd_acc.addr.eq(Mux(vsrc_acc, src_cur, V["dst"] + rel_w.cur)),
            self.rd_act.valid.eq(rd & ~vsrc_acc), self.rd_act2.valid.eq(rd & vbinary),
            self.rd_vec.valid.eq(vparam_phase | vrd if pseq else vparam_phase),
            self.rd_acc.valid.eq(rd & (vsrc_acc | (f["SUMW"] & V["accumulate"]))),
            self.wr_act.addr.eq(dst_cur), self.wr_act.data.eq(Cat(*[o[:8] for o in line_out])),
            self.wr_act.en.eq(wen & vdst_act),
            self.wr_acc.addr.eq(dst_cur), self.wr_acc.data.eq(Cat(*line_out)),
            self.wr_acc.en.eq(wen & ~vdst_act),
        ]


def walk_bits(cfg) -> int:
    """The width of the walks the in-order accelerator shares between its GEMM and VEC
    instructions (:class:`_Walk`): a line address of ACT or ACC."""
    return (max(cfg.lines(sp) for sp in ("ACT", "ACC")) - 1).bit_length()


class _Walk:
    """A 2-D line iterator: ``cur`` is ``base + y * ys + x * xs`` (the base while ``restart``);
    ``advance`` moves to the next line, to the next row when ``last`` (the x loop's end), or back
    to the base when ``wrap`` (given: the GEMM's next K tile); ``nxt`` is the line it moves to."""

    def __init__(self, m: Module, name: str, width: int, restart, base, xs, ys, advance, last, wrap=None,
                 load=None, ahead=False):
        if ahead:
            assert load is not None, "the walk ahead loads its base while idle"
            self._ahead(m, name, width, base, xs, ys, advance, last, wrap, load)
            return
        cur_r = Signal(width, name=f"{name}_cur")
        row_r = Signal(width, name=f"{name}_row")
        self.cur = Signal(width, name=f"{name}_curc")
        row = Signal(width, name=f"{name}_rowc")
        assert (restart is None) != (load is None), "a walk restarts at its base or loads it while idle"
        if load is None:
            m.d.comb += [self.cur.eq(Mux(restart, base, cur_r)), row.eq(Mux(restart, base, row_r))]
        else:
            # ``load`` (``restart`` None): the registers take the base in every cycle in which it holds
            # (the in-order core while idle, its next instruction already on the instruction port:
            # at least one such cycle comes before every start), so no multiplexer in front of the
            # adders
            m.d.comb += [self.cur.eq(cur_r), row.eq(row_r)]
        nrow = (row + ys)[:width]
        if wrap is None:
            self.nxt = Mux(last, nrow, self.cur + xs)
            nrow_r = Mux(last, nrow, row)
        else:
            self.nxt = Mux(wrap, base, Mux(last, nrow, self.cur + xs))
            nrow_r = Mux(wrap, base, Mux(last, nrow, row))
        if load is not None:
            with m.If(load):
                m.d.sync += [cur_r.eq(base), row_r.eq(base)]
            with m.Elif(advance):
                m.d.sync += [cur_r.eq(self.nxt), row_r.eq(nrow_r)]
        else:
            with m.If(advance):
                m.d.sync += [cur_r.eq(self.nxt), row_r.eq(nrow_r)]
            with m.Else():
                m.d.sync += [cur_r.eq(self.cur), row_r.eq(row)]


    def _ahead(self, m: Module, name: str, width: int, base, xs, ys, advance, last, wrap, load):
        """``ahead``: ``nxt`` from registers (no adder between ``last`` / ``wrap`` and it): the
        walk keeps ``cur + xs`` and ``row + ys`` beside ``cur`` and ``row``."""
        cur_r, row_r = Signal(width, name=f"{name}_cur"), Signal(width, name=f"{name}_row")
        px_r, py_r = Signal(width, name=f"{name}_px"), Signal(width, name=f"{name}_py")
        self.cur = cur_r
        wrap = Const(0, 1) if wrap is None else wrap
        self.nxt = Mux(wrap, base, Mux(last, py_r, px_r))
        self._cmp = (wrap, last, base, py_r, px_r, cur_r)
        with m.If(load):
            m.d.sync += [cur_r.eq(base), row_r.eq(base), px_r.eq(base + xs), py_r.eq(base + ys)]
        with m.Elif(advance):
            m.d.sync += [cur_r.eq(self.nxt), row_r.eq(Mux(wrap, base, Mux(last, py_r, row_r))),
                         px_r.eq(Mux(wrap, base + xs, Mux(last, py_r + xs, px_r + xs))),
                         py_r.eq(Mux(wrap, base + ys, Mux(last, py_r + ys, py_r)))]


    def nxt_is_cur(self, bits: int):
        """(``ahead``) ``nxt == cur`` in their low ``bits`` bits, each register compared with ``cur``
        before the selection (no comparison after ``last`` / ``wrap``)."""
        wrap, last, base, py_r, px_r, cur_r = self._cmp
        c = cur_r[:bits]
        return Mux(wrap, base[:bits] == c, Mux(last, py_r[:bits] == c, px_r[:bits] == c))


def _mag_piece(m: Module, v, s, idx, w: int, name: str):
    """Piece ``idx`` (``w`` bits: 32, or 16 with ``idx`` 0 / 1) of ``abs(v)`` for the int32 ``v`` of
    sign ``s``: ``-v = ~v + 1`` piece by piece, the carry into the high piece being ``s`` and ``v``'s
    low 16 bits all 0 (``abs(INT32_MIN)`` = 2**31, an unsigned 32-bit magnitude)."""
    out = Signal(w, name=name)
    if w == 32:
        m.d.comb += out.eq((v.as_unsigned() ^ s.replicate(32)) + s)
    else:
        raw = Mux(idx, v[16:32], v[:16])
        m.d.comb += out.eq((raw ^ s.replicate(16)) + (s & (~idx | (v[:16] == 0))))
    return out


#: The pipelined lane's stage that registers the steps' results later steps take (``x1``): a
#: waiting step reads it in stage 1, so it waits the stages between (the ISA table's number).
_X1_STAGE = 6
assert vector_step_wait(1) == _X1_STAGE - 1


def _held(m: Module, v, name: str):
    """``v`` one cycle later: the pipelined lane's per-tensor ``zo`` / ``lo`` / ``hi`` of the current
    function, used in its last stages, many cycles after the parameter phase that loads them (a
    register, so that the function select's multiplexers are not on the result's path)."""
    return _delays(m, v, 1, name)[1]


def _delays(m: Module, v, n: int, name: str) -> list:
    """``[v, v one cycle later, ..., v n cycles later]`` (registers)."""
    out = [v]
    for k in range(n):
        r = Signal.like(v, name=f"{name}_d{k + 1}") if isinstance(v, Signal) else Signal(v.shape(), name=f"{name}_d{k + 1}")
        m.d.sync += r.eq(out[-1])
        out.append(r)
    return out


def _step_results(m: Module, f, x1, addsub, ab, mul_done, mul_step, u, add_done, add_step):
    """The register ``x1`` of the steps' results that later steps take: MULQ's step 0 product
    ``ab`` (when ``mul_done`` with ``mul_step``), ADDQ / SUBQ's ``u`` of steps 0 and 1 (``add_done``,
    ``add_step``)."""
    with m.If(mul_done & f["MULQ"] & (mul_step == 0)):
        m.d.sync += x1.eq(ab[:32])
    # SUBQ keeps step 0's result inverted, ~x1: then ~(~x1 + u) = x1 - u, so one plain
    # adder serves both, and the inversions sit in the register's input multiplexer
    sub = f["SUBQ"].replicate(32)
    with m.If(add_done & addsub & (add_step == 0)):
        m.d.sync += x1.eq(u ^ sub)
    with m.If(add_done & addsub & (add_step == 1)):
        m.d.sync += x1.eq((x1 + u)[:32] ^ sub)


def _pieces(m: Module, a, b, steps: int, phase, name: str):
    """``(pa, pb, neg)``: the unsigned pieces of ``abs(a)`` and ``abs(b)`` that phase ``phase`` of a
    ``steps``-cycle product multiplies (:func:`_product`) and the product's sign."""
    wa, wb = mul_piece(steps)
    na = 32 // wa
    assert na * (32 // wb) == steps
    neg = Signal(name=f"{name}_neg")
    m.d.comb += neg.eq(a[-1] ^ b[-1])
    ia = phase[0] if na > 1 else Const(0, 1)
    ib = phase[1] if na > 1 else phase[0]
    return _mag_piece(m, a, a[-1], ia, wa, f"{name}_pa"), _mag_piece(m, b, b[-1], ib, wb, f"{name}_pb"), neg


def _accumulate(m: Module, piece, neg, steps: int, phase, en, nudge, low, name: str):
    """The signed product from its ``steps`` unsigned pieces ``piece`` (sign ``neg``), one a cycle
    in phases 0 .. ``steps - 1`` with ``en`` (:func:`_product`); valid in the last phase."""
    W = len(piece) + 3
    acc = Signal(signed(W), name=f"{name}_acc")
    lo = Signal(16 * (steps // 2), name=f"{name}_lo")
    addend = Signal(W, name=f"{name}_add")
    t = Signal(signed(W), name=f"{name}_t")
    acc_in = Signal(signed(W), name=f"{name}_accin")
    m.d.comb += acc_in.eq(acc | ((nudge & (phase == 0)) << 30) | (low & (phase == 0).replicate(len(low))))
    m.d.comb += [addend.eq(piece ^ neg.replicate(W)), t.eq((Cat(neg, acc_in) + Cat(neg, addend))[1:W + 1])]
    shift = ~phase[0]
    with m.If(en):
        m.d.sync += acc.eq(Mux(phase == steps - 1, 0, Mux(shift, t >> 16, t)))
        with m.If(shift):
            m.d.sync += lo.eq(Cat(lo[16:], t[:16]))
    return Cat(lo, t)[:64].as_signed()


def _product_piped(m: Module, a, b, steps: int, pc, nudge, low, name: str):
    """:func:`_product` over three stages: ``a`` and ``b`` (registers, held still over the phases)
    and the phase ``pc["phase"][2]`` give the pieces' magnitudes, registered (the multiplier's
    inputs); their product is registered (its output); stage 4 (``pc[...][4]``, ``nudge`` and
    ``low`` of that stage) sums the pieces. Returns the product (64 bits, stage 4, combinational)."""
    # (the product on a wire named ``*_piece``: tests/hw/test_synth.py finds the lane's multipliers so)
    if steps == 1:
        pa, pb = Signal(signed(32), name=f"{name}_pa"), Signal(signed(32), name=f"{name}_pb")
        prod = Signal(signed(64), name=f"{name}_piece")
        m.d.sync += [pa.eq(a), pb.eq(b)]
    else:
        pa_c, pb_c, neg_c = _pieces(m, a, b, steps, pc["phase"][2], name)
        pa, pb = Signal.like(pa_c, name=f"{name}_par"), Signal.like(pb_c, name=f"{name}_pbr")
        prod = Signal(len(pa) + len(pb), name=f"{name}_piece")
        negs = _delays(m, neg_c, 2, f"{name}_neg")
        m.d.sync += [pa.eq(pa_c), pb.eq(pb_c)]
    m.d.comb += prod.eq(pa * pb)
    piece = Signal.like(prod, name=f"{name}_piecer")
    m.d.sync += piece.eq(prod)
    if steps == 1:
        return (piece + Mux(nudge, 1 << 30, 0) + low)[:64].as_signed()
    return _accumulate(m, piece, negs[2], steps, pc["phase"][4], pc["en"][4], nudge, low, name)


def _product(m: Module, a, b, steps: int, phase, en, name: str, nudge=None, low=None):
    """The signed 64-bit product of the int32 values ``a`` and ``b``: with ``steps`` 1 one 32 x 32
    multiplier; else in sign-magnitude over ``steps`` cycles (``phase`` 0 .. ``steps - 1``, ``a``
    and ``b`` held still; ``en`` in each of them), one unsigned piece a cycle (32 x 16 for 2 steps,
    16 x 16 for 4: ``HwConfig.vector_mul_piece``): phase ``p`` multiplies piece ``p % na`` of
    ``abs(a)`` (``na`` pieces) by piece ``p // na`` of ``abs(b)``, so its weight is ``2**(16 *
    column)``, column ``p % na + p // na`` (0, 1 / 0, 1, 1, 2). A register ``acc`` holds the sum of
    the earlier pieces in units of the current column; each piece is added negated when the
    signs differ (``~v + 1``: the inverted piece and a carry-in); after an even phase (the next
    one's column is higher) the sum's low 16 bits are final and move to ``lo`` and ``acc`` keeps
    the rest (arithmetic shift); after the last phase ``acc`` is 0 again. The last phase's sum
    above ``lo`` is the product (its magnitude is below 2**63, every partial sum fits ``acc``).

    With ``nudge`` (1 bit, steady over the phases) the result is the product plus 2**30: ``acc``
    is 0 in phase 0, so its bit 30 there is the nudge (SRDHM's rounding addend, :func:`mbqm`),
    which costs no adder. ``low`` (up to 30 bits) is added the same way, in bits 0 .. 29."""
    if nudge is None:
        nudge = Const(0, 1)
    if low is None:
        low = Const(0, 30)
    if steps == 1:
        return a * b + Mux(nudge, 1 << 30, 0) + low
    pa, pb, neg = _pieces(m, a, b, steps, phase, name)
    piece = Signal(len(pa) + len(pb), name=f"{name}_piece")
    m.d.comb += piece.eq(pa * pb)
    return _accumulate(m, piece, neg, steps, phase, en, nudge, low, name)


def serial_mbqm(m: Module, x, mult, e, srdhm, k, phase, en, name: str, single=None):
    """The bit-serial lane's fixed-point multiply (``vector_mul_steps`` =
    :data:`~nnaccel.isa.table.SERIAL_MUL_STEPS`): one step of ``mul_step_cycles`` = 66 cycles,
    ``phase`` 0 .. 65 (``en`` in each, ``x``, ``mult``, ``e``, ``srdhm``, ``k`` held still); the
    result is valid in phase 65 (35 bits, combinational). ``x`` is an int32 value, needed in
    phase 0 only (a shift register keeps it for the multiplier bits of the later phases):

    * ``srdhm``: ``multiply_by_quantized_multiplier(x, mult, e)`` (``e`` 6-bit signed);
    * else ``(x * mult) >> (30 + k)`` (DIV; MULQ's exact product with ``x``, ``mult`` pre-scaled
      by ``2**20`` / ``2**10`` and ``k`` = 0), floored.

    One register ``acc`` (35 bits) and one adder. Phases 0 .. 31 multiply LSB first: phase ``t``
    adds ``mult * 4`` when bit ``t`` of ``scaled = wrap32(x << max(e, 0))`` is set (bit ``t - left``
    of ``x``: the shift register starts shifting in phase ``left``, so the left shift costs nothing), negated for bit 31 (its weight is ``-2**31``), then
    shifts ``acc`` right by one, so ``acc`` holds the partial sum over ``2**(t - 2)``: ``P >> 30``
    after phase 31. SRDHM's nudge ``2**30`` is ``acc``'s bit 32 in phase 0 (``acc`` is 0 there), so
    ``floor((P + 2**30) / 2**31)`` (= SRDHM's truncation, see :func:`mbqm`) is one more shift away.
    Phases 32 .. 64 shift right ``n`` times (``1 + max(-e, 0)`` for ``srdhm``, else ``k``) and hold;
    from the second shift on the bits that fall out are the rounding's: the last one and a sticky OR
    of those before. SRDHM's saturation (``P + 2**30 = 2**62 + 2**30`` only for ``INT32_MIN *
    INT32_MIN``) subtracts 2 in phase 32 (``acc`` is then ``2**32 + 1``), which gives ``INT32_MAX``.
    Phase 65 adds the rounding bit (``rounding_divide_by_pot``: the last bit out, and for a
    negative value also the sticky bit) and clears ``acc`` for the next step.

    ``single`` (``srdhm`` 0): ``single_rounding_multiply(x, mult, e)``, the product rounded once:
    no nudge, no saturation, the same ``1 + max(-e, 0)`` shifts, and the sticky bit ORs every bit
    that falls out from phase 0 on (the product's low bits too), so the rounding addition rounds
    ``P / 2**(31 + max(-e, 0))`` half away from zero."""
    if single is None:
        single = Const(0, 1)
    rounds = srdhm | single                         # a rounding shift after the product
    W = 35
    acc = Signal(signed(W), name=f"{name}_acc")
    rbit = Signal(name=f"{name}_rbit")
    sticky = Signal(name=f"{name}_sticky")
    mul = phase[5:] == 0                            # phase < 32 (logic, not a carry chain)
    final = phase == 65
    left = Mux(rounds & ~e[-1], e[:5], 0)
    rr = Mux(rounds & e[-1], -e, 0)[:6]
    n = Mux(rounds, rr + 1, k)                      # shifts after the product (up to 33)
    idx = Signal(6, name=f"{name}_idx")
    m.d.comb += idx.eq(phase[:5] - left)
    # bit `phase` of scaled: x's bit 0 in phase 0 when left is 0, else the shift register's bit 0
    # once it shifts (`go`: from phase `left` on; phase 0 loads it, shifted when left is 0)
    xr = Signal(32, name=f"{name}_xr")
    go = Signal(name=f"{name}_go")
    first = phase == 0
    now = left == 0
    # Phase 0 (acc is 0): the adder forms mult * 4 (+ the nudge) whatever x's bit 0, and the
    # register takes the nudge alone where that bit (``xb0``) is 0: x and the shift reach the
    # register's input multiplexer, not the adder's carry path, whose inputs come from registers
    mult4 = Cat(Const(0, 2), mult.as_signed()).as_signed()
    xb0 = Signal(name=f"{name}_xb0")
    m.d.comb += xb0.eq(now & x[0])
    xb = Signal(name=f"{name}_xb")
    m.d.comb += xb.eq(first | (mul & go & xr[0]))
    inv = Signal(name=f"{name}_inv")
    m.d.comb += inv.eq(xb & (phase == 31))
    sat = Signal(name=f"{name}_sat")
    m.d.comb += sat.eq(srdhm & (phase == 32) & acc[32] & ~acc[-1])
    addend = Signal(W, name=f"{name}_add")
    m.d.comb += addend.eq(((mult4 & xb.replicate(W)) ^ inv.replicate(W)) | Cat(Const(0, 1), sat.replicate(W - 1)))
    a_in = Signal(W, name=f"{name}_ain")
    m.d.comb += a_in.eq(acc | ((srdhm & first) << 32))
    rnd = rounds & rbit & (~acc[-1] | sticky)
    cin = inv | (final & rnd)
    s = Signal(signed(W), name=f"{name}_s")
    m.d.comb += s.eq((Cat(cin, a_in) + Cat(cin, addend))[1:W + 1])
    # phase - 32 < n in phases 32 .. 64 (where it counts), without a comparison: phase - 32 is
    # Cat(phase[:5], phase[6]) there; `shifted` is set after the phase where it equals n (n is
    # held still, the phases come one a cycle with en) and cleared in phases 0 .. 31 and 65; n
    # from a register (its inputs are held from phase 0 on, it counts from phase 32 on)
    n_r = Signal(6, name=f"{name}_n")
    m.d.sync += n_r.eq(n)
    shifted = Signal(name=f"{name}_shifted")
    at_n = Cat(phase[:5], phase[6]) == n_r
    shift = mul | (~final & ~shifted & ~at_n)
    with m.If(en):
        m.d.sync += [acc.eq(Mux(final | (first & ~xb0), Mux(final, 0, srdhm << 31), Mux(shift, s >> 1, s))),
                     shifted.eq(~mul & ~final & (shifted | at_n)),
                     xr.eq(Mux(first, Mux(now, x.as_unsigned() >> 1, x), Mux(go, xr >> 1, xr))),
                     go.eq(~idx[5] | idx.all())]        # phase + 1 >= left
        with m.If(phase == 32):
            m.d.sync += [rbit.eq(single & s[0]), sticky.eq(single & sticky)]
        with m.Elif(~mul & shift):
            m.d.sync += [rbit.eq(s[0]), sticky.eq(sticky | rbit)]
        with m.Elif(single & mul):                  # the product's bits that fall out
            m.d.sync += sticky.eq(((phase != 0) & sticky) | s[0])
    return s


def sat(m: Module, x, bits: int, name: str):
    """``x`` saturated to a ``bits``-bit signed value."""
    out = Signal(signed(bits), name=name)
    top = x[bits - 1:]
    fits = (top == 0) | (top == (1 << len(top)) - 1)
    m.d.comb += out.eq(Mux(fits, x[:bits], Mux(x[-1], -(1 << (bits - 1)), (1 << (bits - 1)) - 1)))
    return out


def _round_shift(m: Module, e, single, name: str):
    """:func:`mbqm`'s rounding shift: ``max(-e, 0)``, one more with ``single``."""
    rr = Signal(range(34), name=f"{name}_rr")
    m.d.comb += rr.eq(Mux(e[-1], -e, 0) + single)
    return rr


def _half(m: Module, rr, name: str):
    """``2**rr >> 1``: the rounding division's addend (:func:`mbqm`)."""
    half = Signal(34, name=f"{name}_half")
    m.d.comb += half.eq((Const(1, 35) << rr)[1:35])
    return half


def _round_value(m: Module, ab, single, div, name: str):
    """:func:`mbqm`'s value before its rounding division from the product ``ab`` (35 bits): SRDHM's
    (bits 31 up, saturated) or single rounding's (bits 30 up); DIV's ``ab >> 30`` with ``div``."""
    high = ab[31:64]                            # 33 bits: [-2**31 + 1, 2**31]
    h = Signal(signed(32), name=f"{name}_h")
    m.d.comb += h.eq(Mux(high[32] ^ high[31], INT32_MAX, high[:32]))
    base = Signal(signed(34), name=f"{name}_base")
    m.d.comb += base.eq(Mux(single, ab[30:64].as_signed(), h))
    v = Signal(signed(35), name=f"{name}_v")
    m.d.comb += v.eq(Mux(div, ab[30:].as_signed(), base))
    return v


def _round_sum(m: Module, ab, rr, half, single, div, name: str):
    """:func:`_round_value` plus the rounding addend ``half`` of the shift ``rr`` (for a negative
    value ``half - 1`` unless ``rr`` is 0), not with ``div``: the value :func:`mbqm` shifts right."""
    v = _round_value(m, ab, single, div, name)
    t = Signal(signed(35), name=f"{name}_t")
    m.d.comb += t.eq(Mux(div, v, v + half - (v[-1] & (rr != 0))))
    return t


def _shift_sticky(m: Module, x, amount, name: str):
    """``(x >> amount, sticky)``: the arithmetic right shift of the signed ``x`` (``amount`` below
    ``len(x)``) as a logarithmic shifter, and whether a bit shifted out is 1 (each stage ORs the
    bits it drops)."""
    sticky = Const(0, 1)
    for k in range(len(amount)):
        n = 1 << k
        if n >= len(x):
            break
        nx = Signal(signed(len(x)), name=f"{name}{k}")
        st = Signal(name=f"{name}{k}_st")
        m.d.comb += [nx.eq(Mux(amount[k], x >> n, x)), st.eq(sticky | (amount[k] & x[:n].any()))]
        x, sticky = nx, st
    return x, sticky


def _round_bit(div, neg, sticky):
    """The rounding division's last step (the pipelined lane): with ``s = (2 * v) >> r`` (floor;
    ``v`` the value to round, sign ``neg``, ``r`` the shift), the rounded ``(v + (2**r >> 1) - (v < 0
    and r > 0)) >> r`` is ``(s + c) >> 1``: ``c`` = 1 for ``v >= 0``; for ``v < 0`` (and ``r > 0``)
    ``c`` = 1 exactly when a bit of ``v`` below bit ``r - 1`` is set, which is ``sticky`` (the bits
    ``(2 * v) >> r`` drops, its own 0 included); with ``r`` = 0 any ``c`` of 0 / 1 gives ``v``. DIV
    floors: ``c`` = 0."""
    return ~div & (~neg | sticky)


def mbqm(m: Module, x, mult, e, div, k, name: str, steps: int = 1, phase=None, en=None, nudge=None,
         single=None):
    """``multiply_by_quantized_multiplier(x, mult, e)`` for int32 ``x`` / ``mult`` and a 6-bit
    signed ``e``: returns ``(ab, out)``, ``ab`` the 64-bit product ``wrap32(x << max(e, 0)) * mult``
    plus ``2**30`` when ``nudge`` (default: ``~div``; else the product itself) and ``out`` the result
    (34 bits; an int32 unless ``div``). SRDHM, ``trunc((p + (2**30 if p >= 0 else 1 - 2**30)) /
    2**31)`` for the product ``p``, is ``floor((p + 2**30) / 2**31)`` for every ``p`` (for ``p < 0``
    the sum is negative, and truncating it is flooring it plus ``2**31 - 1``): bits 31 up of ``ab``,
    with the nudge added in the product's accumulator; it is ``2**31`` only for ``INT32_MIN *
    INT32_MIN``, which saturates. The rounding division by ``2**r`` (``r = max(-e, 0)`` up to 32)
    is ``(h + (2**r >> 1) - (h < 0 and r > 0)) >> r``. With ``div`` the same right shifter makes
    DIV's ``ab >> (30 + k)`` as ``(ab >> 30) >> k`` (no nudge then). With ``single`` (and no
    ``nudge``) ``out`` is ``single_rounding_multiply(x, mult, e)``: the product's accumulator adds
    ``2**30 - 1`` when the product is negative, so bits 30 up of ``ab`` are ``trunc(p / 2**30)``, which
    the same rounding division divides by ``2**(r + 1)``.

    ``steps`` (``vector_mul_steps``) > 1 forms the product over that many cycles, ``phase`` 0 ..
    ``steps - 1`` (``x``, ``mult`` held still meanwhile, ``en`` in each of them and only then): see
    :func:`_product`. ``ab`` and ``out`` are valid in the last phase."""
    left = Mux(e[-1], 0, e[:5])
    scaled = Signal(signed(32), name=f"{name}_scaled")
    m.d.comb += scaled.eq((x << left)[:32])
    if nudge is None:
        nudge = ~div
    if single is None:
        single = Const(0, 1)
    low = Mux(single & (scaled[-1] ^ mult[-1]), (1 << 30) - 1, 0)
    ab = Signal(signed(64), name=f"{name}_ab")
    m.d.comb += ab.eq(_product(m, scaled, mult, steps, phase, en, name, nudge, low))
    rr = _round_shift(m, e, single, name)
    t = _round_sum(m, ab, rr, _half(m, rr, name), single, div, name)
    right = Mux(div, k, rr)
    out = Signal(signed(34), name=f"{name}_out")
    m.d.comb += out.eq(t >> right)
    return ab, out
