"""Element-wise ADD, SUB, MUL (with one-element and trailing-dimension broadcasting)."""

from __future__ import annotations

import math

import numpy as np

from nnaccel.golden.common import qrange
from nnaccel.golden.elementwise import add_sub_real_multipliers, f32, mul_real_multiplier
from nnaccel.hwconfig import HwConfig
from nnaccel.isa.cycles import vec_cycles
from nnaccel.isa.table import VEC_BY_NAME
from nnaccel.model import Operand
from nnaccel.program import param_block
from nnaccel.quant import activation_range_quantized, quantize_multiplier

from ..emit import Ins
from .base import (
    MAX8,
    MAX16,
    CannotLower,
    Lowering,
    Residual,
    _need_const,
    _need_known,
    _need_quant8,
    _scalar,
    _signed,
    ceil_div,
    load_vec,
    tighten,
    vec_blob,
)
from .lines import _fill_lines, _line_layout, _vec_lines, lines_passes


def _splat(o: Operand) -> bool:
    """A one-element constant: broadcast by filling lines with its byte (LOAD ``len = 0``)."""
    return o.is_constant and o.data is not None and int(np.prod(o.dimensions or (1,))) == 1


def _broadcast_kind(x: Operand, o: Operand):
    """How input ``x`` maps onto output ``o``: ``("full",)``, ``("splat",)`` (a one-element
    constant), ``("rows", S)`` (its shape is 1s then the output's trailing dimensions, ``S`` bytes:
    the same row repeats), or None."""
    xd, od = tuple(x.dimensions), tuple(o.dimensions)
    if _splat(x):
        return ("splat",)
    if xd == od:
        return ("full",)
    if len(xd) > len(od):
        return None
    shift, k = len(od) - len(xd), len(xd)
    while k and xd[k - 1] == od[shift + k - 1]:  # the trailing dimensions x shares with the output
        k -= 1
    if all(d == 1 for d in xd[:k]):
        size = math.prod(xd[k:])
        if 0 < size <= MAX16:
            return ("rows", size)
    return None


def _stage_lines(cfg: HwConfig, func: str, nsrc: int, nlines: int) -> int | None:
    """Lines per stage of a line-wise ``func`` over ``nlines`` ACT lines from ``nsrc`` loaded
    inputs, double-buffered: the size with the lowest estimate of ``first stage's LOADs + (stages
    - 1) x the slowest engine's stage + last VEC + last STORE`` (the ISA's LOAD / STORE / VEC
    cycles). Short stages start the VEC and the STORE early; each costs a DMA latency per box.
    None (a whole buffer region) when the stages run one at a time."""
    serial, region, _, _ = _line_layout(cfg, 2)
    if serial or nlines <= 1:
        return None
    vf = VEC_BY_NAME[func]
    per_line_dma = max(1, ceil_div(cfg.cols, cfg.dma_bytes_per_cycle))

    def estimate(n: int) -> int:
        stages = ceil_div(nlines, n)
        load = nsrc * (cfg.ext_latency + n * per_line_dma)
        vec = vec_cycles(cfg, vf.name, n)
        store = cfg.ext_latency + n * per_line_dma
        return load + (stages - 1) * max(load, vec, store) + vec + store

    sizes = {min(region - 1, 1 << k) for k in range(4, (region - 1).bit_length() + 1)} | {region - 1}
    return min(sorted(sizes), key=estimate)


def row_broadcast_passes(ctx, what, srcs, row, dst_index, nbytes, func, param_rows, signed) -> list:
    """A binary line-wise operation where input ``row = (operand, S)`` is one ``S``-byte row
    repeated over the output (LOADed with row stride 0): the output is processed as rows of ``S``
    bytes, each cut into ``cols``-byte lines."""
    cfg, R = ctx.cfg, ctx.cfg.cols
    size = row[1]
    outer = nbytes // size
    full, tail = divmod(size, R)
    pieces = [(x0 * R, min(MAX8, full - x0), R) for x0 in range(0, full, MAX8)]
    if tail:
        pieces.append((full * R, 1, tail))
    per_row = sum(p[1] for p in pieces)
    serial, region, in_at, out_at = _line_layout(cfg, 2)
    ny_max = min(MAX8, region // per_row)
    if ny_max < 1:
        raise CannotLower("a broadcast row does not fit the ACT scratchpad")
    pre = load_vec(cfg, ctx.consts, vec_blob([param_block(cfg, func, **param_rows)]), 0, f"{what}: parameters")
    stages = []
    for y0 in range(0, outer, ny_max):
        ny = min(ny_max, outer - y0)
        p = len(stages) % 2
        base = [in_at(0, p), in_at(1, p), out_at(p)]
        loads = list(pre) if not stages else []
        for k, src in enumerate(srcs):
            if isinstance(src, tuple):
                loads += _fill_lines(cfg, base[k], per_row * ny, src[1], f"{what}: input {k} broadcast")
                continue
            bc = src == row[0]
            sp = base[k]
            for off, nx, ln in pieces:
                loads.append(Ins("LOAD", {"sp": "ACT", "len": ln, "sp_addr": sp,
                                          "ext_addr": ctx.addr[src] + (0 if bc else y0 * size) + off, "x_size": nx,
                                          "y_size": ny, "x_stride": R, "y_stride": 0 if bc else size},
                                 f"{what}: input {k} rows {y0}.." + (" (broadcast row)" if bc else "")))
                sp += nx * ny
        computes = _vec_lines(func, base[2], base[0], per_row * ny, 0, base[1], signed, what)
        stores, sp = [], base[2]
        for off, nx, ln in pieces:
            stores.append(Ins("STORE", {"sp": "ACT", "len": ln, "sp_addr": sp, "ext_addr": ctx.addr[dst_index] + y0 * size
                                        + off, "x_size": nx, "y_size": ny, "x_stride": R, "y_stride": size},
                              f"{what}: output rows {y0}.."))
            sp += nx * ny
        stages.append((loads, computes, stores, serial))
    return [stages]


class EltwiseLowering(Lowering):
    absorbs_clamp = True
    summary = "an element-wise operation on the vector unit"

    def check(self, sg, op) -> None:
        self.params(sg, op)

    def output_range(self, sg, op) -> tuple:
        rows = self.params(sg, op)[1]
        return rows["lo"], rows["hi"]

    def params(self, sg, op, clamp=None):
        _need_quant8(sg, [op.inputs[0], op.inputs[1], op.outputs[0]])
        _need_known(sg, [op.inputs[0], op.inputs[1], op.outputs[0]])
        _need_const(sg, op, [2])
        a, b, o = (sg.operands[i] for i in (op.inputs[0], op.inputs[1], op.outputs[0]))
        kinds = [_broadcast_kind(x, o) for x in (a, b)]
        if None in kinds or [k[0] for k in kinds].count("rows") > 1:
            raise CannotLower("broadcasting other than of a one-element constant or of trailing dimensions "
                              "runs on the host")
        act = _scalar(sg, op, 2, 0)
        lo, hi = tighten(activation_range_quantized(act, f32(o.scale), o.zero_point, *qrange(o.type)), clamp)
        if self.kind in ("ADD", "SUB"):
            r1, r2, ro = add_sub_real_multipliers(a.scale, b.scale, o.scale)
            m1, e1 = quantize_multiplier(r1)
            m2, e2 = quantize_multiplier(r2)
            mo, eo = quantize_multiplier(ro)
            return "ADDQ" if self.kind == "ADD" else "SUBQ", {"z1": a.zero_point, "m1": m1, "e1": e1, "z2": b.zero_point,
                                                                   "m2": m2, "e2": e2, "mo": mo, "eo": eo, "zo": o.zero_point,
                                                                   "lo": lo, "hi": hi}
        m, e = quantize_multiplier(mul_real_multiplier(a.scale, b.scale, o.scale))
        return "MULQ", {"z1": a.zero_point, "z2": b.zero_point, "m": m, "e": e, "zo": o.zero_point, "lo": lo, "hi": hi}

    def residual(self, sg, op, conv, clamp):
        """An ADD of two operands of the output's shape, one of them ``conv``: ADDQ's parameters
        with ``conv`` as its first source (the sum's integer addition is symmetric, so only the
        operands' own zero points, multipliers and shifts swap)."""
        if self.kind != "ADD" or list(op.inputs[:2]).count(conv) != 1:
            return None
        try:
            rows = self.params(sg, op, clamp)[1]
        except CannotLower:
            return None
        a, b, o = (sg.operands[i] for i in (op.inputs[0], op.inputs[1], op.outputs[0]))
        if not (tuple(a.dimensions) == tuple(b.dimensions) == tuple(o.dimensions)) or _splat(a) or _splat(b):
            return None
        skip = op.inputs[1] if op.inputs[0] == conv else op.inputs[0]
        if op.inputs[1] == conv:
            rows = {**rows, "z1": rows["z2"], "m1": rows["m2"], "e1": rows["e2"],
                    "z2": rows["z1"], "m2": rows["m1"], "e2": rows["e1"]}
        return Residual(conv, skip, op.outputs[0], rows, _signed(a))

    def tensors(self, sg, op) -> list[int]:
        return [i for i in op.inputs[:2] if not _splat(sg.operands[i])] + [op.outputs[0]]

    def passes(self, ctx, op) -> list:
        func, rows = self.params(ctx.sg, op, ctx.clamp)
        a, o = ctx.sg.operands[op.inputs[0]], ctx.sg.operands[op.outputs[0]]
        n = int(np.prod(o.dimensions))
        srcs, row = [], None
        for i in op.inputs[:2]:
            x = ctx.sg.operands[i]
            kind = _broadcast_kind(x, o)
            if kind[0] == "splat":
                srcs.append(("fill", int(np.asarray(x.data).reshape(-1)[0])))
            else:
                srcs.append(i)
                if kind[0] == "rows":
                    row = (i, kind[1])
        if row is not None:
            return row_broadcast_passes(ctx, self.kind, srcs, row, op.outputs[0], n, func, rows, _signed(a))
        loaded = sum(1 for src in srcs if not isinstance(src, tuple))
        stage = _stage_lines(ctx.cfg, func, loaded, ceil_div(n, ctx.cfg.cols))
        return lines_passes(ctx, self.kind, srcs, op.outputs[0], n, func, rows, _signed(a), stage_lines=stage)
