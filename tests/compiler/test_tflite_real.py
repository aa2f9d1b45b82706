"""What TFLite files from the wild hold, each compared with LiteRT's reference kernels
(``OpResolverType.BUILTIN_REF``):

* OperatorCodes written the new way: only ``builtin_code`` set, ``deprecated_builtin_code`` left 0
  (ai-edge-quantizer's QUANTIZE 114 and DEQUANTIZE 6);
* sparse constants (``Tensor.sparsity``) feeding DENSIFY, as MediaPipe models store float16 weights;
* a dynamic batch (``shape_signature`` -1, as Keras exports write it): batch 1 from the static
  shape, a batch asked for, or the batch of the given inputs; the ``run`` / ``compile`` /
  ``import`` command lines.

The models are built with :class:`~support.tflite_build.TFLiteBuilder`; expected values
come from LiteRT or from arrays written here, never from the code under test.
"""

from __future__ import annotations

import numpy as np
import pytest
import tflite
from nnaccel.compiler.compile import compile_model
from nnaccel.compiler.tflite_import import _raw_builtin_code, import_tflite_bytes
from nnaccel.compiler.tflite_sparse import DENSE, SPARSE_CSR, densify, sparsify
from nnaccel.firmware.runtime import Runtime
from support.tflite_build import Sparsity, TFLiteBuilder
from support.tflite_litert import LiteRTWorker
from tflite.BuiltinOperator import BuiltinOperator

from nnaccel.cli import main as cli_main
from nnaccel.errors import InputError, NotImplementedOpError
from nnaccel.formats import load_model
from nnaccel.golden.interpreter import run_model

FLOAT_TOLERANCE = 1e-5  # relative to the output's magnitude, as the LiteRT differential test


@pytest.fixture(scope="module")
def litert():
    with LiteRTWorker() as w:
        yield w


def litert_outputs(worker, data: bytes, inputs: list) -> list:
    status, ref = worker.run(data, inputs)
    assert status == "ok", ref
    return ref


def assert_float_close(golden, ref):
    for g, r in zip(golden, ref):
        assert g.shape == r.shape
        assert np.abs(g - r).max() <= FLOAT_TOLERANCE * max(np.abs(r).max(), 1e-3)


def assert_bit_exact(golden, ref):
    for g, r in zip(golden, ref):
        assert g.dtype == r.dtype and g.shape == r.shape
        np.testing.assert_array_equal(g, r)


def ops_of(model):
    return [op.type for op in model.main.operations]


def per_channel_weights(r, shape, qdim):
    w = r.uniform(-1, 1, shape)
    axes = tuple(a for a in range(len(shape)) if a != qdim)
    scales = np.abs(w).max(axis=axes) / 127
    q = np.round(w / scales.reshape([-1 if a == qdim else 1 for a in range(len(shape))])).astype(np.int8)
    return q, scales


# ============================================================= OperatorCodes written the new way
def quantize_conv_dequantize(seed: int, **layout) -> tuple[bytes, list]:
    """float32 -> QUANTIZE -> int8 per-channel CONV_2D + RELU -> DEQUANTIZE -> float32."""
    r = np.random.default_rng(seed)
    b = TFLiteBuilder(**layout)
    x = b.add_tensor((1, 6, 6, 3), "FLOAT32", name="x")
    xq = b.add_tensor((1, 6, 6, 3), "INT8", scale=0.02, zero_point=3)
    b.add_op("QUANTIZE", [x], [xq])
    wq, ws = per_channel_weights(r, (4, 3, 3, 3), 0)
    w = b.add_tensor((4, 3, 3, 3), "INT8", data=wq, scale=list(ws), zero_point=[0] * 4)
    bias = b.add_tensor((4,), "INT32", data=r.integers(-300, 300, 4), scale=list(0.02 * ws), zero_point=[0] * 4)
    y = b.add_tensor((1, 6, 6, 4), "INT8", scale=0.05, zero_point=-20)
    b.add_op("CONV_2D", [xq, w, bias], [y], "Conv2DOptions", Padding=0, StrideW=1, StrideH=1,
             FusedActivationFunction=1)
    out = b.add_tensor((1, 6, 6, 4), "FLOAT32", name="out")
    b.add_op("DEQUANTIZE", [y], [out])
    return b.finish([x], [out]), [r.uniform(-2.5, 2.5, (1, 6, 6, 3)).astype(np.float32)]


def test_builtin_code_only_file_layout():
    """The builder writes what ai-edge-quantizer writes: deprecated_builtin_code 0, the code in
    builtin_code (which the ``tflite`` package's ``BuiltinCode()`` reports as 0 below 127)."""
    data, _ = quantize_conv_dequantize(0, builtin_code_only=True)
    m = tflite.Model.GetRootAs(data, 0)
    codes = [m.OperatorCodes(k) for k in range(m.OperatorCodesLength())]
    assert [c.DeprecatedBuiltinCode() for c in codes] == [0, 0, 0]
    assert [_raw_builtin_code(c) for c in codes] == [BuiltinOperator.QUANTIZE, BuiltinOperator.CONV_2D,
                                                     BuiltinOperator.DEQUANTIZE] == [114, 3, 6]


@pytest.mark.parametrize("layout", [{}, {"legacy_opcodes": True}, {"builtin_code_only": True}],
                         ids=["both-fields", "deprecated-only", "builtin-only"])
@pytest.mark.parametrize("seed", range(2))
def test_opcodes_in_every_layout_match_litert(litert, layout, seed):
    data, inputs = quantize_conv_dequantize(seed, **layout)
    model = import_tflite_bytes(data)
    assert ops_of(model) == ["QUANTIZE", "CONV_2D", "DEQUANTIZE"]
    golden = run_model(model, inputs)
    ref = litert_outputs(litert, data, inputs)
    # the float output is (q - z) * s of an int8 tensor: equal q give the same float
    np.testing.assert_array_equal(np.round(golden[0] / 0.05), np.round(ref[0] / 0.05))
    assert_float_close(golden, ref)


def test_builtin_code_only_above_127_still_reads_the_int32_field():
    b = TFLiteBuilder(builtin_code_only=True)
    x, y = b.add_tensor([4], "FLOAT32"), b.add_tensor([4], "FLOAT32")
    b.add_op("CUMSUM", [x], [y])
    assert BuiltinOperator.CUMSUM > 127
    with pytest.raises(NotImplementedOpError, match=r"CUMSUM \(1x\)"):
        import_tflite_bytes(b.finish([x], [y]))


# ======================================================================= sparse constants + DENSIFY
#: Encodings LiteRT's DENSIFY reads: MediaPipe's DENSE / DENSE / DENSE / SPARSE_CSR, each index
#: vector type, a sparse middle level, another traversal order, and blocks of output channels.
SPARSITIES = {
    "dddS-int32": Sparsity(),
    "dddS-uint8": Sparsity(index_vector="Uint8Vector"),
    "dSdd-uint16": Sparsity(formats=(DENSE, SPARSE_CSR, DENSE, DENSE), index_vector="Uint16Vector"),
    "SSSS-order1023": Sparsity(traversal_order=(1, 0, 2, 3), formats=(SPARSE_CSR,) * 4),
    "blocked-out-channels": Sparsity(traversal_order=(0, 1, 2, 3, 4), block_map=(0,), block_sizes=(2,),
                                     formats=(DENSE, SPARSE_CSR, DENSE, DENSE, DENSE)),
}


def sparse_array(r, shape, density, dtype):
    return (r.uniform(-1, 1, shape) * (r.uniform(size=shape) < density)).astype(dtype)


def sparse_fp16_conv(seed: int, sparsity: Sparsity) -> tuple[bytes, list, np.ndarray]:
    """Sparse float16 weights and bias -> DENSIFY -> DEQUANTIZE -> float32 CONV_2D + RELU6."""
    r = np.random.default_rng(seed)
    b = TFLiteBuilder()
    x = b.add_tensor((1, 7, 7, 3), "FLOAT32")
    wd = sparse_array(r, (4, 3, 3, 3), 0.3, np.float16)
    bd = sparse_array(r, (4,), 0.5, np.float16)
    consts = []
    for dense, sp in ((wd, sparsity), (bd, Sparsity(index_vector=sparsity.index_vector))):
        s = b.add_tensor(dense.shape, "FLOAT16", data=dense, sparsity=sp)
        d16 = b.add_tensor(dense.shape, "FLOAT16")
        b.add_op("DENSIFY", [s], [d16])
        f = b.add_tensor(dense.shape, "FLOAT32")
        b.add_op("DEQUANTIZE", [d16], [f])
        consts.append(f)
    y = b.add_tensor((1, 7, 7, 4), "FLOAT32")
    b.add_op("CONV_2D", [x, *consts], [y], "Conv2DOptions", Padding=0, StrideW=1, StrideH=1,
             FusedActivationFunction=3)
    return b.finish([x], [y]), [r.uniform(-1, 1, (1, 7, 7, 3)).astype(np.float32)], wd


@pytest.mark.parametrize("name", list(SPARSITIES))
def test_sparse_float16_weights_through_densify_match_litert(litert, name):
    data, inputs, wd = sparse_fp16_conv(3, SPARSITIES[name])
    tfl = tflite.Model.GetRootAs(data, 0).Subgraphs(0).Tensors(1)
    assert tfl.Sparsity() is not None  # the file holds the sparse encoding
    model = import_tflite_bytes(data)
    assert ops_of(model) == ["CONV_2D"]  # DENSIFY and DEQUANTIZE folded
    w = model.main.operands[model.main.operations[0].inputs[1]]
    np.testing.assert_array_equal(w.data.reshape(wd.shape), wd.astype(np.float32))
    assert_float_close(run_model(model, inputs), litert_outputs(litert, data, inputs))


def test_sparse_float32_fully_connected_weights_match_litert(litert):
    r = np.random.default_rng(5)
    b = TFLiteBuilder()
    x = b.add_tensor((2, 16), "FLOAT32")
    wd = sparse_array(r, (8, 16), 0.2, np.float32)
    s = b.add_tensor((8, 16), "FLOAT32", data=wd, sparsity=Sparsity(block_map=(1,), block_sizes=(4,),
                                                                 formats=(DENSE, SPARSE_CSR, DENSE)))
    w = b.add_tensor((8, 16), "FLOAT32")
    b.add_op("DENSIFY", [s], [w])
    y = b.add_tensor((2, 8), "FLOAT32")
    b.add_op("FULLY_CONNECTED", [x, w, -1], [y], "FullyConnectedOptions")
    data = b.finish([x], [y])
    inputs = [r.uniform(-1, 1, (2, 16)).astype(np.float32)]
    model = import_tflite_bytes(data)
    assert ops_of(model) == ["FULLY_CONNECTED"]
    golden = run_model(model, inputs)
    assert_float_close(golden, litert_outputs(litert, data, inputs))
    np.testing.assert_allclose(golden[0], inputs[0].astype(np.float64) @ wd.T.astype(np.float64), rtol=1e-5,
                               atol=1e-6)


@pytest.mark.parametrize("shape,kw", [
    ((5, 7), {}),
    ((5, 7), {"formats": (SPARSE_CSR, SPARSE_CSR)}),
    ((4, 3, 6), {"traversal_order": (2, 0, 1), "formats": (DENSE, SPARSE_CSR, SPARSE_CSR)}),
    ((6, 8), {"traversal_order": (1, 0, 2, 3), "block_map": (0, 1), "block_sizes": (3, 2),
              "formats": (SPARSE_CSR, DENSE, DENSE, DENSE)}),
])
def test_sparsify_and_densify_round_trip(shape, kw):
    r = np.random.default_rng(len(shape))
    dense = sparse_array(r, shape, 0.25, np.float32)
    dense[..., :4] = 0  # whole blocks of zeros, which every encoding leaves out
    levels, values = sparsify(dense, **kw)
    assert values.size < dense.size
    n = len(shape) + len(kw.get("block_map", ()))
    order = kw.get("traversal_order", tuple(range(n)))
    np.testing.assert_array_equal(densify(shape, order, kw.get("block_map", ()), levels, values), dense)


def corrupt_sparse_model(corrupt) -> bytes:
    b = TFLiteBuilder()
    s = b.add_tensor((4, 6), "FLOAT32", data=sparse_array(np.random.default_rng(0), (4, 6), 0.4, np.float32),
                     sparsity=Sparsity())
    corrupt(b, s)
    d, y = b.add_tensor((4, 6), "FLOAT32"), b.add_tensor((4, 6), "FLOAT32")
    x = b.add_tensor((4, 6), "FLOAT32")
    b.add_op("DENSIFY", [s], [d])
    b.add_op("ADD", [x, d], [y], "AddOptions", FusedActivationFunction=0)
    return b.finish([x], [y])


def _drop_a_value(b, s):
    b.buffers[b.tensors[s]["buffer"]] = b.buffers[b.tensors[s]["buffer"]][:-4]


def _index_past_the_end(b, s):
    levels = b.tensors[s]["sparsity"][2]
    last = levels[-1]
    bad = last.indices.copy()
    bad[-1] = 6
    levels[-1] = type(last)(SPARSE_CSR, segments=last.segments, indices=bad)


def _short_segments(b, s):
    levels = b.tensors[s]["sparsity"][2]
    last = levels[-1]
    levels[-1] = type(last)(SPARSE_CSR, segments=last.segments[:-2], indices=last.indices)


@pytest.mark.parametrize("corrupt,match", [
    (_drop_a_value, r"describe \d+ stored values, but the buffer holds \d+"),
    (_index_past_the_end, "array_indices of dimension 1 leave its 6 entries"),
    (_short_segments, "array_segments of dimension 1 has 3 entries, but the level above has 4 positions"),
])
def test_corrupt_sparsity_is_an_input_error(tmp_path, capsys, corrupt, match):
    data = corrupt_sparse_model(corrupt)
    with pytest.raises(InputError, match=r"is corrupt: the sparsity parameters of tensor 0 .*" + match):
        import_tflite_bytes(data)
    path = tmp_path / "bad.tflite"
    path.write_bytes(data)
    assert cli_main(["run", str(path)]) == 2
    assert "is corrupt" in capsys.readouterr().err


def test_densify_of_a_graph_input_is_not_implemented():
    b = TFLiteBuilder()
    x, y = b.add_tensor((4, 6), "FLOAT32"), b.add_tensor((4, 6), "FLOAT32")
    b.add_op("DENSIFY", [x], [y])
    with pytest.raises(NotImplementedOpError, match=r"\(DENSIFY\) cannot be imported: its input is not a constant"):
        import_tflite_bytes(b.finish([x], [y]))


# ==================================================================================== dynamic batch
def keras_cnn(seed: int, hw=(8, 8), dynamic_hw=False, reshape=True) -> bytes:
    """int8 CONV_2D + RELU6 -> MAX_POOL_2D [-> RESHAPE [-1, n] -> SOFTMAX], every activation with a
    dynamic batch (and with ``dynamic_hw`` dynamic height and width) in its shape_signature."""
    r = np.random.default_rng(seed)
    b = TFLiteBuilder()
    h, w = hw

    def act(shape, scale, zp, name=None):
        sig = [-1, *shape[1:]]
        if dynamic_hw and len(shape) == 4:
            sig[1] = sig[2] = -1
        return b.add_tensor(shape, "INT8", name=name, scale=scale, zero_point=zp, shape_signature=sig)

    x = act((1, h, w, 3), 0.02, 0, "image")
    wq, ws = per_channel_weights(r, (8, 3, 3, 3), 0)
    wt = b.add_tensor(wq.shape, "INT8", data=wq, scale=list(ws), zero_point=[0] * 8)
    bt = b.add_tensor((8,), "INT32", data=r.integers(-200, 200, 8), scale=list(0.02 * ws), zero_point=[0] * 8)
    c = act((1, h, w, 8), 6 / 255, -128)
    b.add_op("CONV_2D", [x, wt, bt], [c], "Conv2DOptions", Padding=0, StrideW=1, StrideH=1,
             FusedActivationFunction=3)
    p = act((1, h // 2, w // 2, 8), 6 / 255, -128)
    b.add_op("MAX_POOL_2D", [c], [p], "Pool2DOptions", Padding=1, StrideW=2, StrideH=2, FilterWidth=2,
             FilterHeight=2)
    if not reshape:
        return b.finish([x], [p])
    n = h // 2 * w // 2 * 8
    shape = b.add_tensor((2,), "INT32", data=[-1, n])
    f = act((1, n), 6 / 255, -128)
    b.add_op("RESHAPE", [p, shape], [f])
    out = act((1, n), 1 / 256, -128, "probs")
    b.add_op("SOFTMAX", [f], [out], "SoftmaxOptions", Beta=1.0)
    return b.finish([x], [out])


def image(seed, batch, hw=(8, 8)):
    return [np.random.default_rng(seed).integers(-128, 128, (batch, *hw, 3)).astype(np.int8)]


def test_dynamic_batch_imports_with_the_static_batch_and_accelerates(litert):
    data = keras_cnn(0)
    model = import_tflite_bytes(data)
    sg = model.main
    assert sg.operands[sg.input_indexes[0]].dimensions == (1, 8, 8, 3)
    assert all(0 not in (o.dimensions or ()) for o in sg.operands)  # every shape known
    inputs = image(1, 1)
    golden = run_model(model, inputs)
    assert_bit_exact(golden, litert_outputs(litert, data, inputs))
    pkg = compile_model(model, "base")
    assert {o["type"] for o in pkg.manifest["accelerator_ops"]} >= {"CONV_2D", "MAX_POOL_2D"}
    outputs, _ = Runtime(pkg).run(inputs, "isa", check=True)
    assert_bit_exact(outputs, golden)


@pytest.mark.parametrize("how", ["batch", "input_shapes", "both"])
def test_a_batch_asked_for_or_given_by_the_inputs_matches_litert(litert, how):
    data = keras_cnn(1)
    inputs = image(2, 3)
    kw = {"batch": 3} if how != "input_shapes" else {}
    if how != "batch":
        kw["input_shapes"] = [inputs[0].shape]
    model = import_tflite_bytes(data, **kw)
    sg = model.main
    assert sg.operands[sg.output_indexes[0]].dimensions == (3, 128)
    golden = run_model(model, inputs)
    assert_bit_exact(golden, litert_outputs(litert, data, inputs))  # LiteRT resizes its input to batch 3
    outputs, _ = Runtime(compile_model(model, "base")).run(inputs, "isa", check=True)
    assert_bit_exact(outputs, golden)


def test_a_dynamic_height_given_by_the_inputs_is_found_at_run_time(litert):
    data = keras_cnn(2, dynamic_hw=True, reshape=False)
    inputs = image(3, 2, hw=(10, 6))
    model = import_tflite_bytes(data, input_shapes=[inputs[0].shape])
    sg = model.main
    assert sg.operands[sg.input_indexes[0]].dimensions == (2, 10, 6, 3)
    assert sg.operands[sg.output_indexes[0]].dimensions == (2, 0, 0, 8)  # unknown until run
    golden = run_model(model, inputs)
    assert golden[0].shape == (2, 5, 3, 8)
    assert_bit_exact(golden, litert_outputs(litert, data, inputs))


@pytest.mark.parametrize("kw,match", [
    ({"batch": 0}, "The batch size must be at least 1, not 0."),
    ({"input_shapes": [(2, 8, 9, 3)]}, (r"Input 0 has shape \[2, 8, 9, 3\], but input tensor image of the TFLite "
                                        r"model <bytes> has shape signature \[-1, 8, 8, 3\]")),
    ({"input_shapes": [(2, 8, 8, 3)], "batch": 4}, "Input 0 has batch 2, but the batch asked for is 4."),
    ({"input_shapes": [(2, 8, 8, 3), (1,)]}, "2 input shapes given for the 1 inputs"),
])
def test_bad_batches_and_input_shapes_are_input_errors(kw, match):
    with pytest.raises(InputError, match=match):
        import_tflite_bytes(keras_cnn(0), **kw)


def test_batch_of_a_model_without_a_dynamic_batch():
    b = TFLiteBuilder()
    x, y = b.add_tensor((1, 4), "FLOAT32", name="x"), b.add_tensor((1, 4), "FLOAT32")
    b.add_op("RELU", [x], [y])
    data = b.finish([x], [y])
    assert import_tflite_bytes(data, batch=1).main.operands[0].dimensions == (1, 4)
    with pytest.raises(InputError, match="has no dynamic batch dimension .* cannot be set to 2"):
        import_tflite_bytes(data, batch=2)


# ==================================================================================== command line
def test_cli_batch_inputs_and_random_input_note(tmp_path, capsys, litert):
    data = keras_cnn(4)
    src = tmp_path / "cnn.tflite"
    src.write_bytes(data)
    inputs = image(5, 3)
    np.savez(tmp_path / "in.npz", input0=inputs[0])
    ref = litert_outputs(litert, data, inputs)

    # run with batch-3 inputs: re-imported with their batch, accelerated, LiteRT's answer
    assert cli_main(["run", str(src), "--inputs", str(tmp_path / "in.npz"), "--backend", "isa",
                     "--outputs", str(tmp_path / "out.npz")]) == 0
    out = capsys.readouterr()
    assert "random" not in out.err and "on the accelerator" in out.out
    np.testing.assert_array_equal(np.load(tmp_path / "out.npz")["output0"], ref[0])

    # compile with --batch, run the package without inputs: a note says the data is random
    pkg = tmp_path / "cnn.pkg"
    assert cli_main(["compile", str(src), "--batch", "3", "-o", str(pkg)]) == 0
    capsys.readouterr()
    assert cli_main(["run", str(pkg), "--backend", "isa"]) == 0
    out = capsys.readouterr()
    assert "output0: TENSOR_QUANT8_ASYMM_SIGNED shape [3, 128]" in out.out
    assert ("nnaccel: note: input0 is deterministic random data (seed 0), as the package stores no input "
            "data; give --inputs FILE.npz to choose the inputs.") in out.err
    assert cli_main(["run", str(pkg), "--inputs", str(tmp_path / "in.npz"), "--outputs",
                     str(tmp_path / "out2.npz")]) == 0
    assert "random" not in capsys.readouterr().err
    np.testing.assert_array_equal(np.load(tmp_path / "out2.npz")["output0"], ref[0])

    # --batch names the .tflite's dynamic batch only
    assert cli_main(["run", str(pkg), "--batch", "2"]) == 2
    assert "--batch applies to .tflite models" in capsys.readouterr().err
    assert cli_main(["import", str(src), "--batch", "2", "-o", str(tmp_path / "cnn.json.gz")]) == 0
    capsys.readouterr()
    m = load_model(tmp_path / "cnn.json.gz")
    assert m.main.operands[m.main.input_indexes[0]].dimensions == (2, 8, 8, 3)
    assert cli_main(["run", str(tmp_path / "cnn.json.gz"), "--batch", "2"]) == 2
    assert "--batch applies to .tflite models" in capsys.readouterr().err


def test_info_help_names_tflite(capsys):
    with pytest.raises(SystemExit):
        cli_main(["info", "--help"])
    assert ".tflite" in capsys.readouterr().out
