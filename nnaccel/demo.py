"""``nnaccel demo``: the built-in example, end to end.

Builds a small quantized two-layer network with the builder API (FULLY_CONNECTED + RELU, then
FULLY_CONNECTED, a quantized ADD of a residual and a RESHAPE), validates it, runs it on the golden
model and checks the result against an independent float computation (within the quantization
error), then compiles it for the accelerator and runs it on the ISA simulator (``--rtl``: also on
the Verilator RTL), bit-exact with the golden model.
"""

from __future__ import annotations

import time

import numpy as np

from .golden.interpreter import run_model
from .model import ModelBuilder, OperandType

T = OperandType


def build_demo_model(seed: int = 0):
    """Returns ``(model, x, float_reference_fn)``."""
    rng = np.random.default_rng(seed)
    b = ModelBuilder("demo_mlp")
    s_in, z_in = 0.05, 3
    x = b.add_operand(T.TENSOR_QUANT8_ASYMM_SIGNED, [4, 16], s_in, z_in)
    w1 = rng.integers(-127, 128, (32, 16)).astype(np.int8)
    s_w1 = 0.01
    bias1 = rng.integers(-500, 500, 32).astype(np.int32)
    h_scale, h_zp = 0.08, -128
    w1_i = b.add_constant(T.TENSOR_QUANT8_ASYMM_SIGNED, w1, scale=s_w1, zero_point=0)
    b1_i = b.add_constant(T.TENSOR_INT32, bias1, scale=s_in * s_w1)
    relu = b.add_constant(T.INT32, 1)
    h = b.add_operand(T.TENSOR_QUANT8_ASYMM_SIGNED, [4, 32], h_scale, h_zp)
    b.add_operation("FULLY_CONNECTED", [x, w1_i, b1_i, relu], [h])
    w2 = rng.integers(-127, 128, (16, 32)).astype(np.int8)
    s_w2 = 0.01
    bias2 = rng.integers(-500, 500, 16).astype(np.int32)
    y_scale, y_zp = 0.1, 0
    w2_i = b.add_constant(T.TENSOR_QUANT8_ASYMM_SIGNED, w2, scale=s_w2, zero_point=0)
    b2_i = b.add_constant(T.TENSOR_INT32, bias2, scale=h_scale * s_w2)
    none = b.add_constant(T.INT32, 0)
    y = b.add_operand(T.TENSOR_QUANT8_ASYMM_SIGNED, [4, 16], y_scale, y_zp)
    b.add_operation("FULLY_CONNECTED", [h, w2_i, b2_i, none], [y])
    r = b.add_operand(T.TENSOR_QUANT8_ASYMM_SIGNED, [4, 16], 0.12, 2)
    b.add_operation("ADD", [y, x, none], [r])
    shape = b.add_constant(T.TENSOR_INT32, np.array([64], np.int32))
    out = b.add_operand(T.TENSOR_QUANT8_ASYMM_SIGNED, [64], 0.12, 2)
    b.add_operation("RESHAPE", [r, shape], [out])
    b.identify_inputs_and_outputs([x], [out])
    model = b.finish()

    def reference(xq):
        xf = (xq.astype(np.float64) - z_in) * s_in
        hf = np.maximum(xf @ (w1 * s_w1).T + bias1 * s_in * s_w1, 0)
        hf = np.clip(np.round(hf / h_scale) + h_zp, -128, 127)
        hf = (hf - h_zp) * h_scale  # h is quantized in the model too
        yf = hf @ (w2 * s_w2).T + bias2 * h_scale * s_w2
        yf = (np.clip(np.round(yf / y_scale) + y_zp, -128, 127) - y_zp) * y_scale
        return (yf + xf).reshape(-1)

    xq = rng.integers(-128, 128, (4, 16)).astype(np.int8)
    return model, xq, reference


def run_demo(config: str = "small", rtl: bool = False) -> int:
    """Golden model vs an independent float computation, then compile for ``config`` and run on the
    ISA simulator (and with ``rtl`` on the Verilator RTL), each checked bit-exact with the golden
    model. The compiler and runtime are imported here only: the core does not depend on them."""
    from .compiler.compile import compile_model
    from .firmware.runtime import run_on_backend

    model, xq, reference = build_demo_model()
    print(f"nnaccel demo: {model.name}, {len(model.main.operations)} operations "
          f"({', '.join(op.type for op in model.main.operations)}), int8 asymmetric")
    t0 = time.perf_counter()
    (golden,) = run_model(model, [xq])
    dt = time.perf_counter() - t0
    o = model.main.operands[model.main.output_indexes[0]]
    want = reference(xq)
    want_q = np.clip(np.round(want / o.scale) + o.zero_point, -128, 127)
    err = int(np.abs(golden.astype(np.int64) - want_q).max())
    print(f"1. golden model: output {list(golden.shape)} in {dt * 1e3:.2f} ms; independent float "
          f"reference differs by at most {err} quantization step(s)")
    ok = err <= 2
    t0 = time.perf_counter()
    pkg = compile_model(model, config)
    m = pkg.manifest
    n = sum(seg["program"]["count"] for seg in m["segments"])
    print(f"2. compiled for '{config}' in {time.perf_counter() - t0:.2f} s: {len(m['accelerator_ops'])} "
          f"accelerator operations in {len(m['segments'])} segment(s), {len(m['host_ops'])} host "
          f"operations, {n} instructions")
    for backend in ("isa", "rtl") if rtl else ("isa",):
        t0 = time.perf_counter()
        (out,), report = run_on_backend(pkg, [xq], backend)
        same = np.array_equal(out, golden)
        ok &= same
        t = report["total"]
        print(f"{3 if backend == 'isa' else 4}. {backend} backend: {t['cycles']} cycles, {t['macs']} MACs, "
              f"MAC utilization {100 * t['utilization']:.1f}%, in {time.perf_counter() - t0:.2f} s; "
              f"bit-exact with the golden model: {'yes' if same else 'NO'}")
    print("demo " + ("PASSED" if ok else "FAILED"))
    return 0 if ok else 1
