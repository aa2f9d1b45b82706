"""DWCONV on the RTL (Verilator): one-op DEPTHWISE_CONV_2D models compiled by the compiler run on
the RTL with the golden model's outputs and the ISA simulator's cycles, DMA bytes and every other
counter, on every preset with RTL."""

from __future__ import annotations

import numpy as np
import pytest
from nnaccel.compiler.compile import compile_model
from nnaccel.firmware.runtime import Runtime
from support.dw_models import depthwise_model

from nnaccel.golden.interpreter import run_model
from nnaccel.hwconfig import load_config
from nnaccel.isa import bytes_to_words, decode

pytestmark = pytest.mark.rtl
SMALL = {"marks": pytest.mark.slow}       # small's Verilator model builds for minutes (as tests/hw/test_top.py)
#: a build of its own beside tiny-dw2's: in the slow tier, which CI runs (``-m ci_slow``)
CI_SLOW = {"marks": [pytest.mark.slow, pytest.mark.ci_slow]}
#: small with one line buffer: DWCONVs of two filter rows
SMALL_LB1 = load_config("small").replace(name="small-lb1", dw_line_buffers=1)
#: tiny with the depthwise mode (the preset has none: its depthwise layers run as GEMMs)
TINY_DW = load_config("tiny").replace(name="tiny-dw", depthwise_mode=True)
#: ... with two line buffers: DWCONVs of up to three filter rows, their padding rows as DWCONV fields
TINY_DW2 = TINY_DW.replace(name="tiny-dw2", dw_line_buffers=2)

@pytest.mark.parametrize("preset, shape, signed, pads", [
    ("tiny", (5, 6, 5, 3, 3), True, None),          # h, w, c, fh, fw: two channel blocks, as GEMMs
    pytest.param(TINY_DW, (5, 6, 5, 3, 3), True, None, **CI_SLOW),   # ... as DWCONVs of one filter row each
    pytest.param(TINY_DW, (4, 7, 3, 2, 4), False, None, **CI_SLOW),
    (TINY_DW2, (5, 6, 4, 3, 1), True, (0, 0, 1, 1)),     # (left, right, top, bottom): rows above and below
    (TINY_DW2, (4, 5, 3, 2, 2), False, (0, 1, 0, 1)),    # ... below and right
    (TINY_DW2, (3, 2, 4, 2, 2), True, (1, 0, 1, 0)),     # ... above and left, two columns
    pytest.param("small", (6, 9, 11, 3, 3), True, None, **SMALL),
    pytest.param("small", (5, 5, 8, 3, 2), False, None, **SMALL),
    # 24 channel blocks, more than VEC holds REQ parameters for: they rotate through its halves
    pytest.param("small", (4, 5, 190, 3, 3), True, None, **SMALL),
    pytest.param(SMALL_LB1, (7, 10, 9, 3, 3), True, None, **SMALL),
    pytest.param(SMALL_LB1, (4, 3, 8, 2, 4), False, None, **SMALL),
], ids=["tiny-3x3", "tiny-dw-3x3", "tiny-dw-2x4", "tiny-dw2-3x1", "tiny-dw2-2x2", "tiny-dw2-2x2-narrow",
        "small-3x3", "small-3x2", "small-3x3-rotating-params", "small-lb1-3x3", "small-lb1-2x4"])
def test_depthwise_on_rtl_with_isa_cycles_and_bytes(preset, shape, signed, pads):
    h, w, c, fh, fw = shape
    rng = np.random.default_rng(h * w + c)
    pads = pads or (fw // 2, (fw - 1) // 2, fh // 2, (fh - 1) // 2)
    model, x = depthwise_model(h, w, c, fh, fw, pads, signed, signed, 1, rng)
    pkg = compile_model(model, preset)
    words = [decode(v) for seg in pkg.manifest["segments"] for v in bytes_to_words(pkg.segment_words(seg))]
    dws = [d for d in words if d.name == "DWCONV"]
    if pkg.config().depthwise_mode:
        assert dws and max(d.fh for d in dws) == min(fh, pkg.config().dw_line_buffers + 1)
    else:
        assert not dws and any(d.name == "GEMM" for d in words)
    out_rtl, rep_rtl = Runtime(pkg).run([x], "rtl", check=True)
    _, rep_isa = Runtime(pkg).run([x], "isa")
    np.testing.assert_array_equal(out_rtl[0], run_model(model, [x])[0])
    for s_rtl, s_isa in zip(rep_rtl["segments"], rep_isa["segments"], strict=True):
        assert s_rtl["counters"] == s_isa["counters"]
    assert rep_rtl["total"]["cycles"] == rep_isa["total"]["cycles"]
