"""The link protocol (``nnaccel.linkproto``) and its gateware alone (``nnaccel.boards.soc``) in
Amaranth's simulator: the CRC against Amaranth's CRC catalog, the UART, and requests answered by
the link's gateware as the host client expects."""

import dataclasses

import pytest
from amaranth.hdl import Module
from amaranth.lib.crc import catalog
from amaranth.sim import Simulator
from nnaccel.boards.catalog import BOARDS, board
from nnaccel.boards.soc import UartRx, UartTx, _Link, baud_divisor, divider, pll_params

from nnaccel import linkproto as lp

DIV = 4


def test_crc_is_xmodem():
    for data in (b"123456789", bytes(range(256)), b""):
        assert lp.CRC.compute(data) == catalog.CRC16_XMODEM(8).compute(data)
    assert lp.CRC.compute(b"123456789") == 0x31C3            # the catalog's check value


def test_frames_have_zero_residue():
    f = lp.request("WRITE", 0x1234, 3, b"abc")
    assert f[0] == lp.REQ_SYNC and lp.CRC.compute(f[1:]) == 0
    assert f[2:5] == (0x1234).to_bytes(3, "little") and f[5:8] == (3).to_bytes(3, "little")
    with pytest.raises(ValueError, match="24-bit address"):
        lp.request("READ", 1 << 24, 1)


def test_boards_are_consistent():
    for b in BOARDS.values():
        cfg = b.config()
        assert cfg.dma_size == b.mem_bytes and cfg.name.startswith(b.preset)
        baud_divisor(b.clock_mhz * 1e6, b.baud)
    p = pll_params(25.0, board("ulx3s-85f").clock_mhz)
    assert 400 <= p["vco_mhz"] <= 800 and 25.0 / p["CLKI_DIV"] * p["CLKFB_DIV"] == pytest.approx(10.0)
    with pytest.raises(ValueError, match="within 2 %"):
        baud_divisor(6e6, 1_300_000)
    ice = board("icebreaker")
    assert divider(ice) == 1                                        # the 12 MHz oscillator itself
    assert divider(dataclasses.replace(ice, clock_mhz=6.0)) == 2    # one flip-flop toggling
    for mhz in (4.0, 5.0, 24.0):                                    # 12 / 3 (odd), not a divisor, above
        with pytest.raises(ValueError, match="divided by an even number"):
            divider(dataclasses.replace(ice, clock_mhz=mhz))


def _uart_bytes(ctx, pin, data):
    async def go():
        for byte in data:
            for bit in [0] + [(byte >> i) & 1 for i in range(8)] + [1]:
                ctx.set(pin, bit)
                await ctx.tick().repeat(DIV)
    return go()


def _collect(rx, got: list):
    """A simulator process appending each byte ``rx`` receives to ``got``."""
    async def watch(ctx):
        async for _, _, valid, data in ctx.tick().sample(rx.valid, rx.data):
            if valid:
                got.append(data)
    return watch


def test_uart_loopback():
    m = Module()
    m.submodules.tx = tx = UartTx(DIV)
    m.submodules.rx = rx = UartRx(DIV)
    m.d.comb += rx.rx.eq(tx.tx)
    sent = [0x00, 0xFF, 0xA5, 0x5A, 0x13]
    got = []
    sim = Simulator(m)
    sim.add_clock(1e-6)

    async def bench(ctx):
        for b in sent:
            while ctx.get(tx.busy):
                await ctx.tick()
            ctx.set(tx.data, b)
            ctx.set(tx.start, 1)
            await ctx.tick()
            ctx.set(tx.start, 0)
        await ctx.tick().repeat(12 * DIV)

    sim.add_testbench(bench)
    sim.add_process(_collect(rx, got))
    sim.run()
    assert got == sent


def _exchange(frames, status=None, gap_bits: int = 400):
    """The link gateware's reply bytes to ``frames`` (a list of request byte strings, each
    followed by ``gap_bits`` bit times of silence); the accelerator side is idle with ``status``."""
    cfg = board("icebreaker").config()
    link = _Link(cfg, DIV, 17)
    m = Module()
    m.submodules.link = link
    m.submodules.rx = rx = UartRx(DIV)
    m.d.comb += [rx.rx.eq(link.tx), link.held.eq(link.hold)]
    got = []
    sim = Simulator(m)
    sim.add_clock(1e-6)

    async def bench(ctx):
        for k, v in (status or {}).items():
            ctx.set(getattr(link, k), v)
        ctx.set(link.rx, 1)
        await ctx.tick().repeat(4)
        for f in frames:
            await _uart_bytes(ctx, link.rx, f)
            await ctx.tick().repeat(gap_bits * DIV)

    sim.add_testbench(bench)
    sim.add_process(_collect(rx, got))
    sim.run()
    return bytes(got), cfg


def test_link_gateware_answers_ident_status_and_bad_crc():
    bad = bytearray(lp.request("IDENT"))
    bad[3] ^= 1
    got, cfg = _exchange([lp.request("IDENT"), lp.request("STATUS"), bytes(bad), lp.request("READ", 0, 0)],
                         status={"done": 1, "error": 5, "fault_pc": 0x123456})
    ident = bytes([lp.RSP_SYNC]) + lp.CRC.append(bytes([lp.CODE["OK"]]) + lp.encode_identity(cfg))
    status = bytes([lp.RSP_SYNC]) + lp.CRC.append(bytes([lp.CODE["OK"], 2 | 5 << 2, 0x56, 0x34, 0x12]))
    crc_err = bytes([lp.RSP_SYNC]) + lp.CRC.append(bytes([lp.CODE["CRC_ERROR"]]))
    empty = bytes([lp.RSP_SYNC]) + lp.CRC.append(bytes([lp.CODE["OK"]]))
    assert got == ident + status + crc_err + empty
    assert lp.decode_status(status[2:6]) == {"busy": 0, "done": 1, "error": 5, "fault_pc": 0x123456}


def test_link_gateware_drops_a_request_that_stops_arriving():
    """Three bytes of a request, then silence longer than ``IDLE_TIMEOUT_BITS`` bit times: the
    gateware drops them and answers the next request as if they had never come (without the
    timeout it would read that request's bytes as the rest of the first)."""
    ident = lp.request("IDENT")
    got, cfg = _exchange([ident[:3], ident], gap_bits=lp.IDLE_TIMEOUT_BITS + 50)
    assert got == bytes([lp.RSP_SYNC]) + lp.CRC.append(bytes([lp.CODE["OK"]]) + lp.encode_identity(cfg))


def test_link_gateware_refuses_addresses_beyond_its_memory():
    """The gateware keeps the address and length bits the board's 128 KiB need: a request naming
    a higher bit is a BAD_COMMAND (not a wrapped access); one inside the memory is answered."""
    got, _ = _exchange([lp.request("READ", 1 << 17, 1), lp.request("READ", 0, 1 << 18),
                        lp.request("READ", (1 << 17) - 1, 1)])
    bad = bytes([lp.RSP_SYNC]) + lp.CRC.append(bytes([lp.CODE["BAD_COMMAND"]]))
    assert got[:2 * len(bad)] == bad + bad
    assert got[2 * len(bad):2 * len(bad) + 2] == bytes([lp.RSP_SYNC, lp.CODE["OK"]])
    assert len(got) == 2 * len(bad) + 5          # sync, code, one byte, CRC
