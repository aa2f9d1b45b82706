"""The stacked-taps schedule of dense KxK convolutions (``compiler/lower/stacked.py``): CONV_2D
layers whose small images and many channels make the compiler choose it (K tiles of taps chained
by one GEMM, ``kt > 0``, which the general schedule never issues) must be bit-exact with the
golden model and free of races and bank conflicts under the exact schedule (``find_conflicts``);
random layers near the crossing of the two schedules' estimates are bit-exact either way."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.one_op import isa_checked

from nnaccel.golden.nn import conv_output_size
from nnaccel.model import ChannelQuant, ModelBuilder, OperandType

T = OperandType


def conv_model(h, w, c, o, fh, fw, pads, stride, per_channel, act, rng):
    """A one-op int8 CONV_2D model (NHWC; ``pads`` left, right, top, bottom; ``stride`` rows,
    columns) and an input for it."""
    q = T.TENSOR_QUANT8_ASYMM_SIGNED
    b = ModelBuilder("conv")
    i32 = lambda v: b.add_constant(T.INT32, v)
    pl, pr, pt, pb = pads
    sh, sw = stride
    oh, ow = conv_output_size(h, fh, sh, pt, pb, 1), conv_output_size(w, fw, sw, pl, pr, 1)
    x = b.add_operand(q, (1, h, w, c), 0.05, 3)
    wt = rng.integers(-127, 128, (o, fh, fw, c)).astype(np.int8)
    if per_channel:
        scales = tuple(float(v) for v in rng.uniform(0.001, 0.02, o))
        wi = b.add_constant(T.TENSOR_QUANT8_SYMM_PER_CHANNEL, wt, channel_quant=ChannelQuant(scales, 0))
        bscale = 0.0
    else:
        wi = b.add_constant(q, wt, scale=0.01, zero_point=0)
        bscale = float(np.float32(0.05) * np.float32(0.01))
    bi = b.add_constant(T.TENSOR_INT32, rng.integers(-5000, 5000, o).astype(np.int32), scale=bscale)
    y = b.add_operand(q, (1, oh, ow, o), 0.5, -2)
    b.add_operation("CONV_2D", [x, wi, bi, *[i32(v) for v in (pl, pr, pt, pb, sw, sh)], i32(act),
                                b.add_constant(T.BOOL, False)], [y])
    b.identify_inputs_and_outputs([x], [y])
    data = rng.integers(-128, 128, (1, h, w, c)).astype(np.int8)
    return b.finish(), data


def run_checked(model, data, preset):
    """The GEMMs of ``model``'s program, run checked on the ISA simulator (one CONV_2D)."""
    _, _, program = isa_checked(model, [data], preset, "CONV_2D")
    return [d for d in program if d.name == "GEMM"]


#: (preset, h, w, c, o, filter, padding left / right / top / bottom, stride): small images of
#: many channels, where the stacked-taps schedule is the cheaper one
CASES = [
    ("base", 6, 6, 64, 64, (3, 3), (1, 1, 1, 1), (1, 1)),
    ("base", 8, 8, 35, 40, (3, 3), (1, 1, 1, 1), (1, 1)),     # partial input and output blocks
    ("base", 10, 9, 48, 64, (3, 3), (0, 1, 0, 1), (2, 2)),
    ("base", 6, 6, 64, 64, (5, 5), (2, 2, 2, 2), (1, 1)),
    ("base", 7, 7, 64, 48, (2, 2), (0, 0, 0, 0), (1, 1)),
    ("base", 17, 17, 32, 32, (3, 3), (1, 1, 1, 1), (1, 1)),    # a shorter last row block
    ("base", 12, 12, 32, 64, (3, 3), (0, 1, 0, 1), (2, 2)),
    ("base", 13, 7, 64, 32, (3, 3), (1, 1, 1, 1), (1, 1)),
    ("small", 6, 6, 32, 32, (3, 3), (1, 1, 1, 1), (1, 1)),
    ("small", 9, 8, 32, 32, (3, 3), (1, 1, 1, 1), (2, 1)),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[0]}-{c[1]}x{c[2]}x{c[3]}-{c[4]}-{c[5][0]}x{c[5][1]}-s{c[7][0]}{c[7][1]}")
def test_small_image_convolutions_chain_their_taps(case):
    preset, h, w, c, o, (fh, fw), pads, stride = case
    rng = np.random.default_rng(h * w + c)
    model, x = conv_model(h, w, c, o, fh, fw, pads, stride, c % 2 == 0, 1, rng)
    gemms = run_checked(model, x, preset)
    assert any(g.kt > 0 for g in gemms), "the layer did not chain K tiles of its taps"


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_random_convolutions_bit_exact(data):
    """Random dense convolutions near where the schedules' estimates cross, whichever is chosen."""
    draw = data.draw
    preset = draw(st.sampled_from(["small", "base"]))
    rows = 8 if preset == "small" else 16
    fh, fw = draw(st.sampled_from([(3, 3), (3, 3), (5, 5), (1, 3), (3, 1), (2, 2)]))
    stride = draw(st.sampled_from([(1, 1), (2, 2), (1, 2)]))
    stride = (min(stride[0], fh), min(stride[1], fw))
    h, w = draw(st.integers(max(fh, 4), 10)), draw(st.integers(max(fw, 4), 10))
    c = draw(st.integers(2, 4)) * rows + draw(st.sampled_from([0, 0, 3]))
    o = draw(st.integers(2, 4)) * rows - draw(st.sampled_from([0, 0, 5]))
    pads = tuple(draw(st.integers(0, k - 1)) for k in (fw, fw, fh, fh))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    model, x = conv_model(h, w, c, o, fh, fw, pads, stride, draw(st.booleans()), draw(st.integers(0, 3)), rng)
    run_checked(model, x, preset)


def test_resnet_block_conv_on_base():
    """8x8x64 -> 64, 3x3, padding 1 (ResNet-8's last block): 36 K tiles per output block, chained
    in GEMMs of up to 16, each over the whole image."""
    rng = np.random.default_rng(1)
    model, x = conv_model(8, 8, 64, 64, 3, 3, (1, 1, 1, 1), (1, 1), True, 1, rng)
    gemms = run_checked(model, x, "base")
    assert sum(g.kt + 1 for g in gemms) == 36 * 4
    assert {(g.nx, g.ny) for g in gemms} == {(8, 8)}


def test_resnet_stem_conv_in_row_windows_on_base():
    """32x32x16 -> 16, 3x3, padding 1 (ResNet-8's first block): per block of rows one window of
    input rows per filter column, each GEMM streaming the block as one line of pixels and
    chaining the column's three taps; every output pixel gets all nine taps exactly once."""
    rng = np.random.default_rng(2)
    model, x = conv_model(32, 32, 16, 16, 3, 3, (1, 1, 1, 1), (1, 1), True, 1, rng)
    gemms = run_checked(model, x, "base")
    assert {(g.ny, g.kt) for g in gemms} == {(1, 2)}
    assert sum(g.nx * (g.kt + 1) for g in gemms) == 32 * 32 * 9
