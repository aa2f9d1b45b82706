"""The pointwise schedule of 1x1 convolutions and fully connected layers."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from nnaccel.hwconfig import HwConfig
from nnaccel.isa.table import MAX_KTILES
from nnaccel.program import param_block

from ..emit import C2L, C2V, L2C, S2V, V2C, V2S, Ins, RawPass, nop, token
from .base import (
    MAX8,
    MAX16,
    REQ_LINES,
    LowerContext,
    _byte,
    _req_cycles,
    acc_slot,
    act_split,
    ceil_div,
    load_vec,
    vec_blob,
)

if TYPE_CHECKING:
    from .conv import ConvSpec

# ================================================================================ pointwise
#: Pointwise schedule: loads run this many steps ahead of the GEMMs (the WGT slots of streamed
#: weights), accumulator and staging slots, parameter slots of streamed REQ parameters
#: (>= PW_AHEAD + PW_ACC: a parameter slot is reloaded only after the REQ that read it).
PW_AHEAD, PW_ACC, PW_STAGING = 2, 2, 2
PW_PARAMS = PW_AHEAD + PW_ACC


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


def _pixel_blocks(m: int, nx: int, ny: int) -> list[tuple[int, int, int]]:
    """Blocks ``(first row, nx, ny)`` of ``nx * ny`` consecutive rows covering ``m`` rows."""
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


def _pointwise_plan(cfg: HwConfig, s: ConvSpec, groups: list, resident_w: bool, resident_p: bool):
    """``(estimate, nx, ny)``: the pixel block shape with the lowest estimated cycles (per block
    the largest of GEMM, vector, load and store time, plus the pipeline's fill and drain), or
    None when no block fits the scratchpads and fields."""
    R, C = cfg.rows, cfg.cols
    m = s.n * s.h * s.w
    k_tiles, n_tiles = ceil_div(s.c, R), ceil_div(s.o, C)
    lat, beats = cfg.ext_latency, ceil_div(R, cfg.dma_bytes_per_cycle)
    pbeats = ceil_div(4 * C, cfg.dma_bytes_per_cycle)
    in_l, stag_l = act_split(cfg)
    p_max = cfg.lines("ACC") // PW_ACC
    nxs = {min(m, MAX8)} | {ceil_div(m, k) for k in range(1, min(m, 64) + 1)}
    nxs |= {d for d in range(1, min(m, MAX8) + 1) if m % d == 0}
    wl = sum(0 if resident_w else lat + k * R * beats for gs in groups for _, k in gs)
    pl = 0 if resident_p else n_tiles * (lat + REQ_LINES * pbeats)
    best = None
    for nx in sorted(x for x in nxs if 0 < x <= MAX8):
        ny = min(MAX8, p_max // nx, ceil_div(m, nx))
        while ny >= 1:
            p = nx * ny
            ins = 1 if len(_pixel_blocks(m, nx, ny)) == 1 else 2
            if ins * k_tiles * p <= in_l and PW_STAGING * p <= stag_l:
                break
            ny -= 1
        if ny < 1 or (ny > 1 and max(nx * s.c, nx * s.o) > MAX16):
            continue
        total = fill = 0
        for _, bx, by in _pixel_blocks(m, nx, ny):
            p = bx * by
            comp = sum(R + k * max(p, R) + R + C for gs in groups for _, k in gs)
            vec = n_tiles * (REQ_LINES + p * ceil_div(C, cfg.vector_lanes) * _req_cycles(cfg) + cfg.vector_latency)
            store = n_tiles * (lat + p * beats)
            inp = (2 * lat if by == 1 else k_tiles * lat) + k_tiles * p * beats
            total += max(comp, vec, store, inp + wl + pl)
            fill = fill or inp + (wl + pl) // max(1, sum(len(gs) for gs in groups))
        last = _pixel_blocks(m, nx, ny)[-1]
        est = total + fill + 2 * (lat + last[1] * last[2] * beats)
        if best is None or est < best[0]:
            best = (est, nx, ny)
    return best


def pointwise_pass(ctx: LowerContext, s: ConvSpec, tiles: np.ndarray, per_block: list) -> RawPass | None:
    """The pointwise schedule of a 1x1 convolution / fully connected layer as one pre-tokenized
    pass (``docs/compiler.md``): the pixels in blocks of ``nx x ny`` rows, each block's input
    loaded K-tile-major (K tile ``t`` at ``t * nx * ny``), then per (block, output tile) the GEMMs
    of its live K tiles (up to ``MAX_KTILES`` per GEMM, ``kt``) into one of two ACC slots, the REQ
    on the vector queue into one of two staging slots while the next GEMMs run, and the STORE.
    Returns None when no block fits."""
    cfg, R, C = ctx.cfg, ctx.cfg.rows, ctx.cfg.cols
    if R != C or max(s.c, s.o) > MAX16 or cfg.banks("ACC") < 2:
        # the DMA line stride is the channel count; the two ACC slots need two banks (the array
        # accumulating into one while the vector unit reads the other)
        return None
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
    plan = _pointwise_plan(cfg, s, groups, resident_w, resident_p)
    if plan is None:
        return None
    return _Pointwise(ctx, s, tiles, groups, plan[1], plan[2], resident_w, resident_p).emit()


class _Pointwise:
    """The buffers, constants and queues of one pointwise pass (see :func:`pointwise_pass`)."""

    def __init__(self, ctx, s, tiles, groups, nx, ny, resident_w, resident_p):
        cfg = ctx.cfg
        self.ctx, self.cfg, self.s, self.groups = ctx, cfg, s, groups
        self.R, self.C = cfg.rows, cfg.cols
        self.resident_w, self.resident_p = resident_w, resident_p
        self.ntiles = sum(k for gs in groups for _, k in gs)
        self.gmax = max(k for gs in groups for _, k in gs)
        self.k_tiles, self.n_tiles = ceil_div(s.c, self.R), ceil_div(s.o, self.C)
        self.pixels_max = nx * ny
        self.blocks = _pixel_blocks(s.n * s.h * s.w, nx, ny)
        self.n_inputs = 1 if len(self.blocks) == 1 else 2
        self.in_base = [k * self.k_tiles * self.pixels_max for k in range(self.n_inputs)]
        self.stag_base = [act_split(cfg)[0] + k * self.pixels_max for k in range(PW_STAGING)]
        self.acc_base = [acc_slot(cfg, self.pixels_max, k) for k in range(PW_ACC)]
        # constants: weight tiles in (output tile, group) order; REQ parameter blocks
        order = [(j, c0 + t) for j in range(self.n_tiles) for c0, k in groups[j] for t in range(k)]
        self.waddr = ctx.consts.add(b"".join(tiles[j][(0, 0, ci)].tobytes() for j, ci in order))
        self.group_pos, pos = {}, 0
        for j in range(self.n_tiles):
            for c0, k in groups[j]:
                self.group_pos[(j, c0)] = pos
                pos += k
        self.pblocks = []
        for j in range(self.n_tiles):
            sl = slice(j * self.C, min(s.o, j * self.C + self.C))
            self.pblocks.append(param_block(cfg, "REQ", **{k: (v[sl] if np.ndim(v) else v)
                                                            for k, v in s.params.items()}))

    def wgt_load(self, sp_addr: int, first: int, n: int, comment: str) -> list[Ins]:
        R, out = self.R, []
        for k in range(0, n, MAX8):
            nt = min(MAX8, n - k)
            out.append(Ins("LOAD", {"sp": "WGT", "len": R, "sp_addr": sp_addr + k * R,
                                    "ext_addr": self.waddr + (first + k) * R * R, "x_size": R, "y_size": nt,
                                    "x_stride": R, "y_stride": R * R}, comment))
        return out

    def input_loads(self, b: int) -> list:
        """The LOADs of block ``b``'s input, as pieces ``(first K tile, end K tile, LOADs)``."""
        s, R = self.s, self.R
        m0, bx, by = self.blocks[b]
        base, p = self.in_base[b % self.n_inputs], bx * by
        ext = self.ctx.addr[s.x] + m0 * s.c
        full = s.c // R
        pieces = []
        if by == 1 and full > 1:
            split = _even_split(full, max(min(full, 4), ceil_div(full, MAX8)))  # y_size is 8 bits
            for f0, n in zip(np.cumsum([0] + split)[:-1], split):
                f0 = int(f0)
                pieces.append((f0, f0 + n, [Ins("LOAD", {"sp": "ACT", "len": R, "sp_addr": base + f0 * p,
                                            "ext_addr": ext + f0 * R, "x_size": bx, "y_size": n, "x_stride": s.c,
                                            "y_stride": R, "fill": _byte(s.zx)},
                                   f"{s.what}: input rows {m0}..{m0 + p - 1} k{f0 * R}..{(f0 + n) * R - 1}")]))
            first = full
        else:
            first = 0
        for t in range(first, self.k_tiles):
            pieces.append((t, t + 1, [Ins("LOAD", {"sp": "ACT", "len": min(R, s.c - t * R), "sp_addr": base + t * p,
                                        "ext_addr": ext + t * R, "x_size": bx, "y_size": by, "x_stride": s.c,
                                        "y_stride": bx * s.c if by > 1 else 0, "fill": _byte(s.zx)},
                               f"{s.what}: input rows {m0}..{m0 + p - 1} k{t * R}")]))
        return pieces

    def spread_inputs(self, steps: list) -> tuple[dict, dict]:
        """Where each block's input LOADs go: ``(lead, trail)`` by step, before or after the
        step's token. Block 0: each piece before the token of the first step whose GEMM reads one
        of its tiles; block ``b``: spread over the load batches of the steps after the first step
        of block ``b - 1`` (block ``b - 2``, which used the same slot, is then done), before the
        token of the step that needs them at the latest."""
        groups = self.groups
        first_of_block = {}
        for i, (b, _, _) in enumerate(steps):
            first_of_block.setdefault(b, i)
        lead: dict[int, list[Ins]] = {}
        trail: dict[int, list[Ins]] = {}
        for t0, t1, pc in self.input_loads(0):
            first = next((i for i, (b, j, gi) in enumerate(steps) if b == 0 and
                          groups[j][gi][0] < t1 and t0 < groups[j][gi][0] + groups[j][gi][1]), 0)
            lead.setdefault(first, []).extend(pc)
        for b in range(1, len(self.blocks)):
            k0, k1 = first_of_block[b - 1] + 1, first_of_block[b]
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
        if self.resident_w:
            pre += self.wgt_load(0, 0, self.ntiles, f"{what}: weight tiles (resident)")
        if self.resident_p:
            pre += load_vec(cfg, self.ctx.consts, vec_blob(self.pblocks), 0, f"{what}: requantization parameters")
        loads, gemms, vecs, stores = [], [], [], []
        acc_n = -1   # accumulator tiles used so far (one per (block, output tile))
        for i, (b, j, gi) in enumerate(steps):
            if gi == 0:
                acc_n += 1
            own, pslot, wbase = self.step_loads(i, j, gi, acc_n, pre if i == 0 else [], lead.get(i, []))
            loads.append(own + trail.get(i, []))
            g, v, st = self.step_compute(b, j, gi, acc_n, pslot, wbase)
            gemms.append(g)
            vecs.append(v)
            stores.append(st)
        out = RawPass()
        n = len(steps)
        for t in range(n + 2):
            if t < n:
                out += loads[t]
            if 0 <= t - 1 < n:
                out.append(gemms[t - 1])
            if 0 <= t - 2 < n:
                out += vecs[t - 2] + stores[t - 2]
        return out

    def step_loads(self, i, j, gi, acc_n, pre, lead):
        """Step ``i``'s load batch (tokens set), its REQ parameter slot and its WGT base."""
        R, C, what = self.R, self.C, self.s.what
        c0, k = self.groups[j][gi]
        own = list(pre)
        if self.resident_w:
            wbase = self.group_pos[(j, c0)] * R
        else:
            wbase = (i % PW_AHEAD) * self.gmax * R
            own += self.wgt_load(wbase, self.group_pos[(j, c0)], k, f"{what}: weight tiles out c{j * C} k{c0 * R}..")
        pslot = j * REQ_LINES if self.resident_p else (acc_n % PW_PARAMS) * REQ_LINES
        if not self.resident_p and gi == 0:
            own += load_vec(self.cfg, self.ctx.consts, vec_blob([self.pblocks[j]]), pslot,
                            f"{what}: requantization parameters out c{j * C}")
        own += lead
        own = own or [nop("load", f"{what}: nothing to load for step {i}")]
        if i >= PW_AHEAD:
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
        g = Ins("GEMM", {"accumulate": int(gi > 0), "preload": 1, "kt": k - 1,
                         "act": self.in_base[b % self.n_inputs] + c0 * p, "acc": acc, "wgt": wbase, "nx": bx,
                         "ny": by, "act_xs": 1, "act_ys": bx, "acc_xs": 1, "acc_ys": bx,
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
        if acc_n >= PW_STAGING:
            token(v, S2V, "pop")
        token(v, V2S, "push")
        token(v, V2C, "push")
        st = Ins("STORE", {"sp": "ACT", "len": min(C, s.o - j * C), "sp_addr": stag,
                           "ext_addr": self.ctx.addr[s.y] + m0 * s.o + j * C, "x_size": bx, "y_size": by,
                           "x_stride": s.o, "y_stride": bx * s.o if by > 1 else 0}, f"{what}: output rows {m0}.. c{j * C}")
        token(st, V2S, "pop")
        token(st, S2V, "push")
        return g, [v], [st]
