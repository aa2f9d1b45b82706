"""The stacked-taps schedule of a dense KxK convolution (``docs/compiler.md``): the output in
blocks of whole rows; a block's K tiles are its (tap, input-channel block) windows, LOADed one
after another into ACT (tile ``(ky, kx, ci)``: the input pixels under tap ``(ky, kx)`` of the
block's output pixels, a strided LOAD box with the padding), so that one GEMM chains up to
``MAX_KTILES`` of them (``kt``) as the pointwise schedule chains input channels. The input is read
once per tap instead of once, and the array's weight load, fill and drain are paid once per chain
instead of once per (tap, input block): the better schedule for small images of many channels."""

from __future__ import annotations

from dataclasses import dataclass

from nnaccel.hwconfig import HwConfig
from nnaccel.isa.cycles import gemm_cycles, vec_cycles
from nnaccel.isa.table import MAX_KTILES, VEC_BY_NAME
from nnaccel.program import param_block

from ..emit import C2L, C2V, L2C, S2V, V2C, V2S, Ins, RawPass, nop, token
from .base import (
    MAX8,
    MAX16,
    REQ_LINES,
    _byte,
    acc_slot,
    acc_tiles_fit,
    act_split,
    ceil_div,
    load_vec,
    residual_add,
    vec_blob,
    wgt_tile_loads,
)
from .dma import load_box


@dataclass
class StackPlan:
    """Output blocks of ``th`` full rows; ``chunks``: the items (K tiles, or with ``rows`` row
    windows, see :class:`_Items`) whose weights one step uses; ``resident``: all the weights stay
    in WGT for the whole pass."""

    estimate: int
    th: int
    chunks: list
    resident: bool
    rows: bool = False


@dataclass
class _Items:
    """What a row block LOADs: ``count`` items of ``lines`` ACT lines each. Taps (``rows``
    false): item ``t`` is the K tile of tap ``(ky, kx)`` and input block ``ci``, ``t = (ky * fw +
    kx) * cb + ci``, and a GEMM chains up to ``MAX_KTILES`` consecutive items. Rows (stride 1 in
    the rows): item ``w = kx * cb + ci`` is the window of ``th + fh - 1`` input rows under the
    taps ``(*, kx)``, one GEMM per item over the block as one line of ``th x ow`` pixels chaining
    its ``fh`` taps (K tile ``ky`` starts ``ky x ow`` lines into the window): the input is read
    ``fw`` times instead of ``fh x fw``. ``taps``: weight tiles per item."""

    rows: bool
    count: int
    lines: int
    taps: int


def _item_line(items: _Items, t: int, th: int, ow: int) -> int:
    """First ACT line of item ``t`` in its input slot for a block of ``th`` rows: K tiles follow
    one another at ``th x ow`` lines (the stride a GEMM chains them at), row windows at the slot's
    window size."""
    return t * (items.lines if items.rows else th * ow)


def _items(cfg: HwConfig, s, th: int, rows: bool) -> _Items:
    fh, fw = s.weff.shape[:2]
    cb = ceil_div(s.c, cfg.rows)
    if rows:
        return _Items(True, fw * cb, (th + fh - 1) * s.ow, fh)
    return _Items(False, fh * fw * cb, th * s.ow, 1)


def stack_applies(cfg: HwConfig, s) -> bool:
    """A CONV_2D of more than one tap, dilation 1, whose output rows fit a GEMM's 8-bit fields and
    whose strided input rows fit the DMA stride fields."""
    fh, fw = s.weff.shape[:2]
    sh, sw = s.stride
    return (s.what == "CONV_2D" and fh * fw > 1 and s.dilation == (1, 1) and s.ow <= MAX8
            and cfg.rows == cfg.cols and cfg.banks("ACC") >= 2 and sh * s.w * s.c <= MAX16 and sw * s.c <= MAX16
            and ceil_div(s.o, cfg.cols) * REQ_LINES <= min(cfg.lines("VEC"), MAX8))


def _split(n: int, most: int) -> list[int]:
    """``n`` as the fewest near-equal parts of at most ``most``."""
    parts = ceil_div(n, most)
    q, r = divmod(n, parts)
    return [q + (1 if k < r else 0) for k in range(parts)]


def _runs(chunk: list, items: _Items, ramp: bool = False) -> list[tuple[int, int]]:
    """A chunk's GEMM chains ``(first item, items)``: up to ``MAX_KTILES`` K tiles each, or one
    row window each. ``ramp`` (the first row block, whose K tiles load while its GEMMs wait): chains
    of 1, 2, 4, ... K tiles, so that the first GEMM starts after one K tile's LOAD, not a chain's."""
    if items.rows:
        return [(w, 1) for w in chunk]
    sizes = _split(len(chunk), MAX_KTILES)
    if ramp:
        sizes, left, n = [], len(chunk), 1
        while left:
            sizes.append(min(n, left, MAX_KTILES))
            left -= sizes[-1]
            n *= 2
    out, t = [], chunk[0]
    for n in sizes:
        out.append((t, n))
        t += n
    return out


def residual_fits(cfg: HwConfig, s) -> bool:
    """Whether a fused residual ADD's operand (``LowerContext.residual``) fits its own ACT bank
    whole, one tile after another (no tile's lines are reused, so its LOAD waits for nothing),
    and its ADDQ parameters fit VEC after the REQ parameters."""
    ob = ceil_div(s.o, cfg.cols)
    return (cfg.banks("ACT") >= 3 and s.n * s.oh * s.ow * ob <= cfg.bank_lines("ACT")
            and ob * REQ_LINES + len(VEC_BY_NAME["ADDQ"].params) <= min(cfg.lines("VEC"), MAX8))


def stack_plan(cfg: HwConfig, s, residual: bool = False) -> StackPlan | None:
    """The mode (taps or rows, :class:`_Items`), block height and weight chunking of the lowest
    estimated cycles (per engine its total over the layer's blocks; the busiest plus the wait for
    the first GEMM and the last block's requantization and store, at least the second block's
    GEMMs after the first two blocks' loads), or None when nothing fits. ``residual``: with a fused
    ADD (:func:`residual_fits`: its operand in the bank below the staging bank, an ADDQ after each
    REQ that waits for the previous STORE)."""
    R, C, lat = cfg.rows, cfg.cols, cfg.ext_latency
    fh = s.weff.shape[0]
    ob = ceil_div(s.o, C)
    beats = ceil_div(R, cfg.dma_bytes_per_cycle)
    in_l, stag_l = act_split(cfg)
    if residual:
        in_l -= cfg.bank_lines("ACT")
    wgt_tiles = cfg.lines("WGT") // R
    best = None
    for rows in ((False, True) if s.stride[0] == 1 and fh <= MAX_KTILES else (False,)):
        for th in sorted({min(s.oh, MAX8), *[ceil_div(s.oh, k) for k in range(2, 17)]}, reverse=True):
            items = _items(cfg, s, th, rows)
            p = th * s.ow
            nblocks = s.n * ceil_div(s.oh, th)
            slots = 1 if nblocks == 1 else 2
            if ((rows and p > MAX8) or slots * items.count * items.lines > in_l or 2 * p > stag_l
                    or not acc_tiles_fit(cfg, p, 0)):
                continue
            # one step per GEMM chain (per few windows), so that the first waits only for its items
            per = max(1, min(MAX_KTILES, wgt_tiles // 2) // items.taps)
            cuts = _split(items.count, per)
            chunks = [list(range(sum(cuts[:k]), sum(cuts[:k + 1]))) for k in range(len(cuts))]
            resident = ob * items.count * items.taps <= wgt_tiles
            weights = ob * sum(lat + len(c) * items.taps * R * beats for c in chunks)
            # per block and engine, each block at its own height (a shorter last one)
            comp, load, vec, store = [], [], [], []
            for b, oy0 in enumerate(list(range(0, s.oh, th)) * s.n):
                ph = min(th, s.oh - oy0) * s.ow
                comp.append(sum(gemm_cycles(cfg, n * items.taps, ph) for co in range(ob) for c in chunks
                                for _, n in _runs(c, items, ramp=b == 0 and co == 0)))
                load.append(items.count * (lat + _items(cfg, s, min(th, s.oh - oy0), rows).lines * beats)
                            + (weights if b == 0 or not resident else 0))
                vec.append(ob * vec_cycles(cfg, "REQ", ph))
                store.append(ob * (lat + ph * beats))
                if residual:
                    vec[-1] = max(vec[-1], store[-1]) + ob * vec_cycles(cfg, "ADDQ", ph)
                    load[-1] += ob * (lat + ph * beats)
            dma = sum(load) + sum(store) if cfg.dma_engines == 1 else max(sum(load), sum(store))
            busy = (sum(comp) + sum(vec) + dma if cfg.in_order else max(sum(comp), sum(vec), dma))
            # + the first chunk's weights and the first K tile before the first GEMM (each chain
            # waits for its own), the last REQ and STORE; and at least (where the loads outpace
            # the GEMMs at the start) the second block's GEMMs after the first two blocks' loads,
            # or for one block with resident weights, the first output block's last chain after
            # the block's loads and the other output blocks after it
            tail = (vec[-1] + store[-1]) // ob
            first = 2 * lat + len(chunks[0]) * items.taps * R * beats + items.lines * beats
            start = 0
            if len(comp) > 1:
                start = sum(load[:2]) + sum(comp[1:])
            elif resident:
                n_last = _runs(chunks[-1], items, ramp=True)[-1][1]
                start = load[0] + gemm_cycles(cfg, n_last * items.taps, p) + comp[0] * (ob - 1) // ob
            est = max(busy + first, start) + tail
            if best is None or est < best.estimate:
                best = StackPlan(est, th, chunks, resident, rows)
    return best


class _AccReads:
    """The ACC lines and banks each REQ of the pass reads, in the order of their ``v2c`` tokens,
    and how many of those tokens the compute queue has taken: a GEMM that overwrites lines a REQ
    reads, or reads a bank one reads (when it accumulates or chains K tiles: one read port per
    bank), first takes the tokens up to that REQ's (``docs/isa.md``, scratchpad banks)."""

    def __init__(self, cfg: HwConfig):
        self.bank = cfg.bank_lines("ACC")
        self.reads: list[tuple[range, set]] = []
        self.taken = 0

    def banks(self, lines: range) -> set:
        return set(range(lines[0] // self.bank, lines[-1] // self.bank + 1))

    def push(self, vec: Ins, lines: range) -> None:
        token(vec, V2C, "push")
        self.reads.append((lines, self.banks(lines)))

    def waits(self, gemm: Ins, lines: range, reads: bool) -> list[Ins]:
        """The compute NOPs to emit before ``gemm`` (which takes the last needed token itself)."""
        banks = self.banks(lines) if reads else set()
        need = max((k for k in range(self.taken, len(self.reads))
                    if (self.reads[k][0][0] <= lines[-1] and lines[0] <= self.reads[k][0][-1]) or self.reads[k][1] & banks),
                   default=-1)
        nops = []
        while self.taken <= need:
            self.taken += 1
            if self.taken <= need:
                nops.append(token(nop("compute", "wait for the requantization reading these accumulators"), V2C, "pop"))
            else:
                token(gemm, V2C, "pop")
        return nops


def _acc_tiles(cfg: HwConfig, ob: int, pmax: int):
    """``(run_major, tile)``: whether a row block's output blocks take the GEMM chains in turn
    (chain ``k`` of every output block before chain ``k + 1``, so that the next chain's K tiles
    load while the array works: one ACC tile per output block, those of consecutive blocks in
    different banks, the row blocks' in turn in the two halves of ACC), and ``tile(b, co)``: the
    first ACC line of unit (row block ``b``, output block ``co``)."""
    half, quarter = cfg.lines("ACC") // 2, cfg.lines("ACC") // 4
    if ob > 1 and cfg.banks("ACC") >= 4 and ceil_div(ob, 2) * pmax <= quarter:
        return True, lambda b, co: (b % 2) * half + (co % 2) * quarter + (co // 2) * pmax
    return False, lambda b, co: acc_slot(cfg, pmax, (b * ob + co) % 2)


def stacked_passes(ctx, s, tiles, plan: StackPlan, residual=None) -> list:
    """The one pass of the stacked-taps schedule, pre-tokenized. A *unit* is (row block, output
    block); per step (unit, weight chunk): the chunk's weight tiles (resident ones in the first
    row block, streamed ones into one WGT half of two), a share of the next block's K tiles (block
    ``b + 1`` loads over the steps of block ``b`` after its first, into the other of two input
    slots; block 0's each in the step of the first chain that reads it), the GEMM chains of the
    chunk into the unit's ACC tile, and after the last chunk the REQ into one of two staging slots
    and the STORE (``_acc_tiles``: the steps' order and the ACC tiles). Tokens: step ``t``'s loads
    wait for the GEMMs of step ``t - 2`` (``c2l``), its GEMMs for its loads (``l2c``) and for the
    REQs reading their accumulators or banks (``v2c``, :class:`_AccReads`); a REQ waits for its
    GEMMs (``c2v``) and for the STORE two REQs before (``s2v``), a STORE for its REQ (``v2s``).
    Each step's loads, GEMMs and REQ / STORE follow one another in program order (the queues run
    ahead of one another by their depth), so that a long load batch does not hold back the fetch
    of the GEMMs before it.

    ``residual`` (:func:`residual_fits`): each unit's REQ is followed by an ADDQ of the same lines
    of the ADD's other operand, LOADed (in the bank below the staging bank, each unit at its own
    lines) with the step's first loads, before the token its GEMMs take; the ADDQ waits for the
    previous STORE (the REQ no longer does: the ADDQ before it did) and the STORE writes the sum
    to the ADD's output."""
    cfg, R, C = ctx.cfg, ctx.cfg.rows, ctx.cfg.cols
    fh, fw = s.weff.shape[:2]
    cb, ob = ceil_div(s.c, R), ceil_div(s.o, C)
    items = _items(cfg, s, plan.th, plan.rows)
    nk = fh * fw * cb        # weight tiles per output block, in the order of the items' taps
    if plan.rows:
        order = [(co, (ky, w // cb, w % cb)) for co in range(ob) for w in range(items.count) for ky in range(fh)]
    else:
        order = [(co, (t // (fw * cb), (t // cb) % fw, t % cb)) for co in range(ob) for t in range(nk)]
    waddr = ctx.consts.add(b"".join(tiles[co][key].tobytes() for co, key in order))
    blocks = [(nbx, oy0, min(plan.th, s.oh - oy0)) for nbx in range(s.n) for oy0 in range(0, s.oh, plan.th)]
    pmax = plan.th * s.ow
    in_base = (0, items.count * items.lines)
    stag0 = act_split(cfg)[0]
    out_base = (stag0, stag0 + pmax)
    half = cfg.lines("WGT") // 2
    req = [param_block(cfg, "REQ", **{k: (v[co * C:min(s.o, co * C + C)] if getattr(v, "ndim", 0) else v)
                                      for k, v in s.params.items()}) for co in range(ob)]
    params = load_vec(cfg, ctx.consts, vec_blob(req), 0, f"{s.what}: requantization parameters")
    skip0 = stag0 - cfg.bank_lines("ACT")
    add_line = ob * REQ_LINES     # the ADDQ parameters after the REQ parameters
    if residual is not None:
        params += load_vec(cfg, ctx.consts, vec_blob([param_block(cfg, "ADDQ", **residual.params)]), add_line,
                           f"{s.what}: residual add parameters")
    run_major, acc_tile = _acc_tiles(cfg, ob, pmax)
    nc = len(plan.chunks)
    steps = [(b, co, k) for b in range(len(blocks))
             for co, k in ([(co, k) for k in range(nc) for co in range(ob)] if run_major else
                           [(co, k) for co in range(ob) for k in range(nc)])]
    lead, trail = _spread_inputs(ctx, s, blocks, steps, plan.chunks, in_base, items)
    guard, nreq = _AccReads(cfg), 0
    out = RawPass()
    for t, (b, co, k) in enumerate(steps):
        chunk, last = plan.chunks[k], k == nc - 1
        wbase = 0 if plan.resident else (t % 2) * half
        # first what goes to lines no earlier step uses (block 0's K tiles, resident weights, the
        # parameters), then, after the wait for the GEMMs two steps before, the rest
        fresh, reused = [], []
        w0, nw = co * nk + chunk[0] * items.taps, len(chunk) * items.taps   # the chunk's weight tiles
        if plan.resident and b == 0:
            fresh += wgt_tile_loads(R, waddr, w0 * R, w0, nw,
                                f"{s.what}: weight tiles out c{co * C} items {chunk[0]}..{chunk[-1]} (resident)")
        elif not plan.resident:
            reused += wgt_tile_loads(R, waddr, wbase, w0, nw,
                                 f"{s.what}: weight tiles out c{co * C} items {chunk[0]}..{chunk[-1]}")
        # the step's own K tiles per GEMM chain: each chain waits only for its own (its l2c token)
        led = lead.get(t, {})
        assert set(led) <= set(chunk), "a step leads only the K tiles of its own chains"
        nbx, oy0, th = blocks[b]
        runs = _runs(chunk, items, ramp=b == 0 and bool(led))
        per_run = [[ld for w in range(t0, t0 + n) for ld in led.get(w, [])] for t0, n in runs]
        (fresh if b == 0 else reused).extend(per_run[0])
        later = per_run[1:]
        if nreq == 0 and last:
            # before the first REQ's GEMMs (their l2c token)
            (later[-1] if later and later[-1] else fresh).extend(params)
        if residual is not None and last:   # (lines no other unit uses: no wait)
            fresh.append(Ins("LOAD", {"sp": "ACT", "len": min(C, s.o - co * C), "sp_addr": skip0 + nreq * pmax,
                                      "ext_addr": ctx.addr[residual.skip] + ((nbx * s.oh + oy0) * s.ow) * s.o + co * C,
                                      "x_size": s.ow, "y_size": th, "x_stride": s.o, "y_stride": s.ow * s.o},
                             f"{s.what}: residual operand rows n{nbx} y{oy0} c{co * C}"))
        if t >= 2:
            reused = reused or [nop("load", f"{s.what}: the GEMMs of step {t - 2} are done")]
            token(reused[0], C2L, "pop")
        loads = fresh + reused or [nop("load", f"{s.what}: nothing to load for step {t}")]
        token(loads[-1], L2C, "push")
        for group in later:
            if group:
                token(group[-1], L2C, "push")
        acc = acc_tile(b, co)
        lines = range(acc, acc + th * s.ow)
        out += loads
        gemms = []
        for r, (t0, n) in enumerate(runs):
            wt = (co * nk if plan.resident else -chunk[0] * items.taps) + t0 * items.taps
            # taps: K tile t at t x th x ow (ny x act_ys); rows: the window as one line of th x ow
            # pixels, K tile ky at ky x ow (act_ys)
            shape = ({"nx": th * s.ow, "ny": 1} if items.rows else {"nx": s.ow, "ny": th})
            g = Ins("GEMM", {
                "accumulate": int(t0 > 0), "preload": 1, "kt": n * items.taps - 1, "act_signed": s.x_signed,
                "wgt_signed": s.w_signed, "act": in_base[b % 2] + _item_line(items, t0, th, s.ow),
                "acc": acc, "wgt": wbase + wt * R, "za": _byte(s.zx), "zw": _byte(s.zw), **shape, "act_xs": 1,
                "act_ys": s.ow, "acc_xs": 1, "acc_ys": s.ow},
                f"{s.what}: rows {oy0}.. out c{co * C} items {t0}..{t0 + n - 1}")
            if r == 0 or per_run[r]:
                token(g, L2C, "pop")
            # a chain's own LOADs just before it in program order: fetch reaches the first
            # chains without waiting for the load queue to take the later ones
            gemms += (per_run[r] if r else []) + guard.waits(g, lines, t0 > 0 or n * items.taps > 1) + [g]
        token(gemms[-1], C2L, "push")
        out += gemms
        if not last:
            out += trail.get(t, [])
            continue
        token(gemms[-1], C2V, "push")
        dst = out_base[nreq % 2]
        vec = Ins("VEC", {"func": "REQ", "signed": 0, "round": s.round, "dst": dst, "src": acc,
                          "param": REQ_LINES * co, "nx": s.ow, "ny": th, "dst_xs": 1, "dst_ys": s.ow,
                          "src_xs": 1, "src_ys": s.ow}, f"{s.what}: requantize rows {oy0}.. out c{co * C}")
        token(vec, C2V, "pop")
        vecs, y = [vec], s.y
        if residual is None:
            if nreq >= 2:
                token(vec, S2V, "pop")
        else:
            vecs.append(residual_add(residual, dst, skip0 + nreq * pmax, add_line, s.ow, th, nreq == 0,
                                     f"{s.what}: residual add rows {oy0}.. out c{co * C}"))
            y = residual.out
        token(vecs[-1], V2S, "push")
        guard.push(vec, lines)
        nreq += 1
        ext = ctx.addr[y] + ((nbx * s.oh + oy0) * s.ow) * s.o + co * C
        st = Ins("STORE", {"sp": "ACT", "len": min(C, s.o - co * C), "sp_addr": dst, "ext_addr": ext,
                           "x_size": s.ow, "y_size": th, "x_stride": s.o, "y_stride": s.ow * s.o},
                 f"{s.what}: output rows n{nbx} y{oy0} c{co * C}")
        token(st, V2S, "pop")
        token(st, S2V, "push")
        out += [*vecs, st] + trail.get(t, [])     # the next block's K tiles after the step in program order
    out.residual = residual is not None
    return [out]


def _spread_inputs(ctx, s, blocks, steps, chunks, in_base, items: _Items) -> tuple[dict, dict]:
    """Where the K-tile LOADs go: ``(lead, trail)``, per step the LOADs its own GEMMs wait for (per
    item: each GEMM chain waits only for its items) and those after (for later steps). Block 0's K tiles lead the step
    of the first chain that reads them; block ``b``'s trail the steps of block ``b - 1`` after its
    first (block ``b - 2``, which used the same slot, is done then: those steps' loads wait for the
    GEMMs two steps before), or lead block ``b``'s first step when block ``b - 1`` has one step."""
    first = {}
    for st, (b, _, _) in enumerate(steps):
        first.setdefault(b, st)
    lead: dict[int, dict[int, list]] = {}
    trail: dict[int, list] = {}
    for b in range(len(blocks)):
        tiles = [_item_load(ctx, s, blocks[b], in_base[b % 2], t, items) for t in range(items.count)]
        if b == 0:
            for st, (b0, co, k) in enumerate(steps):
                if b0 == 0 and co == 0:
                    for t in chunks[k]:
                        lead.setdefault(st, {})[t] = tiles[t]
            continue
        slots = list(range(first[b - 1] + 1, first[b]))
        if not slots:
            lead.setdefault(first[b], {}).update(enumerate(tiles))
            continue
        for n, ld in enumerate(tiles):
            trail.setdefault(slots[n * len(slots) // len(tiles)], []).extend(ld)
    return lead, trail


def _item_load(ctx, s, block, base: int, t: int, items: _Items) -> list[Ins]:
    """The LOADs of item ``t`` of a block of output rows (:class:`_Items`). Taps: line ``(y, x)``
    is input pixel ``((oy0 + y) * sh + ky - top, x * sw + kx - left)``; rows: line ``(r, x)`` is
    input pixel ``(oy0 + r - top, x * sw + kx - left)``; the grid is the input pixels at the
    stride from the first at or after the padding."""
    cfg, R = ctx.cfg, ctx.cfg.rows
    fh, fw = s.weff.shape[:2]
    cb = ceil_div(s.c, R)
    if items.rows:
        ky, kx, ci = 0, t // cb, t % cb
    else:
        ky, kx, ci = t // (fw * cb), (t // cb) % fw, t % cb
    nbx, oy0, th = block
    sh, sw = s.stride
    top, _, left, _ = s.pads
    i0, j0 = max(0, ceil_div(top - ky, sh)), max(0, ceil_div(left - kx, sw))
    r0, c0 = i0 * sh + ky - top, j0 * sw + kx - left
    hp, wp = max(0, ceil_div(s.h - r0, sh)), max(0, ceil_div(s.w - c0, sw))
    xbase = ctx.addr[s.x] + nbx * s.h * s.w * s.c + ci * R + (r0 * s.w + c0) * s.c
    box_h = th + fh - 1 if items.rows else th
    return load_box(cfg, "ACT", base + _item_line(items, t, th, s.ow), xbase, -j0, oy0 - i0, wp, hp, sw * s.c, sh * s.w * s.c,
                    s.ow, box_h, min(R, s.c - ci * R), s.zx,
                    f"{s.what}: rows {oy0}.. " + (f"taps (*,{kx})" if items.rows else f"tap ({ky},{kx})") + f" c{ci * R}")
