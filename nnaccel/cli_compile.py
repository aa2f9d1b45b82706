"""``nnaccel compile`` / ``disasm`` / ``report``: the compiler and runtime on the command line, and the
body of ``nnaccel run`` for every backend (:func:`run_command`). Also registers the conformance
targets ``isa`` and ``rtl`` (``nnaccel cts --target isa``).
"""

from __future__ import annotations

import os
import sys
import time
import warnings

import numpy as np

from nnaccel.hwconfig import DEFAULT_CONFIG

from .errors import InputError


def _compile_quietly(model, config, validate: bool = True):
    from .compiler.compile import compile_model
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return compile_model(model, config, validate=validate)


#: Configuration the conformance targets compile for (``nnaccel cts --config`` sets it).
def _cts_config():
    return os.environ.get("NNACCEL_CTS_CONFIG", DEFAULT_CONFIG)


def _cts_target(model, inputs, backend):
    """Compiles for ``$NNACCEL_CTS_CONFIG`` and runs on ``backend`` with every accelerated output
    checked bit-exact against the golden model; appends the model's accelerated operations to
    ``$NNACCEL_ACCEL_LOG``."""
    from .firmware.runtime import Runtime
    pkg = _compile_quietly(model, _cts_config(), validate=False)
    outs, report = Runtime(pkg).run(inputs, backend, check=True)
    log = os.environ.get("NNACCEL_ACCEL_LOG")
    if log:
        with open(log, "a") as f:
            f.write(f"{model.name}\t{len(report['accelerator_ops'])}\t"
                    f"{','.join(sorted({o['type'] for o in report['accelerator_ops']}))}\n")
    return outs


def _target_isa(model, inputs):
    return _cts_target(model, inputs, "isa")


def _target_rtl(model, inputs):
    return _cts_target(model, inputs, "rtl")


def _register_targets() -> None:
    from . import cts
    cts.TARGETS.setdefault("isa", _target_isa)
    cts.TARGETS.setdefault("rtl", _target_rtl)


def cmd_compile(args) -> int:
    from .cli_models import load_cli_model
    from .compiler.compile import CompileWarning, compile_model
    from .ioutil import write_atomic
    model = load_cli_model(args.model, args.name, batch=args.batch)
    t0 = time.perf_counter()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        pkg = compile_model(model, args.config)
    for w in caught:
        if not issubclass(w.category, CompileWarning):  # host fallbacks: one line each, below
            print(f"warning: {w.message}", file=sys.stderr)
    print_host_operations(pkg)
    write_atomic(args.output, pkg.to_bytes(), "package file")
    m = pkg.manifest
    n = sum(s["program"]["count"] for s in m["segments"])
    print(f"compiled {m['model']} for {m['config']['name']} in {time.perf_counter() - t0:.2f} s: "
          f"{len(m['accelerator_ops'])} accelerator operations in {len(m['segments'])} segments, "
          f"{len(m['host_ops'])} host operations, {n} instructions, {m['memory']['const_size']} constant "
          f"bytes -> {args.output}")
    return 0


def print_host_operations(pkg) -> None:
    """One line on stderr per host operation of a package: which, and why it is not accelerated."""
    from .compiler.compile import Placement
    for h in pkg.manifest["host_ops"]:
        print("nnaccel: " + Placement(h["index"], h["type"], "host", h.get("reason") or "no reason recorded")
              .sentence(), file=sys.stderr)


def run_command(args) -> int:
    """The body of ``nnaccel run`` for every backend."""
    from .cli_models import random_inputs_note
    from .firmware.runtime import progress_printer, run_on_backend
    from .formats import run_inputs
    from .ioutil import npz_bytes, write_atomic, write_json
    from .package import Package
    from .validate import validate_model
    obj, supplied = _load_for_run(args)
    model = obj.model() if isinstance(obj, Package) else obj
    validate_model(model)  # every shape within the size limit before any input is made
    inputs, made_up = run_inputs(model, supplied, source=f"the inputs file {args.inputs}")
    note = random_inputs_note(made_up, "the package" if isinstance(obj, Package) else "the model")
    recorder = _trace_recorder(args)
    wave = _wave_option(args)
    t0 = time.perf_counter()
    if args.backend in ("board", "board-sim"):
        from .cli_board import board_run
        outputs, report = board_run(args, obj, inputs, wave)
    else:
        if args.backend != "golden" and not isinstance(obj, Package):
            obj = _compile_quietly(model, args.config or DEFAULT_CONFIG)
            args.config = None
        if args.backend != "golden":
            print_host_operations(obj)
        outputs, report = run_on_backend(obj, inputs, args.backend, args.config,
                                         progress=progress_printer(f"backend {args.backend}"),
                                         on_segment=recorder.on_segment if recorder else None, wave=wave,
                                         max_cycles=getattr(args, "max_cycles", None),
                                         rtl_schedule=recorder is not None and args.backend == "rtl")
    dt = time.perf_counter() - t0
    if note:  # after the run, so that an error stays the only line on stderr
        print(note, file=sys.stderr)
    for k, (i, a) in enumerate(zip(model.main.output_indexes, outputs)):
        o = model.main.operands[i]
        flat = np.asarray(a).reshape(-1)
        preview = np.array2string(flat[:8], separator=", ")
        print(f"output{k}: {o.type.name} shape {list(np.shape(a))} {preview}{' ...' if flat.size > 8 else ''}")
    if args.outputs:
        write_atomic(args.outputs, npz_bytes({f"output{k}": a for k, a in enumerate(outputs)}), "outputs file")
        print(f"wrote {len(outputs)} outputs to {args.outputs}")
    t = report["total"]
    print(f"backend {args.backend}: {len(model.main.operations)} operations in {dt * 1e3:.1f} ms; "
          f"{len(report['accelerator_ops'])} on the accelerator, {len(report['host_ops'])} on the host; "
          f"{t['cycles']} cycles, {t['macs']} MACs issued (utilization {100 * t['utilization']:.1f}%), "
          f"{t['useful_macs']} useful (useful utilization {100 * t['useful_utilization']:.1f}%)")
    if args.report:
        write_json(args.report, report, "report file", default=_jsonable)
        print(f"wrote the report to {args.report}")
    if recorder:
        tr = recorder.write(args.trace)
        print(f"wrote the timeline of {tr['otherData']['segments']} segments ({tr['otherData']['cycles']} "
              f"cycles) to {args.trace}")
    if wave and args.backend == "board-sim":
        print(f"wrote the waveform of the board simulation ({len(report['segments'])} segments) to {wave[0]}")
    elif wave and report["segments"]:
        print(f"wrote the waveform of {len(report['segments'])} segments to {wave[0]}"
              + (" (segment K > 0: NAME.segK.fst)" if len(report["segments"]) > 1 else ""))
    return 0


def _load_for_run(args):
    """The model or package ``run`` executes and the ``--inputs`` arrays by position (None without;
    see :func:`nnaccel.formats.run_inputs`). A ``.tflite`` model whose dynamic dimensions the arrays
    size differently is imported again with their shapes."""
    from pathlib import Path

    from .cli_models import load_cli_model, load_package_or_model
    from .formats import read_npz_inputs
    from .package import is_package
    if is_package(args.model):
        if args.batch is not None:
            raise InputError(f"--batch applies to .tflite models; {args.model} is a compiled package, whose "
                             f"shapes were fixed when it was compiled.")
        obj = load_package_or_model(args.model, args.name)
        model = obj.model()
    else:
        obj = model = load_cli_model(args.model, args.name, batch=args.batch)
    if not args.inputs:
        return obj, None
    sg = model.main
    supplied = read_npz_inputs(args.inputs, len(sg.input_indexes))
    shapes = [np.shape(supplied[k]) if k in supplied else None for k in range(len(sg.input_indexes))]
    declared = [tuple(sg.operands[i].dimensions or ()) for i in sg.input_indexes]
    if Path(args.model).suffix == ".tflite" and None not in shapes and declared != shapes:
        obj = load_cli_model(args.model, args.name, batch=args.batch, input_shapes=shapes)
    return obj, supplied


def _wave_option(args):
    """``nnaccel run --wave FILE [--wave-window START:END]``: ``(path, (first, last) or None)``."""
    window = getattr(args, "wave_window", None)
    if not getattr(args, "wave", None):
        if window:
            raise InputError("--wave-window needs --wave FILE.fst.")
        return None
    if args.backend not in ("rtl", "board-sim"):
        raise InputError(f"--wave needs --backend rtl or board-sim (a Verilator waveform), not {args.backend}.")
    if window is None:
        return args.wave, None
    first, sep, last = window.partition(":")
    try:
        lo = int(first) if first.strip() else 0
        hi = int(last) if last.strip() else None
    except ValueError:
        lo = hi = -1
    if not sep or lo < 0 or (hi is not None and hi < lo):
        raise InputError(f"--wave-window {window!r} is not START:END with 0 <= START <= END (cycles).")
    return args.wave, (lo, hi)


def _trace_recorder(args):
    """``nnaccel run --trace``: a recorder of the ISA simulator's (or the RTL's) schedules, or None."""
    if not getattr(args, "trace", None):
        return None
    if args.backend not in ("isa", "rtl"):
        raise InputError(f"--trace needs --backend isa (the ISA simulator's schedule) or rtl (the RTL's "
                         f"instruction starts and ends), not {args.backend}.")
    from .explore.trace import TraceRecorder
    return TraceRecorder(args.backend)


def _jsonable(x):
    if isinstance(x, (np.integer,)):
        return int(x)
    if isinstance(x, (np.floating,)):
        return float(x)
    raise TypeError(type(x).__name__)


def cmd_disasm(args) -> int:
    from .package import Package
    pkg = Package.load(args.package)
    sys.stdout.write(pkg.listing)
    return 0


def cmd_report(args) -> int:
    from .cli_models import load_cli_model
    from .compiler.compile import compile_model
    from .ioutil import write_atomic, write_json
    from .package import Package, is_package
    from .sim.report import format_report, static_report
    if is_package(args.package):
        pkg = Package.load(args.package)
    else:  # a model: compiled for --config first
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            pkg = compile_model(load_cli_model(args.package, args.name), args.config)
    rep = static_report(pkg)
    print(format_report(rep))
    if args.json:
        write_json(args.json, rep, "report file", default=_jsonable)
        print(f"wrote {args.json}")
    if args.html:
        from .explore.report import html_report
        write_atomic(args.html, html_report(pkg), "HTML page")
        print(f"wrote {args.html}")
    return 0


def _config_arg(p, default):
    p.add_argument("--config", default=default, metavar="NAME",
                   help="hardware configuration: tiny, small, base, large, or a .toml / .json file "
                        f"(default {default})")


def register(sub) -> None:
    from .cli_models import add_batch_arg, add_output_arg
    _register_targets()
    c = sub.add_parser("compile", help="compile a model to an accelerator program package",
                       description="Partition a model between the accelerator and the host, lower, tile "
                                   "and schedule the accelerator operations, and write a program package.")
    c.add_argument("model", help="model file (.json, .json.gz, .tflite or .onnx)")
    add_output_arg(c, "-o", "--output", what="package file", required=True, metavar="PKG",
                   help="package file to write")
    c.add_argument("--name", help="pick the model of this name from a file holding several")
    _config_arg(c, DEFAULT_CONFIG)
    add_batch_arg(c)
    c.set_defaults(func=cmd_compile)

    d = sub.add_parser("disasm", help="print a package's assembly listing",
                       description="Print the assembly listing of a program package.")
    d.add_argument("package", help="package file")
    d.set_defaults(func=cmd_disasm)

    p = sub.add_parser("report", help="per-layer cycles, MACs, utilization and DMA of a package or model",
                       description="Schedule a package's segments (or those of a model, compiled for --config) "
                                   "on the ISA cycle model and print, per operation, where it runs, cycles, "
                                   "MACs issued (the macs counter, padding included) and useful (the model's "
                                   "own multiply-adds), both utilizations (MACs / (cycles x rows x cols)) and "
                                   "DMA bytes; --html also writes a self-contained page with per-layer plots, "
                                   "the host / accelerator split and the engine timeline.")
    p.add_argument("package", metavar="PKG|MODEL",
                   help="package file, or model file (.json, .json.gz, .tflite, .onnx)")
    p.add_argument("--name", help="pick the model of this name from a file holding several")
    _config_arg(p, DEFAULT_CONFIG)
    add_output_arg(p, "--json", what="report file", metavar="FILE", help="also write the report as JSON")
    add_output_arg(p, "--html", what="HTML page", metavar="FILE",
                   help="also write the report as a self-contained HTML page")
    p.set_defaults(func=cmd_report)



__all__ = ["InputError", "register", "run_command"]
