"""Unary int8 non-linearities as table look-ups."""

from __future__ import annotations

import types

import numpy as np

from nnaccel.golden.common import qrange
from nnaccel.golden.context import KernelContext
from nnaccel.golden.elementwise import RELU_ACTIVATION, f32
from nnaccel.model import Operation, Subgraph
from nnaccel.quant import activation_range_quantized

from .base import CannotLower, Lowering, T, _need_known, _need_quant8, _signed
from .lines import lines_passes


def relu_range(sg: Subgraph, op: Operation) -> tuple:
    """The clamp of a quantized RELU / RELU1 / RELU6, as the golden ``clamp_activation`` computes
    it (input scale rounded to float32, the input's zero point; the output has the same
    quantization)."""
    o = sg.operands[op.inputs[0]]
    return activation_range_quantized(RELU_ACTIVATION[op.type], f32(o.scale), o.zero_point, *qrange(o.type))


class LutLowering(Lowering):
    """Unary int8 non-linearities: the table is the golden kernel evaluated on every byte."""

    summary = "a table look-up on the vector unit"

    def check(self, sg, op) -> None:
        _need_quant8(sg, [op.inputs[0], op.outputs[0]])
        _need_known(sg, [op.inputs[0], op.outputs[0]])
        if len(op.inputs) != 1:
            raise CannotLower("extra inputs")

    def fusable_clamp(self, sg, op) -> tuple | None:
        return relu_range(sg, op) if op.type in RELU_ACTIVATION else None

    def table(self, ctx, op) -> np.ndarray:
        from nnaccel import registry
        x = ctx.sg.operands[op.inputs[0]]
        dtype = np.int8 if x.type is T.TENSOR_QUANT8_ASYMM_SIGNED else np.uint8
        allbytes = np.arange(256, dtype=np.uint8).view(dtype)
        interp = types.SimpleNamespace(model=ctx.model, rng=np.random.default_rng(0))
        k = KernelContext(interp, ctx.sg, 0, op, [allbytes])
        out = np.asarray(registry.get(op.type).kernel(k)[0])
        return out.astype(np.int64) & 0xFF

    def passes(self, ctx, op) -> list:
        x = ctx.sg.operands[op.inputs[0]]
        n = int(np.prod(x.dimensions))
        return lines_passes(ctx, self.kind, [op.inputs[0]], op.outputs[0], n, "LUT", None, _signed(x),
                            table=self.table(ctx, op))
