"""One-op CONV_2D models for the compiler's and the RTL's first-layer (im2col) tests."""

from __future__ import annotations

import numpy as np

from nnaccel.model import ChannelQuant, ModelBuilder, OperandType

T = OperandType


def conv_model(n, h, w, c, o, fh, fw, stride, pads, signed=True, seed=0):
    """One CONV_2D with explicit padding ``(left, right, top, bottom)``, RELU6 fused."""
    rng = np.random.default_rng(seed)
    b = ModelBuilder("im2col_conv")
    q = T.TENSOR_QUANT8_ASYMM_SIGNED if signed else T.TENSOR_QUANT8_ASYMM
    x = b.add_operand(q, (n, h, w, c), 0.05, -5 if signed else 120)
    if signed:
        wt = b.add_constant(T.TENSOR_QUANT8_SYMM_PER_CHANNEL, rng.integers(-127, 128, (o, fh, fw, c)).astype(np.int8),
                            channel_quant=ChannelQuant(tuple(float(v) for v in rng.uniform(0.005, 0.02, o)), 0))
        bias = b.add_constant(T.TENSOR_INT32, rng.integers(-3000, 3000, o).astype(np.int32))
    else:
        wt = b.add_constant(q, rng.integers(0, 256, (o, fh, fw, c)).astype(np.uint8), scale=0.01, zero_point=131)
        bias = b.add_constant(T.TENSOR_INT32, rng.integers(-3000, 3000, o).astype(np.int32), scale=0.05 * 0.01)
    left, right, top, bottom = pads
    oh = (h + top + bottom - fh) // stride[1] + 1
    ow = (w + left + right - fw) // stride[0] + 1
    y = b.add_operand(q, (n, oh, ow, o), 0.1, 3 if signed else 100)
    scalars = [b.add_constant(T.INT32, v) for v in (left, right, top, bottom, stride[0], stride[1], 3)]
    b.add_operation("CONV_2D", [x, wt, bias, *scalars], [y])
    b.identify_inputs_and_outputs([x], [y])
    return b.finish()
