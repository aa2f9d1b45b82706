"""The operation registry: one entry per NNAPI ``OperationType``, the only place op facts live.

Each :class:`OpDef` holds the op's name, number, the NNAPI version that introduced it and the
golden-model family module that implements it. The family module (``nnaccel.golden.<family>``)
attaches, with :func:`define`, the op's input/output signatures, its validator and its golden
kernel. Which operations the accelerator runs is the compiler's table
(``nnaccel.compiler.lower.LOWERINGS``, keyed by these names and checked against them on import):
the core imports nothing of the compiler.

Signatures
    A :class:`Sig` lists the operand types of each input and output position. A position is an
    :class:`OperandType`, a tuple of them, or a type variable name (``"T"``) that must be the same
    type at every position using it, bound to the choices in ``Sig.types``. ``optional`` trailing
    inputs may be absent; ``variadic`` repeats the first input (CONCATENATION), ``variadic_outputs``
    the only output (SPLIT: one or more outputs of the same type). ``form`` names a
    variant (``"explicit"`` / ``"implicit"`` padding) so validators can tell which one matched.

Validators and kernels
    ``validate(v: ValidationContext)`` runs after the signature matched; it raises
    :class:`~nnaccel.errors.ModelError` through ``v.fail(...)``. ``kernel(k: KernelContext)`` returns
    the list of output arrays (see :mod:`nnaccel.golden.context`).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field

from .model import OperandType

T = OperandType

#: Families: the golden module that implements each group of operations.
FAMILIES = ("elementwise", "nn", "shape", "recurrent", "detection", "control")


@dataclass(frozen=True)
class Sig:
    """One accepted operand signature of an operation (see the module docstring)."""

    inputs: tuple
    outputs: tuple
    types: dict = field(default_factory=dict)
    optional: int = 0
    variadic: bool = False
    variadic_outputs: bool = False
    form: str = ""
    since: str = ""


@dataclass
class OpDef:
    """One operation of the registry."""

    name: str
    code: int
    since: str
    family: str
    signatures: list[Sig] = field(default_factory=list)
    validate: Callable | None = None
    kernel: Callable | None = None
    doc: str = ""

    @property
    def implemented(self) -> bool:
        return self.kernel is not None


def _range(first, last, since):
    return {code: since for code in range(first, last + 1)}


_SINCE = {**_range(0, 28, "V1_0"), **_range(29, 37, "V1_1"), **_range(38, 94, "V1_2"),
          **_range(95, 101, "V1_3"), 102: "FL_6"}

_ELEMENTWISE = ["ADD", "SUB", "MUL", "DIV", "ABS", "NEG", "EXP", "LOG", "SIN", "SQRT", "RSQRT", "POW", "FLOOR", "RELU", "RELU1", "RELU6", "LOGISTIC", "TANH", "ELU", "HARD_SWISH", "PRELU", "MAXIMUM", "MINIMUM", "EQUAL", "NOT_EQUAL", "GREATER", "GREATER_EQUAL", "LESS", "LESS_EQUAL", "LOGICAL_AND", "LOGICAL_OR", "LOGICAL_NOT", "SELECT", "CAST", "QUANTIZE", "DEQUANTIZE"]
_NN = ["CONV_2D", "DEPTHWISE_CONV_2D", "GROUPED_CONV_2D", "TRANSPOSE_CONV_2D", "FULLY_CONNECTED", "BATCH_MATMUL", "AVERAGE_POOL_2D", "MAX_POOL_2D", "L2_POOL_2D", "L2_NORMALIZATION", "LOCAL_RESPONSE_NORMALIZATION", "INSTANCE_NORMALIZATION", "SOFTMAX", "LOG_SOFTMAX", "RESIZE_BILINEAR", "RESIZE_NEAREST_NEIGHBOR"]
_SHAPE = ["RESHAPE", "CONCATENATION", "SQUEEZE", "EXPAND_DIMS", "TRANSPOSE", "PAD", "PAD_V2", "SLICE", "STRIDED_SLICE", "SPLIT", "TILE", "GATHER", "DEPTH_TO_SPACE", "SPACE_TO_DEPTH", "BATCH_TO_SPACE_ND", "SPACE_TO_BATCH_ND", "CHANNEL_SHUFFLE", "MEAN", "REDUCE_ALL", "REDUCE_ANY", "REDUCE_MAX", "REDUCE_MIN", "REDUCE_PROD", "REDUCE_SUM", "ARGMAX", "ARGMIN", "TOPK_V2", "FILL", "RANK", "EMBEDDING_LOOKUP", "HASHTABLE_LOOKUP"]
_RECURRENT = ["LSTM", "QUANTIZED_16BIT_LSTM", "QUANTIZED_LSTM", "BIDIRECTIONAL_SEQUENCE_LSTM", "UNIDIRECTIONAL_SEQUENCE_LSTM", "RNN", "BIDIRECTIONAL_SEQUENCE_RNN", "UNIDIRECTIONAL_SEQUENCE_RNN", "SVDF", "LSH_PROJECTION", "RANDOM_MULTINOMIAL"]
_DETECTION = ["AXIS_ALIGNED_BBOX_TRANSFORM", "BOX_WITH_NMS_LIMIT", "DETECTION_POSTPROCESSING", "GENERATE_PROPOSALS", "HEATMAP_MAX_KEYPOINT", "ROI_ALIGN", "ROI_POOLING"]
_CONTROL = ["IF", "WHILE"]

_FAMILY_OF = {n: fam for fam, names in (("elementwise", _ELEMENTWISE), ("nn", _NN), ("shape", _SHAPE),
                                        ("recurrent", _RECURRENT), ("detection", _DETECTION),
                                        ("control", _CONTROL)) for n in names}

# NNAPI OperationType numbers, ../shared/spec/OperationType.aidl.
_CODES = ["ADD", "AVERAGE_POOL_2D", "CONCATENATION", "CONV_2D", "DEPTHWISE_CONV_2D", "DEPTH_TO_SPACE", "DEQUANTIZE", "EMBEDDING_LOOKUP", "FLOOR", "FULLY_CONNECTED", "HASHTABLE_LOOKUP", "L2_NORMALIZATION", "L2_POOL_2D", "LOCAL_RESPONSE_NORMALIZATION", "LOGISTIC", "LSH_PROJECTION", "LSTM", "MAX_POOL_2D", "MUL", "RELU", "RELU1", "RELU6", "RESHAPE", "RESIZE_BILINEAR", "RNN", "SOFTMAX", "SPACE_TO_DEPTH", "SVDF", "TANH", "BATCH_TO_SPACE_ND", "DIV", "MEAN", "PAD", "SPACE_TO_BATCH_ND", "SQUEEZE", "STRIDED_SLICE", "SUB", "TRANSPOSE", "ABS", "ARGMAX", "ARGMIN", "AXIS_ALIGNED_BBOX_TRANSFORM", "BIDIRECTIONAL_SEQUENCE_LSTM", "BIDIRECTIONAL_SEQUENCE_RNN", "BOX_WITH_NMS_LIMIT", "CAST", "CHANNEL_SHUFFLE", "DETECTION_POSTPROCESSING", "EQUAL", "EXP", "EXPAND_DIMS", "GATHER", "GENERATE_PROPOSALS", "GREATER", "GREATER_EQUAL", "GROUPED_CONV_2D", "HEATMAP_MAX_KEYPOINT", "INSTANCE_NORMALIZATION", "LESS", "LESS_EQUAL", "LOG", "LOGICAL_AND", "LOGICAL_NOT", "LOGICAL_OR", "LOG_SOFTMAX", "MAXIMUM", "MINIMUM", "NEG", "NOT_EQUAL", "PAD_V2", "POW", "PRELU", "QUANTIZE", "QUANTIZED_16BIT_LSTM", "RANDOM_MULTINOMIAL", "REDUCE_ALL", "REDUCE_ANY", "REDUCE_MAX", "REDUCE_MIN", "REDUCE_PROD", "REDUCE_SUM", "ROI_ALIGN", "ROI_POOLING", "RSQRT", "SELECT", "SIN", "SLICE", "SPLIT", "SQRT", "TILE", "TOPK_V2", "TRANSPOSE_CONV_2D", "UNIDIRECTIONAL_SEQUENCE_LSTM", "UNIDIRECTIONAL_SEQUENCE_RNN", "RESIZE_NEAREST_NEIGHBOR", "QUANTIZED_LSTM", "IF", "WHILE", "ELU", "HARD_SWISH", "FILL", "RANK", "BATCH_MATMUL"]

#: The registry: operation name -> :class:`OpDef`, in NNAPI number order.
OPS: dict[str, OpDef] = {name: OpDef(name, code, _SINCE[code], _FAMILY_OF[name])
                         for code, name in enumerate(_CODES)}
BY_CODE: dict[int, OpDef] = {op.code: op for op in OPS.values()}

_loaded = False


def load_all() -> dict[str, OpDef]:
    """Imports every golden family module so that their :func:`define` calls have run."""
    global _loaded
    if not _loaded:
        _loaded = True
        for fam in FAMILIES:
            importlib.import_module(f"nnaccel.golden.{fam}")
    return OPS


def get(name: str) -> OpDef | None:
    """The registry entry of ``name`` (with kernels loaded), or ``None`` for an unknown name."""
    load_all()
    return OPS.get(name)


def define(name: str, signatures, validate: Callable | None = None):
    """Decorator for a golden kernel: attaches it, its signatures and its validator to ``name``.

    >>> @define("RELU", [Sig(("T",), ("T",), types={"T": (T.TENSOR_FLOAT32,)})])
    ... def relu(k): ...
    """
    entry = OPS[name]

    def attach(kernel):
        if entry.kernel is not None:
            raise RuntimeError(f"Operation {name} is defined twice.")
        entry.signatures = list(signatures)
        entry.validate = validate
        entry.kernel = kernel
        entry.doc = (kernel.__doc__ or "").strip()
        return kernel

    return attach
