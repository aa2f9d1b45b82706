"""Useful multiply-adds: the multiply-accumulates an operation needs by its definition, computed
from the model's shapes alone (no padding channels, no hardware tiling; every filter tap counts,
as the usual MAC counts of published networks do).

The accelerator's ``macs`` counter counts *issued* MACs (a streamed line counts ``rows x cols``
per K tile even where channels are padding); reports put the two side by side, and *useful
utilization* is ``useful_macs / (cycles x rows x cols)``.
"""

from __future__ import annotations

import math

from .model import Operation, Subgraph

#: The operations that multiply and accumulate; every other one has 0 useful MACs.
MAC_OPS = ("CONV_2D", "DEPTHWISE_CONV_2D", "GROUPED_CONV_2D", "TRANSPOSE_CONV_2D", "FULLY_CONNECTED",
           "BATCH_MATMUL")


def _flag(sg: Subgraph, op: Operation, k: int) -> bool:
    if len(op.inputs) <= k or op.inputs[k] < 0:
        return False
    data = sg.operands[op.inputs[k]].data
    return bool(data is not None and bool(data.reshape(-1)[0]))


def useful_macs(sg: Subgraph, op: Operation) -> int:
    """The multiply-adds of ``op`` (an operation of ``sg``) by its definition; 0 for operations
    that do not multiply-accumulate and where a shape is unknown.

    CONV_2D / GROUPED_CONV_2D: output elements x filter taps x filter depth (filter
    ``[out, fh, fw, in / groups]``); DEPTHWISE_CONV_2D: output elements x taps (filter
    ``[1, fh, fw, out]``); TRANSPOSE_CONV_2D: input elements x taps x output depth (every input
    element meets every tap of every output channel); FULLY_CONNECTED: output elements x input
    size (weights ``[units, input size]``); BATCH_MATMUL: output elements x the inner dimension.
    The layout (NHWC / NCHW) does not change any of these products.
    """
    if op.type not in MAC_OPS:
        return 0
    dims = [sg.operands[j].dimensions for j in (op.inputs[0], op.inputs[1], op.outputs[0])]
    if any(d is None or not d or 0 in d for d in dims):
        return 0
    x, w, y = dims
    if op.type in ("CONV_2D", "GROUPED_CONV_2D"):
        return math.prod(y) * w[1] * w[2] * w[3]
    if op.type == "DEPTHWISE_CONV_2D":
        return math.prod(y) * w[1] * w[2]
    if op.type == "TRANSPOSE_CONV_2D":
        return math.prod(x) * w[0] * w[1] * w[2]
    if op.type == "FULLY_CONNECTED":
        return math.prod(y) * w[1]
    inner = x[-2] if _flag(sg, op, 2) else x[-1]  # BATCH_MATMUL, adj_x transposes the left operand
    return math.prod(y) * inner


def layer_useful_macs(sg: Subgraph) -> dict[int, int]:
    """Operation index -> its useful MACs, for the operations of ``sg`` that have any."""
    out = {}
    for i, op in enumerate(sg.operations):
        n = useful_macs(sg, op)
        if n:
            out[i] = n
    return out


def split_by_weight(total: int, weights: list[int]) -> list[int]:
    """``total`` split into integer parts proportional to ``weights`` (largest remainders first),
    summing to ``total``; equal parts when every weight is 0."""
    if not weights:
        return []
    w = weights if any(weights) else [1] * len(weights)
    s = sum(w)
    exact = [total * v / s for v in w]
    parts = [int(e) for e in exact]
    for k in sorted(range(len(w)), key=lambda k: parts[k] - exact[k])[:total - sum(parts)]:
        parts[k] += 1
    return parts
