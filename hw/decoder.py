"""Instruction decoder, generated from the ISA table (``nnaccel.isa.table``).

Every opcode, field position, reserved-bit mask, enum range, queue assignment and vector-function
code below is read from the table (:func:`nnaccel.isa.table.field_layout`, ``VEC_FUNCS``,
``FAULTS``); nothing is retyped. :class:`Decoder` is combinational: it classifies one 128-bit word
and decides every fault the ISA defines at fetch (``docs/isa.md``: "every fault is decided from the
instruction's fields and the configuration alone"), in the ISA simulator's order of checks, so the
first fault found is the same one.
"""

from __future__ import annotations

from amaranth.hdl import Const, Module, Mux, Signal, unsigned
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

from nnaccel.hwconfig import ELEMENT_BYTES, HwConfig
from nnaccel.isa.table import (
    FAULT_BY_NAME,
    FLAG_CHANNEL,
    FLAG_NAMES,
    INSTRUCTIONS,
    N_COUNTERS,
    QUEUES,
    SPACE_ENUM,
    VEC_FUNCS,
    WIDTH,
    field_layout,
)

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


def _span(base, nx, ny, xs, ys):
    """(non-empty, highest line) of a 2-D strided iteration."""
    return (nx != 0) & (ny != 0), base + (ny - 1) * ys + (nx - 1) * xs


def _first(m, items):
    """(any condition, code of the first true one) as a balanced tree: log-depth logic instead of
    one long priority chain."""
    if len(items) == 1:
        cond, code = items[0]
        c = Signal(name="fault_cond")
        m.d.comb += c.eq(cond)
        return c, Mux(c, code, 0)
    half = len(items) // 2
    la, lc = _first(m, items[:half])
    ra, rc = _first(m, items[half:])
    anyc = Signal(name="fault_any")
    code = Signal(3, name="fault_code")
    m.d.comb += [anyc.eq(la | ra), code.eq(Mux(la, lc, rc))]
    return anyc, code


class Decoder(wiring.Component):
    """Classifies ``word``: ``queue`` (:data:`QUEUE_CODE`: the table's queues in order, then
    :data:`CONTROL_QUEUE` for FINISH), ``is_finish``, and
    ``fault`` (0 = legal; else the table's fault code: ILLEGAL_OPCODE, ILLEGAL_FIELD,
    SCRATCHPAD_RANGE, DMA_WINDOW)."""

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
        faults = []  # (condition, code) in priority order; the first true one wins

        known = Const(0, 1)
        for ins in INSTRUCTIONS:
            known = known | (op == ins.opcode)
        faults.append((~known, fault_code("ILLEGAL_OPCODE")))

        illegal = fault_code("ILLEGAL_FIELD")
        srange = fault_code("SCRATCHPAD_RANGE")
        window = fault_code("DMA_WINDOW")
        lines = {s: cfg.lines(s) for s in SPACE_ENUM}
        end = cfg.dma_base + cfg.dma_size

        def out_of_window(lo, hi):
            return (lo < cfg.dma_base) | (hi >= end)

        def space_lines(sp):
            r = Const(lines[SPACE_ENUM[-1]], 20)
            for k in range(len(SPACE_ENUM) - 1, -1, -1):
                r = Mux(sp == k, lines[SPACE_ENUM[k]], r)
            return r

        for ins in INSTRUCTIONS:
            name = ins.name
            this = op == ins.opcode
            info = LAYOUT[name]
            # reserved bits, enum ranges, undefined vector functions, flags for the queue
            faults.append((this & ((w & info["reserved_mask"]) != 0), illegal))
            for f in ins.fields:
                if f.enum is not None and len(f.enum) < (1 << f.width):
                    faults.append((this & (field(w, name, f.name) >= len(f.enum)), illegal))
            if name == "VEC":
                ok = Const(0, 1)
                for vf in VEC_FUNCS:
                    ok = ok | (field(w, name, "func") == vf.code)
                faults.append((this & ~ok, illegal))
            if name == "GEMM":    # more K tiles than one need the weights preloaded
                faults.append((this & (field(w, name, "kt") != 0) & ~field(w, name, "preload"), illegal))
            # dependency flags: only those with a token channel for the executing queue
            if name == "NOP":
                qf = field(w, name, "queue")
                queues = [(qf == QUEUE_CODE[q], q) for q in QUEUES]
            else:
                queues = [(Const(1, 1), ins.queue)]
            bad = Const(0, 1)
            for sel, q in queues:
                for fl in FLAG_NAMES:
                    if (q, fl) not in FLAG_CHANNEL:
                        bad = bad | (sel & field(w, name, fl))
            faults.append((this & bad, illegal))
            # configuration-dependent checks
            F = {f.name: field(w, name, f.name) for f in ins.fields}
            if name in ("LOAD", "STORE"):
                load = name == "LOAD"
                faults.append((this & (F["len"] > cfg.line_elems), illegal))
                if load:
                    faults.append((this & ((F["pad_top"] + F["pad_bottom"] > F["y_size"]) |
                                           (F["pad_left"] + F["pad_right"] > F["x_size"])), illegal))
                n = Signal(17, name=f"{name.lower()}_box_lines")
                m.d.comb += n.eq(F["x_size"] * F["y_size"])
                faults.append((this & (n != 0) & ((F["sp_addr"] + n - 1) >= space_lines(F["sp"])), srange))
                if load:
                    rows = F["y_size"] - F["pad_top"] - F["pad_bottom"]
                    cols = F["x_size"] - F["pad_left"] - F["pad_right"]
                else:
                    rows, cols = F["y_size"], F["x_size"]
                eb4 = Const(0, 1)
                for k, s in enumerate(SPACE_ENUM):
                    if ELEMENT_BYTES[s] == 4:
                        eb4 = eb4 | (F["sp"] == k)
                nbytes = Mux(eb4, F["len"] << 2, F["len"])
                hi = Signal(unsigned(42), name=f"{name.lower()}_hi")
                m.d.comb += hi.eq(F["ext_addr"] + (rows - 1) * F["y_stride"] + (cols - 1) * F["x_stride"]
                                  + nbytes - 1)
                nonempty = (rows > 0) & (cols > 0) & (F["len"] != 0)
                if load:  # rows / cols are differences of unsigned fields: guard the sign
                    nonempty = nonempty & (F["pad_top"] + F["pad_bottom"] < F["y_size"]) & \
                        (F["pad_left"] + F["pad_right"] < F["x_size"])
                faults.append((this & nonempty & out_of_window(F["ext_addr"], hi), window))
            elif name == "GEMM":
                tiles = F["kt"] + 1
                # the activation rows of all K tiles: ny * (kt + 1) rows of the ACT iteration
                ne, hi = _span(F["act"], F["nx"], F["ny"] * tiles, F["act_xs"], F["act_ys"])
                faults.append((this & ne & (hi >= lines["ACT"]), srange))
                ne, hi = _span(F["acc"], F["nx"], F["ny"], F["acc_xs"], F["acc_ys"])
                faults.append((this & ne & (hi >= lines["ACC"]), srange))
                faults.append((this & F["preload"] & (F["wgt"] + tiles * cfg.rows - 1 >= lines["WGT"]), srange))
            elif name == "VEC":
                func = F["func"]
                for vf in VEC_FUNCS:
                    sel = this & (func == vf.code)
                    ne, hi = _span(F["dst"], F["nx"], F["ny"], F["dst_xs"], F["dst_ys"])
                    faults.append((sel & ne & (hi >= lines[vf.dst]), srange))
                    ne, hi = _span(F["src"], F["nx"], F["ny"], F["src_xs"], F["src_ys"])
                    faults.append((sel & ne & (hi >= lines[vf.src]), srange))
                    if vf.binary:
                        ne, hi = _span(F["src2"], F["nx"], F["ny"], F["dst_xs"], F["dst_ys"])
                        faults.append((sel & ne & (hi >= lines[vf.src2]), srange))
                    p = vf.param_lines(cfg.cols) if vf.params else 0
                    if p:
                        faults.append((sel & (F["param"] + p - 1 >= lines["VEC"]), srange))
            elif name == "RDPERF":
                faults.append((this & out_of_window(F["ext_addr"], F["ext_addr"] + 8 * N_COUNTERS - 1), window))

        m.d.comb += self.fault.eq(_first(m, faults)[1])

        queue = Const(CONTROL_QUEUE, QUEUE_BITS)
        for ins in INSTRUCTIONS:
            if ins.name == "NOP":
                q = field(w, "NOP", "queue")
            else:
                q = QUEUE_CODE.get(ins.queue, CONTROL_QUEUE)
            queue = Mux(op == ins.opcode, q, queue)
        m.d.comb += [self.queue.eq(queue), self.is_finish.eq(op == opcode_of("FINISH"))]
        return m
