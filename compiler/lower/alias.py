"""Layout no-ops (RESHAPE, SQUEEZE, EXPAND_DIMS): no instructions."""

from __future__ import annotations

import math

from .base import CannotLower, Lowering, _need_const, _need_known, _need_quant8


class AliasLowering(Lowering):
    """Layout no-ops: the output is the input's bytes (same quantization)."""

    summary = "a layout no-op on its input's bytes"

    def check(self, sg, op) -> None:
        _need_quant8(sg, [op.inputs[0], op.outputs[0]])
        _need_known(sg, [op.inputs[0], op.outputs[0]])
        _need_const(sg, op, range(1, len(op.inputs)))
        a, o = sg.operands[op.inputs[0]], sg.operands[op.outputs[0]]
        if a.type is not o.type or a.scale != o.scale or a.zero_point != o.zero_point:
            raise CannotLower("the output's quantization differs from the input's")
        if math.prod(a.dimensions) != math.prod(o.dimensions):
            raise CannotLower("element counts differ")

    def alias(self) -> bool:
        return True

    def passes(self, ctx, op) -> list:
        return []
