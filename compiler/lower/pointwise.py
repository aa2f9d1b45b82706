"""The pointwise schedule of 1x1 convolutions and fully connected layers."""

from __future__ import annotations

import collections
import functools
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from nnaccel.hwconfig import HwConfig
from nnaccel.isa.cycles import gemm_cycles, instruction_cycles, vec_cycles
from nnaccel.isa.table import MAX_KTILES, VEC_BY_NAME
from nnaccel.program import param_block

from ..emit import C2L, C2V, L2C, S2V, V2C, V2S, Ins, ProgramBuilder, RawPass, nop, token, untoken
from .base import (
    MAX8,
    MAX16,
    MAX_PAD,
    REQ_LINES,
    CannotLower,
    LowerContext,
    _byte,
    acc_slot,
    act_split,
    ceil_div,
    load_vec,
    residual_add,
    touched_lines,
    vec_blob,
    wgt_tile_loads,
)
from .dynamic import filter_streams

if TYPE_CHECKING:
    from .conv import ConvSpec

# ================================================================================ pointwise
#: Pointwise schedule: loads run this many steps ahead of the GEMMs (the WGT slots of streamed
#: weights), accumulator and staging slots, parameter slots of streamed REQ parameters
#: (>= PW_AHEAD + PW_ACC: a parameter slot is reloaded only after the REQ that read it).
PW_AHEAD, PW_ACC, PW_STAGING = 2, 2, 2
PW_PARAMS = PW_AHEAD + PW_ACC
#: ... at most this many WGT slots ahead where streamed weights leave room (``_Pointwise.ahead``).
PW_AHEAD_MAX = 4
#: Slots of a fused residual ADD's other operand (``LowerContext.residual``): tile ``a``'s LOAD
#: follows GEMM ``i - 3`` (``i`` = the tile's last step), which waited for REQ ``a - 5``, so the
#: ADDQ of tile ``a - 6``, the slot's last reader, is done.
PW_SKIP = 6
ADD_LINES = len(VEC_BY_NAME["ADDQ"].params)
#: The K-chunked and the filter-streaming schedules replace the all-K-resident one only where
#: their estimate is lower by more than this factor (the estimates' own error).
PW_MARGIN = 0.99


@dataclass(frozen=True)
class StridedRows:
    """The input of a pointwise pass whose rows are not consecutive: row ``m`` of the
    ``[rows, C]`` matrix is the ``C`` bytes at ``addr + (m // width) * ys + (m % width) * xs``
    (``addr`` = the context's address of this key; the im2col strips, ``compiler/lower/im2col.py``).
    The pass then takes pixel blocks of whole ``width``-row groups."""

    tensor: object
    width: int
    xs: int
    ys: int
    #: K tile ``t`` of a row: the ``tl`` bytes at ``t * ts`` from the row's first (0: ``rows``);
    #: the rest of its line is the input zero point
    ts: int = 0
    tl: int = 0
    #: ``(last, rows, step)``, read straight from an unpadded input whose padding is at the
    #: right and bottom only: the last row of each group carries ``last`` of the ``tl`` bytes
    #: (the rest of its line the zero point), and K tile ``t`` of the rows of group ``g`` reads
    #: input row ``g * step + t``, a padding line (the zero point) from row ``rows`` on. A block's
    #: lines are then column-major (row ``k`` of group ``g`` of the block at line ``k * groups +
    #: g``), so that each K tile's last-row lines and its padding lines are each one LOAD box
    #: (``_Pointwise.tr``); None: every line is ``tl`` bytes of the input
    edges: tuple | None = None


def _column_major(x) -> bool:
    """Whether the input ``x`` of a 1x1 pass is read straight from an input with right / bottom
    padding (:attr:`StridedRows.edges`), so that its blocks' lines are column-major."""
    return isinstance(x, StridedRows) and x.edges is not None


def _pointwise(s: ConvSpec) -> bool:
    """A 1x1 convolution over every pixel (stride 1, no padding) is a matrix product of the
    ``[pixels, C]`` input rows with the ``[C, O]`` filter: the pointwise schedule applies."""
    fh, fw = s.weff.shape[:2]
    return (fh, fw) == (1, 1) and s.stride == (1, 1) and not any(s.pads) and (s.oh, s.ow) == (s.h, s.w)


def _even_split(n: int, parts: int) -> list[int]:
    q, r = divmod(n, parts)
    return [q + (1 if k < r else 0) for k in range(parts)]


def _ktile_groups(cis: list[int]) -> list[tuple[int, int]]:
    """Runs of consecutive live K tiles as GEMM groups ``(first tile, count)`` of at most
    ``MAX_KTILES`` tiles each (a long run split evenly)."""
    runs, out = [], []
    for ci in cis:
        if runs and ci == runs[-1][0] + runs[-1][1]:
            runs[-1][1] += 1
        else:
            runs.append([ci, 1])
    for c0, n in runs:
        for k in _even_split(n, ceil_div(n, MAX_KTILES)):
            out.append((c0, k))
            c0 += k
    return out


@functools.lru_cache(maxsize=4096)
def _pixel_blocks(m: int, nx: int, ny: int) -> tuple[tuple[int, int, int], ...]:
    """Blocks ``(first row, nx, ny)`` of ``nx * ny`` consecutive rows covering ``m`` rows (the
    plans ask for the same few many times: remembered)."""
    return tuple(_pixel_block_list(m, nx, ny))


def _block_shapes(blocks) -> collections.Counter:
    """How many blocks of each shape ``(bx, by)`` ``blocks`` has, in the order the shapes first
    occur (the plans' estimates add the same terms per shape)."""
    return collections.Counter((bx, by) for _, bx, by in blocks)


def _pixel_block_list(m: int, nx: int, ny: int) -> list[tuple[int, int, int]]:
    out, m0, p = [], 0, nx * ny
    while m - m0 >= p:
        out.append((m0, nx, ny))
        m0 += p
    rest = m - m0
    if rest >= nx:
        out.append((m0, nx, rest // nx))
        m0 += nx * (rest // nx)
    if m - m0:
        out.append((m0, m - m0, 1))
    return out


def _top(lines: int, n: int, parity: int) -> int:
    """First line of an ``n``-line block at the top of a ``lines``-line scratchpad: the last
    ``n`` lines, or with ``parity`` 1 the ``n`` below them where both fit the upper half."""
    return lines - n * (1 + (parity if 2 * n <= lines // 2 else 0))


def _clear_top(cfg: HwConfig, last, space: str, n: int, parity: int) -> int:
    """:func:`_top` of scratchpad ``space``, or where the pass ``last`` touches some of those
    lines, the first of the other place there and the bottom ``n`` lines that it touches none of."""
    lines = cfg.lines(space)
    first = _top(lines, n, parity)
    if last is None:
        return first
    used = touched_lines(cfg, last, space)
    return next((a for a in (first, _top(lines, n, 1 - parity), 0) if not used[a:a + n].any()), first)


def _addq_cycles(cfg: HwConfig, p: int) -> int:
    """Cycles of one ADDQ over ``p`` lines (the ISA's VEC timing)."""
    return vec_cycles(cfg, "ADDQ", p)


def residual_cost(cfg: HwConfig, s: ConvSpec) -> int:
    """About the cycles of a residual ADD over the output of ``s`` on its own (its lines' ADDQ
    time, what fusing it into the pass saves at most)."""
    return _addq_cycles(cfg, ceil_div(s.n * s.oh * s.ow * s.o, cfg.cols))


def one_block_fits(cfg: HwConfig, m: int, k_tiles: int) -> bool:
    """Whether one pixel block of all ``m`` pixels and ``k_tiles`` K tiles fits the input and
    staging lines and the accumulator (a ``handed`` plan of :func:`_pointwise_plan`)."""
    in_l, stag_l = act_split(cfg)
    return (k_tiles * m <= in_l - cfg.bank_lines("ACT") and PW_STAGING * m <= stag_l
            and m <= cfg.lines("ACC") // PW_ACC)


def _pointwise_plan(cfg: HwConfig, s: ConvSpec, groups: list, resident_w: bool, resident_p: bool,
                    width: int | None = None, row_ys: int | None = None, residual: bool = False,
                    handed: bool = False):
    """``(estimate, nx, ny)``: the pixel block shape with the lowest estimated cycles (per block
    the largest of GEMM, vector, load and store time, plus the pipeline's fill and drain), or
    None when no block fits the scratchpads and fields. ``residual``: with a fused ADD (its
    operand's tiles in the bank below the staging bank, its ADDQ after each REQ, waiting for the
    previous tile's STORE). ``handed``: only one block of every pixel, its input written in place
    by the pass before (no input LOADs; ``depthwise.hand_over_to_pointwise``), in at most the
    input lines above the first bank (which the depthwise windows keep)."""
    R, C = cfg.rows, cfg.cols
    m = s.n * s.h * s.w
    k_tiles, n_tiles = ceil_div(s.c, R), ceil_div(s.o, C)
    lat, beats = cfg.ext_latency, ceil_div(R, cfg.dma_bytes_per_cycle)
    pbeats = ceil_div(4 * C, cfg.dma_bytes_per_cycle)
    in_l, stag_l = act_split(cfg)
    p_max = cfg.lines("ACC") // PW_ACC
    if residual:
        in_l -= cfg.bank_lines("ACT")
        p_max = min(p_max, cfg.bank_lines("ACT") // PW_SKIP)
    nxs = {min(m, MAX8)} | {ceil_div(m, k) for k in range(1, min(m, 64) + 1)}
    nxs |= {d for d in range(1, min(m, MAX8) + 1) if m % d == 0}
    if width is not None:   # rows in groups of ``width`` (StridedRows): whole groups per block
        nxs = {width}
    wl = sum(0 if resident_w else lat + k * R * beats for gs in groups for _, k in gs)
    pl = 0 if resident_p else n_tiles * (lat + REQ_LINES * pbeats)
    # resident weights and parameters load before the first GEMM
    ntiles = sum(k for gs in groups for _, k in gs)
    pre = (lat * ceil_div(ntiles, MAX8) + ntiles * R * beats if resident_w else 0) + (
        lat + n_tiles * REQ_LINES * pbeats if resident_p else 0)
    best = None
    for nx in sorted(x for x in nxs if 0 < x <= MAX8):
        ny = min(MAX8, p_max // nx, ceil_div(m, nx))
        while ny >= 1:
            p = nx * ny
            ins = 1 if len(_pixel_blocks(m, nx, ny)) == 1 else 2
            if ins * k_tiles * p <= in_l and PW_STAGING * p <= stag_l:
                break
            ny -= 1
        if ny < 1 or (ny > 1 and max(nx * s.c if row_ys is None else row_ys, nx * s.o) > MAX16):
            continue
        # strided rows fix nx: their block height is chosen by the estimate too
        ny_max = ny
        for ny in (range(ny_max, 0, -1) if width is not None else [ny_max]):
            if handed and (len(_pixel_blocks(m, nx, ny)) != 1 or k_tiles * m > in_l - cfg.bank_lines("ACT")):
                continue
            total = fill = 0
            for (bx, by), count in _block_shapes(_pixel_blocks(m, nx, ny)).items():
                p = bx * by
                comp = sum(gemm_cycles(cfg, k, p) for gs in groups for _, k in gs)
                vec = n_tiles * vec_cycles(cfg, "REQ", p)
                store = n_tiles * (lat + p * beats)
                inp = 0 if handed else (2 * lat if by == 1 else k_tiles * lat) + k_tiles * p * beats
                if _column_major(s.x):
                    inp += k_tiles * lat        # (a second LOAD per K tile: the last window rows)
                if residual:    # a tile's ADDQ after its REQ and the previous tile's STORE
                    vec = max(vec, store) + n_tiles * _addq_cycles(cfg, p)
                    inp += n_tiles * (lat + p * beats)
                total += count * max(comp, vec, store, inp + wl + pl)
                fill = fill or inp + (wl + pl) // max(1, sum(len(gs) for gs in groups))
            last = _pixel_blocks(m, nx, ny)[-1]
            est = total + fill + 2 * (lat + last[1] * last[2] * beats) + pre
            if residual:
                est += _addq_cycles(cfg, last[1] * last[2])
            if best is None or est < best[0]:
                best = (est, nx, ny)
    return best


def pointwise_pass(ctx: LowerContext, s: ConvSpec, tiles: np.ndarray, per_block: list) -> RawPass | None:
    """:func:`_pointwise_pass`, remembered as the constant image's last pass (``ConstImage.last``)."""
    consts = ctx.consts
    if len(consts.data) != consts.last_end:
        consts.last = None      # another lowering's constants came after it: not the last pass
    raw = _pointwise_pass(ctx, s, tiles, per_block)
    consts.last, consts.last_end = raw, len(consts.data)
    return raw


def _pointwise_pass(ctx: LowerContext, s: ConvSpec, tiles: np.ndarray, per_block: list) -> RawPass | None:
    """The pointwise schedule of a 1x1 convolution / fully connected layer as one pre-tokenized
    pass (``docs/compiler.md``): the pixels in blocks of ``nx x ny`` rows, each block's input
    loaded K-tile-major (K tile ``t`` at ``t * nx * ny``), then per (block, output tile) the GEMMs
    of its live K tiles (up to ``MAX_KTILES`` per GEMM, ``kt``) into one of two ACC slots, the REQ
    on the vector queue into one of two staging slots while the next GEMMs run, and the STORE.
    Returns None when no block fits."""
    cfg, R, C = ctx.cfg, ctx.cfg.rows, ctx.cfg.cols
    strided = s.x if isinstance(s.x, StridedRows) else None
    if R != C or max(s.c, s.o) > MAX16 or cfg.banks("ACC") < 2:
        # the DMA line stride is the channel count; the two ACC slots need two banks (the array
        # accumulating into one while the vector unit reads the other)
        if strided:
            raise CannotLower("the strided rows need the pointwise schedule")
        return None
    if s.dyn is not None:
        # a filter or bias that is not a constant: only the filter-streaming pass, which reads
        # both where they lie (.dynamic)
        return _Streamed(ctx, s, *_streamed_plan(cfg, s)[1:]).emit() if filter_streams(cfg, s) else None
    n_tiles = ceil_div(s.o, C)
    groups = [_ktile_groups(sorted(key[2] for key in per_block[j])) for j in range(n_tiles)]
    ntiles = sum(k for gs in groups for _, k in gs)
    gmax = max(k for gs in groups for _, k in gs)
    wgt_l, vec_l = cfg.lines("WGT"), cfg.lines("VEC")
    resident_w = ntiles * R <= wgt_l
    if not resident_w and PW_AHEAD * gmax * R > wgt_l:
        return None
    resident_p = n_tiles * REQ_LINES <= min(vec_l, MAX8)
    if not resident_p and PW_PARAMS * REQ_LINES > vec_l:
        return None
    res = ctx.residual if ctx.residual is not None and ctx.residual.conv == s.y else None
    if _column_major(strided):
        res = None      # (the fused ADD's operand tiles are row-major)
    width, row_ys = (strided.width, strided.ys) if strided else (None, None)

    def fused_or(estimates: list, chunks=None):
        """The pass with the residual ADD in its tiles (all K tiles resident or K-chunked with
        the plan ``chunks`` of the unfused pass: the estimate is less exact where the ADD's bank
        makes the chunks smaller), where its estimate beats the best of ``estimates`` plus the ADD
        on its own; else None."""
        if res is None:
            return None
        fplan = _pointwise_plan(cfg, s, groups, resident_w, resident_p, width, row_ys, True)
        cplan = _chunked_plan(cfg, s, True) if chunks is not None else None
        if cplan is not None and cplan[1:] != chunks[1:]:
            cplan = None
        best = min((p[0] for p in (fplan, cplan) if p is not None), default=None)
        if best is None or (estimates and best >= min(estimates) + residual_cost(cfg, s)):
            return None
        if fplan is not None and fplan[0] == best:
            return _Pointwise(ctx, s, tiles, groups, fplan[1], fplan[2], resident_w, resident_p, res).emit()
        return _Chunked(ctx, s, tiles, *cplan[1:], res).emit()

    if strided:
        if max(strided.xs, strided.ys, strided.ts) > MAX16 or strided.width > MAX8:
            raise CannotLower("the strided rows' strides do not fit the DMA fields")
        plan = _pointwise_plan(cfg, s, groups, resident_w, resident_p, strided.width, strided.ys)
        fused = fused_or([plan[0]] if plan else [])
        if fused is not None:
            return fused
        if plan is None:
            raise CannotLower("no pixel block of the strided rows fits")
        return _Pointwise(ctx, s, tiles, groups, plan[1], plan[2], resident_w, resident_p).emit()
    plan = _pointwise_plan(cfg, s, groups, resident_w, resident_p)
    if ctx.handed and res is None and s.c % R == 0:
        # one block of every pixel where the depthwise pass before can write it in place
        # (its estimate without the input LOADs)
        one = _pointwise_plan(cfg, s, groups, resident_w, resident_p, handed=True)
        if one is not None and (plan is None or one[0] < plan[0]):
            plan = one
    k_tiles = ceil_div(s.c, R)
    dense = all(len(per_block[j]) == k_tiles for j in range(n_tiles))
    # K chunks only pay where a pixel block of all K tiles is small (two input slots of them
    # beside the staging bank)
    chunked = None
    if dense and PW_AHEAD * k_tiles * min(s.n * s.h * s.w, MAX8) > act_split(cfg)[0]:
        chunked = _chunked_plan(cfg, s)
    # the other schedules only where their estimate is lower by more than the estimates' error
    streamed = _streamed_plan(cfg, s) if dense else None
    packed = _packed_plan(cfg, s) if dense else None
    fused = fused_or([p[0] for p in (plan, chunked, streamed, packed) if p is not None], chunks=chunked)
    if fused is not None:
        return fused
    if packed is not None and all(packed[0] < PW_MARGIN * p[0] for p in (plan, chunked, streamed) if p is not None):
        return _Packed(ctx, s, tiles, *packed[1:]).emit()
    if streamed is not None and all(streamed[0] < PW_MARGIN * p[0] for p in (plan, chunked) if p is not None):
        return _Streamed(ctx, s, *streamed[1:]).emit()
    if chunked is not None and (plan is None or chunked[0] < PW_MARGIN * plan[0]):
        return _Chunked(ctx, s, tiles, *chunked[1:]).emit()
    if plan is None:
        return None
    return _Pointwise(ctx, s, tiles, groups, plan[1], plan[2], resident_w, resident_p).emit()


def skewed(out: RawPass, loads: list, computes: list, finishes: list) -> RawPass:
    """``out`` with step ``t``'s loads, step ``t - 1``'s compute and step ``t - 2``'s vector /
    store instructions in each slot (the order the queues' tokens pipeline them: each step's input
    loads while the previous step computes and the one before it drains); one list per step each."""
    n = len(loads)
    for t in range(n + 2):
        if t < n:
            out += loads[t]
        if 0 <= t - 1 < n:
            out += computes[t - 1]
        if 0 <= t - 2 < n:
            out += finishes[t - 2]
    return out


def req_blocks(cfg: HwConfig, s: ConvSpec, n_tiles: int) -> list:
    """The REQ parameter block of each output tile (``cols`` channels) of ``s``."""
    C, out = cfg.cols, []
    for j in range(n_tiles):
        sl = slice(j * C, min(s.o, j * C + C))
        out.append(param_block(cfg, "REQ", **{k: (v[sl] if np.ndim(v) else v) for k, v in s.params.items()}))
    return out


def merge_loads(loads: list[Ins]) -> list[Ins]:
    """``loads`` with each LOAD that continues the previous one (the next rows of the same box:
    same line shape and strides, no padding, lines and bytes right after it) folded into it, so
    the pieces one step needs pay the external latency once."""
    out: list[Ins] = []
    for ld in loads:
        f = ld.fields
        if out and out[-1].name == ld.name == "LOAD" and not out[-1].flags and not ld.flags:
            p = out[-1].fields
            same = all(p.get(k, 0) == f.get(k, 0) for k in ("sp", "len", "x_size", "x_stride", "y_stride", "fill"))
            pads = any(p.get(k, 0) or f.get(k, 0) for k in ("pad_top", "pad_bottom", "pad_left", "pad_right"))
            if (same and not pads and f["sp_addr"] == p["sp_addr"] + p["x_size"] * p["y_size"]
                    and f["ext_addr"] == p["ext_addr"] + p["y_size"] * p["y_stride"]
                    and p["y_size"] + f["y_size"] <= MAX8):
                out[-1] = Ins("LOAD", {**p, "y_size": p["y_size"] + f["y_size"]}, out[-1].comment)
                continue
        out.append(ld)
    return out


class _Pointwise:
    """The buffers, constants and queues of one pointwise pass (see :func:`pointwise_pass`)."""

    def __init__(self, ctx, s, tiles, groups, nx, ny, resident_w, resident_p, residual=None):
        cfg = ctx.cfg
        self.ctx, self.cfg, self.s, self.groups = ctx, cfg, s, groups
        #: the fused ADD (``LowerContext.residual``): its other operand's tiles go through
        #: ``PW_SKIP`` slots in the bank below the staging bank, the input slots below that
        self.res = residual
        self.R, self.C = cfg.rows, cfg.cols
        self.resident_w, self.resident_p = resident_w, resident_p
        self.ntiles = sum(k for gs in groups for _, k in gs)
        self.gmax = max(k for gs in groups for _, k in gs)
        self.k_tiles, self.n_tiles = ceil_div(s.c, self.R), ceil_div(s.o, self.C)
        self.pixels_max = nx * ny
        self.blocks = list(_pixel_blocks(s.n * s.h * s.w, nx, ny))
        #: column-major blocks (:attr:`StridedRows.edges`): GEMM, accumulator and STORE walk the
        #: lines ``(row, group)`` as ``nx = groups, ny = rows``
        self.tr = _column_major(s.x)
        #: the first step's streamed weight LOAD, which goes to the pass's prefetch
        self.first_w: list[Ins] = []
        if (resident_w and len(self.blocks) == 1 and 2 * self.ntiles * self.R > cfg.lines("WGT")
                and 2 * PW_AHEAD * self.gmax * self.R <= cfg.lines("WGT")):
            # one block reads each weight tile once: streamed through slots in the upper half
            # of WGT, they load as well and leave the lower half (the next depthwise pass's
            # filter tiles) free, so that the next pass's constants load during this pass
            self.resident_w = resident_w = False
        self.n_inputs = 1 if len(self.blocks) == 1 else 2
        self.in_base = [k * self.k_tiles * self.pixels_max for k in range(self.n_inputs)]
        self.stag_base = [act_split(cfg)[0] + k * self.pixels_max for k in range(PW_STAGING)]
        self.skip_base = [act_split(cfg)[0] - cfg.bank_lines("ACT") + k * self.pixels_max for k in range(PW_SKIP)]
        self.acc_base = [acc_slot(cfg, self.pixels_max, k) for k in range(PW_ACC)]
        # constants: weight tiles in (output tile, group) order; REQ parameter blocks
        order = [(j, c0 + t) for j in range(self.n_tiles) for c0, k in groups[j] for t in range(k)]
        self.waddr = ctx.consts.add(b"".join(tiles[j][(0, 0, ci)].tobytes() for j, ci in order))
        self.group_pos, pos = {}, 0
        for j in range(self.n_tiles):
            for c0, k in groups[j]:
                self.group_pos[(j, c0)] = pos
                pos += k
        self.pblocks = req_blocks(cfg, s, self.n_tiles)
        #: streamed weights: WGT slots, the load batch of step ``i`` waiting for GEMM ``i - ahead``
        #: (more than PW_AHEAD where the upper half of WGT holds them, so that steps of unequal
        #: GEMMs and loads do not wait for each other in turn; a block's input then loads from
        #: the batch after GEMM ``ahead - 1`` of the block before on, which needs blocks of at
        #: least ``ahead`` steps), and the streamed parameters' slots (``ahead + PW_ACC``)
        self.ahead = PW_AHEAD
        if not resident_w and residual is None and (len(self.blocks) == 1 or
                                                    sum(len(gs) for gs in groups) >= PW_AHEAD_MAX):
            self.ahead = next((a for a in range(PW_AHEAD_MAX, PW_AHEAD, -1)
                               if a * self.gmax * self.R <= cfg.lines("WGT") // 2), PW_AHEAD)
        self.params_n = self.ahead + PW_ACC
        # resident weights and parameters at the top of WGT / VEC (alternating between two
        # places there where both fit the upper half), clear of the lines the previous layer
        # most likely used, so that they load while it runs (prefetch, ProgramBuilder.raw);
        # streamed weights' slots at the top of WGT too, so that the next pass's first weight
        # tiles (a packed pass starts at the bottom, _Packed) load during this pass's GEMMs
        parity = ctx.consts.alternate("pointwise")
        self.wgt_off = _clear_top(cfg, ctx.consts.last, "WGT",
                                  self.ntiles * self.R if resident_w else self.ahead * self.gmax * self.R, parity)
        add_l = ADD_LINES if residual is not None else 0
        self.vec_off = (_clear_top(cfg, ctx.consts.last, "VEC", self.n_tiles * REQ_LINES + add_l, parity)
                        if resident_p else 0)
        # the ADDQ parameters after the REQ parameters (resident) or their slots (streamed)
        self.add_off = self.vec_off + self.n_tiles * REQ_LINES if resident_p else PW_PARAMS * REQ_LINES

    def wgt_load(self, sp_addr: int, first: int, n: int, comment: str) -> list[Ins]:
        return wgt_tile_loads(self.R, self.waddr, sp_addr, first, n, comment)

    def input_loads(self, b: int) -> list:
        """The LOADs of block ``b``'s input, as pieces ``(first K tile, end K tile, LOADs)``."""
        s, R = self.s, self.R
        m0, bx, by = self.blocks[b]
        base, p = self.in_base[b % self.n_inputs], bx * by
        lay = s.x if isinstance(s.x, StridedRows) else StridedRows(s.x, bx, s.c, bx * s.c)
        ext = self.ctx.addr[s.x] + (m0 // lay.width) * lay.ys + (m0 % lay.width) * lay.xs
        full, ts, tl = s.c // R, lay.ts or R, lay.tl or R
        pieces = []
        if self.tr:
            return [(t, t + 1, self.edge_loads(base + t * p, ext + t * ts, m0 // lay.width, bx, by, t))
                    for t in range(self.k_tiles)]
        if by == 1 and full > 1:
            split = _even_split(full, max(min(full, 4), ceil_div(full, MAX8)))  # y_size is 8 bits
            for f0, n in zip(np.cumsum([0] + split)[:-1], split):
                f0 = int(f0)
                pieces.append((f0, f0 + n, [Ins("LOAD", {"sp": "ACT", "len": tl, "sp_addr": base + f0 * p,
                                            "ext_addr": ext + f0 * ts, "x_size": bx, "y_size": n, "x_stride": lay.xs,
                                            "y_stride": ts, "fill": _byte(s.zx)},
                                   f"{s.what}: input rows {m0}..{m0 + p - 1} k{f0 * R}..{(f0 + n) * R - 1}")]))
            first = full
        else:
            first = 0
        for t in range(first, self.k_tiles):
            pieces.append((t, t + 1, [Ins("LOAD", {"sp": "ACT", "len": min(tl, s.c - t * R), "sp_addr": base + t * p,
                                        "ext_addr": ext + t * ts, "x_size": bx, "y_size": by, "x_stride": lay.xs,
                                        "y_stride": lay.ys if by > 1 else 0, "fill": _byte(s.zx)},
                               f"{s.what}: input rows {m0}..{m0 + p - 1} k{t * R}")]))
        return pieces

    def edge_loads(self, sp: int, ext: int, g0: int, bx: int, by: int, t: int) -> list[Ins]:
        """K tile ``t`` of a block of ``by`` row groups from group ``g0`` (``bx`` rows each) with
        :attr:`StridedRows.edges`, column-major: the first ``bx - 1`` rows of every group as one
        box, the last rows (``last`` bytes each) as another, the groups whose input row ``g *
        step + t`` lies in the bottom padding as padding lines at the end of each box row."""
        s, lay = self.s, self.s.x
        last, rows, step = lay.edges
        pad = sum(1 for g in range(g0, g0 + by) if g * step + t >= rows)
        box = {"sp": "ACT", "x_size": by, "x_stride": lay.ys, "y_stride": lay.xs, "pad_right": pad, "fill": _byte(s.zx)}
        what = f"{s.what}: input row groups {g0}..{g0 + by - 1} k{t * self.R}"
        out = []
        if bx > 1:
            out.append(Ins("LOAD", {**box, "len": lay.tl, "sp_addr": sp, "ext_addr": ext, "y_size": bx - 1}, what))
        out.append(Ins("LOAD", {**box, "len": last, "sp_addr": sp + (bx - 1) * by, "ext_addr": ext + (bx - 1) * lay.xs,
                                "y_size": 1}, f"{what} (last rows)"))
        return out

    def spread_inputs(self, steps: list) -> tuple[dict, dict]:
        """Where each block's input LOADs go: ``(lead, trail)`` by step, before or after the
        step's token. Block 0: each piece before the token of the first step whose GEMM reads one
        of its tiles; block ``b``: spread over the load batches of the steps from step
        ``ahead - 1`` of block ``b - 1`` on (their tokens follow the last GEMM of block ``b - 2``,
        which used the same slot), before the token of the step that needs them at the latest."""
        groups = self.groups
        first_of_block = {}
        for i, (b, _, _) in enumerate(steps):
            first_of_block.setdefault(b, i)
        lead: dict[int, list[Ins]] = {}
        trail: dict[int, list[Ins]] = {}
        for t0, t1, pc in self.input_loads(0):
            first = next((i for i, (b, j, gi) in enumerate(steps) if b == 0 and
                          groups[j][gi][0] < t1 and t0 < groups[j][gi][0] + groups[j][gi][1]), 0)
            lead[first] = merge_loads(lead.get(first, []) + pc)
        for b in range(1, len(self.blocks)):
            k0, k1 = first_of_block[b - 1] + self.ahead - 1, first_of_block[b]
            pieces = self.input_loads(b)
            slots = list(range(k0, k1)) or [k1]
            for n, pc in enumerate(pieces):
                k = slots[min(len(slots) - 1, n * len(slots) // len(pieces))]
                (lead if k == k1 else trail).setdefault(k, []).extend(pc[2])
        return lead, trail

    def emit(self) -> RawPass:
        cfg, groups, what = self.cfg, self.groups, self.s.what
        steps = [(b, j, gi) for b in range(len(self.blocks)) for j in range(self.n_tiles) for gi in range(len(groups[j]))]
        lead, trail = self.spread_inputs(steps)
        pre = []
        if self.res is not None:
            pre += load_vec(cfg, self.ctx.consts, vec_blob([param_block(cfg, "ADDQ", **self.res.params)]),
                            self.add_off, f"{what}: residual add parameters")
            self.skip_loads(steps, lead, trail)
        first_use = self.resident_loads(steps)
        pre += first_use.pop(0, [])
        loads, gemms, vecs, stores = [], [], [], []
        acc_n = -1   # accumulator tiles used so far (one per (block, output tile))
        for i, (b, j, gi) in enumerate(steps):
            if gi == 0:
                acc_n += 1
            own, pslot, wbase = self.step_loads(i, j, gi, acc_n, first_use.get(i, []) + lead.get(i, []))
            loads.append(own + trail.get(i, []))
            g, v, st = self.step_compute(b, j, gi, acc_n, pslot, wbase)
            gemms.append(g)
            vecs.append(v)
            stores.append(st)
        pre += self.first_w
        out = skewed(RawPass(prefetch=pre), loads, [[g] for g in gemms], [v + st for v, st in zip(vecs, stores)])
        out.residual = self.res is not None
        if (len(self.blocks) == 1 and self.res is None and not isinstance(self.s.x, StridedRows)
                and self.s.c % self.R == 0 and not trail):
            # one block of every pixel, K tile t at in_base + t * P: a depthwise pass before may
            # write it there (depthwise.hand_over_to_pointwise)
            out.pw_in = PointwiseInput([i for v in lead.values() for i in v], self.in_base[0],
                                       self.blocks[0][1] * self.blocks[0][2], self.k_tiles)
        if (self.blocks == [(0, 1, 1)] and list(lead) == [0] and not trail and self.s.c % self.R == 0
                and self.res is None):
            # one input row, K tile t in ACT line t, all loaded in the first batch: a packed pass
            # before it may write them there (hand_over; one line per K tile, so no fill lines)
            out.packed = PackedEnds((self.R, 1, self.k_tiles, 0), self.s.zx, self.s.o, lead[0], None, [])
        return out

    def resident_loads(self, steps: list) -> dict[int, list[Ins]]:
        """The LOADs of the resident constants by the step whose GEMM reads them first (block
        0's steps): each step's weight tiles (resident weights) and the REQ parameters of output
        tile 0 with its first step, those of the other output tiles with output tile 1's first
        step (resident parameters), so that they load while the GEMMs before run instead of all
        before the first GEMM; step 0's go to the pass's prefetch. (An output tile's REQ follows
        its first GEMM, which pops that step's token.)"""
        what, out = self.s.what, {}
        for i, (b, j, gi) in enumerate(steps):
            if b:
                break
            c0, k = self.groups[j][gi]
            lds = []
            if self.resident_w:
                lds += self.wgt_load(self.wbase(j, c0), self.group_pos[(j, c0)], k,
                                     f"{what}: weight tiles out c{j * self.C} k{c0 * self.R}.. (resident)")
            if self.resident_p and gi == 0 and j < 2:
                # output tile 0's parameters, and with output tile 1's first step all the others
                # (one LOAD: the external latency once)
                rest = self.pblocks[j:] if j else self.pblocks[:1]
                lds += load_vec(self.cfg, self.ctx.consts, vec_blob(rest), self.vec_off + j * REQ_LINES,
                                f"{what}: requantization parameters out c{j * self.C}.. (resident)")
            out[i] = lds
        return out

    def wbase(self, j: int, c0: int) -> int:
        """WGT line of the resident tiles of group ``(j, c0)``: the groups from the top of the
        resident block down in the order the GEMMs read them, so that the first ones lie
        farthest from the lines the schedules that start at the bottom of WGT use (the
        previous layer's, likely), and load while it runs (prefetch)."""
        c0k = dict(self.groups[j])[c0]
        return self.wgt_off + (self.ntiles - self.group_pos[(j, c0)] - c0k) * self.R

    def skip_loads(self, steps: list, lead: dict, trail: dict) -> None:
        """Adds the LOAD of each output tile's residual operand (the pixels and channels of its
        STORE, from the ADD's other operand) to the load batch after the token of the step
        before the tile's last step (tile 0: before the first step's token), so that the GEMM
        whose ``c2v`` the tile's REQ takes follows it."""
        s, C, res = self.s, self.C, self.res
        a = 0
        for i, (b, j, gi) in enumerate(steps):
            if gi != len(self.groups[j]) - 1:
                continue
            m0, bx, by = self.blocks[b]
            ld = Ins("LOAD", {"sp": "ACT", "len": min(C, s.o - j * C), "sp_addr": self.skip_base[a % PW_SKIP],
                              "ext_addr": self.ctx.addr[res.skip] + m0 * s.o + j * C, "x_size": bx, "y_size": by,
                              "x_stride": s.o, "y_stride": bx * s.o if by > 1 else 0},
                     f"{s.what}: residual operand rows {m0}.. c{j * C}")
            if i == 0:
                lead.setdefault(0, []).append(ld)
            else:
                trail.setdefault(i - 1, []).insert(0, ld)
            a += 1

    def step_loads(self, i, j, gi, acc_n, lead):
        """Step ``i``'s load batch (tokens set), its REQ parameter slot and its WGT base."""
        R, C, what = self.R, self.C, self.s.what
        c0, k = self.groups[j][gi]
        own = []
        if self.resident_w:
            wbase = self.wbase(j, c0)
        else:
            wbase = self.wgt_off + (i % self.ahead) * self.gmax * R
            w = self.wgt_load(wbase, self.group_pos[(j, c0)], k, f"{what}: weight tiles out c{j * C} k{c0 * R}..")
            if i == 0:
                self.first_w = w    # (the pass's prefetch: step ahead reloads the slot after GEMM 0)
            else:
                own += w
        pslot = self.vec_off + j * REQ_LINES if self.resident_p else (acc_n % self.params_n) * REQ_LINES
        if not self.resident_p and gi == 0:
            own += load_vec(self.cfg, self.ctx.consts, vec_blob([self.pblocks[j]]), pslot,
                            f"{what}: requantization parameters out c{j * C}")
        own += lead
        own = own or [nop("load", f"{what}: nothing to load for step {i}")]
        if i >= self.ahead:
            token(own[0], C2L, "pop")
        token(own[-1], L2C, "push")
        return own, pslot, wbase

    def step_compute(self, b, j, gi, acc_n, pslot, wbase):
        """Step's GEMM, and for the last group of an output tile its REQ and STORE."""
        s, R, C, what = self.s, self.R, self.C, self.s.what
        c0, k = self.groups[j][gi]
        m0, bx, by = self.blocks[b]
        p = bx * by
        acc = self.acc_base[acc_n % PW_ACC]
        gx, gy = (by, bx) if self.tr else (bx, by)
        g = Ins("GEMM", {"accumulate": int(gi > 0), "preload": 1, "kt": k - 1,
                         "act": self.in_base[b % self.n_inputs] + c0 * p, "acc": acc, "wgt": wbase, "nx": gx,
                         "ny": gy, "act_xs": 1, "act_ys": gx, "acc_xs": 1, "acc_ys": gx,
                         "act_signed": s.x_signed, "wgt_signed": s.w_signed, "za": _byte(s.zx), "zw": _byte(s.zw)},
                f"{what}: rows {m0}..{m0 + p - 1} out c{j * C} k{c0 * R}..{(c0 + k) * R - 1}")
        token(g, L2C, "pop")
        token(g, C2L, "push")
        if gi == 0 and acc_n >= PW_ACC:
            token(g, V2C, "pop")
        if gi != len(self.groups[j]) - 1:
            return g, [], []
        token(g, C2V, "push")
        stag = self.stag_base[acc_n % PW_STAGING]
        v = Ins("VEC", {"func": "REQ", "signed": 0, "round": s.round, "dst": stag, "src": acc, "param": pslot, "nx": bx, "ny": by,
                        "dst_xs": 1, "dst_ys": bx, "src_xs": 1, "src_ys": bx},
                f"{what}: requantize rows {m0}.. out c{j * C}")
        token(v, C2V, "pop")
        token(v, V2C, "push")
        vs, out = [v], s.y
        if self.res is None:
            if acc_n >= PW_STAGING:
                token(v, S2V, "pop")
        else:
            # the sum in place of the tile; the ADDQ waits for the previous tile's STORE, which
            # reads the same bank (the REQ writes it beside that STORE: a write and a read)
            out = self.res.out
            vs.append(residual_add(self.res, stag, self.skip_base[acc_n % PW_SKIP], self.add_off, bx, by, acc_n == 0,
                                   f"{what}: residual add rows {m0}.. out c{j * C}"))
        token(vs[-1], V2S, "push")
        box = ({"x_size": by, "y_size": bx, "x_stride": bx * s.o, "y_stride": s.o} if self.tr else
               {"x_size": bx, "y_size": by, "x_stride": s.o, "y_stride": bx * s.o if by > 1 else 0})
        st = Ins("STORE", {"sp": "ACT", "len": min(C, s.o - j * C), "sp_addr": stag,
                           "ext_addr": self.ctx.addr[out] + m0 * s.o + j * C, **box}, f"{what}: output rows {m0}.. c{j * C}")
        token(st, V2S, "pop")
        token(st, S2V, "push")
        return g, vs, [st]


# ======================================================================= K-chunked pointwise
def _chunked_costs(cfg: HwConfig, s: ConvSpec, p: int, by: int, J: int, kc: int, pos: str,
                   resident_w: bool, resident_p: bool, residual: bool = False) -> tuple[int, int]:
    """``(step, load)`` cycles of one step of the K-chunked schedule: ``J`` output tiles, ``kc``
    K tiles over a pixel block of ``p`` rows (``by`` of them rows of the box), ``pos`` the
    chunk's place (``first`` loads the parameters, ``last`` requantizes and stores, ``only``
    both); ``step`` is the largest of GEMM, vector, load and store time (one DMA engine: load and
    store in turn; in order: everything in turn)."""
    R, C, lat = cfg.rows, cfg.cols, cfg.ext_latency
    beats, pbeats = ceil_div(R, cfg.dma_bytes_per_cycle), ceil_div(4 * C, cfg.dma_bytes_per_cycle)
    runs = ceil_div(kc, MAX_KTILES)
    comp = J * sum(gemm_cycles(cfg, k, p) for k in _even_split(kc, runs))
    load = (lat * (ceil_div(kc, MAX8) if by == 1 else kc)) + kc * p * beats
    if not resident_w:
        load += lat * ceil_div(J * kc, MAX8) + J * kc * R * beats
    if not resident_p and pos in ("first", "only"):
        load += lat + J * REQ_LINES * pbeats
    vec = store = 0
    if pos in ("last", "only"):
        vec = J * vec_cycles(cfg, "REQ", p)
        store = J * (lat + p * beats)
        if residual:    # the ADDQs, each after the previous STORE; the other operand's tiles
            vec = max(vec, store) + J * _addq_cycles(cfg, p)
            load += J * (lat + p * beats)
    dma = load + store if cfg.dma_engines == 1 else max(load, store)
    step = comp + vec + dma if cfg.in_order else max(comp, vec, dma)
    return step, load


def _skip_instances(chunks: int) -> int:
    """Group instances whose residual tiles the K-chunked pass keeps (see :class:`_Chunked`)."""
    return 2 if chunks >= 3 else 3


def _chunked_plan(cfg: HwConfig, s: ConvSpec, residual: bool = False):
    """``(estimate, nx, ny, J, kc)``: the K-chunked schedule's plan (pixel blocks of ``nx x ny``
    rows, ``J`` output tiles per group, K chunks of ``kc`` tiles, at least two chunks) with the
    lowest estimated cycles among those whose slots fit the scratchpads and fields, or None.
    ``residual``: with a fused ADD (the input slots below the bank of its operand's tiles)."""
    R, C = cfg.rows, cfg.cols
    m = s.n * s.h * s.w
    KT, NT = ceil_div(s.c, R), ceil_div(s.o, C)
    if KT < 2:
        return None
    lat, beats = cfg.ext_latency, ceil_div(R, cfg.dma_bytes_per_cycle)
    in_l, stag_l = act_split(cfg)
    if residual:
        in_l -= cfg.bank_lines("ACT")
    acc_half = cfg.lines("ACC") // 2
    wgt_l, vec_l = cfg.lines("WGT"), cfg.lines("VEC")
    resident_w = KT * NT * R <= wgt_l
    resident_p = NT * REQ_LINES <= min(vec_l, MAX8)
    nxs = {min(m, MAX8)} | {ceil_div(m, k) for k in range(1, min(m, 64) + 1)}
    nxs |= {d for d in range(1, min(m, MAX8) + 1) if m % d == 0}
    nxs = sorted(x for x in nxs if 0 < x <= MAX8)
    best = None
    for chunks in sorted({ceil_div(KT, k) for k in range(1, KT)}):
        kc = ceil_div(KT, chunks)
        chunks = ceil_div(KT, kc)
        if chunks < 2:
            continue
        # the steps of one block: (K tiles, place) -> how many
        steps = collections.Counter((min(kc, KT - k * kc), "first" if k == 0 else "last" if k == chunks - 1 else "mid")
                                    for k in range(chunks))
        for ngroups in sorted({ceil_div(NT, j) for j in range(1, NT + 1)}):
            J = ceil_div(NT, ngroups)
            ngroups = ceil_div(NT, J)
            if not resident_w and PW_AHEAD * J * kc * R > wgt_l:
                continue
            if not resident_p and PW_PARAMS * J * REQ_LINES > vec_l:
                continue
            p_max = min(in_l // (PW_AHEAD * kc), acc_half // J, stag_l // PW_STAGING)
            if residual:
                p_max = min(p_max, cfg.bank_lines("ACT") // (_skip_instances(chunks) * J))
                params = (PW_PARAMS * J if not resident_p else NT) * REQ_LINES + ADD_LINES
                if params > min(vec_l, MAX8):
                    continue
            if p_max < 1:
                continue
            # a few block shapes: the fewest blocks, then the largest
            shapes = []
            for nx in nxs:
                if nx > p_max:
                    break
                ny = min(MAX8, p_max // nx, ceil_div(m, nx))
                if ny > 1 and nx * max(s.c, s.o) > MAX16:
                    ny = 1
                shapes.append((len(_pixel_blocks(m, nx, ny)), -nx * ny, nx, ny))
            for _, _, nx, ny in sorted(shapes)[:3]:
                blocks = _pixel_blocks(m, nx, ny)
                total = ngroups * sum(
                    nb * ns * _chunked_costs(cfg, s, bx * by, by, J, kk, pos, resident_w, resident_p, residual)[0]
                    for (bx, by), nb in _block_shapes(blocks).items() for (kk, pos), ns in steps.items())
                first = _chunked_costs(cfg, s, blocks[0][1] * blocks[0][2], blocks[0][2], J, kc, "first",
                                       resident_w, resident_p)[1]
                last = blocks[-1][1] * blocks[-1][2]
                est = total + first + J * (lat + last * beats) + (KT * NT * R * beats if resident_w else 0)
                if residual:
                    est += J * _addq_cycles(cfg, last)
                if best is None or est < best[0]:
                    best = (est, nx, ny, J, kc)
    return best


class _Chunked:
    """The K-chunked pointwise pass (see :func:`pointwise_pass`): per (pixel block, group of
    ``J`` output tiles) the K tiles in chunks of ``kc``; a step loads one chunk of the block's
    input (K-tile-major, into one of two input slots) and its ``J x kc`` weight tiles (into one of
    two WGT slots, unless resident), runs one GEMM per output tile (``kt = kc - 1``) that
    accumulates into the group's ``J`` accumulator tiles (one of two ACC slots, kept across the
    chunks), and after the last chunk the ``J`` REQs (vector queue, two staging slots) and
    STOREs."""

    def __init__(self, ctx, s, tiles, nx, ny, J, kc, residual=None):
        cfg = ctx.cfg
        self.ctx, self.cfg, self.s = ctx, cfg, s
        #: the fused ADD (``LowerContext.residual``): its operand's tiles in the bank below the
        #: staging bank, ``J`` per group instance for ``_skip_instances`` instances; each step
        #: that requantizes LOADs its group's before its token. The last chunk's load batch pops
        #: ``c2l`` from GEMM ``i - 2``, of the same instance with three or more chunks (else of the
        #: one before), whose first GEMM waited for the last ADDQ two instances before it (the
        #: group's ``v2c`` moves from its last REQ to its last ADDQ): then the instance whose
        #: tiles the slots held is done
        self.res = residual
        self.R, self.C = cfg.rows, cfg.cols
        self.KT, self.NT = ceil_div(s.c, self.R), ceil_div(s.o, self.C)
        self.J, self.kc = J, kc
        self.chunks = ceil_div(self.KT, kc)
        self.groups = [(j0, min(J, self.NT - j0)) for j0 in range(0, self.NT, J)]
        self.resident_w = self.KT * self.NT * self.R <= cfg.lines("WGT")
        self.resident_p = self.NT * REQ_LINES <= min(cfg.lines("VEC"), MAX8)
        self.P = nx * ny
        self.blocks = list(_pixel_blocks(s.n * s.h * s.w, nx, ny))
        self.in_base = [k * kc * self.P for k in range(PW_AHEAD)]
        self.stag_base = [act_split(cfg)[0] + k * self.P for k in range(PW_STAGING)]
        self.acc_base = [acc_slot(cfg, J * self.P, k) for k in range(PW_ACC)]
        # weight tiles in (group, chunk, output tile, K tile) order: a step's tiles are contiguous
        self.wpos, order = {}, []
        for g, (j0, jn) in enumerate(self.groups):
            for c in range(self.chunks):
                self.wpos[(g, c)] = len(order)
                t0, t1 = c * kc, min(self.KT, (c + 1) * kc)
                order += [(j, t) for j in range(j0, j0 + jn) for t in range(t0, t1)]
        self.waddr = ctx.consts.add(b"".join(tiles[j][(0, 0, t)].tobytes() for j, t in order))
        self.pblocks = req_blocks(cfg, s, self.NT)
        self.skip0 = act_split(cfg)[0] - cfg.bank_lines("ACT")
        self.add_off = (self.NT if self.resident_p else PW_PARAMS * J) * REQ_LINES

    def wgt_load(self, sp_addr: int, first: int, n: int, comment: str) -> list[Ins]:
        return wgt_tile_loads(self.R, self.waddr, sp_addr, first, n, comment)

    def skip_line(self, inst: int, jj: int) -> int:
        """First ACT line of the residual tile ``jj`` of group instance ``inst``."""
        return self.skip0 + ((inst % _skip_instances(self.chunks)) * self.J + jj) * self.P

    def input_loads(self, b: int, c: int, base: int) -> list[Ins]:
        """The LOADs of chunk ``c`` of block ``b``'s input, K-tile-major at ACT line ``base``."""
        s, R = self.s, self.R
        m0, bx, by = self.blocks[b]
        p = bx * by
        ext = self.ctx.addr[s.x] + m0 * s.c
        t0, t1 = c * self.kc, min(self.KT, (c + 1) * self.kc)
        full = min(t1, s.c // R)
        out, t = [], t0
        if by == 1:
            while full - t > 1:
                n = min(MAX8, full - t)
                out.append(Ins("LOAD", {"sp": "ACT", "len": R, "sp_addr": base + (t - t0) * p,
                                        "ext_addr": ext + t * R, "x_size": bx, "y_size": n, "x_stride": s.c,
                                        "y_stride": R, "fill": _byte(s.zx)},
                               f"{s.what}: input rows {m0}..{m0 + p - 1} k{t * R}..{(t + n) * R - 1}"))
                t += n
        for u in range(t, t1):
            out.append(Ins("LOAD", {"sp": "ACT", "len": min(R, s.c - u * R), "sp_addr": base + (u - t0) * p,
                                    "ext_addr": ext + u * R, "x_size": bx, "y_size": by, "x_stride": s.c,
                                    "y_stride": bx * s.c if by > 1 else 0, "fill": _byte(s.zx)},
                           f"{s.what}: input rows {m0}..{m0 + p - 1} k{u * R}"))
        return out

    def emit(self) -> RawPass:
        cfg, s, R, C, what = self.cfg, self.s, self.R, self.C, self.s.what
        steps = [(b, g, c) for b in range(len(self.blocks)) for g in range(len(self.groups))
                 for c in range(self.chunks)]
        pre = []
        if self.resident_w:
            pre += self.wgt_load(0, 0, self.KT * self.NT, f"{what}: weight tiles (resident)")
        if self.resident_p:
            pre += load_vec(cfg, self.ctx.consts, vec_blob(self.pblocks), 0, f"{what}: requantization parameters")
        res = self.res
        if res is not None:
            pre += load_vec(cfg, self.ctx.consts, vec_blob([param_block(cfg, "ADDQ", **res.params)]), self.add_off,
                            f"{what}: residual add parameters")
        loads, gemms, vecs = [], [], []
        inst = -1     # group instances so far (one per (block, group): an ACC slot, a parameter slot)
        tile = 0      # output tiles requantized so far (staging slots)
        for i, (b, g, c) in enumerate(steps):
            j0, jn = self.groups[g]
            m0, bx, by = self.blocks[b]
            p = bx * by
            t0, t1 = c * self.kc, min(self.KT, (c + 1) * self.kc)
            if c == 0:
                inst += 1
            abase = self.in_base[i % PW_AHEAD]
            own = list(pre) if i == 0 else []
            own += self.input_loads(b, c, abase)
            if self.resident_w:
                wbase = self.wpos[(g, c)] * R
            else:
                wbase = (i % PW_AHEAD) * self.J * self.kc * R
                own += self.wgt_load(wbase, self.wpos[(g, c)], jn * (t1 - t0),
                                     f"{what}: weight tiles out c{j0 * C}.. k{t0 * R}..")
            pslot = j0 * REQ_LINES if self.resident_p else (inst % PW_PARAMS) * self.J * REQ_LINES
            if not self.resident_p and c == 0:
                own += load_vec(cfg, self.ctx.consts, vec_blob(self.pblocks[j0:j0 + jn]), pslot,
                                f"{what}: requantization parameters out c{j0 * C}..")
            if res is not None and c == self.chunks - 1:
                for jj in range(jn):
                    j = j0 + jj
                    own.append(Ins("LOAD", {"sp": "ACT", "len": min(C, s.o - j * C), "sp_addr": self.skip_line(inst, jj),
                                            "ext_addr": self.ctx.addr[res.skip] + m0 * s.o + j * C, "x_size": bx,
                                            "y_size": by, "x_stride": s.o, "y_stride": bx * s.o if by > 1 else 0},
                                   f"{what}: residual operand rows {m0}.. c{j * C}"))
            if i >= PW_AHEAD:
                token(own[0], C2L, "pop")
            token(own[-1], L2C, "push")
            loads.append(own)
            acc = self.acc_base[inst % PW_ACC]
            gs = []
            for jj in range(jn):
                for r0, k in _ktile_groups(list(range(t0, t1))):
                    gs.append(Ins("GEMM", {
                        "accumulate": int(r0 > 0), "preload": 1, "kt": k - 1,
                        "act": abase + (r0 - t0) * p, "acc": acc + jj * self.P,
                        "wgt": wbase + (jj * (t1 - t0) + r0 - t0) * R, "nx": bx, "ny": by, "act_xs": 1,
                        "act_ys": bx, "acc_xs": 1, "acc_ys": bx, "act_signed": s.x_signed,
                        "wgt_signed": s.w_signed, "za": _byte(s.zx), "zw": _byte(s.zw)},
                        f"{what}: rows {m0}..{m0 + p - 1} out c{(j0 + jj) * C} k{r0 * R}..{(r0 + k) * R - 1}"))
            token(gs[0], L2C, "pop")
            if c == 0 and inst >= PW_ACC:
                token(gs[0], V2C, "pop")
            token(gs[-1], C2L, "push")
            vs = []
            if c == self.chunks - 1:
                token(gs[-1], C2V, "push")
                for jj in range(jn):
                    j = j0 + jj
                    stag = self.stag_base[tile % PW_STAGING]
                    v = Ins("VEC", {"func": "REQ", "signed": 0, "round": s.round, "dst": stag,
                                    "src": acc + jj * self.P, "param": pslot + jj * REQ_LINES, "nx": bx, "ny": by,
                                    "dst_xs": 1, "dst_ys": bx, "src_xs": 1, "src_ys": bx},
                            f"{what}: requantize rows {m0}.. out c{j * C}")
                    if jj == 0:
                        token(v, C2V, "pop")
                    tv, y = [v], s.y
                    if res is None:
                        if tile >= PW_STAGING:
                            token(v, S2V, "pop")
                    else:   # (as in _Pointwise.step_compute)
                        tv.append(residual_add(res, stag, self.skip_line(inst, jj), self.add_off, bx, by, tile == 0,
                                               f"{what}: residual add rows {m0}.. out c{j * C}"))
                        y = res.out
                    token(tv[-1], V2S, "push")
                    if jj == jn - 1:
                        token(tv[-1], V2C, "push")
                    st = Ins("STORE", {"sp": "ACT", "len": min(C, s.o - j * C), "sp_addr": stag,
                                       "ext_addr": self.ctx.addr[y] + m0 * s.o + j * C, "x_size": bx,
                                       "y_size": by, "x_stride": s.o, "y_stride": bx * s.o if by > 1 else 0},
                             f"{what}: output rows {m0}.. c{j * C}")
                    token(st, V2S, "pop")
                    token(st, S2V, "push")
                    vs += [*tv, st]
                    tile += 1
            gemms.append(gs)
            vecs.append(vs)
        out = skewed(RawPass(), loads, gemms, vecs)
        out.residual = res is not None
        return out


# ============================================================ one row: the weights as the stream
def _streamed_plan(cfg: HwConfig, s: ConvSpec):
    """``(estimate, nb, kc)`` for :class:`_Streamed` (blocks of ``nb`` output channels, chunks of
    ``kc`` K tiles), or None where it does not apply: one input row, per-tensor multiplier and
    shift, the input's K lines fit WGT, every block its own ACC lines in a bank other than the
    previous block's."""
    R, C = cfg.rows, cfg.cols
    if s.n * s.h * s.w != 1 or cfg.banks("ACC") < 2 or s.c > MAX16:
        return None
    if any(np.ndim(s.params[k]) and len(set(np.asarray(s.params[k]).tolist())) > 1 for k in ("mult", "shift")):
        return None
    KT = ceil_div(s.c, R)
    if KT * R > cfg.lines("WGT") or s.c // R > MAX8:
        return None
    lat, beats = cfg.ext_latency, ceil_div(R, cfg.dma_bytes_per_cycle)
    in_l, stag_l = act_split(cfg)
    banks, bank_l = cfg.banks("ACC"), cfg.bank_lines("ACC")
    best = None
    for nblocks in range(1, s.o + 1):
        nb = ceil_div(s.o, nblocks)
        if nb > MAX8 or ceil_div(s.o, nb) != nblocks:
            continue
        if PW_STAGING * nb > stag_l or ceil_div(nblocks, banks) * nb > bank_l:
            continue
        pbeats = ceil_div(4 * C, cfg.dma_bytes_per_cycle)
        for kc in range(1, min(KT, MAX_KTILES) + 1):
            if PW_AHEAD * kc * nb > in_l:
                break
            chunks = _even_split(KT, ceil_div(KT, kc))
            # per step: its load batch (filter rows; block 0: the chunk's input tiles; a block's
            # first step: its bias; step 1, or 0 when the first block has one chunk: the REQ
            # parameters) and its GEMM
            lds, gms = [], []
            for q in range(nblocks):
                for c, k in enumerate(chunks):
                    ld = lat * (1 + (k * R > s.c % R > 0)) + k * nb * beats
                    if q == 0:
                        ld += lat + k * R
                    if c == 0:
                        ld += lat + nb
                    if len(lds) == min(1, len(chunks) - 1):
                        ld += lat + REQ_LINES * pbeats
                    lds.append(ld)
                    gms.append(gemm_cycles(cfg, k, nb))
            if cfg.in_order:
                total = sum(lds) + sum(gms)
            else:
                total = lds[0] + sum(max(g, ld) for g, ld in zip(gms, lds[1:] + [0]))
            drain = vec_cycles(cfg, "REQ", nb) + lat + nb
            est = total + drain
            if best is None or est < best[0]:
                best = (est, nb, kc)
    return best


class _Streamed:
    """One input row (batch-1 FULLY_CONNECTED): the roles swap. The input row is the array's
    stationary operand (K tile ``t`` = WGT lines ``t * rows ..``, one input byte in lane 0 of
    each), and the filter rows stream through the array as activation lines (line ``(t, n)`` =
    the ``rows`` bytes of K tile ``t`` of output channel ``n``), so output channel ``n`` lands in
    lane 0 of ACC line ``n``: one GEMM streams ``kc`` K tiles of a block of ``nb`` channels, the
    weights arrive at the DMA's full line rate, and no weight tile is preloaded. The bias is
    LOADed into the ACC lines first (the GEMMs accumulate onto it); REQ's per-lane parameters
    hold the per-tensor multiplier and shift; each block's REQ writes one staging slot and the
    STORE writes one byte per line."""

    def __init__(self, ctx, s, nb, kc):
        cfg = ctx.cfg
        self.ctx, self.cfg, self.s, self.R, self.C = ctx, cfg, s, cfg.rows, cfg.cols
        self.KT, self.nb = ceil_div(s.c, self.R), nb
        self.chunks = []
        t = 0
        for k in _even_split(self.KT, ceil_div(self.KT, kc)):
            self.chunks.append((t, k))
            t += k
        self.kc = max(k for _, k in self.chunks)
        self.blocks = [(n0, min(nb, s.o - n0)) for n0 in range(0, s.o, nb)]
        banks, bank_l = cfg.banks("ACC"), cfg.bank_lines("ACC")
        self.acc = [(q % banks) * bank_l + (q // banks) * nb for q in range(len(self.blocks))]
        # the filter-row slots: a ring over half the input lines when two halves hold
        # PW_AHEAD slots each, consecutive streamed passes in alternate halves (so the next
        # pass's first filter rows can load while this one's last GEMMs read theirs), else
        # over all of them
        in_l, slot = act_split(cfg)[0], self.kc * nb
        # (ConstImage.alternate: the count of streamed passes lowered so far)
        region = in_l // 2 if in_l // 2 >= PW_AHEAD * slot else in_l
        parity = ctx.consts.alternate("streamed")
        half = parity if region < in_l else 0
        n_steps = len(self.blocks) * len(self.chunks)
        self.in_base = [half * region + k * slot for k in range(max(PW_AHEAD, min(n_steps, region // slot)))]
        self.stag_base = [act_split(cfg)[0] + k * nb for k in range(PW_STAGING)]
        w = np.ascontiguousarray(s.weff[0, 0].T)          # [O, C]: the filter rows
        dyn = s.dyn
        # a filter / bias that is not a constant is read from its tensor: the same [O, C] rows,
        # the same little-endian int32 (.dynamic)
        self.waddr = ctx.addr[dyn.filter] if dyn and dyn.filter is not None else ctx.consts.add(w.tobytes())
        self.baddr = (ctx.addr[dyn.bias] if dyn and dyn.bias is not None else
                      ctx.consts.add(np.asarray(s.params["bias"], np.int64).astype("<i4").tobytes()))
        params = {k: (np.asarray(v).reshape(-1)[0] if np.ndim(v) else v) for k, v in s.params.items()}
        params["bias"] = 0
        self.pblock = param_block(cfg, "REQ", **params)

    def input_loads(self, c: int) -> list[Ins]:
        """The LOADs of the input tiles of chunk ``c`` into WGT (one byte per line)."""
        s, R, what = self.s, self.R, self.s.what
        xa, full = self.ctx.addr[s.x], s.c // R
        t0, k = self.chunks[c]
        out = []
        nfull = max(0, min(k, full - t0))
        if nfull:
            out.append(Ins("LOAD", {"sp": "WGT", "len": 1, "sp_addr": t0 * R, "ext_addr": xa + t0 * R,
                                    "x_size": R, "y_size": nfull, "x_stride": 1, "y_stride": R,
                                    "fill": _byte(s.zx)}, f"{what}: input row k{t0 * R}.. (stationary)"))
        if nfull < k:
            t = t0 + nfull
            out.append(Ins("LOAD", {"sp": "WGT", "len": 1, "sp_addr": t * R, "ext_addr": xa + t * R,
                                    "x_size": s.c - t * R, "y_size": 1, "x_stride": 1, "y_stride": 0,
                                    "fill": _byte(s.zx)}, f"{what}: input row k{t * R}.. (stationary)"))
        return out

    def bias_load(self, q: int) -> list[Ins]:
        n0, nn = self.blocks[q]
        return [Ins("LOAD", {"sp": "ACC", "len": 1, "sp_addr": self.acc[q], "ext_addr": self.baddr + 4 * n0,
                             "x_size": nn, "y_size": 1, "x_stride": 4, "y_stride": 0},
                    f"{self.s.what}: bias out c{n0}..")]

    def weight_loads(self, q: int, c: int, base: int) -> list[Ins]:
        s, R, what = self.s, self.R, self.s.what
        n0, nn = self.blocks[q]
        t0, k = self.chunks[c]
        full = min(k, s.c // R - t0)
        out = []
        ext = self.waddr + n0 * s.c + t0 * R
        if full > 0:
            out.append(Ins("LOAD", {"sp": "ACT", "len": R, "sp_addr": base, "ext_addr": ext, "x_size": nn,
                                    "y_size": full, "x_stride": s.c, "y_stride": R, "fill": _byte(s.zw)},
                           f"{what}: filter rows out c{n0}.. k{t0 * R}.."))
        if full < k:
            out.append(Ins("LOAD", {"sp": "ACT", "len": s.c - (t0 + full) * R, "sp_addr": base + full * nn,
                                    "ext_addr": ext + full * R, "x_size": nn, "y_size": 1, "x_stride": s.c,
                                    "y_stride": 0, "fill": _byte(s.zw)},
                           f"{what}: filter rows out c{n0}.. k{(t0 + full) * R}.."))
        return out

    def emit(self) -> RawPass:
        s, R, what = self.s, self.R, self.s.what
        steps = [(q, c) for q in range(len(self.blocks)) for c in range(len(self.chunks))]
        loads, gemms, vecs, prefetch = [], [], [], []
        popped = 0      # c2l tokens (one per GEMM, in step order) the load batches pop so far
        for i, (q, c) in enumerate(steps):
            n0, nn = self.blocks[q]
            t0, k = self.chunks[c]
            base = self.in_base[i % len(self.in_base)]
            own = self.weight_loads(q, c, base)
            if i < PW_AHEAD:
                # the first steps' filter rows need no earlier GEMM of the pass: they go ahead
                # of it (into the barrier before it, ProgramBuilder.raw)
                prefetch += own
                own = []
            if q == 0:
                own = self.input_loads(c) + own
            if c == 0:
                own += self.bias_load(q)
            if i == min(1, len(self.chunks) - 1):   # before the first REQ's last GEMM
                own += load_vec(self.cfg, self.ctx.consts, vec_blob([self.pblock]), 0,
                                f"{what}: requantization parameters")
            own = own or [nop("load", f"{what}: filter rows prefetched")]
            # the GEMM whose filter-row slot this batch reuses is done; with a bias LOAD, so is
            # the last GEMM of the block before in the same ACC bank (one write port per bank)
            need = i - len(self.in_base)
            if c == 0 and q >= self.cfg.banks("ACC"):
                need = max(need, (q - self.cfg.banks("ACC") + 1) * len(self.chunks) - 1)
            if need >= popped:
                own = [token(nop("load", f"{what}: the GEMMs writing this ACC bank are done"), C2L, "pop")
                       for _ in range(need - popped)] + own
                token(own[need - popped], C2L, "pop")
                popped = need + 1
            token(own[-1], L2C, "push")
            loads.append(own)
            g = Ins("GEMM", {"accumulate": 1, "preload": 1, "kt": k - 1, "act": base, "acc": self.acc[q],
                             "wgt": t0 * R, "nx": nn, "ny": 1, "act_xs": 1, "act_ys": nn, "acc_xs": 1,
                             "acc_ys": nn, "act_signed": s.w_signed, "wgt_signed": s.x_signed,
                             "za": _byte(s.zw), "zw": _byte(s.zx)},
                    f"{what}: out c{n0}..{n0 + nn - 1} k{t0 * R}..{(t0 + k) * R - 1} (filter rows streamed)")
            token(g, L2C, "pop")
            token(g, C2L, "push")
            if c == 0 and q >= self.cfg.banks("ACC"):
                # the block's ACC bank is that of block q - banks: its REQ has read it
                token(g, V2C, "pop")
            vs = []
            if c == len(self.chunks) - 1:
                token(g, C2V, "push")
                stag = self.stag_base[q % PW_STAGING]
                v = Ins("VEC", {"func": "REQ", "signed": 0, "round": s.round, "dst": stag, "src": self.acc[q],
                                "param": 0, "nx": nn, "ny": 1, "dst_xs": 1, "dst_ys": nn, "src_xs": 1,
                                "src_ys": nn}, f"{what}: requantize out c{n0}..")
                token(v, C2V, "pop")
                if q >= PW_STAGING:
                    token(v, S2V, "pop")
                token(v, V2S, "push")
                token(v, V2C, "push")
                st = Ins("STORE", {"sp": "ACT", "len": 1, "sp_addr": stag, "ext_addr": self.ctx.addr[s.y] + n0,
                                   "x_size": nn, "y_size": 1, "x_stride": 1, "y_stride": 0},
                         f"{what}: output c{n0}..")
                token(st, V2S, "pop")
                token(st, S2V, "push")
                vs = [v, st]
            gemms.append(g)
            vecs.append(vs)
        return skewed(RawPass(prefetch=prefetch), loads, [[g] for g in gemms], vecs)


# ===================================================== one row: several output tiles per GEMM
#: Output tiles one packed GEMM serves (``_Packed``): each K tile streams this many lines, one of
#: them the input, the others zero lines, and the input regions are placed with the LOAD padding
#: fields (at most ``MAX_PAD`` lines per side), so at most four.
PACK_MAX = 4
#: The step of a packed pass whose load batch also loads the REQ parameters (after its weight
#: tiles: the REQ after the last GEMM is the first to read them, so they need not delay the first
#: GEMM, as they would ahead of the pass).
PARAMS_AT = 1


def _per_tensor(s: ConvSpec) -> bool:
    return not any(np.ndim(s.params[k]) and len(set(np.asarray(s.params[k]).tolist())) > 1
                   for k in ("mult", "shift"))


def _packed_runs(KT: int, NT: int, G: int) -> list[tuple[int, int, int, int]]:
    """The GEMMs of :class:`_Packed`: ``(first output tile, output tiles, first tile, tiles)``
    per GEMM; a group of ``jn <= G`` output tiles runs its ``jn x KT`` tiles (output tile
    major) in as few GEMMs of at most ``MAX_KTILES`` tiles as there can be, split evenly."""
    out = []
    for j0 in range(0, NT, G):
        jn = min(G, NT - j0)
        u0 = 0
        for k in _even_split(jn * KT, ceil_div(jn * KT, MAX_KTILES)):
            out.append((j0, jn, u0, k))
            u0 += k
    return out


def _packed_plan(cfg: HwConfig, s: ConvSpec):
    """``(estimate, G)`` for :class:`_Packed` (``G`` output tiles per GEMM group), or None where
    it does not apply: one input row, per-tensor multiplier and shift, at least two output tiles
    per group (``G x K tiles <= MAX_KTILES``, or two when one output tile's K tiles fill more
    than half a GEMM: a group's tiles then run in several GEMMs), two WGT slots of a GEMM's
    tiles in each half of WGT."""
    R, C = cfg.rows, cfg.cols
    KT, NT = ceil_div(s.c, R), ceil_div(s.o, C)
    if s.n * s.h * s.w != 1 or not _per_tensor(s) or R != C or NT > MAX8 or KT > MAX8:
        return None
    G = min(PACK_MAX, max(2, MAX_KTILES // KT), NT, R)
    runs = _packed_runs(KT, NT, G)
    kmax = max(k for *_, k in runs)
    if G < 2 or 2 * PW_AHEAD * kmax * R > cfg.lines("WGT") or G * G * KT > act_split(cfg)[0]:
        return None
    if 2 * ceil_div(NT, G) * G > cfg.lines("ACC") or NT > act_split(cfg)[1]:
        return None
    lat, beats = cfg.ext_latency, ceil_div(R, cfg.dma_bytes_per_cycle)
    gemm = [gemm_cycles(cfg, k, G) for *_, k in runs]
    load = [lat + k * R * beats for *_, k in runs]
    inp = G * (lat + KT * G)
    drain = vec_cycles(cfg, "REQ", NT) + lat + NT * beats
    est = inp + load[0] + sum(max(g, ld) for g, ld in zip(gemm, load)) + drain
    return est, G


def clear_half(cfg: HwConfig, last, space: str, place, parity: int) -> int:
    """The half (0 / 1) of scratchpad ``space`` whose lines ``place(half)`` (``(first,
    count)``) the pass ``last`` touches fewer of; ``parity`` on a tie."""
    used = touched_lines(cfg, last or [], space)
    hits = [int(used[first:first + n].sum()) for first, n in map(place, (0, 1))]
    return parity if hits[0] == hits[1] else int(hits[1] < hits[0])


class _Packed:
    """One input row, weights stationary, ``G`` output tiles per GEMM. A GEMM over one row streams
    one activation line per K tile but takes ``rows`` cycles per tile (the weight preload), and
    pays its preload and fill / drain once: so each K tile of the GEMM streams ``G`` lines
    (``ny = G``) into ``G`` accumulator lines, the input in line ``g`` and zero lines (the input
    zero point) elsewhere, and the GEMM runs the K tiles of ``G`` output tiles in turn: those of
    output tile ``g`` read the input region ``g`` (the input in its line ``g``), so they add to
    accumulator line ``g`` only. The weight tiles stream through two WGT slots; the bias is LOADed
    into the accumulator lines (the GEMMs accumulate onto it), and one REQ with the per-tensor
    multiplier and shift requantizes every output tile after the last GEMM. Consecutive packed
    passes use alternate halves of WGT, ACC and VEC, so the next one's constants load while this
    one runs."""

    def __init__(self, ctx, s, tiles, G):
        cfg = ctx.cfg
        self.ctx, self.cfg, self.s, self.R, self.C = ctx, cfg, s, cfg.rows, cfg.cols
        self.KT, self.NT, self.G = ceil_div(s.c, self.R), ceil_div(s.o, self.C), G
        self.runs = _packed_runs(self.KT, self.NT, G)
        # each scratchpad's half: the one the previous pass of this module touches less (its
        # constants then load while that pass runs), else alternate halves
        # (ConstImage.alternate: the count of packed passes lowered so far)
        parity = ctx.consts.alternate("packed")
        slot = max(k for *_, k in self.runs) * self.R
        acc_n = ceil_div(self.NT, G) * G
        wh, ah, vh = (cfg.lines(sp) // 2 for sp in ("WGT", "ACC", "VEC"))
        # (the ACC lines at the top of their half: clear of the first lines of each half, where
        # the other pointwise schedules keep their accumulator tiles)
        places = {"WGT": lambda h: (h * wh, PW_AHEAD * slot), "ACC": lambda h: ((h + 1) * ah - acc_n, acc_n),
                  "VEC": lambda h: (h * vh, REQ_LINES)}
        half = {sp: clear_half(cfg, ctx.consts.last, sp, place, parity) for sp, place in places.items()}
        self.wgt_base = [half["WGT"] * wh + k * slot for k in range(PW_AHEAD)]
        self.acc = places["ACC"](half["ACC"])[0]
        self.param = half["VEC"] * vh
        self.stag = act_split(cfg)[0]
        # the first line of the input regions: 0, or with one K tile the fill lines before the
        # first region's data line (input_loads)
        self.act = G // 2 if self.KT == 1 and G // 2 <= MAX_PAD and G - G // 2 <= MAX_PAD else 0
        order = [(j, t) for j in range(self.NT) for t in range(self.KT)]
        self.waddr = ctx.consts.add(b"".join(tiles[j][(0, 0, t)].tobytes() for j, t in order))
        bias = np.zeros(self.NT * self.C, np.int64)
        bias[:s.o] = np.asarray(s.params["bias"], np.int64).reshape(-1)
        self.baddr = ctx.consts.add(bias.astype("<i4").tobytes())
        params = {k: (np.asarray(v).reshape(-1)[0] if np.ndim(v) else v) for k, v in s.params.items()}
        params["bias"] = 0
        self.pblock = param_block(cfg, "REQ", **params)

    def input_loads(self) -> list[list[Ins]]:
        """The LOADs of each input region (one list for all of them with one K tile). Input
        region ``g`` (``KT x G`` lines): row ``t`` holds K tile ``t`` in its line ``g``, the other
        lines are filled with the input zero point."""
        s, R, G, KT = self.s, self.R, self.G, self.KT
        xa, full = self.ctx.addr[s.x], s.c // R
        if self.act:
            # one K tile: the regions' data lines lie G + 1 apart, so one LOAD of G rows (each
            # the input line between its fill lines) writes them all
            a = self.act
            return [[Ins("LOAD", {"sp": "ACT", "len": s.c, "sp_addr": 0, "ext_addr": xa, "x_size": G + 1, "y_size": G,
                                  "x_stride": R, "y_stride": 0, "pad_left": a, "pad_right": G - a,
                                  "fill": _byte(s.zx)}, f"{s.what}: input row, regions 0..{G - 1}")]]
        out = []
        for g in range(G):
            out.append([])
            pads = {"pad_left": g, "pad_right": G - 1 - g, "fill": _byte(s.zx)}
            base = g * KT * G
            if full:
                out[-1].append(Ins("LOAD", {"sp": "ACT", "len": R, "sp_addr": base, "ext_addr": xa, "x_size": G,
                                        "y_size": full, "x_stride": R, "y_stride": R, **pads},
                               f"{s.what}: input row, region {g}"))
            if full < KT:
                out[-1].append(Ins("LOAD", {"sp": "ACT", "len": s.c - full * R, "sp_addr": base + full * G,
                                        "ext_addr": xa + full * R, "x_size": G, "y_size": 1, "x_stride": R,
                                        "y_stride": 0, **pads}, f"{s.what}: input row k{full * R}.., region {g}"))
        return out

    def first_reads(self) -> list[int]:
        """Per input region, the first GEMM (run) that reads it: its input LOADs go in that
        GEMM's load batch, so the first GEMM waits only for the region it reads."""
        if self.act:
            return [0]
        G, KT = self.G, self.KT
        group0 = [(i, u0, k) for i, (j0, _, u0, k) in enumerate(self.runs) if j0 == 0]
        return [next(i for i, u0, k in group0 if u0 + k > g * KT) for g in range(G)]

    def slack(self) -> list[int]:
        """Per GEMM, the cycles by which it outlasts its weight tiles' LOAD (the load queue's
        time for other LOADs while the GEMMs run)."""
        cfg, R, G = self.cfg, self.R, self.G
        lat, beats = cfg.ext_latency, ceil_div(R, cfg.dma_bytes_per_cycle)
        return [max(0, gemm_cycles(cfg, k, G) - lat - k * R * beats) for *_, k in self.runs]

    def place_later(self, items: list, inputs: dict) -> dict:
        """The load batches (after their token) of the LOADs ``items`` (``(LOADs, last batch
        allowed)`` each, in order): each in the first batch from ``PARAMS_AT`` on by which the
        GEMMs' slack has made up for the LOADs placed before it (the input regions' included),
        at the latest in its last allowed batch."""
        cfg, slack = self.cfg, self.slack()
        pbeats = ceil_div(4 * self.C, cfg.dma_bytes_per_cycle)

        def cost(lds):
            return sum(cfg.ext_latency + ld.fields["x_size"] * ld.fields["y_size"] * (
                pbeats if ld.fields["sp"] != "ACT" else 1) for ld in lds)

        out, debt, b = {}, 0, 0
        start = max([PARAMS_AT] + list(inputs))
        for lds, last in items:
            while b < last and (b < start or debt > 0):
                b += 1
                debt = max(0, debt - slack[b]) + cost(inputs.get(b, []))
            out.setdefault(b, []).extend(lds)
            debt += cost(lds)
        return out

    def bias_load(self, first: int, n: int) -> Ins:
        return Ins("LOAD", {"sp": "ACC", "len": self.C, "sp_addr": self.acc + first,
                            "ext_addr": self.baddr + 4 * self.C * first, "x_size": n, "y_size": 1,
                            "x_stride": 4 * self.C, "y_stride": 0}, f"{self.s.what}: bias out c{first * self.C}..")

    def emit(self) -> RawPass:
        s, R, C, G, KT, what = self.s, self.R, self.C, self.G, self.KT, self.s.what
        # (the bias in one LOAD ahead of the GEMMs: a later LOAD of some of its lines would
        # write the ACC bank the GEMMs write meanwhile)
        prefetch = [self.bias_load(0, self.NT)]
        # the REQ parameters: in the load batch of step PARAMS_AT where a later one pushes the
        # last GEMM's token, else ahead of the pass
        params = load_vec(self.cfg, self.ctx.consts, vec_blob([self.pblock]), self.param,
                          f"{what}: requantization parameters")
        regions, reads = self.input_loads(), self.first_reads()
        inputs = {}
        for g, r in enumerate(reads):
            inputs.setdefault(r, []).extend(regions[g])
        items = []
        if PARAMS_AT < len(self.runs) - 1:
            items.append((params, len(self.runs) - 2))
        else:
            prefetch += params
        later = self.place_later(items, inputs)
        loads, gemms, finishes = [], [], []
        for i, (j0, jn, u0, k) in enumerate(self.runs):
            wbase = self.wgt_base[i % PW_AHEAD]
            own = wgt_tile_loads(R, self.waddr, wbase, j0 * KT + u0, k,
                                 f"{what}: weight tiles out c{j0 * C}.. k{(u0 % KT) * R}..")
            if i == 0 or len(self.runs) <= PW_AHEAD:
                # the first weight tiles (all of them where each GEMM has its own slot) go ahead
                # of the pass (into the barrier before it, as far as the previous layer allows);
                # only the input row waits for that layer
                prefetch += own
                own = []
            if i >= PW_AHEAD:
                # (the GEMM two before is done with the WGT slot; an input region goes first, as
                # it waits for no GEMM)
                token(own[0], C2L, "pop")
            own = (inputs.get(i, []) + own) or [nop("load", f"{what}: weight tiles prefetched")]
            token(own[-1], L2C, "push")
            own = own + later.get(i, [])
            loads.append(own)
            g = Ins("GEMM", {"accumulate": 1, "preload": 1, "kt": k - 1, "act": self.act + u0 * G, "acc": self.acc + j0,
                             "wgt": wbase, "nx": 1, "ny": G, "act_xs": 1, "act_ys": 1, "acc_xs": 1, "acc_ys": 1,
                             "act_signed": s.x_signed, "wgt_signed": s.w_signed, "za": _byte(s.zx),
                             "zw": _byte(s.zw)},
                    f"{what}: out c{j0 * C}..{(j0 + jn) * C - 1} (packed, tiles {u0}..{u0 + k - 1})")
            token(g, L2C, "pop")
            token(g, C2L, "push")
            gemms.append([g])
            finishes.append([])
        token(gemms[-1][0], C2V, "push")
        v = Ins("VEC", {"func": "REQ", "signed": 0, "round": s.round, "dst": self.stag, "src": self.acc,
                        "param": self.param, "nx": self.NT, "ny": 1, "dst_xs": 1, "dst_ys": self.NT, "src_xs": 1,
                        "src_ys": self.NT}, f"{what}: requantize")
        token(v, C2V, "pop")
        token(v, V2S, "push")
        full = s.o // C
        stores = []
        if full:
            stores.append(Ins("STORE", {"sp": "ACT", "len": C, "sp_addr": self.stag, "ext_addr": self.ctx.addr[s.y],
                                        "x_size": full, "y_size": 1, "x_stride": C, "y_stride": 0}, f"{what}: output"))
        if full < self.NT:
            stores.append(Ins("STORE", {"sp": "ACT", "len": s.o - full * C, "sp_addr": self.stag + full,
                                        "ext_addr": self.ctx.addr[s.y] + full * C, "x_size": 1, "y_size": 1,
                                        "x_stride": C, "y_stride": 0}, f"{what}: output c{full * C}.."))
        token(stores[0], V2S, "pop")
        token(stores[-1], S2V, "push")   # the barrier after the pass waits for it
        finishes[-1] = [v] + stores
        out = skewed(RawPass(prefetch=merge_loads(prefetch)), loads, gemms, finishes)
        # (a pass whose input regions load in several batches takes no hand-over: hand_over
        # replaces the first batch only)
        whole = all(r == 0 for r in reads)
        out.packed = PackedEnds((R, G, KT, self.act), s.zx, s.o, loads[0] if whole else [], v, stores)
        out.constant_prefetch = True    # (bias, weight tiles, parameters: hoist_prefetch may move them)
        return out


@dataclass
class PointwiseInput:
    """The input of a one-block pointwise pass: its input LOADs, the slot's first ACT line, the
    pixels ``p`` (the block) and the K tiles (K tile ``t`` at ``base + t * p``)."""

    loads: list
    base: int
    p: int
    k_tiles: int


@dataclass
class PackedEnds:
    """The ends of a :class:`_Packed` pass that :func:`hand_over` joins to the next one: the input
    region layout ``(rows, G, K tiles)`` and zero point (the regions' fill), the output channels,
    the input-row LOADs (the first load batch), the REQ and the output STOREs."""

    layout: tuple[int, int, int, int]
    zx: int
    o: int
    loads: list[Ins]
    req: Ins
    stores: list[Ins]


def _cycles(cfg: HwConfig, ins: Ins) -> int:
    return instruction_cycles(ins.decoded(), cfg)


def _clear_of(cfg: HwConfig, ld: Ins, passes: list) -> bool:
    """Whether the LOAD ``ld`` writes no line the instructions of ``passes`` touch (their
    prefetch included) and no bank their GEMMs and VECs write."""
    return ProgramBuilder(cfg).clear_of(ld, [i for p in passes for i in list(p) + list(getattr(p, "prefetch", []))])


def hoist_prefetch(cfg: HwConfig, before, first, then) -> bool:
    """Moves the constant LOADs a packed pass ``then`` prefetches into the prefetch of the pass
    ``first`` before it, where ``first`` has no LOAD of its own (its input handed over, its
    constants prefetched) and they are clear of ``first`` and of the pass ``before`` it
    (:func:`_clear_of`): they then load ahead of the barrier before ``first``
    (``ProgramBuilder.raw``), while the load queue would otherwise wait for ``before`` to
    finish. Returns whether any moved."""
    if not (isinstance(first, RawPass) and isinstance(then, RawPass) and isinstance(before, RawPass)
            and getattr(then, "constant_prefetch", False)):
        return False
    budget = None
    if any(i.name == "LOAD" for i in first):
        # a pass with LOADs of its own takes as many as the load queue has time for while the
        # pass before it finishes (its last GEMM and what follows it), beyond its own prefetch
        last = max(k for k, i in enumerate(before) if i.name in ("GEMM", "DWCONV"))
        budget = (sum(_cycles(cfg, i) for i in before[last:] if i.queue in ("compute", "vector", "store"))
                  - sum(_cycles(cfg, i) for i in first.prefetch) + cfg.ext_latency)
    move = []
    for ld in then.prefetch:
        if not _clear_of(cfg, ld, [before, first]):
            continue
        if budget is not None:
            budget -= _cycles(cfg, ld)
            if budget < 0:
                break
        move.append(ld)
    first.prefetch += move
    then.prefetch = [ld for ld in then.prefetch if all(ld is not m for m in move)]
    return bool(move)


def hand_over(cfg: HwConfig, first: RawPass, then: RawPass) -> bool:
    """Joins two packed passes where ``then`` reads only what ``first`` writes, which nothing else
    reads: when their input regions have one layout and one zero point, ``first``'s REQ writes
    its output tiles straight into the data lines of its own input regions (its GEMMs have read
    them all, and the fill lines already hold the zero point), ``first`` stores nothing and
    ``then`` loads no input row (a load-queue NOP keeps its token). Returns whether it did."""
    a, b = getattr(first, "packed", None), getattr(then, "packed", None)
    if a is None or b is None or not a.stores or not b.loads:
        return False
    one_line = b.layout[1] == 1 and a.layout[0] == b.layout[0]   # no fill lines to match
    if not one_line and (a.layout != b.layout or a.zx != b.zx):
        return False
    R, G, KT, base = b.layout
    if a.o != KT * R or cfg.cols != R or KT * G + 1 > MAX8 or G > MAX8:
        return False
    v = a.req
    v.fields.update({"dst": base, "nx": KT, "ny": G, "dst_xs": G, "dst_ys": KT * G + 1, "src_xs": 1, "src_ys": 0})
    v.comment += " into the input regions of the next pass"
    untoken(v, V2S)
    gone = {id(i) for i in a.stores}
    first[:] = [i for i in first if id(i) not in gone]
    keep = nop("load", "the input row is in place (the previous pass's REQ wrote it)")
    keep.flags = set(b.loads[-1].flags)
    at = next(k for k, i in enumerate(then) if i is b.loads[0])
    gone = {id(i) for i in b.loads}
    then[:] = then[:at] + [keep] + [i for i in then[at:] if id(i) not in gone]
    a.stores, b.loads = [], []      # joined: first stores nothing, then loads nothing
    return True
