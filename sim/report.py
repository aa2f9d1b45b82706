"""Per-layer figures of a program package from the ISA cycle model: ``nnaccel report`` (no data
needed: every cycle of this ISA follows from the instruction fields and the configuration) and the
runtime's per-segment report share them.

Two MAC figures stand side by side: ``macs`` (*issued*, the ``macs`` counter: a streamed line
counts ``rows x cols`` MACs per K tile even where channels are padding or a weight tile is mostly
zeros) with ``utilization = macs / (cycles x rows x cols)``, and ``useful_macs`` (the model's own
multiply-adds by the operations' definitions, :func:`nnaccel.macs.useful_macs`) with
``useful_utilization = useful_macs / (cycles x rows x cols)``. An operation lowered in several
passes divides its useful MACs among them in proportion to their issued MACs; per operation, per
segment and in total the useful figures are exact.
"""

from __future__ import annotations

from nnaccel.hwconfig import HwConfig
from nnaccel.isa import bytes_to_words
from nnaccel.isa.cycles import static_totals
from nnaccel.macs import layer_useful_macs, split_by_weight

from .isasim import Schedule, decode_program, schedule


def static_counts(cfg: HwConfig, decoded) -> tuple[int, int]:
    """(MACs, DMA bytes) of a list of decoded instructions, as the counters define them."""
    tot = static_totals(decoded, cfg)
    return tot.get("macs", 0), tot.get("dma_load_bytes", 0) + tot.get("dma_store_bytes", 0)


def decode_segment(pkg, seg: dict) -> list:
    """The decoded instructions of one segment of a package."""
    return decode_program(bytes_to_words(pkg.segment_words(seg)), pkg.config())


def rate(macs: int, cycles: int, cfg: HwConfig) -> float:
    """``macs / (cycles x rows x cols)``, 0 for a run of no cycles."""
    return macs / (cycles * cfg.rows * cfg.cols) if cycles else 0.0


def figures(cfg: HwConfig, cycles: int, macs: int, useful: int) -> dict:
    """The cycle and MAC figures of a layer, a segment or a total, issued and useful."""
    return {"cycles": cycles, "macs": macs, "utilization": rate(macs, cycles, cfg),
            "useful_macs": useful, "useful_utilization": rate(useful, cycles, cfg)}


def layer_span(sch: Schedule, lay: dict, prev_end: int | None) -> tuple[int, int] | None:
    """The span ``(start, end)`` of layer ``lay`` (a manifest entry) in the schedule ``sch``: it
    ends with its last instruction's end and starts with its first instruction's start, except
    where that is a prefetch (the constant LOADs of the layer that may run during the layer
    before, filters and parameters; the manifest's ``own`` names the layer's first instruction
    that is not one): then it starts with the earlier of the start of the layer's first other
    instruction and the end of the layer before (``prev_end``), not before the first
    instruction's start. A prefetch hidden under the layer before is not counted, its other
    instructions that overlap the layer before are; None for a layer that never ran."""
    a, own, b = lay["first"], lay.get("own", lay["first"]), lay["last"] + 1
    ok = sch.start[a:b] >= 0
    if not ok.any():
        return None
    first, end = int(sch.start[a:b][ok].min()), int(sch.end[a:b][ok].max())
    rest = sch.start[own:b][sch.start[own:b] >= 0]
    if own == a or prev_end is None or not len(rest):
        return first, end
    return max(first, min(int(rest.min()), prev_end)), end


def layer_figures(cfg: HwConfig, seg: dict, decoded: list, sch: Schedule, useful: dict | None = None) -> list[dict]:
    """Per layer (operation pass) of a segment: cycles of its span in the schedule ``sch``
    (:func:`layer_span`), MACs issued, useful MACs (``useful``: operation -> its useful MACs),
    both utilizations and DMA bytes."""
    useful = useful or {}
    layers = []
    prev_end = None
    for lay in seg["layers"]:
        a, b = lay["first"], lay["last"] + 1
        span = layer_span(sch, lay, prev_end)
        c = span[1] - span[0] if span else 0
        if span:
            prev_end = span[1]
        macs, dma = static_counts(cfg, decoded[a:b])
        layers.append({"op": lay["op"], "type": lay["type"], "pass": lay["pass"], "cycles": c, "macs": macs,
                       "dma_bytes": dma})
    by_op: dict[int, list[dict]] = {}
    for lay in layers:
        by_op.setdefault(lay["op"], []).append(lay)
    for op, lays in by_op.items():
        for lay, u in zip(lays, split_by_weight(useful.get(op, 0), [x["macs"] for x in lays])):
            lay.update(figures(cfg, lay["cycles"], lay["macs"], u))
    return [{k: lay[k] for k in ("op", "type", "pass", "cycles", "macs", "utilization", "useful_macs",
                                 "useful_utilization", "dma_bytes")} for lay in layers]


def segment_useful(seg: dict, useful: dict) -> int:
    """The useful MACs of a segment's operations."""
    return sum(useful.get(i, 0) for i in seg["operations"])


def total_figures(cfg: HwConfig, segs: list[dict]) -> dict:
    """The totals of a report's segments."""
    return figures(cfg, sum(s["cycles"] for s in segs), sum(s["macs"] for s in segs),
                   sum(s["useful_macs"] for s in segs))


def static_report(pkg) -> dict:
    """Per layer (operation pass): where it runs, cycles, MACs issued and useful, both
    utilizations, DMA bytes; per segment and in total; the host / accelerator split."""
    cfg = pkg.config()
    m = pkg.manifest
    useful = layer_useful_macs(pkg.model().main)
    segs = []
    for seg in m["segments"]:
        decoded = decode_segment(pkg, seg)
        sch = schedule(decoded, cfg)
        layers = layer_figures(cfg, seg, decoded, sch, useful)
        segs.append({"index": seg["index"],
                     **figures(cfg, sch.total_cycles, sum(x["macs"] for x in layers), segment_useful(seg, useful)),
                     "instructions": len(decoded), "operations": seg["operations"], "layers": layers})
    return {"model": m["model"], "config": cfg.name, "total": total_figures(cfg, segs),
            "segments": segs, "accelerator_ops": m["accelerator_ops"], "host_ops": m["host_ops"],
            "host_useful_macs": sum(useful.get(h["index"], 0) for h in m["host_ops"])}


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def format_report(rep: dict) -> str:
    lines = [f"model {rep['model']} on {rep['config']}",
             (f"{'op':>4} {'type':<22} {'where':<12} {'cycles':>10} {'MACs issued':>12} {'util':>6} "
              f"{'useful MACs':>12} {'useful':>6} {'DMA bytes':>10}")]
    rows = []
    for s in rep["segments"]:
        for lay in s["layers"]:
            where = f"accel seg {s['index']}" + (f" p{lay['pass']}" if lay["pass"] else "")
            rows.append((lay["op"], lay["type"], where, lay["cycles"], lay["macs"], _pct(lay["utilization"]),
                         lay["useful_macs"], _pct(lay["useful_utilization"]), lay["dma_bytes"]))
    shown = {r[0] for r in rows}
    for a in rep["accelerator_ops"]:
        if a["index"] not in shown:  # layout no-ops and fused activations emit no instruction
            rows.append((a["index"], a["type"], "accel no-op", 0, 0, "-", 0, "-", 0))
    for h in rep["host_ops"]:
        rows.append((h["index"], h["type"], "host", *["-"] * 6))
    for r in sorted(rows, key=lambda r: r[0]):
        lines.append(f"{r[0]:>4} {r[1]:<22} {r[2]:<12} {r[3]:>10} {r[4]:>12} {r[5]:>6} {r[6]:>12} {r[7]:>6} "
                     f"{r[8]:>10}")
    t = rep["total"]
    lines.append(f"total: {t['cycles']} cycles, {t['macs']} MACs issued (utilization {_pct(t['utilization'])}), "
                 f"{t['useful_macs']} useful MACs (useful utilization {_pct(t['useful_utilization'])}); "
                 f"{len(rep['accelerator_ops'])} operations on the accelerator in {len(rep['segments'])} "
                 f"segments, {len(rep['host_ops'])} on the host")
    if rep.get("host_useful_macs"):
        lines.append(f"  the host operations hold {rep['host_useful_macs']} more useful MACs")
    lines.append("  (utilization = MACs / (cycles x rows x cols); issued MACs count padding lanes and channels, "
                 "useful MACs the model's own multiply-adds)")
    for h in rep["host_ops"]:
        if h.get("reason"):
            lines.append(f"  host op {h['index']} {h['type']}: {h['reason']}")
    return "\n".join(lines)
