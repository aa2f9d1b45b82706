"""``nnaccel bench``: accelerator benchmarks (simulated cycles, MAC utilization, simulator speed).

``bench gemm`` builds a square quantized FULLY_CONNECTED model, compiles it (the compiler is the one
lowering), runs the package on a backend through the firmware runtime and checks it bit for bit
against the golden model.
"""

from __future__ import annotations

import sys
import time

import numpy as np

from nnaccel.errors import InputError
from nnaccel.hwconfig import DEFAULT_CONFIG, load_config

#: The backends ``bench gemm`` runs on (the firmware runtime's).
GEMM_BACKENDS = ("isa", "rtl")
MAX_GEMM_SIZE = 8192


def gemm_model(size: int, seed: int = 0):
    """A square uint8 GEMM ``[N, N] x [N, N]^T`` as a one-operation FULLY_CONNECTED model, with
    quantization chosen so that outputs spread over the 8-bit range (not saturated); returns
    ``(model, x)``."""
    from nnaccel.model import ModelBuilder
    from nnaccel.model import OperandType as T
    rng = np.random.default_rng(seed)
    x = rng.integers(0, 256, (size, size)).astype(np.uint8)
    w = rng.integers(0, 256, (size, size)).astype(np.uint8)
    bias = rng.integers(-1000, 1000, size).astype(np.int32)
    xq, wq = (0.02, 128), (0.01, 127)
    acc_std = 74.0 * 74.0 * np.sqrt(size)          # uniform bytes minus the zero point: std ~74
    oq = (xq[0] * wq[0] * acc_std / 40.0, 128)
    mb = ModelBuilder("bench_gemm")
    i = mb.add_operand(T.TENSOR_QUANT8_ASYMM, x.shape, *xq)
    wi = mb.add_constant(T.TENSOR_QUANT8_ASYMM, w, scale=wq[0], zero_point=wq[1])
    bi = mb.add_constant(T.TENSOR_INT32, bias, scale=xq[0] * wq[0])
    o = mb.add_operand(T.TENSOR_QUANT8_ASYMM, (size, size), *oq)
    mb.add_operation("FULLY_CONNECTED", [i, wi, bi, mb.add_constant(T.INT32, 0)], [o])
    mb.identify_inputs_and_outputs([i], [o])
    return mb.finish(), x


def bench_gemm(config, size: int, backend: str = "isa", seed: int = 0, log=None) -> dict:
    """Compiles, runs and checks the GEMM; returns the figures (see ``docs/accelerator.md``)."""
    from nnaccel.compiler import compile_model
    from nnaccel.firmware.runtime import run_on_backend
    from nnaccel.golden.interpreter import run_model
    from nnaccel.isa import bytes_to_words
    cfg = load_config(config)
    if not 1 <= size <= MAX_GEMM_SIZE:
        raise InputError(f"The GEMM size {size} must be from 1 to {MAX_GEMM_SIZE}.")
    if backend not in GEMM_BACKENDS:
        raise InputError(f"Unknown backend {backend!r}; bench gemm runs on {', '.join(GEMM_BACKENDS)}.")
    say = log or (lambda msg: None)
    model, x = gemm_model(size, seed)
    t0 = time.perf_counter()
    pkg = compile_model(model, cfg)
    t_build = time.perf_counter() - t0
    if pkg.manifest["host_ops"] or len(pkg.manifest["segments"]) != 1:
        raise InputError(f"The {size} x {size} GEMM does not compile to one accelerator segment on "
                         f"{cfg.name}.")
    n_words = len(bytes_to_words(pkg.segment_words(pkg.manifest["segments"][0])))
    say(f"compiled: {n_words} instructions in {t_build:.2f} s")

    def progress(done, total):
        say(f"{backend}: {done}/{total} instructions")

    (out,), rep = run_on_backend(pkg, [x], backend, progress=progress)
    seg = rep["segments"][0]
    cycles, macs, cpu, wall = (int(rep["total"]["cycles"]), int(rep["total"]["macs"]), seg["cpu_seconds"],
                               seg["wall_seconds"])
    say(f"{backend}: {cycles} cycles in {wall:.2f} s ({cpu:.2f} s CPU)")
    extra = {}
    if backend != "isa":        # the ISA simulator's cycles of the same package, beside the backend's
        extra["isa_cycles"] = int(run_on_backend(pkg, [x], "isa")[1]["total"]["cycles"])
    t1 = time.perf_counter()
    golden = run_model(model, [x])[0]
    say(f"golden FULLY_CONNECTED in {time.perf_counter() - t1:.2f} s")
    exact = bool(out.shape == golden.shape and (out == golden).all())
    peak = cycles * cfg.rows * cfg.cols
    return {
        "benchmark": "gemm", "config": cfg.name, "size": size, "backend": backend,
        "cycles": cycles, "macs": macs, "useful_macs": size ** 3,
        "utilization": macs / peak if peak else 0.0,
        "useful_utilization": size ** 3 / peak if peak else 0.0,
        "bit_exact": exact, "mismatches": int((out != golden).sum()) if out.shape == golden.shape else -1,
        "instructions": n_words, "wall_seconds": wall, "cpu_seconds": cpu,
        # simulated cycles per CPU-second of the simulation (on a loaded machine wall time also
        # counts the other processes)
        "sim_cycles_per_second": cycles / cpu if cpu else 0.0,
        "build_seconds": t_build, "counters": seg["counters"], **extra,
    }


def cmd_gemm(args) -> int:
    last = [0.0]

    def log(msg):
        now = time.perf_counter()
        if not msg.endswith("instructions") or now - last[0] > 1.0:
            last[0] = now
            print(f"[bench] {msg}", file=sys.stderr, flush=True)

    r = bench_gemm(args.config, args.size, args.backend, args.seed, log)
    c = r["counters"]
    print(f"gemm {r['size']}x{r['size']}x{r['size']} on {r['config']} ({r['backend']}): "
          f"{r['cycles']} cycles, {r['macs']} MACs, MAC utilization {100 * r['utilization']:.2f}%")
    print(f"  array busy {c['array_busy']}, vector busy {c['vector_busy']}, DMA in {c['dma_load_bytes']} B, "
          f"out {c['dma_store_bytes']} B, stalls: compute waiting on tokens {c['compute_token_stall']}, "
          f"fetch {c['fetch_stall']}")
    print(f"  bit-exact with the golden FULLY_CONNECTED: {'yes' if r['bit_exact'] else 'NO'}; "
          f"simulator speed {r['sim_cycles_per_second']:.3g} cycles per CPU-second "
          f"({r['cpu_seconds']:.2f} s CPU, {r['wall_seconds']:.2f} s wall)")
    if args.json:
        from .ioutil import write_json
        write_json(args.json, r, "results file", indent=2)
        print(f"wrote {args.json}")
    return 0 if r["bit_exact"] else 1


def register(subparsers) -> None:
    from .cli_models import add_output_arg
    p = subparsers.add_parser("bench", help="accelerator benchmarks (cycles, MAC utilization, sim speed)",
                              description="Run an accelerator benchmark on a backend and check it "
                                          "bit for bit against the golden model. Exit 1 on mismatch.")
    sub = p.add_subparsers(dest="bench_command", metavar="BENCHMARK", parser_class=type(p))
    g = sub.add_parser("gemm", help="square quantized GEMM (FULLY_CONNECTED) of size N",
                       description="Build an N x N x N uint8 GEMM as a FULLY_CONNECTED model, compile "
                                   "it, run it, compare with the golden model, print cycles, MAC "
                                   "utilization = MACs / (cycles x rows x cols) and simulator speed.")
    g.add_argument("--config", default=DEFAULT_CONFIG,
                   help=f"preset name or .toml/.json file (default {DEFAULT_CONFIG})")
    g.add_argument("--size", type=int, default=256, help=f"N, 1 to {MAX_GEMM_SIZE} (default 256)")
    g.add_argument("--backend", default="isa", choices=GEMM_BACKENDS,
                   help="isa: the ISA simulator (default); rtl: the Verilator RTL")
    g.add_argument("--seed", type=int, default=0, help="random data seed")
    add_output_arg(g, "--json", what="results file", metavar="FILE", help="write the figures as JSON")
    g.set_defaults(func=cmd_gemm)
    from .cli_mlperf import add_parser as add_mlperf
    add_mlperf(sub, DEFAULT_CONFIG)
    p.set_defaults(func=lambda args: (p.print_help(), 2)[1])
