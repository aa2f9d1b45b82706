"""The ISA simulator: decodes a program with the ISA table, computes its exact cycle schedule with
the queue model of ``docs/isa.md``, then executes it on NumPy scratchpads and external memory.

Two phases, because every fault of this ISA is decided from the instruction fields and the
hardware configuration alone:

1. **schedule** — decode + check every instruction up to FINISH (faults raise
   :class:`~nnaccel.isa.AcceleratorFault` with the instruction index), then compute each
   instruction's fetch / start / end cycle (queue depth, in-order engines, dependency tokens);
   a program whose queues wait on tokens that never come raises DEADLOCK.
2. **execute** — run the instructions' semantics in order of start cycle (ties: program order),
   one vectorized NumPy step per instruction. A race-free program (every overlap ordered by
   tokens) gives the same result in any order the tokens allow, and so does the hardware.

The simulator never imports the RTL.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from nnaccel.errors import BudgetError, InputError
from nnaccel.hwconfig import ELEMENT_BYTES, HwConfig, load_config
from nnaccel.isa import COUNTERS, VEC_BY_CODE, AcceleratorFault, bytes_to_words, decode
from nnaccel.isa.cycles import dma_geometry, instruction_cycles, static_events
from nnaccel.isa.footprint import Bytes, Lines, footprint
from nnaccel.isa.table import (
    ADD_LEFT_SHIFT,
    ARRAY_KINDS,
    BY_OPCODE,
    DMA_PRIORITY,
    DMA_QUEUES,
    FETCH_CYCLES,
    FLAG_CHANNEL,
    QUEUES,
    SPACE_ENUM,
    TOKEN_CHANNELS,
    array_overlap_on,
    array_overlaps,
    array_release,
    dw_window,
    rdperf_sample_cycle,
)
from nnaccel.quant import multiply_by_quantized_multiplier as mbqm
from nnaccel.quant import single_rounding_multiply, wrap_int32

_Q = {q: n for n, q in enumerate(QUEUES)}
#: (queue, flag) -> token channel.
_CHANNEL = FLAG_CHANNEL
_NQ = len(QUEUES)
_SPACE_DTYPE = {"ACT": np.uint8, "WGT": np.uint8, "ACC": np.int32, "VEC": np.int32}


def _ceil(a: int, b: int) -> int:
    return -(-a // b)


def _lines(base: int, nx: int, ny: int, xs: int, ys: int) -> np.ndarray:
    return Lines(base, nx, ny, xs, ys).lines()


def _dw_window(d) -> np.ndarray:
    """The ACT lines of a DWCONV's input window, in stream order."""
    h, w = dw_window(d)
    return _lines(d.act, w, h, 1, d.act_ys)


def _sext8(b: int) -> int:
    return b - 256 if b >= 128 else b


def _sext(v, bits: int):
    """The low ``bits`` bits of ``v`` as a signed value (``VecFunc.bits``: narrowed VEC parameters)."""
    v = np.asarray(v, np.int64) & ((1 << bits) - 1)
    return v - ((v & (1 << (bits - 1))) << 1)


# ----------------------------------------------------------------------- static checks + cycles
def _fault(name, pc, msg):
    raise AcceleratorFault(name, pc, msg)


def _check_range(cfg: HwConfig, pc: int, ins: str, space: str, what: str, lo: int, hi: int | None):
    if hi is not None and hi >= cfg.lines(space):
        _fault("SCRATCHPAD_RANGE", pc, f"{ins} {what} reaches {space} line {hi} (from line {lo}), but "
                                       f"the {space} scratchpad has {cfg.lines(space)} lines.")


def check_instruction(d, pc: int, cfg: HwConfig) -> None:
    """The configuration-dependent checks of one decoded instruction (faults raise): its own field
    rules, then every operand of its footprint (``nnaccel.isa.footprint``) inside its scratchpad
    or the DMA window."""
    name = d.name
    if name in ("LOAD", "STORE"):
        if d.len > cfg.line_elems:
            _fault("ILLEGAL_FIELD", pc, f"{name} len = {d.len} exceeds the line width of "
                                        f"{cfg.line_elems} elements.")
        if name == "LOAD" and (d.pad_top + d.pad_bottom > d.y_size or d.pad_left + d.pad_right > d.x_size):
            _fault("ILLEGAL_FIELD", pc, f"LOAD padding ({d.pad_top}+{d.pad_bottom} rows, "
                                        f"{d.pad_left}+{d.pad_right} lines) exceeds the "
                                        f"{d.y_size}x{d.x_size} box.")
    elif name == "DWCONV" and (d.fh > cfg.dw_line_buffers + 1 or d.fh * d.fw > cfg.rows):
        _fault("ILLEGAL_FIELD", pc, f"DWCONV of {d.fh} x {d.fw} taps: at most {cfg.dw_line_buffers + 1} "
                                    f"filter rows and {cfg.rows} taps.")
    elif name == "DWCONV" and (d.pad_top + d.pad_bottom >= d.fh or d.pad_left + d.pad_right >= d.fw
                               or (d.fh > 1 and d.nx <= d.pad_left + d.pad_right)):
        _fault("ILLEGAL_FIELD", pc, f"DWCONV padding ({d.pad_top}+{d.pad_bottom} rows, {d.pad_left}+"
                                    f"{d.pad_right} columns) of a {d.fh} x {d.fw} filter over {d.nx} "
                                    f"columns: at most {d.fh - 1} rows and {d.fw - 1} columns, and "
                                    f"with more than one filter row fewer columns than nx.")
    ins = f"VEC {VEC_BY_CODE[d.func].name}" if name == "VEC" else name
    for a in footprint(d, cfg):
        if a.space == "EXT":
            _check_window(cfg, pc, name, a.where.first, a.where.last)
        else:
            _check_range(cfg, pc, ins, a.space, a.what, a.where.base, a.where.last)


def _check_window(cfg: HwConfig, pc: int, name: str, lo: int, hi: int) -> None:
    end = cfg.dma_base + cfg.dma_size
    if lo < cfg.dma_base or hi >= end:
        _fault("DMA_WINDOW", pc, f"{name} touches external bytes {lo:#x} .. {hi:#x}, outside the "
                                 f"permitted window {cfg.dma_base:#x} .. {end - 1:#x}.")


def decode_checked(word: int, pc: int, cfg: HwConfig):
    """Decodes and checks one word on configuration ``cfg``: an opcode whose instruction needs a
    configuration field ``cfg`` lacks (``Instr.needs``) is ILLEGAL_OPCODE, then the table's
    decoding checks, then :func:`check_instruction`."""
    ins = BY_OPCODE.get(word & 0xF)
    if ins is not None and ins.needs and not getattr(cfg, ins.needs):
        _fault("ILLEGAL_OPCODE", pc, f"{ins.name} needs the configuration's {ins.needs}.")
    d = decode(word, pc)
    check_instruction(d, pc, cfg)
    return d


def decode_program(words, cfg: HwConfig):
    """Decodes and checks ``words`` up to the first FINISH; returns the decoded list (FINISH last)."""
    out = []
    for pc, w in enumerate(words):
        d = decode_checked(int(w), pc, cfg)
        out.append(d)
        if d.name == "FINISH":
            return out
    raise AcceleratorFault("NO_FINISH", len(words), f"the program's {len(words)} instructions end "
                                                    f"without a FINISH instruction.")


# ----------------------------------------------------------------------------------- schedule
@dataclass
class Schedule:
    """Per-instruction cycles (index = PC; FINISH has no start / end) and the total."""

    fetch: np.ndarray
    start: np.ndarray
    end: np.ndarray
    token_stall: np.ndarray
    fetch_stall: np.ndarray
    total_cycles: int


def schedule(decoded, cfg: HwConfig) -> Schedule:
    """The exact cycle schedule of the queue model (``docs/isa.md``); raises DEADLOCK."""
    n = len(decoded)
    qi = [(_Q.get(d.queue, -1)) for d in decoded]
    cyc = [instruction_cycles(d, cfg) for d in decoded]
    fetch_cycles = [FETCH_CYCLES[d.name] for d in decoded]
    qlist: list[list[int]] = [[] for _ in range(_NQ)]
    pos = [0] * n
    for i, q in enumerate(qi):
        if q >= 0:
            pos[i] = len(qlist[q])
            qlist[q].append(i)
    pops = [[_CHANNEL[(d.queue, f)] for f in ("pop_prev", "pop_next") if d.fields[f]] if qi[i] >= 0 else []
            for i, d in enumerate(decoded)]
    pushes = [[_CHANNEL[(d.queue, f)] for f in ("push_prev", "push_next") if d.fields[f]]
              if qi[i] >= 0 else [] for i, d in enumerate(decoded)]
    f = [-1] * n
    s = [-1] * n
    e = [-1] * n
    tstall = [0] * n
    fstall = [0] * n
    pushed: dict[str, list[int]] = {c: [] for c in TOKEN_CHANNELS.values()}
    popped = {c: 0 for c in pushed}
    head = [0] * _NQ
    free = [0] * _NQ
    cq = _Q["compute"]
    overlap = array_overlap_on(cfg)
    done, prev, rel_floor = [0], [None], [0]
    depths = [cfg.queue_depth_of(q) for q in QUEUES]
    if cfg.in_order:
        return _schedule_in_order(decoded, cfg, qi, cyc, fetch_cycles, pops, pushes)
    # one DMA engine: its queues in priority order (the first wins a tie), started one at a time
    shared = ([_Q[DMA_PRIORITY]] + [_Q[q] for q in DMA_QUEUES if q != DMA_PRIORITY]
              if cfg.dma_engines == 1 else [])
    dma_free = 0

    def candidate(q):
        """The cycle queue ``q``'s head can start, from what is known (None: not yet fetched, or a
        token it pops not yet pushed); ``ready`` is where its token stall begins."""
        i = qlist[q][head[q]]
        if f[i] < 0:
            return None
        if q == cq and overlap and prev[0] is not None and not array_overlaps(decoded[prev[0]], decoded[i]):
            free[q] = done[0]       # (it does not overlap: the previous one's completion)
        t = max(f[i] + 1, free[q])
        for c in pops[i]:
            k = popped[c]
            if k >= len(pushed[c]):
                return None
            t = max(t, pushed[c][k])
        return max(t, dma_free) if q in shared else t

    def commit(q, i, t):
        for c in pops[i]:
            popped[c] += 1
        s[i] = t
        e[i] = t + cyc[i]
        tstall[i] = t - max(f[i] + 1, free[q])
        free[q] = e[i]
        if q == cq and overlap:
            # the array overlap: the queue's next instruction may start at this one's release
            # (free), or waits for its completion (done)
            done[0], prev[0] = e[i], i
            if decoded[i].name in ARRAY_KINDS:
                free[q] = array_release(cfg, t, e[i], rel_floor[0])
            rel_floor[0] = e[i]
        for c in pushes[i]:
            pushed[c].append(e[i])
        head[q] += 1

    nf = 0
    while True:
        progressed = False
        while nf < n:
            i = nf
            earliest = (f[i - 1] if i else -1) + fetch_cycles[i]
            t = earliest
            q = qi[i]
            if q >= 0 and pos[i] >= depths[q]:
                j = qlist[q][pos[i] - depths[q]]
                if s[j] < 0:
                    break
                t = max(t, s[j] + 1)
            f[i] = t
            fstall[i] = t - earliest
            nf += 1
            progressed = True
        for q in range(_NQ):
            if q in shared:
                continue
            ql = qlist[q]
            while head[q] < len(ql):
                i = ql[head[q]]
                t = candidate(q)
                if t is None:
                    break
                commit(q, i, t)
                progressed = True
        if not progressed and shared:
            # one DMA engine for the shared queues: every other queue and the fetch unit are blocked
            # now, so whatever would let a shared head start later comes after the next DMA start;
            # start the head that can start first (ties: DMA_PRIORITY)
            best = None
            for q in shared:
                t = candidate(q) if head[q] < len(qlist[q]) else None
                if t is not None and (best is None or t < best[1]):
                    best = (q, t)
            if best is not None:
                q, t = best
                commit(q, qlist[q][head[q]], t)
                dma_free = e[qlist[q][head[q] - 1]]
                progressed = True
        if not progressed:
            break
    done = nf == n and all(head[q] == len(qlist[q]) for q in range(_NQ))
    if not done:
        waiting = [qlist[q][head[q]] for q in range(_NQ) if head[q] < len(qlist[q]) and f[qlist[q][head[q]]] >= 0]
        pc = min(waiting) if waiting else nf
        when = max([x for x in e + f if x >= 0] or [0])
        d = decoded[pc]
        need = ", ".join(f"{c}" for c in pops[pc]) or "a queue slot"
        raise AcceleratorFault("DEADLOCK", pc, f"{d.name} on the {d.queue} queue waits for a token "
                                              f"({need}) that no instruction will send; every queue is "
                                              f"blocked from cycle {when}.", cycle=when)
    ends = [x for x in e if x >= 0]
    total = max([f[n - 1] + 1] + ends)
    return Schedule(np.array(f, np.int64), np.array(s, np.int64), np.array(e, np.int64),
                    np.array(tstall, np.int64), np.array(fstall, np.int64), int(total))


def _schedule_in_order(decoded, cfg, qi, cyc, fetch_cycles, pops, pushes) -> Schedule:
    """The schedule of the in-order machine (``in_order``): ``f(i) = e(i-1) + fetch_cycles(i)``
    (``e(-1) = -1``), ``s(i) = max(f(i) + 1, t(i))``; a pop whose push has not happened deadlocks."""
    n = len(decoded)
    f = np.full(n, -1, np.int64)
    s = np.full(n, -1, np.int64)
    e = np.full(n, -1, np.int64)
    pushed: dict[str, list[int]] = {c: [] for c in TOKEN_CHANNELS.values()}
    popped = {c: 0 for c in pushed}
    prev_e = -1
    for i in range(n):
        f[i] = prev_e + fetch_cycles[i]
        if qi[i] < 0:
            break                         # FINISH
        t = f[i] + 1                      # (> e(i-1): the checks began at its completion)
        for c in pops[i]:
            k = popped[c]
            if k >= len(pushed[c]):
                d = decoded[i]
                when = int(t)
                raise AcceleratorFault("DEADLOCK", i, f"{d.name} on the {d.queue} queue waits for a token "
                                                      f"({c}) that no earlier instruction sent; the in-order "
                                                      f"machine is blocked from cycle {when}.", cycle=when)
            t = max(t, pushed[c][k])
            popped[c] += 1
        s[i], e[i] = t, t + cyc[i]
        for c in pushes[i]:
            pushed[c].append(int(e[i]))
        prev_e = e[i]
    total = int(max([f[n - 1] + 1] + [x for x in e if x >= 0]))
    # every popped token was pushed by a completed instruction: no token stall, no fetch stall
    return Schedule(f, s, e, np.zeros(n, np.int64), np.zeros(n, np.int64), total)


# ----------------------------------------------------------------------------------- counters
def _instruction_events(decoded, cfg: HwConfig, sch: Schedule) -> dict[str, np.ndarray]:
    """Per-instruction contributions to each counter (counted at the instruction's completion)."""
    n = len(decoded)
    ev = {c.name: np.zeros(n, np.int64) for c in COUNTERS}
    cyc = sch.end - sch.start
    for i, d in enumerate(decoded):
        if d.name == "FINISH":
            continue
        for name, v in static_events(d, cfg).items():
            ev[name][i] = v
        if d.name in ("GEMM", "DWCONV"):
            ev["array_busy"][i] = cyc[i]
        elif d.name == "VEC":
            ev["vector_busy"][i] = cyc[i]
        elif d.queue == "load":
            ev["load_busy"][i] = cyc[i]
        elif d.queue == "store":
            ev["store_busy"][i] = cyc[i]
    return ev


def _stall_spans(decoded, sch: Schedule) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """The stall cycles ``[lo, hi)`` of every instruction, per stall counter (``STALL_COUNTERS``):
    fetch stall ``f(i-1) + 1 .. f(i) - 1``, token stall ``max(f(i) + 1, e(p)) .. s(i) - 1``."""
    spans = {"fetch_stall": (sch.fetch - sch.fetch_stall, sch.fetch)}
    qname = np.array([d.queue for d in decoded])
    for q in QUEUES:
        on = qname == q
        spans[f"{q}_token_stall"] = (np.where(on, sch.start - sch.token_stall, 0), np.where(on, sch.start, 0))
    return spans


def _snapshot(ev: dict, spans: dict, sch: Schedule, t: int) -> dict[str, int]:
    """The counters as read at cycle ``t``: instructions completed at or before ``t``, stall cycles
    before ``t``."""
    done = (sch.end >= 0) & (sch.end <= t)
    snap = {name: int(v[done].sum()) for name, v in ev.items()}
    for name, (lo, hi) in spans.items():
        snap[name] += int(np.clip(np.minimum(hi, t) - lo, 0, None).sum())
    snap["cycles"] = int(t)
    return snap


def wrap_counters(counts: dict[str, int], cfg: HwConfig) -> dict[str, int]:
    """The counters as the machine holds them: each modulo ``2 ** cfg.counter_bits``."""
    mask = (1 << cfg.counter_bits) - 1
    return {name: v & mask for name, v in counts.items()}


# ----------------------------------------------------------------------------------- results
@dataclass
class RunResult:
    """Counters of a run, the schedule, and the simulator's own speed. ``counters`` are the
    machine's (modulo ``2 ** counter_bits``, what the hardware reports); ``totals`` the same
    counts unwrapped, which ``cycles``, ``macs`` and ``utilization`` use."""

    config: HwConfig
    counters: dict
    schedule: Schedule = field(repr=False)
    instructions: int = 0
    wall_seconds: float = 0.0
    totals: dict | None = field(default=None, repr=False)

    @property
    def cycles(self) -> int:
        return (self.totals or self.counters)["cycles"]

    @property
    def macs(self) -> int:
        return (self.totals or self.counters)["macs"]

    @property
    def utilization(self) -> float:
        """MACs / (cycles x rows x cols)."""
        peak = self.cycles * self.config.rows * self.config.cols
        return self.macs / peak if peak else 0.0

    @property
    def cycles_per_second(self) -> float:
        return self.cycles / self.wall_seconds if self.wall_seconds > 0 else float("inf")

    def summary(self) -> str:
        c = self.counters
        return (f"{c['cycles']} cycles, {c['instructions']} instructions, {c['macs']} MACs, "
                f"utilization {100 * self.utilization:.1f}%, array busy {c['array_busy']}, vector busy "
                f"{c['vector_busy']}, DMA {c['dma_load_bytes']} B in / {c['dma_store_bytes']} B out, "
                f"stalls fetch {c['fetch_stall']} load {c['load_token_stall']} compute "
                f"{c['compute_token_stall']} vector {c['vector_token_stall']} store "
                f"{c['store_token_stall']}")


# ----------------------------------------------------------------------------------- machine
class IsaSim:
    """The accelerator's architectural state (scratchpads, array weights, external memory) and
    :meth:`run`. External memory is a byte array covering ``[0, dma_base + dma_size)``, or
    ``mem_size`` bytes when given (accesses beyond it inside the window raise InputError)."""

    def __init__(self, config="tiny", mem_size: int | None = None):
        self.cfg = load_config(config)
        cfg = self.cfg
        self.mem = np.zeros(mem_size if mem_size is not None else cfg.dma_base + cfg.dma_size, np.uint8)
        self.sp = {s: np.zeros((cfg.lines(s), cfg.line_elems), _SPACE_DTYPE[s]) for s in SPACE_ENUM}
        self.weights = np.zeros((cfg.rows, cfg.cols), np.float64)

    # ---------------------------------------------------------------- external memory helpers
    def write(self, addr: int, data) -> None:
        """Writes an array's bytes (its dtype, little-endian) at ``addr``."""
        b = np.ascontiguousarray(data)
        if b.dtype.byteorder == ">":
            b = b.astype(b.dtype.newbyteorder("<"))
        raw = b.reshape(-1).view(np.uint8)
        self._mem_check(addr, raw.size)
        self.mem[addr:addr + raw.size] = raw

    def read(self, addr: int, shape, dtype=np.uint8) -> np.ndarray:
        dt = np.dtype(dtype).newbyteorder("<")
        count = int(np.prod(shape)) * dt.itemsize
        self._mem_check(addr, count)
        return self.mem[addr:addr + count].view(dt).reshape(shape).astype(np.dtype(dtype))

    def _mem_check(self, addr: int, count: int) -> None:
        if addr < 0 or addr + count > self.mem.size:
            raise InputError(f"External bytes {addr:#x} .. {addr + count - 1:#x} lie outside the "
                             f"simulated memory of {self.mem.size} bytes.")

    # ---------------------------------------------------------------- run
    def run(self, program, progress=None, max_cycles: int | None = None) -> RunResult:
        """Runs ``program`` (a list of 128-bit words, or the binary as bytes). ``progress(done,
        total)`` is called now and then during long runs. The schedule comes first, so a program
        whose run would take more than ``max_cycles`` cycles raises :class:`BudgetError` before any
        instruction executes (a program that waits forever is a DEADLOCK fault)."""
        t0 = time.perf_counter()
        words = bytes_to_words(program) if isinstance(program, (bytes, bytearray)) else list(program)
        decoded = decode_program(words, self.cfg)
        sch = schedule(decoded, self.cfg)
        if max_cycles is not None and sch.total_cycles > max_cycles:
            raise BudgetError(f"the program takes {sch.total_cycles} cycles, more than the budget of "
                              f"{max_cycles}")
        ev = _instruction_events(decoded, self.cfg, sch)
        spans = _stall_spans(decoded, sch)
        order = sorted((i for i, d in enumerate(decoded) if d.name != "FINISH"),
                       key=lambda i: (sch.start[i], i))
        last = time.perf_counter()
        for k, i in enumerate(order):
            d = decoded[i]
            if d.name == "RDPERF":
                # each counter is sampled in the cycle that writes it (rdperf_sample_cycle)
                s0, cfg = int(sch.start[i]), self.cfg
                vals = np.array([_snapshot(ev, spans, sch, rdperf_sample_cycle(
                    c.id, s0, cfg.ext_latency, cfg.dma_bytes_per_cycle))[c.name] % (1 << cfg.counter_bits)
                    for c in COUNTERS], np.uint64)
                self._store_bytes(d.ext_addr, vals.astype("<u8").view(np.uint8))
            else:
                getattr(self, f"_exec_{d.name.lower()}")(d)
            if progress is not None and k % 256 == 0 and time.perf_counter() - last > 0.5:
                last = time.perf_counter()
                progress(k, len(order))
        if progress is not None:
            progress(len(order), len(order))
        totals = _snapshot(ev, spans, sch, sch.total_cycles)
        return RunResult(self.cfg, wrap_counters(totals, self.cfg), sch, len(decoded), time.perf_counter() - t0,
                         totals=totals)

    # ---------------------------------------------------------------- semantics
    def _act(self, lines, signed: bool) -> np.ndarray:
        raw = self.sp["ACT"][lines]
        return (raw.view(np.int8) if signed else raw).astype(np.int64)

    def _exec_nop(self, d) -> None:
        pass

    def _gather(self, addr: int, idx: np.ndarray) -> np.ndarray:
        self._mem_check(int(idx.min()), int(idx.max()) - int(idx.min()) + 1)
        return self.mem[idx]

    def _store_bytes(self, addr: int, raw: np.ndarray) -> None:
        self._mem_check(addr, raw.size)
        self.mem[addr:addr + raw.size] = raw

    def _exec_load(self, d) -> None:
        space = SPACE_ENUM[d.sp]
        cfg = self.cfg
        eb = ELEMENT_BYTES[space]
        w = cfg.line_elems
        fill = d.fill if eb == 1 else _sext8(d.fill)
        box = np.full((d.y_size, d.x_size, w), fill, _SPACE_DTYPE[space])
        rows, cols = dma_geometry(d, True)
        if rows > 0 and cols > 0 and d.len:
            offs = (np.arange(rows, dtype=np.int64)[:, None] * d.y_stride
                    + np.arange(cols, dtype=np.int64)[None, :] * d.x_stride)
            idx = d.ext_addr + offs[:, :, None] + np.arange(d.len * eb, dtype=np.int64)
            raw = self._gather(d.ext_addr, idx)
            data = raw if eb == 1 else np.ascontiguousarray(raw).view("<i4")
            box[d.pad_top:d.pad_top + rows, d.pad_left:d.pad_left + cols, :d.len] = data
        n = d.x_size * d.y_size
        if n:
            self.sp[space][d.sp_addr:d.sp_addr + n] = box.reshape(n, w)

    def _exec_store(self, d) -> None:
        space = SPACE_ENUM[d.sp]
        eb = ELEMENT_BYTES[space]
        n = d.x_size * d.y_size
        if not n or not d.len:
            return
        vals = self.sp[space][d.sp_addr:d.sp_addr + n, :d.len]
        raw = np.ascontiguousarray(vals.astype("<i4") if eb == 4 else vals).view(np.uint8)
        offs = (np.arange(d.y_size, dtype=np.int64)[:, None] * d.y_stride
                + np.arange(d.x_size, dtype=np.int64)[None, :] * d.x_stride).reshape(-1)
        idx = d.ext_addr + offs[:, None] + np.arange(d.len * eb, dtype=np.int64)
        self._mem_check(int(idx.min()), int(idx.max()) - int(idx.min()) + 1)
        self.mem[idx.reshape(-1)] = raw.reshape(-1)

    def _exec_gemm(self, d) -> None:
        cfg = self.cfg
        za = _sext8(d.za) if d.act_signed else d.za
        zw = _sext8(d.zw) if d.wgt_signed else d.zw
        out = _lines(d.acc, d.nx, d.ny, d.acc_xs, d.acc_ys)
        prod = np.zeros((out.size, cfg.cols), np.int64)
        for t in range(d.kt + 1):
            if d.preload:
                w0 = d.wgt + t * cfg.rows
                wl = self.sp["WGT"][w0:w0 + cfg.rows]
                wv = (wl.view(np.int8) if d.wgt_signed else wl).astype(np.int64)
                self.weights = (wv - zw).astype(np.float64)
            if out.size:
                a = self._act(_lines(d.act + t * d.ny * d.act_ys, d.nx, d.ny, d.act_xs, d.act_ys),
                              d.act_signed) - za
                # |a|, |w| <= 255 and rows <= 32: every partial sum is an integer below 2**22, exact
                # in float64.
                prod += np.rint(a.astype(np.float64) @ self.weights).astype(np.int64)
        if not out.size:
            return
        acc = self.sp["ACC"]
        if d.accumulate:
            if np.unique(out).size == out.size:
                acc[out] = wrap_int32(acc[out].astype(np.int64) + prod)
            else:
                tmp = acc.astype(np.int64)
                np.add.at(tmp, out, prod)
                acc[:] = wrap_int32(tmp)
        else:
            acc[out] = wrap_int32(prod)

    def _exec_dwconv(self, d) -> None:
        cfg = self.cfg
        za = _sext8(d.za) if d.act_signed else d.za
        zw = _sext8(d.zw) if d.wgt_signed else d.zw
        taps = d.fh * d.fw
        wl = self.sp["WGT"][d.wgt:d.wgt + cfg.rows]
        wv = (wl.view(np.int8) if d.wgt_signed else wl).astype(np.int64) - zw
        wv[taps:] = 0
        self.weights = wv.astype(np.float64)
        h, lw = dw_window(d)
        # the window with its zero padding around it (the padding's taps add 0)
        win = np.zeros((d.ny + d.fh - 1, d.nx + d.fw - 1, cfg.cols), np.int64)
        win[d.pad_top:d.pad_top + h, d.pad_left:d.pad_left + lw] = \
            (self._act(_dw_window(d), d.act_signed) - za).reshape(h, lw, cfg.cols)
        prod = np.zeros((d.ny, d.nx, cfg.cols), np.int64)
        for ky in range(d.fh):
            for kx in range(d.fw):
                prod += win[ky:ky + d.ny, kx:kx + d.nx] * wv[taps - 1 - (ky * d.fw + kx)]
        out = _lines(d.acc, d.nx, d.ny, 1, d.acc_ys)
        prod = prod.reshape(-1, cfg.cols)
        acc = self.sp["ACC"]
        old = acc[out].astype(np.int64) if d.accumulate else 0
        acc[out] = wrap_int32(old + prod)

    def _exec_vec(self, d) -> None:
        cfg = self.cfg
        vf = VEC_BY_CODE[d.func]
        vec = self.sp["VEC"]
        npar = vf.param_lines(cfg.cols) if vf.params else 0
        if vf.params == ("table",):
            table = (vec[d.param:d.param + npar].reshape(-1)[:256].astype(np.int64) & 0xFF)
            p = {}
        else:
            block = vec[d.param:d.param + npar].astype(np.int64)
            p = {name: _sext(block[j][None, :1] if name in vf.per_tensor else block[j][None, :], vf.param_bits(name))
                 for j, name in enumerate(vf.params)}
        if d.nx == 0 or d.ny == 0:
            return
        src_l = _lines(d.src, d.nx, d.ny, d.src_xs, d.src_ys)
        dst_l = _lines(d.dst, d.nx, d.ny, d.dst_xs, d.dst_ys)
        a = self._act(src_l, d.signed) if vf.src == "ACT" else self.sp[vf.src][src_l].astype(np.int64)
        b = None
        if vf.binary:
            b = self._act(dst_l - d.dst + d.src2, d.signed)
        name = vf.name
        if name == "REQ":
            mul = single_rounding_multiply if d.round else mbqm
            r = np.clip(mul(wrap_int32(a + p["bias"]), p["mult"], p["shift"]) + p["zo"], p["lo"], p["hi"])
        elif name in ("ADDQ", "SUBQ"):
            x1 = mbqm((a - p["z1"]) << ADD_LEFT_SHIFT, p["m1"], p["e1"])
            x2 = mbqm((b - p["z2"]) << ADD_LEFT_SHIFT, p["m2"], p["e2"])
            s = x1 + x2 if name == "ADDQ" else x1 - x2
            r = np.clip(mbqm(s, p["mo"], p["eo"]) + p["zo"], p["lo"], p["hi"])
        elif name == "MULQ":
            r = np.clip(mbqm((a - p["z1"]) * (b - p["z2"]), p["m"], p["e"]) + p["zo"], p["lo"], p["hi"])
        elif name == "MAX":
            r = np.maximum(a, b)
        elif name == "SUMW":
            r = a + (self.sp["ACC"][dst_l].astype(np.int64) if d.accumulate else 0)
        elif name == "DIV":
            # x and m are int32, so the product (|x * m| <= 2**62) is exact in int64.
            q = (wrap_int32(np.abs(a) + p["half"]) * p["m"]) >> (30 + ((p["s"] - 30) & 31))
            r = np.clip(np.where(a < 0, -q, q), p["lo"], p["hi"])
        elif name == "LUT":
            r = table[a & 0xFF]
        elif name == "CLAMP":
            r = np.clip(a, p["lo"], p["hi"])
        elif name == "BIAS":
            r = a + p["bias"]
        else:  # pragma: no cover - the table and this dispatch are checked together in tests
            raise AssertionError(name)
        if vf.dst == "ACT":
            self.sp["ACT"][dst_l] = (r & 0xFF).astype(np.uint8)
        else:
            self.sp[vf.dst][dst_l] = wrap_int32(r).astype(np.int32)


def run_program(program, config="tiny", image: dict | None = None, progress=None):
    """Convenience: a fresh :class:`IsaSim`, ``image`` = ``{addr: array}`` written first; returns
    ``(sim, result)``."""
    sim = IsaSim(config)
    for addr, data in (image or {}).items():
        sim.write(addr, data)
    return sim, sim.run(program, progress)


# ----------------------------------------------------------------------------------- race check
@dataclass(frozen=True)
class Conflict:
    """Two instructions of different queues that overlap in time and touch the same scratchpad
    line (or external byte range) where at least one of them writes."""

    first: int
    second: int
    resource: str
    what: str

    def __str__(self) -> str:
        return f"instructions {self.first} and {self.second} overlap in time and both use {self.resource} ({self.what})"


def _accesses(d, cfg: HwConfig):
    """``[(resource, lines or external bytes, writes)]`` of one instruction (its footprint)."""
    return [(a.space, a.where if a.space == "EXT" else a.where.lines(), a.write) for a in footprint(d, cfg)
            if a.space == "EXT" or not a.where.empty]


def _intersects(a, b) -> bool:
    """Whether two operands share a line, or (:class:`~nnaccel.isa.footprint.Bytes`, the exact box
    walk) an external byte."""
    if isinstance(a, Bytes):
        return a.meets(b)
    return np.intersect1d(a, b, assume_unique=False).size > 0


def _bank_uses(d, cfg: HwConfig):
    """``{(space, "R" or "W"): set of banks}`` of one instruction's footprint (the port rules of
    ``docs/isa.md``, "Scratchpad banks"), plus the binary-VEC operand check as ``("src", ...)``."""
    uses: dict = {}
    roles: dict[str, set] = {}
    for a in footprint(d, cfg):
        if a.space == "EXT" or a.where.empty:
            continue
        banks = set(np.unique(cfg.bank_of(a.space, a.where.lines())).tolist())
        for port, on in (("R", a.reads), ("W", a.write)):
            if on:
                uses.setdefault((a.space, port), set()).update(banks)
        if a.role:
            roles[a.role] = banks
    both = roles.get("src", set()) & roles.get("src2", set())
    if both:
        uses[("src", "src2")] = both
    return uses


def find_conflicts(program, config="tiny", limit: int = 10) -> list[Conflict]:
    """Checks a program under its own schedule for races — pairs of instructions on different
    queues whose execution intervals overlap and that touch a common scratchpad line or external
    byte range, one of them writing — and for violations of the scratchpad bank rules
    (``docs/isa.md``: two such instructions writing one bank, or reading one bank; a binary VEC
    reading both operands from one bank, reported with ``first == second``). A program the tokens
    order correctly and whose buffers respect the banks has none."""
    cfg = load_config(config)
    words = bytes_to_words(program) if isinstance(program, (bytes, bytearray)) else list(program)
    decoded = decode_program(words, cfg)
    sch = schedule(decoded, cfg)
    items = sorted((int(sch.start[i]), int(sch.end[i]), i) for i, d in enumerate(decoded)
                   if d.name != "FINISH" and sch.end[i] > sch.start[i])
    acc_cache = {}
    bank_cache = {}
    found: list[Conflict] = []

    def banks(i):
        if i not in bank_cache:
            bank_cache[i] = _bank_uses(decoded[i], cfg)
        return bank_cache[i]

    active: list[tuple[int, int, int]] = []
    for s, e, i in items:
        bi = banks(i)
        if ("src", "src2") in bi:
            vf = VEC_BY_CODE[decoded[i].func]
            found.append(Conflict(i, i, f"{vf.src} bank {min(bi[('src', 'src2')])}",
                                  f"VEC {vf.name} reads src and src2 from one bank"))
            if len(found) >= limit:
                return found
        active = [a for a in active if a[1] > s]
        for _, _, j in active:
            if decoded[j].queue == decoded[i].queue:
                continue
            ai = acc_cache.setdefault(i, _accesses(decoded[i], cfg))
            aj = acc_cache.setdefault(j, _accesses(decoded[j], cfg))
            for ri, si, wi in ai:
                for rj, sj, wj in aj:
                    if ri == rj and (wi or wj) and _intersects(si, sj):
                        found.append(Conflict(j, i, ri, f"{decoded[j].name} {'writes' if wj else 'reads'}, "
                                                        f"{decoded[i].name} {'writes' if wi else 'reads'}"))
                        if len(found) >= limit:
                            return found
            bj = banks(j)
            for (space, port), set_i in bi.items():
                if space == "src":
                    continue
                common = set_i & bj.get((space, port), set())
                if common:
                    verb = "write" if port == "W" else "read"
                    found.append(Conflict(j, i, f"{space} bank {min(common)}",
                                          f"{decoded[j].name} and {decoded[i].name} both {verb} it "
                                          f"(one {verb} port per bank)"))
                    if len(found) >= limit:
                        return found
        active.append((s, e, i))
    return found
