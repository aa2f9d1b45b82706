"""Imports an ONNX model (``.onnx``, default-domain opset 13 or newer) into an nnaccel (NNAPI)
:class:`~nnaccel.model.Model`.

The file is parsed, checked and shape-inferred with the ``onnx`` package; each node then becomes
NNAPI operations through :data:`OP_TABLE`, THE op mapping (one :class:`OpMapping` per ONNX op type:
the NNAPI operation(s) it becomes, the converter, notes and any known difference from onnxruntime).
``docs/onnx.md`` is generated from it (``python -m nnaccel.compiler.onnx_import --write-doc
docs/onnx.md``), together with the ONNX node-test conformance table.

How the graph is mapped:

* **Types.** float32 -> ``TENSOR_FLOAT32``, float16 -> ``TENSOR_FLOAT16``, int32 / int64 ->
  ``TENSOR_INT32`` (int64 constants range-checked), bool -> ``TENSOR_BOOL8``, uint8 ->
  ``TENSOR_QUANT8_ASYMM`` and int8 -> ``TENSOR_QUANT8_ASYMM_SIGNED`` with the scale / zero point
  the QuantizeLinear / DequantizeLinear / QLinear* nodes give the tensor (scale 1 where none does).
  NNAPI has no rank-0 tensors: a scalar becomes shape ``[1]``.
* **Layout.** ONNX is NCHW, NNAPI's accelerated convolutions and pools NHWC. Convolutions, pools
  and Resize read their input in NHWC and write NHWC; elementwise ops, activations, Concat,
  BatchNormalization and Q / DQ keep whatever layout their inputs have, so a CNN runs NHWC from its
  first convolution to its classifier. A TRANSPOSE is inserted only where an NHWC value meets an op
  that needs the ONNX layout (a graph output, a Reshape that moves data, ...).
* **Constants.** Initializers and ``Constant`` nodes are constants; ``Shape`` / ``Size`` of a
  tensor whose shape is known is a constant, and every node whose inputs are all constants (the
  shape arithmetic exporters emit) is evaluated at import with ``onnx.reference``.
* **QDQ.** A DequantizeLinear of a constant is kept as the quantized constant (weights, biases);
  one of a tensor is deferred. A data-movement op (Reshape, Transpose, Flatten, Squeeze, Unsqueeze,
  Slice, Gather, Split, Concat, MaxPool, Relu, Identity ...) on a deferred DQ runs on the quantized
  tensor itself. A compute op (Conv, Gemm, MatMul, Add, Mul, AveragePool, GlobalAveragePool,
  Sigmoid) whose inputs are all DQ outputs and whose output goes only to a QuantizeLinear (through
  at most one Relu / Clip, fused as the NNAPI activation) becomes the NNAPI quantized op writing the
  QuantizeLinear's output; per-channel weights become ``TENSOR_QUANT8_SYMM_PER_CHANNEL``. Anything
  else runs in float32 between DEQUANTIZE and QUANTIZE, which is ONNX's definition of a QDQ graph.
* **QOperator** ops (QLinearConv, QLinearMatMul, ConvInteger, MatMulInteger and the
  ``com.microsoft`` QLinearAdd / QLinearMul / QLinearAveragePool / QLinearGlobalAveragePool /
  QLinearSigmoid) map to the same quantized NNAPI ops.

The imported model's inputs / outputs are the ONNX graph's inputs (initializers excluded) and
outputs, in order.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from ...errors import InputError, NotImplementedOpError
from ...model import Model, OperandLifetime
from . import _nn, _ops  # noqa: F401 - registers the converters in OP_TABLE
from ._context import MS_DOMAIN, OP_TABLE, ImportContext, Node, OpMapping, _parse, _shape_of

__all__ = ["OP_TABLE", "OpMapping", "import_onnx_bytes", "load_onnx"]

#: Ops evaluated at import when their inputs are constants are all ops except these (their
#: constant form is the quantized data itself).
_NOT_FOLDED = {"DequantizeLinear"}


def _attrs(node) -> dict:
    out = {}
    for a in node.attribute:
        v = helper.get_attribute_value(a)
        if isinstance(v, bytes):
            v = v.decode(errors="replace")
        elif isinstance(v, list) and v and isinstance(v[0], bytes):
            v = [x.decode(errors="replace") for x in v]
        out[a.name] = v
    return out


def _fold(ctx: ImportContext, node, n: Node, opset: int) -> bool:
    """Evaluates a node at import: Constant, Shape / Size of a known shape, or any node whose inputs
    are all constants (with ``onnx.reference``). Returns whether it was folded."""
    if n.op == "Constant" and n.domain == "":
        ctx.consts[n.outputs[0]] = numpy_helper.to_array(_constant_tensor(node, n))
        return True
    if n.op in ("Shape", "Size") and n.domain == "":
        s = ctx.shapes.get(n.inputs[0]) if n.inputs[0] not in ctx.consts else ctx.consts[n.inputs[0]].shape
        if s is None or not all(s):
            return False
        if n.op == "Size":
            ctx.consts[n.outputs[0]] = np.array(int(np.prod(s)), np.int64)
        else:
            r = len(s)
            lo, hi = n.attr("start", 0), n.attr("end", r)
            lo, hi = max(lo + r if lo < 0 else lo, 0), min(hi + r if hi < 0 else hi, r)
            ctx.consts[n.outputs[0]] = np.array(s[lo:hi], np.int64)
        return True
    live = [i for i in n.inputs if i]
    if n.op in _NOT_FOLDED or not live or n.domain not in ("", "ai.onnx") or \
            not all(i in ctx.consts for i in live):
        return False
    from onnx.reference import ReferenceEvaluator
    try:
        ref = ReferenceEvaluator(_single_node_model(ctx, node, opset))
        outs = ref.run(None, {i: ctx.consts[i] for i in live})
    except Exception:  # noqa: BLE001 - a node the reference cannot evaluate is converted instead
        return False
    for name, v in zip(n.outputs, outs):
        if name:
            ctx.consts[name] = np.asarray(v)
    return True


def _constant_tensor(node, n: Node):
    for key in ("value", "value_float", "value_floats", "value_int", "value_ints"):
        if key in n.attrs:
            v = n.attrs[key]
            if key == "value":
                return v
            dtype = np.float32 if "float" in key else np.int64
            return numpy_helper.from_array(np.asarray(v, dtype))
    raise NotImplementedOpError(f"ONNX node {n.index} (Constant) uses a value kind nnaccel does not read "
                                f"({', '.join(n.attrs)}).")


def _single_node_model(ctx, node, opset: int):
    inputs = [helper.make_tensor_value_info(i, TensorProto.UNDEFINED, None) for i in node.input if i]
    outputs = [helper.make_tensor_value_info(o, TensorProto.UNDEFINED, None) for o in node.output if o]
    graph = helper.make_graph([node], "fold", inputs, outputs)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])


def _ms_shapes(model, nodes: list[Node], ctx: ImportContext):
    """Adds the output shapes of com.microsoft QOperator nodes and re-runs shape inference until
    every such output is known (ONNX shape inference does not know the domain)."""
    for _ in range(len(nodes)):
        added = False
        for n in nodes:
            if n.domain != MS_DOMAIN or ctx.shapes.get(n.outputs[0]) is not None:
                continue
            shape = _nn.ms_output_shape(n, ctx.shapes)
            if shape is None:
                continue
            elem = ctx.elems.get(n.inp(7) if n.op in ("QLinearAdd", "QLinearMul") else n.inp(4)) or \
                ctx.elems.get(n.inputs[0])
            model.graph.value_info.append(helper.make_tensor_value_info(n.outputs[0], elem, list(shape)))
            added = True
        if not added:
            return model
        model = onnx.shape_inference.infer_shapes(model, data_prop=True)
        _read_value_infos(model, ctx)
    return model


def _read_value_infos(model, ctx: ImportContext) -> None:
    g = model.graph
    for vi in [*g.input, *g.value_info, *g.output]:
        if vi.type.HasField("tensor_type"):
            ctx.shapes[vi.name] = _shape_of(vi)
            ctx.elems[vi.name] = vi.type.tensor_type.elem_type
    for t in g.initializer:
        ctx.elems[t.name] = t.data_type


def import_onnx_bytes(data: bytes, name: str = "model", where: str = "<bytes>") -> Model:
    """Imports a serialized ONNX model held in memory (see :func:`load_onnx`)."""
    model = _parse(data, where)
    g = model.graph
    ctx = ImportContext(name, where)
    try:
        for t in g.initializer:
            ctx.consts[t.name] = numpy_helper.to_array(t)
    except Exception as e:  # noqa: BLE001 - a corrupt initializer
        raise InputError(f"The ONNX model {where} has a corrupt initializer ({e}).") from None
    _read_value_infos(model, ctx)
    opset = max([o.version for o in model.opset_import if o.domain in ("", "ai.onnx")] or [0])
    nodes = [Node(k, nd.op_type, nd.domain if nd.domain != "ai.onnx" else "", list(nd.input), list(nd.output),
                  _attrs(nd)) for k, nd in enumerate(g.node)]
    model = _ms_shapes(model, nodes, ctx)
    kept = []
    for nd, n in zip(g.node, nodes):
        ctx.node = n
        if not _fold(ctx, nd, n, opset):
            kept.append(n)
    missing: dict[str, int] = {}
    for n in kept:
        m = OP_TABLE.get(n.op)
        if m is None or m.domain != n.domain:
            label = n.op if not n.domain else f"{n.domain}.{n.op}"
            missing[label] = missing.get(label, 0) + 1
    if missing:
        listed = ", ".join(f"{k} ({v}x)" for k, v in sorted(missing.items()))
        raise NotImplementedOpError(f"The ONNX model {where} uses operators nnaccel cannot import yet: {listed}.")
    for n in nodes:
        _nn.register_quant(ctx, n)
    for n in kept:
        for i in n.inputs:
            if i:
                ctx.consumers.setdefault(i, []).append(n)
    ctx.graph_outputs = {o.name for o in g.output}
    inits = {t.name for t in g.initializer}
    in_ops = [ctx.out(vi.name) for vi in g.input if vi.name not in inits]
    for n in kept:
        if n.index in ctx.skip:
            continue
        ctx.node = n
        OP_TABLE[n.op].convert(ctx, n)
    out_ops: list[int] = []
    for o in g.output:
        out_ops.append(_output_operand(ctx, o.name, in_ops + out_ops))
    ctx.b.identify_inputs_and_outputs(in_ops, out_ops)
    return ctx.b.finish()


def _output_operand(ctx: ImportContext, name: str, taken: list) -> int:
    """The operand of graph output ``name`` in ONNX layout; a graph input, a constant or an operand
    already output (``taken``) gets a RESHAPE copy (an NNAPI output must be produced by an operation)."""
    ctx.node = Node(-1, "output", "", [name], [], {})
    idx = ctx.get(name)
    o = ctx.b.operand(idx)
    if idx in taken or o.lifetime is not OperandLifetime.TEMPORARY_VARIABLE:
        copy = ctx.b.add_operand(o.type, o.dimensions, o.scale, o.zero_point, o.channel_quant, name=name)
        ctx.emit("RESHAPE", [idx, ctx.i32_tensor(o.dimensions or (1,))], [copy])
        idx = copy
    return idx


def load_onnx(path) -> Model:
    """Reads a ``.onnx`` file and returns the equivalent NNAPI model.

    Raises :class:`~nnaccel.errors.InputError` for an unreadable, corrupt or invalid file and
    :class:`~nnaccel.errors.NotImplementedOpError` naming every op type (with its count) that has no
    mapping in :data:`OP_TABLE`, or the node and the parameter NNAPI cannot express.
    """
    p = Path(path)
    try:
        data = p.read_bytes()
    except OSError as e:
        raise InputError(f"The model file {p} cannot be read ({e.strerror or e}).") from None
    return import_onnx_bytes(data, name=p.stem, where=str(p))


# ================================================================================ generated docs
DOC_BEGIN = ("<!-- BEGIN GENERATED OP TABLE (python -m nnaccel.compiler.onnx_import --write-doc "
             "docs/onnx.md) -->")
DOC_END = "<!-- END GENERATED OP TABLE -->"


def _esc(s: str) -> str:
    return s.replace("|", "\\|")


def op_table_markdown() -> str:
    """The op-mapping and known-difference tables, generated from :data:`OP_TABLE`."""
    lines = ["| ONNX op | NNAPI op(s) | notes |", "| --- | --- | --- |"]
    for name in sorted(OP_TABLE):
        m = OP_TABLE[name]
        label = f"`{m.domain}.{name}`" if m.domain else f"`{name}`"
        nn = ", ".join(f"`{n}`" for n in m.nnapi) or "(none)"
        lines.append(f"| {label} | {nn} | {_esc(m.notes)} |")
    by_reason: dict[str, list[str]] = {}
    for name in sorted(OP_TABLE):
        m = OP_TABLE[name]
        if m.quant_tolerance:
            by_reason.setdefault(f"±{m.quant_tolerance} quantized step|{m.difference}", []).append(name)
    lines += ["", "Known differences from onnxruntime (each bound is what the differential test allows):", "",
              "| ONNX ops | bound | reason |", "| --- | --- | --- |"]
    for key, names in by_reason.items():
        bound, reason = key.split("|", 1)
        lines.append(f"| {', '.join(f'`{n}`' for n in names)} | {bound} | {_esc(reason)} |")
    return "\n".join(lines)


def conformance_markdown(per_op) -> str:
    """The node-test table: per mapped op, cases passed / run and every reason a case fails."""
    lines = ["| ONNX op | passed / cases | why the others fail (cases) |", "| --- | --- | --- |"]
    for name in sorted(per_op):
        if name not in OP_TABLE:
            continue
        r = per_op[name]
        why = "; ".join(f"{_esc(k)} ({v})" for k, v in sorted(r.failures.items(), key=lambda kv: (-kv[1], kv[0])))
        lines.append(f"| `{name}` | {r.passed} / {r.cases} | {why} |")
    untested = sorted(n for n in OP_TABLE if n not in per_op)
    lines += ["", "Mapped ops without a node test whose ops are all mapped: "
              + ", ".join(f"`{n}`" for n in untested) + " (the com.microsoft ones are checked against "
              "onnxruntime by tests/compiler/test_onnx_qoperator.py)."]
    return "\n".join(lines)


def generated_section(per_op) -> str:
    return "\n".join([DOC_BEGIN, op_table_markdown(), "", "### ONNX node tests", "",
                      conformance_markdown(per_op), DOC_END])


def render_doc(text: str, per_op) -> str:
    """``text`` (docs/onnx.md) with its generated section replaced."""
    start, end = text.find(DOC_BEGIN), text.find(DOC_END)
    if start < 0 or end < 0:
        raise InputError("docs/onnx.md lacks the generated-table markers.")
    return text[:start] + generated_section(per_op) + text[end + len(DOC_END):]
