"""A TFLite model's quantized MEAN over height and width (global average pooling with LiteRT's
rescaling) on the accelerator: compiled from a real .tflite file, bit-exact with LiteRT's
reference kernel and with the golden model on the ISA simulator; an NNAPI model's MEAN (a
truncating division) stays on the host, saying why."""

import numpy as np
import pytest
from nnaccel.compiler import compile_model
from nnaccel.compiler.tflite_import import import_tflite_bytes
from nnaccel.firmware.runtime import Runtime
from support.tflite_build import TFLiteBuilder
from support.tflite_litert import LiteRTWorker

from nnaccel.golden.interpreter import run_model


@pytest.fixture(scope="module")
def litert():
    with LiteRTWorker() as w:
        yield w


def mean_tflite(shape, dtype, in_q, out_q, keep: bool) -> bytes:
    b = TFLiteBuilder()
    n, c = shape[0], shape[3]
    x = b.add_tensor(list(shape), dtype, scale=in_q[0], zero_point=in_q[1])
    axes = b.add_tensor([2], "INT32", data=np.array([1, 2], np.int32))
    y = b.add_tensor([n, 1, 1, c] if keep else [n, c], dtype, scale=out_q[0], zero_point=out_q[1])
    b.add_op("MEAN", [x, axes], [y], "ReducerOptions", KeepDims=keep)
    return b.finish([x], [y])


CASES = [  # shape, dtype, input quantization, output quantization, keep_dims, preset
    ((1, 7, 7, 40), "INT8", (0.05, -3), (0.02, 5), True, "small"),
    ((2, 5, 3, 20), "UINT8", (0.1, 120), (0.1, 120), False, "tiny"),
    ((1, 7, 7, 1280), "INT8", (0.03, 10), (0.011, -7), True, "base"),   # channel groups
]


@pytest.mark.parametrize("shape, dtype, in_q, out_q, keep, preset", CASES)
def test_mean_on_the_accelerator_is_litert(litert, shape, dtype, in_q, out_q, keep, preset):
    data = mean_tflite(shape, dtype, in_q, out_q, keep)
    model = import_tflite_bytes(data)
    pkg = compile_model(model, preset)
    assert [o["type"] for o in pkg.manifest["accelerator_ops"]] == ["MEAN"], pkg.manifest["host_ops"]
    rng = np.random.default_rng(len(shape) + shape[-1])
    info = np.iinfo(np.int8 if dtype == "INT8" else np.uint8)
    x = rng.integers(info.min, info.max + 1, shape).astype(info.dtype)
    status, ref = litert.run(data, [x])
    assert status == "ok", ref
    (golden,) = run_model(model, [x])
    (acc,), _ = Runtime(pkg).run([x], "isa", check=True)
    np.testing.assert_array_equal(golden, ref[0].reshape(golden.shape))
    np.testing.assert_array_equal(acc, golden)


def test_nnapi_mean_stays_on_the_host_with_its_reason():
    from nnaccel.model import ModelBuilder
    from nnaccel.model import OperandType as T
    mb = ModelBuilder("mean")
    x = mb.add_operand(T.TENSOR_QUANT8_ASYMM, (1, 4, 4, 8), 0.1, 128)
    y = mb.add_operand(T.TENSOR_QUANT8_ASYMM, (1, 1, 1, 8), 0.1, 128)
    mb.add_operation("MEAN", [x, mb.add_constant(T.TENSOR_INT32, np.array([1, 2], np.int32)),
                              mb.add_constant(T.INT32, 1)], [y])
    mb.identify_inputs_and_outputs([x], [y])
    pkg = compile_model(mb.finish(), "small")
    (host,) = pkg.manifest["host_ops"]
    assert host["type"] == "MEAN" and "truncates" in host["reason"]


@pytest.mark.rtl
def test_mean_on_the_rtl_matches_the_isa_simulator():
    """The same package on the Verilator RTL of tiny: bytes and every counter of the ISA simulator."""
    from support.one_op import isa_and_rtl
    shape = (1, 5, 3, 6)
    model = import_tflite_bytes(mean_tflite(shape, "INT8", (0.05, -3), (0.02, 5), True))
    x = np.random.default_rng(1).integers(-128, 128, shape).astype(np.int8)
    isa_and_rtl(model, "tiny", [x])
