"""Engine timelines as Chrome trace-event JSON (the format Perfetto and ``chrome://tracing`` open).

A trace shows the ISA simulator's exact schedule (:class:`nnaccel.sim.isasim.Schedule`) of every
accelerator segment a run executed, or the RTL's (:class:`nnaccel.sim.rtl_runner.RtlSchedule`:
each instruction's start and end as its engine signalled them; no fetch track, fetch stalls or
token waits, which the RTL does not report): one track per engine queue (load, compute, vector, store) with a
slice per instruction from its start to its end cycle, the token waits before it on the same track,
the fetch unit's track (one slice per instruction in the cycle it is fetched, and its stalls on a
full queue), and a track of the source operations (one slice per layer: the span of its
instructions). One trace microsecond is one accelerator cycle; segments follow one another on the
timeline in the order the run executed them (host operations between them take no accelerator
cycles and are not shown).
"""

from __future__ import annotations

from nnaccel.sim.isasim import decode_program

from nnaccel.isa import QUEUES, bytes_to_words
from nnaccel.isa.table import FETCH_CYCLES, FLAG_CHANNEL

#: Track (trace ``tid``) of each row of the timeline, top to bottom.
TRACKS = ("operations", "fetch", *QUEUES, "fetch stall")
_TID = {name: n + 1 for n, name in enumerate(TRACKS)}


def _slice(name, cat, track, ts, dur, args):
    return {"name": name, "cat": cat, "ph": "X", "pid": 1, "tid": _TID[track], "ts": int(ts),
            "dur": int(dur), "args": args}


def _op_of(layers):
    """pc -> (operation index, type, pass) from a segment's layer list."""
    out = {}
    for lay in layers:
        for pc in range(lay["first"], lay["last"] + 1):
            out[pc] = (lay["op"], lay["type"], lay["pass"])
    return out


def segment_events(decoded, sched, layers=(), offset: int = 0, segment: int = 0) -> list[dict]:
    """The trace events of one segment's schedule, its cycle 0 at ``offset`` (a schedule whose
    ``fetch`` is None, the RTL's, gives the instruction and operation slices only)."""
    ops = _op_of(layers)
    fetched = sched.fetch is not None
    ev = [_slice(f"segment {segment}", "segment", "operations", offset, sched.total_cycles,
                 {"segment": segment, "cycles": int(sched.total_cycles), "instructions": len(decoded)})]
    for lay in layers:
        a, b = lay["first"], lay["last"] + 1
        ok = [pc for pc in range(a, b) if sched.start[pc] >= 0]
        if ok:
            s0 = min(int(sched.start[pc]) for pc in ok)
            e1 = max(int(sched.end[pc]) for pc in ok)
            label = f"op {lay['op']} {lay['type']}" + (f" pass {lay['pass']}" if lay["pass"] else "")
            ev.append(_slice(label, "operation", "operations", offset + s0, e1 - s0,
                             {"op": lay["op"], "type": lay["type"], "pass": lay["pass"], "first_pc": a,
                              "last_pc": b - 1}))
    for pc, d in enumerate(decoded):
        s, e = int(sched.start[pc]), int(sched.end[pc])
        src = ops.get(pc)
        where = f"op {src[0]} {src[1]}" if src else "no operation"
        name = f"{d.name} ({where})"
        args = {"pc": pc, "instruction": d.name, "start": s, "end": e}
        if fetched:
            f = int(sched.fetch[pc])
            args.update(fetch=f, token_stall=int(sched.token_stall[pc]), fetch_stall=int(sched.fetch_stall[pc]))
        if src:
            args.update(op=src[0], type=src[1], op_pass=src[2])
        if fetched:
            ev.append(_slice(name, "fetch", "fetch", offset + f, 1, dict(args, fetch_cycles=FETCH_CYCLES[d.name])))
        if fetched and sched.fetch_stall[pc]:
            ev.append(_slice(f"queue full before {d.name}", "fetch_stall", "fetch stall",
                             offset + f - int(sched.fetch_stall[pc]), int(sched.fetch_stall[pc]), args))
        if d.name == "FINISH" or s < 0:
            continue
        q = d.queue
        ts = int(sched.token_stall[pc]) if fetched else 0
        if ts:
            chans = [FLAG_CHANNEL[(q, fl)] for fl in ("pop_prev", "pop_next") if d.fields[fl]]
            ev.append(_slice(f"wait {'+'.join(chans)} for {d.name}", "token_wait", q, offset + s - ts, ts,
                             dict(args, channels=chans)))
        ev.append(_slice(name, "instruction", q, offset + s, e - s, args))
    return ev


def build_trace(runs, config_name: str = "", source: str = "isa") -> dict:
    """The trace of ``runs``: a list of ``(decoded, schedule, layers)``, one per segment run;
    ``source``: whose schedule (``isa`` or ``rtl``)."""
    events = [{"name": "process_name", "ph": "M", "pid": 1, "tid": 0,
               "args": {"name": f"accelerator {config_name} ({source})".replace("  ", " ")}}]
    for track, tid in _TID.items():
        events.append({"name": "thread_name", "ph": "M", "pid": 1, "tid": tid, "args": {"name": track}})
        events.append({"name": "thread_sort_index", "ph": "M", "pid": 1, "tid": tid, "args": {"sort_index": tid}})
    offset = 0
    for k, (decoded, sched, layers) in enumerate(runs):
        events += segment_events(decoded, sched, layers, offset, k)
        offset += int(sched.total_cycles)
    return {"traceEvents": events, "displayTimeUnit": "ns",
            "otherData": {"time_unit": "1 trace microsecond = 1 accelerator cycle", "config": config_name,
                          "schedule": "ISA simulator" if source == "isa" else "RTL (Verilator)",
                          "segments": len(runs), "cycles": offset}}


class TraceRecorder:
    """Collects the schedule of every segment a :class:`nnaccel.firmware.runtime.Runtime` runs
    (pass :meth:`on_segment` as its ``on_segment`` hook), then :meth:`trace` / :meth:`write`."""

    def __init__(self, source: str = "isa"):
        self.cfg = None
        self.runs = []
        self.source = source

    def on_segment(self, cfg, seg, words, sched) -> None:
        if sched is None:
            raise ValueError("The backend gives no schedule; a trace needs the isa backend, or the rtl "
                             "backend with its schedule recorded (run_on_backend(..., rtl_schedule=True)).")
        self.cfg = cfg
        self.runs.append((decode_program(bytes_to_words(words), cfg), sched, seg.get("layers", [])))

    def trace(self) -> dict:
        return build_trace(self.runs, self.cfg.name if self.cfg else "", self.source)

    def write(self, path) -> dict:
        from nnaccel.ioutil import write_json
        tr = self.trace()
        write_json(path, tr, "trace file", indent=None)
        return tr


def package_runs(pkg) -> list:
    """``(decoded, schedule, layers)`` of every segment of a package, from the ISA simulator's
    schedule (:func:`nnaccel.sim.isasim.schedule`: the cycles follow from the instructions alone)."""
    from nnaccel.sim.isasim import schedule
    cfg = pkg.config()
    runs = []
    for seg in pkg.manifest["segments"]:
        decoded = decode_program(bytes_to_words(pkg.segment_words(seg)), cfg)
        runs.append((decoded, schedule(decoded, cfg), seg.get("layers", [])))
    return runs
