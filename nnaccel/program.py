"""Program builder: emit accelerator instructions from Python (the compiler's and the layer
generators' interface to the ISA), plus an external-memory image allocator.

>>> from nnaccel.program import ProgramBuilder
>>> p = ProgramBuilder("tiny")
>>> _ = p.nop("compute"); _ = p.finish()
>>> print(p.assembly(), end="")
NOP queue=compute
FINISH

Every method takes the instruction's fields by name (see ``docs/isa.md``); dependency flags are
keyword arguments ``pop_prev`` / ``pop_next`` / ``push_prev`` / ``push_next``. The ``*_lines``
helpers split a run of lines that exceeds one instruction's field ranges into several
instructions, putting the pops on the first and the pushes on the last.
"""

from __future__ import annotations

import numpy as np

from .errors import InputError
from .hwconfig import ELEMENT_BYTES, load_config
from .isa import VEC_BY_NAME, disassemble, encode, words_to_bytes
from .isa.table import BY_NAME, FLAG_NAMES

_POPS = ("pop_prev", "pop_next")
_PUSHES = ("push_prev", "push_next")
#: Largest values of the ISA's 8-bit and 16-bit size / stride / address fields (the tiler's and
#: the program builder's limits).
MAX8 = (1 << 8) - 1
MAX16 = (1 << 16) - 1


def _split_flags(flags: dict, first: bool, last: bool) -> dict:
    return {k: v for k, v in flags.items() if (k in _POPS and first) or (k in _PUSHES and last)}


def ceil_div(a: int, b: int) -> int:
    """``ceil(a / b)`` of integers."""
    return -(-a // b)


def runs(values) -> list[tuple[int, int, int]]:
    """Maximal runs ``(start, stop, value)`` of equal consecutive values of a 1-D sequence."""
    out, start = [], 0
    for i in range(1, len(values) + 1):
        if i == len(values) or values[i] != values[start]:
            out.append((start, i, int(values[start])))
            start = i
    return out


def _chunks_1d(n: int, stride: int, limit_stride: int):
    """Splits ``n`` lines at ``stride`` into boxes ``(first, x_size, y_size)`` with
    ``x_size, y_size <= 255`` and ``x_size * stride <= limit_stride`` (the row stride field)."""
    nx_max = MAX8 if stride == 0 else max(1, min(MAX8, limit_stride // stride))
    if n <= nx_max * MAX8:  # one instruction when some x_size divides n exactly
        for nx in range(min(nx_max, n), ceil_div(n, MAX8) - 1, -1):
            if nx and n % nx == 0:
                return [(0, nx, n // nx)]
    out = []
    first = 0
    while n - first > 0:
        left = n - first
        nx = min(nx_max, left)
        ny = min(MAX8, left // nx)
        out.append((first, nx, ny))
        first += nx * ny
    return out


class ProgramBuilder:
    """Collects instructions for one hardware configuration."""

    def __init__(self, config="tiny"):
        self.cfg = load_config(config)
        self.words: list[int] = []

    def __len__(self) -> int:
        return len(self.words)

    def emit(self, name: str, **fields) -> int:
        """Appends an instruction; returns its index (program counter)."""
        fields = {k: v for k, v in fields.items() if v is not None}
        self.words.append(encode(name, **fields))
        return len(self.words) - 1

    # ------------------------------------------------------------------------ instructions
    def load(self, sp: str, sp_addr: int, ext_addr: int, len: int, x_size: int = 1, y_size: int = 1,
             x_stride: int = 0, y_stride: int = 0, pad=(0, 0, 0, 0), fill: int = 0, **flags) -> int:
        """LOAD; ``pad`` = (top, bottom, left, right); ``fill`` a byte (negative values wrap)."""
        t, b, le, r = pad
        return self.emit("LOAD", sp=sp, sp_addr=sp_addr, ext_addr=ext_addr, len=len, x_size=x_size,
                         y_size=y_size, x_stride=x_stride, y_stride=y_stride, pad_top=t,
                         pad_bottom=b, pad_left=le, pad_right=r, fill=fill & 0xFF, **flags)

    def store(self, sp: str, sp_addr: int, ext_addr: int, len: int, x_size: int = 1, y_size: int = 1,
              x_stride: int = 0, y_stride: int = 0, **flags) -> int:
        return self.emit("STORE", sp=sp, sp_addr=sp_addr, ext_addr=ext_addr, len=len, x_size=x_size,
                         y_size=y_size, x_stride=x_stride, y_stride=y_stride, **flags)

    def gemm(self, act: int, acc: int, nx: int, ny: int = 1, *, wgt: int = 0, preload: bool = False,
             accumulate: bool = False, za: int = 0, zw: int = 0, act_signed: bool = False,
             wgt_signed: bool = False, act_xs: int = 1, act_ys: int = 0, acc_xs: int = 1,
             acc_ys: int = 0, kt: int = 0, **flags) -> int:
        """GEMM; ``kt`` extra K tiles (see ``docs/isa.md``)."""
        return self.emit("GEMM", act=act, acc=acc, wgt=wgt, preload=int(preload), kt=kt,
                         accumulate=int(accumulate), za=za & 0xFF, zw=zw & 0xFF,
                         act_signed=int(act_signed), wgt_signed=int(wgt_signed), nx=nx, ny=ny,
                         act_xs=act_xs, act_ys=act_ys, acc_xs=acc_xs, acc_ys=acc_ys, **flags)

    def vec(self, func: str, dst: int, src: int, nx: int, ny: int = 1, *, src2: int = 0,
            param: int = 0, signed: bool = False, accumulate: bool = False, dst_xs: int = 1,
            dst_ys: int = 0, src_xs: int = 1, src_ys: int = 0, **flags) -> int:
        return self.emit("VEC", func=VEC_BY_NAME[func].code, dst=dst, src=src, src2=src2, param=param,
                         signed=int(signed), accumulate=int(accumulate), nx=nx, ny=ny, dst_xs=dst_xs,
                         dst_ys=dst_ys, src_xs=src_xs, src_ys=src_ys, **flags)

    def rdperf(self, ext_addr: int, **flags) -> int:
        return self.emit("RDPERF", ext_addr=ext_addr, **flags)

    def nop(self, queue: str, **flags) -> int:
        return self.emit("NOP", queue=queue, **flags)

    def finish(self) -> int:
        return self.emit("FINISH")

    # ------------------------------------------------------------------------ splitting helpers
    def load_lines(self, sp: str, sp_addr: int, ext_addr: int, n: int, stride: int, len: int,
                   fill: int = 0, **flags) -> list[int]:
        """Loads ``n`` consecutive scratchpad lines from external lines ``stride`` bytes apart."""
        return self._dma_lines(True, sp, sp_addr, ext_addr, n, stride, len, fill, flags)

    def store_lines(self, sp: str, sp_addr: int, ext_addr: int, n: int, stride: int, len: int,
                    **flags) -> list[int]:
        """Stores ``n`` consecutive scratchpad lines to external lines ``stride`` bytes apart."""
        return self._dma_lines(False, sp, sp_addr, ext_addr, n, stride, len, 0, flags)

    def _dma_lines(self, load, sp, sp_addr, ext_addr, n, stride, length, fill, flags):
        if n <= 0:
            return [self._token_nop("load" if load else "store", flags)] if _any(flags) else []
        if stride > MAX16:
            boxes = [(i, 1, 1) for i in range(n)]
        else:
            boxes = _chunks_1d(n, stride, MAX16)
        pcs = []
        for k, (first, nx, ny) in enumerate(boxes):
            f = _split_flags(flags, k == 0, k == len(boxes) - 1)
            args = dict(sp=sp, sp_addr=sp_addr + first, ext_addr=ext_addr + first * stride, len=length,
                        x_size=nx, y_size=ny, x_stride=stride if nx > 1 else 0,
                        y_stride=nx * stride if ny > 1 else 0, **f)
            pcs.append(self.load(fill=fill, **args) if load else self.store(**args))
        return pcs

    def _token_nop(self, queue, flags):
        return self.nop(queue, **flags)

    def vec_lines(self, func: str, dst: int, src: int, n: int, *, src2: int | None = None,
                  **kw) -> list[int]:
        """A VEC function over ``n`` consecutive lines (``src2`` consecutive too)."""
        def one(nx, ny, off, f):
            return self.vec(func, dst + off, src + off, nx, ny, src2=0 if src2 is None else src2 + off,
                            dst_ys=nx, src_ys=nx, **kw, **f)
        return self._lines_2d(one, n, kw)

    def gemm_lines(self, act: int, acc: int, n: int, **kw) -> list[int]:
        """A GEMM over ``n`` consecutive activation lines into ``n`` consecutive ACC lines; only the
        first instruction preloads the weights."""
        preload = kw.pop("preload", False)

        def one(nx, ny, off, f):
            return self.gemm(act + off, acc + off, nx, ny, act_ys=nx, acc_ys=nx,
                             preload=preload and off == 0, **kw, **f)
        return self._lines_2d(one, n, kw)

    def _lines_2d(self, emit_one, n: int, kw: dict) -> list[int]:
        flags = {k: kw.pop(k) for k in list(kw) if k in FLAG_NAMES}
        boxes = _chunks_1d(n, 1, MAX8)
        pcs = []
        for k, (first, nx, ny) in enumerate(boxes):
            pcs.append(emit_one(nx, ny, first, _split_flags(flags, k == 0, k == len(boxes) - 1)))
        return pcs

    # ------------------------------------------------------------------------ output
    def to_bytes(self) -> bytes:
        return words_to_bytes(self.words)

    def assembly(self) -> str:
        return disassemble(self.words)


def _any(flags) -> bool:
    return any(flags.values())


class ExtImage:
    """Allocates external memory (from the DMA window's base) and records initial contents."""

    def __init__(self, config="tiny", align: int = 64):
        self.cfg = load_config(config)
        self.align = align
        self.top = self.cfg.dma_base
        self.contents: dict[int, np.ndarray] = {}

    def alloc(self, nbytes: int) -> int:
        addr = self.top
        self.top = addr + -(-max(nbytes, 1) // self.align) * self.align
        if self.top > self.cfg.dma_base + self.cfg.dma_size:
            raise InputError(f"The external-memory image needs {self.top - self.cfg.dma_base} bytes, "
                             f"more than the {self.cfg.dma_size}-byte DMA window of {self.cfg.name}.")
        return addr

    def place(self, array) -> int:
        """Allocates room for ``array`` and records it as the initial contents; returns the address."""
        a = np.ascontiguousarray(array)
        addr = self.alloc(a.nbytes)
        self.contents[addr] = a
        return addr


def param_block(config, func: str, **values) -> np.ndarray:
    """The VEC parameter block of vector function ``func``: an int32 array ``[P, cols]`` whose line
    ``j`` holds parameter ``j`` per lane. A value is a scalar (per tensor: every lane) or a
    sequence of up to ``cols`` per-lane values (per channel; missing lanes get 0)."""
    cfg = load_config(config)
    vf = VEC_BY_NAME[func]
    if vf.params == ("table",):
        raise InputError("Use lut_block() for the LUT function's table.")
    missing = [p for p in vf.params if p not in values]
    extra = [k for k in values if k not in vf.params]
    if missing or extra:
        raise InputError(f"The {func} parameter block takes {', '.join(vf.params)}; "
                         f"missing {missing}, unknown {extra}.")
    block = np.zeros((len(vf.params), cfg.cols), np.int64)
    for j, p in enumerate(vf.params):
        v = np.asarray(values[p], np.int64).reshape(-1)
        block[j, :] = v[0] if v.size == 1 else 0
        if v.size > 1:
            block[j, :v.size] = v
    return block.astype(np.int32)


def lut_block(config, table) -> np.ndarray:
    """A 256-entry byte table as VEC lines (entry ``i`` at line ``i // cols``, lane ``i % cols``)."""
    cfg = load_config(config)
    t = np.asarray(table).astype(np.int64).reshape(-1)
    if t.size != 256:
        raise InputError(f"A lookup table has 256 entries, not {t.size}.")
    return (t & 0xFF).astype(np.int32).reshape(cfg.lut_lines, cfg.cols)


def element_bytes(space: str) -> int:
    return ELEMENT_BYTES[space]


assert set(BY_NAME) >= {"LOAD", "STORE", "GEMM", "VEC", "RDPERF", "NOP", "FINISH"}
