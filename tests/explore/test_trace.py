"""``nnaccel run --trace``: valid Chrome trace-event JSON whose slices are the ISA simulator's
schedule, checked against the run's performance counters (busy, stall and cycle counts); on the
rtl backend, slices from the RTL's own engine signals that equal the ISA simulator's."""

import json
from collections import defaultdict
from itertools import pairwise

import pytest
from nnaccel.compiler.reference_models import mlp, small_cnn

from nnaccel.cli import main
from nnaccel.formats import save_models
from nnaccel.isa import QUEUES
from nnaccel.isa.table import ARRAY_KINDS

#: The busy counter of each queue and the instructions it counts (None: all; docs/isa.md, the
#: counter table: a NOP counts as busy on the load and store queues only).
BUSY = {"load": ("load_busy", None), "compute": ("array_busy", {"GEMM"}), "vector": ("vector_busy", {"VEC"}),
        "store": ("store_busy", None)}


def check_format(tr: dict) -> dict:
    """Checks the trace-event format; returns {track name: [slices sorted by ts]}."""
    assert set(tr) >= {"traceEvents"}
    names = {}
    tracks = defaultdict(list)
    for e in tr["traceEvents"]:
        assert isinstance(e["name"], str) and e["ph"] in ("X", "M") and isinstance(e["pid"], int)
        if e["ph"] == "M":
            if e["name"] == "thread_name":
                names[e["tid"]] = e["args"]["name"]
            continue
        assert isinstance(e["ts"], int) and isinstance(e["dur"], int) and e["ts"] >= 0 and e["dur"] >= 0
        tracks[e["tid"]].append(e)
    out = {}
    for tid, evs in tracks.items():
        evs.sort(key=lambda e: (e["ts"], -e["dur"]))
        out[names[tid]] = evs
    for q in QUEUES:  # an engine runs one instruction at a time: its slices never overlap
        evs = out.get(q, [])
        for a, b in pairwise(evs):
            if q == "compute" and a["cat"] == "instruction" and a["name"].split()[0] in ARRAY_KINDS:
                # (but for the ISA's array overlap: the next one, or its token wait, starts while
                # its results drain)
                assert a["ts"] < b["ts"], (q, a, b)
            else:
                assert a["ts"] + a["dur"] <= b["ts"], (q, a, b)
    return out


@pytest.mark.parametrize("config,build", [("small", small_cnn), ("base", small_cnn), ("tiny", mlp)])
def test_trace_slices_equal_the_schedule(tmp_path, capsys, config, build):
    model = tmp_path / "m.json"
    save_models([build()], model)
    trace, report = tmp_path / "t.json", tmp_path / "r.json"
    assert main(["run", str(model), "--backend", "isa", "--config", config, "--trace", str(trace),
                 "--report", str(report)]) == 0
    tr = json.loads(trace.read_text())
    rep = json.loads(report.read_text())
    tracks = check_format(tr)
    segs = rep["segments"]
    assert segs and tr["otherData"]["segments"] == len(segs)
    # the segments follow one another; split the slices by segment with the segment track
    bounds = [(e["ts"], e["ts"] + e["dur"]) for e in tracks["operations"] if e["cat"] == "segment"]
    assert len(bounds) == len(segs)
    stalls = 0
    for (lo, hi), seg in zip(bounds, segs):
        c = seg["counters"]
        stalls += sum(c[f"{q}_token_stall"] for q in QUEUES) + c["fetch_stall"]
        assert hi - lo == seg["cycles"] == c["cycles"]

        def inside(track, cat, lo=lo, hi=hi):
            return [e for e in tracks.get(track, []) if e["cat"] == cat and lo <= e["ts"] < hi]
        for q in QUEUES:
            counter, counted = BUSY[q]
            busy = [e for e in inside(q, "instruction") if counted is None or e["args"]["instruction"] in counted]
            assert sum(e["dur"] for e in busy) == c[counter], q
            assert sum(e["dur"] for e in inside(q, "token_wait")) == c[f"{q}_token_stall"], q
        assert sum(e["dur"] for e in inside("fetch stall", "fetch_stall")) == c["fetch_stall"]
        ins = [e for q in QUEUES for e in inside(q, "instruction")]
        assert len(ins) == c["instructions"]
        assert max(e["ts"] + e["dur"] for e in ins) <= hi
        # every slice is named by its instruction and source operation
        for e in ins:
            a = e["args"]
            assert e["name"].startswith(a["instruction"])
            if "op" in a:
                assert f"op {a['op']} {a['type']}" in e["name"]
    assert max(e["ts"] + e["dur"] for evs in tracks.values() for e in evs) == rep["total"]["cycles"]
    assert stalls > 0 or config == "tiny"   # the out-of-order machines wait on tokens / full queues


def test_trace_needs_the_isa_backend(tmp_path, capsys):
    model = tmp_path / "m.json"
    save_models([mlp()], model)
    assert main(["run", str(model), "--backend", "golden", "--trace", str(tmp_path / "t.json")]) == 2
    assert "--trace needs --backend isa" in capsys.readouterr().err
    assert not (tmp_path / "t.json").exists()


@pytest.mark.rtl
@pytest.mark.slow
@pytest.mark.parametrize("config,build", [pytest.param("tiny", mlp, marks=pytest.mark.ci_slow), ("small", small_cnn)])
def test_rtl_trace_slices_equal_the_isa_schedule(tmp_path, capsys, config, build):
    """``--backend rtl --trace``: each instruction's slice comes from the cycles in which the RTL's
    engine for its queue raised start and complete (a probed Verilator build), the operation slices
    from those; every one equals the ISA simulator's (cycle-exact), on the in-order tiny machine and
    the queued small one. The RTL has no fetch track, fetch stalls or token waits."""
    model = tmp_path / "m.json"
    save_models([build()], model)
    traces = {}
    for backend in ("isa", "rtl"):
        traces[backend] = tmp_path / f"{backend}.json"
        assert main(["run", str(model), "--backend", backend, "--config", config,
                     "--trace", str(traces[backend])]) == 0
    isa, rtl = (check_format(json.loads(traces[b].read_text())) for b in ("isa", "rtl"))
    assert json.loads(traces["rtl"].read_text())["otherData"]["schedule"] == "RTL (Verilator)"
    assert set(rtl) == {"operations", *(q for q in QUEUES if q in isa)}

    def slices(tracks, track, cat):
        return [(e["name"], e["ts"], e["dur"], e["args"]["pc"] if "pc" in e["args"] else e["args"].get("op"))
                for e in tracks.get(track, []) if e["cat"] == cat]
    n = 0
    for q in QUEUES:
        want = slices(isa, q, "instruction")
        assert slices(rtl, q, "instruction") == want, q
        n += len(want)
    assert n > 20
    assert slices(rtl, "operations", "operation") == slices(isa, "operations", "operation")
    assert [(e["ts"], e["dur"]) for e in rtl["operations"] if e["cat"] == "segment"] == \
        [(e["ts"], e["dur"]) for e in isa["operations"] if e["cat"] == "segment"]
