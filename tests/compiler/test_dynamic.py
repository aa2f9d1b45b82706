"""Convolutions whose filter or bias is a model input (``compiler/lower/dynamic.py``): the filter
repacked by DMA at run time, the bias LOADed into the REQ parameters. Conformance models whose
filters are inputs run on the accelerator, matching their conformance vectors; random layers
match the golden model on every preset without races; on ``tiny`` the RTL gives the ISA
simulator's bytes and cycles."""

import warnings

import numpy as np
import pytest
from nnaccel.compiler import compile_model
from nnaccel.firmware.runtime import Runtime
from nnaccel.sim.isasim import find_conflicts
from support.one_op import QT, isa_and_rtl, rand, segment_words

from nnaccel.cts import compare_outputs, cts_dir
from nnaccel.formats import load_models, run_inputs
from nnaccel.golden.interpreter import run_model
from nnaccel.hwconfig import PRESETS
from nnaccel.model import ChannelQuant, ModelBuilder
from nnaccel.model import OperandType as T

SAME, VALID = 1, 2

# one conformance file per family and type whose models include filters and biases as inputs
CTS_FILES = [
    "V1_0/fully_connected_quant8.json.gz",
    "V1_3/fully_connected_quant8_signed.json.gz",
    "V1_0/conv_quant8.json.gz",
    "V1_2/conv2d_per_channel.json.gz",
    "V1_3/conv2d_quant8_signed.json.gz",
    "V1_0/depthwise_conv2d_quant8.json.gz",
    "V1_2/depthwise_conv2d_per_channel.json.gz",
]


def _dynamic_ops(model) -> list[int]:
    sg = model.main
    return [i for i, op in enumerate(sg.operations)
            if op.type in ("CONV_2D", "DEPTHWISE_CONV_2D", "GROUPED_CONV_2D", "FULLY_CONNECTED")
            and sg.operands[op.inputs[0]].type in QT.values()
            and not all(sg.operands[j].is_constant for j in op.inputs[1:3])]


@pytest.mark.parametrize("path", CTS_FILES)
def test_conformance_models_with_input_filters_run_on_the_accelerator(path):
    models = [m for m in load_models(cts_dir() / path) if _dynamic_ops(m)]
    assert models, f"{path} has no model whose filter is an input"
    for model in models:
        with warnings.catch_warnings():
            warnings.simplefilter("error")   # no operation falls back to the host with a warning
            pkg = compile_model(model, "small", validate=False)
        accel = {o["index"] for o in pkg.manifest["accelerator_ops"]}
        assert set(_dynamic_ops(model)) <= accel, (model.name, pkg.manifest["host_ops"])
        outs, _ = Runtime(pkg).run(run_inputs(model, seed=None)[0], "isa", check=True)
        assert compare_outputs(model, outs) is None, model.name
        _no_races(pkg)


def _no_races(pkg):
    """No two instructions of a segment that overlap in time touch common lines or bytes with one
    writing (e.g. a filter read before the operation computing it has stored it)."""
    from nnaccel.isa import bytes_to_words

    for seg in pkg.manifest["segments"]:
        assert not find_conflicts(bytes_to_words(pkg.segment_words(seg)), PRESETS[pkg.manifest["config"]["name"]])


def test_grouped_nchw_conformance_model_with_input_filter():
    (model,) = [m for m in load_models(cts_dir() / "V1_2/grouped_conv2d.json.gz")
                if m.name == "grouped_conv2d_channel_nchw_quant8_all_tensors_as_inputs"]
    pkg = compile_model(model, "small", validate=False)
    assert [o["type"] for o in pkg.manifest["accelerator_ops"]] == ["GROUPED_CONV_2D"]
    outs, _ = Runtime(pkg).run(run_inputs(model, seed=None)[0], "isa", check=True)
    assert compare_outputs(model, outs) is None


def test_batch_matmul_of_two_inputs_runs_on_the_accelerator():
    """BATCH_MATMUL's right operand is loaded straight into WGT tiles from external memory, so a
    product of two model inputs needs no constant: the conformance models of the signed type
    (the one quantized type of BATCH_MATMUL) run on the accelerator."""
    def two_activations(m):
        op = m.main.operations[0]
        return (m.main.operands[op.inputs[0]].type is T.TENSOR_QUANT8_ASYMM_SIGNED
                and not any(m.main.operands[j].is_constant for j in op.inputs[:2]))

    models = [m for m in load_models(cts_dir() / "AIDL/batch_matmul.json.gz") if two_activations(m)]
    assert models
    for model in models:
        pkg = compile_model(model, "small", validate=False)
        assert [o["type"] for o in pkg.manifest["accelerator_ops"]] == ["BATCH_MATMUL"], model.name
        outs, _ = Runtime(pkg).run(run_inputs(model, seed=None)[0], "isa", check=True)
        assert compare_outputs(model, outs) is None, model.name


# ------------------------------------------------------------------------ random layers
def dynamic_model(kind, rng, dtype, x_shape, w_shape, out_shape, scalars, per_channel=False,
                  filter_input=True, bias_input=True):
    """A one-operation model whose filter and / or bias are model inputs; returns
    ``(model, inputs)`` with random data (biases of a few thousand)."""
    mb = ModelBuilder(kind.lower())
    qt = QT[np.dtype(dtype).type]
    xq, oq = (0.05, int(rng.integers(-20, 20)) + (128 if dtype == np.uint8 else 0)), (0.7, 3)
    x = rand(rng, dtype, x_shape)
    o = w_shape[3] if kind == "DEPTHWISE_CONV_2D" else w_shape[0]
    if per_channel:
        scales = rng.uniform(0.01, 0.05, o).astype(np.float32)
        wt = T.TENSOR_QUANT8_SYMM_PER_CHANNEL
        w = rand(rng, np.int8, w_shape)
        wkw = {"channel_quant": ChannelQuant(scales.tolist(), 3 if kind == "DEPTHWISE_CONV_2D" else 0)}
        bscale = 0.0
    else:
        wt, w = qt, rand(rng, dtype, w_shape)
        wkw = {"scale": 0.03, "zero_point": int(rng.integers(-5, 5)) + (128 if dtype == np.uint8 else 0)}
        bscale = xq[0] * 0.03
    bias = rng.integers(-4000, 4000, o).astype(np.int32)
    xi = mb.add_operand(qt, x_shape, *xq)
    ins, data = [xi], [x]
    if filter_input:
        wi = mb.add_operand(wt, w_shape, **wkw)
        ins.append(wi)
        data.append(w)
    else:
        wi = mb.add_constant(wt, w, **wkw)
    if bias_input:
        bi = mb.add_operand(T.TENSOR_INT32, [o], bscale)
        ins.append(bi)
        data.append(bias)
    else:
        bi = mb.add_constant(T.TENSOR_INT32, bias, scale=bscale)
    yi = mb.add_operand(qt, list(out_shape), *oq)
    args = [mb.add_constant(T.BOOL, v) if isinstance(v, bool) else mb.add_constant(T.INT32, v) for v in scalars]
    mb.add_operation(kind, [xi, wi, bi, *args], [yi])
    mb.identify_inputs_and_outputs(ins, [yi])
    return mb.finish(), data


LAYERS = {  # kind, input, filter, output, scalars
    "fc": ("FULLY_CONNECTED", (5, 37), (19, 37), (5, 19), [1]),
    "fc_row": ("FULLY_CONNECTED", (1, 70), (45, 70), (1, 45), [0]),      # the filter rows streamed
    "conv": ("CONV_2D", (1, 6, 7, 20), (18, 3, 3, 20), (1, 3, 4, 18), [SAME, 2, 2, 1]),
    "conv1x1": ("CONV_2D", (2, 4, 4, 9), (33, 1, 1, 9), (2, 4, 4, 33), [VALID, 1, 1, 0]),
    "depthwise": ("DEPTHWISE_CONV_2D", (1, 5, 6, 17), (1, 3, 3, 17), (1, 5, 6, 17), [SAME, 1, 1, 1, 3]),
    "depthwise_1px": ("DEPTHWISE_CONV_2D", (1, 1, 1, 20), (1, 1, 1, 20), (1, 1, 1, 20), [VALID, 1, 1, 1, 0]),
    "depthwise_mult2": ("DEPTHWISE_CONV_2D", (1, 4, 4, 3), (1, 2, 2, 6), (1, 3, 3, 6), [VALID, 1, 1, 2, 0]),
    "grouped": ("GROUPED_CONV_2D", (1, 5, 5, 12), (8, 3, 3, 6), (1, 5, 5, 8), [SAME, 1, 1, 2, 0, False]),
}


@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize("layer", list(LAYERS))
def test_random_dynamic_layers_match_golden_without_races(preset, layer):
    kind, xs, ws, os_, scalars = LAYERS[layer]
    rng = np.random.default_rng([sorted(PRESETS).index(preset), list(LAYERS).index(layer)])
    dtype = np.int8 if rng.integers(2) else np.uint8
    per_channel = bool(rng.integers(2)) and kind != "FULLY_CONNECTED"
    model, data = dynamic_model(kind, rng, dtype, xs, ws, os_, scalars, per_channel)
    pkg = compile_model(model, preset)
    assert [o["type"] for o in pkg.manifest["accelerator_ops"]] == [kind], pkg.manifest["host_ops"]
    (got,), _ = Runtime(pkg).run(data, "isa", check=True)
    (want,) = run_model(model, data)
    np.testing.assert_array_equal(got, want)
    assert not find_conflicts(segment_words(pkg), PRESETS[preset])


@pytest.mark.parametrize("filter_input, bias_input", [(True, False), (False, True)])
def test_filter_or_bias_alone_as_input(filter_input, bias_input):
    kind, xs, ws, os_, scalars = LAYERS["conv"]
    rng = np.random.default_rng(7 + filter_input)
    model, data = dynamic_model(kind, rng, np.int8, xs, ws, os_, scalars, False, filter_input, bias_input)
    pkg = compile_model(model, "small")
    assert [o["type"] for o in pkg.manifest["accelerator_ops"]] == [kind]
    (got,), _ = Runtime(pkg).run(data, "isa", check=True)
    np.testing.assert_array_equal(got, run_model(model, data)[0])
    # the bias input is placed with its four bytes per element
    tensors = pkg.manifest["tensors"]
    bias = model.main.operations[0].inputs[2]
    assert (str(bias) in tensors) == bias_input
    if bias_input:
        assert tensors[str(bias)]["bytes"] == 4 * ws[0]


def test_streamed_weight_tiles_from_the_repacked_filter():
    """A filter whose tiles do not fit WGT on ``tiny`` streams them per input chunk, each chunk's
    tiles LOADed from the repacked filter."""
    model, data = dynamic_model("CONV_2D", np.random.default_rng(5), np.int8, (1, 6, 6, 40), (40, 3, 3, 40),
                                (1, 6, 6, 40), [SAME, 1, 1, 0])
    pkg = compile_model(model, "tiny")
    assert not pkg.manifest["host_ops"]
    assert "of chunk 1 (repacked filter)" in pkg.listing
    (got,), _ = Runtime(pkg).run(data, "isa", check=True)
    np.testing.assert_array_equal(got, run_model(model, data)[0])
    assert not find_conflicts(segment_words(pkg), PRESETS["tiny"])


def test_filter_computed_by_the_previous_layer_is_read_after_its_stores():
    """A batch-1 FULLY_CONNECTED streams its filter rows from the filter tensor, and prefetches the
    first of them across the barrier; when the previous accelerated operation computes that
    filter (here a FULLY_CONNECTED, through a RESHAPE that shares its bytes), they wait for its
    stores: bit-exact, no race."""
    q = T.TENSOR_QUANT8_ASYMM_SIGNED
    rng = np.random.default_rng(1)
    K0, K, N = 32, 16, 16
    mb = ModelBuilder("fc_filter_from_fc")
    x0 = mb.add_operand(q, [1, K0], 0.05, 3)
    w0 = mb.add_constant(q, rand(rng, np.int8, (N * K, K0)), scale=0.02, zero_point=0)
    b0 = mb.add_constant(T.TENSOR_INT32, np.zeros(N * K, np.int32), scale=0.001)
    flat = mb.add_operand(q, [1, N * K], 0.1, 0)
    mb.add_operation("FULLY_CONNECTED", [x0, w0, b0, mb.add_constant(T.INT32, 0)], [flat])
    w = mb.add_operand(q, [N, K], 0.1, 0)
    mb.add_operation("RESHAPE", [flat, mb.add_constant(T.TENSOR_INT32, np.array([N, K], np.int32))], [w])
    x = mb.add_operand(q, [1, K], 0.05, -2)
    bias = mb.add_constant(T.TENSOR_INT32, np.arange(N, dtype=np.int32) * 10, scale=0.005)
    y = mb.add_operand(q, [1, N], 0.3, 1)
    mb.add_operation("FULLY_CONNECTED", [x, w, bias, mb.add_constant(T.INT32, 0)], [y])
    mb.identify_inputs_and_outputs([x0, x], [y])
    model = mb.finish()
    data = [rand(rng, np.int8, (1, K0)), rand(rng, np.int8, (1, K))]
    for preset in ("small", "base"):
        pkg = compile_model(model, preset)
        assert len(pkg.manifest["accelerator_ops"]) == 3 and len(pkg.manifest["segments"]) == 1
        assert "(filter rows streamed)" in pkg.listing
        (got,), _ = Runtime(pkg).run(data, "isa", check=True)
        np.testing.assert_array_equal(got, run_model(model, data)[0])
        assert not find_conflicts(segment_words(pkg), PRESETS[preset])


def test_depthwise_filter_input_on_dwconv_reads_the_filter_tensor():
    """On the array's depthwise mode each filter tile line (one tap's channels) is LOADed from the
    filter tensor: no repacked copy, no GEMM."""
    kind, xs, ws, os_, scalars = LAYERS["depthwise"]
    model, data = dynamic_model(kind, np.random.default_rng(3), np.int8, xs, ws, os_, scalars)
    pkg = compile_model(model, "base")
    assert "DWCONV" in pkg.listing and " GEMM " not in pkg.listing
    assert "scratch" not in pkg.manifest and "repacked" not in pkg.listing
    assert pkg.listing.count(": filter tap (") == 9 * 2        # taps x channel blocks
    (got,), _ = Runtime(pkg).run(data, "isa", check=True)
    np.testing.assert_array_equal(got, run_model(model, data)[0])


def test_depthwise_filter_input_skips_unconnected_tiles():
    """Without the depthwise mode, a 17-channel depthwise filter over 16-row tiles: per tap only
    the two diagonal tiles (the others are all zero point, as the constant path finds) are
    multiplied."""
    import re

    kind, xs, ws, os_, scalars = LAYERS["depthwise"]
    model, data = dynamic_model(kind, np.random.default_rng(3), np.int8, xs, ws, os_, scalars)
    pkg = compile_model(model, PRESETS["base"].replace(name="base-nodw", depthwise_mode=False, dw_line_buffers=0))
    gemms = re.findall(r"\bGEMM\b.*out c(\d+) tap \((\d),(\d)\) in c(\d+)", pkg.listing)
    assert {(o, i) for o, _, _, i in gemms} == {("0", "0"), ("16", "16")}
    assert {(a, b) for _, a, b, _ in gemms} == {(str(a), str(b)) for a in range(3) for b in range(3)}
    (got,), _ = Runtime(pkg).run(data, "isa", check=True)
    np.testing.assert_array_equal(got, run_model(model, data)[0])


# ------------------------------------------------------------------------ the RTL
@pytest.mark.rtl
@pytest.mark.parametrize("layer, preset", [
    ("fc", "tiny"), ("conv", "tiny"),
    # the filter rows streamed from the filter tensor (two ACC banks), DWCONV's tile lines LOADed
    # from it (the depthwise mode): not on tiny
    pytest.param("fc_row", "small", marks=pytest.mark.slow),
    pytest.param("depthwise", "small", marks=pytest.mark.slow)])
def test_rtl_runs_dynamic_filter_layers_with_isa_bytes_and_cycles(layer, preset):
    kind, xs, ws, os_, scalars = LAYERS[layer]
    model, data = dynamic_model(kind, np.random.default_rng(11), np.uint8, xs, ws, os_, scalars)
    pkg, _, isa, rtl = isa_and_rtl(model, preset, data)
    assert ("(filter rows streamed)" in pkg.listing) == (layer == "fc_row")
    assert ("DWCONV" in pkg.listing) == (layer == "depthwise")
    assert ("(repacked filter)" in pkg.listing) == (layer in ("fc", "conv"))
    assert rtl["total"]["cycles"] == isa["total"]["cycles"] > 0
