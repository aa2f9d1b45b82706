"""The compiler driver: validate, partition, lower + tile, allocate, schedule, emit a package.

Partition: an operation of the main graph joins the accelerator when its registry entry has a
lowering (``nnaccel.registry.OpDef.lowering``, installed by :mod:`nnaccel.compiler.lower`) that
accepts its types and parameters *and* that lowers within the chosen configuration's
scratchpads; every other operation runs on the host. Consecutive accelerator operations form one
segment (one program, one run of the accelerator), so data produced and consumed on the
accelerator never goes back through the host. A segment of layout no-ops alone stays on the host.
Operations inside IF / WHILE bodies run on the host.

External memory: every tensor an accelerator operation reads or writes has a fixed address from
``config.dma_base`` on (an alias operation's output shares its input's bytes), then the constant
image. The runtime writes a segment's input tensors there, runs the segment and reads its output
tensors back.
"""

from __future__ import annotations

import dataclasses
import json
import warnings

import numpy as np

from nnaccel import __version__, registry
from nnaccel.errors import InputError
from nnaccel.hwconfig import HwConfig, load_config
from nnaccel.isa import words_to_bytes
from nnaccel.model import Model
from nnaccel.package import FORMAT, VERSION, Package

from . import lower as L
from .emit import ProgramBuilder, RawPass, listing

ALIGN = 16


class CompileWarning(UserWarning):
    """An operation the accelerator supports in general that falls back to the host here."""


def _align(n: int) -> int:
    return -(-n // ALIGN) * ALIGN


def lowering_of(op):
    entry = registry.get(op.type)
    return None if entry is None else entry.lowering


def compile_model(model: Model, config="base", validate: bool = True) -> Package:
    """Compiles ``model`` for ``config`` (a preset name, a file or a :class:`HwConfig`)."""
    from nnaccel.formats import model_to_dict
    from nnaccel.validate import validate_model

    cfg: HwConfig = load_config(config)
    if validate:
        validate_model(model)
    L.install()
    sg = model.main
    ops = sg.operations
    reasons: dict[int, str] = {}
    candidates = []
    for i, op in enumerate(ops):
        low = lowering_of(op)
        if low is None:
            reasons[i] = "no accelerator lowering"
            continue
        why = low.supports(sg, op)
        if why is not None:
            reasons[i] = why
            continue
        candidates.append(i)

    # RELU / RELU1 / RELU6 fused into the clamp of its producer when it is the producer's only
    # consumer (the RELU becomes a layout no-op on the producer's bytes)
    consumers: dict[int, list[int]] = {}
    for i, op in enumerate(ops):
        for j in op.inputs:
            consumers.setdefault(j, []).append(i)
    main_outputs = set(sg.output_indexes)
    producer = {op.outputs[0]: i for i, op in enumerate(ops) if op.outputs}
    cand = set(candidates)
    lows = {i: lowering_of(ops[i]) for i in candidates}
    clamps: dict[int, tuple] = {}
    fused: dict[int, int] = {}
    for j in candidates:
        op = ops[j]
        if op.type not in ("RELU", "RELU1", "RELU6"):
            continue
        t = op.inputs[0]
        i = producer.get(t)
        if (i is None or i not in cand or i in clamps or lows[i].family not in L.CLAMPING_FAMILIES
                or consumers.get(t) != [j] or t in main_outputs):
            continue
        new = L.tighten(L.relu_range(sg, op), clamps.get(i))
        spec_lo, spec_hi = _current_range(lows[i], sg, ops[i])
        lo, hi = max(spec_lo, new[0]), min(spec_hi, new[1])
        if lo > hi:
            continue
        clamps[i] = new
        fused[i] = j
        lows[j] = L.AliasLowering()

    # external memory: tensors first, then the constant image
    addr: dict[int, int] = {}
    pos = cfg.dma_base
    for i in candidates:
        op = ops[i]
        low = lows[i]
        for j in low.tensors(sg, op):
            if j in addr:
                continue
            if low.alias() and j == op.outputs[0]:
                addr[j] = addr[op.inputs[0]]
                continue
            o = sg.operands[j]
            addr[j] = pos
            pos = _align(pos + int(np.prod(o.dimensions)))
    # scratch areas (e.g. NHWC copies of NCHW tensors), allocated like intermediate tensors
    scratch: dict[int, list[int]] = {}
    # (all of an operation's areas or none: without them its lowering falls back to the host)
    for i in candidates:
        sizes = lows[i].scratch(sg, ops[i])
        if sizes and pos + sum(_align(n) for n in sizes) > cfg.dma_base + cfg.dma_size:
            continue
        for nbytes in sizes:
            scratch.setdefault(i, []).append(pos)
            pos = _align(pos + nbytes)
    const_base = _align(pos)
    consts = L.ConstImage(const_base)
    ctx = L.LowerContext(cfg, consts, addr, sg, model)

    lowered: dict[int, list] = {}
    warn = []
    for i in candidates:
        mark = consts.mark()
        ctx.clamp = clamps.get(i)
        ctx.scratch = scratch.get(i, [])
        try:
            lowered[i] = lows[i].passes(ctx, ops[i])
        except Exception as e:  # noqa: BLE001 - CannotLower, or a lowering bug: never a crash, the host runs it
            consts.rollback(mark)
            why = str(e) if isinstance(e, L.CannotLower) else f"internal lowering error ({type(e).__name__}: {e})"
            reasons[i] = why
            warn.append(f"operation {i} ({ops[i].type}) runs on the host: {why}")
            if i in fused:  # the RELU runs on its own after all (in place on its input's bytes)
                j = fused.pop(i)
                lows[j] = lowering_of(ops[j])
    ctx.clamp = None
    ctx.scratch = []

    # segments: maximal runs of consecutive lowered operations, not made of aliases alone
    segments, cur = [], []
    for i in range(len(ops)):
        if i in lowered:
            cur.append(i)
            continue
        if cur:
            segments.append(cur)
        cur = []
    if cur:
        segments.append(cur)
    segments = [s for s in segments if not all(lows[i].alias() for i in s)]
    accel = {i for s in segments for i in s}
    for i in lowered:
        if i not in accel:
            reasons[i] = "a layout no-op between host operations"

    size = const_base + len(consts.data) - cfg.dma_base
    if size > cfg.dma_size:
        raise InputError(f"The model needs {size} bytes of external memory, but the DMA window of "
                         f"configuration {cfg.name} has {cfg.dma_size}.")

    words_all: list[int] = []
    text = [f"; nnaccel program package: model {model.name}, configuration {cfg.name}"]
    seg_docs = []
    for k, seg in enumerate(segments):
        b = ProgramBuilder(cfg)
        for i in seg:
            for p, stages in enumerate(lowered[i]):
                b.layer((i, p))
                if isinstance(stages, RawPass):
                    b.raw(stages)
                    continue
                for st in stages:
                    b.stage(*st)
        ins = b.finish()
        words = [x.word() for x in ins]
        first = len(words_all)
        words_all += words
        produced, inputs = set(), []
        for i in seg:
            op = ops[i]
            for j in lows[i].tensors(sg, op)[:-1]:
                if j not in produced and j not in inputs:
                    inputs.append(j)
            produced.add(op.outputs[0])
        segset = set(seg)
        outputs = [j for i in seg for j in [ops[i].outputs[0]]
                   if j in main_outputs or any(c not in segset for c in consumers.get(j, []))]
        layers = []
        for i in seg:
            for p in range(len(lowered[i])):
                pcs = [pc for pc, t in enumerate(b.tags) if t == (i, p)]
                if not pcs:
                    continue
                layers.append({"op": i, "type": ops[i].type, "pass": p, "first": pcs[0], "last": pcs[-1]})
        seg_docs.append({"index": k, "operations": seg, "inputs": inputs, "outputs": outputs,
                         "program": {"offset": first, "count": len(words)}, "layers": layers})
        text.append(f"\n; segment {k}: operations {', '.join(f'{i} {ops[i].type}' for i in seg)}")
        tagged = []
        for x, t in zip(ins, b.tags):
            label = ""
            if isinstance(t, tuple) and t and t[0] == "barrier":
                label = "barrier"
            elif isinstance(t, tuple):
                label = f"op {t[0]} {ops[t[0]].type}"
            tagged.append(x if not label else _with_label(x, label))
        text.append(listing(tagged, words, 0).rstrip("\n"))
    tensors = {str(j): {"addr": a, "shape": list(sg.operands[j].dimensions),
                        "type": sg.operands[j].type.name,
                        "bytes": int(np.prod(sg.operands[j].dimensions))}
               for j, a in addr.items() if any(j in lows[i].tensors(sg, ops[i]) for i in accel)}
    manifest = {
        "format": FORMAT, "version": VERSION, "nnaccel_version": __version__,
        "model": model.name, "config": cfg.to_dict(),
        "memory": {"base": cfg.dma_base, "size": size, "const_base": const_base, "const_size": len(consts.data)},
        "tensors": tensors, "segments": seg_docs,
        "accelerator_ops": [{"index": i, "type": ops[i].type} for i in sorted(accel)],
        "host_ops": [{"index": i, "type": op.type, "reason": reasons.get(i, "")}
                     for i, op in enumerate(ops) if i not in accel],
        "fused": {str(i): j for i, j in fused.items() if i in accel and j in accel},
        **({"scratch": {str(i): a for i, a in scratch.items() if i in accel}} if set(scratch) & accel else {}),
        "warnings": warn,
    }
    for w in warn:
        warnings.warn(w, CompileWarning, stacklevel=2)
    bare = dataclasses.replace(model, stored_inputs=None, stored_outputs=None)
    model_json = json.dumps(model_to_dict(bare), sort_keys=True).encode()
    return Package(manifest, words_to_bytes(words_all), bytes(consts.data), "\n".join(text) + "\n", model_json)


def _current_range(low, sg, op) -> tuple:
    """The output clamp range a lowering applies to ``op`` without fusion."""
    if low.family == "conv":
        p = low.spec(sg, op).params
        return p["lo"], p["hi"]
    if low.family == "pool":
        s = low.spec(sg, op)
        return s["lo"], s["hi"]
    rows = low.params(sg, op)[1]
    return rows["lo"], rows["hi"]


def _with_label(x, label: str):
    return L.Ins(x.name, x.fields, f"[{label}] {x.comment}".rstrip(), x.flags)
