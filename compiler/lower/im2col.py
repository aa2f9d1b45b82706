"""Convolutions of few input channels as one GEMM over their taps: an *im2col* copy by the DMA
(each output pixel's window as one row of ``fh x fw x C`` bytes, the filter's own byte order),
then the pointwise schedule on those rows with the filter as a ``[fh x fw x C, O]`` matrix. A
K tile then holds taps as well as channels: a 10x4 filter on one channel streams 3 K tiles of
16 instead of 40 GEMMs of 1 live row each."""

from __future__ import annotations

import dataclasses
import math

from nnaccel.hwconfig import HwConfig

from .dma import copy_stages
from .pad import pad_passes


def im2col_applies(cfg: HwConfig, kind: str, c: int, taps: int, dilation: tuple) -> bool:
    """A dense convolution whose input channels leave most of a K tile empty: fewer K tiles over
    ``taps x C`` than GEMMs over the taps (with dilation 1, so one window row is contiguous)."""
    return kind == "CONV_2D" and taps > 1 and c < cfg.rows and tuple(dilation) == (1, 1)


def _padded_dims(s) -> tuple:
    top, bottom, left, right = s.pads
    return s.n, s.h + top + bottom, s.w + left + right, s.c


def im2col_scratch(s) -> list[int]:
    """Sizes of the padded input copy (0 without padding) and of the im2col rows."""
    fh, fw = s.weff.shape[:2]
    return [math.prod(_padded_dims(s)) if any(s.pads) else 0, s.n * s.oh * s.ow * fh * fw * s.c]


def im2col_passes(ctx, s):
    """``(passes, sub, spec)``: the DMA passes that write the im2col rows (after a padded copy of
    the input when the convolution pads), the context whose address map has the rows, and the
    1x1 convolution over them that finishes the layer."""
    cfg = ctx.cfg
    fh, fw = s.weff.shape[:2]
    sh, sw = s.stride
    k = fh * fw * s.c
    passes = []
    n, hp, wp, c = _padded_dims(s)
    src = ctx.addr[s.x]
    if any(s.pads):
        top, _, left, _ = s.pads
        src = ctx.scratch[0]
        # rows of W x C bytes: one DMA line carries several pixels
        passes += pad_passes(cfg, ctx.addr[s.x], (s.n, s.h, s.w * c), src, (n, hp, wp * c), (0, top, left * c),
                             s.zx, f"{s.what}: padded input")
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
