"""``nnaccel sweep``: design-space sweeps on Ray (``nnaccel.explore.sweep``, ``docs/explore.md``)."""

from __future__ import annotations


def cmd_sweep(args) -> int:
    from .errors import InputError
    from .explore.sweep import Sweep, load_sweep_models, parse_grid, run_sweep, write_outputs
    from .hwconfig import PRESETS
    if args.preset not in PRESETS:
        raise InputError(f"Unknown preset {args.preset!r}; choose one of {', '.join(PRESETS)}.")
    if args.clock_mhz is not None and args.clock_mhz <= 0:
        raise InputError(f"--clock-mhz must be positive, not {args.clock_mhz:g}.")
    if args.num_cpus is not None and args.num_cpus < 1:
        raise InputError(f"--num-cpus must be at least 1, not {args.num_cpus}.")
    if args.synth_design != "top" and not args.synth:
        raise InputError("--synth-design needs --synth TARGET.")
    grid = parse_grid(args.grid)
    models = load_sweep_models(args.models)
    sw = Sweep(models, grid, args.preset, args.synth, args.clock_mhz, args.timeout, args.synth_design)
    res = run_sweep(sw, args.out, address=args.address, num_cpus=args.num_cpus,
                    progress=not args.quiet, use_cache=not args.fresh)
    paths = write_outputs(sw, res, args.out)
    rows = res["rows"]
    bad = [r for r in rows if r["status"] != "ok"]
    print(f"sweep: {len(res['points'])} points x {len(models)} models: {res['computed']} points computed, "
          f"{res['cached']} from the cache; {len(rows) - len(bad)} of {len(rows)} rows ok")
    for r in bad[:args.show]:
        print(f"  point {r['point']} {r['model']}: {r['status']}: {r['reason']}")
    if len(bad) > args.show:
        print(f"  ... {len(bad) - args.show} more (results.csv)")
    print(f"wrote {paths['csv']}, {paths['json']}, {paths['png']}, {paths['html']}")
    return 0


def register(sub) -> None:
    from .boards.targets import DESIGNS, TARGETS
    from .cli_models import add_output_arg
    p = sub.add_parser("sweep", help="sweep hardware configurations x models on Ray: cycles, resources, plots",
                       description="Run every point of a grid of hardware configurations (a preset with the "
                                   "grid's values) as a Ray task: compile each model, run it on the ISA "
                                   "simulator and, with --synth, synthesize, place and route the accelerator. "
                                   "Writes OUT/results.csv, results.json, pareto.png and index.html; results are "
                                   "cached in OUT/cache (config hash + model hash), so a rerun only runs new "
                                   "points. Invalid, failing or non-fitting points are recorded with their "
                                   "reason. Ray runs embedded on this machine unless --address names a cluster.")
    p.add_argument("models", nargs="+", metavar="MODEL", help="model files (.json, .json.gz, .tflite)")
    p.add_argument("--grid", action="append", default=[], metavar="NAME=V1,V2,...",
                   help="one axis of the grid (repeatable): a hardware configuration field (rows, act_bytes, "
                        "vector_lanes, queue_depth, ...) or NAME_kib for NAME_bytes in KiB; rows alone sets "
                        "cols too (the array is square)")
    p.add_argument("--preset", default="base", help="configuration the grid's values change (default base)")
    p.add_argument("--synth", choices=sorted(TARGETS), default=None,
                   help="also synthesize, place and route each point's accelerator for this FPGA target "
                        "(slow: minutes to hours per point)")
    p.add_argument("--synth-design", choices=DESIGNS, default="top", metavar="DESIGN",
                   help="with --synth: what each point synthesizes: top (default), the whole accelerator, or a "
                        "block of nnaccel synth --design (" + ", ".join(d for d in DESIGNS if d != "top") +
                        "; seconds for small blocks; a block's fmax bounds the accelerator's from above)")
    p.add_argument("--clock-mhz", type=float, default=None, metavar="MHZ",
                   help="clock for inferences per second where no fmax is known (labelled 'assumed')")
    p.add_argument("--address", default=None, metavar="ADDR",
                   help="join this Ray cluster (e.g. ray://host:10001 or auto) instead of embedded Ray")
    p.add_argument("--num-cpus", type=int, default=None, metavar="N",
                   help="CPUs of the embedded Ray (default: all of this machine's)")
    add_output_arg(p, "--out", what="output folder", folder=True, default="sweep", metavar="DIR",
                   help="output folder (default ./sweep)")
    p.add_argument("--timeout", type=float, default=3600, metavar="SECONDS",
                   help="give up one Yosys / nextpnr run after this long (default 3600)")
    p.add_argument("--fresh", action="store_true", help="ignore the cache (results are still written to it)")
    p.add_argument("--show", type=int, default=10, metavar="N", help="list at most N failed rows (default 10)")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_sweep)


__all__ = ["register"]
