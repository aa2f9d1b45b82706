"""cocotb test module of ``board-sim``: a bridge between a TCP socket and the SoC's UART pins.

It connects to the host driver's socket (argument ``port``), clocks the SoC (a C++ clock: no
Python per edge), and moves bytes both ways: each byte from the socket is driven onto ``rx`` bit
by bit (8N1, ``divisor`` clock cycles a bit), and each byte the SoC sends on ``tx`` is sampled at
its bits' middles and written to the socket. It ends when the host closes the socket.
"""

import socket

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, FallingEdge, RisingEdge, Timer
from nnaccel.sim.tb import tb_args, tb_result

PERIOD_NS = 10


async def _monitor_tx(dut, sock, bit_ns):
    while True:
        await FallingEdge(dut.tx)
        await Timer(bit_ns * 3 // 2, unit="ns")
        byte = 0
        for i in range(8):
            byte |= int(dut.tx.value) << i
            await Timer(bit_ns, unit="ns")
        try:
            sock.sendall(bytes([byte]))
        except OSError:
            return


@cocotb.test()
async def bridge(dut):
    args = tb_args()
    bit_ns = args["divisor"] * PERIOD_NS
    cocotb.start_soon(Clock(dut.clk, PERIOD_NS, unit="ns", impl="gpi").start())
    dut.rx.value = 1
    dut.rst.value = 1
    await ClockCycles(dut.clk, 4)
    dut.rst.value = 0
    await RisingEdge(dut.clk)
    sock = socket.create_connection(("127.0.0.1", args["port"]))
    sock.setblocking(False)
    cocotb.start_soon(_monitor_tx(dut, sock, bit_ns))
    sent = 0
    while True:
        try:
            data = sock.recv(65536)
        except BlockingIOError:
            await ClockCycles(dut.clk, args.get("poll_cycles", 500))
            continue
        except OSError:
            break
        if not data:
            break
        for byte in data:
            for bit in [0] + [(byte >> i) & 1 for i in range(8)] + [1]:
                dut.rx.value = bit
                await Timer(bit_ns, unit="ns")
        sent += len(data)
    sock.close()
    tb_result({"bytes_to_board": sent})
