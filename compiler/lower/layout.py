"""NCHW tensors: DMA passes between NCHW operands and NHWC scratch copies."""

from __future__ import annotations

import dataclasses

from nnaccel.hwconfig import HwConfig
from nnaccel.model import Operation

from .base import MAX16, CannotLower, LowerContext
from .dma import copy_stages


# ================================================================================ NCHW layouts
def _nhwc_dims(dims, nchw: bool) -> tuple:
    """``[N, H, W, C]`` of a 4-D tensor stored NHWC, or NCHW when ``nchw``."""
    return (dims[0], dims[2], dims[3], dims[1]) if nchw else tuple(dims)


def _layout_strides(n, h, w, c, nchw: bool, split: bool):
    """Byte strides of the ``(n, c, h*w)`` (or, with ``split``, ``(n, c, h, w)``) element
    indices of an NHWC / NCHW tensor."""
    if nchw:
        return (c * h * w, h * w, w, 1) if split else (c * h * w, h * w, 1)
    return (h * w * c, 1, w * c, c) if split else (h * w * c, 1, c)


def layout_stages(cfg: HwConfig, src: int, dst: int, nhwc: tuple, to_nhwc: bool, what: str) -> list:
    """DMA-only stages that change a tensor's layout between NCHW and NHWC one byte at a time:
    a LOAD box of ``len = 1`` lines gathers bytes of one channel plane (``x_stride`` 1 on the
    NCHW side, ``C`` on the NHWC side) into ACT, one element per line, and a STORE box of the
    same lines scatters them with the other side's strides. Pixels as one dimension when its
    strides fit the DMA fields, else rows and columns."""
    n, h, w, c = nhwc
    err = None
    for split in (False, True):
        dims = (n, c, h, w) if split else (n, c, h * w)
        a = _layout_strides(n, h, w, c, to_nhwc, split)       # source: NCHW when going to NHWC
        b = _layout_strides(n, h, w, c, not to_nhwc, split)
        try:
            return copy_stages(cfg, src, list(a), dst, list(b), list(dims), 1, what)
        except CannotLower as e:
            err = e
    raise err


def _layout_passes_fit(x_nhwc: tuple, y_nhwc: tuple) -> None:
    """Raises :class:`CannotLower` when a layout pass's strides exceed the DMA fields."""
    for n, h, w, c in (x_nhwc, y_nhwc):
        if max(h * w, c) > MAX16 and max(w, w * c, c) > MAX16:
            raise CannotLower("an NCHW plane is too large for the DMA stride fields")


def _nhwc_scratch(ctx: LowerContext, op: Operation):
    """A context whose address map also has the NHWC scratch copies of the input and output."""
    if len(ctx.scratch) < 2:
        raise CannotLower("no scratch memory for the NCHW layout passes")
    x, y = ("nhwc", op.inputs[0]), ("nhwc", op.outputs[0])
    sub = dataclasses.replace(ctx, addr={**ctx.addr, x: ctx.scratch[0], y: ctx.scratch[1]})
    return sub, x, y


def _in_nhwc(ctx, sub, op, x_nhwc, y_nhwc, passes, what) -> list:
    """The NHWC ``passes`` between the layout passes: the NCHW input into its NHWC scratch copy,
    then (after the passes, which read and write the scratch copies) the NHWC result into the
    NCHW output. Passes are separated by barriers, so each reads finished data."""
    x, y = ("nhwc", op.inputs[0]), ("nhwc", op.outputs[0])
    pre = layout_stages(ctx.cfg, ctx.addr[op.inputs[0]], sub.addr[x], x_nhwc, True,
                        f"{what}: NCHW input to NHWC scratch")
    post = layout_stages(ctx.cfg, sub.addr[y], ctx.addr[op.outputs[0]], y_nhwc, False,
                         f"{what}: NHWC result to NCHW output")
    return [pre, *passes, post]
