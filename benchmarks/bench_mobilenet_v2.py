"""The whole MobileNet V2 (1.0, 224 x 224, int8, random per-channel weights) on the accelerator.

Compiles the network (:func:`nnaccel.compiler.reference_models.mobilenet_v2`) for a configuration
(default ``base``), runs it on the ISA simulator and checks both outputs (the logits and the
SOFTMAX, which runs on the host) bit-exact against the golden model. Prints the compile time (CPU
seconds of this process, so a loaded machine does not inflate it; wall time beside it), segments
and host operations, cycles, useful MACs and useful utilization (the network's own multiply-adds /
(cycles x rows x cols)), issued utilization, and the ISA simulator's speed, then the cycles per
operation type. The weights are random: the figures measure the compiler and the machine, not
accuracy.

    python benchmarks/bench_mobilenet_v2.py [--config base] [--size 224] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np
from nnaccel.compiler.compile import compile_model
from nnaccel.compiler.reference_models import mobilenet_v2
from nnaccel.firmware.runtime import Runtime

from nnaccel.golden.interpreter import run_model


def bench(config: str, size: int) -> dict:
    model = mobilenet_v2(size)
    t0, c0 = time.perf_counter(), time.process_time()
    pkg = compile_model(model, config)
    t_compile, c_compile = time.perf_counter() - t0, time.process_time() - c0
    x = np.random.default_rng(0).integers(-128, 128, (1, size, size, 3)).astype(np.int8)
    outs, rep = Runtime(pkg).run([x], "isa")
    want = run_model(model, [x])
    exact = len(outs) == len(want) and all(np.array_equal(a, b) for a, b in zip(outs, want))
    t = rep["total"]
    sim = sum(s["wall_seconds"] for s in rep["segments"])
    by_op: dict[str, dict] = {}
    for seg in rep["segments"]:
        for lay in seg["layers"]:
            d = by_op.setdefault(lay["type"], {"layers": 0, "cycles": 0, "useful_macs": 0})
            d["layers"] += 1
            d["cycles"] += lay["cycles"]
            d["useful_macs"] += lay["useful_macs"]
    peak = pkg.config().rows * pkg.config().cols
    return {"config": config, "size": size, "compile_cpu_seconds": c_compile, "compile_wall_seconds": t_compile,
            "instructions": len(pkg.program) // 16, "segments": len(rep["segments"]),
            "host_ops": [o["type"] for o in rep["host_ops"]], "cycles": t["cycles"], "macs": t["macs"],
            "utilization": t["utilization"], "useful_macs": t["useful_macs"],
            "useful_utilization": t["useful_utilization"], "bit_exact": exact,
            "sim_cycles_per_second": t["cycles"] / sim if sim else 0.0,
            "by_op": {k: {**v, "useful_utilization": v["useful_macs"] / (v["cycles"] * peak) if v["cycles"] else 0.0}
                      for k, v in sorted(by_op.items())}}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    p.add_argument("--config", default="base", help="hardware preset or configuration file (default: base)")
    p.add_argument("--size", type=int, default=224, help="input height and width, a multiple of 32 (default: 224)")
    p.add_argument("--json", metavar="FILE", help="write the figures as JSON")
    args = p.parse_args(argv)
    r = bench(args.config, args.size)
    print(f"MobileNet V2 {args.size}x{args.size} (random weights) on {r['config']}: compiled in "
          f"{r['compile_cpu_seconds']:.2f} s CPU ({r['compile_wall_seconds']:.2f} s wall), {r['instructions']:,} "
          f"instructions, {r['segments']} segment(s), host ops: {', '.join(r['host_ops']) or 'none'}")
    print(f"  cycles {r['cycles']:,}, useful MACs {r['useful_macs']:,}, useful utilization "
          f"{100 * r['useful_utilization']:.1f}%, issued {100 * r['utilization']:.1f}%, bit-exact with the golden "
          f"model: {'yes' if r['bit_exact'] else 'NO'}, ISA simulator {r['sim_cycles_per_second']:.3g} cycles/s")
    for op, d in r["by_op"].items():
        print(f"  {op:<20} {d['layers']:>3} layers {d['cycles']:>10,} cycles  useful {100 * d['useful_utilization']:5.1f}%")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(r, fh, indent=1)
    return 0 if r["bit_exact"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
