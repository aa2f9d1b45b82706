"""Small ONNX model builders (the tests build all their ONNX models with these; nothing is
downloaded): :func:`make_model` wraps nodes into a checked model, :func:`qdq_cnn` writes a QDQ
int8 CNN (convolution, depthwise convolution, residual add, pooling, fully connected)."""

from __future__ import annotations

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OPSET = 17


def make_model(nodes, inputs: dict, outputs: dict, inits: dict | None = None, opset: int = OPSET,
               ms: bool = False) -> bytes:
    """A serialized model: ``inputs`` / ``outputs`` map names to (elem type, shape; None for an
    output: from shape inference), ``inits`` names to arrays."""
    g = helper.make_graph(
        nodes, "g", [helper.make_tensor_value_info(k, t, s) for k, (t, s) in inputs.items()],
        [helper.make_tensor_value_info(k, t, s) for k, (t, s) in outputs.items()],
        [numpy_helper.from_array(np.asarray(v), k) for k, v in (inits or {}).items()])
    ops = [helper.make_opsetid("", opset)] + ([helper.make_opsetid("com.microsoft", 1)] if ms else [])
    m = helper.make_model(g, opset_imports=ops)
    m.ir_version = 8
    if any(s is None for _, s in outputs.values()):  # take the unknown output shapes from inference
        inferred = onnx.shape_inference.infer_shapes(m)
        known = {vi.name: vi for vi in [*inferred.graph.value_info, *inferred.graph.output]
                 if vi.type.tensor_type.HasField("shape")}
        for o in m.graph.output:
            if not o.type.tensor_type.HasField("shape") and o.name in known:
                o.type.CopyFrom(known[o.name].type)
    return m.SerializeToString()


class QDQ:
    """Writes QDQ nodes: activations quantized per tensor, weights per tensor or per channel."""

    def __init__(self, elem=TensorProto.INT8):
        self.nodes, self.inits, self.elem, self.k = [], {}, elem, 0

    def _name(self, base):
        self.k += 1
        return f"{base}{self.k}"

    def qdq(self, x: str, scale: float, zp: int) -> str:
        """QuantizeLinear + DequantizeLinear of tensor ``x``; returns the DQ output."""
        s, z = self._name("s"), self._name("z")
        self.inits[s] = np.float32(scale)
        self.inits[z] = np.array(zp, np.int8 if self.elem == TensorProto.INT8 else np.uint8)
        q, d = self._name("q"), self._name("d")
        self.nodes += [helper.make_node("QuantizeLinear", [x, s, z], [q]),
                       helper.make_node("DequantizeLinear", [q, s, z], [d])]
        return d

    def weight(self, w: np.ndarray, per_channel: bool, axis: int = 0) -> str:
        """Symmetric int8 weights behind a DequantizeLinear (scales from the max magnitude)."""
        red = tuple(a for a in range(w.ndim) if a != axis)
        amax = np.abs(w).max(axis=red) if per_channel else np.abs(w).max()
        scale = np.maximum(amax, 1e-6).astype(np.float32) / 127
        shape = [1] * w.ndim
        if per_channel:
            shape[axis] = -1
        q = np.clip(np.round(w / scale.reshape(shape)), -127, 127).astype(np.int8)
        return self._dq_const(q, scale, np.zeros(scale.shape, np.int8), axis if per_channel else None)

    def bias(self, b: np.ndarray, s_x: float, s_w: np.ndarray) -> str:
        scale = (np.float32(s_x) * np.asarray(s_w, np.float32)).astype(np.float32)
        q = np.round(b / scale).astype(np.int32)
        return self._dq_const(q, np.broadcast_to(scale, b.shape).copy() if scale.size > 1 else scale,
                              np.zeros(q.shape if scale.size > 1 else (), np.int32), 0 if scale.size > 1 else None)

    def _dq_const(self, q, scale, zp, axis):
        n, s, z, d = self._name("wq"), self._name("ws"), self._name("wz"), self._name("wd")
        self.inits[n], self.inits[s], self.inits[z] = q, np.asarray(scale, np.float32), np.asarray(zp)
        kw = {"axis": axis} if axis is not None else {}
        self.nodes.append(helper.make_node("DequantizeLinear", [n, s, z], [d], **kw))
        return d

    def scales_of(self, dq_name: str) -> np.ndarray:
        for node in self.nodes:
            if node.output[0] == dq_name:
                return self.inits[node.input[1]]
        raise KeyError(dq_name)

    def node(self, op, ins, **attrs) -> str:
        out = self._name(op.lower())
        self.nodes.append(helper.make_node(op, ins, [out], **attrs))
        return out


def qdq_cnn(seed: int = 0, per_channel: bool = True, elem=TensorProto.INT8) -> bytes:
    """A QDQ CNN on a [1, 3, 12, 12] float input: Conv 3 -> 8 (3x3, pad 1) + Relu, depthwise Conv
    (3x3, pad 1), residual Add, MaxPool 2x2, Conv 8 -> 8 (1x1), GlobalAveragePool, Flatten, Gemm to
    10 classes; activations int8 (or uint8) per tensor, weights int8 per channel (or per tensor)."""
    rng = np.random.default_rng(seed)
    b = QDQ(elem)
    zp = 0 if elem == TensorProto.INT8 else 128
    sx, s1, s2, s3, s4, s5 = 1 / 64, 0.03, 0.04, 0.05, 0.03, 0.02
    x = b.qdq("x", sx, zp - 3)
    w1 = rng.normal(0, 0.4, (8, 3, 3, 3)).astype(np.float32)
    wd1 = b.weight(w1, per_channel)
    c1 = b.node("Conv", [x, wd1, b.bias(rng.normal(0, 0.2, 8), sx, b.scales_of(wd1))], pads=[1, 1, 1, 1])
    r1 = b.qdq(b.node("Relu", [c1]), s1, zp - 128 if elem == TensorProto.INT8 else 0)
    wdw = rng.normal(0, 0.4, (8, 1, 3, 3)).astype(np.float32)
    wd2 = b.weight(wdw, per_channel)
    c2 = b.qdq(b.node("Conv", [r1, wd2, b.bias(rng.normal(0, 0.2, 8), s1, b.scales_of(wd2))], group=8,
                      pads=[1, 1, 1, 1]), s2, zp + 5)
    add = b.qdq(b.node("Add", [c2, r1]), s3, zp - 2)
    mp = b.node("MaxPool", [add], kernel_shape=[2, 2], strides=[2, 2])
    w3 = rng.normal(0, 0.3, (8, 8, 1, 1)).astype(np.float32)
    wd3 = b.weight(w3, per_channel)
    c3 = b.qdq(b.node("Conv", [mp, wd3, b.bias(rng.normal(0, 0.1, 8), s3, b.scales_of(wd3))]), s4, zp)
    gap = b.qdq(b.node("GlobalAveragePool", [c3]), s4, zp)
    flat = b.node("Flatten", [gap])
    wf = rng.normal(0, 0.3, (10, 8)).astype(np.float32)
    wdf = b.weight(wf, False)
    fc = b.qdq(b.node("Gemm", [flat, wdf, b.bias(rng.normal(0, 0.1, 10), s4, b.scales_of(wdf))], transB=1),
               s5, zp + 1)
    b.nodes.append(helper.make_node("Identity", [fc], ["y"]))
    return make_model(b.nodes, {"x": (TensorProto.FLOAT, [1, 3, 12, 12])}, {"y": (TensorProto.FLOAT, [1, 10])},
                      b.inits, opset=17)


__all__ = ["QDQ", "make_model", "onnx", "qdq_cnn"]
