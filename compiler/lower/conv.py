"""Convolutions (CONV_2D, DEPTHWISE_CONV_2D, GROUPED_CONV_2D, FULLY_CONNECTED) as one general
convolution over an effective dense filter, tiled into output tiles of GEMMs and REQs."""

from __future__ import annotations

import dataclasses
import functools
import math
from dataclasses import dataclass

import numpy as np

from nnaccel.golden import nn as gnn
from nnaccel.golden.common import qrange
from nnaccel.hwconfig import HwConfig
from nnaccel.isa.cycles import vec_cycles
from nnaccel.isa.table import VEC_BY_NAME
from nnaccel.program import param_block
from nnaccel.quant import activation_range_quantized, single_rounding_multipliers

from ..emit import Ins
from .base import (
    MAX8,
    MAX16,
    QUANT8,
    REQ_LINES,
    CannotLower,
    LowerContext,
    Lowering,
    T,
    _byte,
    _need_const,
    _need_known,
    _need_quant8,
    _scalar,
    _signed,
    _window_spec,
    acc_slot,
    acc_tiles_fit,
    act_split,
    ceil_div,
    load_vec,
    tighten,
    vec_blob,
    wgt_tile_loads,
)
from .depthwise import depthwise_passes, dw_applies
from .dma import _row_groups, load_box
from .dynamic import DynamicOperands, dynamic_operands, packed_filter, repacks
from .im2col import im2col_applies, im2col_passes, im2col_scratch
from .layout import _in_nhwc, _layout_passes_fit, _nhwc_dims, _nhwc_scratch
from .pointwise import StridedRows, _pointwise, pointwise_pass, residual_cost
from .stacked import residual_fits, stack_applies, stack_plan, stacked_passes


# ================================================================================ convolution
@dataclass
class ConvSpec:
    """A general quantized convolution, NHWC: ``x [N, H, W, C]`` -> ``y [N, OH, OW, O]``."""

    x: int
    y: int
    n: int
    h: int
    w: int
    c: int
    oh: int
    ow: int
    o: int
    weff: np.ndarray      # [fh, fw, C, O] raw filter bytes (uint8 view), unconnected = zw
    zx: int
    zw: int
    x_signed: int
    w_signed: int
    params: dict          # REQ parameters: bias, mult, shift, zo, lo, hi (each [O] or a scalar)
    stride: tuple
    dilation: tuple
    pads: tuple           # top, bottom, left, right
    what: str
    round: int = 0        # REQ's rounding: 0 NNAPI's double rounding, 1 single (LiteRT's FULLY_CONNECTED)
    #: The filter / bias that are not constants (``weff`` then holds only the zero point), or None.
    dyn: DynamicOperands | None = None



@functools.lru_cache(maxsize=64)
def _single_rounding_pairs(reals: tuple, reach: int) -> tuple:
    """:func:`~nnaccel.quant.single_rounding_multipliers`, kept for the next :meth:`ConvLowering.spec`
    of the same operation (one per channel of a large layer: a measurable part of its compile)."""
    return tuple(single_rounding_multipliers(reals, reach))


class ConvLowering(Lowering):
    absorbs_clamp = True
    fuses_residual = True
    summary = "a convolution on the systolic array"

    def check(self, sg, op) -> None:
        self.spec(sg, op)

    def check_origin(self, sg, op, origin: str) -> None:
        self.spec(sg, op, origin=origin)

    def output_range(self, sg, op) -> tuple:
        p = self.spec(sg, op).params
        return p["lo"], p["hi"]

    def spec(self, sg, op, clamp=None, origin: str = "nnapi") -> ConvSpec:
        x, w, b = (sg.operands[i] for i in op.inputs[:3])
        y = sg.operands[op.outputs[0]]
        _need_quant8(sg, [op.inputs[0], op.outputs[0]])
        _need_known(sg, [op.inputs[0], op.inputs[1], op.outputs[0]])
        if w.type not in QUANT8 and w.type is not T.TENSOR_QUANT8_SYMM_PER_CHANNEL:
            raise CannotLower(f"the filter is {w.type.name}")
        _need_const(sg, op, range(3, len(op.inputs)))
        zw = 0 if w.type is T.TENSOR_QUANT8_SYMM_PER_CHANNEL else w.zero_point
        # a filter that is not a constant: its bytes are the zero point here, its tiles are
        # packed at run time (.dynamic)
        wraw = np.asarray(w.data) if w.is_constant else np.full(w.dimensions, zw, np.int64)
        wbytes = wraw.view(np.uint8) if wraw.dtype == np.int8 else wraw.astype(np.uint8)
        if self.kind == "FULLY_CONNECTED":
            units, size = wraw.shape
            total = int(np.prod(x.dimensions))
            if total % size:
                raise CannotLower("the input size does not divide the input")
            batch = total // size
            weff = wbytes.T[None, None, :, :]
            act = _scalar(sg, op, 3, 0)
            # rows of the input as image rows: [1, batch, 1, size] (the DMA row stride is `size`)
            n, h, wd, c, oh, ow, o = 1, batch, 1, size, batch, 1, units
            stride, dil, pads = (1, 1), (1, 1), (0, 0, 0, 0)
        else:
            spec_inputs = {"CONV_2D": gnn.CONV_INPUTS, "DEPTHWISE_CONV_2D": gnn.DEPTHWISE_INPUTS,
                           "GROUPED_CONV_2D": gnn.GROUPED_INPUTS}[self.kind]
            win = _window_spec(sg, op, spec_inputs)
            n, h, wd, c = _nhwc_dims(x.dimensions, win.nchw)
            _, oh, ow, o = _nhwc_dims(y.dimensions, win.nchw)
            fh, fw = wraw.shape[1:3]
            pads = win.resolve((h, wd), (fh, fw))
            stride, dil = win.stride, win.dilation
            act = win.activation or 0
            if self.kind == "CONV_2D":
                weff = wbytes.transpose(1, 2, 3, 0)
            else:
                weff = np.full((fh, fw, c, o), _byte(zw), np.uint8)
                if self.kind == "DEPTHWISE_CONV_2D":
                    mult = o // c
                    oc = np.arange(o)
                    weff[:, :, oc // mult, oc] = wbytes[0][:, :, oc]
                else:
                    g = win.extra
                    cg, dg = c // g, o // g
                    for gi in range(g):
                        weff[:, :, gi * cg:(gi + 1) * cg, gi * dg:(gi + 1) * dg] = \
                            wbytes[gi * dg:(gi + 1) * dg].transpose(1, 2, 3, 0)
        lo, hi = qrange(y.type)
        act_lo, act_hi = tighten(activation_range_quantized(act, y.scale, y.zero_point, lo, hi), clamp)
        rounding = int(self.kind == "FULLY_CONNECTED" and gnn.single_rounding_fc(origin, y.type))
        if rounding:
            # the golden kernel's round(double(acc) * real): REQ's single rounding with a Q31
            # multiplier checked to give the same result wherever the clamp lets it through
            # (one per output unit for per-channel weights, each the same REQ's per-channel pair)
            reach = max(act_hi - y.zero_point, y.zero_point - act_lo, 1)
            reals = gnn.fc_real_multiplier(x, w, y)
            pairs = _single_rounding_pairs(tuple(reals.reshape(-1).tolist()), reach)
            if None in pairs:
                raise CannotLower("no single-rounding multiplier gives LiteRT's requantization of "
                                  "this FULLY_CONNECTED")
            m, e = (np.array(v, np.int64).reshape(reals.shape) for v in zip(*pairs))
        else:
            m, e = gnn.conv_multipliers(x, w, y, gnn.exact_conv_product(origin, self.kind, x.type))
        fh, fw = weff.shape[:2]
        dyn = dynamic_operands(self.kind, sg, op, c, o, fh, fw, zw, win.extra if self.kind == "GROUPED_CONV_2D" else 1)
        bias = np.asarray(b.data, np.int64).reshape(-1) if dyn is None or dyn.bias is None else np.zeros(o, np.int64)
        params = {"bias": bias, "mult": np.broadcast_to(m, (o,)), "shift": np.broadcast_to(e, (o,)), "zo": y.zero_point,
                      "lo": act_lo, "hi": act_hi}
        if self.kind != "FULLY_CONNECTED" and win.nchw:
            _layout_passes_fit((n, h, wd, c), (n, oh, ow, o))
        return ConvSpec(op.inputs[0], op.outputs[0], n, h, wd, c, oh, ow, o, weff, x.zero_point, zw,
                        _signed(x), int(w.type is not T.TENSOR_QUANT8_ASYMM), params, tuple(stride),
                        tuple(dil), tuple(pads), self.kind, rounding, dyn)

    def tensors(self, sg, op) -> list[int]:
        # a filter or bias that is not a constant is read from external memory too (.dynamic)
        dynamic = [i for i in op.inputs[1:3] if not (sg.operands[i].is_constant or sg.operands[i].is_omitted)]
        return [op.inputs[0], *dynamic, op.outputs[0]]

    def nchw(self, sg, op) -> bool:
        if self.kind == "FULLY_CONNECTED":
            return False
        spec_inputs = {"CONV_2D": gnn.CONV_INPUTS, "DEPTHWISE_CONV_2D": gnn.DEPTHWISE_INPUTS,
                       "GROUPED_CONV_2D": gnn.GROUPED_INPUTS}[self.kind]
        return _window_spec(sg, op, spec_inputs).nchw

    def scratch(self, sg, op, cfg) -> list[int]:
        s = self.spec(sg, op)
        # a filter that is not a constant is repacked into the last area, unless the schedule
        # reads it where it lies (.dynamic)
        packed = [s.dyn.scratch_bytes(cfg.rows)] if repacks(cfg, s) else []
        if not self.nchw(sg, op):
            fh, fw = s.weff.shape[:2]
            return (im2col_scratch(s) if s.dyn is None and im2col_applies(cfg, self.kind, s.c, fh * fw, s.dilation)
                    else packed)
        return [math.prod(sg.operands[op.inputs[0]].dimensions), math.prod(sg.operands[op.outputs[0]].dimensions),
                *packed]

    def passes(self, ctx, op) -> list:
        s = self.spec(ctx.sg, op, ctx.clamp, ctx.model.origin)
        if repacks(ctx.cfg, s):
            ctx, s.dyn.packed = packed_filter(ctx, s.dyn)
        return self._passes(ctx, op, s)

    def _passes(self, ctx, op, s) -> list:
        if not self.nchw(ctx.sg, op):
            fh, fw = s.weff.shape[:2]
            if ctx.scratch and s.dyn is None and im2col_applies(ctx.cfg, self.kind, s.c, fh * fw, s.dilation):
                mark = ctx.consts.mark()
                try:
                    pre, sub, flat = im2col_passes(ctx, s)
                    return [*pre, *conv_passes(sub, flat)]
                except CannotLower:  # the direct schedule below, without the scratch rows
                    ctx.consts.rollback(mark)
            return conv_passes(ctx, s)
        sub, x, y = _nhwc_scratch(ctx, op)
        s.x, s.y = x, y
        return _in_nhwc(ctx, sub, op, (s.n, s.h, s.w, s.c), (s.n, s.oh, s.ow, s.o), conv_passes(sub, s), self.kind)


def _conv_tiles(cfg: HwConfig, s: ConvSpec, c_blocks: int, o_blocks: int, kept: int = 0):
    """Candidate output tiles ``(toh, tow)``: for each tile width, the tallest tile whose buffers
    fit (double-buffered input tiles of ``c_blocks`` channel blocks below the staging bank, output
    tiles of ``o_blocks`` blocks in it, two alternating + ``kept`` accumulator tiles in ACC) and
    whose fields fit the ISA."""
    fh, fw = s.weff.shape[:2]
    in_l, stag_l = act_split(cfg)
    acc_lines = cfg.lines("ACC")
    out = []
    for tow in range(min(s.ow, MAX8), 0, -1):
        iw = (tow - 1) * s.stride[1] + (fw - 1) * s.dilation[1] + 1
        if iw > MAX8 or s.stride[1] > MAX8:
            continue
        toh = min(s.oh, MAX8, acc_lines // tow)
        while toh > 0:
            ih = (toh - 1) * s.stride[0] + (fh - 1) * s.dilation[0] + 1
            if (ih <= MAX8 and 2 * c_blocks * ih * iw <= in_l and 2 * o_blocks * toh * tow <= stag_l
                    and acc_tiles_fit(cfg, toh * tow, kept)):
                break
            toh -= 1
        if toh:
            out.append((toh, tow))
    return out


def _chunk_blocks(group: list, per_block: list, chunks: list):
    """How the output blocks of a pass meet its input-channel chunks: ``(touched, done_at, span,
    ndone)`` — the chunks each block reads, the chunk after which it is complete (it is
    requantized and stored in that chunk's stage), the blocks that read several chunks (each keeps
    its own ACC tile across them: ``span`` maps them to 0, 1, ...; the others share two
    alternating tiles), and the most blocks completed in one stage (its output buffer)."""
    touched = {co: {k for k, c in enumerate(chunks) for key in per_block[co] if key[2] in c} for co in group}
    done_at = {co: max(touched[co]) for co in group}
    span = {co: n for n, co in enumerate(c for c in group if len(touched[c]) > 1)}
    ndone = max(sum(1 for co in group if done_at[co] == k) for k in range(len(chunks)))
    return touched, done_at, span, ndone


def _conv_plan(cfg: HwConfig, s: ConvSpec, cb: int, group: list, per_block: list, stream: bool = False):
    """Chooses the output tile and the input-channel chunking of one pass by an estimate of its
    cycles (compute, load and store overlap, so the pass costs about the largest of the three);
    returns ``(estimate, toh, tow, chunks)`` or ``None`` when nothing fits.

    With one chunk (all input-channel blocks loaded per tile) each output block is accumulated and
    requantized in turn through one ACC tile; with several chunks every output block of the pass
    keeps its own ACC tile across the chunks and is requantized after the last one. With
    ``stream`` the weight tiles a chunk needs are loaded with its input (double-buffered WGT
    halves) instead of once per pass."""
    R = cfg.rows
    fh, fw = s.weff.shape[:2]
    nkeys = sum(len(per_block[co]) for co in group)
    ng = len(group)
    beats = ceil_div(R, cfg.dma_bytes_per_cycle)
    total_px = s.n * s.oh * s.ow
    slot = cfg.lines("WGT") // R // 2
    used = sorted({key[2] for co in group for key in per_block[co]})  # input blocks the pass reads
    cb = len(used)
    best = None
    for kc in sorted({cb, *[k for k in (1, 2, 3, 4, 6, 8, 12, 16) if k < cb]}, reverse=True):
        chunks = [used[k:k + kc] for k in range(0, cb, kc)]
        wload = 0
        if stream:
            per_chunk = [sum(1 for co in group for key in per_block[co] if key[2] in c) for c in chunks]
            if max(per_chunk) > slot:
                continue
            wload = sum(t * R * beats + cfg.ext_latency for t in per_chunk)
        _, _, span, ndone = _chunk_blocks(group, per_block, chunks)
        for toh, tow in _conv_tiles(cfg, s, kc, ndone, len(span)):
            tiles = s.n * ceil_div(s.oh, toh) * ceil_div(s.ow, tow)
            ih = (toh - 1) * s.stride[0] + (fh - 1) * s.dilation[0] + 1
            iw = (tow - 1) * s.stride[1] + (fw - 1) * s.dilation[1] + 1
            rows = 1 if s.stride[0] * iw <= MAX8 else toh
            compute = nkeys * (total_px + tiles * rows * 3 * R)
            vec = ng * (VEC_BY_NAME["REQ"].lines_cycles(cfg, total_px) + tiles * vec_cycles(cfg, "REQ", 0))
            load = tiles * (cb * (ih * iw * beats + cfg.ext_latency) + wload)
            store = ng * (total_px * beats + tiles * cfg.ext_latency)
            # + the pipeline's fill and drain: a pass starts with a load nothing overlaps and ends
            # with stores nothing overlaps (the barrier between passes)
            fill = kc * (ih * iw * beats + cfg.ext_latency) + (wload // len(chunks) if stream else 0)
            drain = ng * (toh * tow * beats + cfg.ext_latency)
            # one DMA engine (dma_engines = 1) runs the loads and the stores one after another; an
            # in-order machine (in_order) runs every instruction one after another
            dma = load + store if cfg.dma_engines == 1 else max(load, store)
            busy = compute + vec + dma if cfg.in_order else max(compute, vec, dma)
            est = busy + tiles * len(chunks) * 8 + fill + drain
            if best is None or est < best[0]:
                best = (est, toh, tow, chunks)
    return best


def _weight_tiles(cfg: HwConfig, s: ConvSpec):
    """``(tiles, per_block)``: the effective dense filter as ``rows x cols`` weight tiles
    ``[ob, fh, fw, cb, R, R]`` and, per output block, the keys ``(tap_y, tap_x, c block)`` of its
    tiles whose bytes are not all the zero point (at least one)."""
    R = cfg.rows
    fh, fw = s.weff.shape[:2]
    cb, ob = ceil_div(s.c, R), ceil_div(s.o, R)
    wpad = np.full((fh, fw, cb * R, ob * R), _byte(s.zw), np.uint8)
    wpad[:, :, :s.c, :s.o] = s.weff
    blocked = wpad.reshape(fh, fw, cb, R, ob, R)
    tiles = blocked.transpose(4, 0, 1, 2, 3, 5)
    # a filter that is not a constant: the tiles its connection pattern can make nonzero (.dynamic);
    # (a constant's: compared in memory order, then in tile order)
    live = ((blocked != _byte(s.zw)).any(axis=(3, 5)).transpose(3, 0, 1, 2) if s.dyn is None or s.dyn.filter is None
            else s.dyn.live(R))
    per_block = [[tuple(k) for k in np.argwhere(live[co]).tolist()] or [(0, 0, 0)] for co in range(ob)]
    return tiles, per_block


def _general_plan(cfg: HwConfig, s: ConvSpec, per_block: list):
    """``(stream, plan)`` of the general schedule: ``plan`` lists per pass ``(output blocks,
    (estimate, toh, tow, chunks))``, ``stream`` whether the weight tiles are loaded per chunk.
    Resident weights: passes of at most ``cap`` output blocks whose weight tiles fit WGT (fewer
    blocks per pass leave room for larger tiles, at the price of re-reading the input once per
    pass); streamed weights: passes of ``ng`` output blocks, each chunk's tiles loaded with its
    input. The plan of the lowest estimate wins."""
    R = cfg.rows
    cb, ob = ceil_div(s.c, R), ceil_div(s.o, R)
    wgt_tiles = cfg.lines("WGT") // R
    vec_blocks = min(cfg.lines("VEC") // REQ_LINES, MAX8 // REQ_LINES)
    most = min(ob, vec_blocks)
    plans = []
    if max(len(k) for k in per_block) <= wgt_tiles:
        for cap in sorted({most, *[n for n in (1, 2, 3, 4, 6, 8) if n < most]}):
            groups, cur, used = [], [], 0
            for co in range(ob):
                k = len(per_block[co])
                if cur and (used + k > wgt_tiles or len(cur) >= cap):
                    groups.append(cur)
                    cur, used = [], 0
                cur.append(co)
                used += k
            groups.append(cur)
            plan = [(g, _conv_plan(cfg, s, cb, g, per_block)) for g in groups]
            if all(p is not None for _, p in plan):
                plans.append((sum(p[0] for _, p in plan), False, plan))
    for ng in sorted({most, *[n for n in (1, 2, 4, 8, 16) if n < most]}):
        groups = [list(range(c, min(ob, c + ng))) for c in range(0, ob, ng)]
        plan = [(g, _conv_plan(cfg, s, cb, g, per_block, stream=True)) for g in groups]
        if all(p is not None for _, p in plan):
            plans.append((sum(p[0] for _, p in plan), True, plan))
    if not plans:
        raise CannotLower(f"no tiling fits: one output block needs {max(len(k) for k in per_block)} weight "
                          f"tiles, WGT holds {wgt_tiles}")
    _, stream, plan = min(plans, key=lambda x: (x[0], x[1]))
    return stream, plan


def conv_passes(ctx: LowerContext, s: ConvSpec) -> list:
    """The passes of the convolution ``s``: the pointwise schedule where it applies, else the
    depthwise one, else the general schedule (``_general_plan``, ``_general_pass``) or the
    stacked-taps one (``compiler/lower/stacked.py``), whichever has the lower estimate."""
    cfg = ctx.cfg
    # (tiles, per_block), made once a schedule that reads them is tried (the depthwise one does not)
    weights = functools.cache(functools.partial(_weight_tiles, cfg, s))
    if _pointwise(s):
        raw = pointwise_pass(ctx, s, *weights())
        if raw is not None:
            return [raw]
    raw = _strided_pointwise(ctx, s, weights)
    if raw is not None:
        return [raw]
    if s.c * s.w > MAX16 or s.o * s.ow > MAX16:
        raise CannotLower("a tensor row is wider than the DMA stride field")
    if dw_applies(cfg, s):
        mark = ctx.consts.mark()
        try:
            return depthwise_passes(ctx, s)
        except CannotLower:  # the general schedule below
            ctx.consts.rollback(mark)
    tiles, per_block = weights()
    packed = s.dyn is not None and s.dyn.filter is not None   # weight tiles from the repacked filter
    if packed and s.dyn.packed is None:
        raise CannotLower("no scratch memory for the repacked filter")
    stream, plan = _general_plan(cfg, s, per_block)
    if s.dyn is None and stack_applies(cfg, s):    # (the stacked schedule takes constant tiles)
        stacked = stack_plan(cfg, s)
        general = _general_total(cfg, s, stream, plan, per_block)
        res = ctx.residual if ctx.residual is not None and ctx.residual.conv == s.y else None
        if res is not None and residual_fits(cfg, s):
            # the ADD in the tiles, where that beats the best of both plus the ADD on its own
            fused = stack_plan(cfg, s, residual=True)
            best = min(general, stacked.estimate if stacked is not None else general)
            if fused is not None and fused.estimate < best + residual_cost(cfg, s):
                return stacked_passes(ctx, s, tiles, fused, res)
        if stacked is not None and stacked.estimate < general:
            return stacked_passes(ctx, s, tiles, stacked)
    # a filter that is not a constant is repacked first (.dynamic)
    passes = s.dyn.pack_passes(cfg, ctx.addr[s.dyn.filter], s.dyn.packed) if packed else []
    return passes + [_general_pass(ctx, s, tiles, per_block, g, toh, tow, chunks, stream, packed)
                     for g, (_, toh, tow, chunks) in plan]


def _strided_pointwise(ctx: LowerContext, s: ConvSpec, weights):
    """A strided 1x1 convolution without padding (a ResNet's projection shortcut) as the
    pointwise schedule over the input pixels it reads: output pixel ``(oy, ox)`` is the input row
    at ``(oy * sh, ox * sw)``, so the ``[pixels, C]`` matrix is :class:`StridedRows` of ``ow`` rows
    ``sw x C`` bytes apart, row groups ``sh x W x C`` apart (with several images, only where
    ``H = oh x sh``: the groups of the next image follow at the same stride). None where it does
    not apply or fit. ``weights()``: the layer's ``(tiles, per_block)`` (:func:`_weight_tiles`)."""
    cfg = ctx.cfg
    sh, sw = s.stride
    if (s.weff.shape[:2] != (1, 1) or any(s.pads) or (sh, sw) == (1, 1) or s.dyn is not None
            or cfg.rows != cfg.cols or cfg.banks("ACC") < 2 or (s.n > 1 and s.h != s.oh * sh)):
        return None
    xs, ys = sw * s.c, sh * s.w * s.c
    if max(xs, ys, s.c, s.o) > MAX16 or s.ow > MAX8:
        return None
    key = StridedRows(("strided", s.y), s.ow, xs, ys)
    sub = dataclasses.replace(ctx, addr={**ctx.addr, key: ctx.addr[s.x]})
    spec = dataclasses.replace(s, x=key, h=s.oh, w=s.ow, stride=(1, 1))
    mark = ctx.consts.mark()
    try:
        return pointwise_pass(sub, spec, *weights())
    except CannotLower:     # the general schedule
        ctx.consts.rollback(mark)
        return None


def _general_total(cfg: HwConfig, s: ConvSpec, stream: bool, plan: list, per_block: list) -> int:
    """The general schedule's estimate with what ``_conv_plan`` leaves out because it is the same
    for all its tilings: per pass the resident weights' and the REQ parameters' loads before the
    first GEMM, and the last REQ after the last GEMM."""
    R, C, lat = cfg.rows, cfg.cols, cfg.ext_latency
    beats, pbeats = ceil_div(R, cfg.dma_bytes_per_cycle), ceil_div(4 * C, cfg.dma_bytes_per_cycle)
    total = 0
    for g, (est, toh, tow, _) in plan:
        wl = 0 if stream else lat + sum(len(per_block[co]) for co in g) * R * beats
        pl = lat + len(g) * REQ_LINES * pbeats
        last_req = vec_cycles(cfg, "REQ", toh * tow)
        total += est + wl + pl + last_req
    return total


def _general_pass(ctx: LowerContext, s: ConvSpec, tiles, per_block: list, g: list, toh: int, tow: int,
                  chunks: list, stream: bool, packed: bool = False) -> list:
    """The stages of one pass of the general schedule: output blocks ``g`` over output tiles of
    ``toh x tow``, input-channel blocks in ``chunks``; per stage (tile, chunk) the chunk's input
    windows (and, with ``stream``, its weight tiles) LOADed, one GEMM per (tap, input block, row
    group) into the block's ACC tile, and for the blocks the chunk completes their REQ and
    STORE (an output block is requantized and stored in the stage of the last chunk it reads).
    ``packed``: the weight tiles come from the repacked copy of a filter that is not a constant
    (``s.dyn``, .dynamic)."""
    cfg, R = ctx.cfg, ctx.cfg.rows
    fh, fw = s.weff.shape[:2]
    sh, sw = s.stride
    dh, dw = s.dilation
    top, _, left, _ = s.pads
    kc = len(chunks[0])
    ih = (toh - 1) * sh + (fh - 1) * dh + 1
    iw = (tow - 1) * sw + (fw - 1) * dw + 1
    _, done_at, span, ndone = _chunk_blocks(g, per_block, chunks)
    in_base = (0, kc * ih * iw)
    stag0 = act_split(cfg)[0]
    out_base = (stag0, stag0 + ndone * toh * tow)
    # constants of the pass: weight tiles in the order of use (per chunk when streamed), REQ
    # parameter blocks
    worders = [[(co, key) for co in g for key in per_block[co] if not stream or key[2] in c] for c in
               (chunks if stream else [None])]
    waddrs = [None if packed else ctx.consts.add(b"".join(tiles[co][key].tobytes() for co, key in o))
              for o in worders]
    slots = [{ok: i for i, ok in enumerate(o)} for o in worders]
    half = cfg.lines("WGT") // R // 2
    blocks = [param_block(cfg, "REQ", **{k: (v[co * R:min(s.o, co * R + R)] if np.ndim(v) else v)
                                         for k, v in s.params.items()}) for co in g]

    def wload(which: int, base: int) -> list[Ins]:
        if packed:
            return s.dyn.tile_loads(cfg, s.dyn.packed, worders[which], base, f"{s.what}: weight tiles"
                                    + (f" of chunk {which}" if stream else "") + " (repacked filter)")
        return wgt_tile_loads(R, waddrs[which], base, 0, len(worders[which]),
                              lambda k, nt: f"{s.what}: weight tiles {k}..{k + nt - 1}"
                              + (f" of chunk {which}" if stream else ""))

    pre = [] if stream else wload(0, 0)
    pre += load_vec(cfg, ctx.consts, vec_blob(blocks), 0, f"{s.what}: requantization parameters")
    if s.dyn is not None and s.dyn.bias is not None:
        pre += s.dyn.bias_loads(cfg, ctx.addr[s.dyn.bias], g, 0, f"{s.what}: bias")
    stages = []
    st = nreq = 0
    for nb in range(s.n):
        xbase = ctx.addr[s.x] + nb * s.h * s.w * s.c
        for oy0 in range(0, s.oh, toh):
            th = min(toh, s.oh - oy0)
            ih_t = (th - 1) * sh + (fh - 1) * dh + 1
            for ox0 in range(0, s.ow, tow):
                tw = min(tow, s.ow - ox0)
                iy0, ix0 = oy0 * sh - top, ox0 * sw - left
                started = set()
                for kk, chunk in enumerate(chunks):
                    p = st % 2
                    loads = list(pre) if st == 0 else []
                    wbase = p * half * R if stream else 0
                    if stream:
                        loads += wload(kk, wbase)
                    slot = slots[kk if stream else 0]
                    for q, ci in enumerate(chunk):
                        loads += load_box(cfg, "ACT", in_base[p] + q * ih * iw, xbase + ci * R, ix0, iy0,
                                          s.w, s.h, s.c, s.w * s.c, iw, ih_t, min(R, s.c - ci * R), s.zx,
                                          f"{s.what}: input tile n{nb} y{oy0} x{ox0} c{ci * R}")
                    computes, stores = [], []
                    ndone_here = 0
                    for j, co in enumerate(g):
                        # one accumulator tile per output block spanning chunks, else two
                        # alternating: the REQ of one block overlaps the GEMMs of the next
                        acc0 = acc_slot(cfg, toh * tow, nreq % 2, span.get(co))
                        for key in per_block[co]:
                            ky, kx, ci = key
                            if ci not in chunk:
                                continue
                            a0 = in_base[p] + chunk.index(ci) * ih * iw + ky * dh * iw + kx * dw
                            for r0, nr in _row_groups(th, sh * iw):
                                computes.append(Ins("GEMM", {
                                    "accumulate": int(co in started), "preload": int(r0 == 0),
                                    "act_signed": s.x_signed, "wgt_signed": s.w_signed, "act": a0 + r0 * sh * iw,
                                    "acc": acc0 + r0 * tw, "wgt": wbase + slot[(co, key)] * R, "za": _byte(s.zx),
                                    "zw": _byte(s.zw), "nx": tw, "ny": nr, "act_xs": sw,
                                    "act_ys": sh * iw if nr > 1 else 0, "acc_xs": 1, "acc_ys": tw},
                                    f"{s.what}: out c{co * R} tap ({ky},{kx}) in c{ci * R}"))
                            started.add(co)
                        if kk != done_at[co]:
                            continue
                        nreq += 1
                        dst = out_base[p] + ndone_here * toh * tow
                        ndone_here += 1
                        computes.append(Ins("VEC", {"func": "REQ", "signed": 0, "round": s.round, "dst": dst, "src": acc0,
                                                    "param": REQ_LINES * j, "nx": tw, "ny": th, "dst_xs": 1, "dst_ys": tw,
                                                    "src_xs": 1, "src_ys": tw},
                                            f"{s.what}: requantize out c{co * R}"))
                        ext = ctx.addr[s.y] + ((nb * s.oh + oy0) * s.ow + ox0) * s.o + co * R
                        stores.append(Ins("STORE", {"sp": "ACT", "len": min(R, s.o - co * R), "sp_addr": dst,
                                                    "ext_addr": ext, "x_size": tw, "y_size": th, "x_stride": s.o,
                                                    "y_stride": s.ow * s.o},
                                          f"{s.what}: output tile n{nb} y{oy0} x{ox0} c{co * R}"))
                    stages.append((loads, computes, stores))
                    st += 1
    return stages
