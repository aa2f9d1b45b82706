"""The golden interpreter: runs a model on NumPy with the registry's kernels."""

from __future__ import annotations

import time

import numpy as np

from .. import registry
from ..errors import ExecutionError, InputError, NotImplementedOpError
from ..model import TYPE_INFO, Model, OperandLifetime, Subgraph
from ..validate import validate_model
from .context import KernelContext

#: WHILE loops stop with an error after this many seconds (NNAPI's default loop timeout is 2 s).
DEFAULT_LOOP_TIMEOUT_S = 2.0


class Interpreter:
    """Executes a validated model.

    ``loop_timeout`` bounds every WHILE loop in seconds, as NNAPI's loop timeout does; ``seed`` seeds
    the generator that RANDOM_MULTINOMIAL draws from.
    """

    def __init__(self, model: Model, *, loop_timeout: float = DEFAULT_LOOP_TIMEOUT_S, seed: int = 0,
                 validate: bool = True):
        if validate:
            validate_model(model)
        self.model = model
        self.loop_timeout = loop_timeout
        self.rng = np.random.default_rng(seed)
        self.deadline = None

    def run(self, inputs: list) -> list[np.ndarray]:
        """Runs the main graph on ``inputs`` (one array, or ``None`` for an omitted optional input,
        per main-graph input) and returns the outputs."""
        self.deadline = None
        return self.run_subgraph(self.model.main, check_inputs(self.model, inputs))

    def run_subgraph(self, sg: Subgraph, arrays: list) -> list[np.ndarray]:
        env: dict[int, np.ndarray | None] = {}
        for i, o in enumerate(sg.operands):
            if o.is_constant or o.lifetime is OperandLifetime.SUBGRAPH:
                env[i] = o.data
            elif o.lifetime is OperandLifetime.NO_VALUE:
                env[i] = None
        for i, a in zip(sg.input_indexes, arrays):
            env[i] = a
        for index in range(len(sg.operations)):
            self.run_operation(sg, index, env)
        return [env[i] for i in sg.output_indexes]

    def run_operation(self, sg: Subgraph, index: int, env: dict) -> None:
        """Runs operation ``index`` of ``sg`` on the golden kernel, reading its inputs from and
        writing its outputs to ``env`` (operand index -> array), with the output checks."""
        op = sg.operations[index]
        entry = registry.get(op.type)
        if entry.kernel is None:
            raise NotImplementedOpError(f"Operation {op.type} is not implemented yet in the golden model.")
        ins = [env.get(i) for i in op.inputs]
        ctx = KernelContext(self, sg, index, op, ins)
        try:
            outs = entry.kernel(ctx)
        except (AttributeError, TypeError):
            omitted = [pos for pos, a in enumerate(ins) if a is None]
            if not omitted:
                raise
            raise ExecutionError(f"Operation {index} ({op.type}) cannot run: input "
                                 f"{omitted[0]} (operand {op.inputs[omitted[0]]}) has no value.") from None
        if len(outs) != len(op.outputs):
            raise ExecutionError(f"Operation {index} ({op.type}) produced {len(outs)} outputs, "
                                 f"expected {len(op.outputs)}.")
        for pos, (i, a) in enumerate(zip(op.outputs, outs)):
            o = sg.operands[i]
            a = np.asarray(a)
            dtype = TYPE_INFO[o.type].dtype
            if a.dtype != dtype:
                a = a.astype(dtype)
            if o.dimensions is not None and o.dimensions and (
                    a.ndim != len(o.dimensions)
                    or any(d and d != s for d, s in zip(o.dimensions, a.shape))):
                raise ExecutionError(f"Operation {index} ({op.type}): output {pos} has shape "
                                     f"{list(a.shape)}, but operand {i} declares "
                                     f"{list(o.dimensions)}.")
            env[i] = a

    # WHILE support: the loop guard shared by every loop of a run.
    def check_loop_deadline(self, op_index: int, iterations: int) -> None:
        now = time.monotonic()
        if self.deadline is None:
            self.deadline = now + self.loop_timeout
        if now > self.deadline:
            raise ExecutionError(f"Operation {op_index} (WHILE) ran {iterations} iterations and exceeded "
                                 f"the loop timeout of {self.loop_timeout:g} s.")


def check_inputs(model: Model, inputs: list) -> list:
    """The main-graph input arrays, checked against the model (count, dtype kind, declared shape)
    and cast to the operand types' dtypes; ``None`` stays an omitted optional input."""
    main = model.main
    if len(inputs) != len(main.input_indexes):
        raise InputError(f"The model has {len(main.input_indexes)} inputs but {len(inputs)} were given.")
    arrays = []
    for pos, (i, a) in enumerate(zip(main.input_indexes, inputs)):
        if a is None:
            arrays.append(None)
            continue
        o = main.operands[i]
        a = np.asarray(a)
        dtype = TYPE_INFO[o.type].dtype
        if a.dtype != dtype:
            if a.dtype.kind != dtype.kind and not (a.dtype.kind in "iu" and dtype.kind in "iu"):
                raise InputError(f"Input {pos} has dtype {a.dtype}, but the model expects {dtype} "
                                 f"({o.type.name}).")
            a = a.astype(dtype)
        if o.dimensions is not None and o.dimensions and (
                a.ndim != len(o.dimensions) or any(d and d != s for d, s in zip(o.dimensions, a.shape))):
            raise InputError(f"Input {pos} has shape {list(a.shape)}, but the model declares "
                             f"{list(o.dimensions)}.")
        arrays.append(a)
    return arrays


def run_model(model: Model, inputs: list, **kwargs) -> list[np.ndarray]:
    """Validates and runs ``model`` on ``inputs`` with the golden kernels."""
    return Interpreter(model, **kwargs).run(inputs)
