"""Golden kernels: shape, layout, slicing, reduction, indexing and lookup operations.

Spec: ../shared/spec/OperationType.aidl (the sections of each operation named below). Facts about
edge cases and arithmetic come from NNAPI's reference CPU kernels (``nn/common/operations`` and
``OperationsUtils.cpp``) and TFLite's ``reference_ops``; each kernel's docstring writes them down.

Conventions shared by every operation here:

* Validators check what the declared operands make known (a 0 dimension or an unknown rank is
  skipped) and the values of constant inputs; kernels check the same rules again on the run-time
  arrays and reject with ``k.fail`` (an input that was not a constant is only known then).
* Where the spec says an output of rank 0 would result (every dimension squeezed, shrunk or
  reduced), the output has shape ``[1]``.
* Quantized outputs keep the input's scale and zero point, except CONCATENATION, whose inputs may
  differ from the output (rescaled by :func:`requantize_float_scaling`).
"""

from __future__ import annotations

import numpy as np

from ..quant import multiply_by_quantized_multiplier, quantize_multiplier, round_half_away, wrap_int32
from ..registry import Sig, define
from .common import (
    BOOL,
    BOOL8,
    F16,
    F32,
    FLOAT16,
    FLOAT32,
    I32,
    INT32,
    Q8A,
    Q8AS,
    Q8PC,
    Q8S,
    Q16A,
    Q16S,
    QUANT8,
    check_same_quant,
    qrange,
)

# --------------------------------------------------------------------------------------------
# Signatures: the operand types each op accepts, grouped by the NNAPI version that added them.

#: Operations introduced in V1_2 that also take int32 tensors.
V12_TYPES = {"V1_2": (F16, F32, I32, Q8A), "V1_3": (Q8AS,)}
#: Every tensor type RANK accepts.
RANK_TYPES = (F16, F32, I32, Q8A, Q16S, BOOL8, Q8PC, Q16A, Q8S, Q8AS)


def classic_types(since: str) -> dict:
    """The usual type table of an operation added in ``since`` (V1_0 or V1_1): float32 and quant8
    from then, float16 since V1_2, quant8 signed since V1_3."""
    return {since: (F32, Q8A), "V1_2": (F16,), "V1_3": (Q8AS,)}


def typed_sigs(inputs: tuple, outputs: tuple, table: dict, optional: int = 0, **kw) -> list[Sig]:
    """One :class:`Sig` per version group of ``table`` (``{since: types}``) for type variable T.

    ``optional`` trailing inputs are listed as separate signatures without them (rather than with
    ``Sig.optional``), so that positions line up when a model leaves them out entirely.
    """
    return [Sig(inputs[:len(inputs) - drop], outputs, types={"T": types}, since=since, **kw)
            for drop in range(optional + 1) for since, types in table.items()]


# --------------------------------------------------------------------------------------------
# Shared validation and run-time helpers.


def dims_of(o) -> tuple | None:
    """An operand's declared dimensions, or ``None`` when its rank is unknown."""
    if o.dimensions is None or (o.info.is_tensor and len(o.dimensions) == 0):
        return None
    return tuple(o.dimensions)


def rank_of(o) -> int | None:
    d = dims_of(o)
    return None if d is None else len(d)


def check_max_rank(v, i: int, hi: int | None = 4, lo: int = 1) -> int | None:
    """Input ``i`` must have rank ``lo`` to ``hi`` (``None``: no limit) when known; returns it."""
    r = rank_of(v.inp(i))
    if r is not None and hi is None and r < lo:
        v.fail(f"has rank {r}, but the operation requires rank {lo} or more", input=i)
    if r is not None and hi is not None and not lo <= r <= hi:
        v.fail(f"has rank {r}, but the operation requires rank {lo}" if lo == hi else
               f"has rank {r}, but the operation supports ranks {lo} to {hi}", input=i)
    return r


def check_vector(v, i: int, length: int | None = None, what: str = "") -> np.ndarray | None:
    """Input ``i`` must be a 1-D tensor (of ``length`` elements when both are known); returns its
    constant value or ``None``."""
    d = dims_of(v.inp(i))
    if d is not None and len(d) != 1:
        v.fail(f"has rank {len(d)}, but {what or 'it'} must be a 1-D tensor", input=i)
    if length is not None and d is not None and d[0] and d[0] != length:
        v.fail(f"has {d[0]} elements, but {what or 'it'} must have one per input dimension ({length})",
               input=i)
    c = v.const(i) if v.has(i) else None
    return None if c is None else c.reshape(-1).astype(np.int64)


def check_axis(v, i: int, rank: int | None, extra: int = 0) -> int | None:
    """Constant scalar axis input ``i`` must lie in ``[-(rank+extra), rank+extra)``; returns it
    made non-negative (``None`` when not constant or the rank is unknown)."""
    axis = v.scalar(i)
    if axis is None or rank is None:
        return None
    n = rank + extra
    if not -n <= axis < n:
        v.fail(f"is {axis}, outside the range [{-n}, {n}) allowed for a rank-{rank} input", input=i)
    return axis % n


def check_output_dims(v, expected, j: int = 0) -> None:
    """The declared output ``j`` must agree with the shape the operation computes (entries of
    ``expected`` that are ``None`` or 0 are unknown and skipped)."""
    d = dims_of(v.out(j))
    if d is None or expected is None:
        return
    expected = tuple(expected)
    if len(d) != len(expected) or any(a and b and a != b for a, b in zip(d, expected)):
        shown = [e if e else "?" for e in expected]
        v.fail(f"has shape {list(d)}, but the operation produces shape {shown}", output=j)


def same_quant_all_outputs(v) -> None:
    for j in range(v.n_out):
        check_same_quant(v, 0, v.out(j), what=f"output {j}")


def at_least_1d(x: np.ndarray) -> np.ndarray:
    """The spec's rule for results that would be rank 0: shape ``[1]``."""
    return x.reshape(1) if x.ndim == 0 else x


def run_axis(k, axis: int, rank: int, extra: int = 0) -> int:
    n = rank + extra
    if not -n <= axis < n:
        k.fail(f"the axis is {axis}, outside the range [{-n}, {n}) allowed for a rank-{rank} input")
    return axis % n


def int_vector(k, i: int, length: int | None = None, what: str = "it") -> np.ndarray:
    a = np.asarray(k.inputs[i])
    if a.ndim != 1:
        k.fail(f"input {i} has rank {a.ndim}, but {what} must be a 1-D tensor")
    if length is not None and a.size != length:
        k.fail(f"input {i} has {a.size} elements, but {what} must have one per input dimension "
               f"({length})")
    return a.astype(np.int64)


def zero_value(op) -> np.generic:
    """The logical zero of an operand's type: the zero point for quantized types, else 0."""
    return op.info.dtype.type(op.zero_point if op.type in QUANT8 else 0)


# --------------------------------------------------------------------------------------------
# RESHAPE, SQUEEZE, EXPAND_DIMS, TRANSPOSE


def reshape_dims(numel: int | None, shape) -> tuple[tuple | None, str | None]:
    """The output shape of RESHAPE for an input of ``numel`` elements (``None`` = unknown), or an
    error sentence."""
    s = [int(x) for x in shape]
    if sum(1 for x in s if x == -1) > 1:
        return None, f"the shape {s} has more than one -1 component"
    if any(x < -1 for x in s):
        return None, f"the shape {s} has a negative component other than -1"
    known = int(np.prod([x for x in s if x != -1], dtype=np.int64))
    if numel is None:
        return tuple(0 if x == -1 else x for x in s), None
    if -1 in s:
        if known == 0 or numel % known:
            return None, f"the shape {s} cannot hold the input's {numel} elements"
        return tuple(numel // known if x == -1 else x for x in s), None
    if known != numel:
        return None, f"the shape {s} does not hold the input's {numel} elements"
    return tuple(s), None


def validate_reshape(v) -> None:
    x = v.inp(0)
    check_max_rank(v, 0)
    s = check_vector(v, 1, what="the shape")
    check_same_quant(v, 0, v.out(0))
    if s is not None:
        numel = int(np.prod(x.dimensions)) if x.fully_specified else None
        out, err = reshape_dims(numel, s)
        if err:
            v.fail(err, input=1)
        check_output_dims(v, out)


@define("RESHAPE", typed_sigs(("T", I32), ("T",), {"V1_0": (F32, Q8A), "V1_2": (F16,), "V1_3": (Q8AS,),
                                                    "FL_6": (I32,)}), validate_reshape)
def reshape(k):
    """RESHAPE: the same values in row-major order in a new shape; one -1 component is inferred
    so that the element count stays the same."""
    x = k.inputs[0]
    out, err = reshape_dims(x.size, int_vector(k, 1, what="the shape"))
    if err:
        k.fail(err)
    return [x.reshape(out)]


def squeeze_axes(dims, axes) -> tuple[tuple, str | None]:
    """The dimensions SQUEEZE removes: every size-1 dimension when ``axes`` is empty, else the
    listed ones (negative counts from the end), which must have size 1 (0 = unknown passes)."""
    r = len(dims)
    if axes is None or len(axes) == 0:
        return tuple(d for d in range(r) if dims[d] == 1), None
    out = set()
    for a in (int(a) for a in axes):
        if not -r <= a < r:
            return (), f"the axis {a} is outside the range [{-r}, {r}) of the input's rank {r}"
        if dims[a % r] not in (1, 0):
            return (), f"dimension {a % r} has size {dims[a % r]}, but only size-1 dimensions can be squeezed"
        out.add(a % r)
    return tuple(sorted(out)), None


def validate_squeeze(v) -> None:
    check_max_rank(v, 0)
    check_same_quant(v, 0, v.out(0))
    axes = check_vector(v, 1, what="the axes") if v.has(1) else None
    d = dims_of(v.inp(0))
    if d is None or (v.has(1) and axes is None):
        return
    drop, err = squeeze_axes(d, axes)
    if err:
        v.fail(err, input=1)
    if (axes is None or len(axes) == 0) and 0 in d:
        return  # an unknown dimension may be 1: the output rank is only known at run time
    check_output_dims(v, tuple(x for i, x in enumerate(d) if i not in drop) or (1,))


@define("SQUEEZE", typed_sigs(("T", I32), ("T",), classic_types("V1_1"),
                              optional=1), validate_squeeze)
def squeeze(k):
    """SQUEEZE: removes size-1 dimensions, all of them when the axes input is omitted or empty."""
    x = k.inputs[0]
    axes = int_vector(k, 1, what="the axes") if k.has(1) else None
    drop, err = squeeze_axes(x.shape, axes)
    if err:
        k.fail(err)
    if any(x.shape[d] != 1 for d in drop):
        k.fail(f"the input has shape {list(x.shape)}, and only size-1 dimensions can be squeezed")
    return [at_least_1d(np.squeeze(x, axis=drop))]


def validate_expand_dims(v) -> None:
    r = check_max_rank(v, 0, hi=None)
    check_same_quant(v, 0, v.out(0))
    axis = check_axis(v, 1, r, extra=1)
    d = dims_of(v.inp(0))
    if axis is not None and d is not None:
        check_output_dims(v, d[:axis] + (1,) + d[axis:])


@define("EXPAND_DIMS", typed_sigs(("T", INT32), ("T",), V12_TYPES), validate_expand_dims)
def expand_dims(k):
    """EXPAND_DIMS: inserts a size-1 dimension at ``axis`` in ``[-(n+1), n+1)`` (negative counts
    from the end of the output's dimensions)."""
    x = k.inputs[0]
    return [np.expand_dims(x, run_axis(k, k.scalar(1), x.ndim, extra=1))]


def perm_error(perm, rank: int) -> str | None:
    p = [int(a) for a in perm]
    if sorted(p) != list(range(rank)):
        return f"the permutation {p} is not a permutation of the {rank} input dimensions"
    return None


def validate_transpose(v) -> None:
    r = check_max_rank(v, 0)
    check_same_quant(v, 0, v.out(0))
    if not v.has(1):
        if r is not None:
            check_output_dims(v, dims_of(v.inp(0))[::-1])
        return
    perm = check_vector(v, 1, what="the permutation")
    if perm is not None and perm.size and r is not None:
        err = perm_error(perm, r)
        if err:
            v.fail(err, input=1)
        d = dims_of(v.inp(0))
        check_output_dims(v, [d[p] for p in perm])


@define("TRANSPOSE", typed_sigs(("T", I32), ("T",), classic_types("V1_1"),
                                optional=1), validate_transpose)
def transpose(k):
    """TRANSPOSE: output dimension ``i`` is input dimension ``perm[i]``; an omitted perm reverses
    the dimensions, and so does an empty one (CTS feeds an omitted perm as a 0-element input).
    Zero-sized inputs are allowed."""
    x = k.inputs[0]
    if not k.has(1) or np.asarray(k.inputs[1]).size == 0:
        return [np.transpose(x)]
    perm = int_vector(k, 1, x.ndim, what="the permutation")
    err = perm_error(perm, x.ndim)
    if err:
        k.fail(err)
    return [np.transpose(x, perm)]


# --------------------------------------------------------------------------------------------
# CONCATENATION, SPLIT, TILE


def validate_concatenation(v) -> None:
    n = v.n_in - 1
    rank = check_max_rank(v, 0)
    axis = check_axis(v, n, rank)
    dims = [dims_of(v.inp(i)) for i in range(n)]
    for i in range(1, n):
        d = dims[i]
        if rank is not None and d is not None and len(d) != rank:
            v.fail(f"has rank {len(d)}, but input 0 has rank {rank}", input=i)
        if axis is not None and d is not None and dims[0] is not None:
            for a, (p, q) in enumerate(zip(dims[0], d)):
                if a != axis and p and q and p != q:
                    v.fail(f"has shape {list(d)}, which differs from input 0's {list(dims[0])} outside "
                           f"the concatenation axis {axis}", input=i)
    if axis is not None and all(d is not None for d in dims):
        out = [max((d[a] for d in dims), default=0) for a in range(rank)]
        out[axis] = 0 if any(d[axis] == 0 for d in dims) else sum(d[axis] for d in dims)
        check_output_dims(v, out)


def requantize_float_scaling(x: np.ndarray, in_op, out_op) -> np.ndarray:
    """TFLite ``reference_ops::ConcatenationWithScaling`` per-input rescale, in float32 as the
    reference does (``std::round`` rounds half away from zero)::

        inv = float32(1) / float32(s_out)
        scale = float32(s_in) * inv;  bias = float32(-z_in) * scale
        out = clamp(int32(round(float32(q) * scale + bias)) + z_out, 0, 255)

    An input whose scale and zero point equal the output's is copied unchanged. NNAPI runs
    TENSOR_QUANT8_ASYMM_SIGNED through the uint8 kernel: values and zero points are shifted by
    +128 first and the result by -128 after, which is what is computed here too.
    """
    if in_op.scale == out_op.scale and in_op.zero_point == out_op.zero_point:
        return x
    shift = 128 if out_op.type is Q8AS else 0
    inv = np.float32(1) / np.float32(out_op.scale)
    scale = np.float32(in_op.scale) * inv
    bias = np.float32(-(in_op.zero_point + shift)) * scale
    q = (x.astype(np.int32) + shift).astype(np.float32)
    val = round_half_away(q * scale + bias).astype(np.int64) + out_op.zero_point + shift
    return (np.clip(val, 0, 255) - shift).astype(out_op.info.dtype)


@define("CONCATENATION", typed_sigs(("T", INT32), ("T",), classic_types("V1_0"),
                                    variadic=True), validate_concatenation)
def concatenation(k):
    """CONCATENATION along ``axis`` (negative counts from the end); zero-sized inputs allowed.
    Quantized inputs whose scale or zero point differ from the output's are rescaled with
    :func:`requantize_float_scaling`."""
    n = len(k.inputs) - 1
    parts = k.inputs[:n]
    axis = run_axis(k, k.scalar(n), parts[0].ndim)
    out_op = k.out_ops[0]
    for i, p in enumerate(parts[1:], 1):
        if p.ndim != parts[0].ndim or any(a != b for d, (a, b) in enumerate(zip(p.shape, parts[0].shape))
                                          if d != axis):
            k.fail(f"input {i} has shape {list(p.shape)}, which does not match input 0's "
                   f"{list(parts[0].shape)} outside the concatenation axis {axis}")
    if out_op.type in QUANT8:
        parts = [requantize_float_scaling(p, o, out_op) for p, o in zip(parts, k.in_ops[:n])]
    return [np.concatenate(parts, axis=axis)]


def validate_split(v) -> None:
    r = check_max_rank(v, 0, hi=None)
    axis = check_axis(v, 1, r)
    num = v.scalar(2)
    same_quant_all_outputs(v)
    if num is not None:
        if num != v.n_out:
            v.fail(f"is {num}, but the operation has {v.n_out} outputs (one per split)", input=2)
        d = dims_of(v.inp(0))
        if axis is not None and d is not None and d[axis]:
            if d[axis] % num:
                v.fail(f"has size {d[axis]} along axis {axis}, which {num} splits do not divide evenly",
                       input=0)
            for j in range(v.n_out):
                check_output_dims(v, d[:axis] + (d[axis] // num,) + d[axis + 1:], j)


@define("SPLIT", typed_sigs(("T", INT32, INT32), ("T",), V12_TYPES, variadic_outputs=True), validate_split)
def split(k):
    """SPLIT: ``num_splits`` equal parts along ``axis`` (negative counts from the end); the size
    along the axis must be a multiple of ``num_splits``."""
    x = k.inputs[0]
    axis = run_axis(k, k.scalar(1), x.ndim)
    num = k.scalar(2)
    if num != len(k.out_ops):
        k.fail(f"num_splits is {num}, but the operation has {len(k.out_ops)} outputs")
    if num < 1 or x.shape[axis] % num:
        k.fail(f"the input has size {x.shape[axis]} along axis {axis}, which {num} splits do not "
               f"divide evenly")
    return list(np.split(x, num, axis=axis))


def validate_tile(v) -> None:
    r = check_max_rank(v, 0, hi=None)
    check_same_quant(v, 0, v.out(0))
    m = check_vector(v, 1, length=r, what="the multiples")
    if m is not None:
        if (m < 0).any():
            v.fail(f"is {m.tolist()}, but multiples must not be negative", input=1)
        d = dims_of(v.inp(0))
        if d is not None:
            check_output_dims(v, [a * b for a, b in zip(d, m)])


@define("TILE", typed_sigs(("T", I32), ("T",), V12_TYPES), validate_tile)
def tile(k):
    """TILE: ``out.shape[i] = in.shape[i] * multiples[i]``, the input repeated along each axis."""
    x = k.inputs[0]
    m = int_vector(k, 1, x.ndim, what="the multiples")
    if (m < 0).any():
        k.fail(f"the multiples {m.tolist()} must not be negative")
    return [np.tile(x, m)]


# --------------------------------------------------------------------------------------------
# PAD, PAD_V2


def pad_error(p: np.ndarray, rank: int) -> str | None:
    if p.shape != (rank, 2):
        return f"the paddings have shape {list(p.shape)}, but must be [{rank}, 2] for a rank-{rank} input"
    if (p < 0).any():
        return f"the paddings {p.tolist()} must not be negative"
    return None


def validate_pad(v) -> None:
    r = check_max_rank(v, 0)
    check_same_quant(v, 0, v.out(0))
    pd = dims_of(v.inp(1))
    if pd is not None and (len(pd) != 2 or (pd[1] and pd[1] != 2) or (r is not None and pd[0]
                                                                      and pd[0] != r)):
        v.fail(f"has shape {list(pd)}, but the paddings must be a [rank, 2] tensor", input=1)
    p = v.const(1)
    d = dims_of(v.inp(0))
    if p is not None and r is not None:
        err = pad_error(p.astype(np.int64), r)
        if err:
            v.fail(err, input=1)
        if d is not None:
            check_output_dims(v, [x + a + b if x else 0 for x, (a, b) in zip(d, p.reshape(r, 2))])
    if v.name == "PAD_V2" and v.inp(0).type in QUANT8:
        value = v.scalar(2)
        lo, hi = qrange(v.inp(0).type)
        if value is not None and not lo <= value <= hi:
            v.fail(f"is {value}, outside the range [{lo}, {hi}] of the input's quantized type", input=2)


def pad_kernel(k, value) -> np.ndarray:
    x = k.inputs[0]
    p = np.asarray(k.inputs[1]).astype(np.int64)
    err = pad_error(p, x.ndim)
    if err:
        k.fail(err)
    return np.pad(x, [tuple(r) for r in p], mode="constant", constant_values=value)


@define("PAD", typed_sigs(("T", I32), ("T",), classic_types("V1_1")),
        validate_pad)
def pad(k):
    """PAD: ``out.shape[i] = before[i] + in.shape[i] + after[i]``; the padding holds the logical
    zero: 0.0 for floats, the zero point for quantized types (defined since V1_2)."""
    return [pad_kernel(k, zero_value(k.out_ops[0]))]


@define("PAD_V2", [
    Sig((F32, I32, FLOAT32), (F32,), since="V1_2"),
    Sig((F16, I32, FLOAT16), (F16,), since="V1_2"),
    Sig((Q8A, I32, INT32), (Q8A,), since="V1_2"),
    Sig((Q8AS, I32, INT32), (Q8AS,), since="V1_3"),
], validate_pad)
def pad_v2(k):
    """PAD_V2: PAD with the value of input 2 (for quantized tensors an INT32 holding a stored
    quantized value of the input's type, which must be in the type's range)."""
    value = k.scalar(2)
    if k.in_ops[0].type in QUANT8:
        lo, hi = qrange(k.in_ops[0].type)
        if not lo <= value <= hi:
            k.fail(f"the pad value {value} is outside the range [{lo}, {hi}] of the input's type")
    return [pad_kernel(k, k.inputs[0].dtype.type(value))]


# --------------------------------------------------------------------------------------------
# SLICE, STRIDED_SLICE


def slice_plan(dims, begin, size) -> tuple[list | None, str | None]:
    """SLICE bounds per axis (``OperationsUtils``/``Slice.cpp`` prepare): ``0 <= begin <= dim``,
    a size of -1 means ``dim - begin``, and ``0 <= size``, ``begin + size <= dim``."""
    out = []
    for a, (d, b, s) in enumerate(zip(dims, begin, size)):
        b, s = int(b), int(s)
        if s == -1:
            s = d - b
        if b < 0 or b > d:
            return None, f"begin[{a}] is {b}, outside [0, {d}] for dimension {a} of size {d}"
        if s < 0 or b + s > d:
            return None, (f"size[{a}] is {s} from begin {b}, which does not fit dimension {a} "
                          f"of size {d}")
        out.append((b, s))
    return out, None


def validate_slice(v) -> None:
    r = check_max_rank(v, 0, hi=None)
    check_same_quant(v, 0, v.out(0))
    begin = check_vector(v, 1, length=r, what="begin")
    size = check_vector(v, 2, length=r, what="size")
    d = dims_of(v.inp(0))
    if begin is not None and (begin < 0).any():
        v.fail(f"is {begin.tolist()}, but begin values must not be negative", input=1)
    if size is not None and (size < -1).any():
        v.fail(f"is {size.tolist()}, but sizes must be -1 or not negative", input=2)
    if begin is not None and size is not None and d is not None and all(d):
        plan, err = slice_plan(d, begin, size)
        if err:
            v.fail(err, input=2)
        check_output_dims(v, [s for _, s in plan])


@define("SLICE", typed_sigs(("T", I32, I32), ("T",), V12_TYPES), validate_slice)
def slice_(k):
    """SLICE: ``out = in[begin[0]:begin[0]+size[0], ...]``; size -1 takes the rest of the axis.
    Zero-sized inputs are allowed."""
    x = k.inputs[0]
    begin = int_vector(k, 1, x.ndim, what="begin")
    size = int_vector(k, 2, x.ndim, what="size")
    plan, err = slice_plan(x.shape, begin, size)
    if err:
        k.fail(err)
    return [x[tuple(slice(b, b + s) for b, s in plan)]]


def clamped_index(index: int, dim: int, positive: bool) -> int:
    """NNAPI ``ClampedIndex``: a begin/end value made non-negative and clamped to the axis, with
    the end of a negative-stride slice allowed to be -1 (before the first element)."""
    if positive:
        return dim if index >= dim else min(max(index, -dim), dim) % dim if dim else 0
    if index < -dim:
        return -1
    return min(max(index, -dim), dim - 1) % dim if dim else -1


def strided_slice_plan(dims, begin, end, strides, begin_mask: int, end_mask: int,
                       shrink_mask: int) -> tuple[list | None, list | None, str | None]:
    """STRIDED_SLICE per axis ``i`` (``stridedSlicePrepare`` + TFLite ``StridedSlice``)::

        stride != 0
        b = (stride > 0 ? 0 : dim-1)  if begin_mask bit i else clamped_index(begin[i])
        e = (stride > 0 ? dim : -1)   if end_mask bit i   else clamped_index(end[i])
        len = max(0, ceil((e - b) / stride));   indices b, b+stride, ..., len of them
        shrink_axis_mask bit i: stride must be > 0 and len must be 1; the axis is dropped

    Returns (index arrays per axis, output shape, error sentence).
    """
    idx, out = [], []
    for a, dim in enumerate(dims):
        stride = int(strides[a])
        if stride == 0:
            return None, None, f"strides[{a}] is 0, but strides must be non-zero"
        pos = stride > 0
        b = (0 if pos else dim - 1) if begin_mask >> a & 1 else clamped_index(int(begin[a]), dim, pos)
        e = (dim if pos else -1) if end_mask >> a & 1 else clamped_index(int(end[a]), dim, pos)
        n = max(0, -(-(e - b) // stride))
        if shrink_mask >> a & 1:
            if not pos:
                return None, None, (f"strides[{a}] is {stride}, but an axis in shrink_axis_mask "
                                    f"needs a positive stride")
            if n != 1:
                return None, None, (f"axis {a} is in shrink_axis_mask, but its slice [{b}:{e}:{stride}] "
                                    f"has {n} elements instead of 1")
        else:
            out.append(n)
        idx.append(b + stride * np.arange(n))
    return idx, out, None


def validate_strided_slice(v) -> None:
    r = check_max_rank(v, 0)
    check_same_quant(v, 0, v.out(0))
    vecs = [check_vector(v, i, length=r, what=w) for i, w in ((1, "begin"), (2, "end"), (3, "strides"))]
    if vecs[2] is not None and (vecs[2] == 0).any():
        v.fail(f"is {vecs[2].tolist()}, but strides must be non-zero", input=3)
    masks = [v.scalar(i) for i in (4, 5, 6)]
    d = dims_of(v.inp(0))
    if d is not None and all(d) and all(x is not None for x in vecs + masks):
        _, out, err = strided_slice_plan(d, *vecs, *masks)
        if err:
            v.fail(err, input=6 if "shrink" in err else 3)
        check_output_dims(v, out or [1])


@define("STRIDED_SLICE", typed_sigs(("T", I32, I32, I32, INT32, INT32, INT32), ("T",),
                                    classic_types("V1_1")),
        validate_strided_slice)
def strided_slice(k):
    """STRIDED_SLICE: the elements ``in[b0 + s0*i0, b1 + s1*i1, ...]`` of :func:`strided_slice_plan`,
    axes in shrink_axis_mask removed (all of them: shape ``[1]``)."""
    x = k.inputs[0]
    vecs = [int_vector(k, i, x.ndim, what=w) for i, w in ((1, "begin"), (2, "end"), (3, "strides"))]
    idx, out, err = strided_slice_plan(x.shape, *vecs, k.scalar(4), k.scalar(5), k.scalar(6))
    if err:
        k.fail(err)
    return [x[np.ix_(*idx)].reshape(out or [1])]


# --------------------------------------------------------------------------------------------
# GATHER, EMBEDDING_LOOKUP, HASHTABLE_LOOKUP


def validate_gather(v) -> None:
    r = check_max_rank(v, 0, hi=None)
    check_same_quant(v, 0, v.out(0))
    axis = check_axis(v, 1, r)
    idx = v.const(2)
    d = dims_of(v.inp(0))
    if axis is not None and d is not None and d[axis] and idx is not None and idx.size:
        bad = idx[(idx < 0) | (idx >= d[axis])]
        if bad.size:
            v.fail(f"holds index {int(bad[0])}, outside [0, {d[axis]}) of axis {axis}", input=2)
    di = dims_of(v.inp(2))
    if axis is not None and d is not None and di is not None:
        check_output_dims(v, d[:axis] + di + d[axis + 1:])


@define("GATHER", typed_sigs(("T", INT32, I32), ("T",), V12_TYPES), validate_gather)
def gather(k):
    """GATHER: ``out[a.., i.., b..] = in[a.., indices[i..], b..]`` along ``axis``; every index must
    lie in ``[0, in.shape[axis])``."""
    x, idx = k.inputs[0], np.asarray(k.inputs[2])
    axis = run_axis(k, k.scalar(1), x.ndim)
    bad = idx[(idx < 0) | (idx >= x.shape[axis])]
    if bad.size:
        k.fail(f"the index {int(bad[0])} is outside [0, {x.shape[axis]}) of axis {axis}")
    return [np.take(x, idx, axis=axis)]


def validate_embedding_lookup(v) -> None:
    check_vector(v, 0, what="the lookups")
    check_same_quant(v, 1, v.out(0), what="the output")
    d = dims_of(v.inp(1))
    if d is not None and len(d) < 2:
        v.fail(f"has rank {len(d)}, but the values must have rank 2 or more", input=1)
    lk = v.const(0)
    if lk is not None and d is not None and d[0]:
        bad = lk[(lk < 0) | (lk >= d[0])]
        if bad.size:
            v.fail(f"holds lookup {int(bad[0])}, outside the {d[0]} rows of the values", input=0)
    dl = dims_of(v.inp(0))
    if d is not None and dl is not None:
        check_output_dims(v, dl + d[1:])


@define("EMBEDDING_LOOKUP", typed_sigs((I32, "T"), ("T",), {"V1_0": (F32,), "V1_2": (I32, Q8A),
                                                              "V1_3": (F16, Q8AS)}),
        validate_embedding_lookup)
def embedding_lookup(k):
    """EMBEDDING_LOOKUP: ``out[i] = values[lookups[i]]``; a lookup outside the rows fails."""
    lk, values = int_vector(k, 0, what="the lookups"), k.inputs[1]
    bad = lk[(lk < 0) | (lk >= values.shape[0])]
    if bad.size:
        k.fail(f"the lookup {int(bad[0])} is outside the {values.shape[0]} rows of the values")
    return [values[lk]]


def validate_hashtable_lookup(v) -> None:
    check_vector(v, 0, what="the lookups")
    keys = check_vector(v, 1, what="the keys")
    dk, dv = dims_of(v.inp(1)), dims_of(v.inp(2))
    check_same_quant(v, 2, v.out(0), what="the output")
    hits = v.out(1)
    if hits.scale != 1.0 or hits.zero_point != 0:
        v.fail(f"has scale {hits.scale:g} and zero point {hits.zero_point}, but the hits tensor must "
               f"have scale 1 and zero point 0", output=1)
    if dk is not None and dv is not None and dk[0] and dv[0] and dk[0] != dv[0]:
        v.fail(f"has {dv[0]} rows, but there are {dk[0]} keys (one row per key)", input=2)
    if keys is not None and (np.diff(keys) < 0).any():
        v.fail(f"is {keys.tolist()}, but the keys must be sorted in ascending order", input=1)
    dl = dims_of(v.inp(0))
    if dl is not None and dv is not None:
        check_output_dims(v, dl + dv[1:], 0)
        check_output_dims(v, dl, 1)


@define("HASHTABLE_LOOKUP", typed_sigs((I32, I32, "T"), ("T", Q8A), {"V1_0": (F32, I32, Q8A)}),
        validate_hashtable_lookup)
def hashtable_lookup(k):
    """HASHTABLE_LOOKUP: for each lookup, the row of ``values`` whose key equals it (binary search
    over the ascending keys); a miss gives a row of stored zeros (raw 0, not the zero point) and
    hit 0, a hit gives hit 1 (hits: TENSOR_QUANT8_ASYMM, scale 1, zero point 0)."""
    lk = int_vector(k, 0, what="the lookups")
    keys = int_vector(k, 1, what="the keys")
    values = k.inputs[2]
    if keys.size != values.shape[0]:
        k.fail(f"there are {keys.size} keys but {values.shape[0]} rows of values")
    if (np.diff(keys) < 0).any():
        k.fail("the keys must be sorted in ascending order")
    pos = np.minimum(np.searchsorted(keys, lk), max(keys.size - 1, 0))
    hit = (keys[pos] == lk) if keys.size else np.zeros(lk.shape, bool)
    rows = values[pos] if keys.size else np.zeros((lk.size,) + values.shape[1:], values.dtype)
    mask = hit.reshape((-1,) + (1,) * (values.ndim - 1))
    out = np.where(mask, rows, np.zeros((), values.dtype)).astype(values.dtype)
    return [out, hit.astype(np.uint8)]


# --------------------------------------------------------------------------------------------
# Layout: DEPTH_TO_SPACE, SPACE_TO_DEPTH, BATCH_TO_SPACE_ND, SPACE_TO_BATCH_ND, CHANNEL_SHUFFLE


def layout_of(v, layout_input: int) -> bool | None:
    """True for NCHW, False for NHWC (also when the optional input is absent), ``None`` when the
    layout is a run-time input."""
    if not v.has(layout_input):
        return False
    c = v.const(layout_input)
    return None if c is None else bool(c.reshape(-1)[0])


def nhwc_dims(v, i: int, layout_input: int) -> tuple | None:
    """Input ``i``'s known dimensions in NHWC order (``None`` if its rank or layout is unknown)."""
    d = dims_of(v.inp(i))
    nchw = layout_of(v, layout_input)
    if d is None or nchw is None or len(d) != 4:
        return None
    return (d[0], d[2], d[3], d[1]) if nchw else d


def to_layout(d, nchw: bool) -> tuple:
    return (d[0], d[3], d[1], d[2]) if nchw else tuple(d)


def layout_in(k, layout_input: int) -> tuple[np.ndarray, bool]:
    """The 4-D input in NHWC and whether the operation works in NCHW."""
    x = k.inputs[0]
    if x.ndim != 4:
        k.fail(f"the input has rank {x.ndim}, but the operation requires rank 4")
    nchw = bool(k.scalar(layout_input, False))
    return (x.transpose(0, 2, 3, 1) if nchw else x), nchw


def layout_out(y: np.ndarray, nchw: bool) -> np.ndarray:
    return y.transpose(0, 3, 1, 2) if nchw else y


def validate_block_op(v) -> None:
    """DEPTH_TO_SPACE / SPACE_TO_DEPTH: rank 4, block size >= 1 dividing the right dimensions."""
    check_max_rank(v, 0, lo=4)
    check_same_quant(v, 0, v.out(0))
    bs = v.scalar(1)
    if bs is None:
        return
    if bs < 1:
        v.fail(f"is {bs}, but the block size must be at least 1", input=1)
    d = nhwc_dims(v, 0, 2)
    if d is None:
        return
    n, h, w, c = d
    if v.name == "DEPTH_TO_SPACE":
        if c and c % (bs * bs):
            v.fail(f"has depth {c}, which block_size * block_size = {bs * bs} does not divide", input=0)
        out = (n, h * bs, w * bs, c // (bs * bs))
    else:
        for name, x in (("height", h), ("width", w)):
            if x and x % bs:
                v.fail(f"has {name} {x}, which the block size {bs} does not divide", input=0)
        out = (n, h // bs, w // bs, c * bs * bs)
    check_output_dims(v, to_layout(out, layout_of(v, 2)))


@define("DEPTH_TO_SPACE", typed_sigs(("T", INT32, BOOL), ("T",), classic_types("V1_0"),
                                     optional=1), validate_block_op)
def depth_to_space(k):
    """DEPTH_TO_SPACE (NHWC; NCHW via input 2 since V1_2)::

        out[b, h*bs + i, w*bs + j, c] = in[b, h, w, (i*bs + j) * C_out + c]
    """
    x, nchw = layout_in(k, 2)
    bs = k.scalar(1)
    n, h, w, c = x.shape
    if bs < 1 or c % (bs * bs):
        k.fail(f"the block size {bs} must be >= 1 and block_size * block_size must divide the depth {c}")
    y = x.reshape(n, h, w, bs, bs, c // (bs * bs)).transpose(0, 1, 3, 2, 4, 5)
    return [layout_out(y.reshape(n, h * bs, w * bs, c // (bs * bs)), nchw)]


@define("SPACE_TO_DEPTH", typed_sigs(("T", INT32, BOOL), ("T",), classic_types("V1_0"),
                                     optional=1), validate_block_op)
def space_to_depth(k):
    """SPACE_TO_DEPTH (NHWC; NCHW via input 2 since V1_2), the inverse of DEPTH_TO_SPACE::

        out[b, h, w, (i*bs + j) * C + c] = in[b, h*bs + i, w*bs + j, c]
    """
    x, nchw = layout_in(k, 2)
    bs = k.scalar(1)
    n, h, w, c = x.shape
    if bs < 1 or h % bs or w % bs:
        k.fail(f"the block size {bs} must be >= 1 and divide the height {h} and width {w}")
    y = x.reshape(n, h // bs, bs, w // bs, bs, c).transpose(0, 1, 3, 2, 4, 5)
    return [layout_out(y.reshape(n, h // bs, w // bs, bs * bs * c), nchw)]


def block_error(block: np.ndarray) -> str | None:
    if block.shape != (2,):
        return f"the block shape has {block.size} values, but it must have 2 (height, width)"
    if (block < 1).any():
        return f"the block shape {block.tolist()} must have values >= 1"
    return None


def space_pad_error(p: np.ndarray) -> str | None:
    if p.shape != (2, 2):
        return f"the paddings have shape {list(p.shape)}, but they must be [2, 2]"
    if (p < 0).any():
        return f"the paddings {p.tolist()} must not be negative"
    return None


def validate_batch_space(v) -> None:
    """BATCH_TO_SPACE_ND / SPACE_TO_BATCH_ND: rank 4, block [2] >= 1, paddings [2, 2] >= 0."""
    to_space = v.name == "BATCH_TO_SPACE_ND"
    layout = 2 if to_space else 3
    check_max_rank(v, 0, lo=4)
    check_same_quant(v, 0, v.out(0))
    block = check_vector(v, 1, what="the block shape")
    if block is not None and (err := block_error(block)):
        v.fail(err, input=1)
    pads = None
    if not to_space and v.const(2) is not None:
        pads = v.const(2).astype(np.int64)
        if err := space_pad_error(pads):
            v.fail(err, input=2)
    d = nhwc_dims(v, 0, layout)
    if d is None or block is None:
        return
    n, h, w, c = d
    b0, b1 = (int(x) for x in block)
    if to_space:
        if n and n % (b0 * b1):
            v.fail(f"has batch {n}, which the block shape {block.tolist()} (product {b0 * b1}) does "
                   f"not divide", input=0)
        out = (n // (b0 * b1), h * b0, w * b1, c)
    else:
        if pads is None:
            return
        hp, wp = h + pads[0].sum(), w + pads[1].sum()
        for name, x, b, known in (("height", hp, b0, h), ("width", wp, b1, w)):
            if known and x % b:
                v.fail(f"has padded {name} {x}, which the block size {b} does not divide", input=0)
        out = (n * b0 * b1, hp // b0 if h else 0, wp // b1 if w else 0, c)
    check_output_dims(v, to_layout(out, layout_of(v, layout)))


@define("BATCH_TO_SPACE_ND", typed_sigs(("T", I32, BOOL), ("T",), {"V1_1": (F32, Q8A), "V1_2": (F16,),
                                                                    "V1_3": (Q8AS,)}, optional=1),
        validate_batch_space)
def batch_to_space_nd(k):
    """BATCH_TO_SPACE_ND (4-D; NHWC, or NCHW via input 2 since V1_2), block ``[b0, b1]``::

        out[b, h*b0 + i, w*b1 + j, c] = in[(i*b1 + j) * B_out + b, h, w, c],  B_out = B / (b0*b1)
    """
    x, nchw = layout_in(k, 2)
    block = int_vector(k, 1, what="the block shape")
    if err := block_error(block):
        k.fail(err)
    b0, b1 = (int(v) for v in block)
    n, h, w, c = x.shape
    if n % (b0 * b1):
        k.fail(f"the batch {n} is not a multiple of the block shape's product {b0 * b1}")
    nb = n // (b0 * b1)
    y = x.reshape(b0, b1, nb, h, w, c).transpose(2, 3, 0, 4, 1, 5).reshape(nb, h * b0, w * b1, c)
    return [layout_out(y, nchw)]


@define("SPACE_TO_BATCH_ND", typed_sigs(("T", I32, I32, BOOL), ("T",), {"V1_1": (F32, Q8A),
                                                                         "V1_2": (F16,), "V1_3": (Q8AS,)},
                                        optional=1), validate_batch_space)
def space_to_batch_nd(k):
    """SPACE_TO_BATCH_ND (4-D; NHWC, or NCHW via input 3 since V1_2): pads height and width with
    the logical zero (the zero point for quantized types, defined since V1_2), then with block
    ``[b0, b1]``::

        out[(i*b1 + j) * B + b, h, w, c] = padded[b, h*b0 + i, w*b1 + j, c]
    """
    x, nchw = layout_in(k, 3)
    block = int_vector(k, 1, what="the block shape")
    if err := block_error(block):
        k.fail(err)
    pads = np.asarray(k.inputs[2]).astype(np.int64)
    if err := space_pad_error(pads):
        k.fail(err)
    b0, b1 = (int(v) for v in block)
    x = np.pad(x, [(0, 0), tuple(pads[0]), tuple(pads[1]), (0, 0)], constant_values=zero_value(k.in_ops[0]))
    n, h, w, c = x.shape
    if h % b0 or w % b1:
        k.fail(f"the padded height {h} and width {w} must be multiples of the block shape {[b0, b1]}")
    y = x.reshape(n, h // b0, b0, w // b1, b1, c).transpose(2, 4, 0, 1, 3, 5)
    return [layout_out(y.reshape(n * b0 * b1, h // b0, w // b1, c), nchw)]


def validate_channel_shuffle(v) -> None:
    r = check_max_rank(v, 0)
    check_same_quant(v, 0, v.out(0))
    groups = v.scalar(1)
    axis = check_axis(v, 2, r)
    if groups is not None and groups < 1:
        v.fail(f"is {groups}, but the number of groups must be at least 1", input=1)
    d = dims_of(v.inp(0))
    if groups is not None and axis is not None and d is not None and d[axis] and d[axis] % groups:
        v.fail(f"has {d[axis]} channels along axis {axis}, which {groups} groups do not divide", input=0)
    if d is not None:
        check_output_dims(v, d)


@define("CHANNEL_SHUFFLE", typed_sigs(("T", INT32, INT32), ("T",), {"V1_2": (F16, F32, Q8A),
                                                                     "V1_3": (Q8AS,)}),
        validate_channel_shuffle)
def channel_shuffle(k):
    """CHANNEL_SHUFFLE: with ``group_size = C / num_groups`` along ``axis``,
    ``out[k * num_groups + g] = in[g * group_size + k]``."""
    x = k.inputs[0]
    groups = k.scalar(1)
    axis = run_axis(k, k.scalar(2), x.ndim)
    c = x.shape[axis]
    if groups < 1 or c % groups:
        k.fail(f"{groups} groups do not divide the {c} channels of axis {axis}")
    y = np.moveaxis(x, axis, -1)
    y = y.reshape(y.shape[:-1] + (groups, c // groups)).swapaxes(-1, -2).reshape(y.shape)
    return [np.moveaxis(y, -1, axis)]


# --------------------------------------------------------------------------------------------
# Reductions: MEAN, REDUCE_*, ARGMAX, ARGMIN, TOPK_V2


def reduce_axes(axes, rank: int) -> tuple[tuple | None, str | None]:
    """Normalized, de-duplicated reduction axes, each in ``[-rank, rank)``."""
    out = set()
    for a in (int(a) for a in axes):
        if not -rank <= a < rank:
            return None, f"the axis {a} is outside the range [{-rank}, {rank}) of the input's rank {rank}"
        out.add(a % rank)
    return tuple(sorted(out)), None


def reduced_dims(dims, axes, keep: bool) -> tuple:
    """The output shape of a reduction: reduced axes dropped (or kept as 1); ``[1]`` if none is left."""
    out = tuple(1 if a in axes else d for a, d in enumerate(dims) if keep or a not in axes)
    return out or (1,)


def validate_reduce(v) -> None:
    r = check_max_rank(v, 0)
    axes = check_vector(v, 1, what="the axes")
    if v.name in ("REDUCE_MAX", "REDUCE_MIN") or (v.name == "MEAN" and v.model.origin != "tflite"):
        check_same_quant(v, 0, v.out(0))
    if axes is None or r is None:
        return
    norm, err = reduce_axes(axes, r)
    if err:
        v.fail(err, input=1)
    keep = v.scalar(2)
    if keep is not None:
        check_output_dims(v, reduced_dims(dims_of(v.inp(0)), norm, keep > 0))


def sequential_fold(x: np.ndarray, axes: tuple, fn, init, dtype) -> np.ndarray:
    """Folds the reduced axes in row-major order, one step per reduced element and every step
    rounded to ``dtype``, as TFLite's ``ReduceGeneric`` / ``ReduceSumImpl`` accumulate. The loop
    runs over the reduced elements; all outputs advance together."""
    kept = [a for a in range(x.ndim) if a not in axes]
    outer = tuple(x.shape[a] for a in kept)
    count = int(np.prod([x.shape[a] for a in axes], dtype=np.int64))
    y = np.transpose(x, kept + list(axes)).reshape(outer + (count,))
    acc = np.full(outer, init, dtype)
    for j in range(count):
        acc = fn(acc, y[..., j].astype(dtype)).astype(dtype)
    return acc


def reduce_prepare(k) -> tuple[np.ndarray, tuple, bool]:
    """The input, its normalized reduction axes and keep_dims (MEAN: INT32 > 0; others: BOOL)."""
    x = k.inputs[0]
    axes, err = reduce_axes(int_vector(k, 1, what="the axes"), x.ndim)
    if err:
        k.fail(err)
    return x, axes, bool(k.scalar(2) > 0)


def quantized_mean_or_sum(x: np.ndarray, axes: tuple, in_op, out_op) -> np.ndarray:
    """LiteRT ``reference_ops::QuantizedMeanOrSum`` (mean), the quantized MEAN of its reference
    kernels for every axis set and keep_dims, int8 and uint8 alike::

        (m, e) = quantize_multiplier(double(s_in) / double(s_out))
        k = min(floor(log2(n)), 32, 31 + e)                 n = the count of reduced elements
        out = clamp(mbqm(sum(q) - z_in * n, (m * 2**k) // n, e - k) + z_out)

    The sum is LiteRT's int32 accumulator (wrapping). The input and output quantization may
    differ (the multiplier rescales).
    """
    count = int(np.prod([x.shape[a] for a in axes], dtype=np.int64))
    bias, mult, shift = quantized_mean_params(count, in_op, out_op)
    total = wrap_int32(x.astype(np.int64).sum(axis=axes) + bias)
    out = multiply_by_quantized_multiplier(total, mult, shift) + out_op.zero_point
    return np.clip(out, *qrange(out_op.type))


def quantized_mean_params(count: int, in_op, out_op) -> tuple[int, int, int]:
    """``(bias, multiplier, shift)`` of :func:`quantized_mean_or_sum` over ``count`` elements:
    ``out = mbqm(wrap32(sum(q) + bias), multiplier, shift) + z_out`` (the accelerator's REQ takes
    them as they are)."""
    m, e = quantize_multiplier(float(np.float32(in_op.scale)) / float(np.float32(out_op.scale)))
    k = min(count.bit_length() - 1, 32, 31 + e)
    return -in_op.zero_point * count, (m << k) // count, e - k


@define("MEAN", typed_sigs(("T", I32, INT32), ("T",), classic_types("V1_1")), validate_reduce)
def mean(k):
    """MEAN over the listed axes (duplicates count once; keep_dims > 0 keeps them as size 1; an
    empty axes list reduces nothing).

    float32: TFLite ``reference_ops::Mean``: a float32 sum in row-major order
    (:func:`sequential_fold`) divided by the element count in float32. float16: converted to
    float32, the same, rounded to float16 (NNAPI ``meanFloat16``). quant8 / quant8 signed (same
    scale and zero point in and out, NNAPI ``meanGeneric<T, int32_t>``)::

        out = (sum of the stored values q) / count      (integer division truncating toward zero)

    In a TFLite model (``Model.origin == "tflite"``) quantized MEAN is LiteRT's instead,
    :func:`quantized_mean_or_sum` (``sum(q - z_in)`` rescaled with rounding), and the output's
    quantization may differ from the input's. A reduction over zero elements gives 0.
    """
    x, axes, keep = reduce_prepare(k)
    count = int(np.prod([x.shape[a] for a in axes], dtype=np.int64))
    shape = reduced_dims(x.shape, axes, keep)
    if count == 0:
        return [np.zeros(shape, x.dtype)]
    if x.dtype.kind == "f":
        acc = sequential_fold(x, axes, np.add, 0.0, np.float32) / np.float32(count)
        return [acc.astype(x.dtype).reshape(shape)]
    if k.model.origin == "tflite":
        if not axes:  # LiteRT copies the stored values when there is nothing to reduce
            return [x.reshape(shape).copy()]
        return [quantized_mean_or_sum(x, axes, k.in_ops[0], k.out_ops[0]).astype(x.dtype).reshape(shape)]
    total = x.astype(np.int64).sum(axis=axes)
    return [(np.sign(total) * (np.abs(total) // count)).astype(x.dtype).reshape(shape)]


REDUCE_INPUTS = ("T", I32, BOOL)


def reduce_op(name: str, types: dict, doc: str, fold=None, init=None, pick=None) -> None:
    """Defines one REDUCE_* operation. ``fold`` + ``init(dtype)``: a sequential fold in the
    tensor's own type; ``pick``: an order-independent NumPy reduction (max, min, all, any) with
    ``init(dtype)`` the result of an empty reduction (``None``: NumPy's own)."""

    def kernel(k):
        x, axes, keep = reduce_prepare(k)
        shape = reduced_dims(x.shape, axes, keep)
        if fold is not None:
            return [sequential_fold(x, axes, fold, init(x.dtype), x.dtype).reshape(shape)]
        kw = {} if init is None else {"initial": init(x.dtype)}
        return [pick(x, axis=axes, **kw).reshape(shape)]

    kernel.__name__ = name.lower()
    kernel.__doc__ = doc
    define(name, typed_sigs(REDUCE_INPUTS, ("T",), types), validate_reduce)(kernel)


def lowest(dtype):
    """The reduction start of REDUCE_MAX: -FLT_MAX, -65504 (float16) or the integer minimum."""
    return -np.finfo(dtype).max if dtype.kind == "f" else np.iinfo(dtype).min


def highest(dtype):
    return np.finfo(dtype).max if dtype.kind == "f" else np.iinfo(dtype).max


_COMMON = " over the listed axes (duplicates once; keep_dims keeps them as size 1)"
reduce_op("REDUCE_SUM", {"V1_2": (F16, F32)}, "REDUCE_SUM" + _COMMON + ": the sum accumulated in the "
          "tensor's own type (float16 stays float16 at every step, as NNAPI's ``_Float16`` kernel) "
          "in row-major order (:func:`sequential_fold`); an empty reduction gives 0.",
          fold=np.add, init=lambda d: 0)
reduce_op("REDUCE_PROD", {"V1_2": (F16, F32)}, "REDUCE_PROD" + _COMMON + ": as REDUCE_SUM with "
          "products; an empty reduction gives 1.", fold=np.multiply, init=lambda d: 1)
reduce_op("REDUCE_MAX", {"V1_2": (F16, F32, Q8A), "V1_3": (Q8AS,)}, "REDUCE_MAX" + _COMMON +
          ": the largest value (quantized: of the stored values, same scale and zero point); an "
          "empty reduction gives :func:`lowest`.", pick=np.max, init=lowest)
reduce_op("REDUCE_MIN", {"V1_2": (F16, F32, Q8A), "V1_3": (Q8AS,)}, "REDUCE_MIN" + _COMMON +
          ": the smallest value; an empty reduction gives :func:`highest`.", pick=np.min, init=highest)
reduce_op("REDUCE_ALL", {"V1_2": (BOOL8,)}, "REDUCE_ALL" + _COMMON + ": logical and (empty: true).",
          pick=np.all)
reduce_op("REDUCE_ANY", {"V1_2": (BOOL8,)}, "REDUCE_ANY" + _COMMON + ": logical or (empty: false).",
          pick=np.any)


def validate_arg(v) -> None:
    r = check_max_rank(v, 0, hi=None)
    axis = check_axis(v, 1, r)
    d = dims_of(v.inp(0))
    if axis is not None and d is not None:
        check_output_dims(v, (d[:axis] + d[axis + 1:]) or (1,))


def arg_op(name: str, pick) -> None:
    """Defines ARGMAX / ARGMIN: the index along ``axis`` of the largest / smallest value, the
    first such index on ties (the reference compares strictly); shape [1] for a 1-D input."""

    def kernel(k):
        x = k.inputs[0]
        axis = run_axis(k, k.scalar(1), x.ndim)
        if x.size == 0:
            k.fail(f"the input has shape {list(x.shape)}, but it must not be empty")
        return [at_least_1d(pick(x, axis=axis).astype(np.int32))]

    kernel.__name__ = name.lower()
    kernel.__doc__ = f"{name}: " + arg_op.__doc__.split(": ", 1)[1]
    define(name, typed_sigs(("T", INT32), (I32,), V12_TYPES), validate_arg)(kernel)


arg_op("ARGMAX", np.argmax)
arg_op("ARGMIN", np.argmin)


def validate_topk(v) -> None:
    check_max_rank(v, 0, hi=None)
    check_same_quant(v, 0, v.out(0))
    kk = v.scalar(1)
    d = dims_of(v.inp(0))
    if kk is not None:
        if kk < 1:
            v.fail(f"is {kk}, but k must be at least 1", input=1)
        if d is not None and d[-1] and kk > d[-1]:
            v.fail(f"is {kk}, more than the {d[-1]} elements of the last dimension", input=1)
        if d is not None:
            check_output_dims(v, d[:-1] + (kk,), 0)
            check_output_dims(v, d[:-1] + (kk,), 1)


@define("TOPK_V2", typed_sigs(("T", INT32), ("T", I32), V12_TYPES), validate_topk)
def topk_v2(k):
    """TOPK_V2: the k largest values of each last-axis row in descending order and their indices;
    equal values are ordered by descending index (the larger index first), as the reference's
    sort of (value, index) pairs reversed."""
    x = k.inputs[0]
    kk = k.scalar(1)
    if not 1 <= kk <= x.shape[-1]:
        k.fail(f"k is {kk}, but it must be in [1, {x.shape[-1]}] (the size of the last dimension)")
    idx = np.broadcast_to(np.arange(x.shape[-1]), x.shape)
    order = np.lexsort((idx, x), axis=-1)[..., ::-1][..., :kk]
    return [np.take_along_axis(x, order, axis=-1), order.astype(np.int32)]


# --------------------------------------------------------------------------------------------
# FILL, RANK


def validate_fill(v) -> None:
    s = check_vector(v, 0, what="the shape")
    if s is not None:
        if (s < 0).any():
            v.fail(f"is {s.tolist()}, but the output dimensions must not be negative", input=0)
        check_output_dims(v, s)


@define("FILL", [Sig((I32, FLOAT32), (F32,), since="V1_3"), Sig((I32, FLOAT16), (F16,), since="V1_3"),
                 Sig((I32, INT32), (I32,), since="V1_3")], validate_fill)
def fill(k):
    """FILL: a tensor of the shape given by input 0, every element the scalar input 1."""
    s = int_vector(k, 0, what="the shape")
    if (s < 0).any():
        k.fail(f"the shape {s.tolist()} has a negative dimension")
    return [np.full(tuple(s), k.inputs[1], dtype=k.out_ops[0].info.dtype)]


@define("RANK", [Sig(("T",), (INT32,), types={"T": RANK_TYPES}, since="V1_3")])
def rank(k):
    """RANK: the number of dimensions of the input, as an INT32 scalar."""
    return [np.array(k.inputs[0].ndim, np.int32)]
