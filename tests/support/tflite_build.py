"""Writes ``.tflite`` flatbuffers from Python: small models for tests, examples and bug reports.

Uses the flatbuffers builder functions that the ``tflite`` package generates from TFLite's
``schema.fbs``; nothing is downloaded. A model has one subgraph::

    b = TFLiteBuilder()
    x = b.add_tensor([1, 4], "FLOAT32", name="x")
    y = b.add_tensor([1, 4], "FLOAT32", name="y")
    z = b.add_tensor([1, 4], "FLOAT32", name="z")
    b.add_op("ADD", [x, y], [z], "AddOptions", FusedActivationFunction=0)
    data = b.finish([x, y], [z])          # bytes of a .tflite file

Options are given as the option table's name (``"Conv2DOptions"``) and its fields in the schema's
CamelCase spelling; list values become int32 vectors (``NewShape``, ``SqueezeDims``).

A tensor may carry a ``shape_signature`` (-1 marks a dynamic dimension, as Keras exports write the
batch) and, for a constant, ``sparsity`` (a :class:`Sparsity`): its data is then stored in the
sparse encoding of :mod:`nnaccel.compiler.tflite_sparse`.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass

import flatbuffers
import numpy as np
import tflite
from nnaccel.compiler.tflite_import import NUMPY_DTYPES
from nnaccel.compiler.tflite_sparse import DENSE, sparsify
from tflite.BuiltinOperator import BuiltinOperator
from tflite.BuiltinOptions import BuiltinOptions
from tflite.DimensionType import DimensionType
from tflite.SparseIndexVector import SparseIndexVector
from tflite.TensorType import TensorType

#: ``BuiltinOperator`` code from which the schema stores the code only in ``builtin_code``.
PLACEHOLDER_FOR_GREATER_OP_CODES = 127


@dataclass(frozen=True)
class Sparsity:
    """How :meth:`TFLiteBuilder.add_tensor` stores a constant sparsely: the arguments of
    :func:`~nnaccel.compiler.tflite_sparse.sparsify` and the index vector type of the SPARSE_CSR
    levels (``"Int32Vector"``, ``"Uint16Vector"`` or ``"Uint8Vector"``)."""

    traversal_order: tuple | None = None
    block_map: tuple = ()
    block_sizes: tuple = ()
    formats: tuple | None = None
    index_vector: str = "Int32Vector"


#: SparseIndexVector member -> (NumPy dtype, flatbuffers element name) of its values.
_INDEX_ELEMS = {"Int32Vector": (np.int32, "Int32"), "Uint16Vector": (np.uint16, "Uint16"),
                "Uint8Vector": (np.uint8, "Uint8")}


def _int_vector(builder, values, elem="Int32"):
    size = {"Uint8": 1, "Uint16": 2, "Int32": 4, "Float32": 4}.get(elem, 8)
    builder.StartVector(size, len(values), max(size, 4))
    for v in reversed(list(values)):
        getattr(builder, "Prepend" + elem)(v)
    return builder.EndVector()


class TFLiteBuilder:
    """Collects tensors, buffers and operators of one subgraph and serializes them.

    ``external_buffers=True`` stores constant data after the flatbuffer, addressed by
    ``Buffer.offset`` / ``size`` (the layout of models over 2 GB). Operator codes are written in
    both fields by default (``deprecated_builtin_code`` holding 127 for codes above it, as TFLite's
    converter does); ``legacy_opcodes=True`` writes them only in ``deprecated_builtin_code`` as
    files from before schema v3a do, ``builtin_code_only=True`` only in ``builtin_code``
    (``deprecated_builtin_code`` left 0, as ai-edge-quantizer writes them).
    """

    def __init__(self, external_buffers: bool = False, legacy_opcodes: bool = False,
                 builtin_code_only: bool = False):
        if legacy_opcodes and builtin_code_only:
            raise ValueError("legacy_opcodes and builtin_code_only exclude each other")
        self.tensors: list[dict] = []
        self.buffers: list[bytes | None] = [None]  # buffer 0 is the empty sentinel
        self.opcodes: list[tuple[int, str | None]] = []
        self.ops: list[dict] = []
        self.external_buffers = external_buffers
        self.legacy_opcodes = legacy_opcodes
        self.builtin_code_only = builtin_code_only

    # ------------------------------------------------------------------------------------ tensors
    def add_tensor(self, shape, dtype: str = "FLOAT32", name: str | None = None, data=None,
                   scale=None, zero_point=None, quantized_dimension: int = 0, shape_signature=None,
                   sparsity: Sparsity | None = None) -> int:
        """Adds a tensor (a constant when ``data`` is given); returns its index.

        ``scale`` / ``zero_point`` are a number or a list (per-channel along
        ``quantized_dimension``); ``shape_signature`` is written as given; a constant with
        ``sparsity`` stores only the values its sparse encoding keeps.
        """
        buffer = 0
        sparse = None
        if data is not None:
            arr = np.asarray(data, dtype=NUMPY_DTYPES[dtype]).reshape(shape)
            if sparsity is not None:
                idx_dtype = _INDEX_ELEMS[sparsity.index_vector][0]
                levels, arr = sparsify(arr, sparsity.traversal_order, sparsity.block_map, sparsity.block_sizes,
                                       sparsity.formats, idx_dtype)
                order = (list(range(len(shape) + len(sparsity.block_map))) if sparsity.traversal_order is None
                         else list(sparsity.traversal_order))
                sparse = (order, list(sparsity.block_map), levels, sparsity.index_vector)
            self.buffers.append(arr.tobytes())
            buffer = len(self.buffers) - 1
        self.tensors.append({"shape": [int(s) for s in shape], "dtype": dtype,
                                 "name": name or f"t{len(self.tensors)}", "buffer": buffer,
                                 "scale": None if scale is None else np.atleast_1d(scale).astype(float),
                                 "zero_point": None if zero_point is None else
                                 np.atleast_1d(zero_point).astype(np.int64),
                                 "qdim": quantized_dimension,
                                 "signature": None if shape_signature is None else [int(d) for d in shape_signature],
                                 "sparsity": sparse})
        return len(self.tensors) - 1

    def add_op(self, op: str, inputs, outputs, options: str | None = None, custom_code: str | None = None,
               **fields) -> None:
        """Adds an operator (``op`` a ``BuiltinOperator`` name, or ``"CUSTOM"`` with ``custom_code``);
        ``-1`` in ``inputs`` marks an omitted optional input."""
        code = getattr(BuiltinOperator, op)
        key = (code, custom_code)
        if key not in self.opcodes:
            self.opcodes.append(key)
        self.ops.append({"opcode": self.opcodes.index(key), "inputs": list(inputs), "outputs": list(outputs),
                             "options": options, "fields": fields})

    # ---------------------------------------------------------------------------------- serialize
    def finish(self, inputs, outputs, description: str = "nnaccel tflite_build") -> bytes:
        """Serializes the model with ``inputs`` / ``outputs`` as the subgraph's inputs / outputs."""
        if not self.external_buffers:
            return self._serialize(inputs, outputs, description, None)
        keys = [k for k, d in enumerate(self.buffers) if d]
        # The flatbuffer's size does not depend on the offset values (uint64 fields, always written
        # as they are never the default 0), so serialize once to learn it, then place the data.
        size = len(self._serialize(inputs, outputs, description, {k: (1, 1) for k in keys}))
        placements, pos = {}, size
        for k in keys:
            pos = (pos + 15) // 16 * 16
            placements[k] = (pos, len(self.buffers[k]))
            pos += len(self.buffers[k])
        out = bytearray(self._serialize(inputs, outputs, description, placements))
        assert len(out) == size
        for k in keys:
            off, _ = placements[k]
            out.extend(b"\0" * (off - len(out)))
            out.extend(self.buffers[k])
        return bytes(out)

    def _serialize(self, inputs, outputs, description, placements) -> bytes:
        b = flatbuffers.Builder(1024)
        buffer_offs = []
        for k, data in enumerate(self.buffers):
            vec = None
            if data and placements is None:
                vec = b.CreateNumpyVector(np.frombuffer(data, np.uint8))
            tflite.BufferStart(b)
            if vec is not None:
                tflite.BufferAddData(b, vec)
            if placements is not None and k in placements:
                tflite.BufferAddOffset(b, placements[k][0])
                tflite.BufferAddSize(b, placements[k][1])
            buffer_offs.append(tflite.BufferEnd(b))
        tensor_offs = []
        for t in self.tensors:
            name = b.CreateString(t["name"])
            shape = _int_vector(b, t["shape"])
            q = None
            if t["scale"] is not None:
                sc = b.CreateNumpyVector(t["scale"].astype(np.float32))
                zp = b.CreateNumpyVector((t["zero_point"] if t["zero_point"] is not None
                                          else np.zeros(len(t["scale"]), np.int64)).astype(np.int64))
                tflite.QuantizationParametersStart(b)
                tflite.QuantizationParametersAddScale(b, sc)
                tflite.QuantizationParametersAddZeroPoint(b, zp)
                tflite.QuantizationParametersAddQuantizedDimension(b, t["qdim"])
                q = tflite.QuantizationParametersEnd(b)
            sig = None if t["signature"] is None else _int_vector(b, t["signature"])
            sp = None if t["sparsity"] is None else self._sparsity(b, *t["sparsity"])
            tflite.TensorStart(b)
            tflite.TensorAddShape(b, shape)
            if sig is not None:
                tflite.TensorAddShapeSignature(b, sig)
            if sp is not None:
                tflite.TensorAddSparsity(b, sp)
            tflite.TensorAddType(b, getattr(TensorType, t["dtype"]))
            tflite.TensorAddBuffer(b, t["buffer"])
            tflite.TensorAddName(b, name)
            if q is not None:
                tflite.TensorAddQuantization(b, q)
            tensor_offs.append(tflite.TensorEnd(b))
        op_offs = [self._operator(b, op) for op in self.ops]
        opcode_offs = []
        for code, custom in self.opcodes:
            cc = b.CreateString(custom) if custom else None
            tflite.OperatorCodeStart(b)
            if not self.builtin_code_only:
                tflite.OperatorCodeAddDeprecatedBuiltinCode(b, min(code, PLACEHOLDER_FOR_GREATER_OP_CODES))
            if not self.legacy_opcodes:
                tflite.OperatorCodeAddBuiltinCode(b, code)
            tflite.OperatorCodeAddVersion(b, 1)
            if cc is not None:
                tflite.OperatorCodeAddCustomCode(b, cc)
            opcode_offs.append(tflite.OperatorCodeEnd(b))

        def vec_of(offsets):
            b.StartVector(4, len(offsets), 4)
            for o in reversed(offsets):
                b.PrependUOffsetTRelative(o)
            return b.EndVector()

        tensors_v, ops_v = vec_of(tensor_offs), vec_of(op_offs)
        ins_v, outs_v = _int_vector(b, inputs), _int_vector(b, outputs)
        sg_name = b.CreateString("main")
        tflite.SubGraphStart(b)
        tflite.SubGraphAddTensors(b, tensors_v)
        tflite.SubGraphAddInputs(b, ins_v)
        tflite.SubGraphAddOutputs(b, outs_v)
        tflite.SubGraphAddOperators(b, ops_v)
        tflite.SubGraphAddName(b, sg_name)
        sg = tflite.SubGraphEnd(b)
        subgraphs_v = vec_of([sg])
        opcodes_v = vec_of(opcode_offs)
        buffers_v = vec_of(buffer_offs)
        desc = b.CreateString(description)
        tflite.ModelStart(b)
        tflite.ModelAddVersion(b, 3)
        tflite.ModelAddOperatorCodes(b, opcodes_v)
        tflite.ModelAddSubgraphs(b, subgraphs_v)
        tflite.ModelAddDescription(b, desc)
        tflite.ModelAddBuffers(b, buffers_v)
        b.Finish(tflite.ModelEnd(b), file_identifier=b"TFL3")
        return bytes(b.Output())

    @staticmethod
    def _sparsity(b, order, block_map, levels, index_vector: str) -> int:
        elem = _INDEX_ELEMS[index_vector][1]
        kind = getattr(SparseIndexVector, index_vector)
        dims = []
        for lv in levels:
            pieces = []
            if lv.format != DENSE:
                for arr in (lv.segments, lv.indices):
                    vec = _int_vector(b, [int(v) for v in arr], elem)
                    getattr(tflite, f"{index_vector}Start")(b)
                    getattr(tflite, f"{index_vector}AddValues")(b, vec)
                    pieces.append(getattr(tflite, f"{index_vector}End")(b))
            tflite.DimensionMetadataStart(b)
            tflite.DimensionMetadataAddFormat(b, getattr(DimensionType, lv.format))
            if lv.format == DENSE:
                tflite.DimensionMetadataAddDenseSize(b, lv.dense_size)
            else:
                tflite.DimensionMetadataAddArraySegmentsType(b, kind)
                tflite.DimensionMetadataAddArraySegments(b, pieces[0])
                tflite.DimensionMetadataAddArrayIndicesType(b, kind)
                tflite.DimensionMetadataAddArrayIndices(b, pieces[1])
            dims.append(tflite.DimensionMetadataEnd(b))
        order_v, map_v = _int_vector(b, order), _int_vector(b, block_map)
        b.StartVector(4, len(dims), 4)
        for o in reversed(dims):
            b.PrependUOffsetTRelative(o)
        dims_v = b.EndVector()
        tflite.SparsityParametersStart(b)
        tflite.SparsityParametersAddTraversalOrder(b, order_v)
        tflite.SparsityParametersAddBlockMap(b, map_v)
        tflite.SparsityParametersAddDimMetadata(b, dims_v)
        return tflite.SparsityParametersEnd(b)

    def _operator(self, b, op) -> int:
        opts = None
        if op["options"]:
            mod = importlib.import_module(f"tflite.{op['options']}")
            name = op["options"]
            vectors = {}
            for field, value in op["fields"].items():
                if isinstance(value, (list, tuple)):
                    vectors[field] = _int_vector(b, value)
            getattr(mod, f"{name}Start")(b)
            for field, value in op["fields"].items():
                adder = getattr(mod, f"{name}Add{field}")
                adder(b, vectors.get(field, value))
            opts = getattr(mod, f"{name}End")(b)
        ins, outs = _int_vector(b, op["inputs"]), _int_vector(b, op["outputs"])
        tflite.OperatorStart(b)
        tflite.OperatorAddOpcodeIndex(b, op["opcode"])
        tflite.OperatorAddInputs(b, ins)
        tflite.OperatorAddOutputs(b, outs)
        if opts is not None:
            tflite.OperatorAddBuiltinOptionsType(b, getattr(BuiltinOptions, op["options"]))
            tflite.OperatorAddBuiltinOptions(b, opts)
        return tflite.OperatorEnd(b)
