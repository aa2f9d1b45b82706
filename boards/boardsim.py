"""``board-sim``: a board's whole SoC (:class:`nnaccel.boards.soc.SoC`, the bitstream's logic without
its clock and I/O buffers) in Verilator, reached through a socket that :mod:`nnaccel.boards.tb_uart`
bridges to the simulated UART pins, so that the host driver (``nnaccel.firmware.link``) talks to it
byte by byte as to the board.

Differences from the bitstream: the RAM banks are Amaranth memories instead of SB_SPRAM256KA, and
the iCE40 array's hand-instantiated SB_MAC16 pairs are the same arrangement in plain logic
(``dual8``); simulators have neither primitive.
"""

from __future__ import annotations

import inspect
import socket
import threading
from pathlib import Path

__all__ = ["BoardSim"]


def _build(board, waves: bool = False):
    from nnaccel.sim import rtl_runner
    key = rtl_runner._source_key(repr(board), *(Path(__file__).parent.joinpath(f).read_text()
                                                  for f in ("soc.py", "catalog.py")), _linkproto_text(),
                                 *(["fst", rtl_runner.WAVE_VERILOG, inspect.getsource(_with_wave_recorder)]
                                   if waves else []))
    index = rtl_runner.cache_root() / "index" / f"board-{key}"
    if index.exists():
        bdir = Path(index.read_text())
        if (bdir / "BUILD_OK").exists():
            return rtl_runner.RtlBuild(bdir, "soc")
    from .soc import SoC
    soc = SoC(board, sim=True)
    if waves:
        text = rtl_runner.to_verilog(_with_wave_recorder(soc), "soc") + rtl_runner.WAVE_VERILOG
    else:
        text = rtl_runner.to_verilog(soc, "soc")
    rtl = rtl_runner.build(text, "soc", key=board.name, waves=waves)
    index.parent.mkdir(parents=True, exist_ok=True)
    index.write_text(str(rtl.directory))
    return rtl


def _with_wave_recorder(soc):
    """``soc`` with the same ports and, beside it, the waveform recorder of the rtl backend
    (:data:`nnaccel.sim.rtl_runner.WAVE_VERILOG`) fed with the accelerator's busy and a count of
    its cycles over the session: the cycles it steps while busy, each run's first one left out as
    :class:`nnaccel.hw.accel.SimTop`'s ``run_cycles`` leaves it out, so that in segment K the count
    is the cycles of segments 0 .. K-1 plus that segment's own (the timeline of ``--trace``)."""
    from amaranth.hdl import ClockSignal, Instance, Module, Signal
    from amaranth.lib import wiring

    class WaveSoC(wiring.Component):
        def __init__(self):
            super().__init__(dict(soc.signature.members))

        def elaborate(self, platform):
            m = Module()
            m.submodules.soc = soc
            for name, member in soc.signature.members.items():
                ours, theirs = getattr(self, name), getattr(soc, name)
                m.d.comb += ours.eq(theirs) if member.flow == wiring.Out else theirs.eq(ours)
            count, running = Signal(64, name="session_cycles"), Signal()
            with m.If(soc.acc_step):
                with m.If(soc.led_busy):
                    m.d.sync += running.eq(1)
                    with m.If(running):
                        m.d.sync += count.eq(count + 1)
                with m.Else():
                    m.d.sync += running.eq(0)
            m.submodules.wave = Instance("nnaccel_wave", i_clk=ClockSignal("sync"), i_busy=soc.led_busy,
                                         i_run_cycles=count)
            return m
    return WaveSoC()


def _linkproto_text() -> str:
    import nnaccel.linkproto
    return Path(nnaccel.linkproto.__file__).read_text()


class BoardSim:
    """A running simulation of ``board``'s SoC; :attr:`sock` is its host byte stream (a connected
    socket: the bytes the SoC receives on ``rx`` and sends on ``tx``). Use as a context manager (the
    simulation ends when it is closed).

    ``wave`` = ``(path, (first, last) or None)``: an FST waveform of the session (a separate,
    FST-tracing build), opened in the first busy cycle whose count of the accelerator's cycles
    (see :func:`_with_wave_recorder`) reaches ``first`` and closed once it passes ``last``; written
    to ``path`` when the simulation ends (:meth:`close`)."""

    def __init__(self, board, log=None, wave=None):
        from .soc import baud_divisor
        say = log or (lambda msg: None)
        say(f"board-sim: building the {board.name} SoC in Verilator{' with FST tracing' if wave else ''} "
            f"(cached after the first time)")
        self.wave = wave
        self.rtl = _build(board, waves=wave is not None)
        self.divisor = baud_divisor(board.clock_mhz * 1e6, board.baud)
        self._srv = socket.socket()
        self._srv.bind(("127.0.0.1", 0))
        self._srv.listen(1)
        self._srv.settimeout(120)
        self.result, self.error = None, None
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        try:
            self.sock, _ = self._srv.accept()
        except TimeoutError:
            raise RuntimeError(f"The board simulation did not connect: {self.error}") from None

    def _run(self):
        from nnaccel.sim import rtl_runner
        plusargs, keep = [], {}
        if self.wave is not None:
            path, window = self.wave
            first, last = window or (0, None)
            plusargs = [f"+nnaccel_wave_first={first}"] + ([f"+nnaccel_wave_last={last}"] if last is not None else [])
            keep = {"wave.fst": Path(path)}
        try:
            self.result = rtl_runner.run(self.rtl, "nnaccel.boards.tb_uart",
                                         {"port": self._srv.getsockname()[1], "divisor": self.divisor},
                                         plusargs=plusargs, keep=keep)
        except (RuntimeError, OSError) as e:  # reported by close()
            self.error = e

    def close(self):
        self.sock.close()
        self._srv.close()
        self._thread.join(timeout=60)
        if self.error is not None:
            raise RuntimeError(f"The board simulation failed: {self.error}")

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
