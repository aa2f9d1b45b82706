"""Per-layer figures of a program package from the ISA cycle model: ``nnaccel report`` (no data
needed: every cycle of this ISA follows from the instruction fields and the configuration) and the
runtime's per-segment report share them."""

from __future__ import annotations

from nnaccel.hwconfig import HwConfig
from nnaccel.isa import bytes_to_words

from .isasim import Schedule, decode_program, schedule, static_totals


def static_counts(cfg: HwConfig, decoded) -> tuple[int, int]:
    """(MACs, DMA bytes) of a list of decoded instructions, as the counters define them."""
    tot = static_totals(decoded, cfg)
    return tot.get("macs", 0), tot.get("dma_load_bytes", 0) + tot.get("dma_store_bytes", 0)


def decode_segment(pkg, seg: dict) -> list:
    """The decoded instructions of one segment of a package."""
    return decode_program(bytes_to_words(pkg.segment_words(seg)), pkg.config())


def layer_figures(cfg: HwConfig, seg: dict, decoded: list, sch: Schedule) -> list[dict]:
    """Per layer (operation pass) of a segment: cycles from its first instruction's start to its
    last one's end in the schedule ``sch``, MACs, utilization and DMA bytes."""
    peak = cfg.rows * cfg.cols
    layers = []
    for lay in seg["layers"]:
        a, b = lay["first"], lay["last"] + 1
        ok = sch.start[a:b] >= 0
        c = int(sch.end[a:b][ok].max() - sch.start[a:b][ok].min()) if ok.any() else 0
        macs, dma = static_counts(cfg, decoded[a:b])
        layers.append({"op": lay["op"], "type": lay["type"], "pass": lay["pass"], "cycles": c, "macs": macs,
                       "utilization": macs / (c * peak) if c else 0.0, "dma_bytes": dma})
    return layers


def static_report(pkg) -> dict:
    """Per layer (operation pass): where it runs, cycles, MACs, utilization, DMA bytes; per
    segment and in total; the host / accelerator split."""
    cfg = pkg.config()
    peak = cfg.rows * cfg.cols
    m = pkg.manifest
    segs = []
    for seg in m["segments"]:
        decoded = decode_segment(pkg, seg)
        sch = schedule(decoded, cfg)
        layers = layer_figures(cfg, seg, decoded, sch)
        macs = sum(x["macs"] for x in layers)
        segs.append({"index": seg["index"], "cycles": sch.total_cycles, "macs": macs,
                     "utilization": macs / (sch.total_cycles * peak) if sch.total_cycles else 0.0,
                     "instructions": len(decoded), "operations": seg["operations"], "layers": layers})
    cyc = sum(s["cycles"] for s in segs)
    macs = sum(s["macs"] for s in segs)
    return {"model": m["model"], "config": cfg.name,
            "total": {"cycles": cyc, "macs": macs, "utilization": macs / (cyc * peak) if cyc else 0.0},
            "segments": segs, "accelerator_ops": m["accelerator_ops"], "host_ops": m["host_ops"]}


def format_report(rep: dict) -> str:
    lines = [f"model {rep['model']} on {rep['config']}",
             f"{'op':>4} {'type':<22} {'where':<12} {'cycles':>10} {'MACs':>12} {'util':>6} {'DMA bytes':>10}"]
    rows = []
    for s in rep["segments"]:
        for lay in s["layers"]:
            where = f"accel seg {s['index']}" + (f" p{lay['pass']}" if lay["pass"] else "")
            rows.append((lay["op"], lay["type"], where, lay["cycles"], lay["macs"],
                         f"{100 * lay['utilization']:.1f}%", lay["dma_bytes"]))
    shown = {r[0] for r in rows}
    for a in rep["accelerator_ops"]:
        if a["index"] not in shown:  # layout no-ops and fused activations emit no instruction
            rows.append((a["index"], a["type"], "accel no-op", 0, 0, "-", 0))
    for h in rep["host_ops"]:
        rows.append((h["index"], h["type"], "host", "-", "-", "-", "-"))
    for r in sorted(rows, key=lambda r: r[0]):
        lines.append(f"{r[0]:>4} {r[1]:<22} {r[2]:<12} {r[3]:>10} {r[4]:>12} {r[5]:>6} {r[6]:>10}")
    t = rep["total"]
    lines.append(f"total: {t['cycles']} cycles, {t['macs']} MACs, utilization {100 * t['utilization']:.1f}%; "
                 f"{len(rep['accelerator_ops'])} operations on the accelerator in {len(rep['segments'])} "
                 f"segments, {len(rep['host_ops'])} on the host")
    for h in rep["host_ops"]:
        if h.get("reason"):
            lines.append(f"  host op {h['index']} {h['type']}: {h['reason']}")
    return "\n".join(lines)
