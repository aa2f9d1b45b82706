"""Instruction emission with the dependency-token discipline of the decoupled load / compute /
store queues (``docs/isa.md``, queue model).

A layer is emitted as a sequence of *stages*. A stage is a load batch (LOADs into the stage's
buffers), a compute batch (GEMM / VEC) and a store batch (STOREs of the stage's results); a batch
with nothing to do is one NOP on its queue so that every stage carries the same tokens:

* load batch: the first instruction pops a token from compute (``c2l``) when the stage is the
  third or later of its layer (the compute batch two stages earlier has finished with the buffer
  parity this stage loads into); the last one pushes ``l2c``;
* compute batch: the first instruction pops ``l2c`` (its data is in) and, from the third stage,
  ``s2c`` (the store batch two stages earlier has drained the output buffer of this parity); the
  last one pushes ``c2l`` and ``c2s``;
* store batch: the first instruction pops ``c2s``; the last pushes ``s2c``.

Stages are emitted software-pipelined (load of stage ``s + 1`` before compute of stage ``s``), so
loads run ahead of compute and stores behind it: double buffering. Between layers a *barrier*
drains every outstanding token: compute pops every ``s2c`` (all stores of the layer are done, so
the next layer may read what they wrote) and pushes one ``c2l``; load pops every ``c2l``. The
builder counts pushes and pops per channel, so a program always ends balanced up to the
discarded tokens the queue model allows.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from nnaccel.isa import encode, format_instruction

#: (queue, flag) -> channel, as the ISA defines ``prev`` / ``next`` per queue.
_CHANNEL = {("load", "pop_next"): "c2l", ("load", "push_next"): "l2c",
            ("compute", "pop_prev"): "l2c", ("compute", "pop_next"): "s2c",
            ("compute", "push_prev"): "c2l", ("compute", "push_next"): "c2s",
            ("store", "pop_prev"): "c2s", ("store", "push_prev"): "s2c"}
_FLAG = {(q, ch, kind): f for (q, f), ch in _CHANNEL.items() for kind in ("pop", "push")
         if f.startswith(kind)}
_QUEUE_OF = {"LOAD": "load", "STORE": "store", "RDPERF": "store", "GEMM": "compute", "VEC": "compute"}


@dataclass
class Ins:
    """One instruction before encoding: name, fields, a listing comment, and its token flags."""

    name: str
    fields: dict
    comment: str = ""
    flags: set = field(default_factory=set)

    @property
    def queue(self) -> str:
        if self.name == "NOP":
            return self.fields["queue"]
        return _QUEUE_OF[self.name]

    def word(self) -> int:
        return encode(self.name, **self.fields, **{f: 1 for f in self.flags})


def nop(queue: str, comment: str = "") -> Ins:
    return Ins("NOP", {"queue": queue}, comment)


class ProgramBuilder:
    """Collects the instructions of one accelerator program (one segment) with their tokens.

    ``layer(tag)`` starts a new layer (a barrier after the previous one); ``stage(loads, computes,
    stores)`` adds a stage; :meth:`finish` appends FINISH and returns the instruction list. Each
    instruction remembers the layer tag it belongs to (``tags``), for listings and per-layer
    performance figures.
    """

    def __init__(self):
        self.ins: list[Ins] = []
        self.tags: list[object] = []
        self.pushed = {c: 0 for c in ("l2c", "c2l", "c2s", "s2c")}
        self.popped = dict(self.pushed)
        self._tag = None
        self._stage_in_layer = 0
        self._pending = None  # (computes, stores, stage index) waiting for the next stage's loads
        self._started = False

    # ------------------------------------------------------------------ token helpers
    def _flag(self, ins: Ins, channel: str, kind: str) -> None:
        ins.flags.add(_FLAG[(ins.queue, channel, kind)])
        (self.pushed if kind == "push" else self.popped)[channel] += 1

    def _append(self, batch: list[Ins]) -> None:
        for i in batch:
            self.ins.append(i)
            self.tags.append(self._tag)

    # ------------------------------------------------------------------ layers and stages
    def layer(self, tag) -> None:
        """Ends the previous layer (flush + barrier) and starts layer ``tag``."""
        self._flush()
        if self._started:
            self._barrier()
        self._started = True
        self._tag = tag
        self._stage_in_layer = 0

    def stage(self, loads: list[Ins], computes: list[Ins], stores: list[Ins]) -> None:
        s = self._stage_in_layer
        self._stage_in_layer += 1
        loads = list(loads) or [nop("load", "no load")]
        computes = list(computes) or [nop("compute", "no compute")]
        stores = list(stores) or [nop("store", "no store")]
        if s >= 2:
            self._flag(loads[0], "c2l", "pop")
        self._flag(loads[-1], "l2c", "push")
        self._flag(computes[0], "l2c", "pop")
        if s >= 2:
            self._flag(computes[0], "s2c", "pop")
        self._flag(computes[-1], "c2l", "push")
        self._flag(computes[-1], "c2s", "push")
        self._flag(stores[0], "c2s", "pop")
        self._flag(stores[-1], "s2c", "push")
        # software pipelining: this stage's loads go before the previous stage's compute
        self._append(loads)
        if self._pending is not None:
            self._append(self._pending[0])
            self._append(self._pending[1])
        self._pending = (computes, stores)

    def _flush(self) -> None:
        if self._pending is not None:
            self._append(self._pending[0])
            self._append(self._pending[1])
            self._pending = None

    def _barrier(self) -> None:
        tag, self._tag = self._tag, ("barrier", self._tag)
        while self.popped["s2c"] < self.pushed["s2c"]:
            n = nop("compute", "barrier: wait for the layer's stores")
            self._flag(n, "s2c", "pop")
            self._append([n])
        n = nop("compute", "barrier: release the load queue")
        self._flag(n, "c2l", "push")
        self._append([n])
        while self.popped["c2l"] < self.pushed["c2l"]:
            n = nop("load", "barrier: wait for compute")
            self._flag(n, "c2l", "pop")
            self._append([n])
        self._tag = tag

    def finish(self) -> list[Ins]:
        self._flush()
        self.ins.append(Ins("FINISH", {}, "end of segment"))
        self.tags.append(None)
        return self.ins


def listing(ins: list[Ins], words: list[int], first_pc: int = 0) -> str:
    """Assembly text: one numbered instruction per line with its comment."""
    out = []
    for k, (i, w) in enumerate(zip(ins, words)):
        text = format_instruction(w, first_pc + k)
        out.append(f"{first_pc + k:6d}: {text}" + (f"  # {i.comment}" if i.comment else ""))
    return "\n".join(out) + "\n"
