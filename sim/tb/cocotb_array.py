"""cocotb test of the systolic array against :func:`nnaccel.hw.array.array_model` inputs."""

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ReadOnly, RisingEdge, Timer

from . import pack, tb_args, tb_result, unpack


@cocotb.test()
async def array_stream(dut):
    args = tb_args()
    rows, cols = args["rows"], args["cols"]
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    dut.rst.value = 1
    await RisingEdge(dut.clk)
    dut.rst.value = 0
    dut.w_signed.value = args["w_signed"]
    dut.a_signed.value = args["a_signed"]
    dut.w_zp.value = args["w_zp"] & 0x1FF
    dut.a_zp.value = args["a_zp"] & 0x1FF
    for i, row in enumerate(args["w"]):
        dut.w_we.value = 1
        dut.w_row.value = i
        dut.w_data.value = pack(row, 8)
        await RisingEdge(dut.clk)
    dut.w_we.value = 0
    a = args["a"]
    out, first = [], None
    cycle = 0
    while len(out) < len(a):
        if cycle < len(a):
            dut.a_valid.value = 1
            dut.a_data.value = pack(a[cycle], 8)
        else:
            dut.a_valid.value = 0
        await RisingEdge(dut.clk)
        cycle += 1
        await ReadOnly()
        if int(dut.o_valid.value):
            first = cycle if first is None else first
            out.append(unpack(int(dut.o_data.value), 32, cols))
        assert cycle < len(a) + 4 * (rows + cols) + 10
        await Timer(1, unit="ns")  # leave the read-only phase before driving again
    tb_result({"out": out, "latency": first})
