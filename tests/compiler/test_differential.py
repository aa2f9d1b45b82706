"""Property-based differential test: random quantized CONV_2D / DEPTHWISE_CONV_2D / GROUPED_CONV_2D /
FULLY_CONNECTED / MAX_POOL_2D / AVERAGE_POOL_2D layers (and ADD / SUB / MUL, LUT activations,
CONCATENATION, BATCH_MATMUL, TRANSPOSE, PAD), compiled for a random preset and run on the
ISA simulator, must be bit-exact with the golden model (and actually run on the accelerator)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from nnaccel.compiler.compile import compile_model
from nnaccel.firmware.runtime import Runtime

from nnaccel.golden.interpreter import run_model
from nnaccel.golden.nn import conv_output_size
from nnaccel.model import ChannelQuant, ModelBuilder, OperandType

T = OperandType
from nnaccel.hwconfig import PRESETS as HW_PRESETS

#: The presets, and tiny with a quarter of its ACT scratchpad (2 KiB: 128 lines per DMA staging
#: buffer, fewer than a LOAD box may name) so that the schedules' capacity limits are exercised.
PRESETS = ("tiny", "small", "base", HW_PRESETS["tiny"].replace(name="tiny-act2k", act_bytes=2048))


@st.composite
def layers(draw, max_hw: int = 10, max_c: int = 20, nchw=None):
    """A random layer; ``nchw`` True / False forces the layout flag of the window layers (None:
    drawn)."""
    kind = draw(st.sampled_from(["CONV_2D", "DEPTHWISE_CONV_2D", "GROUPED_CONV_2D", "FULLY_CONNECTED",
                                 "MAX_POOL_2D", "AVERAGE_POOL_2D"]))
    if nchw is None:
        nchw = draw(st.booleans())
    # 4-D shapes in the layer's layout (NCHW: channels second)
    lay = (lambda n_, h_, w_, c_: (n_, c_, h_, w_)) if nchw else (lambda n_, h_, w_, c_: (n_, h_, w_, c_))
    signed = draw(st.booleans())
    q = T.TENSOR_QUANT8_ASYMM_SIGNED if signed else T.TENSOR_QUANT8_ASYMM
    lo = -128 if signed else 0
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    b = ModelBuilder(f"random_{kind}")
    sx = draw(st.floats(0.01, 0.2))
    zx = draw(st.integers(lo, lo + 255))
    so = draw(st.floats(0.01, 0.5))
    zo = draw(st.integers(lo, lo + 255))
    act = draw(st.integers(0, 3))
    n = draw(st.integers(1, 2))
    h, w = draw(st.integers(1, max_hw)), draw(st.integers(1, max_hw))
    c = draw(st.integers(1, max_c))
    i32 = lambda v: b.add_constant(T.INT32, v)
    if kind == "FULLY_CONNECTED":
        units = draw(st.integers(1, 2 * max_c))
        x = b.add_operand(q, (n * h, c), sx, zx)
        wt = rng.integers(lo, lo + 256, (units, c)).astype(np.int8 if signed else np.uint8)
        zw = draw(st.integers(lo, lo + 255)) if not signed else 0
        sw = draw(st.floats(0.001, 0.05))
        wi = b.add_constant(q, wt, scale=sw, zero_point=zw)
        bi = b.add_constant(T.TENSOR_INT32, rng.integers(-5000, 5000, units).astype(np.int32),
                            scale=float(np.float32(sx) * np.float32(sw)))
        y = b.add_operand(q, (n * h, units), so, zo)
        b.add_operation(kind, [x, wi, bi, i32(act)], [y])
    else:
        fh, fw = draw(st.integers(1, 4)), draw(st.integers(1, 4))
        sh, sw_ = draw(st.integers(1, 3)), draw(st.integers(1, 3))
        pool = kind.endswith("POOL_2D")
        dh, dw = (1, 1) if pool or kind == "GROUPED_CONV_2D" else (draw(st.integers(1, 3)), draw(st.integers(1, 3)))
        maxpad = ((fh - 1) * dh, (fw - 1) * dw)  # paddings must be smaller than the dilated filter
        pt, pb = draw(st.integers(0, maxpad[0])), draw(st.integers(0, maxpad[0]))
        pl, pr = draw(st.integers(0, maxpad[1])), draw(st.integers(0, maxpad[1]))
        oh = conv_output_size(h, fh, sh, pt, pb, dh)
        ow = conv_output_size(w, fw, sw_, pl, pr, dw)
        assume(oh > 0 and ow > 0)
        x = b.add_operand(q, lay(n, h, w, c), sx, zx)
        pads = [i32(v) for v in (pl, pr, pt, pb, sw_, sh)]
        if pool:
            y = b.add_operand(q, lay(n, oh, ow, c), sx, zx)
            layout = [b.add_constant(T.BOOL, True)] if nchw else []
            b.add_operation(kind, [x, *pads, i32(fw), i32(fh), i32(act), *layout], [y])
        else:
            groups = 1
            if kind == "DEPTHWISE_CONV_2D":
                mult = draw(st.integers(1, 3))
                o = c * mult
                wshape, cdim = (1, fh, fw, o), 3
            elif kind == "GROUPED_CONV_2D":
                groups = draw(st.sampled_from([g for g in range(1, c + 1) if c % g == 0]))
                o = groups * draw(st.integers(1, 4))
                wshape, cdim = (o, fh, fw, c // groups), 0
            else:
                o = draw(st.integers(1, 2 * max_c))
                wshape, cdim = (o, fh, fw, c), 0
            per_channel = draw(st.booleans())
            if per_channel:
                wt = rng.integers(-127, 128, wshape).astype(np.int8)
                scales = tuple(float(v) for v in rng.uniform(0.001, 0.05, o))
                wi = b.add_constant(T.TENSOR_QUANT8_SYMM_PER_CHANNEL, wt, channel_quant=ChannelQuant(scales, cdim))
                bscale = 0.0
            else:
                wt = rng.integers(lo, lo + 256, wshape).astype(np.int8 if signed else np.uint8)
                sw = draw(st.floats(0.001, 0.05))
                wi = b.add_constant(q, wt, scale=sw, zero_point=draw(st.integers(lo, lo + 255)) if not signed else 0)
                bscale = float(np.float32(sx) * np.float32(sw))
            bi = b.add_constant(T.TENSOR_INT32, rng.integers(-5000, 5000, o).astype(np.int32), scale=bscale)
            y = b.add_operand(q, lay(n, oh, ow, o), so, zo)
            extra = []
            if kind == "DEPTHWISE_CONV_2D":
                extra = [i32(mult)]
            elif kind == "GROUPED_CONV_2D":
                extra = [i32(groups)]
            tail = [b.add_constant(T.BOOL, nchw)]
            if kind != "GROUPED_CONV_2D" and (dh, dw) != (1, 1):
                tail += [i32(dw), i32(dh)]
            b.add_operation(kind, [x, wi, bi, *pads, *extra, i32(act), *tail], [y])
    b.identify_inputs_and_outputs([x], [y])
    model = b.finish()
    xo = model.main.operands[x]
    data = rng.integers(lo, lo + 256, xo.dimensions).astype(np.int8 if signed else np.uint8)
    return model, data, draw(st.sampled_from(PRESETS))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(layers())
def test_random_layer_bit_exact(case):
    model, data, preset = case
    pkg = compile_model(model, preset)
    assert [o["type"] for o in pkg.manifest["accelerator_ops"]] == [model.main.operations[0].type], \
        pkg.manifest["host_ops"]
    outs, report = Runtime(pkg).run([data], "isa", check=True)
    want = run_model(model, [data])
    np.testing.assert_array_equal(outs[0], want[0])
    assert report["total"]["cycles"] > 0


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(layers(nchw=True))
def test_random_nchw_layer_bit_exact_without_races(case):
    """NCHW layers run on the accelerator through the DMA layout passes: bit-exact, and the
    schedule keeps the bank / race rules (``find_conflicts``)."""
    from nnaccel.sim.isasim import find_conflicts

    from nnaccel.isa import bytes_to_words

    model, _data, preset = case
    test_random_layer_bit_exact.hypothesis.inner_test(case)
    pkg = compile_model(model, preset)
    for seg in pkg.manifest["segments"]:
        assert find_conflicts(bytes_to_words(pkg.segment_words(seg)), pkg.config()) == []
    if model.main.operations[0].type != "FULLY_CONNECTED":
        assert any("NCHW" in line for line in pkg.listing.splitlines())
        # the NHWC scratch copies lie in the external memory map, after the tensors, before the constants
        areas = pkg.manifest["scratch"]["0"]
        tensors = pkg.manifest["tensors"].values()
        assert len(areas) == 2
        assert all(t["addr"] + t["bytes"] <= min(areas) for t in tensors)
        assert max(areas) < pkg.manifest["memory"]["const_base"]


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(layers(max_hw=40, max_c=48))
def test_random_large_layer_bit_exact(case):
    """Layers larger than one tile / one weight pass of the small presets."""
    test_random_layer_bit_exact.hypothesis.inner_test(case)


@st.composite
def other_ops(draw):
    """ADD / SUB / MUL (equal shapes or a one-element constant), LUT activations, CONCATENATION,
    BATCH_MATMUL, TRANSPOSE (any permutation), PAD / PAD_V2 (any axis) with random shapes
    and quantization."""
    kind = draw(st.sampled_from(["ADD", "SUB", "MUL", "LOGISTIC", "TANH", "HARD_SWISH", "RELU6",
                                 "CONCATENATION", "BATCH_MATMUL", "TRANSPOSE", "PAD", "PAD_V2"]))
    signed = kind == "BATCH_MATMUL" or draw(st.booleans())
    q = T.TENSOR_QUANT8_ASYMM_SIGNED if signed else T.TENSOR_QUANT8_ASYMM
    lo = -128 if signed else 0
    dt = np.int8 if signed else np.uint8
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    b = ModelBuilder(f"random_{kind}")
    shape = tuple(draw(st.lists(st.integers(1, 9), min_size=1, max_size=4)))
    sx, zx = draw(st.floats(0.01, 0.2)), draw(st.integers(lo, lo + 255))
    x = b.add_operand(q, shape, sx, zx)
    inputs, data = [x], [rng.integers(lo, lo + 256, shape).astype(dt)]
    if kind in ("ADD", "SUB", "MUL"):
        s2, z2 = draw(st.floats(0.01, 0.2)), draw(st.integers(lo, lo + 255))
        how = draw(st.sampled_from(["full", "splat", "rows"]))
        if how == "splat":
            other = b.add_constant(q, np.array([draw(st.integers(lo, lo + 255))], dt), scale=s2, zero_point=z2)
        elif how == "rows":  # trailing dimensions broadcast over the leading ones
            keep = draw(st.integers(1, len(shape)))
            bshape = (1,) * draw(st.integers(0, len(shape) - keep)) + shape[len(shape) - keep:]
            other = b.add_operand(q, bshape, s2, z2)
            inputs.append(other)
            data.append(rng.integers(lo, lo + 256, bshape).astype(dt))
            if draw(st.booleans()):  # the broadcast operand first
                inputs.reverse()
                data.reverse()
                x, other = other, x
        else:
            other = b.add_operand(q, shape, s2, z2)
            inputs.append(other)
            data.append(rng.integers(lo, lo + 256, shape).astype(dt))
        so = draw(st.floats(0.05, 0.5)) if kind == "MUL" else draw(st.floats(0.01, 0.5))  # MUL: so > s1 * s2
        y = b.add_operand(q, shape, so, draw(st.integers(lo, lo + 255)))
        b.add_operation(kind, [x, other, b.add_constant(T.INT32, draw(st.integers(0, 3)))], [y])
    elif kind == "CONCATENATION":
        axis = draw(st.integers(-len(shape), len(shape) - 1))
        # mixed quantization: the output (and some inputs) quantized unlike the first input
        mixed = draw(st.booleans())
        oq = (draw(st.floats(0.01, 0.2)), draw(st.integers(lo, lo + 255))) if mixed else (sx, zx)
        others = []
        for _ in range(draw(st.integers(1, 3))):
            s = list(shape)
            s[axis] = draw(st.integers(1, 9))
            iq = (draw(st.floats(0.01, 0.2)), draw(st.integers(lo, lo + 255))) if mixed and draw(st.booleans()) else oq
            o = b.add_operand(q, s, *iq)
            others.append(o)
            inputs.append(o)
            data.append(rng.integers(lo, lo + 256, s).astype(dt))
        out = list(shape)
        out[axis] = sum(b._graph.operands[i].dimensions[axis] for i in [x, *others])
        y = b.add_operand(q, out, *oq)
        b.add_operation(kind, [x, *others, b.add_constant(T.INT32, axis)], [y])
    elif kind == "TRANSPOSE":
        r = len(shape)
        perm = list(draw(st.permutations(list(range(r)))))  # the last axis may move (byte gather)
        y = b.add_operand(q, [shape[p] for p in perm], sx, zx)
        b.add_operation(kind, [x, b.add_constant(T.TENSOR_INT32, np.array(perm, np.int32))], [y])
    elif kind in ("PAD", "PAD_V2"):
        pads = np.array([[draw(st.integers(0, 3)), draw(st.integers(0, 3))] for _ in shape], np.int32)
        y = b.add_operand(q, [d + p.sum() for d, p in zip(shape, pads)], sx, zx)
        extra = [b.add_constant(T.INT32, draw(st.integers(lo, lo + 255)))] if kind == "PAD_V2" else []
        b.add_operation(kind, [x, b.add_constant(T.TENSOR_INT32, pads), *extra], [y])
    elif kind == "BATCH_MATMUL":
        assume(len(shape) >= 2)
        adj_x, adj_y = draw(st.booleans()), draw(st.booleans())  # adjoint (transposed) operands
        m, k = (shape[-1], shape[-2]) if adj_x else (shape[-2], shape[-1])
        n = draw(st.integers(1, 40))
        ys = (*shape[:-2], n, k) if adj_y else (*shape[:-2], k, n)
        other = b.add_operand(q, ys, draw(st.floats(0.01, 0.2)), draw(st.integers(lo, lo + 255)))
        inputs.append(other)
        data.append(rng.integers(lo, lo + 256, ys).astype(dt))
        y = b.add_operand(q, (*shape[:-2], m, n), draw(st.floats(0.05, 2.0)), draw(st.integers(lo, lo + 255)))
        adj = [b.add_constant(T.BOOL, adj_x), b.add_constant(T.BOOL, adj_y)] if adj_x or adj_y else []
        b.add_operation(kind, [x, other, *adj], [y])
    else:
        if kind == "LOGISTIC":
            oq = (1 / 256, lo)
        elif kind == "TANH":
            oq = (1 / 128, 0 if signed else 128)
        elif kind == "RELU6":
            oq = (sx, zx)
        else:
            oq = (draw(st.floats(0.01, 0.2)), draw(st.integers(lo, lo + 255)))
        y = b.add_operand(q, shape, *oq)
        b.add_operation(kind, [x], [y])
    b.identify_inputs_and_outputs(inputs, [y])
    return b.finish(), data, draw(st.sampled_from(PRESETS))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(other_ops())
def test_random_elementwise_dma_matmul_bit_exact(case):
    model, data, preset = case
    pkg = compile_model(model, preset)
    assert [o["type"] for o in pkg.manifest["accelerator_ops"]] == [model.main.operations[0].type], \
        pkg.manifest["host_ops"]
    outs, _ = Runtime(pkg).run(data, "isa", check=True)
    np.testing.assert_array_equal(outs[0], run_model(model, data)[0])


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("signed", [False, True])
def test_mixed_quantization_concatenation_on_accelerator(preset, signed):
    """CONCATENATION whose inputs are quantized unlike the output (and one like it) runs on the
    accelerator (LUT rescale into scratch, then DMA), bit-exact, without races."""
    from nnaccel.sim.isasim import find_conflicts

    from nnaccel.isa import bytes_to_words

    q = T.TENSOR_QUANT8_ASYMM_SIGNED if signed else T.TENSOR_QUANT8_ASYMM
    lo, dt = (-128, np.int8) if signed else (0, np.uint8)
    rng = np.random.default_rng(7)
    b = ModelBuilder("mixed_concat")
    quants = [(0.05, lo + 10), (0.11, lo + 200), (0.02, lo + 128)]
    shapes = [(2, 5, 3), (2, 5, 17), (2, 5, 4)]
    xs = [b.add_operand(q, s, *qq) for s, qq in zip(shapes, quants)]
    y = b.add_operand(q, (2, 5, 24), *quants[2])
    b.add_operation("CONCATENATION", [*xs, b.add_constant(T.INT32, -1)], [y])
    b.identify_inputs_and_outputs(xs, [y])
    model = b.finish()
    data = [rng.integers(lo, lo + 256, s).astype(dt) for s in shapes]
    pkg = compile_model(model, preset)
    assert [o["type"] for o in pkg.manifest["accelerator_ops"]] == ["CONCATENATION"], pkg.manifest["host_ops"]
    assert sum("rescale input" in line and "func=LUT" in line for line in pkg.listing.splitlines()) >= 2
    outs, _ = Runtime(pkg).run(data, "isa", check=True)
    np.testing.assert_array_equal(outs[0], run_model(model, data)[0])
    for seg in pkg.manifest["segments"]:
        assert find_conflicts(bytes_to_words(pkg.segment_words(seg)), pkg.config()) == []


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("adj", [(True, False), (False, True), (True, True)])
def test_adjoint_batch_matmul_on_accelerator(preset, adj):
    """BATCH_MATMUL with adjoint operands runs on the accelerator (the operand transposed by
    byte-gather DMA into scratch), bit-exact, without races."""
    from nnaccel.sim.isasim import find_conflicts

    from nnaccel.isa import bytes_to_words

    q = T.TENSOR_QUANT8_ASYMM_SIGNED
    rng = np.random.default_rng(3)
    batch, m, k, n = 2, 7, 19, 21
    xs = (batch, k, m) if adj[0] else (batch, m, k)
    ys = (batch, n, k) if adj[1] else (batch, k, n)
    b = ModelBuilder("adjoint_matmul")
    x = b.add_operand(q, xs, 0.05, -3)
    w = b.add_operand(q, ys, 0.03, 5)
    y = b.add_operand(q, (batch, m, n), 0.9, 2)
    b.add_operation("BATCH_MATMUL", [x, w, b.add_constant(T.BOOL, adj[0]), b.add_constant(T.BOOL, adj[1])], [y])
    b.identify_inputs_and_outputs([x, w], [y])
    model = b.finish()
    data = [rng.integers(-128, 128, s).astype(np.int8) for s in (xs, ys)]
    pkg = compile_model(model, preset)
    assert [o["type"] for o in pkg.manifest["accelerator_ops"]] == ["BATCH_MATMUL"], pkg.manifest["host_ops"]
    assert sum("adjoint" in line for line in pkg.listing.splitlines()) >= 2
    outs, _ = Runtime(pkg).run(data, "isa", check=True)
    np.testing.assert_array_equal(outs[0], run_model(model, data)[0])
    for seg in pkg.manifest["segments"]:
        assert find_conflicts(bytes_to_words(pkg.segment_words(seg)), pkg.config()) == []


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("perm", [(1, 0), (0, 2, 1), (2, 0, 1), (3, 1, 0, 2)])
def test_transpose_moving_the_last_axis_on_accelerator(preset, perm):
    """A TRANSPOSE that moves the last axis runs as byte gather / scatter DMA: bit-exact, no races."""
    from nnaccel.sim.isasim import find_conflicts

    from nnaccel.isa import bytes_to_words

    shape = (5, 17, 3, 4)[:len(perm)]
    q = T.TENSOR_QUANT8_ASYMM
    b = ModelBuilder("transpose_bytes")
    x = b.add_operand(q, shape, 0.1, 7)
    y = b.add_operand(q, [shape[p] for p in perm], 0.1, 7)
    b.add_operation("TRANSPOSE", [x, b.add_constant(T.TENSOR_INT32, np.array(perm, np.int32))], [y])
    b.identify_inputs_and_outputs([x], [y])
    model = b.finish()
    data = [np.random.default_rng(1).integers(0, 256, shape).astype(np.uint8)]
    pkg = compile_model(model, preset)
    assert [o["type"] for o in pkg.manifest["accelerator_ops"]] == ["TRANSPOSE"], pkg.manifest["host_ops"]
    outs, _ = Runtime(pkg).run(data, "isa", check=True)
    np.testing.assert_array_equal(outs[0], run_model(model, data)[0])
    for seg in pkg.manifest["segments"]:
        assert find_conflicts(bytes_to_words(pkg.segment_words(seg)), pkg.config()) == []


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("kind", ["PAD", "PAD_V2"])
def test_pad_of_the_last_axis_on_accelerator(preset, kind):
    """PAD / PAD_V2 that pads the last axis: each input row is stored at its offset (no lane
    shift needed): bit-exact, no races."""
    from nnaccel.sim.isasim import find_conflicts

    from nnaccel.isa import bytes_to_words

    shape = (3, 5, 19)
    pads = np.array([[1, 0], [2, 3], [5, 2]], np.int32)
    q = T.TENSOR_QUANT8_ASYMM_SIGNED
    b = ModelBuilder("pad_last")
    x = b.add_operand(q, shape, 0.1, -7)
    y = b.add_operand(q, [d + p.sum() for d, p in zip(shape, pads)], 0.1, -7)
    extra = [b.add_constant(T.INT32, 42)] if kind == "PAD_V2" else []
    b.add_operation(kind, [x, b.add_constant(T.TENSOR_INT32, pads), *extra], [y])
    b.identify_inputs_and_outputs([x], [y])
    model = b.finish()
    data = [np.random.default_rng(2).integers(-128, 128, shape).astype(np.int8)]
    pkg = compile_model(model, preset)
    assert [o["type"] for o in pkg.manifest["accelerator_ops"]] == [kind], pkg.manifest["host_ops"]
    outs, _ = Runtime(pkg).run(data, "isa", check=True)
    np.testing.assert_array_equal(outs[0], run_model(model, data)[0])
    for seg in pkg.manifest["segments"]:
        assert find_conflicts(bytes_to_words(pkg.segment_words(seg)), pkg.config()) == []
