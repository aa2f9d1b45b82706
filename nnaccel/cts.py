"""The conformance runner: the NNAPI CTS/VTS models of ``../shared/nnapi-cts`` through a target.

Outputs are compared with the rules of NNAPI's test harness (see the conformance folder's README):
``|actual - expected| <= atol + rtol * |expected|`` per element, tolerances by output type, exact
shapes, ``is_ignored`` outputs skipped, RANDOM_MULTINOMIAL by its distribution tolerance, and
``expect_failure`` models passing when validation or execution rejects them with our error.
"""

from __future__ import annotations

import fnmatch
import math
import os
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from . import registry
from .errors import ExecutionError, ModelError, NnaccelError, NotImplementedOpError
from .formats import load_models, run_inputs
from .model import Model, OperandType

T = OperandType
F16_ULP5 = 5 * 2.0**-10


def cts_dir() -> Path:
    """The conformance folder: ``$NNACCEL_CTS_DIR``, else ``../shared/nnapi-cts`` beside the repo."""
    env = os.environ.get("NNACCEL_CTS_DIR")
    if env:
        return Path(env)
    repo = Path(__file__).resolve().parents[1]
    for base in (repo, Path.cwd()):
        candidate = (base / ".." / "shared" / "nnapi-cts").resolve()
        if candidate.is_dir():
            return candidate
    return (repo / ".." / "shared" / "nnapi-cts").resolve()


def spec_files(root: Path | None = None, globs=()) -> list[Path]:
    """The model files under ``root``, those matching any of ``globs`` (on ``GROUP/spec`` or
    ``spec``) when given."""
    root = root or cts_dir()
    files = sorted(root.glob("*/*.json.gz"))
    if globs:
        def ok(p: Path):
            key = f"{p.parent.name}/{p.name[:-len('.json.gz')]}"
            return any(fnmatch.fnmatch(key, g) or fnmatch.fnmatch(key.split("/")[1], g) for g in globs)
        files = [p for p in files if ok(p)]
    return files


def op_types(model: Model) -> list[str]:
    """Distinct operation types of a model (all subgraphs), in first-use order."""
    seen = {}
    for _, sg in model.subgraphs():
        for op in sg.operations:
            seen.setdefault(op.type, None)
    return list(seen)


def tolerance(model: Model, op_type: OperandType) -> tuple[float, float] | None:
    """``(atol, rtol)`` of NNAPI's harness for an output of ``op_type``; ``None`` = exact."""
    if op_type in (T.TENSOR_FLOAT32, T.FLOAT32):
        if model.relaxed or model.has_float16():
            return F16_ULP5, F16_ULP5
        return 1e-5, 5 * 2.0**-23
    if op_type in (T.TENSOR_FLOAT16, T.FLOAT16):
        return F16_ULP5, F16_ULP5
    if op_type in (T.TENSOR_INT32, T.INT32, T.TENSOR_QUANT16_ASYMM, T.TENSOR_QUANT16_SYMM):
        return 1.0, 0.0
    if op_type in (T.TENSOR_QUANT8_ASYMM, T.TENSOR_QUANT8_ASYMM_SIGNED, T.TENSOR_QUANT8_SYMM):
        return (3.0 if "mobilenet" in model.name else 1.0), 0.0
    if op_type in (T.TENSOR_BOOL8, T.BOOL):
        return None
    raise ValueError(op_type)


def compare_outputs(model: Model, actual: list) -> str | None:
    """``None`` when ``actual`` matches the model's expected outputs, else the first mismatch."""
    main = model.main
    if model.meta.get("multinomial_tolerance", 0) > 0:
        return _check_multinomial(model, actual)
    for pos, i in enumerate(main.output_indexes):
        o = main.operands[i]
        if o.is_ignored:
            continue
        got = np.asarray(actual[pos])
        if o.dimensions is not None and tuple(got.shape) != tuple(o.dimensions):
            return f"output {pos} has shape {list(got.shape)}, expected {list(o.dimensions)}"
        exp = model.stored_outputs[pos]
        n = math.prod(o.dimensions or ())
        if n == 0:
            continue
        if exp is None or exp.size != n:
            return f"output {pos} has no stored expected values"
        try:
            tol = tolerance(model, o.type)
        except ValueError:
            return f"output {pos} has type {o.type.name}, which the harness cannot compare"
        e = exp.reshape(-1).astype(np.float64)
        g = got.reshape(-1).astype(np.float64)
        if np.isnan(e).any():
            return f"output {pos} has a NaN expected value"
        if tol is None:
            bad = np.flatnonzero(e != g)
        else:
            atol, rtol = tol
            with np.errstate(invalid="ignore"):
                bad = np.flatnonzero(~(np.abs(g - e) <= atol + rtol * np.abs(e)))
        if bad.size:
            k = bad[0]
            return (f"output {pos} differs at {bad.size} of {n} elements, first at flat index {k}: "
                    f"got {g[k]!r}, expected {e[k]!r}")
    return None


def _check_multinomial(model: Model, actual: list) -> str | None:
    tol = model.meta["multinomial_tolerance"]
    logits = np.asarray(model.stored_inputs[0], np.float64)
    out = np.asarray(actual[0])
    if out.ndim != 2 or logits.ndim != 2:
        return "RANDOM_MULTINOMIAL output is not 2-D"
    samples = out.shape[1]
    counts = np.bincount(out.reshape(-1), minlength=logits.shape[1])[: logits.shape[1]]
    freq = counts / samples
    p = np.exp(logits - logits.max(axis=1, keepdims=True))
    p = (p / p.sum(axis=1, keepdims=True)).sum(axis=0)
    worst = np.abs(freq - p).max()
    if worst > tol:
        return f"class frequencies differ from the distribution by {worst:.4f} > {tol}"
    return None


#: Targets: name -> function(model, inputs) -> outputs. The accelerator targets plug in here.
def _golden(model: Model, inputs: list) -> list:
    from .golden.interpreter import Interpreter
    return Interpreter(model, validate=False).run(inputs)


TARGETS: dict[str, Callable] = {"golden": _golden}


@dataclass
class CaseResult:
    name: str
    spec: str
    status: str  # passed | failed | not_implemented
    ops: list[str]
    missing: list[str] = field(default_factory=list)
    message: str = ""
    seconds: float = 0.0


def run_case(model: Model, target: str = "golden") -> CaseResult:
    """Runs one conformance model through ``target`` and judges it."""
    from .validate import validate_model

    ops = op_types(model)
    missing = [n for n in ops if registry.get(n) is None or not registry.get(n).implemented]
    spec = f"{model.meta.get('group', '?')}/{model.meta.get('spec', '?')}"
    t0 = time.perf_counter()

    def result(status, message=""):
        return CaseResult(model.name, spec, status, ops, missing, message, time.perf_counter() - t0)

    expect_failure = bool(model.meta.get("expect_failure"))
    try:
        validate_model(model)
        if missing:
            return result("not_implemented", "not implemented: " + ", ".join(missing))
        outputs = TARGETS[target](model, run_inputs(model, seed=None)[0])
    except NotImplementedOpError as e:
        return result("not_implemented", str(e))
    except (ModelError, ExecutionError) as e:
        if expect_failure:
            return result("passed", f"rejected as expected: {e}")
        return result("failed", f"{type(e).__name__}: {e}")
    except NnaccelError as e:
        return result("failed", f"{type(e).__name__}: {e}")
    except Exception as e:  # noqa: BLE001 - a kernel crash is a failure of that model, not of the run
        return result("failed", f"crash: {type(e).__name__}: {e}")
    if expect_failure:
        if missing:
            return result("not_implemented", "not implemented: " + ", ".join(missing))
        return result("failed", "the model is invalid but was accepted and run")
    problem = compare_outputs(model, outputs)
    return result("failed" if problem else "passed", problem or "")


#: Operations CTS leaves out of its quant8 -> quant8 signed re-run.
SIGNED_RERUN_EXCLUDED = ("HASHTABLE_LOOKUP", "LSH_PROJECTION", "PAD_V2", "CAST", "QUANTIZED_16BIT_LSTM")


def signed_variant(model: Model) -> Model | None:
    """CTS's second run of a model: every ``TENSOR_QUANT8_ASYMM`` operand becomes
    ``TENSOR_QUANT8_ASYMM_SIGNED`` with zero point - 128 and every stored value - 128, expected
    outputs shifted the same way. Only valid single-operation models without subgraphs that have
    such operands qualify (and not the ops in :data:`SIGNED_RERUN_EXCLUDED`); else ``None``."""
    import copy

    main = model.main
    if (model.meta.get("expect_failure") or model.referenced or len(main.operations) != 1
            or main.operations[0].type in SIGNED_RERUN_EXCLUDED
            or not any(o.type is T.TENSOR_QUANT8_ASYMM for o in main.operands)):
        return None
    m = copy.deepcopy(model)
    m.name = model.name + "+signed"

    def shift(a):
        return None if a is None else (a.astype(np.int16) - 128).astype(np.int8)

    in_pos = {i: p for p, i in enumerate(m.main.input_indexes)}
    out_pos = {i: p for p, i in enumerate(m.main.output_indexes)}
    for i, o in enumerate(m.main.operands):
        if o.type is not T.TENSOR_QUANT8_ASYMM:
            continue
        o.type, o.zero_point = T.TENSOR_QUANT8_ASYMM_SIGNED, o.zero_point - 128
        if o.data is not None:
            o.data = shift(o.data)
        if i in in_pos and m.stored_inputs:
            m.stored_inputs[in_pos[i]] = shift(m.stored_inputs[in_pos[i]])
        if i in out_pos and m.stored_outputs:
            m.stored_outputs[out_pos[i]] = shift(m.stored_outputs[out_pos[i]])
    return m


def run_file(path, target: str = "golden", ops_filter=(), signed: bool = False) -> list[CaseResult]:
    """Runs every model of one conformance file (those using one of ``ops_filter`` when given);
    with ``signed``, also CTS's quant8 signed re-run of each qualifying model (:func:`signed_variant`,
    results named ``<model>+signed``)."""
    out = []
    for model in load_models(path):
        if ops_filter and not set(ops_filter) & set(op_types(model)):
            continue
        out.append(run_case(model, target))
        variant = signed_variant(model) if signed else None
        if variant is not None:
            out.append(run_case(variant, target))
    return out


def _run_file_args(args):
    return run_file(*args)


def run_suite(files, target="golden", ops_filter=(), jobs=1, progress=None,
              signed: bool = False) -> list[CaseResult]:
    """Runs many files, in ``jobs`` processes; ``progress(done, total, path)`` after each file."""
    results: list[CaseResult] = []
    work = [(str(f), target, tuple(ops_filter), signed) for f in files]
    if jobs > 1 and len(work) > 1:
        import multiprocessing as mp
        ctx = mp.get_context("fork")
        with ctx.Pool(jobs) as pool:
            for k, res in enumerate(pool.imap_unordered(_run_file_args, work)):
                results.extend(res)
                if progress:
                    progress(k + 1, len(work), res[0].spec if res else "")
    else:
        for k, w in enumerate(work):
            res = run_file(*w)
            results.extend(res)
            if progress:
                progress(k + 1, len(work), w[0])
    results.sort(key=lambda r: (r.spec, r.name))
    return results


def per_op_table(results: list[CaseResult], ops_filter=()) -> dict[str, Counter]:
    """Per operation type: models passed / failed / not implemented (this op missing) / blocked
    (another op of the model missing)."""
    table: dict[str, Counter] = {}
    for r in results:
        for name in r.ops:
            if ops_filter and name not in ops_filter:
                continue
            c = table.setdefault(name, Counter())
            c["models"] += 1
            if r.status == "not_implemented":
                c["not_implemented" if name in r.missing else "blocked"] += 1
            else:
                c[r.status] += 1
    order = {n: registry.OPS[n].code if n in registry.OPS else 999 for n in table}
    return dict(sorted(table.items(), key=lambda kv: order[kv[0]]))


def format_table(results: list[CaseResult], ops_filter=()) -> str:
    table = per_op_table(results, ops_filter)
    lines = [f"{'operation':<30} {'models':>7} {'passed':>7} {'failed':>7} {'not impl':>9} {'blocked':>8}"]
    for name, c in table.items():
        lines.append(f"{name:<30} {c['models']:>7} {c['passed']:>7} {c['failed']:>7} "
                     f"{c['not_implemented']:>9} {c['blocked']:>8}")
    totals = Counter(r.status for r in results)
    lines.append(f"TOTAL: {len(results)} models, {totals['passed']} passed, {totals['failed']} failed, "
                 f"{totals['not_implemented']} not implemented")
    return "\n".join(lines)


def write_json(results: list[CaseResult], path, accelerated: dict | None = None) -> None:
    """The results as JSON; ``accelerated`` (accelerator targets): ``{"models": passed models that
    ran an operation on the accelerator, "compiled": models compiled, "by_type": {op: models}}``."""
    totals = Counter(r.status for r in results)
    doc = {"total": len(results), **{k: totals[k] for k in ("passed", "failed", "not_implemented")},
           "per_op": {k: dict(v) for k, v in per_op_table(results).items()},
           **({"accelerated": accelerated} if accelerated is not None else {}),
           "models": [asdict(r) for r in results]}
    from . import ioutil
    ioutil.write_json(path, doc, "results file")
