"""Instruction emission with the dependency-token discipline of the four decoupled queues
load -> compute -> vector -> store (``docs/isa.md``, queue model; channels and flags come from
``nnaccel.isa.table``).

A layer is either a sequence of *stages* (:meth:`ProgramBuilder.stage`) or one pre-tokenized
instruction list (:meth:`ProgramBuilder.raw`, used by the pointwise schedule of
``compiler/lower/pointwise.py``). A stage is a load batch (LOADs into the stage's buffers), a compute list
(GEMM and VEC in data order) and a store batch (STOREs of the stage's results). The compute list
is split into *steps*: a run of GEMMs (compute queue) followed by the VECs that read their
accumulators (vector queue). An empty batch is one NOP on its queue so that every stage carries
the same tokens.

Stages with GEMMs (convolutions, matrix products):

* load batch: the first instruction pops ``c2l`` when the stage is the third or later of its
  layer (the GEMMs two stages earlier have finished with the buffer parity this stage loads
  into); the last one pushes ``l2c``;
* compute: the first GEMM pops ``l2c``; the last pushes ``c2l`` (input and weights free). A step
  whose GEMMs feed VECs pushes ``c2v`` after its last GEMM; its VECs pop it, and the last VEC of
  the step pushes ``v2c`` (accumulators read), which the next step's first GEMM pops before it
  overwrites them;
* vector: the first instruction of the stage pops ``s2v`` from the third stage on (the stores
  two stages earlier have drained the output buffer of this parity); the last pushes ``v2s``;
* store batch: the first instruction pops ``v2s``; the last pushes ``s2v``.

Stages without GEMMs (pooling, element-wise, lookup tables, DMA-only copies): the compute queue
only passes tokens: a NOP pops ``l2c`` and pushes ``c2v``; the vector batch (a NOP when empty)
pops it (and ``s2v`` as above), pushes ``v2s`` and ``v2c``; a second compute NOP pops that ``v2c``
and pushes ``c2l`` (the input buffer is free once the vector unit has read it).

Stages are emitted software-pipelined (load of stage ``s + 1`` before the compute of stage ``s``);
every token is popped by an instruction that comes after its producer in program order, so no
order of fetch stalls can deadlock. Between layers a *barrier* drains every channel: the vector
queue pops every outstanding ``s2v`` (all stores of the layer are done, so the next layer may read
what they wrote) and ``c2v``, then pushes ``v2c``; compute pops every ``l2c`` / ``v2c`` and pushes
``c2l``; load pops every ``c2l``. The builder counts pushes and pops per channel, so every layer
starts with empty channels. The barrier is emitted when the next layer's first pass arrives: a
:class:`RawPass` may name ``prefetch`` LOADs of constants, placed before the barrier, after the
previous layer's GEMMs, or after the barrier, by the lines and banks the previous layer touches
(:meth:`ProgramBuilder._barrier`); its leading input LOADs go inside the barrier once the stores
whose bytes they read are done, where those are not all of the layer's
(:meth:`ProgramBuilder._early_loads`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from nnaccel.isa import decoded, encode, format_decoded
from nnaccel.isa.footprint import Bytes, footprint, merge_runs, runs_meet
from nnaccel.isa.table import BY_NAME, FLAG_CHANNEL, QUEUES, TOKEN_CHANNELS, VEC_BY_NAME

#: (queue, channel) -> the flag that pops (consumer) or pushes (producer) on it.
_FLAG = {(q, ch): f for (q, f), ch in FLAG_CHANNEL.items()}
L2C, C2L, C2V, V2C, V2S, S2V = (TOKEN_CHANNELS[p] for p in (
    ("load", "compute"), ("compute", "load"), ("compute", "vector"), ("vector", "compute"),
    ("vector", "store"), ("store", "vector")))


@dataclass
class Ins:
    """One instruction before encoding: name, fields, a listing comment, and its token flags."""

    name: str
    fields: dict
    comment: str = ""
    flags: set = field(default_factory=set)
    #: ``(configuration, (name, fields), footprint)`` of the last :meth:`footprint`
    _fp_memo: tuple | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def queue(self) -> str:
        if self.name == "NOP":
            return self.fields["queue"]
        return BY_NAME[self.name].queue

    def word(self) -> int:
        return encode(self.name, **self.fields, **{f: 1 for f in self.flags})

    def decoded(self):
        """The decoded instruction (:func:`nnaccel.isa.decoded`: ``decode(self.word())``, checked
        the same way, without building the word)."""
        return decoded(self.name, self.fields, self.flags)

    def footprint(self, cfg) -> list:
        """The operands of the instruction on ``cfg`` (:func:`nnaccel.isa.footprint.footprint`),
        remembered while its name and fields stay the same (lowering and emission both ask)."""
        key = (self.name, tuple(self.fields.items()))
        memo = self._fp_memo
        if memo is None or memo[0] is not cfg or memo[1] != key:
            memo = self._fp_memo = (cfg, key, footprint(self.decoded(), cfg))
        return memo[2]

    def channels(self):
        """``(kind, channel)`` for each token flag (``kind`` is ``pop`` or ``push``)."""
        return [(f.split("_")[0], FLAG_CHANNEL[(self.queue, f)]) for f in sorted(self.flags)]


class RawPass(list):
    """A pass given as one pre-tokenized instruction list (see :meth:`ProgramBuilder.raw`).

    ``prefetch``: LOADs of constants (no token flags) that the pass needs before its own loads;
    the barrier before the pass lets them start once the previous layer's compute and vector
    work is done, without waiting for its stores (:meth:`ProgramBuilder.raw`)."""

    def __init__(self, *args, prefetch=()):
        super().__init__(*args)
        self.prefetch: list[Ins] = list(prefetch)


def nop(queue: str, comment: str = "") -> Ins:
    assert queue in QUEUES, queue
    return Ins("NOP", {"queue": queue}, comment)


#: channel -> the queue that pops its tokens, and the queue that pushes them.
_CONSUMER = {ch: b for (a, b), ch in TOKEN_CHANNELS.items()}
_PRODUCER = {ch: a for (a, b), ch in TOKEN_CHANNELS.items()}


def token(ins: Ins, channel: str, kind: str) -> Ins:
    """Sets the flag of ``ins`` that pops / pushes ``channel``; returns ``ins``."""
    want = _CONSUMER[channel] if kind == "pop" else _PRODUCER[channel]
    if ins.queue != want:
        raise ValueError(f"{ins.name} on the {ins.queue} queue cannot {kind} {channel}")
    f = _FLAG[(ins.queue, channel)]
    if f in ins.flags:
        raise ValueError(f"{ins.name} already uses {f}")
    ins.flags.add(f)
    return ins


def untoken(ins: Ins, channel: str) -> Ins:
    """Clears the flag of ``ins`` that pops or pushes ``channel`` (set by :func:`token`); returns ``ins``."""
    ins.flags.remove(_FLAG[(ins.queue, channel)])
    return ins


#: The scratchpads each kind of instruction can touch (LOAD / STORE: the one its ``sp`` names).
_SPACES = {"GEMM": {"ACT", "ACC", "WGT"}, "DWCONV": {"ACT", "ACC", "WGT"}, "VEC": {"ACT", "ACC", "VEC"},
           "RDPERF": set()}
#: ... and the scratchpads it can write.
_WRITES = {"GEMM": {"ACC"}, "DWCONV": {"ACC"}, "VEC": {"ACT", "ACC"}, "STORE": set(), "RDPERF": set()}


def _overlap(a: list[Bytes], b: list[Bytes]) -> bool:
    """Whether an external byte of ``a`` is one of ``b`` (the exact box walks, as the race check
    compares them: ``nnaccel.sim.isasim.find_conflicts``)."""
    return any(x.meets(y) for x in a for y in b)


def _popped(ins: Ins) -> set:
    return {FLAG_CHANNEL[(ins.queue, f)] for f in ins.flags if f.startswith("pop")}


def _acc_banks(cfg, batch: list[Ins], lines: set) -> set:
    """ACC banks of ``lines`` when the instructions of ``batch`` read them (VECs always; GEMMs
    when they accumulate or chain K tiles)."""
    if cfg is None or not lines or not any(i.name == "VEC" or i.fields.get("accumulate") or i.fields.get("kt")
                                           for i in batch):
        return set()
    n = cfg.bank_lines("ACC")
    return {x // n for x in lines}


def _acc_lines(batch: list[Ins]) -> set:
    """ACC lines written by the GEMMs and DWCONVs / read by the VECs of ``batch``."""
    out: set = set()
    for i in batch:
        if i.name in ("GEMM", "DWCONV"):
            f, base = i.fields, i.fields["acc"]
            xs, ys = f.get("acc_xs", int(i.name == "DWCONV")), f.get("acc_ys", 0)
        elif i.name == "VEC" and VEC_BY_NAME[i.fields["func"]].src == "ACC":
            f, base = i.fields, i.fields["src"]
            xs, ys = f.get("src_xs", 0), f.get("src_ys", 0)
        else:
            continue
        out.update((base + ys * y + xs * x) for y in range(f.get("ny", 1)) for x in range(f.get("nx", 1)))
    return out


def split_steps(computes: list[Ins]) -> list[tuple[list[Ins], list[Ins]]]:
    """A compute list in data order as steps ``(gemms, vecs)``: each run of GEMMs with the VECs
    that follow it."""
    steps: list[tuple[list[Ins], list[Ins]]] = []
    for i in computes:
        is_gemm = i.queue == "compute"
        if not steps or (is_gemm and steps[-1][1]):
            steps.append(([], []))
        (steps[-1][0] if is_gemm else steps[-1][1]).append(i)
    return steps


def _row_splits(load: Ins) -> list[tuple[Ins, Ins | None]]:
    """``(first rows, the other rows)`` of a LOAD box without padding, split after each of its
    rows (the most rows first), the second part with the token flags; the whole LOAD is
    ``(load, None)``."""
    f = load.fields
    if any(f.get(k, 0) for k in ("pad_top", "pad_bottom", "pad_left", "pad_right")):
        return []
    out = []
    for r in range(f["y_size"] - 1, 0, -1):
        first = Ins("LOAD", {**f, "y_size": r}, load.comment)
        rest = Ins("LOAD", {**f, "y_size": f["y_size"] - r, "sp_addr": f["sp_addr"] + r * f["x_size"],
                            "ext_addr": f["ext_addr"] + r * f["y_stride"]}, load.comment, set(load.flags))
        out.append((first, rest))
    return out


class ProgramBuilder:
    """Collects the instructions of one accelerator program (one segment) with their tokens.

    ``layer(tag)`` starts a new layer (a barrier after the previous one); ``stage(loads, computes,
    stores)`` adds a stage, ``raw(ins)`` a pre-tokenized instruction list; :meth:`finish` appends
    FINISH and returns the instruction list. Each instruction remembers the layer tag it belongs to
    (``tags``), for listings and per-layer performance figures.
    """

    def __init__(self, cfg=None):
        #: The hardware configuration: its ACC banks make a GEMM that reads accumulators wait for
        #: a requantization reading the same bank (one read port per bank, ``docs/isa.md``).
        self.cfg = cfg
        self.ins: list[Ins] = []
        self.tags: list[object] = []
        self.pushed = {c: 0 for c in TOKEN_CHANNELS.values()}
        self.popped = dict(self.pushed)
        self._tag = None
        self._stage_in_layer = 0
        self._pending: list[Ins] | None = None  # compute / vector / store of the previous stage
        #: ACC lines and banks read by the VECs of each step of the layer, in the order of their
        #: ``v2c`` tokens; a GEMM step pops tokens up to the last step whose lines it overwrites
        #: or whose banks it reads
        self._vreads: list[set] = []
        self._vbase = 0  # the v2c token number of the layer's first step
        self._started = False
        #: the tag of the layer whose barrier is still to be emitted (the barrier waits for the
        #: next pass, which may prefetch constants into it), and where that layer's code starts
        self._barrier_tag = None
        self._need_barrier = False
        self._layer_start = 0
        #: the external bytes the STOREs of the layer since the last barrier write (those of
        #: earlier layers are done: that barrier waited for them): merged runs, and the walks
        #: not merged into them yet
        self._stored = np.zeros((0, 2), np.int64)
        self._stored_new: list[Bytes] = []
        self._fp_cache: dict = {}
        #: the constant LOADs passed as a layer's prefetch (:meth:`_settle`), which may run during
        #: the layer before: the manifest names each layer's first instruction that is none of them
        self.prefetched: set[int] = set()

    # ------------------------------------------------------------------ token helpers
    def _flag(self, ins: Ins, channel: str, kind: str) -> None:
        token(ins, channel, kind)
        (self.pushed if kind == "push" else self.popped)[channel] += 1

    def _append(self, batch: list[Ins]) -> None:
        for i in batch:
            self.ins.append(i)
            self.tags.append(self._tag)
            if i.name in ("STORE", "RDPERF") and self.cfg is not None:
                self._stored_new += self._ext_bytes(i)

    def _reads_stored(self, load: Ins) -> bool:
        """Whether ``load`` reads an external byte that a STORE since the last barrier writes
        (without a configuration: assumed so). A LOAD placed before or inside the next barrier
        comes after the last one on the load queue, so the STOREs before that are done."""
        if self.cfg is None:
            return True
        if self._stored_new:
            runs = [self._stored] + [b.runs for b in self._stored_new]
            self._stored = merge_runs(np.concatenate([r[:, 0] for r in runs]), np.concatenate([r[:, 1] for r in runs]))
            self._stored_new = []
        return any(runs_meet(b.runs, self._stored) for b in self._ext_bytes(load))

    def outstanding(self, channel: str) -> int:
        return self.pushed[channel] - self.popped[channel]

    # ------------------------------------------------------------------ layers and stages
    def layer(self, tag) -> None:
        """Ends the previous layer (flush + barrier) and starts layer ``tag``."""
        self._flush()
        if self._started and not self._need_barrier:
            self._need_barrier, self._barrier_tag = True, self._tag
        self._started = True
        self._tag = tag
        self._stage_in_layer = 0

    def _settle(self, prefetch=(), early=()) -> tuple[int, Ins | None]:
        """Emits the pending barrier (with ``prefetch`` inside it where that is safe, and a
        leading part of ``early`` where the stores it reads are done: :meth:`_early_loads`),
        else ``prefetch`` as the layer's first instructions. Returns how many of ``early`` went
        inside the barrier whole, and what is left of the next one (None when nothing is)."""
        moved = (0, None)
        self.prefetched.update(id(i) for i in prefetch)
        if self._need_barrier:
            self._need_barrier = False
            prefetch, moved = self._barrier(list(prefetch), list(early))
            self._layer_start = len(self.ins)
        self._append(prefetch)
        return moved

    def stage(self, loads: list[Ins], computes: list[Ins], stores: list[Ins], serial: bool = False) -> None:
        """Adds a stage. ``serial`` (stages without GEMMs only): the stage's loads wait for the
        previous stage's stores and nothing overlaps (buffers that share scratchpad banks)."""
        loads = list(loads)
        if self._need_barrier and self._stage_in_layer == 0:
            # the layer's leading LOADs that read no byte an earlier STORE wrote (constants,
            # fills) need nothing of the previous layer: they may load during it (_barrier)
            n = next((k for k, i in enumerate(loads) if i.name != "LOAD" or self._reads_stored(i)), len(loads))
            self._settle(loads[:n])
            loads = loads[n:]
        self._settle()
        if serial:
            self._serial_stage(loads, computes, stores)
            return
        s = self._stage_in_layer
        self._stage_in_layer += 1
        loads = list(loads) or [nop("load", "no load")]
        stores = list(stores) or [nop("store", "no store")]
        steps = split_steps(computes)
        if s >= 2:
            self._flag(loads[0], C2L, "pop")
        self._flag(loads[-1], L2C, "push")
        if any(i.queue == "compute" for i in computes):
            # VECs with no GEMM of their own (accumulators of earlier stages): a compute NOP
            # orders them after every GEMM before it
            steps = [(gs or [nop("compute", "order the next VECs after the GEMMs before")], vs)
                     for gs, vs in steps]
        gemms = [g for st in steps for g in st[0]]
        vecs = [v for st in steps for v in st[1]]
        body: list[Ins] = []
        if gemms:
            self._flag(gemms[0], L2C, "pop")
            for gs, vs in steps:
                written = _acc_lines(gs)
                banks = _acc_banks(self.cfg, gs, written)
                need = -1
                for k in range(len(self._vreads) - 1, self.popped[V2C] - self._vbase - 1, -1):
                    if self._vreads[k][0] & written or self._vreads[k][1] & banks:
                        need = self._vbase + k
                        break
                waits = []
                while self.popped[V2C] <= need:
                    n = gs[0] if not waits and V2C not in _popped(gs[0]) else nop(
                        "compute", "wait for the requantization reading these accumulators")
                    self._flag(n, V2C, "pop")
                    if n is not gs[0]:
                        waits.append(n)
                gs[:0] = waits
                if vs:
                    self._flag(gs[-1], C2V, "push")
                    self._flag(vs[0], C2V, "pop")
                    self._flag(vs[-1], V2C, "push")
                    read = _acc_lines(vs)
                    self._vreads.append((read, _acc_banks(self.cfg, vs, read)))
                body += gs + vs
            self._flag(gemms[-1], C2L, "push")
            vq = vecs or [nop("vector", "no vector work")]
            if not vecs:
                body.append(vq[0])
            if s >= 2:
                self._flag(vq[0], S2V, "pop")
            self._flag(vq[-1], V2S, "push")
        else:
            pre = []
            while self.outstanding(V2C):
                n = nop("compute", "take the requantizations' tokens")
                self._flag(n, V2C, "pop")
                pre.append(n)
            fwd = nop("compute", "pass the load token to the vector queue")
            self._flag(fwd, L2C, "pop")
            self._flag(fwd, C2V, "push")
            vq = vecs or [nop("vector", "no vector work")]
            self._flag(vq[0], C2V, "pop")
            if s >= 2:
                self._flag(vq[0], S2V, "pop")
            self._flag(vq[-1], V2S, "push")
            self._flag(vq[-1], V2C, "push")
            rel = nop("compute", "input buffer read: release it to the load queue")
            self._flag(rel, V2C, "pop")
            self._flag(rel, C2L, "push")
            body = pre + [fwd] + vq + [rel]
            self._reset_vreads()
        self._flag(stores[0], V2S, "pop")
        self._flag(stores[-1], S2V, "push")
        # software pipelining: this stage's loads go before the previous stage's compute
        self._append(loads)
        if self._pending is not None:
            self._append(self._pending)
        self._pending = body + stores

    def _serial_stage(self, loads: list[Ins], computes: list[Ins], stores: list[Ins]) -> None:
        assert all(i.queue != "compute" for i in computes), "serial stages have no GEMM"
        self._flush()
        s = self._stage_in_layer
        self._stage_in_layer += 1
        loads = list(loads) or [nop("load", "no load")]
        stores = list(stores) or [nop("store", "no store")]
        body = []
        while self.outstanding(V2C):
            n = nop("compute", "take the requantizations' tokens")
            self._flag(n, V2C, "pop")
            body.append(n)
        if s >= 1:
            self._flag(loads[0], C2L, "pop")
        self._flag(loads[-1], L2C, "push")
        fwd = nop("compute", "pass the load token to the vector queue")
        self._flag(fwd, L2C, "pop")
        self._flag(fwd, C2V, "push")
        vq = list(computes) or [nop("vector", "no vector work")]
        self._flag(vq[0], C2V, "pop")
        self._flag(vq[-1], V2S, "push")
        self._flag(stores[0], V2S, "pop")
        self._flag(stores[-1], S2V, "push")
        back = nop("vector", "serial stage: the stores are done")
        self._flag(back, S2V, "pop")
        self._flag(back, V2C, "push")
        rel = nop("compute", "serial stage: release the load queue")
        self._flag(rel, V2C, "pop")
        self._flag(rel, C2L, "push")
        self._append(body + loads + [fwd] + vq + stores + [back, rel])
        self._reset_vreads()

    def raw(self, ins: list[Ins]) -> None:
        """Appends a pre-tokenized instruction list (its flags counted; the list must leave every
        channel it uses with no more pops than pushes). The pass's ``prefetch`` LOADs go first,
        inside the barrier before it where they can (:meth:`_barrier`); so do its leading input
        LOADs where the previous layer's stores they read are done (:meth:`_early_loads`): a
        moved LOAD's token flags stay in the pass on a load-queue NOP in its place."""
        self._flush()
        lead = []
        for i in ins:
            if i.name != "LOAD" or not i.flags <= {_FLAG[("load", L2C)]}:
                break
            lead.append(i)
            if i.flags:
                break
        moved, tail = self._settle(getattr(ins, "prefetch", ()), lead)
        if tail is not None:
            ins = [tail] + list(ins[moved + 1:])
        elif moved:
            rest = []
            if lead[moved - 1].flags:
                rest = [nop("load", f"{lead[moved - 1].comment} (loaded in the barrier)")]
                rest[0].flags = set(lead[moved - 1].flags)
            ins = rest + list(ins[moved:])
        while self.outstanding(V2C):
            n = nop("compute", "take the requantizations' tokens")
            self._flag(n, V2C, "pop")
            self._append([n])
        self._reset_vreads()
        for i in ins:
            for kind, ch in i.channels():
                (self.pushed if kind == "push" else self.popped)[ch] += 1
                if self.popped[ch] > self.pushed[ch]:
                    raise ValueError(f"{i.comment or i.name}: pops {ch} before any push")
        self._append(ins)

    def _reset_vreads(self) -> None:
        """Every ``v2c`` token so far is popped: no requantization is pending."""
        assert not self.outstanding(V2C)
        self._vreads = []
        self._vbase = self.pushed[V2C]

    def _flush(self) -> None:
        if self._pending is not None:
            self._append(self._pending)
            self._pending = None

    def _drain(self, queue: str, channels: list[str], comment: str, push: str | None = None) -> None:
        """NOPs on ``queue`` popping every outstanding token of ``channels``, the last one pushing
        ``push``."""
        batch = []
        while any(self.outstanding(c) for c in channels) or not batch:
            n = nop(queue, comment)
            for c in channels:
                if self.outstanding(c):
                    self._flag(n, c, "pop")
            batch.append(n)
        if push:
            self._flag(batch[-1], push, "push")
        elif not any(b.flags for b in batch[-1:]):
            batch.pop()
        self._append(batch)

    def _ext_bytes(self, i: Ins) -> list[Bytes]:
        """The external bytes of instruction ``i``'s footprint."""
        return [a.where for a in i.footprint(self.cfg) if a.space == "EXT"]

    def _fp(self, i: Ins) -> list:
        """The scratchpad operands of ``i`` (its footprint without EXT), each ``(space, lines,
        write)``, computed once per instruction."""
        key = id(i)
        hit = self._fp_cache.get(key)
        if hit is None or hit[0] is not i:
            ops = [(a.space, np.asarray(a.where.lines(), np.int64), a.write)
                   for a in i.footprint(self.cfg) if a.space != "EXT" and not a.where.empty]
            hit = self._fp_cache[key] = (i, ops)
        return hit[1]

    def _banks(self, batch: list[Ins], names: tuple, write_only: bool = False, spaces: set | None = None) -> set:
        """``(scratchpad, bank)`` of every line the instructions ``names`` of ``batch`` touch
        (``write_only``: write; ``spaces``: only instructions that can write one of these)."""
        out = set()
        for i in batch:
            if i.name in names and (spaces is None or (_WRITES.get(i.name) or {i.fields.get("sp")}) & spaces):
                for space, ls, write in self._fp(i):
                    if write or not write_only:
                        out.update((space, int(b)) for b in np.unique(ls // self.cfg.bank_lines(space)))
        return out

    def _mask(self, batch: list[Ins], names: tuple | None = None, spaces: set | None = None) -> dict:
        """Per scratchpad (of ``spaces``, all when None) a mask of the lines the instructions
        ``names`` (all but NOP / FINISH when None) of ``batch`` touch."""
        masks: dict = {}
        for i in batch:
            if i.name in ("NOP", "FINISH") or (names is not None and i.name not in names):
                continue
            if spaces is not None and not (_SPACES.get(i.name) or {i.fields.get("sp")}) & spaces:
                continue    # (the scratchpads an instruction can touch, from its kind)
            for space, ls, _ in self._fp(i):
                m = masks.get(space)
                if m is None:
                    m = masks[space] = np.zeros(self.cfg.lines(space), bool)
                m[ls] = True
        return masks

    def _hits(self, load: Ins, masks: dict) -> bool:
        """Whether ``load`` touches a line of ``masks`` (:meth:`_mask`)."""
        return any(space in masks and masks[space][ls].any() for space, ls, _ in self._fp(load))

    def _touched(self, batch: list[Ins], spaces: set) -> tuple[dict, set]:
        """What a LOAD into one of ``spaces`` must stay clear of to run beside ``batch``: the
        :meth:`_mask` of its lines and the banks its GEMMs / DWCONVs / VECs write."""
        return (self._mask(batch, spaces=spaces),
                self._banks(batch, ("GEMM", "DWCONV", "VEC"), write_only=True, spaces=spaces))

    def clear_of(self, load: Ins, batch: list[Ins]) -> bool:
        """Whether the LOAD ``load`` may run at any time beside ``batch`` (:meth:`_independent`)."""
        return self._independent(load, self._touched(batch, {load.fields["sp"]}))

    def _independent(self, load: Ins, touched: tuple[dict, set]) -> bool:
        """Whether the LOAD ``load`` writes no line of ``touched[0]`` (the :meth:`_mask` of a
        layer) and no bank of ``touched[1]`` (the banks its GEMMs / VECs write): then it may
        run at any time during the layer, as a LOAD reads no scratchpad and one bank's write
        and read ports serve two instructions."""
        lines, banks = touched
        return not self._hits(load, lines) and not (self._banks([load], ("LOAD",)) & banks)

    def _append_as(self, tag, batch: list[Ins]) -> None:
        keep, self._tag = self._tag, tag
        self._append(batch)
        self._tag = keep

    def _overtaking(self, loads: list[Ins], ok) -> tuple[list[Ins], list[Ins]]:
        """``(moved, kept)``: the LOADs of ``loads`` for which ``ok`` holds and that write no line
        an earlier kept one writes (so they may go ahead of the kept ones), and the others, each
        in their order."""
        moved, kept, kept_lines = [], [], {}
        for i in loads:
            if ok(i) and not self._hits(i, kept_lines):
                moved.append(i)
            else:
                kept.append(i)
                for space, m in self._mask([i]).items():
                    kept_lines[space] = kept_lines[space] | m if space in kept_lines else m
        return moved, kept

    def _barrier(self, prefetch: list[Ins], first_loads: list[Ins]) -> tuple[list[Ins], tuple[int, Ins | None]]:
        """Drains every channel of the previous layer. The LOADs of ``prefetch`` (constant LOADs
        of the next pass) go before the barrier where they are independent of the layer
        (:meth:`_independent`); the others right after the load queue has popped the layer's
        outstanding ``c2l`` tokens (its GEMMs are done: the layer's last compute instruction
        pushes one), so they run while the layer's requantizations and stores drain, where they
        write no line those VECs and STOREs touch and no bank the VECs write; the rest are
        returned. A LOAD goes ahead of one kept back only where their lines differ
        (:meth:`_overtaking`). Then the vector queue pops every ``s2v`` (stores done) and ``c2v``, compute
        pops every ``l2c`` / ``v2c``, and the load queue waits for both, so the next pass's own
        LOADs read finished data; the leading part of ``first_loads`` (the pass's own first
        LOADs) that :meth:`_early_loads` allows goes before that, once the stores it reads are
        done. Returns the part of ``prefetch`` still to be emitted (all of it when it could not
        go inside) and the :meth:`_early_loads` result."""
        tag, self._tag = self._tag, ("barrier", self._barrier_tag)
        if self.outstanding(V2S):
            self._drain("store", [V2S], "barrier: drop unused store tokens")
        layer = self.ins[self._layer_start:]
        after = []
        if prefetch and self.cfg is not None and any(self._reads_stored(i) for i in prefetch):
            prefetch, after = [], prefetch      # reads bytes a STORE writes (a dynamic filter): after the barrier
        if prefetch and self.cfg is not None:
            # no line the layer touches and no bank it writes: before the barrier
            touched = self._touched(layer, {i.fields["sp"] for i in prefetch})
            ahead, prefetch = self._overtaking(prefetch, lambda i: self._independent(i, touched))
            self._append_as(tag, ahead)
        last_compute = next((i for i in reversed(layer) if i.queue == "compute"), None)
        if (prefetch and self.cfg is not None and last_compute is not None
                and _FLAG[("compute", C2L)] in last_compute.flags):
            busy = self._mask(layer, ("VEC", "STORE"), {i.fields["sp"] for i in prefetch})
            written = self._banks(layer, ("VEC",), write_only=True, spaces={i.fields["sp"] for i in prefetch})
            early, prefetch = self._overtaking(prefetch, lambda i: not (self._hits(i, busy)
                                                                        or self._banks([i], ("LOAD",)) & written))
            if early:
                self._drain("load", [C2L], "barrier: the layer's GEMMs are done")
                self._append_as(tag, early)
        moved = (self._early_loads(layer, first_loads, prefetch + after, tag)
                 if first_loads and self.cfg is not None else (0, None))
        self._drain("vector", [S2V, C2V], "barrier: wait for the layer's stores", push=V2C)
        self._drain("compute", [L2C, V2C], "barrier: wait for the vector queue", push=C2L)
        self._drain("load", [C2L], "barrier: wait for compute")
        assert not any(self.outstanding(c) for c in self.pushed), self.pushed
        self._reset_vreads()
        self._stored, self._stored_new = np.zeros((0, 2), np.int64), []     # every STORE so far is done
        self._tag = tag
        return prefetch + after, moved

    def _early_loads(self, layer: list[Ins], loads: list[Ins], later: list[Ins], tag) -> tuple[int, Ins | None]:
        """Inside the barrier after ``layer``: the longest leading part of the LOADs ``loads``
        (the rows of a box counted one by one: a LOAD whose first rows only are ready is split)
        that needs only the first ``k`` of the layer's outstanding store tokens, ``k`` below all
        of them: it reads no external byte a later STORE of the layer writes, and it writes no
        line a STORE of the layer not known to be done reads or a LOAD of ``later`` (which it
        overtakes) writes. The
        vector queue pops those ``k`` tokens (those stores are done), compute and load pass that
        on, and the LOADs (without their token flags) follow; the full barrier comes after
        them. The layer's GEMMs and VECs are done by then (the NOPs come after them on their
        in-order queues). Returns how many of ``loads`` went in whole, and the rows left of the
        next one where its first rows went in (else None)."""
        pending = self.outstanding(S2V)
        if not pending:
            return 0, None
        # the layer's store-queue instructions, each with the number of the first s2v token
        # pushed at or after it (its completion), None when none is
        stores, pushes = [], 0
        for i in layer:
            if i.queue == "store":
                stores.append([i, None])
                if _FLAG[("store", S2V)] in i.flags:
                    for st in stores:
                        if st[1] is None:
                            st[1] = pushes
                    pushes += 1
        first_pending = pushes - pending      # the tokens before this one are popped already
        # the stores not known to be done: the tokens to pop for each, and the external bytes
        # it writes
        unfinished = [(i, number) for i, number in stores if number is None or number >= first_pending]
        waiting = [(pending if number is None else number - first_pending + 1, self._ext_bytes(i))
                   for i, number in unfinished]

        def tokens(load: Ins) -> int:
            """The outstanding tokens to pop before ``load`` reads finished bytes."""
            reads = self._ext_bytes(load)
            return max([k for k, writes in waiting if _overlap(writes, reads)], default=0)

        # (the lines of the STOREs not known to be done: the others have read theirs)
        busy = self._mask([i for i, _ in unfinished], ("STORE",), {i.fields["sp"] for i in loads})
        later_mask = self._mask(later)
        need, moved, head, tail = 0, 0, None, None
        for load in loads:
            ok = next(((part, rest) for part, rest in [(load, None)] + _row_splits(load)
                       if not self._hits(part, busy) and not self._hits(part, later_mask)
                       and max(need, tokens(part)) < pending), None)
            if ok is None:
                break
            part, rest = ok
            need = max(need, tokens(part))
            if rest is None:
                moved += 1
                continue
            head, tail = part, rest
            break
        if not moved and head is None:
            return 0, None
        batch = []
        for _ in range(max(1, need)):
            n = nop("vector", "barrier: wait for the stores the next pass's first loads read")
            if need:
                self._flag(n, S2V, "pop")
            batch.append(n)
        self._flag(batch[-1], V2C, "push")
        self._append(batch)
        self._drain("compute", [V2C], "barrier: the first stores are done", push=C2L)
        self._drain("load", [C2L], "barrier: the first stores are done")
        self._append_as(tag, [Ins(i.name, dict(i.fields), i.comment) for i in loads[:moved] + ([head] if head else [])])
        return moved, tail

    def finish(self) -> list[Ins]:
        self._flush()
        self._settle()
        self.ins.append(Ins("FINISH", {}, "end of segment"))
        self.tags.append(None)
        return self.ins


def listing(decoded: list, comments: list[str], first_pc: int = 0) -> str:
    """Assembly text: one numbered instruction per line with its comment (``decoded``: each
    instruction's :meth:`Ins.decoded`)."""
    out = []
    for k, (d, comment) in enumerate(zip(decoded, comments)):
        text = format_decoded(d)
        out.append(f"{first_pc + k:6d}: {text}" + (f"  # {comment}" if comment else ""))
    return "\n".join(out) + "\n"
