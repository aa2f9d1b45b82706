"""MobileNet-V2 inverted residual block (int8, per-channel filters) on the accelerator.

For each block size (56x56x24 and 14x14x96, expansion 6): compile for a configuration (default
``base``), run on the ISA simulator, check the outputs bit-exact against the golden model, and
print per layer its cycles, MACs issued, MAC utilization (MACs / (cycles x rows x cols)) and DMA
bytes, then the totals; the programs are also checked for races and scratchpad bank conflicts
(``find_conflicts``). A layer's cycles are its span in the schedule (``nnaccel.sim.report.layer_span``):
to its last instruction's end from its first instruction's start, or, where that is a prefetch
of its constants (filters, parameters) that runs during the layer before, from the earlier of
its first other instruction's start and the end of the layer before. Spans of neighbouring
layers may overlap, so the layers' cycles add up to more than the total.

    python benchmarks/bench_mobilenet_block.py [--config base] [--sizes 56x56x24,14x14x96] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np
from nnaccel.compiler.compile import compile_model
from nnaccel.compiler.reference_models import block_layers
from nnaccel.firmware.runtime import Runtime
from nnaccel.sim.isasim import find_conflicts

from nnaccel.golden.interpreter import run_model
from nnaccel.isa import bytes_to_words


def bench(h: int, w: int, c: int, config: str) -> dict:
    model, names = block_layers(h, w, c)
    t0 = time.perf_counter()
    pkg = compile_model(model, config)
    t_compile = time.perf_counter() - t0
    x = np.random.default_rng(0).integers(-128, 128, (1, h, w, c)).astype(np.int8)
    t0 = time.perf_counter()
    outs, rep = Runtime(pkg).run([x], "isa")
    t_run = time.perf_counter() - t0
    exact = np.array_equal(outs[0], run_model(model, [x])[0])
    conflicts = sum(len(find_conflicts(bytes_to_words(pkg.segment_words(seg)), pkg.config()))
                    for seg in pkg.manifest["segments"])
    print(f"\nblock {h}x{w}x{c} (expand x6) on {config}: compiled in {t_compile:.2f} s, simulated in "
          f"{t_run:.2f} s, outputs bit-exact with the golden model: {exact}, race / bank conflicts "
          f"(find_conflicts): {conflicts}")
    print(f"  {'layer':<16} {'cycles':>10} {'MACs issued':>12} {'util':>7} {'useful MACs':>12} {'useful':>7} "
          f"{'DMA bytes':>10}")
    per_op = {}
    for seg in rep["segments"]:
        for lay in seg["layers"]:
            d = per_op.setdefault(lay["op"], {"cycles": 0, "macs": 0, "useful": 0, "dma": 0})
            d["cycles"] += lay["cycles"]
            d["macs"] += lay["macs"]
            d["useful"] += lay["useful_macs"]
            d["dma"] += lay["dma_bytes"]
    peak = pkg.config().rows * pkg.config().cols
    for op, d in sorted(per_op.items()):
        util = d["macs"] / (d["cycles"] * peak) if d["cycles"] else 0.0
        u = d["useful"]
        uu = u / (d["cycles"] * peak) if d["cycles"] else 0.0
        print(f"  {names[op]:<16} {d['cycles']:>10} {d['macs']:>12} {100 * util:>6.1f}% {u:>12} {100 * uu:>6.1f}% "
              f"{d['dma']:>10}")
    t = rep["total"]
    print(f"  {'total':<16} {t['cycles']:>10} {t['macs']:>12} {100 * t['utilization']:>6.1f}% {t['useful_macs']:>12} "
          f"{100 * t['useful_utilization']:>6.1f}%")
    print("  (util = MACs issued / (cycles x rows x cols), the macs counter; useful = the layer's own "
          "multiply-adds / (cycles x rows x cols);\n   a layer's cycles: from its first instruction's start, "
          "or where that is a prefetch of its constants run during the layer before, from the earlier of\n"
          "   its first other instruction's start and that layer's end, to its last instruction's end; "
          "neighbouring spans may overlap)")
    layers = {}
    for op, d in sorted(per_op.items()):
        u = d["useful"]
        layers[names[op]] = {"cycles": d["cycles"], "macs": d["macs"], "dma_bytes": d["dma"], "useful_macs": u,
                             "utilization": d["macs"] / (d["cycles"] * peak) if d["cycles"] else 0.0,
                             "useful_utilization": u / (d["cycles"] * peak) if d["cycles"] else 0.0}
    return {"block": f"{h}x{w}x{c}", "exact": exact and not conflicts, "layers": layers,
            "total": {"cycles": t["cycles"], "macs": t["macs"], "utilization": t["utilization"],
                      "useful_macs": t["useful_macs"], "useful_utilization": t["useful_utilization"]}}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--config", default="base")
    p.add_argument("--sizes", default="56x56x24,14x14x96")
    p.add_argument("--json", metavar="FILE", help="write the figures as JSON")
    args = p.parse_args(argv)
    blocks = []
    for s in args.sizes.split(","):
        h, w, c = (int(v) for v in s.split("x"))
        blocks.append(bench(h, w, c, args.config))
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({"config": args.config, "blocks": blocks}, fh, indent=1)
    return 0 if all(b["exact"] for b in blocks) else 1


if __name__ == "__main__":
    raise SystemExit(main())
