"""Instruction decoder, generated from the ISA table (``nnaccel.isa.table``).

Every opcode, field position, reserved-bit mask, enum range, queue assignment, legal dependency
flag and vector-function code below is read from the table (:func:`nnaccel.isa.table.field_layout`,
``FLAG_CHANNEL``, ``VEC_FUNCS``, ``FAULTS``); nothing is retyped. :class:`Decoder` is
combinational: it classifies one 128-bit word and decides every fault the ISA defines at fetch
(``docs/isa.md``: "every fault is decided from the instruction's fields and the configuration
alone") in the ISA simulator's order of checks, so the first fault found is the same one.

Area: only one instruction is decoded per cycle, so the range and window checks of the different
instruction kinds share their arithmetic. Every product the checks need is an 8-bit (or, for the
GEMM activation rows ``ny * (kt + 1) - 1``, 12-bit) count times an 8-bit stride byte; a 16-bit DMA
stride is two such products. :data:`SLOTS` multipliers serve every kind (the operands are
multiplexed by opcode), built from shifted partial products so that no ``$mul`` cell takes one of
the DSPs the systolic array needs. Comparisons against the scratchpad sizes are comparisons with
constants, selected by the space the operand names.
"""

from __future__ import annotations

from amaranth.hdl import Cat, Const, Module, Mux, Signal, signed
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

from nnaccel.hwconfig import ELEMENT_BYTES, HwConfig
from nnaccel.isa.table import (
    BY_NAME,
    FAULT_BY_NAME,
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

__all__ = ["CONTROL_QUEUE", "QUEUE_BITS", "QUEUE_CODE", "SLOTS", "Decoder", "fault_code", "field",
           "opcode_of"]

LAYOUT = field_layout()
#: Queue numbers used in hardware: the table's QUEUES order; ``len(QUEUES)`` = control (FINISH).
QUEUE_CODE = {q: n for n, q in enumerate(QUEUES)}
CONTROL_QUEUE = len(QUEUES)
#: Width of the ``queue`` port (the engine queues and control).
QUEUE_BITS = CONTROL_QUEUE.bit_length()
#: Shared multipliers of the range / window checks (see the module docstring).
SLOTS = 5
#: Bits of a stride operand of one shared multiplier (wider strides use several).
STRIDE_CHUNK = 8


def field(word, ins: str, name: str):
    """The bits of field ``name`` of instruction ``ins`` in ``word`` (position from the table)."""
    lo, width = LAYOUT[ins]["fields"][name]
    return word[lo:lo + width]


def opcode_of(ins: str) -> int:
    return LAYOUT[ins]["opcode"]


def fault_code(name: str) -> int:
    return FAULT_BY_NAME[name].code


def _mul(m, a, b, name: str):
    """Unsigned ``a * b`` as a balanced sum of shifted partial products (no ``$mul`` cell, so no
    DSP: on the target devices every DSP belongs to the systolic array)."""
    terms = [Mux(b[k], a, 0) << k for k in range(len(b))]
    while len(terms) > 1:
        nxt = [terms[i] + terms[i + 1] for i in range(0, len(terms) - 1, 2)]
        if len(terms) % 2:
            nxt.append(terms[-1])
        terms = nxt
    out = Signal(len(a) + len(b), name=name)
    m.d.comb += out.eq(terms[0])
    return out


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


def _ge(v, c: int):
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


def _gt(v, c: int):
    """Unsigned ``v > c`` for a constant ``c`` (see :func:`_ge`)."""
    return _ge(v, c + 1)


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


def _chunks(v, n: int):
    """``v`` as ``n`` chunks of :data:`STRIDE_CHUNK` bits, low first (zero-extended)."""
    v = v if len(v) >= n * STRIDE_CHUNK else Cat(v, Const(0, n * STRIDE_CHUNK - len(v)))
    return [v[i * STRIDE_CHUNK:(i + 1) * STRIDE_CHUNK] for i in range(n)]


class Decoder(wiring.Component):
    """Classifies ``word``: ``queue`` (:data:`QUEUE_CODE`: the table's queues in order, then
    :data:`CONTROL_QUEUE` for FINISH), ``is_finish``, and ``fault`` (0 = legal; else the table's
    fault code: ILLEGAL_OPCODE, ILLEGAL_FIELD, SCRATCHPAD_RANGE, DMA_WINDOW)."""

    def __init__(self, cfg: HwConfig):
        self.cfg = cfg
        super().__init__({
            "word": In(WIDTH),
            "queue": Out(QUEUE_BITS),
            "is_finish": Out(1),
            "fault": Out(3),
        })

    def elaborate(self, platform):
        m = Module()
        cfg = self.cfg
        w = self.word
        op = w[0:4]
        is_ = {ins.name: Signal(name=f"is_{ins.name.lower()}") for ins in INSTRUCTIONS}
        for ins in INSTRUCTIONS:
            m.d.comb += is_[ins.name].eq(op == ins.opcode)
        lines = {s: cfg.lines(s) for s in SPACE_ENUM}

        def F(ins, name):
            return field(w, ins, name)

        # Faults by code: per code the OR of its conditions (each gated by its opcode). Within one
        # instruction the ISA simulator checks ILLEGAL_FIELD before SCRATCHPAD_RANGE before
        # DMA_WINDOW (asserted below), and only one opcode matches, so a priority over the codes
        # gives the simulator's first fault.
        conds: dict[str, list] = {}
        order: dict[str, list[str]] = {}

        def fault(ins: str, code: str, cond):
            conds.setdefault(code, []).append(is_[ins] & cond if ins else cond)
            if ins:
                order.setdefault(ins, []).append(code)

        known = Const(0, 1)
        for ins in INSTRUCTIONS:
            known = known | is_[ins.name]
        fault(None, "ILLEGAL_OPCODE", ~known)

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
                    fault(name, "ILLEGAL_FIELD", _ge(F(name, f.name), len(f.enum)))
            if name == "VEC":
                ok = Const(0, 1)
                for vf in VEC_FUNCS:
                    ok = ok | (F(name, "func") == vf.code)
                fault(name, "ILLEGAL_FIELD", ~ok)
            if name == "GEMM":    # more K tiles than one need the weights preloaded
                fault(name, "ILLEGAL_FIELD", (F(name, "kt") != 0) & ~F(name, "preload"))
            if name == "NOP":
                qf = F(name, "queue")
                queues = [(qf == QUEUE_CODE[q], q) for q in QUEUES]
            else:
                queues = [(Const(1, 1), ins.queue)]
            bad = Const(0, 1)
            for sel, q in queues:
                for fl in FLAG_NAMES:
                    if (q, fl) not in FLAG_CHANNEL:
                        bad = bad | (sel & F(name, fl))
            fault(name, "ILLEGAL_FIELD", bad)

        # ---- shared multipliers: per slot, (count, stride) operands for every kind that uses it
        dma = ("LOAD", "STORE")
        pads = ("pad_top", "pad_bottom", "pad_left", "pad_right")
        geo = {}    # per DMA instruction: rows - 1, cols - 1 (padding removed), both rows / cols > 0
        for name in dma:
            fault(name, "ILLEGAL_FIELD", _gt(F(name, "len"), cfg.line_elems))
            fm = BY_NAME[name].field_map
            if "pad_top" in fm:
                ys, xs = F(name, "y_size"), F(name, "x_size")
                # d = size - (pad + pad) - 1, signed: data rows - 1 when >= 0; -1: no data rows;
                # below -1: more padding than the box (ILLEGAL_FIELD)
                dy, dx = Signal(signed(len(ys) + 2), name="load_dy"), Signal(signed(len(xs) + 2), name="load_dx")
                m.d.comb += [dy.eq(ys - (F(name, pads[0]) + F(name, pads[1])) - 1),
                             dx.eq(xs - (F(name, pads[2]) + F(name, pads[3])) - 1)]
                fault(name, "ILLEGAL_FIELD", (dy[-1] & ~dy[:-1].all()) | (dx[-1] & ~dx[:-1].all()))
                geo[name] = (dy[:len(ys)], dx[:len(xs)], ~dy[-1] & ~dx[-1])
            else:
                other = [n for n in dma if n != name and "pad_top" in BY_NAME[n].field_map]
                if other and _borrows(name, other[0], pads):
                    # the padding fields are reserved bits here: a legal word has them 0, so the
                    # padded instruction's geometry (the same wires) is this one's
                    geo[name] = geo[other[0]]
                    continue
                ys, xs = F(name, "y_size"), F(name, "x_size")
                rm1, cm1 = Signal(len(ys), name=f"{name.lower()}_rows_m1"), Signal(len(xs), name=f"{name.lower()}_cols_m1")
                m.d.comb += [rm1.eq(ys - 1), cm1.eq(xs - 1)]
                geo[name] = (rm1, cm1, (ys != 0) & (xs != 0))

        ops: list[dict] = [{} for _ in range(SLOTS)]   # slot -> {opcode: (count, stride)}
        for name in dma:
            rm1, cm1, _ = geo[name]
            ylo, yhi = _chunks(F(name, "y_stride"), 2)
            xlo, xhi = _chunks(F(name, "x_stride"), 2)
            # y stride bytes in the slots whose GEMM / VEC stride operand is the same word bits
            # (act_ys / dst_ys, act_xs / dst_xs): those operands then need no multiplexer
            ops[0][opcode_of(name)] = (rm1, yhi)
            ops[1][opcode_of(name)] = (rm1, ylo)
            ops[2][opcode_of(name)] = (cm1, xlo)
            ops[3][opcode_of(name)] = (cm1, xhi)
            ops[4][opcode_of(name)] = (F(name, "x_size"), F(name, "y_size"))
        # GEMM: slot 4 makes the activation rows ny * (kt + 1) first, slot 0 takes them
        kt1 = Signal(len(F("GEMM", "kt")) + 1, name="gemm_tiles")
        m.d.comb += kt1.eq(F("GEMM", "kt") + 1)
        ops[4][opcode_of("GEMM")] = (F("GEMM", "ny"), kt1)
        # (slot 0's GEMM operand is filled in after slot 4 exists)
        ops[1][opcode_of("GEMM")] = ((F("GEMM", "nx") - 1)[:8], F("GEMM", "act_xs"))
        ops[2][opcode_of("GEMM")] = ((F("GEMM", "nx") - 1)[:8], F("GEMM", "acc_xs"))
        ops[3][opcode_of("GEMM")] = ((F("GEMM", "ny") - 1)[:8], F("GEMM", "acc_ys"))
        ops[0][opcode_of("VEC")] = ((F("VEC", "ny") - 1)[:8], F("VEC", "dst_ys"))
        ops[1][opcode_of("VEC")] = ((F("VEC", "nx") - 1)[:8], F("VEC", "dst_xs"))
        ops[2][opcode_of("VEC")] = ((F("VEC", "nx") - 1)[:8], F("VEC", "src_xs"))
        ops[3][opcode_of("VEC")] = ((F("VEC", "ny") - 1)[:8], F("VEC", "src_ys"))

        prod = [None] * SLOTS

        def build(k):
            awidth = max(len(a) for a, _ in ops[k].values())
            bwidth = max(len(b) for _, b in ops[k].values())
            a = Signal(awidth, name=f"mul{k}_a")
            b = Signal(bwidth, name=f"mul{k}_b")
            m.d.comb += [a.eq(_select(op, {o: x for o, (x, _) in ops[k].items()}, awidth)),
                         b.eq(_select(op, {o: y for o, (_, y) in ops[k].items()}, bwidth))]
            prod[k] = _mul(m, a, b, f"mul{k}")

        build(4)
        gemm_rows = Signal(len(prod[4]), name="gemm_act_rows")
        m.d.comb += gemm_rows.eq(prod[4] - 1)          # ny * (kt + 1) - 1 (ny = 0: no check)
        ny_max = BY_NAME["GEMM"].field_map["ny"].max
        ops[0][opcode_of("GEMM")] = (gemm_rows[:(ny_max * MAX_KTILES - 1).bit_length()], F("GEMM", "act_ys"))
        for k in range(4):
            build(k)

        # ---- LOAD / STORE: box lines in the scratchpad, data bytes in the DMA window
        for name in dma:
            sp = F(name, "sp")
            box = Signal(17, name=f"{name.lower()}_box_end")
            m.d.comb += box.eq(F(name, "sp_addr") + prod[4])       # one past the last box line
            fault(name, "SCRATCHPAD_RANGE", (prod[4] != 0) & _over_end(box, sp, lines))
        # window: hi = ext_addr + y offset + x offset + bytes - 1 (RDPERF: its counter block)
        step = STRIDE_CHUNK
        off_y = Signal(8 + 2 * step, name="dma_off_y")
        off_x = Signal(8 + 2 * step, name="dma_off_x")
        m.d.comb += [off_y.eq((prod[0] << step) + prod[1]), off_x.eq(prod[2] + (prod[3] << step))]
        nbytes = {}
        for name in dma:
            sp = F(name, "sp")
            eb4 = Const(0, 1)
            for k, s in enumerate(SPACE_ENUM):
                if ELEMENT_BYTES[s] == 4:
                    eb4 = eb4 | (sp == k)
            nbytes[name] = Mux(eb4, F(name, "len") << 2, F(name, "len"))
        tail = Signal(8 + 2 * step + 2, name="dma_tail")      # hi - ext_addr
        m.d.comb += tail.eq(_select(op, {**{opcode_of(n): off_y + off_x + nbytes[n] - 1 for n in dma},
                                         opcode_of("RDPERF"): 8 * N_COUNTERS - 1}, len(tail)))
        ext = _select(op, {opcode_of(n): F(n, "ext_addr") for n in (*dma, "RDPERF")}, 32)
        hi = Signal(34, name="dma_hi")
        m.d.comb += hi.eq(ext + tail)
        outside = ~_ge(ext, cfg.dma_base) | _ge(hi, cfg.dma_base + cfg.dma_size)
        for name in dma:
            _, _, ok_pad = geo[name]
            fault(name, "DMA_WINDOW", ok_pad & (F(name, "len") != 0) & outside)
        fault("RDPERF", "DMA_WINDOW", outside)

        # ---- GEMM / VEC: strided line ranges; slot 0 + 1 = first operand, 2 + 3 = second
        off1 = Signal(max(len(prod[0]), len(prod[1])) + 1, name="span_off1")
        off2 = Signal(max(len(prod[2]), len(prod[3])) + 1, name="span_off2")
        m.d.comb += [off1.eq(prod[0] + prod[1]), off2.eq(prod[2] + prod[3])]
        g, v = opcode_of("GEMM"), opcode_of("VEC")
        hi1 = Signal(len(off1) + 1, name="span_hi1")
        hi2 = Signal(len(off2) + 1, name="span_hi2")
        m.d.comb += [hi1.eq(_select(op, {g: F("GEMM", "act"), v: F("VEC", "dst")}, 16) + off1),
                     hi2.eq(_select(op, {g: F("GEMM", "acc"), v: F("VEC", "src")}, 16) + off2)]
        ne = {n: (F(n, "nx") != 0) & (F(n, "ny") != 0) for n in ("GEMM", "VEC")}
        fault("GEMM", "SCRATCHPAD_RANGE", ne["GEMM"] & (_ge(hi1, lines["ACT"]) | _ge(hi2, lines["ACC"])))
        rows_c = cfg.rows
        wgt_end = F("GEMM", "wgt") + sum((kt1 << s) for s in range(rows_c.bit_length()) if rows_c >> s & 1)
        fault("GEMM", "SCRATCHPAD_RANGE", F("GEMM", "preload") & _gt(wgt_end, lines["WGT"]))
        func = F("VEC", "func")
        hi3 = Signal(len(hi1), name="vec_src2_hi")
        m.d.comb += hi3.eq(F("VEC", "src2") + off1)
        bad = Const(0, 1)
        for vf in VEC_FUNCS:
            sel = func == vf.code
            c = ne["VEC"] & (_ge(hi1, lines[vf.dst]) | _ge(hi2, lines[vf.src]))
            if vf.binary:
                c = c | (ne["VEC"] & _ge(hi3, lines[vf.src2]))
            p = vf.param_lines(cfg.cols) if vf.params else 0
            if p:                                  # param + p - 1 >= lines: a constant comparison
                c = c | _gt(F("VEC", "param"), lines["VEC"] - p)
            bad = bad | (sel & c)
        fault("VEC", "SCRATCHPAD_RANGE", bad)

        # ---- priority over the codes, in the order every instruction checks them
        codes = ["ILLEGAL_OPCODE", "ILLEGAL_FIELD", "SCRATCHPAD_RANGE", "DMA_WINDOW"]
        assert set(conds) <= set(codes)
        for name, seq in order.items():
            assert [codes.index(c) for c in seq] == sorted(codes.index(c) for c in seq), (name, seq)
        code = Const(0, 3)
        for c in reversed(codes):
            hit = Signal(name=f"fault_{c.lower()}")
            m.d.comb += hit.eq(Cat(*conds[c]).any())
            code = Mux(hit, fault_code(c), code)
        m.d.comb += self.fault.eq(code)

        queue = Const(CONTROL_QUEUE, QUEUE_BITS)
        for ins in INSTRUCTIONS:
            q = F("NOP", "queue") if ins.name == "NOP" else QUEUE_CODE.get(ins.queue, CONTROL_QUEUE)
            queue = Mux(is_[ins.name], q, queue)
        m.d.comb += [self.queue.eq(queue), self.is_finish.eq(is_["FINISH"])]
        return m


def _over_end(end, sp, lines: dict):
    """``end > lines`` of the space ``sp`` selects (one comparison with a constant per space)."""
    r = Const(0, 1)
    for k, s in enumerate(SPACE_ENUM):
        r = r | ((sp == k) & _gt(end, lines[s]))
    return r
