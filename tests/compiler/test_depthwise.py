"""The depthwise schedule (DWCONV, the array's depthwise mode): random depthwise layers (filters of
1 .. 5 rows and 1 .. 5 columns, strides 1 .. 3, paddings, per-channel or per-tensor filters,
several channel blocks, several tiles) on every preset must be bit-exact with the golden model,
free of races and bank conflicts under the exact schedule (``find_conflicts``), and run as
DWCONVs."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.dw_models import depthwise_model
from support.one_op import isa_checked

from nnaccel.hwconfig import PRESETS
from nnaccel.isa import bytes_to_words, decode
from nnaccel.isa.table import SPACE_ENUM

#: tiny with the depthwise mode (the preset has none: its depthwise layers run as GEMMs)
TINY_DW = PRESETS["tiny"].replace(name="tiny-dw", depthwise_mode=True)
ACT, VEC = SPACE_ENUM.index("ACT"), SPACE_ENUM.index("VEC")


def run_checked(model, data, preset):
    """The package and the DWCONVs of ``model``'s program, run checked on the ISA simulator (one
    DEPTHWISE_CONV_2D)."""
    pkg, _, program = isa_checked(model, [data], preset, "DEPTHWISE_CONV_2D")
    return pkg, [d for d in program if d.name == "DWCONV"]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_random_depthwise_layers_run_as_dwconv(data):
    draw = data.draw
    fh, fw = draw(st.integers(1, 5)), draw(st.integers(1, 5))
    preset = draw(st.sampled_from([TINY_DW, "small", "base"]))
    if fh * fw == 1 or (preset is TINY_DW and fw > 4):
        fw = 2 if fw == 1 else 3
    stride = (draw(st.integers(1, min(3, fh))), draw(st.integers(1, min(3, fw))))
    h, w = draw(st.integers(fh, 14)), draw(st.integers(fw, 80))
    c = draw(st.integers(1, 40))
    pads = tuple(draw(st.integers(0, k - 1)) for k in (fw, fw, fh, fh))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    model, x = depthwise_model(h, w, c, fh, fw, pads, draw(st.booleans()), draw(st.booleans()),
                               draw(st.integers(0, 3)), rng, stride=stride)
    _, dw = run_checked(model, x, preset)
    assert dw, "the layer did not run as DWCONVs"


def test_without_the_depthwise_mode_gemms():
    """tiny has no depthwise mode: the same layer runs as GEMMs (diagonal weight tiles), bit-exact."""
    rng = np.random.default_rng(4)
    model, x = depthwise_model(7, 9, 6, 3, 3, (1, 1, 1, 1), True, False, 0, rng)
    _, dw = run_checked(model, x, "tiny")
    assert not dw


def test_mobilenet_depthwise_uses_the_line_buffers_on_base():
    """56x56x24 3x3 (padding 1) on base: one DWCONV of all three filter rows per tile and block."""
    rng = np.random.default_rng(5)
    model, x = depthwise_model(56, 56, 24, 3, 3, (1, 1, 1, 1), True, True, 0, rng)
    _, dw = run_checked(model, x, "base")
    assert {(d.fh, d.fw) for d in dw} == {(3, 3)}
    # every output pixel of both channel blocks is computed exactly once
    assert sum(d.nx * d.ny for d in dw) == 56 * 56 * 2


def test_strided_depthwise_as_stride_phases():
    """A 3x3 stride-2 layer where the array has 4 rows and no line buffer (tiny with the depthwise
    mode): four phases (2x2, 2x1, 1x2 and 1x1 taps, one filter row per DWCONV) accumulating into
    each output, every output computed once per phase row."""
    rng = np.random.default_rng(6)
    model, x = depthwise_model(20, 18, 20, 3, 3, (0, 1, 0, 1), False, False, 0, rng, stride=(2, 2))
    _, dw = run_checked(model, x, TINY_DW)
    assert sorted({(d.fh, d.fw) for d in dw}) == [(1, 1), (1, 2)]
    # 10 x 9 outputs, 5 channel blocks of 4, 2 + 2 + 1 + 1 filter rows over the four phases
    assert sum(d.nx * d.ny for d in dw) == 6 * 10 * 9 * 5


def test_strided_depthwise_dense_on_base():
    """The same layer on base: one stride-1 DWCONV of all nine taps per tile and block over the
    tile's whole window, of which the REQ reads every second column and every second row."""
    rng = np.random.default_rng(6)
    model, x = depthwise_model(20, 18, 20, 3, 3, (0, 1, 0, 1), False, False, 0, rng, stride=(2, 2))
    pkg, dw = run_checked(model, x, "base")
    assert {(d.fh, d.fw) for d in dw} == {(3, 3)}
    words = [w for seg in pkg.manifest["segments"] for w in bytes_to_words(pkg.segment_words(seg))]
    reqs = [d for d in (decode(w) for w in words) if d.name == "VEC"]
    assert reqs and {d.src_xs for d in reqs} == {2}
    assert {d.src_ys for d in reqs} <= {2 * d.acc_ys for d in dw}


def _dw_pw_model(hw: int, c: int, o: int, stride: int, seed: int = 0):
    """A MobileNet V1 pair, int8: a 3x3 depthwise convolution (RELU6) and a 1x1 convolution (the
    builder and its input, intermediate and output operands; the caller names the outputs)."""
    from nnaccel.compiler.reference_models import _conv

    from nnaccel.model import ModelBuilder, OperandType
    rng = np.random.default_rng(seed)
    q = OperandType.TENSOR_QUANT8_ASYMM_SIGNED
    b = ModelBuilder("dw_pw")
    xq, hq = (0.05, -3), (0.03, -128)
    x = b.add_operand(q, (1, hw, hw, c), *xq)
    ohw = (-(-hw // stride),) * 2
    h = _conv(b, rng, x, xq, c, c, 3, stride, ohw, hq, 3, True, depthwise=True)
    y = _conv(b, rng, h, hq, c, o, 1, 1, ohw, (0.06, 2), 0, True)
    return b, x, h, y


@pytest.mark.parametrize("hw, c, o, stride, preset", [(6, 128, 128, 1, "base"), (12, 64, 48, 2, "base"),
                                                      (9, 32, 64, 1, "large"), (3, 256, 32, 1, "base")])
def test_depthwise_output_handed_to_the_pointwise_pass(hw, c, o, stride, preset):
    # the depthwise REQs write the 1x1 convolution's input slot: the depthwise output never
    # reaches external memory (no STORE of the depthwise operation, no input LOAD of the
    # pointwise one), bit-exact with the golden model, no races or bank conflicts, and fewer
    # cycles than the same pair whose intermediate is also a model output (stored and loaded)
    import warnings

    from nnaccel.compiler.compile import compile_model
    from nnaccel.firmware.runtime import Runtime
    from nnaccel.sim.isasim import find_conflicts

    from nnaccel.golden.interpreter import run_model

    runs = {}
    for both in (False, True):
        b, x, h, y = _dw_pw_model(hw, c, o, stride)
        b.identify_inputs_and_outputs([x], [y, h] if both else [y])
        model = b.finish()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            pkg = compile_model(model, preset)
        data = np.random.default_rng(1).integers(-128, 128, (1, hw, hw, c)).astype(np.int8)
        outs, rep = Runtime(pkg).run([data], "isa", check=True)
        for got, want in zip(outs, run_model(model, [data])):
            assert np.array_equal(got, want)
        assert find_conflicts(bytes_to_words(pkg.segment_words(pkg.manifest["segments"][0])), pkg.config()) == []
        runs[both] = (pkg, rep["total"]["cycles"])
    lines = runs[False][0].listing.splitlines()
    assert not any("STORE" in ln and "[op 0 DEPTHWISE_CONV_2D]" in ln for ln in lines)
    assert not any("LOAD sp=ACT" in ln and "[op 1 CONV_2D]" in ln for ln in lines)
    assert any("STORE" in ln and "[op 0 DEPTHWISE_CONV_2D]" in ln for ln in runs[True][0].listing.splitlines())
    assert runs[False][1] < runs[True][1]


@pytest.mark.parametrize("preset", ["base", "small"])
def test_rotating_parameters_of_a_layer_alone(preset):
    """More channel blocks than VEC holds REQ parameters for: the parameters rotate through the
    two halves of VEC (every ``_vec_blocks // 2`` blocks a LOAD of their lines); the first
    group's LOAD, the pass's prefetch, comes before the first input window's LOAD. Bit-exact, no
    races."""
    from nnaccel.compiler.lower.depthwise import _vec_blocks
    cfg = PRESETS[preset]
    blocks = _vec_blocks(cfg) + 3              # (at most _vec_blocks would stay resident)
    c = blocks * cfg.rows - 5                  # (the last block not whole)
    rng = np.random.default_rng(9)
    model, x = depthwise_model(7, 9, c, 3, 3, (1, 1, 1, 1), True, True, 0, rng)
    _, _, program = isa_checked(model, [x], preset, "DEPTHWISE_CONV_2D")
    loads = [d for d in program if d.name == "LOAD"]
    vec = [i for i, d in enumerate(loads) if d.sp == VEC]
    act = [i for i, d in enumerate(loads) if d.sp == ACT]
    assert vec and act and vec[0] < act[0]
    # one LOAD per group of _vec_blocks // 2 blocks
    assert len(vec) == -(-blocks // (_vec_blocks(cfg) // 2))


def test_rotating_parameters_load_during_the_expansion_before():
    """The 14x14x96 MobileNet V2 block on base: the depthwise layer (576 channels, 36 blocks)
    rotates its REQ parameters; the first group's LOAD runs during the 1x1 expansion before it
    (the half of VEC that pass does not touch), so the first DWCONV waits only for its window."""
    from nnaccel.compiler.compile import compile_model
    from nnaccel.compiler.reference_models import block_layers
    from nnaccel.sim.isasim import schedule
    from nnaccel.sim.report import decode_segment
    model, names = block_layers(14, 14, 96)
    pkg = compile_model(model, "base")
    seg, = pkg.manifest["segments"]
    dec = decode_segment(pkg, seg)
    sch = schedule(dec, pkg.config())
    lays = seg["layers"]
    k = next(i for i, lay in enumerate(lays) if "depthwise" in names[lay["op"]])
    expand, dw = lays[k - 1], lays[k]
    expand_end = int(sch.end[expand["first"]:expand["last"] + 1].max())
    idx = range(dw["first"], dw["last"] + 1)
    pload = next(i for i in idx if dec[i].name == "LOAD" and dec[i].sp == VEC)
    first_win = next(i for i in idx if dec[i].name == "LOAD" and dec[i].sp == ACT)
    first_dw = next(i for i in idx if dec[i].name == "DWCONV")
    assert pload < first_win and sch.end[pload] < expand_end
    # the first DWCONV starts as its window is in (within the token hops), not after the parameters
    assert sch.start[first_dw] - sch.end[first_win] <= 4
