"""The ONNX backend node tests run through import + the golden model.

``onnx.backend.test.case.node.collect_testcases`` generates the cases (model + input / expected
output sets, the expected outputs computed by the ``onnx`` wheel's own reference). A case counts
for every op type it uses; it is run when all of them are in :data:`OP_TABLE`. Integer and bool
outputs must match exactly, float outputs within :data:`FLOAT_TOLERANCE` of the output's magnitude.
"""

from __future__ import annotations

import re
import warnings
from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from ...errors import NnaccelError
from . import OP_TABLE, import_onnx_bytes

#: Float outputs: |got - expected| <= FLOAT_TOLERANCE * max(|expected|) (1 where all are 0).
FLOAT_TOLERANCE = 1e-4


@dataclass
class OpResult:
    """Node-test results of one op type: cases run, passed, and why the others failed."""

    cases: int = 0
    passed: int = 0
    failures: Counter = field(default_factory=Counter)


def collect_cases():
    """Every node-test case of the installed onnx wheel (generated, nothing is downloaded)."""
    from onnx.backend.test.case.node import collect_testcases
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return [c for c in collect_testcases(None) if c.model is not None]


def case_ops(case) -> set[str]:
    return {n.op_type for n in case.model.graph.node}


def mapped(case) -> bool:
    return all(op in OP_TABLE and OP_TABLE[op].domain == "" for op in case_ops(case))


def _reason(e: Exception) -> str:
    """A short, stable reason for a failure (the message without tensor names and numbers)."""
    msg = str(e)
    if "cannot be imported: " in msg:
        msg = msg.split("cannot be imported: ", 1)[1]
    elif msg.startswith("The ONNX model") and ": " in msg:
        msg = msg.split(": ", 1)[1]
    msg = re.sub(r"'[^' ]*'", "X", msg)
    msg = re.sub(r"(?<![\w.-])-?\d+(\.\d+)?(e-?\d+)?(?![\w-])", "N", msg)
    return msg.rstrip(".")[:160]


def compare(got: np.ndarray, want: np.ndarray) -> str | None:
    """None when ``got`` matches ``want`` (see the module docstring), else what differs."""
    want = np.asarray(want)
    got = np.asarray(got)
    if got.size != want.size:
        return f"output shape {list(got.shape)}, expected {list(want.shape)}"
    got = got.reshape(want.shape)
    if want.dtype.kind in "iub":
        if not np.array_equal(got.astype(np.int64), want.astype(np.int64)):
            return "integer outputs differ"
        return None
    g, w = got.astype(np.float64), want.astype(np.float64)
    if not np.array_equal(np.isnan(g), np.isnan(w)):
        return "NaN outputs differ"
    mask = ~np.isnan(w)
    inf = np.isinf(w) & mask
    if not np.array_equal(g[inf], w[inf]):
        return "infinite outputs differ"
    fin = mask & ~inf
    if not fin.any():
        return None
    scale = max(np.abs(w[fin]).max(), 1e-30) if np.abs(w[fin]).max() > 0 else 1.0
    err = np.abs(g[fin] - w[fin]).max() / scale
    return None if err <= FLOAT_TOLERANCE else f"float outputs differ by {err:.1e} of their magnitude"


def _inputs_for(model, arrays) -> list:
    out = []
    for i, a in zip(model.main.input_indexes, arrays):
        o = model.main.operands[i]
        a = np.asarray(a)
        dt = o.info.dtype
        out.append(a.astype(dt).reshape(o.dimensions if o.dimensions and a.ndim == 0 else a.shape))
    return out


_NOT_CONSTANT = re.compile(r"\(tensor '([^']*)'\) is not a constant")


def freeze(model, values: dict):
    """A copy of ``model`` with the graph inputs in ``values`` made initializers of those values."""
    from onnx import numpy_helper
    m = model.__class__()
    m.CopyFrom(model)
    keep = [vi for vi in m.graph.input if vi.name not in values]
    del m.graph.input[:]
    m.graph.input.extend(keep)
    m.graph.initializer.extend(numpy_helper.from_array(np.asarray(v), k) for k, v in values.items())
    return m


def import_case(model, inputs: list):
    """Imports a node-test model; a graph input the importer needs as a constant (axes, pads, a
    scale, Clip bounds, BatchNormalization statistics ...: NNAPI takes these as constants) is frozen
    to the data set's value and the import retried. Returns the model and the remaining inputs."""
    names = [vi.name for vi in model.graph.input]
    frozen: dict = {}
    while True:
        m = freeze(model, frozen) if frozen else model
        try:
            nn = import_onnx_bytes(m.SerializeToString(), name=model.graph.name)
            return nn, [a for k, a in zip(names, inputs) if k not in frozen]
        except NnaccelError as e:
            hit = _NOT_CONSTANT.search(str(e))
            if hit is None or hit.group(1) not in names or hit.group(1) in frozen:
                raise
            frozen[hit.group(1)] = inputs[names.index(hit.group(1))]


def run_case(case) -> str | None:
    """Runs one case; None when every data set passes, else the failure reason."""
    from ...golden.interpreter import run_model
    try:
        for inputs, outputs in case.data_sets:
            model, live = import_case(case.model, list(inputs))
            with np.errstate(all="ignore"):
                got = run_model(model, _inputs_for(model, live))
            for g, w in zip(got, outputs):
                why = compare(g, w)
                if why:
                    return why
    except NnaccelError as e:
        return _reason(e)
    except Exception as e:  # noqa: BLE001 - a crash is a failure with its type named
        return f"crash: {type(e).__name__}: {_reason(e)}"
    return None


def node_test_results(cases=None, progress=None) -> tuple[dict[str, OpResult], dict[str, str | None]]:
    """Runs every mapped case; returns per-op results and per-case outcomes."""
    cases = collect_cases() if cases is None else cases
    per_op: dict[str, OpResult] = {}
    outcome: dict[str, str | None] = {}
    run = [c for c in cases if mapped(c)]
    for k, case in enumerate(run):
        why = run_case(case)
        outcome[case.name] = why
        for op in case_ops(case):
            r = per_op.setdefault(op, OpResult())
            r.cases += 1
            if why is None:
                r.passed += 1
            else:
                r.failures[why] += 1
        if progress:
            progress(k + 1, len(run), case.name)
    return per_op, outcome
