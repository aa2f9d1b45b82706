"""Models, packages and input data as the command line loads them (shared by every command;
the command modules import this, never :mod:`nnaccel.cli`)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .errors import InputError


def load_cli_model(path: str, name: str | None, batch: int | None = None, input_shapes: list | None = None):
    """Loads a model for ``run`` / ``info`` / ``compile`` / ``import``: a model JSON file, or a
    ``.tflite`` / ``.onnx`` file (imported; ``batch`` and ``input_shapes`` size its dynamic dimensions, see ``load_tflite``)."""
    from .formats import load_model
    p = Path(path)
    if not p.exists():
        raise InputError(f"The model file {path} does not exist.")
    if p.suffix == ".tflite":
        from .compiler.tflite_import import load_tflite
        return load_tflite(p, batch=batch, input_shapes=input_shapes)
    if p.suffix == ".onnx":
        if batch is not None or input_shapes is not None:
            raise InputError(f"--batch and input shapes apply to .tflite models; {path} is an ONNX model, whose "
                             f"shapes are as stored.")
        from .compiler.onnx_import import load_onnx
        return load_onnx(p)
    if batch is not None:
        raise InputError(f"--batch applies to .tflite models, whose shape_signature marks a dynamic batch; "
                         f"{path} is an NNAPI model file, whose shapes are as stored.")
    return load_model(p, name)


def add_batch_arg(p) -> None:
    """The ``--batch N`` option of the commands that import a ``.tflite`` file."""
    p.add_argument("--batch", type=int, metavar="N",
                   help="batch size of a .tflite model whose shape_signature marks the batch dynamic (-1); "
                        "default: the static shape's (usually 1), or the batch of the --inputs arrays")


def default_inputs(model, seed: int = 0) -> list:
    """The model's stored input data, or deterministic random data where it has none
    (:func:`random_inputs_note` says which)."""
    from .model import TYPE_INFO
    rng = np.random.default_rng(seed)
    stored = model.stored_inputs or [None] * len(model.main.input_indexes)
    out = []
    for i, a in zip(model.main.input_indexes, stored):
        o = model.main.operands[i]
        if a is not None:
            out.append(a)
            continue
        if o.dimensions is None or any(d == 0 for d in o.dimensions):
            raise InputError(f"Input operand {i} has unknown dimensions {o.dimensions}; give its data "
                             f"with --inputs.")
        dt = TYPE_INFO[o.type].dtype
        if dt.kind == "f":
            out.append(rng.uniform(-1, 1, o.dimensions).astype(dt))
        elif dt.kind == "b":
            out.append(rng.integers(0, 2, o.dimensions).astype(bool))
        else:
            info = np.iinfo(dt)
            lo, hi = max(info.min, -100), min(info.max, 100)
            out.append(rng.integers(lo, hi + 1, o.dimensions).astype(dt))
    return out


def random_inputs_note(model, source: str = "the model", seed: int = 0) -> str | None:
    """The sentence ``run`` prints on stderr when :func:`default_inputs` makes up data for
    ``model`` (read from ``source``: the model, a package), or None."""
    stored = model.stored_inputs or [None] * len(model.main.input_indexes)
    missing = [f"input{k}" for k, a in enumerate(stored) if a is None]
    if not missing:
        return None
    verb = "is" if len(missing) == 1 else "are"
    return (f"nnaccel: note: {', '.join(missing)} {verb} deterministic random data (seed {seed}), as {source} "
            f"stores no input data; give --inputs FILE.npz to choose the inputs.")


def read_npz_inputs(path: str, count: int) -> list:
    try:
        data = np.load(path)
    except (OSError, ValueError) as e:
        raise InputError(f"The inputs file {path} cannot be read as .npz ({e}).") from None
    missing = [f"input{i}" for i in range(count) if f"input{i}" not in data]
    if missing:
        raise InputError(f"The inputs file {path} lacks the arrays {', '.join(missing)} (expected "
                         f"input0 ... input{count - 1}).")
    return [data[f"input{i}"] for i in range(count)]


def load_package_or_model(path: str, name: str | None = None):
    """A :class:`~nnaccel.package.Package` when ``path`` is one, else the model (JSON / .tflite)."""
    from .package import Package, is_package
    if is_package(path):
        return Package.load(path)
    return load_cli_model(path, name)


__all__ = ["add_batch_arg", "default_inputs", "load_cli_model", "load_package_or_model", "random_inputs_note",
           "read_npz_inputs"]
