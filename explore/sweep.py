"""Design-space sweeps: a grid of hardware configurations x models, each grid point a Ray task.

A point builds its configuration (a preset with the grid's values), compiles every model for it,
runs each on the ISA simulator (the runtime, host fallback included) and, when a synthesis target
is given, synthesizes the whole accelerator (``design_for(cfg, "top")``, or another design of
``nnaccel synth --design``) with place and route for LUTs, flip-flops, DSPs, block RAMs and fmax.
Results are cached under ``OUT/cache`` by the hash of the configuration and of the model file
(synthesis: of the configuration, target, design and the RTL's sources), so a rerun only computes
what is new. A point that is invalid, fails or does not fit is recorded with its
reason; the sweep goes on.

Grid keys are :class:`~nnaccel.hwconfig.HwConfig` fields, and ``NAME_kib`` for a ``NAME_bytes``
field in KiB. The array is square: ``rows`` (or ``cols``) alone sets both.
"""

from __future__ import annotations

import dataclasses
import hashlib
import itertools
import json
import sys
import time
import warnings
from pathlib import Path

from nnaccel import __version__
from nnaccel.errors import InputError, NnaccelError
from nnaccel.hwconfig import HwConfig, config_from_dict

_FIELDS = {f.name: f for f in dataclasses.fields(HwConfig)}

#: Columns of results.csv / results.json, in order (after the point's grid values).
COLUMNS = ("point", "model", "status", "reason", "pes", "cycles", "macs", "utilization_issued", "accelerator_ops",
           "host_ops", "segments", "lut", "ff", "dsp", "bram", "device", "fits", "fmax_mhz", "clock_mhz",
           "clock_source", "inferences_per_s", "config_hash", "model_hash")


# ------------------------------------------------------------------------------------ the grid
def _value(key: str, text: str):
    field = _FIELDS.get(key)
    kind = field.type if field else "int"
    t = text.strip()
    if kind in ("bool", bool):
        if t.lower() not in ("true", "false", "1", "0"):
            raise InputError(f"The grid value {t!r} of {key} is not true or false.")
        return t.lower() in ("true", "1")
    if kind in ("str", str):
        return t
    try:
        return int(t, 0)
    except ValueError:
        raise InputError(f"The grid value {t!r} of {key} is not an integer.") from None


def parse_grid(specs) -> dict[str, list]:
    """``["rows=4,8", "act_kib=16,64"]`` -> ``{"rows": [4, 8], "act_kib": [16, 64]}``."""
    grid: dict[str, list] = {}
    for spec in specs:
        key, sep, values = spec.partition("=")
        key = key.strip()
        if not sep or not key or not values.strip():
            raise InputError(f"The grid axis {spec!r} is not of the form NAME=V1,V2,...")
        stem = key[:-4] + "_bytes" if key.endswith("_kib") else key
        if stem not in _FIELDS or stem == "name":
            raise InputError(f"The grid axis {key!r} is not a hardware configuration field; the fields are "
                             f"{', '.join(sorted(set(_FIELDS) - {'name'}))} (NAME_kib for NAME_bytes in KiB).")
        if key in grid:
            raise InputError(f"The grid axis {key!r} is given twice.")
        grid[key] = [_value(stem, v) for v in values.split(",")]
    return grid


def grid_points(grid: dict[str, list]) -> list[dict]:
    """Every combination of the grid's values, the last axis varying fastest."""
    keys = list(grid)
    return [dict(zip(keys, combo)) for combo in itertools.product(*(grid[k] for k in keys))]


def point_config(preset: str, params: dict) -> HwConfig:
    """The configuration of one grid point (raises ConfigError for an invalid one)."""
    fields = {}
    for key, v in params.items():
        if key.endswith("_kib"):
            fields[key[:-4] + "_bytes"] = v * 1024
        else:
            fields[key] = v
    for a, b in (("rows", "cols"), ("cols", "rows")):
        if a in fields and b not in fields:
            fields[b] = fields[a]
    label = "-".join(f"{k}{v}" for k, v in params.items())
    return config_from_dict({"preset": preset, "name": f"{preset}-{label}" if label else preset, **fields},
                            f"The grid point {label or preset}")


def config_hash(cfg: HwConfig) -> str:
    d = cfg.to_dict()
    d.pop("name", None)
    return hashlib.sha256(json.dumps(d, sort_keys=True).encode()).hexdigest()[:16]


# ------------------------------------------------------------------------------------ models
@dataclasses.dataclass
class SweepModel:
    """A model of the sweep: its name, the hash of its file (and name), and the model."""

    name: str
    hash: str
    model: object


def load_sweep_models(paths) -> list[SweepModel]:
    """Every model of the given files (.json / .json.gz, one model or a list, or .tflite)."""
    from nnaccel.formats import load_models
    out = []
    for path in paths:
        p = Path(path)
        if not p.is_file():
            raise InputError(f"The model file {path} does not exist.")
        digest = hashlib.sha256(p.read_bytes()).hexdigest()
        if p.suffix == ".tflite":
            from nnaccel.compiler.tflite_import import load_tflite
            models = [load_tflite(p)]
        else:
            models = load_models(p)
        for m in models:
            h = hashlib.sha256(f"{digest}:{m.name}".encode()).hexdigest()[:16]
            out.append(SweepModel(m.name, h, m))
    names = [m.name for m in out]
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        raise InputError(f"Two models of the sweep are named {dup[0]}; give each model once.")
    return out


# ------------------------------------------------------------------------------------ one point
def run_model(cfg: HwConfig, model) -> dict:
    """Compiles ``model`` for ``cfg`` and runs it on the ISA simulator; the figures of one row."""
    from nnaccel.compiler.compile import compile_model
    from nnaccel.firmware.runtime import Runtime

    from nnaccel.formats import run_inputs
    t0 = time.perf_counter()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            pkg = compile_model(model, cfg)
        _, rep = Runtime(pkg).run(run_inputs(model)[0], "isa")
    except NnaccelError as e:
        return {"status": "failed", "reason": f"{type(e).__name__}: {e}"}
    t = rep["total"]
    return {"status": "ok", "reason": "", "cycles": t["cycles"], "macs": t["macs"],
            "utilization_issued": t["utilization"], "accelerator_ops": len(rep["accelerator_ops"]),
            "host_ops": len(rep["host_ops"]), "segments": len(rep["segments"]),
            "seconds": round(time.perf_counter() - t0, 3)}


def synth_config(cfg: HwConfig, target: str, design: str = "top", timeout_s: float | None = None) -> dict:
    """Synthesizes, places and routes ``design`` of ``cfg`` (``"top"``: the whole accelerator) for
    ``target``: its resources and fmax, or why it does not fit or failed."""
    from nnaccel.boards.synth import TARGETS, design_for, synthesize
    t0 = time.perf_counter()
    try:
        rep = synthesize(design_for(cfg, design, TARGETS[target]), target, pnr=True, name=f"{cfg.name}-{design}",
                         timeout_s=timeout_s)
    except RuntimeError as e:
        status = "does not fit" if "cannot fit" in str(e) else "synthesis failed"
        return {"status": status, "reason": str(e).splitlines()[0], "seconds": round(time.perf_counter() - t0, 1)}
    fits = all(rep["fits"].values())
    pnr_ok = rep.get("pnr") == "ok"
    if not fits:        # nextpnr fails too then (no cells left): the budget is the reason
        budget = rep["budget"]
        over = [f"{k} {rep['logic_cells' if k == 'logic_cells' else k]:,} / "
                f"{budget['lut' if k == 'logic_cells' else k]:,}" for k, v in rep["fits"].items() if not v]
        status, reason = "does not fit", f"exceeds the {rep['device']}: " + ", ".join(over)
    elif not pnr_ok:
        status, reason = "place and route failed", rep.get("pnr") or ""
    else:
        status, reason = "ok", ""
    return {"status": status, "reason": reason, "lut": rep["lut"], "ff": rep["ff"], "dsp": rep["dsp"],
            "bram": rep["bram"], "device": rep["device"], "fits": fits, "fmax_mhz": rep["fmax_mhz"],
            "design": design, "seconds": round(time.perf_counter() - t0, 1)}


def synth_key(target: str, design: str) -> str:
    """The cache key of a synthesis besides the configuration: target, design and a hash of the
    sources the netlist comes from (the RTL, the synthesis flow and the ISA table)."""
    import nnaccel.boards.synth
    import nnaccel.hw

    import nnaccel.isa.table
    h = hashlib.sha256()
    files = sorted(Path(nnaccel.hw.__file__).parent.glob("*.py")) + sorted(
        Path(nnaccel.boards.synth.__file__).parent.glob("*.py")) + [Path(nnaccel.isa.table.__file__)]
    for f in files:
        h.update(f.name.encode() + b"\0" + f.read_bytes())
    return f"{target}-{design}-{h.hexdigest()[:12]}"


def evaluate_point(cfg: HwConfig, models: list[SweepModel], synth: str | None, timeout_s=None,
                   design: str = "top") -> dict:
    """One grid point (the body of its Ray task): ``{"runs": {model hash: figures}, "synth": ...}``
    for the models given (those not cached) and, when ``synth`` names a target, the synthesis of
    ``design``."""
    out = {"runs": {m.hash: run_model(cfg, m.model) for m in models}, "synth": None}
    if synth:
        out["synth"] = synth_config(cfg, synth, design, timeout_s)
    return out


# ------------------------------------------------------------------------------------ the cache
class Cache:
    """One JSON file per result under ``root``: ``run-CONFIG-MODEL.json`` and
    ``synth-CONFIG-TARGET.json``; an entry written by another nnaccel version is not used."""

    def __init__(self, root: Path, enabled: bool = True):
        self.root = Path(root)
        self.enabled = enabled
        self.root.mkdir(parents=True, exist_ok=True)

    def _path(self, kind, a, b) -> Path:
        return self.root / f"{kind}-{a}-{b}.json"

    def get(self, kind, a, b):
        p = self._path(kind, a, b)
        if not self.enabled or not p.exists():
            return None
        try:
            doc = json.loads(p.read_text())
        except (OSError, json.JSONDecodeError):
            return None
        return doc["result"] if doc.get("version") == __version__ else None

    def put(self, kind, a, b, result) -> None:
        from nnaccel.ioutil import write_json
        write_json(self._path(kind, a, b), {"version": __version__, "result": result}, "cache file")


# ------------------------------------------------------------------------------------ the sweep
@dataclasses.dataclass
class Sweep:
    """A sweep's inputs (see :func:`run_sweep`)."""

    models: list
    grid: dict
    preset: str = "base"
    synth: str | None = None
    clock_mhz: float | None = None
    timeout_s: float | None = None
    #: The design ``synth`` synthesizes (``nnaccel synth --design``): ``top``, the whole accelerator,
    #: or a block of it (whose fmax bounds the accelerator's from above).
    synth_design: str = "top"


def _ray_start(address, num_cpus):
    import ray
    if ray.is_initialized():
        return ray, False
    if address:
        ray.init(address=address, logging_level="WARNING")
    else:
        ray.init(num_cpus=num_cpus, include_dashboard=False, logging_level="WARNING", log_to_driver=False,
                 object_store_memory=200 * 1024 * 1024)
    return ray, True


def run_sweep(sw: Sweep, out_dir, address: str | None = None, num_cpus: int | None = None,
              progress: bool = True, use_cache: bool = True) -> dict:
    """Runs the sweep (cached results reused), writes nothing but the cache; returns
    ``{"points": [...], "rows": [...], "computed": N, "cached": N}``."""
    from nnaccel.progress import bar as progress_bar
    from nnaccel.progress import interactive
    cache = Cache(Path(out_dir) / "cache", use_cache)
    skey = synth_key(sw.synth, sw.synth_design) if sw.synth else None
    points, todo = [], []
    for idx, params in enumerate(grid_points(sw.grid)):
        pt = {"point": idx, "params": params}
        try:
            cfg = point_config(sw.preset, params)
        except InputError as e:
            pt["invalid"] = str(e)
            points.append(pt)
            continue
        pt["cfg"], pt["hash"] = cfg, config_hash(cfg)
        pt["runs"] = {m.hash: cache.get("run", pt["hash"], m.hash) for m in sw.models}
        pt["synth"] = cache.get("synth", pt["hash"], skey) if sw.synth else None
        missing = [m for m in sw.models if pt["runs"][m.hash] is None]
        if missing or (sw.synth and pt["synth"] is None):
            todo.append((pt, missing))
        points.append(pt)
    bar = progress_bar(len(points), "sweep", "point", disable=not (progress and interactive()))
    # elsewhere (a CI log) one line per point done: a sweep with synthesis runs for hours
    lines = progress and not interactive()
    bar.update(len(points) - len(todo))
    failed = sum("invalid" in p for p in points)
    if todo:
        ray, started = _ray_start(address, num_cpus)
        try:
            task = ray.remote(num_cpus=1)(evaluate_point)
            pending = {task.remote(pt["cfg"], missing, sw.synth if pt["synth"] is None else None, sw.timeout_s,
                                   sw.synth_design): (pt, missing) for pt, missing in todo}
            cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
            bar.set_postfix(running=min(len(pending), cpus), failed=failed)
            while pending:
                ready, _ = ray.wait(list(pending), num_returns=1)
                pt, missing = pending.pop(ready[0])
                try:
                    res = ray.get(ready[0])
                except ray.exceptions.RayError as e:   # a task raised or its worker died: the point fails
                    why = f"task failed: {e}".splitlines()[0]
                    res = {"runs": {m.hash: {"status": "failed", "reason": why} for m in missing},
                           "synth": {"status": "synthesis failed", "reason": why}
                           if sw.synth and pt["synth"] is None else None}
                for h, r in res["runs"].items():
                    pt["runs"][h] = r
                    if r["status"] == "ok":
                        cache.put("run", pt["hash"], h, r)
                if res["synth"] is not None:
                    pt["synth"] = res["synth"]
                    if res["synth"]["status"] in ("ok", "does not fit"):   # not a failure to retry
                        cache.put("synth", pt["hash"], skey, res["synth"])
                failed += any(r["status"] != "ok" for r in res["runs"].values()) or bool(
                    res["synth"] and res["synth"]["status"] != "ok")
                bar.update(1)
                bar.set_postfix(running=min(len(pending), cpus), failed=failed)
                if lines:
                    worst = next((r for r in [*res["runs"].values(), res["synth"] or {"status": "ok"}]
                                  if r["status"] != "ok"), None)
                    print(f"sweep: point {pt['point']} done ({len(todo) - len(pending)} of {len(todo)} to "
                          f"compute): {worst['status'] + ': ' + worst['reason'] if worst else 'ok'}",
                          file=sys.stderr, flush=True)
        finally:
            if started:
                ray.shutdown()
    bar.close()
    return {"points": points, "rows": result_rows(sw, points), "computed": len(todo),
            "cached": len(points) - len(todo) - sum("invalid" in p for p in points)}


def result_rows(sw: Sweep, points) -> list[dict]:
    """One row per point and model (:data:`COLUMNS` after the grid values)."""
    rows = []
    for pt in points:
        for m in sw.models:
            row = dict(pt["params"])
            row.update({c: None for c in COLUMNS})
            row.update(point=pt["point"], model=m.name, config_hash=pt.get("hash"), model_hash=m.hash)
            if "cfg" in pt:
                row["pes"] = pt["cfg"].rows * pt["cfg"].cols
            if "invalid" in pt:
                row.update(status="invalid", reason=pt["invalid"])
                rows.append(row)
                continue
            run = pt["runs"].get(m.hash) or {"status": "failed", "reason": "not run"}
            row.update({k: v for k, v in run.items() if k in row})
            syn = pt.get("synth")
            if syn:
                row.update({k: v for k, v in syn.items() if k in row and k not in ("status", "reason")})
                if run["status"] == "ok" and syn["status"] != "ok":
                    row.update(status=syn["status"], reason=syn["reason"])
            clock, source = None, None
            if row["fmax_mhz"] and sw.synth_design == "top":
                clock, source = row["fmax_mhz"], "fmax (nextpnr)"
            elif row["fmax_mhz"]:
                clock, source = row["fmax_mhz"], f"fmax of the {sw.synth_design} block (nextpnr; an upper bound)"
            elif sw.clock_mhz:
                clock, source = sw.clock_mhz, "assumed (--clock-mhz)"
            if clock and row["cycles"]:
                row.update(clock_mhz=clock, clock_source=source, inferences_per_s=clock * 1e6 / row["cycles"])
            rows.append(row)
    return rows


# ------------------------------------------------------------------------------------ outputs
def write_outputs(sw: Sweep, result: dict, out_dir) -> dict:
    """Writes ``results.json``, ``results.csv``, ``pareto.png`` and ``index.html`` into ``out_dir``;
    returns their paths."""
    import csv
    import io

    from nnaccel.ioutil import write_atomic, write_json

    from . import html, plots
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    rows = result["rows"]
    axes = list(sw.grid)
    columns = axes + [c for c in COLUMNS if c not in axes]
    meta = {"preset": sw.preset, "grid": sw.grid, "synth": sw.synth,
            "synth_design": sw.synth_design if sw.synth else None, "clock_mhz": sw.clock_mhz,
            "models": [m.name for m in sw.models], "nnaccel": __version__,
            "utilization_issued": "MACs issued / (cycles x rows x cols); padding lanes count as issued",
            "inferences_per_s": "clock_mhz * 1e6 / cycles (accelerator cycles; host operations not timed)"}
    paths = {"json": out / "results.json", "csv": out / "results.csv", "png": out / "pareto.png",
             "html": out / "index.html"}
    write_json(paths["json"], {"sweep": meta, "rows": rows}, "results file")
    text = io.StringIO(newline="")
    w = csv.DictWriter(text, columns, extrasaction="ignore")
    w.writeheader()
    w.writerows(rows)
    write_atomic(paths["csv"], text.getvalue(), "results file")
    png = plots.pareto_figure(rows, "png")
    write_atomic(paths["png"], png, "plot")
    ok = sum(r["status"] == "ok" for r in rows)
    body = (f"<p>Preset <b>{html.esc(sw.preset)}</b>, grid "
            + ", ".join(f"{html.esc(k)} = {html.esc(', '.join(map(str, v)))}" for k, v in sw.grid.items())
            + f"; models {html.esc(', '.join(meta['models']))}; synthesis {html.esc(f'{sw.synth} ({sw.synth_design})' if sw.synth else 'none')}. "
            f"{ok} of {len(rows)} rows ok. Utilization is <i>issued</i> MAC utilization ({meta['utilization_issued']}); "
            f"inferences per second: {meta['inferences_per_s']}.</p>"
            + html.figure(png, "png", "inferences per second against LUTs (or PEs), per model; points numbered",
                          "pareto")
            + "<h2>Results</h2>" + html.table(rows, columns, bad=lambda r: r["status"] != "ok", ident="results")
            + '<p>Files: <a href="results.csv">results.csv</a>, <a href="results.json">results.json</a>, '
              '<a href="pareto.png">pareto.png</a>.</p>')
    write_atomic(paths["html"], html.page("nnaccel sweep", body), "HTML page")
    return paths
