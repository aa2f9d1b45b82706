"""PAD / PAD_V2 as DMA."""

from __future__ import annotations

import math

import numpy as np

from nnaccel.golden.common import qrange

from .base import CannotLower, Lowering, _need_const, _need_known, _need_quant8, _scalar
from .dma import _byte_strides, copy_stages
from .lines import _fill_lines, _line_chunks, _line_dma


class PadLowering(Lowering):
    """PAD / PAD_V2: the output is filled with the pad byte (LOAD fill + STORE), then the input rows
    are copied to their place (a STORE writes a line's bytes at any byte address, so padding of
    the last axis only offsets each row)."""

    summary = "a DMA fill and copy"

    def check(self, sg, op) -> None:
        self.spec(sg, op)

    def spec(self, sg, op):
        _need_quant8(sg, [op.inputs[0], op.outputs[0]])
        _need_known(sg, [op.inputs[0], op.outputs[0]])
        _need_const(sg, op, range(1, len(op.inputs)))
        x, o = sg.operands[op.inputs[0]], sg.operands[op.outputs[0]]
        pads = np.asarray(sg.operands[op.inputs[1]].data).reshape(-1, 2)
        if self.kind == "PAD":
            value = o.zero_point
        else:
            value = _scalar(sg, op, 2)
            lo, hi = qrange(x.type)
            if value is None or not lo <= value <= hi:
                raise CannotLower("the pad value is outside the type's range")
        return x.dimensions, o.dimensions, [int(p) for p in pads[:, 0]], value

    def passes(self, ctx, op) -> list:
        dims, odims, before, value = self.spec(ctx.sg, op)
        return pad_passes(ctx.cfg, ctx.addr[op.inputs[0]], dims, ctx.addr[op.outputs[0]], odims, before, value,
                          self.kind)


def pad_passes(cfg, src: int, dims, out: int, odims, before, value: int, what: str) -> list:
    """Two DMA passes that pad the row-major tensor ``dims`` at ``src`` into ``odims`` at ``out``:
    fill the output with the byte ``value``, then copy the input rows to their place (``before``:
    the padding before each axis)."""
    R = cfg.cols
    total = math.prod(odims)
    budget = cfg.lines("ACT") // 2
    full, tail = divmod(total, R)
    filler = _fill_lines(cfg, 0, min(budget, full + (1 if tail else 0)), value, f"{what}: pad value")
    stages = []
    for off, nl, tl in _line_chunks(cfg, total, budget - 1):
        stores = _line_dma(cfg, "STORE", 0, out + off, nl, tl, f"{what}: fill output bytes {off}")
        stages.append((list(filler) if not stages else [], [], stores))
    ost = _byte_strides(odims)
    start = out + sum(b * s for b, s in zip(before, ost))
    # the copy uses the other half of ACT only after the fill stages are stored (in order)
    copy = copy_stages(cfg, src, _byte_strides(dims)[:-1], start, ost[:-1], dims[:-1], dims[-1],
                       f"{what}: input rows", first_stage=1)
    return [stages, copy]
