"""``nnaccel demo``: the built-in example, end to end.

Builds a small quantized two-layer network with the builder API (FULLY_CONNECTED + RELU, then
FULLY_CONNECTED, a quantized ADD of a residual and a RESHAPE;
:func:`nnaccel.compiler.reference_models.build_demo_model`), validates it, runs it on the golden
model and checks the result against an independent float computation (within the quantization
error), then compiles it for the accelerator and runs it on the ISA simulator (``--rtl``: also on
the Verilator RTL), bit-exact with the golden model.
"""

from __future__ import annotations

import time

import numpy as np

from nnaccel.hwconfig import DEFAULT_CONFIG


def run_demo(config: str = DEFAULT_CONFIG, rtl: bool = False) -> int:
    """Golden model vs an independent float computation, then compile for ``config`` and run on the
    ISA simulator (and with ``rtl`` on the Verilator RTL), each checked bit-exact with the golden
    model."""
    from .compiler.compile import compile_model
    from .compiler.reference_models import build_demo_model
    from .firmware.runtime import run_on_backend
    from .golden.interpreter import run_model

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


def cmd_demo(args) -> int:
    return run_demo(args.config, args.rtl)


def register(sub) -> None:
    d = sub.add_parser("demo", help="run the built-in example end to end",
                       description="Build a small quantized model, run it on the golden model and check it "
                                   "against an independent float computation, then compile it for the "
                                   "accelerator and run it on the ISA simulator (and with --rtl on the "
                                   "Verilator RTL), bit-exact with the golden model.")
    d.add_argument("--config", default=DEFAULT_CONFIG, metavar="NAME|FILE",
                   help=f"hardware configuration to compile for (default {DEFAULT_CONFIG})")
    d.add_argument("--rtl", action="store_true",
                   help="also run on the Verilator RTL (builds the design once: a few minutes)")
    d.set_defaults(func=cmd_demo)
