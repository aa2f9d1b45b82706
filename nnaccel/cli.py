"""The ``nnaccel`` command line.

Exit status: 0 success; 2 invalid input (bad file, invalid model, bad arguments, an execution the
spec says must fail, such as a WHILE loop past its timeout); 3 a valid model using an operation or
type combination that is not implemented yet.
"""

from __future__ import annotations

import argparse
import sys
import time

from nnaccel.hwconfig import DEFAULT_CONFIG

from . import __version__
from .cli_models import add_batch_arg, add_output_arg, check_outputs, load_cli_model
from .errors import ExecutionError, InputError, ModelError, NnaccelError, NotImplementedOpError

EXIT_INVALID = 2
EXIT_NOT_IMPLEMENTED = 3


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # argparse's own errors: one sentence, exit 2
        self.print_usage(sys.stderr)
        print(f"nnaccel: error: {message}.", file=sys.stderr)
        sys.exit(EXIT_INVALID)


def _positive_seconds(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not v > 0:
        raise argparse.ArgumentTypeError(f"{text} is not a positive number of seconds")
    return v


def _positive(text: str) -> int:
    try:
        v = int(text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
    if v < 1:
        raise argparse.ArgumentTypeError(f"{v} is not a positive integer")
    return v


# -------------------------------------------------------------------------------------- commands
def cmd_run(args) -> int:
    """``nnaccel run``: golden model, or compile + run on the ISA simulator / RTL with host fallback."""
    from .cli_compile import run_command
    return run_command(args)


def cmd_info(args) -> int:
    from . import registry
    from .validate import validate_model
    model = load_cli_model(args.model, args.name)
    print(f"model {model.name}: {len(model.main.operands)} operands, {len(model.main.operations)} "
          f"operations, {len(model.referenced)} referenced subgraphs, relaxed={model.relaxed}")
    for label, sg in model.subgraphs():
        print(f"[{label}] inputs {sg.input_indexes} outputs {sg.output_indexes}")
        for i, o in enumerate(sg.operands):
            print(f"  operand {i:3d}: {o.describe()}{'  ' + o.name if o.name else ''}")
        for k, op in enumerate(sg.operations):
            entry = registry.get(op.type)
            status = "unknown op" if entry is None else ("golden" if entry.implemented else "not implemented")
            print(f"  op {k:3d}: {op.type:<28} in {op.inputs} out {op.outputs}  [{status}]")
    validate_model(model)
    missing = sorted({op.type for _, sg in model.subgraphs() for op in sg.operations
                      if not registry.get(op.type).implemented})
    print("valid model; " + ("all operations implemented" if not missing else
                             "not implemented: " + ", ".join(missing)))
    from .compiler.compile import plan_model
    print(f"placement when compiled for {args.config}:")
    for p in plan_model(model, args.config, validate=False):
        print(f"  op {p.index:3d}: {p.type:<28} {p.where}: {p.reason}")
    for label, sg in model.subgraphs():
        if label != "main":
            for k, op in enumerate(sg.operations):
                print(f"  [{label}] op {k:3d}: {op.type:<22} host: inside a control-flow body, which runs on "
                      f"the host")
    return 0


def cmd_cts(args) -> int:
    import os
    import tempfile
    from collections import Counter

    from . import cts, registry
    if args.target not in cts.TARGETS:
        raise InputError(f"Unknown target {args.target!r}; choose one of {', '.join(cts.TARGETS)}.")
    unknown = [o for o in args.op if o not in registry.OPS]
    if unknown:
        raise InputError(f"Unknown operation {', '.join(unknown)}; names are NNAPI OperationType names "
                         f"such as CONV_2D.")
    root = cts.cts_dir()
    if not root.is_dir():
        raise InputError(f"The conformance folder {root} does not exist; set NNACCEL_CTS_DIR.")
    files = cts.spec_files(root, args.spec)
    if not files:
        raise InputError(f"No conformance file under {root} matches {args.spec}.")
    accelerated = args.target != "golden"
    if accelerated:
        from .hwconfig import load_config
        load_config(args.config)  # a bad name or file: exit 2 before any model runs
    t0 = time.perf_counter()

    from .progress import bar, interactive
    pbar = bar(None, f"cts {args.target}", "file")

    def progress(done, total, spec):
        pbar.total = total
        pbar.n = done
        pbar.set_postfix_str(str(spec)[-50:], refresh=True)
        if args.verbose and not interactive():
            print(f"[{done}/{total}] {spec}", file=sys.stderr, flush=True)

    # The accelerator targets compile for $NNACCEL_CTS_CONFIG and append one line per model to
    # $NNACCEL_ACCEL_LOG (name, accelerated operation count, their types); both are restored after.
    saved = {k: os.environ.get(k) for k in ("NNACCEL_ACCEL_LOG", "NNACCEL_CTS_CONFIG")}
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        log = os.path.join(tmp, "accel.log")
        if accelerated:
            os.environ["NNACCEL_ACCEL_LOG"] = log
            os.environ["NNACCEL_CTS_CONFIG"] = args.config
        try:
            results = cts.run_suite(files, args.target, args.op, args.jobs, progress, args.signed_variants)
        finally:
            for k, v in saved.items():
                if v is None:
                    os.environ.pop(k, None)
                else:
                    os.environ[k] = v
        if os.path.exists(log):
            with open(log) as f:
                rows = [line.rstrip("\n").split("\t") for line in f]
    pbar.close()
    print(cts.format_table(results, args.op))
    summary = None
    if accelerated:
        passed = {r.name for r in results if r.status == "passed"}
        accel = {name: types for name, n, types in rows if int(n) > 0}
        by_type = Counter(t for name, types in accel.items() if name in passed for t in types.split(","))
        summary = {"models": len([n for n in accel if n in passed]), "compiled": len(rows),
                   "by_type": dict(by_type.most_common())}
        print(f"{summary['models']} of {len(rows)} models compiled for {args.config} ran "
              f"at least one operation on the accelerator (target {args.target}, every accelerated output "
              f"bit-exact with the golden model); models per accelerated operation: "
              + ", ".join(f"{k} {v}" for k, v in by_type.most_common()))
    print(f"({len(files)} files in {time.perf_counter() - t0:.1f} s, target {args.target})")
    if args.show_failures:
        for r in results:
            if r.status == "failed":
                print(f"FAILED {r.spec} {r.name}: {r.message}")
    if args.json:
        cts.write_json(results, args.json, summary)
    failed = any(r.status == "failed" for r in results)
    return 1 if failed else 0


# ------------------------------------------------------------------------------------------ main
def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="nnaccel", description="NNAPI accelerator kit: golden model, compiler, simulators.")
    p.add_argument("--version", action="version", version=f"nnaccel {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    r = sub.add_parser("run", help="run a model or package on the golden model, ISA simulator or RTL",
                       description="Run a model (.json / .json.gz / .tflite / .onnx) or a compiled package and print "
                                   "its outputs. golden runs the NumPy golden model; isa and rtl compile a "
                                   "model on the fly (or take a package) and run its accelerator segments "
                                   "on the ISA simulator or the Verilator RTL, the other operations on the "
                                   "host. Without --inputs the model's stored inputs are used, or "
                                   "deterministic random data where it has none (a package stores none), "
                                   "which a note on stderr says.")
    r.add_argument("model", help="model file (.json, .json.gz, .tflite, .onnx; one model or a list) or package")
    r.add_argument("--name", help="pick the model of this name from a file holding several")
    r.add_argument("--inputs", metavar="FILE.npz", help="input arrays named input0, input1, ...")
    add_output_arg(r, "--outputs", what="outputs file", metavar="FILE.npz",
                   help="write outputs as output0, output1, ...")
    r.add_argument("--backend", choices=["golden", "isa", "rtl", "board-sim", "board"], default="golden",
                   help="where to run (default golden); board-sim: the board's whole SoC in Verilator "
                        "through its UART link, board: the board itself (both need --board)")
    r.add_argument("--board", metavar="NAME", help="board for --backend board / board-sim (nnaccel build "
                                                   "--help lists them); the model is compiled for its "
                                                   "configuration")
    r.add_argument("--port", metavar="DEVICE", help="serial port of the board's UART (--backend board), "
                                                    "e.g. /dev/ttyUSB1")
    r.add_argument("--link-timeout", type=_positive_seconds, default=1.0, metavar="SECONDS",
                   help="--backend board: how long the host waits for a reply before it retries the request "
                        "(default 1; more for a port that reaches the board's simulation or a slow adapter)")
    r.add_argument("--config", default=None, metavar="NAME|FILE",
                   help="hardware configuration for isa / rtl: tiny, small, base, large or a .toml / .json "
                        f"file (default {DEFAULT_CONFIG}; a package must match it)")
    add_output_arg(r, "--report", what="report file", metavar="FILE.json",
                   help="write the performance report as JSON")
    add_batch_arg(r)
    add_output_arg(r, "--trace", what="trace file", metavar="FILE.json",
                   help="write the engine timeline as Chrome trace-event JSON for Perfetto / chrome://tracing: "
                        "isa, every instruction's fetch, start and end per queue and the token waits; rtl, "
                        "every instruction's start and end as the RTL's engines signal them (a probed build)")
    add_output_arg(r, "--wave", what="waveform file", metavar="FILE.fst",
                   help="rtl backend: write a Verilator FST waveform of each segment's run (segment K > 0 to "
                        "FILE.segK.fst); board-sim: of the whole simulated SoC session, in one file (a separate, "
                        "traced build either way); open it in GTKWave or Surfer")
    r.add_argument("--wave-window", metavar="START:END",
                   help="with --wave: record only the run's cycles START .. END (either may be left out; "
                        "board-sim: the accelerator's cycles over its segments one after another, as --trace "
                        "counts them)")
    r.add_argument("--max-cycles", type=_positive, metavar="N",
                   help="cycle budget of each accelerator segment: a segment that would run longer stops "
                        "with an error naming it (default: none on isa, whose schedule is exact; on rtl, "
                        "board-sim and board twice the ISA model's cycles plus 10000)")
    r.set_defaults(func=cmd_run)

    i = sub.add_parser("info", help="list a model's operands, operations, support status and placement",
                       description="Print a model's operands and operations with their support status, "
                                   "validate it, then show for each operation where it would run when "
                                   "compiled (accelerator or host) and why. A .tflite file is imported first "
                                   "(as nnaccel import does).")
    i.add_argument("model", help="model file (.json, .json.gz or .tflite; one model or a list)")
    i.add_argument("--name", help="pick the model of this name from a file holding several")
    i.add_argument("--config", default=DEFAULT_CONFIG, metavar="NAME|FILE",
                   help="hardware configuration the placement is for: tiny, small, base, large or a .toml / "
                        f".json file (default {DEFAULT_CONFIG})")
    i.set_defaults(func=cmd_info)

    c = sub.add_parser("cts", help="run the NNAPI conformance models",
                       description="Run the NNAPI CTS/VTS models ($NNACCEL_CTS_DIR, default "
                                   "../shared/nnapi-cts) and print a table per operation. Exit 1 when "
                                   "any model fails.")
    c.add_argument("--op", action="append", default=[], metavar="NAME",
                   help="only models using this operation (repeatable)")
    c.add_argument("--spec", action="append", default=[], metavar="GLOB",
                   help="only files whose GROUP/spec or spec matches (repeatable), e.g. 'V1_2/conv2d*'")
    c.add_argument("-j", "--jobs", type=int, default=1, help="worker processes (default 1)")
    add_output_arg(c, "--json", what="results file", metavar="FILE", help="write every model's result as JSON")
    c.add_argument("--target", default="golden",
                   help="golden (NumPy), isa (compile + ISA simulator) or rtl (compile + Verilator); the "
                        "accelerator targets check every accelerated output bit-exact with the golden "
                        "model and count the models that used the accelerator")
    c.add_argument("--config", default=DEFAULT_CONFIG, metavar="NAME|FILE",
                   help=f"hardware configuration the isa / rtl targets compile for (default {DEFAULT_CONFIG})")
    c.add_argument("--signed-variants", action="store_true",
                   help="also run CTS's quant8 -> quant8 signed re-run of each single-op quant8 model "
                        "(results named MODEL+signed, counted in the table)")
    c.add_argument("--show-failures", action="store_true", help="list each failing model and why")
    c.add_argument("-v", "--verbose", action="store_true", help="print progress per file")
    c.set_defaults(func=cmd_cts)

    # Further commands live beside their feature: a module nnaccel/cli_<name>.py provides
    # register(subparsers), which adds its sub-command(s).
    import importlib
    import pkgutil

    from . import __path__ as pkg_path
    for mod in sorted(m.name for m in pkgutil.iter_modules(pkg_path) if m.name.startswith("cli_")):
        register = getattr(importlib.import_module(f"nnaccel.{mod}"), "register", None)
        if register is not None:  # cli_models only holds helpers
            register(sub)
    return p


def main(argv=None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return EXIT_INVALID
    try:
        check_outputs(args)  # before the command's work: a run never ends with results it cannot write
        return args.func(args)
    except NotImplementedOpError as e:
        print(f"nnaccel: not implemented: {e}", file=sys.stderr)
        return EXIT_NOT_IMPLEMENTED
    except (InputError, ModelError, ExecutionError) as e:
        print(f"nnaccel: error: {e}", file=sys.stderr)
        return EXIT_INVALID
    except NnaccelError as e:
        print(f"nnaccel: error: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
