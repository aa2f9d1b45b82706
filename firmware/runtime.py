"""The host runtime: loads a program package, runs its accelerator segments on a backend and every
other operation on the host with the golden kernels, and returns the outputs with the
performance counters of every segment.

Backends (``BACKENDS``): ``isa`` — the ISA simulator (``nnaccel.sim.isasim``), default; ``rtl`` —
the Verilator model of the RTL (``nnaccel.sim.rtl_runner.run_program_rtl``), when present.
A backend is ``fn(config, program_bytes, memory) -> (memory_after, counters, schedule_or_None)``;
``counters`` are the machine's (modulo ``2 ** counter_bits``) plus ``run_cycles``, the run's length
unwrapped, which a segment's reported ``cycles`` is (its ``macs``: the segment's GEMMs' MACs, also
unwrapped).

Host operations run exactly as in the golden interpreter (same kernels, same output checks); IF and
WHILE run on the host with their bodies on the golden model. With ``check=True`` every segment's
outputs are also computed by the golden kernels and compared byte for byte (the differential
check of ``nnaccel cts --target isa``).
"""

from __future__ import annotations

import sys
import time

import numpy as np
from nnaccel.compiler.package import Package, PackageError

from nnaccel.errors import ExecutionError, InputError, NnaccelError
from nnaccel.golden.interpreter import Interpreter, check_inputs
from nnaccel.hwconfig import HwConfig, load_config
from nnaccel.model import TYPE_INFO


class BackendUnavailable(NnaccelError):
    """The requested backend is not available in this installation."""


class MismatchError(NnaccelError):
    """An accelerated operation's output differs from the golden model's."""


# ------------------------------------------------------------------------------------ backends
def _isa_backend(cfg: HwConfig, program: bytes, memory: np.ndarray, progress=None):
    from nnaccel.sim.isasim import IsaSim
    sim = IsaSim(cfg, mem_size=memory.size)
    sim.mem[:] = memory
    res = sim.run(program, progress)
    return sim.mem, dict(res.counters, run_cycles=res.cycles), res.schedule


def _rtl_backend(cfg: HwConfig, program: bytes, memory: np.ndarray, progress=None):
    try:
        from nnaccel.sim.rtl_runner import run_words_rtl

        from nnaccel.isa import AcceleratorFault, bytes_to_words
    except ImportError as e:
        raise BackendUnavailable(f"The rtl backend is not available ({e}).") from None
    try:  # the runner sizes the RTL memory (a power of two, 64 KiB at least; one build per size)
        res = run_words_rtl(cfg, bytes_to_words(program), {0: memory}, [(0, memory.size)])
    except (ImportError, FileNotFoundError) as e:
        raise BackendUnavailable(f"The rtl backend is not available ({e}).") from None
    if res.error:
        raise AcceleratorFault(res.fault, res.fault_pc, f"the RTL stopped with {res.fault} at instruction "
                                                        f"{res.fault_pc}.")
    mem = np.frombuffer(res.regions[0], np.uint8).copy()
    return mem, dict(res.counters, run_cycles=res.cycles), None


BACKENDS = {"isa": _isa_backend, "rtl": _rtl_backend}


# ------------------------------------------------------------------------------------ runtime
def _raw(a: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(a).reshape(-1).view(np.uint8)


class Runtime:
    """Runs one package. ``config`` (optional) must be the configuration the package was built for."""

    def __init__(self, pkg: Package, config=None):
        self.pkg = pkg
        self.cfg = pkg.config()
        if config is not None:
            want = load_config(config)
            if want.to_dict() != self.cfg.to_dict():
                raise PackageError(f"The package was built for configuration {self.cfg.name!r}, not "
                                   f"{want.name!r}; compile the model again for {want.name!r}.")
        self.model = pkg.model()
        m = pkg.manifest
        self.segments = m["segments"]
        self.start = {s["operations"][0]: s for s in self.segments}
        self.tensors = {int(k): v for k, v in m["tensors"].items()}
        mem = m["memory"]
        self.mem_size = mem["base"] + mem["size"]
        self.const_base = mem["const_base"]

    def run(self, inputs: list, backend: str = "isa", check: bool = False, progress=None):
        """Runs the main graph; returns ``(outputs, report)``."""
        if backend not in BACKENDS:
            raise InputError(f"Unknown backend {backend!r}; choose one of golden, {', '.join(BACKENDS)}.")
        interp = Interpreter(self.model, validate=False)
        arrays = check_inputs(self.model, inputs)
        self.seg_reports = []
        interp.deadline = None
        outputs = self._run_main(interp, arrays, backend, check, progress)
        return outputs, self.report(backend)

    # main graph: host operations as the golden interpreter runs them, segments on the backend
    def _run_main(self, interp, arrays, backend, check, progress):
        sg = self.model.main
        env: dict[int, np.ndarray | None] = {}
        for i, o in enumerate(sg.operands):
            if o.is_constant or o.lifetime.name == "SUBGRAPH":
                env[i] = o.data
            elif o.lifetime.name == "NO_VALUE":
                env[i] = None
        for i, a in zip(sg.input_indexes, arrays):
            env[i] = a
        index = 0
        ops = sg.operations
        while index < len(ops):
            seg = self.start.get(index)
            if seg is not None:
                self._run_segment(seg, env, backend, check, interp, progress)
                index = seg["operations"][-1] + 1
                continue
            interp.run_operation(sg, index, env)
            index += 1
        return [env[i] for i in sg.output_indexes]

    def _run_segment(self, seg, env, backend, check, interp, progress):
        sg = self.model.main
        mem = np.zeros(self.mem_size, np.uint8)
        consts = np.frombuffer(self.pkg.consts, np.uint8)
        mem[self.const_base:self.const_base + consts.size] = consts
        for j in seg["inputs"]:
            t = self.tensors[j]
            a = env.get(j)
            if a is None:
                raise ExecutionError(f"Operand {j} has no value when accelerator segment {seg['index']} starts.")
            a = np.asarray(a)
            if list(a.shape) != list(t["shape"]) and a.size != t["bytes"]:
                raise ExecutionError(f"Operand {j} has shape {list(a.shape)}, but the package was compiled for "
                                     f"{t['shape']}.")
            mem[t["addr"]:t["addr"] + t["bytes"]] = _raw(a)
        t0 = time.perf_counter()
        words = self.pkg.segment_words(seg)
        out_mem, counters, sched = BACKENDS[backend](self.cfg, words, mem, progress)
        wall = time.perf_counter() - t0
        for j in seg["outputs"]:
            t = self.tensors[j]
            o = sg.operands[j]
            dtype = TYPE_INFO[o.type].dtype
            env[j] = np.array(out_mem[t["addr"]:t["addr"] + t["bytes"]]).view(dtype).reshape(t["shape"])
        if check:
            self._check_segment(seg, env, interp, out_mem)
        self.seg_reports.append(self._segment_report(seg, counters, sched, wall))

    def _check_segment(self, seg, env, interp, out_mem):
        """Runs the segment's operations on the golden kernels and compares every accelerated
        operation's output byte for byte."""
        sg = self.model.main
        genv = dict(env)
        fused = self.pkg.manifest.get("fused", {})
        for i in seg["operations"]:
            interp.run_operation(sg, i, genv)
            j = sg.operations[i].outputs[0]
            t = self.tensors.get(j)
            if t is None or str(i) in fused:  # a fused producer's bytes are its RELU's output
                continue
            got = np.asarray(out_mem[t["addr"]:t["addr"] + t["bytes"]])
            want = _raw(np.asarray(genv[j]))
            bad = np.flatnonzero(got != want)
            if bad.size:
                raise MismatchError(f"Accelerated operation {i} ({sg.operations[i].type}) differs from the golden "
                                    f"model at {bad.size} of {want.size} bytes (first at {bad[0]}: got "
                                    f"{got[bad[0]]}, golden {want[bad[0]]}).")

    def _segment_report(self, seg, counters, sched, wall):
        cfg = self.cfg
        peak = cfg.rows * cfg.cols
        ops = self.model.main.operations
        # the counters wrap modulo 2 ** counter_bits (24 bits on tiny): the run's length and the
        # program's MACs (every GEMM completes on a run without a fault) unwrapped
        from nnaccel.sim.isasim import decode_program

        from nnaccel.isa import bytes_to_words
        decoded = decode_program(bytes_to_words(self.pkg.segment_words(seg)), cfg)
        cyc = int(counters.get("run_cycles", counters.get("cycles", 0)))
        macs = _static_counts(cfg, decoded)[0]
        layers = []
        if sched is not None:
            for lay in seg["layers"]:
                a, b = lay["first"], lay["last"] + 1
                start = sched.start[a:b]
                end = sched.end[a:b]
                ok = start >= 0
                c = int(end[ok].max() - start[ok].min()) if ok.any() else 0
                lm, dma = _static_counts(cfg, decoded[a:b])
                layers.append({"op": lay["op"], "type": lay["type"], "pass": lay["pass"], "cycles": c, "macs": lm,
                               "utilization": lm / (c * peak) if c else 0.0, "dma_bytes": dma})
        return {"index": seg["index"], "cycles": cyc, "macs": macs,
                "utilization": macs / (cyc * peak) if cyc else 0.0,
                "operations": [{"index": i, "type": ops[i].type} for i in seg["operations"]],
                "counters": counters, "layers": layers, "wall_seconds": wall}

    def report(self, backend: str) -> dict:
        segs = self.seg_reports
        cyc = sum(s["cycles"] for s in segs)
        macs = sum(s["macs"] for s in segs)
        peak = self.cfg.rows * self.cfg.cols
        m = self.pkg.manifest
        return {"backend": backend, "config": self.cfg.name,
                "total": {"cycles": cyc, "macs": macs, "utilization": macs / (cyc * peak) if cyc else 0.0},
                "segments": segs,
                "accelerator_ops": [{"index": o["index"], "type": o["type"]} for o in m["accelerator_ops"]],
                "host_ops": [{"index": o["index"], "type": o["type"]} for o in m["host_ops"]]}


def _static_counts(cfg: HwConfig, decoded) -> tuple[int, int]:
    """(MACs, DMA bytes) of a list of decoded instructions, as the counters define them."""
    from nnaccel.isa.cycles import static_totals
    tot = static_totals(decoded, cfg)
    return tot.get("macs", 0), tot.get("dma_load_bytes", 0) + tot.get("dma_store_bytes", 0)


# ------------------------------------------------------------------------------------ entry points
def load_package_or_model(path: str, name: str | None = None):
    """A :class:`Package` when ``path`` is one, else the model (JSON / .tflite)."""
    from nnaccel.compiler.package import is_package
    if is_package(path):
        return Package.load(path)
    from nnaccel.cli import load_cli_model
    return load_cli_model(path, name)


def run_on_backend(model_or_pkg, inputs: list, backend: str = "isa", config=None, check: bool = False,
                   progress=None):
    """Runs a model or a package on ``backend`` (``golden``, ``isa``, ``rtl``); a model is compiled
    on the fly for ``config`` (default ``base``). Returns ``(outputs, report)``; ``report`` has
    ``total`` (cycles, macs, utilization), ``segments``, ``accelerator_ops`` and ``host_ops``."""
    if backend == "golden":
        model = model_or_pkg.model() if isinstance(model_or_pkg, Package) else model_or_pkg
        outs = Interpreter(model).run(inputs)
        ops = [{"index": i, "type": op.type} for i, op in enumerate(model.main.operations)]
        return outs, {"backend": "golden", "total": {"cycles": 0, "macs": 0, "utilization": 0.0},
                      "segments": [], "accelerator_ops": [], "host_ops": ops}
    if isinstance(model_or_pkg, Package):
        pkg = model_or_pkg
    else:
        import warnings

        from nnaccel.compiler.compile import compile_model
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            pkg = compile_model(model_or_pkg, config or "base")
        config = None
    return Runtime(pkg, config).run(inputs, backend, check, progress)


#: Configuration the conformance targets compile for (override with $NNACCEL_CTS_CONFIG).
def _cts_config():
    import os
    return os.environ.get("NNACCEL_CTS_CONFIG", "small")


def _cts_target(model, inputs, backend):
    import os
    import warnings

    from nnaccel.compiler.compile import compile_model
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pkg = compile_model(model, _cts_config(), validate=False)
    outs, report = Runtime(pkg).run(inputs, backend, check=True)
    log = os.environ.get("NNACCEL_ACCEL_LOG")
    if log:
        with open(log, "a") as f:
            f.write(f"{model.name}\t{len(report['accelerator_ops'])}\t"
                    f"{','.join(sorted({o['type'] for o in report['accelerator_ops']}))}\n")
    return outs


def cts_target_isa(model, inputs) -> list:
    """``nnaccel cts --target isa``: compile (configuration ``$NNACCEL_CTS_CONFIG``, default
    ``small``) and run on the ISA simulator, every accelerated operation checked bit-exact against
    the golden model."""
    return _cts_target(model, inputs, "isa")


def cts_target_rtl(model, inputs) -> list:
    """``nnaccel cts --target rtl``: as :func:`cts_target_isa` on the RTL backend."""
    return _cts_target(model, inputs, "rtl")


def _progress_printer(label: str):
    last = [0.0]

    def show(done, total):
        now = time.perf_counter()
        if sys.stderr.isatty() and (now - last[0] > 0.5 or done == total):
            last[0] = now
            print(f"\r{label}: {done}/{total} instructions", end="\n" if done == total else "",
                  file=sys.stderr, flush=True)
    return show
