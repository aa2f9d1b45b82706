"""The hardware configuration of the accelerator: one frozen dataclass read by hw, sim, compiler and
firmware.

A configuration fixes the data path (a ``rows x cols`` weight-stationary systolic array of signed
9-bit x 9-bit multipliers with int32 accumulators), the four scratchpads (sizes in bytes and the
number of physical banks each is built from), the vector unit's lanes and pipeline depth, the DMA
engine's bytes per cycle, the external-memory latency, the depth of the instruction queues, and
the window of external memory the DMA may touch.

Scratchpads are addressed by *lines* (see ``docs/isa.md``):

=========  ==========================  =====================================================
space      line                        holds
=========  ==========================  =====================================================
``ACT``    ``rows`` bytes              int8 / uint8 activations (one line = one array input row)
``WGT``    ``cols`` bytes              weights; a weight tile is ``rows`` consecutive lines
``ACC``    ``cols`` int32              accumulators (one line = one array output row)
``VEC``    ``cols`` int32              vector-unit parameters (per-lane values, LUT tables)
=========  ==========================  =====================================================

Presets: ``tiny`` (4x4, iCE40 UP5K), ``small`` (8x8, ECP5-25F), ``base`` (16x16, ECP5-85F),
``large`` (32x32, simulation only). :func:`load_config` takes a preset name or a ``.toml`` /
``.json`` file (which may start from a preset with ``preset = "small"`` and override fields).
"""

from __future__ import annotations

import dataclasses
import json
import tomllib
from dataclasses import dataclass
from pathlib import Path

from .errors import InputError
from .isa.table import (
    BY_NAME,
    PE_PIPELINE,
    QUEUES,
    SERIAL_MUL_STEPS,
    SPACE_ENUM,
    VECTOR_PIPELINE,
    array_drain,
    lut_lines,
    min_vector_latency,
)

#: Width of an operand entering the array: a byte minus its zero point, in [-255, 255].
OPERAND_BITS = 9
#: Width of an accumulator (products accumulate with int32 wrap-around).
ACC_BITS = 32
#: Scratchpad names in ISA order (the DMA ``sp`` field's values): the ISA table's ``SPACE_ENUM``.
SPACES = SPACE_ENUM
#: Lines a scratchpad may have: what the ISA's line-address fields reach (``sp_addr``, 16 bits).
MAX_LINES = 1 << BY_NAME["LOAD"].field_map["sp_addr"].width
#: Allowed ``vector_mul_steps``: cycles per 32 x 32 product of a vector lane (32: the bit-serial
#: lane, ``nnaccel.isa.table.SERIAL_MUL_STEPS``).
VECTOR_MUL_STEPS = (1, 2, 4, SERIAL_MUL_STEPS)
#: Bytes of one element of each scratchpad.
ELEMENT_BYTES = {"ACT": 1, "WGT": 1, "ACC": 4, "VEC": 4}


def mul_piece(steps: int) -> tuple[int, int]:
    """:attr:`HwConfig.vector_mul_piece` for ``vector_mul_steps`` = ``steps``."""
    if steps == SERIAL_MUL_STEPS:
        return (1, 32)
    return (16 if steps == 4 else 32, 16 if steps >= 2 else 32)


class ConfigError(InputError):
    """A hardware configuration that breaks a rule (bad value, unknown field, unreadable file)."""


def _pow2(x: int) -> bool:
    return isinstance(x, int) and x > 0 and x & (x - 1) == 0


@dataclass(frozen=True)
class HwConfig:
    """Parameters of one accelerator instance (all sizes in bytes, times in clock cycles)."""

    name: str = "custom"
    #: Systolic array: ``rows`` = reduction depth (K per tile), ``cols`` = output lanes (N per tile).
    rows: int = 4
    cols: int = 4
    #: Operand / accumulator widths; the ISA defines the arithmetic for 9 and 32 only.
    operand_bits: int = OPERAND_BITS
    acc_bits: int = ACC_BITS
    #: Scratchpad sizes in bytes.
    act_bytes: int = 64 * 1024
    wgt_bytes: int = 2 * 1024
    acc_bytes: int = 4 * 1024
    vec_bytes: int = 4 * 1024
    #: Banks per scratchpad: equal ranges of consecutive lines, each with one write and one read
    #: port (block RAM); see "Scratchpad banks" in ``docs/isa.md``. ACT needs two (a binary vector
    #: function reads its two operands from different banks).
    act_banks: int = 2
    wgt_banks: int = 1
    acc_banks: int = 1
    vec_banks: int = 1
    #: Vector unit: lanes processed per cycle, and its pipeline depth in cycles.
    vector_lanes: int = 1
    vector_latency: int = 4
    #: Cycles in which a vector lane forms its signed 32 x 32 product (1, 2, 4 or 32): from 32 x 32,
    #: 32 x 16 or 16 x 16 pieces, so on 4, 2 or 1 DSP multipliers (``boards/targets.py``), or one
    #: multiplier bit a cycle on the lane's adder (32: the bit-serial lane, no DSP; its shifts are
    #: serial too); each step of a multiplying vector function takes this many cycles, 66 with 32
    #: (``VecFunc.group_cycles``, ``nnaccel.isa.table.mul_step_cycles``).
    vector_mul_steps: int = 1
    #: 1: the vector lane is pipelined (``nnaccel.isa.table.VECTOR_PIPELINE``: registers after the
    #: element select, around its multiplier and in its rounding), which shortens its critical path;
    #: ``vector_latency`` must cover the stages (``min_vector_latency``), and a step that takes an
    #: earlier step's result would wait for it (``vector_step_wait``), so the lane interleaves lane
    #: groups (``vector_groups_in_flight``, ``VecFunc.groups_cycles``). 0: a step's result is computed in
    #: the cycle after its line read. Not with the bit-serial lane nor in order.
    vector_pipeline: int = 0
    #: DMA: bytes moved per cycle on each of the read and write channels; the cycles from a
    #: request to the first data (external-memory latency).
    dma_bytes_per_cycle: int = 4
    ext_latency: int = 8
    #: DMA engines: 2 = a LOAD engine (load queue) and a STORE engine (store queue) that run
    #: concurrently; 1 = one engine shared by both queues, which runs one of their instructions at a
    #: time (``DMA_PRIORITY`` of the ISA table decides when both heads can start in the same
    #: cycle; "The queue model" in ``docs/isa.md``).
    dma_engines: int = 2
    #: In-order issue (a machine that runs one instruction at a time): no instruction queues; the
    #: fetch unit checks one instruction and holds it until it starts, which is after the previous
    #: instruction has completed and once its tokens are there (a program must push every token
    #: before, in program order, the instruction that pops it). Requires ``dma_engines = 1``; the
    #: queue depths do not apply. "The queue model" in ``docs/isa.md``.
    in_order: bool = False
    #: Weight tiles the systolic array holds: 2 = double buffering (a GEMM loads tile t + 1's
    #: weights while tile t streams); 1 = one tile per cell: the next tile's weights are loaded
    #: after the stream (a slot of ``nx * ny + rows`` cycles; the GEMM formula of ``docs/isa.md``).
    weight_buffers: int = 2
    #: Registers between an array cell's product and its accumulation (0 or 1): 1 registers the
    #: product (a DSP's own product in one cycle, the add to the partial sum in the next), which
    #: shortens the cell's critical path and adds one cycle to every GEMM / DWCONV (the ISA's
    #: ``array_drain``); 0 multiplies and accumulates in one cycle (the iCE40's SB_MAC16 pairs
    #: accumulate inside the cell).
    pe_pipeline: int = 0
    #: The array's depthwise mode (DWCONV, ``docs/isa.md``): with False DWCONV is ILLEGAL_OPCODE
    #: and depthwise convolutions run as GEMMs (the mode's multiplexers and registers saved).
    depthwise_mode: bool = True
    #: Line buffers of the array's depthwise mode (DWCONV, ``docs/isa.md``): 0 .. 2. A DWCONV runs
    #: up to ``dw_line_buffers + 1`` filter rows at once (each buffer delays the input lines by one
    #: input row); with 0 it runs one filter row.
    dw_line_buffers: int = 0
    #: Depth of each of the load / compute / vector / store instruction queues (the waiting
    #: instructions it holds), unless the queue's own field below is set (0: ``queue_depth``).
    queue_depth: int = 8
    load_queue_depth: int = 0
    compute_queue_depth: int = 0
    vector_queue_depth: int = 0
    store_queue_depth: int = 0
    #: Width of every performance counter: counters wrap modulo ``2 ** counter_bits`` (RDPERF and
    #: the host port give them zero-extended to uint64); 64 makes them plain uint64.
    counter_bits: int = 64
    #: The permitted DMA window: external addresses ``[dma_base, dma_base + dma_size)``.
    dma_base: int = 0
    dma_size: int = 16 * 1024 * 1024

    # ------------------------------------------------------------------------------ derived
    @property
    def line_elems(self) -> int:
        """Elements per scratchpad line (rows == cols)."""
        return self.cols

    def line_bytes(self, space: str) -> int:
        return self.line_elems * ELEMENT_BYTES[space]

    def lines(self, space: str) -> int:
        """Number of lines of scratchpad ``space``."""
        return getattr(self, f"{space.lower()}_bytes") // self.line_bytes(space)

    def banks(self, space: str) -> int:
        return getattr(self, f"{space.lower()}_banks")

    def bank_lines(self, space: str) -> int:
        """Lines per bank of scratchpad ``space``."""
        return self.lines(space) // self.banks(space)

    def bank_of(self, space: str, line):
        """The bank of a line (or of an array of lines)."""
        return line // self.bank_lines(space)

    def queue_depth_of(self, queue: str) -> int:
        """The depth of instruction queue ``queue`` (``load``, ``compute``, ``vector``, ``store``)."""
        return getattr(self, f"{queue}_queue_depth") or self.queue_depth

    @property
    def gemm_pipeline(self) -> int:
        """Fill + drain cycles of one GEMM / DWCONV on the systolic array (the ISA table's
        ``array_drain``: ``rows + cols + pe_pipeline``)."""
        return array_drain(self.rows, self.cols, self.pe_pipeline)

    @property
    def lut_lines(self) -> int:
        """VEC lines holding one 256-entry lookup table (the ISA table's ``lut_lines``)."""
        return lut_lines(self.cols)

    @property
    def vector_mul_piece(self) -> tuple[int, int]:
        """``(x_bits, m_bits)``: the unsigned partial product a vector lane's multiplier forms each
        cycle (of the magnitudes of its 32-bit operands): 32 x 32 pieces, one per product
        (``vector_mul_steps`` 1; the signed product itself), 32 x 16 (2), 16 x 16 (4), or 1 x 32
        (32: one multiplier bit a cycle, gates on the lane's adder)."""
        return mul_piece(self.vector_mul_steps)

    @property
    def peak_macs_per_cycle(self) -> int:
        return self.rows * self.cols

    # ------------------------------------------------------------------------------ checks
    def __post_init__(self):
        def bad(msg):
            raise ConfigError(f"Invalid hardware configuration {self.name!r}: {msg}.")

        for f in dataclasses.fields(self):
            v = getattr(self, f.name)
            if f.name == "name":
                if not isinstance(v, str) or not v:
                    bad("the name must be a non-empty string")
            elif f.type == "bool":
                if not isinstance(v, bool):
                    bad(f"{f.name} is {v!r}, but it must be true or false")
            elif not isinstance(v, int) or isinstance(v, bool):
                bad(f"{f.name} is {v!r}, but it must be an integer")
            elif v < 0:
                bad(f"{f.name} is {v}, but it must not be negative")
        if self.operand_bits != OPERAND_BITS:
            bad(f"operand_bits is {self.operand_bits}, but the ISA defines {OPERAND_BITS}-bit operands "
                f"(a byte minus its zero point)")
        if self.acc_bits != ACC_BITS:
            bad(f"acc_bits is {self.acc_bits}, but the ISA defines {ACC_BITS}-bit accumulators")
        for f in ("rows", "cols"):
            v = getattr(self, f)
            if not _pow2(v) or not 2 <= v <= 32:
                bad(f"{f} is {v}, but it must be a power of two from 2 to 32 (the DMA len field "
                    f"is 6 bits)")
        if self.rows != self.cols:
            bad(f"the array is {self.rows}x{self.cols}, but it must be square because the vector "
                f"unit writes accumulator lines back as activation lines")
        for space in SPACES:
            size = getattr(self, f"{space.lower()}_bytes")
            banks = getattr(self, f"{space.lower()}_banks")
            if not _pow2(size):
                bad(f"{space.lower()}_bytes is {size}, but scratchpad sizes must be powers of two")
            n = size // self.line_bytes(space) if size >= self.line_bytes(space) else 0
            if n > MAX_LINES:
                bad(f"the {space} scratchpad has {n} lines, but line addresses are 16 bits "
                    f"(at most {MAX_LINES} lines)")
            if not _pow2(banks) or (n and banks > n):
                bad(f"{space.lower()}_banks is {banks}, but it must be a power of two no larger than "
                    f"the {n} lines of the scratchpad")
        if self.act_banks < 2:
            bad(f"act_banks is {self.act_banks}, but ACT needs at least 2 banks (a binary vector function "
                f"reads its two operands from different banks)")
        need = {"ACT": 2 * self.rows, "WGT": self.rows, "ACC": self.cols,
                "VEC": max(self.lut_lines, 16)}
        for space, lines in need.items():
            if self.lines(space) < lines:
                bad(f"the {space} scratchpad has {self.lines(space)} lines of "
                    f"{self.line_bytes(space)} bytes, but it must hold at least {lines} lines "
                    f"({_NEED_WHY[space]})")
        if not _pow2(self.vector_lanes) or self.vector_lanes > self.cols:
            bad(f"vector_lanes is {self.vector_lanes}, but it must be a power of two no larger than "
                f"cols = {self.cols}")
        if not _pow2(self.dma_bytes_per_cycle):
            bad(f"dma_bytes_per_cycle is {self.dma_bytes_per_cycle}, but it must be a power of two")
        if not 1 <= self.vector_latency <= 64:
            bad(f"vector_latency is {self.vector_latency}, but it must be from 1 to 64")
        if self.vector_pipeline not in VECTOR_PIPELINE:
            bad(f"vector_pipeline is {self.vector_pipeline}, but it must be 0 (a vector lane's step in one cycle) "
                f"or 1 (the pipelined lane)")
        if self.vector_pipeline and (self.vector_mul_steps == SERIAL_MUL_STEPS or self.in_order):
            bad("vector_pipeline is 1, but the pipelined vector lane needs a multiplier (vector_mul_steps 1, 2 "
                "or 4) and instruction queues (in_order false)")
        if self.vector_latency < min_vector_latency(self.vector_pipeline):
            bad(f"vector_latency is {self.vector_latency}, but with vector_pipeline {self.vector_pipeline} it "
                f"must be at least {min_vector_latency(self.vector_pipeline)} (the last lane group's results "
                f"land inside the instruction and its line is written)")
        if self.vector_mul_steps not in VECTOR_MUL_STEPS:
            bad(f"vector_mul_steps is {self.vector_mul_steps}, but it must be one of "
                f"{', '.join(map(str, VECTOR_MUL_STEPS))} (a vector lane forms its 32 x 32 product from "
                f"32 x 32, 32 x 16 or 16 x 16 pieces, or one multiplier bit a cycle)")
        if self.weight_buffers not in (1, 2):
            bad(f"weight_buffers is {self.weight_buffers}, but it must be 1 (one weight tile in the "
                f"array) or 2 (double buffering)")
        if self.pe_pipeline not in PE_PIPELINE:
            bad(f"pe_pipeline is {self.pe_pipeline}, but it must be 0 (a cell multiplies and accumulates in one "
                f"cycle) or 1 (its product is registered)")
        if self.dw_line_buffers not in (0, 1, 2):
            bad(f"dw_line_buffers is {self.dw_line_buffers}, but it must be 0, 1 or 2 (a DWCONV runs up to "
                f"3 filter rows)")
        if self.dw_line_buffers and not self.depthwise_mode:
            bad(f"dw_line_buffers is {self.dw_line_buffers}, but depthwise_mode is false (the line buffers "
                f"belong to the array's depthwise mode)")
        if self.dma_engines not in (1, 2):
            bad(f"dma_engines is {self.dma_engines}, but it must be 1 (one DMA engine shared by the load "
                f"and store queues) or 2 (one each)")
        if self.dma_engines == 1 and self.ext_latency < 1:
            bad("dma_engines is 1, but a shared DMA engine needs ext_latency >= 1 (it starts at most "
                "one instruction a cycle)")
        if self.in_order and self.dma_engines != 1:
            bad(f"in_order is true, but dma_engines is {self.dma_engines}: an in-order machine runs one "
                f"instruction at a time, so LOAD and STORE share one DMA engine (set dma_engines = 1)")
        if self.ext_latency > 4096:
            bad(f"ext_latency is {self.ext_latency}, but it must be at most 4096 cycles")
        if not 1 <= self.queue_depth <= 256:
            bad(f"queue_depth is {self.queue_depth}, but it must be from 1 to 256")
        for q in QUEUES:
            v = getattr(self, f"{q}_queue_depth")
            if v > 256:
                bad(f"{q}_queue_depth is {v}, but it must be from 1 to 256 (or 0: queue_depth)")
        if not 8 <= self.counter_bits <= 64:
            bad(f"counter_bits is {self.counter_bits}, but it must be from 8 to 64")
        if self.dma_size == 0 or self.dma_base + self.dma_size > 1 << 32:
            bad(f"the DMA window [{self.dma_base:#x}, {self.dma_base + self.dma_size:#x}) must be "
                f"non-empty and lie within the 32-bit address space")

    # ------------------------------------------------------------------------------ I/O
    def to_dict(self) -> dict:
        return dataclasses.asdict(self)

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2) + "\n"

    def to_toml(self) -> str:
        lines = [f"# nnaccel hardware configuration {self.name}"]
        for k, v in self.to_dict().items():
            lines.append(f"{k} = {json.dumps(v)}")
        return "\n".join(lines) + "\n"

    def save(self, path) -> None:
        """Writes the configuration as TOML (``.toml``) or JSON (any other suffix)."""
        from .ioutil import write_atomic
        p = Path(path)
        write_atomic(p, self.to_toml() if p.suffix == ".toml" else self.to_json(), "configuration file")

    def replace(self, **changes) -> HwConfig:
        return dataclasses.replace(self, **changes)

    def describe(self) -> str:
        return (f"{self.name}: {self.rows}x{self.cols} array, ACT {self.act_bytes // 1024} KiB, "
                f"WGT {self.wgt_bytes // 1024} KiB, ACC {self.acc_bytes // 1024} KiB, "
                f"VEC {self.vec_bytes // 1024} KiB, {self.vector_lanes} vector lanes, DMA "
                f"{self.dma_bytes_per_cycle} B/cycle, latency {self.ext_latency}")


_NEED_WHY = {"ACT": "two activation tiles", "WGT": "one weight tile",
             "ACC": "one accumulator tile", "VEC": "one 256-entry lookup table and a parameter block"}

PRESETS: dict[str, HwConfig] = {
    # iCE40UP5K: every scratchpad in EBR (a bank needs one write and one read port; the SPRAMs have
    # a single port; an EBR is at most 16 bits wide, so a 128-bit ACC / VEC line takes 8 side by
    # side): ACT 8 + WGT 2 + ACC 8 + VEC 8 + the LUT table 2 + the counter ring 2 = 30 EBRs. One ACC
    # bank: two would take 16 EBR, and every other way to 30 then needs an SPRAM; so GEMM and VEC
    # do not overlap. The vector lane is bit-serial (vector_mul_steps = 32: no DSP), so the array
    # has all 8 SB_MAC16. One DMA engine for the load and store queues, in-order issue (no
    # instruction queues) and one weight tile in the array: each saves logic cells at a small cost
    # in cycles, as the serial vector lane bounds the time anyway. No depthwise mode (its
    # multiplexers and registers do not fit beside the rest; the serial vector lane's requantization
    # bounds a depthwise layer's time anyway). 24-bit counters: the simulators report a run's
    # cycles unwrapped.
    "tiny": HwConfig(name="tiny", rows=4, cols=4, act_bytes=4 * 1024, wgt_bytes=1024,
                     acc_bytes=2 * 1024, vec_bytes=2 * 1024, act_banks=2, wgt_banks=1, acc_banks=1,
                     vec_banks=1, vector_lanes=1, vector_mul_steps=32, vector_latency=4,
                     dma_bytes_per_cycle=4, ext_latency=8, dma_engines=1, in_order=True, weight_buffers=1, queue_depth=1, depthwise_mode=False,
                     counter_bits=24,
                     dma_base=0, dma_size=16 * 1024 * 1024),
    # ECP5-25F (56 DP16KD, 126 KB): 32 + 8 + 32 + 4 KiB of block RAM. One vector lane, its 32x32
    # product over 4 cycles on one MULT18X18D (vector_mul_steps), so the array gets the other 27
    # DSPs; the lane is pipelined (vector_pipeline, with the least vector_latency it allows); queues of 4 entries (load and compute 2: deeper ones gain almost nothing on the GEMM and
    # MobileNet benchmarks) and 32-bit counters. The cells' products are registered (pe_pipeline).
    "small": HwConfig(name="small", rows=8, cols=8, act_bytes=32 * 1024, wgt_bytes=8 * 1024,
                      acc_bytes=32 * 1024, vec_bytes=4 * 1024, act_banks=2, wgt_banks=1,
                      acc_banks=2, vector_lanes=1, vector_mul_steps=4, vector_pipeline=1, vector_latency=9,
                      dma_bytes_per_cycle=8, ext_latency=16, queue_depth=4, load_queue_depth=2,
                      compute_queue_depth=2, counter_bits=32, pe_pipeline=1, dma_base=0,
                      dma_size=32 * 1024 * 1024),
    # ECP5-85F (208 DP16KD, 468 KB): 64 + 16 + 128 + 8 KiB of block RAM. The cells multiply and
    # accumulate in one cycle (pe_pipeline 0): the registered product costs the autoencoder its
    # cycle goal. The vector lanes are pipelined (vector_pipeline, with the least vector_latency it
    # allows) with their product in one cycle on four MULT18X18D each (vector_mul_steps 1: more steps
    # cost the image classifier its cycle goal). Two depthwise line buffers (a 3x3 filter in one
    # DWCONV: with one, the MobileNet blocks miss their utilization goals). To leave the LUT4 room
    # for the pipelined lanes: queues of 6 entries (compute and vector 4: deeper ones gain nothing
    # on the MLPerf models) and 32-bit counters.
    "base": HwConfig(name="base", rows=16, cols=16, act_bytes=64 * 1024, wgt_bytes=16 * 1024,
                     acc_bytes=128 * 1024, vec_bytes=8 * 1024, act_banks=4, wgt_banks=1,
                     acc_banks=4, vec_banks=1, vector_lanes=16, vector_pipeline=1, vector_latency=9,
                     dw_line_buffers=2, dma_bytes_per_cycle=16, ext_latency=32, queue_depth=6,
                     compute_queue_depth=4, vector_queue_depth=4, counter_bits=32, dma_base=0,
                     dma_size=256 * 1024 * 1024),
    # Simulation only.
    "large": HwConfig(name="large", rows=32, cols=32, act_bytes=256 * 1024, wgt_bytes=64 * 1024,
                      acc_bytes=512 * 1024, vec_bytes=32 * 1024, act_banks=8, wgt_banks=2,
                      acc_banks=8, vec_banks=1, vector_lanes=32, vector_latency=4, dw_line_buffers=2,
                      dma_bytes_per_cycle=32, ext_latency=64, queue_depth=16, pe_pipeline=1, dma_base=0,
                      dma_size=1024 * 1024 * 1024),
}


def config_from_dict(data: dict, source: str = "the configuration") -> HwConfig:
    """Builds a configuration from a mapping; ``preset`` names a preset to start from."""
    if not isinstance(data, dict):
        raise ConfigError(f"{source} must be a table of fields, not {type(data).__name__}.")
    data = dict(data)
    base = PRESETS["tiny"]
    if "preset" in data:
        name = data.pop("preset")
        if name not in PRESETS:
            raise ConfigError(f"{source} names the preset {name!r}, but the presets are "
                              f"{', '.join(PRESETS)}.")
        base = PRESETS[name]
        data.setdefault("name", f"{name}-custom")
    known = {f.name for f in dataclasses.fields(HwConfig)}
    unknown = sorted(set(data) - known)
    if unknown:
        raise ConfigError(f"{source} has the unknown field(s) {', '.join(unknown)}; the fields are "
                          f"{', '.join(sorted(known))}.")
    return dataclasses.replace(base, **data)


#: The configuration every command uses when ``--config`` is not given.
DEFAULT_CONFIG = "small"


def load_config(name_or_path) -> HwConfig:
    """A preset by name (``tiny``, ``small``, ``base``, ``large``), a :class:`HwConfig` as is, or a
    ``.toml`` / ``.json`` file."""
    if isinstance(name_or_path, HwConfig):
        return name_or_path
    key = str(name_or_path)
    if key in PRESETS:
        return PRESETS[key]
    p = Path(key)
    if not p.exists():
        raise ConfigError(f"Unknown hardware configuration {key!r}: give a preset name "
                          f"({', '.join(PRESETS)}) or an existing .toml / .json file.")
    try:
        text = p.read_text()
        data = tomllib.loads(text) if p.suffix == ".toml" else json.loads(text)
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, json.JSONDecodeError) as e:
        raise ConfigError(f"The hardware configuration file {key} cannot be read ({e}).") from None
    return config_from_dict(data, f"The hardware configuration file {key}")
