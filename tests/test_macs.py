"""Useful MACs (``nnaccel.macs``) against an independent count: float32 layers with all-one inputs
and weights, zero bias and no padding, run on the golden kernels; then every output element holds
the number of products summed into it, so the outputs' sum is the layer's multiply-add count."""

import numpy as np
import pytest

from nnaccel.golden.interpreter import run_model
from nnaccel.macs import split_by_weight, useful_macs
from nnaccel.model import ModelBuilder, OperandType

T = OperandType
F = T.TENSOR_FLOAT32


def _i(b, v):
    return b.add_constant(T.INT32, v)


def _layer(kind, x_shape, w_shape, y_shape, scalars, layout_nchw=None):
    """One ``kind`` layer of all-one float32 weights and zero bias; ``layout_nchw`` None leaves the
    optional layout input out."""
    b = ModelBuilder(kind)
    x = b.add_operand(F, x_shape)
    w = b.add_constant(F, np.ones(w_shape, np.float32))
    inputs = [x, w]
    if kind != "BATCH_MATMUL":
        nbias = w_shape[3] if kind == "DEPTHWISE_CONV_2D" else w_shape[0]
        inputs.append(b.add_constant(F, np.zeros(nbias, np.float32)))
    inputs += [b.add_constant(T.BOOL, np.bool_(v)) if isinstance(v, bool) else _i(b, v) for v in scalars]
    if layout_nchw is not None:
        inputs.append(b.add_constant(T.BOOL, np.bool_(layout_nchw)))
    y = b.add_operand(F, y_shape)
    b.add_operation(kind, inputs, [y])
    b.identify_inputs_and_outputs([x], [y])
    return b.finish(), x_shape


CASES = {
    # explicit padding 0: pl, pr, pt, pb, stride w, stride h, (extra,) activation
    "conv": ("CONV_2D", (1, 7, 6, 5), (4, 3, 2, 5), (1, 3, 5, 4), [0, 0, 0, 0, 1, 2, 0]),
    "conv_nchw": ("CONV_2D", (1, 5, 7, 6), (4, 3, 2, 5), (1, 4, 3, 5), [0, 0, 0, 0, 1, 2, 0], True),
    "depthwise_x2": ("DEPTHWISE_CONV_2D", (2, 6, 6, 3), (1, 3, 3, 6), (2, 4, 4, 6), [0, 0, 0, 0, 1, 1, 2, 0]),
    "grouped": ("GROUPED_CONV_2D", (1, 5, 5, 6), (4, 2, 2, 3), (1, 4, 4, 4), [0, 0, 0, 0, 1, 1, 2, 0], False),
    "transpose": ("TRANSPOSE_CONV_2D", (1, 3, 4, 5), (2, 3, 2, 5), (1, 7, 8, 2), [0, 0, 0, 0, 2, 2, 0], False),
    "fc": ("FULLY_CONNECTED", (3, 10), (7, 10), (3, 7), [0]),
    "matmul": ("BATCH_MATMUL", (2, 3, 5), (2, 5, 4), (2, 3, 4), [False, False]),
    "matmul_adj": ("BATCH_MATMUL", (2, 5, 3), (2, 4, 5), (2, 3, 4), [True, True]),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_useful_macs_is_the_count_of_products(name):
    kind, xs, ws, ys, scalars, *nchw = CASES[name]
    model, shape = _layer(kind, xs, ws, ys, scalars, nchw[0] if nchw else None)
    out = run_model(model, [np.ones(shape, np.float32)])[0]
    assert out.shape == ys
    sg = model.main
    assert useful_macs(sg, sg.operations[0]) == int(out.sum())


def test_hand_counts_and_no_mac_ops():
    # a 3x3 SAME depthwise conv on 8x8x48 counts its padding taps too, as published MAC counts do
    kind, xs, ws, ys = "DEPTHWISE_CONV_2D", (1, 8, 8, 48), (1, 3, 3, 48), (1, 8, 8, 48)
    b = ModelBuilder("dw")
    x = b.add_operand(F, xs)
    w = b.add_constant(F, np.ones(ws, np.float32))
    bias = b.add_constant(F, np.zeros(48, np.float32))
    y = b.add_operand(F, ys)
    b.add_operation(kind, [x, w, bias, _i(b, 1), _i(b, 1), _i(b, 1), _i(b, 1), _i(b, 0)], [y])
    z = b.add_operand(F, ys)
    b.add_operation("RELU", [y], [z])
    b.identify_inputs_and_outputs([x], [z])
    sg = b.finish().main
    assert useful_macs(sg, sg.operations[0]) == 8 * 8 * 48 * 9
    assert useful_macs(sg, sg.operations[1]) == 0


def test_split_by_weight_sums_exactly():
    assert sorted(split_by_weight(10, [1, 1, 1])) == [3, 3, 4]
    assert split_by_weight(100, [3, 1]) == [75, 25]
    assert split_by_weight(101, [3, 1]) == [76, 25]
    assert sorted(split_by_weight(7, [0, 0])) == [3, 4]
    assert split_by_weight(5, [0, 2]) == [0, 5]
    assert split_by_weight(0, []) == []
