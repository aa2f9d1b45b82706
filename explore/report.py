"""``nnaccel report --html``: a package's per-layer figures, host / accelerator split and engine
timeline as one self-contained HTML page (figures embedded as SVG / PNG data URIs)."""

from __future__ import annotations

import base64
import json

from nnaccel.sim.report import static_report

from . import html, plots
from .trace import build_trace, package_runs

#: A trace larger than this is not embedded as a download link (the page stays small).
MAX_EMBEDDED_TRACE = 4 * 1024 * 1024


def layer_rows(rep: dict) -> list[dict]:
    """One row per accelerator layer (operation pass) of a static report, then the host operations."""
    rows = []
    for s in rep["segments"]:
        for lay in s["layers"]:
            label = f"{lay['op']} {lay['type']}" + (f" p{lay['pass']}" if lay["pass"] else "")
            rows.append({"op": lay["op"], "type": lay["type"], "where": f"accelerator, segment {s['index']}",
                         "label": label, "cycles": lay["cycles"], "macs": lay["macs"],
                         "utilization": lay["utilization"], "dma_bytes": lay["dma_bytes"]})
    shown = {r["op"] for r in rows}
    for a in rep["accelerator_ops"]:
        if a["index"] not in shown:  # layout no-ops and fused activations emit no instruction
            rows.append({"op": a["index"], "type": a["type"], "where": "accelerator, no instruction", "label": "",
                         "cycles": 0, "macs": 0})
    for h in rep["host_ops"]:
        rows.append({"op": h["index"], "type": h["type"], "where": "host", "label": "",
                     "reason": h.get("reason", "")})
    return sorted(rows, key=lambda r: (r["op"], r["where"] == "host"))


def html_report(pkg) -> str:
    """The page for package ``pkg``."""
    rep = static_report(pkg)
    rows = layer_rows(rep)
    accel = [r for r in rows if r["label"]]
    trace = build_trace(package_runs(pkg), rep["config"])
    t = rep["total"]
    body = [(f"<p>Model <b>{html.esc(rep['model'])}</b> on configuration <b>{html.esc(rep['config'])}</b>: "
            f"{t['cycles']:,} accelerator cycles, {t['macs']:,} MACs, issued MAC utilization "
            f"{100 * t['utilization']:.1f}% (MACs issued / (cycles x rows x cols); the array's padding lanes "
            f"count as issued); {len(rep['accelerator_ops'])} operations on the accelerator in "
            f"{len(rep['segments'])} segments, {len(rep['host_ops'])} on the host. Cycles are the ISA "
            f"simulator's exact schedule; host operations are not timed.</p>")]
    body.append("<h2>Host / accelerator split</h2>")
    body.append(html.figure(plots.split_figure(len(rep["accelerator_ops"]), len(rep["host_ops"])), "svg",
                            "operations on the accelerator and on the host", "split"))
    body.append("<h2>Per layer</h2>")
    if accel:
        body.append(html.figure(plots.layer_figure(accel), "svg",
                                "cycles and issued MAC utilization per accelerator layer", "layers"))
    body.append(html.table(rows, ["op", "type", "where", "cycles", "macs", "utilization", "dma_bytes", "reason"],
                           ident="layer-table"))
    body.append("<h2>Engine timeline</h2>")
    if rep["segments"]:
        body.append(html.figure(plots.timeline_figure(trace), "png",
                                "every instruction per engine queue (blue), token waits (red), fetch (gray), "
                                "fetch stalls (orange), operations (green)", "timeline"))
        data = json.dumps(trace).encode()
        if len(data) <= MAX_EMBEDDED_TRACE:
            body.append('<p><a download="timeline.json" href="data:application/json;base64,'
                        f'{base64.b64encode(data).decode()}">timeline.json</a> (Chrome trace-event format: '
                        "open it in Perfetto or chrome://tracing).</p>")
        else:
            body.append("<p>The timeline is too large to embed; write it with <code>nnaccel run --backend isa "
                        "--trace FILE.json</code>.</p>")
    else:
        body.append("<p>No accelerator segment: every operation runs on the host.</p>")
    return html.page(f"nnaccel report: {rep['model']} on {rep['config']}", "\n".join(body))
