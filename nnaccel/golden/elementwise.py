"""Golden kernels: elementwise arithmetic, activations, math, comparison, logic and quantization.

Spec: ../shared/spec/OperationType.aidl (one section per operation). Every kernel computes what
NNAPI's reference CPU kernels (``nn/common/operations/*.cpp`` of AOSP, which call TFLite's
``reference_ops`` / ``optimized_ops`` and gemmlowp's ``fixedpoint.h``) compute; the exact arithmetic
is written in each kernel's docstring, the fixed-point primitives are in :mod:`nnaccel.quant`.

Conventions of this module

* Signatures are generated from per-operation tables of ``(operand type, NNAPI version)``: one
  :class:`~nnaccel.registry.Sig` per type, its ``since`` the version that introduced it.
* Broadcasting is NumPy's, which is NNAPI's (trailing dimensions, a 1 stretches, 0 is only
  compatible with 0 or 1 and gives 0); zero-sized tensors flow through every kernel unchanged.
* Scales are read as float32 (``np.float32(operand.scale)``), because the reference holds them in a
  C++ ``float``; where the reference multiplies or divides two ``float`` scales the product is a
  float32 operation here too, and the quotient handed to ``quantize_multiplier`` is a double.
* float16 tensors are converted to float32, computed in float32 and rounded to float16 (the
  reference's ``_Float16`` kernels do exactly that: ``static_cast<float>`` in, ``_Float16`` out);
  clamping, negation, minimum/maximum and comparisons are exact in either type.
* Relaxed float32 models (``k.relaxed``) are computed in full float32, which the relaxed semantics
  allow (they permit, not require, float16 range and precision).
"""

from __future__ import annotations

import math

import numpy as np

from ..quant import (
    activation_range_quantized,
    apply_activation_float,
    downscale_multiplier_int32_to_int16,
    fixed_logistic,
    fixed_tanh,
    multiply_by_quantized_multiplier,
    quantize_multiplier,
    quantize_multiplier_greater_than_one,
    round_half_away,
    rounding_divide_by_pot,
    rounding_divide_by_pot_int16,
    saturating_doubling_high_mul_int16,
    saturating_left_shift_int16,
    saturating_rounding_doubling_high_mul_int16,
    wrap_int16,
    wrap_int32,
)
from ..registry import Sig, define
from .common import (
    BOOL8,
    F16,
    F32,
    FLOAT16,
    FLOAT32,
    FUSED_ACTIVATION_CHOICES,
    FUSED_ACTIVATIONS,
    I32,
    INT32,
    Q8A,
    Q8AS,
    Q8PC,
    Q8S,
    Q16A,
    Q16S,
    QUANT8,
    broadcast_dims,
    check_activation,
    check_rank,
    check_same_quant,
    dequantize_float32,
    qrange,
)

# --------------------------------------------------------------------------------------------------
# Signature tables: (operand type, NNAPI version that introduced it), from the spec's type lists.

ADD_MUL_TYPES = ((F32, "V1_0"), (Q8A, "V1_0"), (F16, "V1_2"), (Q8AS, "V1_3"), (I32, "V1_3"))
SUB_TYPES = ((F32, "V1_1"), (F16, "V1_2"), (Q8A, "V1_2"), (Q8AS, "V1_3"), (I32, "V1_3"))
DIV_TYPES = ((F32, "V1_1"), (F16, "V1_2"), (I32, "V1_3"))
ACTIVATION_TYPES = ((F32, "V1_0"), (Q8A, "V1_0"), (F16, "V1_2"), (Q8AS, "V1_3"))  # RELU* LOGISTIC
TANH_TYPES = ((F32, "V1_0"), (F16, "V1_2"), (Q8A, "V1_2"), (Q8AS, "V1_3"))
HARD_SWISH_TYPES = ((F32, "V1_3"), (F16, "V1_3"), (Q8A, "V1_3"), (Q8AS, "V1_3"))
FLOOR_TYPES = ((F32, "V1_0"), (F16, "V1_2"))
MATH_TYPES = ((F32, "V1_2"), (F16, "V1_2"))  # EXP LOG SIN SQRT RSQRT POW
ABS_TYPES = ((F32, "V1_2"), (F16, "V1_2"), (I32, "V1_3"))
NEG_TYPES = ((F32, "V1_2"), (F16, "V1_2"), (I32, "V1_2"))
PRELU_TYPES = ((F32, "V1_2"), (F16, "V1_2"), (Q8A, "V1_2"), (Q8AS, "V1_3"))
MINMAX_SELECT_TYPES = ((F32, "V1_2"), (F16, "V1_2"), (I32, "V1_2"), (Q8A, "V1_2"), (Q8AS, "V1_3"))
COMPARISON_TYPES = ((BOOL8, "V1_2"), (F32, "V1_2"), (F16, "V1_2"), (I32, "V1_2"), (Q8A, "V1_2"),
                    (Q8AS, "V1_3"))
LOGICAL_TYPES = ((BOOL8, "V1_2"),)
CAST_CONVERTIBLE = (F16, F32, I32, Q8A)  # any of these to any of these, since V1_2
CAST_IDENTITY_ONLY = (BOOL8, Q16A, Q16S, Q8AS, Q8S)  # to the same type only, since V1_3


def sigs_for(inputs: tuple, outputs: tuple, table) -> list[Sig]:
    """One signature per ``(type, since)`` of ``table``; ``"T"`` in ``inputs`` / ``outputs`` stands
    for that type (so every ``"T"`` position must have the same type)."""
    return [Sig(inputs, outputs, types={"T": (t,)}, since=since) for t, since in table]


# --------------------------------------------------------------------------------------------------
# Shared validation.


def _known(dims) -> bool:
    """True for a declared shape of known rank (NNAPI: empty dimensions = unknown rank)."""
    return bool(dims)


def check_output_dims(v, expected, j: int = 0) -> None:
    """Requires output ``j``'s declared shape to agree with ``expected`` where both are known
    (0 = unknown size)."""
    got = v.out(j).dimensions
    if not _known(got) or not _known(expected):
        return
    if len(got) != len(expected) or any(g and e and g != e for g, e in zip(got, expected)):
        v.fail(f"has shape {list(got)}, but the operation produces shape {list(expected)}", output=j)


def check_broadcast(v, i: int = 0, j: int = 1) -> None:
    """Inputs ``i`` and ``j`` must broadcast (NNAPI rules); the output shape must be the result."""
    a, b = v.inp(i).dimensions, v.inp(j).dimensions
    if _known(a) and _known(b):
        check_output_dims(v, broadcast_dims(v, a, b))


def check_same_dims(v, i: int, j: int) -> None:
    """Inputs ``i`` and ``j`` must have the same shape (where known)."""
    a, b = v.inp(i).dimensions, v.inp(j).dimensions
    if _known(a) and _known(b) and (len(a) != len(b) or any(x and y and x != y for x, y in zip(a, b))):
        v.fail(f"has shape {list(b)}, but it must have the shape of input {i}, {list(a)}", input=j)


def validate_broadcast_binary(v) -> None:
    """PRELU, POW, MAXIMUM, MINIMUM, the comparisons, LOGICAL_AND / OR: broadcastable inputs, the
    output of the broadcast shape."""
    check_broadcast(v)


def validate_unary(v) -> None:
    """Unary elementwise operations: the output has the input's shape."""
    check_output_dims(v, v.inp(0).dimensions)


def validate_unary_rank4(v) -> None:
    """Unary operations whose spec limits the rank to 4 (FLOOR, DEQUANTIZE, the RELUs ...)."""
    check_rank(v, 0, 1, 4)
    validate_unary(v)


def f32(x) -> np.float32:
    """A scale or scalar as the C++ ``float`` the reference holds."""
    return np.float32(x)


def _errstate():
    return np.errstate(all="ignore")


# --------------------------------------------------------------------------------------------------
# ADD, SUB, MUL, DIV.


def validate_binary_arith(v) -> None:
    """ADD / SUB / MUL / DIV: ranks up to 4, broadcastable shapes, a fused activation that is NONE
    for int32; quantized ADD / SUB need an output multiplier below one and quantized MUL needs
    ``output_scale > input1_scale * input2_scale`` (spec; float32 product as the reference)."""
    a, b, out = v.inp(0), v.inp(1), v.out(0)
    check_rank(v, 0, 1, 4)
    check_rank(v, 1, 1, 4)
    check_broadcast(v)
    check_activation(v, 2, allow_nonzero=a.type is not I32)
    if a.type in QUANT8:
        if v.name in ("ADD", "SUB"):
            _, _, real_out = add_sub_real_multipliers(a.scale, b.scale, out.scale)
            if not real_out < 1.0:
                v.fail(f"has scale {out.scale:g}, too small for the input scales {a.scale:g} and "
                       f"{b.scale:g}: 2 * max(input scales) / (2**20 * output scale) must be < 1",
                       output=0)
        elif v.name == "MUL" and not f32(out.scale) > f32(a.scale) * f32(b.scale):
            v.fail(f"has scale {out.scale:g}, but the spec requires output_scale > input1_scale * "
                   f"input2_scale = {float(f32(a.scale) * f32(b.scale)):g}", output=0)


def add_sub_real_multipliers(s1: float, s2: float, so: float) -> tuple[float, float, float]:
    """The real multipliers of quantized ADD / SUB (NNAPI ``addQuant8`` / ``subQuant8``), with the
    reference's float / double mix: ``twice_max = 2 * max(s1, s2)`` (float),
    ``r1 = s1 / twice_max``, ``r2 = s2 / twice_max``, ``ro = twice_max / (2**20 * so)`` (double
    quotients of float values)."""
    s1, s2, so = f32(s1), f32(s2), f32(so)
    twice_max = f32(2) * max(s1, s2)
    denominator = f32(1 << 20) * so
    return (float(s1) / float(twice_max), float(s2) / float(twice_max),
            float(twice_max) / float(denominator))


def mul_real_multiplier(s1: float, s2: float, so: float) -> float:
    """The real multiplier of quantized MUL (NNAPI ``mulQuant8``): ``double(float32(s1 * s2)) / so``
    (a float product of the float scales, divided in double)."""
    return float(f32(s1) * f32(s2)) / float(f32(so))


def fused_activation(k, i: int = 2) -> int:
    """The fused activation of this run (input ``i``; absent means NONE), checked as the validator
    checks a constant one, since a non-constant activation reaches only the kernel."""
    act = k.scalar(i, 0)
    if act not in FUSED_ACTIVATIONS:
        k.fail(f"the fused activation is {act}, but it must be one of {FUSED_ACTIVATION_CHOICES}")
    if act != 0 and k.in_ops[0].type is I32:
        k.fail(f"the fused activation is {FUSED_ACTIVATIONS[act]}, but for TENSOR_INT32 tensors it "
               f"must be NONE")
    return act


def _clamp_quant(k, acc, activation: int) -> np.ndarray:
    """Clamps int accumulators to the fused activation's range in the output's quantized domain
    (NNAPI ``CalculateActivationRange{Uint8,Int8}``; the bound ``zo + round(f / so)`` divides in
    float32 as the reference does, hence the float32 scale)."""
    o = k.out_ops[0]
    lo, hi = activation_range_quantized(activation, f32(o.scale), o.zero_point, *qrange(o.type))
    return np.clip(acc, lo, hi).astype(o.info.dtype)


def _offsets(k) -> tuple[np.ndarray, np.ndarray]:
    """``(q1 - z1, q2 - z2)`` as int64 arrays (broadcasting is left to the arithmetic)."""
    a, b = k.inputs[0], k.inputs[1]
    return a.astype(np.int64) - k.in_ops[0].zero_point, b.astype(np.int64) - k.in_ops[1].zero_point


def add_quant8(k, sign: int = 1) -> np.ndarray:
    """Quantized ADD (``sign = +1``) / SUB (``sign = -1``): NNAPI ``addQuant8`` / ``subQuant8``,
    TFLite ``BroadcastAdd4DSlow``, all in int32::

        (r1, r2, ro) = add_sub_real_multipliers(s1, s2, so)       # see that function
        (m1, e1) = quantize_multiplier(r1); (m2, e2) = quantize_multiplier(r2)   # e <= 0
        (mo, eo) = quantize_multiplier(ro)
        x1 = mbqm((q1 - z1) * 2**20, m1, e1)
        x2 = mbqm((q2 - z2) * 2**20, sign * m2, e2)     # SUB negates input 2's multiplier
        out = clamp(mbqm(x1 + x2, mo, eo) + zo, activation range)

    ``mbqm`` is :func:`nnaccel.quant.multiply_by_quantized_multiplier` (SRDHM, then a rounding
    right shift); a negated multiplier gives exactly the negated product, both roundings being
    symmetric.
    """
    o = k.out_ops[0]
    r1, r2, ro = add_sub_real_multipliers(k.in_ops[0].scale, k.in_ops[1].scale, o.scale)
    m1, e1 = quantize_multiplier(r1)
    m2, e2 = quantize_multiplier(r2)
    mo, eo = quantize_multiplier(ro)
    d1, d2 = _offsets(k)
    x1 = multiply_by_quantized_multiplier(d1 << 20, m1, e1)
    x2 = multiply_by_quantized_multiplier(d2 << 20, sign * m2, e2)
    raw = multiply_by_quantized_multiplier(wrap_int32(x1 + x2), mo, eo) + o.zero_point
    return _clamp_quant(k, raw, fused_activation(k))


def mul_quant8(k) -> np.ndarray:
    """Quantized MUL: NNAPI ``mulQuant8``, TFLite ``BroadcastMul4DSlow``, in int32::

        (m, e) = quantize_multiplier(double(float32(s1 * s2)) / so)    # < 1, so e <= 0
        out = clamp(mbqm((q1 - z1) * (q2 - z2), m, e) + zo, activation range)
    """
    m, e = quantize_multiplier(mul_real_multiplier(k.in_ops[0].scale, k.in_ops[1].scale,
                                                   k.out_ops[0].scale))
    d1, d2 = _offsets(k)
    raw = multiply_by_quantized_multiplier(d1 * d2, m, e) + k.out_ops[0].zero_point
    return _clamp_quant(k, raw, fused_activation(k))


FLT_MAX = float(np.finfo(np.float32).max)


def _float_binary(k, fn, finite: bool) -> np.ndarray:
    """float32 (float16 via float32) ``act(fn(a, b))``, rounded to the input's type.

    With ``finite`` the float32 result is also clamped to ``[-FLT_MAX, FLT_MAX]`` (NaN kept): the
    reference kernels that clamp to the activation range ``[lowest, max]`` even for NONE (SUB, DIV,
    MUL of equal shapes) turn ±inf into ±FLT_MAX; ADD and broadcasting MUL use TFLite's templated
    activations, which leave infinities alone.
    """
    a, b = k.inputs[0], k.inputs[1]
    with _errstate():
        out = fn(a.astype(np.float32), b.astype(np.float32))
    out = apply_activation_float(np.asarray(out, np.float32), fused_activation(k))
    if finite:
        out = np.clip(out, -FLT_MAX, FLT_MAX)
    with _errstate():  # float16 overflow to ±inf is the intended rounding
        return out.astype(a.dtype)


def _int32_binary(k, fn) -> np.ndarray:
    """int32 ``fn(a, b)`` computed in int64 and wrapped to int32 as C++ int32 arithmetic wraps."""
    a, b = k.inputs[0].astype(np.int64), k.inputs[1].astype(np.int64)
    return wrap_int32(fn(a, b)).astype(np.int32)


def floor_divide_int32(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """int32 DIV: floor division (``-5 // 2 == -3``); a zero divisor gives 0 (the reference's
    choice: "DIV by zero is undefined, but should not crash")."""
    zero = b == 0
    return np.where(zero, 0, np.floor_divide(a, np.where(zero, 1, b)))


_ARITH = {"ADD": np.add, "SUB": np.subtract, "MUL": np.multiply}


def _arith(k):
    t = k.in_ops[0].type
    if t in QUANT8:
        return mul_quant8(k) if k.name == "MUL" else add_quant8(k, 1 if k.name == "ADD" else -1)
    if t is I32:
        fused_activation(k)
        return _int32_binary(k, _ARITH[k.name])
    finite = k.name == "SUB" or (k.name == "MUL" and k.inputs[0].shape == k.inputs[1].shape)
    return _float_binary(k, _ARITH[k.name], finite)


ARITH_SIG = ("T", "T", INT32), ("T",)


@define("ADD", sigs_for(*ARITH_SIG, ADD_MUL_TYPES), validate_binary_arith)
def add(k):
    """ADD: ``out = act(a + b)`` with broadcasting.

    float32 in float32; float16 via float32, rounded to float16. int32: wrapping int32 addition
    (the activation must be NONE). quant8 asymm / asymm signed: :func:`add_quant8`.
    """
    return [_arith(k)]


@define("SUB", sigs_for(*ARITH_SIG, SUB_TYPES), validate_binary_arith)
def sub(k):
    """SUB: ``out = act(a - b)`` with broadcasting.

    float32 in float32 (the reference subtracts, then clamps to the activation range, so ±inf
    becomes ±FLT_MAX); float16 via float32. int32: wrapping int32 subtraction (activation NONE).
    quant8: :func:`add_quant8` with input 2's multiplier negated.
    """
    return [_arith(k)]


@define("MUL", sigs_for(*ARITH_SIG, ADD_MUL_TYPES), validate_binary_arith)
def mul(k):
    """MUL: ``out = act(a * b)`` with broadcasting.

    float32 in float32 (for equal shapes the reference clamps to ``[lowest, max]``, so ±inf becomes
    ±FLT_MAX); float16 via float32. int32: wrapping int32 product (activation NONE). quant8:
    :func:`mul_quant8`.
    """
    return [_arith(k)]


@define("DIV", sigs_for(*ARITH_SIG, DIV_TYPES), validate_binary_arith)
def div(k):
    """DIV: ``out = act(a / b)`` with broadcasting.

    float32 IEEE division, clamped to ``[-FLT_MAX, FLT_MAX]`` as the reference clamps to the
    activation range (x / 0 gives ±FLT_MAX, 0 / 0 NaN); float16 via float32. int32: floor division
    with a zero divisor giving 0 (:func:`floor_divide_int32`), activation NONE.
    """
    if k.in_ops[0].type is I32:
        fused_activation(k)
        return [_int32_binary(k, floor_divide_int32)]
    return [_float_binary(k, np.divide, finite=True)]


# --------------------------------------------------------------------------------------------------
# RELU, RELU1, RELU6.


def validate_activation(v) -> None:
    """RELU / RELU1 / RELU6 / LOGISTIC / TANH: rank up to 4, output of the input's shape; the
    RELUs keep the quantization (spec: output scale and zero point equal the input's)."""
    validate_unary_rank4(v)
    if v.name in RELU_ACTIVATION:
        check_same_quant(v, 0, v.out(0))


#: The RELUs as the fused activation code whose range they clamp to (1 RELU, 2 RELU1, 3 RELU6).
RELU_ACTIVATION = {name: code for code, name in FUSED_ACTIVATIONS.items() if code}


def clamp_activation(k) -> np.ndarray:
    """RELU / RELU1 / RELU6: clamps to [0, inf), [-1, 1], [0, 6].

    Floats clamp in their own type (exact). quant8 clamps the stored values to
    ``[max(qmin, z + round(lo / s)), min(qmax, z + round(hi / s))]`` with the input's scale and zero
    point (NNAPI ``reluXQuant8``: ``CalculateActivationRange*`` of the input; the output has the
    same quantization).
    """
    x = k.inputs[0]
    act = RELU_ACTIVATION[k.name]
    o = k.in_ops[0]
    if o.type in QUANT8:
        lo, hi = activation_range_quantized(act, f32(o.scale), o.zero_point, *qrange(o.type))
        return np.clip(x, lo, hi).astype(x.dtype)
    return apply_activation_float(x, act)


RELU_SIGS = sigs_for(("T",), ("T",), ACTIVATION_TYPES)


@define("RELU", RELU_SIGS, validate_activation)
def relu(k):
    """RELU: ``max(0, x)``; see :func:`clamp_activation`."""
    return [clamp_activation(k)]


@define("RELU1", RELU_SIGS, validate_activation)
def relu1(k):
    """RELU1: ``min(1, max(-1, x))``; see :func:`clamp_activation`."""
    return [clamp_activation(k)]


@define("RELU6", RELU_SIGS, validate_activation)
def relu6(k):
    """RELU6: ``min(6, max(0, x))``; see :func:`clamp_activation`."""
    return [clamp_activation(k)]


# --------------------------------------------------------------------------------------------------
# LOGISTIC, TANH (gemmlowp fixed point for quant8).

#: The fixed output quantization of the quantized LOGISTIC / TANH: op -> (scale, {type: zero point}).
FIXED_OUTPUT_QUANT = {"LOGISTIC": (1.0 / 256, {Q8A: 0, Q8AS: -128}),
                      "TANH": (1.0 / 128, {Q8A: 128, Q8AS: 0})}
Q4_INTEGER_BITS = 4


def q4_input_params(scale: float) -> tuple[int, int, int]:
    """The input rescaling of the quantized LOGISTIC / TANH (TFLite ``Prepare``): the input
    ``(q - z) * s`` is brought to a Q4.27 raw by ``mbqm(q - z, m, shift)`` where
    ``(m, shift) = quantize_multiplier_greater_than_one(s * 2**27)`` (``shift >= 1``, uncapped);
    ``radius = floor(15 * 2**27 / 2**shift)`` (``CalculateInputRadius(4, shift)``) bounds the inputs
    for which that rescaling cannot overflow."""
    m, shift = quantize_multiplier_greater_than_one(float(f32(scale)) * 2.0 ** (31 - Q4_INTEGER_BITS))
    radius = math.floor(((1 << Q4_INTEGER_BITS) - 1) * 2.0 ** (31 - Q4_INTEGER_BITS) / 2.0 ** shift)
    return m, shift, radius


def validate_logistic_tanh(v) -> None:
    """LOGISTIC / TANH: as :func:`validate_activation`; quant8 needs the spec's fixed output
    quantization and an input scale above 2**-27 (``QuantizeMultiplierGreaterThanOne``)."""
    validate_activation(v)
    x, out = v.inp(0), v.out(0)
    if x.type in QUANT8:
        scale, zps = FIXED_OUTPUT_QUANT[v.name]
        if f32(out.scale) != f32(scale) or out.zero_point != zps[out.type]:
            v.fail(f"has scale {out.scale:g} and zero point {out.zero_point}, but for {out.type.name} "
                   f"the spec requires scale 1/{round(1 / scale)} and zero point {zps[out.type]}",
                   output=0)
        if not float(f32(x.scale)) * 2.0 ** 27 > 1.0:
            v.fail(f"has scale {x.scale:g}, but the quantized {v.name} needs an input scale above "
                   f"2**-27", input=0)


def logistic_tanh_quant8(k, fixed_fn, output_shift: int, output_offset: int):
    """The shared body of the quantized LOGISTIC / TANH (see those kernels): ``fixed_fn`` is the
    gemmlowp function, its Q0.31 result is rounding-shifted right by ``output_shift``, offset by
    ``output_offset`` and clamped to the type; outside the input radius the type's limits."""
    x, io, o = k.inputs[0], k.in_ops[0], k.out_ops[0]
    q_min, q_max = qrange(o.type)
    m, shift, radius = q4_input_params(io.scale)
    c = x.astype(np.int64) - io.zero_point
    y = fixed_fn(multiply_by_quantized_multiplier(c, m, shift), Q4_INTEGER_BITS)
    inside = np.clip(rounding_divide_by_pot(y, output_shift) + output_offset, q_min, q_max)
    # uint8 runs TFLite's optimized_ops scalar loop (strict comparisons with the radius), int8 the
    # reference_integer_ops one (inclusive); the two differ only for input scales of 2 and more.
    if o.type is Q8A:
        low, high = c < -radius, c > radius
    else:
        low, high = c <= -radius, c >= radius
    return np.where(low, q_min, np.where(high, q_max, inside)).astype(o.info.dtype)


def litert_float_table(k, fn) -> np.ndarray:
    """LiteRT's 8-bit look-up table of ``fn`` (``LUTPopulate``, what its reference LOGISTIC and
    TANH compute for int8 / uint8), applied to the input; float32 throughout::

        x = float32(s_in * float32(q - z_in))
        out = clamp(int(round_half_away(fn(x) * float32(1 / s_out)) + z_out), type range)
    """
    x, io, o = k.inputs[0], k.in_ops[0], k.out_ops[0]
    with _errstate():
        real = f32(io.scale) * (x.astype(np.int64) - io.zero_point).astype(np.float32)
        r = round_half_away(fn(real) * (np.float32(1) / f32(o.scale))).astype(np.float32)
        v = r + np.float32(o.zero_point)
    return np.clip(v, *qrange(o.type)).astype(o.info.dtype)


def _sigmoid_expf(x: np.ndarray) -> np.ndarray:
    """``1.f / (1.f + expf(-x))`` in float32, ``expf`` correctly rounded (the float64 exponential
    rounded to float32, as C's ``expf`` gives it; NumPy's float32 ``exp`` may be off by an ulp)."""
    one = np.float32(1)
    return one / (one + np.exp(-x.astype(np.float64)).astype(np.float32))


def _tanhf(x: np.ndarray) -> np.ndarray:
    """``tanhf(x)`` correctly rounded (the float64 tanh rounded to float32)."""
    return np.tanh(x.astype(np.float64)).astype(np.float32)


def _float_unary(k, fn) -> np.ndarray:
    """``fn`` on float32 (float16 inputs converted to float32), rounded to the input's type."""
    x = k.inputs[0]
    with _errstate():
        y = fn(x.astype(np.float32))
        return np.asarray(y, np.float32).astype(x.dtype)


@define("LOGISTIC", RELU_SIGS, validate_logistic_tanh)
def logistic(k):
    """LOGISTIC: ``1 / (1 + exp(-x))``.

    float32: ``1.f / (1.f + expf(-x))`` in float32; float16 via float32. quant8 (NNAPI
    ``logisticQuant8`` = TFLite ``optimized_ops::Logistic``; ``logisticQuant8Signed`` =
    ``reference_integer_ops::Logistic``), output scale 1/256, in integers::

        (m, shift, radius) = q4_input_params(s_in);  c = q - z_in
        y = fixed_logistic(mbqm(c, m, shift), 4)      # gemmlowp logistic, Q4.27 in, Q0.31 out
        uint8: out = 0 if c < -radius, 255 if c > radius, else min(rdbpot(y, 23), 255)
        int8:  out = -128 if c <= -radius, 127 if c >= radius, else clamp(rdbpot(y, 23) - 128)

    In a TFLite model (``Model.origin == "tflite"``) quant8 is LiteRT's reference instead, a float
    table (:func:`litert_float_table` of ``1.f / (1.f + expf(-x))``), which rounds a few values
    near a half step the other way.
    """
    if k.in_ops[0].type in QUANT8:
        if k.model.origin == "tflite":
            return [litert_float_table(k, _sigmoid_expf)]
        offset = 0 if k.out_ops[0].type is Q8A else -128
        return [logistic_tanh_quant8(k, fixed_logistic, 31 - 8, offset)]
    one = np.float32(1)
    return [_float_unary(k, lambda x: one / (one + np.exp(-x)))]


@define("TANH", sigs_for(("T",), ("T",), TANH_TYPES), validate_logistic_tanh)
def tanh(k):
    """TANH: ``tanh(x)``.

    float32: ``tanhf`` in float32; float16 via float32. quant8 (NNAPI ``tanhQuant8`` = TFLite
    ``optimized_ops::Tanh``; ``tanhQuant8Signed`` = ``reference_integer_ops::Tanh``), output scale
    1/128, in integers::

        (m, shift, radius) = q4_input_params(s_in);  c = q - z_in
        y = fixed_tanh(mbqm(c, m, shift), 4)          # gemmlowp tanh, Q4.27 in, Q0.31 out
        uint8: out = 0 if c < -radius, 255 if c > radius, else min(rdbpot(y, 24) + 128, 255)
        int8:  out = -128 if c <= -radius, 127 if c >= radius, else clamp(rdbpot(y, 24))
    """
    if k.in_ops[0].type in QUANT8:
        if k.model.origin == "tflite":
            return [litert_float_table(k, _tanhf)]
        offset = 128 if k.out_ops[0].type is Q8A else 0
        return [logistic_tanh_quant8(k, fixed_tanh, 31 - 7, offset)]
    return [_float_unary(k, np.tanh)]


# --------------------------------------------------------------------------------------------------
# HARD_SWISH, ELU, PRELU.


def hard_swish_params(in_scale: float, out_scale: float) -> dict:
    """The parameters of TFLite's quantized HardSwish as NNAPI's ``hardSwishQuant`` derives them,
    float32 arithmetic where the reference uses ``float``::

        hires_input_scale = (1/128) * s_in                    (float32)
        output_multiplier = hires_input_scale / s_out          (float32)
        reluish_multiplier = hires_input_scale / (3 / 32768)   (float32)
        (m, e) = quantize_multiplier(multiplier)                -> Q15 by downscale_multiplier_int32_to_int16
    """
    hires = f32(1.0 / 128.0) * f32(in_scale)
    out_m, out_e = quantize_multiplier(float(hires / f32(out_scale)))
    rel_m, rel_e = quantize_multiplier(float(hires / (f32(3.0) / f32(32768.0))))
    return {"output_multiplier": downscale_multiplier_int32_to_int16(out_m), "output_exponent": out_e,
            "reluish_multiplier": downscale_multiplier_int32_to_int16(rel_m), "reluish_exponent": rel_e}


def validate_hard_swish(v) -> None:
    validate_unary(v)
    x, out = v.inp(0), v.out(0)
    if x.type in QUANT8 and hard_swish_params(x.scale, out.scale)["output_exponent"] > 0:
        v.fail(f"has scale {out.scale:g}, but the quantized HARD_SWISH needs an output scale above "
               f"the input scale / 128 = {x.scale / 128:g}", output=0)


def hard_swish_quant8(k) -> np.ndarray:
    """Quantized HARD_SWISH: TFLite ``reference_ops::HardSwish`` (int16 fixed point), with
    :func:`hard_swish_params` ``(mo, eo, mr, er)``; every value below is an int16::

        hires = (q - z_in) * 2**7
        pre_out = srdhm16(hires, mo)                          # x on the output scale, before shift
        r = hires
        if er > 0: r = sat_shl16(r, er - 1)
        r = srdhm16(r, mr)
        if er > 0: r = sat_shl16(r, 1)
        if er < 0: r = rdbpot(r, -er)                         # r = x / 3 in Q15, saturated to [-1, 1)
        r = (r + 2**15) >> 1                                  # relu6(x + 3) / 6 in Q15, [0, 1)
        out = clamp(wrap16(rdbpot(sdhm16(r, pre_out), -eo) + z_out), type range)

    ``srdhm16`` rounds (gemmlowp), ``sdhm16`` truncates (TFLite ``SaturatingDoublingHighMul``),
    ``sat_shl16`` saturates to int16, ``rdbpot`` is gemmlowp's int16 ``RoundingDivideByPOT``.
    """
    x, io, o = k.inputs[0], k.in_ops[0], k.out_ops[0]
    p = hard_swish_params(io.scale, o.scale)
    hires = wrap_int16((x.astype(np.int64) - io.zero_point) << 7)
    pre_out = saturating_rounding_doubling_high_mul_int16(hires, p["output_multiplier"])
    er = p["reluish_exponent"]
    r = hires
    if er > 0:
        r = saturating_left_shift_int16(r, er - 1)
    r = saturating_rounding_doubling_high_mul_int16(r, p["reluish_multiplier"])
    if er > 0:
        r = saturating_left_shift_int16(r, 1)
    if er < 0:
        r = rounding_divide_by_pot_int16(r, -er)
    r = (r + (1 << 15)) >> 1
    out = rounding_divide_by_pot_int16(saturating_doubling_high_mul_int16(r, pre_out),
                                       -p["output_exponent"])
    out = wrap_int16(out + o.zero_point)
    return np.clip(out, *qrange(o.type)).astype(o.info.dtype)


@define("HARD_SWISH", sigs_for(("T",), ("T",), HARD_SWISH_TYPES), validate_hard_swish)
def hard_swish(k):
    """HARD_SWISH: ``x * min(6, max(0, x + 3)) / 6``.

    float32: ``(x * clamp(x + 3, 0, 6)) / 6`` in float32, in that order; float16 via float32.
    quant8: :func:`hard_swish_quant8` (output scale and zero point may differ from the input's).
    """
    if k.in_ops[0].type in QUANT8:
        return [hard_swish_quant8(k)]
    zero, three, six = np.float32(0), np.float32(3), np.float32(6)
    return [_float_unary(k, lambda x: x * np.minimum(six, np.maximum(zero, x + three)) / six)]


@define("ELU", [Sig((F32, FLOAT32), (F32,), since="V1_3"), Sig((F16, FLOAT16), (F16,), since="V1_3")],
        validate_unary)
def elu(k):
    """ELU: ``max(0, x) + min(0, alpha * (exp(x) - 1))``.

    float32 throughout (float16 input and FLOAT16 alpha converted to float32), rounded to the input
    type.
    """
    alpha = np.float32(k.scalar(1))
    one, zero = np.float32(1), np.float32(0)
    return [_float_unary(k, lambda x: np.maximum(zero, x) + np.minimum(zero, alpha * (np.exp(x) - one)))]


def prelu_quant8(k) -> np.ndarray:
    """Quantized PRELU: NNAPI ``prelu::evalQuant8``, in int32::

        (m_pos, e_pos) = quantize_multiplier(double(float32(s_in / s_out)))        # float quotient
        (m_neg, e_neg) = quantize_multiplier(double(float32(s_in * s_alpha)) / s_out)
        c = q - z_in
        out = saturate(z_out + mbqm(c, m_pos, e_pos))                    if c >= 0
              saturate(z_out + mbqm(c * (q_alpha - z_alpha), m_neg, e_neg))  otherwise

    In a TFLite model (``Model.origin == "tflite"``) ``m_neg`` is LiteRT's (``PreluPrepare``,
    ``LeakyReluPrepare``): the quotient in float32 too, ``quantize_multiplier(double(float32(
    float32(s_in * s_alpha) / s_out)))``; the importer's LEAKY_RELU alpha (``q - z = ±1``, scale
    ``|alpha|``) makes that LiteRT's ``s_in * alpha / s_out``.
    """
    (x, alpha), (xo, ao), o = k.inputs[:2], k.in_ops[:2], k.out_ops[0]
    m_pos, e_pos = quantize_multiplier(float(f32(xo.scale) / f32(o.scale)))
    if k.model.origin == "tflite":
        m_neg, e_neg = quantize_multiplier(float(f32(xo.scale) * f32(ao.scale) / f32(o.scale)))
    else:
        m_neg, e_neg = quantize_multiplier(float(f32(xo.scale) * f32(ao.scale)) / float(f32(o.scale)))
    c = x.astype(np.int64) - xo.zero_point
    a = alpha.astype(np.int64) - ao.zero_point
    pos = multiply_by_quantized_multiplier(c, m_pos, e_pos)
    neg = multiply_by_quantized_multiplier(wrap_int32(c * a), m_neg, e_neg)
    out = o.zero_point + np.where(c >= 0, pos, neg)
    return np.clip(out, *qrange(o.type)).astype(o.info.dtype)


@define("PRELU", sigs_for(("T", "T"), ("T",), PRELU_TYPES), validate_broadcast_binary)
def prelu(k):
    """PRELU: ``x if x >= 0 else alpha * x``, alpha broadcast against x.

    float32 / float16: the product in the tensor type (a float16 product of two float16 values is
    exact in float32, so rounding it once to float16 is the float16 product). quant8:
    :func:`prelu_quant8`.
    """
    if k.in_ops[0].type in QUANT8:
        return [prelu_quant8(k)]
    x, alpha = k.inputs[0], k.inputs[1]
    prod = (x.astype(np.float32) * alpha.astype(np.float32)).astype(x.dtype)
    return [np.where(x >= 0, x, prod).astype(x.dtype)]


# --------------------------------------------------------------------------------------------------
# Elementwise math on floats (and ABS / NEG on int32).


def _math_op(name: str, table, fn, doc: str, validate=validate_unary):
    def kernel(k):
        return [_float_unary(k, fn)]
    kernel.__name__ = name.lower()
    kernel.__doc__ = doc
    return define(name, sigs_for(("T",), ("T",), table), validate)(kernel)


_ONE = np.float32(1)
_math_op("EXP", MATH_TYPES, np.exp, "EXP: ``expf(x)`` in float32; float16 via float32.")
_math_op("LOG", MATH_TYPES, np.log, "LOG: ``logf(x)`` in float32 (NaN below 0, -inf at 0); "
                                    "float16 via float32.")
_math_op("SIN", MATH_TYPES, np.sin, "SIN: ``sinf(x)`` in float32; float16 via float32.")
_math_op("SQRT", MATH_TYPES, np.sqrt, "SQRT: ``sqrtf(x)`` in float32; float16 via float32.")
_math_op("RSQRT", MATH_TYPES, lambda x: _ONE / np.sqrt(x),
         "RSQRT: ``1.f / sqrtf(x)`` in float32 (two roundings, as the reference); float16 via float32.")
_math_op("FLOOR", FLOOR_TYPES, np.floor, "FLOOR: ``floorf(x)`` (exact); rank up to 4.",
         validate_unary_rank4)


@define("ABS", sigs_for(("T",), ("T",), ABS_TYPES), validate_unary)
def abs_(k):
    """ABS: ``|x|``. Floats exact; int32 ``std::abs`` (``|INT32_MIN|`` wraps to ``INT32_MIN``)."""
    x = k.inputs[0]
    if k.in_ops[0].type is I32:
        return [wrap_int32(np.abs(x.astype(np.int64))).astype(np.int32)]
    return [np.abs(x)]


@define("NEG", sigs_for(("T",), ("T",), NEG_TYPES), validate_unary)
def neg(k):
    """NEG: ``-x``. Floats exact; int32 wraps (``-INT32_MIN == INT32_MIN``)."""
    x = k.inputs[0]
    if k.in_ops[0].type is I32:
        return [wrap_int32(-x.astype(np.int64)).astype(np.int32)]
    return [-x]


@define("POW", sigs_for(("T", "T"), ("T",), MATH_TYPES), validate_broadcast_binary)
def pow_(k):
    """POW: ``powf(base, exponent)`` in float32 with broadcasting (negative base with a
    non-integer exponent gives NaN); float16 via float32."""
    base, exponent = k.inputs[0], k.inputs[1]
    with _errstate():
        y = np.power(base.astype(np.float32), exponent.astype(np.float32))
    return [y.astype(base.dtype)]


# --------------------------------------------------------------------------------------------------
# MAXIMUM, MINIMUM, SELECT (quant8 requantize each input to the output, in float as the reference).


def requantize_float(q: np.ndarray, src, dst) -> np.ndarray:
    """NNAPI ``requantize<T>``: ``v = float32((q - z_src) * s_src)``,
    ``r = double(v) / s_dst + z_dst`` (double), then ``qmin`` if ``r < qmin``, ``qmax`` if
    ``r > qmax``, else ``round_half_away(r)``. The reference does this in floating point."""
    v = dequantize_float32(q, src).astype(np.float64)
    r = v / float(f32(dst.scale)) + dst.zero_point
    lo, hi = qrange(dst.type)
    return np.where(r < lo, lo, np.where(r > hi, hi, round_half_away(r))).astype(dst.info.dtype)


def _minmax(k, is_min: bool):
    a, b = k.inputs[0], k.inputs[1]
    if k.in_ops[0].type in QUANT8 and k.model.origin != "tflite":
        a = requantize_float(a, k.in_ops[0], k.out_ops[0])
        b = requantize_float(b, k.in_ops[1], k.out_ops[0])
    # std::min(a, b) = b < a ? b : a;  std::max(a, b) = a < b ? b : a  (NaN handling included)
    return np.where(b < a, b, a) if is_min else np.where(a < b, b, a)


MINMAX_SIGS = sigs_for(("T", "T"), ("T",), MINMAX_SELECT_TYPES)


@define("MAXIMUM", MINMAX_SIGS, validate_broadcast_binary)
def maximum(k):
    """MAXIMUM: ``std::max(a, b)`` with broadcasting. quant8: both inputs are first requantized to
    the output's scale and zero point with :func:`requantize_float` (the reference works in
    float/double here), then compared as integers.

    In a TFLite model (``Model.origin == "tflite"``) quant8 is LiteRT's reference instead: the
    stored values compared as they are, whatever the scales and zero points (LiteRT's
    ``MaximumMinimum`` reads no quantization)."""
    return [_minmax(k, False)]


@define("MINIMUM", MINMAX_SIGS, validate_broadcast_binary)
def minimum(k):
    """MINIMUM: ``std::min(a, b)`` with broadcasting; quant8 as :func:`maximum` (also in a TFLite
    model)."""
    return [_minmax(k, True)]


def validate_select(v) -> None:
    """SELECT: condition, input 1, input 2 and the output all of one shape (no broadcasting)."""
    check_same_dims(v, 0, 1)
    check_same_dims(v, 1, 2)
    check_output_dims(v, v.inp(1).dimensions)


@define("SELECT", sigs_for((BOOL8, "T", "T"), ("T",), MINMAX_SELECT_TYPES), validate_select)
def select(k):
    """SELECT: ``out = cond ? a : b`` elementwise; the three inputs have one shape (no
    broadcasting). quant8: ``a`` and ``b`` are requantized to the output with
    :func:`requantize_float` (in float, as the reference), then selected. In a TFLite model
    (``Model.origin == "tflite"``) the stored values are selected as they are (LiteRT's ``Select``
    reads no quantization)."""
    cond, a, b = k.inputs
    if cond.shape != a.shape or a.shape != b.shape:
        k.fail(f"the inputs have shapes {list(cond.shape)}, {list(a.shape)} and {list(b.shape)}, "
               f"but they must all be the same")
    if k.in_ops[1].type in QUANT8 and k.model.origin != "tflite":
        a = requantize_float(a, k.in_ops[1], k.out_ops[0])
        b = requantize_float(b, k.in_ops[2], k.out_ops[0])
    return [np.where(cond.astype(bool), a, b)]


# --------------------------------------------------------------------------------------------------
# Comparisons and logic.


_COMPARISONS = {"EQUAL": np.equal, "NOT_EQUAL": np.not_equal, "GREATER": np.greater,
                "GREATER_EQUAL": np.greater_equal, "LESS": np.less, "LESS_EQUAL": np.less_equal}


def litert_comparable(ops) -> bool:
    """Whether LiteRT's quantized comparison applies to inputs of these operands: scales below 1
    (``MultiplyByQuantizedMultiplierSmallerThanOneExp``)."""
    return all(quantize_multiplier(float(f32(o.scale)))[1] <= 0 for o in ops)


def litert_comparison_value(q: np.ndarray, o) -> np.ndarray:
    """The integer LiteRT's reference comparisons (``ComparisonWithScaling``) compare for a
    quantized input: ``rdbpot(srdhm((q - z) * 2**8, m), -shift)`` with ``(m, shift) =
    quantize_multiplier(s)``: the real value in units of about 2**-8, rounded."""
    m, shift = quantize_multiplier(float(f32(o.scale)))
    return multiply_by_quantized_multiplier((q.astype(np.int64) - o.zero_point) << 8, m, shift)


def _comparison(name: str):
    fn = _COMPARISONS[name]

    def kernel(k):
        a, b = k.inputs[0], k.inputs[1]
        if k.in_ops[0].type in QUANT8 and k.model.origin == "tflite" and litert_comparable(k.in_ops[:2]):
            a, b = (litert_comparison_value(x, o) for x, o in zip((a, b), k.in_ops))
        elif k.in_ops[0].type in QUANT8:
            a, b = dequantize_float32(a, k.in_ops[0]), dequantize_float32(b, k.in_ops[1])
        elif a.dtype == np.bool_:
            a, b = a.astype(np.uint8), b.astype(np.uint8)
        return [fn(a, b)]

    kernel.__name__ = name.lower()
    kernel.__doc__ = (f"{name}: the elementwise comparison, broadcasting, a TENSOR_BOOL8 result. "
                      "float16 / float32 / int32 / bool8 compare directly (false < true). quant8: "
                      "as the reference, in float: both sides are dequantized to float32, "
                      "``float32(q - z) * float32(s)`` (:func:`~nnaccel.golden.common."
                      "dequantize_float32`), and compared; the scales may differ. In a TFLite model "
                      "(``Model.origin == \"tflite\"``) quant8 compares LiteRT's fixed-point values "
                      "instead (:func:`litert_comparison_value`).")
    return define(name, sigs_for(("T", "T"), (BOOL8,), COMPARISON_TYPES), validate_broadcast_binary)(kernel)


for _name in _COMPARISONS:
    _comparison(_name)


@define("LOGICAL_AND", sigs_for(("T", "T"), ("T",), LOGICAL_TYPES), validate_broadcast_binary)
def logical_and(k):
    """LOGICAL_AND: ``a && b`` with broadcasting (bool8)."""
    return [np.logical_and(k.inputs[0], k.inputs[1])]


@define("LOGICAL_OR", sigs_for(("T", "T"), ("T",), LOGICAL_TYPES), validate_broadcast_binary)
def logical_or(k):
    """LOGICAL_OR: ``a || b`` with broadcasting (bool8)."""
    return [np.logical_or(k.inputs[0], k.inputs[1])]


@define("LOGICAL_NOT", sigs_for(("T",), ("T",), LOGICAL_TYPES), validate_unary)
def logical_not(k):
    """LOGICAL_NOT: ``!x`` (bool8)."""
    return [np.logical_not(k.inputs[0])]


# --------------------------------------------------------------------------------------------------
# CAST, QUANTIZE, DEQUANTIZE.

CAST_SIGS = ([Sig((a,), (b,), since="V1_2") for a in CAST_CONVERTIBLE for b in CAST_CONVERTIBLE]
             + [Sig((t,), (t,), since="V1_3") for t in CAST_IDENTITY_ONLY])


def validate_cast(v) -> None:
    """CAST: a fully known output shape must equal the input's (NNAPI rejects the model)."""
    a, out = v.inp(0).dimensions, v.out(0).dimensions
    if _known(a) and _known(out) and all(out) and tuple(a) != tuple(out):
        v.fail(f"has shape {list(out)}, but CAST requires the output shape to equal the input shape "
               f"{list(a)}", output=0)
    validate_unary(v)


def _float_to_int(x: np.ndarray, lo: int, hi: int) -> np.ndarray:
    """C++ ``static_cast`` of floats to an integer type: truncation toward zero (values outside
    ``[lo, hi]`` are undefined in C++; here they saturate)."""
    with _errstate():
        return np.clip(np.trunc(x.astype(np.float64)), lo, hi)


@define("CAST", CAST_SIGS, validate_cast)
def cast(k):
    """CAST: converts the element type, ignoring scales and zero points (quant8 asymm is read and
    written as plain uint8).

    * to the same type: a copy (bool8, quant16, quant8 signed / symm: identity casts only);
    * to TENSOR_QUANT8_ASYMM: ``0 if x < 0, 255 if x > 255, else trunc(x)``;
    * float to int32: truncation toward zero (saturating outside the int32 range, where C++ is
      undefined);
    * to float16 / float32: the nearest value, ties to even (int32 -> float16 in one rounding).
    """
    x = k.inputs[0]
    t_in, t_out = k.in_ops[0].type, k.out_ops[0].type
    dtype = k.out_ops[0].info.dtype
    if t_in is t_out:
        return [x.copy()]
    if t_out in (Q8A, I32):
        lo, hi = qrange(t_out)
        if t_in in (F16, F32):
            return [_float_to_int(x, lo, hi).astype(dtype)]
        return [np.clip(x.astype(np.int64), lo, hi).astype(dtype)]
    if t_in is I32:  # int32 is exact in float64, so this rounds once
        with _errstate():
            return [x.astype(np.float64).astype(dtype)]
    return [x.astype(dtype)]


QUANTIZE_SIGS = [Sig((t,), (Q8A,), since="V1_2") for t in (F32, F16)] + \
                [Sig((t,), (Q8AS,), since="V1_3") for t in (F32, F16)]


@define("QUANTIZE", QUANTIZE_SIGS, validate_unary)
def quantize(k):
    """QUANTIZE: NNAPI ``quantizeToQuant8{,Signed}``, in float32::

        out = clamp(z + round_half_away(float32(x / s)), qmin, qmax)

    (float16 inputs are promoted to float32 before the division; the sum and the clamp are float32,
    the final conversion exact). A NaN input, undefined in the reference, gives ``max(qmin, 0)``.
    """
    x, o = k.inputs[0], k.out_ops[0]
    with _errstate():
        r = round_half_away(x.astype(np.float32) / f32(o.scale)).astype(np.float32)
        v = np.float32(o.zero_point) + r
    lo, hi = qrange(o.type)
    return [np.clip(np.nan_to_num(v, nan=0.0), lo, hi).astype(o.info.dtype)]


DEQUANTIZE_SIGS = [Sig((Q8A,), (F32,), since="V1_0"), Sig((Q8A,), (F16,), since="V1_2")] + \
                  [Sig((t,), (f,), since="V1_2") for t in (Q8S, Q8PC) for f in (F32, F16)] + \
                  [Sig((Q8AS,), (f,), since="V1_3") for f in (F32, F16)]


@define("DEQUANTIZE", DEQUANTIZE_SIGS, validate_unary_rank4)
def dequantize(k):
    """DEQUANTIZE: ``out = float32(s * float32(q - z))`` rounded to the output type (float16 from
    the float32 product). Per-channel (TENSOR_QUANT8_SYMM_PER_CHANNEL): ``s`` is the scale of the
    element's index along ``channel_dim``, ``z = 0``."""
    x, io, o = k.inputs[0], k.in_ops[0], k.out_ops[0]
    if io.type is Q8PC:
        cq = io.channel_quant
        shape = [1] * x.ndim
        shape[cq.channel_dim] = -1
        scales = np.asarray(cq.scales, np.float32).reshape(shape)
        return [(x.astype(np.float32) * scales).astype(o.info.dtype)]
    return [dequantize_float32(x, io).astype(o.info.dtype)]


