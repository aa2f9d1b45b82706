"""The depthwise schedule (DWCONV, the array's depthwise mode): random depthwise layers (filters of
1 .. 5 rows and 1 .. 5 columns, strides 1 .. 3, paddings, per-channel or per-tensor filters,
several channel blocks, several tiles) on every preset must be bit-exact with the golden model,
free of races and bank conflicts under the exact schedule (``find_conflicts``), and run as
DWCONVs."""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.dw_models import depthwise_model
from support.one_op import isa_checked

from nnaccel.hwconfig import PRESETS
from nnaccel.isa import bytes_to_words, decode

#: tiny with the depthwise mode (the preset has none: its depthwise layers run as GEMMs)
TINY_DW = PRESETS["tiny"].replace(name="tiny-dw", depthwise_mode=True)


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
