"""The fetch unit and the machine's control: :class:`Fetch`, which fetches and checks the program's
instructions, passes them to the queues (or holds them, in order), starts and ends each queue's
instructions (the sequencer of ``hw/sequencer.py``), keeps the dependency tokens and decides the
run's halts."""

from __future__ import annotations

from types import SimpleNamespace

from amaranth.hdl import Cat, Const, Module, Mux, Signal
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

from nnaccel.isa.table import (
    BY_NAME,
    ENGINE_START_CYCLES,
    ENGINE_START_KINDS,
    FLAG_CHANNEL,
    QUEUES,
    TOKEN_CHANNELS,
    array_overlap_on,
)

from .bounds import ENTRY_PC
from .decoder import QUEUE_CODE, Decoder, fault_code, field, opcode_of
from .dma import engine_signature
from .sequencer import runner_steps, sequencer_class, sequencer_for

__all__ = ["DELAYED_RUNNERS", "Fetch", "queue_view_signature"]

#: The runners whose engine runs a cycle behind the sequencer (:meth:`Fetch._delayed_port`): those
#: of the queues of :data:`~nnaccel.isa.table.ENGINE_START_KINDS`.
DELAYED_RUNNERS = tuple(q for q in ("compute", "vector")
                        if any(BY_NAME[n].queue == q for n in ENGINE_START_KINDS))


def queue_view_signature() -> wiring.Signature:
    """One queue's view of the engine that runs its instructions, seen from the fetch unit:
    ``start`` / ``active`` / ``complete`` / ``busy`` (that engine starts, runs, ends an instruction
    of this queue, is busy with one) and ``waiting`` (the queue's next instruction waits for a token:
    a token-stall cycle)."""
    return wiring.Signature({n: Out(1) for n in ("start", "active", "complete", "busy", "waiting")})


class Fetch(wiring.Component):
    """The fetch unit and control of configuration ``cfg``; ``marks``: ``{runner: step flags}`` the
    engines need (``DmaEngine.marks``, ``GemmEngine.marks``).

    Ports:

    - ``start`` / ``prog_addr`` / ``prog_len`` (in), ``busy`` / ``done`` / ``error`` / ``fault_pc``
      (out): the accelerator's control and status (see :class:`~nnaccel.hw.accel.Accelerator`);
      ``i_addr`` (out) / ``i_data`` (in): the instruction port;
    - one port per runner of :func:`~nnaccel.hw.sequencer.runner_steps` (``dma`` or ``load`` and
      ``store``, ``compute``, ``vector``; out, :func:`~nnaccel.hw.dma.engine_signature`): the
      instruction its engine runs and its steps; ``last`` (in) is the engine's end;
    - ``q_<queue>`` (out, :func:`queue_view_signature`) for each queue of ``QUEUES``;
    - ``ex_active`` / ``ex_complete`` (out, in order): the executor runs / ends an instruction;
    - ``running`` (out: the RUN state), ``idle`` (out: the IDLE state), ``counting`` (out: a cycle
      the ``cycles`` counter counts: every cycle of the run but the one that ends it) and
      ``fetch_stall`` (out: the checked instruction waits for room in its queue)."""

    def __init__(self, cfg, marks: dict):
        self.cfg = cfg
        self.runners = runner_steps(cfg)
        self.marks = {r: tuple(marks.get(r, ())) for r in self.runners}
        ports = {"start": In(1), "prog_addr": In(32), "prog_len": In(ENTRY_PC),
                 "busy": Out(1), "done": Out(1), "error": Out(3), "fault_pc": Out(ENTRY_PC),
                 "i_addr": Out(32), "i_data": In(128),
                 **{r: Out(engine_signature(bits, self.marks[r], overlap=r == "compute" and array_overlap_on(cfg)))
                    for r, bits in self.runners.items()},
                 **{f"q_{q}": Out(queue_view_signature()) for q in QUEUES},
                 "running": Out(1), "idle": Out(1), "counting": Out(1), "fetch_stall": Out(1)}
        if cfg.in_order:
            ports.update(ex_active=Out(1), ex_complete=Out(1))
        super().__init__(ports)

    def count_stalls(self, events):
        """The stall counters' terms (:class:`~nnaccel.hw.counters.CounterEvents`), by the
        machine's rule (the sequencer's ``count_stalls``)."""
        sequencer_class(self.cfg).count_stalls(events, self.fetch_stall,
                                               [getattr(self, f"q_{q}").waiting for q in QUEUES])

    def elaborate(self, platform):
        m = Module()
        ctx = SimpleNamespace(m=m, cfg=self.cfg)
        self._control(ctx)
        self._fetch(ctx)
        self._halts(ctx)
        self._ports(ctx)
        return m

    def _control(self, ctx):
        """The run's state, the decoder, the queues, the sequencer and the token counters."""
        m, cfg = ctx.m, ctx.cfg
        # ---------------------------------------------------------------- control, fetch, queues
        # SCAN: after a DEADLOCK, find its PC (the lowest queued instruction) by reading the fetched
        # instructions backwards, so queue entries carry no PC
        IDLE, RUN, DONE, SCAN = 0, 1, 2, 3
        state = Signal(2)
        pc = Signal(ENTRY_PC)
        finished = Signal()
        m.d.comb += [self.busy.eq((state == RUN) | (state == SCAN)), self.done.eq(state == DONE)]

        held = Signal()             # (in order) the instruction at pc is checked and waits to start
        m.submodules.decoder = dec = Decoder(cfg)
        m.d.comb += [self.i_addr.eq(self.prog_addr + (pc << 4)), dec.word.eq(self.i_data)]
        # the machine, queued or in order (hw/sequencer.py), chosen once
        seq = sequencer_for(m, cfg, dec, self.i_data)

        # tokens: one counter per channel of the table; each queue's flags name its channels
        tok = {c: Signal(16, name=f"tok_{c}") for c in TOKEN_CHANNELS.values()}
        pops = {q: {f: ch for (qq, f), ch in FLAG_CHANNEL.items() if qq == name and f.startswith("pop")}
                for q, name in enumerate(QUEUES)}
        pushes = {q: {f: ch for (qq, f), ch in FLAG_CHANNEL.items() if qq == name and f.startswith("push")}
                  for q, name in enumerate(QUEUES)}

        def hdr(word, flag):
            return field(word, "NOP", flag)

        # each channel's count is nonzero: a register beside the counter where one engine pushes
        # and one pops it (the table's channels), else the comparison
        nonzero = {c: Signal(name=f"tok_{c}_nz") for c in tok}
        oks = []
        for q, head in enumerate(seq.heads(m)):
            ok = Const(1, 1)
            for flag, ch in pops[q].items():
                ok = ok & (~hdr(head, flag) | nonzero[ch])
            if q == QUEUE_CODE["compute"] and array_overlap_on(cfg):
                ok = ok & self.compute.may_start      # (the array overlap: nothing drains, or it overlaps)
            oks.append(ok & (state == RUN))
        seq.start_engines(m, oks, held)
        engines = seq.engines
        load_engine, compute_engine, vector_engine, store_engine = (
            engines[QUEUE_CODE[q]] for q in ("load", "compute", "vector", "store"))

        for ch, count in tok.items():
            incs, decs = [], []
            for q, e in enumerate(engines):
                for flag, c2 in pushes[q].items():
                    if c2 == ch and q == QUEUE_CODE["compute"] and array_overlap_on(cfg):
                        # (the array overlap: at the completion the GEMM engine reports)
                        incs.append(self.compute.done & self.compute.done_push[flag == "push_next"])
                    elif c2 == ch:
                        incs.append(e.complete & hdr(e.word, flag))
                for flag, c2 in pops[q].items():
                    if c2 == ch:
                        decs.append(e.start & hdr(e.word, flag))
            if len(incs) == len(decs) == 1:
                # one pusher and one popper (the table's channels): +1, -1 or 0
                up, down = incs[0], decs[0]
                step = Cat(up ^ down, down & ~up)
                if cfg.in_order:
                    # in order the step reaches the counter a cycle late, through a register (off
                    # the paths from an engine's end condition): the next instruction's token
                    # check (a register of the counters) reads them three cycles or more after
                    # the completion at the earliest, and a pop is read only after that
                    # instruction's completion
                    step_r = Signal(2, name=f"tok_{ch}_step")
                    m.d.sync += step_r.eq(step)
                    step = step_r
                    m.d.sync += count.eq(count + Cat(step[0], step[1].replicate(len(count) - 1)))
                else:
                    # queued: count + 1 and count - 1 from the counter alone, the step choosing
                    # among them after the carry chains (the step, from an engine's start and end,
                    # passes no carry chain)
                    with m.If(step[0]):
                        m.d.sync += count.eq(Mux(step[1], count - 1, count + 1))
                # the next count is nonzero: a token comes, or two or more are there, or one that
                # does not go (a pop needs a token there)
                if cfg.in_order:
                    # (in order the token check is a register already: InOrderSequencer's tok_ok)
                    m.d.comb += nonzero[ch].eq(count != 0)
                else:
                    m.d.sync += nonzero[ch].eq((step[0] & ~step[1]) | (count >= 2) | ((count == 1) & ~step[1]))
            else:
                m.d.sync += count.eq(count + sum(incs) - sum(decs))
                m.d.comb += nonzero[ch].eq(count != 0)

        ctx.DONE, ctx.IDLE, ctx.RUN, ctx.SCAN = DONE, IDLE, RUN, SCAN
        ctx.dec, ctx.dma, ctx.engines, ctx.ex, ctx.fifos = dec, seq.dma, engines, seq.executor, seq.fifos
        ctx.finished, ctx.held, ctx.in_order = finished, held, cfg.in_order
        ctx.seq, ctx.top = seq, self
        ctx.load_engine, ctx.compute_engine, ctx.vector_engine, ctx.store_engine = (
            load_engine, compute_engine, vector_engine, store_engine)
        ctx.pc, ctx.state = pc, state

    def _fetch(self, ctx):
        """Fetch: the instruction at ``pc`` checked and passed on (into its queue, or held in order:
        the sequencer's :meth:`accept`)."""
        m, IDLE, RUN, dec, seq = ctx.m, ctx.IDLE, ctx.RUN, ctx.dec, ctx.seq
        finished, held, pc, state = ctx.finished, ctx.held, ctx.pc, ctx.state
        room = seq.room(m)
        fetching = (state == RUN) & ~finished
        advance = Signal()      # the word is passed on: the decoder's checks restart on the next one
        m.d.comb += dec.restart.eq(advance | ((state == IDLE) & self.start))
        halt = Signal()
        halt_code = Signal(3)
        halt_pc = Signal(ENTRY_PC)
        # pc == prog_len from a register (a 24-bit comparison off the control's paths): it trails pc
        # by a cycle, which the checks hide: after pc moves on, the decoder's verdict takes at least
        # two cycles, so nothing is passed on, and no fault or FINISH is seen, while it trails
        at_end = Signal()
        m.d.sync += at_end.eq(Mux(state == IDLE, self.prog_len == 0, pc == self.prog_len))
        with m.If(fetching):
            with m.If(at_end):
                m.d.comb += [halt.eq(1), halt_code.eq(fault_code("NO_FINISH")), halt_pc.eq(pc)]
            with m.Elif(dec.fault != 0):
                m.d.comb += [halt.eq(1), halt_code.eq(dec.fault), halt_pc.eq(pc)]
            with m.Elif(dec.is_finish & dec.ready):
                m.d.sync += finished.eq(1)
            with m.Elif(dec.ready & room):
                seq.accept(m, advance, pc, held)
        ctx.at_end, ctx.fetching, ctx.halt, ctx.halt_code, ctx.halt_pc = at_end, fetching, halt, halt_code, halt_pc

    def _halts(self, ctx):
        """Deadlock (the sequencer's rule) and the run's state machine."""
        m, IDLE, RUN, seq = ctx.m, ctx.IDLE, ctx.RUN, ctx.seq
        finished, held, pc, state = ctx.finished, ctx.held, ctx.pc, ctx.state
        any_busy = Const(0, 1)
        any_start = Const(0, 1)
        any_queued = Const(0, 1)
        any_push = Const(0, 1)
        for e in ctx.engines:
            any_busy = any_busy | e.busy
            any_start = any_start | e.start
        if array_overlap_on(self.cfg):
            any_busy = any_busy | self.compute.draining
        for f in seq.fifos:
            any_queued = any_queued | (f.count != 0)
            any_push = any_push | f.push
        ctx.any_busy, ctx.any_start, ctx.any_queued, ctx.any_push = any_busy, any_start, any_queued, any_push
        deadlock, fetch_stall = seq.deadlock(m, ctx)
        with m.Switch(state):
            with m.Case(IDLE), m.If(self.start):
                m.d.sync += [state.eq(RUN), pc.eq(0), finished.eq(0), held.eq(0)]
            with m.Case(RUN):
                seq.run_state(m, ctx, deadlock)
            seq.other_states(m, ctx)
        ctx.fetch_stall = fetch_stall

    def _ports(self, ctx):
        """The runners' and the queues' ports, and the counters' terms of the run."""
        m, seq, state = ctx.m, ctx.seq, ctx.state
        runner = {"compute": ctx.compute_engine, "vector": ctx.vector_engine}
        if "dma" in self.runners:
            runner["dma"] = seq.dma
        else:
            runner["load"], runner["store"] = ctx.load_engine, ctx.store_engine
        for r, eng in runner.items():
            port = getattr(self, r)
            if r in DELAYED_RUNNERS:
                self._delayed_port(m, r, eng, port)
                continue
            m.d.comb += [port.word.eq(eng.word), port.start.eq(eng.start), port.active.eq(eng.active),
                         port.complete.eq(eng.complete), port.step.eq(eng.step)]
            m.d.comb += [getattr(port, f"at_least_{c}").eq(eng.step_at_least(c)) for c in self.marks[r]]
            eng.set_last(m, port.last)
        for q, e in zip(QUEUES, ctx.engines, strict=True):
            v = getattr(self, f"q_{q}")
            # (the array overlap: a compute head that waits for a drain does not wait for a token)
            ready = self.compute.may_start if q == "compute" and array_overlap_on(self.cfg) else 1
            m.d.comb += [v.start.eq(e.start), v.active.eq(e.active), v.complete.eq(e.complete),
                         v.busy.eq(e.busy), v.waiting.eq(e.waiting & ready)]
        if self.cfg.in_order:
            m.d.comb += [self.ex_active.eq(ctx.ex.active), self.ex_complete.eq(ctx.ex.complete)]
        # cycles: every cycle of the run but the one that ends it
        m.d.comb += [self.running.eq(state == ctx.RUN), self.idle.eq(state == ctx.IDLE),
                     self.counting.eq((state == ctx.RUN) & ~ctx.halt & ~(ctx.finished & ~ctx.any_busy & ~ctx.any_queued)),
                     self.fetch_stall.eq(ctx.fetch_stall)]

    def _delayed_port(self, m, r, eng, port):
        """Runner ``r``'s port with its engine a cycle behind the sequencer (``r`` in
        :data:`DELAYED_RUNNERS`): an instruction of :data:`~nnaccel.isa.table.ENGINE_START_KINDS`
        starts (the sequencer's ``start``, from the token check) in a cycle in which its engine
        does nothing; the engine sees its start, through a register, in the next cycle, and its
        steps from then on (``step``: the sequencer's, a cycle late; ``active``: the sequencer's
        busy flag), so its end condition (``last``) ends the instruction
        :data:`~nnaccel.isa.table.ENGINE_START_CYCLES` cycles after it would end without the
        register. A NOP of the queue runs in its start cycle, its engine idle."""
        assert ENGINE_START_CYCLES == 1, "the engine's start passes one register"
        op = field(eng.word, "NOP", "opcode")
        long = Const(0, 1)
        for name in ENGINE_START_KINDS:
            long = long | (op == opcode_of(name))
        start_r = Signal(name=f"{r}_estart")
        step_r = Signal(len(port.step), name=f"{r}_estep")
        m.d.sync += [start_r.eq(eng.start & long), step_r.eq(Mux(eng.complete, 0, eng.step))]
        m.d.comb += [port.word.eq(eng.word), port.start.eq(start_r), port.active.eq(eng.busy),
                     port.complete.eq(eng.complete), port.step.eq(step_r)]
        # the engine's step >= c: the sequencer's step >= c + 1 while the engine runs
        m.d.comb += [getattr(port, f"at_least_{c}").eq(eng.step_at_least(c + ENGINE_START_CYCLES))
                     for c in self.marks[r]]
        eng.set_last(m, port.last & ~(eng.start & long))
