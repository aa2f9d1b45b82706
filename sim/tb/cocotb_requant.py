"""cocotb test: stream requantization cases through one RequantLane, one per cycle."""

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ReadOnly, RisingEdge, Timer

from . import tb_args, tb_result

FIELDS = ("acc", "bias", "multiplier", "shift", "out_zp", "qmin", "qmax")
WIDTHS = (32, 32, 32, 6, 10, 10, 10)


@cocotb.test()
async def requant_stream(dut):
    cases = tb_args()["cases"]
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    dut.rst.value = 1
    await RisingEdge(dut.clk)
    dut.rst.value = 0
    out = []
    cycle = 0
    while len(out) < len(cases):
        if cycle < len(cases):
            for name, width, v in zip(FIELDS, WIDTHS, cases[cycle]):
                getattr(dut, name).value = int(v) & ((1 << width) - 1)
            dut.i_valid.value = 1
        else:
            dut.i_valid.value = 0
        await RisingEdge(dut.clk)
        await ReadOnly()
        cycle += 1
        if int(dut.o_valid.value):
            v = int(dut.out.value)
            out.append(v - 1024 if v >> 9 else v)
        assert cycle < len(cases) + 20
        await Timer(1, unit="ns")
    tb_result({"out": out})
