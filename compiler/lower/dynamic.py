"""Convolutions whose filter or bias is not a constant (a model input, or a tensor an earlier
operation computes): the weights arrive through DMA at run time.

The constant path precomputes three things from the filter and bias values: the weight tiles
(the effective dense filter ``[fh, fw, C, O]`` cut into ``rows x rows`` tiles, all-zero-point
tiles skipped), the REQ parameter blocks (the bias beside the multipliers) and nothing else: the
zero points are GEMM fields (``W[k][n] = byte - zw``, ``a[k] = byte - za``), so no
sum-of-weights x input-zero-point term is folded anywhere and none is missing here. The
multipliers and shifts depend only on the scales, which are part of the operand types. So:

* the **filter** is repacked by DMA passes before the convolution (:meth:`DynamicOperands.pack_passes`):
  a scratch area holding the *padded dense filter* ``[fh, fw, cb * rows, ob * rows]`` (row
  ``(ky, kx, c)`` holds the weights of input channel ``c`` for every output channel) is filled
  with the filter zero point, then every filter byte is scattered to its place (``len = 1``
  LOAD / STORE boxes, :func:`~nnaccel.compiler.lower.dma.copy_stages`). A weight tile is then
  ``rows`` consecutive rows of ``rows`` bytes, one strided WGT LOAD (:meth:`DynamicOperands.tile_loads`);
  the tiles a depthwise or grouped filter never connects (all zero point) are skipped as on the
  constant path, from the connection pattern alone (:meth:`DynamicOperands.live`);
* the **bias** (int32, little-endian, four bytes per element in external memory) is LOADed
  into the bias line of each REQ parameter block after the block itself, whose bias line the
  constant image holds as zeros (:meth:`DynamicOperands.bias_loads`).

Such a convolution takes the general schedule (one GEMM per tap and input block), except where a
schedule reads the filter where it lies: one input row streams the filter rows from the ``[O, C]``
filter tensor (:func:`filter_streams`, the pointwise schedule's filter-streaming pass), and the
depthwise schedule LOADs each DWCONV tile line (one tap's channels) from the ``[1, fh, fw, C]``
filter tensor. The other pointwise and the im2col schedules take only constant filters.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from nnaccel.hwconfig import HwConfig

from ..emit import Ins
from .base import MAX8, MAX16, REQ_LINES, CannotLower, LowerContext, T, ceil_div
from .dma import copy_stages
from .lines import _fill_lines, _line_chunks, _line_dma

#: The REQ parameter block's line of the bias (``VEC_BY_NAME["REQ"].params``).
BIAS_LINE = 0


@dataclass
class DynamicOperands:
    """The operands of a convolution that are not constants: ``filter`` / ``bias`` are operand
    indexes (None where that operand is a constant). ``kind`` is the operation type, ``groups``
    the group count (GROUPED_CONV_2D) and ``mult`` the depth multiplier (DEPTHWISE_CONV_2D);
    ``fh, fw, c, o`` the effective dense filter's shape, ``zw`` its zero point."""

    kind: str
    filter: int | None
    bias: int | None
    fh: int
    fw: int
    c: int
    o: int
    zw: int
    groups: int = 1
    mult: int = 1
    #: External-memory address of the packed filter, once :func:`packed_filter` placed it.
    packed: int | None = None

    def padded(self, rows: int) -> tuple[int, int]:
        """``(cb * rows, ob * rows)``: the padded dense filter's rows per tap and row length."""
        return ceil_div(self.c, rows) * rows, ceil_div(self.o, rows) * rows

    def scratch_bytes(self, rows: int) -> int:
        """Bytes of the padded dense filter (the scratch area :meth:`pack_passes` fills)."""
        cp, op = self.padded(rows)
        return self.fh * self.fw * cp * op if self.filter is not None else 0

    def connected(self) -> np.ndarray:
        """``[C, O]``: whether input channel ``c`` reaches output channel ``o`` (every tap alike)."""
        if self.kind == "DEPTHWISE_CONV_2D":
            return np.arange(self.c)[:, None] == np.arange(self.o)[None, :] // self.mult
        if self.kind == "GROUPED_CONV_2D":
            cg, dg = self.c // self.groups, self.o // self.groups
            return np.arange(self.c)[:, None] // cg == np.arange(self.o)[None, :] // dg
        return np.ones((self.c, self.o), bool)

    def live(self, rows: int) -> np.ndarray:
        """``[ob, fh, fw, cb]``: the weight tiles that hold a filter entry (the others are all
        zero point, as the constant path finds from the values)."""
        cb, ob = ceil_div(self.c, rows), ceil_div(self.o, rows)
        mask = np.zeros((cb * rows, ob * rows), bool)
        mask[:self.c, :self.o] = self.connected()
        blocks = mask.reshape(cb, rows, ob, rows).any(axis=(1, 3))   # [cb, ob]
        return np.broadcast_to(blocks.T[:, None, None, :], (ob, self.fh, self.fw, cb)).copy()

    # ------------------------------------------------------------------ the packing passes
    def _scatter(self, rows: int) -> tuple[list, list, list]:
        """``(dims, source strides, destination strides)`` of the byte scatter from the filter
        tensor's layout into the padded dense filter ``[fh, fw, cp, op]``."""
        cp, op = self.padded(rows)
        taps, tap_d = self.fh * self.fw, cp * op
        if self.kind == "FULLY_CONNECTED":                  # [O, C]
            return [self.o, self.c], [self.c, 1], [1, op]
        if self.kind == "CONV_2D":                          # [O, fh, fw, C]
            return [self.o, taps, self.c], [taps * self.c, self.c, 1], [1, tap_d, op]
        if self.kind == "DEPTHWISE_CONV_2D":                # [1, fh, fw, C * mult]: o = c * mult + m
            return ([taps, self.c, self.mult], [self.o, self.mult, 1], [tap_d, op + self.mult, 1])
        g = self.groups                                     # [O, fh, fw, C / g]: o = gi * dg + d
        cg, dg = self.c // g, self.o // g
        return ([g, dg, taps, cg], [dg * taps * cg, taps * cg, cg, 1], [cg * op + dg, 1, tap_d, op])

    def pack_passes(self, cfg: HwConfig, src: int, dst: int) -> list:
        """Two DMA-only passes that write the padded dense filter at ``dst`` from the filter
        tensor at ``src``: fill with the zero point, then scatter the filter bytes (dimension
        orders tried until the strides fit the DMA fields)."""
        what = f"{self.kind}: filter"
        total = self.scratch_bytes(cfg.rows)
        budget = cfg.lines("ACT") // 2
        full, tail = divmod(total, cfg.cols)
        filler = _fill_lines(cfg, 0, min(budget, full + (1 if tail else 0)), self.zw,
                             f"{what} zero point")
        fill = []
        for off, nl, tl in _line_chunks(cfg, total, budget - 1):
            stores = _line_dma(cfg, "STORE", 0, dst + off, nl, tl, f"{what}: padded filter bytes {off}")
            fill.append((list(filler) if not fill else [], [], stores))
        dims, s_st, d_st = self._scatter(cfg.rows)
        err = None
        n = len(dims)
        # the two innermost dimensions become the LOAD / STORE box: try each pair innermost
        for a in range(n):
            for b in range(n):
                if a == b:
                    continue
                order = [d for d in range(n) if d not in (a, b)] + [b, a]
                try:
                    scatter = copy_stages(cfg, src, [s_st[d] for d in order], dst, [d_st[d] for d in order],
                                          [dims[d] for d in order], 1, f"{what} bytes to their tiles",
                                          first_stage=1)
                    return [fill, scatter]
                except CannotLower as e:
                    err = e
        raise err

    # ------------------------------------------------------------------ the loads
    def tile_loads(self, cfg: HwConfig, packed: int, order: list, sp_addr: int, comment: str) -> list[Ins]:
        """WGT LOADs of the tiles ``order`` (``(output block, (ky, kx, input block))`` each)
        into consecutive tiles from WGT line ``sp_addr`` on, from the padded dense filter at
        ``packed``: a run of tiles of one output block whose rows follow each other is one LOAD
        (``rows`` lines of ``rows`` bytes, the row length apart; the tiles ``rows`` rows apart)."""
        R = cfg.rows
        cp, op = self.padded(R)
        if op > MAX16 or R * op > MAX16:
            raise CannotLower("a row of the repacked filter is wider than the DMA stride field")

        def first_row(co, key):
            ky, kx, ci = key
            return (ky * self.fw + kx) * cp + ci * R, co

        out, k = [], 0
        while k < len(order):
            row, co = first_row(*order[k])
            n = 1
            while (k + n < len(order) and n < MAX8
                   and first_row(*order[k + n]) == (row + n * R, co)):
                n += 1
            out.append(Ins("LOAD", {"sp": "WGT", "len": R, "sp_addr": sp_addr + k * R,
                                    "ext_addr": packed + row * op + co * R, "x_size": R, "y_size": n,
                                    "x_stride": op, "y_stride": R * op}, comment))
            k += n
        return out

    def bias_loads(self, cfg: HwConfig, addr: int, blocks: list, line0: int, comment: str) -> list[Ins]:
        """VEC LOADs of the bias of output blocks ``blocks`` (``rows`` channels each) into the bias
        lines of consecutive REQ parameter blocks from VEC line ``line0`` on (channels past the
        last are 0, as the constant blocks have them)."""
        R = cfg.rows
        out = []
        for j, co in enumerate(blocks):
            out.append(Ins("LOAD", {"sp": "VEC", "len": min(R, self.o - co * R), "sp_addr": line0 + REQ_LINES * j + BIAS_LINE,
                                    "ext_addr": addr + 4 * co * R, "x_size": 1, "y_size": 1, "x_stride": 0,
                                    "y_stride": 0, "fill": 0}, f"{comment} c{co * R}"))
        return out


def dynamic_operands(kind: str, sg, op, c: int, o: int, fh: int, fw: int, zw: int, groups: int = 1) -> DynamicOperands | None:
    """The :class:`DynamicOperands` of a convolution, or None when its filter and bias are constants."""
    w, b = op.inputs[1], op.inputs[2]
    wo, bo = sg.operands[w], sg.operands[b]
    dyn_w = not wo.is_constant
    dyn_b = not bo.is_constant
    if bo.is_omitted:
        raise CannotLower("the bias is omitted")
    if dyn_b and (bo.type is not T.TENSOR_INT32 or bo.dimensions is None or not bo.fully_specified
                  or list(bo.dimensions) != [o]):
        raise CannotLower(f"the bias is a {bo.type.name} input of unknown or unexpected shape")
    if not (dyn_w or dyn_b):
        return None
    return DynamicOperands(kind, w if dyn_w else None, b if dyn_b else None, fh, fw, c, o, zw, groups,
                           o // c if kind == "DEPTHWISE_CONV_2D" else 1)


def filter_streams(cfg: HwConfig, s) -> bool:
    """Whether the convolution ``s`` (a ``ConvSpec`` with dynamic operands) takes the
    filter-streaming pass of the pointwise schedule (one input row: a batch-1 FULLY_CONNECTED or
    1x1 convolution), which streams the filter rows straight from the ``[O, C]`` filter tensor
    and LOADs the bias from its tensor: no repacking (``pointwise_pass`` decides the same way)."""
    from .pointwise import _pointwise, _streamed_plan

    return (_pointwise(s) and (s.dyn.kind == "FULLY_CONNECTED" or s.dyn.kind == "CONV_2D")
            and cfg.rows == cfg.cols and max(s.c, s.o) <= MAX16 and cfg.banks("ACC") >= 2
            and _streamed_plan(cfg, s) is not None)


def repacks(cfg: HwConfig, s) -> bool:
    """Whether the convolution ``s`` (a ``ConvSpec``) needs its filter repacked: a filter that is
    not a constant, on a schedule that does not read it where it lies (:func:`filter_streams`,
    the depthwise schedule)."""
    from .depthwise import dw_applies

    return s.dyn is not None and s.dyn.filter is not None and not filter_streams(cfg, s) and not dw_applies(cfg, s)


def packed_filter(ctx: LowerContext, dyn: DynamicOperands) -> tuple[LowerContext, int | None]:
    """``(context without the repacked filter's scratch area, its address)``: the area is the
    last of the operation's scratch areas (``ConvLowering.scratch``); None without a filter to
    repack or without scratch memory (a schedule that needs it then raises :class:`CannotLower`)."""
    import dataclasses

    if dyn.filter is None or not ctx.scratch:
        return ctx, None
    return dataclasses.replace(ctx, scratch=list(ctx.scratch[:-1])), ctx.scratch[-1]
