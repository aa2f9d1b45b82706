"""Golden kernels: recurrent, projection and random operations.

Spec: ../shared/spec/OperationType.aidl (RNN, BIDIRECTIONAL_SEQUENCE_RNN, UNIDIRECTIONAL_SEQUENCE_RNN,
LSTM, BIDIRECTIONAL_SEQUENCE_LSTM, UNIDIRECTIONAL_SEQUENCE_LSTM, QUANTIZED_16BIT_LSTM, QUANTIZED_LSTM,
SVDF, LSH_PROJECTION, RANDOM_MULTINOMIAL). Details the spec leaves open follow NNAPI's reference CPU
kernels (``nn/common/operations``); each kernel's docstring writes the arithmetic down.

Structure
    One RNN cell (:func:`rnn_sequence`) serves RNN and both sequence RNNs; one float LSTM cell
    (:func:`lstm_step` / :func:`lstm_sequence`) serves LSTM and both sequence LSTMs; the quantized
    LSTMs have their own integer cells. Time steps are a Python loop, everything else is
    vectorized over batch and units.

Omitted optional inputs
    An optional input is omitted when its operand has no value (``NO_VALUE``) or, at run time, when
    it arrives as ``None`` or as a zero-sized array (the conformance files give omitted graph
    inputs a ``[0]`` shape). Presence rules (CIFG, peephole, projection, layer normalization,
    auxiliary inputs) are checked by the validator when presence is known statically, and again
    by the kernel at run time, through the same functions.

Float16
    Float16 models are computed in float32 and rounded to float16 where the reference stores a
    float16 value (the RNN hidden state after each step; the LSTM outputs at the end).
"""

from __future__ import annotations

import math

import numpy as np

from ..model import CONSTANT_LIFETIMES, OperandLifetime
from ..quant import (
    apply_activation_float,
    fixed16_logistic,
    fixed16_rescale,
    fixed16_tanh,
    inv_sqrt_quantized_multiplier_exp,
    multiply_by_quantized_multiplier,
    quantize_multiplier,
    round_half_away,
    rounding_divide_by_pot,
    saturating_add_int16,
    saturating_rounding_doubling_high_mul_int16,
    wrap_int16,
    wrap_int32,
)
from ..registry import Sig, define
from .common import (
    BOOL,
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
    Q8S,
    Q16S,
)

FLOAT_T = {"T": (F32, F16)}


# ---------------------------------------------------------------------------------------------
# Shared checking machinery (validator and kernel use the same rules)
# ---------------------------------------------------------------------------------------------

class Shapes:
    """Shape and presence facts of one operation, for the validator or for the kernel.

    ``present(i)`` is True / False, or None when only the run time knows (a graph input may be fed
    as omitted). ``dims(i)`` is the shape (0 = unknown size) or None (unknown rank or omitted).
    ``fail(msg, i)`` raises the context's error naming input ``i``.
    """

    def __init__(self, v=None, k=None):
        self.v, self.k = v, k

    @classmethod
    def of_validation(cls, v):
        return cls(v=v)

    @classmethod
    def of_kernel(cls, k):
        return cls(k=k)

    @property
    def static(self) -> bool:
        return self.v is not None

    def n_in(self) -> int:
        return self.v.n_in if self.static else len(self.k.inputs)

    def present(self, i: int):
        if i >= self.n_in():
            return False
        if self.static:
            o = self.v.inp(i)
            if o.lifetime is OperandLifetime.NO_VALUE:
                return False
            if o.lifetime in CONSTANT_LIFETIMES:
                return o.data is not None and o.data.size > 0
            if o.lifetime is OperandLifetime.SUBGRAPH_INPUT:
                return None
            return True
        a = self.k.inputs[i]
        return a is not None and np.asarray(a).size > 0

    def dims(self, i: int):
        if self.present(i) is False:
            return None
        if self.static:
            d = self.v.inp(i).dimensions
            if d is None or (self.present(i) is None and d and not all(d)):
                return None  # unknown, or perhaps an omitted graph input declared with a 0 size
            return tuple(d)
        return tuple(np.shape(self.k.inputs[i]))

    def size(self, i: int, axis: int) -> int:
        """The size of ``axis`` of input ``i``; 0 when unknown."""
        d = self.dims(i)
        if d is None or len(d) <= axis:
            return 0
        return int(d[axis])

    def fail(self, message: str, i: int | None = None):
        if self.static:
            self.v.fail(message, input=i)
        where = f"input {i} " if i is not None else ""
        self.k.fail(where + message)

    # --- rules -----------------------------------------------------------------------------------
    def require(self, i: int, what: str):
        if self.present(i) is False:
            self.fail(f"is omitted, but the {what} is required", i)

    def rank(self, i: int, rank: int, what: str):
        d = self.dims(i)
        if d is not None and len(d) != rank:
            self.fail(f"has rank {len(d)}, but the {what} must have rank {rank}", i)

    def dim(self, i: int, axis: int, expected: int, what: str, of: str):
        """Requires ``dims(i)[axis] == expected`` when both are known (``of`` names ``expected``)."""
        got = self.size(i, axis)
        if got and expected and got != expected:
            self.fail(f"has size {got} in dimension {axis}, but the {what} must match {of} ({expected})", i)

    def tensor(self, i: int, what: str, shape: tuple, names: tuple):
        """Rank and sizes of a present tensor: ``shape`` holds expected sizes (0 = not checked)."""
        if self.present(i) is False:
            return
        self.rank(i, len(shape), what)
        for axis, (n, name) in enumerate(zip(shape, names)):
            self.dim(i, axis, n, what, name)

    def all_or_none(self, idxs, what: str):
        """All of ``idxs`` present or all omitted (checked when presence is known)."""
        p = [self.present(i) for i in idxs]
        if any(x is None for x in p):
            return
        if any(p) and not all(p):
            missing = [i for i, x in zip(idxs, p) if not x]
            self.fail(f"is omitted while other {what} are given; the spec requires all of inputs "
                      f"{list(idxs)} or none of them", missing[0])


def opt(k, i: int):
    """Input ``i`` of a kernel, or ``None`` when omitted (absent, no value or zero-sized)."""
    a = k.input(i)
    if a is None or np.asarray(a).size == 0:
        return None
    return a


def f32(a):
    """Float32 view of an optional float tensor (``None`` stays ``None``)."""
    return None if a is None else np.asarray(a, dtype=np.float32)


def time_major_view(x: np.ndarray, time_major: bool) -> np.ndarray:
    """A ``[time, batch, ...]`` view of a sequence tensor given in either layout."""
    return x if time_major else np.swapaxes(x, 0, 1)


# ---------------------------------------------------------------------------------------------
# RNN family: one cell
# ---------------------------------------------------------------------------------------------

def rnn_sequence(x, h, w, r, b, act: int, aux=None, aux_w=None, reverse: bool = False,
                 state_dtype=np.float32):
    """The basic RNN cell over a time-major sequence ``x`` ``[time, batch, input]``::

        h_t = act(x_t @ w.T + aux_t @ aux_w.T + h_{t-1} @ r.T + b)

    (the aux term only in cross-linking mode). Computed with float32 intermediates; the state is
    rounded to ``state_dtype`` after each step, as the reference stores it in the output buffer.
    (NNAPI's float16 kernel also rounds every multiply-add to float16; the float32 accumulation
    here is closer to the exact value and within the conformance tolerance.)
    ``reverse`` walks the time steps from last to first (the backward direction). Returns the
    outputs ``[time, batch, units]`` (float32) and the last state.
    """
    x, h, w, r, b = f32(x), f32(h), f32(w), f32(r), f32(b)
    aux, aux_w = f32(aux), f32(aux_w)
    steps = x.shape[0]
    out = np.zeros((steps, x.shape[1], w.shape[0]), np.float32)
    order = range(steps - 1, -1, -1) if reverse else range(steps)
    for t in order:
        acc = x[t] @ w.T + h @ r.T + b
        if aux_w is not None:
            acc = acc + aux[t] @ aux_w.T
        h = apply_activation_float(acc.astype(np.float32), act)
        h = h.astype(state_dtype).astype(np.float32)
        out[t] = h
    return out, h


def _rnn_shapes(s: Shapes, x: int, w: int, r: int, b: int, h: int, batch: int, size: int, what=""):
    """Shape rules of one RNN direction (input size / units consistency)."""
    units = s.size(w, 0) or s.size(b, 0) or s.size(r, 0)
    s.tensor(w, f"{what}weights", (units, size), ("the number of units", "the input size"))
    s.tensor(r, f"{what}recurrent weights", (units, units), ("the number of units",) * 2)
    s.tensor(b, f"{what}bias", (units,), ("the number of units",))
    s.tensor(h, f"{what}hidden state", (batch, units), ("the batch size", "the number of units"))
    return units


def check_fused_activation(s: Shapes, i: int, act) -> None:
    if act is not None and act not in FUSED_ACTIVATIONS:
        s.fail(f"is {act}, but the fused activation must be one of {FUSED_ACTIVATION_CHOICES}", i)


def _check_rnn(s: Shapes, act) -> None:
    for i, what in enumerate(("input", "weights", "recurrent weights", "bias", "hidden state")):
        s.require(i, what)
    s.rank(0, 2, "input")
    _rnn_shapes(s, 0, 1, 2, 3, 4, s.size(0, 0), s.size(0, 1))
    check_fused_activation(s, 5, act)


def validate_rnn(v) -> None:
    _check_rnn(Shapes.of_validation(v), v.scalar(5))


RNN_SIGS = [Sig(("T", "T", "T", "T", "T", INT32), ("T", "T"), types=FLOAT_T)]


@define("RNN", RNN_SIGS, validate_rnn)
def rnn(k):
    """RNN: one step of the basic RNN cell (:func:`rnn_sequence` with one time step)::

        state_out = output = act(input @ weights.T + state_in @ recurrent_weights.T + bias)

    Outputs: ``[hidden state (out), output]``, both ``[batch, num_units]``.
    """
    _check_rnn(Shapes.of_kernel(k), k.scalar(5))
    x = k.inputs[0]
    dtype = x.dtype
    out, h = rnn_sequence(x[None], k.inputs[4], k.inputs[1], k.inputs[2], k.inputs[3],
                          k.scalar(5, 0), state_dtype=dtype)
    return [h.astype(dtype), out[0].astype(dtype)]


def _check_unidirectional_rnn(s: Shapes, act, tm) -> None:
    for i, what in enumerate(("input", "weights", "recurrent weights", "bias", "hidden state")):
        s.require(i, what)
    s.rank(0, 3, "input")
    if tm is not None and tm not in (0, 1):
        s.fail(f"is {tm}, but timeMajor must be 0 or 1", 6)
    batch = s.size(0, 1 if tm else 0) if tm is not None else 0
    _rnn_shapes(s, 0, 1, 2, 3, 4, batch, s.size(0, 2))
    check_fused_activation(s, 5, act)


def validate_unidirectional_rnn(v) -> None:
    _check_unidirectional_rnn(Shapes.of_validation(v), v.scalar(5), v.scalar(6))


@define("UNIDIRECTIONAL_SEQUENCE_RNN", [
    Sig(("T", "T", "T", "T", "T", INT32, INT32), ("T",), types=FLOAT_T),
    Sig(("T", "T", "T", "T", "T", INT32, INT32), ("T", "T"), types=FLOAT_T, since="V1_3"),
], validate_unidirectional_rnn)
def unidirectional_sequence_rnn(k):
    """UNIDIRECTIONAL_SEQUENCE_RNN: :func:`rnn_sequence` over every time step.

    Input ``[max_time, batch, input]`` when timeMajor is 1, else ``[batch, max_time, input]``;
    output in the same layout with ``num_units`` last; optional output 1 is the last state.
    """
    _check_unidirectional_rnn(Shapes.of_kernel(k), k.scalar(5), k.scalar(6))
    tm = bool(k.scalar(6))
    x = k.inputs[0]
    dtype = x.dtype
    out, h = rnn_sequence(time_major_view(x, tm), k.inputs[4], k.inputs[1], k.inputs[2],
                          k.inputs[3], k.scalar(5, 0), state_dtype=dtype)
    res = [time_major_view(out, tm).astype(dtype)]
    if len(k.out_ops) == 2:
        res.append(h.astype(dtype))
    return res


# BIDIRECTIONAL_SEQUENCE_RNN input positions.
_BR_AUX, _BR_FW_AUXW, _BR_BW_AUXW = 9, 10, 11


def _bidi_rnn_mode(s: Shapes):
    """Linking mode from the presence of the aux input and aux weights (None = run time only)."""
    p = (s.present(_BR_AUX), s.present(_BR_FW_AUXW), s.present(_BR_BW_AUXW))
    if None in p:
        return None
    if p == (False, False, False):
        return "none"
    if p == (True, False, False):
        return "parallel"
    if p == (True, True, True):
        return "cross"
    s.fail("has an unsupported combination: the auxiliary input and the forward and backward "
           "auxiliary weights must be all omitted (no linking), all given (cross-linking), or only "
           "the auxiliary input given (parallel linking)", _BR_AUX if not p[0] else
           (_BR_FW_AUXW if not p[1] else _BR_BW_AUXW))


def _check_bidi_rnn(s: Shapes, tm, merge, n_out: int):
    for i, what in ((0, "input"), (1, "forward weights"), (2, "forward recurrent weights"),
                    (3, "forward bias"), (4, "forward hidden state"), (5, "backward weights"),
                    (6, "backward recurrent weights"), (7, "backward bias"),
                    (8, "backward hidden state")):
        s.require(i, what)
    s.rank(0, 3, "input")
    mode = _bidi_rnn_mode(s)
    batch = s.size(0, 1 if tm else 0) if tm is not None else 0
    size = s.size(0, 2)
    _rnn_shapes(s, 0, 1, 2, 3, 4, batch, size, "forward ")
    bw_size = size if mode != "parallel" else s.size(_BR_AUX, 2)
    _rnn_shapes(s, 0, 5, 6, 7, 8, batch, bw_size, "backward ")
    if mode in ("parallel", "cross"):
        s.rank(_BR_AUX, 3, "auxiliary input")
        s.dim(_BR_AUX, 0, s.size(0, 0), "auxiliary input", "the input's dimension 0")
        s.dim(_BR_AUX, 1, s.size(0, 1), "auxiliary input", "the input's dimension 1")
    if mode == "cross":
        aux_size = s.size(_BR_AUX, 2)
        s.tensor(_BR_FW_AUXW, "forward auxiliary weights", (s.size(1, 0), aux_size),
                 ("the forward number of units", "the auxiliary input size"))
        s.tensor(_BR_BW_AUXW, "backward auxiliary weights", (s.size(5, 0), aux_size),
                 ("the backward number of units", "the auxiliary input size"))
    if merge is not None:
        allowed = (1, 3) if merge else (2, 4)
        if n_out not in allowed:
            s.fail(f"mergeOutputs is {bool(merge)}, so the operation must have "
                   f"{' or '.join(map(str, allowed))} outputs, but it has {n_out}", 14)
    return mode


def validate_bidirectional_rnn(v) -> None:
    s = Shapes.of_validation(v)
    _check_bidi_rnn(s, v.scalar(13), v.scalar(14), v.n_out)
    check_fused_activation(s, 12, v.scalar(12))


_BIDI_RNN_IN = ("T",) * 12 + (INT32, BOOL, BOOL)


@define("BIDIRECTIONAL_SEQUENCE_RNN", [
    Sig(_BIDI_RNN_IN, ("T",) * n, types=FLOAT_T, since="V1_3" if n > 2 else "V1_2")
    for n in (1, 2, 3, 4)
], validate_bidirectional_rnn)
def bidirectional_sequence_rnn(k):
    """BIDIRECTIONAL_SEQUENCE_RNN: a forward and a backward :func:`rnn_sequence`.

    The forward cell reads the input from the first to the last step, the backward cell from the
    last to the first. Linking modes (by which optional inputs are given): none; cross-linking
    (aux input and aux weights: both cells add ``aux_t @ aux_weights.T``); parallel linking (aux
    input only: the backward cell reads the aux input instead of the input). ``mergeOutputs``
    concatenates the two outputs on the last axis into output 0. With state outputs, the last
    forward and backward hidden states follow.
    """
    s = Shapes.of_kernel(k)
    tm, merge = bool(k.scalar(13)), bool(k.scalar(14))
    mode = _check_bidi_rnn(s, tm, merge, len(k.out_ops))
    check_fused_activation(s, 12, k.scalar(12))
    x = k.inputs[0]
    dtype = x.dtype
    act = k.scalar(12, 0)
    xs = time_major_view(x, tm)
    aux = opt(k, _BR_AUX)
    aux_s = time_major_view(aux, tm) if aux is not None else None
    fw_aux = (aux_s, k.inputs[_BR_FW_AUXW]) if mode == "cross" else (None, None)
    bw_aux = (aux_s, k.inputs[_BR_BW_AUXW]) if mode == "cross" else (None, None)
    bw_in = aux_s if mode == "parallel" else xs
    fw_out, fw_h = rnn_sequence(xs, k.inputs[4], k.inputs[1], k.inputs[2], k.inputs[3], act,
                                *fw_aux, state_dtype=dtype)
    bw_out, bw_h = rnn_sequence(bw_in, k.inputs[8], k.inputs[5], k.inputs[6], k.inputs[7], act,
                                *bw_aux, reverse=True, state_dtype=dtype)
    if merge:
        outs = [np.concatenate([fw_out, bw_out], axis=2)]
    else:
        outs = [fw_out, bw_out]
    outs = [time_major_view(o, tm).astype(dtype) for o in outs]
    if len(k.out_ops) > len(outs):
        outs += [fw_h.astype(dtype), bw_h.astype(dtype)]
    return outs


# ---------------------------------------------------------------------------------------------
# SVDF
# ---------------------------------------------------------------------------------------------

def _check_svdf(s: Shapes, rank):
    for i, what in ((0, "input"), (1, "feature weights"), (2, "time weights"), (4, "state")):
        s.require(i, what)
    s.rank(0, 2, "input")
    filters = s.size(1, 0)
    s.tensor(1, "feature weights", (0, s.size(0, 1)), ("", "the input size"))
    s.tensor(2, "time weights", (filters, 0), ("the number of filters", ""))
    if rank is not None and rank <= 0:
        s.fail(f"is {rank}, but the rank must be positive", 5)
    units = 0
    if rank and filters:
        if filters % rank:
            s.fail(f"has {filters} filters, which is not a multiple of the rank {rank}", 1)
        units = filters // rank
    s.tensor(3, "bias", (units,), ("the number of units (filters / rank)",))
    memory = s.size(2, 1)
    s.tensor(4, "state", (s.size(0, 0), memory * filters),
             ("the batch size", "memory_size * num_units * rank"))


def validate_svdf(v) -> None:
    s = Shapes.of_validation(v)
    _check_svdf(s, v.scalar(5))
    check_fused_activation(s, 6, v.scalar(6))


@define("SVDF", [Sig(("T", "T", "T", "T", "T", INT32, INT32), ("T", "T"), types=FLOAT_T)],
        validate_svdf)
def svdf(k):
    """SVDF, as NNAPI's reference (``SVDF.cpp``), in float32 (float16 via float32).

    With ``filters = weights_feature.shape[0]``, ``units = filters / rank`` and ``memory =
    weights_time.shape[1]``, the state is ``[batch, filters, memory]`` (flattened; the reference
    keeps ``memory`` entries per filter, so the state has ``memory * filters`` columns, not the
    ``(memory - 1) * filters`` the spec text says)::

        S = state_in with S[:, :, memory-1] = x @ weights_feature.T         (newest activation)
        y[b, f] = sum_m weights_time[f, m] * S[b, f, m]
        out[b, u] = act(bias[u] + sum_{r<rank} y[b, u*rank + r])             (bias optional)
        state_out = S shifted left by one along memory, last column 0
    """
    s = Shapes.of_kernel(k)
    rank = k.scalar(5)
    _check_svdf(s, rank)
    check_fused_activation(s, 6, k.scalar(6))
    x = f32(k.inputs[0])
    wf, wt = f32(k.inputs[1]), f32(k.inputs[2])
    bias = f32(opt(k, 3))
    batch = x.shape[0]
    filters, memory = wt.shape
    units = filters // rank
    state = f32(k.inputs[4]).reshape(batch, filters, memory).copy()
    state[:, :, memory - 1] = x @ wf.T
    y = np.einsum("fm,bfm->bf", wt, state, dtype=np.float32)
    out = y.reshape(batch, units, rank).sum(axis=2, dtype=np.float32)
    if bias is not None:
        out = out + bias
    out = apply_activation_float(out.astype(np.float32), k.scalar(6, 0))
    new_state = np.zeros_like(state)
    new_state[:, :, :-1] = state[:, :, 1:]
    dtype = k.inputs[0].dtype
    return [new_state.reshape(batch, filters * memory).astype(dtype), out.astype(dtype)]


# ---------------------------------------------------------------------------------------------
# LSH_PROJECTION (FarmHash Fingerprint64 signatures)
# ---------------------------------------------------------------------------------------------

_U = np.uint64
_K0, _K1, _K2 = _U(0xC3A5C85C97CB3127), _U(0xB492B66FBE98F273), _U(0x9AE16A3B2F90404F)
_KMUL = _U(0x9DDFEA08EB382D69)


def _rot(v, s: int):
    return v if s == 0 else (v >> _U(s)) | (v << _U(64 - s))


def _shift_mix(v):
    return v ^ (v >> _U(47))


def _hash16(u, v, mul):
    a = (u ^ v) * mul
    a = a ^ (a >> _U(47))
    b = (v ^ a) * mul
    b = b ^ (b >> _U(47))
    return b * mul


def _fetch64(keys, off: int):
    return np.ascontiguousarray(keys[:, off:off + 8]).view("<u8").reshape(-1).astype(_U)


def _fetch32(keys, off: int):
    return np.ascontiguousarray(keys[:, off:off + 4]).view("<u4").reshape(-1).astype(_U)


def _weak32(keys, off, a, b):
    w, x, y, z = (_fetch64(keys, off + 8 * j) for j in range(4))
    a = a + w
    b = _rot(b + a + z, 21)
    c = a
    a = a + x + y
    b = b + _rot(a, 44)
    return a + z, b + c


def fingerprint64(keys: np.ndarray) -> np.ndarray:
    """FarmHash ``Fingerprint64`` (``farmhashna::Hash64``) of each row of the uint8 matrix ``keys``
    (all keys have the same length), vectorized over rows with wrapping uint64 arithmetic."""
    keys = np.ascontiguousarray(keys, np.uint8)
    n = keys.shape[1]
    ln = _U(n)
    with np.errstate(over="ignore"):
        if n <= 16:
            if n >= 8:
                mul = _K2 + ln * _U(2)
                a = _fetch64(keys, 0) + _K2
                b = _fetch64(keys, n - 8)
                c = _rot(b, 37) * mul + a
                d = (_rot(a, 25) + b) * mul
                return _hash16(c, d, mul)
            if n >= 4:
                mul = _K2 + ln * _U(2)
                a = _fetch32(keys, 0)
                return _hash16(ln + (a << _U(3)), _fetch32(keys, n - 4), mul)
            if n > 0:
                a = keys[:, 0].astype(_U)
                b = keys[:, n >> 1].astype(_U)
                c = keys[:, n - 1].astype(_U)
                y = (a + (b << _U(8))) & _U(0xFFFFFFFF)
                z = (ln + (c << _U(2))) & _U(0xFFFFFFFF)
                return _shift_mix(y * _K2 ^ z * _K0) * _K2
            return np.full(keys.shape[0], _K2, _U)
        if n <= 32:
            mul = _K2 + ln * _U(2)
            a = _fetch64(keys, 0) * _K1
            b = _fetch64(keys, 8)
            c = _fetch64(keys, n - 8) * mul
            d = _fetch64(keys, n - 16) * _K2
            return _hash16(_rot(a + b, 43) + _rot(c, 30) + d, a + _rot(b + _K2, 18) + c, mul)
        if n <= 64:
            mul = _K2 + ln * _U(2)
            a = _fetch64(keys, 0) * _K2
            b = _fetch64(keys, 8)
            c = _fetch64(keys, n - 8) * mul
            d = _fetch64(keys, n - 16) * _K2
            y = _rot(a + b, 43) + _rot(c, 30) + d
            z = _hash16(y, a + _rot(b + _K2, 18) + c, mul)
            e = _fetch64(keys, 16) * mul
            f = _fetch64(keys, 24)
            g = (y + _fetch64(keys, n - 32)) * mul
            h = (z + _fetch64(keys, n - 24)) * mul
            return _hash16(_rot(e + f, 43) + _rot(g, 30) + h, e + _rot(f + a, 18) + g, mul)
        # Longer keys: 64-byte blocks, then the last 64 bytes.
        rows = keys.shape[0]
        seed = _U(81)
        x = np.full(rows, seed, _U)
        y = np.full(rows, seed * _K1 + _U(113), _U)
        z = _shift_mix(y * _K2 + _U(113)) * _K2
        v0 = v1 = w0 = w1 = np.zeros(rows, _U)
        x = x * _K2 + _fetch64(keys, 0)
        end = ((n - 1) // 64) * 64
        last64 = n - 64
        for s in range(0, end, 64):
            x = _rot(x + y + v0 + _fetch64(keys, s + 8), 37) * _K1
            y = _rot(y + v1 + _fetch64(keys, s + 48), 42) * _K1
            x = x ^ w1
            y = y + v0 + _fetch64(keys, s + 40)
            z = _rot(z + w0, 33) * _K1
            v0, v1 = _weak32(keys, s, v1 * _K1, x + w0)
            w0, w1 = _weak32(keys, s + 32, z + w1, y + _fetch64(keys, s + 16))
            x, z = z, x
        mul = _K1 + ((z & _U(0xFF)) << _U(1))
        s = last64
        w0 = w0 + _U((n - 1) & 63)
        v0 = v0 + w0
        w0 = w0 + v0
        x = _rot(x + y + v0 + _fetch64(keys, s + 8), 37) * mul
        y = _rot(y + v1 + _fetch64(keys, s + 48), 42) * mul
        x = x ^ (w1 * _U(9))
        y = y + v0 * _U(9) + _fetch64(keys, s + 40)
        z = _rot(z + w0, 33) * mul
        v0, v1 = _weak32(keys, s, v1 * mul, x + w0)
        w0, w1 = _weak32(keys, s + 32, z + w1, y + _fetch64(keys, s + 16))
        x, z = z, x
        return _hash16(_hash16(v0, w0, mul) + _shift_mix(y) * _K0 + z,
                       _hash16(v1, w1, mul) + x, mul)


LSH_SPARSE_DEPRECATED, LSH_DENSE, LSH_SPARSE = 1, 2, 3
_LSH_TYPES = {1: "SPARSE_DEPRECATED", 2: "DENSE", 3: "SPARSE"}


def _check_lsh(s: Shapes, kind):
    s.require(0, "hash functions tensor")
    s.require(1, "input")
    s.rank(0, 2, "hash functions tensor")
    d = s.dims(1)
    if d is not None and len(d) < 1:
        s.fail("has rank 0, but the input must have rank 1 or more", 1)
    bits = s.size(0, 1)
    if bits > 32:
        s.fail(f"has {bits} bits per hash function, but at most 32 are supported", 0)
    if kind is None:
        return
    if kind not in _LSH_TYPES:
        s.fail(f"is {kind}, but the projection type must be 1 (SPARSE_DEPRECATED), 2 (DENSE) or "
               f"3 (SPARSE)", 3)
    if kind == LSH_DENSE:
        s.require(2, "weight tensor (of a DENSE projection)")
    elif s.present(2):
        s.fail("is given, but a SPARSE projection takes no weights", 2)
    if kind == LSH_SPARSE and bits:
        hashes = s.size(0, 0)
        if hashes and bits + math.ceil(math.log2(hashes)) > 32:
            s.fail(f"has {hashes} hash functions of {bits} bits, but a SPARSE projection requires "
                   f"bits + ceil(log2(hash functions)) <= 32", 0)
    s.tensor(2, "weight tensor", (s.size(1, 0),), ("the input's dimension 0",))


def validate_lsh_projection(v) -> None:
    _check_lsh(Shapes.of_validation(v), v.scalar(3))


@define("LSH_PROJECTION", [
    Sig(("H", (F32, F16, I32, Q8A), "H", INT32), (I32,), types={"H": (F32, F16)}),
], validate_lsh_projection)
def lsh_projection(k):
    """LSH_PROJECTION as NNAPI's ``LSHProjection.cpp``.

    For hash function ``i`` and bit ``j`` the seed is ``float32(hash[i, j])`` (float16 hash
    tensors are widened to float32, as the reference does); for every input row
    ``r`` (the input viewed as ``[dim0, row_bytes]`` raw bytes) the key is the 4 little-endian
    bytes of the seed followed by the row's bytes, and::

        h[r] = int64(Fingerprint64(key))                           (FarmHash, reinterpreted)
        score = sum_r weight[r] * double(h[r])   (weight 1 when omitted; summed in row order)
        bit[i, j] = 1 if score > 0 else 0

    DENSE outputs the bits flattened ``[hashes * bits]``; SPARSE outputs per hash function the bits
    read as a binary number (first bit most significant) plus ``i << bits``; SPARSE_DEPRECATED the
    same without the offset.
    """
    s = Shapes.of_kernel(k)
    kind = k.scalar(3)
    _check_lsh(s, kind)
    hashes = np.asarray(k.inputs[0]).astype(np.float32)
    n_hash, n_bits = hashes.shape
    x = np.ascontiguousarray(k.inputs[1])
    rows = x.shape[0]
    row_bytes = x.reshape(rows, -1).view(np.uint8).reshape(rows, -1)
    seeds = hashes.reshape(-1).view(np.uint8).reshape(-1, 4)
    n_seed = seeds.shape[0]
    keys = np.concatenate([np.repeat(seeds, rows, axis=0), np.tile(row_bytes, (n_seed, 1))], axis=1)
    h = fingerprint64(keys).view(np.int64).astype(np.float64).reshape(n_seed, rows)
    w = opt(k, 2)
    if w is not None:
        h = h * np.asarray(w).astype(np.float64)[None, :]
    score = np.cumsum(h, axis=1)[:, -1] if rows else np.zeros(n_seed)
    bits = (score > 0).astype(np.int64).reshape(n_hash, n_bits)
    if kind == LSH_DENSE:
        return [bits.reshape(-1).astype(np.int32)]
    sig = (bits << np.arange(n_bits - 1, -1, -1, dtype=np.int64)).sum(axis=1)
    if kind == LSH_SPARSE:
        sig = sig + np.arange(n_hash, dtype=np.int64) * (1 << n_bits)
    return [sig.astype(np.int32)]


# ---------------------------------------------------------------------------------------------
# RANDOM_MULTINOMIAL
# ---------------------------------------------------------------------------------------------

def _check_multinomial(s: Shapes, samples):
    s.rank(0, 2, "input (logits)")
    s.tensor(2, "seeds tensor", (2,), ("2",))
    if samples is not None and samples < 0:
        s.fail(f"is {samples}, but the number of samples must not be negative", 1)


def validate_multinomial(v) -> None:
    _check_multinomial(Shapes.of_validation(v), v.scalar(1))


@define("RANDOM_MULTINOMIAL", [Sig(("T", INT32, I32), (I32,), types=FLOAT_T)],
        validate_multinomial)
def random_multinomial(k):
    """RANDOM_MULTINOMIAL: ``samples`` class indexes per batch row, drawn with probability
    ``softmax(logits)``, as the reference computes it::

        cdf[j] = sum_{i <= j, logit_i finite} exp(double(logit_i) - max finite logit)
        sample = number of cdf entries <= u * cdf[-1],   u uniform in [0, 1)

    (non-finite logits have probability 0). The uniform numbers come from the interpreter's
    seeded generator ``k.rng`` (``Interpreter(model, seed=...)``), not from the seeds tensor:
    NNAPI's Philox stream is not reproduced, only the distribution (which is what the
    conformance test checks).
    """
    _check_multinomial(Shapes.of_kernel(k), k.scalar(1))
    logits = np.asarray(k.inputs[0]).astype(np.float32).astype(np.float64)
    samples = int(k.scalar(1))
    finite = np.isfinite(logits)
    top = np.where(finite, logits, -np.inf).max(axis=1, keepdims=True) if logits.shape[1] else 0.0
    top = np.where(np.isfinite(top), top, 0.0)
    e = np.where(finite, np.exp(np.where(finite, logits, 0.0) - top), 0.0)
    cdf = np.cumsum(e, axis=1)
    total = cdf[:, -1:] if cdf.shape[1] else np.zeros((cdf.shape[0], 1))
    u = k.rng.random((logits.shape[0], samples)) * total
    out = (cdf[:, None, :] <= u[:, :, None]).sum(axis=2)
    return [out.astype(np.int32)]


# ---------------------------------------------------------------------------------------------
# LSTM family (float): one cell
# ---------------------------------------------------------------------------------------------

#: Input positions of one LSTM direction, relative to its first weight (input-to-input weights).
_LSTM_KEYS = ("i2i", "i2f", "i2c", "i2o", "r2i", "r2f", "r2c", "r2o", "c2i", "c2f", "c2o",
              "bi", "bf", "bc", "bo", "pw", "pb")
_LSTM_NAMES = {
    "i2i": "input-to-input weights", "i2f": "input-to-forget weights",
    "i2c": "input-to-cell weights", "i2o": "input-to-output weights",
    "r2i": "recurrent-to-input weights", "r2f": "recurrent-to-forget weights",
    "r2c": "recurrent-to-cell weights", "r2o": "recurrent-to-output weights",
    "c2i": "cell-to-input weights", "c2f": "cell-to-forget weights",
    "c2o": "cell-to-output weights", "bi": "input gate bias", "bf": "forget gate bias",
    "bc": "cell bias", "bo": "output gate bias", "pw": "projection weights",
    "pb": "projection bias", "h": "output state (in)", "c": "cell state (in)",
    "ln_i": "input layer normalization weights", "ln_f": "forget layer normalization weights",
    "ln_c": "cell layer normalization weights", "ln_o": "output layer normalization weights",
    "ax_i": "auxiliary input-to-input weights", "ax_f": "auxiliary input-to-forget weights",
    "ax_c": "auxiliary input-to-cell weights", "ax_o": "auxiliary input-to-output weights",
}

#: LSTM cell activation function g (input 20 of LSTM): NNAPI / TFLite activation codes.
LSTM_ACTIVATIONS = {0: "NONE", 1: "RELU", 3: "RELU6", 4: "TANH", 6: "SIGMOID"}


def lstm_layout(first: int, h: int, c: int, ln: int | None, aux: int | None = None) -> dict:
    """Input positions of one LSTM direction: weights from ``first``, states ``h`` / ``c``, layer
    normalization weights from ``ln``, auxiliary weights from ``aux``."""
    m = {key: first + n for n, key in enumerate(_LSTM_KEYS)}
    m.update(h=h, c=c)
    if ln is not None:
        m.update(ln_i=ln, ln_f=ln + 1, ln_c=ln + 2, ln_o=ln + 3)
    if aux is not None:
        m.update(ax_i=aux, ax_f=aux + 1, ax_c=aux + 2, ax_o=aux + 3)
    return m


def check_lstm_direction(s: Shapes, m: dict, batch: int, n_input: int, n_aux: int = 0,
                         what: str = "") -> dict:
    """The LSTM tensor rules (spec + NNAPI ``CheckInputTensorDimensions``) for one direction.

    Returns the sizes and the variant flags known so far (``None`` = known at run time only).
    """
    def name(key):
        return what + _LSTM_NAMES[key]

    def has(key):
        return s.present(m[key]) if key in m else False

    for key in ("i2f", "i2c", "i2o", "r2f", "r2c", "r2o", "bf", "bc", "bo", "h", "c"):
        s.require(m[key], name(key))
    cells = s.size(m["i2o"], 0) or s.size(m["bf"], 0)
    out = s.size(m["r2o"], 1)
    cell_of, in_of, out_of = "the number of cells", "the input size", "the output size"
    for key in ("i2i", "i2f", "i2c", "i2o"):
        s.tensor(m[key], name(key), (cells, n_input), (cell_of, in_of))
    for key in ("r2i", "r2f", "r2c", "r2o"):
        s.tensor(m[key], name(key), (cells, out), (cell_of, out_of))
    for key in ("c2i", "c2f", "c2o", "bi", "bf", "bc", "bo", "ln_i", "ln_f", "ln_c", "ln_o"):
        if key in m:
            s.tensor(m[key], name(key), (cells,), (cell_of,))
    s.tensor(m["pw"], name("pw"), (out, cells), (out_of, cell_of))
    s.tensor(m["pb"], name("pb"), (out,), (out_of,))
    s.tensor(m["h"], name("h"), (batch, out), ("the batch size", out_of))
    s.tensor(m["c"], name("c"), (batch, cells), ("the batch size", cell_of))
    # CIFG: input gate weights and bias all given or all omitted.
    s.all_or_none([m["i2i"], m["r2i"], m["bi"]], f"{what}input gate tensors (input-to-input "
                  f"weights, recurrent-to-input weights, input gate bias)")
    cifg = None if has("i2i") is None else not has("i2i")
    # Peephole: cell-to-forget and cell-to-output together; cell-to-input with them unless CIFG.
    s.all_or_none([m["c2f"], m["c2o"]], f"{what}peephole weights")
    if cifg is not None and has("c2o") is not None:
        if cifg and has("c2i"):
            s.fail("is given, but with CIFG (no input gate) the cell-to-input weights must be "
                   "omitted", m["c2i"])
        if not cifg and has("c2i") is not None and has("c2i") != has("c2o"):
            s.fail("does not match the other peephole weights: without CIFG the cell-to-input, "
                   "cell-to-forget and cell-to-output weights are all given or all omitted",
                   m["c2i"])
    # Projection: the bias needs the weights; without projection, output size = cells.
    if has("pb") and has("pw") is False:
        s.fail("is given without projection weights", m["pb"])
    if has("pw") is False and out and cells and out != cells:
        s.fail(f"has output size {out}, but without projection weights the output size must "
               f"equal the number of cells ({cells})", m["r2o"])
    # Layer normalization: all four (three with CIFG) or none.
    if "ln_o" in m:
        if cifg and has("ln_i"):
            s.fail("is given, but with CIFG the input layer normalization weights must be "
                   "omitted", m["ln_i"])
        keys = ["ln_f", "ln_c", "ln_o"] if cifg else ["ln_i", "ln_f", "ln_c", "ln_o"]
        if cifg is not None:
            s.all_or_none([m[k] for k in keys], f"{what}layer normalization weights")
    # Auxiliary weights (BIDIRECTIONAL_SEQUENCE_LSTM cross-linking).
    if "ax_o" in m:
        for key in ("ax_i", "ax_f", "ax_c", "ax_o"):
            s.tensor(m[key], name(key), (cells, n_aux), (cell_of, "the auxiliary input size"))
        s.all_or_none([m["ax_f"], m["ax_c"], m["ax_o"]], f"{what}auxiliary weights")
        if cifg is not None and has("ax_i") is not None and has("ax_f") is not None:
            if cifg and has("ax_i"):
                s.fail("is given, but with CIFG the auxiliary input-to-input weights must be "
                       "omitted", m["ax_i"])
            if not cifg and has("ax_i") != has("ax_f"):
                s.fail("does not match the other auxiliary weights (all given or all omitted)",
                       m["ax_i"])
    return {"cells": cells, "out": out, "cifg": cifg}


def check_lstm_params(s: Shapes, act, cell_clip, proj_clip, act_i: int, clip_i: int) -> None:
    if act is not None and act not in LSTM_ACTIVATIONS:
        s.fail(f"is {act}, but the LSTM activation must be one of 0 (NONE), 1 (RELU), 3 (RELU6), "
               f"4 (TANH) or 6 (SIGMOID)", act_i)
    for i, val, what in ((clip_i, cell_clip, "cell"), (clip_i + 1, proj_clip, "projection")):
        if val is not None and not val >= 0:
            s.fail(f"is {val}, but the {what} clipping threshold must be >= 0 (0 disables "
                   f"clipping)", i)


def lstm_activation(x: np.ndarray, act: int) -> np.ndarray:
    """The LSTM cell activation ``g`` (TFLite ``ApplyActivationToVector``) in float32."""
    if act == 4:
        return np.tanh(x)
    if act == 6:
        return sigmoid(x)
    return apply_activation_float(x, {0: 0, 1: 1, 3: 3}[act])


def sigmoid(x: np.ndarray) -> np.ndarray:
    return (1.0 / (1.0 + np.exp(-x.astype(np.float32)))).astype(np.float32)


def mean_stddev_normalize(x: np.ndarray) -> np.ndarray:
    """TFLite ``MeanStddevNormalization`` per batch row: ``(x - mean) / sqrt(var + 1e-8)``."""
    mean = x.mean(axis=1, keepdims=True, dtype=np.float32)
    var = np.square(x - mean).mean(axis=1, keepdims=True, dtype=np.float32)
    return ((x - mean) / np.sqrt(var + np.float32(1e-8))).astype(np.float32)


def lstm_weights(k, m: dict) -> dict:
    """The float32 tensors of one LSTM direction (``None`` where omitted)."""
    return {key: f32(opt(k, i)) for key, i in m.items()}


def lstm_step(p: dict, x, h, c, act: int, cell_clip: float, proj_clip: float, aux=None):
    """One float32 step of the LSTM cell (spec formulas; order of NNAPI's ``LSTMStep``)::

        pre_g = x @ W_xg.T + aux @ W_ag.T + h @ W_hg.T [+ b_g]     g in i, f, c, o
        pre_i += w_ci * c;  pre_f += w_cf * c                        (peephole)
        pre_g = normalize(pre_g) * ln_g + b_g                         (layer normalization:
                                                                       the bias comes after)
        i = sigmoid(pre_i)   or, with CIFG, 1 - f
        f = sigmoid(pre_f)
        c' = clip(f * c + i * act(pre_c), cell_clip)
        pre_o += w_co * c'                                            (peephole, new state)
        o = sigmoid(normalized pre_o);  m = o * act(c')
        h' = clip(m @ W_proj.T + b_proj, proj_clip)   with projection, else m

    Returns ``(h', c', scratch)``; the scratch buffer holds the reference's gate blocks
    ``[i | act(c') | f (1 - f with CIFG) | m]`` (``i`` absent with CIFG), each ``[batch, cells]``.
    """
    use_ln = p.get("ln_o") is not None
    cifg = p["i2i"] is None

    def pre(gate, peep=None, state=None):
        acc = x @ p["i2" + gate].T + h @ p["r2" + gate].T
        if aux is not None and p.get("ax_" + gate) is not None:
            acc = acc + aux @ p["ax_" + gate].T
        bias = p["b" + gate]
        if not use_ln:
            acc = acc + bias
        if peep is not None:
            acc = acc + peep * state
        if use_ln:
            acc = mean_stddev_normalize(acc.astype(np.float32)) * p["ln_" + gate] + bias
        return acc.astype(np.float32)

    f = sigmoid(pre("f", p["c2f"], c))
    i = 1.0 - f if cifg else sigmoid(pre("i", p["c2i"], c))
    g = lstm_activation(pre("c"), act)
    c_new = (f * c + i * g).astype(np.float32)
    if cell_clip > 0:
        c_new = np.clip(c_new, -cell_clip, cell_clip).astype(np.float32)
    o = sigmoid(pre("o", p["c2o"], c_new))
    act_c = lstm_activation(c_new, act)
    m_out = (o * act_c).astype(np.float32)
    if p["pw"] is not None:
        h_new = m_out @ p["pw"].T
        if p["pb"] is not None:
            h_new = h_new + p["pb"]
        if proj_clip > 0:
            h_new = np.clip(h_new, -proj_clip, proj_clip)
        h_new = h_new.astype(np.float32)
    else:
        h_new = m_out
    blocks = ([] if cifg else [i]) + [act_c, (1.0 - f) if cifg else f, m_out]
    return h_new, c_new, np.concatenate(blocks, axis=1).astype(np.float32)


def lstm_sequence(p: dict, xs, h, c, act: int, cell_clip: float, proj_clip: float, aux=None,
                  reverse: bool = False):
    """:func:`lstm_step` over a time-major sequence ``xs`` ``[time, batch, input]`` (float32 states
    between steps, as the reference keeps them). Returns ``(outputs [time, batch, out], h, c)``."""
    xs, h, c, aux = f32(xs), f32(h), f32(c), f32(aux)
    steps = xs.shape[0]
    outs = np.zeros((steps, xs.shape[1], h.shape[1]), np.float32)
    for t in (range(steps - 1, -1, -1) if reverse else range(steps)):
        h, c, _ = lstm_step(p, xs[t], h, c, act, cell_clip, proj_clip,
                            None if aux is None else aux[t])
        outs[t] = h
    return outs, h, c


def _lstm_sig(ft, head: int, scalars: tuple, tail: int, n_out: int, optional: int = 0,
              since: str = ""):
    fs = FLOAT32 if ft is F32 else FLOAT16
    ins = (ft,) * head + tuple(fs if x == "F" else x for x in scalars) + (ft,) * tail
    return Sig(ins, (ft,) * n_out, optional=optional, since=since)


def _lstm_clips(k, i: int):
    return float(k.scalar(i, 0.0) or 0.0), float(k.scalar(i + 1, 0.0) or 0.0)


LSTM_LAYOUT = lstm_layout(1, 18, 19, 23)


def _check_lstm(s: Shapes, n_in: int, act, cc, pc):
    if n_in not in (23, 27):
        s.fail(f"LSTM takes 23 inputs (HAL 1.0) or 27 (with layer normalization), but has {n_in}")
    s.require(0, "input")
    s.rank(0, 2, "input")
    check_lstm_params(s, act, cc, pc, 20, 21)
    return check_lstm_direction(s, LSTM_LAYOUT, s.size(0, 0), s.size(0, 1))


def validate_lstm(v) -> None:
    _check_lstm(Shapes.of_validation(v), v.n_in, v.scalar(20), v.scalar(21), v.scalar(22))


@define("LSTM", [_lstm_sig(ft, 20, (INT32, "F", "F"), 4, 4, optional=4,
                           since="V1_2" if ft is F16 else "") for ft in (F32, F16)],
        validate_lstm)
def lstm(k):
    """LSTM: one :func:`lstm_step` (float32; float16 via float32, rounded at the end).

    Outputs: scratch buffer ``[batch, cells * 4]`` (``* 3`` with CIFG), output state, cell state,
    output (the same values as the output state).
    """
    cc, pc = _lstm_clips(k, 21)
    _check_lstm(Shapes.of_kernel(k), len(k.inputs), k.scalar(20), cc, pc)
    p = lstm_weights(k, LSTM_LAYOUT)
    h, c, scratch = lstm_step(p, f32(k.inputs[0]), p["h"], p["c"], k.scalar(20), cc, pc)
    dtype = k.inputs[0].dtype
    return [scratch.astype(dtype), h.astype(dtype), c.astype(dtype), h.astype(dtype)]


USEQ_LSTM_LAYOUT = lstm_layout(1, 18, 19, 24)


def _check_useq_lstm(s: Shapes, tm, act, cc, pc):
    s.require(0, "input")
    s.rank(0, 3, "input")
    check_lstm_params(s, act, cc, pc, 20, 21)
    batch = s.size(0, 1 if tm else 0) if tm is not None else 0
    return check_lstm_direction(s, USEQ_LSTM_LAYOUT, batch, s.size(0, 2))


def validate_useq_lstm(v) -> None:
    _check_useq_lstm(Shapes.of_validation(v), v.scalar(23), v.scalar(20), v.scalar(21),
                     v.scalar(22))


@define("UNIDIRECTIONAL_SEQUENCE_LSTM", [
    _lstm_sig(ft, 20, (INT32, "F", "F", BOOL), 4, n, since="V1_3" if n == 3 else "")
    for ft in (F32, F16) for n in (1, 3)
], validate_useq_lstm)
def unidirectional_sequence_lstm(k):
    """UNIDIRECTIONAL_SEQUENCE_LSTM: :func:`lstm_sequence` over the whole input (time-major or
    batch-major by input 23); optional outputs 1 and 2 are the last output and cell states."""
    cc, pc = _lstm_clips(k, 21)
    tm = bool(k.scalar(23))
    _check_useq_lstm(Shapes.of_kernel(k), tm, k.scalar(20), cc, pc)
    p = lstm_weights(k, USEQ_LSTM_LAYOUT)
    x = k.inputs[0]
    outs, h, c = lstm_sequence(p, time_major_view(x, tm), p["h"], p["c"], k.scalar(20), cc, pc)
    res = [time_major_view(outs, tm).astype(x.dtype)]
    if len(k.out_ops) == 3:
        res += [h.astype(x.dtype), c.astype(x.dtype)]
    return res


BSEQ_FW = lstm_layout(1, 35, 36, 53, aux=40)
BSEQ_BW = lstm_layout(18, 37, 38, 57, aux=44)
_BL_AUX = 39


def _check_bseq_lstm(s: Shapes, tm, merge, act, cc, pc, n_out: int):
    s.require(0, "input")
    s.rank(0, 3, "input")
    check_lstm_params(s, act, cc, pc, 48, 49)
    batch = s.size(0, 1 if tm else 0) if tm is not None else 0
    has_aux = s.present(_BL_AUX)
    fw_w, bw_w = s.present(BSEQ_FW["ax_f"]), s.present(BSEQ_BW["ax_f"])
    mode = None
    if None not in (has_aux, fw_w, bw_w):
        if fw_w != bw_w:
            s.fail("does not match the backward auxiliary weights: the forward and backward "
                   "auxiliary weights are both given or both omitted", BSEQ_FW["ax_f"])
        if fw_w and not has_aux:
            s.fail("is omitted, but auxiliary weights are given, which need the auxiliary input",
                   _BL_AUX)
        mode = "cross" if fw_w else ("parallel" if has_aux else "none")
    if has_aux:
        s.rank(_BL_AUX, 3, "auxiliary input")
        s.dim(_BL_AUX, 0, s.size(0, 0), "auxiliary input", "the input's dimension 0")
        s.dim(_BL_AUX, 1, s.size(0, 1), "auxiliary input", "the input's dimension 1")
    size, aux_size = s.size(0, 2), s.size(_BL_AUX, 2)
    fw = check_lstm_direction(s, BSEQ_FW, batch, size, aux_size, "forward ")
    bw_size = {"parallel": aux_size, None: 0}.get(mode, size)  # 0: not known before run time
    bw = check_lstm_direction(s, BSEQ_BW, batch, bw_size, aux_size, "backward ")
    if merge is not None:
        allowed = (1, 5) if merge else (2, 6)
        if n_out not in allowed:
            s.fail(f"merge_outputs is {bool(merge)}, so the operation must have "
                   f"{' or '.join(map(str, allowed))} outputs, but it has {n_out}", 51)
    return mode, fw, bw


def validate_bseq_lstm(v) -> None:
    _check_bseq_lstm(Shapes.of_validation(v), v.scalar(52), v.scalar(51), v.scalar(48),
                     v.scalar(49), v.scalar(50), v.n_out)


@define("BIDIRECTIONAL_SEQUENCE_LSTM", [
    _lstm_sig(ft, 48, (INT32, "F", "F", BOOL, BOOL), 8, n, since="V1_3" if n > 2 else "")
    for ft in (F32, F16) for n in (1, 2, 5, 6)
], validate_bseq_lstm)
def bidirectional_sequence_lstm(k):
    """BIDIRECTIONAL_SEQUENCE_LSTM: a forward and a backward :func:`lstm_sequence`.

    The backward cell walks the time steps from last to first. Auxiliary input modes: none;
    cross-linking (aux input and aux weights: each cell adds ``aux_t @ W_aux.T`` to its gates);
    parallel linking (aux input without aux weights: the backward cell reads the aux input
    instead of the input). ``merge_outputs`` concatenates both outputs on the last axis into
    output 0. With state outputs (5 or 6 outputs), the forward output state, forward cell state,
    backward output state and backward cell state follow.
    """
    cc, pc = _lstm_clips(k, 49)
    tm, merge = bool(k.scalar(52)), bool(k.scalar(51))
    act = k.scalar(48)
    mode, _, _ = _check_bseq_lstm(Shapes.of_kernel(k), tm, merge, act, cc, pc, len(k.out_ops))
    x = k.inputs[0]
    xs = time_major_view(x, tm)
    aux = opt(k, _BL_AUX)
    aux_s = time_major_view(f32(aux), tm) if aux is not None else None
    fw, bw = lstm_weights(k, BSEQ_FW), lstm_weights(k, BSEQ_BW)
    cross = aux_s if mode == "cross" else None
    fw_out, fw_h, fw_c = lstm_sequence(fw, xs, fw["h"], fw["c"], act, cc, pc, cross)
    bw_out, bw_h, bw_c = lstm_sequence(bw, aux_s if mode == "parallel" else xs, bw["h"], bw["c"],
                                       act, cc, pc, cross, reverse=True)
    outs = [np.concatenate([fw_out, bw_out], axis=2)] if merge else [fw_out, bw_out]
    outs = [time_major_view(o, tm) for o in outs]
    if len(k.out_ops) > len(outs):
        outs += [fw_h, fw_c, bw_h, bw_c]
    return [o.astype(x.dtype) for o in outs]


# ---------------------------------------------------------------------------------------------
# QUANTIZED_16BIT_LSTM
# ---------------------------------------------------------------------------------------------

_Q16_NAMES = ("input", "input-to-input weights", "input-to-forget weights", "input-to-cell weights",
              "input-to-output weights", "recurrent-to-input weights",
              "recurrent-to-forget weights", "recurrent-to-cell weights",
              "recurrent-to-output weights", "input gate bias", "forget gate bias", "cell bias",
              "output gate bias", "previous cell state", "previous output")


def _f32_eq(a: float, b: float) -> bool:
    return np.float32(a) == np.float32(b)


def _check_q16_lstm(s: Shapes, ops):
    """Shape and quantization rules of QUANTIZED_16BIT_LSTM (``ops`` = the input operands)."""
    for i, what in enumerate(_Q16_NAMES):
        s.require(i, what)
    batch, size, out = s.size(0, 0), s.size(0, 1), s.size(14, 1)
    s.rank(0, 2, "input")
    for i in (0, 14):
        if not (_f32_eq(ops[i].scale, 1 / 128) and ops[i].zero_point == 128):
            s.fail(f"has scale {ops[i].scale:g} and zero point {ops[i].zero_point}, but the "
                   f"{_Q16_NAMES[i]} must have scale 1/128 and zero point 128", i)
    s.tensor(14, "previous output", (batch, out), ("the batch size", ""))
    w = ops[1]
    for i in range(1, 9):
        cols = (size, "the input size") if i <= 4 else (out, "the output size")
        s.tensor(i, _Q16_NAMES[i], (out, cols[0]), ("the output size", cols[1]))
        if not (_f32_eq(ops[i].scale, w.scale) and ops[i].zero_point == w.zero_point):
            s.fail(f"has scale {ops[i].scale:g} and zero point {ops[i].zero_point}, but all "
                   f"weights must share the input-to-input weights' scale {w.scale:g} and zero "
                   f"point {w.zero_point}", i)
    for i in range(9, 13):
        s.tensor(i, _Q16_NAMES[i], (out,), ("the output size",))
        if not (_f32_eq(ops[i].scale, np.float32(w.scale) / 128) and ops[i].zero_point == 0):
            s.fail(f"has scale {ops[i].scale:g} and zero point {ops[i].zero_point}, but a bias "
                   f"must have scale weights scale / 128 = {w.scale / 128:g} and zero point 0", i)
    s.tensor(13, "previous cell state", (batch, out), ("the batch size", "the output size"))
    c = ops[13]
    if not (_f32_eq(c.scale, 2.0 ** -11) and c.zero_point == 0):
        s.fail(f"has scale {c.scale:g} and zero point {c.zero_point}, but the cell state must "
               f"have scale 2^-11 (4 integer bits) and zero point 0", 13)


def validate_quantized_16bit_lstm(v) -> None:
    _check_q16_lstm(Shapes.of_validation(v), [v.inp(i) for i in range(v.n_in)])


@define("QUANTIZED_16BIT_LSTM", [
    Sig((Q8A,) * 9 + (I32,) * 4 + (Q16S, Q8A), (Q16S, Q8A)),
], validate_quantized_16bit_lstm)
def quantized_16bit_lstm(k):
    """QUANTIZED_16BIT_LSTM: NNAPI ``QuantizedLSTM.cpp`` (TFLite's legacy ``LstmCell<4>``) exactly.

    Fully connected part, per gate ``g`` in (input, cell, forget, output), in int32, with the
    reference's operand layout: the activations are concatenated as ``[input | previous output]``
    but the weights as ``[recurrent-to-g | input-to-g]`` (NNAPI ``concatenateWeights``), so column
    ``j`` of the concatenated weights meets element ``j`` of the concatenated activations. When
    input size and output size differ this is not the spec's ``W_xg x + W_hg h``, but it is what
    NNAPI computes and what the conformance vectors expect (checked: the spec's pairing misses
    them)::

        v = concat(q_x - 128, q_h - 128);  W_g = concat(W_hg, W_xg) - z_w      (along columns)
        acc_g = bias_g + v @ W_g.T
        (m, e) = quantize_multiplier(4096 * bias_scale)          # to Q3.12 (16-bit, 3 int bits)
        a_g = clamp(mbqm(acc_g, m, e), -32768, 32767)

    Then gemmlowp int16 fixed point (``*`` = int16 SRDHM, :mod:`nnaccel.quant` ``fixed16_*``)::

        i = logistic_Q3(a_input);  g = tanh_Q3(a_cell);  f = logistic_Q3(a_forget)
        o = logistic_Q3(a_output)                                        (all Q0.15)
        c' = saturating_add(rdbpot(i * g, 4), f * c)                     (cell state Q4.11)
        h = o * tanh_Q3(saturating_left_shift(c', 1))                    (Q0.15)
        out = 128 + clamp(rdbpot(h, 8), -128, 127)                       (uint8, scale 1/128)

    Outputs: cell state ``c'`` (int16) and ``out``.
    """
    s = Shapes.of_kernel(k)
    _check_q16_lstm(s, k.in_ops)
    x = k.inputs[0].astype(np.int64) - 128
    h = k.inputs[14].astype(np.int64) - 128
    zw = k.in_ops[1].zero_point
    m, e = quantize_multiplier(4096.0 * float(np.float32(k.in_ops[9].scale)))

    v = np.concatenate([x, h], axis=1)

    def gate(wx: int, wh: int, b: int):
        w = np.concatenate([k.inputs[wh], k.inputs[wx]], axis=1).astype(np.int64) - zw
        acc = v @ w.T + k.inputs[b].astype(np.int64)
        return np.clip(multiply_by_quantized_multiplier(wrap_int32(acc), m, e), -32768, 32767)

    i = fixed16_logistic(gate(1, 5, 9), 3)
    g = fixed16_tanh(gate(3, 7, 11), 3)
    f = fixed16_logistic(gate(2, 6, 10), 3)
    o = fixed16_logistic(gate(4, 8, 12), 3)
    mul = saturating_rounding_doubling_high_mul_int16
    c = k.inputs[13].astype(np.int64)
    c_new = saturating_add_int16(rounding_divide_by_pot(mul(i, g), 4), mul(f, c))
    h_new = mul(o, fixed16_tanh(fixed16_rescale(c_new, 4, 3), 3))
    out = 128 + np.clip(rounding_divide_by_pot(h_new, 8), -128, 127)
    return [c_new.astype(np.int16), out.astype(np.uint8)]


# ---------------------------------------------------------------------------------------------
# QUANTIZED_LSTM (NNAPI QLSTM.cpp, TFLite's integer LSTM)
# ---------------------------------------------------------------------------------------------

QLSTM_LAYOUT = lstm_layout(1, 18, 19, 20)
_QL_CELL_CLIP, _QL_INTERMEDIATE, _QL_HIDDEN_ZP, _QL_HIDDEN_SCALE = 24, 26, 30, 31


def _trunc_div(a, b):
    """C++ integer division (truncates toward zero)."""
    a = np.asarray(a, np.int64)
    q = np.abs(a) // b
    return np.where(a < 0, -q, q)


def checked_log2(x: float):
    """NNAPI ``CheckedLog2``: ``round(log2(x))`` when ``x`` is within 1e-3 (in log2) of a power of
    two, else ``None`` (computed in float32 as the reference does)."""
    lg = np.float32(np.log(np.float32(x))) * np.float32(1.0 / np.log(np.float32(2.0)))
    r = np.float32(round_half_away(lg))
    return int(r) if abs(lg - r) < 1e-3 else None


def _check_qlstm(s: Shapes, ops, cell_scale):
    s.require(0, "input")
    s.rank(0, 2, "input")
    info = check_lstm_direction(s, QLSTM_LAYOUT, s.size(0, 0), s.size(0, 1))
    if cell_scale is not None:
        shift = checked_log2(cell_scale)
        if shift is None or shift > -9:
            s.fail(f"has scale {cell_scale:g}, but the cell state scale must be a power of two "
                   f"2^k with k <= -9", 19)
    return info


def validate_quantized_lstm(v) -> None:
    _check_qlstm(Shapes.of_validation(v), None, v.inp(19).scale)


def _qlstm_matmul(x, x_zp: int, w, scale: np.float32, acc=None, out_zp: int = 0,
                  lo: int = -32768, hi: int = 32767, bias=None):
    """NNAPI ``MatrixBatchVectorMultiplyAccumulate`` with its precomputed zero-point bias::

        r = clamp(mbqm(wrap32(bias + (x - x_zp) @ w.T), m, e) + out_zp + acc, lo, hi)

    where ``(m, e) = quantize_multiplier(scale)``."""
    m, e = quantize_multiplier(float(scale))
    raw = (np.asarray(x, np.int64) - x_zp) @ np.asarray(w, np.int64).T
    if bias is not None:
        raw = raw + np.asarray(bias, np.int64)
    r = multiply_by_quantized_multiplier(wrap_int32(raw), m, e) + out_zp
    if acc is not None:
        r = r + acc
    return np.clip(r, lo, hi)


def _qlstm_layer_norm(x, weights, bias, scale: float, variance_limit: int):
    """NNAPI ``ApplyLayerNorm`` (int16 in and out), per batch row of ``x`` ``[batch, n]``::

        mean = trunc(sum(x) * 1024 / n)
        var = trunc((sum(x*x) * trunc(2**20 / n) - mean**2) / 2**20)   (var < 1 -> variance_limit)
        (a, b) = inv_sqrt_quantized_multiplier_exp(var, -1)
        r = mbqm(1024 x - mean, a, b)
        v = trunc((wrap32(r * w + bias) ± 512) / 1024)                   (rounded half away)
        out = clamp(mbqm(v, m, e + 12), int16),  (m, e) = quantize_multiplier(weights scale)
    """
    x = np.asarray(x, np.int64)
    n = x.shape[1]
    mean = wrap_int32(_trunc_div(x.sum(axis=1) * 1024, n))
    variance = (x * x).sum(axis=1) * ((1 << 20) // n) - mean * mean
    var2 = wrap_int32(_trunc_div(variance, 1 << 20))
    var2 = np.where(var2 < 1, variance_limit, var2)
    inv_a, inv_b = inv_sqrt_quantized_multiplier_exp(var2, -1)
    shifted = wrap_int32(1024 * x - mean[:, None])
    rescaled = multiply_by_quantized_multiplier(shifted, inv_a[:, None], inv_b[:, None])
    val3 = wrap_int32(wrap_int32(rescaled * np.asarray(weights, np.int64)) + np.asarray(bias, np.int64))
    val4 = _trunc_div(val3 + np.where(val3 > 0, 512, -512), 1024)
    m, e = quantize_multiplier(float(np.float32(scale)))
    return np.clip(multiply_by_quantized_multiplier(val4, m, e + 12), -32768, 32767)


@define("QUANTIZED_LSTM", [
    Sig((Q8AS,) + (Q8S,) * 8 + (Q16S,) * 3 + (I32,) * 4 + (Q8S, I32, Q8AS, Q16S) + (Q16S,) * 4
        + (FLOAT32,) * 6 + (INT32, FLOAT32), (Q8AS, Q16S, Q8AS)),
], validate_quantized_lstm)
def quantized_lstm(k):
    """QUANTIZED_LSTM: one step of NNAPI's integer LSTM (``QLSTM.cpp``), exactly.

    Notation: ``mm_g(v, W, s)`` = :func:`_qlstm_matmul` of int8 ``v`` (minus its zero point) with
    int8 weights, requantized with the float32 effective scale ``s``; ``inter_g`` = input 26..29;
    ``cs = log2(cell state scale)`` (a power of two, ``<= -9``). Every gate ``g`` is an int16 Q3.12
    value (saturating int16 additions)::

        pre_g = mm(x, W_xg, s_Wxg * s_x / inter_g) + mm(h, W_hg, s_Whg * s_h / inter_g)
        pre_g += mbqm(w_cg * c, float32(2**cs * s_wcg / inter_g))          (peephole; i, f
                                                                          use c_prev, o uses c')
        pre_g = layer_norm(pre_g, ln_g, bias_g)                           (when given; the gate
                                                                          bias is only used here)
        f = logistic_Q3(pre_f);  g = tanh_Q3(pre_c)
        i = logistic_Q3(pre_i), or 32767 - f with CIFG                    (Q0.15)
        c' = sat16(rdbpot(f * c_prev, 15) + rdbpot(i * g, 30 + cs))      (wrapped to int16 each)
        c' = clamp(c', ±trunc(cell_clip / s_c))                          (when cell_clip > 0)
        o = logistic_Q3(pre_o)
        hid = clamp(mbqm(o * tanh_{cs+15}(c'), float32(2**-15 / s_hid * 2**-15)) - z_hid, int8)
        out = clamp(mbqm(wrap32(b_p + (hid + z_hid) @ W_p.T), s_Wp * s_hid / s_h) + z_h, int8)
        out = clamp(out, ±trunc(proj_clip / s_Wp))                       (when proj_clip > 0)
        out = hid                                                         (without projection)

    ``layer_norm`` is :func:`_qlstm_layer_norm` with the variance floor
    ``min(1, trunc(10000 * s_ln))``. Outputs: output state, cell state ``c'``, output (= output
    state). Where the reference reads a buffer that is not yet written (peephole of the input and
    forget gates reads the new cell state before it is computed; a missing projection bias
    dereferences null) this model uses the previous cell state and a zero bias.
    """
    s = Shapes.of_kernel(k)
    _check_qlstm(s, k.in_ops, k.in_ops[19].scale)
    ops = k.in_ops
    inp = {key: opt(k, i) for key, i in QLSTM_LAYOUT.items()}
    sc = {key: np.float32(ops[i].scale) for key, i in QLSTM_LAYOUT.items()}
    x, x_zp, s_x = k.inputs[0], ops[0].zero_point, np.float32(ops[0].scale)
    h, h_zp, s_h = k.inputs[18], ops[18].zero_point, np.float32(ops[18].scale)
    c = k.inputs[19].astype(np.int64)
    cs = checked_log2(ops[19].scale)
    inter = {g: np.float32(k.scalar(_QL_INTERMEDIATE + n)) for n, g in enumerate("ifco")}
    cifg = inp["i2i"] is None

    def gate(g: str, cell=None):
        pre = _qlstm_matmul(x, x_zp, inp["i2" + g], sc["i2" + g] * s_x / inter[g])
        pre = _qlstm_matmul(h, h_zp, inp["r2" + g], sc["r2" + g] * s_h / inter[g], acc=pre)
        if g != "c" and inp["c2" + g] is not None:
            m, e = quantize_multiplier(float(np.float32(2.0 ** cs * float(sc["c2" + g])
                                                        / float(inter[g]))))
            prod = multiply_by_quantized_multiplier(inp["c2" + g].astype(np.int64) * cell, m, e)
            pre = np.clip(prod + pre, -32768, 32767)
        if inp["ln_" + g] is not None:
            limit = min(1, int(np.float32(10000) * sc["ln_" + g]))
            pre = _qlstm_layer_norm(pre, inp["ln_" + g], inp["b" + g], sc["ln_" + g], limit)
        return pre

    f = fixed16_logistic(gate("f", c), 3)
    g = fixed16_tanh(gate("c"), 3)
    i = wrap_int16(32767 - f) if cifg else fixed16_logistic(gate("i", c), 3)
    c_new = np.clip(wrap_int16(rounding_divide_by_pot(f * c, 15))
                    + wrap_int16(rounding_divide_by_pot(i * g, 30 + cs)), -32768, 32767)
    cell_clip = float(k.scalar(_QL_CELL_CLIP, 0.0) or 0.0)
    if cell_clip > 0:
        q = int(min(max(np.float32(cell_clip) / np.float32(ops[19].scale), -32768.0), 32767.0))
        c_new = np.clip(c_new, -q, q)
    o = fixed16_logistic(gate("o", c_new), 3)
    hid_zp = int(np.int32(k.scalar(_QL_HIDDEN_ZP, 0)).astype(np.int8))
    hid_scale = np.float32(k.scalar(_QL_HIDDEN_SCALE))
    m, e = quantize_multiplier(float(np.float32(2.0 ** -15 / float(hid_scale) * 2.0 ** -15)))
    t = fixed16_tanh(c_new, cs + 15)
    hid = np.clip(multiply_by_quantized_multiplier(o * t, m, e) - hid_zp, -128, 127)
    if inp["pw"] is not None:
        bias = inp["pb"] if inp["pb"] is not None else np.zeros(inp["pw"].shape[0], np.int64)
        out = _qlstm_matmul(hid, -hid_zp, inp["pw"], sc["pw"] * hid_scale / s_h, out_zp=h_zp,
                            lo=-128, hi=127, bias=bias)
        proj_clip = float(k.scalar(_QL_CELL_CLIP + 1, 0.0) or 0.0)
        if proj_clip > 0:
            q = int(min(max(np.float32(proj_clip) / sc["pw"], -128.0), 127.0))
            out = np.clip(out, -q, q)
    else:
        out = hid
    out = out.astype(np.int8)
    return [out, c_new.astype(np.int16), out.copy()]
