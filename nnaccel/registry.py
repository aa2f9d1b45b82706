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

# Every NNAPI operation once, in OperationType number order (../shared/spec/OperationType.aidl):
# "NAME family" pairs, the family being the golden module (FAMILIES) that implements it.
_TABLE = """
    ADD elementwise | AVERAGE_POOL_2D nn | CONCATENATION shape | CONV_2D nn | DEPTHWISE_CONV_2D nn
    DEPTH_TO_SPACE shape | DEQUANTIZE elementwise | EMBEDDING_LOOKUP shape | FLOOR elementwise
    FULLY_CONNECTED nn | HASHTABLE_LOOKUP shape | L2_NORMALIZATION nn | L2_POOL_2D nn
    LOCAL_RESPONSE_NORMALIZATION nn | LOGISTIC elementwise | LSH_PROJECTION recurrent
    LSTM recurrent | MAX_POOL_2D nn | MUL elementwise | RELU elementwise | RELU1 elementwise
    RELU6 elementwise | RESHAPE shape | RESIZE_BILINEAR nn | RNN recurrent | SOFTMAX nn
    SPACE_TO_DEPTH shape | SVDF recurrent | TANH elementwise | BATCH_TO_SPACE_ND shape
    DIV elementwise | MEAN shape | PAD shape | SPACE_TO_BATCH_ND shape | SQUEEZE shape
    STRIDED_SLICE shape | SUB elementwise | TRANSPOSE shape | ABS elementwise | ARGMAX shape
    ARGMIN shape | AXIS_ALIGNED_BBOX_TRANSFORM detection | BIDIRECTIONAL_SEQUENCE_LSTM recurrent
    BIDIRECTIONAL_SEQUENCE_RNN recurrent | BOX_WITH_NMS_LIMIT detection | CAST elementwise
    CHANNEL_SHUFFLE shape | DETECTION_POSTPROCESSING detection | EQUAL elementwise | EXP elementwise
    EXPAND_DIMS shape | GATHER shape | GENERATE_PROPOSALS detection | GREATER elementwise
    GREATER_EQUAL elementwise | GROUPED_CONV_2D nn | HEATMAP_MAX_KEYPOINT detection
    INSTANCE_NORMALIZATION nn | LESS elementwise | LESS_EQUAL elementwise | LOG elementwise
    LOGICAL_AND elementwise | LOGICAL_NOT elementwise | LOGICAL_OR elementwise | LOG_SOFTMAX nn
    MAXIMUM elementwise | MINIMUM elementwise | NEG elementwise | NOT_EQUAL elementwise
    PAD_V2 shape | POW elementwise | PRELU elementwise | QUANTIZE elementwise
    QUANTIZED_16BIT_LSTM recurrent | RANDOM_MULTINOMIAL recurrent | REDUCE_ALL shape
    REDUCE_ANY shape | REDUCE_MAX shape | REDUCE_MIN shape | REDUCE_PROD shape | REDUCE_SUM shape
    ROI_ALIGN detection | ROI_POOLING detection | RSQRT elementwise | SELECT elementwise
    SIN elementwise | SLICE shape | SPLIT shape | SQRT elementwise | TILE shape | TOPK_V2 shape
    TRANSPOSE_CONV_2D nn | UNIDIRECTIONAL_SEQUENCE_LSTM recurrent
    UNIDIRECTIONAL_SEQUENCE_RNN recurrent | RESIZE_NEAREST_NEIGHBOR nn | QUANTIZED_LSTM recurrent
    IF control | WHILE control | ELU elementwise | HARD_SWISH elementwise | FILL shape | RANK shape
    BATCH_MATMUL nn
"""
_ENTRIES = [tuple(pair.split()) for line in _TABLE.strip().splitlines() for pair in line.split("|")]

#: The registry: operation name -> :class:`OpDef`, in NNAPI number order.
OPS: dict[str, OpDef] = {name: OpDef(name, code, _SINCE[code], family)
                         for code, (name, family) in enumerate(_ENTRIES)}
assert len(OPS) == len(_ENTRIES) and {op.family for op in OPS.values()} <= set(FAMILIES)
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
