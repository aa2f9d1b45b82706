"""Benchmarks: a square quantized GEMM built with the program builder, run on a backend, checked
bit for bit against the golden model's FULLY_CONNECTED.

Backends are a small dispatch table: ``BACKENDS[name](layer_program, progress)`` returns a
:class:`BackendRun`. ``isa`` (the ISA simulator) is built in; another backend plugs in by calling
:func:`register_backend`, or by providing a module ``nnaccel.sim.backend_<name>`` with a function
``run(layer_program, progress) -> BackendRun`` (imported on first use).
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from nnaccel.errors import InputError
from nnaccel.hwconfig import load_config

from .programs import LayerProgram, fully_connected


@dataclass
class BackendRun:
    """What a backend reports for one program."""

    output: np.ndarray
    cycles: int
    macs: int
    counters: dict
    wall_seconds: float
    #: CPU time of the simulation alone (the process that simulates; on a loaded machine wall time
    #: also counts the other processes); the simulator's speed is ``cycles / cpu_seconds``
    cpu_seconds: float


def run_isa(lp: LayerProgram, progress=None) -> BackendRun:
    t0, c0 = time.perf_counter(), time.process_time()
    out, res = lp.run(progress=progress)
    return BackendRun(out, res.cycles, res.macs, dict(res.counters), time.perf_counter() - t0,
                      time.process_time() - c0)


BACKENDS: dict[str, Callable] = {"isa": run_isa}


def register_backend(name: str, fn: Callable) -> None:
    BACKENDS[name] = fn


def get_backend(name: str) -> Callable:
    if name not in BACKENDS:
        try:
            mod = importlib.import_module(f"nnaccel.sim.backend_{name}")
        except ModuleNotFoundError:
            raise InputError(f"Unknown backend {name!r}; the backends are "
                             f"{', '.join(sorted(BACKENDS))}.") from None
        BACKENDS.setdefault(name, mod.run)
    return BACKENDS[name]


def gemm_problem(size: int, seed: int = 0):
    """A square uint8 GEMM ``[N, N] x [N, N]^T`` with quantization chosen so that outputs spread
    over the 8-bit range (not saturated)."""
    rng = np.random.default_rng(seed)
    x = rng.integers(0, 256, (size, size)).astype(np.uint8)
    w = rng.integers(0, 256, (size, size)).astype(np.uint8)
    bias = rng.integers(-1000, 1000, size).astype(np.int32)
    xq, wq = (0.02, 128), (0.01, 127)
    acc_std = 74.0 * 74.0 * np.sqrt(size)          # uniform bytes minus the zero point: std ~74
    oq = (xq[0] * wq[0] * acc_std / 40.0, 128)
    return x, w, bias, xq, wq, oq


def golden_fully_connected(x, w, bias, xq, wq, oq) -> np.ndarray:
    from nnaccel.golden.interpreter import run_model
    from nnaccel.model import ModelBuilder
    from nnaccel.model import OperandType as T

    mb = ModelBuilder("bench_gemm")
    i = mb.add_operand(T.TENSOR_QUANT8_ASYMM, x.shape, *xq)
    wi = mb.add_constant(T.TENSOR_QUANT8_ASYMM, w, scale=wq[0], zero_point=wq[1])
    bi = mb.add_constant(T.TENSOR_INT32, bias, scale=xq[0] * wq[0])
    o = mb.add_operand(T.TENSOR_QUANT8_ASYMM, (x.shape[0], w.shape[0]), *oq)
    mb.add_operation("FULLY_CONNECTED", [i, wi, bi, mb.add_constant(T.INT32, 0)], [o])
    mb.identify_inputs_and_outputs([i], [o])
    return run_model(mb.finish(), [x])[0]


def bench_gemm(config, size: int, backend: str = "isa", seed: int = 0, log=None) -> dict:
    """Builds, runs and checks the GEMM; returns the figures (see ``docs/accelerator.md``)."""
    cfg = load_config(config)
    if not 1 <= size <= 8192:
        raise InputError(f"The GEMM size {size} must be from 1 to 8192.")
    run = get_backend(backend)
    say = log or (lambda msg: None)
    x, w, bias, xq, wq, oq = gemm_problem(size, seed)
    t0 = time.perf_counter()
    lp = fully_connected(cfg, x, w, bias, xq, wq, oq)
    t_build = time.perf_counter() - t0
    say(f"program: {len(lp.words)} instructions (plan Mt={lp.info['Mt']}, J={lp.info['J']}, kc={lp.info['kc']}) built in "
        f"{t_build:.2f} s")

    def progress(done, total):
        say(f"{backend}: {done}/{total} instructions")

    r = run(lp, progress)
    say(f"{backend}: {r.cycles} cycles in {r.wall_seconds:.2f} s ({r.cpu_seconds:.2f} s CPU)")
    t1 = time.perf_counter()
    golden = golden_fully_connected(x, w, bias, xq, wq, oq)
    say(f"golden FULLY_CONNECTED in {time.perf_counter() - t1:.2f} s")
    exact = bool(r.output.shape == golden.shape and (r.output == golden).all())
    peak = r.cycles * cfg.rows * cfg.cols
    return {
        "benchmark": "gemm", "config": cfg.name, "size": size, "backend": backend,
        "cycles": int(r.cycles), "macs": int(r.macs), "useful_macs": size ** 3,
        "utilization": r.macs / peak if peak else 0.0,
        "useful_utilization": size ** 3 / peak if peak else 0.0,
        "bit_exact": exact, "mismatches": int((r.output != golden).sum()) if r.output.shape == golden.shape
        else -1,
        "instructions": len(lp.words), "plan": {"Mt": lp.info["Mt"], "J": lp.info["J"], "kc": lp.info["kc"]},
        "wall_seconds": r.wall_seconds, "cpu_seconds": r.cpu_seconds,
        # simulated cycles per CPU-second of the simulation (not per wall second: see BackendRun)
        "sim_cycles_per_second": r.cycles / r.cpu_seconds if r.cpu_seconds > 0 else 0.0,
        "build_seconds": t_build, "counters": r.counters,
        # the ISA simulator's cycles of the same program, where the backend reports them (rtl)
        **({"isa_cycles": int(r.counters["isa_cycles"])} if "isa_cycles" in r.counters else {}),
    }
