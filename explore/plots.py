"""Matplotlib figures of sweeps and reports, rendered off screen (Agg) to PNG or SVG bytes."""

from __future__ import annotations

import io

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt


def figure_bytes(fig, fmt: str = "png") -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format=fmt, dpi=110, bbox_inches="tight")
    plt.close(fig)
    return buf.getvalue()


def pareto_front(points):
    """The (x, y) points no other point beats: x no larger and y no smaller (x minimized, y
    maximized), sorted by x."""
    front, best = [], None
    for x, y in sorted(points, key=lambda p: (p[0], -p[1])):
        if best is None or y > best:
            front.append((x, y))
            best = y
    return front


def pareto_figure(rows, fmt: str = "png") -> bytes:
    """Inferences per second (or, without a clock, per million cycles) against LUTs and DSPs (or,
    without synthesis, the array's PE count), one column per model; the points that fit the device
    filled, those that do not hollow, the front dashed. Rows with status ok or "does not fit"."""
    models = sorted({r["model"] for r in rows}) or [""]
    have_lut = any(r.get("lut") for r in rows)
    have_rate = any(r.get("inferences_per_s") for r in rows)
    xs = ([("lut", "LUTs"), ("dsp", "DSPs")] if have_lut else
          [("pes", "PEs (rows x cols; no synthesis: --synth gives LUTs)")])
    fig, axes = plt.subplots(len(xs), len(models), figsize=(5.2 * len(models), 4.2 * len(xs)), squeeze=False)
    for col, name in enumerate(models):
        for (key, label), ax in zip(xs, axes[:, col]):
            pts = [(r[key], r["inferences_per_s"] if have_rate else 1e6 / r["cycles"], r.get("fits") is not False,
                    r["point"]) for r in rows
                   if r["model"] == name and r.get("cycles") and r["status"] in ("ok", "does not fit")
                   and r.get(key) is not None and (r.get("inferences_per_s") or not have_rate)]
            _pareto_panel(ax, pts, have_lut)
            ax.set_title(name, fontsize=10)
            ax.set_xlabel(label)
            ax.set_ylabel("inferences / s (accelerator cycles)" if have_rate else
                          "inferences per 10^6 cycles (no clock known)")
    fig.tight_layout()
    return figure_bytes(fig, fmt)


def _pareto_panel(ax, pts, have_lut: bool) -> None:
    fit = [(x, y) for x, y, f, _ in pts if f]
    nofit = [(x, y) for x, y, f, _ in pts if not f]
    if fit:
        ax.scatter(*zip(*fit), c="tab:blue", label="fits the device" if have_lut else "point", zorder=3)
    if nofit:
        ax.scatter(*zip(*nofit), facecolors="none", edgecolors="tab:red", label="does not fit", zorder=3)
    front = pareto_front([(x, y) for x, y, _, _ in pts])
    if len(front) > 1:
        ax.plot(*zip(*front), c="tab:gray", lw=1, ls="--", label="Pareto front")
    for x, y, _, p in pts:
        ax.annotate(str(p), (x, y), textcoords="offset points", xytext=(4, 4), fontsize=7)
    ax.grid(alpha=0.3)
    if pts:
        ax.legend(fontsize=7)


def layer_figure(layers, fmt: str = "svg") -> bytes:
    """Per-layer bars: cycles, and issued MAC utilization (``layers``: dicts with ``label``,
    ``cycles``, ``utilization``)."""
    n = max(len(layers), 1)
    fig, (a1, a2) = plt.subplots(2, 1, figsize=(max(6, 0.45 * n + 2), 6), sharex=True)
    labels = [lay["label"] for lay in layers]
    xs = range(len(layers))
    a1.bar(xs, [lay["cycles"] for lay in layers], color="tab:blue")
    a1.set_ylabel("cycles")
    a1.set_title("per layer: cycles")
    a2.bar(xs, [100 * lay["utilization"] for lay in layers], color="tab:orange")
    a2.set_ylabel("issued MAC utilization (%)")
    a2.set_ylim(0, 100)
    a2.set_xticks(list(xs), labels, rotation=60, ha="right", fontsize=7)
    for ax in (a1, a2):
        ax.grid(axis="y", alpha=0.3)
    return figure_bytes(fig, fmt)


def split_figure(accel_ops: int, host_ops: int, fmt: str = "svg") -> bytes:
    """The host / accelerator split of a model's operations."""
    fig, ax = plt.subplots(figsize=(5, 1.6))
    ax.barh([0], [accel_ops], color="tab:green", label=f"accelerator ({accel_ops})")
    ax.barh([0], [host_ops], left=[accel_ops], color="tab:gray", label=f"host ({host_ops})")
    ax.set_yticks([])
    ax.set_xlabel("operations")
    ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.5), ncol=2)
    return figure_bytes(fig, fmt)


def timeline_figure(trace: dict, fmt: str = "png", max_slices: int = 20000) -> bytes:
    """The engine timeline of a trace (:func:`nnaccel.explore.trace.build_trace`): one row per track."""
    names = {e["tid"]: e["args"]["name"] for e in trace["traceEvents"] if e.get("name") == "thread_name"}
    order = sorted(names)
    colors = {"segment": "lightgray", "operation": "tab:green", "instruction": "tab:blue",
              "token_wait": "tab:red", "fetch": "tab:gray", "fetch_stall": "tab:orange"}
    fig, ax = plt.subplots(figsize=(11, 0.45 * len(order) + 1.2))
    slices = [e for e in trace["traceEvents"] if e["ph"] == "X"][:max_slices]
    for cat, color in colors.items():
        h = 0.8 if cat != "segment" else 0.3    # a segment: a thin bar under its operations
        for row, tid in enumerate(order):
            spans = [(e["ts"], max(e["dur"], 1)) for e in slices if e["tid"] == tid and e["cat"] == cat]
            if spans:
                ax.broken_barh(spans, (len(order) - 1 - row - 0.4, h), facecolors=color, edgecolor="none")
    ax.set_yticks(range(len(order)), [names[t] for t in reversed(order)])
    ax.set_xlabel("cycle")
    handles = [matplotlib.patches.Patch(color=c, label=k.replace("_", " ")) for k, c in colors.items()]
    ax.legend(handles=handles, fontsize=7, ncol=6, loc="upper center", bbox_to_anchor=(0.5, -0.25))
    ax.set_title("engine timeline (ISA simulator schedule)")
    return figure_bytes(fig, fmt)
