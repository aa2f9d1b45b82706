"""Instruction decoder, generated from the ISA table (``nnaccel.isa.table``).

Every opcode, field position, reserved-bit mask, enum range, queue assignment, legal dependency
flag and vector-function code below is read from the table (:func:`nnaccel.isa.table.field_layout`,
``FLAG_CHANNEL``, ``VEC_FUNCS``, ``FAULTS``); nothing is retyped. :class:`Decoder` is
mostly combinational: it classifies one 128-bit word and decides every fault the ISA defines at fetch
(``docs/isa.md``: "every fault is decided from the instruction's fields and the configuration
alone") in the ISA simulator's order of checks, so the first fault found is the same one.

Area: the scratchpad-range and DMA-window checks multiply counts by strides. They do it
bit-serially while the fetch unit waits (the ISA's ``FETCH_CYCLES``: an instruction of the
``CHECK_OPERANDS`` kinds takes ``2 + CHECK_STEPS`` fetch cycles): one cycle latches the operands
that take arithmetic (the LOAD rows / lines without padding, the GEMM activation rows
``ny * (kt + 1) - 1``, the DMA address + line bytes), then two accumulators run Horner's rule over
``CHECK_STEPS`` operand bits (MSB first, one bit per cycle, two shifted-operand adds each), and one
cycle adds the bases and compares with constants. Accumulator A (box lines, the GEMM activation
offset, the VEC destination / second-source offset) saturates at the largest scratchpad;
accumulator B (the DMA byte offset, the GEMM result offset, the VEC source offset) is exact.

Timing: ``restart`` (the fetch unit appends a word and moves on) clears the step counter;
``ready`` is high from ``fetch_cycles`` cycles after the cycle of ``restart`` on (the cycle the
ISA appends the new word when its queue has room), and ``fault`` is valid (else 0) while
``ready``. Both come from registers: the checks decide one cycle before (the last of the table's
fetch cycles holds the verdict), so no path runs from the word into the fetch unit's control. ``queue``, ``is_finish`` and ``fetch_cycles`` (the table's, of the word's kind) are
combinational. ``word`` must stay the same from ``restart`` until it is appended.
"""

from __future__ import annotations

from types import SimpleNamespace

from amaranth.hdl import Cat, Const, Module, Mux, Signal, Value, signed
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

from nnaccel.hwconfig import ELEMENT_BYTES, HwConfig
from nnaccel.isa.table import (
    BY_NAME,
    BY_OPCODE,
    CHECK_OPERANDS,
    CHECK_STEPS,
    FAULT_BY_NAME,
    FETCH_CYCLES,
    FLAG_CHANNEL,
    FLAG_NAMES,
    INSTRUCTIONS,
    MAX_KTILES,
    N_COUNTERS,
    QUEUES,
    SPACE_ENUM,
    VEC_FUNCS,
    WIDTH,
    field_layout,
)

from .pe import shift_add_mul

__all__ = ["CONTROL_QUEUE", "QUEUE_BITS", "QUEUE_CODE", "Decoder", "fault_code", "field", "opcode_of"]

LAYOUT = field_layout()
#: Queue numbers used in hardware: the table's QUEUES order; ``len(QUEUES)`` = control (FINISH).
QUEUE_CODE = {q: n for n, q in enumerate(QUEUES)}
CONTROL_QUEUE = len(QUEUES)
#: Width of the ``queue`` port (the engine queues and control).
QUEUE_BITS = CONTROL_QUEUE.bit_length()


def field(word, ins: str, name: str):
    """The bits of field ``name`` of instruction ``ins`` in ``word`` (position from the table)."""
    lo, width = LAYOUT[ins]["fields"][name]
    return word[lo:lo + width]


def opcode_of(ins: str) -> int:
    return LAYOUT[ins]["opcode"]


def fault_code(name: str) -> int:
    return FAULT_BY_NAME[name].code


def _select(sel, options: dict, width: int):
    """``options[k]`` for ``sel == k``; any other ``sel`` gives one of the options (a don't-care:
    every use is gated by the opcode). Options that are the same bits of the word (instructions
    whose fields coincide) share one multiplexer input, or need no multiplexer at all."""
    groups: list[tuple[list, object]] = []       # (keys, value) per distinct value
    for k, v in options.items():
        for keys, gv in groups:
            if _same(v, gv):
                keys.append(k)
                break
        else:
            groups.append(([k], v))
    r = groups[-1][1]
    for keys, v in reversed(groups[:-1]):
        hit = Const(0, 1)
        for k in keys:
            hit = hit | (sel == k)
        r = Mux(hit, v, r)
    return r


def _at_least(v, c: int):
    """Unsigned ``v >= c`` for a constant ``c``, as an AND / OR chain over the bits: Yosys would
    make a ``$ge`` a carry chain (one LUT per bit, which ABC cannot simplify); this is a few LUTs."""
    if c <= 0:
        return Const(1, 1)
    if c >= 1 << len(v):
        return Const(0, 1)
    lt = Const(0, 1)                    # v < c over the bits seen so far (from the LSB up)
    for i in range(len(v)):
        lt = (~v[i] | lt) if c >> i & 1 else (~v[i] & lt)
    return ~lt


def _above(v, c: int):
    """Unsigned ``v > c`` for a constant ``c`` (see :func:`_at_least`)."""
    return _at_least(v, c + 1)


def _borrows(name: str, other: str, extra: tuple[str, ...]) -> bool:
    """Every field of ``name`` sits where ``other`` has it, and ``other``'s ``extra`` fields are
    reserved bits of ``name``: then ``other``'s decoding serves a legal ``name`` word."""
    fa, fb = LAYOUT[name]["fields"], LAYOUT[other]["fields"]
    same = all(k == "opcode" or fb.get(k) == v for k, v in fa.items())
    mask = 0
    for k in extra:
        lo, width = fb[k]
        mask |= ((1 << width) - 1) << lo
    return same and (LAYOUT[name]["reserved_mask"] & mask) == mask


def _same(a, b) -> bool:
    """``a`` and ``b`` are the same bits (the same object, or equal slices of one signal)."""
    if a is b:
        return True
    sa, sb = getattr(a, "value", None), getattr(b, "value", None)
    return (sa is not None and sa is sb and getattr(a, "start", None) == getattr(b, "start", None)
            and getattr(a, "stop", None) == getattr(b, "stop", None))


class Decoder(wiring.Component):
    """Classifies ``word``: ``queue`` (:data:`QUEUE_CODE`: the table's queues in order, then
    :data:`CONTROL_QUEUE` for FINISH), ``is_finish``, and ``fault`` (0 = legal; else the table's
    fault code: ILLEGAL_OPCODE, ILLEGAL_FIELD, SCRATCHPAD_RANGE, DMA_WINDOW)."""

    def __init__(self, cfg: HwConfig):
        self.cfg = cfg
        super().__init__({
            "word": In(WIDTH),
            "restart": In(1),
            "queue": Out(QUEUE_BITS),
            "is_finish": Out(1),
            "fault": Out(3),
            "ready": Out(1),
            "fetch_cycles": Out(range(max(FETCH_CYCLES.values()) + 1)),
        })

    def elaborate(self, platform):
        m = Module()
        ctx = SimpleNamespace(m=m)
        self._fields(ctx)
        self._legal(ctx)
        self._geometry(ctx)
        self._sequence(ctx)
        self._ranges(ctx)
        self._outputs(ctx)
        return m

    def _fields(self, ctx):
        """The opcode flags, field access and the fault collector."""
        m = ctx.m
        cfg = self.cfg
        w = self.word
        op = w[0:4]
        is_ = {ins.name: Signal(name=f"is_{ins.name.lower()}") for ins in INSTRUCTIONS}
        for ins in INSTRUCTIONS:
            m.d.comb += is_[ins.name].eq(op == ins.opcode)
        lines = {s: cfg.lines(s) for s in SPACE_ENUM}

        def field_of(ins, name):
            return field(w, ins, name)

        # Faults by code: per code the OR of its conditions (each gated by its opcode). Within one
        # instruction the ISA simulator checks ILLEGAL_FIELD before SCRATCHPAD_RANGE before
        # DMA_WINDOW (asserted below), and only one opcode matches, so a priority over the codes
        # gives the simulator's first fault.
        conds: dict[str, list] = {}
        order: dict[str, list[str]] = {}

        lates: dict[str, dict] = {}

        def fault(ins: str, code: str, cond, late=None):
            """``code`` when ``cond`` (and ``late``: a range-check result, which arrives last) hold."""
            if late is not None:
                entry = lates.setdefault(code, {}).setdefault(id(late), (late, []))
                entry[1].append(is_[ins] & cond)
                order.setdefault(ins, []).append(code)
                return
            # the static checks of the kinds that take several fetch cycles are latched (decided late)
            slow = ins in CHECK_OPERANDS
            conds.setdefault((code, slow), []).append(is_[ins] & cond if ins else cond)
            if ins:
                order.setdefault(ins, []).append(code)
        ctx.field_of, ctx.cfg, ctx.conds, ctx.fault, ctx.is_, ctx.lates = field_of, cfg, conds, fault, is_, lates
        ctx.lines, ctx.op, ctx.order, ctx.w = lines, op, order, w

    def _legal(self, ctx):
        """ILLEGAL_OPCODE and ILLEGAL_FIELD: opcodes, reserved bits and field values."""
        m, field_of, fault, is_, w = ctx.m, ctx.field_of, ctx.fault, ctx.is_, ctx.w
        known = Const(0, 1)
        for ins in INSTRUCTIONS:
            known = known | is_[ins.name]
        fault(None, "ILLEGAL_OPCODE", ~known)
        for ins in INSTRUCTIONS:            # an instruction the configuration lacks names none here
            if ins.needs and not getattr(ctx.cfg, ins.needs):
                fault(ins.name, "ILLEGAL_OPCODE", Const(1, 1))

        # ---- reserved bits: OR each class of bits (same set of instructions reserving them) once
        classes: dict[tuple[str, ...], list[int]] = {}
        for b in range(WIDTH):
            key = tuple(i.name for i in INSTRUCTIONS if LAYOUT[i.name]["reserved_mask"] >> b & 1)
            if key:
                classes.setdefault(key, []).append(b)
        class_any = {}
        for n, (key, bits) in enumerate(classes.items()):
            s = Signal(name=f"reserved_class{n}")
            m.d.comb += s.eq(Cat(*[w[b] for b in bits]).any())
            class_any[key] = s
        for ins in INSTRUCTIONS:
            r = Const(0, 1)
            for key, s in class_any.items():
                if ins.name in key:
                    r = r | s
            fault(ins.name, "ILLEGAL_FIELD", r)

        # ---- enum ranges, undefined vector functions, kt without preload, flags for the queue
        for ins in INSTRUCTIONS:
            name = ins.name
            for f in ins.fields:
                if f.enum is not None and len(f.enum) < (1 << f.width):
                    fault(name, "ILLEGAL_FIELD", _at_least(field_of(name, f.name), len(f.enum)))
            if name == "VEC":
                ok = Const(0, 1)
                for vf in VEC_FUNCS:
                    ok = ok | (field_of(name, "func") == vf.code)
                fault(name, "ILLEGAL_FIELD", ~ok)
            if name == "GEMM":    # more K tiles than one need the weights preloaded
                fault(name, "ILLEGAL_FIELD", (field_of(name, "kt") != 0) & ~field_of(name, "preload"))
            if name == "DWCONV" and ctx.cfg.depthwise_mode:  # an empty window, too many rows / taps, over 255
                fh, fw, nx, ny = (field_of(name, f) for f in ("fh", "fw", "nx", "ny"))
                taps = Signal(len(fh) + len(fw), name="dw_taps")
                m.d.comb += taps.eq(shift_add_mul(m, fw, fh, "dw_taps_mul"))
                pt, pb, pl, pr = (field_of(name, f) for f in ("pad_top", "pad_bottom", "pad_left", "pad_right"))
                fault(name, "ILLEGAL_FIELD", (fh == 0) | (fw == 0) | (nx == 0) | (ny == 0)
                      | _above(fh, ctx.cfg.dw_line_buffers + 1) | _above(taps, ctx.cfg.rows)
                      | _above(nx + fw, 256) | _above(ny + fh, 256) | (pt + pb >= fh) | (pl + pr >= fw)
                      | ((fh > 1) & (nx <= pl + pr)))
            if name == "NOP":
                qf = field_of(name, "queue")
                queues = [(qf == QUEUE_CODE[q], q) for q in QUEUES]
            else:
                queues = [(Const(1, 1), ins.queue)]
            bad = Const(0, 1)
            for sel, q in queues:
                for fl in FLAG_NAMES:
                    if (q, fl) not in FLAG_CHANNEL:
                        bad = bad | (sel & field_of(name, fl))
            fault(name, "ILLEGAL_FIELD", bad)


    def _geometry(self, ctx):
        """The DMA boxes' data rows and columns (padding removed)."""
        m, cfg, field_of, fault = ctx.m, ctx.cfg, ctx.field_of, ctx.fault
        # ---- LOAD / STORE: len, padding; (data rows - 1, data lines - 1) of the DMA iteration
        dma = ("LOAD", "STORE")
        pads = ("pad_top", "pad_bottom", "pad_left", "pad_right")
        geo = {}    # per DMA instruction: rows - 1, cols - 1 (padding removed), both rows / cols > 0
        for name in dma:
            fault(name, "ILLEGAL_FIELD", _above(field_of(name, "len"), cfg.line_elems))
            fm = BY_NAME[name].field_map
            if "pad_top" in fm:
                ys, xs = field_of(name, "y_size"), field_of(name, "x_size")
                # d = size - (pad + pad) - 1, signed: data rows - 1 when >= 0; -1: no data rows;
                # below -1: more padding than the box (ILLEGAL_FIELD)
                dy, dx = Signal(signed(len(ys) + 2), name="load_dy"), Signal(signed(len(xs) + 2), name="load_dx")
                m.d.comb += [dy.eq(ys - (field_of(name, pads[0]) + field_of(name, pads[1])) - 1),
                             dx.eq(xs - (field_of(name, pads[2]) + field_of(name, pads[3])) - 1)]
                # (the fault itself, pad + pad > size, compares a 3-bit sum: no carry chain)
                fault(name, "ILLEGAL_FIELD", _lt(ys, field_of(name, pads[0]) + field_of(name, pads[1]))
                      | _lt(xs, field_of(name, pads[2]) + field_of(name, pads[3])))
                geo[name] = (dy[:len(ys)], dx[:len(xs)], ~dy[-1] & ~dx[-1])
            else:
                other = [n for n in dma if n != name and "pad_top" in BY_NAME[n].field_map]
                if other and _borrows(name, other[0], pads):
                    # the padding fields are reserved bits here: a legal word has them 0, so the
                    # padded instruction's geometry (the same wires) is this one's
                    geo[name] = geo[other[0]]
                    continue
                ys, xs = field_of(name, "y_size"), field_of(name, "x_size")
                rm1, cm1 = Signal(len(ys), name=f"{name.lower()}_rows_m1"), Signal(len(xs), name=f"{name.lower()}_cols_m1")
                m.d.comb += [rm1.eq(ys - 1), cm1.eq(xs - 1)]
                geo[name] = (rm1, cm1, (ys != 0) & (xs != 0))

        ctx.dma, ctx.geo = dma, geo

    def _sequence(self, ctx):
        """The bit-serial range checks' step counter and accumulators."""
        m, field_of, geo, is_, lines, op = ctx.m, ctx.field_of, ctx.geo, ctx.is_, ctx.lines, ctx.op
        # ---- bit-serial products: two accumulators, Horner's rule over CHECK_STEPS bits, MSB first
        #   A (scratchpad lines, saturating): LOAD / STORE box lines y_size * x_size; GEMM activation
        #     offset act_ys * (ny * (kt + 1) - 1) + act_xs * (nx - 1); VEC destination (and src2)
        #     offset dst_ys * (ny - 1) + dst_xs * (nx - 1)
        #   B (exact): LOAD / STORE external offset (rows - 1) * y_stride + (cols - 1) * x_stride;
        #     GEMM result offset acc_ys * (ny - 1) + acc_xs * (nx - 1); VEC source offset, the same
        # The walked operand (one bit per step) is a CHECK_OPERANDS field or derived from one.
        steps = CHECK_STEPS
        checked = Const(0, 1)
        for name in CHECK_OPERANDS:
            checked = checked | is_[name]
        # step k = 0 latches the slow operands (the word holds still from restart on); steps
        # k = 1 .. steps add one operand bit each, MSB first; k = steps + 1 decides
        k = Signal(range(steps + 2), name="check_step")
        ready = Signal(name="check_ready")
        m.d.comb += ready.eq(~checked | (k == steps + 1))
        latched = {}

        def latch(v, name):
            """``v`` one cycle later (valid from step 1 on)."""
            if id(v) not in latched:
                r = Signal(len(v), name=name)
                m.d.sync += r.eq(v)
                latched[id(v)] = (v, r)
            return latched[id(v)][1]

        def walk(options: dict, name: str):
            """Bit ``steps - k`` of ``options[opcode]`` (0 for opcodes not listed) in step k: a shift
            register loaded in step 0, its MSB."""
            sel = _select(op, {o: Cat(x, Const(0, steps - len(x))) for o, x in options.items()}, steps)
            if set(options) != {opcode_of(n) for n in CHECK_OPERANDS}:
                hit = Const(0, 1)
                for o in options:
                    hit = hit | (op == o)
                sel = Mux(hit, sel, 0)
            r = Signal(steps, name=name)
            m.d.sync += r.eq(Mux(k == 0, sel, r << 1))
            return r[-1]

        g, v = opcode_of("GEMM"), opcode_of("VEC")
        # DWCONV's range products (none without the depthwise mode: DWCONV is ILLEGAL_OPCODE then)
        dw = opcode_of("DWCONV") if self.cfg.depthwise_mode else None
        ld, st = opcode_of("LOAD"), opcode_of("STORE")
        kt1 = Signal(len(field_of("GEMM", "kt")) + 1, name="gemm_tiles")
        m.d.comb += kt1.eq(field_of("GEMM", "kt") + 1)
        ny_max = BY_NAME["GEMM"].field_map["ny"].max
        rows_g = Signal((ny_max * MAX_KTILES - 1).bit_length(), name="gemm_act_rows_m1")
        m.d.comb += rows_g.eq(shift_add_mul(m, field_of("GEMM", "ny"), kt1, "gemm_act_rows") - 1)   # ny = 0: no check
        rows_g = latch(rows_g, "gemm_act_rows_m1_q")

        nx = _select(op, {g: field_of("GEMM", "nx"), v: field_of("VEC", "nx")}, 8)     # (DWCONV's at the same bits)
        ny = _select(op, {g: field_of("GEMM", "ny"), v: field_of("VEC", "ny")}, 8)
        nxm1, nym1 = Signal(len(nx), name="nx_m1"), Signal(len(ny), name="ny_m1")
        m.d.comb += [nxm1.eq(nx - 1), nym1.eq(ny - 1)]
        # DWCONV: the window's last line is act + (H - 1) * act_ys + (L - 1) (stride 1; H, L: the
        # output's window less the padding rows and columns)
        dw_rows, dw_cols = Signal(9, name="dw_rows_m1"), Signal(9, name="dw_cols_m1")
        m.d.comb += [dw_rows.eq(field_of("DWCONV", "ny") + field_of("DWCONV", "fh") - 2
                                - field_of("DWCONV", "pad_top") - field_of("DWCONV", "pad_bottom")),
                     dw_cols.eq(field_of("DWCONV", "nx") + field_of("DWCONV", "fw") - 2
                                - field_of("DWCONV", "pad_left") - field_of("DWCONV", "pad_right"))]
        one = Const(1, 1)

        def opt(d: dict) -> dict:
            return {k: x for k, x in d.items() if k is not None}
        a_terms = [
            (walk(opt({ld: field_of("LOAD", "y_size"), st: field_of("STORE", "y_size"), g: field_of("GEMM", "act_ys"),
                       v: field_of("VEC", "dst_ys"), dw: field_of("DWCONV", "act_ys")}), "walk_a1"),
             _select(op, opt({ld: field_of("LOAD", "x_size"), st: field_of("STORE", "x_size"), g: rows_g, v: nym1, dw: dw_rows}),
                     len(rows_g))),
            (walk(opt({g: field_of("GEMM", "act_xs"), v: field_of("VEC", "dst_xs"), dw: one}), "walk_a2"),
             nxm1 if dw is None else Mux(op == dw, dw_cols, nxm1)),
        ]
        b_terms = [
            (walk(opt({ld: geo["LOAD"][0], st: geo["STORE"][0], g: field_of("GEMM", "acc_ys"), v: field_of("VEC", "src_ys"),
                       dw: field_of("DWCONV", "acc_ys")}), "walk_b1"),
             _select(op, opt({ld: field_of("LOAD", "y_stride"), st: field_of("STORE", "y_stride"), g: nym1, v: nym1, dw: nym1}), 16)),
            (walk(opt({ld: geo["LOAD"][1], st: geo["STORE"][1], g: field_of("GEMM", "acc_xs"), v: field_of("VEC", "src_xs"),
                       dw: one}), "walk_b2"),
             _select(op, opt({ld: field_of("LOAD", "x_stride"), st: field_of("STORE", "x_stride"), g: nxm1, v: nxm1, dw: nxm1}), 16)),
        ]
        wa = max(lines.values()).bit_length()        # A saturates: A >= 2**wa exceeds every space
        acc_a = Signal(wa, name="check_a")
        ovf_a = Signal(name="check_a_over")
        acc_b = Signal(steps + max(len(x) for _, x in b_terms) + 1, name="check_b")
        next_a = Signal(max(wa + 1, max(len(x) for _, x in a_terms)) + 2, name="check_a_next")
        next_b = Signal(len(acc_b), name="check_b_next")
        m.d.comb += [next_a.eq((acc_a << 1) + sum(Mux(bit, x, 0) for bit, x in a_terms)),
                     next_b.eq((acc_b << 1) + sum(Mux(bit, x, 0) for bit, x in b_terms))]
        with m.If(self.restart):
            m.d.sync += [k.eq(0), acc_a.eq(0), ovf_a.eq(0), acc_b.eq(0)]
        with m.Elif(checked & (k != steps + 1)):
            m.d.sync += k.eq(k + 1)
            with m.If(k != 0):
                m.d.sync += [acc_a.eq(next_a[:wa]), ovf_a.eq(ovf_a | next_a[wa:].any()), acc_b.eq(next_b)]

        ctx.acc_a, ctx.acc_b, ctx.g, ctx.kt1, ctx.latch, ctx.ld = acc_a, acc_b, g, kt1, latch, ld
        ctx.dw = dw
        ctx.ovf_a, ctx.ready, ctx.st, ctx.v = ovf_a, ready, st, v

    def _ranges(self, ctx):
        """SCRATCHPAD_RANGE and DMA_WINDOW of every instruction."""
        m, cfg, field_of, acc_a, acc_b, dma, fault = ctx.m, ctx.cfg, ctx.field_of, ctx.acc_a, ctx.acc_b, ctx.dma, ctx.fault
        g, geo, kt1, ld, lines, op, ovf_a = ctx.g, ctx.geo, ctx.kt1, ctx.ld, ctx.lines, ctx.op, ctx.ovf_a
        dw = ctx.dw
        st, v = ctx.st, ctx.v
        # ---- bases minus their limits, latched in step 0: each range / window check is then the
        # sign of (latched base - limit) + accumulator, a carry chain with nothing after it
        func = field_of("VEC", "func")
        binary = Const(0, 1)
        for vf in VEC_FUNCS:
            if vf.binary:
                binary = binary | (func == vf.code)
        nbytes = {}
        for name in dma:
            sp = field_of(name, "sp")
            eb4 = Const(0, 1)
            for n_, s_ in enumerate(SPACE_ENUM):
                if ELEMENT_BYTES[s_] == 4:
                    eb4 = eb4 | (sp == n_)
            nbytes[name] = Mux(eb4, field_of(name, "len") << 2, field_of(name, "len"))
        end = cfg.dma_base + cfg.dma_size
        wl = max(max(lines.values()) + 1, 1 << 16).bit_length() + 1       # signed line arithmetic
        we = max(end, 1 << 32).bit_length() + 3                            # signed byte arithmetic

        def limit(name, role):
            """The limit a base is checked against, a constant selected by the word's fields."""
            if name in dma:     # box: sp_addr + n - 1 >= lines, i.e. base - (lines + 1) + n >= 0
                return _pick(field_of(name, "sp"), {n_: lines[s_] + 1 for n_, s_ in enumerate(SPACE_ENUM)})
            if name in ("GEMM", "DWCONV"):
                return Const(lines["ACT" if role == "dst" else "ACC"])
            return _pick(func, {vf.code: lines[getattr(vf, role)] for vf in VEC_FUNCS
                                if role != "src2" or vf.binary})

        def check(value, acc, name):
            """``value + acc >= 0`` for a signed ``value`` from the word, latched in step 0, and the
            accumulator ``acc`` (unsigned): only ``value``'s low ``len(acc)`` bits meet ``acc`` in
            an adder; of the rest it is enough to know whether it is >= 0 or -1."""
            w = len(acc)
            lo, pos, m1 = (Signal(w, name=f"{name}_lo"), Signal(name=f"{name}_hi_pos"),
                           Signal(name=f"{name}_hi_m1"))
            hi = value.as_signed()[w:]
            m.d.sync += [lo.eq(value[:w]), pos.eq(~hi[-1]), m1.eq(hi.all())]
            total = Signal(w + 1, name=f"{name}_sum")
            m.d.comb += total.eq(lo + acc)
            return pos | (m1 & total[-1])

        # S1: box / activation / destination base (line) - limit, + A; S3: VEC second source
        bases1 = {ld: field_of("LOAD", "sp_addr"), st: field_of("STORE", "sp_addr"), g: field_of("GEMM", "act"), v: field_of("VEC", "dst")}
        if dw is not None:
            bases1[dw] = field_of("DWCONV", "act")
        lims1 = {o: limit(BY_OPCODE[o].name, "dst") for o in bases1}
        off1 = Signal(signed(wl), name="check_off1")
        m.d.comb += off1.eq(_s(_select(op, bases1, 16), wl) - _s(_select(op, lims1, wl - 1), wl))
        off3 = Signal(signed(wl), name="check_off3")
        m.d.comb += off3.eq(_s(field_of("VEC", "src2"), wl) - _s(limit("VEC", "src2"), wl))
        # S2: DMA bytes (ext_addr + line bytes - 1 - window end) / result / source (line) - limit, + B
        bases2 = {**{opcode_of(n): field_of(n, "ext_addr") for n in dma}, g: field_of("GEMM", "acc"), v: field_of("VEC", "src")}
        if dw is not None:
            bases2[dw] = field_of("DWCONV", "acc")
        adj2 = {}
        for name in dma:
            adj2[opcode_of(name)] = Signal(signed(we), name=f"{name.lower()}_adj2")
            m.d.comb += adj2[opcode_of(name)].eq(_s(nbytes[name], we) - (1 + end))
        for o in (g, v) if dw is None else (g, v, dw):
            adj2[o] = Signal(signed(we), name=f"{BY_OPCODE[o].name.lower()}_adj2")
            m.d.comb += adj2[o].eq(-_s(limit(BY_OPCODE[o].name, "src"), we))
        off2 = Signal(signed(we), name="check_off2")
        m.d.comb += off2.eq(_s(_select(op, bases2, 32), we) + _select(op, adj2, we).as_signed())
        over1 = ovf_a | check(off1, acc_a, "check1")
        over2 = check(off2, acc_b, "check2")
        over3 = ovf_a | check(off3, acc_a, "check3")

        # ---- LOAD / STORE: box lines in the scratchpad, data bytes in the DMA window
        for name in dma:
            fault(name, "SCRATCHPAD_RANGE", (acc_a != 0) | ovf_a, late=over1)
        for name in dma:
            _, _, ok_pad = geo[name]
            data = ok_pad & (field_of(name, "len") != 0)
            fault(name, "DMA_WINDOW", data & ~_at_least(field_of(name, "ext_addr"), cfg.dma_base))
            fault(name, "DMA_WINDOW", data, late=over2)
        # RDPERF: ext_addr + 8 * N_COUNTERS - 1 >= end, a comparison of ext_addr with a constant
        rd = field_of("RDPERF", "ext_addr")
        fault("RDPERF", "DMA_WINDOW", ~_at_least(rd, cfg.dma_base) | _above(rd, end - 8 * N_COUNTERS))

        # ---- GEMM / VEC: strided line ranges
        ne = {n: (field_of(n, "nx") != 0) & (field_of(n, "ny") != 0) for n in ("GEMM", "VEC")}
        fault("GEMM", "SCRATCHPAD_RANGE", ne["GEMM"], late=over1)
        fault("GEMM", "SCRATCHPAD_RANGE", ne["GEMM"], late=over2)
        rows_c = cfg.rows
        wgt_end = field_of("GEMM", "wgt") + sum((kt1 << s_) for s_ in range(rows_c.bit_length()) if rows_c >> s_ & 1)
        fault("GEMM", "SCRATCHPAD_RANGE", field_of("GEMM", "preload") & _above(wgt_end, lines["WGT"]))
        if dw is not None:
            fault("DWCONV", "SCRATCHPAD_RANGE", Const(1, 1), late=over1)     # (the window is never empty)
            fault("DWCONV", "SCRATCHPAD_RANGE", Const(1, 1), late=over2)
            fault("DWCONV", "SCRATCHPAD_RANGE", _above(field_of("DWCONV", "wgt"), lines["WGT"] - rows_c))
        param = Const(0, 1)
        for vf in VEC_FUNCS:
            p = vf.param_lines(cfg.cols) if vf.params else 0
            if p:                                  # param + p - 1 >= lines: a constant comparison
                param = param | ((func == vf.code) & _above(field_of("VEC", "param"), lines["VEC"] - p))
        fault("VEC", "SCRATCHPAD_RANGE", param)
        fault("VEC", "SCRATCHPAD_RANGE", ne["VEC"], late=over1)
        fault("VEC", "SCRATCHPAD_RANGE", ne["VEC"], late=over2)
        fault("VEC", "SCRATCHPAD_RANGE", ne["VEC"] & binary, late=over3)


    def _outputs(self, ctx):
        """The fault code in priority order, the queue and the fetch cycles."""
        m, field_of, conds, is_, latch, lates = ctx.m, ctx.field_of, ctx.conds, ctx.is_, ctx.latch, ctx.lates
        order, ready = ctx.order, ctx.ready
        # ---- priority over the codes, in the order every instruction checks them
        codes = ["ILLEGAL_OPCODE", "ILLEGAL_FIELD", "SCRATCHPAD_RANGE", "DMA_WINDOW"]
        assert {c for c, _ in conds} <= set(codes)
        for name, seq in order.items():
            assert [codes.index(c) for c in seq] == sorted(codes.index(c) for c in seq), (name, seq)
        code = Const(0, 3)
        for c in reversed(codes):
            hit = Signal(name=f"fault_{c.lower()}")
            r = Cat(*conds.get((c, False), [Const(0, 1)])).any()
            if (c, True) in conds:
                r = r | latch(Cat(*conds[(c, True)]).any(), f"static_{c.lower()}")
            for sig, enables in lates.get(c, {}).values():     # the range sums arrive last
                r = r | (sig & Cat(*enables).any())
            m.d.comb += hit.eq(r)
            code = Mux(hit, fault_code(c), code)
        # the verdict waits one cycle in registers (the table's FETCH_CYCLES count it): the fetch
        # unit's control (halts, the queue push, ``restart`` back into the checks) starts at flip-flops
        ready_q = Signal(name="verdict_ready")
        fault_q = Signal(3, name="verdict_fault")
        m.d.sync += [ready_q.eq(ready & ~self.restart), fault_q.eq(Mux(ready, code, 0))]
        m.d.comb += [self.fault.eq(Mux(ready_q, fault_q, 0)), self.ready.eq(ready_q)]

        queue = Const(CONTROL_QUEUE, QUEUE_BITS)
        for ins in INSTRUCTIONS:
            q = field_of("NOP", "queue") if ins.name == "NOP" else QUEUE_CODE.get(ins.queue, CONTROL_QUEUE)
            queue = Mux(is_[ins.name], q, queue)
        cycles = Const(1, len(self.fetch_cycles))
        for ins in INSTRUCTIONS:
            if ins.fetch_cycles != 1:
                cycles = Mux(is_[ins.name], ins.fetch_cycles, cycles)
        m.d.comb += [self.queue.eq(queue), self.is_finish.eq(is_["FINISH"]), self.fetch_cycles.eq(cycles)]


def _lt(v, small):
    """Unsigned ``v < small`` where ``small`` is narrow: ``v``'s high bits must be 0."""
    n = len(small)
    return ~v[n:].any() & (v[:n] < small) if len(v) > n else v < small


def _s(v, width: int):
    """Unsigned ``v`` as a ``width``-bit signed value (zero-extended)."""
    v = v if isinstance(v, Value) else Const(v)
    return Cat(v, Const(0, width - len(v))).as_signed()


def _pick(sel, consts: dict):
    """The constant ``consts[sel]`` (any of them for another ``sel``: a don't-care)."""
    items = list(consts.items())
    r = Const(items[-1][1])
    for key, c in reversed(items[:-1]):
        r = Mux(sel == key, c, r)
    return r
