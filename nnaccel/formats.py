"""Model files: the JSON schema of the NNAPI conformance vectors (``../shared/nnapi-cts``).

A file (``.json`` or ``.json.gz``) holds one model object or a list of them; see the conformance
folder's README for the schema. This is nnaccel's canonical model interchange format.

One field beyond that schema: ``"origin"`` (``Model.origin``, one of ``nnaccel.model.ORIGINS``),
written only when it is not the default ``"nnapi"`` (a model imported from TFLite has
``"tflite"``), so conformance files and files written from them stay as they were.

Input data (the ``data`` of the main graph's ``SUBGRAPH_INPUT`` operands) follows the conformance
files' rule. A model carries input data when at least one of its inputs has a non-empty ``data``
list; then each input's list is its value, and an empty list on an input of known, non-empty shape
is an **omitted optional input** (NNAPI's ``setInput(i, nullptr, 0)``; the runners pass it as
``None``). A model none of whose inputs has data carries no input data (``stored_inputs`` is
``None``): a run needs the inputs from the user, or makes them up and says so.
:func:`run_inputs` is the one place that turns this into the arrays a run feeds; ``nnaccel run``
and ``nnaccel cts`` both use it.
"""

from __future__ import annotations

import gzip
import json
import math
from pathlib import Path

import numpy as np

from .errors import InputError, ModelError
from .ioutil import read_input, write_atomic
from .model import (
    TYPE_INFO,
    ChannelQuant,
    Model,
    Operand,
    OperandLifetime,
    OperandType,
    Operation,
    Subgraph,
    as_float32_scale,
    as_operand_array,
    check_tensor_size,
)

L = OperandLifetime


def read_json(path) -> object:
    """Reads a ``.json`` or ``.json.gz`` file (:func:`nnaccel.ioutil.read_input`: within the size
    limit); any failure is an :class:`InputError`."""
    data = read_input(path, "model file")  # within the size limit, gunzipped
    try:
        return json.loads(data.decode("utf-8"))
    except UnicodeDecodeError as e:
        raise InputError(f"The model file {path} is not JSON text (byte {e.start} is not UTF-8).") from None
    except RecursionError:
        raise InputError(f"The model file {path} nests too deeply to be a model.") from None
    except json.JSONDecodeError as e:
        raise InputError(f"The model file {path} is not valid JSON ({e.msg} at line {e.lineno}, "
                         f"column {e.colno}).") from None


def load_models(path) -> list[Model]:
    """Loads every model of a model file."""
    doc = read_json(path)
    items = doc if isinstance(doc, list) else [doc]
    models = []
    for k, item in enumerate(items):
        if not isinstance(item, dict):
            raise InputError(f"Entry {k} of {path} is not a model object.")
        models.append(model_from_dict(item))
    return models


def load_model(path, name: str | None = None) -> Model:
    """Loads one model; ``name`` picks it from a file holding several."""
    models = load_models(path)
    if name is not None:
        for m in models:
            if m.name == name:
                return m
        names = ", ".join(m.name for m in models[:10])
        raise InputError(f"The file {path} has no model named {name!r} (it has: {names}"
                         f"{' ...' if len(models) > 10 else ''}).")
    if len(models) != 1:
        names = ", ".join(m.name for m in models[:10])
        raise InputError(f"The file {path} holds {len(models)} models; pick one with --name (e.g. "
                         f"{names}).")
    return models[0]


def _operand(d: dict, where: str) -> tuple[Operand, np.ndarray | None]:
    try:
        op_type = OperandType[d["type"]]
    except (KeyError, TypeError):
        raise ModelError(f"{where} has unknown operand type {d.get('type')!r}.") from None
    try:
        lifetime = L(d.get("lifetime", "TEMPORARY_VARIABLE"))
    except (ValueError, TypeError):
        raise ModelError(f"{where} has unknown lifetime {d.get('lifetime')!r}.") from None
    dims = d.get("dimensions", [])
    if dims is not None:
        if not isinstance(dims, list) or not all(isinstance(x, int) for x in dims):
            raise ModelError(f"{where} has dimensions {dims!r}, which is not a list of integers.")
        dims = tuple(dims)
        if not dims and TYPE_INFO[op_type].is_tensor:
            dims = None  # a tensor with no dimensions has unknown rank
        check_tensor_size(op_type, dims, where)
    scale = d.get("scale", 0.0)
    zp = d.get("zero_point", 0)
    if not isinstance(scale, (int, float)) or scale is None:
        raise ModelError(f"{where} has scale {scale!r}, which is not a number.")
    if not isinstance(zp, int):
        raise ModelError(f"{where} has zero point {zp!r}, which is not an integer.")
    cq = d.get("channel_quant")
    channel_quant = None
    if cq:
        if (not isinstance(cq, dict) or not isinstance(cq.get("scales"), list)
                or not all(isinstance(s, (int, float)) and not isinstance(s, bool) for s in cq["scales"])
                or not isinstance(cq.get("channel_dim"), int) or isinstance(cq.get("channel_dim"), bool)):
            raise ModelError(f"{where} has channel_quant {str(cq)[:60]}, which is not an object with a list "
                             f"of numbers 'scales' and an integer 'channel_dim'.")
        channel_quant = ChannelQuant(tuple(as_float32_scale(s) for s in cq["scales"]), cq["channel_dim"])
    try:
        scale = as_float32_scale(scale)
    except OverflowError:
        raise ModelError(f"{where} has scale {scale!r}, which is not a float32 number.") from None
    o = Operand(op_type, dims, scale, int(zp), channel_quant, lifetime, name=d.get("name"),
                is_ignored=bool(d.get("is_ignored", False)))
    raw = d.get("data", [])
    if not isinstance(raw, list):
        raise ModelError(f"{where} has data that is not a list.")
    try:
        arr = as_operand_array(op_type, raw, dims) if raw else np.zeros(0, TYPE_INFO[op_type].dtype)
    except (TypeError, ValueError, OverflowError) as e:
        raise ModelError(f"{where} has data that does not fit its type {op_type.name} ({e}).") from None
    if lifetime in (L.CONSTANT_COPY, L.CONSTANT_REFERENCE, L.SUBGRAPH):
        o.data = arr
        return o, None
    return o, arr


def _list(d: dict, key: str, where: str, ints: bool = False) -> list:
    """``d[key]`` (default ``[]``), which must be a list (of integers with ``ints``)."""
    v = d.get(key, [])
    if not isinstance(v, list) or (ints and not all(isinstance(x, int) and not isinstance(x, bool)
                                                     for x in v)):
        raise ModelError(f"{where} has {key} {str(v)[:60]}, which is not a list"
                         f"{' of integers' if ints else ''}.")
    return v


def _subgraph(d: dict, label: str) -> tuple[Subgraph, dict[int, np.ndarray]]:
    if not isinstance(d, dict):
        raise ModelError(f"Subgraph {label} is not an object.")
    sg = Subgraph()
    samples = {}
    where = f"Subgraph {label}"
    for key in ("input_indexes", "output_indexes"):
        _list(d, key, where, ints=True)
    for k, opd in enumerate(_list(d, "operations", where)):
        if isinstance(opd, dict):
            for key in ("inputs", "outputs"):
                _list(opd, key, f"Operation {k} of subgraph {label}", ints=True)
    for i, od in enumerate(_list(d, "operands", where)):
        if not isinstance(od, dict):
            raise ModelError(f"Operand {i} of subgraph {label} is not an object.")
        o, data = _operand(od, f"Operand {i} of subgraph {label}")
        sg.operands.append(o)
        if data is not None:
            samples[i] = data
    for k, opd in enumerate(d.get("operations", [])):
        if not isinstance(opd, dict) or "type" not in opd:
            raise ModelError(f"Operation {k} of subgraph {label} is not an object with a type.")
        try:
            sg.operations.append(Operation(str(opd["type"]), [int(i) for i in opd.get("inputs", [])],
                                           [int(i) for i in opd.get("outputs", [])]))
        except (TypeError, ValueError):
            raise ModelError(f"Operation {k} of subgraph {label} has operand indexes that are not "
                             f"integers.") from None
    try:
        sg.input_indexes = [int(i) for i in d.get("input_indexes", [])]
        sg.output_indexes = [int(i) for i in d.get("output_indexes", [])]
    except (TypeError, ValueError):
        raise ModelError(f"Subgraph {label} has input or output indexes that are not integers.") from None
    return sg, samples


def model_from_dict(d: dict) -> Model:
    """Builds a :class:`Model` from one model object of the schema."""
    if "main" not in d:
        raise ModelError(f"Model {d.get('name', '?')!r} has no main subgraph.")
    main, samples = _subgraph(d["main"], "main")
    referenced = [_subgraph(r, f"referenced[{i}]")[0] for i, r in enumerate(_list(d, "referenced", "The model"))]
    n = len(main.operands)

    def stored(indexes):
        out = []
        for i in indexes:
            a = samples.get(i) if 0 <= i < n else None
            o = main.operands[i] if 0 <= i < n else None
            if a is not None and o is not None and o.dimensions is not None:
                if a.size == math.prod(o.dimensions):
                    a = a.reshape(o.dimensions)
                elif a.size == 0:
                    a = None  # an empty list on a known non-empty shape: omitted optional input
            out.append(a)
        return out

    inputs = stored(main.input_indexes)
    if main.input_indexes and not any(samples.get(i) is not None and samples[i].size
                                      for i in main.input_indexes if 0 <= i < n):
        inputs = None  # no input has data: the file carries none (not "every input omitted")

    meta = {k: d[k] for k in ("group", "spec", "expect_failure", "min_supported_version",
                              "multinomial_tolerance") if k in d}
    return Model(main, referenced, bool(d.get("is_relaxed", False)), str(d.get("name", "model")),
                 inputs, stored(main.output_indexes), meta, str(d.get("origin", "nnapi")))


def run_inputs(model: Model, supplied: dict | None = None, seed: int | None = 0,
               source: str = "the inputs file") -> tuple[list, list[int]]:
    """The arrays a run of ``model`` feeds, one per main input (``None`` = omitted), and the
    positions filled with made-up data.

    ``supplied`` maps input positions to arrays (``nnaccel run --inputs``); it must give every
    input except those the model's own input data omits. Without it the model's input data is used
    (see the module docstring). A model that carries no input data gets deterministic random
    values (``seed``) when ``seed`` is not ``None``; with ``seed=None`` (the conformance runner)
    that is an :class:`InputError`. Every shape is checked against the size limit first."""
    main = model.main
    count = len(main.input_indexes)
    stored = model.stored_inputs
    if supplied is not None:
        omitted = {k for k, a in enumerate(stored or []) if a is None}
        missing = [k for k in range(count) if k not in supplied and k not in omitted]
        if missing:
            raise InputError(f"{source[0].upper()}{source[1:]} lacks the arrays "
                             f"{', '.join(f'input{k}' for k in missing)} (expected input0 ... "
                             f"input{count - 1}).")
        return [supplied.get(k) for k in range(count)], []
    if stored is not None:
        return list(stored), []
    if seed is None:
        raise InputError(f"Model {model.name!r} carries no input data.")
    rng = np.random.default_rng(seed)
    out = []
    for i in main.input_indexes:
        o = main.operands[i]
        if o.dimensions is None or any(d == 0 for d in o.dimensions):
            raise InputError(f"Input operand {i} has unknown dimensions "
                             f"{None if o.dimensions is None else list(o.dimensions)}; give its data "
                             f"with --inputs.")
        check_tensor_size(o.type, o.dimensions, f"Input operand {i}")
        dt = TYPE_INFO[o.type].dtype
        if dt.kind == "f":
            out.append(rng.uniform(-1, 1, o.dimensions).astype(dt))
        elif dt.kind == "b":
            out.append(rng.integers(0, 2, o.dimensions).astype(bool))
        else:
            info = np.iinfo(dt)
            lo, hi = max(info.min, -100), min(info.max, 100)
            out.append(rng.integers(lo, hi + 1, o.dimensions).astype(dt))
    return out, list(range(count))


def _operand_dict(o: Operand, data) -> dict:
    return {
        "name": o.name, "type": o.type.name, "dtype": TYPE_INFO[o.type].dtype.name,
        "dimensions": None if o.dimensions is None else list(o.dimensions),
        "scale": o.scale, "zero_point": o.zero_point,
        "channel_quant": None if o.channel_quant is None else
        {"scales": list(o.channel_quant.scales), "channel_dim": o.channel_quant.channel_dim},
        "lifetime": o.lifetime.value, "is_ignored": o.is_ignored,
        "data": [] if data is None else np.asarray(data).reshape(-1).tolist(),
    }


def _subgraph_dict(sg: Subgraph, samples: dict[int, np.ndarray]) -> dict:
    return {
        "input_indexes": list(sg.input_indexes), "output_indexes": list(sg.output_indexes),
        "operations": [{"type": op.type, "inputs": list(op.inputs), "outputs": list(op.outputs)}
                       for op in sg.operations],
        "operands": [_operand_dict(o, o.data if o.data is not None else samples.get(i))
                     for i, o in enumerate(sg.operands)],
    }


def model_to_dict(model: Model) -> dict:
    samples = {}
    for idxs, arrays in ((model.main.input_indexes, model.stored_inputs),
                         (model.main.output_indexes, model.stored_outputs)):
        for i, a in zip(idxs, arrays or []):
            if a is not None:
                samples[i] = a
    d = {"name": model.name, **model.meta, "is_relaxed": model.relaxed,
         "main": _subgraph_dict(model.main, samples),
         "referenced": [_subgraph_dict(r, {}) for r in model.referenced]}
    if model.origin != "nnapi":
        d["origin"] = model.origin
    return d


def save_models(models, path) -> None:
    """Writes models to ``path`` (gzip-compressed when it ends in ``.gz``), all or nothing."""
    path = Path(path)
    doc = [model_to_dict(m) for m in models]
    data = json.dumps(doc[0] if len(doc) == 1 else doc).encode("utf-8")
    write_atomic(path, gzip.compress(data, mtime=0) if path.suffix == ".gz" else data, "model file")


# -------------------------------------------------------------------------------- input files
def _check_npz_sizes(path, names) -> None:
    """Raises :class:`InputError` when an array ``names`` of the ``.npz`` file declares (in its
    ``.npy`` header) more than :data:`~nnaccel.model.MAX_TENSOR_BYTES` bytes."""
    import zipfile

    from numpy.lib import format as npy

    from .model import MAX_TENSOR_BYTES
    with zipfile.ZipFile(path) as z:
        members = set(z.namelist())
        for name in names:
            if f"{name}.npy" not in members:
                continue
            with z.open(f"{name}.npy") as f:
                version = npy.read_magic(f)
                header = npy.read_array_header_1_0 if version == (1, 0) else npy.read_array_header_2_0
                shape, _, dtype = header(f)
            size = math.prod(shape) * dtype.itemsize
            if size > MAX_TENSOR_BYTES:
                raise InputError(f"The inputs file {path} has an array {name} of shape "
                                 f"{'x'.join(map(str, shape))} ({size} bytes), above the limit of "
                                 f"{MAX_TENSOR_BYTES} bytes per tensor.")


def read_npz_inputs(path, count: int) -> dict:
    """The arrays ``input0`` ... ``input{count-1}`` an ``.npz`` file holds, by position (for
    :func:`run_inputs`, which says which may be absent)."""
    import zipfile
    try:
        with open(path, "rb") as f:
            magic = f.read(6)
        if magic == b"\x93NUMPY":
            raise InputError(f"The inputs file {path} is a single .npy array, not an .npz archive of "
                             f"arrays named input0, input1, ...")
        names = [f"input{k}" for k in range(count)]
        _check_npz_sizes(path, names)  # before NumPy allocates the shapes the headers declare
        with np.load(path, allow_pickle=False) as data:
            return {k: data[n] for k, n in enumerate(names) if n in data}
    except FileNotFoundError:
        raise InputError(f"The inputs file {path} does not exist.") from None
    except (OSError, ValueError, EOFError, zipfile.BadZipFile) as e:
        raise InputError(f"The inputs file {path} cannot be read as .npz ({e}).") from None
