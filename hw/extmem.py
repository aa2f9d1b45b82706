"""Simulation model of external memory, in RTL (so long runs never call Python per clock).

Words of :func:`word_bytes` bytes (a power of two holding the widest scratchpad line, an
instruction and a counter chunk). Ports, all combinational reads:

- ``i_addr`` -> ``i_data``: one 128-bit instruction at a 16-byte-aligned byte address;
- ``ld_addr`` -> ``ld_data``: one DMA beat, :func:`load_port_bytes` (``dma_bytes_per_cycle``)
  bytes at any byte address (two words, shifted);
- ``st_en`` / ``st_addr`` / ``st_len`` / ``st_data``: writes the first ``st_len`` bytes of
  ``st_data`` (:func:`store_port_bytes`: one DMA beat) at any byte address (two words, each
  read, merged with the bytes written and written back whole);
- the host port ``h_*`` (word-addressed) loads programs and data and reads results.

The external-memory *latency* and *bandwidth* of the configuration (``ext_latency``,
``dma_bytes_per_cycle``) are enforced by the DMA engines' schedules (``hw/accel.py``), which
request one line per ``max(1, ceil(bytes / dma_bytes_per_cycle))`` cycles after ``ext_latency``
cycles; this model answers at once. Addresses beyond ``mem_bytes`` wrap.
"""

from __future__ import annotations

from amaranth.hdl import Cat, Const, Module, Signal, unsigned
from amaranth.lib import wiring
from amaranth.lib.memory import Memory
from amaranth.lib.wiring import In, Out

from nnaccel.hwconfig import HwConfig
from nnaccel.isa.table import rdperf_counters_per_cycle

__all__ = ["ExtMemory", "counters_per_beat", "load_port_bytes", "rdperf_split", "store_port_bytes", "word_bytes"]


def counters_per_beat(cfg: HwConfig) -> int:
    """Counters RDPERF writes per data cycle (:func:`nnaccel.isa.table.rdperf_counters_per_cycle`)."""
    return rdperf_counters_per_cycle(cfg.dma_bytes_per_cycle)


def rdperf_split(cfg: HwConfig) -> bool:
    """RDPERF's counters do not fit a beat (``8 * k > dma_bytes_per_cycle``: 4-byte beats) but their
    values do (``counter_bits <= 32``): the low halves go out at their sample cycles, the zero upper
    halves in the instruction's remaining data cycles (``ceil(8 * N_COUNTERS / 4)`` = twice the
    sample cycles), so the store port stays one beat wide."""
    dpc = cfg.dma_bytes_per_cycle
    return dpc == 4 and 8 * counters_per_beat(cfg) > dpc and cfg.counter_bits <= 8 * dpc


def load_port_bytes(cfg: HwConfig) -> int:
    """Bytes of the load port: one DMA beat (``dma_bytes_per_cycle``)."""
    return cfg.dma_bytes_per_cycle


def store_port_bytes(cfg: HwConfig) -> int:
    """Bytes of the store port: one DMA beat, or RDPERF's ``8 * k`` bytes a sample cycle when they
    are more and cannot be split (:func:`rdperf_split`)."""
    dpc = cfg.dma_bytes_per_cycle
    return dpc if rdperf_split(cfg) else max(dpc, 8 * counters_per_beat(cfg))


def word_bytes(cfg: HwConfig) -> int:
    need = max(16, 4 * cfg.cols, 8 * counters_per_beat(cfg))
    w = 1
    while w < need:
        w *= 2
    return w


class ExtMemory(wiring.Component):
    """The external-memory model (see the module docstring)."""

    def __init__(self, cfg: HwConfig, mem_bytes: int):
        self.cfg = cfg
        self.wb = word_bytes(cfg)
        if mem_bytes % self.wb or mem_bytes & (mem_bytes - 1):
            raise ValueError(f"The memory model size {mem_bytes} must be a power of two and a multiple "
                             f"of its {self.wb}-byte words.")
        self.depth = mem_bytes // self.wb
        wbits = self.wb * 8
        self.lb, self.sb = load_port_bytes(cfg), store_port_bytes(cfg)
        assert self.lb <= self.wb and self.sb <= self.wb
        super().__init__({
            "i_addr": In(32), "i_data": Out(128),
            "ld_addr": In(32), "ld_data": Out(8 * self.lb),
            "st_en": In(1), "st_addr": In(32), "st_len": In(range(self.sb + 1)), "st_data": In(8 * self.sb),
            "h_addr": In(range(self.depth)), "h_we": In(1), "h_wdata": In(wbits), "h_rdata": Out(wbits),
        })

    def elaborate(self, platform):
        m = Module()
        wb, depth = self.wb, self.depth
        wbits = wb * 8
        sh = (wb - 1).bit_length()
        aw = (depth - 1).bit_length()
        m.submodules.mem = mem = Memory(shape=unsigned(wbits), depth=depth, init=[])

        def word_index(addr, plus=0):
            return (addr[sh:] + plus)[:aw]

        ri = mem.read_port(domain="comb")
        m.d.comb += [ri.addr.eq(word_index(self.i_addr)),
                     self.i_data.eq((ri.data >> Cat(Const(0, 3), self.i_addr[:sh]))[:128])]

        r0 = mem.read_port(domain="comb")
        r1 = mem.read_port(domain="comb")
        m.d.comb += [r0.addr.eq(word_index(self.ld_addr)), r1.addr.eq(word_index(self.ld_addr, 1)),
                     self.ld_data.eq((Cat(r0.data, r1.data) >> Cat(Const(0, 3), self.ld_addr[:sh]))[:8 * self.lb])]

        rh = mem.read_port(domain="comb")
        m.d.comb += [rh.addr.eq(self.h_addr), self.h_rdata.eq(rh.data)]

        # the store port writes whole words, merged with their old contents (read-modify-write):
        # a byte-granular write port costs the simulation one enable per byte lane every cycle
        s0 = mem.read_port(domain="comb")
        s1 = mem.read_port(domain="comb")
        w0 = mem.write_port()
        w1 = mem.write_port()
        off = self.st_addr[:sh]
        data2 = Signal(2 * wbits)
        put2 = Signal(2 * wbits)  # the bits the store writes
        keep2 = Signal(2 * wbits)
        m.d.comb += [data2.eq(Cat(self.st_data, Const(0, 2 * wbits - 8 * self.sb)) << Cat(Const(0, 3), off)),
                     put2.eq(((Const(1, 8 * wb + 1) << Cat(Const(0, 3), self.st_len)) - 1)[:8 * wb]
                             << Cat(Const(0, 3), off)),
                     keep2.eq(~put2)]
        merged = (Cat(s0.data, s1.data) & keep2) | (data2 & put2)
        m.d.comb += [s0.addr.eq(word_index(self.st_addr)), s1.addr.eq(word_index(self.st_addr, 1)),
                     w0.addr.eq(word_index(self.st_addr)), w1.addr.eq(word_index(self.st_addr, 1)),
                     w0.data.eq(merged[:wbits]), w1.data.eq(merged[wbits:]),
                     w0.en.eq(self.st_en), w1.en.eq(self.st_en & put2[wbits:].any())]
        wh = mem.write_port()
        m.d.comb += [wh.addr.eq(self.h_addr), wh.data.eq(self.h_wdata), wh.en.eq(self.h_we)]
        return m
