"""Reference models for the compiler's golden packages, tests and benchmarks (built with
:class:`nnaccel.model.ModelBuilder`, random but seeded weights).

* :func:`mobilenet_block` — a MobileNet-V2 inverted residual block, int8: 1x1 expand conv
  (RELU6), 3x3 depthwise conv (RELU6), 1x1 project conv, residual ADD; per-channel filters.
* :func:`mobilenet_v2` — the whole MobileNet V2 (1.0, 224 x 224 by default), int8 with
  per-channel filters: its 17 inverted residual blocks between the 3x3 stride-2 stem and the 1x1
  to 1,280 channels, a 7x7 average pool, FULLY_CONNECTED to 1,000 classes, SOFTMAX. Its weights
  are random: it measures compile time, cycles and utilization, not accuracy.
* :func:`small_cnn` — uint8: 3x3 conv stride 2 (RELU), max pool, average pool with padding,
  LOGISTIC, RESHAPE, FULLY_CONNECTED, then SOFTMAX on the host.
* :func:`mlp` — the ``nnaccel demo`` network (FULLY_CONNECTED x2, ADD, RESHAPE), int8;
  :func:`build_demo_model` also gives its input and an independent float computation of it.
"""

from __future__ import annotations

import numpy as np

from nnaccel.model import ChannelQuant, ModelBuilder, OperandType

T = OperandType


def _conv(b, rng, x, xq, cin, cout, k, stride, out_hw, outq, act, signed, depthwise=False, pad=None):
    """Adds a CONV_2D (or DEPTHWISE_CONV_2D) with an implicit-padding (SAME) window."""
    q = T.TENSOR_QUANT8_ASYMM_SIGNED if signed else T.TENSOR_QUANT8_ASYMM
    if depthwise:
        wshape, cdim = (1, k, k, cout), 3
    else:
        wshape, cdim = (cout, k, k, cin), 0
    scales = tuple(float(s) for s in rng.uniform(0.002, 0.02, cout))
    if signed:
        w = rng.integers(-127, 128, wshape).astype(np.int8)
        wi = b.add_constant(T.TENSOR_QUANT8_SYMM_PER_CHANNEL, w, channel_quant=ChannelQuant(scales, cdim))
        bias_scale = 0.0
    else:
        w = rng.integers(0, 256, wshape).astype(np.uint8)
        wi = b.add_constant(q, w, scale=0.01, zero_point=128)
        bias_scale = xq[0] * 0.01
    bias = rng.integers(-2000, 2000, cout).astype(np.int32)
    bi = b.add_constant(T.TENSOR_INT32, bias, scale=bias_scale)
    scalars = [b.add_constant(T.INT32, 1 if pad is None else pad), b.add_constant(T.INT32, stride),
               b.add_constant(T.INT32, stride)]
    if depthwise:
        scalars.append(b.add_constant(T.INT32, 1))
    scalars.append(b.add_constant(T.INT32, act))
    y = b.add_operand(q, (1, *out_hw, cout), outq[0], outq[1])
    b.add_operation("DEPTHWISE_CONV_2D" if depthwise else "CONV_2D", [x, wi, bi, *scalars], [y])
    return y


def mobilenet_block(h: int = 8, w: int = 8, c: int = 8, expand: int = 6, seed: int = 0):
    """MobileNet-V2 inverted residual block (stride 1), int8 with per-channel filters."""
    rng = np.random.default_rng(seed)
    b = ModelBuilder(f"mobilenet_block_{h}x{w}x{c}")
    q = T.TENSOR_QUANT8_ASYMM_SIGNED
    xq = (0.05, -3)
    x = b.add_operand(q, (1, h, w, c), *xq)
    e = c * expand
    hq = (0.03, -128)
    h1 = _conv(b, rng, x, xq, c, e, 1, 1, (h, w), hq, 3, True)
    h2 = _conv(b, rng, h1, hq, e, e, 3, 1, (h, w), hq, 3, True, depthwise=True)
    pq = (0.06, 2)
    h3 = _conv(b, rng, h2, hq, e, c, 1, 1, (h, w), pq, 0, True)
    y = b.add_operand(q, (1, h, w, c), 0.08, -1)
    b.add_operation("ADD", [h3, x, b.add_constant(T.INT32, 0)], [y])
    b.identify_inputs_and_outputs([x], [y])
    return b.finish()


def block_layers(h: int, w: int, c: int, expand: int = 6, seed: int = 0):
    """The block's layers for the benchmark: ``(model, layer names by operation index)``."""
    return mobilenet_block(h, w, c, expand, seed), {0: "1x1 expand", 1: "3x3 depthwise", 2: "1x1 project",
                                                   3: "residual ADD"}


#: MobileNet V2's inverted residual stages: (expansion t, output channels c, blocks n, first stride s).
MOBILENET_V2_STAGES = ((1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2), (6, 64, 4, 2), (6, 96, 3, 1), (6, 160, 3, 2),
                       (6, 320, 1, 1))


def mobilenet_v2(size: int = 224, seed: int = 0):
    """MobileNet V2 (width 1.0) on a ``size`` x ``size`` RGB image (``size`` a multiple of 32), int8,
    random per-channel filters; RELU6 after the stem, the expansions and the depthwise convolutions,
    a residual ADD where a block keeps its shape."""
    if size % 32:
        raise ValueError(f"mobilenet_v2: size {size} is not a multiple of 32")
    rng = np.random.default_rng(seed)
    b = ModelBuilder(f"mobilenet_v2_{size}")
    q = T.TENSOR_QUANT8_ASYMM_SIGNED
    xq, hq = (0.0078, 0), (0.0235, -128)      # the image in [-1, 1]; RELU6 outputs in [0, 6]
    x = b.add_operand(q, (1, size, size, 3), *xq)
    hw = size // 2
    y = _conv(b, rng, x, xq, 3, 32, 3, 2, (hw, hw), hq, 3, True)
    c, yq = 32, hq
    for t, cout, n, s in MOBILENET_V2_STAGES:
        for i in range(n):
            stride = s if i == 0 else 1
            e = c * t
            h = y
            if t != 1:
                h = _conv(b, rng, h, yq, c, e, 1, 1, (hw, hw), hq, 3, True)
            hw //= stride
            h = _conv(b, rng, h, hq if t != 1 else yq, e, e, 3, stride, (hw, hw), hq, 3, True, depthwise=True)
            pq = (0.05, 0)
            h = _conv(b, rng, h, hq, e, cout, 1, 1, (hw, hw), pq, 0, True)
            if stride == 1 and cout == c:
                r = b.add_operand(q, (1, hw, hw, cout), 0.07, 0)
                b.add_operation("ADD", [h, y, b.add_constant(T.INT32, 0)], [r])
                h, pq = r, (0.07, 0)
            y, c, yq = h, cout, pq
    y = _conv(b, rng, y, yq, c, 1280, 1, 1, (hw, hw), hq, 3, True)
    pooled = b.add_operand(q, (1, 1, 1, 1280), *hq)
    b.add_operation("AVERAGE_POOL_2D", [y, *[b.add_constant(T.INT32, v) for v in (2, 1, 1, hw, hw, 0)]], [pooled])
    flat = b.add_operand(q, (1, 1280), *hq)
    b.add_operation("RESHAPE", [pooled, b.add_constant(T.TENSOR_INT32, np.array([1, 1280], np.int32))], [flat])
    w = rng.integers(-127, 128, (1000, 1280)).astype(np.int8)
    wi = b.add_constant(q, w, scale=0.004, zero_point=0)
    bi = b.add_constant(T.TENSOR_INT32, rng.integers(-2000, 2000, 1000).astype(np.int32), scale=hq[0] * 0.004)
    logits = b.add_operand(q, (1, 1000), 0.1, -10)
    b.add_operation("FULLY_CONNECTED", [flat, wi, bi, b.add_constant(T.INT32, 0)], [logits])
    out = b.add_operand(q, (1, 1000), 1.0 / 256, -128)
    b.add_operation("SOFTMAX", [logits, b.add_constant(T.FLOAT32, 1.0)], [out])
    b.identify_inputs_and_outputs([x], [logits, out])
    return b.finish()


def small_cnn(seed: int = 1):
    """A small uint8 CNN ending in a host SOFTMAX."""
    rng = np.random.default_rng(seed)
    b = ModelBuilder("small_cnn")
    q = T.TENSOR_QUANT8_ASYMM
    xq = (0.02, 120)
    x = b.add_operand(q, (1, 12, 12, 3), *xq)
    c1q = (0.05, 0)
    c1 = _conv(b, rng, x, xq, 3, 10, 3, 2, (6, 6), c1q, 1, False)
    p1 = b.add_operand(q, (1, 3, 3, 10), *c1q)
    # implicit padding VALID (2), stride 2 x 2, filter 2 x 2, no activation
    b.add_operation("MAX_POOL_2D", [c1, *[b.add_constant(T.INT32, v) for v in (2, 2, 2, 2, 2, 0)]], [p1])
    p2 = b.add_operand(q, (1, 3, 3, 10), *c1q)
    b.add_operation("AVERAGE_POOL_2D", [p1, *[b.add_constant(T.INT32, v) for v in (1, 1, 1, 1, 1, 1, 3, 3, 0)]],
                    [p2])
    s = b.add_operand(q, (1, 3, 3, 10), 1.0 / 256, 0)
    b.add_operation("LOGISTIC", [p2], [s])
    r = b.add_operand(q, (1, 90), 1.0 / 256, 0)
    b.add_operation("RESHAPE", [s, b.add_constant(T.TENSOR_INT32, np.array([1, 90], np.int32))], [r])
    wq = rng.integers(0, 256, (5, 90)).astype(np.uint8)
    wi = b.add_constant(q, wq, scale=0.02, zero_point=127)
    bi = b.add_constant(T.TENSOR_INT32, rng.integers(-300, 300, 5).astype(np.int32), scale=0.02 / 256)
    f = b.add_operand(q, (1, 5), 0.1, 128)
    b.add_operation("FULLY_CONNECTED", [r, wi, bi, b.add_constant(T.INT32, 0)], [f])
    out = b.add_operand(q, (1, 5), 1.0 / 256, 0)
    b.add_operation("SOFTMAX", [f, b.add_constant(T.FLOAT32, 1.0)], [out])
    b.identify_inputs_and_outputs([x], [out])
    return b.finish()


def build_demo_model(seed: int = 0):
    """Returns ``(model, x, float_reference_fn)``."""
    rng = np.random.default_rng(seed)
    b = ModelBuilder("demo_mlp")
    s_in, z_in = 0.05, 3
    x = b.add_operand(T.TENSOR_QUANT8_ASYMM_SIGNED, [4, 16], s_in, z_in)
    w1 = rng.integers(-127, 128, (32, 16)).astype(np.int8)
    s_w1 = 0.01
    bias1 = rng.integers(-500, 500, 32).astype(np.int32)
    h_scale, h_zp = 0.08, -128
    w1_i = b.add_constant(T.TENSOR_QUANT8_ASYMM_SIGNED, w1, scale=s_w1, zero_point=0)
    b1_i = b.add_constant(T.TENSOR_INT32, bias1, scale=s_in * s_w1)
    relu = b.add_constant(T.INT32, 1)
    h = b.add_operand(T.TENSOR_QUANT8_ASYMM_SIGNED, [4, 32], h_scale, h_zp)
    b.add_operation("FULLY_CONNECTED", [x, w1_i, b1_i, relu], [h])
    w2 = rng.integers(-127, 128, (16, 32)).astype(np.int8)
    s_w2 = 0.01
    bias2 = rng.integers(-500, 500, 16).astype(np.int32)
    y_scale, y_zp = 0.1, 0
    w2_i = b.add_constant(T.TENSOR_QUANT8_ASYMM_SIGNED, w2, scale=s_w2, zero_point=0)
    b2_i = b.add_constant(T.TENSOR_INT32, bias2, scale=h_scale * s_w2)
    none = b.add_constant(T.INT32, 0)
    y = b.add_operand(T.TENSOR_QUANT8_ASYMM_SIGNED, [4, 16], y_scale, y_zp)
    b.add_operation("FULLY_CONNECTED", [h, w2_i, b2_i, none], [y])
    r = b.add_operand(T.TENSOR_QUANT8_ASYMM_SIGNED, [4, 16], 0.12, 2)
    b.add_operation("ADD", [y, x, none], [r])
    shape = b.add_constant(T.TENSOR_INT32, np.array([64], np.int32))
    out = b.add_operand(T.TENSOR_QUANT8_ASYMM_SIGNED, [64], 0.12, 2)
    b.add_operation("RESHAPE", [r, shape], [out])
    b.identify_inputs_and_outputs([x], [out])
    model = b.finish()

    def reference(xq):
        xf = (xq.astype(np.float64) - z_in) * s_in
        hf = np.maximum(xf @ (w1 * s_w1).T + bias1 * s_in * s_w1, 0)
        hf = np.clip(np.round(hf / h_scale) + h_zp, -128, 127)
        hf = (hf - h_zp) * h_scale  # h is quantized in the model too
        yf = hf @ (w2 * s_w2).T + bias2 * h_scale * s_w2
        yf = (np.clip(np.round(yf / y_scale) + y_zp, -128, 127) - y_zp) * y_scale
        return (yf + xf).reshape(-1)

    xq = rng.integers(-128, 128, (4, 16)).astype(np.int8)
    return model, xq, reference


def mlp(seed: int = 0):
    """The ``nnaccel demo`` network (:func:`build_demo_model`)."""
    return build_demo_model(seed)[0]


REFERENCE_MODELS = {"mlp": mlp, "mobilenet_block": mobilenet_block, "small_cnn": small_cnn}
