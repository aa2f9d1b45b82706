"""Convolutions of few input channels as one GEMM over their taps: an *im2col* copy by the DMA
(each output pixel's window as one row of ``fh x fw x C`` bytes, the filter's own byte order),
then the pointwise schedule on those rows with the filter as a ``[fh x fw x C, O]`` matrix. A
K tile then holds taps as well as channels: a 10x4 filter on one channel streams 3 K tiles of
16 instead of 40 GEMMs of 1 live row each. With batch 1 the rows are not copied out one per
pixel: the DMA writes one *strip* per output column (that column's ``fw x C`` bytes of every
padded row, one after the other), in which the window of output row ``oy`` is the contiguous
``fh x fw x C`` bytes from strip row ``oy * sh``; the pointwise schedule reads those overlapping
rows in place (:class:`~nnaccel.compiler.lower.pointwise.StridedRows`). Where a tap row fits a
K tile and the output channels leave array columns free, the rows need no copy at all: each K
tile is one tap row of several neighbouring output pixels, read from the (padded) input
(:func:`_packed_windows`)."""

from __future__ import annotations

import dataclasses
import math

import numpy as np

from nnaccel.hwconfig import HwConfig

from ..emit import Ins
from .base import MAX8, MAX16, MAX_PAD, CannotLower, _byte
from .dma import DMA_BUFFERS, copy_stages
from .lines import _fill_lines, _line_chunks, _line_dma
from .pad import pad_passes
from .pointwise import StridedRows


def im2col_applies(cfg: HwConfig, kind: str, c: int, taps: int, dilation: tuple) -> bool:
    """A dense convolution whose input channels leave most of a K tile empty: fewer K tiles over
    ``taps x C`` than GEMMs over the taps (with dilation 1, so one window row is contiguous)."""
    return kind == "CONV_2D" and taps > 1 and c < cfg.rows and tuple(dilation) == (1, 1)


#: Stages of the padded copy's rows at least (more pay the external latency more often).
COPY_STAGES = 8


def _padded_dims(s) -> tuple:
    top, bottom, left, right = s.pads
    return s.n, s.h + top + bottom, s.w + left + right, s.c


def _strips(cfg: HwConfig, s) -> bool:
    """Whether the window rows go through column strips (below): batch 1, the strips smaller
    than the im2col rows (a filter taller than its vertical stride), and a configuration whose
    pointwise schedule takes strided rows (two ACC banks)."""
    fh, fw = s.weff.shape[:2]
    _, hp, _, _ = _padded_dims(s)
    return s.n == 1 and s.ow * hp * fw < s.oh * s.ow * fh * fw and cfg.banks("ACC") >= 2 and cfg.rows == cfg.cols


def im2col_scratch(s) -> list[int]:
    """Sizes of the padded input copy (0 without padding) and of the im2col rows (the strips,
    where they are used, are smaller)."""
    fh, fw = s.weff.shape[:2]
    return [math.prod(_padded_dims(s)) if any(s.pads) else 0, s.n * s.oh * s.ow * fh * fw * s.c]


def im2col_passes(ctx, s):
    """``(passes, sub, spec)``: the DMA passes that write the im2col rows (after a padded copy of
    the input when the convolution pads), the context whose address map has the rows, and the
    1x1 convolution over them that finishes the layer."""
    cfg = ctx.cfg
    p = _packed_windows(cfg, s)
    if p:
        return _packed_passes(ctx, s, p)
    fh, fw = s.weff.shape[:2]
    sh, sw = s.stride
    k = fh * fw * s.c
    passes = []
    n, hp, wp, c = _padded_dims(s)
    src = ctx.addr[s.x]
    direct = _padded_strips(cfg, s, src, ctx.scratch[1], s.what) if any(s.pads) and _strips(cfg, s) else None
    if direct is not None:
        passes.append(direct)
    elif any(s.pads):
        top, _, left, _ = s.pads
        src = ctx.scratch[0]
        # rows of W x C bytes: one DMA line carries several pixels
        passes += pad_passes(cfg, ctx.addr[s.x], (s.n, s.h, s.w * c), src, (n, hp, wp * c), (0, top, left * c),
                             s.zx, f"{s.what}: padded input")
    if _strips(cfg, s):
        if direct is None:
            passes.append(_strip_copy(cfg, s, src, ctx.scratch[1]))
        key = StridedRows(("im2col", s.y), s.ow, hp * fw * c, sh * fw * c)
    else:
        # row (n, oy, ox, ky) = the fw x C bytes of padded row oy * sh + ky from column ox * sw
        src_st = [hp * wp * c, wp * c, sh * wp * c, sw * c]
        dst_st = [s.oh * s.ow * k, fw * c, s.ow * k, k]
        passes.append(copy_stages(cfg, src, src_st, ctx.scratch[1], dst_st, [s.n, fh, s.oh, s.ow], fw * c,
                                  f"{s.what}: im2col rows"))
        key = ("im2col", s.y)
    sub = dataclasses.replace(ctx, addr={**ctx.addr, key: ctx.scratch[1]})
    o = s.weff.shape[3]
    spec = dataclasses.replace(s, x=key, h=s.oh, w=s.ow, c=k, weff=s.weff.reshape(1, 1, k, o), stride=(1, 1),
                               dilation=(1, 1), pads=(0, 0, 0, 0))
    return passes, sub, spec


def _strip_copy(cfg: HwConfig, s, src: int, dst: int) -> list:
    """The stages that copy the strips out of the padded input at ``src`` (below)."""
    fw, sw = s.weff.shape[1], s.stride[1]
    _, hp, wp, c = _padded_dims(s)
    # strip ox = the fw x C bytes of every padded row from column ox * sw, the rows fw x C
    # bytes apart: the window of (oy, ox) is then the fh x fw x C bytes of strip ox from its
    # row oy * sh, so the rows of the product overlap (sh of fh window rows apart) and the
    # DMA copies each padded row's bytes fw / sw times instead of fh / sh
    return copy_stages(cfg, src, [sw * c, wp * c], dst, [hp * fw * c, fw * c], [s.ow, hp], fw * c,
                       f"{s.what}: im2col strips")


def _padded_strips(cfg: HwConfig, s, src: int, dst: int, what: str) -> list | None:
    """The strips (above) of a padding convolution straight from its input at ``src``, without
    the padded copy: the input rows' bytes go to their place in each strip (strips whose window
    columns lie alike in the input, consecutive ones, in one copy), and the bytes no copy writes
    (the padding rows and columns of each strip) are stored from a few ACT lines filled with the
    input zero point, so that the DMA writes each strip byte once. None where a stride does not
    fit the DMA fields."""
    fw, sw = s.weff.shape[1], s.stride[1]
    top, _, left, _ = s.pads
    _, hp, _, c = _padded_dims(s)
    strip, row = hp * fw * c, fw * c
    groups: list[list] = []   # [(first window column in the input, columns), first strip, strips]
    for ox in range(s.ow):
        x0 = ox * sw - left
        c0, c1 = max(0, x0), min(s.w, x0 + fw)
        place = (c0 - x0, c1 - c0) if c1 > c0 else (0, 0)
        if groups and groups[-1][0] == place and groups[-1][1] + groups[-1][2] == ox:
            groups[-1][2] += 1
        else:
            groups.append([place, ox, 1])
    # padding boxes (first byte, bytes per line, strips, strip rows, first strip row)
    boxes = []
    for (off, cols), ox0, n in groups:
        base = dst + ox0 * strip
        if cols == 0:
            boxes.append((base, row, n, hp, 0))
            continue
        if top:
            boxes.append((base, row, n, top, 0))
        if hp - top - s.h:
            boxes.append((base + (top + s.h) * row, row, n, hp - top - s.h, top + s.h))
        if off:
            boxes.append((base + top * row, off * c, n, s.h, top))
        if off + cols < fw:
            boxes.append((base + top * row + (off + cols) * c, (fw - off - cols) * c, n, s.h, top))
    if max([strip, row] + [b[1] for b in boxes]) > MAX16:
        return None
    budget = cfg.lines("ACT") // DMA_BUFFERS
    stores = _box_stores(cfg, [(addr, nbytes, n, strip, rows, row) for addr, nbytes, n, rows, _ in boxes],
                         f"{what}: strips' pad value")
    # or every strip filled whole before the copies (the store queue keeps them in order): fewer
    # STOREs where the padding is in many small pieces
    whole = [st for off, n, tail in _line_chunks(cfg, s.ow * strip, budget)
             for st in _line_dma(cfg, "STORE", 0, dst + off, n, tail, f"{what}: strips' pad value")]
    if _store_cycles(cfg, whole) < _store_cycles(cfg, stores):
        stores = whole
    stages = _filled(cfg, stores, s.zx, f"{what}: strips' pad value")
    try:
        # the widest group last, in bands of input rows (each across its strips): the pass
        # reading the strips starts once the first bands are stored (ProgramBuilder._early_loads)
        banded = all(cols * c <= cfg.cols for (_, cols), _, _ in groups)
        for (off, cols), ox0, n in (sorted(groups, key=lambda g: g[2]) if banded else groups):
            if cols == 0:
                continue
            dims = ([sw * c, s.w * c], [strip, fw * c], [n, s.h])
            if cols * c <= cfg.cols:    # (a strip row in one line: a box's lines span the strips)
                dims = tuple(d[::-1] for d in dims)
            stages += copy_stages(cfg, src + (ox0 * sw - left + off) * c, dims[0],
                                  dst + ox0 * strip + top * fw * c + off * c, dims[1], dims[2], cols * c,
                                  f"{what}: im2col strips", first_stage=len(stages), pipelined=cols * c <= cfg.cols)
    except CannotLower:
        return None
    return stages


def _store_cycles(cfg: HwConfig, stores: list) -> int:
    """The DMA time of ``stores`` (lines of at most one DMA beat's bytes)."""
    return sum(cfg.ext_latency + st.fields["x_size"] * st.fields["y_size"] * -(-st.fields["len"] // cfg.dma_bytes_per_cycle)
               for st in stores)


def _box_stores(cfg: HwConfig, boxes: list, what: str) -> list[Ins]:
    """STOREs of the pad value (ACT lines from 0 on, filled by :func:`_filled`) into the boxes
    ``(first byte, bytes per line, lines, line stride, rows, row stride)``, within one DMA buffer."""
    budget = cfg.lines("ACT") // DMA_BUFFERS
    stores = []
    for addr, nbytes, n, xs, rows, ys in boxes:
        for b0 in range(0, nbytes, cfg.cols):
            for x0 in range(0, n, MAX8):
                nx = min(MAX8, n - x0)
                step = max(1, min(MAX8, budget // nx))
                for y0 in range(0, rows, step):
                    stores.append(Ins("STORE", {"sp": "ACT", "len": min(cfg.cols, nbytes - b0), "sp_addr": 0,
                                                "ext_addr": addr + b0 + x0 * xs + y0 * ys, "x_size": nx,
                                                "y_size": min(step, rows - y0), "x_stride": xs, "y_stride": ys},
                                      what))
    return stores


def _filled(cfg: HwConfig, stores: list, value: int, what: str) -> list:
    """The stage of ``stores`` after the LOAD that fills the ACT lines they read with ``value``."""
    if not stores:
        return []
    lines = max(st.fields["sp_addr"] + st.fields["x_size"] * st.fields["y_size"] for st in stores)
    return [(_fill_lines(cfg, 0, lines, value, what), [], stores)]


def _packed_windows(cfg: HwConfig, s) -> int:
    """Output pixels per GEMM row where the windows are read straight from the (padded) input,
    0 where they are not. K tile ``ky`` of a row is then the ``((P - 1) * sw + fw) x C`` bytes of
    padded row ``oy * sh + ky`` from column ``ox * sw``, which hold the window rows of ``P``
    pixels of one output row side by side, and the filter is ``P`` copies of itself, each on its
    own output channels (the pixels' channels are consecutive in the output): no strips, and
    ``fh`` K tiles of ``ow / P`` rows per output row instead of ``fh x fw x C / rows`` of ``ow``.
    Where more output channels than columns or one tap row wider than a K tile leave no such
    gain, the strips stay."""
    fh, fw = s.weff.shape[:2]
    sh, sw = s.stride
    _, _, wp, c = _padded_dims(s)
    R, C = cfg.rows, cfg.cols
    if s.n != 1 or R != C or cfg.banks("ACC") < 2 or fw * c > R or max(sh, 1) * wp * c > MAX16:
        return 0
    best = 0
    for p in range(1, s.ow + 1):
        if (s.ow % p == 0 and ((p - 1) * sw + fw) * c <= R and -(-p * s.o // C) <= -(-s.o // C)
                and s.ow // p <= MAX8):
            best = p
    return best if best and fh * (s.ow // best) <= -(-fh * fw * c // R) * s.ow else 0


def _packed_passes(ctx, s, p: int):
    """:func:`im2col_passes` for :func:`_packed_windows` ``p`` pixels per row."""
    cfg = ctx.cfg
    fh, fw = s.weff.shape[:2]
    sh, sw = s.stride
    _, _, wp, c = _padded_dims(s)
    R, o = cfg.rows, s.weff.shape[3]
    passes, src = [], ctx.addr[s.x]
    edges = _edges(s, p)
    if edges is not None:
        wp = s.w    # the windows straight from the input, its padding as fill bytes and lines
    elif any(s.pads):
        src = ctx.scratch[0]
        passes.append(_padded_copy(cfg, s, ctx.addr[s.x], src))
    w = np.full((fh, R, p, o), _byte(s.zw), np.uint8)
    for q in range(p):
        w[:, q * sw * c:q * sw * c + fw * c, q, :] = s.weff.reshape(fh, fw * c, o)
    key = StridedRows(("im2col", s.y), s.ow // p, p * sw * c, sh * wp * c, wp * c, ((p - 1) * sw + fw) * c, edges)
    sub = dataclasses.replace(ctx, addr={**ctx.addr, key: src})
    params = {name: (np.tile(v, p) if np.ndim(v) else v) for name, v in s.params.items()}
    spec = dataclasses.replace(s, x=key, h=s.oh, w=s.ow // p, ow=s.ow // p, c=fh * R, o=p * o,
                               weff=w.reshape(1, 1, fh * R, p * o), params=params, stride=(1, 1),
                               dilation=(1, 1), pads=(0, 0, 0, 0), what=f"{s.what} (im2col windows)")
    return passes, sub, spec


def _edges(s, p: int) -> tuple | None:
    """:attr:`~nnaccel.compiler.lower.pointwise.StridedRows.edges` of the windows of ``p``
    pixels read straight from the unpadded input, where the padding is at the right and bottom
    only and lies in the last window row of each output row (its last bytes) and in whole input
    rows (at most ``MAX_PAD`` of an output row group's K tiles); else None (a padded copy)."""
    top, _, left, _ = s.pads
    fh, fw = s.weff.shape[:2]
    sh, sw = s.stride
    if not any(s.pads) or top or left or s.n != 1:
        return None
    groups, span = s.ow // p, (p - 1) * sw + fw
    start = (groups - 1) * p * sw          # the first input column of each output row's last window row
    if start + span <= s.w or start >= s.w or (groups > 1 and start - p * sw + span > s.w):
        return None
    if sum(1 for oy in range(s.oh) if oy * sh + fh - 1 >= s.h) > MAX_PAD:
        return None
    return ((s.w - start) * s.c, s.h, sh)


def _padded_copy(cfg: HwConfig, s, src: int, dst: int) -> list:
    """The stages of a padded copy of the batch-1 input at ``src`` at ``dst``: the padding rows
    and columns stored from filled ACT lines, the input rows copied to their place."""
    top, bottom, left, right = s.pads
    _, _, wp, c = _padded_dims(s)
    row, what = wp * c, f"{s.what}: padded input"
    budget = cfg.lines("ACT") // DMA_BUFFERS
    stores = [st for a, nb in ((dst, top * row), (dst + (top + s.h) * row, bottom * row)) if nb
              for off, n, tail in _line_chunks(cfg, nb, budget) for st in _line_dma(cfg, "STORE", 0, a + off, n, tail, what)]
    cols = [(dst + top * row, left * c), (dst + (top * wp + left + s.w) * c, right * c)]
    stores += _box_stores(cfg, [(a, nb, s.h, row, 1, 0) for a, nb in cols if nb], what)
    stages = _filled(cfg, stores, s.zx, what)
    # the rows in several stages, so that the stores of one overlap the loads of the next
    step = -(-s.h // COPY_STAGES)
    for r0 in range(0, s.h, step):
        stages += copy_stages(cfg, src + r0 * s.w * c, [s.w * c], dst + ((top + r0) * wp + left) * c, [row],
                              [min(step, s.h - r0)], s.w * c, f"{what} rows", first_stage=len(stages))
    return stages
