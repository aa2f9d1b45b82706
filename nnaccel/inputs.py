"""Input data for a run that is given none: the model's stored inputs, else deterministic random
data (``nnaccel run`` without ``--inputs``, sweeps)."""

from __future__ import annotations

import numpy as np

from .errors import InputError
from .model import TYPE_INFO


def default_inputs(model, seed: int = 0) -> list:
    """The model's stored input data, or deterministic random data where it has none
    (:func:`random_inputs_note` says which)."""
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
