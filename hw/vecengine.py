"""The accelerator's vector engine (the ``vector`` queue): VEC instructions line by line, lane
group by lane group, with the parameter block read first (timing: :mod:`nnaccel.hw.accel`).

:class:`VectorEngine` is driven by the engine skeleton of the accelerator (``start`` / ``active``
/ ``busy`` / ``step`` of the instruction ``word`` at the head of the vector queue) and reads and
writes the scratchpads through the ports named below; ``last`` marks the instruction's last step.
"""

from __future__ import annotations

from amaranth.hdl import Array, Cat, Const, Module, Mux, Signal, signed, unsigned
from amaranth.lib import wiring
from amaranth.lib.memory import Memory
from amaranth.lib.wiring import In, Out

from nnaccel.hwconfig import ELEMENT_BYTES
from nnaccel.isa.table import ADD_LEFT_SHIFT, VEC_BY_NAME, VEC_FUNCS

from .decoder import field, opcode_of
from .vector import clamp, mbqm_round, mbqm_scale

__all__ = ["VectorEngine"]


def _ceil(a, b):
    return -(-a // b)


class VectorEngine(wiring.Component):
    """The vector engine of one hardware configuration (see the module docstring)."""

    def __init__(self, cfg):
        self.cfg = cfg
        C = cfg.cols

        def addr(s):
            return range(cfg.lines(s))

        def line(s):
            return C * 8 * ELEMENT_BYTES[s]

        super().__init__({
            "word": In(128), "start": In(1), "active": In(1), "busy": In(1), "step": In(32),
            "last": Out(1),
            "act_addr": Out(addr("ACT")), "act_valid": Out(1), "act_data": In(line("ACT")),
            "act2_addr": Out(addr("ACT")), "act2_valid": Out(1), "act2_data": In(line("ACT")),
            "acc_addr": Out(addr("ACC")), "acc_valid": Out(1), "acc_data": In(line("ACC")),
            "vec_addr": Out(addr("VEC")), "vec_valid": Out(1), "vec_data": In(line("VEC")),
            "wact_addr": Out(addr("ACT")), "wact_en": Out(1), "wact_data": Out(line("ACT")),
            "wacc_addr": Out(addr("ACC")), "wacc_en": Out(1), "wacc_data": Out(line("ACC")),
        })

    def elaborate(self, platform):
        m = Module()
        cfg = self.cfg
        C = cfg.cols
        lanes = cfg.vector_lanes
        nchunks = _ceil(C, lanes)
        from .accel import _Walker  # the accelerator's 2-D line iterator (imports this module)

        w = self.word
        is_vec = field(w, "NOP", "opcode") == opcode_of("VEC")
        vstart = self.start
        vstep = self.step
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
        vparam_phase = self.active & is_vec & (vstep < P)
        vread_phase = self.active & is_vec & (vstep >= P) & ~rdone
        vcomp = Signal()      # a lane-group step is computed this cycle (from the data read last step)
        vchunk = Signal(range(nchunks + 1))
        vsub = Signal(4)
        rchunk_r = Signal(range(nchunks + 1))
        rsub_r = Signal(4)
        rchunk = Mux(vstart, 0, rchunk_r)
        rsub = Mux(vstart, 0, rsub_r)
        sub_last = rsub == S - 1
        chunk_last = rchunk == nchunks - 1
        with m.If(self.active):
            m.d.sync += [rsub_r.eq(Mux(vread_phase & ~sub_last, rsub + 1, 0)),
                         rchunk_r.eq(Mux(vread_phase, Mux(sub_last, Mux(chunk_last, 0, rchunk + 1), rchunk), 0))]
        m.d.sync += [vcomp.eq(vread_phase), vchunk.eq(rchunk), vsub.eq(rsub)]
        radv = vread_phase & chunk_last & sub_last
        # then vector_latency steps end the instruction
        vtail_r = Signal(range(cfg.vector_latency + 1))
        vtail = Mux(vstart, 0, vtail_r)
        in_tail = (vstep >= P) & rdone
        with m.If(self.active):
            m.d.sync += [vlx_r.eq(vlx), vly_r.eq(vly), rdone_r.eq(rdone | (radv & vlast_line)),
                         vtail_r.eq(Mux(in_tail, vtail + 1, 0))]
            with m.If(radv):
                m.d.sync += [vlx_r.eq(Mux(vlx_last, 0, vlx + 1)), vly_r.eq(vly + vlx_last)]
        m.d.comb += self.last.eq(Mux(is_vec, in_tail & (vtail == cfg.vector_latency - 1), 1))
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
        vecdata = self.vec_data
        with m.If(pvalid & self.busy), m.Switch(pline):
            for j in range(npar_max):
                with m.Case(j):
                    m.d.sync += [params[j][n].eq(vecdata[32 * n:32 * n + 32]) for n in range(C)]
        lc = C.bit_length() - 1                       # cols is a power of two: entry e = line e >> lc
        lut_row = Cat(*[vecdata[32 * n:32 * n + 8] for n in range(C)])
        lut_we = pvalid & self.busy & is_lut & (pline < lut_lines)

        # lanes: one fixed-point multiplier (mbqm) each; ADDQ / SUBQ use it in three steps
        act1 = self.act_data
        act2 = self.act2_data
        accd = self.acc_data
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
            self.act_addr.eq(src_w.cur),
            self.act2_addr.eq(src2_w.cur),
            self.vec_addr.eq(V["param"] + vstep[:16]),
            self.acc_addr.eq(Mux(vsrc_acc, src_w.cur, dstr_w.cur)),
            self.act_valid.eq(vread_phase & ~vsrc_acc), self.act2_valid.eq(vread_phase & vbinary),
            self.vec_valid.eq(vparam_phase),
            self.acc_valid.eq(vread_phase & (vsrc_acc | (f["SUMW"] & V["accumulate"]))),
            self.wact_addr.eq(dstw_w.cur), self.wact_data.eq(Cat(*line_out8)),
            self.wact_en.eq(self.active & is_vec & vwrite & vdst_act),
            self.wacc_addr.eq(dstw_w.cur), self.wacc_data.eq(Cat(*line_out32)),
            self.wacc_en.eq(self.active & is_vec & vwrite & vdst_acc),
        ]
        return m
