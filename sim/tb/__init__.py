"""cocotb test modules for the accelerator RTL, run by :mod:`nnaccel.sim.rtl_runner`.

Each module here is a cocotb test module; it reads its arguments with :func:`tb_args` and reports
its results with :func:`tb_result` (JSON files whose paths the runner passes in the environment).
Helpers for packing vectors into the flat buses Amaranth emits live here too.
"""

from __future__ import annotations

import json
import os


def tb_args() -> dict:
    path = os.environ.get("NNACCEL_TB_ARGS")
    return json.loads(open(path).read()) if path else {}


def tb_result(result: dict) -> None:
    path = os.environ.get("NNACCEL_TB_RESULT")
    if path:
        with open(path, "w") as f:
            json.dump(result, f)


def pack(values, width: int) -> int:
    """Packs integers (two's complement, ``width`` bits each, element 0 in the low bits) into one int."""
    mask = (1 << width) - 1
    out = 0
    for i, v in enumerate(values):
        out |= (int(v) & mask) << (i * width)
    return out


def unpack(word: int, width: int, count: int, signed: bool = True) -> list[int]:
    """The inverse of :func:`pack`."""
    mask = (1 << width) - 1
    out = []
    for i in range(count):
        v = (int(word) >> (i * width)) & mask
        if signed and v >> (width - 1):
            v -= 1 << width
        out.append(v)
    return out
