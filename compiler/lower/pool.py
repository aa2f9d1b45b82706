"""Pooling: AVERAGE_POOL_2D, MAX_POOL_2D and (a TFLite model's) spatial MEAN on the vector unit."""

from __future__ import annotations

import itertools
import math

import numpy as np

from nnaccel.golden import nn as gnn
from nnaccel.golden import shape as gshape
from nnaccel.golden.common import qrange
from nnaccel.isa.table import MAX_KTILES, VEC_BY_NAME, div_params
from nnaccel.program import param_block, runs
from nnaccel.quant import activation_range_quantized

from ..emit import C2L, C2V, L2C, S2V, V2S, Ins, RawPass, token
from .base import (
    MAX8,
    MAX16,
    CannotLower,
    Lowering,
    T,
    _need_const,
    _need_known,
    _need_quant8,
    _signed,
    _window_spec,
    act_split,
    ceil_div,
    load_vec,
    tighten,
    vec_blob,
)
from .dma import _row_groups, load_box
from .layout import _in_nhwc, _layout_passes_fit, _nhwc_dims, _nhwc_scratch
from .pointwise import skewed


# ================================================================================ pooling
class PoolLowering(Lowering):
    absorbs_clamp = True
    summary = "pooling on the vector unit"

    def check(self, sg, op) -> None:
        self.spec(sg, op)

    def output_range(self, sg, op) -> tuple:
        s = self.spec(sg, op)
        return s["lo"], s["hi"]

    def spec(self, sg, op, clamp=None):
        _need_quant8(sg, [op.inputs[0], op.outputs[0]])
        _need_known(sg, [op.inputs[0], op.outputs[0]])
        _need_const(sg, op, range(1, len(op.inputs)))
        win = _window_spec(sg, op, gnn.POOL_INPUTS)
        x, y = sg.operands[op.inputs[0]], sg.operands[op.outputs[0]]
        n, h, w, c = _nhwc_dims(x.dimensions, win.nchw)
        _, oh, ow, _ = _nhwc_dims(y.dimensions, win.nchw)
        if win.nchw:
            _layout_passes_fit((n, h, w, c), (n, oh, ow, c))
        pads = win.resolve((h, w), win.filter)
        lo, hi = tighten(activation_range_quantized(win.activation or 0, y.scale, y.zero_point, *qrange(y.type)),
                         clamp)
        return {"x": op.inputs[0], "y": op.outputs[0], "n": n, "h": h, "w": w, "c": c, "oh": oh, "ow": ow, "filter": win.filter,
                    "stride": win.stride, "pads": pads, "lo": lo, "hi": hi, "signed": _signed(x), "nchw": win.nchw}

    def scratch(self, sg, op, cfg) -> list[int]:
        if not _window_spec(sg, op, gnn.POOL_INPUTS).nchw:
            return []
        return [math.prod(sg.operands[op.inputs[0]].dimensions), math.prod(sg.operands[op.outputs[0]].dimensions)]

    def passes(self, ctx, op) -> list:
        s = self.spec(ctx.sg, op, ctx.clamp)
        if not s["nchw"]:
            return pool_passes(ctx, s, self.kind)
        sub, s["x"], s["y"] = _nhwc_scratch(ctx, op)
        return _in_nhwc(ctx, sub, op, (s["n"], s["h"], s["w"], s["c"]), (s["n"], s["oh"], s["ow"], s["c"]),
                        pool_passes(sub, s, self.kind), self.kind)


class MeanLowering(PoolLowering):
    """A TFLite model's quantized MEAN over height and width of an NHWC tensor (a global average
    pool with LiteRT's rescaling, :func:`nnaccel.golden.shape.quantized_mean_or_sum`): the window
    sums of pooling, then one REQ with :func:`~nnaccel.golden.shape.quantized_mean_params`. NNAPI's
    MEAN (a division truncating toward zero) has no vector function and runs on the host."""

    summary = "global average pooling on the vector unit"

    def check_origin(self, sg, op, origin: str) -> None:
        if origin != "tflite":
            raise CannotLower("NNAPI's quantized MEAN truncates its division, which the vector unit does not")

    def spec(self, sg, op, clamp=None):
        _need_quant8(sg, [op.inputs[0], op.outputs[0]])
        _need_known(sg, [op.inputs[0], op.outputs[0]])
        _need_const(sg, op, [1, 2])
        x, y = sg.operands[op.inputs[0]], sg.operands[op.outputs[0]]
        if len(x.dimensions) != 4:
            raise CannotLower("MEAN of a tensor that is not 4-D runs on the host")
        axes = {int(a) % 4 for a in np.asarray(sg.operands[op.inputs[1]].data).reshape(-1)}
        if axes != {1, 2}:
            raise CannotLower("MEAN over axes other than height and width runs on the host")
        n, h, w, c = x.dimensions
        lo, hi = tighten(qrange(y.type), clamp)
        return {"x": op.inputs[0], "y": op.outputs[0], "n": n, "h": h, "w": w, "c": c, "oh": 1, "ow": 1,
                "filter": (h, w), "stride": (1, 1), "pads": (0, 0, 0, 0), "lo": lo, "hi": hi, "signed": _signed(x),
                "nchw": False, "req": dict(zip(("bias", "mult", "shift", "zo"),
                                               (*gshape.quantized_mean_params(h * w, x, y), y.zero_point)))}

    def scratch(self, sg, op, cfg) -> list[int]:
        return []


def pool_passes(ctx, s: dict, kind: str) -> list:
    if kind in ("AVERAGE_POOL_2D", "MEAN"):
        gemm = global_pool_pass(ctx, s, kind)
        if gemm is not None:
            return [gemm]
    cfg, R = ctx.cfg, ctx.cfg.rows
    fh, fw = s["filter"]
    sh, sw = s["stride"]
    top, _bottom, left, _right = s["pads"]
    cb = ceil_div(s["c"], R)
    if s["c"] * max(s["w"], s["ow"]) > MAX16:
        raise CannotLower("a tensor row is wider than the DMA stride field")
    avg = kind in ("AVERAGE_POOL_2D", "MEAN")           # window sums (SUMW), then DIV or REQ
    qmin = qrange(T.TENSOR_QUANT8_ASYMM_SIGNED if s["signed"] else T.TENSOR_QUANT8_ASYMM)[0]
    fill = 0 if avg else qmin
    # window counts per output position, and the parameter blocks (DIV: div, lo, hi; CLAMP: lo, hi)
    counts = gnn.pool_window_counts((s["h"], s["w"]), (fh, fw), (sh, sw), s["pads"], (s["oh"], s["ow"]))
    in_l, stag_l = act_split(cfg)
    # every channel block of a tile in one stage where a tile fits so; else channel groups
    for cg in range(cb, 0, -1):
        best = _pool_tile(s, cg, in_l, stag_l, cfg.lines("ACC"))
        if best is not None:
            break
    else:
        raise CannotLower("no pooling tile fits the scratchpads")
    toh, tow = best
    ih, iw = (toh - 1) * sh + fh, (tow - 1) * sw + fw
    in_lines, out_lines = cg * ih * iw, cg * toh * tow
    in_base, out_base = (0, in_lines), (in_l, in_l + out_lines)
    distinct = sorted({int(v) for v in counts.reshape(-1)})
    if kind == "MEAN":
        plines = VEC_BY_NAME["REQ"].param_lines(cfg.cols)
        blocks = {}
        rows = [param_block(cfg, "REQ", **s["req"], lo=s["lo"], hi=s["hi"])]
    elif avg:
        plines = VEC_BY_NAME["DIV"].param_lines(cfg.cols)
        blocks = {d: k * plines for k, d in enumerate(distinct)}
        rows = [param_block(cfg, "DIV", **dict(zip(("half", "m", "s"), div_params(d))), lo=s["lo"], hi=s["hi"])
                for d in distinct]
    else:
        plines = VEC_BY_NAME["CLAMP"].param_lines(cfg.cols)
        rows = [param_block(cfg, "CLAMP", lo=qmin, hi=255 if not s["signed"] else 127),
                param_block(cfg, "CLAMP", lo=s["lo"], hi=s["hi"])]
    if plines * len(rows) > cfg.lines("VEC") or plines * len(rows) > MAX8:
        raise CannotLower("too many distinct window sizes for the vector parameters")
    pre = load_vec(cfg, ctx.consts, vec_blob(rows), 0, f"{kind}: parameters")
    what = kind
    stages, st = [], 0
    for nb in range(s["n"]):
        for oy0 in range(0, s["oh"], toh):
            th = min(toh, s["oh"] - oy0)
            for ox0, c0 in itertools.product(range(0, s["ow"], tow), range(0, cb, cg)):
                tw = min(tow, s["ow"] - ox0)
                p = st % 2
                iy0, ix0 = oy0 * sh - top, ox0 * sw - left
                loads = list(pre) if st == 0 else []
                xbase = ctx.addr[s["x"]] + nb * s["h"] * s["w"] * s["c"]
                computes, stores = [], []
                bks = range(c0, min(cb, c0 + cg))
                # SUMWs over the channel blocks too where that takes fewer instructions: each block
                # its own ACC lines, one SUMW per tap for all of them
                fold = avg and _fold_plan(len(bks), th, tw, sh, sw, ih, iw, toh * tow, cfg.lines("ACC"))
                for ci in bks:
                    ln = min(R, s["c"] - ci * R)
                    src0 = in_base[p] + (ci - c0) * ih * iw
                    loads += load_box(cfg, "ACT", src0, xbase + ci * R, ix0, iy0, s["w"], s["h"], s["c"],
                                      s["w"] * s["c"], iw, (th - 1) * sh + fh, ln, fill, f"{what}: input tile y{oy0} x{ox0} c{ci * R}")
                    dst = out_base[p] + (ci - c0) * toh * tow
                    if not fold:
                        for ky in range(fh):
                            for kx in range(fw):
                                first = ky == 0 and kx == 0
                                for r0, nr in _row_groups(th, sh * iw):
                                    src = src0 + ky * iw + kx + r0 * sh * iw
                                    geo = {"nx": tw, "ny": nr, "src_xs": sw, "src_ys": sh * iw if nr > 1 else 0,
                                           "dst_xs": 1, "dst_ys": tw, "signed": s["signed"], "src": src}
                                    if avg:
                                        computes.append(Ins("VEC", dict(func="SUMW", accumulate=int(not first),
                                                                        dst=r0 * tw, **geo),
                                                            f"{what}: sum tap ({ky},{kx}) c{ci * R}"))
                                    elif first:
                                        computes.append(Ins("VEC", dict(func="CLAMP", dst=dst + r0 * tw, param=0, **geo),
                                                            f"{what}: first tap c{ci * R}"))
                                    else:
                                        computes.append(Ins("VEC", dict(func="MAX", dst=dst + r0 * tw, src2=dst + r0 * tw,
                                                                        **geo), f"{what}: max tap ({ky},{kx}) c{ci * R}"))
                        if kind == "MEAN":
                            computes.append(Ins("VEC", {"func": "REQ", "signed": 0, "dst": dst, "src": 0, "param": 0,
                                                        "nx": tw, "ny": th, "dst_xs": 1, "dst_ys": tw, "src_xs": 1,
                                                        "src_ys": tw}, f"{what}: rescaled mean c{ci * R}"))
                        elif avg:
                            computes += _div_regions(counts[oy0:oy0 + th, ox0:ox0 + tw], blocks, dst, tw, what, ci * R)
                        else:
                            computes.append(Ins("VEC", {"func": "CLAMP", "signed": s["signed"], "dst": dst, "src": dst, "param": plines,
                                                            "nx": tw, "ny": th, "dst_xs": 1, "dst_ys": tw, "src_xs": 1, "src_ys": tw},
                                                f"{what}: fused activation c{ci * R}"))
                    ext = ctx.addr[s["y"]] + ((nb * s["oh"] + oy0) * s["ow"] + ox0) * s["c"] + ci * R
                    stores.append(Ins("STORE", {"sp": "ACT", "len": ln, "sp_addr": dst, "ext_addr": ext, "x_size": tw, "y_size": th,
                                                    "x_stride": s["c"], "y_stride": s["ow"] * s["c"]},
                                      f"{what}: output tile y{oy0} x{ox0} c{ci * R}"))
                if fold:
                    computes += _folded_ops(fold, s, kind, counts[oy0:oy0 + th, ox0:ox0 + tw], blocks, in_base[p],
                                            out_base[p], iw, toh * tow, len(bks), what, c0 * R)
                # MAX keeps the running maximum in the output buffer (its src2), which the STORE of
                # the previous tile reads: one read port, so max-pooling tiles run one at a time
                stages.append((loads, computes, stores, not avg))
                st += 1
    return [stages]


def _pool_tile(s: dict, cg: int, in_l: int, stag_l: int, acc_lines: int) -> tuple | None:
    """``(rows, columns)`` of the largest output tile whose input window and output of ``cg``
    channel blocks fit two ACT slots each (double buffering), or None."""
    fh, fw = s["filter"]
    sh, sw = s["stride"]
    best = None
    for tow in range(min(s["ow"], MAX8), 0, -1):
        iw = (tow - 1) * sw + fw
        if iw > MAX8 or sw > MAX8:
            continue
        toh = min(s["oh"], MAX8, acc_lines // tow)
        while toh > 0:
            ih = (toh - 1) * sh + fh
            if ih <= MAX8 and 2 * cg * ih * iw <= in_l and 2 * cg * toh * tow <= stag_l:
                break
            toh -= 1
        if toh and (best is None or toh * tow > best[0] * best[1]):
            best = (toh, tow)
    return best


def _div_regions(counts: np.ndarray, blocks: dict, dst: int, tw: int, what: str, c0: int, nbk: int = 1,
                 bacc: int = 0) -> list[Ins]:
    """DIV instructions over rectangles of equal window count (counts = row count x column count,
    so rows with equal row profiles and columns with equal column profiles form rectangles), for
    ``nbk`` channel blocks ``bacc`` lines apart in ACC and ACT (a one-row rectangle of every block
    in one instruction)."""
    out = []
    row_keys = [tuple(r) for r in counts]
    col_keys = [tuple(c) for c in counts.T]
    rr = runs(np.array([row_keys.index(k) for k in row_keys]))
    cr = runs(np.array([col_keys.index(k) for k in col_keys]))
    for y0, y1, _ in rr:
        for x0, x1, _ in cr:
            d = int(counts[y0, x0])
            one = y1 - y0 == 1 and nbk > 1 and bacc <= MAX8
            for b in range(1 if one else nbk):
                line = b * bacc + y0 * tw + x0
                out.append(Ins("VEC", {"func": "DIV", "signed": 0, "dst": dst + line, "src": line, "param": blocks[d],
                                       "nx": x1 - x0, "ny": nbk if one else y1 - y0, "dst_xs": 1,
                                       "dst_ys": bacc if one else tw, "src_xs": 1, "src_ys": bacc if one else tw},
                               f"{what}: average over {d} pixels c{c0}" + (f" .. {nbk} blocks" if one else "")))
    return out


def _fold_plan(nbk: int, th: int, tw: int, sh: int, sw: int, ih: int, iw: int, bacc: int, acc_lines: int):
    """How one SUMW per tap covers the output tiles of ``nbk`` channel blocks (block ``b``'s
    input tile ``ih * iw`` ACT lines after block ``b - 1``'s, its sums ``bacc`` ACC lines after):
    ``(inner, outer, rest)`` loops, each ``(count, ACT stride, ACC stride)``, the instructions'
    x and y and a loop of instructions; None where it takes no fewer instructions than one
    block at a time (:func:`_row_groups`) or the blocks' sums do not fit ACC together."""
    if nbk < 2 or nbk * bacc > acc_lines:
        return None
    dims = [(tw, sw, 1), (th, sh * iw, tw), (nbk, ih * iw, bacc)]
    best, plain = None, nbk * len(_row_groups(th, sh * iw))
    for a, b in itertools.permutations(range(3), 2):
        (inner, outer), rest = (dims[a], dims[b]), dims[3 - a - b]
        if any(n > MAX8 or (n > 1 and max(si, so) > MAX8) for n, si, so in (inner, outer)):
            continue
        if rest[0] < plain and (best is None or rest[0] < best[2][0]):
            best = (inner, outer, rest)
    return best


def _folded_ops(plan, s: dict, kind: str, counts: np.ndarray, blocks: dict, in0: int, out0: int, iw: int,
                bacc: int, nbk: int, what: str, c0: int) -> list[Ins]:
    """The window sums of every channel block of a tile as :func:`_fold_plan` lays them out, then
    their DIV (AVERAGE_POOL_2D) or REQ (MEAN)."""
    (nx, sxs, dxs), (ny, sys_, dys), (nr, srs, drs) = plan
    out = []
    for ky, kx in itertools.product(range(s["filter"][0]), range(s["filter"][1])):
        for r in range(nr):
            out.append(Ins("VEC", {"func": "SUMW", "accumulate": int(ky > 0 or kx > 0), "signed": s["signed"],
                                   "dst": r * drs, "src": in0 + ky * iw + kx + r * srs, "nx": nx, "ny": ny,
                                   "src_xs": sxs if nx > 1 else 0, "src_ys": sys_ if ny > 1 else 0,
                                   "dst_xs": dxs if nx > 1 else 0, "dst_ys": dys if ny > 1 else 0},
                           f"{what}: sum tap ({ky},{kx}) c{c0} ({nx}x{ny} lines)"))
    if kind != "MEAN":
        return out + _div_regions(counts, blocks, out0, counts.shape[1], what, c0, nbk, bacc)
    # MEAN: one output per block (th = tw = 1), its sums ACC lines 0, bacc, 2 * bacc ...
    return out + [Ins("VEC", {"func": "REQ", "signed": 0, "dst": out0, "src": 0, "param": 0, "nx": 1, "ny": nbk,
                              "dst_xs": 1, "dst_ys": bacc if nbk > 1 else 0, "src_xs": 1,
                              "src_ys": bacc if nbk > 1 else 0}, f"{what}: rescaled mean c{c0} .. {nbk} blocks")]


# ====================================================================== global pooling on the array
def global_pool_pass(ctx, s: dict, kind: str) -> RawPass | None:
    """A window over the whole image (one output pixel, no padding, batch 1) as GEMMs: the array
    sums over its rows, so channel block ``b``'s pixels are its weight tiles (WGT line ``k`` of
    tile ``q`` = pixel ``q * rows + k``, the block's ``rows`` channels along the columns) and one
    activation line of ones streams per tile: ACC line ``b`` gets every pixel's sum per channel
    (the last tile's line has ones only for the pixels there). One GEMM per block (``kt`` over the
    pixel tiles, several accumulating where there are more than ``MAX_KTILES``), the blocks through
    a ring of WGT slots, then one DIV (AVERAGE_POOL_2D) or REQ (MEAN) over the blocks' sums and the
    STORE. Each block's pixels are one LOAD, where one SUMW per pixel takes a fetch slot each.
    Returns None where it does not apply (the vector-unit schedule then runs)."""
    cfg, R = ctx.cfg, ctx.cfg.rows
    h, w, c = s["h"], s["w"], s["c"]
    pixels, cb = h * w, ceil_div(c, R)
    if (s["n"], s["oh"], s["ow"]) != (1, 1, 1) or any(s["pads"]) or tuple(s["filter"]) != (h, w):
        return None
    if R != cfg.cols or w > MAX8 or h > MAX8 or w * c > MAX16 or cb > min(MAX8, act_split(cfg)[1]):
        return None
    pt = ceil_div(pixels, R)
    slot = pt * R
    nslots = min(cb, cfg.lines("WGT") // slot)
    ones = act_split(cfg)[0] - pt     # below the staging bank, away from the lines layers start at
    if nslots < 1 or ones < 0 or cb > cfg.lines("ACC"):
        return None
    what = kind
    if kind == "MEAN":
        block = param_block(cfg, "REQ", **s["req"], lo=s["lo"], hi=s["hi"])
    else:
        block = param_block(cfg, "DIV", **dict(zip(("half", "m", "s"), div_params(pixels))), lo=s["lo"], hi=s["hi"])
    pattern = np.ones((pt, R), np.uint8)
    pattern.reshape(-1)[pixels:] = 0
    prefetch = [Ins("LOAD", {"sp": "ACT", "len": R, "sp_addr": ones, "ext_addr": ctx.consts.add(pattern.tobytes()),
                             "x_size": pt, "y_size": 1, "x_stride": R, "y_stride": 0}, f"{what}: lines of ones")]
    param = cfg.lines("VEC") - VEC_BY_NAME["DIV" if kind != "MEAN" else "REQ"].param_lines(cfg.cols)
    prefetch += load_vec(cfg, ctx.consts, vec_blob([block]), param, f"{what}: parameters")
    xa = ctx.addr[s["x"]]
    loads, gemms, finishes = [], [], []
    for b in range(cb):
        wbase = (b % nslots) * slot
        ld = Ins("LOAD", {"sp": "WGT", "len": min(R, c - b * R), "sp_addr": wbase, "ext_addr": xa + b * R,
                          "x_size": w, "y_size": h, "x_stride": c, "y_stride": w * c, "fill": 0},
                 f"{what}: pixels of c{b * R}.. as weight tiles")
        if b >= nslots:
            token(ld, C2L, "pop")
        token(ld, L2C, "push")
        loads.append([ld])
        step = []
        for t0 in range(0, pt, MAX_KTILES):
            k = min(MAX_KTILES, pt - t0)
            step.append(Ins("GEMM", {"accumulate": int(t0 > 0), "preload": 1, "kt": k - 1, "act": ones + t0,
                                     "acc": b, "wgt": wbase + t0 * R, "nx": 1, "ny": 1, "act_xs": 1, "act_ys": 1,
                                     "acc_xs": 1, "acc_ys": 1, "act_signed": 0, "wgt_signed": s["signed"],
                                     "za": 0, "zw": 0}, f"{what}: sum of c{b * R}.. over pixels {t0 * R}.."))
        token(step[0], L2C, "pop")
        token(step[-1], C2L, "push")
        gemms.append(step)
        finishes.append([])
    token(gemms[-1][-1], C2V, "push")
    stag = act_split(cfg)[0]
    func = "REQ" if kind == "MEAN" else "DIV"
    v = Ins("VEC", {"func": func, "signed": 0, "dst": stag, "src": 0, "param": param, "nx": cb, "ny": 1,
                    "dst_xs": 1, "dst_ys": cb, "src_xs": 1, "src_ys": cb}, f"{what}: {func} of the sums")
    token(v, C2V, "pop")
    token(v, V2S, "push")
    full = c // R
    stores = []
    ya = ctx.addr[s["y"]]
    if full:
        stores.append(Ins("STORE", {"sp": "ACT", "len": R, "sp_addr": stag, "ext_addr": ya, "x_size": full,
                                    "y_size": 1, "x_stride": R, "y_stride": 0}, f"{what}: output"))
    if full < cb:
        stores.append(Ins("STORE", {"sp": "ACT", "len": c - full * R, "sp_addr": stag + full, "ext_addr": ya + full * R,
                                    "x_size": 1, "y_size": 1, "x_stride": R, "y_stride": 0},
                          f"{what}: output c{full * R}.."))
    token(stores[0], V2S, "pop")
    token(stores[-1], S2V, "push")   # the barrier after the pass waits for it
    finishes[-1] = [v] + stores
    return skewed(RawPass(prefetch=prefetch), loads, gemms, finishes)
