"""Every measured figure of the docs, made again: runs each benchmark command, keeps its figures in
``docs/results.json`` with the command, commit, date and machine, and writes ``docs/results.md``
from it (the one results file the docs point to).

    python benchmarks/run_all.py                 # every entry (synthesis with place and route: ~30 min)
    python benchmarks/run_all.py --only gemm     # the entries whose name starts with "gemm"
    python benchmarks/run_all.py --list          # the entries and their commands
    python benchmarks/run_all.py --render        # docs/results.md from docs/results.json alone

An entry that is not run keeps the figures, commit and date it was last measured with.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS_JSON = ROOT / "docs" / "results.json"
RESULTS_MD = ROOT / "docs" / "results.md"
NNACCEL = [sys.executable, "-m", "nnaccel.cli"]      # the installed nnaccel, as a user runs it


@dataclass(frozen=True)
class Entry:
    """One benchmark: ``args`` (``{json}`` stands for the JSON file it writes) and the figures
    ``pick`` takes from that JSON, as ``{column: value}`` rows."""
    name: str
    section: str
    args: tuple[str, ...]
    pick: object


def _gemm(doc: dict) -> list[dict]:
    return [{"config": doc["config"], "N": doc["size"], "backend": doc["backend"], "cycles": doc["cycles"],
             "MAC utilization": f"{100 * doc['utilization']:.2f}%", "bit-exact": "yes" if doc["bit_exact"] else "NO",
             "simulated cycles/s": f"{doc['sim_cycles_per_second']:.3g}"}]


def _synth(doc: dict) -> list[dict]:
    b = doc["budget"]
    cells = doc.get("logic_cells")
    return [{"config": doc["config"], "device": doc["device"], "LUT4": f"{doc['lut']:,} / {b['lut']:,}",
             "logic cells": f"{cells:,} / {b['lut']:,}" if cells is not None and doc["target"] == "ice40" else "",
             "DSP": f"{doc['dsp']} / {b['dsp']}", "block RAM": f"{doc['bram']} / {b['bram']}", "FF": f"{doc['ff']:,}",
             "fmax": f"{doc['fmax_mhz']:.2f} MHz" if doc.get("fmax_mhz") else "",
             "fmax median / best (seeds)": (f"{doc['fmax_median_mhz']:.2f} / {doc['fmax_best_mhz']:.2f} MHz "
                                            f"({', '.join(str(r['seed']) for r in doc['seeds'])})"
                                            if doc.get("fmax_best_mhz") else ""),
             "routed": {"ok": "yes", None: "not run"}.get(doc.get("pnr"), "NO"),
             "Yosys": doc["yosys"]["version"].split(" (")[0]}]


def _mobilenet(doc: dict) -> list[dict]:
    rows = []
    for blk in doc["blocks"]:
        for name, lay in blk["layers"].items():
            rows.append({"block": blk["block"], "layer": name, "cycles": lay["cycles"], "MACs issued": lay["macs"],
                         "MAC utilization": f"{100 * lay['utilization']:.1f}%", "useful MACs": lay["useful_macs"],
                         "useful utilization": f"{100 * lay['useful_utilization']:.1f}%"})
        t = blk["total"]
        rows.append({"block": blk["block"], "layer": "total", "cycles": t["cycles"], "MACs issued": t["macs"],
                     "MAC utilization": f"{100 * t['utilization']:.1f}%", "useful MACs": t["useful_macs"],
                     "useful utilization": f"{100 * t['useful_utilization']:.1f}%",
                     "bit-exact, no conflicts": "yes" if blk["exact"] else "NO"})
    return rows


def _mobilenet_v2(doc: dict) -> list[dict]:
    rows = [{"layers": f"{op} x {d['layers']}", "cycles": d["cycles"], "useful MACs": d["useful_macs"],
             "useful utilization": f"{100 * d['useful_utilization']:.1f}%"} for op, d in doc["by_op"].items()]
    rows.append({"layers": "whole network", "cycles": doc["cycles"], "useful MACs": doc["useful_macs"],
                 "useful utilization": f"{100 * doc['useful_utilization']:.1f}%",
                 "MAC utilization": f"{100 * doc['utilization']:.1f}%",
                 "host ops": ", ".join(doc["host_ops"]), "bit-exact": "yes" if doc["bit_exact"] else "NO",
                 "simulated cycles/s": f"{doc['sim_cycles_per_second']:.3g}",
                 "compile (CPU)": f"{doc['compile_cpu_seconds']:.2f} s"})
    return rows


def _mlperf(doc: dict) -> list[dict]:
    rows = []
    for run in doc["runs"]:
        for m in run["models"]:
            ips = m["inferences_per_second"]
            rows.append({"config": run["config"], "model": m["network"], "cycles": m["cycles"],
                         "useful MACs": m["useful_macs"], "useful utilization": f"{100 * m['useful_utilization']:.1f}%",
                         "MACs issued": m["macs"], "segments": m["segments"], "host ops": len(m["host_ops"]),
                         "bit-exact": "yes" if m["bit_exact"] else "NO",
                         "simulated cycles/s": f"{m['sim_cycles_per_second']:.3g}",
                         "compile (CPU)": f"{m['compile_seconds']:.2f} s",
                         "fmax": f"{run['fmax_mhz']:.2f} MHz" if run["fmax_mhz"] else "",
                         "inferences/s": f"{ips:,.0f}" if ips else ""})
    return rows


def _board_mlperf(doc: dict) -> list[dict]:
    rows = []
    for run in doc["runs"]:
        for m in run["models"]:
            ips = m["inferences_per_second"]
            need = m.get("memory_bytes")
            rows.append({"board": run["board"], "config": run["config"], "clock": f"{run['clock_mhz']:g} MHz",
                         "model": m["network"], "fits": "yes" if m["fits"] else "no",
                         "memory needed": f"{need:,} B" if need else "more than the DMA window",
                         "cycles": m.get("cycles", ""), "bit-exact": ("yes" if m["bit_exact"] else "NO")
                         if "cycles" in m else "", "inferences/s": f"{ips:,.2f}" if ips else ""})
    return rows


def _build(doc: dict) -> list[dict]:
    return [{"board": doc["board"], "config": doc["config"], "clock": f"{doc['clock_mhz']:g} MHz",
             "fmax": f"{doc['fmax_mhz']:.2f} MHz", **{k: f"{u:,} / {a:,}" for k, (u, a) in doc["resources"].items()},
             "bitstream": f"{doc['bytes']:,} B", "place and route": f"{doc['seconds']:.0f} s"}]


def _cts(doc: dict) -> list[dict]:
    acc = doc.get("accelerated")
    return [{"models": doc["total"], "passed": doc["passed"], "failed": doc["failed"],
             "not implemented": doc["not_implemented"],
             **({"on the accelerator (of compiled)": f"{acc['models']} of {acc['compiled']}"} if acc else {})}]


ENTRIES = [
    *(Entry(f"gemm-{c}-{n}", "GEMM on the ISA simulator", ("bench", "gemm", "--config", c, "--size", str(n),
                                                            "--json", "{json}"), _gemm)
      for c in ("tiny", "small", "base", "large") for n in (256, 1024)),
    Entry("gemm-rtl-small-256", "GEMM on the RTL (Verilator)",
          ("bench", "gemm", "--config", "small", "--size", "256", "--backend", "rtl", "--json", "{json}"), _gemm),
    Entry("mobilenet-block-base", "MobileNet V2 block on base (ISA simulator)",
          ("@benchmarks/bench_mobilenet_block.py", "--config", "base", "--json", "{json}"), _mobilenet),
    Entry("mobilenet-v2-base", "MobileNet V2 on base (random weights; ISA simulator; layer spans overlap)",
          ("@benchmarks/bench_mobilenet_v2.py", "--config", "base", "--json", "{json}"), _mobilenet_v2),
    Entry("synth-tiny-top", "Synthesis, place and route (YoWASP Yosys + nextpnr)",
          ("synth", "--config", "tiny", "--target", "ice40", "--design", "top", "--pnr", "--freq", "24", "--timeout", "5400",
           "--json", "{json}"), _synth),
    Entry("synth-small-top", "Synthesis, place and route (YoWASP Yosys + nextpnr)",
          ("synth", "--config", "small", "--target", "ecp5", "--design", "top", "--pnr", "--freq", "50", "--timeout", "5400",
           "--json", "{json}"), _synth),
    # base on the ECP5-85F: synthesis only (its place and route at this fill takes hours of one core)
    Entry("synth-base-85f-top", "Synthesis, place and route (YoWASP Yosys + nextpnr)",
          ("synth", "--config", "base", "--target", "ecp5-85f", "--design", "top", "--timeout", "5400", "--json", "{json}"),
          _synth),
    # after the synthesis entries: a full run reads the fmax they measured
    *(Entry(f"bench-mlperf-{c}", "MLPerf Tiny models on the ISA simulator",
            ("bench", "mlperf", "--config", c, "--json", "{json}"), _mlperf)
      for c in ("tiny", "small", "base", "large")),
    *(Entry(f"build-{b}", "Board bitstreams (nnaccel build; YoWASP Yosys + nextpnr)",
            ("build", "--board", b, "-o", "{json}" + ext, "--json", "{json}"), _build)
      for b, ext in (("icebreaker", ".bin"), ("ulx3s-85f", ".bit"))),
    *(Entry(f"board-mlperf-{b}", "MLPerf Tiny models on the boards (ISA simulator at the board's configuration "
                                  "and clock)", ("bench", "mlperf", "--board", b, "--json", "{json}"), _board_mlperf)
      for b in ("icebreaker", "ulx3s-85f")),
    Entry("cts-golden", "NNAPI conformance (golden model)", ("cts", "-j", "2", "--json", "{json}"), _cts),
    Entry("cts-isa-small", "NNAPI conformance (compiled, ISA simulator, bit-exact check)",
          ("cts", "--target", "isa", "--config", "small", "-j", "2", "--json", "{json}"), _cts),
    Entry("cts-rtl-small-quant8", "NNAPI conformance (compiled, Verilator RTL, bit-exact check)",
          ("cts", "--target", "rtl", "--config", "small", "--spec", "V1_0/*quant8*", "-j", "2", "--json", "{json}"),
          _cts),
]


def _commit() -> str:
    def git(*a):
        return subprocess.run(["git", *a], cwd=ROOT, capture_output=True, text=True, check=False).stdout.strip()
    head = git("rev-parse", "--short=10", "HEAD") or "unknown"
    return head + ("-dirty" if git("status", "--porcelain", "--untracked-files=no") else "")


def _machine() -> str:
    return f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"


def shown(e: Entry) -> str:
    """The command as a user types it."""
    args = [a.replace("{json}", "FILE.json") for a in e.args]
    if args[0].startswith("@"):
        return "python " + " ".join([args[0][1:], *args[1:]])
    return "nnaccel " + " ".join(args)


def run(e: Entry) -> dict:
    with tempfile.TemporaryDirectory() as td:
        out = Path(td) / "out.json"
        args = [a.replace("{json}", str(out)) for a in e.args]
        cmd = [sys.executable, str(ROOT / args[0][1:]), *args[1:]] if args[0].startswith("@") else [*NNACCEL, *args]
        print(f"[run_all] {e.name}: {shown(e)}", file=sys.stderr, flush=True)
        commit = _commit()                 # before the run: the tree it measures
        t0 = time.perf_counter()
        p = subprocess.run(cmd, cwd=ROOT, check=False)
        wall = time.perf_counter() - t0
        if not out.exists():
            raise SystemExit(f"run_all: {e.name} wrote no figures (exit {p.returncode}): {shown(e)}")
        rows = e.pick(json.loads(out.read_text()))
    return {"command": shown(e), "exit": p.returncode, "rows": rows, "commit": commit,
            "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d"), "machine": _machine(),
            "wall_seconds": round(wall, 1)}


def render(results: dict) -> str:
    lines = ["# Measured figures", "",
             ("Generated by `python benchmarks/run_all.py` from `docs/results.json`; do not edit by hand. "
              "Each table gives the command that made it, the commit it ran on, the date and the machine. "
              "Utilization is issued MACs / (cycles x rows x cols) unless it says \"useful\" (the model's own "
              "multiply-adds)."), ""]
    for section in dict.fromkeys(e.section for e in ENTRIES):
        got = [(e, results[e.name]) for e in ENTRIES if e.section == section and e.name in results]
        if not got:
            continue
        lines += [f"## {section}", ""]
        cols = list(dict.fromkeys(k for _, r in got for row in r["rows"] for k in row))
        lines += ["| " + " | ".join([*cols, "command", "measured"]) + " |", "|" + "---|" * (len(cols) + 2)]
        for e, r in got:
            when = f"{r['commit']}, {r['date']}, {r['wall_seconds']:g} s" + ("" if r["exit"] == 0 else
                                                                             f", exit {r['exit']}")
            for row in r["rows"]:
                lines.append("| " + " | ".join([*(str(row.get(c, "")) for c in cols), f"`{r['command']}`", when])
                             + " |")
        machines = sorted({r["machine"] for _, r in got})
        lines += ["", f"Machine: {'; '.join(machines)}.", ""]
    return "\n".join(lines)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--only", action="append", metavar="PREFIX", help="run only the entries starting with PREFIX")
    p.add_argument("--list", action="store_true", help="list the entries and their commands")
    p.add_argument("--render", action="store_true", help="only write docs/results.md from docs/results.json")
    args = p.parse_args(argv)
    if args.list:
        for e in ENTRIES:
            print(f"{e.name:<24} {shown(e)}")
        return 0
    results = json.loads(RESULTS_JSON.read_text()) if RESULTS_JSON.exists() else {}
    if not args.render:
        chosen = [e for e in ENTRIES if not args.only or any(e.name.startswith(o) for o in args.only)]
        if not chosen:
            raise SystemExit(f"run_all: no entry starts with {', '.join(args.only)} (see --list).")
        for e in chosen:
            fresh = run(e)
            # read again before writing: another run_all may have recorded entries meanwhile
            results = json.loads(RESULTS_JSON.read_text()) if RESULTS_JSON.exists() else {}
            results[e.name] = fresh
            RESULTS_JSON.write_text(json.dumps(results, indent=1) + "\n")
    RESULTS_MD.write_text(render(results))
    print(f"wrote {RESULTS_MD.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
