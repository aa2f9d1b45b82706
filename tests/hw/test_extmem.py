"""The external-memory model (hw/extmem.py) in Amaranth's simulator against a bytearray: stores of
every length at unaligned addresses (words merged with their old bytes), the load and instruction
ports, the host port."""

import numpy as np
from amaranth.sim import Simulator
from nnaccel.hw.extmem import ExtMemory, word_bytes

from nnaccel.hwconfig import load_config


def test_store_load_and_host_ports_match_a_byte_array():
    cfg = load_config("small")
    mem_bytes = 1 << 12
    dut = ExtMemory(cfg, mem_bytes)
    wb, sb, lb = word_bytes(cfg), dut.sb, dut.lb
    rng = np.random.default_rng(3)
    ref = bytearray(rng.integers(0, 256, mem_bytes, dtype=np.uint8).tobytes())

    async def bench(ctx):
        for i in range(mem_bytes // wb):  # fill through the host port
            ctx.set(dut.h_addr, i)
            ctx.set(dut.h_wdata, int.from_bytes(ref[i * wb:(i + 1) * wb], "little"))
            ctx.set(dut.h_we, 1)
            await ctx.tick()
        ctx.set(dut.h_we, 0)
        for _ in range(300):
            addr = int(rng.integers(0, mem_bytes - 2 * wb))
            n = int(rng.integers(0, sb + 1))
            data = rng.integers(0, 256, sb, dtype=np.uint8).tobytes()
            ctx.set(dut.st_addr, addr)
            ctx.set(dut.st_len, n)
            ctx.set(dut.st_data, int.from_bytes(data, "little"))
            ctx.set(dut.st_en, 1)
            await ctx.tick()
            ctx.set(dut.st_en, 0)
            ref[addr:addr + n] = data[:n]
            la = int(rng.integers(0, mem_bytes - 2 * wb))
            ctx.set(dut.ld_addr, la)
            ia = int(rng.integers(0, mem_bytes // 16)) * 16
            ctx.set(dut.i_addr, ia)
            assert ctx.get(dut.ld_data) == int.from_bytes(ref[la:la + lb], "little")
            assert ctx.get(dut.i_data) == int.from_bytes(ref[ia:ia + 16], "little")
        for i in range(mem_bytes // wb):
            ctx.set(dut.h_addr, i)
            assert ctx.get(dut.h_rdata) == int.from_bytes(ref[i * wb:(i + 1) * wb], "little"), i

    sim = Simulator(dut)
    sim.add_clock(1e-6)
    sim.add_testbench(bench)
    sim.run()
