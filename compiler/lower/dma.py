"""DMA-only building blocks: strided copies through ACT, transposes, padded LOAD boxes."""

from __future__ import annotations

import numpy as np

from nnaccel.hwconfig import HwConfig

from ..emit import Ins
from .base import MAX8, MAX16, MAX_PAD, CannotLower, _byte, ceil_div

#: ACT buffers of DMA-only stages (a LOAD fills the buffer a STORE then reads): the load of stage
#: ``s`` waits for compute ``s - 2``, which waited for store ``s - 4``, so four buffers rotate.
DMA_BUFFERS = 4


def _row_groups(th: int, row_stride: int):
    """Output rows per instruction: all ``th`` at once when the ACT row stride fits its 8-bit
    field, else one instruction per row."""
    if row_stride <= MAX8 or th == 1:
        return [(0, th)]
    return [(r, 1) for r in range(th)]


def load_box(cfg, space, sp_addr, base, x0, y0, width, height, x_stride, y_stride, box_w, box_h,
             ln, fill, comment) -> list[Ins]:
    """LOADs of the ``box_h x box_w`` box of lines at ``sp_addr`` whose line ``(by, bx)`` is the
    external line ``(y0 + by, x0 + bx)`` of a ``height x width`` grid at ``base`` (strides in
    bytes), lines outside the grid filled with ``fill``. Uses the LOAD padding fields when the
    border is at most 3 lines, else a fill pass and one LOAD per row."""
    top, left = max(0, -y0), max(0, -x0)
    bottom, right = max(0, y0 + box_h - height), max(0, x0 + box_w - width)
    vh, vw = box_h - top - bottom, box_w - left - right
    ext = base + (y0 + top) * y_stride + (x0 + left) * x_stride
    if vh <= 0 or vw <= 0:
        return [Ins("LOAD", {"sp": space, "len": 0, "sp_addr": sp_addr, "ext_addr": cfg.dma_base, "x_size": box_w,
                                 "y_size": box_h, "x_stride": 0, "y_stride": 0, "fill": _byte(fill)}, comment + " (padding)")]
    if max(top, bottom, left, right) <= MAX_PAD:
        return [Ins("LOAD", {"sp": space, "len": ln, "sp_addr": sp_addr, "ext_addr": ext, "x_size": box_w, "y_size": box_h,
                                 "x_stride": x_stride, "y_stride": y_stride, "pad_top": top, "pad_bottom": bottom,
                                 "pad_left": left, "pad_right": right, "fill": _byte(fill)}, comment)]
    out = [Ins("LOAD", {"sp": space, "len": 0, "sp_addr": sp_addr, "ext_addr": cfg.dma_base, "x_size": box_w, "y_size": box_h,
                            "x_stride": 0, "y_stride": 0, "fill": _byte(fill)}, comment + " (padding)")]
    for r in range(vh):
        out.append(Ins("LOAD", {"sp": space, "len": ln, "sp_addr": sp_addr + (top + r) * box_w + left,
                                    "ext_addr": ext + r * y_stride, "x_size": vw, "y_size": 1, "x_stride": x_stride,
                                    "y_stride": 0, "fill": _byte(fill)}, comment + f" row {r}"))
    return out


def transpose_stages(cfg: HwConfig, src: int, dst: int, batch: int, rows: int, cols: int, what: str) -> list:
    """DMA-only stages that transpose ``batch`` row-major ``rows x cols`` byte matrices at ``src``
    into ``cols x rows`` ones at ``dst``, one byte per ACT line (``len = 1`` boxes: gathered with
    the source's strides, scattered with the destination's)."""
    err = None
    # out[b][j][i] = in[b][i][j]; x over one of the two axes, y over the other
    for order in ((0, 1, 2), (0, 2, 1)):
        dims = [batch, cols, rows]          # output index (b, j, i)
        s_st = [rows * cols, 1, cols]       # source strides of (b, j, i)
        d_st = [rows * cols, rows, 1]
        dims, s_st, d_st = ([v[o] for o in order] for v in (dims, s_st, d_st))
        try:
            return copy_stages(cfg, src, s_st, dst, d_st, dims, 1, what)
        except CannotLower as e:
            err = e
    raise err


def _pipelined_rows(cfg: HwConfig, per_y: int, rows: int, most: int) -> int:
    """Rows (of ``per_y`` lines) per stage of a copy of ``rows`` rows, at most ``most``: the
    fewest estimated cycles of ``(stages + 1) x (latency + a stage's lines)``, as the LOAD of one
    stage runs beside the STORE of the one before (the first LOAD and the last STORE alone), plus
    a latency per stage for its token round trip (the LOAD of a stage waits for the vector batch
    two stages back)."""
    def estimate(ny: int) -> int:
        return (ceil_div(rows, ny) + 1) * (cfg.ext_latency + ny * per_y) + ceil_div(rows, ny) * cfg.ext_latency
    return min(range(1, max(1, most) + 1), key=estimate)


def copy_stages(cfg: HwConfig, src: int, src_strides, dst: int, dst_strides, dims, row: int, what: str,
                first_stage: int = 0, pipelined: bool = False) -> list:
    """Stages that copy a strided box of rows through ACT: for every index ``i`` of ``dims`` (outer
    dimensions, strides in bytes per side), the ``row`` contiguous bytes at ``src + i . src_strides``
    go to ``dst + i . dst_strides``. A row is cut into lines of ``cols`` bytes; a LOAD / STORE box
    covers the pieces of a row (or, for rows of one line, the innermost dimension) times the next
    dimension; the remaining dimensions are loops. ``pipelined``: stages of the size whose LOADs
    and STOREs overlap best (:func:`_pipelined_rows`), else as large as a buffer holds."""
    R = cfg.cols
    budget = cfg.lines("ACT") // DMA_BUFFERS
    xmax = min(MAX8, budget)  # lines of one box: the x_size field, and one buffer
    dims, src_strides, dst_strides = list(dims) or [1], list(src_strides) or [0], list(dst_strides) or [0]
    pieces = [(x0 * R, min(xmax, row // R - x0), R) for x0 in range(0, row // R, xmax)]
    if row % R:
        pieces.append(((row // R) * R, 1, row % R))
    if row <= R:  # one line per row: x runs over the innermost dimension
        xd = [(len(dims) - 1, dims[-1])]
        outer = list(range(len(dims) - 1))
    else:
        xd = None
        outer = list(range(len(dims)))
    ydim = outer.pop() if outer else None
    for strides in (src_strides, dst_strides):
        for d in ([xd[0][0]] if xd else []) + ([ydim] if ydim is not None else []):
            if strides[d] > MAX16:
                raise CannotLower("a stride is wider than the DMA stride field")
    stages = []
    for idx in np.ndindex(*[dims[d] for d in outer]) if outer else [()]:
        so = src + sum(i * src_strides[d] for i, d in zip(idx, outer))
        do = dst + sum(i * dst_strides[d] for i, d in zip(idx, outer))
        ny_total = dims[ydim] if ydim is not None else 1
        boxes = []
        if xd:
            d, n = xd[0]
            for x0 in range(0, n, xmax):
                nx = min(xmax, n - x0)
                boxes.append((x0 * src_strides[d], x0 * dst_strides[d], nx, src_strides[d], dst_strides[d], row))
        else:
            for off, nx, ln in pieces:
                boxes.append((off, off, nx, R, R, ln))
        # groups of boxes (pieces of a row) that fit one buffer; long rows take several stages
        groups, cur = [], []
        for box in boxes:
            if cur and sum(b[2] for b in cur) + box[2] > budget:
                groups.append(cur)
                cur = []
            cur.append(box)
        groups.append(cur)
        ys, yd = (src_strides[ydim], dst_strides[ydim]) if ydim is not None else (0, 0)
        for group in groups:
            per_y = sum(b[2] for b in group)
            step = max(1, min(MAX8, budget // per_y))
            if pipelined:
                step = _pipelined_rows(cfg, per_y, ny_total, step)
            for y0 in range(0, ny_total, step):
                ny = min(step, ny_total - y0)
                base = ((first_stage + len(stages)) % DMA_BUFFERS) * budget
                loads, stores, sp = [], [], base
                for soff, doff, nx, xs, xdst, ln in group:
                    loads.append(Ins("LOAD", {"sp": "ACT", "len": ln, "sp_addr": sp, "ext_addr": so + y0 * ys + soff,
                                              "x_size": nx, "y_size": ny, "x_stride": xs, "y_stride": ys}, what))
                    stores.append(Ins("STORE", {"sp": "ACT", "len": ln, "sp_addr": sp,
                                                "ext_addr": do + y0 * yd + doff, "x_size": nx, "y_size": ny,
                                                "x_stride": xdst, "y_stride": yd}, what))
                    sp += nx * ny
                stages.append((loads, [], stores))
    return stages


def _byte_strides(dims) -> list[int]:
    out, acc = [], 1
    for d in reversed(dims):
        out.append(acc)
        acc *= d
    return out[::-1]
