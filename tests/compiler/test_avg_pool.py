"""AVERAGE_POOL_2D on the accelerator: a global pool's sums on the array, the window sums of
several channel blocks in one SUMW per tap (one-row tiles), bit-exact with the golden model and, for VALID windows, with
an independent numpy computation of TFLite's rounding; the one-op RTL run equals the ISA
simulator."""

import numpy as np
import pytest
from nnaccel.compiler import compile_model
from nnaccel.firmware.runtime import Runtime
from support.one_op import isa_and_rtl, one_op_model, rand

from nnaccel.golden.interpreter import run_model

SAME, VALID = 1, 2


def pool_case(shape, window, stride, pad, dtype, in_q, out_q, act=0, seed=0):
    n, h, w, c = shape
    fh, fw = window
    sh, sw = stride
    oh, ow = ((h - fh) // sh + 1, (w - fw) // sw + 1) if pad == VALID else (-(-h // sh), -(-w // sw))
    x = rand(np.random.default_rng(seed), dtype, shape)
    model = one_op_model("AVERAGE_POOL_2D", [x], [in_q], (n, oh, ow, c), out_q, dtype, (),
                         [pad, sw, sh, fw, fh, act])
    return model, x


def numpy_avg_pool(x, window, stride):
    """TFLite's quantized average pool with equal input and output quantization and no padding:
    ``sign(s) * ((|s| + count // 2) // count)`` of each window's sum ``s`` of stored values."""
    fh, fw = window
    sh, sw = stride
    n, h, w, c = x.shape
    oh, ow = (h - fh) // sh + 1, (w - fw) // sw + 1
    out = np.empty((n, oh, ow, c), np.int64)
    cnt = fh * fw
    for oy in range(oh):
        for ox in range(ow):
            s = x[:, oy * sh:oy * sh + fh, ox * sw:ox * sw + fw, :].astype(np.int64).sum(axis=(1, 2))
            out[:, oy, ox, :] = np.sign(s) * ((np.abs(s) + cnt // 2) // cnt)
    return out


CASES = [  # shape, window, stride, padding, dtype, preset
    ((1, 25, 5, 64), (25, 5), (1, 1), VALID, np.int8, "base"),     # KWS's global pool
    ((1, 25, 5, 64), (25, 5), (1, 1), VALID, np.int8, "tiny"),
    ((1, 7, 7, 40), (7, 7), (1, 1), VALID, np.uint8, "small"),     # a partial last channel block
    ((2, 6, 9, 24), (6, 3), (1, 2), VALID, np.int8, "small"),      # one-row output, stride 2
    ((1, 5, 8, 50), (5, 2), (2, 2), SAME, np.uint8, "base"),       # SAME: several window counts
    ((1, 9, 9, 100), (3, 3), (2, 2), SAME, np.int8, "small"),
    ((1, 20, 20, 100), (20, 20), (1, 1), VALID, np.uint8, "small"),  # several GEMMs a block, a WGT ring
    ((1, 3, 1, 5), (3, 1), (1, 1), VALID, np.int8, "large"),       # fewer pixels than rows
]


@pytest.mark.parametrize("shape, window, stride, pad, dtype, preset", CASES)
def test_avg_pool_is_golden(shape, window, stride, pad, dtype, preset):
    q = (0.1, -3) if dtype == np.int8 else (0.1, 120)
    model, x = pool_case(shape, window, stride, pad, dtype, q, q)
    pkg = compile_model(model, preset)
    assert [o["type"] for o in pkg.manifest["accelerator_ops"]] == ["AVERAGE_POOL_2D"]
    (acc,), _ = Runtime(pkg).run([x], "isa", check=True)
    (golden,) = run_model(model, [x])
    np.testing.assert_array_equal(acc, golden)
    if pad == VALID:
        np.testing.assert_array_equal(acc.astype(np.int64), numpy_avg_pool(x, window, stride))


def test_global_pool_sums_on_the_array():
    """A global pool of four channel blocks sums on the array: one GEMM per channel block (its
    pixels the weight tiles, a line of ones streamed per tile), no SUMW per window tap."""
    model, _ = pool_case((1, 25, 5, 64), (25, 5), (1, 1), VALID, np.int8, (0.1, -3), (0.1, -3))
    listing = compile_model(model, "base").listing
    assert listing.count("func=SUMW") == 0
    assert listing.count("GEMM ") == 4


def test_global_pool_output_is_stored_before_the_next_layer_reads_it():
    """A global pool followed by another pool reading its output: the barrier between them waits
    for the pool's STORE (find_conflicts reports any overlap); bit-exact."""
    from nnaccel.sim.isasim import find_conflicts
    from support.one_op import one_op_model  # noqa: F401 (the builder below mirrors it)

    from nnaccel.isa import bytes_to_words
    from nnaccel.model import ModelBuilder
    from nnaccel.model import OperandType as T
    rng = np.random.default_rng(3)
    b = ModelBuilder("two_pools")
    q = T.TENSOR_QUANT8_ASYMM_SIGNED
    x = b.add_operand(q, (1, 6, 5, 40), 0.1, -3)
    y = b.add_operand(q, (1, 1, 1, 40), 0.1, -3)
    z = b.add_operand(q, (1, 1, 1, 40), 0.1, -3)
    i32 = lambda v: b.add_constant(T.INT32, v)
    b.add_operation("AVERAGE_POOL_2D", [x, *[i32(v) for v in (VALID, 1, 1, 5, 6, 0)]], [y])
    b.add_operation("AVERAGE_POOL_2D", [y, *[i32(v) for v in (VALID, 1, 1, 1, 1, 0)]], [z])
    b.identify_inputs_and_outputs([x], [z])
    model = b.finish()
    data = rng.integers(-128, 128, (1, 6, 5, 40)).astype(np.int8)
    pkg = compile_model(model, "base")
    (seg,) = pkg.manifest["segments"]
    assert find_conflicts(bytes_to_words(pkg.segment_words(seg)), pkg.config()) == []
    (acc,), _ = Runtime(pkg).run([data], "isa", check=True)
    np.testing.assert_array_equal(acc, run_model(model, [data])[0])


def test_window_sums_in_one_step_a_pooling_tile():
    """A pool with more than one output pixel keeps the vector unit's window sums, one SUMW per
    tap for all channel blocks of a tile."""
    model, _ = pool_case((1, 6, 9, 24), (6, 3), (1, 2), VALID, np.int8, (0.1, -3), (0.1, -3))
    listing = compile_model(model, "small").listing
    assert listing.count("func=SUMW") == 6 * 3 and "GEMM " not in listing


RTL_CASES = [  # a global pool of three channel blocks; one-row tiles of two blocks, stride 2
    ((1, 6, 4, 20), (6, 4), (1, 1), VALID, np.int8),
    ((1, 3, 9, 13), (3, 3), (1, 2), VALID, np.uint8),
]


@pytest.mark.rtl
@pytest.mark.parametrize("config", ["tiny", pytest.param("small", marks=pytest.mark.slow)])
@pytest.mark.parametrize("shape, window, stride, pad, dtype", RTL_CASES)
def test_avg_pool_rtl_equals_isa(config, shape, window, stride, pad, dtype):
    q = (0.05, 7) if dtype == np.int8 else (0.05, 130)
    model, x = pool_case(shape, window, stride, pad, dtype, q, q)
    pkg, *_ = isa_and_rtl(model, config, [x])
    # the global pool sums on the array, the other folds the channel blocks into its SUMWs
    assert ("as weight tiles" if window == shape[1:3] else "blocks") in pkg.listing
