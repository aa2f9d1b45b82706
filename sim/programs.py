"""Layer programs: instruction streams (with their external-memory images) for quantized
FULLY_CONNECTED, CONV_2D, DEPTHWISE_CONV_2D, MAX / AVERAGE_POOL_2D, ADD / SUB / MUL and lookup-table
activations, built with :class:`nnaccel.program.ProgramBuilder` for any hardware configuration.

The ISA simulator tests, the bench and the RTL testbench all load these very programs. Every
generator returns a :class:`LayerProgram`: the words, the initial memory image, and where the
output lands. The integer arithmetic is the golden model's (``nnaccel.quant``): multipliers and
shifts come from :func:`~nnaccel.quant.quantize_multiplier`, activation bounds from
:func:`~nnaccel.quant.activation_range_quantized`.

Data layouts in external memory: activations NHWC / row-major as NNAPI stores them; weights are
packed by the generator (a constant image, as the compiler would do): one ``rows x cols`` tile
per (output tile, tap, input channel group), ``tile[k][n] = w[out n][in k]``, padded with the
weight zero point so that padding contributes 0.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from nnaccel.errors import InputError
from nnaccel.hwconfig import HwConfig, load_config
from nnaccel.isa.table import div_params
from nnaccel.program import ExtImage, ProgramBuilder, ceil_div, lut_block, param_block, runs
from nnaccel.quant import activation_range_quantized, dtype_range, quantize_multiplier

from .isasim import IsaSim, RunResult


@dataclass
class LayerProgram:
    """A program plus its memory image; :meth:`run` executes it on the ISA simulator."""

    name: str
    config: HwConfig
    words: list[int]
    image: dict[int, np.ndarray]
    output_addr: int
    output_shape: tuple
    output_dtype: np.dtype
    info: dict = field(default_factory=dict)

    def run(self, sim: IsaSim | None = None, progress=None) -> tuple[np.ndarray, RunResult]:
        sim = sim or IsaSim(self.config)
        for addr, data in self.image.items():
            sim.write(addr, data)
        result = sim.run(self.words, progress)
        return sim.read(self.output_addr, self.output_shape, self.output_dtype), result


def _qparams(dtype) -> tuple[bool, int, int]:
    signed = np.dtype(dtype) == np.int8
    lo, hi = dtype_range(np.int8 if signed else np.uint8)
    return signed, lo, hi


def _check(cond: bool, what: str):
    if not cond:
        raise InputError(f"The layer does not fit this program generator: {what}.")


def _staging(cfg) -> tuple[int, int]:
    """``(first line, lines)`` of the ACT staging area: the last ACT bank, so that results the
    vector unit writes and the store reads never share a bank port with the inputs the load
    writes and the array / vector unit read (the bank rules of ``docs/isa.md``). The inputs use
    lines ``0 .. first - 1``."""
    n = cfg.bank_lines("ACT")
    return cfg.lines("ACT") - n, n


# --------------------------------------------------------------------------------- FULLY_CONNECTED
def _fc_plan(cfg, M, KT, NT):
    """``(Mt, J, kc)``: rows per block (at most 255: one LOAD box per step and one GEMM line run),
    output tiles per block, K tiles per step (one GEMM with ``kt = kc - 1``); the plan with the
    fewest estimated cycles that fits the scratchpads."""
    R, C = cfg.rows, cfg.cols
    act_l, wgt_l, acc_l, vec_l = (cfg.lines(s) for s in ("ACT", "WGT", "ACC", "VEC"))
    best = None
    for Mt in range(1, min(M, 255) + 1):
        for J in range(1, NT + 1):
            for kc in range(1, min(KT, 16) + 1):
                if not _fc_fits(cfg, Mt, J, kc, act_l, wgt_l, acc_l, vec_l):
                    continue
                steps = ceil_div(KT, kc)
                gemm = steps * (R + kc * max(Mt, R) + R + C) * J + steps
                dma = (KT * (Mt * max(1, ceil_div(R, cfg.dma_bytes_per_cycle))
                             + J * R * max(1, ceil_div(C, cfg.dma_bytes_per_cycle)))
                       + steps * (1 + J) * cfg.ext_latency + cfg.ext_latency)
                est = max(gemm, dma) * ceil_div(M, Mt) * ceil_div(NT, J) + Mt + cfg.ext_latency
                if best is None or est < best[0]:
                    best = (est, Mt, J, kc)
    _check(best is not None, "no block of rows fits the scratchpads")
    return best[1:]


def _fc_fits(cfg, Mt, J, kc, act_l, wgt_l, acc_l, vec_l) -> bool:
    stag, stag_n = _staging(cfg)
    acc_slot = acc_l // 2 if cfg.acc_banks >= 2 else acc_l
    return (2 * kc * Mt <= stag and 2 * Mt <= stag_n and J * Mt <= acc_slot
            and 2 * J * kc * cfg.rows <= wgt_l and 18 * J <= vec_l and 1 <= Mt <= 255)


def fully_connected(config, x, w, bias, x_q, w_q, out_q, activation: int = 0,
                    plan: tuple | None = None) -> LayerProgram:
    """Quantized FULLY_CONNECTED ``[M, K] x [N, K]^T + bias -> [M, N]`` (uint8 or int8, per tensor).

    ``x_q`` / ``w_q`` / ``out_q`` are ``(scale, zero_point)``. Schedule: for each block of ``Mt``
    rows and ``J`` output tiles, for each step of ``kc`` K tiles, load the activation block
    (K-tile major) and ``J x kc`` weight tiles into one of two buffers, run ``J`` GEMMs over the
    block with ``kt = kc - 1`` (accumulating after the first step); when the block's last step is
    done, the vector queue requantizes each output tile into one of two staging areas that the
    store queue writes out, while the array goes on with the next block. ``plan = (Mt, J)`` or
    ``(Mt, J, kc)`` overrides the choice (:func:`_fc_plan`).
    """
    cfg = load_config(config)
    R, C = cfg.rows, cfg.cols
    x = np.asarray(x)
    w = np.asarray(w)
    M, K = x.shape
    N = w.shape[0]
    signed, qmin, qmax = _qparams(x.dtype)
    KT, NT = ceil_div(K, R), ceil_div(N, C)
    (xs, za), (ws, zw), (os_, zo) = x_q, w_q, out_q
    img = ExtImage(cfg)
    xa = img.place(x)
    wt = np.full((KT * R, NT * C), zw, w.dtype)
    wt[:K, :N] = w.T
    # weight tiles [n tile][k tile][rows][cols]: the K tiles of one output tile are contiguous
    wa = img.place(np.ascontiguousarray(wt.reshape(KT, R, NT, C).transpose(2, 0, 1, 3)))
    m, e = quantize_multiplier(xs * ws / os_)
    lo, hi = activation_range_quantized(activation, os_, zo, qmin, qmax)
    b = np.zeros(NT * C, np.int64)
    b[:N] = bias
    params = np.stack([param_block(cfg, "REQ", bias=b[t * C:(t + 1) * C], mult=m, shift=e, zo=zo,
                                   lo=lo, hi=hi) for t in range(NT)])
    pa = img.place(params)
    ya = img.alloc(M * N)

    act_l, wgt_l, acc_l, vec_l = (cfg.lines(s) for s in ("ACT", "WGT", "ACC", "VEC"))
    if plan is None:
        Mt, J, kc = _fc_plan(cfg, M, KT, NT)
    else:
        Mt, J, kc = (tuple(plan) + (1,))[:3]
    _check(_fc_fits(cfg, Mt, J, kc, act_l, wgt_l, acc_l, vec_l) and 1 <= kc <= 16,
           f"the plan Mt={Mt}, J={J}, kc={kc} exceeds the scratchpads")
    p = ProgramBuilder(cfg)
    common = {"za": za, "zw": zw, "act_signed": signed, "wgt_signed": signed}
    # Tokens: load -> compute (step loaded), compute -> load (a NOP after each step: its ACT / WGT
    # buffer is free; at a block's end the NOP also waits for the previous block's requantization,
    # so its ACC buffer and parameter slot are free), compute -> vector (accumulators ready),
    # vector -> store (one output tile staged), store -> vector (staging slot free).
    # Buffers: ACT and WGT 2 steps, ACC 2 blocks (one per ACC half, so the array and the vector
    # unit read different banks; one block when ACC has a single bank), staging 2 output tiles in
    # the last ACT bank, parameters 3 blocks.
    stag0, _ = _staging(cfg)
    acc_slots = 2 if cfg.acc_banks >= 2 else 1
    step = block = tile = 0
    for m0 in range(0, M, Mt):
        mr = min(Mt, M - m0)
        for nb0 in range(0, NT, J):
            jn = min(J, NT - nb0)
            pbuf = (block % 3) * J * 6
            abuf = (block % acc_slots) * (acc_l // 2)
            for k0t in range(0, KT, kc):
                kn, buf = min(kc, KT - k0t), step % 2
                k0 = k0t * R
                # one box: row t = K tile t (R bytes further), line m = activation row m
                last_len = min(R, K - (k0t + kn - 1) * R)
                pop = {"pop_next": 1} if step >= 2 else {}
                if kn > 1:
                    p.load("ACT", buf * kc * Mt, xa + m0 * K + k0, R, x_size=mr, y_size=kn - 1,
                           x_stride=K, y_stride=R, fill=za, **pop)
                    pop = {}
                p.load("ACT", buf * kc * Mt + (kn - 1) * mr, xa + m0 * K + k0 + (kn - 1) * R, last_len,
                       x_size=mr, x_stride=K, fill=za, **pop)
                if k0t == 0:
                    p.load_lines("VEC", pbuf, pa + nb0 * 6 * C * 4, jn * 6, C * 4, C)
                for j in range(jn):
                    p.load_lines("WGT", (buf * J + j) * kc * R, wa + ((nb0 + j) * KT + k0t) * R * C,
                                 kn * R, C, C, push_next=int(j == jn - 1))
                last_k = k0t + kn == KT
                for j in range(jn):
                    p.gemm(buf * kc * Mt, abuf + j * Mt, mr, 1, wgt=(buf * J + j) * kc * R,
                           preload=True, kt=kn - 1, accumulate=k0t > 0, act_ys=mr, acc_ys=mr,
                           pop_prev=int(j == 0), push_next=int(last_k and j == jn - 1), **common)
                # two ACC slots: wait for the previous block's REQ (one: for this block's, below)
                p.nop("compute", push_prev=1, pop_next=int(last_k and block > 0 and acc_slots == 2))
                step += 1
            for j in range(jn):
                stag = stag0 + (tile % 2) * Mt
                p.vec_lines("REQ", stag, abuf + j * Mt, mr, param=pbuf + j * 6,
                            pop_prev=int(j == 0), pop_next=int(tile >= 2),
                            push_prev=int(j == jn - 1), push_next=1)
                n0 = (nb0 + j) * C
                p.store_lines("ACT", stag, ya + m0 * N + n0, mr, N, min(C, N - n0), pop_prev=1,
                              push_prev=1)
                tile += 1
            if acc_slots == 1:
                # one ACC slot: the next block's GEMMs wait for this block's REQ; after it in program
                # order, so that an in-order machine (``in_order``) meets the push before the pop
                p.nop("compute", pop_next=1)
            block += 1
    p.finish()
    return LayerProgram("FULLY_CONNECTED", cfg, p.words, img.contents, ya, (M, N), x.dtype,
                        {"Mt": Mt, "J": J, "kc": kc, "useful_macs": M * N * K})


# --------------------------------------------------------------------------------- convolution
def _same_pads(size, k, s):
    out = ceil_div(size, s)
    total = max((out - 1) * s + k - size, 0)
    return total // 2, total - total // 2


def same_padding(h, w, kh, kw, sh, sw):
    """NNAPI implicit SAME padding: ``(top, bottom, left, right)``."""
    t, b = _same_pads(h, kh, sh)
    le, r = _same_pads(w, kw, sw)
    return t, b, le, r


def _band_plan(cfg, H, Wp, OH, OW, KH, sh, in_groups):
    """Largest band of output rows whose input rows (all channel groups) fit below the staging
    bank and whose outputs fit the staging bank and ACC."""
    stag, stag_n = _staging(cfg)
    best = 0
    for ohb in range(1, min(OH, 255) + 1):
        rows_in = (ohb - 1) * sh + KH
        if (in_groups * rows_in * Wp > stag or ohb * OW > stag_n or ohb * OW > cfg.lines("ACC")
                or rows_in > 255):
            break
        best = ohb
    _check(best > 0, "one output row does not fit the scratchpads")
    return best


def conv2d(config, x, w, bias, x_q, w_q, out_q, stride=(1, 1), pads=(0, 0, 0, 0),
           activation: int = 0, depthwise: bool = False) -> LayerProgram:
    """Quantized CONV_2D (``w`` = ``[Cout, KH, KW, Cin]``) or DEPTHWISE_CONV_2D with depth
    multiplier 1 (``w`` = ``[1, KH, KW, C]``), NHWC, explicit ``pads = (top, bottom, left, right)``
    (each at most 3), dilation 1. ``w_q = (scale or per-channel scales, zero_point)``.

    Schedule: per batch, band of output rows and output-channel tile, load the padded input band
    (DMA padding filled with the input zero point), then one GEMM per filter tap and input channel
    group (strided activation addressing does the im2col), requantize, store. Depthwise uses
    diagonal weight tiles (one channel group per tile; 1/rows of the array is used).
    """
    cfg = load_config(config)
    R, C = cfg.rows, cfg.cols
    x, w = np.asarray(x), np.asarray(w)
    B, H, W_, Cin = x.shape
    if depthwise:
        _, KH, KW, Cout = w.shape
        _check(Cout == Cin, "depthwise programs support depth multiplier 1 only")
    else:
        Cout, KH, KW, _ = w.shape
    sh, sw = stride
    pt, pb, pl, pr = pads
    _check(max(pads) <= 3, "padding above 3 (the LOAD pad fields are 2 bits)")
    OH, OW = (H + pt + pb - KH) // sh + 1, (W_ + pl + pr - KW) // sw + 1
    Wp = W_ + pl + pr
    CG, NT = ceil_div(Cin, R), ceil_div(Cout, C)
    G = 1 if depthwise else CG
    signed, qmin, qmax = _qparams(x.dtype)
    wsigned = w.dtype == np.int8
    (xs, za), (ws, zw), (os_, zo) = x_q, w_q, out_q
    _check(OW <= 255 and Wp <= 255 and sh * Wp <= 255 and W_ * Cin <= 65535 and OW * Cout <= 65535,
           "the image is too wide for 8-bit line strides")

    img = ExtImage(cfg)
    xa = img.place(x)
    tiles = np.full((NT, KH, KW, G, R, C), zw, w.dtype)
    if depthwise:
        wd = np.full((KH, KW, NT * C), zw, w.dtype)
        wd[:, :, :Cout] = w[0]
        d = np.arange(C)
        for t in range(NT):
            tiles[t, :, :, 0, d, d] = np.moveaxis(wd[:, :, t * C:(t + 1) * C], -1, 0)
    else:
        wf = np.full((NT * C, KH, KW, CG * R), zw, w.dtype)
        wf[:Cout, :, :, :Cin] = w
        # tiles[t, ky, kx, g, k, n] = wf[t*C + n, ky, kx, g*R + k]
        tiles[:] = wf.reshape(NT, C, KH, KW, CG, R).transpose(0, 2, 3, 4, 5, 1)
    wa = img.place(tiles)
    scales = np.broadcast_to(np.asarray(ws, np.float64), (Cout,))
    mults = [quantize_multiplier(xs * float(s) / os_) for s in scales]
    lo, hi = activation_range_quantized(activation, os_, zo, qmin, qmax)
    mv = np.zeros(NT * C, np.int64)
    ev = np.zeros(NT * C, np.int64)
    mv[:Cout] = [m for m, _ in mults]
    ev[:Cout] = [e for _, e in mults]
    bv = np.zeros(NT * C, np.int64)
    bv[:Cout] = bias
    params = np.stack([param_block(cfg, "REQ", bias=bv[t * C:(t + 1) * C], mult=mv[t * C:(t + 1) * C],
                                   shift=ev[t * C:(t + 1) * C], zo=zo, lo=lo, hi=hi) for t in range(NT)])
    pa = img.place(params)
    ya = img.alloc(B * OH * OW * Cout)
    tile_lines = KH * KW * G * R
    _check(tile_lines <= cfg.lines("WGT"), f"the {tile_lines} weight lines of one output tile exceed "
                                           f"the WGT scratchpad")
    _check(6 <= cfg.lines("VEC"), "no room for parameters")
    # Tokens per step: load -> compute (band, weights, parameters loaded); the last GEMM -> vector
    # (accumulators ready); vector -> compute -> load (a compute NOP waits for the requantization,
    # then frees the ACT band, WGT, ACC and the parameters for the next step); vector -> store
    # (staging ready); store -> vector (staging free).
    ohb = _band_plan(cfg, H, Wp, OH, OW, KH, sh, G)
    p = ProgramBuilder(cfg)
    step = 0
    for bi in range(B):
        for oy0 in range(0, OH, ohb):
            oh = min(ohb, OH - oy0)
            rows_in = (oh - 1) * sh + KH
            band = rows_in * Wp
            stag = _staging(cfg)[0]
            r0 = oy0 * sh - pt
            first_real, end_real = max(0, r0), min(H, r0 + rows_in)
            ptb = first_real - r0
            pbb = rows_in - ptb - (end_real - first_real)
            for t in range(NT):
                ld = {"pop_next": 1} if step > 0 else {}
                if t == 0 or depthwise:
                    groups = [t] if depthwise else range(CG)
                    for g in groups:
                        p.load("ACT", g * band if not depthwise else 0,
                               xa + ((bi * H + first_real) * W_) * Cin + g * R, min(R, Cin - g * R),
                               x_size=Wp, y_size=rows_in, x_stride=Cin, y_stride=W_ * Cin,
                               pad=(ptb, pbb, pl, pr), fill=za, **ld)
                        ld = {}
                p.load_lines("WGT", 0, wa + t * tile_lines * C, tile_lines, C, C, **ld)
                p.load_lines("VEC", 0, pa + t * 6 * C * 4, 6, C * 4, C, push_next=1)
                taps = [(ky, kx, g) for ky in range(KH) for kx in range(KW) for g in range(G)]
                for n, (ky, kx, g) in enumerate(taps):
                    base = 0 if depthwise else g * band
                    p.gemm(base + ky * Wp + kx, 0, OW, oh, wgt=((ky * KW + kx) * G + g) * R, preload=True,
                           accumulate=n > 0, za=za, zw=zw, act_signed=signed, wgt_signed=wsigned,
                           act_xs=sw, act_ys=sh * Wp, acc_xs=1, acc_ys=OW, pop_prev=int(n == 0),
                           push_next=int(n == len(taps) - 1))
                p.vec("REQ", stag, 0, OW, oh, param=0, dst_xs=1, dst_ys=OW, src_xs=1, src_ys=OW,
                      pop_prev=1, pop_next=int(step > 0), push_prev=1, push_next=1)
                # (after the REQ in program order: an in-order machine meets its push first)
                p.nop("compute", pop_next=1, push_prev=1)
                p.store("ACT", stag, ya + ((bi * OH + oy0) * OW) * Cout + t * C, min(C, Cout - t * C),
                        x_size=OW, y_size=oh, x_stride=Cout, y_stride=OW * Cout, pop_prev=1, push_prev=1)
                step += 1
    p.finish()
    name = "DEPTHWISE_CONV_2D" if depthwise else "CONV_2D"
    return LayerProgram(name, cfg, p.words, img.contents, ya, (B, OH, OW, Cout), x.dtype,
                        {"band_rows": ohb, "useful_macs": B * OH * OW * Cout * KH * KW *
                         (1 if depthwise else Cin)})


# --------------------------------------------------------------------------------- pooling
def _window_counts(out, size, k, s, pad):
    """Per output position: how many window taps fall inside the input."""
    start = np.arange(out) * s - pad
    return np.minimum(start + k, size) - np.maximum(start, 0)


def _forward(p: ProgramBuilder) -> None:
    """A compute-queue NOP that passes a token load -> vector (for programs that use no GEMM: the
    vector queue is not the load queue's neighbour); :func:`_backward` passes the answer."""
    p.nop("compute", pop_prev=1, push_next=1)


def _backward(p: ProgramBuilder) -> None:
    """A compute-queue NOP that passes the vector queue's answer vector -> load; placed after the
    vector instruction that pushes it (an in-order machine, ``in_order``, meets the push first)."""
    p.nop("compute", pop_next=1, push_prev=1)


def pool2d(config, kind: str, x, x_q, filter_hw, stride=(1, 1), pads=(0, 0, 0, 0),
           activation: int = 0) -> LayerProgram:
    """Quantized MAX_POOL_2D (``kind="max"``) or AVERAGE_POOL_2D (``"avg"``), NHWC; the output
    keeps the input's scale and zero point (``x_q``).

    max: DMA padding holds the type's minimum; CLAMP copies the first tap, MAX folds in the
    others, a final CLAMP applies the fused activation. avg: padding holds 0; SUMW accumulates
    the taps into int32, then DIV divides each rectangle of output positions that share a window
    count (fewer at the borders) by that count, rounding half away from zero.
    """
    cfg = load_config(config)
    R, C = cfg.rows, cfg.cols
    x = np.asarray(x)
    B, H, W_, Ch = x.shape
    KH, KW = filter_hw
    sh, sw = stride
    pt, pb, pl, pr = pads
    _check(max(pads) <= 3, "padding above 3 (the LOAD pad fields are 2 bits)")
    OH, OW = (H + pt + pb - KH) // sh + 1, (W_ + pl + pr - KW) // sw + 1
    Wp = W_ + pl + pr
    CG = ceil_div(Ch, R)
    signed, qmin, qmax = _qparams(x.dtype)
    os_, zo = x_q
    lo, hi = activation_range_quantized(activation, os_, zo, qmin, qmax)
    _check(OW <= 255 and Wp <= 255 and sh * Wp <= 255 and W_ * Ch <= 65535,
           "the image is too wide for 8-bit line strides")
    img = ExtImage(cfg)
    xa = img.place(x)
    blocks = [param_block(cfg, "CLAMP", lo=-128, hi=255), param_block(cfg, "CLAMP", lo=lo, hi=hi)]
    cy = _window_counts(OH, H, KH, sh, pt)
    cx = _window_counts(OW, W_, KW, sw, pl)
    div_at = {}
    if kind == "avg":
        for c in sorted({int(a) * int(b) for a in cy for b in cx}):
            div_at[c] = 4 + 5 * len(div_at)
            half, m, sh_ = div_params(c)
            blocks.append(param_block(cfg, "DIV", half=half, m=m, s=sh_, lo=lo, hi=hi))
    elif kind != "max":
        raise InputError(f"Unknown pooling kind {kind!r}; use 'max' or 'avg'.")
    params = np.concatenate(blocks)
    _check(params.shape[0] <= cfg.lines("VEC"), "too many distinct window counts for the VEC scratchpad")
    pa = img.place(params)
    ya = img.alloc(B * OH * OW * Ch)
    fill = (-128 if signed else 0) if kind == "max" else 0
    ohb = _band_plan(cfg, H, Wp, OH, OW, KH, sh, 1)
    p = ProgramBuilder(cfg)
    p.load_lines("VEC", 0, pa, params.shape[0], C * 4, C)
    step = 0
    for bi in range(B):
        for oy0 in range(0, OH, ohb):
            oh = min(ohb, OH - oy0)
            rows_in = (oh - 1) * sh + KH
            stag = _staging(cfg)[0]
            r0 = oy0 * sh - pt
            first_real, end_real = max(0, r0), min(H, r0 + rows_in)
            ptb = first_real - r0
            pbb = rows_in - ptb - (end_real - first_real)
            for g in range(CG):
                p.load("ACT", 0, xa + ((bi * H + first_real) * W_) * Ch + g * R, min(R, Ch - g * R),
                       x_size=Wp, y_size=rows_in, x_stride=Ch, y_stride=W_ * Ch, pad=(ptb, pbb, pl, pr),
                       fill=fill, pop_next=int(step > 0), push_next=1)
                _forward(p)
                taps = [(ky, kx) for ky in range(KH) for kx in range(KW)]
                geo = {"dst_xs": 1, "dst_ys": OW, "src_xs": sw, "src_ys": sh * Wp, "signed": signed}
                if kind == "max":
                    for n, (ky, kx) in enumerate(taps):
                        src = ky * Wp + kx
                        if n == 0:
                            p.vec("CLAMP", stag, src, OW, oh, param=0, pop_prev=1,
                                  pop_next=int(step > 0), **geo)
                        else:
                            p.vec("MAX", stag, src, OW, oh, src2=stag, **geo)
                    p.vec("CLAMP", stag, stag, OW, oh, param=2, dst_xs=1, dst_ys=OW, src_xs=1,
                          src_ys=OW, signed=signed, push_prev=1, push_next=1)
                else:
                    for n, (ky, kx) in enumerate(taps):
                        p.vec("SUMW", 0, ky * Wp + kx, OW, oh, accumulate=n > 0, pop_prev=int(n == 0),
                              **geo)
                    rects = [(y0, y1, x0, x1, a * b) for y0, y1, a in runs(cy[oy0:oy0 + oh])
                             for x0, x1, b in runs(cx)]
                    for n, (y0, y1, x0, x1, cnt) in enumerate(rects):
                        last = n == len(rects) - 1
                        p.vec("DIV", stag + y0 * OW + x0, y0 * OW + x0, x1 - x0, y1 - y0,
                              param=div_at[cnt], dst_xs=1, dst_ys=OW, src_xs=1, src_ys=OW,
                              pop_next=int(n == 0 and step > 0), push_prev=int(last), push_next=int(last))
                _backward(p)
                p.store("ACT", stag, ya + ((bi * OH + oy0) * OW) * Ch + g * C, min(C, Ch - g * C),
                        x_size=OW, y_size=oh, x_stride=Ch, y_stride=OW * Ch, pop_prev=1, push_prev=1)
                step += 1
    p.finish()
    name = "MAX_POOL_2D" if kind == "max" else "AVERAGE_POOL_2D"
    return LayerProgram(name, cfg, p.words, img.contents, ya, (B, OH, OW, Ch), x.dtype,
                        {"band_rows": ohb})


# --------------------------------------------------------------------------------- elementwise
def add_params(a_q, b_q, out_q, activation: int, dtype, sub: bool = False) -> dict:
    """The ADDQ / SUBQ parameters of NNAPI ``addQuant8`` (see ``golden/elementwise.add_quant8``)."""
    (s1, z1), (s2, z2), (so, zo) = a_q, b_q, out_q
    twice_max = 2.0 * max(s1, s2)
    m1, e1 = quantize_multiplier(s1 / twice_max)
    m2, e2 = quantize_multiplier(s2 / twice_max)
    mo, eo = quantize_multiplier(twice_max / ((1 << 20) * so))
    _, qmin, qmax = _qparams(dtype)
    lo, hi = activation_range_quantized(activation, so, zo, qmin, qmax)
    return {"z1": z1, "m1": m1, "e1": e1, "z2": z2, "m2": m2, "e2": e2, "mo": mo, "eo": eo, "zo": zo, "lo": lo, "hi": hi}


def mul_params(a_q, b_q, out_q, activation: int, dtype) -> dict:
    (s1, z1), (s2, z2), (so, zo) = a_q, b_q, out_q
    m, e = quantize_multiplier(s1 * s2 / so)
    _, qmin, qmax = _qparams(dtype)
    lo, hi = activation_range_quantized(activation, so, zo, qmin, qmax)
    return {"z1": z1, "z2": z2, "m": m, "e": e, "zo": zo, "lo": lo, "hi": hi}


def _flat_program(cfg, name, func, inputs, params_block, out_shape, dtype) -> LayerProgram:
    """Elementwise over flattened tensors: lines of ``cols`` elements, chunked to fit ACT."""
    C = cfg.cols
    img = ExtImage(cfg)
    addrs = [img.place(np.ascontiguousarray(a)) for a in inputs]
    pa = img.place(params_block)
    E = int(np.prod(out_shape))
    ya = img.alloc(E)
    signed = np.dtype(dtype) == np.int8
    # input k in ACT bank k (a binary function reads its operands from different banks); the result
    # overwrites the first input in place
    chunk = max(1, min(cfg.bank_lines("ACT"), 255 * 255)) * C
    p = ProgramBuilder(cfg)
    p.load_lines("VEC", 0, pa, params_block.shape[0], C * 4, C)
    for step, e0 in enumerate(range(0, E, chunk)):
        n = min(chunk, E - e0)
        full, rest = divmod(n, C)
        lines = full + (rest > 0)
        region = cfg.bank_lines("ACT")
        if step > 0:
            p.nop("load", pop_next=1)
        for k, a in enumerate(addrs):
            p.load_lines("ACT", k * region, a + e0, full, C, C)
            if rest:
                p.load("ACT", k * region + full, a + e0 + full * C, rest)
        p.nop("load", push_next=1)
        _forward(p)
        out = 0
        p.vec_lines(func, out, 0, lines, src2=region if len(addrs) > 1 else None, param=0,
                    signed=signed, pop_prev=1, pop_next=int(step > 0), push_prev=1, push_next=1)
        _backward(p)
        p.nop("store", pop_prev=1)
        p.store_lines("ACT", out, ya + e0, full, C, C)
        if rest:
            p.store("ACT", out + full, ya + e0 + full * C, rest)
        p.nop("store", push_prev=1)
    p.finish()
    return LayerProgram(name, cfg, p.words, img.contents, ya, tuple(out_shape), np.dtype(dtype))


def elementwise(config, op: str, a, b, a_q, b_q, out_q, activation: int = 0) -> LayerProgram:
    """Quantized ADD / SUB / MUL of two same-shape tensors (no broadcasting)."""
    cfg = load_config(config)
    a, b = np.asarray(a), np.asarray(b)
    _check(a.shape == b.shape and a.dtype == b.dtype, "the inputs must have the same shape and type")
    if op in ("ADD", "SUB"):
        block = param_block(cfg, op[:3] + "Q", **add_params(a_q, b_q, out_q, activation, a.dtype))
    elif op == "MUL":
        block = param_block(cfg, "MULQ", **mul_params(a_q, b_q, out_q, activation, a.dtype))
    else:
        raise InputError(f"Unknown elementwise operation {op!r}; use ADD, SUB or MUL.")
    return _flat_program(cfg, op, {"ADD": "ADDQ", "SUB": "SUBQ", "MUL": "MULQ"}[op], [a, b], block,
                         a.shape, a.dtype)


def lookup(config, x, table, name: str = "LUT") -> LayerProgram:
    """Applies a 256-entry byte table (indexed by the raw byte) to every element of ``x``."""
    cfg = load_config(config)
    x = np.asarray(x)
    return _flat_program(cfg, name, "LUT", [x], lut_block(cfg, table), x.shape, x.dtype)


def golden_table(op: str, x_q, out_q, dtype) -> np.ndarray:
    """The 256-entry table of a unary int8 / uint8 operation, computed by the golden kernel on every
    possible input byte (index = raw byte): bit-exact with the golden model by construction."""
    from nnaccel.golden.interpreter import run_model
    from nnaccel.model import ModelBuilder, OperandType

    t = OperandType.TENSOR_QUANT8_ASYMM_SIGNED if np.dtype(dtype) == np.int8 else \
        OperandType.TENSOR_QUANT8_ASYMM
    values = np.arange(256, dtype=np.uint8).view(np.dtype(dtype))
    mb = ModelBuilder()
    i = mb.add_operand(t, [256], *x_q)
    o = mb.add_operand(t, [256], *out_q)
    mb.add_operation(op, [i], [o])
    mb.identify_inputs_and_outputs([i], [o])
    (out,) = run_model(mb.finish(), [values])
    return np.asarray(out).view(np.uint8).astype(np.int64)


def counter_snapshot_program(cfg, snaps, before: int, after: int, preload_ny=None) -> list:
    """A program for the counters: a LOAD of 32 ACT lines, a preloading GEMM and ``before`` more
    accumulating GEMMs, an RDPERF to ``snaps[0]``, ``after`` more GEMMs and an RDPERF to
    ``snaps[1]`` (each RDPERF waits for the GEMMs through compute -> vector -> store tokens)."""
    p = ProgramBuilder(cfg)
    p.load("ACT", 0, 0x0, cfg.rows, x_size=32, x_stride=cfg.rows, push_next=1)
    kw = {} if preload_ny is None else {"ny": preload_ny}
    p.gemm(0, 0, 32, preload=True, pop_prev=1, **kw)
    for snap, n in zip(snaps, (before, after)):
        for _ in range(n):
            p.gemm(0, 0, 32, accumulate=True)
        p.nop("compute", push_next=1)
        p.nop("vector", pop_prev=1, push_next=1)
        p.rdperf(snap, pop_prev=1)
    p.finish()
    return p.words
