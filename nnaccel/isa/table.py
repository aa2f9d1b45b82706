"""The ISA of the nnaccel accelerator as data: every instruction, field, vector function, fault
code and performance counter. Spec: ``docs/isa.md`` is generated from this module.

Everything that encodes, decodes, simulates, emits or documents instructions reads these tables:
the assembler / disassembler (:mod:`nnaccel.isa.codec`), the ISA simulator (``nnaccel.sim``), the
RTL decoder (``nnaccel.hw``, through :func:`field_layout`), the program builder
(:mod:`nnaccel.program`) and the documentation generator (:mod:`nnaccel.isa.docgen`).

An instruction is 128 bits, stored as 16 little-endian bytes. Bits ``[0:4]`` hold the opcode and
bits ``[4:8]`` the four dependency-token flags, the same in every instruction; the other fields
are per instruction, byte aligned where they can be. Bits no field uses are reserved and must be 0.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from itertools import pairwise

#: Instruction width in bits and bytes.
WIDTH = 128
WIDTH_BYTES = WIDTH // 8
#: Quantized ADD / SUB pre-shift (NNAPI / TFLite ``left_shift = 20``).
ADD_LEFT_SHIFT = 20


@dataclass(frozen=True)
class Field:
    """A bit field ``[lo, lo + width)`` of an instruction word (unsigned unless ``enum``)."""

    name: str
    lo: int
    width: int
    doc: str
    enum: tuple[str, ...] | None = None

    @property
    def hi(self) -> int:
        return self.lo + self.width

    @cached_property
    def mask(self) -> int:
        return ((1 << self.width) - 1) << self.lo

    @cached_property
    def max(self) -> int:
        return (1 << self.width) - 1


@dataclass(frozen=True)
class Instr:
    """One instruction kind: its opcode, the queue that executes it, its fields and its meaning."""

    name: str
    opcode: int
    queue: str
    fields: tuple[Field, ...]
    summary: str
    semantics: str
    cycles: str
    #: The boolean hardware-configuration field the instruction needs (a configuration without it
    #: decodes its opcode as ILLEGAL_OPCODE), or "" for every configuration.
    needs: str = ""

    @cached_property
    def all_fields(self) -> tuple[Field, ...]:
        return HEADER + self.fields

    @cached_property
    def field_map(self) -> dict[str, Field]:
        return {f.name: f for f in self.all_fields}

    @property
    def fetch_cycles(self) -> int:
        """Cycles the fetch unit spends on this instruction (see :data:`FETCH_CYCLES`)."""
        return FETCH_CYCLES[self.name]

    @cached_property
    def reserved_mask(self) -> int:
        used = 0
        for f in self.all_fields:
            used |= f.mask
        return ((1 << WIDTH) - 1) & ~used


#: Queues (engines) that execute instructions, in chain order; ``control`` is the fetch unit
#: itself. ``compute`` runs GEMM on the systolic array, ``vector`` runs VEC on the vector unit;
#: the four engines run concurrently.
QUEUES = ("load", "compute", "vector", "store")

#: Dependency-token channels ``(producer, consumer)``: a one-way FIFO of tokens each, between
#: neighbours of the chain load -> compute -> vector -> store. ``prev`` / ``next`` in the flag
#: names are relative to the executing queue's position in that chain.
TOKEN_CHANNELS = {(a, b): f"{a[0]}2{b[0]}" for x, y in pairwise(QUEUES) for a, b in ((x, y), (y, x))}

#: ``(queue, flag) -> channel`` for every flag a queue may set; a flag not listed here (load has
#: no previous queue, store no next) is ILLEGAL_FIELD.
FLAG_CHANNEL = {}
for _n, _q in enumerate(QUEUES):
    if _n > 0:
        FLAG_CHANNEL[(_q, "pop_prev")] = TOKEN_CHANNELS[(QUEUES[_n - 1], _q)]
        FLAG_CHANNEL[(_q, "push_prev")] = TOKEN_CHANNELS[(_q, QUEUES[_n - 1])]
    if _n + 1 < len(QUEUES):
        FLAG_CHANNEL[(_q, "pop_next")] = TOKEN_CHANNELS[(QUEUES[_n + 1], _q)]
        FLAG_CHANNEL[(_q, "push_next")] = TOKEN_CHANNELS[(_q, QUEUES[_n + 1])]
#: GEMM: at most this many K tiles in one instruction (the ``kt`` field + 1).
MAX_KTILES = 16
#: DWCONV: the lines each line buffer holds (more than the most input columns a DWCONV streams).
DW_LINE_LINES = 256
#: Allowed ``pe_pipeline`` of a hardware configuration: the registers between an array cell's
#: product and its accumulation (0: the cell multiplies and accumulates in one cycle).
PE_PIPELINE = (0, 1)


#: DWCONV: the stream step of its window's first line. The filter tile's rows are read from step 0
#: on, one a step; a row reaches its array cells two cycles after its read (its read, then its
#: zero point removed into a register), just before the first line gets there.
DW_STREAM_START = 2


def dw_window(d) -> tuple[int, int]:
    """A DWCONV's input window (decoded instruction ``d``): ``(H, L)``, its rows and the lines of
    a row (the output's window less the zero padding)."""
    return d.ny + d.fh - 1 - d.pad_top - d.pad_bottom, d.nx + d.fw - 1 - d.pad_left - d.pad_right


def dw_stream(d) -> int:
    """A DWCONV's stream steps ``S = (H + pad_bottom) * L + pad_right``: the window's lines, then
    the padding steps until its last output's last tap."""
    h, w = dw_window(d)
    return (h + d.pad_bottom) * w + d.pad_right


#: Allowed ``vector_pipeline`` of a hardware configuration: 0 = a vector lane computes a step's
#: result from the line read in the same cycle (one result register after it); 1 = the lane is
#: pipelined (:data:`VECTOR_LANE_STAGES` registers: the element and parameter select, the shifted
#: operand, the multiplier's inputs, its product, the product's sum, the rounding sum, the rounding
#: shift, the result).
VECTOR_PIPELINE = (0, 1)
#: Registers a result passes through from the cycle its (last) step is computed in until it
#: lands (``vector_pipeline`` 1).
VECTOR_LANE_STAGES = 8
#: ``vector_pipeline`` 1: the cycles a step that takes an earlier step's result (``VecFunc.waits``)
#: waits after the step before it: the result reaches the stage that takes the lane's operands
#: (the shifted operand's register, the lane's second) this many cycles after the step's last.
VECTOR_STEP_WAIT = 5


def vector_step_wait(pipeline: int) -> int:
    """Cycles a waiting step of a vector function waits (``W`` of the VEC timing) with the
    configuration's ``vector_pipeline``: 0 without the pipeline, else :data:`VECTOR_STEP_WAIT`."""
    return VECTOR_STEP_WAIT if pipeline else 0


def vector_groups_in_flight(mul_steps: int, pipeline: int) -> int:
    """``B``: the lane groups whose steps the pipelined lane (``vector_pipeline`` 1) interleaves for a
    function with a waiting step (``VecFunc.waits``). It issues the steps before the waiting one
    for ``B`` consecutive lane groups of the instruction (in line order), then their waiting steps
    in the same order, so the other groups' steps cover the wait: ``B = 1 + ceil(W / M)`` (``W``:
    :func:`vector_step_wait`, ``M``: :func:`mul_step_cycles`) is the least that covers it for a
    whole batch. 1 without the pipeline."""
    if not pipeline:
        return 1
    return 1 + -(-vector_step_wait(pipeline) // mul_step_cycles(mul_steps))


def batch_wait(mul_steps: int, pipeline: int, groups: int) -> int:
    """The cycles the pipelined lane waits before the waiting steps of a batch of ``groups`` lane
    groups (:func:`vector_groups_in_flight`): ``max(0, W - (groups - 1) * M)``, 0 for a whole batch
    and without the pipeline."""
    return max(0, vector_step_wait(pipeline) - (groups - 1) * mul_step_cycles(mul_steps))


def min_vector_latency(pipeline: int) -> int:
    """The least ``vector_latency`` of a configuration with ``vector_pipeline`` = ``pipeline``: the
    last lane group's results land in the instruction and its line is written from them (1 with
    the unpipelined lane, whose result registers take the steps there are)."""
    return VECTOR_LANE_STAGES + 1 if pipeline else 1


#: The instructions whose engine takes its first step a cycle after the instruction starts (VEC on
#: the vector queue): the start decision (the token check) reaches the engine through a register,
#: so no path runs from it into a scratchpad's read address. Their cycle formulas count that cycle
#: (:data:`ENGINE_START_CYCLES`); a NOP of those queues does not.
ENGINE_START_KINDS = ("VEC",)
#: The cycles before the engine's first step of an :data:`ENGINE_START_KINDS` instruction.
ENGINE_START_CYCLES = 1


#: The instructions of the array (the compute queue's GEMM and DWCONV).
ARRAY_KINDS = ("GEMM", "DWCONV")


def array_overlap_on(cfg) -> bool:
    """Whether configuration ``cfg`` has the queue model's array overlap: queues (not
    ``in_order``) and two weight buffers."""
    return not cfg.in_order and cfg.weight_buffers == 2


def array_overlaps(p, i) -> bool:
    """Whether compute-queue instruction ``i`` (decoded: ``name`` and field attributes) may start
    at the release of ``p``, the compute queue's instruction before it, on a machine with queues
    (the queue model's array overlap): two GEMMs of which ``i`` preloads its weights (so that its
    first result comes ``rows`` cycles after ``p``'s last), or two DWCONVs with the same filter
    shape and row length (the array's depthwise chain and line buffers keep their set-up)."""
    if p.name == i.name == "GEMM":
        return bool(i.preload)
    if p.name == i.name == "DWCONV":
        return (p.fh, p.fw, p.nx - p.pad_left - p.pad_right) == (i.fh, i.fw, i.nx - i.pad_left - i.pad_right)
    return False


def array_release(cfg, s: int, e: int, floor: int) -> int:
    """The cycle at which a GEMM / DWCONV that starts at ``s`` and completes at ``e`` releases the
    compute queue (the queue model's array overlap): ``max(e - (rows + cols + pe_pipeline), s + rows,
    floor)``, ``floor`` the completion of the compute queue's instruction before it."""
    return max(e - cfg.gemm_pipeline, s + cfg.rows, floor)


def array_drain(rows: int, cols: int, pe_pipeline: int) -> int:
    """The cycles a GEMM / DWCONV spends after its last streaming slot until its last result is
    written (the array's fill and drain): ``rows + cols + pe_pipeline``; the term of both cycle
    formulas."""
    return rows + cols + pe_pipeline


HEADER = (
    Field("opcode", 0, 4, "instruction kind (see the opcode table); 0 is illegal"),
    Field("pop_prev", 4, 1, "wait for and take a token from the previous queue before starting"),
    Field("pop_next", 5, 1, "wait for and take a token from the next queue before starting"),
    Field("push_prev", 6, 1, "send a token to the previous queue when done"),
    Field("push_next", 7, 1, "send a token to the next queue when done"),
)
FLAG_NAMES = ("pop_prev", "pop_next", "push_prev", "push_next")

SPACE_ENUM = ("ACT", "WGT", "ACC", "VEC")
QUEUE_ENUM = QUEUES


def _dma_fields(load: bool) -> tuple[Field, ...]:
    fs = [
        Field("sp", 8, 2, "scratchpad", SPACE_ENUM),
        Field("len", 10, 6, "elements transferred per line (0 .. line width); the rest of a loaded "
                            "line is set to `fill`"),
        Field("sp_addr", 16, 16, "first scratchpad line"),
        Field("ext_addr", 32, 32, "external byte address of the first transferred line"),
        Field("x_size", 64, 8, "lines per row of the box (padding included)"),
        Field("y_size", 72, 8, "rows of the box (padding included)"),
        Field("x_stride", 80, 16, "external bytes between consecutive lines of a row"),
        Field("y_stride", 96, 16, "external bytes between consecutive rows"),
    ]
    if load:
        fs += [
            Field("pad_top", 112, 2, "rows of padding (filled lines) at the top of the box"),
            Field("pad_bottom", 114, 2, "rows of padding at the bottom"),
            Field("pad_left", 116, 2, "lines of padding at the start of each row"),
            Field("pad_right", 118, 2, "lines of padding at the end of each row"),
            Field("fill", 120, 8, "fill byte (sign-extended to int32 for ACC / VEC)"),
        ]
    return tuple(fs)


_STRIDED_2D = """
Line addressing: element `(y, x)` of an `ny x nx` iteration uses line
`base + y * ys + x * xs` of its scratchpad (per operand `base`, `xs`, `ys`)."""

INSTRUCTIONS: tuple[Instr, ...] = (
    Instr("LOAD", 1, "load", _dma_fields(True),
          "DMA a box of lines from external memory into a scratchpad, with padding",
          """The box has `y_size` rows of `x_size` lines; box line `(y, x)` is scratchpad line
`sp_addr + y * x_size + x`. A line is a *data line* when
`pad_top <= y < y_size - pad_bottom` and `pad_left <= x < x_size - pad_right`; its first `len`
elements are read from external address
`ext_addr + (y - pad_top) * y_stride + (x - pad_left) * x_stride` (`len * element_bytes`
contiguous bytes, little-endian for int32 spaces) and its other elements are `fill`. Every other
box line is a *padding line*: all its elements are `fill`. Fill is the raw byte for ACT / WGT and
the byte sign-extended to int32 for ACC / VEC. Element widths: ACT and WGT 1 byte, ACC and VEC
4 bytes. Faults: `len` above the line width or `pad_top + pad_bottom > y_size` or
`pad_left + pad_right > x_size` (ILLEGAL_FIELD); box lines beyond the scratchpad
(SCRATCHPAD_RANGE); a data byte outside the DMA window (DMA_WINDOW).""",
          "`ext_latency + x_size * y_size * max(1, ceil(len * element_bytes / dma_bytes_per_cycle))`"),
    Instr("STORE", 2, "store", _dma_fields(False),
          "DMA a box of scratchpad lines to external memory",
          """Box line `(y, x)` (`y < y_size`, `x < x_size`) is scratchpad line
`sp_addr + y * x_size + x`; its first `len` elements are written to external address
`ext_addr + y * y_stride + x * x_stride` (little-endian for int32 spaces). Lines are written in
order `y` then `x`, so a later line wins where boxes overlap. Faults: `len` above the line width
(ILLEGAL_FIELD); lines beyond the scratchpad (SCRATCHPAD_RANGE); a byte outside the DMA window
(DMA_WINDOW, nothing is written).""",
          "`ext_latency + x_size * y_size * max(1, ceil(len * element_bytes / dma_bytes_per_cycle))`"),
    Instr("GEMM", 3, "compute", (
        Field("accumulate", 8, 1, "1: add to the accumulator line; 0: overwrite it"),
        Field("preload", 9, 1, "1: first load the weight tile at `wgt` into the array"),
        Field("act_signed", 10, 1, "activation bytes are int8 (1) or uint8 (0)"),
        Field("wgt_signed", 11, 1, "weight bytes are int8 (1) or uint8 (0)"),
        Field("kt", 12, 4, "K tiles after the first: the instruction runs `kt + 1` weight tiles "
                           "over the same accumulator lines (needs `preload` when nonzero)"),
        Field("act", 16, 16, "first ACT line (base of the activation operand)"),
        Field("acc", 32, 16, "first ACC line (base of the result)"),
        Field("wgt", 48, 16, "first WGT line of the weight tile (`rows` lines)"),
        Field("za", 64, 8, "activation zero point, as a byte read per `act_signed`"),
        Field("zw", 72, 8, "weight zero point, as a byte read per `wgt_signed`"),
        Field("nx", 80, 8, "inner iteration count"),
        Field("ny", 88, 8, "outer iteration count"),
        Field("act_xs", 96, 8, "ACT line stride per x"),
        Field("act_ys", 104, 8, "ACT line stride per y"),
        Field("acc_xs", 112, 8, "ACC line stride per x"),
        Field("acc_ys", 120, 8, "ACC line stride per y"),
    ), "Stream activation lines through the systolic array (weight stationary)",
          """The instruction runs `T = kt + 1` *K tiles* `t = 0 .. T-1`. For tile `t`, the weight
tile is WGT lines `wgt + t*rows .. wgt + t*rows + rows-1` and the activation base is
`act_t = act + t * ny * act_ys` (the next `ny` rows of the activation iteration). If `preload` is 1,
the array loads each tile's weights: for `k < rows`, `n < cols`,
`W_t[k][n] = byte(WGT[wgt + t*rows + k][n]) - zw` (bytes and `zw` read as int8 when `wgt_signed`,
else uint8), a signed 9-bit value; the last tile's weights stay in the array until the next
preload. With `preload` 0, `kt` must be 0 and the weights held in the array are used
(ILLEGAL_FIELD otherwise). Then for `y < ny`, `x < nx` in that order:
`a_t[k] = byte(ACT[act_t + y*act_ys + x*act_xs][k]) - za` (9-bit, read per `act_signed`) and
`ACC[acc + y*acc_ys + x*acc_xs][n] = wrap32(old + sum_t sum_k a_t[k] * W_t[k][n])` where `old` is the
line's previous value when `accumulate` is 1 and 0 otherwise (tiles after the first always add to
what the earlier tiles wrote). The ACC lines of one GEMM should be distinct (a repeated line
accumulates in iteration order in the reference simulator; hardware may differ). Faults: ACT / ACC
/ WGT lines of any tile beyond their scratchpads (SCRATCHPAD_RANGE); `kt > 0` without `preload`
(ILLEGAL_FIELD).

Timing: the array holds two weight tiles (double buffering), so tile `t + 1`'s weights are loaded
while tile `t` streams; each tile streams for `max(nx * ny, rows)` cycles, and the results of the
last tile leave the array `rows + cols + pe_pipeline` cycles after its streaming ends (`pe_pipeline`:
the configuration's registers between a cell's product and its accumulation). With one weight tile
(the configuration's `weight_buffers = 1`) tile `t + 1`'s weights are loaded in the `rows` cycles
after tile `t` has streamed its `nx * ny` lines; the last tile streams for `max(nx * ny, 1)`
cycles."""
          + _STRIDED_2D,
          "`(preload ? rows : 0) + (kt + 1) * max(nx * ny, rows) + rows + cols + pe_pipeline`; with "
          "`weight_buffers = 1`: `(preload ? rows : 0) + kt * (nx * ny + rows) + max(nx * ny, 1) + rows + cols "
          "+ pe_pipeline`"),
    Instr("VEC", 4, "vector", (
        Field("func", 8, 4, "vector function (see the vector function table)"),
        Field("signed", 12, 1, "ACT bytes read by this instruction are int8 (1) or uint8 (0)"),
        Field("accumulate", 13, 1, "SUMW: 1 adds to the destination, 0 overwrites it (ignored by the "
                                   "other functions)"),
        Field("round", 14, 1, "REQ: 0 applies the multiplier with gemmlowp's double rounding (`mbqm`, "
                              "NNAPI), 1 with a single rounding half away from zero (`srm`, LiteRT's "
                              "FULLY_CONNECTED; see REQ); ignored by the other functions"),
        Field("dst", 16, 16, "first destination line"),
        Field("src", 32, 16, "first source line"),
        Field("src2", 48, 16, "first second-source line (uses the destination strides)"),
        Field("param", 64, 16, "first VEC line of the function's parameter block"),
        Field("nx", 80, 8, "inner iteration count"),
        Field("ny", 88, 8, "outer iteration count"),
        Field("dst_xs", 96, 8, "destination (and src2) line stride per x"),
        Field("dst_ys", 104, 8, "destination (and src2) line stride per y"),
        Field("src_xs", 112, 8, "source line stride per x"),
        Field("src_ys", 120, 8, "source line stride per y"),
    ), "Apply a vector function line by line (requantize, elementwise, pooling, lookup table)",
          """First the vector unit reads the function's parameter block: `P` lines from
`VEC[param ...]` (see the vector function table; parameter `j` of lane `n` is
`VEC[param + j][n]`, a LUT's entry `i` is `VEC[param + i // cols][i % cols]` low byte). Then for
`y < ny`, `x < nx` in that order it computes line `dst + y*dst_ys + x*dst_xs` of the function's
destination space from line `src + y*src_ys + x*src_xs` (and line `src2 + y*dst_ys + x*dst_xs`
for binary functions), lane by lane. ACT bytes are read as int8 when `signed` is 1, else uint8;
results written to ACT are stored as their low 8 bits (the functions clamp them first). Within one
instruction a line must not be read after the instruction wrote it, except at the same iteration
(in-place `dst == src2` is fine). Faults: an undefined `func` (ILLEGAL_FIELD); lines beyond a
scratchpad (SCRATCHPAD_RANGE)."""
          + _STRIDED_2D,
          "`" + str(ENGINE_START_CYCLES) + " + P + G * S * M + Z * w + vector_latency` (" + str(ENGINE_START_CYCLES)
          + ": the engine's start, `ENGINE_START_CYCLES`; `G = nx * ny * ceil(cols / vector_lanes)`: the lane groups; "
          "`S`: the function's steps per lane group, see the vector function table; `M`, for the functions whose steps multiply (REQ, "
          "ADDQ, SUBQ, MULQ, DIV: column `M` of the table), else 1: the hardware configuration's "
          "`vector_mul_steps` (1, 2 or 4: the cycles in which a lane forms its 32 x 32 product), or 66 "
          "when it is 32 (the bit-serial lane: 32 cycles of product, one multiplier bit a cycle, then 33 "
          "of one-bit right shifts and one of rounding, whatever the operands); `Z`: the function's steps "
          "that take an earlier step's result (column `Z`), and `w` the wait for it: with `vector_pipeline` 1 "
          "the pipelined lane issues the other steps of `B = 1 + ceil(W / M)` consecutive lane groups, then "
          "their waiting steps (`W` = " + str(VECTOR_STEP_WAIT) + ": the cycles a step's result takes to the "
          "lane's operands), so only a last batch of `r = G mod B` groups, `r > 0`, waits "
          "`w = max(0, W - (r - 1) * M)`; else `w` = 0 (`nnaccel.isa.table.VecFunc.groups_cycles`, "
          "`mul_step_cycles`, `vector_groups_in_flight`, `batch_wait`)"),
    Instr("RDPERF", 5, "store", (
        Field("ext_addr", 32, 32, "external byte address of the counter snapshot"),
    ), "Write a snapshot of the performance counters to external memory",
          """Writes every performance counter (see the counter table) as a little-endian uint64
(its `counter_bits`-bit value zero-extended) to `ext_addr + 8 * id`. After the latency, its first `B = ceil(N_COUNTERS / k)` cycles
`t = s + ext_latency .. s + ext_latency + B - 1` (`s`: its start cycle; cycles count from the
program's start) write `k = ceil(N_COUNTERS / ceil(8 * N_COUNTERS / dma_bytes_per_cycle))`
counters each: cycle `t` writes counters `k * (t mod B) .. k * (t mod B) + k - 1`, sampled at `t`
(so they come out in rotated order, `nnaccel.isa.table.rdperf_sample_cycle`). A counter sampled
at `t` reads: `cycles` = `t`; a stall counter, the stall cycles before `t`; every other counter,
exactly the instructions that completed at or before `t` (their events count when they complete).
The program must not read the snapshot back with LOAD. Faults: bytes outside the DMA window
(DMA_WINDOW).""",
          "`ext_latency + ceil(8 * N_COUNTERS / dma_bytes_per_cycle)`"),
    Instr("NOP", 6, "control", (
        Field("queue", 8, 2, "queue that executes it", QUEUE_ENUM),
    ), "Do nothing on a queue (carries dependency tokens)",
          """Occupies the named queue for one cycle; useful to pass tokens along the chain.""",
          "`1`"),
    Instr("FINISH", 7, "control", (),
          "End of program",
          """The fetch unit stops fetching. The program is done when every instruction fetched
before FINISH has completed; total cycles = `max(fetch(FINISH) + 1, last completion)`. Tokens
left in the channels are discarded.""",
          "(none: see the queue model)"),
    Instr("DWCONV", 8, "compute", (
        Field("accumulate", 8, 1, "1: add to the accumulator line; 0: overwrite it"),
        Field("act_signed", 10, 1, "activation bytes are int8 (1) or uint8 (0)"),
        Field("wgt_signed", 11, 1, "weight bytes are int8 (1) or uint8 (0)"),
        Field("fh", 12, 2, "filter rows (1 .. `dw_line_buffers` + 1)"),
        Field("pad_top", 14, 2, "rows of zero padding above the input window (`pad_top + pad_bottom < fh`)"),
        Field("act", 16, 16, "first ACT line: the top left line of the input window"),
        Field("acc", 32, 16, "first ACC line (output (0, 0))"),
        Field("wgt", 48, 16, "first WGT line of the filter tile (`rows` lines)"),
        Field("za", 64, 8, "activation zero point, as a byte read per `act_signed`"),
        Field("zw", 72, 8, "weight zero point, as a byte read per `wgt_signed`"),
        Field("nx", 80, 8, "output columns (1 .. 256 - fw)"),
        Field("ny", 88, 8, "output rows (1 .. 256 - fh)"),
        Field("pad_left", 96, 4, "columns of zero padding left of the input window (`pad_left + pad_right < fw`)"),
        Field("pad_right", 100, 4, "columns of zero padding right of the input window"),
        Field("act_ys", 104, 8, "ACT lines between consecutive input rows"),
        Field("fw", 112, 6, "filter columns (1 .. rows), with `fh * fw <= rows`"),
        Field("pad_bottom", 118, 2, "rows of zero padding below the input window"),
        Field("acc_ys", 120, 8, "ACC lines between consecutive output rows"),
    ), "Depthwise convolution on the array: the filter taps along its rows, one channel per column",
          """A stride-1 depthwise convolution of one block of `cols` channels: lane `n` of every line is
channel `n`. With `T = fh * fw` taps, the input window is the `H x L` lines
`ACT[act + r * act_ys + x]` (`r < H`, `x < L`), `H = ny + fh - 1 - pad_top - pad_bottom` rows of
`L = nx + fw - 1 - pad_left - pad_right` lines, and `in(r, x)` is `byte(ACT[act + r * act_ys +
x][n]) - za` inside the window and 0 outside it (the zero padding: `pad_top` rows above it,
`pad_bottom` below, `pad_left` columns left of it, `pad_right` right of it; only the window's
lines are read). The instruction loads the filter tile: for `t < rows`, `n < cols`,
`W[t][n] = byte(WGT[wgt + t][n]) - zw` for `t < T` and 0 for `t >= T` (read per `wgt_signed`);
row `t` holds the tap `(ky, kx) = divmod(T - 1 - t, fw)` (the last tap first), and the tile
stays in the array as the held weights (a later GEMM with `preload` 0 uses it). For
`oy < ny`, `ox < nx`: `ACC[acc + oy * acc_ys + ox][n] = wrap32(old + sum_{ky < fh, kx < fw}
in(oy + ky - pad_top, ox + kx - pad_left) * W[T - 1 - (ky * fw + kx)][n])`, with `old`
the line's previous value when `accumulate` is 1, else 0. A filter of more rows runs as several
DWCONVs (one per group of rows, accumulating), a filter wider than `rows` taps on the host or as
a GEMM.

Timing: the filter tile loads one row a cycle, row `t` in cycle `t`, and the window streams
through the array one line a cycle in row order from cycle `DW_STREAM_START` = """ + str(DW_STREAM_START) + """ (row `t` of the array takes its
first line after its filter row is in place): `S = (H + pad_bottom) * L + pad_right` stream steps
(`nnaccel.isa.table.dw_stream`), the window's `H * L` lines and then `pad_bottom * L + pad_right` steps of zero padding.
Each column keeps its channel's lines, each array row sees them one tap later than the row above, and
`fh - 1` line buffers (of `DW_LINE_LINES` = """ + str(DW_LINE_LINES) + """ lines) delay them by
one input row (`L` lines) between filter rows; a tap whose input lies in the padding adds 0 (the
array row's product is masked). Output `(oy, ox)` leaves the array `rows + cols + pe_pipeline`
cycles after stream step `(oy + fh - 1 - pad_top) * L + ox + fw - 1 - pad_left` (the step of its
last tap's line, or of the padding after it); the other steps write nothing. Faults: `fh` 0 or
above `dw_line_buffers + 1`, `fw` 0, `fh * fw > rows`, `nx` or `ny` 0, `nx + fw - 1` or
`ny + fh - 1` above 255, `pad_top + pad_bottom >= fh`, `pad_left + pad_right >= fw`, or `fh > 1`
with `nx <= pad_left + pad_right` (between filter rows a line buffer adds `L - fw` cycles to the
array rows' one-tap steps, so `L >= fw`) (ILLEGAL_FIELD); window, output or filter lines beyond their scratchpads (SCRATCHPAD_RANGE). On a
configuration without the depthwise mode (`depthwise_mode` false) DWCONV is ILLEGAL_OPCODE.""",
          "`" + str(DW_STREAM_START) + " + S + rows + cols + pe_pipeline`, "
          "`S = (H + pad_bottom) * L + pad_right`", needs="depthwise_mode"),
)

BY_NAME: dict[str, Instr] = {i.name: i for i in INSTRUCTIONS}
BY_OPCODE: dict[int, Instr] = {i.opcode: i for i in INSTRUCTIONS}

#: Fields whose bits the fetch unit's range / window checks walk one per cycle (the products
#: ``count * stride`` of the checks, multiplied bit-serially by shift-and-add): the box and DMA
#: counts of LOAD / STORE, the line strides of GEMM / VEC.
CHECK_OPERANDS = {
    "LOAD": ("x_size", "y_size"),
    "STORE": ("x_size", "y_size"),
    "GEMM": ("act_xs", "act_ys", "acc_xs", "acc_ys"),
    "DWCONV": ("act_ys", "acc_ys"),
    "VEC": ("dst_xs", "dst_ys", "src_xs", "src_ys"),
}
#: Cycles of the bit-serial range / window checks: one per bit of the widest walked field.
CHECK_STEPS = max(BY_NAME[n].field_map[f].width for n, fs in CHECK_OPERANDS.items() for f in fs)
#: Cycles the fetch unit spends on one instruction of each kind: 2 (one decides the checks, one
#: holds the verdict in a register, so that no path runs from the instruction word through the
#: checks into the fetch unit's control), or for the kinds whose scratchpad-range / DMA-window
#: checks multiply (:data:`CHECK_OPERANDS`) 3 + :data:`CHECK_STEPS`: one cycle takes the operands,
#: one per operand bit multiplies, one decides, one holds the verdict.
FETCH_CYCLES = {i.name: 3 + CHECK_STEPS if i.name in CHECK_OPERANDS else 2 for i in INSTRUCTIONS}
#: The queues whose instructions run on the DMA: with one DMA engine (the configuration's
#: ``dma_engines = 1``) at most one of their instructions runs at a time.
DMA_QUEUES = ("load", "store")
#: With one DMA engine: the queue whose head starts when both DMA queues' heads can start in the
#: same cycle (docs/isa.md, the queue model). LOAD first: loads feed the array and the vector unit,
#: so delaying one stalls the engines behind it, while a store only drains results that nothing
#: waits for until the next barrier.
DMA_PRIORITY = "load"


#: ``vector_mul_steps`` of the bit-serial vector lane: its 32 x 32 product takes one multiplier bit
#: a cycle (32 cycles, shift-and-add on one adder, no DSP multiplier).
SERIAL_MUL_STEPS = 32
#: Cycles the bit-serial lane spends on a step after its product: up to 33 one-bit right shifts
#: (SRDHM's ``/ 2**31`` and the rounding shift by up to 32; DIV's ``30 + k`` shift) and one
#: rounding addition.
SERIAL_TAIL_CYCLES = 34


def mul_step_cycles(mul_steps: int) -> int:
    """Cycles of one step of a multiplying vector function (``M`` of the VEC timing) for the
    configuration's ``vector_mul_steps``: ``mul_steps`` itself (1, 2, 4: the product in that many
    pieces, the rest of the step combinational), or for the bit-serial lane
    (:data:`SERIAL_MUL_STEPS`) ``32 + SERIAL_TAIL_CYCLES`` = 66, whatever the operands."""
    return mul_steps + (SERIAL_TAIL_CYCLES if mul_steps == SERIAL_MUL_STEPS else 0)


#: Entries of the vector unit's lookup table (one per byte value).
LUT_ENTRIES = 256


def lut_lines(cols: int) -> int:
    """VEC lines holding one lookup table of ``cols`` entries a line."""
    return max(1, LUT_ENTRIES // cols)


@dataclass(frozen=True)
class VecFunc:
    """A vector function: where it reads and writes, its parameter block, its arithmetic."""

    name: str
    code: int
    src: str
    src2: str | None
    dst: str
    params: tuple[str, ...]
    semantics: str
    #: Steps per group of ``vector_lanes`` elements: each lane has one fixed-point multiplier
    #: (``mbqm``), so a function that needs it three times takes three steps.
    steps: int = 1
    #: Every step uses the lane's multiplier, which forms its 32 x 32 product over
    #: ``vector_mul_steps`` cycles (``M``), so each step takes ``M`` cycles (:meth:`group_cycles`).
    multiplies: bool = False
    #: ``((param, n), ...)``: parameters of which only the low ``n`` bits count, as a signed value
    #: (zero points and clamp bounds of byte results lie in [-256, 255], shifts in [-32, 31]), so
    #: the vector unit holds and computes with ``n`` bits; the others count with all 32.
    bits: tuple[tuple[str, int], ...] = ()
    #: Per-tensor parameters: only lane 0's value counts, for every element of the line (NNAPI
    #: quantizes these per tensor), so the vector unit holds one value instead of ``cols``.
    per_tensor: tuple[str, ...] = ()
    #: Steps whose product takes an earlier step's result: the last step, if any (MULQ's second,
    #: ADDQ's third). The pipelined lane (``vector_pipeline`` 1) interleaves the lane groups of such
    #: a function (:func:`vector_groups_in_flight`), and a batch shorter than that waits
    #: (:func:`batch_wait`, :meth:`groups_cycles`).
    waits: tuple[int, ...] = ()

    @property
    def binary(self) -> bool:
        return self.src2 is not None

    def param_bits(self, name: str) -> int:
        """How many low bits of parameter ``name`` count (signed); 32 when not narrowed."""
        return dict(self.bits).get(name, 32)

    def group_cycles(self, cfg) -> int:
        """Cycles per group of ``vector_lanes`` elements on the hardware configuration ``cfg``
        (whole batches): ``S * M``, with ``M`` = :func:`mul_step_cycles` of the configuration's
        ``vector_mul_steps`` when the function multiplies, else ``S``."""
        if not self.multiplies:
            return self.steps
        return self.steps * mul_step_cycles(cfg.vector_mul_steps)

    def groups_cycles(self, cfg, groups: int) -> int:
        """The cycles of the steps of ``groups`` lane groups (one instruction's): ``groups * S * M``
        and, for a function with a waiting step, the last batch's wait when it is short
        (``r = groups mod B``, :func:`vector_groups_in_flight`: ``batch_wait`` of ``r`` groups).
        The one rule the ISA simulator, the RTL and the compiler's estimates use."""
        n = max(groups, 0) * self.group_cycles(cfg)
        if self.waits and groups > 0:
            r = groups % vector_groups_in_flight(cfg.vector_mul_steps, cfg.vector_pipeline)
            n += len(self.waits) * (batch_wait(cfg.vector_mul_steps, cfg.vector_pipeline, r) if r else 0)
        return n

    def lines_cycles(self, cfg, lines: int) -> int:
        """:meth:`groups_cycles` of ``lines`` lines (``ceil(cols / vector_lanes)`` groups each)."""
        return self.groups_cycles(cfg, lines * -(-cfg.cols // cfg.vector_lanes))

    def param_lines(self, cols: int) -> int:
        """``P``: VEC lines read before the first result (LUT: the whole table)."""
        if self.params == ("table",):
            return lut_lines(cols)
        return len(self.params)


_MBQM = ("`mbqm(x, m, e)` = `nnaccel.quant.multiply_by_quantized_multiplier` (TFLite "
         "`MultiplyByQuantizedMultiplier`: `rounding_divide_by_pot(srdhm(wrap32(x << max(e, 0)), m), "
         "max(-e, 0))`)")
_SRM = ("`srm(x, m, e)` = `nnaccel.quant.single_rounding_multiply`: `x * m * 2**(e - 31)` rounded once, "
        "half away from zero, as `rounding_divide_by_pot(trunc(wrap32(x << max(e, 0)) * m / 2**30), "
        "max(-e, 0) + 1)`")


def _narrow(**groups: tuple[str, ...]) -> tuple[tuple[str, int], ...]:
    """``VecFunc.bits`` from ``b9=(names), b6=(names)``."""
    return tuple((name, int(k[1:])) for k, names in groups.items() for name in names)


def _per_tensor_doc(names: tuple[str, ...]) -> str:
    """The sentence of a function's semantics that states its per-tensor parameters."""
    return (" " + " / ".join(f"`{n}`" for n in names) + " are per tensor: only lane 0's value counts, "
            "for every element.")


def _narrow_doc(bits: tuple[tuple[str, int], ...]) -> str:
    """The sentence of a function's semantics that states its narrowed parameters."""
    by_n: dict[int, list[str]] = {}
    for name, n in bits:
        by_n.setdefault(n, []).append(f"`{name}`")
    parts = [f"{' / '.join(names)} only the low {n} bits" for n, names in sorted(by_n.items(), reverse=True)]
    return (" Of " + "; of ".join(parts) + " count, as a signed value (zero points and byte bounds lie in "
            "[-256, 255], shifts in [-32, 31]).")


_REQ_BITS = _narrow(b9=("zo", "lo", "hi"), b6=("shift",))
_ADD_BITS = _narrow(b9=("z1", "z2", "zo", "lo", "hi"), b6=("e1", "e2", "eo"))
_MUL_BITS = _narrow(b9=("z1", "z2", "zo", "lo", "hi"), b6=("e",))
_BOUND_BITS = _narrow(b9=("lo", "hi"))
_ADD_PARAMS = ("z1", "m1", "e1", "z2", "m2", "e2", "mo", "eo", "zo", "lo", "hi")
_MUL_PARAMS = ("z1", "z2", "m", "e", "zo", "lo", "hi")
_ALL_PER_TENSOR = " Every parameter is per tensor: only lane 0's value counts, for every element."

VEC_FUNCS: tuple[VecFunc, ...] = (
    VecFunc("REQ", 0, "ACC", None, "ACT", ("bias", "mult", "shift", "zo", "lo", "hi"),
            "`clamp(mbqm(wrap32(acc + bias), mult, shift) + zo, lo, hi)`, or with the instruction's "
            "`round` = 1 `clamp(srm(wrap32(acc + bias), mult, shift) + zo, lo, hi)`: requantization of int32 "
            "accumulators with a fused activation; per-channel when the lanes' parameters differ, "
            "per-tensor when they are equal. " + _MBQM + "; " + _SRM + "." + _narrow_doc(_REQ_BITS)
            + _per_tensor_doc(("zo", "lo", "hi")), bits=_REQ_BITS, per_tensor=("zo", "lo", "hi"),
            multiplies=True),
    VecFunc("ADDQ", 1, "ACT", "ACT", "ACT",
            _ADD_PARAMS,
            "quantized add as NNAPI `addQuant8`: `x1 = mbqm((a - z1) << 20, m1, e1)`, "
            "`x2 = mbqm((b - z2) << 20, m2, e2)`, `clamp(mbqm(x1 + x2, mo, eo) + zo, lo, hi)`."
            + _narrow_doc(_ADD_BITS) + _ALL_PER_TENSOR, steps=3, bits=_ADD_BITS, per_tensor=_ADD_PARAMS,
            multiplies=True, waits=(2,)),
    VecFunc("SUBQ", 2, "ACT", "ACT", "ACT",
            _ADD_PARAMS,
            "quantized subtract: as ADDQ with `x1 - x2`." + _narrow_doc(_ADD_BITS) + _ALL_PER_TENSOR, steps=3,
            bits=_ADD_BITS, per_tensor=_ADD_PARAMS, multiplies=True, waits=(2,)),
    VecFunc("MULQ", 3, "ACT", "ACT", "ACT", _MUL_PARAMS,
            "quantized multiply as NNAPI `mulQuant8`: `clamp(mbqm((a - z1) * (b - z2), m, e) + zo, "
            "lo, hi)`; two steps: the lane's one multiplier forms `(a - z1) * (b - z2)`, then `mbqm`."
            + _narrow_doc(_MUL_BITS) + _ALL_PER_TENSOR, steps=2, bits=_MUL_BITS, per_tensor=_MUL_PARAMS,
            multiplies=True, waits=(1,)),
    VecFunc("MAX", 4, "ACT", "ACT", "ACT", (),
            "`max(a, b)` (max pooling: one MAX per window tap, `src2 == dst`)"),
    VecFunc("SUMW", 5, "ACT", None, "ACC", (),
            "`(accumulate ? acc : 0) + a`: widening sum of activation bytes into int32 (average "
            "pooling: one SUMW per window tap)"),
    VecFunc("DIV", 6, "ACC", None, "ACT", ("half", "m", "s", "lo", "hi"),
            "division by a constant as a multiply and shift: `x = wrap32(abs(acc) + half)`, "
            "`q = (x * m) >> (30 + ((s - 30) & 31))` (exact signed 64-bit product, arithmetic shift; "
            "the shift lies in [30, 61], so it is `s` itself for every `s` that `div_params` makes), "
            "`clamp(acc < 0 ? -q : q, lo, hi)`. With `half = c // 2`, `s = 30 + ceil(log2 c)`, "
            "`m = ceil(2**s / c)` this is TFLite's average-pool rounding "
            "`sign(acc) * ((abs(acc) + c // 2) // c)` for every `abs(acc) + half < 2**30` "
            "(`nnaccel.isa.table.div_params`)." + _narrow_doc(_BOUND_BITS) + _per_tensor_doc(("lo", "hi")),
            bits=_BOUND_BITS, per_tensor=("lo", "hi"), multiplies=True),
    VecFunc("LUT", 7, "ACT", None, "ACT", ("table",),
            "`table[a & 0xFF]`: 256-entry lookup of the raw byte (int8 non-linearities: LOGISTIC, "
            "TANH, HARD_SWISH, ELU ...)"),
    VecFunc("CLAMP", 8, "ACT", None, "ACT", ("lo", "hi"),
            "`clamp(a, lo, hi)` (fused activation, RELU / RELU1 / RELU6, copy with a full range)."
            + _narrow_doc(_BOUND_BITS) + _per_tensor_doc(("lo", "hi")), bits=_BOUND_BITS, per_tensor=("lo", "hi")),
    VecFunc("BIAS", 9, "ACC", None, "ACC", ("bias",),
            "`wrap32(acc + bias)`"),
)
VEC_BY_NAME: dict[str, VecFunc] = {f.name: f for f in VEC_FUNCS}
VEC_BY_CODE: dict[int, VecFunc] = {f.code: f for f in VEC_FUNCS}


@dataclass(frozen=True)
class Fault:
    """A fault code of the status register."""

    name: str
    code: int
    doc: str


FAULTS: tuple[Fault, ...] = (
    Fault("OK", 0, "no fault: the program reached FINISH"),
    Fault("ILLEGAL_OPCODE", 1, "the opcode field names no instruction"),
    Fault("ILLEGAL_FIELD", 2, "a field value the instruction does not allow (reserved bits set, "
                              "undefined enum value, flag invalid for the queue, length too large)"),
    Fault("SCRATCHPAD_RANGE", 3, "a scratchpad line address beyond the scratchpad"),
    Fault("DMA_WINDOW", 4, "a DMA byte outside the permitted external-memory window"),
    Fault("DEADLOCK", 5, "every queue waits for a dependency token no instruction will send"),
    Fault("NO_FINISH", 6, "the program ended without a FINISH instruction"),
)
FAULT_BY_NAME: dict[str, Fault] = {f.name: f for f in FAULTS}
FAULT_BY_CODE: dict[int, Fault] = {f.code: f for f in FAULTS}


@dataclass(frozen=True)
class Counter:
    """A performance counter: ``counter_bits`` wide (a configuration field), read as uint64
    (:data:`COUNTER_RULE`)."""

    name: str
    id: int
    doc: str


COUNTERS: tuple[Counter, ...] = (
    Counter("cycles", 0, "clock cycles since the start"),
    Counter("instructions", 1, "instructions completed (FINISH not counted)"),
    Counter("array_busy", 2, "cycles of GEMM and DWCONV instructions (preload, streaming, fill/drain)"),
    Counter("macs", 3, "multiply-accumulates issued: rows * cols per streamed activation line and "
                       "K tile (GEMM) or per streamed input line (DWCONV)"),
    Counter("vector_busy", 4, "cycles of VEC instructions"),
    Counter("load_busy", 5, "cycles of LOAD instructions and load-queue NOPs"),
    Counter("store_busy", 6, "cycles of STORE / RDPERF instructions and store-queue NOPs"),
    Counter("dma_load_bytes", 7, "bytes read from external memory (`len * element_bytes` per data line)"),
    Counter("dma_store_bytes", 8, "bytes written to external memory"),
    Counter("fetch_stall", 9, "cycles the fetch unit waited for room in a full queue (counted as they "
                              "pass)"),
    Counter("load_token_stall", 10, "cycles the load queue's next instruction waited for tokens (counted "
                                    "as they pass)"),
    Counter("compute_token_stall", 11, "cycles the compute queue's next instruction waited for tokens "
                                       "(counted as they pass)"),
    Counter("store_token_stall", 12, "cycles the store queue's next instruction waited for tokens "
                                     "(counted as they pass)"),
    Counter("dma_latency", 13, "cycles LOAD / STORE / RDPERF spent on external-memory latency"),
    Counter("vector_token_stall", 14, "cycles the vector queue's next instruction waited for tokens "
                                      "(counted as they pass)"),
)
#: How counters are kept and read (docs/isa.md, "Performance counters").
COUNTER_RULE = (
    "Every counter is `counter_bits` wide (a field of the hardware configuration, 8 .. 64): it "
    "counts modulo `2 ** counter_bits` (a counter of a long run wraps around to 0), and RDPERF "
    "writes it zero-extended as a uint64 at `ext_addr + 8 * id` (the host port reads it the same "
    "way). With `counter_bits` = 64 the counters are plain uint64.")
COUNTER_BY_NAME: dict[str, Counter] = {c.name: c for c in COUNTERS}
N_COUNTERS = len(COUNTERS)
#: Counters whose events count in the cycles they occur (stall cycles), not at an instruction's
#: completion: ``fetch_stall`` and each queue's ``<queue>_token_stall``.
STALL_COUNTERS = ("fetch_stall", *(f"{q}_token_stall" for q in QUEUES))


def rdperf_counters_per_cycle(dma_bytes_per_cycle: int) -> int:
    """``k``: counters RDPERF writes (and samples) per cycle after its latency; its
    ``ceil(8 * N_COUNTERS / dma_bytes_per_cycle)`` data cycles carry all of them."""
    cycles = -(-8 * N_COUNTERS // dma_bytes_per_cycle)
    return -(-N_COUNTERS // cycles)


def rdperf_sample_cycle(cid: int, start: int, ext_latency: int, dma_bytes_per_cycle: int) -> int:
    """The cycle in which an RDPERF started at ``start`` samples and writes counter ``cid``: of its
    ``B = ceil(N_COUNTERS / k)`` first cycles after the latency, the one congruent to ``cid // k``
    modulo ``B`` (see RDPERF)."""
    k = rdperf_counters_per_cycle(dma_bytes_per_cycle)
    beats = -(-N_COUNTERS // k)
    t0 = start + ext_latency
    return t0 + (cid // k - t0) % beats

_FETCH_TEXT = (" and ".join(", ".join(n for n in FETCH_CYCLES if n in CHECK_OPERANDS).rsplit(", ", 1))
               + f" take {3 + CHECK_STEPS}, the others 2: their scratchpad-range / DMA-window checks "
               f"take their operands, multiply bit-serially, one bit per cycle of {CHECK_STEPS}-bit "
               f"counts or strides, and decide; every instruction's verdict then waits one cycle in a "
               f"register")
#: The queue model, written once for docs/isa.md and docs/accelerator.md.
QUEUE_MODEL = """\
The fetch unit reads the instructions in program order, spends `fetch_cycles(i)` cycles on
instruction `i` (""" + _FETCH_TEXT + """) and appends it to the queue that
executes it (LOAD -> load, GEMM / DWCONV -> compute, VEC -> vector, STORE / RDPERF -> store, NOP -> its
`queue` field). Queue `q` holds at most `depth(q)` waiting instructions (the configuration's
`<q>_queue_depth`, or `queue_depth` where that is 0); each queue's engine executes
its instructions one at a time, in order. With `f(i)` the fetch cycle (the cycle it is appended),
`s(i)` the start cycle, `e(i) = s(i) + cycles(i)` the completion cycle of instruction `i`, and
`q(i)` its queue:

* `f(-1) = -1`; `f(i) = max(f(i-1) + fetch_cycles(i), s(j) + 1)` where `j` is the instruction
  `depth(q(i))` places before `i` in `q(i)` (no such term if there is none);
* `s(i) = max(f(i) + 1, e(p), t(i))` where `p` is the previous instruction of `q(i)`, and `t(i)`
  is, for each token `i` pops, the completion cycle `e` of the instruction that pushed the
  matching token (the k-th pop from a channel takes the k-th push to it);
* array overlap (a machine with queues and two weight buffers: not `in_order`, `weight_buffers =
  2`): a GEMM or DWCONV `p` *releases* the
  compute queue at `r(p) = max(e(p) - (rows + cols + pe_pipeline), s(p) + rows, e(p'))`
  (`nnaccel.isa.table.array_release`; `p'` the
  compute queue's instruction before `p`): its last lines and weight rows are in the array, its results still drain
  (its ACC writes end, its tokens and counter events come at `e(p)` as always). The compute
  queue's next instruction `i` takes `r(p)` instead of `e(p)` above where it *overlaps* `p`
  (`nnaccel.isa.table.array_overlaps`): both are GEMMs and `i` preloads its weights, or both are
  DWCONVs with the same `fh`, `fw` and row length `nx - pad_left - pad_right`; its stream then
  follows `p`'s lines into the array, and its results follow `p`'s out of it;
* one DMA engine (the configuration's `dma_engines = 1`; with 2, the default, the load and store
  queues have an engine each and this rule does not apply): the load and store queues keep their
  order and tokens, but share one engine that runs one of their instructions at a time. For
  `i` on either, `s(i)` is the first cycle `>= max(f(i) + 1, e(p), t(i))` in which no
  instruction of the two queues runs (`j` runs in cycles `s(j) .. e(j) - 1`) or starts; when the
  heads of both queues can start in the same cycle, the """ + DMA_PRIORITY + """
  queue's starts (`DMA_PRIORITY`). The cycles a head waits for the shared engine count as its
  queue's token stall (below);
* in-order issue (the configuration's `in_order`, which needs `dma_engines = 1`; the queue
  depths then do not apply): the machine has no queues and runs one instruction at a time, in
  program order; the fetch unit checks instruction `i` from the cycle in which `i - 1` has
  completed (its completion, `e(i-1)`, reaches the fetch unit through a register):
  `f(i) = e(i-1) + fetch_cycles(i)` (`e(-1) = -1`) and `s(i) = max(f(i) + 1, t(i))`. A token
  must be pushed by an instruction before, in program order, the one that pops it (so `t(i) <=
  e(i-1)`: no instruction waits for a token): an instruction whose token no earlier instruction
  pushes is a DEADLOCK (its PC). There are no token or fetch stalls;
* tokens: the queues form the chain load -> compute -> vector -> store; `pop_prev` / `pop_next`
  take one token from the channel from the previous / next queue of the chain (channels l2c,
  c2l, c2v, v2c, v2s, s2v); `push_prev` / `push_next` add one at completion. A flag naming a
  queue that does not exist (load has no previous, store no next queue) is ILLEGAL_FIELD. Tokens
  between queues that are not neighbours pass through the queues between them (e.g. a
  compute-queue NOP with `pop_prev` and `push_next` forwards a token from load to vector).
* FINISH: fetch stops; total cycles = `max(f(FINISH) + 1, max e(i))`.

Every fault is decided from the instruction's fields and the configuration alone, at fetch: the
machine stops fetching at the faulting instruction and reports the fault code and its index
(the program counter, counting instructions). DEADLOCK is reported when no engine is busy, every
engine's next instruction waits for a token that no fetched or fetchable instruction will push,
and the fetch unit cannot proceed; the PC is the lowest index among the waiting instructions.
Results in memory after a fault are unspecified.

Stall accounting (performance counters): the cycles `max(f(i) + 1, e(p)) .. s(i) - 1` (`r(p)`
for an instruction that overlaps `p`) count as the
queue's token stall (with one DMA engine, the cycles a load / store head waits for it included), the cycles `f(i-1) + fetch_cycles(i) .. f(i) - 1` as fetch stall, each in the
cycle it passes (a counter read at cycle `t` includes the stall cycles before `t`)."""


#: Scratchpad banks, written once for docs/isa.md and docs/accelerator.md.
BANK_RULES = """\
Each scratchpad is divided into `banks` banks of equal size (`act_banks`, `wgt_banks`, `acc_banks`,
`vec_banks` in the hardware configuration): bank `b` holds lines `b * L .. (b + 1) * L - 1`, with
`L` the scratchpad's lines divided by its banks. A bank is one block RAM with one write port and
one read port, so a program must keep to three rules (the cycle model does not model port
contention; `nnaccel.sim.isasim.find_conflicts` reports every violation as a conflict, and the
results of a violating program on hardware are unspecified):

* two instructions of different queues that run at the same time do not both **write** one bank;
* ... nor both **read** one bank (a GEMM reads its ACT and WGT lines, and its ACC lines when
  `accumulate` is 1 or `kt > 0`; a VEC reads its source lines, its parameter block and, for SUMW
  with `accumulate`, its destination lines; a STORE reads its box);
* a binary VEC function's `src` and `src2` lines lie in different banks (its two operands are read
  in the same cycle). One instruction may read and write the same bank (e.g. GEMM accumulation,
  in-place MAX)."""


def div_params(c: int) -> tuple[int, int, int]:
    """``(half, m, s)`` of VEC DIV for division by ``c >= 1`` (exact for ``abs(acc) + half < 2**30``:
    with ``e = m * c - 2**s < c <= 2**ceil(log2 c)``, ``x * e < 2**s`` for every ``x < 2**30``)."""
    if c < 1:
        raise ValueError(f"divisor {c} must be at least 1")
    s = 30 + (c - 1).bit_length()
    return c // 2, -(-(1 << s) // c), s


def field_layout() -> dict[str, dict]:
    """Plain data for the RTL decoder: per instruction, its opcode, queue and fields as
    ``{name: (lo, width)}``, and the reserved-bit mask."""
    return {i.name: {"opcode": i.opcode, "queue": i.queue,
                     "fields": {f.name: (f.lo, f.width) for f in i.all_fields},
                     "reserved_mask": i.reserved_mask} for i in INSTRUCTIONS}


def _check_table() -> None:
    """Import-time sanity: fields inside the word, no overlaps, unique names and codes."""
    assert len(BY_OPCODE) == len(INSTRUCTIONS) and 0 not in BY_OPCODE
    for ins in INSTRUCTIONS:
        used = 0
        for f in ins.all_fields:
            assert 0 <= f.lo and f.hi <= WIDTH, (ins.name, f.name)
            assert not used & f.mask, (ins.name, f.name)
            used |= f.mask
        assert len(ins.field_map) == len(ins.all_fields), ins.name
    assert len(VEC_BY_CODE) == len(VEC_FUNCS) and max(VEC_BY_CODE) < 16
    for vf in VEC_FUNCS:
        assert all(name in vf.params and 1 < n < 32 for name, n in vf.bits), vf.name
        assert set(vf.per_tensor) <= set(vf.params), vf.name
        # the pipelined lane defers a function's last step (groups in flight): its parameters are
        # per tensor (no lane group's own), its other steps do not wait
        assert vf.waits in ((), (vf.steps - 1,)), vf.name
        assert not vf.waits or (vf.multiplies and vf.steps > 1 and set(vf.per_tensor) == set(vf.params)), vf.name
    assert BY_NAME["GEMM"].field_map["kt"].max + 1 == MAX_KTILES
    for ins in INSTRUCTIONS:  # the cycle text counts the delayed start exactly where the model does
        assert ("ENGINE_START_CYCLES" in ins.cycles) == (ins.name in ENGINE_START_KINDS), ins.name


_check_table()
