"""``nnaccel compile`` / ``disasm`` / ``report``: the compiler and runtime on the command line, and the
body of ``nnaccel run`` for every backend (:func:`run_command`). Also registers the conformance
targets ``isa`` and ``rtl`` (``nnaccel cts --target isa``).
"""

from __future__ import annotations

import json
import sys
import time
import warnings

import numpy as np

from .errors import InputError


def _target_isa(model, inputs):
    from .firmware.runtime import cts_target_isa
    return cts_target_isa(model, inputs)


def _target_rtl(model, inputs):
    from .firmware.runtime import cts_target_rtl
    return cts_target_rtl(model, inputs)


def _register_targets() -> None:
    from . import cts
    cts.TARGETS.setdefault("isa", _target_isa)
    cts.TARGETS.setdefault("rtl", _target_rtl)


def cmd_compile(args) -> int:
    from .cli import load_cli_model
    from .compiler.compile import compile_model
    from .formats import check_writable, write_file_atomic
    check_writable(args.output, "package file")
    model = load_cli_model(args.model, args.name)
    t0 = time.perf_counter()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        pkg = compile_model(model, args.config)
    for w in caught:
        print(f"warning: {w.message}", file=sys.stderr)
    write_file_atomic(args.output, pkg.to_bytes(), "package file")
    m = pkg.manifest
    n = sum(s["program"]["count"] for s in m["segments"])
    print(f"compiled {m['model']} for {m['config']['name']} in {time.perf_counter() - t0:.2f} s: "
          f"{len(m['accelerator_ops'])} accelerator operations in {len(m['segments'])} segments, "
          f"{len(m['host_ops'])} host operations, {n} instructions, {m['memory']['const_size']} constant "
          f"bytes -> {args.output}")
    return 0


def run_command(args) -> int:
    """The body of ``nnaccel run`` for every backend."""
    from .compiler.package import Package
    from .firmware.runtime import _progress_printer, load_package_or_model, run_on_backend
    from .formats import check_writable, npz_bytes, read_npz_inputs, run_inputs, write_file_atomic
    from .validate import validate_model
    for path, what in ((args.outputs, "outputs file"), (args.report, "report file")):
        if path:
            check_writable(path, what)  # before the run: a run never ends with results it cannot write
    obj = load_package_or_model(args.model, args.name)
    model = obj.model() if isinstance(obj, Package) else obj
    validate_model(model)  # every shape within the size limit before any input is made
    n = len(model.main.input_indexes)
    supplied = read_npz_inputs(args.inputs, n) if args.inputs else None
    inputs, made_up = run_inputs(model, supplied, source=f"the inputs file {args.inputs}")
    if made_up:
        print(f"nnaccel: {args.model} carries no input data; running on deterministic random inputs "
              f"(seed 0) for input{'s' if len(made_up) > 1 else ''} {', '.join(map(str, made_up))} "
              f"(give real ones with --inputs FILE.npz).", file=sys.stderr)
    t0 = time.perf_counter()
    outputs, report = run_on_backend(obj, inputs, args.backend, args.config,
                                     progress=_progress_printer(f"backend {args.backend}"),
                                     max_cycles=getattr(args, "max_cycles", None))
    dt = time.perf_counter() - t0
    for k, (i, a) in enumerate(zip(model.main.output_indexes, outputs)):
        o = model.main.operands[i]
        flat = np.asarray(a).reshape(-1)
        preview = np.array2string(flat[:8], separator=", ")
        print(f"output{k}: {o.type.name} shape {list(np.shape(a))} {preview}{' ...' if flat.size > 8 else ''}")
    if args.outputs:
        write_file_atomic(args.outputs, npz_bytes({f"output{k}": a for k, a in enumerate(outputs)}),
                          "outputs file")
        print(f"wrote {len(outputs)} outputs to {args.outputs}")
    t = report["total"]
    print(f"backend {args.backend}: {len(model.main.operations)} operations in {dt * 1e3:.1f} ms; "
          f"{len(report['accelerator_ops'])} on the accelerator, {len(report['host_ops'])} on the host; "
          f"{t['cycles']} cycles, {t['macs']} MACs, utilization {100 * t['utilization']:.1f}%")
    if args.report:
        write_file_atomic(args.report, json.dumps(report, indent=1, default=_jsonable).encode(),
                          "report file")
        print(f"wrote the report to {args.report}")
    return 0


def _jsonable(x):
    if isinstance(x, (np.integer,)):
        return int(x)
    if isinstance(x, (np.floating,)):
        return float(x)
    raise TypeError(type(x).__name__)


def cmd_disasm(args) -> int:
    from .compiler.package import Package
    pkg = Package.load(args.package)
    sys.stdout.write(pkg.listing)
    return 0


def cmd_report(args) -> int:
    from .compiler.package import Package
    from .compiler.report import format_report, static_report
    pkg = Package.load(args.package)
    rep = static_report(pkg)
    print(format_report(rep))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rep, f, indent=1, default=_jsonable)
    return 0


def _config_arg(p, default):
    p.add_argument("--config", default=default, metavar="NAME",
                   help="hardware configuration: tiny, small, base, large, or a .toml / .json file "
                        f"(default {default})")


def register(sub) -> None:
    _register_targets()
    c = sub.add_parser("compile", help="compile a model to an accelerator program package",
                       description="Partition a model between the accelerator and the host, lower, tile "
                                   "and schedule the accelerator operations, and write a program package.")
    c.add_argument("model", help="model file (.json, .json.gz or .tflite)")
    c.add_argument("-o", "--output", required=True, metavar="PKG", help="package file to write")
    c.add_argument("--name", help="pick the model of this name from a file holding several")
    _config_arg(c, "base")
    c.set_defaults(func=cmd_compile)

    d = sub.add_parser("disasm", help="print a package's assembly listing",
                       description="Print the assembly listing of a program package.")
    d.add_argument("package", help="package file")
    d.set_defaults(func=cmd_disasm)

    p = sub.add_parser("report", help="per-layer cycles, MACs, utilization and DMA of a package",
                       description="Schedule a package's segments on the ISA cycle model and print, per "
                                   "operation, where it runs, cycles, MACs, utilization and DMA bytes.")
    p.add_argument("package", help="package file")
    p.add_argument("--json", metavar="FILE", help="also write the report as JSON")
    p.set_defaults(func=cmd_report)



__all__ = ["InputError", "register", "run_command"]
