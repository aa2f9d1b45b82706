"""Golden kernels: control flow (IF, WHILE) over referenced subgraphs.

Spec: ../shared/spec/OperationType.aidl (IF = 96, WHILE = 97).
"""

from __future__ import annotations

import numpy as np

from ..model import OperandType
from ..registry import define

T = OperandType


def _subgraph_index(v, i):
    o = v.inp(i)
    if o.type is not T.SUBGRAPH:
        v.fail(f"has type {o.type.name}, but it must name a subgraph (SUBGRAPH)", input=i)
    return int(o.data.reshape(-1)[0])


def _check_arity(v, sg_index: int, n_in: int, n_out: int, what: str, input: int):
    sg = v.model.referenced[sg_index]
    if len(sg.input_indexes) != n_in:
        v.fail(f"names a {what} subgraph with {len(sg.input_indexes)} inputs, but {n_in} are passed",
               input=input)
    if n_out is not None and len(sg.output_indexes) != n_out:
        v.fail(f"names a {what} subgraph with {len(sg.output_indexes)} outputs, but the operation "
               f"expects {n_out}", input=input)


def validate_if(v) -> None:
    if v.n_in < 3:
        v.fail("has fewer than 3 inputs (condition, then-branch, else-branch)")
    cond = v.inp(0)
    if not v.has(0):
        v.fail("has no value, but the condition of an IF is required", input=0)
    if cond.type is not T.TENSOR_BOOL8:
        v.fail(f"has type {cond.type.name}, but the condition must be a TENSOR_BOOL8 of shape [1]",
               input=0)
    for i, what in ((1, "then"), (2, "else")):
        _check_arity(v, _subgraph_index(v, i), v.n_in - 3, v.n_out, what, i)


@define("IF", [], validate_if)
def if_(k):
    """IF: runs the then-branch (input 1) when the condition is true, else input 2, on inputs 3..."""
    cond = bool(np.asarray(k.inputs[0]).reshape(-1)[0])
    branch = int(k.inputs[1 if cond else 2].reshape(-1)[0])
    return k.run_subgraph(branch, list(k.inputs[3:]))


def validate_while(v) -> None:
    if v.n_in < 3:
        v.fail("has fewer than 3 inputs (condition, body, at least one input)")
    cond = _subgraph_index(v, 0)
    body = _subgraph_index(v, 1)
    n_outer = v.n_in - 2
    _check_arity(v, cond, n_outer, 1, "condition", 0)
    _check_arity(v, body, n_outer, None, "body", 1)
    body_outs = len(v.model.referenced[body].output_indexes)
    if not v.n_out <= body_outs <= n_outer:
        v.fail(f"names a body with {body_outs} outputs, but it must produce the {v.n_out} loop-carried "
               f"outputs plus state, and no more than the {n_outer} loop inputs", input=1)


@define("WHILE", [], validate_while)
def while_(k):
    """WHILE: ``while cond(carried, state, inputs): carried, state = body(...)``; returns ``carried``.

    Guarded by the interpreter's loop timeout: a loop that does not end raises an ExecutionError.
    """
    cond_idx = int(k.inputs[0].reshape(-1)[0])
    body_idx = int(k.inputs[1].reshape(-1)[0])
    values = list(k.inputs[2:])
    m = len(k.out_ops)
    body_sg = k.model.referenced[body_idx]
    mk = len(body_sg.output_indexes)
    iterations = 0
    while True:
        k.interpreter.check_loop_deadline(k.index, iterations)
        (c,) = k.run_subgraph(cond_idx, values)
        if not bool(np.asarray(c).reshape(-1)[0]):
            break
        values = list(k.run_subgraph(body_idx, values))[:mk] + values[mk:]
        iterations += 1
    return values[:m]
