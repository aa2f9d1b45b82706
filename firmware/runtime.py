"""The host runtime: loads a program package, runs its accelerator segments on a backend and every
other operation on the host with the golden kernels, and returns the outputs with the
performance counters of every segment.

Backends (``BACKENDS``): ``isa`` — the ISA simulator (``nnaccel.sim.isasim``), default; ``rtl`` —
the Verilator model of the RTL (``nnaccel.sim.rtl_runner.run_words_rtl``), when present.
A backend is ``fn(config, program_bytes, memory, progress=None, max_cycles=None) -> (memory_after,
counters, schedule_or_None)``; past ``max_cycles`` it raises :class:`~nnaccel.errors.BudgetError`
(``Runtime.run`` takes a name of ``BACKENDS`` or such a function, e.g. the board link's);
``counters`` are the machine's (modulo ``2 ** counter_bits``) plus ``run_cycles``, the run's length
unwrapped, which a segment's reported ``cycles`` is (its ``macs``: the segment's GEMMs' MACs, also
unwrapped).

Host operations run exactly as in the golden interpreter (same kernels, same output checks); IF and
WHILE run on the host with their bodies on the golden model. With ``check=True`` every segment's
outputs are also computed by the golden kernels and compared byte for byte (the differential
check of ``nnaccel cts --target isa``).
"""

from __future__ import annotations

import time

import numpy as np

from nnaccel.errors import BudgetError, ExecutionError, InputError, NnaccelError
from nnaccel.golden.interpreter import Interpreter, check_inputs
from nnaccel.hwconfig import HwConfig, load_config
from nnaccel.isa import AcceleratorFault
from nnaccel.macs import layer_useful_macs
from nnaccel.model import TYPE_INFO, Model
from nnaccel.package import Package, PackageError


class BackendUnavailable(NnaccelError):
    """The requested backend is not available in this installation."""


class MismatchError(NnaccelError):
    """An accelerated operation's output differs from the golden model's."""


# ------------------------------------------------------------------------------------ backends
#: Cycles an RTL run may take beyond the ISA model's prediction before it counts as a hang: the
#: budget is ``RTL_BUDGET_FACTOR * predicted + RTL_BUDGET_SLACK`` (the two agree cycle for cycle on
#: a correct design, so only a hang reaches it).
RTL_BUDGET_FACTOR = 2
RTL_BUDGET_SLACK = 10_000


def cycle_budget(cfg: HwConfig, program: bytes, max_cycles: int | None = None) -> int:
    """The cycle budget of a segment on a backend whose run could hang (rtl, board, board-sim):
    ``max_cycles`` when given, else ``RTL_BUDGET_FACTOR`` times the ISA model's cycles plus
    ``RTL_BUDGET_SLACK``."""
    if max_cycles is not None:
        return max_cycles
    from nnaccel.sim.isasim import decode_program, schedule

    from nnaccel.isa import bytes_to_words
    predicted = schedule(decode_program(bytes_to_words(program), cfg), cfg).total_cycles
    return RTL_BUDGET_FACTOR * predicted + RTL_BUDGET_SLACK


def _isa_backend(cfg: HwConfig, program: bytes, memory: np.ndarray, progress=None, max_cycles=None):
    from nnaccel.sim.isasim import IsaSim
    sim = IsaSim(cfg, mem_size=memory.size)
    sim.mem[:] = memory
    c0 = time.process_time()
    res = sim.run(program, progress, max_cycles)
    return sim.mem, dict(res.counters, run_cycles=res.cycles, cpu_seconds=time.process_time() - c0), res.schedule


def _rtl_backend(cfg: HwConfig, program: bytes, memory: np.ndarray, progress=None, max_cycles=None,
                 wave=None, wave_window=None, trace=False):
    try:
        from nnaccel.sim.rtl_runner import run_words_rtl

        from nnaccel.isa import AcceleratorFault, bytes_to_words
    except ImportError as e:
        raise BackendUnavailable(f"The rtl backend is not available ({e}).") from None
    words = bytes_to_words(program)
    max_cycles = cycle_budget(cfg, program, max_cycles)
    try:  # the runner sizes the RTL memory (a power of two, 64 KiB at least; one build per size)
        res = run_words_rtl(cfg, words, {0: memory}, [(0, memory.size)], max_cycles=max_cycles, wave=wave,
                            wave_window=wave_window, trace=trace)
    except (ImportError, FileNotFoundError) as e:
        raise BackendUnavailable(f"The rtl backend is not available ({e}).") from None
    if res.error:
        raise AcceleratorFault(res.fault, res.fault_pc, f"the RTL stopped with {res.fault} at instruction "
                                                        f"{res.fault_pc}.")
    mem = np.frombuffer(res.regions[0], np.uint8).copy()
    return mem, dict(res.counters, run_cycles=res.cycles, cpu_seconds=res.cpu_seconds), res.schedule  # traced only


BACKENDS = {"isa": _isa_backend, "rtl": _rtl_backend}


# ------------------------------------------------------------------------------------ runtime
def _raw(a: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(a).reshape(-1).view(np.uint8)


class Runtime:
    """Runs one package. ``config`` (optional) must be the configuration the package was built for."""

    def __init__(self, pkg: Package, config=None, max_cycles: int | None = None):
        self.pkg = pkg
        #: Optional hook ``on_segment(cfg, seg, program_bytes, schedule_or_None)``, called after each
        #: segment runs (``nnaccel run --trace``: ``nnaccel.explore.trace.TraceRecorder``).
        self.on_segment = None
        #: ``(path, (first, last) or None)``: the rtl backend writes each segment's FST waveform
        #: (:meth:`wave_path`) of that cycle window (``nnaccel run --wave``).
        self.wave = None
        #: The rtl backend records when each instruction starts and ends (a probed build) and hands
        #: that schedule (``nnaccel.sim.rtl_runner.RtlSchedule``) to :attr:`on_segment`
        #: (``nnaccel run --backend rtl --trace``).
        self.rtl_schedule = False
        #: Cycle budget of each segment (``None``: the ISA simulator needs none, its schedule is
        #: exact and finite; the RTL gets a multiple of the ISA model's prediction).
        self.max_cycles = max_cycles
        self.cfg = pkg.config()
        if config is not None:
            want = load_config(config)
            if want.to_dict() != self.cfg.to_dict():
                raise PackageError(f"The package was built for configuration {self.cfg.name!r}, not "
                                   f"{want.name!r}; compile the model again for {want.name!r}.")
        self.model = pkg.model()
        self.useful = layer_useful_macs(self.model.main)
        m = pkg.manifest
        self.segments = m["segments"]
        self.start = {s["operations"][0]: s for s in self.segments}
        self.tensors = {int(k): v for k, v in m["tensors"].items()}
        mem = m["memory"]
        self.mem_size = mem["base"] + mem["size"]
        self.const_base = mem["const_base"]

    def run(self, inputs: list, backend="isa", check: bool = False, progress=None, name: str | None = None):
        """Runs the main graph; returns ``(outputs, report)``. ``backend``: a name of ``BACKENDS``
        or a backend function (see the module docstring), which the report names ``name``."""
        if callable(backend):
            fn, backend = backend, name or getattr(backend, "__name__", "custom")
        elif backend in BACKENDS:
            fn = BACKENDS[backend]
        else:
            raise InputError(f"Unknown backend {backend!r}; choose one of golden, {', '.join(BACKENDS)}.")
        self._backend_fn = fn
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
            if list(a.shape) != list(t["shape"]) and a.nbytes != t["bytes"]:
                raise ExecutionError(f"Operand {j} has shape {list(a.shape)}, but the package was compiled for "
                                     f"{t['shape']}.")
            mem[t["addr"]:t["addr"] + t["bytes"]] = _raw(a)
        t0 = time.perf_counter()
        words = self.pkg.segment_words(seg)
        ops = seg["operations"]
        label = (f"accelerator segment {seg['index']} (operation{'s' if len(ops) > 1 else ''} "
                 f"{ops[0]}{f'..{ops[-1]}' if len(ops) > 1 else ''}) on the {backend} backend")
        try:
            if backend == "rtl" and (self.wave is not None or self.rtl_schedule):
                wave, window = (self.wave_path(seg["index"]), self.wave[1]) if self.wave else (None, None)
                out_mem, counters, sched = _rtl_backend(self.cfg, words, mem, progress, self.max_cycles,
                                                        wave, window, self.rtl_schedule)
            else:
                out_mem, counters, sched = self._backend_fn(self.cfg, words, mem, progress, self.max_cycles)
        except BudgetError as e:
            raise BudgetError(f"The {label} stopped: {e}.") from None
        except AcceleratorFault as e:
            raise AcceleratorFault(e.fault, e.pc, f"the {label} stopped: {str(e).split(': ', 1)[-1]}",
                                   e.cycle) from None
        wall = time.perf_counter() - t0
        cpu = counters.pop("cpu_seconds", None)
        if self.on_segment is not None:
            self.on_segment(self.cfg, seg, words, sched)
        for j in seg["outputs"]:
            t = self.tensors[j]
            o = sg.operands[j]
            dtype = TYPE_INFO[o.type].dtype
            env[j] = np.array(out_mem[t["addr"]:t["addr"] + t["bytes"]]).view(dtype).reshape(t["shape"])
        if check:
            self._check_segment(seg, env, interp, out_mem)
        # the rtl backend's report is the same with or without its schedule (no per-layer figures)
        report = self._segment_report(seg, counters, None if backend == "rtl" else sched, wall)
        self.seg_reports.append(dict(report, cpu_seconds=cpu))

    def wave_path(self, index: int) -> str:
        """The waveform file of segment ``index``: the path given for segment 0, ``NAME.segK.fst``
        beside it for segment K."""
        from pathlib import Path
        p = Path(self.wave[0])
        return str(p if index == 0 else p.with_name(f"{p.stem}.seg{index}{p.suffix}"))

    def _check_segment(self, seg, env, interp, out_mem):
        """Runs the segment's operations on the golden kernels and compares every accelerated
        operation's output byte for byte (those the package places in external memory: a tensor
        one pass hands to the next in a scratchpad is checked through its consumer's output)."""
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
        from nnaccel.sim.report import decode_segment, figures, layer_figures, segment_useful, static_counts
        cfg = self.cfg
        ops = self.model.main.operations
        # the counters wrap modulo 2 ** counter_bits (24 bits on tiny): the run's length and the
        # program's MACs (every GEMM completes on a run without a fault) unwrapped
        decoded = decode_segment(self.pkg, seg)
        cyc = int(counters.get("run_cycles", counters.get("cycles", 0)))
        macs = static_counts(cfg, decoded)[0]
        layers = [] if sched is None else layer_figures(cfg, seg, decoded, sched, self.useful)
        return {"index": seg["index"], **figures(cfg, cyc, macs, segment_useful(seg, self.useful)),
                "operations": [{"index": i, "type": ops[i].type} for i in seg["operations"]],
                "counters": counters, "layers": layers, "wall_seconds": wall}

    def report(self, backend: str) -> dict:
        from nnaccel.sim.report import total_figures
        m = self.pkg.manifest
        return {"backend": backend, "config": self.cfg.name,
                "total": total_figures(self.cfg, self.seg_reports),
                "segments": self.seg_reports,
                "accelerator_ops": [{"index": o["index"], "type": o["type"]} for o in m["accelerator_ops"]],
                "host_ops": [{"index": o["index"], "type": o["type"]} for o in m["host_ops"]],
                "host_useful_macs": sum(self.useful.get(o["index"], 0) for o in m["host_ops"])}


# ------------------------------------------------------------------------------------ entry points
def run_on_backend(model_or_pkg, inputs: list, backend: str = "isa", config=None, check: bool = False,
                   progress=None, on_segment=None, wave=None,
                   max_cycles: int | None = None, rtl_schedule: bool = False):
    """Runs a package on ``backend`` (``golden``, ``isa``, ``rtl``; ``config``, when given, must be
    the one it was built for), or a model on ``golden``. Returns ``(outputs, report)``; ``report``
    has ``total`` (cycles, macs, utilization, useful_macs, useful_utilization: ``nnaccel.sim.report``
    defines them), ``segments``, ``accelerator_ops``, ``host_ops`` and ``host_useful_macs``.
    A model runs on the accelerator backends once compiled (``nnaccel.compiler.compile_model``).
    ``on_segment``, ``wave``, ``max_cycles``, ``rtl_schedule``: :attr:`Runtime.on_segment`,
    :attr:`Runtime.wave`, :attr:`Runtime.max_cycles`, :attr:`Runtime.rtl_schedule`."""
    if backend == "golden":
        model = model_or_pkg.model() if isinstance(model_or_pkg, Package) else model_or_pkg
        outs = Interpreter(model).run(inputs)
        ops = [{"index": i, "type": op.type} for i, op in enumerate(model.main.operations)]
        total = {"cycles": 0, "macs": 0, "utilization": 0.0, "useful_macs": 0, "useful_utilization": 0.0}
        return outs, {"backend": "golden", "total": total,
                      "segments": [], "accelerator_ops": [], "host_ops": ops,
                      "host_useful_macs": sum(layer_useful_macs(model.main).values())}
    if isinstance(model_or_pkg, Model):
        raise InputError(f"The {backend} backend runs a compiled package, not a model; compile the model "
                         f"first (nnaccel compile, or nnaccel.compiler.compile_model).")
    rt = Runtime(model_or_pkg, config, max_cycles)
    rt.on_segment = on_segment
    rt.wave = wave
    rt.rtl_schedule = rtl_schedule
    return rt.run(inputs, backend, check, progress)


def progress_printer(label: str):
    """A ``progress(done, total)`` callback showing a tqdm bar of instructions on a terminal."""
    from nnaccel.progress import bar
    state = {}

    def show(done, total):
        b = state.get("bar")
        if b is None or b.total != total:
            if b is not None:
                b.close()
            b = state["bar"] = bar(total, label, "instr")
        b.n = done
        b.refresh()
        if done == total:
            b.close()
            state.pop("bar")
    return show
