"""The accelerator: the fetch unit (:class:`~nnaccel.hw.fetch.Fetch`: fetch + decode, the
instruction queues, the dependency-token channels of ``TOKEN_CHANNELS``, the halts), four in-order
engines (load / store = :class:`~nnaccel.hw.dma.DmaEngine`, compute =
:class:`~nnaccel.hw.gemm.GemmEngine` with the double-buffered systolic array, vector =
:class:`~nnaccel.hw.vecengine.VectorEngine`; the queues of ``nnaccel.isa.table.QUEUES``),
scratchpads, performance counters and status registers — and :class:`SimTop`, the accelerator
wired to the external-memory model for simulation.

Timing is the ISA's queue model exactly (``docs/isa.md``): the fetch unit appends an instruction
to its queue ``fetch_cycles`` (the table's, per kind) cycles after the previous one at the
earliest (a queue holds ``cfg.queue_depth_of(queue)`` waiting instructions), an engine starts its queue's head in the first cycle in which it is idle, the head has been fetched at least one cycle
earlier and every token it pops is there, and then stays busy for exactly the instruction's
``cycles`` (a step counter ``k = 0 .. cycles-1``); tokens it pushes and the counters it adds become
visible at its completion cycle (the stall counters count each stall cycle as it passes). With
the ISA's array overlap (queues, two weight buffers) a GEMM / DWCONV leaves the compute queue at
its release and its results drain behind it (:meth:`~nnaccel.hw.gemm.GemmEngine._overlap`), its
tokens and counters at its completion. So
``f(i)``, ``s(i)`` and ``e(i)`` of every instruction equal the ISA simulator's. The GEMM and VEC
engines run concurrently. An in-order configuration (``in_order``, tiny) has no queues: the
fetch unit checks the instruction at ``pc`` once the previous one has completed, and
:class:`_InOrder` runs it straight from the instruction port, one instruction at a time; its
per-queue views drive the same datapaths. With ``weight_buffers = 1`` the array holds one weight
tile and a GEMM reads the next tile's weights after each stream (see the GEMM timing below).

Area: a queue's entries keep only the instruction bits its instructions use
(:func:`queue_entry`: legal flags, an index for the opcode, fields cut to what the decoder's
fetch-time checks bound); an instruction stays at its queue's head until it completes, so no
engine copies it; step / byte / MAC counters are as wide as the ISA's largest instruction needs
(:func:`max_cycles`, :func:`max_event`, from the ISA's formulas, :mod:`nnaccel.isa.cycles`).

Inside an instruction (step ``k``, relative to its start):

- LOAD / STORE: ``ext_latency`` steps of memory latency, then one line per
  ``B = max(1, ceil(len * element_bytes / dma_bytes_per_cycle))`` steps, one beat of
  ``dma_bytes_per_cycle`` bytes a step (:class:`~nnaccel.hw.dma.DmaEngine`: the load / store ports
  are one beat wide; LOAD writes each element at the beat that carries it, the fill at the line's
  first beat; STORE reads its scratchpad line one step ahead and sends a beat a step). With
  ``dma_engines = 1`` (tiny) one engine (one sequencer, :class:`_DmaEngine`: one step counter;
  one box walk, one byte count) serves the load and store queues, one instruction at a time
  (``DMA_PRIORITY``'s queue first on a tie).
- GEMM (``kt + 1`` K tiles, slot ``T = max(nx * ny, rows)`` each): with ``preload``, steps
  ``0 .. rows-1`` read tile 0's weights (loaded into the idle buffer of the array one step later);
  from step ``pre`` on, tile ``t`` streams one activation line per step in steps
  ``pre + t*T .. pre + t*T + nx*ny - 1`` while tile ``t+1``'s weights are read in the first ``rows``
  steps of the same slot into the other buffer. Results leave the array ``rows + cols - 1 +
  pe_pipeline`` steps after the line entered and are written to ACC (added to the old line when ``accumulate`` or
  ``t > 0``), the last one at step ``cycles - 1``.
- VEC: its engine takes its first step ``ENGINE_START_CYCLES`` after the instruction starts (the
  start reaches it through a register, :meth:`~nnaccel.hw.fetch.Fetch._delayed_port`; its steps
  below count from there); ``P`` steps read the parameter block; then each line takes ``ceil(cols / vector_lanes) *
  VecFunc.group_cycles(cfg)`` steps (each lane has one fixed-point multiplier, which
  ADDQ / SUBQ use three times, and which forms its product over ``vector_mul_steps`` cycles); the
  line is written once its last lane group has passed the lane's registers (``vector_pipeline``;
  the pipelined lane takes the groups of MULQ / ADDQ / SUBQ in batches, ``VecFunc.groups_cycles``);
  ``vector_latency`` steps end the instruction.
- RDPERF: after the latency, :func:`~nnaccel.hw.extmem.counters_per_beat` counters per step: those
  at the head of the counter ring (``count_events``), which the ISA's rotated order samples; the
  host port ``cnt_id`` / ``cnt_data`` shows the same counters every cycle.

Faults are decided at fetch by the generated :class:`~nnaccel.hw.decoder.Decoder`; the machine then
stops (``done`` with ``error`` = the fault code, ``fault_pc`` = the instruction index) without
starting the faulting instruction, so a DMA outside the window writes nothing. DEADLOCK is raised
when no engine is busy or can start and fetch cannot go on; its PC (the lowest queued instruction)
is then found by reading the fetched instructions backwards (``busy`` stays high meanwhile, the
cycle counter has stopped). A program must set ``prog_len``;
fetching past it is NO_FINISH.

Requires ``ext_latency >= 1`` (STORE reads its first line during the last latency step).
"""

from __future__ import annotations

from types import SimpleNamespace

from amaranth.hdl import Array, Cat, Const, Fragment, Module, Mux, Signal, unsigned
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

from nnaccel.hwconfig import ELEMENT_BYTES, load_config
from nnaccel.isa.table import (
    ENGINE_START_CYCLES,
    N_COUNTERS,
    QUEUES,
    SPACE_ENUM,
)

from .bounds import ENTRY_PC, _ceil
from .counters import CounterEvents, PerfCounters, counter_read_signature
from .decoder import CONTROL_QUEUE, QUEUE_CODE, field, opcode_of
from .dma import DmaEngine
from .extmem import ExtMemory, counters_per_beat, load_port_bytes, store_port_bytes, word_bytes
from .fetch import DELAYED_RUNNERS, Fetch
from .gemm import GemmEngine
from .scratchpad import BankedScratchpad
from .sequencer import runner_steps
from .vecengine import VectorEngine

__all__ = ["Accelerator", "SimTop"]


class Accelerator(wiring.Component):
    """The accelerator core for one hardware configuration (ports: control/status, counters, and
    the instruction / load / store ports of external memory; see :class:`SimTop`)."""

    def __init__(self, config="tiny", dsp_cells: int | None = None, array_dsp: str | None = None,
                 probe: dict | None = None):
        self.cfg = cfg = load_config(config)
        #: Simulation only (``SimTop(probe=True)``): signals this drives, ``start`` / ``complete``
        #: (bit q: queue ``QUEUES[q]``) high in the cycle that queue's engine starts an instruction /
        #: in the instruction's last cycle.
        self.probe = probe
        self.dsp_cells = dsp_cells          # array cells on DSP multipliers (None: all; synthesis sets it)
        self.array_dsp = array_dsp          # how they use DSPs (SystolicArray's dsp; synthesis sets it)
        if cfg.ext_latency < 1:
            raise ValueError("The RTL needs ext_latency >= 1 (STORE reads its first line during the "
                             "last latency cycle).")
        if cfg.dma_bytes_per_cycle < max(ELEMENT_BYTES.values()) or cfg.cols > cfg.dma_bytes_per_cycle:
            raise ValueError(f"The RTL's DMA moves one beat of dma_bytes_per_cycle bytes a step and writes "
                             f"whole elements, and a line of 1-byte elements in one beat: it needs "
                             f"dma_bytes_per_cycle >= {max(ELEMENT_BYTES.values())} and >= cols "
                             f"({cfg.dma_bytes_per_cycle}, cols {cfg.cols}).")
        self.wb = word_bytes(cfg)
        self.lb, self.sb = load_port_bytes(cfg), store_port_bytes(cfg)
        self.k_per = counters_per_beat(cfg)
        self.n_beats = _ceil(N_COUNTERS, self.k_per)
        super().__init__({
            "start": In(1), "prog_addr": In(32), "prog_len": In(ENTRY_PC),
            "busy": Out(1), "done": Out(1), "error": Out(3), "fault_pc": Out(ENTRY_PC),
            "sp_collision": Out(1),
            "cnt_id": Out(range(self.n_beats)), "cnt_data": Out(64 * self.k_per),
            "i_addr": Out(32), "i_data": In(128),
            # one DMA engine: one external address for its loads and stores (dma_addr)
            **({"dma_addr": Out(32)} if cfg.dma_engines == 1 else {"ld_addr": Out(32), "st_addr": Out(32)}),
            "ld_data": In(8 * self.lb),
            "st_en": Out(1), "st_len": Out(range(self.sb + 1)), "st_data": Out(8 * self.sb),
        })

    def counters_block(self):
        """A fresh :class:`~nnaccel.hw.counters.PerfCounters` with the increment ports this
        accelerator's counters have (it elaborates the accelerator to collect its terms), for
        synthesizing the block alone."""
        Fragment.get(self, None)
        return PerfCounters(self.cfg, self.counter_inputs)

    def dma_block(self):
        """A fresh :class:`~nnaccel.hw.dma.DmaEngine` like this accelerator's engine of the load
        queue (with one DMA engine, the engine of both queues), for synthesizing the block alone."""
        Fragment.get(self, None)
        return DmaEngine(self.cfg, *self.dma_params)

    def gemm_block(self):
        """A fresh :class:`~nnaccel.hw.gemm.GemmEngine` like this accelerator's engine of the compute
        queue, for synthesizing the block alone."""
        Fragment.get(self, None)
        return GemmEngine(self.cfg, *self.gemm_params, dsp_cells=self.dsp_cells, array_dsp=self.array_dsp)

    def fetch_block(self):
        """A fresh :class:`~nnaccel.hw.fetch.Fetch` like this accelerator's fetch unit (with the
        step flags its engines ask for), for synthesizing the block alone."""
        Fragment.get(self, None)
        return Fetch(self.cfg, *self.fetch_params)

    # ------------------------------------------------------------------------------------------
    def elaborate(self, platform):
        m = Module()
        cfg = self.cfg
        ctx = SimpleNamespace(m=m, cfg=cfg, R=cfg.rows, C=cfg.cols, L=cfg.ext_latency)
        self._scratchpads(ctx)
        self._control(ctx)
        self._counters(ctx)
        self._dma(ctx)
        self._gemm(ctx)
        self._vector(ctx)
        self._collisions(ctx)
        ctx.count_events()
        if self.probe is not None:
            # (the array overlap: a compute-queue instruction completes at its engine's done)
            ends = [ctx.fetch.compute.done if q == "compute" and ctx.gemm.overlap else e.complete
                    for q, e in zip(QUEUES, ctx.views, strict=True)]
            m.d.comb += [self.probe["start"].eq(Cat(*[e.start for e in ctx.views])),
                         self.probe["complete"].eq(Cat(*ends))]
        return m

    def _scratchpads(self, ctx):
        """The scratchpads and their logical ports."""
        m, cfg, C = ctx.m, ctx.cfg, ctx.C
        # ---------------------------------------------------------------- scratchpads
        widths = {s: C * 8 * ELEMENT_BYTES[s] for s in SPACE_ENUM}
        # one BankedScratchpad per space: cfg.banks(s) block RAMs of one write and one read port
        # each, shared by the logical ports below through per-bank multiplexers (docs/rtl.md)
        mems = {}
        for s in SPACE_ENUM:
            # (a line of more than one DMA beat is written element by element: DmaEngine's write masks)
            # (in order: one write bus and one read bus per lane, see BankedScratchpad's exclusive)
            m.submodules[f"sp_{s.lower()}"] = mems[s] = BankedScratchpad(cfg.lines(s), widths[s], cfg.banks(s),
                                                                         name=f"sp_{s.lower()}",
                                                                         exclusive=cfg.in_order)
        # logical ports per space: ACT 2 writes (load, vector) + 4 reads (GEMM, VEC src, VEC src2,
        # store); ACC 3 writes (load, GEMM, vector) + 3 reads; WGT and VEC 1 write (load) + 2 reads
        if cfg.in_order:
            # the GEMM's 128 distinct bits outermost on ACC's write bus: the load's and the
            # vector engine's lines repeat one 32-bit value, so the multiplexer between them is
            # one element wide
            wg_acc = mems["ACC"].write_port("gemm")                           # GEMM engine
        wl = {s: mems[s].write_port("load") for s in SPACE_ENUM}              # load engine
        if not cfg.in_order:
            wg_acc = mems["ACC"].write_port("gemm")                           # GEMM engine
        wv = {s: mems[s].write_port("vec") for s in ("ACT", "ACC")}           # vector engine
        rg = {s: mems[s].read_port("gemm") for s in ("ACT", "WGT", "ACC")}    # GEMM engine
        rv = {s: mems[s].read_port("vec") for s in ("ACT", "ACC", "VEC")}     # vector engine
        rv2 = mems["ACT"].read_port("vec2", lane=1)                           # VEC second source
        rs = {s: mems[s].read_port("store") for s in SPACE_ENUM}              # store engine
        ctx.mems, ctx.rg, ctx.rs, ctx.rv, ctx.rv2, ctx.wg_acc, ctx.wl = mems, rg, rs, rv, rv2, wg_acc, wl
        ctx.wv = wv

    def _control(self, ctx):
        """The fetch unit and the machine's control (:class:`~nnaccel.hw.fetch.Fetch`), built after
        the engines that ask for its step flags (their ``marks``), and the counters' read side."""
        m, cfg = ctx.m, ctx.cfg
        steps = runner_steps(cfg)
        # the engines of the DMA queues (one for both, or one each) and of the compute queue
        dma_queues = [("load", "store")] if "dma" in steps else [("load",), ("store",)]
        ctx.dmas = {q: DmaEngine(cfg, q, steps["dma" if len(q) == 2 else q[0]]) for q in dma_queues}
        ctx.gemm = GemmEngine(cfg, steps["compute"], dsp_cells=self.dsp_cells, array_dsp=self.array_dsp)
        marks = {("dma" if len(q) == 2 else q[0]): d.marks for q, d in ctx.dmas.items()}
        marks["compute"] = ctx.gemm.marks
        self.fetch_params = (marks,)
        m.submodules.fetch = fetch = Fetch(cfg, marks)
        m.d.comb += [fetch.start.eq(self.start), fetch.prog_addr.eq(self.prog_addr), fetch.prog_len.eq(self.prog_len),
                     self.busy.eq(fetch.busy), self.done.eq(fetch.done), self.error.eq(fetch.error),
                     self.fault_pc.eq(fetch.fault_pc), self.i_addr.eq(fetch.i_addr), fetch.i_data.eq(self.i_data)]
        # each runner's instruction cycles at its completion step (step + 1)
        ctx.cycles = {}
        for r in steps:
            port = getattr(fetch, r)
            ctx.cycles[r] = Signal(len(port.step), name=f"{r}_cyclesc")
            # (an engine a cycle behind its sequencer, DELAYED_RUNNERS: its step a cycle late)
            m.d.comb += ctx.cycles[r].eq(port.step + 1 + (ENGINE_START_CYCLES if r in DELAYED_RUNNERS else 0))
        ctx.fetch, ctx.views = fetch, [getattr(fetch, f"q_{q}") for q in QUEUES]
        # the counters' read side (hw/counters.py: built by count_events, once every term is known):
        # the k counters at the ring's head, zero-extended to 64 bits on the port
        counter_bits = cfg.counter_bits
        ctx.counter_read = counter_read = counter_read_signature(cfg).flip().create(path=("counter_read",))
        m.d.comb += [self.cnt_id.eq(counter_read.phase),
                     self.cnt_data.eq(Cat(*[Cat(counter_read.data[counter_bits * j:counter_bits * (j + 1)],
                                                Const(0, 64 - counter_bits)) for j in range(self.k_per)]))]
        ctx.in_order, ctx.n_beats = cfg.in_order, self.n_beats

    def _counters(self, ctx):
        """The performance counters: the engines add their terms (:class:`CounterEvents`, here the
        cycles and the stalls); ``count_events`` builds the counters (:class:`PerfCounters`) once
        every term is known."""
        m, cfg, fetch = ctx.m, ctx.cfg, ctx.fetch
        events = CounterEvents(cfg)
        fetch.count_stalls(events)
        ring_collision = Signal(name="ring_collision")

        def count_events():
            events.add("cycles", fetch.counting, 1, events.n_beats)
            self.counter_inputs = events.inputs()
            m.submodules.counters = counters = PerfCounters(cfg, self.counter_inputs)
            sums = events.sums()
            m.d.comb += [counters.run.eq(fetch.running), counters.clear.eq(fetch.idle & self.start),
                         ring_collision.eq(counters.collision)]
            for name in counters.inputs:
                inc = sums.get(name, 0)
                if cfg.in_order and name != "cycles" and name in sums:
                    # in order an instruction's events reach the counters a cycle late, through a
                    # register (off the paths from an engine's end condition): only a later
                    # instruction, at least three cycles on, or the host after the run reads them
                    q = Signal(len(getattr(counters, f"inc_{name}")), name=f"inc_{name}_q")
                    m.d.sync += q.eq(Mux(fetch.running, inc, 0))
                    inc = q
                m.d.comb += getattr(counters, f"inc_{name}").eq(inc)
            wiring.connect(m, counters.read, ctx.counter_read)

        ctx.add_event, ctx.count_events, ctx.every = events.add, count_events, events.every
        ctx.ring_collision, ctx.scale = ring_collision, events.units

    def _dma(self, ctx):
        """The load and store engines (a :class:`DmaEngine` each), or one DMA engine for both
        queues, and their counters."""
        m, cfg, L, add_event, fetch = ctx.m, ctx.cfg, ctx.L, ctx.add_event, ctx.fetch
        if "dma" not in ctx.cycles:
            load_engine, store_engine = fetch.load, fetch.store
            load = self._dma_engine(ctx, ("load",))
            store = self._dma_engine(ctx, ("store",))
            m.d.comb += [self.ld_addr.eq(load.ld.addr), self.st_addr.eq(store.st.addr)]
            add_event("load_busy", load_engine.complete, ctx.cycles["load"])
            add_event("dma_load_bytes", load_engine.complete & load.is_load, load.bytes)
            add_event("dma_latency", load_engine.complete & load.is_load, L)
            add_event("store_busy", store_engine.complete, ctx.cycles["store"])
            add_event("dma_store_bytes", store_engine.complete & store.is_store, store.bytes)
            add_event("dma_store_bytes", store_engine.complete & store.is_rdperf, 8 * N_COUNTERS)
            add_event("dma_latency", store_engine.complete & (store.is_store | store.is_rdperf), L)
            return
        # one engine for the load and store queues: one walk of the box for the instruction running
        d = self._dma_engine(ctx, ("load", "store"))
        dma, dma_cycles = fetch.dma, ctx.cycles["dma"]
        m.d.comb += self.dma_addr.eq(d.st.addr)
        is_load, is_store, is_rdperf = d.is_load, d.is_store, d.is_rdperf
        is_box = is_load | is_store
        lv, sv = fetch.q_load, fetch.q_store
        if cfg.in_order:
            # as they pass: a busy cycle, a data line's bytes at its end (a line of n bytes
            # takes >= n / dma_bytes_per_cycle steps); RDPERF's own events at its completion
            # (it samples only completed instructions: its busy cycles, bytes and latency are
            # constants of the ISA)
            beat_bytes, n_beats, every = cfg.dma_bytes_per_cycle, ctx.n_beats, ctx.every
            rd_cycles = L + d.perf_cycles
            beats_max = max(1, _ceil(cfg.line_elems * max(ELEMENT_BYTES.values()), beat_bytes))
            byte_window = beat_bytes * (n_beats + beats_max - 1)
            add_event("load_busy", lv.active, 1, n_beats)
            add_event("store_busy", sv.active & ~is_rdperf, 1, n_beats)
            add_event("store_busy", sv.complete & is_rdperf, rd_cycles, rd_cycles * every(rd_cycles))
            add_event("dma_load_bytes", is_load, d.line_bytes, byte_window)
            add_event("dma_store_bytes", is_store, d.line_bytes, byte_window)
            add_event("dma_store_bytes", dma.complete & is_rdperf, 8 * N_COUNTERS,
                      8 * N_COUNTERS * every(rd_cycles))
            add_event("dma_latency", dma.complete & (is_box | is_rdperf), L, L * every(L + 1))
        else:
            add_event("load_busy", lv.complete, dma_cycles)
            add_event("store_busy", sv.complete, dma_cycles)
            add_event("dma_load_bytes", dma.complete & is_load, d.bytes)
            add_event("dma_store_bytes", dma.complete & is_store, d.bytes)
            add_event("dma_store_bytes", dma.complete & is_rdperf, 8 * N_COUNTERS)
            add_event("dma_latency", dma.complete & (is_box | is_rdperf), L)

    def _dma_engine(self, ctx, queues):
        """The :class:`DmaEngine` of ``queues`` on its runner's port of the fetch unit, its
        scratchpad ports, the memory ports and the counters."""
        m, mems = ctx.m, ctx.mems
        d = ctx.dmas[queues]
        if "load" in queues:
            self.dma_params = (queues, len(d.seq.step))
        m.submodules[f"{d.name}_engine"] = d
        wiring.connect(m, getattr(ctx.fetch, d.name), d.seq)
        for s in SPACE_ENUM:
            if "load" in queues:
                wiring.connect(m, getattr(d, f"wr_{s.lower()}"), ctx.wl[s])
                if not d.one_beat[s]:       # a line of more than one beat: element write enables
                    mask = mems[s].write_mask(ctx.wl[s], 8 * ELEMENT_BYTES[s])
                    m.d.comb += mask.eq(getattr(d, f"wr_{s.lower()}_mask"))
            if "store" in queues:
                wiring.connect(m, getattr(d, f"rd_{s.lower()}"), ctx.rs[s])
        if "load" in queues:
            m.d.comb += d.ld.data.eq(self.ld_data)
        if "store" in queues:
            m.d.comb += [self.st_en.eq(d.st.en), self.st_len.eq(d.st.len), self.st_data.eq(d.st.data),
                         d.counters.phase.eq(ctx.counter_read.phase),
                         d.counters.data.eq(ctx.counter_read.data)]
        return d


    def _gemm(self, ctx):
        """The GEMM engine (:class:`~nnaccel.hw.gemm.GemmEngine`, the compute queue's) on its
        runner's port of the fetch unit and its scratchpad ports, and its counters."""
        m, cfg, add_event, eng, g = ctx.m, ctx.cfg, ctx.add_event, ctx.fetch.compute, ctx.gemm
        self.gemm_params = (len(eng.step),)
        m.submodules.compute = g
        wiring.connect(m, eng, g.seq)
        for port, sp in ((g.rd_act, ctx.rg["ACT"]), (g.rd_wgt, ctx.rg["WGT"]), (g.rd_acc, ctx.rg["ACC"]),
                         (g.wr_acc, ctx.wg_acc)):
            wiring.connect(m, port, sp)
        if cfg.in_order:    # as they pass: a busy cycle, a streamed line (rows * cols MACs)
            add_event("array_busy", ctx.fetch.q_compute.active & g.is_arr, 1, ctx.n_beats)
            add_event("macs", g.streaming, 1, ctx.n_beats)
            ctx.scale["macs"] = cfg.rows * cfg.cols
        elif g.overlap:     # (the array overlap: at the completion, after the release)
            add_event("array_busy", g.arr_done, g.done_cycles)
            add_event("macs", g.arr_done, g.done_macs)
        else:
            add_event("array_busy", eng.complete & g.is_arr, ctx.cycles["compute"])
            add_event("macs", eng.complete & g.is_arr, g.macs)

    def _vector(self, ctx):
        """The vector engine and its scratchpad ports."""
        m, cfg, add_event, fetch = ctx.m, ctx.cfg, ctx.add_event, ctx.fetch
        in_order, mems, n_beats, rv, rv2 = ctx.in_order, ctx.mems, ctx.n_beats, ctx.rv, ctx.rv2
        vector_engine, wv = fetch.vector, ctx.wv
        # ---------------------------------------------------------------- vector engine (vector queue)
        # hw/vecengine.py: driven by the vector queue's engine skeleton, on its own scratchpad ports
        m.submodules.vec = vu = VectorEngine(cfg, shared_walks=in_order)
        if in_order:
            # the walks and line counters are the GEMM engine's (GemmEngine.walks)
            walks = ctx.gemm.walks
            m.d.comb += [vu.dst_cur.eq(walks.dst_cur), vu.src_cur.eq(walks.src_cur), vu.rx_last.eq(walks.rx_last),
                         vu.rline_last.eq(walks.rline_last), vu.wx_last.eq(walks.wx_last),
                         walks.dst_adv.eq(vu.dst_adv), walks.src_adv.eq(vu.src_adv), walks.idle.eq(~fetch.ex_active)]
        is_vec = field(vector_engine.word, "NOP", "opcode") == opcode_of("VEC")
        m.d.comb += [
            vu.word.eq(vector_engine.word), vu.start.eq(vector_engine.start), vu.active.eq(vector_engine.active),
            vu.busy.eq(vector_engine.active & ~vector_engine.start), vector_engine.last.eq(vu.last),
        ]
        for port, sp in ((vu.rd_act, rv["ACT"]), (vu.rd_act2, rv2), (vu.rd_acc, rv["ACC"]), (vu.rd_vec, rv["VEC"]),
                         (vu.wr_act, wv["ACT"]), (vu.wr_acc, wv["ACC"])):
            wiring.connect(m, port, sp)
        if cfg.in_order:
            # one instruction at a time: element writes, sources read once a line and held
            m.d.comb += [mems["ACT"].write_mask(wv["ACT"], 8 * ELEMENT_BYTES["ACT"]).eq(vu.wact_mask),
                         mems["ACC"].write_mask(wv["ACC"], 8 * ELEMENT_BYTES["ACC"]).eq(vu.wacc_mask)]
            m.d.comb += [mems[s].read_hold(p).eq(vu.hold) for s, p in (("ACT", rv["ACT"]), ("ACT", rv2),
                                                                       ("ACC", rv["ACC"]))]
            m.d.comb += mems["VEC"].read_hold(rv["VEC"]).eq(vu.vhold)
        if cfg.in_order:
            add_event("vector_busy", fetch.q_vector.active & is_vec, 1, n_beats)
            add_event("instructions", fetch.ex_complete, 1, n_beats)
        else:
            add_event("vector_busy", vector_engine.complete & is_vec, ctx.cycles["vector"])
            for q, e in zip(QUEUES, ctx.views, strict=True):
                # (the array overlap: the compute queue's instructions complete where its engine says)
                add_event("instructions", fetch.compute.done if q == "compute" and ctx.gemm.overlap else e.complete, 1)

        # a scratchpad bank wrote the line a reader needed in the same cycle since the run started
        # (undefined on the FPGA: BankedScratchpad); every RTL run checks it stays 0
        ctx.vu = vu

    def _collisions(self, ctx):
        """The scratchpad collision flag."""
        m, mems, ring_collision, vu = ctx.m, ctx.mems, ctx.ring_collision, ctx.vu
        # (or another block RAM marked COLLISION_UNDEFINED: the vector engine's LUT, cnt_ring)
        # (a cycle's collision shows from the next cycle on: by then done has not risen yet, or
        # rises in the same cycle; the scratchpads register their own, BankedScratchpad.collision)
        collided = Signal()
        collide_other = Signal()
        m.d.sync += collide_other.eq(vu.collision | ring_collision)
        collide = Cat(*[mems[s].collision for s in SPACE_ENUM], collide_other).any()
        with m.If(ctx.fetch.idle & self.start):
            m.d.sync += collided.eq(0)
        with m.Elif(collide):
            m.d.sync += collided.eq(1)
        m.d.comb += self.sp_collision.eq(collided | collide)



assert QUEUE_CODE == {q: n for n, q in enumerate(QUEUES)} and CONTROL_QUEUE == len(QUEUES)


class SimTop(wiring.Component):
    """:class:`Accelerator` + :class:`~nnaccel.hw.extmem.ExtMemory`: the simulation top level.

    The host port (``h_addr`` word index, ``h_we``, ``h_wdata``, ``h_rdata``) loads memory while
    the accelerator is idle; ``start`` (one cycle) runs the program at ``prog_addr`` (16-byte
    aligned) of ``prog_len`` instructions; ``done`` rises when it has finished or faulted and the
    counters have been collected from ``cnt_id`` / ``cnt_data`` into ``counters``.

    ``run_cycles`` (64 bits, simulation only: no synthesized design has it) is the run's length,
    counted here: the cycles the ``cycles`` counter counts (every cycle of the run but the one that
    ends it, a SCAN after a DEADLOCK not included), which do not wrap, so it equals the ``cycles``
    counter modulo ``2 ** counter_bits``. It counts the cycles in which the accelerator is busy
    with no fault reported (``error`` is 0 from reset to the run's end: the accelerator records a
    halt's code as it leaves RUN, and a run ends in DONE until reset), less the run's last one."""

    def __init__(self, config="tiny", mem_bytes: int = 1 << 20, probe: bool = False):
        self.cfg = load_config(config)
        self.mem_bytes = mem_bytes
        #: ``probe``: the accelerator's per-queue start / complete signals (:attr:`Accelerator.probe`),
        #: for a recorder beside this top level (``nnaccel.sim.rtl_runner``'s trace builds).
        self.probe = {k: Signal(len(QUEUES), name=f"probe_{k}") for k in ("start", "complete")} if probe else None
        self.wb = word_bytes(self.cfg)
        depth = mem_bytes // self.wb
        super().__init__({
            "start": In(1), "prog_addr": In(32), "prog_len": In(ENTRY_PC),
            "busy": Out(1), "done": Out(1), "error": Out(3), "fault_pc": Out(ENTRY_PC),
            "sp_collision": Out(1),
            "counters": Out(unsigned(64 * N_COUNTERS)), "run_cycles": Out(64),
            "h_addr": In(range(depth)), "h_we": In(1), "h_wdata": In(self.wb * 8), "h_rdata": Out(self.wb * 8),
        })

    def elaborate(self, platform):
        m = Module()
        m.submodules.accel = acc = Accelerator(self.cfg, probe=self.probe)
        m.submodules.mem = mem = ExtMemory(self.cfg, self.mem_bytes)
        # after done: collect the counters as they pass (k per cycle, counter k*cnt_id + j)
        k, nb = acc.k_per, acc.n_beats
        rd = Signal(range(nb + 1))
        groups = Array([Signal(64 * k, name=f"counters{b}") for b in range(nb)])
        with m.If(self.start):
            m.d.sync += rd.eq(0)
        with m.Elif(acc.done & (rd < nb)):
            m.d.sync += [groups[acc.cnt_id].eq(acc.cnt_data), rd.eq(rd + 1)]
        # the run's length (see the class): a RUN cycle counts from the second one on, so the run's
        # last RUN cycle (the one that ends it) is left out as the cycles counter leaves it out
        running = Signal()
        with m.If(self.start & ~acc.busy & ~acc.done):
            m.d.sync += [self.run_cycles.eq(0), running.eq(0)]
        with m.Elif(acc.busy & (acc.error == 0)):
            m.d.sync += running.eq(1)
            with m.If(running):
                m.d.sync += self.run_cycles.eq(self.run_cycles + 1)
        m.d.comb += [
            acc.start.eq(self.start), acc.prog_addr.eq(self.prog_addr), acc.prog_len.eq(self.prog_len),
            self.busy.eq(acc.busy | (acc.done & (rd < nb))),
            self.done.eq(acc.done & (rd == nb)), self.error.eq(acc.error),
            self.fault_pc.eq(acc.fault_pc), self.sp_collision.eq(acc.sp_collision), self.counters.eq(Cat(*groups)[:64 * N_COUNTERS]),
            mem.i_addr.eq(acc.i_addr), acc.i_data.eq(mem.i_data),
            acc.ld_data.eq(mem.ld_data),
            mem.st_en.eq(acc.st_en), mem.st_len.eq(acc.st_len),
            mem.st_data.eq(acc.st_data),
            mem.h_addr.eq(self.h_addr), mem.h_we.eq(self.h_we), mem.h_wdata.eq(self.h_wdata),
            self.h_rdata.eq(mem.h_rdata),
        ]
        if self.cfg.dma_engines == 1:
            m.d.comb += [mem.ld_addr.eq(acc.dma_addr), mem.st_addr.eq(acc.dma_addr)]
        else:
            m.d.comb += [mem.ld_addr.eq(acc.ld_addr), mem.st_addr.eq(acc.st_addr)]
        return m

