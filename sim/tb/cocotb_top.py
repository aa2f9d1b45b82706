"""cocotb test of the accelerator top level (:class:`nnaccel.hw.accel.SimTop`).

Loads the memory image through the host port (non-zero words only), starts the program, waits for
``done`` without a Python callback per clock, then reads the status, the counters, the run's length
(``run_cycles``: it does not wrap like the ``cycles`` counter) and the requested memory regions
back. Arguments (JSON): ``image`` (path of a raw byte file loaded at address 0), ``word_bytes``,
``prog_addr``, ``prog_len``, ``read`` (list of ``[addr, nbytes]``), ``max_cycles``.
"""

import time
from pathlib import Path

import cocotb
from cocotb.triggers import RisingEdge, SimTimeoutError, Timer, with_timeout

from . import tb_args, tb_result

#: Bits of one counter's slot in the top level's ``counters`` port (each counter zero-extended).
BITS_PER_COUNTER = 64


@cocotb.test()
async def run_program(dut):
    args = tb_args()
    wb = args["word_bytes"]
    # the model makes its own clock: a rising edge every 10 ns (from 10 ns on), each cycle one time
    # step (nnaccel.sim.rtl_runner.CLOCK_VERILOG), so the testbench cannot wait on its edges: it
    # sets inputs half-way between two edges and steps one period at a time (``cycle``)
    dut.start.value = 0  # the model has no reset input: it starts in its reset state
    dut.h_we.value = 0
    await Timer(15, unit="ns")

    async def cycle():
        await Timer(10, unit="ns")
    image = Path(args["image"]).read_bytes()
    for i in range(0, len(image), wb):
        chunk = image[i:i + wb]
        if not any(chunk):
            continue
        dut.h_addr.value = i // wb
        dut.h_wdata.value = int.from_bytes(chunk, "little")
        dut.h_we.value = 1
        await cycle()
    dut.h_we.value = 0
    dut.prog_addr.value = args["prog_addr"]
    dut.prog_len.value = args["prog_len"]
    dut.start.value = 1
    await cycle()
    dut.start.value = 0
    t0, c0 = time.perf_counter(), time.process_time()
    try:
        await with_timeout(RisingEdge(dut.done), args["max_cycles"] * 10, "ns")
    except SimTimeoutError:  # past the cycle budget: report it instead of failing the test
        tb_result({"timeout": args["max_cycles"], "wall_seconds": time.perf_counter() - t0})
        return
    # the simulator runs in this process: its CPU time is the simulation's, whatever else the
    # machine runs (wall time is not, on a loaded machine)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    await Timer(1, unit="ns")
    raw = int(dut.counters.value)
    n = len(dut.counters.value) // BITS_PER_COUNTER
    counters = [(raw >> (BITS_PER_COUNTER * i)) & ((1 << BITS_PER_COUNTER) - 1) for i in range(n)]
    regions = []
    for addr, nbytes in args.get("read", []):
        first, last = addr // wb, (addr + nbytes - 1) // wb
        data = bytearray()
        for wi in range(first, last + 1):
            dut.h_addr.value = wi
            await Timer(1, unit="ns")
            data += int(dut.h_rdata.value).to_bytes(wb, "little")
        off = addr - first * wb
        regions.append(bytes(data[off:off + nbytes]).hex())
    tb_result({"error": int(dut.error.value), "fault_pc": int(dut.fault_pc.value),
               "sp_collision": int(dut.sp_collision.value), "counters": counters,
               "run_cycles": int(dut.run_cycles.value),
               "wall_seconds": wall, "cpu_seconds": cpu, "regions": regions})
