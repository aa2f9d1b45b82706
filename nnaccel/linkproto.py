"""The host link protocol between a host and a board's SoC (``nnaccel.boards.soc``): frames,
commands, reply codes and the CRC, as plain data. The gateware (``nnaccel.boards.soc``) and the
host driver (``nnaccel.firmware.link``) both build from these definitions.

A request is ``REQ_SYNC, cmd, addr (3 bytes, little endian), len (3 bytes, little endian),
payload, crc (2 bytes, high byte first)``; the payload is ``len`` bytes for ``WRITE`` and empty for
every other command. A reply is ``RSP_SYNC, code, payload, crc``; its payload has
:func:`reply_length` bytes when ``code`` is ``OK`` and none otherwise. Both CRCs are CRC-16/XMODEM
(:data:`CRC`) over every byte after the sync byte; over a whole frame after its sync byte, CRC
included, the CRC is 0 (its residue).

The device drops a request whose sync byte is wrong (it waits for the next ``REQ_SYNC``), and a
partial request after :data:`IDLE_TIMEOUT_BITS` bit times without a byte. A ``WRITE``'s payload is
stored as it arrives: after a ``CRC_ERROR`` reply the host sends the whole frame again.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass

__all__ = ["ADDR_BYTES", "CMD", "CODE", "CRC", "IDENT_BYTES", "IDENT_MAGIC", "IDLE_TIMEOUT_BITS", "LEN_BYTES",
           "PROTOCOL_VERSION", "REQ_SYNC", "RSP_SYNC", "STATUS_BYTES", "Crc", "config_fingerprint",
           "decode_identity", "decode_status", "encode_identity", "isa_fingerprint", "reply_length", "request"]

REQ_SYNC = 0xA5
RSP_SYNC = 0x5A
ADDR_BYTES = 3
LEN_BYTES = 3
PROTOCOL_VERSION = 1
#: Bit times without a byte after which the device drops a partial request.
IDLE_TIMEOUT_BITS = 4096

#: Request commands (``cmd`` byte).
CMD = {
    "IDENT": 1,      # reply: the identity (IDENT_BYTES bytes, see encode_identity)
    "WRITE": 2,      # payload: len bytes written at addr; reply: nothing
    "READ": 3,       # reply: len bytes read from addr
    "START": 4,      # resets the accelerator and runs prog_len = len instructions at prog_addr = addr
    "STATUS": 5,     # reply: STATUS_BYTES bytes (decode_status)
    "COUNTERS": 6,   # reply: 8 bytes (little endian) per counter, in the ISA's counter order
}
#: Reply codes.
CODE = {"OK": 0, "CRC_ERROR": 1, "BAD_COMMAND": 2, "BUSY": 3}

IDENT_MAGIC = b"NA"
IDENT_BYTES = 8
STATUS_BYTES = 4


@dataclass(frozen=True)
class Crc:
    """A CRC in the Rocksoft model (the fields of ``amaranth.lib.crc.Algorithm``)."""

    width: int
    polynomial: int
    initial: int
    reflect_input: bool
    reflect_output: bool
    xor_output: int

    def compute(self, data: bytes, crc: int | None = None) -> int:
        """The CRC of ``data`` (non-reflected CRCs only, which is all this protocol uses)."""
        assert not self.reflect_input and not self.reflect_output
        top = 1 << (self.width - 1)
        mask = (1 << self.width) - 1
        c = self.initial if crc is None else crc
        for b in data:
            c ^= b << (self.width - 8)
            for _ in range(8):
                c = ((c << 1) ^ self.polynomial) & mask if c & top else (c << 1) & mask
        return c ^ self.xor_output

    def append(self, body: bytes) -> bytes:
        """``body`` with its CRC appended, high byte first."""
        return body + self.compute(body).to_bytes(self.width // 8, "big")


#: CRC-16/XMODEM (polynomial 0x1021, initial 0, no reflection, no final XOR).
CRC = Crc(16, 0x1021, 0x0000, False, False, 0x0000)


def request(cmd: str, addr: int = 0, length: int = 0, payload: bytes = b"") -> bytes:
    """One request frame."""
    if not 0 <= addr < 1 << (8 * ADDR_BYTES):
        raise ValueError(f"The address {addr:#x} does not fit the link's {8 * ADDR_BYTES}-bit address field.")
    if not 0 <= length < 1 << (8 * LEN_BYTES):
        raise ValueError(f"The length {length} does not fit the link's {8 * LEN_BYTES}-bit length field.")
    if cmd == "WRITE" and len(payload) != length:
        raise ValueError(f"A WRITE of {length} bytes carries {len(payload)} payload bytes.")
    body = bytes([CMD[cmd]]) + addr.to_bytes(ADDR_BYTES, "little") + length.to_bytes(LEN_BYTES, "little") + payload
    return bytes([REQ_SYNC]) + CRC.append(body)


def reply_length(cmd: str, length: int, n_counters: int) -> int:
    """Payload bytes of an ``OK`` reply to ``cmd`` (``length``: the request's ``len``)."""
    return {"IDENT": IDENT_BYTES, "WRITE": 0, "READ": length, "START": 0, "STATUS": STATUS_BYTES,
            "COUNTERS": 8 * n_counters}[cmd]


def _fingerprint(text: str) -> int:
    return zlib.crc32(text.encode()) & 0xFFFF


def isa_fingerprint() -> int:
    """16 bits that change whenever the ISA table's encoding does (its field layout)."""
    from .isa.table import field_layout
    return _fingerprint(repr(sorted((k, sorted(v["fields"].items()), v.get("opcode"))
                                    for k, v in field_layout().items())))


def config_fingerprint(cfg) -> int:
    """16 bits that identify a hardware configuration (all its fields)."""
    return _fingerprint(cfg.to_json())


def encode_identity(cfg) -> bytes:
    """The identity a SoC built for ``cfg`` reports: ``IDENT_MAGIC``, the protocol version, the
    configuration's ``counter_bits``, the ISA fingerprint and the configuration fingerprint (16 bits
    each, little endian)."""
    return (IDENT_MAGIC + bytes([PROTOCOL_VERSION, cfg.counter_bits]) + isa_fingerprint().to_bytes(2, "little")
            + config_fingerprint(cfg).to_bytes(2, "little"))


def decode_identity(raw: bytes) -> dict:
    return {"magic": raw[:2], "protocol": raw[2], "counter_bits": raw[3],
            "isa": int.from_bytes(raw[4:6], "little"), "config": int.from_bytes(raw[6:8], "little")}


def decode_status(raw: bytes) -> dict:
    """``busy``, ``done``, ``error`` (the accelerator's fault code) and ``fault_pc`` of a STATUS
    reply: byte 0 is ``busy | done << 1 | error << 2``, bytes 1-3 the faulting PC (little endian)."""
    return {"busy": raw[0] & 1, "done": raw[0] >> 1 & 1, "error": raw[0] >> 2 & 7,
            "fault_pc": int.from_bytes(raw[1:4], "little")}
