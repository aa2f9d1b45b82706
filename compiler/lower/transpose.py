"""TRANSPOSE as DMA."""

from __future__ import annotations

import numpy as np

from .base import MAX16, CannotLower, Lowering, _need_const, _need_known, _need_quant8
from .dma import _byte_strides, copy_stages


class TransposeLowering(Lowering):
    """TRANSPOSE as DMA: a strided copy of whole rows when the last axis stays last, else a
    byte gather / scatter (one element per ACT line)."""

    summary = "a strided DMA copy"

    def check(self, sg, op) -> None:
        self.spec(sg, op)

    def spec(self, sg, op):
        _need_quant8(sg, [op.inputs[0], op.outputs[0]])
        _need_known(sg, [op.inputs[0], op.outputs[0]])
        _need_const(sg, op, [1])
        x = sg.operands[op.inputs[0]]
        rank = len(x.dimensions)
        perm = None
        if len(op.inputs) > 1 and not sg.operands[op.inputs[1]].is_omitted:
            perm = [int(v) for v in np.asarray(sg.operands[op.inputs[1]].data).reshape(-1)]
        if not perm:
            perm = list(range(rank))[::-1]
        st = _byte_strides(x.dimensions)
        if perm[-1] != rank - 1 and max(st[perm[-1]], st[perm[-2]] if rank > 1 else 0) > MAX16:
            raise CannotLower("a stride is wider than the DMA stride field")
        return x.dimensions, perm

    def passes(self, ctx, op) -> list:
        dims, perm = self.spec(ctx.sg, op)
        st = _byte_strides(dims)
        out_dims = [dims[p] for p in perm]
        ost = _byte_strides(out_dims)
        if perm[-1] != len(dims) - 1:
            # the last axis moves: bytes gathered one per ACT line (``len = 1`` boxes) with the
            # input's strides and scattered with the output's
            return [copy_stages(ctx.cfg, ctx.addr[op.inputs[0]], [st[p] for p in perm], ctx.addr[op.outputs[0]],
                                ost, out_dims, 1, "TRANSPOSE: bytes")]
        return [copy_stages(ctx.cfg, ctx.addr[op.inputs[0]], [st[p] for p in perm[:-1]], ctx.addr[op.outputs[0]],
                            ost[:-1], out_dims[:-1], dims[-1], "TRANSPOSE: rows")]
