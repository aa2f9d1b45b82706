"""The ISA's cycle and counter formulas per instruction (``docs/isa.md``), read by the ISA
simulator's schedule and by the RTL, which sizes its step and event counters from them.

Each function takes a decoded instruction (``nnaccel.isa.decode``'s :class:`~nnaccel.isa.Decoded`,
or any object with the same field attributes and ``name``) and a hardware configuration.
"""

from __future__ import annotations

from nnaccel.hwconfig import ELEMENT_BYTES

from .table import (
    DW_STREAM_START,
    ENGINE_START_CYCLES,
    ENGINE_START_KINDS,
    N_COUNTERS,
    SPACE_ENUM,
    VEC_BY_CODE,
    VEC_BY_NAME,
    dw_stream,
)

__all__ = ["dma_geometry", "dwconv_cycles", "gemm_cycles", "instruction_cycles", "static_events",
           "static_totals", "vec_cycles"]


def _ceil(a: int, b: int) -> int:
    return -(-a // b)


def dma_geometry(d, load: bool):
    """(data rows, data lines per row) of a LOAD / STORE box (a LOAD's padding lines are not data)."""
    if load:
        return (d.y_size - d.pad_top - d.pad_bottom, d.x_size - d.pad_left - d.pad_right)
    return d.y_size, d.x_size


def _start_cycles(name: str) -> int:
    """The cycles before the engine's first step of an instruction ``name`` (``ENGINE_START_KINDS``)."""
    return ENGINE_START_CYCLES if name in ENGINE_START_KINDS else 0


def gemm_cycles(cfg, tiles: int, lines: int, preload: bool = True) -> int:
    """The cycles of a GEMM of ``tiles`` K tiles (``kt + 1``) that each stream ``lines`` lines
    (``nx * ny``): the engine's start (``ENGINE_START_CYCLES`` where GEMM is one of the
    ``ENGINE_START_KINDS``), the preload, the slots, the array's fill / drain (``cfg.gemm_pipeline``)."""
    pre = _start_cycles("GEMM") + (cfg.rows if preload else 0)
    if cfg.weight_buffers == 1:         # the next tile's weights after each stream
        return pre + (tiles - 1) * (lines + cfg.rows) + max(lines, 1) + cfg.gemm_pipeline
    return pre + tiles * max(lines, cfg.rows) + cfg.gemm_pipeline


def dwconv_cycles(cfg, steps: int) -> int:
    """The cycles of a DWCONV of ``steps`` stream steps (``nnaccel.isa.table.dw_stream``): the
    filter tile's first row on its way into the array, the stream, the array's fill / drain."""
    return _start_cycles("DWCONV") + DW_STREAM_START + steps + cfg.gemm_pipeline


def vec_cycles(cfg, func: str, lines: int) -> int:
    """The cycles of a VEC of function ``func`` (its name) over ``lines`` lines (``nx * ny``): the
    engine's start (``ENGINE_START_CYCLES`` where VEC is one of the ``ENGINE_START_KINDS``), the
    parameter lines, the lane groups' steps (``VecFunc.lines_cycles``), the lanes' latency."""
    vf = VEC_BY_NAME[func]
    p = vf.param_lines(cfg.cols) if vf.params else 0
    return _start_cycles("VEC") + p + vf.lines_cycles(cfg, lines) + cfg.vector_latency


def instruction_cycles(d, cfg) -> int:
    """The cycle count of one instruction."""
    name = d.name
    if name in ("LOAD", "STORE"):
        eb = ELEMENT_BYTES[SPACE_ENUM[d.sp]]
        return cfg.ext_latency + d.x_size * d.y_size * max(1, _ceil(d.len * eb, cfg.dma_bytes_per_cycle))
    if name == "GEMM":
        return gemm_cycles(cfg, d.kt + 1, d.nx * d.ny, d.preload)
    if name == "DWCONV":
        return dwconv_cycles(cfg, dw_stream(d))
    if name == "VEC":
        return vec_cycles(cfg, VEC_BY_CODE[d.func].name, d.nx * d.ny)
    if name == "RDPERF":
        return cfg.ext_latency + _ceil(8 * N_COUNTERS, cfg.dma_bytes_per_cycle)
    if name == "NOP":
        return 1
    return 0


def static_events(d, cfg) -> dict[str, int]:
    """The counter contributions of one instruction that do not depend on the schedule:
    ``instructions``, ``macs``, ``dma_load_bytes``, ``dma_store_bytes``, ``dma_latency``."""
    ev = {"instructions": int(d.name != "FINISH")}
    if d.name == "GEMM":
        ev["macs"] = (d.kt + 1) * d.nx * d.ny * cfg.rows * cfg.cols
    elif d.name == "DWCONV":
        ev["macs"] = dw_stream(d) * cfg.rows * cfg.cols
    elif d.name in ("LOAD", "STORE"):
        rows, cols = dma_geometry(d, d.name == "LOAD")
        nbytes = max(rows, 0) * max(cols, 0) * d.len * ELEMENT_BYTES[SPACE_ENUM[d.sp]]
        ev["dma_load_bytes" if d.name == "LOAD" else "dma_store_bytes"] = nbytes
        ev["dma_latency"] = cfg.ext_latency
    elif d.name == "RDPERF":
        ev["dma_store_bytes"] = 8 * N_COUNTERS
        ev["dma_latency"] = cfg.ext_latency
    return ev


def static_totals(decoded, cfg) -> dict[str, int]:
    """:func:`static_events` summed over the decoded instructions ``decoded``."""
    out: dict[str, int] = {}
    for d in decoded:
        for k, v in static_events(d, cfg).items():
            out[k] = out.get(k, 0) + v
    return out
