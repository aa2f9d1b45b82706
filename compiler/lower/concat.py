"""CONCATENATION as DMA."""

from __future__ import annotations

import dataclasses
import math

import numpy as np

from .base import MAX16, CannotLower, Lowering, T, _need_const, _need_known, _need_quant8, _signed
from .dma import copy_stages
from .lines import lines_passes


class ConcatLowering(Lowering):
    """CONCATENATION as DMA: each input's rows (the bytes from the axis on) are loaded into ACT
    line by line and stored at their offset in the output rows. An input quantized differently
    from the output is first rescaled into a scratch copy by a LUT pass: the golden kernel's
    per-input rescale (``requantize_float_scaling``, float32 arithmetic) is a function of the one
    input byte, so its table over all 256 bytes is exact."""

    summary = "DMA copies of its inputs' rows"

    def check(self, sg, op) -> None:
        self.spec(sg, op)

    def spec(self, sg, op):
        ins, axis_i = op.inputs[:-1], op.inputs[-1]
        _need_quant8(sg, [*ins, op.outputs[0]])
        _need_known(sg, [*ins, op.outputs[0]])
        _need_const(sg, op, [len(op.inputs) - 1])
        o = sg.operands[op.outputs[0]]
        for i in ins:
            if sg.operands[i].type is not o.type:
                raise CannotLower("an input's type differs from the output's")
        rank = len(o.dimensions)
        axis = int(np.asarray(sg.operands[axis_i].data).reshape(-1)[0])
        axis = axis + rank if axis < 0 else axis
        outer = math.prod(o.dimensions[:axis])
        inner_out = math.prod(o.dimensions[axis:])
        parts, off = [], 0
        for i in ins:
            x = sg.operands[i]
            inner = math.prod(x.dimensions[axis:])
            parts.append((i, inner, off, x.scale != o.scale or x.zero_point != o.zero_point))
            off += inner
        if inner_out > MAX16:
            raise CannotLower("an output row is wider than the DMA stride field")
        return outer, inner_out, parts

    def tensors(self, sg, op) -> list[int]:
        return [*dict.fromkeys(op.inputs[:-1]), op.outputs[0]]

    def scratch(self, sg, op, cfg) -> list[int]:
        _, _, parts = self.spec(sg, op)
        return [math.prod(sg.operands[i].dimensions) for i, _, _, rq in parts if rq]

    def passes(self, ctx, op) -> list:
        from nnaccel.golden.shape import requantize_float_scaling
        outer, inner_out, parts = self.spec(ctx.sg, op)
        o = ctx.sg.operands[op.outputs[0]]
        nrq = sum(1 for p in parts if p[3])
        if len(ctx.scratch) < nrq:
            raise CannotLower("no scratch memory for the rescaled inputs")
        passes, stages, k = [], [], 0
        for n_part, (i, inner, off, rq) in enumerate(parts):
            src = ctx.addr[i]
            x = ctx.sg.operands[i]
            if rq:
                key = f"concat rescaled part {n_part}"
                sub = dataclasses.replace(ctx, addr={**ctx.addr, key: ctx.scratch[k]})
                dtype = np.int8 if x.type is T.TENSOR_QUANT8_ASYMM_SIGNED else np.uint8
                table = requantize_float_scaling(np.arange(256, dtype=np.uint8).view(dtype), x, o)
                passes += lines_passes(sub, f"CONCATENATION: rescale input operand {i}", [i], key,
                                       math.prod(x.dimensions), "LUT", None, _signed(x),
                                       table=np.asarray(table).astype(np.int64) & 0xFF)
                src = ctx.scratch[k]
                k += 1
            stages += copy_stages(ctx.cfg, src, [inner], ctx.addr[op.outputs[0]] + off, [inner_out], [outer],
                                  inner, f"CONCATENATION: input operand {i} to output offset {off}",
                                  first_stage=len(stages))
        return [*passes, stages]
