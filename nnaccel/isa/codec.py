"""Encoder, decoder, assembler and disassembler, all driven by :mod:`nnaccel.isa.table`.

Assembly text: one instruction per line, ``NAME field=value ...`` (values in any Python integer
base, enum fields by name, a 1-bit field alone means ``=1``), ``#`` or ``;`` starts a comment.
Omitted fields are 0. The disassembler prints every field except zero dependency flags.
Binary: 16 little-endian bytes per instruction.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import InputError, NnaccelError
from .table import (
    BY_NAME,
    BY_OPCODE,
    FAULT_BY_NAME,
    FLAG_CHANNEL,
    FLAG_NAMES,
    HEADER,
    QUEUES,
    VEC_BY_CODE,
    WIDTH,
    WIDTH_BYTES,
    Instr,
)


class AssemblyError(InputError):
    """Assembly text or a binary program that cannot be turned into instructions."""


class AcceleratorFault(NnaccelError):
    """The accelerator stopped with a fault: ``fault`` (name), ``code``, ``pc`` (instruction index)
    and ``cycle`` (when it was detected, or ``None`` where no cycle applies)."""

    def __init__(self, fault: str, pc: int, message: str, cycle: int | None = None):
        self.fault = fault
        self.code = FAULT_BY_NAME[fault].code
        self.pc = pc
        self.cycle = cycle
        super().__init__(f"Fault {fault} (code {self.code}) at instruction {pc}: {message}")


@dataclass(frozen=True)
class Decoded:
    """A decoded instruction: its table entry and its field values (header flags included)."""

    instr: Instr
    fields: dict

    def __getattr__(self, name):
        try:
            return self.fields[name]
        except KeyError:
            raise AttributeError(name) from None

    @property
    def name(self) -> str:
        return self.instr.name

    @property
    def queue(self) -> str:
        """The queue that executes the instruction (NOP: its ``queue`` field; FINISH: control)."""
        if self.instr.name == "NOP":
            return QUEUES[self.fields["queue"]]
        return self.instr.queue


def _instr(name: str) -> Instr:
    ins = BY_NAME.get(name.upper())
    if ins is None:
        raise AssemblyError(f"Unknown instruction {name!r}; the instructions are "
                            f"{', '.join(BY_NAME)}.")
    return ins


@dataclass(frozen=True)
class _Layout:
    """What encoding and decoding read of an instruction's fields, gathered once per instruction:
    the largest value of each field but the opcode, every field's zero value in word order, the
    enum fields, and how the listing prints each field."""

    limits: dict
    zeros: dict
    enums: tuple
    formats: tuple


_LAYOUTS: dict[str, _Layout] = {}


def _layout(ins: Instr) -> _Layout:
    out = _LAYOUTS.get(ins.name)
    if out is None:
        out = _LAYOUTS[ins.name] = _Layout(
            {f.name: f.max for f in ins.all_fields[1:]}, dict.fromkeys((f.name for f in ins.all_fields), 0),
            tuple((f.name, len(f.enum)) for f in ins.fields if f.enum is not None),
            tuple((f.name, "enum" if f.enum is not None else "func" if ins.name == "VEC" and f.name == "func"
                   else "hex" if f.name == "ext_addr" else "int", f.enum) for f in ins.fields))
    return out


def _field_values(ins: Instr, values: dict, out: dict) -> dict:
    """Writes ``values`` (names, enum names or integers) into ``out`` as the integer value of each
    field, checked to fit its bits; returns ``out``."""
    limits = _layout(ins).limits
    for key, v in values.items():
        hi = limits.get(key)
        if hi is None:
            raise AssemblyError(f"{ins.name} has no field {key!r}; its fields are "
                                f"{', '.join(x.name for x in ins.all_fields[1:])}.")
        if v.__class__ is not int:
            v = int(_enum_value(ins, ins.field_map[key], v) if isinstance(v, str) else v)
        if v < 0 or v > hi:
            f = ins.field_map[key]
            raise AssemblyError(f"{ins.name} field {key} = {v} does not fit its {f.width} bits "
                                f"(0 .. {f.max}).")
        out[key] = v
    return out


def encode(name: str, **values) -> int:
    """The 128-bit word of instruction ``name`` with the given field values (others 0)."""
    ins = _instr(name)
    fmap = ins.field_map
    word = ins.opcode
    for key, v in _field_values(ins, values, {}).items():
        word |= v << fmap[key].lo
    return word


def encode_decoded(d: Decoded) -> int:
    """The word of a decoded instruction (the inverse of :func:`decode`)."""
    word = 0
    for f in d.instr.all_fields:
        word |= d.fields[f.name] << f.lo
    return word


def decoded(name: str, values: dict, flags=()) -> Decoded:
    """``decode(encode(name, **values, **{f: 1 for f in flags}))`` without building the word: the
    same fields, the same checks."""
    ins = _instr(name)
    fields = _field_values(ins, values, _layout(ins).zeros.copy())
    for f in flags:
        if f not in FLAG_NAMES:
            raise AssemblyError(f"{ins.name} has no flag {f!r}; the flags are {', '.join(FLAG_NAMES)}.")
        fields[f] = 1
    fields["opcode"] = ins.opcode
    d = Decoded(ins, fields)
    _check(d, 0)
    return d


def _enum_value(ins: Instr, f, text: str) -> int:
    if f.enum is not None:
        up = text.upper() if f.name != "queue" else text.lower()
        if up in f.enum:
            return f.enum.index(up)
        raise AssemblyError(f"{ins.name} field {f.name} = {text!r} is not one of "
                            f"{', '.join(f.enum)}.")
    if ins.name == "VEC" and f.name == "func":
        from .table import VEC_BY_NAME
        vf = VEC_BY_NAME.get(text.upper())
        if vf is None:
            raise AssemblyError(f"VEC func {text!r} is not one of {', '.join(VEC_BY_NAME)}.")
        return vf.code
    try:
        return int(text, 0)
    except ValueError:
        raise AssemblyError(f"{ins.name} field {f.name} = {text!r} is not an integer.") from None


def decode(word: int, pc: int = 0) -> Decoded:
    """Decodes one word, checking everything that needs no hardware configuration: the opcode,
    reserved bits, enum values and the dependency flags allowed for the queue. Raises
    :class:`AcceleratorFault` (ILLEGAL_OPCODE / ILLEGAL_FIELD) with ``pc``."""
    op = word & 0xF
    ins = BY_OPCODE.get(op)
    if ins is None:
        raise AcceleratorFault("ILLEGAL_OPCODE", pc, f"opcode {op} names no instruction.")
    if word & ins.reserved_mask:
        bits = [b for b in range(WIDTH) if (word & ins.reserved_mask) >> b & 1]
        raise AcceleratorFault("ILLEGAL_FIELD", pc, f"{ins.name} has reserved bit(s) "
                                                    f"{', '.join(map(str, bits[:8]))} set.")
    fields = {f.name: (word >> f.lo) & f.max for f in ins.all_fields}
    d = Decoded(ins, fields)
    _check(d, pc)
    return d


def _check(d: Decoded, pc: int) -> None:
    """The checks of :func:`decode` on the field values (enum values, VEC functions, GEMM K tiles,
    DWCONV windows, the flags the queue allows)."""
    ins, fields = d.instr, d.fields
    for name, n in _layout(ins).enums:
        if fields[name] >= n:
            raise AcceleratorFault("ILLEGAL_FIELD", pc, f"{ins.name} field {name} = "
                                                        f"{fields[name]} is undefined.")
    if ins.name == "VEC" and fields["func"] not in VEC_BY_CODE:
        raise AcceleratorFault("ILLEGAL_FIELD", pc, f"VEC func {fields['func']} is undefined.")
    if ins.name == "GEMM" and fields["kt"] and not fields["preload"]:
        raise AcceleratorFault("ILLEGAL_FIELD", pc, f"GEMM kt = {fields['kt']} needs preload (the "
                                                    f"array holds one tile's weights).")
    if ins.name == "DWCONV":
        for f in ("fh", "fw", "nx", "ny"):
            if not fields[f]:
                raise AcceleratorFault("ILLEGAL_FIELD", pc, f"DWCONV {f} = 0: the window is empty.")
        if fields["nx"] + fields["fw"] > 256 or fields["ny"] + fields["fh"] > 256:
            raise AcceleratorFault("ILLEGAL_FIELD", pc, "DWCONV window of more than 255 columns or rows.")
    q = d.queue
    bad = [n for n in FLAG_NAMES if fields[n] and (q, n) not in FLAG_CHANNEL]
    if bad:
        raise AcceleratorFault("ILLEGAL_FIELD", pc, f"{ins.name} on the {q} queue cannot use "
                                                    f"{', '.join(bad)} (no such neighbour queue).")


# ------------------------------------------------------------------------------ binary
def words_to_bytes(words) -> bytes:
    return b"".join(int(w).to_bytes(WIDTH_BYTES, "little") for w in words)


def bytes_to_words(data: bytes) -> list[int]:
    if len(data) % WIDTH_BYTES:
        raise AssemblyError(f"A program binary must be a multiple of {WIDTH_BYTES} bytes, but it has "
                            f"{len(data)}.")
    return [int.from_bytes(data[i:i + WIDTH_BYTES], "little") for i in range(0, len(data), WIDTH_BYTES)]


# ------------------------------------------------------------------------------ text
def format_instruction(word: int, pc: int = 0) -> str:
    """One line of assembly for ``word`` (decoded with :func:`decode`, so faults raise)."""
    return format_decoded(decode(word, pc))


def format_decoded(d: Decoded) -> str:
    """One line of assembly for a decoded instruction: its name, every field, the set flags."""
    fields = d.fields
    parts = [d.instr.name]
    for name, kind, names in _layout(d.instr).formats:
        v = fields[name]
        if kind == "enum":
            parts.append(f"{name}={names[v]}")
        elif kind == "func":
            parts.append(f"func={VEC_BY_CODE[v].name}")
        elif kind == "hex":
            parts.append(f"{name}={v:#x}")
        else:
            parts.append(f"{name}={v}")
    parts += [n for n in FLAG_NAMES if fields[n]]
    return " ".join(parts)


def disassemble(words, numbered: bool = False) -> str:
    lines = []
    for pc, w in enumerate(words):
        text = format_instruction(w, pc)
        lines.append(f"{pc:5d}: {text}" if numbered else text)
    return "\n".join(lines) + ("\n" if lines else "")


def assemble_line(line: str, lineno: int = 1) -> int | None:
    text = line.split("#", 1)[0].split(";", 1)[0].strip()
    if not text:
        return None
    if ":" in text.split()[0]:  # "  12: GEMM ..." listing prefixes are accepted
        text = text.split(":", 1)[1].strip()
        if not text:
            return None
    name, *args = text.split()
    values = {}
    ins = BY_NAME.get(name.upper())
    if ins is None:
        raise AssemblyError(f"Line {lineno}: unknown instruction {name!r}; the instructions are "
                            f"{', '.join(BY_NAME)}.")
    fmap = ins.field_map
    for a in args:
        key, eq, val = a.partition("=")
        f = fmap.get(key)
        if f is None or key == "opcode":
            raise AssemblyError(f"Line {lineno}: {ins.name} has no field {key!r}.")
        if not eq:
            if f.width != 1:
                raise AssemblyError(f"Line {lineno}: field {key} needs a value ({key}=...).")
            val = "1"
        if key in values:
            raise AssemblyError(f"Line {lineno}: field {key} is given twice.")
        values[key] = val
    try:
        return encode(ins.name, **values)
    except AssemblyError as e:
        raise AssemblyError(f"Line {lineno}: {e}") from None


def assemble(text: str) -> list[int]:
    """Assembly text -> list of 128-bit words."""
    words = []
    for n, line in enumerate(text.splitlines(), 1):
        w = assemble_line(line, n)
        if w is not None:
            words.append(w)
    return words


__all__ = [
    "HEADER",
    "AcceleratorFault",
    "AssemblyError",
    "Decoded",
    "assemble",
    "assemble_line",
    "bytes_to_words",
    "decode",
    "decoded",
    "disassemble",
    "encode",
    "encode_decoded",
    "format_decoded",
    "format_instruction",
    "words_to_bytes",
]
