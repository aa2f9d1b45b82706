"""Golden kernels: shape, layout, slicing, reduction, indexing and lookup operations.

Spec: ../shared/spec/OperationType.aidl.
"""

from __future__ import annotations

import numpy as np

from ..quant import round_half_away
from ..registry import Sig, define
from .common import F16, F32, I32, INT32, Q8A, Q8AS, QUANT8, check_same_quant, qrange


def validate_reshape(v) -> None:
    x, shape = v.inp(0), v.inp(1)
    if shape.rank is not None and shape.rank != 1:
        v.fail(f"has rank {shape.rank}, but the shape must be a 1-D tensor", input=1)
    check_same_quant(v, 0, v.out(0))
    s = v.const(1)
    if s is not None:
        if (s == -1).sum() > 1:
            v.fail(f"is {s.tolist()}, but at most one component of the shape may be -1", input=1)
        if ((s < -1) | (s == 0) & False).any():
            v.fail(f"is {s.tolist()}, but components must be positive or -1", input=1)
        if x.fully_specified:
            total = int(np.prod(x.dimensions))
            known = int(np.prod(s[s != -1])) if (s != -1).any() else 1
            if (-1 in s and (known == 0 or total % known)) or (-1 not in s and known != total):
                v.fail(f"is {s.tolist()}, which does not hold the input's {total} elements", input=1)


@define("RESHAPE", [Sig(("T", I32), ("T",), types={"T": (F32, F16, Q8A, Q8AS, I32)})], validate_reshape)
def reshape(k):
    """RESHAPE: the same values in a new shape (one -1 component is inferred)."""
    x = k.inputs[0]
    shape = [int(s) for s in k.inputs[1].reshape(-1)]
    try:
        return [x.reshape(shape)]
    except ValueError:
        k.fail(f"cannot reshape {list(x.shape)} into {shape}")


def validate_concatenation(v) -> None:
    n = v.n_in - 1
    first = v.inp(0)
    axis = v.scalar(n)
    rank = first.rank
    if rank is not None and rank > 4:
        v.fail(f"has rank {rank}, but the operation supports ranks up to 4", input=0)
    if axis is not None and rank is not None and not -rank <= axis < rank:
        v.fail(f"is {axis}, outside the range [-{rank}, {rank}) of the inputs' rank", input=n)
    for i in range(1, n):
        o = v.inp(i)
        if rank is not None and o.rank is not None and o.rank != rank:
            v.fail(f"has rank {o.rank}, but input 0 has rank {rank}", input=i)
        if axis is not None and rank and o.dimensions and first.dimensions:
            ax = axis % rank
            for d, (p, q) in enumerate(zip(first.dimensions, o.dimensions)):
                if d != ax and p and q and p != q:
                    v.fail(f"has shape {list(o.dimensions)}, which differs from input 0's "
                           f"{list(first.dimensions)} outside the concatenation axis", input=i)


def requantize_float_scaling(x: np.ndarray, in_op, out_op) -> np.ndarray:
    """TFLite ``ConcatenationWithScaling`` per-input rescale, in float32 as the reference does::

        scale = s_in / s_out;  bias = -z_in * scale
        out = clamp(round_half_away(float32(q) * scale + bias) + z_out, type range)

    An input whose scale and zero point equal the output's is copied unchanged.
    """
    if in_op.scale == out_op.scale and in_op.zero_point == out_op.zero_point:
        return x
    scale = np.float32(np.float32(in_op.scale) * np.float32(1.0 / np.float32(out_op.scale)))
    bias = np.float32(-in_op.zero_point * scale)
    val = round_half_away((x.astype(np.float32) * scale + bias).astype(np.float32)) + out_op.zero_point
    lo, hi = qrange(out_op.type)
    return np.clip(val, lo, hi).astype(out_op.info.dtype)


@define("CONCATENATION", [Sig(("T", INT32), ("T",), types={"T": (F32, F16, Q8A, Q8AS)}, variadic=True)],
        validate_concatenation)
def concatenation(k):
    """CONCATENATION along ``axis`` (negative counts from the end). Quantized inputs whose scale or
    zero point differ from the output's are rescaled with :func:`requantize_float_scaling`."""
    n = len(k.inputs) - 1
    axis = k.scalar(n)
    out_op = k.out_ops[0]
    parts = k.inputs[:n]
    if out_op.type in QUANT8:
        parts = [requantize_float_scaling(p, o, out_op) for p, o in zip(parts, k.in_ops[:n])]
    return [np.concatenate(parts, axis=axis)]
