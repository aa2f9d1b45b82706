"""BATCH_MATMUL on the systolic array."""

from __future__ import annotations

import math

from nnaccel.golden import nn as gnn
from nnaccel.golden.common import qrange
from nnaccel.program import param_block
from nnaccel.quant import activation_range_quantized

from ..emit import Ins
from .base import (
    MAX8,
    MAX16,
    CannotLower,
    Lowering,
    _byte,
    _need_const,
    _need_known,
    _need_quant8,
    _scalar,
    _signed,
    acc_slot,
    act_split,
    ceil_div,
    load_vec,
    vec_blob,
)
from .dma import transpose_stages
from .pointwise import _ktile_groups


class BatchMatmulLowering(Lowering):
    """BATCH_MATMUL (quant8 signed): per batch, the right operand's rows are loaded straight into
    WGT tiles (``tile[k][n] = Y[k0 + k][n0 + n]``), the left operand's rows into ACT, one GEMM
    per (K block, N block), REQ with the golden model's multiplier. An adjoint operand
    (``adj_x`` / ``adj_y``) is first transposed into a scratch copy by byte-gather DMA passes."""

    summary = "matrix products on the systolic array"

    def check(self, sg, op) -> None:
        self.spec(sg, op)

    def spec(self, sg, op):
        _need_quant8(sg, [op.inputs[0], op.inputs[1], op.outputs[0]])
        _need_known(sg, [op.inputs[0], op.inputs[1], op.outputs[0]])
        _need_const(sg, op, [2, 3])
        adj_x, adj_y = bool(_scalar(sg, op, 2, False)), bool(_scalar(sg, op, 3, False))
        x, y, o = (sg.operands[i] for i in (op.inputs[0], op.inputs[1], op.outputs[0]))
        if adj_x:
            *batch, k, m = x.dimensions
        else:
            *batch, m, k = x.dimensions
        n = y.dimensions[-2] if adj_y else y.dimensions[-1]
        if max(k, n) > MAX16 or ((adj_x or adj_y) and m > MAX16):
            raise CannotLower("a row is wider than the DMA stride field")
        mult, shift = gnn.conv_multipliers(x, y, o)
        lo, hi = activation_range_quantized(0, o.scale, o.zero_point, *qrange(o.type))
        return {"batch": math.prod(batch), "m": m, "k": k, "n": n, "zx": x.zero_point, "zy": y.zero_point, "signed": _signed(x),
                "adj_x": adj_x, "adj_y": adj_y,
                    "params": {"bias": 0, "mult": int(mult), "shift": int(shift), "zo": o.zero_point, "lo": lo, "hi": hi}}

    def tensors(self, sg, op) -> list[int]:
        return [*dict.fromkeys(op.inputs[:2]), op.outputs[0]]

    def scratch(self, sg, op, cfg) -> list[int]:
        s = self.spec(sg, op)
        return ([s["batch"] * s["m"] * s["k"]] if s["adj_x"] else []) + ([s["batch"] * s["k"] * s["n"]] if s["adj_y"] else [])

    def passes(self, ctx, op) -> list:
        cfg, R = ctx.cfg, ctx.cfg.rows
        s = self.spec(ctx.sg, op)
        xa, ya, oa = (ctx.addr[i] for i in (op.inputs[0], op.inputs[1], op.outputs[0]))
        pre_passes, scratch = [], list(ctx.scratch)
        if len(scratch) < int(s["adj_x"]) + int(s["adj_y"]):
            raise CannotLower("no scratch memory for the transposed operands")
        if s["adj_x"]:  # [batch, k, m] -> [batch, m, k]
            pre_passes.append(transpose_stages(cfg, xa, scratch[0], s["batch"], s["k"], s["m"],
                                               "BATCH_MATMUL: adjoint left operand transposed"))
            xa = scratch.pop(0)
        if s["adj_y"]:  # [batch, n, k] -> [batch, k, n]
            pre_passes.append(transpose_stages(cfg, ya, scratch[0], s["batch"], s["n"], s["k"],
                                               "BATCH_MATMUL: adjoint right operand transposed"))
            ya = scratch.pop(0)
        m, k, n = s["m"], s["k"], s["n"]
        cb, ob = ceil_div(k, R), ceil_div(n, R)
        if 2 * cb * ob * R > cfg.lines("WGT"):
            raise CannotLower("the right operand's tiles do not fit the WGT scratchpad twice")
        in_l, stag_l = act_split(cfg)
        mt = min(m, MAX8, cfg.lines("ACC") // 2, in_l // (2 * cb), stag_l // (2 * ob))
        if mt < 1:
            raise CannotLower("no row block fits the scratchpads")
        pre = load_vec(cfg, ctx.consts, vec_blob([param_block(cfg, "REQ", **s["params"])]), 0,
                       "BATCH_MATMUL: requantization parameters")
        in_lines, out_lines = cb * mt, ob * mt
        stages = []
        for b in range(s["batch"]):
            for m0 in range(0, m, mt):
                rows = min(mt, m - m0)
                p = len(stages) % 2
                act0, out0, wgt0 = p * in_lines, in_l + p * out_lines, p * cb * ob * R
                loads = list(pre) if not stages else []
                for kb in range(cb):
                    ln = min(R, k - kb * R)
                    loads.append(Ins("LOAD", {"sp": "ACT", "len": ln, "sp_addr": act0 + kb * mt,
                                              "ext_addr": xa + (b * m + m0) * k + kb * R, "x_size": rows, "y_size": 1,
                                              "x_stride": k, "y_stride": 0, "fill": _byte(s["zx"])},
                                     f"BATCH_MATMUL: left rows {m0}.. batch {b} k{kb * R}"))
                    for nb in range(ob):
                        loads.append(Ins("LOAD", {"sp": "WGT", "len": min(R, n - nb * R),
                                                  "sp_addr": wgt0 + (nb * cb + kb) * R,
                                                  "ext_addr": ya + (b * k + kb * R) * n + nb * R, "x_size": ln,
                                                  "y_size": 1, "x_stride": n, "y_stride": 0, "fill": _byte(s["zy"])},
                                         f"BATCH_MATMUL: right tile batch {b} k{kb * R} n{nb * R}"))
                computes, stores = [], []
                for nb in range(ob):
                    # the K blocks of an output block: consecutive WGT tiles and ACT blocks of
                    # ``mt`` lines (the ``kt`` tile stride ``ny * act_ys``), up to MAX_KTILES per GEMM
                    acc = acc_slot(cfg, mt, nb % 2)
                    for k0, nk in _ktile_groups(list(range(cb))):
                        computes.append(Ins("GEMM", {"accumulate": int(k0 > 0), "preload": 1, "kt": nk - 1,
                                                     "act_signed": s["signed"], "wgt_signed": s["signed"],
                                                     "act": act0 + k0 * mt, "acc": acc, "wgt": wgt0 + (nb * cb + k0) * R,
                                                     "za": _byte(s["zx"]), "zw": _byte(s["zy"]), "nx": rows, "ny": 1,
                                                     "act_xs": 1, "act_ys": mt, "acc_xs": 1},
                                            f"BATCH_MATMUL: n{nb * R} k{k0 * R}..{(k0 + nk) * R - 1}"))
                    dst = out0 + nb * mt
                    computes.append(Ins("VEC", {"func": "REQ", "dst": dst, "src": acc, "param": 0, "nx": rows, "ny": 1,
                                                "dst_xs": 1, "src_xs": 1}, f"BATCH_MATMUL: requantize n{nb * R}"))
                    stores.append(Ins("STORE", {"sp": "ACT", "len": min(R, n - nb * R), "sp_addr": dst,
                                                "ext_addr": oa + (b * m + m0) * n + nb * R, "x_size": rows, "y_size": 1,
                                                "x_stride": n, "y_stride": 0}, f"BATCH_MATMUL: output n{nb * R}"))
                stages.append((loads, computes, stores))
        return [*pre_passes, stages]
