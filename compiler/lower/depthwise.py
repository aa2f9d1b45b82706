"""Depthwise convolutions (multiplier 1, no dilation) on the array's depthwise mode: one DWCONV
per (output tile, channel block, stride phase, group of filter rows), REQ per block on the vector
queue (``docs/compiler.md``, the depthwise schedule). A strided layer is either the sum of
stride-1 convolutions, one per phase ``(py, px)`` of the stride: the input pixels ``(i * sh + py,
j * sw + px)`` (a LOAD with the stride in its byte strides) with the taps ``(py + sh * a, px + sw *
b)``; or *dense*: the stride-1 convolution over the tile's whole input window, of which the REQ
reads every ``sh``-th row and ``sw``-th column (one window and all taps in one DWCONV, for layers
whose tiles are small). The estimate of the layer's cycles picks between them."""

from __future__ import annotations

from dataclasses import dataclass, replace
from types import SimpleNamespace

import numpy as np

from nnaccel.hwconfig import HwConfig
from nnaccel.isa.cycles import dwconv_cycles, vec_cycles
from nnaccel.isa.table import BY_NAME, VEC_BY_NAME, dw_stream
from nnaccel.program import param_block

from ..emit import C2L, C2V, L2C, S2V, V2C, V2S, Ins, RawPass, nop, token, untoken
from .base import (
    MAX8,
    MAX16,
    REQ_LINES,
    CannotLower,
    _byte,
    acc_slot,
    acc_tiles_fit,
    act_split,
    ceil_div,
    load_vec,
    touched_lines,
    vec_blob,
    wgt_tile_loads,
)
from .dma import load_box
from .pointwise import clear_half, one_block_fits


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
    (``a < fh``, ``b < fw``), run as DWCONVs over ``groups`` of ``(first a, rows)``. A dense layer
    has one phase, ``(0, 0)`` over every tap, on the input at stride 1."""

    py: int
    px: int
    fh: int
    fw: int
    groups: list


@dataclass
class _Plan:
    """The tiling of a depthwise layer: output tiles of ``toh x tow``, its ``phases``, whether
    the layer is computed ``dense`` (stride 1, subsampled by the REQ) and whether the windows of
    two blocks load as one (``pair``, :func:`_pair_lines`)."""

    dense: bool
    phases: list
    toh: int
    tow: int
    pair: bool = False


def _phases(cfg: HwConfig, s, dense: bool) -> list[_Phase]:
    fh, fw = s.weff.shape[:2]
    sh, sw = (1, 1) if dense else s.stride
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


def _acc_dims(s, dense: bool, th: int, tw: int) -> tuple[int, int]:
    """Rows and columns of the DWCONVs' outputs (the ACC tile) for a ``th x tw`` output tile:
    the same, or for a dense layer every stride-1 position from the first output to the last."""
    if not dense:
        return th, tw
    return (th - 1) * s.stride[0] + 1, (tw - 1) * s.stride[1] + 1


def _window_lines(s, plan: _Plan, th: int, tw: int) -> int:
    """ACT lines of one stage's input windows (every phase's)."""
    ah, aw = _acc_dims(s, plan.dense, th, tw)
    return sum((ah + p.fh - 1) * (aw + p.fw - 1) for p in plan.phases)


#: DWCONV's padding fields: at most this many rows (``pad_top`` / ``pad_bottom``) and columns
#: (the fields' widths in the ISA table).
_DW_FIELDS = BY_NAME["DWCONV"].field_map
DW_PAD_ROWS = min(_DW_FIELDS["pad_top"].max, _DW_FIELDS["pad_bottom"].max)
DW_PAD_COLS = min(_DW_FIELDS["pad_left"].max, _DW_FIELDS["pad_right"].max)


def _trims(p: _Phase, ah: int, aw: int, top: int, bottom: int, left: int, right: int):
    """The padding lines of phase ``p``'s input window (``top`` .. ``right`` lines of padding at
    each side, for ``ah x aw`` outputs) that its DWCONVs take as zero padding instead of the LOAD
    filling them: ``(rows above, below, columns left, right)``, the most rows every row group's
    DWCONV can take (``pad_top + pad_bottom < fh`` of each; with more than one filter row fewer
    padding columns than ``aw``)."""
    cols = p.fw - 1 if all(gr == 1 for _, gr in p.groups) else min(p.fw - 1, aw - 1)
    left = min(left, cols, DW_PAD_COLS)
    right = min(right, cols - left, DW_PAD_COLS)
    box_h = ah + p.fh - 1
    best = (0, 0)
    for tt in range(min(top, p.fh - 1) + 1):
        for tb in range(min(bottom, p.fh - 1) + 1):
            if tt + tb > sum(best) and all(_group_pads(a0, gr, ah, box_h, tt, tb) is not None for a0, gr in p.groups):
                best = (tt, tb)
    return (*best, left, right)


def _group_pads(a0: int, gr: int, ah: int, box_h: int, tt: int, tb: int):
    """``(pad_top, pad_bottom)`` of the DWCONV of filter rows ``a0 .. a0 + gr - 1`` over a window
    of ``box_h`` rows of which the LOAD leaves out ``tt`` above and ``tb`` below, or None if the
    DWCONV cannot take them."""
    pt, pb = max(0, tt - a0), max(0, a0 + ah + gr - 1 - (box_h - tb))
    return (pt, pb) if pt + pb < gr and max(pt, pb) <= DW_PAD_ROWS else None


def _dw_tiles(cfg: HwConfig, s, dense: bool) -> list[_Plan]:
    """Candidate plans: per tile width the tallest tile whose double-buffered input windows fit
    below the staging slots, whose output tile fits a slot, whose ACC tile fits twice in ACC and
    whose fields fit the ISA."""
    phases = _phases(cfg, s, dense)
    in_l, (o0, o1) = dw_act_layout(cfg)
    slot = abs(o1 - o0)
    fw_max, fh_max = max(p.fw for p in phases), max(p.fh for p in phases)
    out = []
    for tow in sorted({s.ow, *[ceil_div(s.ow, k) for k in range(2, 9)]}, reverse=True):
        aw = _acc_dims(s, dense, 1, tow)[1]
        if aw + fw_max - 1 > MAX8 or (dense and s.stride[0] * aw > MAX8):
            continue
        toh = s.oh
        while toh > 0:
            ah = _acc_dims(s, dense, toh, tow)[0]
            plan = _Plan(dense, phases, toh, tow)
            if (ah + fh_max - 1 <= MAX8 and 2 * _window_lines(s, plan, toh, tow) <= in_l and toh * tow <= slot
                    and acc_tiles_fit(cfg, ah * aw, 0)):
                break
            toh -= 1
        # the tallest, and the heights that split the rows evenly in as many tiles
        for h in sorted({toh, *[ceil_div(s.oh, k) for k in range(2, 9)]}, reverse=True):
            if 0 < h <= toh:
                out.append(_Plan(dense, phases, h, tow))
    return out


def _tiles(s, plan: _Plan):
    """The output tiles ``(oy0, ox0, th, tw)`` of one image, row-major."""
    return [(oy0, ox0, min(plan.toh, s.oh - oy0), min(plan.tow, s.ow - ox0))
            for oy0 in range(0, s.oh, plan.toh) for ox0 in range(0, s.ow, plan.tow)]


def _box_geometry(s, plan: _Plan, p: _Phase, oy0: int, ox0: int):
    """Where phase ``p``'s input window of the output tile at ``(oy0, ox0)`` lies: ``(r0, c0, x0,
    y0, width, height, x_stride, y_stride)``, its box's first line is line ``(y0, x0)`` of a grid
    of ``height x width`` lines whose line ``(0, 0)`` is input pixel ``(r0, c0)``. Phased: the
    grid is the input pixels ``(r0 + g * sh, c0 + k * sw)`` (``r0``, ``c0`` the first at or after
    the padding), read with the stride in the byte strides; dense: the input at stride 1 from
    ``(oy0 * sh, ox0 * sw)`` of the padded input."""
    top, _, left, _ = s.pads
    sh, sw = s.stride
    if plan.dense:
        return 0, 0, ox0 * sw - left, oy0 * sh - top, s.w, s.h, s.c, s.w * s.c
    i0, j0 = max(0, -(-(top - p.py) // sh)), max(0, -(-(left - p.px) // sw))
    r0, c0 = i0 * sh + p.py - top, j0 * sw + p.px - left
    hp, wp = max(0, -(-(s.h - r0) // sh)), max(0, -(-(s.w - c0) // sw))
    return r0, c0, ox0 - j0, oy0 - i0, wp, hp, sw * s.c, sh * s.w * s.c


def _tile_windows(s, plan: _Plan, oy0: int, ox0: int, ah: int, aw: int) -> list:
    """Per phase of the output tile at ``(oy0, ox0)`` (``ah x aw`` DWCONV outputs): ``(box_w,
    box_h, trims)``, its input window's box and the padding lines its DWCONVs take (``_trims``)."""
    out = []
    for p in plan.phases:
        _, _, x0, y0, width, height, _, _ = _box_geometry(s, plan, p, oy0, ox0)
        box_w, box_h = aw + p.fw - 1, ah + p.fh - 1
        out.append((box_w, box_h, _trims(p, ah, aw, max(0, -y0), max(0, y0 + box_h - height), max(0, -x0),
                                         max(0, x0 + box_w - width))))
    return out


#: Pairs of window slots the windows of paired blocks rotate through (``_pair_lines``): the
#: LOADs of a load group wait for the DWCONVs of the group ``PAIR_SLOTS`` before, so that a LOAD
#: of REQ parameters between two window LOADs does not hold up the DWCONVs.
PAIR_SLOTS = 3


def _pair_lines(cfg: HwConfig, s, plan: _Plan) -> int:
    """The ACT lines of the input window of one channel block where the windows of two
    consecutive blocks load as one LOAD (``_DwPass``, pairs), else 0: a layer of one output tile
    per image and one phase whose window the LOAD takes without padding lines as a run of whole
    input rows (the run, then the next block: ``y_stride`` = ``rows`` bytes), at most ``MAX8``
    lines, ``PAIR_SLOTS`` pairs of windows fitting below the staging slots."""
    if len(plan.phases) != 1 or plan.toh < s.oh or plan.tow < s.ow:
        return 0
    p = plan.phases[0]
    ah, aw = _acc_dims(s, plan.dense, s.oh, s.ow)
    (box_w, box_h, (tt, tb, tl, tr)), = _tile_windows(s, plan, 0, 0, ah, aw)
    _, _, x0, y0, width, height, xs, ys = _box_geometry(s, plan, p, 0, 0)
    x0, y0, w, h = x0 + tl, y0 + tt, box_w - tl - tr, box_h - tt - tb
    if x0 != 0 or w != width or ys != width * xs or y0 < 0 or y0 + h > height or w * h > MAX8:
        return 0
    return w * h if 2 * PAIR_SLOTS * w * h <= dw_act_layout(cfg)[0] else 0


def _dw_estimate(cfg: HwConfig, s, plan: _Plan, nblocks: int, group: int = 0, handed: bool = False) -> int:
    """Cycles of the layer: the busiest engine's total plus what cannot overlap it (the first
    stage's work before it, the last stage's after it; the last stage requantizes and stores in
    two halves). On one DMA engine loads and stores add up; on an in-order machine everything.
    ``group``: the REQ parameter blocks per LOAD where they rotate through VEC (0: resident),
    their lines on the load queue with every stage. ``handed``: the REQs write the next
    pointwise pass's input in place, nothing is stored."""
    C, lat = cfg.cols, cfg.ext_latency
    beats = ceil_div(cfg.rows, cfg.dma_bytes_per_cycle)
    params = REQ_LINES * ceil_div(4 * C, cfg.dma_bytes_per_cycle) + lat // group if group else 0
    total, first, last = [0, 0, 0, 0], None, None
    # the tiles of one geometry cost the same (shape and the padding lines at their edges)
    shapes: dict = {}
    for oy0, ox0, th, tw in _tiles(s, plan):
        ah, aw = _acc_dims(s, plan.dense, th, tw)
        key = (th, tw, tuple(_tile_windows(s, plan, oy0, ox0, ah, aw)))
        shapes[key] = shapes.get(key, 0) + 1
    paired = plan.pair and nblocks > 1
    for (th, tw, wins), count in shapes.items():
        ah, aw = _acc_dims(s, plan.dense, th, tw)
        comp = load = 0
        for p, (box_w, box_h, (tt, tb, tl, tr)) in zip(plan.phases, wins):
            load += (box_h - tt - tb) * (box_w - tl - tr) * beats + (lat // 2 if paired else lat) + params
            for a0, gr in p.groups:
                pt, pb = _group_pads(a0, gr, ah, box_h, tt, tb)
                d = SimpleNamespace(nx=aw, ny=ah, fh=gr, fw=p.fw, pad_top=pt, pad_bottom=pb, pad_left=tl,
                                    pad_right=tr)
                comp += dwconv_cycles(cfg, dw_stream(d))
        vec = vec_cycles(cfg, "REQ", th * tw)
        store = 0 if handed else th * tw * beats + lat
        stage = (load, comp, vec, store)
        total = [a + count * s.n * nblocks * b for a, b in zip(total, stage)]
        first, last = first or stage, stage
    (load0, comp0, vec0, _), (_, compn, vecn, storen) = first, last
    if paired:      # the first stage waits for the windows of two blocks
        load0 = 2 * load0
    tail = vecn // 2 + max(vecn, storen) // 2 + storen // 2
    if cfg.in_order:
        return sum(total)
    if cfg.dma_engines == 1:
        return max(total[0] + total[3], load0 + total[1] + tail, load0 + comp0 + total[2] + storen)
    return max(total[0] + compn + tail, load0 + total[1] + tail, load0 + comp0 + total[2] + storen,
               load0 + comp0 + vec0 + total[3])


def _tile_taps(s, phases, blocks):
    """The filter tiles of ``blocks`` in the order the DWCONVs use them (per block, phase, row
    group), as ``(tile, line, ky, kx, block)``: line ``t`` of a tile holds tap ``T - 1 - t`` of its
    group (DWCONV)."""
    sh, sw = (1, 1) if len(phases) == 1 else s.stride
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


#: The fewest REQ parameter blocks per group when the parameters of a pass rotate through VEC in
#: two groups: group ``k + 1`` loads in the stage ``3`` after group ``k``'s first (the REQs of
#: group ``k - 1`` are done then: the loads of stage ``t`` wait for the DWCONVs of ``t - 2``, which
#: waited for the REQ of ``t - 4``), which must come before group ``k + 1``'s first stage.
PARAM_GROUP_MIN = 4


def _vec_blocks(cfg: HwConfig) -> int:
    """REQ parameter blocks VEC holds (and the 8-bit ``param`` field reaches)."""
    return min(cfg.lines("VEC") // REQ_LINES, MAX8 // REQ_LINES)


def depthwise_passes(ctx, s) -> list:
    """The passes of a depthwise convolution ``s`` (``dw_applies``): passes of channel blocks whose
    filter tiles fit WGT and REQ parameters VEC, each one pre-tokenized pass (:class:`_DwPass`)."""
    cfg, R = ctx.cfg, ctx.cfg.rows
    nb = ceil_div(s.c, R)
    vec_blocks = _vec_blocks(cfg)
    best = None
    # (the pointwise pass's one block of every pixel: _pointwise_plan with ``handed``)
    fits = ctx.hands and s.c % R == 0 and one_block_fits(cfg, s.n * s.oh * s.ow, nb)
    for dense in ((False, True) if s.stride != (1, 1) else (False,)):
        ntiles = sum(len(p.groups) for p in _phases(cfg, s, dense))   # filter tiles per block
        per_pass = min(nb, cfg.lines("WGT") // (R * ntiles))
        if vec_blocks // 2 < PARAM_GROUP_MIN:    # no two groups of parameter blocks: resident
            per_pass = min(per_pass, vec_blocks)
        if per_pass < 1:
            continue
        for plan in _dw_tiles(cfg, s, dense):
            for pair in (False, True) if per_pass > 1 and _pair_lines(cfg, s, plan) else (False,):
                plan = replace(plan, pair=pair)
                # (a one-pass layer of whole-row tiles hands its output to a pointwise pass after
                # it: hand_over_to_pointwise)
                handed = fits and per_pass >= nb and plan.tow == s.ow
                est = _dw_estimate(cfg, s, plan, nb, 0 if per_pass <= vec_blocks else vec_blocks // 2, handed)
                if best is None or est < best[0]:
                    best = (est, plan, per_pass)
    if best is None:
        raise CannotLower("no depthwise tile fits the scratchpads")
    _, plan, per_pass = best
    return [_DwPass(ctx, s, plan, list(range(b0, min(nb, b0 + per_pass)))).emit()
            for b0 in range(0, nb, per_pass)]


class _DwPass:
    """One pass of the depthwise schedule over the channel blocks ``blocks``, as one pre-tokenized
    instruction list. Its filter tiles and resident REQ parameters are a prefetch (they may load
    during the layer before); per stage (output tile, block) the stage's input windows are LOADed
    (one per phase, padding by the LOAD) into one of two window slots, one DWCONV per phase and
    group of filter rows accumulates into one of two ACC tiles, the REQ writes one of two staging
    slots, the STORE writes the output. Rotating REQ parameters go through the two halves of VEC,
    the first group (in the upper half) with the prefetch, so that it may load during the layer
    before too; the last stage (and every stage where that fits, ``halves_fit``)
    requantizes and stores in two halves, so that its STORE starts earlier. With ``pair``
    (:func:`_pair_lines`) two stages of consecutive blocks share one window LOAD.
    Tokens: stage ``t``'s loads wait for stage ``t - 2``'s DWCONVs (``c2l``: its window slot is
    free; with pairs those of the load group ``PAIR_SLOTS`` before), its DWCONVs for the loads
    (``l2c``) and for the REQ of stage ``t - 2`` (``v2c``: its ACC tile is read), its REQ for the
    DWCONVs (``c2v``) and the last STORE of stage ``t - 2`` (``s2v``), its STORE for the REQ
    (``v2s``)."""

    def __init__(self, ctx, s, plan: _Plan, blocks: list):
        cfg = ctx.cfg
        self.ctx, self.cfg, self.s, self.plan, self.blocks = ctx, cfg, s, plan, blocks
        self.R = cfg.rows
        self.ntiles = sum(len(p.groups) for p in plan.phases)
        in_l, self.out_base = dw_act_layout(cfg)
        win = _window_lines(s, plan, plan.toh, plan.tow)
        assert 2 * win <= in_l
        self.in_base = (0, win)
        # windows of two consecutive blocks of one image in one LOAD (_pair_lines): PAIR_SLOTS
        # pairs of window slots, one pair per load group in turn
        self.pair = _pair_lines(cfg, s, plan) if plan.pair and len(blocks) > 1 else 0
        ah, aw = _acc_dims(s, plan.dense, plan.toh, plan.tow)
        self.acc_base = (acc_slot(cfg, ah * aw, 0), acc_slot(cfg, ah * aw, 1))

    def emit(self) -> RawPass:
        cfg, s, R, what = self.cfg, self.s, self.R, self.s.what
        consts = self.ctx.consts
        # the pointwise pass lowered just before (the layer before, where no other constants came
        # after it): the first group of rotating parameters goes where it touches fewer VEC lines
        before = consts.last if len(consts.data) == consts.last_end else None
        dyn = s.dyn
        if dyn is not None and dyn.filter is not None:   # a filter that is not a constant (.dynamic)
            filters = _filter_loads(cfg, s, self.plan.phases, self.blocks, self.ctx.addr[dyn.filter])
        else:
            waddr = self.ctx.consts.add(_filter_tiles(cfg, s, self.plan.phases, self.blocks))
            filters = wgt_tile_loads(R, waddr, 0, 0, len(self.blocks) * self.ntiles,
                                     lambda k, nt: f"{what}: filter tiles {k}..{k + nt - 1}")
        steps = [(nbx, tile, j) for nbx in range(s.n) for tile in _tiles(s, self.plan) for j in range(len(self.blocks))]
        # the REQ parameters: resident (block j in slot j) when all the pass's blocks fit VEC, else
        # in groups of consecutive stages through the two halves of VEC in turn, the first group
        # in the half the layer before touches fewer lines of (the upper one on a tie: a pointwise
        # pass rotates its own through the bottom of VEC), so that it is part of the prefetch too
        # (at the bottom of VEC, as the filter tiles at the bottom of WGT: the pointwise schedule's
        # resident ones are at the top, so that either may load while the other runs)
        resident = len(self.blocks) <= _vec_blocks(cfg)
        group = len(self.blocks) if resident else _vec_blocks(cfg) // 2
        h0 = 0 if resident else clear_half(cfg, before, "VEC",
                                           lambda h: (h * group * REQ_LINES, group * REQ_LINES), 1)
        self.param_slot = [(j if resident else (t // group + h0) % 2 * group + t % group) * REQ_LINES
                           for t, (_, _, j) in enumerate(steps)]
        # constants the pass's own loads come after: the builder may load them during the layer
        # before (emit.ProgramBuilder._barrier)
        prefetch = filters + self.param_loads(steps, 0, group)
        # group k + 1's parameters load in stage off of group k: then the REQs of group k - 1,
        # which read that half of VEC, are done (the loads of stage t wait for the DWCONVs of
        # stage t - 2, or with pairs of t - 2 PAIR_SLOTS or later, which waited for the REQ two
        # stages before theirs), and before the window of group k + 1's first stage (with pairs
        # as late as that allows, so that the window LOADs are ahead when it comes)
        if not resident and self.pair and group < 2 * PAIR_SLOTS + 2:
            self.pair = 0
        off = max(2 * PAIR_SLOTS + 1, group - 2) if self.pair else 3
        loads, computes, finishes = [], [], []
        self.groups = self.load_groups(steps)
        for t, (nbx, tile, j) in enumerate(steps):
            ld = self.group_loads(t, steps)
            token(ld[-1], L2C, "push")
            comp = self.dwconvs(t, nbx, tile, j)
            token(comp[0], L2C, "pop")
            if t >= 2:
                token(comp[0], V2C, "pop")
            token(comp[-1], C2L, "push")
            if not resident and t % group == off and t - off + group < len(steps):
                # group k + 1 in the load queue before the window of its first stage, whose
                # DWCONVs (and so the REQs after them) wait for it
                ld += self.param_loads(steps, t - off + group, group)
            token(comp[-1], C2V, "push")
            loads.append(ld)
            computes.append(comp)
            finishes.append(self.finish(t, nbx, tile, j, halves=t == len(steps) - 1 or self.halves_fit(tile, comp)))
        # program order: stage t's loads, then stage t - 1's DWCONVs and its REQ / STORE (so that
        # a REQ is fetched right after the DWCONVs it waits for, whichever engine is the busiest)
        out = RawPass(prefetch=prefetch)
        for t in range(len(steps) + 1):
            if t < len(steps):
                out += loads[t]
            if t:
                out += computes[t - 1] + finishes[t - 1]
        if all(tile[3] == s.ow for _, tile, _ in steps):
            # every output tile is whole rows: each REQ writes consecutive pixels of one channel
            # block, which a pointwise pass may read in place (hand_over_to_pointwise)
            out.dw_out = self.out_pieces
        return out

    def param_loads(self, steps, first: int, group: int) -> list[Ins]:
        """LOADs of the REQ parameters of the stages ``first .. first + group - 1`` into their
        slots (one group: consecutive slots)."""
        cfg, s, R = self.cfg, self.s, self.R
        blocks = [self.blocks[j] for _, _, j in steps[first:first + group]]
        req = [param_block(cfg, "REQ", **{k: (v[cb * R:min(s.o, cb * R + R)] if np.ndim(v) else v)
                                           for k, v in s.params.items()}) for cb in blocks]
        out = load_vec(cfg, self.ctx.consts, vec_blob(req), self.param_slot[first],
                       f"{s.what}: requantization parameters c{blocks[0] * R}..")
        if s.dyn is not None and s.dyn.bias is not None:     # a bias that is not a constant (.dynamic)
            out += s.dyn.bias_loads(cfg, self.ctx.addr[s.dyn.bias], blocks, self.param_slot[first],
                                    f"{s.what}: bias")
        return out

    def windows(self, t: int, nbx: int, tile, j: int) -> list:
        """Stage ``t``'s input windows (every phase's) for block ``j`` of the pass: per phase
        ``(phase, first ACT line, load_box arguments, trims)``, the padding lines the DWCONVs
        take (``_trims``) left out of the LOAD's box."""
        s, R = self.s, self.R
        oy0, ox0, th, tw = tile
        cb = self.blocks[j]
        ln = min(R, s.c - cb * R)
        xbase = self.ctx.addr[s.x] + nbx * s.h * s.w * s.c + cb * R
        ah, aw = _acc_dims(s, self.plan.dense, th, tw)
        out, buf = [], self.slot(t)
        for p, (box_w, box_h, tr) in zip(self.plan.phases, _tile_windows(s, self.plan, oy0, ox0, ah, aw)):
            args = list(self.window_box(p, buf, xbase, oy0, ox0, ah, aw, ln))
            args[4], args[5] = args[4] + tr[2], args[5] + tr[0]
            args[10], args[11] = box_w - tr[2] - tr[3], box_h - tr[0] - tr[1]
            out.append((p, buf, args, tr))
            buf += (ah + p.fh - 1) * (aw + p.fw - 1)
        return out

    def load_groups(self, steps) -> list[tuple[int, int]]:
        """Per stage ``(load group, place in it)``: with ``pair``, two consecutive stages of one
        image and tile whose blocks are whole (``rows`` channels) share one window LOAD, else
        each stage is a group of its own."""
        out, t, g = [], 0, 0
        while t < len(steps):
            n = 1
            if self.pair and t + 1 < len(steps) and steps[t][:2] == steps[t + 1][:2]:
                n = 2 if all((self.blocks[steps[k][2]] + 1) * self.R <= self.s.c for k in (t, t + 1)) else 1
            out += [(g, k) for k in range(n)]
            t, g = t + n, g + 1
        return out

    def slot(self, t: int) -> int:
        """Stage ``t``'s window slot: the two halves of ``in_base`` in turn, or with ``pair`` the
        ``pair`` lines at place ``k`` of one of ``PAIR_SLOTS`` pairs of slots, one per load group
        in turn."""
        if not self.pair:
            return self.in_base[t % 2]
        g, k = self.groups[t]
        return (g % PAIR_SLOTS * 2 + k) * self.pair

    def group_loads(self, t: int, steps) -> list[Ins]:
        """Stage ``t``'s window LOADs: its own, or with a load group of two stages one LOAD for
        both at the first and a load-queue NOP at the second (for its ``l2c`` token). The first
        LOAD of a group waits for the DWCONVs of the stages of the group whose slots it writes
        (two before, or ``PAIR_SLOTS`` with ``pair``; one ``c2l`` pop each, the first ones on
        load-queue NOPs)."""
        g, k = self.groups[t]
        nbx, tile, j = steps[t]
        if k:
            return [nop("load", f"{self.s.what}: input window loaded with the one before")]
        size = sum(1 for gg, _ in self.groups if gg == g)
        if size == 1:
            ld = self.window_loads(t, nbx, tile, j)
        else:
            (_, _, args, _), = self.windows(t, nbx, tile, j)
            ld = [Ins("LOAD", {"sp": "ACT", "len": self.R, "sp_addr": self.slot(t),
                               "ext_addr": args[3] + (args[5] * args[6] + args[4]) * args[8],
                               "x_size": self.pair, "y_size": size, "x_stride": args[8], "y_stride": self.R,
                               "fill": _byte(self.s.zx)},
                      f"{self.s.what}: input windows y{tile[0]} x{tile[1]} c{self.blocks[j] * self.R}.. "
                      f"({size} blocks)")]
        before = sum(1 for gg, _ in self.groups if gg == g - PAIR_SLOTS) if self.pair else int(t >= 2)
        waits = [nop("load", f"{self.s.what}: window slot free") for _ in range(max(0, before - 1))]
        for w in waits + ld[:1] if before else []:
            token(w, C2L, "pop")
        return waits + ld

    def window_loads(self, t: int, nbx: int, tile, j: int) -> list[Ins]:
        """Stage ``t``'s input windows (every phase's) for block ``j`` of the pass."""
        s = self.s
        oy0, ox0, _, _ = tile
        cb = self.blocks[j]
        out = []
        for p, _, args, _ in self.windows(t, nbx, tile, j):
            ph = f" phase ({p.py},{p.px})" if len(self.plan.phases) > 1 else ""
            out += load_box(*args, f"{s.what}: input window y{oy0} x{ox0} c{cb * self.R}{ph}")
        return out

    def window_box(self, p: _Phase, buf, base, oy0, ox0, ah, aw, ln):
        """``load_box``'s arguments for phase ``p``'s input window of the output tile at ``(oy0,
        ox0)`` (``ah x aw`` DWCONV outputs, :func:`_box_geometry`). Lines outside the input are
        the zero point."""
        cfg, s = self.cfg, self.s
        r0, c0, x0, y0, wp, hp, xs, ys = _box_geometry(s, self.plan, p, oy0, ox0)
        return (cfg, "ACT", buf, base + (r0 * s.w + c0) * s.c, x0, y0, wp, hp, xs, ys,
                aw + p.fw - 1, ah + p.fh - 1, ln, s.zx)

    def dwconvs(self, t: int, nbx: int, tile, j: int) -> list[Ins]:
        """Stage ``t``'s DWCONVs: one per phase and group of filter rows, accumulating."""
        s, R = self.s, self.R
        _, _, th, tw = tile
        cb = self.blocks[j]
        ah, aw = _acc_dims(s, self.plan.dense, th, tw)
        out, k = [], 0
        for p, buf, args, (tt, tb, tl, tr) in self.windows(t, nbx, tile, j):
            ph = f" phase ({p.py},{p.px})" if len(self.plan.phases) > 1 else ""
            iw, box_h = args[10], ah + p.fh - 1
            for a0, gr in p.groups:
                pt, pb = _group_pads(a0, gr, ah, box_h, tt, tb)
                out.append(Ins("DWCONV", {
                    "accumulate": int(k > 0), "act_signed": s.x_signed, "wgt_signed": s.w_signed,
                    "fh": gr, "fw": p.fw, "act": buf + (a0 + pt - tt) * iw, "acc": self.acc_base[t % 2],
                    "wgt": (j * self.ntiles + k) * R, "za": _byte(s.zx), "zw": _byte(s.zw), "nx": aw, "ny": ah,
                    "act_ys": iw, "acc_ys": aw, "pad_top": pt, "pad_bottom": pb, "pad_left": tl, "pad_right": tr},
                    f"{s.what}: c{cb * R}{ph} filter rows {a0}..{a0 + gr - 1}"))
                k += 1
        return out

    def halves_fit(self, tile, comp: list[Ins]) -> bool:
        """Whether a stage of ``tile`` may requantize and store in two halves (the STORE of the top
        rows starting while the REQ of the bottom ones runs) and keep the vector and store queues
        within its DWCONVs' cycles ``comp``: the second REQ's parameter lines and latency, the
        second STORE's latency."""
        cfg = self.cfg
        _, _, th, tw = tile
        cycles = sum(dwconv_cycles(cfg, dw_stream(SimpleNamespace(**i.fields))) for i in comp if i.name == "DWCONV")
        vec = VEC_BY_NAME["REQ"].lines_cycles(cfg, th * tw) + 2 * vec_cycles(cfg, "REQ", 0)
        store = th * tw * ceil_div(self.R, cfg.dma_bytes_per_cycle) + 2 * cfg.ext_latency
        return th >= 2 and max(vec, store) <= cycles

    def finish(self, t: int, nbx: int, tile, j: int, halves: bool) -> list[Ins]:
        """Stage ``t``'s REQs and STOREs (one of each, or with ``halves`` two of each over the
        tile's top and bottom rows; only the last STORE frees the staging slot for the REQ of
        stage ``t + 2``)."""
        s, R = self.s, self.R
        oy0, ox0, th, tw = tile
        cb = self.blocks[j]
        sh, sw = s.stride if self.plan.dense else (1, 1)
        aw = _acc_dims(s, self.plan.dense, th, tw)[1]
        dst = self.out_base[t % 2]
        parts = [(0, th)] if not halves or th < 2 else [(0, th // 2), (th // 2, th - th // 2)]
        reqs, stores = [], []
        if not hasattr(self, "out_pieces"):
            self.out_pieces = []
        for r0, nr in parts:
            reqs.append(Ins("VEC", {
                "func": "REQ", "signed": 0, "dst": dst + r0 * tw, "src": self.acc_base[t % 2] + r0 * sh * aw,
                "param": self.param_slot[t], "nx": tw, "ny": nr, "dst_xs": 1, "dst_ys": tw, "src_xs": sw,
                "src_ys": sh * aw}, f"{s.what}: requantize c{cb * R}" + (f" rows {r0}.." if halves else "")))
            ext = self.ctx.addr[s.y] + ((nbx * s.oh + oy0 + r0) * s.ow + ox0) * s.o + cb * R
            stores.append(Ins("STORE", {"sp": "ACT", "len": min(R, s.o - cb * R), "sp_addr": dst + r0 * tw,
                                        "ext_addr": ext, "x_size": tw, "y_size": nr, "x_stride": s.o,
                                        "y_stride": s.ow * s.o},
                                f"{s.what}: output tile n{nbx} y{oy0 + r0} x{ox0} c{cb * R}"))
            self.out_pieces.append((reqs[-1], stores[-1], (nbx * s.oh + oy0 + r0) * s.ow + ox0, cb))
        token(reqs[0], C2V, "pop")
        if t >= 2:
            token(reqs[0], S2V, "pop")
        for r, st in zip(reqs, stores):
            token(r, V2S, "push")
            token(st, V2S, "pop")
        # the last STORE frees the staging slot (the store queue runs them in order)
        token(stores[-1], S2V, "push")
        token(reqs[-1], V2C, "push")
        return reqs + stores


def hand_over_to_pointwise(cfg: HwConfig, first: RawPass, then: RawPass) -> bool:
    """Joins a depthwise pass ``first`` whose output only the pointwise pass ``then`` reads (one
    pixel block of all the pixels, every K tile resident: ``_Pointwise.pw_in``): the depthwise
    REQs write their tiles straight into the pointwise input slot, moved to ACT banks neither
    pass otherwise touches (K tile ``cb`` = channel block ``cb`` at ``cb x P``, the pixels in
    order), ``first`` stores nothing (its REQs lose their store tokens) and ``then`` loads no
    input (a load-queue NOP keeps a LOAD's tokens; its GEMMs read the moved slot). Returns
    whether it did."""
    pieces, pw = getattr(first, "dw_out", None), getattr(then, "pw_in", None)
    if not pieces or pw is None or any(cb >= pw.k_tiles for *_, cb in pieces):
        return False
    if len({cb for *_, cb in pieces}) != pw.k_tiles or sum(r.fields["nx"] * r.fields["ny"] for r, *_ in pieces) != pw.k_tiles * pw.p:
        return False
    n = pw.k_tiles * pw.p
    bl = cfg.bank_lines("ACT")
    gone = {id(i) for _, st, _, _ in pieces for i in (st,)} | {id(i) for i in pw.loads}
    reqs = {id(r) for r, *_ in pieces}
    rest = [i for i in first if id(i) not in gone and id(i) not in reqs]
    rest += [i for i in then if id(i) not in gone and i.name != "GEMM"]
    used = touched_lines(cfg, rest, "ACT")
    used_banks = {int(b) for b in np.flatnonzero(used) // bl}
    base = next((a for a in range(0, cfg.lines("ACT") - n + 1, bl)
                 if not any(b in used_banks for b in range(a // bl, (a + n - 1) // bl + 1))), None)
    if base is None:
        return False
    for r, st, pixel, cb in pieces:
        f = r.fields
        if f["dst_xs"] != 1 or f["dst_ys"] != f["nx"]:
            return False
    for r, st, pixel, cb in pieces:
        r.fields["dst"] = base + cb * pw.p + pixel
        r.comment += " into the next pass's input"
        for ch in (V2S, S2V):
            if any(k == ch for _, k in r.channels()):
                untoken(r, ch)
    first[:] = [i for i in first if id(i) not in gone]
    shift = base - pw.base
    out = []
    for i in then:
        if id(i) in gone:
            if i.flags:
                keep = nop("load", "the input is in place (the previous pass's REQs wrote it)")
                keep.flags = set(i.flags)
                out.append(keep)
            continue
        if i.name == "GEMM":
            i.fields["act"] += shift
        out.append(i)
    then[:] = out
    first.dw_out, then.pw_in = None, None
    return True
