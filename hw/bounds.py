"""Widths the accelerator's registers need, from the ISA table and its formulas
(:mod:`nnaccel.isa.cycles`): the instruction bits a queue entry keeps, the longest instruction of
a queue, the largest counter event of an instruction; and the constants the blocks share."""

from __future__ import annotations

from types import SimpleNamespace

from nnaccel.isa.cycles import instruction_cycles, static_events
from nnaccel.isa.table import (
    BY_NAME,
    COUNTER_BY_NAME,
    FLAG_CHANNEL,
    INSTRUCTIONS,
    SPACE_ENUM,
    VEC_FUNCS,
    field_layout,
)

ENTRY_PC = 24
CNT = {c: COUNTER_BY_NAME[c].id for c in COUNTER_BY_NAME}
SP = {s: k for k, s in enumerate(SPACE_ENUM)}
LAYOUT = field_layout()



def _ceil(a, b):
    return -(-a // b)


def _bits(n: int) -> int:
    """Bits of an unsigned value up to ``n``."""
    return max(1, int(n).bit_length())


# ---------------------------------------------------------------- queue entries and bounds
# The scratchpad space(s) each line-address field addresses (VEC: per function, from the table).
_LINE_SPACES = {
    ("LOAD", "sp_addr"): SPACE_ENUM, ("STORE", "sp_addr"): SPACE_ENUM,
    ("GEMM", "act"): ("ACT",), ("GEMM", "acc"): ("ACC",), ("GEMM", "wgt"): ("WGT",),
    ("DWCONV", "act"): ("ACT",), ("DWCONV", "acc"): ("ACC",), ("DWCONV", "wgt"): ("WGT",),
    ("VEC", "dst"): tuple({vf.dst for vf in VEC_FUNCS}), ("VEC", "src"): tuple({vf.src for vf in VEC_FUNCS}),
    ("VEC", "src2"): tuple({vf.src2 for vf in VEC_FUNCS if vf.binary}), ("VEC", "param"): ("VEC",),
}


def ext_bits(cfg) -> int:
    """Bits of an external address inside the DMA window (every byte a DMA touches lies in it)."""
    return min(32, _bits(cfg.dma_base + cfg.dma_size - 1))


def _kept_width(cfg, ins: str, f) -> int:
    """Bits of field ``f`` of ``ins`` an engine needs: the decoder's fetch-time checks bound line
    addresses (SCRATCHPAD_RANGE), external addresses (DMA_WINDOW) and ``len`` (ILLEGAL_FIELD)
    whenever the instruction uses them, so higher bits are zero then."""
    if f.name == "len":
        return min(f.width, _bits(cfg.line_elems))
    if f.name == "ext_addr":
        return min(f.width, ext_bits(cfg))
    spaces = _LINE_SPACES.get((ins, f.name))
    if spaces:
        return min(f.width, max(_bits(cfg.lines(s) - 1) for s in spaces))
    return f.width


def queue_entry(cfg, queue: str):
    """``(opcodes, bits)``: the opcodes a queue's entries hold (its instructions, then NOP) and the
    instruction bits an entry keeps (the queue's legal flags and the fields its instructions use)."""
    kinds = [i for i in INSTRUCTIONS if i.queue == queue]
    opcodes = [i.opcode for i in kinds] + [BY_NAME["NOP"].opcode]
    bits = set()
    for (q, flag) in FLAG_CHANNEL:
        if q == queue:
            lo, w = LAYOUT["NOP"]["fields"][flag]
            bits.update(range(lo, lo + w))
    for ins in kinds:
        for f in ins.fields:
            bits.update(range(f.lo, f.lo + _kept_width(cfg, ins.name, f)))
    return opcodes, sorted(bits)


def _stand_ins(cfg, ins):
    """Decoded-instruction stand-ins with every field at its largest value that the decoder lets
    through (``len`` at most a line, no padding), for each scratchpad / vector function / preload."""
    base = {f.name: f.max for f in ins.all_fields}
    base.update(name=ins.name, queue=ins.queue)
    if "len" in base:
        base["len"] = cfg.line_elems
    for pad in ("pad_top", "pad_bottom", "pad_left", "pad_right"):
        if pad in base:
            base[pad] = 0
    variants = [{}]
    if "sp" in base:
        variants = [{"sp": k} for k in range(len(SPACE_ENUM))]
    if "func" in base:
        variants = [{"func": vf.code} for vf in VEC_FUNCS]
    if "preload" in base:
        variants = [{"preload": 0, "kt": 0}, {"preload": 1}]
    for v in variants:
        yield SimpleNamespace(**{**base, **v})


def max_over(cfg, names, fn) -> int:
    """The largest ``fn(stand_in, cfg)`` over the instructions ``names`` (the ISA formulas of :mod:`nnaccel.isa.cycles`)."""
    return max([0] + [fn(d, cfg) for n in names for d in _stand_ins(cfg, BY_NAME[n])])


def max_cycles(cfg, queue: str) -> int:
    """The most cycles one instruction of ``queue`` can take (:func:`~nnaccel.isa.cycles.instruction_cycles`)."""
    return max_over(cfg, [i.name for i in INSTRUCTIONS if i.queue in (queue, "control")], instruction_cycles)


def max_event(cfg, names, counter: str) -> int:
    """The largest contribution of one instruction of ``names`` to ``counter``."""
    return max_over(cfg, names, lambda d, c: static_events(d, c).get(counter, 0))

