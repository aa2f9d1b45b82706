"""The pointwise schedule (1x1 convolutions and FULLY_CONNECTED as one pre-tokenized pass with
K-tile GEMMs, REQ on the vector queue, double-buffered slots): random layers of every kind and
size class (one or many pixel blocks, remainder blocks, resident or streamed weights and
parameters, sparse grouped / depthwise filters) on every preset must be bit-exact with the
golden model, free of races under the exact schedule (``find_conflicts``), and use ``kt``."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from nnaccel.compiler.compile import compile_model
from nnaccel.firmware.runtime import Runtime
from nnaccel.sim.isasim import find_conflicts
from support.one_op import isa_checked

from nnaccel.golden.interpreter import run_model
from nnaccel.isa import bytes_to_words, decode
from nnaccel.model import ChannelQuant, ModelBuilder, OperandType

T = OperandType


@st.composite
def pointwise_layers(draw):
    kind = draw(st.sampled_from(["CONV_2D", "CONV_2D", "GROUPED_CONV_2D", "DEPTHWISE_CONV_2D", "FULLY_CONNECTED"]))
    signed = draw(st.booleans())
    q = T.TENSOR_QUANT8_ASYMM_SIGNED if signed else T.TENSOR_QUANT8_ASYMM
    lo = -128 if signed else 0
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    b = ModelBuilder(f"pointwise_{kind}")
    sx, so = draw(st.floats(0.01, 0.2)), draw(st.floats(0.05, 0.5))
    zx, zo = draw(st.integers(lo, lo + 255)), draw(st.integers(lo, lo + 255))
    act = draw(st.integers(0, 3))
    n = draw(st.integers(1, 2))
    h, w = draw(st.integers(1, 24)), draw(st.integers(1, 24))
    c = draw(st.integers(1, 72))
    i32 = lambda v: b.add_constant(T.INT32, v)
    groups, mult = 1, 1
    if kind == "DEPTHWISE_CONV_2D":
        mult = draw(st.integers(1, 3))
        o = c * mult
    elif kind == "GROUPED_CONV_2D":
        groups = draw(st.sampled_from([g for g in range(1, c + 1) if c % g == 0]))
        o = groups * draw(st.integers(1, 8))
    else:
        o = draw(st.integers(1, 200))
    per_channel = kind != "FULLY_CONNECTED" and draw(st.booleans())
    wshape = {"CONV_2D": (o, 1, 1, c), "GROUPED_CONV_2D": (o, 1, 1, c // groups),
              "DEPTHWISE_CONV_2D": (1, 1, 1, o), "FULLY_CONNECTED": (o, c)}[kind]
    if per_channel:
        wt = rng.integers(-127, 128, wshape).astype(np.int8)
        scales = tuple(float(v) for v in rng.uniform(0.001, 0.05, o))
        wi = b.add_constant(T.TENSOR_QUANT8_SYMM_PER_CHANNEL, wt,
                            channel_quant=ChannelQuant(scales, 3 if kind == "DEPTHWISE_CONV_2D" else 0))
        bscale = 0.0
    else:
        wt = rng.integers(lo, lo + 256, wshape).astype(np.int8 if signed else np.uint8)
        swt = draw(st.floats(0.001, 0.05))
        wi = b.add_constant(q, wt, scale=swt, zero_point=draw(st.integers(lo, lo + 255)) if not signed else 0)
        bscale = float(np.float32(sx) * np.float32(swt))
    bi = b.add_constant(T.TENSOR_INT32, rng.integers(-5000, 5000, o).astype(np.int32), scale=bscale)
    if kind == "FULLY_CONNECTED":
        x = b.add_operand(q, (n * h * w, c), sx, zx)
        y = b.add_operand(q, (n * h * w, o), so, zo)
        b.add_operation(kind, [x, wi, bi, i32(act)], [y])
    else:
        x = b.add_operand(q, (n, h, w, c), sx, zx)
        y = b.add_operand(q, (n, h, w, o), so, zo)
        pads = [i32(v) for v in (0, 0, 0, 0, 1, 1)]
        extra = [i32(mult)] if kind == "DEPTHWISE_CONV_2D" else [i32(groups)] if kind == "GROUPED_CONV_2D" else []
        b.add_operation(kind, [x, wi, bi, *pads, *extra, i32(act), b.add_constant(T.BOOL, False)], [y])
    b.identify_inputs_and_outputs([x], [y])
    model = b.finish()
    data = rng.integers(lo, lo + 256, model.main.operands[x].dimensions).astype(np.int8 if signed else np.uint8)
    return model, data, draw(st.sampled_from(("tiny", "small", "base", "large")))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pointwise_layers())
def test_pointwise_layer_bit_exact_without_races(case):
    model, data, preset = case
    pkg = compile_model(model, preset)
    assert [o["type"] for o in pkg.manifest["accelerator_ops"]] == [model.main.operations[0].type]
    outs, _ = Runtime(pkg).run([data], "isa", check=True)
    np.testing.assert_array_equal(outs[0], run_model(model, [data])[0])
    cfg = pkg.config()
    (seg,) = pkg.manifest["segments"]
    words = bytes_to_words(pkg.segment_words(seg))
    assert find_conflicts(words, cfg) == []
    gemms = [decode(w) for w in words if decode(w).name == "GEMM"]
    c = data.shape[-1]
    x = model.main.operands[model.main.operations[0].inputs[1]]
    dense = model.main.operations[0].type in ("CONV_2D", "FULLY_CONNECTED") or (
        model.main.operations[0].type == "GROUPED_CONV_2D" and x.dimensions[-1] == c)
    # more than one K tile: one GEMM runs several (the pointwise schedule needs two ACC banks)
    if dense and c > cfg.rows and cfg.banks("ACC") >= 2:
        assert max(g.kt for g in gemms) > 0


def test_benchmark_pointwise_layers_reach_80_percent():
    """The acceptance criterion of the pointwise schedule on ``base`` (MobileNet-V2 block layers),
    from the ISA simulator's exact schedule; the block programs are free of races and bank
    conflicts."""
    from nnaccel.compiler.reference_models import block_layers
    for h, w, c in ((56, 56, 24), (14, 14, 96)):
        model, names = block_layers(h, w, c)
        pkg = compile_model(model, "base")
        x = np.random.default_rng(0).integers(-128, 128, (1, h, w, c)).astype(np.int8)
        _, rep = Runtime(pkg).run([x], "isa", check=True)
        for seg in pkg.manifest["segments"]:
            assert find_conflicts(bytes_to_words(pkg.segment_words(seg)), pkg.config()) == []
        peak = pkg.config().rows * pkg.config().cols
        for lay in (la for seg in rep["segments"] for la in seg["layers"]):
            if names[lay["op"]].startswith("1x1"):
                assert lay["macs"] / (lay["cycles"] * peak) >= 0.8, (h, names[lay["op"]], lay)


def test_fully_connected_with_more_k_tiles_than_a_load_box_holds():
    """K = 4100 on ``tiny`` (1025 K tiles of 4): the one-row input block is LOADed in pieces of at
    most 255 tiles (the 8-bit ``y_size``), weights streamed, still bit-exact and race-free."""
    rng = np.random.default_rng(1)
    q = T.TENSOR_QUANT8_ASYMM_SIGNED
    b = ModelBuilder("fc_wide")
    x = b.add_operand(q, (1, 4100), 0.1, 3)
    wi = b.add_constant(q, rng.integers(-128, 128, (30, 4100)).astype(np.int8), scale=0.001, zero_point=0)
    bi = b.add_constant(T.TENSOR_INT32, rng.integers(-500, 500, 30).astype(np.int32), scale=0.0001)
    y = b.add_operand(q, (1, 30), 0.5, -2)
    b.add_operation("FULLY_CONNECTED", [x, wi, bi, b.add_constant(T.INT32, 0)], [y])
    b.identify_inputs_and_outputs([x], [y])
    model = b.finish()
    pkg = compile_model(model, "tiny")
    data = rng.integers(-128, 128, (1, 4100)).astype(np.int8)
    outs, _ = Runtime(pkg).run([data], "isa", check=True)
    np.testing.assert_array_equal(outs[0], run_model(model, [data])[0])
    (seg,) = pkg.manifest["segments"]
    words = bytes_to_words(pkg.segment_words(seg))
    assert find_conflicts(words, pkg.config()) == []
    loads = [decode(w) for w in words if decode(w).name == "LOAD" and decode(w).sp == 0]
    assert sum(d.y_size for d in loads if d.len == pkg.config().rows) == 4100 // pkg.config().rows


def _dense_pointwise(kind, m, k, n, signed, seed):
    """A FULLY_CONNECTED ``[m, k] x [k, n]`` or a 1x1 CONV_2D over an ``m = h x w`` image, random
    data and quantization (per-channel filter scales for the convolution)."""
    rng = np.random.default_rng(seed)
    q = T.TENSOR_QUANT8_ASYMM_SIGNED if signed else T.TENSOR_QUANT8_ASYMM
    lo = -128 if signed else 0
    dt = np.int8 if signed else np.uint8
    b = ModelBuilder(f"dense_{kind}")
    i32 = lambda v: b.add_constant(T.INT32, v)
    if kind == "FULLY_CONNECTED":
        wi = b.add_constant(q, rng.integers(lo, lo + 256, (n, k)).astype(dt), scale=0.002,
                            zero_point=0 if signed else 117)
        bi = b.add_constant(T.TENSOR_INT32, rng.integers(-5000, 5000, n).astype(np.int32), scale=0.1 * 0.002)
        x = b.add_operand(q, (m, k), 0.1, lo + 9)
        y = b.add_operand(q, (m, n), 0.6, lo + 130)
        b.add_operation(kind, [x, wi, bi, i32(1)], [y])
    else:
        h = next(d for d in range(int(m ** 0.5), 0, -1) if m % d == 0)
        scales = tuple(float(v) for v in rng.uniform(0.0005, 0.003, n))
        wi = b.add_constant(T.TENSOR_QUANT8_SYMM_PER_CHANNEL, rng.integers(-127, 128, (n, 1, 1, k)).astype(np.int8),
                            channel_quant=ChannelQuant(scales, 0))
        bi = b.add_constant(T.TENSOR_INT32, rng.integers(-5000, 5000, n).astype(np.int32), scale=0.0)
        x = b.add_operand(q, (1, h, m // h, k), 0.1, lo + 200)
        y = b.add_operand(q, (1, h, m // h, n), 0.6, lo + 3)
        b.add_operation(kind, [x, wi, bi, *[i32(v) for v in (0, 0, 0, 0, 1, 1)], i32(0),
                               b.add_constant(T.BOOL, False)], [y])
    b.identify_inputs_and_outputs([x], [y])
    model = b.finish()
    data = rng.integers(lo, lo + 256, model.main.operands[x].dimensions).astype(dt)
    return model, data


@pytest.mark.parametrize("preset,kind,m,k,n,signed", [
    ("small", "FULLY_CONNECTED", 14, 2318, 224, True),
    ("small", "FULLY_CONNECTED", 156, 2637, 57, False),
    ("base", "FULLY_CONNECTED", 127, 794, 241, False),
    ("base", "CONV_2D", 192, 1047, 85, True),
    ("large", "CONV_2D", 319, 643, 121, False),
    ("large", "FULLY_CONNECTED", 210, 1188, 106, True),
])
def test_k_chunked_layers_bit_exact_without_races(preset, kind, m, k, n, signed):
    """Layers whose K tiles do not fit ACT for a large pixel block take the K-chunked schedule:
    chunks of K tiles accumulate in ACC across steps, so each chunk of the input is read once
    per group of output tiles (more input bytes loaded than the input has; all of K resident
    would load it once). Bit-exact with the golden model, no races."""
    model, data = _dense_pointwise(kind, m, k, n, signed, m + k + n)
    pkg = compile_model(model, preset)
    assert [o["type"] for o in pkg.manifest["accelerator_ops"]] == [kind]
    outs, _ = Runtime(pkg).run([data], "isa", check=True)
    np.testing.assert_array_equal(outs[0], run_model(model, [data])[0])
    (seg,) = pkg.manifest["segments"]
    words = bytes_to_words(pkg.segment_words(seg))
    assert find_conflicts(words, pkg.config()) == []
    lines = [decode(w) for w in words]
    loaded = sum(d.x_size * d.y_size * d.len for d in lines if d.name == "LOAD" and d.sp == 0)
    assert loaded > m * k


@pytest.mark.parametrize("preset,k,n,signed", [
    ("small", 1000, 90, True), ("small", 37, 300, False), ("base", 128, 128, True), ("base", 640, 128, False),
    ("base", 128, 640, True), ("base", 1000, 7, True), ("large", 300, 700, False), ("large", 64, 33, True),
])
def test_one_row_fully_connected_streams_the_filter(preset, k, n, signed):
    """A batch-1 FULLY_CONNECTED where streaming the filter rows through the array (the input row
    the stationary operand, one input byte per WGT line) is estimated faster: bit-exact with the
    golden model, race-free, and (where chosen) the input row LOADed into WGT one byte a line."""
    model, data = _dense_pointwise("FULLY_CONNECTED", 1, k, n, signed, k + n)
    _, _, lines = isa_checked(model, [data], preset, "FULLY_CONNECTED")
    if (preset, k, n) in (("small", 1000, 90), ("base", 1000, 7)):
        assert sum(d.x_size * d.y_size for d in lines if d.name == "LOAD" and d.sp == 1 and d.len == 1) == k


@pytest.mark.parametrize("preset,k,n,signed", [
    ("base", 128, 128, True), ("base", 128, 640, False), ("small", 37, 300, False), ("large", 64, 33, True),
    ("base", 100, 8, False),
])
def test_one_row_fully_connected_packs_output_tiles(preset, k, n, signed):
    """A batch-1 FULLY_CONNECTED of few K tiles runs several output tiles per GEMM (each K tile
    streams one line per output tile of the GEMM, the input in one of them): bit-exact with the
    golden model, race-free, and on base within 1.5 x the cycles of streaming the filter bytes at
    the DMA's rate where the filter is large enough to dominate."""
    model, data = _dense_pointwise("FULLY_CONNECTED", 1, k, n, signed, 3 * k + n)
    pkg = compile_model(model, preset)
    outs, report = Runtime(pkg).run([data], "isa", check=True)
    np.testing.assert_array_equal(outs[0], run_model(model, [data])[0])
    (seg,) = pkg.manifest["segments"]
    words = bytes_to_words(pkg.segment_words(seg))
    assert find_conflicts(words, pkg.config()) == []
    cfg = pkg.config()
    gemms = [d for d in map(decode, words) if d.name == "GEMM"]
    if -(-n // cfg.cols) >= 2:
        assert gemms and all(d.nx == 1 and d.ny >= 2 for d in gemms)
    if preset == "base" and k * n >= 65536:
        assert report["total"]["cycles"] <= 1.5 * k * n / cfg.dma_bytes_per_cycle


def _fc_chain(rng, name: str, x_zp: int, layers, k: int = 128, out_all: bool = False):
    """Batch-1 int8 FULLY_CONNECTED layers (RELU) on a ``k``-wide input of scale 0.1, one per
    ``(outputs, output scale, output zero point)``; random filters of scale 0.002. ``out_all``:
    every layer's output is a model output."""
    q = T.TENSOR_QUANT8_ASYMM_SIGNED
    b = ModelBuilder(name)
    x = b.add_operand(q, (1, k), 0.1, x_zp)
    cur, scale, outs = x, 0.1, []
    for n, out_scale, zp in layers:
        w = b.add_constant(q, rng.integers(-128, 128, (n, k)).astype(np.int8), scale=0.002, zero_point=0)
        bias = b.add_constant(T.TENSOR_INT32, rng.integers(-5000, 5000, n).astype(np.int32), scale=scale * 0.002)
        y = b.add_operand(q, (1, n), out_scale, zp)
        b.add_operation("FULLY_CONNECTED", [cur, w, bias, b.add_constant(T.INT32, 1)], [y])
        cur, k, scale = y, n, out_scale
        outs.append(y)
    b.identify_inputs_and_outputs([x], outs if out_all else [cur])
    return b.finish()


def test_packed_layers_in_a_row_wait_for_each_other():
    """Two batch-1 FULLY_CONNECTED layers of the packed pass back to back (the autoencoder's
    shape): the second's input LOAD reads what the first's STORE wrote, so the barrier between
    them must wait for that STORE (find_conflicts reports any overlap); bit-exact."""
    rng = np.random.default_rng(5)
    model = _fc_chain(rng, "two_fc", -3, [(128, 0.6, 4), (128, 0.6, 3)])
    data = rng.integers(-128, 128, (1, 128)).astype(np.int8)
    pkg = compile_model(model, "base")
    (seg,) = pkg.manifest["segments"]
    words = bytes_to_words(pkg.segment_words(seg))
    assert sum(1 for d in map(decode, words) if d.name == "GEMM" and d.ny == 2) == 8
    assert find_conflicts(words, pkg.config()) == []
    outs, _ = Runtime(pkg).run([data], "isa", check=True)
    np.testing.assert_array_equal(outs[0], run_model(model, [data])[0])


@pytest.mark.rtl
@pytest.mark.slow
def test_packed_fully_connected_rtl_equals_isa():
    """The packed pass (GEMMs of ``ny`` = 4 lines a K tile, the input regions placed by the LOAD
    padding fields, the bias LOADed into ACC) on the RTL of small: the ISA simulator's outputs,
    the golden model's, and the same counters (cycles included)."""
    from support.one_op import isa_and_rtl
    model, data = _dense_pointwise("FULLY_CONNECTED", 1, 24, 48, True, 120)
    pkg, *_ = isa_and_rtl(model, "small", [data])
    (seg,) = pkg.manifest["segments"]
    assert any(d.name == "GEMM" and d.ny == 4 for d in map(decode, bytes_to_words(pkg.segment_words(seg))))


def _zp_chain(zero_points, out_all=False, n=128):
    """``n`` x ``n`` layers of :func:`_fc_chain`, the tensors' zero points ``zero_points`` (input
    first), and an input."""
    rng = np.random.default_rng(11)
    model = _fc_chain(rng, "fc_chain", zero_points[0], [(n, 0.3, z) for z in zero_points[1:]], n, out_all)
    return model, rng.integers(-128, 128, (1, n)).astype(np.int8)


@pytest.mark.parametrize("zero_points,out_all,stores", [
    ((-128, -128, -128, -128), False, 1),    # the autoencoder's chain: each REQ feeds the next pass
    ((-128, -128, -100, -100), False, 2),    # the third pass's input zero point is not the second's
    ((-128, -128, -128, -128), True, 3),     # the outputs between are model outputs: stored
])
def test_packed_layers_hand_their_output_to_the_next(zero_points, out_all, stores):
    """Packed FULLY_CONNECTED passes in a row (base) whose input regions have one layout and zero
    point hand their output over in ACT (compile.join): the REQ writes the next pass's input
    lines, with no STORE and no input LOAD between them; elsewhere a pass stores its output and
    the next loads it (two input regions of 16 lines each). Bit-exact with the golden model
    (every output), race-free."""
    model, data = _zp_chain(zero_points, out_all)
    pkg = compile_model(model, "base")
    (seg,) = pkg.manifest["segments"]
    words = bytes_to_words(pkg.segment_words(seg))
    assert find_conflicts(words, pkg.config()) == []
    outs, _ = Runtime(pkg).run([data], "isa", check=True)
    for got, want in zip(outs, run_model(model, [data]), strict=True):
        np.testing.assert_array_equal(got, want)
    prog = list(map(decode, words))
    assert sum(d.name == "GEMM" and d.ny == 2 for d in prog) == 4 * (len(zero_points) - 1)
    assert sum(d.name == "STORE" for d in prog) == stores
    assert sum(d.name == "LOAD" and d.sp == 0 for d in prog) == 2 * stores


@pytest.mark.rtl
@pytest.mark.slow
def test_joined_packed_layers_rtl_equals_isa():
    """Three packed FULLY_CONNECTED passes joined in ACT (compile.join: the REQ writing the next
    pass's input lines with strides, no STORE, no input LOAD between them) on the RTL of small:
    the ISA simulator's outputs, the golden model's, and the same counters (cycles included)."""
    from support.one_op import isa_and_rtl
    model, data = _zp_chain((-128, -128, -128, -128), n=48)
    pkg, *_ = isa_and_rtl(model, "small", [data])
    (seg,) = pkg.manifest["segments"]
    assert sum(d.name == "STORE" for d in map(decode, bytes_to_words(pkg.segment_words(seg)))) == 1


def test_streamed_filter_bias_loads_wait_for_the_gemms_on_their_acc_bank():
    """The filter-streaming pass (128 -> 200 batch-1 FULLY_CONNECTED on small, two ACC banks): a
    block's bias LOAD into its ACC slot runs only once the GEMMs of the earlier block in the same
    ACC bank are done (one write port per bank), though the load queue runs several steps ahead
    of the GEMMs: no bank conflict under the exact schedule, bit-exact."""
    rng = np.random.default_rng(11)
    model = _fc_chain(rng, "fc_chain", -128, [(200, 0.3, -128), (200, 0.3, -128)], 128, True)
    data = rng.integers(-128, 128, (1, 128)).astype(np.int8)
    pkg = compile_model(model, "small")
    assert "filter rows streamed" in pkg.listing
    (seg,) = pkg.manifest["segments"]
    words = bytes_to_words(pkg.segment_words(seg))
    prog = list(map(decode, words))
    assert pkg.config().banks("ACC") == 2 and any(d.name == "LOAD" and d.sp == 2 for d in prog)   # bias in ACC
    assert find_conflicts(words, pkg.config()) == []
    outs, _ = Runtime(pkg).run([data], "isa", check=True)
    for got, want in zip(outs, run_model(model, [data]), strict=True):
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("preset,k,n,signed", [
    ("base", 640, 128, True), ("base", 300, 70, False), ("small", 128, 40, False),
])
def test_packed_output_tiles_whose_k_tiles_fill_more_than_half_a_gemm(preset, k, n, signed):
    """A batch-1 FULLY_CONNECTED whose output tiles each have more than half a GEMM's K tiles
    (``MAX_KTILES`` = 16): output tiles packed in pairs (two ACC lines, ``ny = 2``), a pair's
    ``2 x KT`` tiles run in ``ceil(2 KT / 16)`` GEMMs (an odd last tile alone), never more than
    the ``ceil(KT / 16)`` per output tile one at a time (for 640 inputs fewer); bit-exact,
    race-free."""
    model, data = _dense_pointwise("FULLY_CONNECTED", 1, k, n, signed, k + n)
    pkg, _, program = isa_checked(model, [data], preset, "FULLY_CONNECTED")
    assert len(pkg.manifest["segments"]) == 1
    r = pkg.config().rows
    kt, nt = -(-k // r), -(-n // r)
    gemms = [d for d in program if d.name == "GEMM"]
    assert all(d.ny == 2 for d in gemms)
    assert len(gemms) == sum(-(-min(2, nt - j) * kt // 16) for j in range(0, nt, 2)) <= nt * -(-kt // 16)
    if (k, n) == (640, 128):
        assert len(gemms) == 20 < 8 * 3


def test_packed_input_regions_of_one_k_tile_load_in_one_box():
    """A batch-1 8 -> 128 FULLY_CONNECTED on base (one K tile, four output tiles a GEMM): the four
    input regions (the input in line g of region g, the input zero point elsewhere) are one LOAD
    box of four rows (each the input line between its fill lines), not one LOAD each; bit-exact,
    race-free."""
    model, data = _dense_pointwise("FULLY_CONNECTED", 1, 8, 128, True, 5)
    pkg = compile_model(model, "base")
    outs, _ = Runtime(pkg).run([data], "isa", check=True)
    np.testing.assert_array_equal(outs[0], run_model(model, [data])[0])
    (seg,) = pkg.manifest["segments"]
    words = bytes_to_words(pkg.segment_words(seg))
    assert find_conflicts(words, pkg.config()) == []
    prog = list(map(decode, words))
    assert [d.y_size for d in prog if d.name == "LOAD" and d.sp == 0] == [4]
    assert {d.ny for d in prog if d.name == "GEMM"} == {4}


def test_packed_layer_hands_its_output_to_a_one_tile_layer():
    """128 -> 128 -> 8 batch-1 FULLY_CONNECTED layers on base (the autoencoder's bottleneck): the
    packed first pass's REQ writes its eight output tiles into ACT lines 0..7, where the second
    pass (one output tile, one line per K tile, no fill lines) reads them: one STORE (the model's
    output) and only the first pass's two input-region LOADs; bit-exact, race-free."""
    rng = np.random.default_rng(3)
    model = _fc_chain(rng, "fc_bottleneck", -128, [(128, 0.1, -128), (8, 0.1, -20)])
    data = rng.integers(-128, 128, (1, 128)).astype(np.int8)
    pkg = compile_model(model, "base")
    (seg,) = pkg.manifest["segments"]
    words = bytes_to_words(pkg.segment_words(seg))
    assert find_conflicts(words, pkg.config()) == []
    outs, _ = Runtime(pkg).run([data], "isa", check=True)
    np.testing.assert_array_equal(outs[0], run_model(model, [data])[0])
    prog = list(map(decode, words))
    assert sum(d.name == "STORE" for d in prog) == 1
    assert sum(d.name == "LOAD" and d.sp == 0 for d in prog) == 2
