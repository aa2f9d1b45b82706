"""Depthwise convolutions (multiplier 1, stride 1, no dilation) on the array's depthwise mode:
one DWCONV per (output tile, channel block, group of filter rows), REQ per block on the vector
queue (``docs/compiler.md``, the depthwise schedule)."""

from __future__ import annotations

import numpy as np

from nnaccel.hwconfig import HwConfig
from nnaccel.program import param_block

from ..emit import Ins
from .base import (
    MAX8,
    MAX16,
    REQ_LINES,
    CannotLower,
    _byte,
    _req_cycles,
    acc_slot,
    acc_tiles_fit,
    act_split,
    ceil_div,
    load_vec,
    vec_blob,
)
from .dma import load_box


def dw_rows(cfg: HwConfig, fh: int, fw: int) -> int:
    """Filter rows one DWCONV runs: as many as the line buffers and the array's rows allow."""
    return min(fh, cfg.dw_line_buffers + 1, cfg.rows // fw)


def dw_applies(cfg: HwConfig, s) -> bool:
    """Whether the depthwise schedule serves the convolution ``s`` (a ``ConvSpec``)."""
    fh, fw = s.weff.shape[:2]
    return (s.what == "DEPTHWISE_CONV_2D" and s.o == s.c and s.stride == (1, 1) and s.dilation == (1, 1)
            and 1 < fh * fw and fw <= cfg.rows and s.c * s.w <= MAX16)


def dw_act_layout(cfg: HwConfig) -> tuple[int, tuple[int, int]]:
    """``(input lines, (staging slot 0, slot 1))``: with four or more ACT banks each of the two
    output staging slots fills a bank of its own (the last two), so that the REQ writing one and
    the STORE reading the other use different ports while the input windows lie below them; with
    fewer, both slots share the last bank (``act_split``)."""
    n = cfg.bank_lines("ACT")
    if cfg.banks("ACT") >= 4:
        return cfg.lines("ACT") - 2 * n, (cfg.lines("ACT") - n, cfg.lines("ACT") - 2 * n)
    in_l, stag_l = act_split(cfg)
    return in_l, (in_l, in_l + stag_l // 2)


def _dw_tiles(cfg: HwConfig, s, g: int):
    """Candidate output tiles ``(toh, tow)``: per width the tallest whose double-buffered input
    windows fit below the staging slots, output tiles in a slot and two accumulator tiles in ACC."""
    fh, fw = s.weff.shape[:2]
    in_l, (o0, o1) = dw_act_layout(cfg)
    slot = abs(o1 - o0)
    wmax = min(s.ow, MAX8 - fw + 1)
    out = []
    for tow in sorted({wmax, *[ceil_div(s.ow, k) for k in range(2, 9) if ceil_div(s.ow, k) <= wmax]}, reverse=True):
        iw = tow + fw - 1
        toh = min(s.oh, MAX8)
        while toh > 0 and not (2 * (toh + fh - 1) * iw <= in_l and toh * tow <= slot
                               and acc_tiles_fit(cfg, toh * tow, 0) and toh + fh - 1 <= MAX8):
            toh -= 1
        if toh:
            out.append((toh, tow))
    return out


def _dw_estimate(cfg: HwConfig, s, g: int, toh: int, tow: int, nblocks: int) -> int:
    """Cycles of the layer at tile ``toh x tow``: per stage (tile, block) about the largest of the
    array, vector, load and store times (all of them on an in-order machine), plus the fill."""
    R, C = cfg.rows, cfg.cols
    fh, fw = s.weff.shape[:2]
    beats = ceil_div(R, cfg.dma_bytes_per_cycle)
    total = 0
    for oy in range(0, s.oh, toh):
        th = min(toh, s.oh - oy)
        for ox in range(0, s.ow, tow):
            tw = min(tow, s.ow - ox)
            comp = sum(2 * R + C + 10 + (min(g, fh - k) + th - 1) * (tw + fw - 1) for k in range(0, fh, g))
            vec = th * tw * ceil_div(C, cfg.vector_lanes) * _req_cycles(cfg) + REQ_LINES + cfg.vector_latency
            load = (th + fh - 1) * (tw + fw - 1) * beats + cfg.ext_latency + 10
            store = th * tw * beats + cfg.ext_latency + 10
            dma = load + store if cfg.dma_engines == 1 else max(load, store)
            stage = comp + vec + dma if cfg.in_order else max(comp, vec, dma)
            total += nblocks * stage
    return total + (toh + fh - 1) * (tow + fw - 1) * beats + toh * tow * beats


def depthwise_passes(ctx, s) -> list:
    """The passes of a depthwise convolution ``s`` (``dw_applies``): passes of channel blocks whose
    filter tiles fit WGT and REQ parameters VEC; per stage one output tile of one block: its input
    window LOADed (padding by the LOAD), one DWCONV per group of filter rows (accumulating), the
    REQ into the staging bank, the STORE."""
    cfg, R = ctx.cfg, ctx.cfg.rows
    fh, fw = s.weff.shape[:2]
    g = dw_rows(cfg, fh, fw)
    groups = [(k, min(g, fh - k)) for k in range(0, fh, g)]
    nb = ceil_div(s.c, R)
    vec_blocks = min(cfg.lines("VEC") // REQ_LINES, MAX8 // REQ_LINES)
    per_pass = min(nb, vec_blocks, cfg.lines("WGT") // (R * len(groups)))
    if per_pass < 1:
        raise CannotLower("the depthwise filter tiles do not fit WGT")
    cands = _dw_tiles(cfg, s, g)
    if not cands:
        raise CannotLower("no depthwise tile fits the scratchpads")
    toh, tow = min(cands, key=lambda t: _dw_estimate(cfg, s, g, t[0], t[1], nb))
    # the filter as [fh, fw, C] bytes (a depthwise filter's effective dense tile is diagonal)
    ch = np.arange(s.c)
    wdw = np.full((fh, fw, nb * R), _byte(s.zw), np.uint8)
    wdw[:, :, :s.c] = s.weff[:, :, ch, ch]
    top, _, left, _ = s.pads
    in_l, out_base = dw_act_layout(cfg)
    passes = []
    for b0 in range(0, nb, per_pass):
        blocks = list(range(b0, min(nb, b0 + per_pass)))
        # filter tiles: per block and row group, line t holds tap T - 1 - t (DWCONV)
        tiles = bytearray()
        for cb in blocks:
            for ky0, gr in groups:
                taps = gr * fw
                t = np.full((R, R), _byte(s.zw), np.uint8)
                for line in range(taps):
                    kyr, kx = divmod(taps - 1 - line, fw)
                    t[line] = wdw[ky0 + kyr, kx, cb * R:(cb + 1) * R]
                tiles += t.tobytes()
        waddr = ctx.consts.add(bytes(tiles))
        pre = []
        ntiles = len(blocks) * len(groups)
        for k in range(0, ntiles, MAX8):
            n = min(MAX8, ntiles - k)
            pre.append(Ins("LOAD", {"sp": "WGT", "len": R, "sp_addr": k * R, "ext_addr": waddr + k * R * R,
                                    "x_size": R, "y_size": n, "x_stride": R, "y_stride": R * R},
                           f"{s.what}: filter tiles {k}..{k + n - 1}"))
        req = [param_block(cfg, "REQ", **{k: (v[cb * R:min(s.o, cb * R + R)] if np.ndim(v) else v)
                                           for k, v in s.params.items()}) for cb in blocks]
        pre += load_vec(cfg, ctx.consts, vec_blob(req), 0, f"{s.what}: requantization parameters")
        ih, iw = toh + fh - 1, tow + fw - 1
        in_base = (0, ih * iw)
        assert 2 * ih * iw <= in_l
        stages = []
        st = 0
        for nbx in range(s.n):
            xbase = ctx.addr[s.x] + nbx * s.h * s.w * s.c
            for oy0 in range(0, s.oh, toh):
                th = min(toh, s.oh - oy0)
                for ox0 in range(0, s.ow, tow):
                    tw = min(tow, s.ow - ox0)
                    ih_t, iw_t = th + fh - 1, tw + fw - 1
                    for j, cb in enumerate(blocks):
                        p = st % 2
                        loads = list(pre) if st == 0 else []
                        ln = min(R, s.c - cb * R)
                        loads += load_box(cfg, "ACT", in_base[p], xbase + cb * R, ox0 - left, oy0 - top, s.w, s.h,
                                          s.c, s.w * s.c, iw_t, ih_t, ln, s.zx,
                                          f"{s.what}: input window n{nbx} y{oy0} x{ox0} c{cb * R}")
                        acc0 = acc_slot(cfg, toh * tow, st % 2)
                        computes = []
                        for gi, (ky0, gr) in enumerate(groups):
                            computes.append(Ins("DWCONV", {
                                "accumulate": int(gi > 0), "act_signed": s.x_signed, "wgt_signed": s.w_signed,
                                "fh": gr, "fw": fw, "act": in_base[p] + ky0 * iw_t, "acc": acc0,
                                "wgt": (j * len(groups) + gi) * R, "za": _byte(s.zx), "zw": _byte(s.zw),
                                "nx": tw, "ny": th, "act_ys": iw_t, "acc_ys": tw},
                                f"{s.what}: c{cb * R} filter rows {ky0}..{ky0 + gr - 1}"))
                        dst = out_base[p]
                        computes.append(Ins("VEC", {"func": "REQ", "signed": 0, "dst": dst, "src": acc0,
                                                    "param": REQ_LINES * j, "nx": tw, "ny": th, "dst_xs": 1,
                                                    "dst_ys": tw, "src_xs": 1, "src_ys": tw},
                                            f"{s.what}: requantize c{cb * R}"))
                        ext = ctx.addr[s.y] + ((nbx * s.oh + oy0) * s.ow + ox0) * s.o + cb * R
                        stores = [Ins("STORE", {"sp": "ACT", "len": min(R, s.o - cb * R), "sp_addr": dst,
                                                "ext_addr": ext, "x_size": tw, "y_size": th, "x_stride": s.o,
                                                "y_stride": s.ow * s.o},
                                      f"{s.what}: output tile n{nbx} y{oy0} x{ox0} c{cb * R}")]
                        stages.append((loads, computes, stores))
                        st += 1
        passes.append(stages)
    return passes
