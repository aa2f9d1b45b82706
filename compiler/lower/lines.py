"""Line-wise vector operations: a function applied to whole ACT lines of one or two inputs."""

from __future__ import annotations

from nnaccel.hwconfig import HwConfig
from nnaccel.program import lut_block, param_block

from ..emit import Ins
from .base import MAX8, _byte, load_vec, vec_blob


# ================================================================================ line-wise ops
def _line_chunks(cfg: HwConfig, nbytes: int, budget_lines: int):
    """Splits ``nbytes`` bytes into chunks of whole lines: ``(byte offset, full lines, tail bytes)``
    per chunk; at most ``budget_lines`` lines per chunk."""
    R = cfg.cols
    full, tail = divmod(nbytes, R)
    step = max(1, budget_lines)
    out = []
    for l0 in range(0, full, step):
        out.append((l0 * R, min(step, full - l0), 0))
    if tail:
        if out and out[-1][1] < step:
            off, n, _ = out[-1]
            out[-1] = (off, n, tail)
        else:
            out.append((full * R, 0, tail))
    return out


def _line_dma(cfg, name, sp_addr, ext, nlines, tail, comment, fill=0) -> list[Ins]:
    """LOAD / STORE of ``nlines`` full lines then a ``tail``-byte line, contiguous in memory."""
    R = cfg.cols
    out, k = [], 0
    extra = {"fill": _byte(fill)} if name == "LOAD" else {}
    while k < nlines:
        x = min(MAX8, nlines - k)
        y = min(MAX8, (nlines - k) // x)
        out.append(Ins(name, dict(sp="ACT", len=R, sp_addr=sp_addr + k, ext_addr=ext + k * R, x_size=x, y_size=y,
                                  x_stride=R, y_stride=R * x, **extra), comment))
        k += x * y
    if tail:
        out.append(Ins(name, dict(sp="ACT", len=tail, sp_addr=sp_addr + nlines, ext_addr=ext + nlines * R,
                                  x_size=1, y_size=1, x_stride=R, y_stride=0, **extra), comment + " (tail)"))
    return out


def _fill_lines(cfg, sp_addr, nlines, value, comment) -> list[Ins]:
    """LOADs that set ``nlines`` ACT lines to the byte ``value`` in every lane."""
    out, k = [], 0
    while k < nlines:
        x = min(MAX8, nlines - k)
        y = min(MAX8, (nlines - k) // x)
        out.append(Ins("LOAD", {"sp": "ACT", "len": 0, "sp_addr": sp_addr + k, "ext_addr": cfg.dma_base,
                                "x_size": x, "y_size": y, "x_stride": 0, "y_stride": 0, "fill": _byte(value)}, comment))
        k += x * y
    return out


def _vec_lines(func, dst, src, nlines, param=0, src2=None, signed=0, comment="") -> list[Ins]:
    out, k = [], 0
    while k < nlines:
        x = min(MAX8, nlines - k)
        y = min(MAX8, (nlines - k) // x)
        f = {"func": func, "signed": signed, "dst": dst + k, "src": src + k, "param": param, "nx": x, "ny": y, "dst_xs": 1, "dst_ys": x,
                 "src_xs": 1, "src_ys": x}
        if src2 is not None:
            f["src2"] = src2 + k
        out.append(Ins("VEC", f, comment))
        k += x * y
    return out


def _line_layout(cfg: HwConfig, nsrc: int):
    """ACT layout of a line-wise vector operation: ``(serial, region, in_at(k, parity),
    out_at(parity))``. With a bank per input and one for the output, each is split into two
    parity regions (double buffering: a binary function's operands in different banks, the LOAD
    and the VEC writing, the VEC and the STORE reading different banks). With fewer banks (a binary
    function on two banks) input ``k`` fills bank ``k``, the result overwrites input 0 in place and
    the stages run one at a time (``serial``)."""
    banks, b = cfg.banks("ACT"), cfg.bank_lines("ACT")
    if banks >= nsrc + 1:
        r = b // 2
        return False, r, (lambda k, p: k * b + p * r), (lambda p: (banks - 1) * b + p * r)
    return True, b, (lambda k, p: k * b), (lambda p: 0)


def lines_passes(ctx, what, srcs, dst_index, nbytes, func, param_rows, signed, table=None,
                 stage_lines=None) -> list:
    """A line-wise vector operation over ``nbytes`` bytes: ``srcs`` (one or two operand indexes)
    loaded to ACT input buffers, ``func`` applied into an output buffer, stored to ``dst_index``
    (input buffers are only read by compute and output buffers only written by it, as the stage
    tokens require). A stage takes at most ``stage_lines`` lines (default: a whole buffer region)."""
    cfg = ctx.cfg
    nsrc = len(srcs)
    serial, region, in_at, out_at_p = _line_layout(cfg, nsrc)
    budget = region - 1 if stage_lines is None else max(1, min(stage_lines, region - 1))
    chunks = _line_chunks(cfg, nbytes, budget)
    if table is not None:
        pre = load_vec(cfg, ctx.consts, vec_blob([lut_block(cfg, table)]), 0, f"{what}: lookup table")
    else:
        pre = load_vec(cfg, ctx.consts, vec_blob([param_block(cfg, func, **param_rows)]), 0, f"{what}: parameters")
    stages = []
    for st, (off, nl, tail) in enumerate(chunks):
        p = st % 2
        base = [in_at(k, p) for k in range(nsrc)] + [out_at_p(p)]  # inputs, then the output
        loads = list(pre) if st == 0 else []
        for k, src in enumerate(srcs):
            if isinstance(src, tuple):
                loads += _fill_lines(cfg, base[k], nl + (1 if tail else 0), src[1], f"{what}: input {k} broadcast")
            else:
                loads += _line_dma(cfg, "LOAD", base[k], ctx.addr[src] + off, nl, tail,
                                   f"{what}: input {k} bytes {off}")
        n = nl + (1 if tail else 0)
        out_at = base[-1]
        if nsrc == 2:
            computes = _vec_lines(func, out_at, base[0], n, 0, base[1], signed, f"{what}")
        else:
            computes = _vec_lines(func, out_at, base[0], n, 0, None, signed, f"{what}")
        stores = _line_dma(cfg, "STORE", out_at, ctx.addr[dst_index] + off, nl, tail, f"{what}: output bytes {off}")
        stages.append((loads, computes, stores, serial))
    return [stages]
