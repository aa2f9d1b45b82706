"""The FPGA boards nnaccel builds for: one declarative entry each (plain data; importing this needs no
Amaranth). A board names its ``amaranth-boards`` platform, the accelerator preset it carries, its
oscillator and the SoC clock derived from it, its memory behind the accelerator's external-memory
port, its host link and LEDs. ``docs/boards.md`` describes the SoC, ``docs/boards-NAME.md`` each board.

The SoC clock is below the frequency the preset's accelerator routes at on the board's FPGA, so
timing is met (``nnaccel build`` checks it): on the iCE40 it is the oscillator itself, or the
oscillator divided by a flip-flop onto a global buffer (its PLL cannot go below 16 MHz), on the ECP5
an EHXPLLL makes it.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["BOARDS", "Board", "board"]


@dataclass(frozen=True)
class Board:
    """One board. ``clock``: ``"divide"`` (the oscillator divided by ``osc_mhz / clock_mhz``: 1 or
    an even integer) or ``"pll"``. ``memory``: ``"spram"`` (iCE40UP5K SPRAM) or ``"bram"`` (block RAM)."""

    name: str
    title: str
    platform: str                   # "module:Class" in amaranth_boards
    target: str                     # key of nnaccel.boards.targets.TARGETS (device, DSP use)
    preset: str
    osc_mhz: float
    clock_mhz: float
    clock: str
    memory: str
    mem_bytes: int
    baud: int
    leds: tuple[str, str]           # resources for busy, error
    program: tuple[str, ...]        # the loader's command; the bitstream's path is appended
    uart_tx_enable: bool = False    # a resource "uart_tx_enable" must be driven high (ULX3S)
    #: Fields of the preset the board changes (a leaner machine that fits), as (field, value) pairs.
    changes: tuple = ()
    #: More nextpnr options for the board's build (e.g. its router), as in nextpnr's command line.
    pnr_opts: tuple[str, ...] = ()

    @property
    def extension(self) -> str:
        return ".bin" if self.target == "ice40" else ".bit"

    def config(self):
        """The board's hardware configuration: the preset with the board's ``changes`` and its DMA
        window on the board's memory (a DMA outside it faults instead of wrapping)."""
        from nnaccel.hwconfig import load_config
        return load_config(self.preset).replace(name=f"{self.preset}-{self.name}", dma_base=0,
                                                dma_size=self.mem_bytes, **dict(self.changes))

    def platform_class(self):
        import importlib
        module, cls = self.platform.split(":")
        return getattr(importlib.import_module(module), cls)


BOARDS = {b.name: b for b in (
    # iCE40UP5K: tiny's 4 x 4 accelerator alone takes nearly all of the UP5K's logic cells, so the
    # board carries tiny with a 2 x 2 array (the rest of tiny as it is), which leaves room for the
    # SoC; the 12 MHz oscillator is the SoC clock (below the fmax of build-icebreaker in
    # docs/results.md). UART on the FT2232H's channel B; the four SPRAMs are the memory.
    Board("icebreaker", "1BitSquared iCEBreaker (iCE40UP5K)", "amaranth_boards.icebreaker:ICEBreakerPlatform",
          "ice40", "tiny", osc_mhz=12.0, clock_mhz=12.0, clock="divide", memory="spram", mem_bytes=128 * 1024,
          baud=1_000_000, leds=("led_g", "led_r"), program=("iceprog",), changes=(("rows", 2), ("cols", 2))),
    # ECP5-85F: small; an EHXPLLL makes 10 MHz from the 25 MHz oscillator, below the fmax its
    # build reaches (build-ulx3s-85f in docs/results.md). Memory: 256 KiB of block RAM beside small's
    # scratchpads (no maintained Amaranth SDRAM controller installs with pip; docs/boards-ulx3s-85f.md),
    # which holds KWS.
    Board("ulx3s-85f", "Radiona ULX3S (ECP5 LFE5U-85F)", "amaranth_boards.ulx3s:ULX3S_85F_Platform",
          "ecp5-85f", "small", osc_mhz=25.0, clock_mhz=10.0, clock="pll", memory="bram", mem_bytes=256 * 1024,
          baud=1_000_000, leds=("led", "led"), program=("openFPGALoader", "-b", "ulx3s"), uart_tx_enable=True),
)}


def board(name: str) -> Board:
    from nnaccel.errors import InputError
    if name not in BOARDS:
        raise InputError(f"Unknown board {name!r}; the boards are {', '.join(BOARDS)}.")
    return BOARDS[name]
