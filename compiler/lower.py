"""Lowering of quantized NNAPI operations to accelerator instructions, and their tiling.

Every accelerated operation reads its input tensors from external memory and writes its outputs
back (NHWC, one byte per element); the compiler fuses nothing across operations except the fused
activation each operation carries. An operation becomes one or more *passes* (a pass = a layer of
the :class:`~nnaccel.compiler.emit.ProgramBuilder`: its weights and parameters stay resident in
the scratchpads) of *stages* (one spatial tile each, double-buffered).

The arithmetic constants come from the golden model's own helpers (``conv_multipliers``,
``activation_range_quantized``, ``add_sub_real_multipliers``, ``quantize_multiplier``), and the
lookup tables of the int8 non-linearities are the golden kernel evaluated on all 256 input bytes,
so accelerated results are bit-exact with the golden model by construction of the constants.

Families (``Lowering`` objects hung on ``nnaccel.registry.OpDef.lowering``):

* **conv** — CONV_2D, DEPTHWISE_CONV_2D, GROUPED_CONV_2D, FULLY_CONNECTED: one general
  convolution over an *effective* dense filter ``[fh, fw, C, O]`` whose unconnected entries equal
  the filter zero point (depthwise / grouped filters are block diagonal; all-zero weight tiles
  are skipped). Per stage (an output tile of ``toh x tow`` pixels): for each output-channel block,
  one GEMM per (filter tap, input-channel block) streams the whole tile through the array
  (strided ACT addressing does the im2col), then a REQ requantizes the block into ACT.
* **pool** — AVERAGE_POOL_2D (SUMW per tap + DIV per region of equal window count), MAX_POOL_2D
  (MAX per tap, padding filled with the type minimum).
* **eltwise** — ADD, SUB, MUL of equal shapes (ADDQ / SUBQ / MULQ).
* **lut** — RELU, RELU1, RELU6, LOGISTIC, TANH, HARD_SWISH: one LUT instruction per line.
* **alias** — RESHAPE, SQUEEZE, EXPAND_DIMS: no instructions; the output shares the input's
  external-memory bytes.
"""

from __future__ import annotations

import dataclasses
import math
import types
from dataclasses import dataclass, field

import numpy as np

from nnaccel.golden import nn as gnn
from nnaccel.golden.common import qrange
from nnaccel.golden.context import KernelContext
from nnaccel.golden.elementwise import add_sub_real_multipliers, f32, mul_real_multiplier
from nnaccel.hwconfig import HwConfig
from nnaccel.isa.table import MAX_KTILES, VEC_BY_NAME, div_params
from nnaccel.model import Operand, OperandType, Operation, Subgraph
from nnaccel.program import lut_block, param_block
from nnaccel.quant import activation_range_quantized, quantize_multiplier

from .emit import C2L, C2V, L2C, S2V, V2C, V2S, Ins, RawPass, nop, token

T = OperandType
QUANT8 = (T.TENSOR_QUANT8_ASYMM, T.TENSOR_QUANT8_ASYMM_SIGNED)
#: ISA field limits used by the tiler.
MAX8 = 255
MAX16 = 65535
MAX_PAD = 3
#: VEC lines of one REQ parameter block.
REQ_LINES = len(VEC_BY_NAME["REQ"].params)


def _req_cycles(cfg: HwConfig) -> int:
    """Cycles per lane group of a REQ (the ISA's VEC timing: ``VecFunc.group_cycles``)."""
    return VEC_BY_NAME["REQ"].group_cycles(cfg.vector_mul_steps)


class CannotLower(Exception):
    """The operation cannot run on the accelerator as configured (it falls back to the host)."""


def _ceil(a: int, b: int) -> int:
    return -(-a // b)


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


def vec_blob(blocks) -> bytes:
    """VEC parameter blocks (``nnaccel.program.param_block`` / ``lut_block`` arrays, one line per
    parameter) as the little-endian int32 bytes LOAD reads."""
    return np.concatenate([np.asarray(b, np.int64) for b in blocks]).astype("<i4").tobytes()


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
        return (1 + _ceil(kept, 2)) * tile <= cfg.lines("ACC") // 2
    return (2 + kept) * tile <= cfg.lines("ACC")


# ================================================================================ context
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


def relu_range(sg: Subgraph, op: Operation) -> tuple:
    """The clamp of a quantized RELU / RELU1 / RELU6, as the golden ``clamp_activation`` computes
    it (input scale rounded to float32, the input's zero point; the output has the same
    quantization)."""
    from nnaccel.golden.elementwise import RELU_ACTIVATION
    o = sg.operands[op.inputs[0]]
    return activation_range_quantized(RELU_ACTIVATION[op.type], f32(o.scale), o.zero_point, *qrange(o.type))


#: Lowering families that can absorb a following RELU / RELU1 / RELU6 into their output clamp.
CLAMPING_FAMILIES = ("conv", "pool", "eltwise")


class Lowering:
    """Base of a lowering family: ``check`` raises :class:`CannotLower` with a reason; ``passes``
    returns the list of passes (each a list of ``(loads, computes, stores)`` stages)."""

    family = ""

    def supports(self, sg: Subgraph, op: Operation) -> str | None:
        """``None`` when the operation, its types and parameters can be lowered, else why not."""
        try:
            self.check(sg, op)
        except CannotLower as e:
            return str(e)
        except Exception as e:  # noqa: BLE001 - odd parameters the lowering did not foresee: host
            return f"parameters the lowering cannot read ({type(e).__name__}: {e})"
        return None

    def check(self, sg: Subgraph, op: Operation) -> None:
        raise NotImplementedError

    def passes(self, ctx: LowerContext, op: Operation) -> list:
        raise NotImplementedError

    def alias(self) -> bool:
        return False

    def tensors(self, sg: Subgraph, op: Operation) -> list[int]:
        """The operands the lowered code reads or writes in external memory (inputs, then the
        output last)."""
        return [op.inputs[0], op.outputs[0]]

    def scratch(self, sg: Subgraph, op: Operation) -> list[int]:
        """Sizes in bytes of the external-memory scratch areas the lowered code needs besides its
        operands (e.g. NHWC copies of NCHW tensors); the compiler allocates them like
        intermediate tensors and passes their addresses in ``LowerContext.scratch``."""
        return []


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


# ================================================================================ convolution
@dataclass
class ConvSpec:
    """A general quantized convolution, NHWC: ``x [N, H, W, C]`` -> ``y [N, OH, OW, O]``."""

    x: int
    y: int
    n: int
    h: int
    w: int
    c: int
    oh: int
    ow: int
    o: int
    weff: np.ndarray      # [fh, fw, C, O] raw filter bytes (uint8 view), unconnected = zw
    zx: int
    zw: int
    x_signed: int
    w_signed: int
    params: dict          # REQ parameters: bias, mult, shift, zo, lo, hi (each [O] or a scalar)
    stride: tuple
    dilation: tuple
    pads: tuple           # top, bottom, left, right
    what: str


def _window_spec(sg, op, spec_inputs):
    ins = [sg.operands[i] for i in op.inputs]
    form = spec_inputs.form_of(ins)
    return gnn.read_window(spec_inputs, form, len(op.inputs), lambda i, d=None: _scalar(sg, op, i, d))


class ConvLowering(Lowering):
    family = "conv"

    def __init__(self, kind: str):
        self.kind = kind  # CONV_2D DEPTHWISE_CONV_2D GROUPED_CONV_2D FULLY_CONNECTED

    def check(self, sg, op) -> None:
        self.spec(sg, op)

    def spec(self, sg, op, clamp=None, origin: str = "nnapi") -> ConvSpec:
        x, w, b = (sg.operands[i] for i in op.inputs[:3])
        y = sg.operands[op.outputs[0]]
        _need_quant8(sg, [op.inputs[0], op.outputs[0]])
        _need_known(sg, [op.inputs[0], op.inputs[1], op.outputs[0]])
        if not w.is_constant or not b.is_constant:
            raise CannotLower("the filter and bias must be constants")
        if w.type not in QUANT8 and w.type is not T.TENSOR_QUANT8_SYMM_PER_CHANNEL:
            raise CannotLower(f"the filter is {w.type.name}")
        _need_const(sg, op, range(3, len(op.inputs)))
        wraw = np.asarray(w.data)
        wbytes = wraw.view(np.uint8) if wraw.dtype == np.int8 else wraw.astype(np.uint8)
        zw = 0 if w.type is T.TENSOR_QUANT8_SYMM_PER_CHANNEL else w.zero_point
        if self.kind == "FULLY_CONNECTED":
            units, size = wraw.shape
            total = int(np.prod(x.dimensions))
            if total % size:
                raise CannotLower("the input size does not divide the input")
            batch = total // size
            weff = wbytes.T[None, None, :, :]
            act = _scalar(sg, op, 3, 0)
            # rows of the input as image rows: [1, batch, 1, size] (the DMA row stride is `size`)
            n, h, wd, c, oh, ow, o = 1, batch, 1, size, batch, 1, units
            stride, dil, pads = (1, 1), (1, 1), (0, 0, 0, 0)
        else:
            spec_inputs = {"CONV_2D": gnn.CONV_INPUTS, "DEPTHWISE_CONV_2D": gnn.DEPTHWISE_INPUTS,
                           "GROUPED_CONV_2D": gnn.GROUPED_INPUTS}[self.kind]
            win = _window_spec(sg, op, spec_inputs)
            n, h, wd, c = _nhwc_dims(x.dimensions, win.nchw)
            _, oh, ow, o = _nhwc_dims(y.dimensions, win.nchw)
            fh, fw = wraw.shape[1:3]
            pads = win.resolve((h, wd), (fh, fw))
            stride, dil = win.stride, win.dilation
            act = win.activation or 0
            if self.kind == "CONV_2D":
                weff = wbytes.transpose(1, 2, 3, 0)
            else:
                weff = np.full((fh, fw, c, o), _byte(zw), np.uint8)
                if self.kind == "DEPTHWISE_CONV_2D":
                    mult = o // c
                    oc = np.arange(o)
                    weff[:, :, oc // mult, oc] = wbytes[0][:, :, oc]
                else:
                    g = win.extra
                    cg, dg = c // g, o // g
                    for gi in range(g):
                        weff[:, :, gi * cg:(gi + 1) * cg, gi * dg:(gi + 1) * dg] = \
                            wbytes[gi * dg:(gi + 1) * dg].transpose(1, 2, 3, 0)
        m, e = gnn.conv_multipliers(x, w, y, gnn.exact_conv_product(origin, self.kind, x.type))
        lo, hi = qrange(y.type)
        act_lo, act_hi = tighten(activation_range_quantized(act, y.scale, y.zero_point, lo, hi), clamp)
        bias = np.asarray(b.data, np.int64).reshape(-1)
        params = {"bias": bias, "mult": np.broadcast_to(m, (o,)), "shift": np.broadcast_to(e, (o,)), "zo": y.zero_point,
                      "lo": act_lo, "hi": act_hi}
        if self.kind != "FULLY_CONNECTED" and win.nchw:
            _layout_passes_fit((n, h, wd, c), (n, oh, ow, o))
        return ConvSpec(op.inputs[0], op.outputs[0], n, h, wd, c, oh, ow, o, weff, x.zero_point, zw,
                        _signed(x), int(w.type is not T.TENSOR_QUANT8_ASYMM), params, tuple(stride),
                        tuple(dil), tuple(pads), self.kind)

    def nchw(self, sg, op) -> bool:
        if self.kind == "FULLY_CONNECTED":
            return False
        spec_inputs = {"CONV_2D": gnn.CONV_INPUTS, "DEPTHWISE_CONV_2D": gnn.DEPTHWISE_INPUTS,
                       "GROUPED_CONV_2D": gnn.GROUPED_INPUTS}[self.kind]
        return _window_spec(sg, op, spec_inputs).nchw

    def scratch(self, sg, op) -> list[int]:
        if not self.nchw(sg, op):
            return []
        return [math.prod(sg.operands[op.inputs[0]].dimensions), math.prod(sg.operands[op.outputs[0]].dimensions)]

    def passes(self, ctx, op) -> list:
        s = self.spec(ctx.sg, op, ctx.clamp, ctx.model.origin)
        if not self.nchw(ctx.sg, op):
            return conv_passes(ctx, s)
        sub, x, y = _nhwc_scratch(ctx, op)
        s.x, s.y = x, y
        return _in_nhwc(ctx, sub, op, (s.n, s.h, s.w, s.c), (s.n, s.oh, s.ow, s.o), conv_passes(sub, s), self.kind)


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


def _conv_tiles(cfg: HwConfig, s: ConvSpec, c_blocks: int, o_blocks: int, kept: int = 0):
    """Candidate output tiles ``(toh, tow)``: for each tile width, the tallest tile whose buffers
    fit (double-buffered input tiles of ``c_blocks`` channel blocks below the staging bank, output
    tiles of ``o_blocks`` blocks in it, two alternating + ``kept`` accumulator tiles in ACC) and
    whose fields fit the ISA."""
    fh, fw = s.weff.shape[:2]
    in_l, stag_l = act_split(cfg)
    acc_lines = cfg.lines("ACC")
    out = []
    for tow in range(min(s.ow, MAX8), 0, -1):
        iw = (tow - 1) * s.stride[1] + (fw - 1) * s.dilation[1] + 1
        if iw > MAX8 or s.stride[1] > MAX8:
            continue
        toh = min(s.oh, MAX8, acc_lines // tow)
        while toh > 0:
            ih = (toh - 1) * s.stride[0] + (fh - 1) * s.dilation[0] + 1
            if (ih <= MAX8 and 2 * c_blocks * ih * iw <= in_l and 2 * o_blocks * toh * tow <= stag_l
                    and acc_tiles_fit(cfg, toh * tow, kept)):
                break
            toh -= 1
        if toh:
            out.append((toh, tow))
    return out


def _chunk_blocks(group: list, per_block: list, chunks: list):
    """How the output blocks of a pass meet its input-channel chunks: ``(touched, done_at, span,
    ndone)`` — the chunks each block reads, the chunk after which it is complete (it is
    requantized and stored in that chunk's stage), the blocks that read several chunks (each keeps
    its own ACC tile across them: ``span`` maps them to 0, 1, ...; the others share two
    alternating tiles), and the most blocks completed in one stage (its output buffer)."""
    touched = {co: {k for k, c in enumerate(chunks) for key in per_block[co] if key[2] in c} for co in group}
    done_at = {co: max(touched[co]) for co in group}
    span = {co: n for n, co in enumerate(c for c in group if len(touched[c]) > 1)}
    ndone = max(sum(1 for co in group if done_at[co] == k) for k in range(len(chunks)))
    return touched, done_at, span, ndone


def _conv_plan(cfg: HwConfig, s: ConvSpec, cb: int, group: list, per_block: list, stream: bool = False):
    """Chooses the output tile and the input-channel chunking of one pass by an estimate of its
    cycles (compute, load and store overlap, so the pass costs about the largest of the three);
    returns ``(estimate, toh, tow, chunks)`` or ``None`` when nothing fits.

    With one chunk (all input-channel blocks loaded per tile) each output block is accumulated and
    requantized in turn through one ACC tile; with several chunks every output block of the pass
    keeps its own ACC tile across the chunks and is requantized after the last one. With
    ``stream`` the weight tiles a chunk needs are loaded with its input (double-buffered WGT
    halves) instead of once per pass."""
    R = cfg.rows
    fh, fw = s.weff.shape[:2]
    nkeys = sum(len(per_block[co]) for co in group)
    ng = len(group)
    beats = _ceil(R, cfg.dma_bytes_per_cycle)
    total_px = s.n * s.oh * s.ow
    slot = cfg.lines("WGT") // R // 2
    used = sorted({key[2] for co in group for key in per_block[co]})  # input blocks the pass reads
    cb = len(used)
    best = None
    for kc in sorted({cb, *[k for k in (1, 2, 3, 4, 6, 8, 12, 16) if k < cb]}, reverse=True):
        chunks = [used[k:k + kc] for k in range(0, cb, kc)]
        wload = 0
        if stream:
            per_chunk = [sum(1 for co in group for key in per_block[co] if key[2] in c) for c in chunks]
            if max(per_chunk) > slot:
                continue
            wload = sum(t * R * beats + cfg.ext_latency for t in per_chunk)
        _, _, span, ndone = _chunk_blocks(group, per_block, chunks)
        for toh, tow in _conv_tiles(cfg, s, kc, ndone, len(span)):
            tiles = s.n * _ceil(s.oh, toh) * _ceil(s.ow, tow)
            ih = (toh - 1) * s.stride[0] + (fh - 1) * s.dilation[0] + 1
            iw = (tow - 1) * s.stride[1] + (fw - 1) * s.dilation[1] + 1
            rows = 1 if s.stride[0] * iw <= MAX8 else toh
            compute = nkeys * (total_px + tiles * rows * 3 * R)
            vec = ng * (total_px * _ceil(cfg.cols, cfg.vector_lanes) * _req_cycles(cfg)
                        + (REQ_LINES + cfg.vector_latency) * tiles)
            load = tiles * (cb * (ih * iw * beats + cfg.ext_latency) + wload)
            store = ng * (total_px * beats + tiles * cfg.ext_latency)
            # + the pipeline's fill and drain: a pass starts with a load nothing overlaps and ends
            # with stores nothing overlaps (the barrier between passes)
            fill = kc * (ih * iw * beats + cfg.ext_latency) + (wload // len(chunks) if stream else 0)
            drain = ng * (toh * tow * beats + cfg.ext_latency)
            # one DMA engine (dma_engines = 1) runs the loads and the stores one after another; an
            # in-order machine (in_order) runs every instruction one after another
            dma = load + store if cfg.dma_engines == 1 else max(load, store)
            busy = compute + vec + dma if cfg.in_order else max(compute, vec, dma)
            est = busy + tiles * len(chunks) * 8 + fill + drain
            if best is None or est < best[0]:
                best = (est, toh, tow, chunks)
    return best


def _row_groups(th: int, row_stride: int):
    """Output rows per instruction: all ``th`` at once when the ACT row stride fits its 8-bit
    field, else one instruction per row."""
    if row_stride <= MAX8 or th == 1:
        return [(0, th)]
    return [(r, 1) for r in range(th)]


def load_box(cfg, space, sp_addr, base, x0, y0, width, height, x_stride, y_stride, box_w, box_h,
             ln, fill, comment) -> list[Ins]:
    """LOADs of the ``box_h x box_w`` box of lines at ``sp_addr`` whose line ``(by, bx)`` is the
    external line ``(y0 + by, x0 + bx)`` of a ``height x width`` grid at ``base`` (strides in
    bytes), lines outside the grid filled with ``fill``. Uses the LOAD padding fields when the
    border is at most 3 lines, else a fill pass and one LOAD per row."""
    top, left = max(0, -y0), max(0, -x0)
    bottom, right = max(0, y0 + box_h - height), max(0, x0 + box_w - width)
    vh, vw = box_h - top - bottom, box_w - left - right
    ext = base + (y0 + top) * y_stride + (x0 + left) * x_stride
    if vh <= 0 or vw <= 0:
        return [Ins("LOAD", {"sp": space, "len": 0, "sp_addr": sp_addr, "ext_addr": cfg.dma_base, "x_size": box_w,
                                 "y_size": box_h, "x_stride": 0, "y_stride": 0, "fill": _byte(fill)}, comment + " (padding)")]
    if max(top, bottom, left, right) <= MAX_PAD:
        return [Ins("LOAD", {"sp": space, "len": ln, "sp_addr": sp_addr, "ext_addr": ext, "x_size": box_w, "y_size": box_h,
                                 "x_stride": x_stride, "y_stride": y_stride, "pad_top": top, "pad_bottom": bottom,
                                 "pad_left": left, "pad_right": right, "fill": _byte(fill)}, comment)]
    out = [Ins("LOAD", {"sp": space, "len": 0, "sp_addr": sp_addr, "ext_addr": cfg.dma_base, "x_size": box_w, "y_size": box_h,
                            "x_stride": 0, "y_stride": 0, "fill": _byte(fill)}, comment + " (padding)")]
    for r in range(vh):
        out.append(Ins("LOAD", {"sp": space, "len": ln, "sp_addr": sp_addr + (top + r) * box_w + left,
                                    "ext_addr": ext + r * y_stride, "x_size": vw, "y_size": 1, "x_stride": x_stride,
                                    "y_stride": 0, "fill": _byte(fill)}, comment + f" row {r}"))
    return out


def conv_passes(ctx: LowerContext, s: ConvSpec) -> list:
    cfg, R = ctx.cfg, ctx.cfg.rows
    fh, fw = s.weff.shape[:2]
    cb, ob = _ceil(s.c, R), _ceil(s.o, R)
    # weight tiles per output block: (tap_y, tap_x, c block) whose bytes are not all the zero point
    wpad = np.full((fh, fw, cb * R, ob * R), _byte(s.zw), np.uint8)
    wpad[:, :, :s.c, :s.o] = s.weff
    tiles = wpad.reshape(fh, fw, cb, R, ob, R).transpose(4, 0, 1, 2, 3, 5)  # [ob, fh, fw, cb, R, R]
    live = (tiles != _byte(s.zw)).any(axis=(4, 5))
    per_block = []
    for co in range(ob):
        keys = [tuple(int(v) for v in k) for k in np.argwhere(live[co])] or [(0, 0, 0)]
        per_block.append(keys)
    if _pointwise(s):
        raw = pointwise_pass(ctx, s, tiles, per_block)
        if raw is not None:
            return [raw]
    if s.c * s.w > MAX16 or s.o * s.ow > MAX16:
        raise CannotLower("a tensor row is wider than the DMA stride field")
    wgt_tiles = cfg.lines("WGT") // R
    vec_blocks = min(cfg.lines("VEC") // REQ_LINES, MAX8 // REQ_LINES)
    # resident weights: passes of at most ``cap`` output blocks whose weight tiles fit the WGT
    # scratchpad (fewer blocks per pass leave room for larger tiles, at the price of re-reading
    # the input once per pass)
    plans = []
    if max(len(k) for k in per_block) <= wgt_tiles:
        for cap in sorted({min(ob, vec_blocks), *[n for n in (1, 2, 3, 4, 6, 8) if n < min(ob, vec_blocks)]}):
            groups, cur, used = [], [], 0
            for co in range(ob):
                k = len(per_block[co])
                if cur and (used + k > wgt_tiles or len(cur) >= cap):
                    groups.append(cur)
                    cur, used = [], 0
                cur.append(co)
                used += k
            groups.append(cur)
            plan = [(g, _conv_plan(cfg, s, cb, g, per_block)) for g in groups]
            if all(p is not None for _, p in plan):
                plans.append((sum(p[0] for _, p in plan), False, plan))
    # streamed weights: passes of ``ng`` output blocks, each chunk's tiles loaded with its input
    for ng in sorted({min(ob, vec_blocks), *[n for n in (1, 2, 4, 8, 16) if n < min(ob, vec_blocks)]}):
        groups = [list(range(c, min(ob, c + ng))) for c in range(0, ob, ng)]
        plan = [(g, _conv_plan(cfg, s, cb, g, per_block, stream=True)) for g in groups]
        if all(p is not None for _, p in plan):
            plans.append((sum(p[0] for _, p in plan), True, plan))
    if not plans:
        raise CannotLower(f"no tiling fits: one output block needs {max(len(k) for k in per_block)} weight "
                          f"tiles, WGT holds {wgt_tiles}")
    _, stream, plan = min(plans, key=lambda x: (x[0], x[1]))
    sh, sw = s.stride
    dh, dw = s.dilation
    top, _, left, _ = s.pads
    passes = []
    for g, (_, toh, tow, chunks) in plan:
        kc = len(chunks[0])
        ih = (toh - 1) * sh + (fh - 1) * dh + 1
        iw = (tow - 1) * sw + (fw - 1) * dw + 1
        in_lines = kc * ih * iw
        _, done_at, span, ndone = _chunk_blocks(g, per_block, chunks)
        out_lines = ndone * toh * tow
        in_base = (0, in_lines)
        stag0 = act_split(cfg)[0]
        out_base = (stag0, stag0 + out_lines)
        # constants of the pass: weight tiles in the order of use (per chunk when streamed), REQ
        # parameter blocks
        worders = [[(co, key) for co in g for key in per_block[co] if not stream or key[2] in c] for c in
                   (chunks if stream else [None])]
        waddrs = [ctx.consts.add(b"".join(tiles[co][key].tobytes() for co, key in o)) for o in worders]
        slots = [{ok: i for i, ok in enumerate(o)} for o in worders]
        half = cfg.lines("WGT") // R // 2
        blocks = []
        for co in g:
            sl = slice(co * R, min(s.o, co * R + R))
            blocks.append(param_block(cfg, "REQ", **{k: (v[sl] if np.ndim(v) else v) for k, v in s.params.items()}))
        def wload(which: int, base: int, worders=worders, waddrs=waddrs) -> list[Ins]:
            out, n = [], len(worders[which])
            for k in range(0, n, MAX8):
                nt = min(MAX8, n - k)
                out.append(Ins("LOAD", {"sp": "WGT", "len": R, "sp_addr": base + k * R,
                                        "ext_addr": waddrs[which] + k * R * R, "x_size": R, "y_size": nt,
                                        "x_stride": R, "y_stride": R * R},
                               f"{s.what}: weight tiles {k}..{k + nt - 1}" + (f" of chunk {which}" if stream else "")))
            return out

        pre = [] if stream else wload(0, 0)
        pre += load_vec(cfg, ctx.consts, vec_blob(blocks), 0, f"{s.what}: requantization parameters")
        # an output block is requantized and stored in the stage of the last chunk it reads
        stages = []
        st = nreq = 0
        for nb in range(s.n):
            xbase = ctx.addr[s.x] + nb * s.h * s.w * s.c
            for oy0 in range(0, s.oh, toh):
                th = min(toh, s.oh - oy0)
                ih_t = (th - 1) * sh + (fh - 1) * dh + 1
                for ox0 in range(0, s.ow, tow):
                    tw = min(tow, s.ow - ox0)
                    iy0, ix0 = oy0 * sh - top, ox0 * sw - left
                    started = set()
                    for kk, chunk in enumerate(chunks):
                        p = st % 2
                        loads = list(pre) if st == 0 else []
                        wbase = p * half * R if stream else 0
                        if stream:
                            loads += wload(kk, wbase)
                        slot = slots[kk if stream else 0]
                        for q, ci in enumerate(chunk):
                            ln = min(R, s.c - ci * R)
                            loads += load_box(cfg, "ACT", in_base[p] + q * ih * iw, xbase + ci * R, ix0, iy0,
                                              s.w, s.h, s.c, s.w * s.c, iw, ih_t, ln, s.zx,
                                              f"{s.what}: input tile n{nb} y{oy0} x{ox0} c{ci * R}")
                        computes, stores = [], []
                        ndone_here = 0
                        for j, co in enumerate(g):
                            # one accumulator tile per output block spanning chunks, else two
                            # alternating: the REQ of one block overlaps the GEMMs of the next
                            acc0 = acc_slot(cfg, toh * tow, nreq % 2, span.get(co))
                            for key in per_block[co]:
                                ky, kx, ci = key
                                if ci not in chunk:
                                    continue
                                a0 = in_base[p] + chunk.index(ci) * ih * iw + ky * dh * iw + kx * dw
                                for r0, nr in _row_groups(th, sh * iw):
                                    computes.append(Ins("GEMM", {
                                        "accumulate": int(co in started), "preload": int(r0 == 0),
                                        "act_signed": s.x_signed, "wgt_signed": s.w_signed, "act": a0 + r0 * sh * iw,
                                        "acc": acc0 + r0 * tw, "wgt": wbase + slot[(co, key)] * R, "za": _byte(s.zx),
                                        "zw": _byte(s.zw), "nx": tw, "ny": nr, "act_xs": sw,
                                        "act_ys": sh * iw if nr > 1 else 0, "acc_xs": 1, "acc_ys": tw},
                                        f"{s.what}: out c{co * R} tap ({ky},{kx}) in c{ci * R}"))
                                started.add(co)
                            if kk != done_at[co]:
                                continue
                            nreq += 1
                            dst = out_base[p] + ndone_here * toh * tow
                            ndone_here += 1
                            computes.append(Ins("VEC", {"func": "REQ", "signed": 0, "dst": dst, "src": acc0,
                                                        "param": REQ_LINES * j, "nx": tw, "ny": th, "dst_xs": 1, "dst_ys": tw,
                                                        "src_xs": 1, "src_ys": tw},
                                                f"{s.what}: requantize out c{co * R}"))
                            ln = min(R, s.o - co * R)
                            ext = ctx.addr[s.y] + ((nb * s.oh + oy0) * s.ow + ox0) * s.o + co * R
                            stores.append(Ins("STORE", {"sp": "ACT", "len": ln, "sp_addr": dst, "ext_addr": ext,
                                                        "x_size": tw, "y_size": th, "x_stride": s.o,
                                                        "y_stride": s.ow * s.o},
                                              f"{s.what}: output tile n{nb} y{oy0} x{ox0} c{co * R}"))
                        stages.append((loads, computes, stores))
                        st += 1
        passes.append(stages)
    return passes


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
        for k in _even_split(n, _ceil(n, MAX_KTILES)):
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
    cb, ob = _ceil(s.c, R), _ceil(s.o, C)
    lat, beats = cfg.ext_latency, _ceil(R, cfg.dma_bytes_per_cycle)
    pbeats = _ceil(4 * C, cfg.dma_bytes_per_cycle)
    in_l, stag_l = act_split(cfg)
    p_max = cfg.lines("ACC") // PW_ACC
    nxs = {min(m, MAX8)} | {_ceil(m, k) for k in range(1, min(m, 64) + 1)}
    nxs |= {d for d in range(1, min(m, MAX8) + 1) if m % d == 0}
    wl = sum(0 if resident_w else lat + k * R * beats for gs in groups for _, k in gs)
    pl = 0 if resident_p else ob * (lat + REQ_LINES * pbeats)
    best = None
    for nx in sorted(x for x in nxs if 0 < x <= MAX8):
        ny = min(MAX8, p_max // nx, _ceil(m, nx))
        while ny >= 1:
            p = nx * ny
            ins = 1 if len(_pixel_blocks(m, nx, ny)) == 1 else 2
            if ins * cb * p <= in_l and PW_STAGING * p <= stag_l:
                break
            ny -= 1
        if ny < 1 or (ny > 1 and max(nx * s.c, nx * s.o) > MAX16):
            continue
        total = fill = 0
        for _, bx, by in _pixel_blocks(m, nx, ny):
            p = bx * by
            comp = sum(R + k * max(p, R) + R + C for gs in groups for _, k in gs)
            vec = ob * (REQ_LINES + p * _ceil(C, cfg.vector_lanes) * _req_cycles(cfg) + cfg.vector_latency)
            store = ob * (lat + p * beats)
            inp = (2 * lat if by == 1 else cb * lat) + cb * p * beats
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
    m = s.n * s.h * s.w
    cb, ob = _ceil(s.c, R), _ceil(s.o, C)
    groups = [_ktile_groups(sorted(key[2] for key in per_block[j])) for j in range(ob)]
    ntiles = sum(k for gs in groups for _, k in gs)
    gmax = max(k for gs in groups for _, k in gs)
    wgt_l, vec_l = cfg.lines("WGT"), cfg.lines("VEC")
    resident_w = ntiles * R <= wgt_l
    if not resident_w and PW_AHEAD * gmax * R > wgt_l:
        return None
    resident_p = ob * REQ_LINES <= min(vec_l, MAX8)
    if not resident_p and PW_PARAMS * REQ_LINES > vec_l:
        return None
    plan = _pointwise_plan(cfg, s, groups, resident_w, resident_p)
    if plan is None:
        return None
    _, nx, ny = plan
    pmax = nx * ny
    blocks = _pixel_blocks(m, nx, ny)
    nin = 1 if len(blocks) == 1 else 2
    in_base = [k * cb * pmax for k in range(nin)]
    stag_base = [act_split(cfg)[0] + k * pmax for k in range(PW_STAGING)]
    acc_base = [acc_slot(cfg, pmax, k) for k in range(PW_ACC)]
    what = s.what
    common = {"act_signed": s.x_signed, "wgt_signed": s.w_signed, "za": _byte(s.zx), "zw": _byte(s.zw)}
    # constants: weight tiles in (output tile, group) order; REQ parameter blocks
    order = [(j, c0 + t) for j in range(ob) for c0, k in groups[j] for t in range(k)]
    waddr = ctx.consts.add(b"".join(tiles[j][(0, 0, ci)].tobytes() for j, ci in order))
    gpos, pos = {}, 0
    for j in range(ob):
        for c0, k in groups[j]:
            gpos[(j, c0)] = pos
            pos += k
    pblocks = []
    for j in range(ob):
        sl = slice(j * C, min(s.o, j * C + C))
        pblocks.append(param_block(cfg, "REQ", **{k: (v[sl] if np.ndim(v) else v) for k, v in s.params.items()}))

    def wgt_load(sp_addr: int, first: int, n: int, comment: str) -> list[Ins]:
        out = []
        for k in range(0, n, MAX8):
            nt = min(MAX8, n - k)
            out.append(Ins("LOAD", {"sp": "WGT", "len": R, "sp_addr": sp_addr + k * R,
                                    "ext_addr": waddr + (first + k) * R * R, "x_size": R, "y_size": nt,
                                    "x_stride": R, "y_stride": R * R}, comment))
        return out

    def input_loads(b: int) -> list[list[Ins]]:
        """The LOADs of block ``b``'s input, as pieces ``(first K tile, end K tile, LOADs)``."""
        m0, bx, by = blocks[b]
        base, p = in_base[b % nin], bx * by
        ext = ctx.addr[s.x] + m0 * s.c
        full = s.c // R
        pieces = []
        if by == 1 and full > 1:
            split = _even_split(full, max(min(full, 4), _ceil(full, MAX8)))  # y_size is 8 bits
            for f0, n in zip(np.cumsum([0] + split)[:-1], split):
                f0 = int(f0)
                pieces.append((f0, f0 + n, [Ins("LOAD", {"sp": "ACT", "len": R, "sp_addr": base + f0 * p,
                                            "ext_addr": ext + f0 * R, "x_size": bx, "y_size": n, "x_stride": s.c,
                                            "y_stride": R, "fill": _byte(s.zx)},
                                   f"{what}: input rows {m0}..{m0 + p - 1} k{f0 * R}..{(f0 + n) * R - 1}")]))
            first = full
        else:
            first = 0
        for t in range(first, cb):
            pieces.append((t, t + 1, [Ins("LOAD", {"sp": "ACT", "len": min(R, s.c - t * R), "sp_addr": base + t * p,
                                        "ext_addr": ext + t * R, "x_size": bx, "y_size": by, "x_stride": s.c,
                                        "y_stride": bx * s.c if by > 1 else 0, "fill": _byte(s.zx)},
                               f"{what}: input rows {m0}..{m0 + p - 1} k{t * R}")]))
        return pieces

    # steps: (block, output tile, group)
    steps = [(b, j, gi) for b in range(len(blocks)) for j in range(ob) for gi in range(len(groups[j]))]
    first_of_block = {}
    for i, (b, j, gi) in enumerate(steps):
        first_of_block.setdefault(b, i)
    # input pieces of block b: spread over the load batches of the steps after the first step of
    # block b - 1 (block b - 2, which used the same slot, is then done); before the token of the
    # step that needs them at the latest
    # block 0: each piece before the token of the first step whose GEMM reads one of its tiles
    lead: dict[int, list[Ins]] = {}
    trail: dict[int, list[Ins]] = {}
    for t0, t1, pc in input_loads(0):
        first = next((i for i, (b, j, gi) in enumerate(steps) if b == 0 and
                      groups[j][gi][0] < t1 and t0 < groups[j][gi][0] + groups[j][gi][1]), 0)
        lead.setdefault(first, []).extend(pc)
    for b in range(1, len(blocks)):
        k0, k1 = first_of_block[b - 1] + 1, first_of_block[b]
        pieces = input_loads(b)
        slots = list(range(k0, k1)) or [k1]
        for n, pc in enumerate(pieces):
            k = slots[min(len(slots) - 1, n * len(slots) // len(pieces))]
            (lead if k == k1 else trail).setdefault(k, []).extend(pc[2])
    pre = []
    if resident_w:
        pre += wgt_load(0, 0, ntiles, f"{what}: weight tiles (resident)")
    if resident_p:
        pre += load_vec(cfg, ctx.consts, vec_blob(pblocks), 0, f"{what}: requantization parameters")

    L, G, V, S = [], [], [], []
    acc_of = []
    a = -1
    for i, (b, j, gi) in enumerate(steps):
        c0, k = groups[j][gi]
        if gi == 0:
            a += 1
        acc_of.append(a)
        m0, bx, by = blocks[b]
        p = bx * by
        own = list(pre) if i == 0 else []
        if resident_w:
            wbase = gpos[(j, c0)] * R
        else:
            wbase = (i % PW_AHEAD) * gmax * R
            own += wgt_load(wbase, gpos[(j, c0)], k, f"{what}: weight tiles out c{j * C} k{c0 * R}..")
        pslot = j * REQ_LINES if resident_p else (a % PW_PARAMS) * REQ_LINES
        if not resident_p and gi == 0:
            own += load_vec(cfg, ctx.consts, vec_blob([pblocks[j]]), pslot, f"{what}: requantization parameters "
                            f"out c{j * C}")
        own += lead.get(i, [])
        own = own or [nop("load", f"{what}: nothing to load for step {i}")]
        if i >= PW_AHEAD:
            token(own[0], C2L, "pop")
        token(own[-1], L2C, "push")
        L.append(own + trail.get(i, []))
        acc = acc_base[a % PW_ACC]
        g = Ins("GEMM", {"accumulate": int(gi > 0), "preload": 1, "kt": k - 1, "act": in_base[b % nin] + c0 * p,
                         "acc": acc, "wgt": wbase, "nx": bx, "ny": by, "act_xs": 1, "act_ys": bx, "acc_xs": 1,
                         "acc_ys": bx, **common},
                f"{what}: rows {m0}..{m0 + p - 1} out c{j * C} k{c0 * R}..{(c0 + k) * R - 1}")
        token(g, L2C, "pop")
        token(g, C2L, "push")
        if gi == 0 and a >= PW_ACC:
            token(g, V2C, "pop")
        last = gi == len(groups[j]) - 1
        G.append(g)
        if not last:
            V.append([])
            S.append([])
            continue
        token(g, C2V, "push")
        stag = stag_base[a % PW_STAGING]
        v = Ins("VEC", {"func": "REQ", "signed": 0, "dst": stag, "src": acc, "param": pslot, "nx": bx, "ny": by,
                        "dst_xs": 1, "dst_ys": bx, "src_xs": 1, "src_ys": bx},
                f"{what}: requantize rows {m0}.. out c{j * C}")
        token(v, C2V, "pop")
        if a >= PW_STAGING:
            token(v, S2V, "pop")
        token(v, V2S, "push")
        token(v, V2C, "push")
        st = Ins("STORE", {"sp": "ACT", "len": min(C, s.o - j * C), "sp_addr": stag,
                           "ext_addr": ctx.addr[s.y] + m0 * s.o + j * C, "x_size": bx, "y_size": by,
                           "x_stride": s.o, "y_stride": bx * s.o if by > 1 else 0}, f"{what}: output rows {m0}.. c{j * C}")
        token(st, V2S, "pop")
        token(st, S2V, "push")
        V.append([v])
        S.append([st])
    out = RawPass()
    n = len(steps)
    for t in range(n + 2):
        if t < n:
            out += L[t]
        if 0 <= t - 1 < n:
            out.append(G[t - 1])
        if 0 <= t - 2 < n:
            out += V[t - 2] + S[t - 2]
    return out


# ================================================================================ pooling
class PoolLowering(Lowering):
    family = "pool"

    def __init__(self, kind: str):
        self.kind = kind

    def check(self, sg, op) -> None:
        self.spec(sg, op)

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

    def scratch(self, sg, op) -> list[int]:
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


def pool_passes(ctx, s: dict, kind: str) -> list:
    cfg, R = ctx.cfg, ctx.cfg.rows
    fh, fw = s["filter"]
    sh, sw = s["stride"]
    top, _bottom, left, _right = s["pads"]
    cb = _ceil(s["c"], R)
    if s["c"] * max(s["w"], s["ow"]) > MAX16:
        raise CannotLower("a tensor row is wider than the DMA stride field")
    avg = kind == "AVERAGE_POOL_2D"
    qmin = qrange(T.TENSOR_QUANT8_ASYMM_SIGNED if s["signed"] else T.TENSOR_QUANT8_ASYMM)[0]
    fill = 0 if avg else qmin
    # window counts per output position, and the parameter blocks (DIV: div, lo, hi; CLAMP: lo, hi)
    counts = gnn.pool_window_counts((s["h"], s["w"]), (fh, fw), (sh, sw), s["pads"], (s["oh"], s["ow"]))
    in_l, stag_l = act_split(cfg)
    acc_lines = cfg.lines("ACC")
    best = None
    for tow in range(min(s["ow"], MAX8), 0, -1):
        iw = (tow - 1) * sw + fw
        if iw > MAX8 or sw > MAX8:
            continue
        toh = min(s["oh"], MAX8, acc_lines // tow)
        while toh > 0:
            ih = (toh - 1) * sh + fh
            if ih <= MAX8 and 2 * cb * ih * iw <= in_l and 2 * cb * toh * tow <= stag_l:
                break
            toh -= 1
        if toh and (best is None or toh * tow > best[0] * best[1]):
            best = (toh, tow)
    if best is None:
        raise CannotLower("no pooling tile fits the scratchpads")
    toh, tow = best
    ih, iw = (toh - 1) * sh + fh, (tow - 1) * sw + fw
    in_lines, out_lines = cb * ih * iw, cb * toh * tow
    in_base, out_base = (0, in_lines), (in_l, in_l + out_lines)
    distinct = sorted({int(v) for v in counts.reshape(-1)})
    if avg:
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
            for ox0 in range(0, s["ow"], tow):
                tw = min(tow, s["ow"] - ox0)
                p = st % 2
                iy0, ix0 = oy0 * sh - top, ox0 * sw - left
                loads = list(pre) if st == 0 else []
                xbase = ctx.addr[s["x"]] + nb * s["h"] * s["w"] * s["c"]
                computes, stores = [], []
                for ci in range(cb):
                    ln = min(R, s["c"] - ci * R)
                    src0 = in_base[p] + ci * ih * iw
                    loads += load_box(cfg, "ACT", src0, xbase + ci * R, ix0, iy0, s["w"], s["h"], s["c"],
                                      s["w"] * s["c"], iw, (th - 1) * sh + fh, ln, fill, f"{what}: input tile y{oy0} x{ox0} c{ci * R}")
                    dst = out_base[p] + ci * toh * tow
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
                    if avg:
                        computes += _div_regions(counts[oy0:oy0 + th, ox0:ox0 + tw], blocks, dst, tw, what, ci * R)
                    else:
                        computes.append(Ins("VEC", {"func": "CLAMP", "signed": s["signed"], "dst": dst, "src": dst, "param": plines,
                                                        "nx": tw, "ny": th, "dst_xs": 1, "dst_ys": tw, "src_xs": 1, "src_ys": tw},
                                            f"{what}: fused activation c{ci * R}"))
                    ext = ctx.addr[s["y"]] + ((nb * s["oh"] + oy0) * s["ow"] + ox0) * s["c"] + ci * R
                    stores.append(Ins("STORE", {"sp": "ACT", "len": ln, "sp_addr": dst, "ext_addr": ext, "x_size": tw, "y_size": th,
                                                    "x_stride": s["c"], "y_stride": s["ow"] * s["c"]},
                                      f"{what}: output tile y{oy0} x{ox0} c{ci * R}"))
                # MAX keeps the running maximum in the output buffer (its src2), which the STORE of
                # the previous tile reads: one read port, so max-pooling tiles run one at a time
                stages.append((loads, computes, stores, not avg))
                st += 1
    return [stages]


def _runs(v: np.ndarray):
    """Maximal runs ``(start, stop, value)`` of equal values of a 1-D array."""
    out, start = [], 0
    for i in range(1, len(v) + 1):
        if i == len(v) or v[i] != v[start]:
            out.append((start, i, int(v[start])))
            start = i
    return out


def _div_regions(counts: np.ndarray, blocks: dict, dst: int, tw: int, what: str, c0: int) -> list[Ins]:
    """DIV instructions over rectangles of equal window count (counts = row count x column count,
    so rows with equal row profiles and columns with equal column profiles form rectangles)."""
    out = []
    row_keys = [tuple(r) for r in counts]
    col_keys = [tuple(c) for c in counts.T]
    rr = _runs(np.array([row_keys.index(k) for k in row_keys]))
    cr = _runs(np.array([col_keys.index(k) for k in col_keys]))
    for y0, y1, _ in rr:
        for x0, x1, _ in cr:
            d = int(counts[y0, x0])
            line = dst + y0 * tw + x0
            out.append(Ins("VEC", {"func": "DIV", "signed": 0, "dst": line, "src": y0 * tw + x0, "param": blocks[d],
                                       "nx": x1 - x0, "ny": y1 - y0, "dst_xs": 1, "dst_ys": tw, "src_xs": 1, "src_ys": tw},
                           f"{what}: average over {d} pixels c{c0}"))
    return out


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


def lines_passes(ctx, what, srcs, dst_index, nbytes, func, param_rows, signed, table=None) -> list:
    """A line-wise vector operation over ``nbytes`` bytes: ``srcs`` (one or two operand indexes)
    loaded to ACT input buffers, ``func`` applied into an output buffer, stored to ``dst_index``
    (input buffers are only read by compute and output buffers only written by it, as the stage
    tokens require)."""
    cfg = ctx.cfg
    nsrc = len(srcs)
    serial, region, in_at, out_at_p = _line_layout(cfg, nsrc)
    chunks = _line_chunks(cfg, nbytes, region - 1)
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
    family = "eltwise"

    def __init__(self, kind: str):
        self.kind = kind

    def check(self, sg, op) -> None:
        self.params(sg, op)

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
        return lines_passes(ctx, self.kind, srcs, op.outputs[0], n, func, rows, _signed(a))


class LutLowering(Lowering):
    """Unary int8 non-linearities: the table is the golden kernel evaluated on every byte."""

    family = "lut"

    def __init__(self, kind: str):
        self.kind = kind

    def check(self, sg, op) -> None:
        _need_quant8(sg, [op.inputs[0], op.outputs[0]])
        _need_known(sg, [op.inputs[0], op.outputs[0]])
        if len(op.inputs) != 1:
            raise CannotLower("extra inputs")

    def table(self, ctx, op) -> np.ndarray:
        from nnaccel import registry
        x = ctx.sg.operands[op.inputs[0]]
        dtype = np.int8 if x.type is T.TENSOR_QUANT8_ASYMM_SIGNED else np.uint8
        allbytes = np.arange(256, dtype=np.uint8).view(dtype)
        interp = types.SimpleNamespace(model=ctx.model, rng=np.random.default_rng(0))
        k = KernelContext(interp, ctx.sg, 0, op, [allbytes])
        out = np.asarray(registry.get(op.type).kernel(k)[0])
        return out.astype(np.int64) & 0xFF

    def passes(self, ctx, op) -> list:
        x = ctx.sg.operands[op.inputs[0]]
        n = int(np.prod(x.dimensions))
        return lines_passes(ctx, self.kind, [op.inputs[0]], op.outputs[0], n, "LUT", None, _signed(x),
                            table=self.table(ctx, op))


class AliasLowering(Lowering):
    """Layout no-ops: the output is the input's bytes (same quantization)."""

    family = "alias"

    def check(self, sg, op) -> None:
        _need_quant8(sg, [op.inputs[0], op.outputs[0]])
        _need_known(sg, [op.inputs[0], op.outputs[0]])
        _need_const(sg, op, range(1, len(op.inputs)))
        a, o = sg.operands[op.inputs[0]], sg.operands[op.outputs[0]]
        if a.type is not o.type or a.scale != o.scale or a.zero_point != o.zero_point:
            raise CannotLower("the output's quantization differs from the input's")
        if math.prod(a.dimensions) != math.prod(o.dimensions):
            raise CannotLower("element counts differ")

    def alias(self) -> bool:
        return True

    def passes(self, ctx, op) -> list:
        return []


#: ACT buffers of DMA-only stages (a LOAD fills the buffer a STORE then reads): the load of stage
#: ``s`` waits for compute ``s - 2``, which waited for store ``s - 4``, so four buffers rotate.
DMA_BUFFERS = 4


class ConcatLowering(Lowering):
    """CONCATENATION as DMA: each input's rows (the bytes from the axis on) are loaded into ACT
    line by line and stored at their offset in the output rows. An input quantized differently
    from the output is first rescaled into a scratch copy by a LUT pass: the golden kernel's
    per-input rescale (``requantize_float_scaling``, float32 arithmetic) is a function of the one
    input byte, so its table over all 256 bytes is exact."""

    family = "dma"

    def check(self, sg, op) -> None:
        self.spec(sg, op)

    def spec(self, sg, op):
        ins, axis_i = op.inputs[:-1], op.inputs[-1]
        _need_quant8(sg, [*ins, op.outputs[0]])
        _need_known(sg, [*ins, op.outputs[0]])
        _need_const(sg, op, [len(op.inputs) - 1])
        o = sg.operands[op.outputs[0]]
        for i in ins:
            if sg.operands[i].type is not o.type:
                raise CannotLower("an input's type differs from the output's")
        rank = len(o.dimensions)
        axis = int(np.asarray(sg.operands[axis_i].data).reshape(-1)[0])
        axis = axis + rank if axis < 0 else axis
        outer = math.prod(o.dimensions[:axis])
        inner_out = math.prod(o.dimensions[axis:])
        parts, off = [], 0
        for i in ins:
            x = sg.operands[i]
            inner = math.prod(x.dimensions[axis:])
            parts.append((i, inner, off, x.scale != o.scale or x.zero_point != o.zero_point))
            off += inner
        if inner_out > MAX16:
            raise CannotLower("an output row is wider than the DMA stride field")
        return outer, inner_out, parts

    def tensors(self, sg, op) -> list[int]:
        return [*dict.fromkeys(op.inputs[:-1]), op.outputs[0]]

    def scratch(self, sg, op) -> list[int]:
        _, _, parts = self.spec(sg, op)
        return [math.prod(sg.operands[i].dimensions) for i, _, _, rq in parts if rq]

    def passes(self, ctx, op) -> list:
        from nnaccel.golden.shape import requantize_float_scaling
        outer, inner_out, parts = self.spec(ctx.sg, op)
        o = ctx.sg.operands[op.outputs[0]]
        nrq = sum(1 for p in parts if p[3])
        if len(ctx.scratch) < nrq:
            raise CannotLower("no scratch memory for the rescaled inputs")
        passes, stages, k = [], [], 0
        for n_part, (i, inner, off, rq) in enumerate(parts):
            src = ctx.addr[i]
            x = ctx.sg.operands[i]
            if rq:
                key = f"concat rescaled part {n_part}"
                sub = dataclasses.replace(ctx, addr={**ctx.addr, key: ctx.scratch[k]})
                dtype = np.int8 if x.type is T.TENSOR_QUANT8_ASYMM_SIGNED else np.uint8
                table = requantize_float_scaling(np.arange(256, dtype=np.uint8).view(dtype), x, o)
                passes += lines_passes(sub, f"CONCATENATION: rescale input operand {i}", [i], key,
                                       math.prod(x.dimensions), "LUT", None, _signed(x),
                                       table=np.asarray(table).astype(np.int64) & 0xFF)
                src = ctx.scratch[k]
                k += 1
            stages += copy_stages(ctx.cfg, src, [inner], ctx.addr[op.outputs[0]] + off, [inner_out], [outer],
                                  inner, f"CONCATENATION: input operand {i} to output offset {off}",
                                  first_stage=len(stages))
        return [*passes, stages]


class BatchMatmulLowering(Lowering):
    """BATCH_MATMUL (quant8 signed): per batch, the right operand's rows are loaded straight into
    WGT tiles (``tile[k][n] = Y[k0 + k][n0 + n]``), the left operand's rows into ACT, one GEMM
    per (K block, N block), REQ with the golden model's multiplier. An adjoint operand
    (``adj_x`` / ``adj_y``) is first transposed into a scratch copy by byte-gather DMA passes."""

    family = "matmul"

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

    def scratch(self, sg, op) -> list[int]:
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
        cb, ob = _ceil(k, R), _ceil(n, R)
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


def transpose_stages(cfg: HwConfig, src: int, dst: int, batch: int, rows: int, cols: int, what: str) -> list:
    """DMA-only stages that transpose ``batch`` row-major ``rows x cols`` byte matrices at ``src``
    into ``cols x rows`` ones at ``dst``, one byte per ACT line (``len = 1`` boxes: gathered with
    the source's strides, scattered with the destination's)."""
    err = None
    # out[b][j][i] = in[b][i][j]; x over one of the two axes, y over the other
    for order in ((0, 1, 2), (0, 2, 1)):
        dims = [batch, cols, rows]          # output index (b, j, i)
        s_st = [rows * cols, 1, cols]       # source strides of (b, j, i)
        d_st = [rows * cols, rows, 1]
        dims, s_st, d_st = ([v[o] for o in order] for v in (dims, s_st, d_st))
        try:
            return copy_stages(cfg, src, s_st, dst, d_st, dims, 1, what)
        except CannotLower as e:
            err = e
    raise err


def copy_stages(cfg: HwConfig, src: int, src_strides, dst: int, dst_strides, dims, row: int, what: str,
                first_stage: int = 0) -> list:
    """Stages that copy a strided box of rows through ACT: for every index ``i`` of ``dims`` (outer
    dimensions, strides in bytes per side), the ``row`` contiguous bytes at ``src + i . src_strides``
    go to ``dst + i . dst_strides``. A row is cut into lines of ``cols`` bytes; a LOAD / STORE box
    covers the pieces of a row (or, for rows of one line, the innermost dimension) times the next
    dimension; the remaining dimensions are loops."""
    R = cfg.cols
    budget = cfg.lines("ACT") // DMA_BUFFERS
    xmax = min(MAX8, budget)  # lines of one box: the x_size field, and one buffer
    dims, src_strides, dst_strides = list(dims) or [1], list(src_strides) or [0], list(dst_strides) or [0]
    pieces = [(x0 * R, min(xmax, row // R - x0), R) for x0 in range(0, row // R, xmax)]
    if row % R:
        pieces.append(((row // R) * R, 1, row % R))
    if row <= R:  # one line per row: x runs over the innermost dimension
        xd = [(len(dims) - 1, dims[-1])]
        outer = list(range(len(dims) - 1))
    else:
        xd = None
        outer = list(range(len(dims)))
    ydim = outer.pop() if outer else None
    for strides in (src_strides, dst_strides):
        for d in ([xd[0][0]] if xd else []) + ([ydim] if ydim is not None else []):
            if strides[d] > MAX16:
                raise CannotLower("a stride is wider than the DMA stride field")
    stages = []
    for idx in np.ndindex(*[dims[d] for d in outer]) if outer else [()]:
        so = src + sum(i * src_strides[d] for i, d in zip(idx, outer))
        do = dst + sum(i * dst_strides[d] for i, d in zip(idx, outer))
        ny_total = dims[ydim] if ydim is not None else 1
        boxes = []
        if xd:
            d, n = xd[0]
            for x0 in range(0, n, xmax):
                nx = min(xmax, n - x0)
                boxes.append((x0 * src_strides[d], x0 * dst_strides[d], nx, src_strides[d], dst_strides[d], row))
        else:
            for off, nx, ln in pieces:
                boxes.append((off, off, nx, R, R, ln))
        # groups of boxes (pieces of a row) that fit one buffer; long rows take several stages
        groups, cur = [], []
        for box in boxes:
            if cur and sum(b[2] for b in cur) + box[2] > budget:
                groups.append(cur)
                cur = []
            cur.append(box)
        groups.append(cur)
        ys, yd = (src_strides[ydim], dst_strides[ydim]) if ydim is not None else (0, 0)
        for group in groups:
            per_y = sum(b[2] for b in group)
            step = max(1, min(MAX8, budget // per_y))
            for y0 in range(0, ny_total, step):
                ny = min(step, ny_total - y0)
                base = ((first_stage + len(stages)) % DMA_BUFFERS) * budget
                loads, stores, sp = [], [], base
                for soff, doff, nx, xs, xdst, ln in group:
                    loads.append(Ins("LOAD", {"sp": "ACT", "len": ln, "sp_addr": sp, "ext_addr": so + y0 * ys + soff,
                                              "x_size": nx, "y_size": ny, "x_stride": xs, "y_stride": ys}, what))
                    stores.append(Ins("STORE", {"sp": "ACT", "len": ln, "sp_addr": sp,
                                                "ext_addr": do + y0 * yd + doff, "x_size": nx, "y_size": ny,
                                                "x_stride": xdst, "y_stride": yd}, what))
                    sp += nx * ny
                stages.append((loads, [], stores))
    return stages


def _byte_strides(dims) -> list[int]:
    out, acc = [], 1
    for d in reversed(dims):
        out.append(acc)
        acc *= d
    return out[::-1]


class TransposeLowering(Lowering):
    """TRANSPOSE as DMA: a strided copy of whole rows when the last axis stays last, else a
    byte gather / scatter (one element per ACT line)."""

    family = "dma"

    def check(self, sg, op) -> None:
        self.spec(sg, op)

    def spec(self, sg, op):
        _need_quant8(sg, [op.inputs[0], op.outputs[0]])
        _need_known(sg, [op.inputs[0], op.outputs[0]])
        _need_const(sg, op, [1])
        x = sg.operands[op.inputs[0]]
        rank = len(x.dimensions)
        perm = None
        if len(op.inputs) > 1 and not sg.operands[op.inputs[1]].is_omitted:
            perm = [int(v) for v in np.asarray(sg.operands[op.inputs[1]].data).reshape(-1)]
        if not perm:
            perm = list(range(rank))[::-1]
        st = _byte_strides(x.dimensions)
        if perm[-1] != rank - 1 and max(st[perm[-1]], st[perm[-2]] if rank > 1 else 0) > MAX16:
            raise CannotLower("a stride is wider than the DMA stride field")
        return x.dimensions, perm

    def passes(self, ctx, op) -> list:
        dims, perm = self.spec(ctx.sg, op)
        st = _byte_strides(dims)
        out_dims = [dims[p] for p in perm]
        ost = _byte_strides(out_dims)
        if perm[-1] != len(dims) - 1:
            # the last axis moves: bytes gathered one per ACT line (``len = 1`` boxes) with the
            # input's strides and scattered with the output's
            return [copy_stages(ctx.cfg, ctx.addr[op.inputs[0]], [st[p] for p in perm], ctx.addr[op.outputs[0]],
                                ost, out_dims, 1, "TRANSPOSE: bytes")]
        return [copy_stages(ctx.cfg, ctx.addr[op.inputs[0]], [st[p] for p in perm[:-1]], ctx.addr[op.outputs[0]],
                            ost[:-1], out_dims[:-1], dims[-1], "TRANSPOSE: rows")]


class PadLowering(Lowering):
    """PAD / PAD_V2: the output is filled with the pad byte (LOAD fill + STORE), then the input rows
    are copied to their place (a STORE writes a line's bytes at any byte address, so padding of
    the last axis only offsets each row)."""

    family = "dma"

    def __init__(self, kind: str):
        self.kind = kind

    def check(self, sg, op) -> None:
        self.spec(sg, op)

    def spec(self, sg, op):
        _need_quant8(sg, [op.inputs[0], op.outputs[0]])
        _need_known(sg, [op.inputs[0], op.outputs[0]])
        _need_const(sg, op, range(1, len(op.inputs)))
        x, o = sg.operands[op.inputs[0]], sg.operands[op.outputs[0]]
        pads = np.asarray(sg.operands[op.inputs[1]].data).reshape(-1, 2)
        if self.kind == "PAD":
            value = o.zero_point
        else:
            value = _scalar(sg, op, 2)
            lo, hi = qrange(x.type)
            if value is None or not lo <= value <= hi:
                raise CannotLower("the pad value is outside the type's range")
        return x.dimensions, o.dimensions, [int(p) for p in pads[:, 0]], value

    def passes(self, ctx, op) -> list:
        cfg, R = ctx.cfg, ctx.cfg.cols
        dims, odims, before, value = self.spec(ctx.sg, op)
        out = ctx.addr[op.outputs[0]]
        total = math.prod(odims)
        budget = cfg.lines("ACT") // 2
        full, tail = divmod(total, R)
        filler = _fill_lines(cfg, 0, min(budget, full + (1 if tail else 0)), value, f"{self.kind}: pad value")
        stages = []
        for off, nl, tl in _line_chunks(cfg, total, budget - 1):
            stores = _line_dma(cfg, "STORE", 0, out + off, nl, tl, f"{self.kind}: fill output bytes {off}")
            stages.append((list(filler) if not stages else [], [], stores))
        ost = _byte_strides(odims)
        start = out + sum(b * s for b, s in zip(before, ost))
        # the copy uses the other half of ACT only after the fill stages are stored (in order)
        copy = copy_stages(cfg, ctx.addr[op.inputs[0]], _byte_strides(dims)[:-1], start, ost[:-1], dims[:-1],
                           dims[-1], f"{self.kind}: input rows", first_stage=1)
        return [stages, copy]


LOWERINGS: dict[str, Lowering] = {
    **{k: ConvLowering(k) for k in ("CONV_2D", "DEPTHWISE_CONV_2D", "GROUPED_CONV_2D", "FULLY_CONNECTED")},
    **{k: PoolLowering(k) for k in ("AVERAGE_POOL_2D", "MAX_POOL_2D")},
    **{k: EltwiseLowering(k) for k in ("ADD", "SUB", "MUL")},
    **{k: LutLowering(k) for k in ("RELU", "RELU1", "RELU6", "LOGISTIC", "TANH", "HARD_SWISH")},
    **{k: AliasLowering() for k in ("RESHAPE", "SQUEEZE", "EXPAND_DIMS")},
    "CONCATENATION": ConcatLowering(),
    "BATCH_MATMUL": BatchMatmulLowering(),
    "TRANSPOSE": TransposeLowering(),
    "PAD": PadLowering("PAD"),
    "PAD_V2": PadLowering("PAD_V2"),
}


def install() -> None:
    """Hangs each lowering on its registry entry (``OpDef.lowering``): the registry stays the one
    table of what runs where."""
    from nnaccel import registry
    registry.load_all()
    for name, low in LOWERINGS.items():
        registry.OPS[name].lowering = low
