"""``board-sim``: a board's whole SoC (:class:`nnaccel.boards.soc.SoC`, the bitstream's logic without
its clock and I/O buffers) in Verilator, reached through a socket that :mod:`nnaccel.boards.tb_uart`
bridges to the simulated UART pins, so that the host driver (``nnaccel.firmware.link``) talks to it
byte by byte as to the board.

Differences from the bitstream: the RAM banks are Amaranth memories instead of SB_SPRAM256KA, and
the iCE40 array's hand-instantiated SB_MAC16 pairs are the same arrangement in plain logic
(``dual8``); simulators have neither primitive.
"""

from __future__ import annotations

import socket
import threading
from pathlib import Path

__all__ = ["BoardSim"]


def _build(board):
    from nnaccel.sim import rtl_runner
    key = rtl_runner._source_key(repr(board), *(Path(__file__).parent.joinpath(f).read_text()
                                                  for f in ("soc.py", "catalog.py")), _linkproto_text())
    index = rtl_runner.cache_root() / "index" / f"board-{key}"
    if index.exists():
        bdir = Path(index.read_text())
        if (bdir / "BUILD_OK").exists():
            return rtl_runner.RtlBuild(bdir, "soc")
    from .soc import SoC
    rtl = rtl_runner.build(rtl_runner.to_verilog(SoC(board, sim=True), "soc"), "soc", key=board.name)
    index.parent.mkdir(parents=True, exist_ok=True)
    index.write_text(str(rtl.directory))
    return rtl


def _linkproto_text() -> str:
    import nnaccel.linkproto
    return Path(nnaccel.linkproto.__file__).read_text()


class BoardSim:
    """A running simulation of ``board``'s SoC; :attr:`sock` is its host byte stream (a connected
    socket: the bytes the SoC receives on ``rx`` and sends on ``tx``). Use as a context manager (the
    simulation ends when it is closed)."""

    def __init__(self, board, log=None):
        from .soc import baud_divisor
        say = log or (lambda msg: None)
        say(f"board-sim: building the {board.name} SoC in Verilator (cached after the first time)")
        self.rtl = _build(board)
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
        try:
            self.result = rtl_runner.run(self.rtl, "nnaccel.boards.tb_uart",
                                         {"port": self._srv.getsockname()[1], "divisor": self.divisor})
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
