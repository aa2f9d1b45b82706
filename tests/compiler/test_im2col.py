"""Convolutions of few input channels through an im2col copy and the pointwise schedule
(``compiler/lower/im2col.py``): bit-exact with the golden model on every preset, race-free, and
much faster than one GEMM per tap on a KWS-like first layer."""

from __future__ import annotations

import numpy as np
import pytest
from nnaccel.compiler.compile import compile_model
from nnaccel.firmware.runtime import Runtime
from support.conv_models import conv_model

from nnaccel.golden.interpreter import run_model

from .test_races import races

CASES = [  # (n, h, w, c, o, fh, fw, (sx, sy), (left, right, top, bottom), signed)
    (1, 49, 10, 1, 20, 10, 4, (2, 2), (1, 1, 4, 5), True),     # KWS's first layer, fewer filters
    (1, 13, 12, 3, 8, 3, 3, (2, 2), (0, 1, 0, 1), True),       # an RGB stem, SAME at stride 2
    (2, 9, 7, 3, 5, 3, 3, (1, 1), (1, 1, 1, 1), False),        # batch 2, uint8, padding everywhere
    (1, 8, 9, 2, 17, 2, 3, (1, 2), (0, 0, 0, 0), True),        # no padding, unequal strides
    (1, 6, 6, 5, 4, 5, 5, (1, 1), (2, 3, 3, 2), False),        # wide asymmetric padding
    (1, 10, 16, 1, 4, 3, 3, (1, 1), (1, 1, 1, 1), True),       # several pixels per GEMM row, padded
    (1, 11, 14, 2, 5, 3, 3, (2, 1), (0, 0, 0, 0), False),      # three pixels per row, no padding
    (1, 12, 12, 3, 8, 3, 3, (2, 2), (0, 1, 0, 1), True),       # SAME at stride 2, a bottom padding row read
    (1, 6, 4, 3, 6, 3, 3, (2, 2), (0, 1, 0, 1), False),        # ... one window row per output row
]


@pytest.mark.parametrize("preset", ["tiny", "small", "base"])
@pytest.mark.parametrize("case", range(len(CASES)))
def test_im2col_conv_bit_exact_and_race_free(case, preset):
    *shape, signed = CASES[case]
    model = conv_model(*shape, signed=signed, seed=case)
    pkg = compile_model(model, preset)
    rows = pkg.config().rows
    if shape[3] < rows:
        assert any(f"im2col {how}" in pkg.listing for how in ("rows", "strips", "windows"))
    x = np.random.default_rng(case).integers(-128 if signed else 0, 128 if signed else 256,
                                             shape[:4]).astype(np.int8 if signed else np.uint8)
    outs, _ = Runtime(pkg).run([x], "isa", check=True)
    assert np.array_equal(outs[0], run_model(model, [x])[0])
    assert races(pkg) == []


def test_kws_first_layer_streams_taps_as_k_tiles():
    # 40 taps of one channel: one GEMM per tap and output block took 42 904 cycles on base; as
    # 3 K tiles of im2col rows the layer (copies included) must take under a quarter of that
    model = conv_model(1, 49, 10, 1, 64, 10, 4, (2, 2), (1, 1, 4, 5))
    pkg = compile_model(model, "base")
    from nnaccel.sim.report import static_report
    rep = static_report(pkg)
    assert rep["total"]["cycles"] < 42_904 // 4
    assert "im2col strips" in pkg.listing    # batch 1: the window rows read in place from strips
    assert "padded input" not in pkg.listing  # the strips are built from the input, not a padded copy
    assert rep["total"]["useful_macs"] == 25 * 5 * 64 * 40


def test_vww_first_layer_reads_its_windows_from_the_input():
    # MobileNet V1's stem on a 96x96 RGB image (SAME at stride 2: one padding row and column,
    # at the right and bottom): the windows are read straight from the input (the last window
    # row of each output row with the bytes it has, the padding row as padding lines), with no
    # DMA-only pass before the GEMMs, each window row's bytes loaded once, and the whole layer
    # faster than a GEMM over strips could be (its K tiles over every pixel, plus writing each
    # strip line once)
    from nnaccel.sim.report import static_report
    n, h, w, c, o, fh, fw, stride, pads = 1, 96, 96, 3, 8, 3, 3, (2, 2), (0, 1, 0, 1)
    model = conv_model(n, h, w, c, o, fh, fw, stride, pads)
    pkg = compile_model(model, "base")
    cfg = pkg.config()
    hp, wp = h + pads[2] + pads[3], w + pads[0] + pads[1]
    oh, ow = (hp - fh) // stride[1] + 1, (wp - fw) // stride[0] + 1
    assert "im2col strips" not in pkg.listing and "padded input" not in pkg.listing
    layers = static_report(pkg)["segments"][0]["layers"]
    assert len(layers) == 1 and layers[0]["macs"]
    p = 2                                   # pixels per window row: ((p - 1) * 2 + 3) * 3 <= 16
    window_bytes = fh * oh * (ow // p) * ((p - 1) * stride[0] + fw) * c
    consts = fh * cfg.rows * cfg.rows + 6 * 4 * cfg.cols     # the filter tiles, the REQ parameters
    assert layers[0]["dma_bytes"] <= window_bytes + oh * ow * o + consts
    strips_bound = -(-fh * fw * c // cfg.rows) * oh * ow + ow * hp
    assert sum(lay["cycles"] for lay in layers) < strips_bound
    x = np.random.default_rng(7).integers(-128, 128, (n, h, w, c)).astype(np.int8)
    outs, _ = Runtime(pkg).run([x], "isa", check=True)
    assert np.array_equal(outs[0], run_model(model, [x])[0])
    assert races(pkg) == []
