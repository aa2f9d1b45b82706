"""``nnaccel compile`` / ``exec`` / ``disasm`` / ``report``: the compiler and runtime on the command
line. Also registers the conformance targets ``isa`` and ``rtl`` (``nnaccel cts --target isa``).

``nnaccel exec PKG|MODEL --backend golden|isa|rtl`` is ``nnaccel run`` with the accelerator
backends (same ``--name`` / ``--inputs`` / ``--outputs``, plus ``--config`` and ``--report``).
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
    model = load_cli_model(args.model, args.name)
    t0 = time.perf_counter()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        pkg = compile_model(model, args.config)
    for w in caught:
        print(f"warning: {w.message}", file=sys.stderr)
    pkg.save(args.output)
    m = pkg.manifest
    n = sum(s["program"]["count"] for s in m["segments"])
    print(f"compiled {m['model']} for {m['config']['name']} in {time.perf_counter() - t0:.2f} s: "
          f"{len(m['accelerator_ops'])} accelerator operations in {len(m['segments'])} segments, "
          f"{len(m['host_ops'])} host operations, {n} instructions, {m['memory']['const_size']} constant "
          f"bytes -> {args.output}")
    return 0


def run_command(args) -> int:
    """The body of ``nnaccel run`` / ``nnaccel exec`` for every backend."""
    from .cli import default_inputs, read_npz_inputs
    from .compiler.package import Package
    from .firmware.runtime import _progress_printer, load_package_or_model, run_on_backend
    obj = load_package_or_model(args.model, args.name)
    model = obj.model() if isinstance(obj, Package) else obj
    n = len(model.main.input_indexes)
    inputs = read_npz_inputs(args.inputs, n) if args.inputs else default_inputs(model)
    t0 = time.perf_counter()
    outputs, report = run_on_backend(obj, inputs, args.backend, args.config,
                                     progress=_progress_printer(f"backend {args.backend}"))
    dt = time.perf_counter() - t0
    for k, (i, a) in enumerate(zip(model.main.output_indexes, outputs)):
        o = model.main.operands[i]
        flat = np.asarray(a).reshape(-1)
        preview = np.array2string(flat[:8], separator=", ")
        print(f"output{k}: {o.type.name} shape {list(np.shape(a))} {preview}{' ...' if flat.size > 8 else ''}")
    if args.outputs:
        np.savez(args.outputs, **{f"output{k}": np.asarray(a) for k, a in enumerate(outputs)})
        print(f"wrote {len(outputs)} outputs to {args.outputs}")
    t = report["total"]
    print(f"backend {args.backend}: {len(model.main.operations)} operations in {dt * 1e3:.1f} ms; "
          f"{len(report['accelerator_ops'])} on the accelerator, {len(report['host_ops'])} on the host; "
          f"{t['cycles']} cycles, {t['macs']} MACs, utilization {100 * t['utilization']:.1f}%")
    if args.report:
        with open(args.report, "w") as f:
            json.dump(report, f, indent=1, default=_jsonable)
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


def cmd_accel_cts(args) -> int:
    """The conformance models through compile + run on ``--target``, with the count of models that
    ran at least one operation on the accelerator (every one checked bit-exact)."""
    import os
    import tempfile
    from collections import Counter

    from . import cts
    root = cts.cts_dir()
    files = cts.spec_files(root, args.spec)
    if not files:
        raise InputError(f"No conformance file under {root} matches {args.spec}.")
    saved = {k: os.environ.get(k) for k in ("NNACCEL_ACCEL_LOG", "NNACCEL_CTS_CONFIG")}
    with tempfile.TemporaryDirectory() as tmp:
        log = os.path.join(tmp, "accel.log")
        os.environ["NNACCEL_ACCEL_LOG"] = log
        os.environ["NNACCEL_CTS_CONFIG"] = config = args.config
        t0 = time.perf_counter()

        def progress(done, total, spec):
            if sys.stderr.isatty():
                print(f"\r[{done}/{total}] {str(spec)[-60:]:<60}", end="", file=sys.stderr, flush=True)

        try:
            results = cts.run_suite(files, args.target, args.op, args.jobs, progress)
        finally:
            for k, v in saved.items():
                if v is None:
                    os.environ.pop(k, None)
                else:
                    os.environ[k] = v
        if sys.stderr.isatty():
            print(file=sys.stderr)
        rows = []
        if os.path.exists(log):
            with open(log) as f:
                rows = [line.rstrip("\n").split("\t") for line in f]
    print(cts.format_table(results, args.op))
    passed = {r.name for r in results if r.status == "passed"}
    accel = {name: types for name, n, types in rows if int(n) > 0}
    by_type = Counter(t for name, types in accel.items() if name in passed for t in types.split(","))
    print(f"{len([n for n in accel if n in passed])} of {len(rows)} models compiled for "
          f"{config} ran at least one operation on the accelerator (target "
          f"{args.target}, every accelerated output bit-exact with the golden model); models per "
          f"accelerated operation: " + ", ".join(f"{k} {v}" for k, v in by_type.most_common()))
    print(f"({len(files)} files in {time.perf_counter() - t0:.1f} s)")
    if args.show_failures:
        for r in results:
            if r.status == "failed":
                print(f"FAILED {r.spec} {r.name}: {r.message}")
    return 1 if any(r.status == "failed" for r in results) else 0


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

    r = sub.add_parser("exec", help="run a package or model on a backend (golden, isa, rtl)",
                       description="Run a program package, or a model compiled on the fly, on the golden "
                                   "model, the ISA simulator or the RTL simulation, and print its outputs.")
    r.add_argument("model", help="package, or model file (.json, .json.gz, .tflite)")
    r.add_argument("--name", help="pick the model of this name from a file holding several")
    r.add_argument("--inputs", metavar="FILE.npz", help="input arrays named input0, input1, ...")
    r.add_argument("--outputs", metavar="FILE.npz", help="write outputs as output0, output1, ...")
    r.add_argument("--backend", choices=["golden", "isa", "rtl"], default="isa", help="where to run (default isa)")
    r.add_argument("--config", default=None, metavar="NAME",
                   help="hardware configuration for a model (default base); a package must match it")
    r.add_argument("--report", metavar="FILE.json", help="write the performance report as JSON")
    r.set_defaults(func=run_command)

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

    a = sub.add_parser("accel-cts", help="conformance models through compile + run on the accelerator",
                       description="Run the NNAPI conformance models through the compiler and the runtime on "
                                   "--target (isa or rtl), every accelerated operation checked bit-exact "
                                   "against the golden model, and count the models that used the accelerator.")
    a.add_argument("--target", choices=["isa", "rtl"], default="isa")
    a.add_argument("--op", action="append", default=[], metavar="NAME", help="only models using this operation")
    a.add_argument("--spec", action="append", default=[], metavar="GLOB", help="only files matching (repeatable)")
    a.add_argument("-j", "--jobs", type=int, default=1, help="worker processes (default 1)")
    a.add_argument("--show-failures", action="store_true", help="list each failing model and why")
    _config_arg(a, "small")
    a.set_defaults(func=cmd_accel_cts)


__all__ = ["InputError", "register", "run_command"]
