"""The compiler driver: validate, partition, fuse, allocate, lower, segment, emit a package.

Partition (:func:`partition`): an operation of the main graph is a candidate for the accelerator
when it has a lowering (:data:`nnaccel.compiler.lower.LOWERINGS`) that accepts its types and
parameters; every other operation runs on the host. Fusion (:func:`fuse`): a RELU / RELU1 / RELU6
whose producer absorbs clamps and is its only consumer becomes a no-op on the producer's bytes; a
residual ADD may run in the output tiles of the convolution computing one of its operands
(:func:`fuse_residuals`).
Allocation (:func:`allocate`): every tensor an accelerator operation reads or writes has a fixed
external-memory address from ``config.dma_base`` on (an alias operation's output shares its
input's bytes), then the scratch areas, then the constant image. Lowering (:func:`lower`): a
candidate whose lowering does not fit the configuration's scratchpads goes back to the host.
Segmentation (:func:`segment`): consecutive accelerator operations form one segment (one program,
one run of the accelerator), so data produced and consumed on the accelerator never goes back
through the host; a segment of layout no-ops alone stays on the host. Joining (:func:`join`): a
pass that hands its output to the next operation's pass in a scratchpad stores nothing. Emission (:func:`emit`):
the instruction stream, listing and manifest. Operations inside IF / WHILE bodies run on the host.

Every operation gets a :class:`Placement`: where it runs and why, in one sentence
(:func:`plan_model`; the package's manifest keeps the reasons of its host operations).
"""

from __future__ import annotations

import itertools
import warnings
from dataclasses import dataclass, field

import numpy as np

from nnaccel import __version__
from nnaccel.errors import InputError
from nnaccel.hwconfig import DEFAULT_CONFIG, HwConfig, load_config
from nnaccel.isa import encode_decoded, words_to_bytes
from nnaccel.macs import useful_macs
from nnaccel.model import TYPE_INFO, Model, Subgraph
from nnaccel.package import FORMAT, VERSION, Package, model_members

from . import lower as L
from .emit import ProgramBuilder, RawPass, listing

ALIGN = 16


class CompileWarning(UserWarning):
    """An operation the accelerator supports in general that falls back to the host here."""


def _align(n: int) -> int:
    return -(-n // ALIGN) * ALIGN


def _nbytes(o) -> int:
    """Bytes of a tensor in external memory: its elements, little-endian (four bytes each for
    the int32 bias of a convolution whose bias is not a constant)."""
    return int(np.prod(o.dimensions)) * TYPE_INFO[o.type].dtype.itemsize


@dataclass(frozen=True)
class Placement:
    """Where one operation of the main graph runs (``accelerator`` or ``host``) and why."""

    index: int
    type: str
    where: str
    reason: str

    def sentence(self) -> str:
        return f"operation {self.index} ({self.type}) runs on the {self.where}: {self.reason}."


@dataclass
class Plan:
    """The compiler's decisions for one model and configuration, before emission."""

    cfg: HwConfig
    model: Model
    lows: dict = field(default_factory=dict)        # operation -> its Lowering (FUSED when fused)
    candidates: list = field(default_factory=list)
    reasons: dict = field(default_factory=dict)     # host operation -> why
    clamps: dict = field(default_factory=dict)      # producer -> the clamp fused into it
    fused: dict = field(default_factory=dict)       # producer -> the fused RELU
    addr: dict = field(default_factory=dict)        # operand -> external-memory address
    scratch: dict = field(default_factory=dict)     # operation -> its scratch areas' addresses
    consts: L.ConstImage | None = None
    lowered: dict = field(default_factory=dict)     # operation -> its passes
    warnings: list = field(default_factory=list)
    segments: list = field(default_factory=list)
    joined: set = field(default_factory=set)        # tensors handed to their consumer in a scratchpad
    residuals: dict = field(default_factory=dict)   # producer -> (ADD, its Residual): the ADD may run in its tiles
    swaps: set = field(default_factory=set)         # h: operation h + 1 runs before h when both are lowered
    merged: dict = field(default_factory=dict)      # ADD -> the producer whose tiles run it

    @property
    def sg(self) -> Subgraph:
        return self.model.main

    @property
    def accelerated(self) -> set:
        return {i for s in self.segments for i in s}


# ------------------------------------------------------------------------------------ passes
def partition(plan: Plan) -> None:
    """The candidates for the accelerator: operations whose lowering accepts them."""
    sg = plan.sg
    for i, op in enumerate(sg.operations):
        low = L.lowering_for(op.type)
        if low is None:
            plan.reasons[i] = "no accelerator lowering"
            continue
        why = low.supports(sg, op, plan.model.origin)
        if why is not None:
            plan.reasons[i] = why
            continue
        plan.candidates.append(i)
        plan.lows[i] = low


def _consumers(sg: Subgraph) -> dict[int, list[int]]:
    out: dict[int, list[int]] = {}
    for i, op in enumerate(sg.operations):
        for j in op.inputs:
            out.setdefault(j, []).append(i)
    return out


def fuse(plan: Plan) -> None:
    """A clamp (RELU / RELU1 / RELU6) fused into the output clamp of its producer when it is the
    producer's only consumer (the clamp becomes a layout no-op on the producer's bytes)."""
    sg, ops, lows = plan.sg, plan.sg.operations, plan.lows
    consumers = _consumers(sg)
    main_outputs = set(sg.output_indexes)
    producer = {op.outputs[0]: i for i, op in enumerate(ops) if op.outputs}
    for j in plan.candidates:
        op = ops[j]
        clamp = lows[j].fusable_clamp(sg, op)
        if clamp is None:
            continue
        t = op.inputs[0]
        i = producer.get(t)
        if (i is None or i not in lows or i in plan.clamps or not lows[i].absorbs_clamp
                or consumers.get(t) != [j] or t in main_outputs):
            continue
        new = L.tighten(clamp, plan.clamps.get(i))
        own_lo, own_hi = lows[i].output_range(sg, ops[i])
        if max(own_lo, new[0]) > min(own_hi, new[1]):
            continue
        plan.clamps[i] = new
        plan.fused[i] = j
        lows[j] = L.FUSED


def fuse_residuals(plan: Plan) -> None:
    """An ADD that directly follows the producer of one of its operands, where that producer can
    add a residual per output tile (``Lowering.fuses_residual``: the array computes the next tile
    while the vector unit adds) and the ADD is that output's only consumer: the producer's
    lowering is offered the :class:`~nnaccel.compiler.lower.base.Residual` (``lower``). It needs
    three ACT banks: the array's input, the other operand's tiles and the output tiles, which the
    array, the vector unit and the store engine read at the same time."""
    sg, ops, lows = plan.sg, plan.sg.operations, plan.lows
    if plan.cfg.banks("ACT") < 3:
        return
    consumers, main_outputs = _consumers(sg), set(sg.output_indexes)
    cands = set(plan.candidates)

    def offer(h: int, j: int):
        if h not in cands or not lows[h].fuses_residual or h in plan.fused or h in plan.residuals or not ops[h].outputs:
            return None
        t = ops[h].outputs[0]
        if consumers.get(t) != [j] or t in main_outputs:
            return None
        return lows[j].residual(sg, ops[j], t, plan.clamps.get(j))

    for j in plan.candidates:
        near = offer(j - 1, j)
        # the producer two before, when the operation between computes the ADD's other operand
        # from neither of its outputs: the two swap, so that the ADD may run in the tiles of the
        # one with more work for the array to hide it behind
        k, h = j - 1, j - 2
        far = offer(h, j) if k in cands and h >= 0 and not set(ops[h].outputs) & set(ops[k].inputs) else None
        if far is not None and far.skip not in ops[k].outputs:
            far = None
        if far is not None and (near is None or useful_macs(sg, ops[h]) > useful_macs(sg, ops[k])):
            plan.residuals[h] = (j, far)
            plan.swaps.add(h)
        elif near is not None:
            plan.residuals[j - 1] = (j, near)


def run_order(plan: Plan, ops: list[int], planned: bool = False) -> list[int]:
    """``ops`` (operation indexes, ascending) in the order they run: each swapped pair
    (``Plan.swaps``) of which both are in ``ops`` and lowered exchanged (``planned``: before
    lowering, every swapped pair of ``ops``)."""
    out, present = list(ops), set(ops)
    for h in sorted(plan.swaps):
        if h in present and h + 1 in present and (planned or (h in plan.lowered and h + 1 in plan.lowered)):
            a = out.index(h)
            out[a], out[a + 1] = out[a + 1], out[a]
    return out


def allocate(plan: Plan) -> None:
    """External memory: the candidates' tensors first, then their scratch areas (all of an
    operation's areas or none: without them its lowering falls back to the host), then the
    constant image."""
    cfg, sg, ops = plan.cfg, plan.sg, plan.sg.operations
    pos = cfg.dma_base
    for i in plan.candidates:
        op, low = ops[i], plan.lows[i]
        for j in low.tensors(sg, op):
            if j in plan.addr:
                continue
            if low.alias() and j == op.outputs[0]:
                plan.addr[j] = plan.addr[op.inputs[0]]
                continue
            plan.addr[j] = pos
            pos = _align(pos + _nbytes(sg.operands[j]))
    for i in plan.candidates:
        sizes = plan.lows[i].scratch(sg, ops[i], cfg)
        if sizes and pos + sum(_align(n) for n in sizes) > cfg.dma_base + cfg.dma_size:
            continue
        for nbytes in sizes:
            plan.scratch.setdefault(i, []).append(pos)
            pos = _align(pos + nbytes)
    plan.consts = L.ConstImage(_align(pos))


def lower(plan: Plan) -> None:
    """Each candidate's passes; one that cannot be lowered here (or whose lowering fails) rolls
    its constants back and runs on the host, with a warning."""
    ops = plan.sg.operations
    consts = plan.consts
    ctx = L.LowerContext(plan.cfg, consts, plan.addr, plan.sg, plan.model)
    for i in run_order(plan, plan.candidates, planned=True):
        if i in plan.merged:        # its producer's tiles add it
            plan.lowered[i] = []
            continue
        mark = consts.mark()
        ctx.clamp = plan.clamps.get(i)
        ctx.scratch = plan.scratch.get(i, [])
        j, ctx.residual = plan.residuals.get(i, (None, None))
        ctx.handed = _handed(plan, i)
        ctx.hands = _hands(plan, i)
        if i in plan.swaps and i + 1 not in plan.lowered:   # its other operand is not computed before it
            j, ctx.residual = None, None
        try:
            plan.lowered[i] = plan.lows[i].passes(ctx, ops[i])
            if j is not None and any(getattr(p, "residual", False) for p in plan.lowered[i]):
                plan.merged[j] = i
                plan.joined.add(ops[i].outputs[0])
        except Exception as e:  # noqa: BLE001 - CannotLower, or a lowering bug: never a crash, the host runs it
            consts.rollback(mark)
            why = str(e) if isinstance(e, L.CannotLower) else f"internal lowering error ({type(e).__name__}: {e})"
            plan.reasons[i] = why
            plan.warnings.append(f"operation {i} ({ops[i].type}) runs on the host: {why}")
            if i in plan.fused:  # the RELU runs on its own after all (in place on its input's bytes)
                j = plan.fused.pop(i)
                plan.lows[j] = L.lowering_for(ops[j].type)


def _handed(plan: Plan, i: int) -> bool:
    """Whether operation ``i``'s input may come from the depthwise pass just before it in the
    scratchpad (:func:`join`, ``hand_over_to_pointwise``): operation ``i - 1`` is lowered as one
    pass whose output tiles are whole rows and :func:`_reads_alone` its output."""
    prev = plan.lowered.get(i - 1)
    if not prev or len(prev) != 1 or not getattr(prev[0], "dw_out", None):
        return False
    return _reads_alone(plan, i - 1)


def _hands(plan: Plan, i: int) -> bool:
    """Whether operation ``i``'s output may go to the pointwise pass of operation ``i + 1`` in the
    scratchpad (``hand_over_to_pointwise``): ``i + 1`` is a 1x1 CONV_2D that :func:`_reads_alone`
    the output."""
    ops = plan.sg.operations
    if i + 1 >= len(ops) or ops[i + 1].type != "CONV_2D" or i + 1 not in plan.candidates:
        return False
    dims = plan.sg.operands[ops[i + 1].inputs[1]].dimensions
    return len(dims) == 4 and tuple(dims[1:3]) == (1, 1) and _reads_alone(plan, i)


def _reads_alone(plan: Plan, i: int) -> bool:
    """Whether operation ``i + 1`` is the only reader of operation ``i``'s output, reads it as its
    first input and nowhere else, and the output is no model output."""
    ops, sg = plan.sg.operations, plan.sg
    t, nxt = ops[i].outputs[0], ops[i + 1]
    return (_consumers(sg).get(t) == [i + 1] and t not in set(sg.output_indexes)
            and nxt.inputs[:1] == [t] and t not in nxt.inputs[1:])


def segment(plan: Plan) -> None:
    """Segments: maximal runs of consecutive lowered operations, not made of aliases alone."""
    segments, cur = [], []
    for i in range(len(plan.sg.operations)):
        if i in plan.lowered:
            cur.append(i)
            continue
        if cur:
            segments.append(cur)
        cur = []
    if cur:
        segments.append(cur)
    plan.segments = [s for s in segments if not all(plan.lows[i].alias() for i in s)]
    accel = plan.accelerated
    for i in plan.lowered:
        if i not in accel:
            plan.reasons[i] = "a layout no-op between host operations"


def join(plan: Plan) -> None:
    """Passes that hand their output to the next operation's pass in the scratchpad
    (:func:`nnaccel.compiler.lower.hand_over`): an operation whose output only the next
    operation of its segment reads, and which is no output of the model. Such a tensor is never
    in external memory: the manifest places it nowhere."""
    sg, ops = plan.sg, plan.sg.operations
    consumers, main_outputs = _consumers(sg), set(sg.output_indexes)
    for seg in plan.segments:
        seg = run_order(plan, seg)      # (a swapped pair is no run of consecutive operations)
        for i, j in itertools.pairwise(seg):
            t = ops[i].outputs[0]
            if (j == i + 1 and consumers.get(t) == [j] and t not in main_outputs and ops[j].inputs[:1] == [t]
                    and t not in ops[j].inputs[1:] and plan.lowered[i] and plan.lowered[j]
                    and (L.hand_over(plan.cfg, plan.lowered[i][-1], plan.lowered[j][0])
                         or (len(plan.lowered[i]) == 1 and len(plan.lowered[j]) == 1
                             and L.hand_over_to_pointwise(plan.cfg, plan.lowered[i][0], plan.lowered[j][0])))):
                plan.joined.add(t)
        for h, i, j in zip(seg, seg[1:], seg[2:]):
            if h + 2 == i + 1 == j and plan.lowered[h] and len(plan.lowered[i]) == 1 and plan.lowered[j]:
                L.hoist_prefetch(plan.cfg, plan.lowered[h][-1], plan.lowered[i][-1], plan.lowered[j][0])


def _memory_size(plan: Plan) -> int:
    cfg = plan.cfg
    size = plan.consts.base + len(plan.consts.data) - cfg.dma_base
    if size > cfg.dma_size:
        raise InputError(f"The model needs {size} bytes of external memory, but the DMA window of "
                         f"configuration {cfg.name} has {cfg.dma_size}.")
    return size


def build_plan(model: Model, config=DEFAULT_CONFIG, validate: bool = True, residuals: bool = True) -> Plan:
    """Partitions, fuses, allocates, lowers and segments ``model`` for ``config`` (``residuals``
    false: every ADD on its own, :func:`fuse_residuals` skipped)."""
    from nnaccel.validate import validate_model

    cfg = load_config(config)
    if validate:
        validate_model(model)
    plan = Plan(cfg, model)
    partition(plan)
    fuse(plan)
    if residuals:
        fuse_residuals(plan)
    allocate(plan)
    lower(plan)
    segment(plan)
    join(plan)
    return plan


def placements(plan: Plan) -> list[Placement]:
    """Where every operation of the main graph runs, and why."""
    ops = plan.sg.operations
    seg_of = {i: k for k, s in enumerate(plan.segments) for i in s}
    fused_into = {j: i for i, j in plan.fused.items()}
    out = []
    for i, op in enumerate(ops):
        if i not in seg_of:
            out.append(Placement(i, op.type, "host", plan.reasons.get(i, "")))
        elif i in plan.merged:
            p = plan.merged[i]
            out.append(Placement(i, op.type, "accelerator", f"added per output tile of operation {p} "
                                                            f"({ops[p].type}) on the vector unit, in segment {seg_of[i]}"))
        elif i in fused_into:
            p = fused_into[i]
            out.append(Placement(i, op.type, "accelerator", f"fused into the output clamp of operation {p} "
                                                            f"({ops[p].type}), in segment {seg_of[i]}"))
        else:
            out.append(Placement(i, op.type, "accelerator", f"{plan.lows[i].summary}, in segment {seg_of[i]}"))
    return out


def plan_model(model: Model, config=DEFAULT_CONFIG, validate: bool = True) -> list[Placement]:
    """Where each operation of ``model``'s main graph would run when compiled for ``config``."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return placements(build_plan(model, config, validate))


# ------------------------------------------------------------------------------------ emission
def _emit_segment(plan: Plan, k: int, seg: list[int], first: int, consumers: dict):
    """One segment's instructions, its manifest entry and its listing text."""
    sg, ops, lows = plan.sg, plan.sg.operations, plan.lows
    b = ProgramBuilder(plan.cfg)
    for i in run_order(plan, seg):
        for p, stages in enumerate(plan.lowered[i]):
            b.layer((i, p))
            if isinstance(stages, RawPass):
                b.raw(stages)
                continue
            for st in stages:
                b.stage(*st)
    ins = b.finish()
    decoded = [x.decoded() for x in ins]
    words = [encode_decoded(d) for d in decoded]
    produced, inputs = set(), []
    for i in seg:
        op = ops[i]
        for j in lows[i].tensors(sg, op)[:-1]:
            if j not in produced and j not in inputs:
                inputs.append(j)
        produced.add(op.outputs[0])
    segset, main_outputs = set(seg), set(sg.output_indexes)
    outputs = [j for i in seg for j in [ops[i].outputs[0]]
               if j in main_outputs or any(c not in segset for c in consumers.get(j, []))]
    span: dict = {}     # layer tag -> [first, last, own] instruction
    for pc, t in enumerate(b.tags):
        if isinstance(t, tuple) and t and t[0] != "barrier":
            if t not in span:
                span[t] = [pc, pc, None]
            span[t][1] = pc
            if span[t][2] is None and id(ins[pc]) not in b.prefetched:
                span[t][2] = pc
    layers = [{"op": i, "type": ops[i].type, "pass": p, "first": span[(i, p)][0], "last": span[(i, p)][1],
               "own": span[(i, p)][0] if span[(i, p)][2] is None else span[(i, p)][2]}
              for i in seg for p in range(len(plan.lowered[i])) if (i, p) in span]
    doc = {"index": k, "operations": seg, "inputs": inputs, "outputs": outputs,
           "program": {"offset": first, "count": len(words)}, "layers": layers}
    comments = []
    for x, t in zip(ins, b.tags):
        label = ""
        if isinstance(t, tuple) and t and t[0] == "barrier":
            label = "barrier"
        elif isinstance(t, tuple):
            label = f"op {t[0]} {ops[t[0]].type}"
        comments.append(f"[{label}] {x.comment}".rstrip() if label else x.comment)
    text = (f"\n; segment {k}: operations {', '.join(f'{i} {ops[i].type}' for i in seg)}\n"
            + listing(decoded, comments, 0).rstrip("\n"))
    return words, doc, text


def _manifest(plan: Plan, seg_docs: list, size: int) -> dict:
    cfg, sg, ops, lows = plan.cfg, plan.sg, plan.sg.operations, plan.lows
    accel = plan.accelerated
    tensors = {str(j): {"addr": a, "shape": list(sg.operands[j].dimensions), "type": sg.operands[j].type.name,
                        "bytes": _nbytes(sg.operands[j])}
               for j, a in plan.addr.items()
               if j not in plan.joined and any(j in lows[i].tensors(sg, ops[i]) for i in accel)}
    scratch = {str(i): a for i, a in plan.scratch.items() if i in accel}
    return {
        "format": FORMAT, "version": VERSION, "nnaccel_version": __version__,
        "model": plan.model.name, "config": cfg.to_dict(),
        "memory": {"base": cfg.dma_base, "size": size, "const_base": plan.consts.base,
                   "const_size": len(plan.consts.data)},
        "tensors": tensors, "segments": seg_docs,
        "accelerator_ops": [{"index": i, "type": ops[i].type} for i in sorted(accel)],
        "host_ops": [{"index": i, "type": op.type, "reason": plan.reasons.get(i, "")}
                     for i, op in enumerate(ops) if i not in accel],
        "fused": {str(i): j for i, j in plan.fused.items() if i in accel and j in accel},
        **({"scratch": scratch} if scratch else {}),
        "warnings": plan.warnings,
    }


def emit(plan: Plan) -> Package:
    """The program package: every segment's instructions, the constant image, the manifest, the
    listing and the model."""
    size = _memory_size(plan)
    consumers = _consumers(plan.sg)
    words_all: list[int] = []
    text = [f"; nnaccel program package: model {plan.model.name}, configuration {plan.cfg.name}"]
    seg_docs = []
    for k, seg in enumerate(plan.segments):
        words, doc, seg_text = _emit_segment(plan, k, seg, len(words_all), consumers)
        words_all += words
        seg_docs.append(doc)
        text.append(seg_text)
    manifest = _manifest(plan, seg_docs, size)
    return Package(manifest, words_to_bytes(words_all), bytes(plan.consts.data), "\n".join(text) + "\n",
                   *model_members(plan.model))


def compile_model(model: Model, config=DEFAULT_CONFIG, validate: bool = True, residuals: bool = True) -> Package:
    """Compiles ``model`` for ``config`` (a preset name, a file or a :class:`HwConfig`);
    ``residuals`` false keeps every ADD a layer of its own (:func:`fuse_residuals`)."""
    plan = build_plan(model, config, validate, residuals)
    pkg = emit(plan)
    for w in plan.warnings:
        warnings.warn(w, CompileWarning, stacklevel=2)
    return pkg

