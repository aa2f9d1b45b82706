"""nnaccel: an NNAPI accelerator kit.

The core package holds the NNAPI model IR (:mod:`nnaccel.model`), the operation registry
(:mod:`nnaccel.registry`), validation, the NumPy golden kernels and interpreter
(:mod:`nnaccel.golden`), the model file format (:mod:`nnaccel.formats`) and the CLI.
"""

from .errors import ExecutionError, ModelError, NnaccelError, NotImplementedOpError
from .model import (
    ChannelQuant,
    Model,
    ModelBuilder,
    Operand,
    OperandLifetime,
    OperandType,
    Operation,
    Subgraph,
)

__version__ = "0.1.0"

__all__ = [
    "ChannelQuant", "ExecutionError", "Model", "ModelBuilder", "ModelError", "NnaccelError",
    "NotImplementedOpError", "Operand", "OperandLifetime", "OperandType", "Operation", "Subgraph",
    "__version__",
]
