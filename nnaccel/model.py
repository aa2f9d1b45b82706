"""The NNAPI model IR: operand types, operands, operations, subgraphs, models, and a builder.

Mirrors the NNAPI HAL 1.3 / AIDL model structure (``Model``, ``Subgraph``, ``Operand``,
``Operation``). Operand types keep their NNAPI numbers; their element types and quantization rules
live in :data:`TYPE_INFO`, the one table of operand-type facts.
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass, field

import numpy as np

from .errors import ModelError


class OperandType(enum.IntEnum):
    """NNAPI ``OperandType`` (numbers as in the spec)."""

    FLOAT32 = 0
    INT32 = 1
    UINT32 = 2
    TENSOR_FLOAT32 = 3
    TENSOR_INT32 = 4
    TENSOR_QUANT8_ASYMM = 5
    BOOL = 6
    TENSOR_QUANT16_SYMM = 7
    TENSOR_FLOAT16 = 8
    TENSOR_BOOL8 = 9
    FLOAT16 = 10
    TENSOR_QUANT8_SYMM_PER_CHANNEL = 11
    TENSOR_QUANT16_ASYMM = 12
    TENSOR_QUANT8_SYMM = 13
    TENSOR_QUANT8_ASYMM_SIGNED = 14
    SUBGRAPH = 15


class OperandLifetime(enum.Enum):
    """Where an operand's value comes from (``CONSTANT_REFERENCE`` is NNAPI's ``CONSTANT_POOL``)."""

    TEMPORARY_VARIABLE = "TEMPORARY_VARIABLE"
    SUBGRAPH_INPUT = "SUBGRAPH_INPUT"
    SUBGRAPH_OUTPUT = "SUBGRAPH_OUTPUT"
    CONSTANT_COPY = "CONSTANT_COPY"
    CONSTANT_REFERENCE = "CONSTANT_REFERENCE"
    NO_VALUE = "NO_VALUE"
    SUBGRAPH = "SUBGRAPH"


CONSTANT_LIFETIMES = (OperandLifetime.CONSTANT_COPY, OperandLifetime.CONSTANT_REFERENCE)


@dataclass(frozen=True)
class TypeInfo:
    """Facts about one operand type.

    ``zero_point_range`` is the inclusive range of a legal zero point, or ``(0, 0)`` where the type
    requires zero; ``needs_scale`` says the type requires a finite scale > 0.
    """

    dtype: np.dtype
    is_tensor: bool
    is_quantized: bool
    needs_scale: bool
    zero_point_range: tuple[int, int]


T = OperandType
TYPE_INFO: dict[OperandType, TypeInfo] = {
    T.FLOAT32: TypeInfo(np.dtype(np.float32), False, False, False, (0, 0)),
    T.INT32: TypeInfo(np.dtype(np.int32), False, False, False, (0, 0)),
    T.UINT32: TypeInfo(np.dtype(np.uint32), False, False, False, (0, 0)),
    T.BOOL: TypeInfo(np.dtype(np.bool_), False, False, False, (0, 0)),
    T.FLOAT16: TypeInfo(np.dtype(np.float16), False, False, False, (0, 0)),
    T.SUBGRAPH: TypeInfo(np.dtype(np.uint32), False, False, False, (0, 0)),
    T.TENSOR_FLOAT32: TypeInfo(np.dtype(np.float32), True, False, False, (0, 0)),
    T.TENSOR_FLOAT16: TypeInfo(np.dtype(np.float16), True, False, False, (0, 0)),
    T.TENSOR_INT32: TypeInfo(np.dtype(np.int32), True, False, False, (-(2**31), 2**31 - 1)),
    T.TENSOR_BOOL8: TypeInfo(np.dtype(np.bool_), True, False, False, (0, 0)),
    T.TENSOR_QUANT8_ASYMM: TypeInfo(np.dtype(np.uint8), True, True, True, (0, 255)),
    T.TENSOR_QUANT8_ASYMM_SIGNED: TypeInfo(np.dtype(np.int8), True, True, True, (-128, 127)),
    T.TENSOR_QUANT8_SYMM: TypeInfo(np.dtype(np.int8), True, True, True, (0, 0)),
    T.TENSOR_QUANT8_SYMM_PER_CHANNEL: TypeInfo(np.dtype(np.int8), True, True, False, (0, 0)),
    T.TENSOR_QUANT16_ASYMM: TypeInfo(np.dtype(np.uint16), True, True, True, (0, 65535)),
    T.TENSOR_QUANT16_SYMM: TypeInfo(np.dtype(np.int16), True, True, True, (0, 0)),
}
del T

#: The largest tensor nnaccel accepts, in elements and in bytes (every entry point checks a declared
#: shape with :func:`check_tensor_size` before anything of that size is allocated). NNAPI itself
#: bounds a dimension to uint32; these bounds keep a run within a host's memory. The byte bound
#: also bounds what a compressed input may expand to: a gzip'd model file once decompressed
#: (:func:`nnaccel.ioutil.read_input`), a package member, an array of an ``--inputs`` archive.
MAX_TENSOR_ELEMENTS = 1 << 28
MAX_TENSOR_BYTES = 1 << 29
#: The largest rank accepted (NNAPI's own operations use at most 6; the bound keeps shape
#: arithmetic small).
MAX_TENSOR_RANK = 32


def check_tensor_size(op_type: OperandType, dimensions, where: str) -> None:
    """Raises :class:`ModelError` when a tensor of ``op_type`` and ``dimensions`` (0 = unknown, not
    counted) exceeds :data:`MAX_TENSOR_ELEMENTS` or :data:`MAX_TENSOR_BYTES`, or its rank exceeds
    :data:`MAX_TENSOR_RANK`. ``where`` names the tensor and starts the message (e.g.
    ``"Operand 3 of subgraph main"``)."""
    if dimensions is None:
        return
    if len(dimensions) > MAX_TENSOR_RANK:
        raise ModelError(f"{where} has rank {len(dimensions)}, above the limit of {MAX_TENSOR_RANK}.")
    elements = math.prod(abs(int(d)) for d in dimensions if d)
    size = elements * TYPE_INFO[op_type].dtype.itemsize
    shape = "x".join(str(d) for d in dimensions)
    if elements > MAX_TENSOR_ELEMENTS:
        raise ModelError(f"{where} has shape {shape} ({elements} elements), above the limit of "
                         f"{MAX_TENSOR_ELEMENTS} elements per tensor.")
    if size > MAX_TENSOR_BYTES:
        raise ModelError(f"{where} has shape {shape} ({size} bytes), above the limit of "
                         f"{MAX_TENSOR_BYTES} bytes per tensor.")


FLOAT_TENSOR_TYPES = (OperandType.TENSOR_FLOAT32, OperandType.TENSOR_FLOAT16)

#: Where a model comes from, which selects the arithmetic of the few golden kernels where NNAPI's
#: reference CPU code and LiteRT's reference kernels compute differently (``Model.origin``):
#:
#: * ``"nnapi"`` (the default): NNAPI's reference, the arithmetic the conformance vectors check;
#: * ``"tflite"`` (set by the TFLite importer): LiteRT's reference kernels (``BUILTIN_REF``), so that
#:   an imported model gives LiteRT's answer bit for bit. It changes the int8 requantization
#:   multiplier of CONV_2D / DEPTHWISE_CONV_2D / GROUPED_CONV_2D / TRANSPOSE_CONV_2D
#:   (``nnaccel.golden.nn.conv_real_multiplier``), quantized FULLY_CONNECTED (one rounding, and
#:   int8 weights quantized per unit, which NNAPI lacks: ``nnaccel.golden.nn.fully_connected``),
#:   quantized MEAN (``nnaccel.golden.shape.mean``), quantized MAX_POOL_2D / AVERAGE_POOL_2D
#:   of another output quantization and MAXIMUM / MINIMUM / SELECT (the stored values unrescaled),
#:   quantized RESIZE_BILINEAR (``nnaccel.golden.nn.resize_bilinear``) and the float32 summation
#:   order of CONV_2D / GROUPED_CONV_2D (``nnaccel.golden.nn.grouped_conv_accumulate``).
#:
#: docs/tflite.md ("Known differences") lists each difference.
ORIGINS = ("nnapi", "tflite")
QUANT8_ASYMM_TYPES = (OperandType.TENSOR_QUANT8_ASYMM, OperandType.TENSOR_QUANT8_ASYMM_SIGNED)


@dataclass
class ChannelQuant:
    """Per-channel quantization of a ``TENSOR_QUANT8_SYMM_PER_CHANNEL`` operand."""

    scales: tuple[float, ...]
    channel_dim: int


@dataclass
class Operand:
    """One operand of a subgraph.

    ``dimensions`` uses 0 for an unknown (or zero-sized) dimension; ``None`` means unknown rank.
    ``data`` holds the constant value (a NumPy array of the type's dtype and shape ``dimensions``)
    for constant lifetimes, the subgraph index for ``SUBGRAPH`` operands, and ``None`` otherwise.
    """

    type: OperandType
    dimensions: tuple[int, ...] | None = ()
    scale: float = 0.0
    zero_point: int = 0
    channel_quant: ChannelQuant | None = None
    lifetime: OperandLifetime = OperandLifetime.TEMPORARY_VARIABLE
    data: np.ndarray | None = None
    name: str | None = None
    is_ignored: bool = False

    @property
    def info(self) -> TypeInfo:
        return TYPE_INFO[self.type]

    @property
    def is_constant(self) -> bool:
        return self.lifetime in CONSTANT_LIFETIMES

    @property
    def is_omitted(self) -> bool:
        return self.lifetime is OperandLifetime.NO_VALUE

    @property
    def rank(self) -> int | None:
        return None if self.dimensions is None else len(self.dimensions)

    @property
    def fully_specified(self) -> bool:
        return self.dimensions is not None and all(d > 0 for d in self.dimensions)

    def value(self):
        """The Python value of a constant scalar operand (int, float or bool)."""
        if self.data is None:
            raise ModelError(f"Operand {self.name or ''} has no constant value.")
        return self.data.reshape(-1)[0].item()

    def describe(self) -> str:
        dims = "?" if self.dimensions is None else "x".join(str(d) for d in self.dimensions) or "scalar"
        q = ""
        if self.info.is_quantized:
            if self.channel_quant is not None:
                q = f" per-channel(dim {self.channel_quant.channel_dim}, {len(self.channel_quant.scales)} scales)"
            else:
                q = f" scale={self.scale:g} zp={self.zero_point}"
        return f"{self.type.name}[{dims}]{q} {self.lifetime.value}"


@dataclass
class Operation:
    """One operation: its NNAPI type name and operand indexes."""

    type: str
    inputs: list[int]
    outputs: list[int]


@dataclass
class Subgraph:
    operands: list[Operand] = field(default_factory=list)
    operations: list[Operation] = field(default_factory=list)
    input_indexes: list[int] = field(default_factory=list)
    output_indexes: list[int] = field(default_factory=list)


@dataclass
class Model:
    """A whole NNAPI model: the main subgraph, the subgraphs IF/WHILE reference, and flags."""

    main: Subgraph
    referenced: list[Subgraph] = field(default_factory=list)
    relaxed: bool = False
    name: str = "model"
    #: Example data a model file carries for its main-graph inputs / expected outputs (one array or
    #: ``None`` per position). Test data only: running a model never reads ``stored_outputs``.
    stored_inputs: list | None = None
    stored_outputs: list | None = None
    #: (``stored_inputs``: ``None`` when the file carries no input data at all; else one entry per
    #: input, ``None`` for an input the example omits, NNAPI's optional input passed with no value.)
    #: Other facts from the file (``expect_failure``, ``multinomial_tolerance``, ``group`` ...).
    meta: dict = field(default_factory=dict)
    #: Whose reference arithmetic the golden kernels follow: one of :data:`ORIGINS`.
    origin: str = "nnapi"

    def subgraphs(self):
        """Yields ``(label, subgraph)`` for the main graph and each referenced graph."""
        yield "main", self.main
        for i, sg in enumerate(self.referenced):
            yield f"referenced[{i}]", sg

    def has_float16(self) -> bool:
        return any(o.type in (OperandType.TENSOR_FLOAT16, OperandType.FLOAT16)
                   for _, sg in self.subgraphs() for o in sg.operands)


def as_float32_scale(value) -> float:
    """An NNAPI scale is a C++ ``float``: the decimal from a file or the builder rounds to float32
    (through float64, as C++ float literals do) and is kept as the Python float of that value."""
    return float(np.float32(np.float64(value)))


def as_operand_array(op_type: OperandType, values, dimensions) -> np.ndarray:
    """Converts constant values to the operand type's dtype and shape.

    Floats go through float64 first so that decimal literals round as C++ float literals do.
    """
    info = TYPE_INFO[op_type]
    arr = np.asarray(values)
    if info.dtype.kind == "f":
        arr = np.asarray(values, dtype=np.float64).astype(info.dtype)
    else:
        arr = arr.astype(info.dtype) if arr.size else np.zeros(0, info.dtype)
    if dimensions is not None and arr.size == math.prod(dimensions):
        arr = arr.reshape(dimensions)
    return arr


class ModelBuilder:
    """Builds a model step by step, in the spirit of NNAPI's ``ANeuralNetworksModel_*`` calls.

    >>> b = ModelBuilder()
    >>> a = b.add_operand(OperandType.TENSOR_FLOAT32, [2])
    >>> c = b.add_operand(OperandType.TENSOR_FLOAT32, [2])
    >>> act = b.add_constant(OperandType.INT32, 0)
    >>> out = b.add_operand(OperandType.TENSOR_FLOAT32, [2])
    >>> b.add_operation("ADD", [a, c, act], [out])
    >>> b.identify_inputs_and_outputs([a, c], [out])
    >>> model = b.finish()
    """

    def __init__(self, name: str = "model", relaxed: bool = False, origin: str = "nnapi"):
        self._graph = Subgraph()
        self._referenced: list[Subgraph] = []
        self.name = name
        self.relaxed = relaxed
        self.origin = origin

    def add_operand(self, op_type: OperandType, dimensions=(), scale: float = 0.0, zero_point: int = 0,
                    channel_quant: ChannelQuant | None = None, name: str | None = None) -> int:
        """Adds an operand (a temporary until given a value or named as input/output); returns its index."""
        if channel_quant is not None:
            channel_quant = ChannelQuant(tuple(as_float32_scale(s) for s in channel_quant.scales),
                                         int(channel_quant.channel_dim))
        self._graph.operands.append(Operand(
            OperandType(op_type), None if dimensions is None else tuple(int(d) for d in dimensions),
            as_float32_scale(scale), int(zero_point), channel_quant, name=name))
        return len(self._graph.operands) - 1

    def operand(self, index: int) -> Operand:
        """The operand added as ``index`` (its type, dimensions, quantization and lifetime so far)."""
        return self._graph.operands[index]

    def set_operand_value(self, index: int, values) -> None:
        """Makes operand ``index`` a constant holding ``values`` (``None`` marks an omitted input)."""
        operand = self._graph.operands[index]
        if values is None:
            operand.lifetime = OperandLifetime.NO_VALUE
            operand.data = None
            return
        operand.lifetime = OperandLifetime.CONSTANT_COPY
        operand.data = as_operand_array(operand.type, values, operand.dimensions)

    def add_constant(self, op_type: OperandType, values, dimensions=None, scale: float = 0.0,
                     zero_point: int = 0, channel_quant: ChannelQuant | None = None,
                     name: str | None = None) -> int:
        """Adds a constant operand; the shape defaults to that of ``values``."""
        if dimensions is None:
            dimensions = np.shape(values)
        index = self.add_operand(op_type, dimensions, scale, zero_point, channel_quant, name)
        self.set_operand_value(index, values)
        return index

    def add_omitted(self, op_type: OperandType, dimensions=()) -> int:
        """Adds an omitted optional operand (NNAPI ``NO_VALUE``)."""
        index = self.add_operand(op_type, dimensions)
        self.set_operand_value(index, None)
        return index

    def add_subgraph_operand(self, subgraph: Subgraph) -> int:
        """Registers ``subgraph`` as a referenced graph and adds a SUBGRAPH operand naming it."""
        self._referenced.append(subgraph)
        index = self.add_operand(OperandType.SUBGRAPH, ())
        operand = self._graph.operands[index]
        operand.lifetime = OperandLifetime.SUBGRAPH
        operand.data = np.array([len(self._referenced) - 1], np.uint32)
        return index

    def add_operation(self, op_type: str, inputs, outputs) -> None:
        self._graph.operations.append(Operation(str(op_type), [int(i) for i in inputs],
                                                [int(o) for o in outputs]))

    def identify_inputs_and_outputs(self, inputs, outputs) -> None:
        self._graph.input_indexes = [int(i) for i in inputs]
        self._graph.output_indexes = [int(o) for o in outputs]
        for i in inputs:
            self._graph.operands[i].lifetime = OperandLifetime.SUBGRAPH_INPUT
        for o in outputs:
            self._graph.operands[o].lifetime = OperandLifetime.SUBGRAPH_OUTPUT

    def finish(self) -> Model:
        return Model(self._graph, list(self._referenced), self.relaxed, self.name, origin=self.origin)
