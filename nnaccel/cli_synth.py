"""``nnaccel synth``: Yosys synthesis (and nextpnr with ``--pnr``) of the accelerator RTL for iCE40 /
ECP5, printing LUTs, DSPs, block RAMs and fmax (see ``nnaccel.boards.synth``)."""

from __future__ import annotations

import sys

from nnaccel.hwconfig import DEFAULT_CONFIG


class ProgressSteps:
    """A tool flow's steps (Yosys, nextpnr, ...) on stderr, each with its running time
    (``nnaccel.progress.elapsed``): :meth:`step` ends the current step and starts the next."""

    def __init__(self, prefix: str):
        self.prefix = prefix
        self.current = None

    def step(self, msg: str) -> None:
        from .progress import elapsed
        self.close()
        self.current = elapsed(f"{self.prefix} {msg}", always=True)
        self.current.__enter__()

    def close(self) -> None:
        if self.current is not None:
            self.current.__exit__(None, None, None)
            self.current = None


def cmd_synth(args) -> int:
    from nnaccel.boards.synth import TARGETS, block_ram_ok, design_for, synthesize
    from nnaccel.boards.targets import default_target
    from nnaccel.hwconfig import load_config

    cfg = load_config(args.config)
    args.target = args.target or default_target(cfg)
    target = TARGETS[args.target]

    steps = ProgressSteps("[synth]")
    try:
        rep = synthesize(design_for(cfg, args.design, target), args.target, pnr=args.pnr,
                         name=f"{cfg.name}-{args.design}", log=steps.step, timeout_s=args.timeout,
                         breakdown=args.breakdown, freq_mhz=args.freq, seed=args.seed, seeds=args.seeds or (),
                         workdir=args.workdir)
    except RuntimeError as e:
        steps.close()
        print(f"nnaccel: error: {e}", file=sys.stderr)
        return 1
    steps.close()
    b = rep["budget"]
    if rep["fmax_mhz"] is not None:
        fmax = f"{rep['fmax_mhz']:.2f} MHz"
    elif args.pnr:
        fmax = "none (place and route failed)"
    else:
        fmax = "not run (use --pnr)"
    what = {"core": "accelerator core (scratchpads at minimum size)", "top": "accelerator"}.get(
        args.design, args.design)
    print(f"{what} of {cfg.name} on {rep['device']} ({args.target}, {rep['yosys']['version'].split(' (')[0]}, "
          f"LUT mapping {rep['lut_mapper']}):")
    lut = "LUT4 (nextpnr's TRELLIS_COMB)" if rep.get("lut_source", "").startswith("nextpnr") else "LUT4"
    print(f"  {lut} {rep['lut']} / {b['lut']}, DSP {rep['dsp']} / {b['dsp']}, block RAM {rep['bram']} / "
          f"{b['bram']}" + (f", SPRAM {rep.get('spram', 0)} / {b['spram']}" if "spram" in b else "")
          + f", flip-flops {rep['ff']}")
    if rep.get("lut_source", "yosys") != "yosys":
        print(f"  (Yosys' cells: {rep['lut_yosys']} LUT4 with two per CCU2C; nextpnr's packer adds carry "
              f"feed-in / feed-out cells and LUT RAM)")
    elif rep.get("logic_cells") is not None:
        print(f"  logic cells after nextpnr's packer: {rep['logic_cells']} / {b['lut']} (LUT4 + carry + flip-flop)")
    if rep.get("seeds"):
        each = ", ".join(f"{r['seed']}: {r['fmax_mhz']:.2f}" if r["fmax_mhz"] else f"{r['seed']}: {r['pnr']}"
                         for r in rep["seeds"])
        med, best = rep["fmax_median_mhz"], rep["fmax_best_mhz"]
        print(f"  fmax per seed (MHz) {each}; median {med:.2f} MHz, best {best:.2f} MHz (the report below is the "
              f"best seed's)" if best else f"  fmax per seed: {each}")
    print(f"  fmax {fmax}; fits: " + ", ".join(f"{k} {'yes' if v else 'NO'}" for k, v in rep["fits"].items()))
    for mm in rep.get("memories", []):
        ports = f"{mm['write']} write / {mm['read']} read" + (f" / {mm['async_read']} combinational read"
                                                               if mm["async_read"] else "")
        # what Yosys built (a small memory with block-RAM ports may become LUT RAM on ECP5)
        where = mm.get("mapped", "block RAM" if mm["block_ram"] else "flip-flops")
        if where == "flip-flops" and not block_ram_ok(mm, target.family):
            where += " (too many ports for block RAM)"
        print(f"  memory {mm['name']}: {mm['depth']} x {mm['width']} bit, {ports} ports -> {where}")
    if rep.get("breakdown"):
        print("  where the logic is (estimate: each source section's share of the pre-mapping logic "
              "times the LUT4 total):")
        shown = list(rep["breakdown"].items())
        for sec, e in shown[:args.breakdown_lines]:
            muls = f"  [$mul {', '.join(e['muls'])}]" if e.get("muls") else ""
            print(f"    {e['lut_est']:>7} LUT4  {e['ff']:>6} FF  {e['mem_bits']:>8} memory bits  {sec}{muls}")
        rest = shown[args.breakdown_lines:]
        if rest:
            print(f"    {sum(e['lut_est'] for _, e in rest):>7} LUT4  {sum(e['ff'] for _, e in rest):>6} FF  "
                  f"{sum(e['mem_bits'] for _, e in rest):>8} memory bits  ({len(rest)} more sections)")
    for clk, c in rep.get("clocks", {}).items():
        if "from" in c:
            print(f"  clock {clk}: fmax {c.get('fmax_mhz', 0):.2f} MHz, critical path {c['from']} -> {c['to']}")
    if args.json:
        slim = {k: v for k, v in rep.items() if k != "cells"}
        slim["config"] = cfg.name
        from .ioutil import write_json
        write_json(args.json, slim, "results file", indent=2)
        print(f"wrote {args.json}")
    return _verdict(rep, args.pnr)


def _verdict(rep: dict, pnr: bool) -> int:
    """0 when the design fits its device (and, with ``--pnr``, routed); else 1 with one sentence on
    stderr saying why."""
    if pnr and rep.get("pnr") != "ok":
        print(f"nnaccel: error: place and route of {rep['design']} on the {rep['device']} failed: {rep['pnr']}.",
              file=sys.stderr)
        return 1
    over = [k for k, ok in rep["fits"].items() if not ok]
    if over:
        print(f"nnaccel: error: {rep['design']} does not fit the {rep['device']}: too many "
              f"{', '.join(over)}.", file=sys.stderr)
        return 1
    return 0


def _seed_list(text: str) -> tuple[int, ...]:
    import argparse
    try:
        seeds = tuple(int(v) for v in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a comma-separated list of integers") from None
    if len(set(seeds)) != len(seeds):
        raise argparse.ArgumentTypeError(f"{text!r} names a seed twice")
    return seeds


def register(subparsers) -> None:
    from nnaccel.boards.targets import DESIGNS, TARGETS

    from .cli_models import add_output_arg
    p = subparsers.add_parser("synth", help="synthesize the accelerator RTL (Yosys, nextpnr) and report resources",
                              description="Synthesize a block of the accelerator for an FPGA and print LUT4s, "
                                          "DSP multipliers, block RAMs, flip-flops and (with --pnr) fmax "
                                          "and each clock's critical path. Exit 1 when the design does not "
                                          "fit the device or place and route fails.")
    p.add_argument("--config", default=DEFAULT_CONFIG,
                   help=f"preset name or .toml/.json file (default {DEFAULT_CONFIG})")
    p.add_argument("--target", choices=sorted(TARGETS),
                   help="FPGA target (default: the one the preset is meant for: "
                        + ", ".join(f"{t.name} for {'/'.join(t.presets)}" for t in TARGETS.values() if t.presets)
                        + "; ecp5 otherwise)")
    p.add_argument("--design", choices=DESIGNS, default="core",
                   help="core (default): the accelerator with its scratchpads at their minimum sizes; "
                        "top: with the preset's scratchpads (a memory with more ports than block RAM "
                        "offers becomes flip-flops; when those alone exceed the device, it stops at once "
                        "and says which); or one block (mbqm: one vector lane's fixed-point multiply)")
    p.add_argument("--pnr", action="store_true", help="also place and route with nextpnr and report fmax")
    p.add_argument("--freq", type=float, default=12.0, metavar="MHZ",
                   help="the clock nextpnr aims for with --pnr (default 12); the report gives the fmax reached")
    seed = p.add_mutually_exclusive_group()
    seed.add_argument("--seed", type=int, metavar="N", help="nextpnr's placement seed (default: nextpnr's own)")
    seed.add_argument("--seeds", type=_seed_list, metavar="N,N,...",
                      help="place and route once per seed (Yosys once) and print each seed's fmax, the median "
                           "and the best; the rest of the report is the best seed's")
    p.add_argument("--timeout", type=float, default=1800, metavar="SECONDS",
                   help="give up a Yosys / nextpnr run after this long (default 1800)")
    p.add_argument("--breakdown", action="store_true",
                   help="also estimate where the LUTs go, per source section of the RTL (a second, quick "
                        "Yosys run on the unmapped netlist)")
    p.add_argument("--breakdown-lines", type=int, default=25, metavar="N",
                   help="sections listed with --breakdown (default 25; the rest summed)")
    p.add_argument("--workdir", metavar="DIR",
                   help="run in DIR and keep its files: the netlists, yosys.log and nextpnr.log (every step "
                        "of each clock's critical path); default: a fresh directory, removed after a success")
    add_output_arg(p, "--json", what="results file", metavar="FILE",
                   help="write the report as JSON (keys lut, dsp, bram, fmax_mhz, ...)")
    p.set_defaults(func=cmd_synth)
