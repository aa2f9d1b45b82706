"""The pieces every lowering shares: the :class:`Lowering` interface, the context a lowering
receives, the constant image, the ISA field limits and the scratchpad bank split."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from nnaccel.golden import nn as gnn
from nnaccel.hwconfig import HwConfig
from nnaccel.isa.table import VEC_BY_NAME
from nnaccel.model import Operand, OperandType, Operation, Subgraph
from nnaccel.program import MAX8, MAX16, ceil_div  # noqa: F401 - the limits every lowering uses

from ..emit import S2V, Ins, token

T = OperandType
QUANT8 = (T.TENSOR_QUANT8_ASYMM, T.TENSOR_QUANT8_ASYMM_SIGNED)
MAX_PAD = 3
#: VEC lines of one REQ parameter block.
REQ_LINES = len(VEC_BY_NAME["REQ"].params)


class CannotLower(Exception):
    """The operation cannot run on the accelerator as configured (it falls back to the host)."""


def _signed(o: Operand) -> int:
    return int(o.type is T.TENSOR_QUANT8_ASYMM_SIGNED)


def _byte(v: int) -> int:
    return int(v) & 0xFF

# ================================================================================ constants
class ConstImage:
    """The constant image (weights in tile order, vector parameters, lookup tables) at
    ``base``; identical blobs are stored once."""

    ALIGN = 16

    def __init__(self, base: int):
        self.base = base
        self.data = bytearray()
        self.index: dict[bytes, int] = {}
        self.passes: dict[str, int] = {}
        #: The pass the pointwise schedules lowered last (``compiler/lower/pointwise.py``): the
        #: next one places its constants clear of the lines it touches, where it can.
        self.last = None
        #: The image's size after that pass (a larger one: another lowering came after it).
        self.last_end = 0

    def alternate(self, kind: str) -> int:
        """0 / 1 in turn for the passes of schedule ``kind`` lowered into this image, so that
        consecutive ones take alternate halves of a scratchpad (the next one's constants may then
        load while this one runs; the program builder checks that a prefetch really is
        independent, so a wrong guess only costs time)."""
        n = self.passes.get(kind, 0)
        self.passes[kind] = n + 1
        return n % 2

    def add(self, blob: bytes) -> int:
        blob = bytes(blob)
        if blob in self.index:
            return self.index[blob]
        pad = -len(self.data) % self.ALIGN
        self.data += bytes(pad)
        addr = self.base + len(self.data)
        self.data += blob
        self.index[blob] = addr
        return addr

    def mark(self):
        return len(self.data), dict(self.index)

    def rollback(self, mark) -> None:
        n, index = mark
        del self.data[n:]
        self.index = index


def touched_lines(cfg: HwConfig, ins, space: str) -> np.ndarray:
    """A mask of the lines of scratchpad ``space`` that the instructions ``ins`` touch (their
    footprints, ``nnaccel.isa.footprint``)."""
    mask = np.zeros(cfg.lines(space), bool)
    for i in ins:
        for a in i.footprint(cfg):
            if a.space == space and not a.where.empty:
                mask[np.asarray(a.where.lines(), np.int64)] = True
    return mask


def vec_blob(blocks) -> bytes:
    """VEC parameter blocks (``nnaccel.program.param_block`` / ``lut_block`` arrays, one line per
    parameter) as the little-endian int32 bytes LOAD reads."""
    return np.concatenate([np.asarray(b, np.int64) for b in blocks]).astype("<i4").tobytes()


def wgt_tile_loads(R: int, waddr: int, sp_addr: int, first: int, n: int, comment) -> list[Ins]:
    """LOADs of ``n`` consecutive ``R x R`` weight tiles (from tile ``first`` of the constants at
    ``waddr``) into WGT line ``sp_addr`` on, at most 255 tiles a LOAD. ``comment``: each LOAD's,
    or a function of ``(k, count)`` (its first tile within the ``n``, its tile count) giving it."""
    out = []
    for k in range(0, n, MAX8):
        count = min(MAX8, n - k)
        out.append(Ins("LOAD", {"sp": "WGT", "len": R, "sp_addr": sp_addr + k * R,
                                "ext_addr": waddr + (first + k) * R * R, "x_size": R, "y_size": count,
                                "x_stride": R, "y_stride": R * R},
                       comment(k, count) if callable(comment) else comment))
    return out


def load_vec(cfg: HwConfig, consts: ConstImage, blob: bytes, line: int, comment: str) -> list[Ins]:
    """LOADs a VEC block (any number of lines) at VEC line ``line``."""
    addr = consts.add(blob)
    nlines = len(blob) // (4 * cfg.cols)
    out = []
    for k in range(0, nlines, MAX8):
        n = min(MAX8, nlines - k)
        out.append(Ins("LOAD", {"sp": "VEC", "len": cfg.cols, "sp_addr": line + k, "ext_addr": addr + 4 * cfg.cols * k,
                                    "x_size": n, "y_size": 1, "x_stride": 4 * cfg.cols, "y_stride": 0}, comment))
    return out

# ================================================================================ banks
def act_split(cfg: HwConfig) -> tuple[int, int]:
    """``(input lines, staging lines)``: ACT lines ``0 .. input - 1`` hold what LOAD writes and
    the array / vector unit read, the last bank (``input ..``) what the vector unit writes and STORE
    reads, so that concurrent engines never share a bank port (``docs/isa.md``, scratchpad banks)."""
    n = cfg.bank_lines("ACT")
    return cfg.lines("ACT") - n, n


def acc_slot(cfg: HwConfig, tile: int, k: int, kept: int | None = None) -> int:
    """First ACC line of accumulator tile ``k`` (0 or 1: the two tiles used in turn) or, with
    ``kept``, of the ``kept``-th tile kept across chunks. With two or more ACC banks the two
    alternating tiles lie in different halves (a GEMM accumulating into one and a REQ reading the
    other use different read ports); kept tiles alternate halves after them."""
    if cfg.banks("ACC") >= 2:
        half = cfg.lines("ACC") // 2
        return (k * half) if kept is None else (kept % 2) * half + (1 + kept // 2) * tile
    return (k if kept is None else 2 + kept) * tile


def acc_tiles_fit(cfg: HwConfig, tile: int, kept: int) -> bool:
    """Whether two alternating tiles and ``kept`` kept tiles of ``tile`` lines fit ACC."""
    if cfg.banks("ACC") >= 2:
        return (1 + ceil_div(kept, 2)) * tile <= cfg.lines("ACC") // 2
    return (2 + kept) * tile <= cfg.lines("ACC")

# ================================================================================ context
@dataclass(frozen=True)
class Residual:
    """A quantized ADD fused into the convolution that computes one of its operands
    (``compile.fuse_residuals``): after each output tile's REQ, an ADDQ adds the same pixels and
    channels of the other operand ``skip`` (LOADed beside the tile), and the sum is stored to
    ``out``; the convolution's own output ``conv`` never reaches external memory. ``params``: the
    ADDQ parameter rows with the convolution's operand as ``src`` (``z1``, ``m1``, ``e1``)."""

    conv: int
    skip: int
    out: int
    params: dict
    signed: int


def residual_add(res: Residual, tile: int, skip: int, param: int, nx: int, ny: int, first: bool,
                 comment: str) -> Ins:
    """The ADDQ of a fused residual (:class:`Residual`) over the output tile at ACT line ``tile``
    (``nx x ny`` lines), in place, with the other operand's tile at ``skip`` and the parameters at
    VEC line ``param``; but for the ``first`` tile it waits (``s2v``) for the previous tile's
    STORE, which reads the same bank (the vector unit's and the store engine's reads would share
    its read port)."""
    add = Ins("VEC", {"func": "ADDQ", "signed": res.signed, "dst": tile, "src": tile, "src2": skip, "param": param,
                      "nx": nx, "ny": ny, "dst_xs": 1, "dst_ys": nx, "src_xs": 1, "src_ys": nx}, comment)
    if not first:
        token(add, S2V, "pop")
    return add


@dataclass
class LowerContext:
    """What a lowering needs: the config, the constant image, tensor addresses, the subgraph."""

    cfg: HwConfig
    consts: ConstImage
    addr: dict
    sg: Subgraph
    model: object
    #: A clamp ``(lo, hi)`` fused into the operation being lowered (a following RELU / RELU1 /
    #: RELU6 of the same quantization), or None.
    clamp: tuple | None = None
    #: External-memory addresses of the operation's scratch areas (``Lowering.scratch``), in order.
    scratch: list = field(default_factory=list)
    #: The ADD fused into the operation being lowered (:class:`Residual`), or None; a lowering
    #: that fuses it marks the pass that does (``residual`` attribute of the pass).
    residual: Residual | None = None
    #: Whether the operation's input comes from a depthwise pass that may write it straight into
    #: a one-block pointwise pass's input slot (``depthwise.hand_over_to_pointwise``): the
    #: operation just before it, its input's only reader.
    handed: bool = False
    #: Whether the operation's output goes to a pointwise pass that may read it in place (the
    #: operation just after it, a 1x1 CONV_2D, its output's only reader): a depthwise pass
    #: whose output tiles are whole rows then stores nothing (``depthwise.hand_over_to_pointwise``).
    hands: bool = False

    def operand(self, i: int) -> Operand:
        return self.sg.operands[i]

    def value(self, i: int):
        o = self.sg.operands[i]
        return None if o.data is None else o.data

    def scalar(self, op: Operation, pos: int, default=None):
        if pos >= len(op.inputs):
            return default
        o = self.sg.operands[op.inputs[pos]]
        if o.is_omitted or o.data is None:
            return default
        return np.asarray(o.data).reshape(-1)[0].item()


def tighten(rng: tuple, clamp: tuple | None) -> tuple:
    """A clamp range narrowed by a fused following clamp: ``clamp(clamp(x, a, b), c, d)`` is
    ``clamp(x, max(a, c), min(b, d))`` when the ranges overlap (fusion is only done then)."""
    if clamp is None:
        return rng
    return max(rng[0], clamp[0]), min(rng[1], clamp[1])


class Lowering:
    """The interface the compiler drives every lowering through (it knows no family):

    * :meth:`supports` / :meth:`check` — whether the operation, its types and parameters can be
      lowered (:class:`CannotLower` with the reason when not);
    * :meth:`passes` — the instructions: a list of passes, each a list of ``(loads, computes,
      stores)`` stages or one pre-tokenized :class:`~nnaccel.compiler.emit.RawPass`;
    * :meth:`tensors` / :meth:`scratch` — the external memory it reads and writes;
    * :meth:`alias` — a layout no-op whose output shares its input's bytes;
    * :attr:`absorbs_clamp` / :meth:`output_range` — whether it can narrow its output clamp to
      absorb a following one (a fused RELU), and the clamp it applies without; :meth:`fusable_clamp`
      — the clamp an operation *is*, when it can be fused into its producer that way;
    * :attr:`summary` — what it runs the operation as (the partition's reason);
    * :attr:`fuses_residual` / :meth:`residual` — a producer that can run an ADD of its output
      per tile (``LowerContext.residual``), and the ADD that can be run so.
    """

    #: What the accelerator runs the operation as, a phrase ("a convolution on the systolic array").
    summary = ""
    #: Whether the lowering can narrow its output clamp to absorb a following one
    #: (:meth:`output_range`, ``LowerContext.clamp``).
    absorbs_clamp = False
    #: Whether the lowering can add a residual operand to its output tiles (``LowerContext.residual``).
    fuses_residual = False

    def residual(self, sg: Subgraph, op: Operation, conv: int, clamp: tuple | None) -> Residual | None:
        """The :class:`Residual` of this operation when its operand ``conv`` (another operation's
        output) can be added in that operation's output tiles, else None."""
        return None

    def __init__(self, kind: str = ""):
        #: The operation type this instance lowers, where one class serves several
        #: (``LOWERINGS`` builds one instance per type).
        self.kind = kind

    def supports(self, sg: Subgraph, op: Operation, origin: str = "nnapi") -> str | None:
        """``None`` when the operation, its types and parameters can be lowered in a model of
        ``origin`` (``Model.origin``), else why not."""
        try:
            self.check(sg, op)
            self.check_origin(sg, op, origin)
        except CannotLower as e:
            return str(e)
        except Exception as e:  # noqa: BLE001 - odd parameters the lowering did not foresee: host
            return f"parameters the lowering cannot read ({type(e).__name__}: {e})"
        return None

    def check(self, sg: Subgraph, op: Operation) -> None:
        raise NotImplementedError

    def check_origin(self, sg: Subgraph, op: Operation, origin: str) -> None:
        """What :meth:`check` cannot know: whether the arithmetic of a model of ``origin`` (its
        golden kernels', see ``Model.origin``) can be lowered; :class:`CannotLower` if not."""

    def passes(self, ctx: LowerContext, op: Operation) -> list:
        raise NotImplementedError

    def alias(self) -> bool:
        return False

    def tensors(self, sg: Subgraph, op: Operation) -> list[int]:
        """The operands the lowered code reads or writes in external memory (inputs, then the
        output last)."""
        return [op.inputs[0], op.outputs[0]]

    def scratch(self, sg: Subgraph, op: Operation, cfg: HwConfig) -> list[int]:
        """Sizes in bytes of the external-memory scratch areas the lowered code needs besides its
        operands (e.g. NHWC copies of NCHW tensors); the compiler allocates them like
        intermediate tensors and passes their addresses in ``LowerContext.scratch``."""
        return []

    def output_range(self, sg: Subgraph, op: Operation) -> tuple | None:
        """The clamp ``(lo, hi)`` the lowered code applies to the output without fusion (its fused
        activation), for a lowering that :attr:`absorbs_clamp`; else ``None``."""
        return None

    def fusable_clamp(self, sg: Subgraph, op: Operation) -> tuple | None:
        """The clamp ``(lo, hi)`` this operation computes when it is nothing but a clamp of the
        same quantization (RELU / RELU1 / RELU6), so that a producer that absorbs clamps can
        apply it instead; else ``None``."""
        return None


def _need_known(sg: Subgraph, idxs) -> None:
    for i in idxs:
        o = sg.operands[i]
        if o.dimensions is None or not o.fully_specified or any(d == 0 for d in o.dimensions):
            raise CannotLower(f"operand {i} has unknown or empty dimensions")


def _need_quant8(sg: Subgraph, idxs) -> None:
    for i in idxs:
        if sg.operands[i].type not in QUANT8:
            raise CannotLower(f"operand {i} is {sg.operands[i].type.name}, not 8-bit quantized")


def _need_const(sg: Subgraph, op: Operation, positions) -> None:
    for p in positions:
        if p < len(op.inputs):
            o = sg.operands[op.inputs[p]]
            if not (o.is_constant or o.is_omitted):
                raise CannotLower(f"input {p} is not a constant")


def _scalar(sg, op, pos, default=None):
    if pos >= len(op.inputs):
        return default
    o = sg.operands[op.inputs[pos]]
    if o.is_omitted or o.data is None:
        return default
    return np.asarray(o.data).reshape(-1)[0].item()


def _window_spec(sg, op, spec_inputs):
    ins = [sg.operands[i] for i in op.inputs]
    form = spec_inputs.form_of(ins)
    return gnn.read_window(spec_inputs, form, len(op.inputs), lambda i, d=None: _scalar(sg, op, i, d))


