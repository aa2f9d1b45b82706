"""The sequencers that start and end each queue's instructions: one engine per queue (queued), one DMA engine for the load and store queues, or one in-order executor."""

from __future__ import annotations

from types import SimpleNamespace

from amaranth.hdl import Cat, Const, Module, Mux, Signal

from nnaccel.isa.table import QUEUES

from .queue import InstructionQueue


def _step_ge(eng, c: int):
    """``eng.step >= c`` for a constant ``c``: the in-order executor's flag (:meth:`_InOrder.step_ge`),
    else the comparison."""
    ge = getattr(eng, "step_ge", None)
    return ge(c) if ge is not None else eng.step >= c


class _Engine:
    """Shared engine skeleton: start/busy/step, the current instruction, completion.

    ``word`` is the instruction (128 bits, only the bits its queue keeps, see :func:`queue_entry`);
    ``step`` counts its cycles and is as wide as the queue's longest instruction needs
    (:func:`max_cycles`)."""

    def __init__(self, m: Module, name: str, fifo: InstructionQueue, can_start, step_bits: int):
        self.busy = Signal(name=f"{name}_busy")
        self.step_r = Signal(step_bits, name=f"{name}_step")
        self.start = Signal(name=f"{name}_start")
        self.active = Signal(name=f"{name}_active")
        self.complete = Signal(name=f"{name}_complete")
        self.step = Signal(step_bits, name=f"{name}_stepc")
        self.cycles = Signal(step_bits, name=f"{name}_cyclesc")
        # the instruction stays at the head of its queue until it completes (no copy of it)
        m.d.comb += [fifo.count.eq(fifo.occ - self.busy),
                     self.start.eq(~self.busy & (fifo.count != 0) & can_start),
                     self.active.eq(self.busy | self.start),
                     self.step.eq(self.step_r),      # 0 while idle: it clears at completion
                     fifo.pop.eq(self.complete)]
        self.word = fifo.unpack(m, fifo.r_data, f"{name}_word")
        #: the queue's head waits (fetched, engine idle, a token missing): a token-stall cycle
        self.waiting = Signal(name=f"{name}_waiting")
        m.d.comb += self.waiting.eq(~self.active & (fifo.count != 0))
        self.last = Signal(name=f"{name}_last")
        m.d.comb += self.complete.eq(self.active & self.last)
        with m.If(self.active):
            m.d.sync += [self.step_r.eq(Mux(self.last, 0, self.step + 1)), self.busy.eq(~self.last)]

    def set_last(self, m, last):
        """The instruction ends at the step where ``last`` holds (counting loops, no product);
        ``cycles`` is then ``step + 1`` at the completion step."""
        m.d.comb += [self.cycles.eq(self.step + 1), self.last.eq(last)]


class _DmaEngine:
    """One DMA engine for the load and store queues (``dma_engines = 1``): one step counter and one
    busy flag; it starts a queue's head in the first cycle in which it is idle and that head can
    start (fetched, its tokens there), :data:`~nnaccel.isa.table.DMA_PRIORITY`'s queue first when
    both can; ``store`` is 1 while the instruction running (or starting) is the store queue's.

    ``views[queue]`` stands in for that queue's :class:`_Engine` (``start``, ``busy``, ``active``,
    ``complete``, ``waiting``, ``word``, ``cycles``: the queue's own head and the shared count), so
    the tokens, the deadlock check and the counters see two engines of which at most one runs;
    ``word`` is the running (or starting) instruction, the head of its queue (one multiplexer over
    the two heads: LOAD and STORE share their field layout, the bits a queue does not keep are 0)."""

    def __init__(self, m: Module, fifos: dict, can_start: dict, step_bits: int, first: str):
        self.busy = Signal(name="dma_busy")
        self.store_r = Signal(name="dma_store_r")
        self.step_r = Signal(step_bits, name="dma_step")
        self.step = self.step_r               # 0 while idle: it clears at completion
        self.cycles = Signal(step_bits, name="dma_cyclesc")
        self.last = Signal(name="dma_last")
        can = {q: ~self.busy & (fifos[q].count != 0) & can_start[q] for q in ("load", "store")}
        other = "store" if first == "load" else "load"
        starts = {first: can[first], other: can[other] & ~can[first]}
        self.start = Signal(name="dma_start")
        self.store = Signal(name="dma_store")
        self.active = Signal(name="dma_active")
        self.complete = Signal(name="dma_complete")
        m.d.comb += [self.start.eq(starts["load"] | starts["store"]),
                     self.store.eq(Mux(self.busy, self.store_r, starts["store"])),
                     self.active.eq(self.busy | self.start), self.complete.eq(self.active & self.last),
                     self.cycles.eq(self.step + 1)]
        self.views = {}
        for q in ("load", "store"):
            mine = self.store if q == "store" else ~self.store
            mine_r = self.store_r if q == "store" else ~self.store_r
            v = SimpleNamespace(busy=Signal(name=f"{q}_busy"), start=Signal(name=f"{q}_start"),
                                active=Signal(name=f"{q}_active"), complete=Signal(name=f"{q}_complete"),
                                waiting=Signal(name=f"{q}_waiting"), cycles=self.cycles)
            m.d.comb += [v.busy.eq(self.busy & mine_r), v.start.eq(starts[q]), v.active.eq(v.busy | v.start),
                         v.complete.eq(self.complete & mine),
                         v.waiting.eq(~v.active & (fifos[q].count != 0)),
                         fifos[q].count.eq(fifos[q].occ - v.busy), fifos[q].pop.eq(v.complete)]
            v.word = fifos[q].unpack(m, fifos[q].r_data, f"{q}_word")
            self.views[q] = v
        self.word = Signal(128, name="dma_word")
        m.d.comb += self.word.eq(Mux(self.store, self.views["store"].word, self.views["load"].word))
        with m.If(self.active):
            m.d.sync += [self.step_r.eq(Mux(self.last, 0, self.step + 1)), self.busy.eq(~self.last),
                         self.store_r.eq(self.store)]

    def set_last(self, m, last):
        m.d.comb += self.last.eq(last)


class _View:
    """One queue's view of the in-order executor (the interface of :class:`_Engine`)."""

    def __init__(self, name: str, word, step, cycles):
        self.busy, self.start = Signal(name=f"{name}_busy"), Signal(name=f"{name}_start")
        self.active, self.complete = Signal(name=f"{name}_active"), Signal(name=f"{name}_complete")
        self.waiting, self.last = Signal(name=f"{name}_waiting"), Signal(name=f"{name}_last")
        self.word, self.step, self.cycles = word, step, cycles

    def set_last(self, m: Module, last):
        m.d.comb += self.last.eq(last)


class _InOrder:
    """The executor of an in-order machine (``in_order``): no queues; the instruction at ``pc``
    (``word_in``, of queue ``queue_in``) is checked by the fetch unit, starts when ``can_start``
    (checked since the cycle before, the executor idle, its tokens there) and runs straight from
    the instruction port (``pc`` moves on at its completion, so ``word`` is ``word_in``: no
    instruction register). One busy flag and one step counter.

    ``views[q]`` stands in for queue ``q``'s :class:`_Engine` (``start``, ``busy``, ``active``,
    ``complete``, ``waiting``, ``word``, ``step``, ``cycles``, ``set_last``), so the tokens, the
    counters and the engines' datapaths see four engines of which at most one runs; each engine's
    ``set_last`` gives its end condition, used while an instruction of its queue runs; ``waiting``
    is the token stall (the held instruction of that queue cannot start). :meth:`dma_view` is the
    load + store pair as :class:`_DmaEngine` shows it."""

    def __init__(self, m: Module, word_in, queue_in, held, can_start, step_bits: int):
        n = len(QUEUES)
        self.m = m
        self._step_flags = {}
        self.busy = Signal(name="ex_busy")
        self.step_r = Signal(step_bits, name="ex_step")
        self.step = self.step_r                            # 0 while idle: it clears at completion
        self.cycles = Signal(step_bits, name="ex_cyclesc")
        self.start = Signal(name="ex_start")
        self.active = Signal(name="ex_active")
        self.complete = Signal(name="ex_complete")
        self.last = Signal(name="ex_last")
        # one-hot: the instruction's queue, registered (the word is on the instruction port from a
        # cycle before held, which comes before it can start, until it completes)
        kind = Signal(n, name="ex_kind")
        m.d.sync += kind.eq(Cat(*[queue_in == q for q in range(n)]))
        m.d.comb += [self.start.eq(~self.busy & can_start),
                     self.active.eq(self.busy | self.start), self.complete.eq(self.active & self.last),
                     self.cycles.eq(self.step + 1)]
        self.word = word_in
        lasts = []
        self.views = []
        for q in range(n):
            v = _View(f"ex{q}", self.word, self.step, self.cycles)
            v.step_ge = self.step_ge
            m.d.comb += [v.busy.eq(self.busy & kind[q]), v.start.eq(self.start & kind[q]),
                         v.active.eq(v.busy | v.start), v.complete.eq(self.complete & kind[q]),
                         v.waiting.eq(held & kind[q] & ~v.active)]
            lasts.append(v.last & kind[q])
            self.views.append(v)
        m.d.comb += self.last.eq(Cat(*lasts).any())
        with m.If(self.active):
            m.d.sync += [self.step_r.eq(Mux(self.last, 0, self.step + 1)), self.busy.eq(~self.last)]

    def step_ge(self, c: int):
        """``step >= c`` for a constant ``c``, as a flag that moves with the step counter: set at
        the end of step ``c - 1`` (the first step whose low ``(c - 1).bit_length()`` bits are ``c -
        1``: the counter counts up by one from 0 and never wraps), cleared with it at completion.
        Not a comparison: Yosys would make one a carry chain as wide as the counter (on the
        iCE40 one logic cell a bit whose LUT is unused)."""
        if c <= 0:
            return Const(1, 1)
        if c not in self._step_flags:
            k = (c - 1).bit_length()
            f = self._step_flags[c] = Signal(name=f"ex_ge{c}")
            with self.m.If(self.active):
                self.m.d.sync += f.eq(~self.last & (f | (self.step[:k] == c - 1)))
        return self._step_flags[c]

    def dma_view(self, m: Module, load: int, store: int):
        """The load + store queues' views as the shared DMA datapath uses them (:class:`_DmaEngine`'s
        interface)."""
        lv, sv = self.views[load], self.views[store]
        d = SimpleNamespace(word=self.word, step=self.step, cycles=self.cycles, views={"load": lv, "store": sv},
                            step_ge=self.step_ge,
                            start=Signal(name="exd_start"), active=Signal(name="exd_active"),
                            complete=Signal(name="exd_complete"))
        m.d.comb += [d.start.eq(lv.start | sv.start), d.active.eq(lv.active | sv.active),
                     d.complete.eq(lv.complete | sv.complete)]

        def set_last(m, last):
            lv.set_last(m, last)
            sv.set_last(m, last)
        d.set_last = set_last
        return d



