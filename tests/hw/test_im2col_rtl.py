"""First-layer convolutions (few input channels, ``compiler/lower/im2col.py``: the DMA's im2col
copies, then the pointwise schedule over the taps) on the RTL (Verilator): outputs equal to the
golden model's, and cycles, DMA bytes and every other counter equal to the ISA simulator's, on
every preset with RTL."""

from __future__ import annotations

import numpy as np
import pytest
from nnaccel.compiler.compile import compile_model
from nnaccel.firmware.runtime import Runtime
from support.conv_models import conv_model

from nnaccel.golden.interpreter import run_model

pytestmark = pytest.mark.rtl
SMALL = {"marks": pytest.mark.slow}       # small's Verilator model builds for minutes (as tests/hw/test_top.py)


@pytest.mark.parametrize("preset, shape", [
    # (n, h, w, c, o, fh, fw, (sx, sy), (left, right, top, bottom), signed)
    ("tiny", (1, 13, 12, 3, 8, 3, 3, (2, 2), (0, 1, 0, 1), True)),      # an RGB stem, SAME at stride 2
    ("tiny", (1, 12, 6, 1, 5, 5, 4, (2, 2), (1, 2, 2, 2), False)),     # KWS-like: a tall filter on 1 channel
    pytest.param("small", (1, 13, 12, 3, 8, 3, 3, (2, 2), (0, 1, 0, 1), True), **SMALL),
    pytest.param("small", (1, 25, 10, 1, 12, 10, 4, (2, 2), (1, 1, 4, 5), True), **SMALL),
    # several output pixels per GEMM row, read straight from the padded input
    pytest.param("small", (1, 10, 16, 1, 4, 3, 3, (1, 1), (1, 1, 1, 1), True), **SMALL),
], ids=["tiny-rgb", "tiny-kws", "small-rgb", "small-kws", "small-windows"])
def test_first_layer_conv_on_rtl_with_isa_cycles_and_bytes(preset, shape):
    *dims, signed = shape
    model = conv_model(*dims, signed=signed, seed=7)
    pkg = compile_model(model, preset)
    assert pkg.manifest["accelerator_ops"] == [{"index": 0, "type": "CONV_2D"}]
    assert any(f"im2col {how}" in pkg.listing for how in ("rows", "strips", "windows"))
    lo, hi, dt = (-128, 128, np.int8) if signed else (0, 256, np.uint8)
    x = np.random.default_rng(11).integers(lo, hi, dims[:4]).astype(dt)
    out_rtl, rep_rtl = Runtime(pkg).run([x], "rtl", check=True)
    _, rep_isa = Runtime(pkg).run([x], "isa")
    np.testing.assert_array_equal(out_rtl[0], run_model(model, [x])[0])
    for s_rtl, s_isa in zip(rep_rtl["segments"], rep_isa["segments"], strict=True):
        assert s_rtl["counters"] == s_isa["counters"]
    assert rep_rtl["total"]["cycles"] == rep_isa["total"]["cycles"] > 0
    assert rep_isa["segments"][0]["counters"]["dma_load_bytes"] > x.size    # the im2col copies read more
