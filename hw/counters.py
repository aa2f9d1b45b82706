"""The performance counters: one ``counter_bits``-wide value per counter of the ISA table
(``nnaccel.isa.table.COUNTERS``), which wraps modulo ``2 ** counter_bits`` (the ISA's rule), read
``k`` at a time (:func:`~nnaccel.hw.extmem.counters_per_beat`) as they pass the head of a ring.

:class:`CounterEvents` collects what the engines add to each counter (the terms), and
:class:`PerfCounters` sums them: each counter's increments accumulate in a narrow register, as wide
as ``n_beats`` cycles of them can need, which is added into the counter's ring value when that
passes the head. So the values need no 64-bit multiplexer and no 64-bit adder per counter.
:func:`counter_model` is the software model: a counter is the sum of its increments so far.
"""

from __future__ import annotations

from dataclasses import dataclass

from amaranth.hdl import Array, Cat, Const, Module, Mux, Signal, unsigned
from amaranth.lib import wiring
from amaranth.lib.memory import Memory
from amaranth.lib.wiring import In, Out

from nnaccel.isa.table import N_COUNTERS

from .bounds import CNT, _bits, _ceil, max_cycles
from .extmem import counters_per_beat
from .scratchpad import COLLISION_UNDEFINED

__all__ = ["CounterEvents", "CounterInput", "PerfCounters", "counter_model", "counter_read_signature"]


def counter_read_signature(cfg) -> wiring.Signature:
    """The counters as they pass the ring's head (the counters' side): ``phase`` (``n_beats``
    phases, one a cycle), ``data``: the values of counters ``k * phase .. k * phase + k - 1``,
    ``counter_bits`` bits each (the events before this cycle)."""
    k = counters_per_beat(cfg)
    return wiring.Signature({"phase": Out(range(_ceil(N_COUNTERS, k))), "data": Out(k * cfg.counter_bits)})


@dataclass(frozen=True)
class CounterInput:
    """One counter's increment port: ``width`` bits a cycle, counted in units of ``unit`` (a power of
    two: the counter adds ``increment * unit``; ``macs`` of an in-order machine counts streamed
    lines of ``rows * cols``), adding at most ``bound`` units in any ``n_beats`` consecutive
    cycles."""

    width: int
    bound: int
    unit: int = 1


#: Counters of one queue's instructions and the most they add per cycle an instruction runs
#: (busy: 1; macs: one line of rows * cols a step; DMA bytes: one beat a step; RDPERF's
#: ``8 * N_COUNTERS`` bytes take ``ceil(8 * N_COUNTERS / beat)`` steps). Instructions completing
#: in any ``n_beats`` consecutive cycles ran one after another, within ``max_cycles + n_beats - 1``
#: cycles.
PER_CYCLE = {"load_busy": ("load", "one"), "store_busy": ("store", "one"), "array_busy": ("compute", "one"),
             "vector_busy": ("vector", "one"), "macs": ("compute", "line"),
             "dma_load_bytes": ("load", "beat"), "dma_store_bytes": ("store", "beat")}


class CounterEvents:
    """The terms each engine adds to the counters (:meth:`add`), turned into :class:`PerfCounters`'
    inputs (:meth:`inputs`) and their values (:meth:`sums`).

    An in-order machine counts events as they pass, and gives each term's ``window`` (the most it
    adds in ``n_beats`` consecutive cycles); the queued machine adds an instruction's events at its
    completion, and a counter's bound follows from its terms' widths, or for a counter of one
    engine from the engine's rate (:data:`PER_CYCLE`)."""

    def __init__(self, cfg):
        self.cfg = cfg
        self.n_beats = _ceil(N_COUNTERS, counters_per_beat(cfg))
        self.terms = {c: [] for c in CNT}
        self.windows = {c: 0 for c in CNT}
        self.units = {}

    def add(self, name: str, cond, value, window: int | None = None):
        """``value`` at ``cond``; ``window`` (in order): the most this term adds in ``n_beats``
        consecutive cycles."""
        self.terms[name].append(Mux(cond, value, 0))
        if window is not None:
            self.windows[name] += window

    def every(self, cycles: int) -> int:
        """How often an event at most ``cycles`` cycles apart can occur in ``n_beats`` cycles."""
        return (self.n_beats - 1) // max(1, cycles) + 1

    def inputs(self) -> dict:
        """``{counter: CounterInput}`` for the counters with terms (in order the stall counters,
        0 there, have none)."""
        cfg = self.cfg
        rate = {"one": 1, "line": cfg.rows * cfg.cols, "beat": cfg.dma_bytes_per_cycle}
        out = {}
        for name, terms in self.terms.items():
            if not terms:
                if cfg.in_order:
                    continue
                out[name] = CounterInput(1, 0)
                continue
            if cfg.in_order:
                bound = self.windows[name]
            else:
                bound = self.n_beats * sum((1 << len(t)) - 1 for t in terms)
                if name in PER_CYCLE:
                    queue, per = PER_CYCLE[name]
                    bound = min(bound, rate[per] * (max_cycles(cfg, queue) + self.n_beats - 1))
            out[name] = CounterInput(len(sum(terms)), bound, self.units.get(name, 1))
        return out

    def sums(self) -> dict:
        """``{counter: the sum of its terms}`` for the counters with terms."""
        return {name: sum(terms) for name, terms in self.terms.items() if terms}


class PerfCounters(wiring.Component):
    """The counters of configuration ``cfg`` with the increments ``inputs`` (``{counter name:
    CounterInput}``, :meth:`CounterEvents.inputs`; a counter without one stays 0).

    Ports:

    - ``run`` (in): the machine runs; increments count only then;
    - ``clear`` (in): a run starts: every counter 0 and the phase back to 0 from the next cycle;
    - ``inc_<counter>`` (in, ``width`` bits): the counter's increment this cycle, in its units;
    - ``read`` (out, :func:`counter_read_signature`): the phase and the ``k`` counters at the
      ring's head, the events before this cycle (what RDPERF writes and the host reads);
    - ``collision`` (out): the ring's block RAM read the line it wrote in the same cycle and the
      value was used (undefined on the FPGA: the accelerator's ``sp_collision``).

    The values rotate through a ring of ``n_beats`` groups of ``k`` (block RAM ``cnt_ring``, one
    group read and one written a cycle; with one group, registers); each counter's accumulator is
    added into its ring value at its phase. An in-order machine (``cfg.in_order``) restarts the
    phase with the run, so a group is fresh (reads 0) exactly in the ring's first round: one bit,
    and the selections after the adders (on the iCE40 an operand gated in front of a carry chain
    takes a LUT of its own per bit)."""

    def __init__(self, cfg, inputs: dict):
        self.cfg = cfg
        self.inputs = dict(inputs)
        self.k = counters_per_beat(cfg)
        self.n_beats = _ceil(N_COUNTERS, self.k)
        for name, spec in self.inputs.items():
            if spec.unit & (spec.unit - 1):
                raise ValueError(f"The unit of counter {name} must be a power of two, not {spec.unit}.")
        super().__init__({
            "run": In(1), "clear": In(1),
            **{f"inc_{name}": In(spec.width) for name, spec in self.inputs.items()},
            "read": Out(counter_read_signature(cfg)), "collision": Out(1),
        })

    def elaborate(self, platform):
        m = Module()
        cfg, k, n_beats = self.cfg, self.k, self.n_beats
        bits = cfg.counter_bits
        phase = self.read.phase
        values = [Signal(bits, name=f"cnt_out{j}") for j in range(k)]
        m.d.comb += self.read.data.eq(Cat(*values))
        acc, regs = self._accumulators(m, phase)
        if n_beats > 1:
            heads, fresh, fresh_now = self._ring(m, phase, values)
        else:
            heads = [Signal(bits, name=f"ring{j}") for j in range(k)]
            m.d.sync += [r.eq(values[j]) for j, r in enumerate(heads)]
        for j in range(k):
            pick = Array([acc.get(k * b + j, Const(0, 1)) for b in range(n_beats)])
            add = pick[phase] if n_beats > 1 else pick[0]
            if cfg.in_order and n_beats > 1:
                # a fresh group's head reads 0: selected after the adder
                m.d.comb += values[j].eq(Mux(fresh_now, add, heads[j] + add)[:bits])
            else:
                m.d.comb += values[j].eq((heads[j] + add)[:bits])
        with m.If(self.clear):          # a run starts: every counter 0
            m.d.sync += [a.eq(0) for a in regs]
            if n_beats > 1:
                m.d.sync += fresh.eq((1 << len(fresh)) - 1)
            else:
                m.d.sync += [r.eq(0) for r in heads]
        return m

    def _accumulators(self, m, phase):
        """Each counter's accumulator, cleared at its phase (``{counter id: value}``, the value in
        the counter's units, and the registers)."""
        cfg, k = self.cfg, self.k
        acc, regs = {}, []
        for name, spec in self.inputs.items():
            cid = CNT[name]
            shift = (spec.unit - 1).bit_length()
            a = Signal(min(max(1, cfg.counter_bits - shift), _bits(spec.bound)), name=f"acc_{name}")  # wraps with its counter
            inc = Mux(self.run, getattr(self, f"inc_{name}"), 0)
            if cfg.in_order:    # cleared at its phase: selected after the adder
                m.d.sync += a.eq(Mux(phase == cid // k, inc, a + inc))
            else:
                m.d.sync += a.eq(Mux(phase == cid // k, 0, a) + inc)
            acc[cid] = a if shift == 0 else Cat(Const(0, shift), a)
            regs.append(a)
        return acc, regs

    def _ring(self, m, phase, values):
        """The ring in block RAM: entry b holds group b (counters k*b .. k*b + k - 1), read one
        cycle ahead (the group of the next phase) and written back at its phase; ``fresh`` marks
        the groups not yet written since the run started (they read 0). It reads the line it
        writes only when a run starts at phase 0 (the next phase is phase + 1 otherwise), and that
        read is not used: the next cycle's group is fresh. ``collision``: a read of the written
        line whose value is then used."""
        cfg, k, n_beats = self.cfg, self.k, self.n_beats
        bits = cfg.counter_bits
        m.submodules.cnt_ring = ring_mem = Memory(shape=unsigned(bits * k), depth=n_beats, init=[],
                                                  attrs={"ram_style": "block", **COLLISION_UNDEFINED})
        rp = ring_mem.read_port()
        wp = ring_mem.write_port()
        phase_next = Signal.like(phase)
        m.d.comb += phase_next.eq(Mux(self.clear | (phase == n_beats - 1), 0, phase + 1))
        if cfg.in_order:
            fresh = Signal(init=1)          # the ring's first round (cleared at the last phase)
            fresh_now = fresh
        else:
            fresh = Signal(n_beats, init=(1 << n_beats) - 1)
            fresh_now = fresh.bit_select(phase, 1)
        head = rp.data if cfg.in_order else Mux(fresh_now, 0, rp.data)
        m.d.comb += [rp.addr.eq(phase_next), wp.addr.eq(phase), wp.en.eq(1), wp.data.eq(Cat(*values))]
        m.d.sync += phase.eq(phase_next)
        if cfg.in_order:
            with m.If(phase == n_beats - 1):
                m.d.sync += fresh.eq(0)
        else:
            m.d.sync += fresh.bit_select(phase, 1).eq(0)
        same_line = Signal(name="ring_same_line")
        m.d.sync += same_line.eq(wp.en & (rp.addr == wp.addr))
        m.d.comb += self.collision.eq(same_line & ~fresh_now)
        return [head[bits * j:bits * j + bits] for j in range(k)], fresh, fresh_now


def counter_model(cfg, cycles):
    """The software model of :class:`PerfCounters`: per cycle, the phase and the value of every
    counter it shows in that cycle.

    ``cycles``: per cycle ``(run, clear, {counter name: increment})``. A counter is the sum of its
    increments in the running cycles since the last clear, before this cycle, modulo ``2 **
    counter_bits``; the phase counts ``0 .. n_beats - 1`` round, from 0 after reset and after a
    clear. Returns ``[(phase, {counter id: value})]``."""
    n_beats = _ceil(N_COUNTERS, counters_per_beat(cfg))
    totals = {cid: 0 for cid in CNT.values()}
    phase = 0
    out = []
    for run, clear, inc in cycles:
        out.append((phase, {cid: v % (1 << cfg.counter_bits) for cid, v in totals.items()}))
        phase = 0 if clear or phase == n_beats - 1 else phase + 1
        if clear:
            totals = {cid: 0 for cid in totals}
        elif run:
            for name, v in inc.items():
                totals[CNT[name]] += v
    return out
