"""``nnaccel bench``: accelerator benchmarks (simulated cycles, MAC utilization, simulator speed)."""

from __future__ import annotations

import sys
import time

from nnaccel.hwconfig import DEFAULT_CONFIG


def cmd_gemm(args) -> int:
    from nnaccel.sim.bench import bench_gemm

    last = [0.0]

    def log(msg):
        now = time.perf_counter()
        if not msg.endswith("instructions") or now - last[0] > 1.0:
            last[0] = now
            print(f"[bench] {msg}", file=sys.stderr, flush=True)

    r = bench_gemm(args.config, args.size, args.backend, args.seed, log)
    c = r["counters"]
    print(f"gemm {r['size']}x{r['size']}x{r['size']} on {r['config']} ({r['backend']}): "
          f"{r['cycles']} cycles, {r['macs']} MACs, MAC utilization {100 * r['utilization']:.2f}%")
    print(f"  array busy {c['array_busy']}, vector busy {c['vector_busy']}, DMA in {c['dma_load_bytes']} B, "
          f"out {c['dma_store_bytes']} B, stalls: compute waiting on tokens {c['compute_token_stall']}, "
          f"fetch {c['fetch_stall']}")
    print(f"  bit-exact with the golden FULLY_CONNECTED: {'yes' if r['bit_exact'] else 'NO'}; "
          f"simulator speed {r['sim_cycles_per_second']:.3g} cycles per CPU-second "
          f"({r['cpu_seconds']:.2f} s CPU, {r['wall_seconds']:.2f} s wall)")
    if args.json:
        from .ioutil import write_json
        write_json(args.json, r, "results file", indent=2)
        print(f"wrote {args.json}")
    return 0 if r["bit_exact"] else 1


def register(subparsers) -> None:
    from .cli_models import add_output_arg
    p = subparsers.add_parser("bench", help="accelerator benchmarks (cycles, MAC utilization, sim speed)",
                              description="Run an accelerator benchmark on a backend and check it "
                                          "bit for bit against the golden model. Exit 1 on mismatch.")
    sub = p.add_subparsers(dest="bench_command", metavar="BENCHMARK", parser_class=type(p))
    g = sub.add_parser("gemm", help="square quantized GEMM (FULLY_CONNECTED) of size N",
                       description="Build an N x N x N uint8 GEMM with the program builder, run it, "
                                   "compare with the golden FULLY_CONNECTED, print cycles, MAC "
                                   "utilization = MACs / (cycles x rows x cols) and simulator speed.")
    g.add_argument("--config", default=DEFAULT_CONFIG,
                   help=f"preset name or .toml/.json file (default {DEFAULT_CONFIG})")
    g.add_argument("--size", type=int, default=256, help="N (default 256)")
    g.add_argument("--backend", default="isa", help="isa (default); others plug in (rtl)")
    g.add_argument("--seed", type=int, default=0, help="random data seed")
    add_output_arg(g, "--json", what="results file", metavar="FILE", help="write the figures as JSON")
    g.set_defaults(func=cmd_gemm)
    from .cli_mlperf import add_parser as add_mlperf
    add_mlperf(sub, DEFAULT_CONFIG)
    p.set_defaults(func=lambda args: (p.print_help(), 2)[1])
