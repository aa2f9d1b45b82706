"""The accelerator's instruction set: one table (:mod:`.table`) and everything derived from it.

>>> from nnaccel.isa import encode, format_instruction
>>> format_instruction(encode("NOP", queue="compute"))
'NOP queue=compute'
"""

from .codec import (
    AcceleratorFault,
    AssemblyError,
    Decoded,
    assemble,
    bytes_to_words,
    decode,
    decoded,
    disassemble,
    encode,
    encode_decoded,
    format_decoded,
    format_instruction,
    words_to_bytes,
)
from .table import (
    BY_NAME,
    BY_OPCODE,
    COUNTERS,
    FAULTS,
    INSTRUCTIONS,
    N_COUNTERS,
    QUEUES,
    VEC_BY_CODE,
    VEC_BY_NAME,
    VEC_FUNCS,
    WIDTH,
    WIDTH_BYTES,
    field_layout,
)

__all__ = [
    "BY_NAME",
    "BY_OPCODE",
    "COUNTERS",
    "FAULTS",
    "INSTRUCTIONS",
    "N_COUNTERS",
    "QUEUES",
    "VEC_BY_CODE",
    "VEC_BY_NAME",
    "VEC_FUNCS",
    "WIDTH",
    "WIDTH_BYTES",
    "AcceleratorFault",
    "AssemblyError",
    "Decoded",
    "assemble",
    "bytes_to_words",
    "decode",
    "decoded",
    "disassemble",
    "encode",
    "encode_decoded",
    "field_layout",
    "format_decoded",
    "format_instruction",
    "words_to_bytes",
]
