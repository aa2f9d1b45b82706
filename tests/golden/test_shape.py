"""Tests of the shape family (nnaccel/golden/shape.py).

Expected values are written out by hand or computed here with plain NumPy / Python loops from the
spec's definitions, never with the kernels under test. The conformance models of every operation
of the family run too (single files, fast), and every rejection the family adds is exercised:
validators through constant inputs, kernels (``k.fail``) through run-time inputs.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nnaccel import registry
from nnaccel.cts import run_file, spec_files
from nnaccel.errors import ExecutionError, ModelError
from nnaccel.golden.interpreter import run_model
from nnaccel.model import TYPE_INFO, ModelBuilder, OperandType

T = OperandType
F32, F16, I32, BOOL8 = T.TENSOR_FLOAT32, T.TENSOR_FLOAT16, T.TENSOR_INT32, T.TENSOR_BOOL8
Q8A, Q8AS = T.TENSOR_QUANT8_ASYMM, T.TENSOR_QUANT8_ASYMM_SIGNED

SHAPE_OPS = [n for n, op in registry.load_all().items() if op.family == "shape"]


class Op:
    """A one-operation model: inputs fed at run time or constants, then declared outputs."""

    def __init__(self, name: str):
        self.name, self.b = name, ModelBuilder(name)
        self.ins, self.feeds, self.model_inputs = [], [], []

    def inp(self, t, value, scale=0.0, zp=0, dims=None):
        arr = np.asarray(value, TYPE_INFO[t].dtype)
        i = self.b.add_operand(t, arr.shape if dims is None else dims, scale, zp)
        self.ins.append(i)
        self.model_inputs.append(i)
        self.feeds.append(arr)
        return self

    def const(self, t, value, scale=0.0, zp=0):
        self.ins.append(self.b.add_constant(t, np.asarray(value, TYPE_INFO[t].dtype), scale=scale,
                                            zero_point=zp))
        return self

    def i32(self, value):
        return self.const(T.INT32, value)

    def omit(self, t=I32):
        self.ins.append(self.b.add_omitted(t, (0,)))
        return self

    def run(self, *outs):
        """``outs``: (type, dims[, scale, zero point]) per output; returns the output arrays."""
        idx = [self.b.add_operand(o[0], o[1], *(o[2:])) for o in outs]
        self.b.add_operation(self.name, self.ins, idx)
        self.b.identify_inputs_and_outputs(self.model_inputs, idx)
        return run_model(self.b.finish(), self.feeds)


def one(op: Op, *outs):
    return op.run(*outs)[0]


# --------------------------------------------------------------------------------------------
# The conformance models of the family.


def _family_files():
    files = []
    for p in spec_files():
        stem = p.name[: -len(".json.gz")]
        if any(stem.startswith(prefix) for prefix in (
                "reshape", "concat", "squeeze", "expand_dims", "transpose", "pad", "slice",
                "strided_slice", "split", "tile", "gather", "depth_to_space", "space_to_depth",
                "batch_to_space", "space_to_batch", "channel_shuffle", "mean", "reduce_", "argmax",
                "argmin", "topk", "fill", "rank", "embedding_lookup", "hashtable_lookup")):
            files.append(p)
    return files


def test_family_conformance_models_pass(cts_root):
    results = [r for p in _family_files() for r in run_file(p, ops_filter=SHAPE_OPS)]
    assert len(results) > 1500
    failed = [f"{r.name}: {r.message}" for r in results if r.status == "failed"]
    assert not failed, "\n".join(failed[:20])
    missing = {m for r in results for m in r.missing} & set(SHAPE_OPS)
    assert not missing


def test_every_family_op_is_defined_with_signatures_and_docs():
    for name in SHAPE_OPS:
        op = registry.get(name)
        assert op.implemented and op.signatures and op.doc, name


# --------------------------------------------------------------------------------------------
# Reshaping: RESHAPE, SQUEEZE, EXPAND_DIMS, TRANSPOSE


def test_reshape_infers_minus_one_and_resolves_unknown_output_shape():
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    out = one(Op("RESHAPE").inp(F32, x).const(I32, [2, -1, 2]), (F32, (0, 0, 0)))
    assert out.shape == (2, 3, 2) and out.ravel().tolist() == list(range(12))


def test_reshape_int32_and_zero_sized():
    out = one(Op("RESHAPE").inp(I32, np.zeros((0, 3), np.int32), dims=(0, 3)).const(I32, [3, 0]),
              (I32, (3, 0)))
    assert out.shape == (3, 0)


@pytest.mark.parametrize("shape, message", [
    ([-1, -1], "more than one -1 component"),
    ([5, 2], "does not hold the input's 12 elements"),
    ([-2, 6], "negative component other than -1"),
])
def test_reshape_rejects_bad_constant_shape(shape, message):
    with pytest.raises(ModelError, match=r"Operation 0 \(RESHAPE\): input 1 .*" + message):
        Op("RESHAPE").inp(F32, np.zeros((3, 4))).const(I32, shape).run((F32, (0, 0)))


def test_reshape_rejects_bad_runtime_shape():
    with pytest.raises(ExecutionError, match="cannot hold the input's 12 elements"):
        Op("RESHAPE").inp(F32, np.zeros((3, 4))).inp(I32, [5, -1]).run((F32, (0, 0)))


def test_squeeze_all_listed_negative_and_to_shape_one():
    x = np.arange(6, dtype=np.float32).reshape(1, 2, 1, 3)
    assert one(Op("SQUEEZE").inp(F32, x).omit(), (F32, (2, 3))).shape == (2, 3)
    assert one(Op("SQUEEZE").inp(F32, x).const(I32, [-2]), (F32, (1, 2, 3))).shape == (1, 2, 3)
    assert one(Op("SQUEEZE").inp(F32, x).const(I32, np.zeros(0, np.int32)), (F32, (2, 3))).shape == (2, 3)
    assert one(Op("SQUEEZE").inp(F32, [[[7.0]]]).omit(), (F32, (1,))).tolist() == [7.0]


def test_squeeze_rejects_non_unit_dimension():
    with pytest.raises(ModelError, match="dimension 1 has size 2, but only size-1 dimensions"):
        Op("SQUEEZE").inp(F32, np.zeros((1, 2))).const(I32, [1]).run((F32, (1,)))
    with pytest.raises(ExecutionError, match="dimension 1 has size 2"):
        Op("SQUEEZE").inp(F32, np.zeros((1, 2))).inp(I32, [1]).run((F32, (0,)))


def test_expand_dims_negative_axis_counts_from_the_output_end():
    x = np.arange(6, dtype=np.int32).reshape(2, 3)
    assert one(Op("EXPAND_DIMS").inp(I32, x).i32(-1), (I32, (2, 3, 1))).shape == (2, 3, 1)
    assert one(Op("EXPAND_DIMS").inp(I32, x).i32(-3), (I32, (1, 2, 3))).shape == (1, 2, 3)
    with pytest.raises(ModelError, match=r"input 1 .*is 3, outside the range \[-3, 3\)"):
        Op("EXPAND_DIMS").inp(I32, x).i32(3).run((I32, (0, 0, 0)))


def test_transpose_perm_default_and_rejection():
    x = np.arange(24, dtype=np.uint8).reshape(2, 3, 4)
    out = one(Op("TRANSPOSE").inp(Q8A, x, 0.5, 3).const(I32, [1, 2, 0]), (Q8A, (3, 4, 2), 0.5, 3))
    for a, b, c in itertools.product(range(2), range(3), range(4)):
        assert out[b, c, a] == x[a, b, c]
    rev = one(Op("TRANSPOSE").inp(Q8A, x, 0.5, 3).omit(), (Q8A, (4, 3, 2), 0.5, 3))
    assert rev[3, 2, 1] == x[1, 2, 3]
    with pytest.raises(ModelError, match="is not a permutation of the 3 input dimensions"):
        Op("TRANSPOSE").inp(Q8A, x, 0.5, 3).const(I32, [0, 0, 1]).run((Q8A, (0, 0, 0), 0.5, 3))
    with pytest.raises(ExecutionError, match="is not a permutation"):
        Op("TRANSPOSE").inp(Q8A, x, 0.5, 3).inp(I32, [2, 2, 1]).run((Q8A, (0, 0, 0), 0.5, 3))


def test_quantized_output_must_keep_the_input_scale():
    with pytest.raises(ModelError, match=r"input 0 .*the spec requires the same as the output"):
        Op("TRANSPOSE").inp(Q8A, np.zeros((2, 2)), 0.5, 3).omit().run((Q8A, (2, 2), 0.25, 3))


def test_declared_output_shape_must_match():
    with pytest.raises(ModelError, match=r"output 0 .*has shape \[2, 2\], but the operation produces "
                                         r"shape \[3, 2\]"):
        Op("TRANSPOSE").inp(F32, np.zeros((2, 3))).omit().run((F32, (2, 2)))


# --------------------------------------------------------------------------------------------
# CONCATENATION, SPLIT, TILE


def _requantize_reference(q, s_in, z_in, s_out, z_out, lo, hi):
    """Dequantize then quantize in exact arithmetic (the scales make ties impossible: (q - z) * 2/3
    and (q - z) * 14/9 are never an odd multiple of 1/2)."""
    real = (np.asarray(q, np.float64) - z_in) * s_in
    return np.clip(np.floor(real / s_out + 0.5) + z_out, lo, hi)


@pytest.mark.parametrize("t, lo, hi", [(Q8A, 0, 255), (Q8AS, -128, 127)])
def test_concatenation_rescales_inputs_with_other_quantization(t, lo, hi):
    a = np.array([[lo, lo + 7, hi - 3]])
    b = np.array([[lo + 1, lo + 100, hi]])
    za, zb, zo = lo + 10, lo + 128, lo + 60
    out = one(Op("CONCATENATION").inp(t, a, 0.3, za).inp(t, b, 0.7, zb).i32(-2),
              (t, (2, 3), 0.45, zo))
    assert out[0].tolist() == _requantize_reference(a, 0.3, za, 0.45, zo, lo, hi)[0].tolist()
    assert out[1].tolist() == _requantize_reference(b, 0.7, zb, 0.45, zo, lo, hi)[0].tolist()


def test_concatenation_zero_sized_input_and_rejections():
    a = np.zeros((0, 2), np.float32)
    b = np.ones((3, 2), np.float32)
    out = one(Op("CONCATENATION").inp(F32, a, dims=(0, 2)).inp(F32, b).i32(0), (F32, (3, 2)))
    assert out.tolist() == b.tolist()
    with pytest.raises(ModelError, match=r"input 2 .*is 2, outside the range \[-2, 2\)"):
        Op("CONCATENATION").inp(F32, b).inp(F32, b).i32(2).run((F32, (0, 0)))
    with pytest.raises(ModelError, match="differs from input 0's"):
        Op("CONCATENATION").inp(F32, b).inp(F32, np.ones((3, 3))).i32(0).run((F32, (0, 0)))


def test_split_negative_axis_and_rejections():
    x = np.arange(12, dtype=np.float16).reshape(2, 6)
    parts = Op("SPLIT").inp(F16, x).i32(-1).i32(3).run(*[(F16, (2, 2))] * 3)
    assert [p.tolist() for p in parts] == [[[0, 1], [6, 7]], [[2, 3], [8, 9]], [[4, 5], [10, 11]]]
    with pytest.raises(ModelError, match="which 4 splits do not divide evenly"):
        Op("SPLIT").inp(F16, x).i32(1).i32(4).run(*[(F16, (0, 0))] * 4)
    with pytest.raises(ModelError, match="is 3, but the operation has 2 outputs"):
        Op("SPLIT").inp(F16, x).i32(1).i32(3).run(*[(F16, (0, 0))] * 2)


def test_tile_and_negative_multiples():
    x = np.array([[1, 2], [3, 4]], np.int32)
    out = one(Op("TILE").inp(I32, x).inp(I32, [2, 3]), (I32, (0, 0)))
    assert out.tolist() == [[1, 2, 1, 2, 1, 2], [3, 4, 3, 4, 3, 4]] * 2
    with pytest.raises(ModelError, match="multiples must not be negative"):
        Op("TILE").inp(I32, x).const(I32, [1, -1]).run((I32, (0, 0)))
    with pytest.raises(ExecutionError, match="must not be negative"):
        Op("TILE").inp(I32, x).inp(I32, [1, -1]).run((I32, (0, 0)))


# --------------------------------------------------------------------------------------------
# PAD, PAD_V2, SLICE, STRIDED_SLICE


def test_pad_quantized_uses_the_zero_point_and_pad_v2_the_value():
    x = np.array([[5, 6]], np.int8)
    out = one(Op("PAD").inp(Q8AS, x, 0.5, -7).const(I32, [[1, 0], [0, 2]]), (Q8AS, (2, 4), 0.5, -7))
    assert out.tolist() == [[-7, -7, -7, -7], [5, 6, -7, -7]]
    out = one(Op("PAD_V2").inp(F16, [1.5]).const(I32, [[2, 1]]).const(T.FLOAT16, 9.0), (F16, (4,)))
    assert out.tolist() == [9.0, 9.0, 1.5, 9.0]


def test_pad_rejections():
    x = np.zeros((2, 2), np.float32)
    with pytest.raises(ModelError, match=r"the paddings \[\[0, -1\], \[0, 0\]\] must not be negative"):
        Op("PAD").inp(F32, x).const(I32, [[0, -1], [0, 0]]).run((F32, (0, 0)))
    with pytest.raises(ExecutionError, match="must not be negative"):
        Op("PAD").inp(F32, x).inp(I32, [[0, -1], [0, 0]]).run((F32, (0, 0)))
    with pytest.raises(ModelError, match=r"must be a \[rank, 2\] tensor"):
        Op("PAD").inp(F32, x).const(I32, [[0, 1, 2]]).run((F32, (0, 0)))
    with pytest.raises(ModelError, match=r"input 2 .*is 300, outside the range \[0, 255\]"):
        Op("PAD_V2").inp(Q8A, [[1]], 1.0, 0).const(I32, [[0, 1], [0, 0]]).i32(300).run(
            (Q8A, (2, 1), 1.0, 0))


def test_slice_minus_one_zero_sized_and_rejections():
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    out = one(Op("SLICE").inp(F32, x).inp(I32, [1, 0, 2]).inp(I32, [-1, 2, 2]), (F32, (0, 0, 0)))
    assert out.tolist() == [[[14, 15], [18, 19]]]
    empty = one(Op("SLICE").inp(F32, x).const(I32, [0, 3, 0]).const(I32, [2, 0, 4]), (F32, (2, 0, 4)))
    assert empty.shape == (2, 0, 4)
    with pytest.raises(ModelError, match=r"size\[2\] is 3 from begin 2, which does not fit dimension 2"):
        Op("SLICE").inp(F32, x).const(I32, [0, 0, 2]).const(I32, [1, 1, 3]).run((F32, (0, 0, 0)))
    with pytest.raises(ModelError, match="begin values must not be negative"):
        Op("SLICE").inp(F32, x).const(I32, [0, -1, 0]).const(I32, [1, 1, 1]).run((F32, (0, 0, 0)))
    with pytest.raises(ExecutionError, match=r"begin\[1\] is 4, outside \[0, 3\]"):
        Op("SLICE").inp(F32, x).inp(I32, [0, 4, 0]).inp(I32, [1, 1, 1]).run((F32, (0, 0, 0)))


def _strided(x, begin, end, strides, bm=0, em=0, sm=0, out_dims=None, runtime=False):
    op = Op("STRIDED_SLICE").inp(F32, x)
    for v in (begin, end, strides):
        (op.inp if runtime else op.const)(I32, v)
    op.i32(bm).i32(em).i32(sm)
    return one(op, (F32, out_dims or (0,) * (x.ndim - sm.bit_count())))


def test_strided_slice_matches_python_slicing():
    x = np.arange(30, dtype=np.float32).reshape(5, 6)
    # Python slices as the reference: negative strides, out-of-range ends clamp, masks.
    assert _strided(x, [4, -1], [0, -7], [-2, -2]).tolist() == x[4:0:-2, -1::-2].tolist()
    assert _strided(x, [1, 9], [10, 2], [1, -1], bm=1, em=0).tolist() == x[:10, 9:2:-1].tolist()
    assert _strided(x, [-3, 0], [0, 0], [1, 3], em=3, runtime=True).tolist() == x[-3:, ::3].tolist()
    assert _strided(x, [2, 0], [3, 6], [1, 2], sm=1).tolist() == x[2, ::2].tolist()
    assert _strided(x, [2, 5], [3, 6], [1, 1], sm=3, out_dims=(1,)).tolist() == [x[2, 5]]


def test_strided_slice_rejections():
    x = np.zeros((2, 3), np.float32)
    with pytest.raises(ModelError, match="strides must be non-zero"):
        _strided(x, [0, 0], [1, 1], [1, 0])
    with pytest.raises(ModelError, match=r"strides\[0\] is -1, but an axis in shrink_axis_mask needs"):
        _strided(x, [1, 0], [0, 3], [-1, 1], sm=1)
    with pytest.raises(ModelError, match=r"axis 0 is in shrink_axis_mask, but its slice \[0:2:1\] has 2"):
        _strided(x, [0, 0], [2, 3], [1, 1], sm=1)
    with pytest.raises(ExecutionError, match="has 2 elements instead of 1"):
        _strided(x, [0, 0], [2, 3], [1, 1], sm=1, runtime=True)


# --------------------------------------------------------------------------------------------
# GATHER, EMBEDDING_LOOKUP, HASHTABLE_LOOKUP


def test_gather_matrix_indices_and_out_of_range():
    x = np.arange(12, dtype=np.int32).reshape(3, 4)
    idx = np.array([[3, 0], [1, 1]], np.int32)
    out = one(Op("GATHER").inp(I32, x).i32(-1).inp(I32, idx), (I32, (3, 2, 2)))
    for a, i, j in itertools.product(range(3), range(2), range(2)):
        assert out[a, i, j] == x[a, idx[i, j]]
    with pytest.raises(ModelError, match=r"input 2 .*holds index 4, outside \[0, 4\) of axis 1"):
        Op("GATHER").inp(I32, x).i32(1).const(I32, [0, 4]).run((I32, (3, 2)))
    with pytest.raises(ExecutionError, match=r"the index -1 is outside \[0, 3\) of axis 0"):
        Op("GATHER").inp(I32, x).i32(0).inp(I32, [-1]).run((I32, (1, 4)))


def test_embedding_lookup_rows_and_out_of_range():
    values = np.arange(8, dtype=np.float32).reshape(4, 2)
    out = one(Op("EMBEDDING_LOOKUP").inp(I32, [3, 0, 3]).inp(F32, values), (F32, (3, 2)))
    assert out.tolist() == [[6, 7], [0, 1], [6, 7]]
    with pytest.raises(ExecutionError, match="the lookup 4 is outside the 4 rows of the values"):
        Op("EMBEDDING_LOOKUP").inp(I32, [4]).inp(F32, values).run((F32, (1, 2)))


def test_hashtable_lookup_hits_and_misses():
    keys = np.array([-5, 2, 9], np.int32)
    values = np.array([[10, 11], [20, 21], [30, 31]], np.uint8)
    out, hits = Op("HASHTABLE_LOOKUP").inp(I32, [9, 3, -5, 100]).inp(I32, keys).inp(Q8A, values, 0.5, 4) \
        .run((Q8A, (4, 2), 0.5, 4), (Q8A, (4,), 1.0, 0))
    assert out.tolist() == [[30, 31], [0, 0], [10, 11], [0, 0]]
    assert hits.tolist() == [1, 0, 1, 0]
    with pytest.raises(ModelError, match="the keys must be sorted in ascending order"):
        Op("HASHTABLE_LOOKUP").inp(I32, [1]).const(I32, [3, 1, 2]).inp(Q8A, values, 0.5, 4) \
            .run((Q8A, (1, 2), 0.5, 4), (Q8A, (1,), 1.0, 0))
    with pytest.raises(ExecutionError, match="must be sorted"):
        Op("HASHTABLE_LOOKUP").inp(I32, [1]).inp(I32, [3, 1, 2]).inp(Q8A, values, 0.5, 4) \
            .run((Q8A, (1, 2), 0.5, 4), (Q8A, (1,), 1.0, 0))
    with pytest.raises(ModelError, match="the hits tensor must have scale 1 and zero point 0"):
        Op("HASHTABLE_LOOKUP").inp(I32, [1]).inp(I32, keys).inp(Q8A, values, 0.5, 4) \
            .run((Q8A, (1, 2), 0.5, 4), (Q8A, (1,), 0.5, 0))


# --------------------------------------------------------------------------------------------
# Layout: DEPTH_TO_SPACE, SPACE_TO_DEPTH, BATCH_TO_SPACE_ND, SPACE_TO_BATCH_ND, CHANNEL_SHUFFLE


def _nhwc(x, nchw):
    return x.transpose(0, 3, 1, 2) if nchw else x


@pytest.mark.parametrize("nchw", [False, True])
def test_depth_to_space_follows_the_spec_formula(nchw):
    bs, n, h, w, c_out = 2, 1, 2, 3, 2
    x = np.arange(n * h * w * c_out * bs * bs, dtype=np.float32).reshape(n, h, w, bs * bs * c_out)
    expected = np.zeros((n, h * bs, w * bs, c_out), np.float32)
    for b, y, xx, i, j, c in itertools.product(range(n), range(h), range(w), range(bs), range(bs),
                                               range(c_out)):
        expected[b, y * bs + i, xx * bs + j, c] = x[b, y, xx, (i * bs + j) * c_out + c]
    out = one(Op("DEPTH_TO_SPACE").inp(F32, _nhwc(x, nchw)).i32(bs).const(T.BOOL, nchw),
              (F32, _nhwc(expected, nchw).shape))
    assert out.tolist() == _nhwc(expected, nchw).tolist()
    back = one(Op("SPACE_TO_DEPTH").inp(F32, out).i32(bs).const(T.BOOL, nchw), (F32, (0, 0, 0, 0)))
    assert back.tolist() == _nhwc(x, nchw).tolist()


def test_depth_space_rejections():
    x = np.zeros((1, 2, 2, 3), np.float32)
    with pytest.raises(ModelError, match="has depth 3, which block_size \\* block_size = 4 does not divide"):
        Op("DEPTH_TO_SPACE").inp(F32, x).i32(2).run((F32, (0, 0, 0, 0)))
    with pytest.raises(ModelError, match="is 0, but the block size must be at least 1"):
        Op("DEPTH_TO_SPACE").inp(F32, x).i32(0).run((F32, (0, 0, 0, 0)))
    with pytest.raises(ModelError, match="has height 2, which the block size 3 does not divide"):
        Op("SPACE_TO_DEPTH").inp(F32, x).i32(3).run((F32, (0, 0, 0, 0)))
    with pytest.raises(ModelError, match="has rank 3, but the operation requires rank 4"):
        Op("SPACE_TO_DEPTH").inp(F32, x[0]).i32(1).run((F32, (0, 0, 0, 0)))


@pytest.mark.parametrize("nchw", [False, True])
def test_space_to_batch_pads_with_the_zero_point_and_batch_to_space_inverts(nchw):
    b0, b1 = 2, 3
    x = np.arange(1, 1 + 2 * 3 * 4 * 1, dtype=np.uint8).reshape(2, 3, 4, 1)
    pads = [[1, 0], [0, 2]]
    padded = np.full((2, 4, 6, 1), 9, np.uint8)
    padded[:, 1:, :4] = x
    expected = np.zeros((2 * b0 * b1, 2, 2, 1), np.uint8)
    for i, j, b, y, xx in itertools.product(range(b0), range(b1), range(2), range(2), range(2)):
        expected[(i * b1 + j) * 2 + b, y, xx] = padded[b, y * b0 + i, xx * b1 + j]
    out = one(Op("SPACE_TO_BATCH_ND").inp(Q8A, _nhwc(x, nchw), 0.5, 9).const(I32, [b0, b1])
              .const(I32, pads).const(T.BOOL, nchw), (Q8A, _nhwc(expected, nchw).shape, 0.5, 9))
    assert out.tolist() == _nhwc(expected, nchw).tolist()
    back = one(Op("BATCH_TO_SPACE_ND").inp(Q8A, out, 0.5, 9).const(I32, [b0, b1]).const(T.BOOL, nchw),
               (Q8A, (0, 0, 0, 0), 0.5, 9))
    assert back.tolist() == _nhwc(padded, nchw).tolist()


def test_batch_space_rejections():
    x = np.zeros((3, 2, 2, 1), np.float32)
    with pytest.raises(ModelError, match=r"has batch 3, which the block shape \[2, 1\]"):
        Op("BATCH_TO_SPACE_ND").inp(F32, x).const(I32, [2, 1]).run((F32, (0, 0, 0, 0)))
    with pytest.raises(ModelError, match=r"the block shape \[0, 1\] must have values >= 1"):
        Op("BATCH_TO_SPACE_ND").inp(F32, x).const(I32, [0, 1]).run((F32, (0, 0, 0, 0)))
    with pytest.raises(ModelError, match="has padded width 3, which the block size 2 does not divide"):
        Op("SPACE_TO_BATCH_ND").inp(F32, x).const(I32, [1, 2]).const(I32, [[0, 0], [1, 0]]) \
            .run((F32, (0, 0, 0, 0)))
    with pytest.raises(ModelError, match="must not be negative"):
        Op("SPACE_TO_BATCH_ND").inp(F32, x).const(I32, [1, 1]).const(I32, [[0, 0], [-1, 0]]) \
            .run((F32, (0, 0, 0, 0)))
    with pytest.raises(ExecutionError, match="must be multiples of the block shape"):
        Op("SPACE_TO_BATCH_ND").inp(F32, x).inp(I32, [1, 2]).inp(I32, [[0, 0], [1, 0]]) \
            .run((F32, (0, 0, 0, 0)))


def test_channel_shuffle_formula_and_rejection():
    groups, size = 3, 2
    x = np.arange(2 * groups * size, dtype=np.float32).reshape(2, groups * size)
    out = one(Op("CHANNEL_SHUFFLE").inp(F32, x).i32(groups).i32(-1), (F32, x.shape))
    for k, g in itertools.product(range(size), range(groups)):
        assert out[:, k * groups + g].tolist() == x[:, g * size + k].tolist()
    with pytest.raises(ModelError, match="has 6 channels along axis 1, which 4 groups do not divide"):
        Op("CHANNEL_SHUFFLE").inp(F32, x).i32(4).i32(1).run((F32, x.shape))


# --------------------------------------------------------------------------------------------
# Reductions


def test_mean_quantized_truncates_toward_zero():
    # int8 sums -5 and 5 over 2 elements: C++ integer division gives -2 and 2 (not -3 / 2).
    x = np.array([[-3, -2], [2, 3]], np.int8)
    out = one(Op("MEAN").inp(Q8AS, x, 0.1, 0).const(I32, [1, -1]).i32(0), (Q8AS, (2,), 0.1, 0))
    assert out.tolist() == [-2, 2]
    out = one(Op("MEAN").inp(Q8A, [[250, 255, 255]], 1.0, 0).const(I32, [1]).i32(1), (Q8A, (1, 1), 1.0, 0))
    assert out.tolist() == [[253]]  # 760 / 3 = 253.33


def test_mean_float_all_axes_gives_shape_one():
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    assert one(Op("MEAN").inp(F32, x).const(I32, [0, 1]).i32(0), (F32, (1,))).tolist() == [2.5]


def test_reduce_sum_float16_accumulates_in_float16():
    # 2048 + 1 rounds back to 2048 in float16 (spacing 2), twice; a float32 sum would give 2050.
    x = np.array([2048, 1, 1], np.float16)
    out = one(Op("REDUCE_SUM").inp(F16, x).const(I32, [0]).const(T.BOOL, False), (F16, (1,)))
    assert out.tolist() == [2048.0]


def test_reductions_keep_dims_empty_and_logical():
    x = np.array([[1.0, -4.0, 2.0], [0.5, 3.0, -1.0]], np.float32)
    out = one(Op("REDUCE_PROD").inp(F32, x).const(I32, [1]).const(T.BOOL, True), (F32, (2, 1)))
    assert out.tolist() == [[-8.0], [-1.5]]
    out = one(Op("REDUCE_MAX").inp(F32, np.zeros((0, 2), np.float32), dims=(0, 2)).const(I32, [0])
              .const(T.BOOL, False), (F32, (2,)))
    assert out.tolist() == [float(-np.finfo(np.float32).max)] * 2
    b = np.array([[True, False], [True, True]])
    assert one(Op("REDUCE_ALL").inp(BOOL8, b).const(I32, [1]).const(T.BOOL, False), (BOOL8, (2,))).tolist() \
        == [False, True]
    assert one(Op("REDUCE_ANY").inp(BOOL8, b).const(I32, [0, 1]).const(T.BOOL, False), (BOOL8, (1,))).tolist() \
        == [True]


@pytest.mark.parametrize("name", ["MEAN", "REDUCE_MIN", "REDUCE_SUM"])
def test_reductions_reject_axis_out_of_range(name):
    keep = (lambda op: op.i32(0)) if name == "MEAN" else (lambda op: op.const(T.BOOL, False))
    with pytest.raises(ModelError, match=r"the axis 2 is outside the range \[-2, 2\)"):
        keep(Op(name).inp(F32, np.zeros((2, 2))).const(I32, [2])).run((F32, (0,)))
    with pytest.raises(ExecutionError, match=r"the axis -3 is outside"):
        keep(Op(name).inp(F32, np.zeros((2, 2))).inp(I32, [-3])).run((F32, (0,)))


def test_argmax_argmin_first_index_on_ties_and_rejections():
    x = np.array([[1, 5, 5], [2, 2, 0]], np.int32)
    assert one(Op("ARGMAX").inp(I32, x).i32(-1), (I32, (2,))).tolist() == [1, 0]
    assert one(Op("ARGMIN").inp(I32, x).i32(0), (I32, (3,))).tolist() == [0, 1, 1]
    assert one(Op("ARGMAX").inp(I32, [4, 9, 9]).i32(0), (I32, (1,))).tolist() == [1]
    with pytest.raises(ModelError, match=r"is 2, outside the range \[-2, 2\)"):
        Op("ARGMAX").inp(I32, x).i32(2).run((I32, (0,)))
    with pytest.raises(ExecutionError, match="must not be empty"):
        Op("ARGMIN").inp(I32, np.zeros((0, 2), np.int32), dims=(0, 2)).i32(1).run((I32, (0,)))


def test_topk_descending_larger_index_first_on_ties():
    x = np.array([[3, 7, 3, 7, 1]], np.uint8)
    values, idx = Op("TOPK_V2").inp(Q8A, x, 1.0, 0).i32(3).run((Q8A, (1, 3), 1.0, 0), (I32, (1, 3)))
    assert values.tolist() == [[7, 7, 3]] and idx.tolist() == [[3, 1, 2]]
    with pytest.raises(ModelError, match="is 6, more than the 5 elements of the last dimension"):
        Op("TOPK_V2").inp(Q8A, x, 1.0, 0).i32(6).run((Q8A, (0, 0), 1.0, 0), (I32, (0, 0)))
    with pytest.raises(ModelError, match="is 0, but k must be at least 1"):
        Op("TOPK_V2").inp(Q8A, x, 1.0, 0).i32(0).run((Q8A, (0, 0), 1.0, 0), (I32, (0, 0)))


# --------------------------------------------------------------------------------------------
# FILL, RANK


def test_fill_and_rank():
    out = one(Op("FILL").inp(I32, [2, 3]).const(T.FLOAT16, 1.25), (F16, (0, 0)))
    assert out.dtype == np.float16 and out.tolist() == [[1.25] * 3] * 2
    assert one(Op("RANK").inp(Q8A, np.zeros((2, 1, 3)), 1.0, 0), (T.INT32, ())).tolist() == 3
    with pytest.raises(ModelError, match="the output dimensions must not be negative"):
        Op("FILL").const(I32, [2, -1]).i32(0).run((I32, (0, 0)))
    with pytest.raises(ExecutionError, match="has a negative dimension"):
        Op("FILL").inp(I32, [2, -1]).i32(0).run((I32, (0, 0)))


# --------------------------------------------------------------------------------------------
# Properties


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 3), st.integers(1, 3), st.integers(1, 3), st.integers(1, 2),
       st.integers(1, 3), st.booleans())
def test_space_depth_round_trip(n, h, w, bs, c, nchw):
    x = np.arange(n * h * bs * w * bs * c, dtype=np.float32).reshape(n, h * bs, w * bs, c)
    x = _nhwc(x, nchw)
    mid = one(Op("SPACE_TO_DEPTH").inp(F32, x).i32(bs).const(T.BOOL, nchw), (F32, (0, 0, 0, 0)))
    assert sorted(mid.ravel().tolist()) == sorted(x.ravel().tolist())
    back = one(Op("DEPTH_TO_SPACE").inp(F32, mid).i32(bs).const(T.BOOL, nchw), (F32, (0, 0, 0, 0)))
    assert back.tolist() == x.tolist()


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 6), st.integers(-8, 8), st.integers(-8, 8),
       st.sampled_from([-3, -2, -1, 1, 2, 3]), st.booleans(), st.booleans())
def test_strided_slice_equals_python_slice(dim, begin, end, stride, bm, em):
    x = np.arange(dim, dtype=np.float32)
    b = None if bm else begin
    e = None if em else end
    expected = x[b:e:stride].tolist()
    assert _strided(x.reshape(dim) if dim else x, [begin], [end], [stride], int(bm), int(em)).tolist() == expected
