"""Model validation: structural rules of the NNAPI model, then each operation's own rules.

Every rejection raises :class:`~nnaccel.errors.ModelError` with a whole sentence naming the
subgraph, the operation index and name, the operand index and the rule broken.
"""

from __future__ import annotations

import math

from . import registry
from .errors import ModelError
from .model import (
    CONSTANT_LIFETIMES,
    ORIGINS,
    TYPE_INFO,
    Model,
    Operand,
    OperandLifetime,
    OperandType,
    Operation,
    Subgraph,
    check_tensor_size,
)

L = OperandLifetime


def validate_model(model: Model) -> None:
    """Checks ``model`` whole: its origin, the structure of every subgraph, then every operation."""
    if model.origin not in ORIGINS:
        raise ModelError(f"Model {model.name!r} has origin {model.origin!r}, but the origin must be one of "
                         f"{', '.join(repr(o) for o in ORIGINS)}.")
    for label, sg in model.subgraphs():
        _check_structure(model, label, sg)
    for label, sg in model.subgraphs():
        for index, op in enumerate(sg.operations):
            validate_operation(model, label, sg, index, op)


def _where(label: str) -> str:
    return "" if label == "main" else f" of subgraph {label}"


def _check_operand(label: str, index: int, o: Operand) -> None:
    where = f"Operand {index}{_where(label)} ({o.type.name})"
    info = TYPE_INFO[o.type]
    if o.dimensions is not None and any(d < 0 for d in o.dimensions):
        raise ModelError(f"{where} has a negative dimension {list(o.dimensions)}.")
    check_tensor_size(o.type, o.dimensions, where)
    if not info.is_tensor and o.dimensions not in ((), None):
        raise ModelError(f"{where} is a scalar type but has dimensions {list(o.dimensions)}.")
    if info.is_quantized and o.type is not OperandType.TENSOR_QUANT8_SYMM_PER_CHANNEL:
        if not (math.isfinite(o.scale) and o.scale > 0):
            raise ModelError(f"{where} has scale {o.scale}, but its type requires a finite scale > 0.")
    elif o.type is OperandType.TENSOR_INT32 and not (math.isfinite(o.scale) and o.scale >= 0):
        raise ModelError(f"{where} has scale {o.scale}, but a scale must be finite and >= 0.")
    lo, hi = info.zero_point_range
    if o.type is not OperandType.TENSOR_INT32 and not lo <= o.zero_point <= hi:
        raise ModelError(f"{where} has zero point {o.zero_point}, outside the range [{lo}, {hi}] "
                         f"its type allows.")
    if o.type is OperandType.TENSOR_QUANT8_SYMM_PER_CHANNEL:
        cq = o.channel_quant
        if cq is None:
            raise ModelError(f"{where} has no per-channel quantization parameters.")
        if o.dimensions is not None and not (0 <= cq.channel_dim < len(o.dimensions)):
            raise ModelError(f"{where} has channel dimension {cq.channel_dim}, outside its rank "
                             f"{len(o.dimensions)}.")
        if o.dimensions is not None and o.dimensions[cq.channel_dim] not in (0, len(cq.scales)):
            raise ModelError(f"{where} has {len(cq.scales)} per-channel scales, but its channel "
                             f"dimension {cq.channel_dim} has size {o.dimensions[cq.channel_dim]}.")
        for s in cq.scales:
            if not (math.isfinite(s) and s > 0):
                raise ModelError(f"{where} has per-channel scale {s}, but every scale must be a "
                                 f"finite number > 0.")
    if o.lifetime in CONSTANT_LIFETIMES:
        if o.data is None:
            raise ModelError(f"{where} is a constant without data.")
        if o.dimensions is None and info.is_tensor:
            raise ModelError(f"{where} is a constant of unknown rank; a constant's shape must be known.")
        expected = math.prod(o.dimensions) if o.dimensions is not None else o.data.size
        if o.data.size != expected:
            raise ModelError(f"{where} is a constant of shape {list(o.dimensions)} "
                             f"({expected} values) but holds {o.data.size} values.")


def _check_structure(model: Model, label: str, sg: Subgraph) -> None:
    n = len(sg.operands)
    for index, o in enumerate(sg.operands):
        _check_operand(label, index, o)
        if o.lifetime is L.SUBGRAPH:
            ref = int(o.data.reshape(-1)[0]) if o.data is not None and o.data.size else -1
            if not 0 <= ref < len(model.referenced):
                raise ModelError(f"Operand {index}{_where(label)} names subgraph {ref}, but the model "
                                 f"has {len(model.referenced)} referenced subgraphs.")
    for kind, idxs in (("input", sg.input_indexes), ("output", sg.output_indexes)):
        for i in idxs:
            if not 0 <= i < n:
                raise ModelError(f"Subgraph {label} lists operand {i} as an {kind}, but it has only "
                                 f"{n} operands.")
    writer: dict[int, int] = {}
    for k, op in enumerate(sg.operations):
        name = op.type
        if registry.get(name) is None:
            raise ModelError(f"Operation {k}{_where(label)} has unknown type {name!r}.")
        for role, idxs in (("input", op.inputs), ("output", op.outputs)):
            for pos, i in enumerate(idxs):
                if not 0 <= i < n:
                    raise ModelError(f"Operation {k} ({name}){_where(label)}: {role} {pos} is operand "
                                     f"{i}, out of range (the subgraph has {n} operands).")
        for pos, i in enumerate(op.outputs):
            o = sg.operands[i]
            if o.lifetime not in (L.TEMPORARY_VARIABLE, L.SUBGRAPH_OUTPUT):
                raise ModelError(f"Operation {k} ({name}){_where(label)}: output {pos} is operand {i}, "
                                 f"a {o.lifetime.value} operand that an operation may not write.")
            if i in writer:
                raise ModelError(f"Operation {k} ({name}){_where(label)}: output {pos} is operand {i}, "
                                 f"which operation {writer[i]} already writes; every operand is "
                                 f"written once.")
            writer[i] = k
    inputs = set(sg.input_indexes)
    for i in sg.output_indexes:
        if i not in writer and i not in inputs and sg.operands[i].lifetime not in CONSTANT_LIFETIMES:
            raise ModelError(f"Subgraph {label} output operand {i} is written by no operation.")
    # Every read must be of a value available before the reading operation: no cycles, no reads
    # of operands nobody writes.
    for k, op in enumerate(sg.operations):
        for pos, i in enumerate(op.inputs):
            o = sg.operands[i]
            if o.lifetime in (*CONSTANT_LIFETIMES, L.NO_VALUE, L.SUBGRAPH) or i in inputs:
                continue
            w = writer.get(i)
            if w is None:
                raise ModelError(f"Operation {k} ({op.type}){_where(label)}: input {pos} is operand {i}, "
                                 f"which no operation writes and which is not a subgraph input or "
                                 f"constant.")
            if w >= k:
                raise ModelError(f"Operation {k} ({op.type}){_where(label)}: input {pos} is operand {i}, "
                                 f"written by the later operation {w}; operations must be in a valid "
                                 f"execution order without cycles.")


def match_signature(entry: registry.OpDef, sg: Subgraph, op: Operation):
    """The first :class:`~nnaccel.registry.Sig` of ``entry`` that ``op``'s operand types fit, or
    ``None``; a signature-less entry matches with ``True``."""
    if not entry.signatures:
        return True
    in_types = [sg.operands[i].type for i in op.inputs]
    out_types = [sg.operands[i].type for i in op.outputs]
    for sig in entry.signatures:
        if _fits(sig, in_types, out_types):
            return sig
    return None


def _fits(sig: registry.Sig, in_types, out_types) -> bool:
    ins = list(sig.inputs)
    if sig.variadic:
        if len(in_types) < len(ins):
            return False
        ins = [ins[0]] * (len(in_types) - len(ins) + 1) + ins[1:]
    outs = list(sig.outputs)
    if sig.variadic_outputs:
        if not out_types:
            return False
        outs = [outs[0]] * len(out_types)
    if not (len(ins) - sig.optional <= len(in_types) <= len(ins)) or len(out_types) != len(outs):
        return False
    ins = ins[:len(in_types)]  # trailing optional inputs left out entirely
    bound: dict[str, OperandType] = {}
    for spec, t in zip([*ins, *outs], [*in_types, *out_types]):
        if isinstance(spec, str):
            if spec in bound:
                if bound[spec] != t:
                    return False
                continue
            if t not in sig.types[spec]:
                return False
            bound[spec] = t
        elif isinstance(spec, tuple):
            if t not in spec:
                return False
        elif t != spec:
            return False
    return True


def _describe_sigs(entry: registry.OpDef) -> str:
    def one(spec, sig):
        if isinstance(spec, str):
            return "|".join(t.name for t in sig.types[spec])
        if isinstance(spec, tuple):
            return "|".join(t.name for t in spec)
        return spec.name
    return "; ".join("(" + ", ".join(one(s, sig) for s in sig.inputs) + ") -> ("
                     + ", ".join(one(s, sig) for s in sig.outputs) + ")" for sig in entry.signatures[:3])


def validate_operation(model: Model, label: str, sg: Subgraph, index: int, op: Operation) -> None:
    from .golden.context import ValidationContext

    entry = registry.get(op.type)
    sig = match_signature(entry, sg, op)
    if sig is None:
        got = ", ".join(sg.operands[i].type.name for i in op.inputs)
        outs = ", ".join(sg.operands[i].type.name for i in op.outputs)
        raise ModelError(f"Operation {index} ({op.type}){_where(label)} has operands ({got}) -> ({outs}), "
                         f"which match none of its signatures, e.g. {_describe_sigs(entry)}.")
    if entry.validate is not None:
        entry.validate(ValidationContext(model, label, sg, index, op, None if sig is True else sig))
