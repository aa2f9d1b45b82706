"""What validators and golden kernels see of the operation they check or run."""

from __future__ import annotations

import numpy as np

from ..errors import ExecutionError, ModelError
from ..model import CONSTANT_LIFETIMES, Model, Operand, OperandLifetime, Operation, Subgraph


class ValidationContext:
    """The static view of one operation for its validator.

    ``v.inp(i)`` / ``v.out(j)`` are the operands, ``v.const(i)`` a constant input's array (``None``
    when it is not a constant), ``v.scalar(i)`` a constant scalar's value, ``v.sig`` the matched
    signature (``v.form`` its form name). ``v.fail(msg, input=i)`` raises the one error type.
    """

    def __init__(self, model: Model, label: str, sg: Subgraph, index: int, op: Operation, sig):
        self.model, self.label, self.sg, self.index, self.op, self.sig = model, label, sg, index, op, sig
        self.name = op.type
        self.form = getattr(sig, "form", "")

    @property
    def n_in(self) -> int:
        return len(self.op.inputs)

    @property
    def n_out(self) -> int:
        return len(self.op.outputs)

    def inp(self, i: int) -> Operand:
        return self.sg.operands[self.op.inputs[i]]

    def out(self, j: int) -> Operand:
        return self.sg.operands[self.op.outputs[j]]

    def has(self, i: int) -> bool:
        """True when input ``i`` exists and is not omitted."""
        return i < self.n_in and self.inp(i).lifetime is not OperandLifetime.NO_VALUE

    def const(self, i: int) -> np.ndarray | None:
        o = self.inp(i)
        return o.data if o.lifetime in CONSTANT_LIFETIMES else None

    def scalar(self, i: int, default=None):
        """The value of constant scalar input ``i``; ``default`` when absent or not constant."""
        if not self.has(i):
            return default
        c = self.const(i)
        return default if c is None else c.reshape(-1)[0].item()

    def fail(self, message: str, input: int | None = None, output: int | None = None):
        where = "" if self.label == "main" else f" of subgraph {self.label}"
        if input is not None:
            what = f"input {input} (operand {self.op.inputs[input]}) "
        elif output is not None:
            what = f"output {output} (operand {self.op.outputs[output]}) "
        else:
            what = ""
        text = message.rstrip(".")
        raise ModelError(f"Operation {self.index} ({self.name}){where}: {what}{text}.")


class KernelContext:
    """The run-time view of one operation for its golden kernel.

    ``k.inputs[i]`` is input ``i``'s array (``None`` when omitted; missing trailing optional inputs
    are ``None`` too), ``k.in_ops[i]`` / ``k.out_ops[j]`` the operands (type, scale, zero point; their
    declared ``dimensions`` may hold 0 for unknown: the arrays' shapes are the truth).
    ``k.scalar(i, default)`` reads a scalar input. ``k.relaxed`` is the model's relaxed-float32 flag.
    ``k.fail(msg)`` raises :class:`~nnaccel.errors.ExecutionError`. Control-flow kernels call
    ``k.run_subgraph(index, arrays)``; RANDOM_MULTINOMIAL draws from ``k.rng``.
    """

    def __init__(self, interpreter, sg: Subgraph, index: int, op: Operation, inputs: list):
        self.interpreter = interpreter
        self.model = interpreter.model
        self.sg, self.index, self.op, self.name = sg, index, op, op.type
        self.inputs = inputs
        self.in_ops = [sg.operands[i] for i in op.inputs]
        self.out_ops = [sg.operands[i] for i in op.outputs]
        self.relaxed = interpreter.model.relaxed

    @property
    def rng(self) -> np.random.Generator:
        return self.interpreter.rng

    def has(self, i: int) -> bool:
        return i < len(self.inputs) and self.inputs[i] is not None

    def input(self, i: int, default=None):
        return self.inputs[i] if self.has(i) else default

    def scalar(self, i: int, default=None):
        if not self.has(i):
            return default
        return np.asarray(self.inputs[i]).reshape(-1)[0].item()

    def fail(self, message: str):
        raise ExecutionError(f"Operation {self.index} ({self.name}): {message.rstrip('.')}.")

    def run_subgraph(self, index: int, arrays: list) -> list:
        return self.interpreter.run_subgraph(self.model.referenced[index], arrays)
