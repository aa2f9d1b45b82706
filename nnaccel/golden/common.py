"""Helpers shared by the golden families: type groups, validation checks, quantization glue.

Keep op facts out of here: each op's signature, validator and kernel sit in its family module.
"""

from __future__ import annotations

import numpy as np

from ..model import Operand, OperandType
from ..quant import FUSED_ACTIVATIONS, dtype_range

T = OperandType

F32, F16 = T.TENSOR_FLOAT32, T.TENSOR_FLOAT16
I32, BOOL8 = T.TENSOR_INT32, T.TENSOR_BOOL8
Q8A, Q8AS = T.TENSOR_QUANT8_ASYMM, T.TENSOR_QUANT8_ASYMM_SIGNED
Q8S, Q8PC = T.TENSOR_QUANT8_SYMM, T.TENSOR_QUANT8_SYMM_PER_CHANNEL
Q16A, Q16S = T.TENSOR_QUANT16_ASYMM, T.TENSOR_QUANT16_SYMM
FLOATS = (F32, F16)
INT32, FLOAT32, FLOAT16, BOOL, UINT32 = T.INT32, T.FLOAT32, T.FLOAT16, T.BOOL, T.UINT32
QUANT8 = (Q8A, Q8AS)
#: "0 (NONE), 1 (RELU), 2 (RELU1) or 3 (RELU6)", for error messages.
_CHOICES = [f"{code} ({name})" for code, name in FUSED_ACTIVATIONS.items()]
FUSED_ACTIVATION_CHOICES = ", ".join(_CHOICES[:-1]) + " or " + _CHOICES[-1]


def check_activation(v, i: int, allow_nonzero: bool = True) -> int | None:
    """Validates a fused-activation scalar input ``i``; returns its value when constant."""
    act = v.scalar(i)
    if act is None:
        return None
    if act not in FUSED_ACTIVATIONS:
        v.fail(f"the fused activation is {act}, but it must be one of {FUSED_ACTIVATION_CHOICES}", input=i)
    if act != 0 and not allow_nonzero:
        v.fail(f"the fused activation is {FUSED_ACTIVATIONS[act]}, but for "
               f"{v.inp(0).type.name} tensors it must be NONE", input=i)
    return act


def check_rank(v, i: int, lo: int, hi: int) -> None:
    r = v.inp(i).rank
    if r is not None and v.inp(i).dimensions and not lo <= r <= hi:
        v.fail(f"has rank {r}, but the operation supports ranks {lo} to {hi}" if lo != hi
               else f"has rank {r}, but the operation requires rank {lo}", input=i)


def check_same_quant(v, i: int, o: Operand, what: str = "the output") -> None:
    """Requires input ``i`` to have the same scale and zero point as operand ``o``."""
    a = v.inp(i)
    if a.type in QUANT8 and (a.scale != o.scale or a.zero_point != o.zero_point):
        v.fail(f"has scale {a.scale:g} and zero point {a.zero_point}, but the spec requires the same "
               f"as {what} (scale {o.scale:g}, zero point {o.zero_point})", input=i)


def broadcast_dims(v, a: tuple | None, b: tuple | None) -> tuple | None:
    """NNAPI broadcasting of two declared shapes (0 = unknown); fails on incompatible sizes."""
    if a is None or b is None:
        return None
    a_in, b_in = tuple(a), tuple(b)
    n = max(len(a), len(b))
    a = (1,) * (n - len(a)) + tuple(a)
    b = (1,) * (n - len(b)) + tuple(b)
    out = []
    for x, y in zip(a, b):
        if x == y or y == 1:
            out.append(x)
        elif x == 1:
            out.append(y)
        elif x == 0 or y == 0:
            out.append(0)
        else:
            v.fail(f"has shape {list(b[n - len(b_in):]) if b_in is not None else list(b)} that cannot be "
                   f"broadcast with input 0's shape {list(a[n - len(a_in):])}", input=1)
    return tuple(out)


def qrange(op_type: OperandType) -> tuple[int, int]:
    from ..model import TYPE_INFO
    return dtype_range(TYPE_INFO[op_type].dtype)


def to_float32(x: np.ndarray) -> np.ndarray:
    return np.asarray(x, dtype=np.float32)


def float_result(x: np.ndarray, like: OperandType) -> np.ndarray:
    """Casts a float32 intermediate to the storage type of ``like`` (float16 or float32)."""
    return np.asarray(x).astype(np.float16 if like is F16 else np.float32)


def dequantize_float32(q: np.ndarray, operand: Operand) -> np.ndarray:
    """NNAPI ``convertQuantToFloat32``: ``(float32(q) - zero_point) * scale``, every step in float32.

    The reference kernels that "dequantize, compute in float, requantize" (the detection and
    region operations) read their quantized tensors this way.
    """
    zp = np.float32(operand.zero_point)
    return ((np.asarray(q).astype(np.float32) - zp) * np.float32(operand.scale)).astype(np.float32)


def quantize_float32(x: np.ndarray, operand: Operand) -> np.ndarray:
    """NNAPI ``convertFloat32ToQuant``: ``clamp(round_half_away(x / scale + zero_point))``.

    The division and the addition are float32 operations, the rounding is ``std::round`` (half
    away from zero), the clamp is to the range of ``operand``'s type.
    """
    from ..quant import round_half_away

    y = (np.asarray(x, np.float32) / np.float32(operand.scale)) + np.float32(operand.zero_point)
    lo, hi = qrange(operand.type)
    return np.clip(round_half_away(y.astype(np.float32)), lo, hi).astype(operand.info.dtype)
