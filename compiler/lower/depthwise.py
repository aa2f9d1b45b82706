"""Depthwise convolutions (multiplier 1, no dilation) on the array's depthwise mode: one DWCONV
per (output tile, channel block, stride phase, group of filter rows), REQ per block on the vector
queue (``docs/compiler.md``, the depthwise schedule). A strided layer is the sum of stride-1
convolutions, one per phase ``(py, px)`` of the stride: the input pixels ``(i * sh + py, j * sw +
px)`` (a LOAD with the stride in its byte strides) with the taps ``(py + sh * a, px + sw * b)``."""

from __future__ import annotations

from dataclasses import dataclass

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
    sh, sw = s.stride
    return (cfg.depthwise_mode and s.what == "DEPTHWISE_CONV_2D" and s.o == s.c and s.dilation == (1, 1) and sh <= fh and sw <= fw
            and 1 < fh * fw and fw <= cfg.rows and sh * s.c * s.w <= MAX16 and sw * s.c <= MAX16)


@dataclass
class _Phase:
    """One stride phase: input pixels ``(i * sh + py, j * sw + px)``, taps ``(py + sh * a, px + sw * b)``
    (``a < fh``, ``b < fw``), run as DWCONVs over ``groups`` of ``(first a, rows)``."""

    py: int
    px: int
    fh: int
    fw: int
    groups: list


def _phases(cfg: HwConfig, s) -> list[_Phase]:
    fh, fw = s.weff.shape[:2]
    sh, sw = s.stride
    out = []
    for py in range(sh):
        for px in range(sw):
            ph, pw = -(-(fh - py) // sh), -(-(fw - px) // sw)
            g = dw_rows(cfg, ph, pw)
            out.append(_Phase(py, px, ph, pw, [(k, min(g, ph - k)) for k in range(0, ph, g)]))
    return out


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


def _window_lines(phases, th: int, tw: int) -> int:
    """ACT lines of one stage's input windows (every phase's)."""
    return sum((th + p.fh - 1) * (tw + p.fw - 1) for p in phases)


def _dw_tiles(cfg: HwConfig, s, phases):
    """Candidate output tiles ``(toh, tow)``: per width the tallest whose double-buffered input
    windows fit below the staging slots, output tiles in a slot and two accumulator tiles in ACC."""
    in_l, (o0, o1) = dw_act_layout(cfg)
    slot = abs(o1 - o0)
    wmax = min(s.ow, MAX8 - max(p.fw for p in phases) + 1)
    hmax = min(s.oh, MAX8 - max(p.fh for p in phases) + 1)
    out = []
    for tow in sorted({wmax, *[ceil_div(s.ow, k) for k in range(2, 9) if ceil_div(s.ow, k) <= wmax]}, reverse=True):
        toh = hmax
        while toh > 0 and not (2 * _window_lines(phases, toh, tow) <= in_l and toh * tow <= slot
                               and acc_tiles_fit(cfg, toh * tow, 0)):
            toh -= 1
        if toh:
            out.append((toh, tow))
    return out


def _dw_estimate(cfg: HwConfig, s, phases, toh: int, tow: int, nblocks: int) -> int:
    """Cycles of the layer at tile ``toh x tow``: per stage (tile, block) about the largest of the
    array, vector, load and store times (all of them on an in-order machine), plus the fill."""
    R, C = cfg.rows, cfg.cols
    beats = ceil_div(R, cfg.dma_bytes_per_cycle)
    total = 0
    for oy in range(0, s.oh, toh):
        th = min(toh, s.oh - oy)
        for ox in range(0, s.ow, tow):
            tw = min(tow, s.ow - ox)
            comp = sum(2 * R + C + 10 + (gr + th - 1) * (tw + p.fw - 1) for p in phases for _, gr in p.groups)
            vec = th * tw * ceil_div(C, cfg.vector_lanes) * _req_cycles(cfg) + REQ_LINES + cfg.vector_latency
            load = _window_lines(phases, th, tw) * beats + len(phases) * (cfg.ext_latency + 10)
            store = th * tw * beats + cfg.ext_latency + 10
            dma = load + store if cfg.dma_engines == 1 else max(load, store)
            stage = comp + vec + dma if cfg.in_order else max(comp, vec, dma)
            total += nblocks * stage
    return total + _window_lines(phases, toh, tow) * beats + toh * tow * beats


def _tile_taps(s, phases, blocks):
    """The filter tiles of ``blocks`` in the order the DWCONVs use them (per block, phase, row
    group), as ``(tile, line, ky, kx, block)``: line ``t`` of a tile holds tap ``T - 1 - t`` of its
    group (DWCONV)."""
    sh, sw = s.stride
    k = 0
    for cb in blocks:
        for p in phases:
            for a0, gr in p.groups:
                taps = gr * p.fw
                for line in range(taps):
                    a, b = divmod(taps - 1 - line, p.fw)
                    yield k, line, p.py + sh * (a0 + a), p.px + sw * b, cb
                k += 1


def _filter_tiles(cfg: HwConfig, s, phases, blocks) -> bytes:
    """The filter tiles of ``blocks`` (:func:`_tile_taps`), lines past a group's taps the zero point."""
    R = cfg.rows
    fh, fw = s.weff.shape[:2]
    nb = ceil_div(s.c, R)
    ch = np.arange(s.c)
    wdw = np.full((fh, fw, nb * R), _byte(s.zw), np.uint8)
    wdw[:, :, :s.c] = s.weff[:, :, ch, ch]      # the diagonal of the effective dense filter
    tiles = np.full((len(blocks) * sum(len(p.groups) for p in phases), R, R), _byte(s.zw), np.uint8)
    for k, line, ky, kx, cb in _tile_taps(s, phases, blocks):
        tiles[k, line] = wdw[ky, kx, cb * R:(cb + 1) * R]
    return tiles.tobytes()


def _filter_loads(cfg: HwConfig, s, phases, blocks, addr: int) -> list[Ins]:
    """The WGT LOADs of the filter tiles of ``blocks`` from a filter that is not a constant, at
    ``addr`` (``[1, fh, fw, C]``: the channels of a tap are contiguous), one per tile line (the
    lines of a tile hold the taps last first)."""
    R, fw = cfg.rows, s.weff.shape[1]
    return [Ins("LOAD", {"sp": "WGT", "len": min(R, s.c - cb * R), "sp_addr": k * R + line,
                         "ext_addr": addr + (ky * fw + kx) * s.c + cb * R, "x_size": 1, "y_size": 1,
                         "x_stride": 0, "y_stride": 0, "fill": _byte(s.zw)},
                f"{s.what}: filter tap ({ky},{kx}) c{cb * R}")
            for k, line, ky, kx, cb in _tile_taps(s, phases, blocks)]


def depthwise_passes(ctx, s) -> list:
    """The passes of a depthwise convolution ``s`` (``dw_applies``): passes of channel blocks whose
    filter tiles fit WGT and REQ parameters VEC; per stage one output tile of one block: its input
    windows LOADed (one per stride phase, padding by the LOAD), one DWCONV per phase and group of
    filter rows (accumulating), the REQ into a staging slot, the STORE."""
    cfg, R = ctx.cfg, ctx.cfg.rows
    phases = _phases(cfg, s)
    ntiles = sum(len(p.groups) for p in phases)          # filter tiles per block
    nb = ceil_div(s.c, R)
    vec_blocks = min(cfg.lines("VEC") // REQ_LINES, MAX8 // REQ_LINES)
    per_pass = min(nb, vec_blocks, cfg.lines("WGT") // (R * ntiles))
    if per_pass < 1:
        raise CannotLower("the depthwise filter tiles do not fit WGT")
    cands = _dw_tiles(cfg, s, phases)
    if not cands:
        raise CannotLower("no depthwise tile fits the scratchpads")
    toh, tow = min(cands, key=lambda t: _dw_estimate(cfg, s, phases, t[0], t[1], nb))
    in_l, out_base = dw_act_layout(cfg)
    win = _window_lines(phases, toh, tow)
    in_base = (0, win)
    assert 2 * win <= in_l
    passes = []
    for b0 in range(0, nb, per_pass):
        blocks = list(range(b0, min(nb, b0 + per_pass)))
        dyn = s.dyn
        if dyn is not None and dyn.filter is not None:   # a filter that is not a constant (.dynamic)
            pre, nt = _filter_loads(cfg, s, phases, blocks, ctx.addr[dyn.filter]), 0
        else:
            waddr = ctx.consts.add(_filter_tiles(cfg, s, phases, blocks))
            pre, nt = [], len(blocks) * ntiles
        for k in range(0, nt, MAX8):
            n = min(MAX8, nt - k)
            pre.append(Ins("LOAD", {"sp": "WGT", "len": R, "sp_addr": k * R, "ext_addr": waddr + k * R * R,
                                    "x_size": R, "y_size": n, "x_stride": R, "y_stride": R * R},
                           f"{s.what}: filter tiles {k}..{k + n - 1}"))
        req = [param_block(cfg, "REQ", **{k: (v[cb * R:min(s.o, cb * R + R)] if np.ndim(v) else v)
                                           for k, v in s.params.items()}) for cb in blocks]
        pre += load_vec(cfg, ctx.consts, vec_blob(req), 0, f"{s.what}: requantization parameters")
        if dyn is not None and dyn.bias is not None:
            pre += dyn.bias_loads(cfg, ctx.addr[dyn.bias], blocks, 0, f"{s.what}: bias")
        stages = []
        st = 0
        for nbx in range(s.n):
            xbase = ctx.addr[s.x] + nbx * s.h * s.w * s.c
            for oy0 in range(0, s.oh, toh):
                th = min(toh, s.oh - oy0)
                for ox0 in range(0, s.ow, tow):
                    tw = min(tow, s.ow - ox0)
                    for j, cb in enumerate(blocks):
                        stages.append(_stage(ctx, s, phases, cb, j, ntiles, st, pre if st == 0 else [],
                                             xbase, oy0, ox0, th, tw, toh * tow, in_base, out_base))
                        st += 1
        passes.append(stages)
    return passes


def _stage(ctx, s, phases, cb, j, ntiles, st, pre, xbase, oy0, ox0, th, tw, tile, in_base, out_base):
    """One stage: block ``cb`` (the pass's ``j``-th) of the output tile at ``(oy0, ox0)``."""
    cfg, R = ctx.cfg, ctx.cfg.rows
    p_ = st % 2
    loads, computes = list(pre), []
    ln = min(R, s.c - cb * R)
    acc0 = acc_slot(cfg, tile, st % 2)
    buf, k = in_base[p_], 0
    for p in phases:
        ph = f" phase ({p.py},{p.px})" if len(phases) > 1 else ""
        iw = tw + p.fw - 1
        loads += load_box(*_phase_box(cfg, s, p, buf, xbase + cb * R, oy0, ox0, th, tw, ln),
                          f"{s.what}: input window y{oy0} x{ox0} c{cb * R}{ph}")
        for a0, gr in p.groups:
            computes.append(Ins("DWCONV", {
                "accumulate": int(k > 0), "act_signed": s.x_signed, "wgt_signed": s.w_signed,
                "fh": gr, "fw": p.fw, "act": buf + a0 * iw, "acc": acc0, "wgt": (j * ntiles + k) * R,
                "za": _byte(s.zx), "zw": _byte(s.zw), "nx": tw, "ny": th, "act_ys": iw, "acc_ys": tw},
                f"{s.what}: c{cb * R}{ph} filter rows {a0}..{a0 + gr - 1}"))
            k += 1
        buf += (th + p.fh - 1) * iw
    dst = out_base[p_]
    computes.append(Ins("VEC", {"func": "REQ", "signed": 0, "dst": dst, "src": acc0, "param": REQ_LINES * j,
                                "nx": tw, "ny": th, "dst_xs": 1, "dst_ys": tw, "src_xs": 1, "src_ys": tw},
                        f"{s.what}: requantize c{cb * R}"))
    nbx = (xbase - ctx.addr[s.x]) // (s.h * s.w * s.c)
    ext = ctx.addr[s.y] + ((nbx * s.oh + oy0) * s.ow + ox0) * s.o + cb * R
    stores = [Ins("STORE", {"sp": "ACT", "len": min(R, s.o - cb * R), "sp_addr": dst, "ext_addr": ext,
                            "x_size": tw, "y_size": th, "x_stride": s.o, "y_stride": s.ow * s.o},
                  f"{s.what}: output tile n{nbx} y{oy0} x{ox0} c{cb * R}")]
    return loads, computes, stores


def _phase_box(cfg, s, p, buf, base, oy0, ox0, th, tw, ln):
    """``load_box``'s arguments for phase ``p``'s input window of the output tile at ``(oy0, ox0)``:
    its grid is the input pixels ``(r0 + g * sh, c0 + k * sw)`` (``r0``, ``c0`` the first at or after
    the padding), read with the stride in the byte strides; lines outside the input are the zero
    point."""
    sh, sw = s.stride
    top, _, left, _ = s.pads
    i0, j0 = max(0, -(-(top - p.py) // sh)), max(0, -(-(left - p.px) // sw))
    r0, c0 = i0 * sh + p.py - top, j0 * sw + p.px - left
    hp, wp = max(0, -(-(s.h - r0) // sh)), max(0, -(-(s.w - c0) // sw))
    return (cfg, "ACT", buf, base + (r0 * s.w + c0) * s.c, ox0 - j0, oy0 - i0, wp, hp, sw * s.c,
            sh * s.w * s.c, tw + p.fw - 1, th + p.fh - 1, ln, s.zx)
