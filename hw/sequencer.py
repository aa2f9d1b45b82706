"""The sequencers that start and end each queue's instructions: one engine per queue (queued), one DMA engine for the load and store queues, or one in-order executor."""

from __future__ import annotations

from types import SimpleNamespace

from amaranth.hdl import Cat, Const, Module, Mux, Signal

from nnaccel.isa.table import DMA_PRIORITY, DMA_QUEUES, INSTRUCTIONS, QUEUES

from .bounds import _bits, max_cycles
from .decoder import QUEUE_CODE, fault_code, field, opcode_of
from .queue import InstructionQueue

__all__ = ["InOrderSequencer", "QueuedSequencer", "sequencer_for"]


def _step_at_least(eng, c: int):
    """``eng.step >= c`` for a constant ``c``: the in-order executor's flag (:meth:`_InOrder.step_at_least`),
    else the comparison."""
    flag = getattr(eng, "step_at_least", None)
    return flag(c) if flag is not None else eng.step >= c


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
                     # (idle: the waiting entries are those held, no subtraction before the start)
                     self.start.eq(~self.busy & (fifo.occ != 0) & can_start),
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
        can = {q: ~self.busy & (fifos[q].occ != 0) & can_start[q] for q in ("load", "store")}
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
        #: the completion, registered: the fetch unit's control (pc, the next word's checks) reads it
        #: a cycle later (the ISA's in-order f(i) = e(i-1) + fetch_cycles(i)), so no path runs from
        #: an engine's end condition into the control and the decoder
        self.done = Signal(name="ex_done")
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
            v.step_at_least = self.step_at_least
            # each view's completion from its own engine's end (``complete & kind[q]`` would be the
            # same value, but its logic would pass every engine's end condition)
            m.d.comb += [v.busy.eq(self.busy & kind[q]), v.start.eq(self.start & kind[q]),
                         v.active.eq(v.busy | v.start), v.complete.eq(v.active & v.last),
                         v.waiting.eq(held & kind[q] & ~v.active)]
            lasts.append(v.last & kind[q])
            self.views.append(v)
        m.d.comb += self.last.eq(Cat(*lasts).any())
        with m.If(self.active):
            m.d.sync += [self.step_r.eq(Mux(self.last, 0, self.step + 1)), self.busy.eq(~self.last)]
        m.d.sync += self.done.eq(self.complete)

    def step_at_least(self, c: int):
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
                            step_at_least=self.step_at_least,
                            start=Signal(name="exd_start"), active=Signal(name="exd_active"),
                            complete=Signal(name="exd_complete"))
        m.d.comb += [d.start.eq(lv.start | sv.start), d.active.eq(lv.active | sv.active),
                     d.complete.eq(lv.complete | sv.complete)]

        def set_last(m, last):
            lv.set_last(m, last)
            sv.set_last(m, last)
        d.set_last = set_last
        return d




class _Sequencer:
    """How a machine fetches its queues' instructions and runs them: one interface, two
    machines (:class:`QueuedSequencer`, :class:`InOrderSequencer`), chosen once by
    ``cfg.in_order`` (:func:`sequencer_for`). The fetch unit and run state machine call it (``c``:
    their signals, see :class:`~nnaccel.hw.fetch.Fetch`):

    - :attr:`fifos`: the instruction queues (none in order);
    - :meth:`heads`: each queue's next instruction word (its pop flags name the tokens it needs);
    - :meth:`start_engines` (``oks[q]``: queue ``q``'s next instruction has its tokens): sets
      :attr:`engines` (one per queue, :class:`_Engine`'s interface), :attr:`dma` (the load and
      store queues' engine when one serves both, else None) and :attr:`executor` (the
      :class:`_InOrder` executor, or None);
    - :meth:`room`: the checked instruction can go on; :meth:`accept`: it does;
    - :meth:`deadlock`: the DEADLOCK condition (and its halt) and the fetch-stall term;
      :meth:`count_stalls`: the stall counters' terms;
    - :meth:`run_state`: the RUN state's transitions; :meth:`other_states`: any state beyond
      IDLE / RUN / DONE."""

    fifos: list
    engines: list
    dma = None
    executor = None

    def __init__(self, m: Module, cfg, dec, i_data):
        self.cfg, self.dec, self.i_data = cfg, dec, i_data

    def other_states(self, m: Module, c):
        pass

    @staticmethod
    def count_stalls(events, fetch_stall, waiting):
        """The stall counters' terms (:class:`~nnaccel.hw.counters.CounterEvents`; ``waiting[q]``:
        queue ``q``'s next instruction waits for a token): none (in order there are no token or
        fetch stalls, docs/isa.md)."""


class QueuedSequencer(_Sequencer):
    """The queued machine: the fetch unit appends each checked instruction to its queue
    (:class:`~nnaccel.hw.queue.InstructionQueue`) while there is room, and each queue's engine
    (:class:`_Engine`; with ``dma_engines = 1`` one :class:`_DmaEngine` for the load and store
    queues) starts its head once idle and its tokens are there. A DEADLOCK's PC (the lowest queued
    instruction) is found by reading the fetched instructions backwards (state SCAN), so queue
    entries carry no PC."""

    def __init__(self, m: Module, cfg, dec, i_data):
        super().__init__(m, cfg, dec, i_data)
        self.fifos = [InstructionQueue(cfg, q) for q in QUEUES]
        for f in self.fifos:
            m.submodules[f"{f.queue}_queue"] = f
            m.d.comb += f.w_data.eq(i_data)

    def heads(self, m: Module):
        return [f.unpack(m, f.r_data, f"{QUEUES[q]}_head") for q, f in enumerate(self.fifos)]

    def start_engines(self, m: Module, oks: list, held):
        cfg, fifos = self.cfg, self.fifos
        if cfg.dma_engines == 1:
            # one DMA engine for the load and store queues (an ISA rule of the configuration)
            self.dma = _DmaEngine(m, {q: fifos[QUEUE_CODE[q]] for q in DMA_QUEUES},
                                  {q: oks[QUEUE_CODE[q]] for q in DMA_QUEUES},
                                  runner_steps(cfg)["dma"], DMA_PRIORITY)
        self.engines = [self.dma.views[QUEUES[q]] if self.dma is not None and QUEUES[q] in DMA_QUEUES else
                        _Engine(m, QUEUES[q], fifos[q], oks[q], runner_steps(cfg)[QUEUES[q]])
                        for q in range(len(QUEUES))]

    def room(self, m: Module):
        """Room in the checked instruction's queue (FINISH and faults have no queue: room)."""
        q_of = self.dec.queue
        room = Signal()
        m.d.comb += room.eq(q_of >= len(QUEUES))
        for q, f in enumerate(self.fifos):
            with m.If(q_of == q):
                m.d.comb += room.eq(f.count < f.depth)
        self._room = room
        return room

    def accept(self, m: Module, advance, pc, held):
        for q, f in enumerate(self.fifos):
            m.d.comb += f.push.eq(self.dec.queue == q)
        m.d.comb += advance.eq(1)
        m.d.sync += pc.eq(pc + 1)

    def deadlock(self, m: Module, c):
        """Nothing busy, nothing can start, fetch cannot go on, something still queued."""
        dec = self.dec
        deadlock = Signal()
        fetch_blocked = c.finished | (dec.ready & (~self._room | dec.is_finish))
        m.d.comb += deadlock.eq((c.state == c.RUN) & ~c.any_busy & ~c.any_start & c.any_queued & fetch_blocked
                                & ~(c.fetching & c.at_end) & ~(c.fetching & (dec.fault != 0)))
        with m.If(deadlock):
            m.d.comb += [c.halt.eq(1), c.halt_code.eq(fault_code("DEADLOCK"))]
        # a fetch-stall cycle: the next instruction, its checks done, waits for room in its queue
        fetch_stall = c.fetching & ~c.halt & ~dec.is_finish & dec.ready & ~c.any_push
        self._scan_counts(m, c)
        return deadlock, fetch_stall

    @staticmethod
    def count_stalls(events, fetch_stall, waiting):
        """Each stall cycle as it passes (docs/isa.md, the queue model): fetch stalls and each
        queue's token stalls."""
        events.add("fetch_stall", fetch_stall, 1)
        for q, w in enumerate(waiting):
            events.add(f"{QUEUES[q]}_token_stall", w, 1)

    def _scan_counts(self, m: Module, c):
        """SCAN reads instruction pc (from the last fetched one down) and counts, per queue, the
        instructions still queued; the one that completes the count is the lowest queued PC."""
        self._remaining = remaining = [Signal(range(self.cfg.queue_depth_of(q) + 1), name=f"scan_{q}")
                                       for q in QUEUES]
        op = field(self.i_data, "NOP", "opcode")
        scan_q = Signal(range(len(QUEUES) + 1))
        m.d.comb += scan_q.eq(Mux(op == opcode_of("NOP"), field(self.i_data, "NOP", "queue"), len(QUEUES)))
        for ins in INSTRUCTIONS:
            if ins.queue in QUEUES:
                with m.If(op == ins.opcode):
                    m.d.comb += scan_q.eq(QUEUE_CODE[ins.queue])
        left = Const(0, 1)
        for q, r in enumerate(remaining):
            hit = (scan_q == q) & (r != 0)
            left = left | ((r - hit) != 0)
            with m.If((c.state == c.SCAN) & hit):
                m.d.sync += r.eq(r - 1)
        self._left = left

    def run_state(self, m: Module, c, deadlock):
        top, pc = c.top, c.pc
        with m.If(deadlock):
            m.d.sync += [c.state.eq(c.SCAN), top.error.eq(c.halt_code), pc.eq(pc - 1)]
            m.d.sync += [r.eq(f.count) for r, f in zip(self._remaining, self.fifos)]
        with m.Elif(c.halt):
            m.d.sync += [c.state.eq(c.DONE), top.error.eq(c.halt_code), top.fault_pc.eq(c.halt_pc)]
        with m.Elif(c.finished & ~c.any_busy & ~c.any_queued):
            m.d.sync += c.state.eq(c.DONE)

    def other_states(self, m: Module, c):
        top, pc = c.top, c.pc
        with m.Case(c.SCAN):
            m.d.comb += top.i_addr.eq(top.prog_addr + (pc << 4))
            with m.If(self._left):
                m.d.sync += pc.eq(pc - 1)
            with m.Else():
                m.d.sync += [c.state.eq(c.DONE), top.fault_pc.eq(pc)]


class InOrderSequencer(_Sequencer):
    """The in-order machine (``in_order``): no queues; the fetch unit holds the checked
    instruction at ``pc`` (``held``), the executor (:class:`_InOrder`) starts it once its tokens are
    there and runs it from the instruction port, and ``pc`` moves on at its completion. Every halt
    is at ``pc``, which stays put from then on: ``fault_pc`` is ``pc`` itself, and a DEADLOCK needs
    no search."""

    def __init__(self, m: Module, cfg, dec, i_data):
        super().__init__(m, cfg, dec, i_data)
        self.fifos = []

    def heads(self, m: Module):
        return [self.i_data] * len(QUEUES)

    def start_engines(self, m: Module, oks: list, held):
        dec = self.dec
        # registered: the word is on the instruction port from the cycle after pc moves on and
        # the tokens stay put until an instruction starts, and held (the first cycle it can
        # start) comes a cycle later still
        self.tok_ok = tok_ok = Signal()          # the held instruction's tokens are there
        m.d.sync += tok_ok.eq(Cat(*[(dec.queue == q) & oks[q] for q in range(len(QUEUES))]).any())
        self.executor = ex = _InOrder(m, self.i_data, dec.queue, held, held & tok_ok,
                                      runner_steps(self.cfg)["compute"])
        self.dma = ex.dma_view(m, QUEUE_CODE["load"], QUEUE_CODE["store"])
        self.engines = ex.views

    def room(self, m: Module):
        return Const(1, 1)

    def accept(self, m: Module, advance, pc, held):
        # fetched (f(i)): held from the next cycle, it starts once held and its tokens are there
        # and runs from the instruction port; the cycle after its completion the next
        # instruction's checks begin
        ex = self.executor
        with m.If(ex.done):
            m.d.comb += advance.eq(1)
            m.d.sync += [pc.eq(pc + 1), held.eq(0)]
        with m.Else():
            m.d.sync += held.eq(~ex.active)

    def deadlock(self, m: Module, c):
        """The held instruction's token will never come: nothing runs that could push it."""
        # fault_pc is pc (on a run without a fault, FINISH's index), no register
        m.d.comb += c.top.fault_pc.eq(c.pc)
        deadlock = Signal()
        m.d.comb += deadlock.eq((c.state == c.RUN) & c.held & ~self.executor.busy & ~self.tok_ok)
        with m.If(deadlock):
            m.d.comb += [c.halt.eq(1), c.halt_code.eq(fault_code("DEADLOCK")), c.halt_pc.eq(c.pc)]
        return deadlock, Const(0, 1)        # no queues: a held instruction's wait is a token stall

    def run_state(self, m: Module, c, deadlock):
        with m.If(c.halt):
            m.d.sync += [c.state.eq(c.DONE), c.top.error.eq(c.halt_code)]
        with m.Elif(c.finished & ~c.any_busy & ~c.any_queued):
            m.d.sync += c.state.eq(c.DONE)


def sequencer_class(cfg) -> type:
    """The configuration's machine: :class:`InOrderSequencer` or :class:`QueuedSequencer`."""
    return InOrderSequencer if cfg.in_order else QueuedSequencer


def sequencer_for(m: Module, cfg, dec, i_data) -> _Sequencer:
    """The configuration's machine (:func:`sequencer_class`) in ``m``."""
    return sequencer_class(cfg)(m, cfg, dec, i_data)


def runner_steps(cfg) -> dict:
    """``{runner: step bits}``: the sequencers that run the queues' instructions, each with the
    width of its step counter (as wide as its longest instruction needs): the in-order executor's
    views (``dma`` for the load and store queues, ``compute``, ``vector``: one step counter), or the
    queued machine's engines (``dma`` with one DMA engine, else ``load`` and ``store``)."""
    if cfg.in_order:
        bits = max(_bits(max_cycles(cfg, q)) for q in QUEUES)
        return {"dma": bits, "compute": bits, "vector": bits}
    out = {}
    if cfg.dma_engines == 1:
        out["dma"] = max(_bits(max_cycles(cfg, q)) for q in DMA_QUEUES)
    else:
        out.update({q: _bits(max_cycles(cfg, q)) for q in DMA_QUEUES})
    out.update({q: _bits(max_cycles(cfg, q)) for q in ("compute", "vector")})
    return out
