"""``nnaccel bench mlperf``: the four MLPerf Tiny reference models, straight from their ``.tflite``
files, compiled for a preset and run on the ISA simulator.

Per model: cycles, MACs issued and useful (:mod:`nnaccel.macs`), both utilizations, where the
operations run, bit-exactness of the outputs against the golden model, the ISA simulator's speed,
the compile time (CPU seconds), and inferences per second at the preset's measured post-route fmax (from the
``synth-<preset>-top`` entry of ``docs/results.json``, made by ``benchmarks/run_all.py``; blank
where there is none). Inferences per second count the accelerator's cycles only: host operations
(the final SOFTMAX) are left out.

The models are found in ``$NNACCEL_MLPERF_TINY_DIR``, else ``../shared/models/mlperf_tiny`` beside the
repository (or the working directory).
"""

from __future__ import annotations

import json
import os
import re
import sys
import time
from pathlib import Path

import numpy as np

from .errors import InputError

#: (short name, file, network) of the MLPerf Tiny v0.7 reference models.
MLPERF_MODELS = (("kws", "kws_ref_model.tflite", "KWS DS-CNN"),
                 ("vww", "vww_96_int8.tflite", "VWW MobileNet V1 0.25"),
                 ("ic", "pretrainedResnet_quant.tflite", "IC ResNet-8"),
                 ("ad", "ad01_int8.tflite", "AD FC autoencoder"))

_REPO = Path(__file__).resolve().parents[1]
RESULTS_JSON = _REPO / "docs" / "results.json"


def mlperf_dir() -> Path:
    """The MLPerf Tiny folder: ``$NNACCEL_MLPERF_TINY_DIR``, else ``../shared/models/mlperf_tiny``."""
    env = os.environ.get("NNACCEL_MLPERF_TINY_DIR")
    if env:
        return Path(env)
    for base in (_REPO, Path.cwd()):
        candidate = (base / ".." / "shared" / "models" / "mlperf_tiny").resolve()
        if candidate.is_dir():
            return candidate
    return (_REPO / ".." / "shared" / "models" / "mlperf_tiny").resolve()


def measured_fmax_mhz(config: str, results: Path = RESULTS_JSON) -> float | None:
    """The post-route fmax of ``config``'s whole design from ``results`` (its ``synth-<config>-top``
    entry), or None when it has none."""
    try:
        doc = json.loads(results.read_text())
    except (OSError, ValueError):
        return None
    for row in (doc.get(f"synth-{config}-top") or {}).get("rows", []):
        m = re.match(r"\s*([0-9.]+)\s*MHz", str(row.get("fmax", "")))
        if m and str(row.get("routed", "yes")) == "yes":
            return float(m.group(1))
    return None


def bench_model(path: Path, config, fmax_mhz: float | None, seed: int = 0, mem_bytes: int | None = None) -> dict:
    """Imports, compiles and runs one model; its figures (see the module docstring). ``config``: a
    preset name or a configuration. ``mem_bytes``: a board's memory, which the segment's memory and
    program must fit (``fits``; no inferences per second where they do not)."""
    import warnings

    from .compiler.compile import compile_model
    from .compiler.tflite_import import load_tflite
    from .firmware.runtime import Runtime
    from .formats import run_inputs
    from .golden.interpreter import run_model

    model = load_tflite(path)
    t0 = time.process_time()      # CPU seconds: a loaded machine does not inflate them
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            pkg = compile_model(model, config)
        except InputError as e:
            if mem_bytes is None:
                raise
            # a board: the model's memory exceeds the board's DMA window (its memory)
            return {"file": path.name, "config": getattr(config, "name", config), "fits": False, "memory_bytes": None,
                    "why": str(e), "bit_exact": True, "inferences_per_second": None}
    t_compile = time.process_time() - t0
    inputs, _ = run_inputs(model, seed=seed)
    outs, rep = Runtime(pkg).run(inputs, "isa")
    want = run_model(model, inputs)
    exact = len(outs) == len(want) and all(np.array_equal(a, b) for a, b in zip(outs, want))
    t = rep["total"]
    sim_wall = sum(s["wall_seconds"] for s in rep["segments"])
    # what a board holds: the package's memory, then (64-byte aligned) the largest segment program
    mem = pkg.manifest["memory"]
    need = -(-(mem["base"] + mem["size"]) // 64) * 64 + max((len(pkg.segment_words(g)) for g in pkg.manifest["segments"]),
                                                             default=0)
    fits = mem_bytes is None or need <= mem_bytes
    return {"file": path.name, "config": getattr(config, "name", config), "cycles": t["cycles"], "macs": t["macs"],
            "utilization": t["utilization"], "useful_macs": t["useful_macs"],
            "useful_utilization": t["useful_utilization"], "host_useful_macs": rep["host_useful_macs"],
            "segments": len(rep["segments"]), "accelerator_ops": len(rep["accelerator_ops"]),
            "host_ops": [o["type"] for o in rep["host_ops"]], "bit_exact": exact,
            "compile_seconds": t_compile, "sim_seconds": sim_wall,
            "sim_cycles_per_second": t["cycles"] / sim_wall if sim_wall else 0.0,
            "fmax_mhz": fmax_mhz, "memory_bytes": need, "fits": fits,
            "inferences_per_second": fmax_mhz * 1e6 / t["cycles"] if fmax_mhz and t["cycles"] and fits else None}


def _row(name: str, r: dict) -> str:
    ips = f"{r['inferences_per_second']:,.0f}" if r["inferences_per_second"] else ""
    return (f"{name:<22} {r['cycles']:>10,} {r['useful_macs']:>11,} {100 * r['useful_utilization']:>6.1f}% "
            f"{r['macs']:>11,} {100 * r['utilization']:>6.1f}% {r['segments']:>4} {len(r['host_ops']):>4} "
            f"{'yes' if r['bit_exact'] else 'NO':>5} {r['sim_cycles_per_second']:>9.3g} "
            f"{r['compile_seconds']:>7.2f} {ips:>9}")


def cmd_mlperf(args) -> int:
    from .hwconfig import PRESETS, load_config
    root = Path(args.models_dir) if args.models_dir else mlperf_dir()
    if not root.is_dir():
        raise InputError(f"The MLPerf Tiny models are not at {root}; set NNACCEL_MLPERF_TINY_DIR or pass "
                         f"--models-dir.")
    wanted = args.model or [m[0] for m in MLPERF_MODELS]
    unknown = [w for w in wanted if w not in {m[0] for m in MLPERF_MODELS}]
    if unknown:
        raise InputError(f"Unknown model {', '.join(unknown)}; choose from "
                         f"{', '.join(m[0] for m in MLPERF_MODELS)}.")
    brd = None
    if args.board:
        from .boards.catalog import board
        brd = board(args.board)
        configs = [brd.config()]
    else:
        configs = [load_config(p) for p in PRESETS] if args.all_presets else [load_config(args.config)]
    runs = []
    for config in configs:
        if brd is not None:
            fmax = brd.clock_mhz
            print(f"MLPerf Tiny on the {brd.name} board's {config.name} (ISA simulator, whose cycles the board's "
                  f"equal; its {fmax:g} MHz clock; {brd.mem_bytes // 1024} KiB of memory)")
        else:
            fmax = measured_fmax_mhz(config.name, Path(args.results))
            print(f"MLPerf Tiny on {config.name} (ISA simulator; fmax "
                  f"{f'{fmax:.2f} MHz, post-route' if fmax else 'not measured: no inferences/s'})")
        print(f"{'model':<22} {'cycles':>10} {'useful MACs':>11} {'useful':>7} {'MACs issued':>11} {'util':>7} "
              f"{'segs':>4} {'host':>4} {'exact':>5} {'sim cyc/s':>9} {'cmp CPU':>7} {'infer/s':>9}")
        models = []
        for short, file, label in MLPERF_MODELS:
            if short not in wanted:
                continue
            print(f"[bench] {label} on {config.name} ...", file=sys.stderr, flush=True)
            r = bench_model(root / file, config, fmax, mem_bytes=brd.mem_bytes if brd else None)
            r["model"] = short
            r["network"] = label
            if not r["fits"]:
                need = f"{r['memory_bytes']:,} bytes (data and its largest program)" if r["memory_bytes"] else \
                    "more external memory than its DMA window"
                print(f"{label:<22} does not fit the {brd.name}'s {brd.mem_bytes:,} bytes of memory: it needs {need}",
                      flush=True)
                if r["memory_bytes"] is None:
                    models.append(r)
                    continue
            r["model"] = short
            r["network"] = label
            models.append(r)
            print(_row(label, r), flush=True)
        runs.append({"config": config.name, "fmax_mhz": fmax, "models": models,
                     **({"board": brd.name, "clock_mhz": brd.clock_mhz, "mem_bytes": brd.mem_bytes} if brd else {})})
    print("(useful = the model's own multiply-adds / (cycles x rows x cols); issued = the macs counter; "
          "infer/s = post-route fmax / cycles, accelerator cycles only)")
    if args.json:
        from .ioutil import write_json
        write_json(args.json, {"runs": runs}, "results file")
        print(f"wrote {args.json}")
    return 0 if all(m["bit_exact"] for r in runs for m in r["models"]) else 1


def add_parser(sub, config_default: str) -> None:
    """Adds ``mlperf`` to the ``nnaccel bench`` subcommands."""
    from .cli_models import add_output_arg
    m = sub.add_parser("mlperf", help="the four MLPerf Tiny models from their .tflite files",
                       description="Import the MLPerf Tiny reference models (KWS, VWW, IC, AD) from their "
                                   ".tflite files, compile them for a preset, run them on the ISA "
                                   "simulator and print per model: cycles, useful and issued MACs and "
                                   "utilizations, segments, host operations, bit-exactness against the "
                                   "golden model, simulator speed, compile time and inferences per "
                                   "second at the preset's measured post-route fmax (blank where none). "
                                   "Exit 1 when an output differs from the golden model's.")
    g = m.add_mutually_exclusive_group()
    g.add_argument("--config", default=config_default,
                   help=f"preset name or .toml/.json file (default {config_default})")
    g.add_argument("--all-presets", action="store_true", help="run on every preset")
    g.add_argument("--board", metavar="NAME",
                   help="a board's configuration (nnaccel build --board), inferences/s at its clock for the "
                        "models that fit its memory")
    m.add_argument("--model", action="append", metavar="NAME",
                   help="only this model (kws, vww, ic, ad); repeatable (default: all four)")
    m.add_argument("--models-dir", metavar="DIR",
                   help="the folder of the .tflite files (default $NNACCEL_MLPERF_TINY_DIR or "
                        "../shared/models/mlperf_tiny)")
    m.add_argument("--results", default=str(RESULTS_JSON), metavar="FILE",
                   help="the results file holding synth-<preset>-top fmax figures (default docs/results.json)")
    add_output_arg(m, "--json", what="results file", metavar="FILE", help="write the figures as JSON")
    m.set_defaults(func=cmd_mlperf)
