"""A one-op DEPTHWISE_CONV_2D model for the depthwise schedule's tests (compiler and RTL)."""

from __future__ import annotations

import numpy as np

from nnaccel.golden.nn import conv_output_size
from nnaccel.model import ChannelQuant, ModelBuilder, OperandType

T = OperandType


def depthwise_model(h, w, c, fh, fw, pads, signed, per_channel, act, rng, zx=3, zo=-2, stride=(1, 1)):
    """A one-op DEPTHWISE_CONV_2D model (NHWC, multiplier 1, ``stride`` (rows, columns)) and an
    input for it."""
    q = T.TENSOR_QUANT8_ASYMM_SIGNED if signed else T.TENSOR_QUANT8_ASYMM
    lo = -128 if signed else 0
    b = ModelBuilder("depthwise")
    i32 = lambda v: b.add_constant(T.INT32, v)
    pl, pr, pt, pb = pads
    sh, sw = stride
    oh, ow = conv_output_size(h, fh, sh, pt, pb, 1), conv_output_size(w, fw, sw, pl, pr, 1)
    x = b.add_operand(q, (1, h, w, c), 0.05, lo + 128 + zx)
    if per_channel:
        wt = rng.integers(-127, 128, (1, fh, fw, c)).astype(np.int8)
        scales = tuple(float(v) for v in rng.uniform(0.001, 0.05, c))
        wi = b.add_constant(T.TENSOR_QUANT8_SYMM_PER_CHANNEL, wt, channel_quant=ChannelQuant(scales, 3))
        bscale = 0.0
    else:
        wt = rng.integers(lo, lo + 256, (1, fh, fw, c)).astype(np.int8 if signed else np.uint8)
        wi = b.add_constant(q, wt, scale=0.02, zero_point=0 if signed else 117)
        bscale = float(np.float32(0.05) * np.float32(0.02))
    bi = b.add_constant(T.TENSOR_INT32, rng.integers(-5000, 5000, c).astype(np.int32), scale=bscale)
    y = b.add_operand(q, (1, oh, ow, c), 0.1, lo + 128 + zo)
    b.add_operation("DEPTHWISE_CONV_2D", [x, wi, bi, *[i32(v) for v in (pl, pr, pt, pb, sw, sh)], i32(1), i32(act),
                                          b.add_constant(T.BOOL, False)], [y])
    b.identify_inputs_and_outputs([x], [y])
    model = b.finish()
    data = rng.integers(lo, lo + 256, (1, h, w, c)).astype(np.int8 if signed else np.uint8)
    return model, data
