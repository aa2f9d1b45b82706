"""Models, packages and input data as the command line loads them (shared by every command;
the command modules import this, never :mod:`nnaccel.cli`)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .errors import InputError


def load_cli_model(path: str, name: str | None):
    """Loads a model for ``run`` / ``info``: a model JSON file, or a ``.tflite`` file (imported)."""
    from .formats import load_model
    p = Path(path)
    if not p.exists():
        raise InputError(f"The model file {path} does not exist.")
    if p.suffix == ".tflite":
        from .compiler.tflite_import import load_tflite
        return load_tflite(p)
    return load_model(p, name)


def default_inputs(model, seed: int = 0) -> list:
    """The model's stored input data, or deterministic random data where it has none."""
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


__all__ = ["default_inputs", "load_cli_model", "load_package_or_model", "read_npz_inputs"]
