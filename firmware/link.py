"""The host side of the board link (:mod:`nnaccel.linkproto`): a client over a byte transport, and the
runtime backend that runs a program through it.

One client drives the board (:class:`SerialTransport`, pyserial) and its full simulation (the
board-sim's socket bridge to the simulated UART pins, :class:`SocketTransport`). Every exchange is
bounded: a reply that does not come within the transport's timeout, a reply with a bad CRC and a
``CRC_ERROR`` reply are retried (``retries`` times, after draining the input) and then raise
:class:`LinkError`; a device whose identity is not the expected configuration raises
:class:`IdentityError`.
"""

from __future__ import annotations

import socket
import time

import numpy as np

from nnaccel import linkproto as lp
from nnaccel.errors import BudgetError, NnaccelError

__all__ = ["IdentityError", "LinkClient", "LinkError", "SerialTransport", "SocketTransport", "board_backend",
           "cycles_per_byte"]

#: Bytes per READ / WRITE frame (a retry resends at most this much).
CHUNK = 1024
#: Seconds the host waits at least for a run to finish before it counts as a hang.
MIN_WAIT_S = 5.0


def cycles_per_byte(board) -> float:
    """SoC cycles per byte on ``board``'s UART (8N1: 10 bit times of its baud divisor)."""
    return 10 * board.clock_mhz * 1e6 / board.baud


class LinkError(NnaccelError):
    """The board does not answer, or answers wrongly, after every retry."""


class IdentityError(LinkError):
    """The board runs a bitstream for another configuration, ISA or protocol."""


class SocketTransport:
    """Bytes over a connected socket; ``read`` returns what came within ``timeout`` seconds."""

    def __init__(self, sock: socket.socket, timeout: float):
        self.sock, self.timeout = sock, timeout

    def write(self, data: bytes) -> None:
        self.sock.sendall(data)

    def read(self, n: int) -> bytes:
        out = bytearray()
        deadline = time.monotonic() + self.timeout
        while len(out) < n:
            left = deadline - time.monotonic()
            if left <= 0:
                break
            self.sock.settimeout(left)
            try:
                chunk = self.sock.recv(n - len(out))
            except TimeoutError:
                break
            if not chunk:
                break
            out += chunk
        return bytes(out)

    def drain(self) -> None:
        self.sock.settimeout(0.05)
        try:
            while self.sock.recv(4096):
                pass
        except (TimeoutError, BlockingIOError):
            pass

    def close(self) -> None:
        self.sock.close()


class SerialTransport:
    """A serial port (pyserial), e.g. the board's FTDI UART."""

    def __init__(self, port: str, baud: int, timeout: float = 1.0):
        try:
            import serial
        except ImportError:
            raise LinkError("The board backend needs pyserial (pip install pyserial).") from None
        try:
            self.port = serial.Serial(port, baud, timeout=timeout)
        except (OSError, serial.SerialException) as e:
            raise LinkError(f"The serial port {port} cannot be opened ({e}).") from None

    def write(self, data: bytes) -> None:
        self.port.write(data)

    def read(self, n: int) -> bytes:
        return self.port.read(n)

    def drain(self) -> None:
        self.port.reset_input_buffer()

    def close(self) -> None:
        self.port.close()


class LinkClient:
    """Requests of :mod:`nnaccel.linkproto` over ``transport`` (``write``, ``read(n)``, ``drain``)."""

    def __init__(self, transport, retries: int = 3, log=None):
        from nnaccel.isa.table import N_COUNTERS
        self.t = transport
        self.moved = 0              # bytes written and read so far (the link's pace, see run)
        self.retries = retries
        self.n_counters = N_COUNTERS
        self.retried = 0            # exchanges that needed a retry (for tests and reports)
        self.log = log or (lambda msg: None)

    def _once(self, cmd: str, addr: int, length: int, payload: bytes) -> tuple[str, bytes]:
        frame = lp.request(cmd, addr, length, payload)
        self.t.write(frame)
        self.moved += len(frame) + 4 + lp.reply_length(cmd, length, self.n_counters)
        skipped = 0
        while True:
            b = self.t.read(1)
            if not b:
                raise TimeoutError(f"no reply to {cmd}")
            if b[0] == lp.RSP_SYNC:
                break
            skipped += 1
            if skipped > 64:
                raise ValueError(f"no reply sync byte to {cmd}")
        code = self.t.read(1)
        if not code:
            raise TimeoutError(f"a truncated reply to {cmd}")
        names = {v: k for k, v in lp.CODE.items()}
        name = names.get(code[0])
        if name is None:
            raise ValueError(f"an unknown reply code {code[0]} to {cmd}")
        n = lp.reply_length(cmd, length, self.n_counters) if name == "OK" else 0
        rest = self.t.read(n + 2)
        if len(rest) != n + 2:
            raise TimeoutError(f"a truncated reply to {cmd}")
        if lp.CRC.compute(code + rest) != 0:
            raise ValueError(f"a reply to {cmd} with a bad CRC")
        return name, rest[:n]

    def request(self, cmd: str, addr: int = 0, length: int = 0, payload: bytes = b"") -> tuple[str, bytes]:
        """One exchange, retried on a timeout, a bad reply or a ``CRC_ERROR``; returns the reply's
        code name (``OK``, ``BUSY``, ``BAD_COMMAND``) and payload."""
        last = None
        for attempt in range(self.retries + 1):
            if attempt:
                self.retried += 1
                self.log(f"link: retrying {cmd} ({last})")
                self.t.drain()
            try:
                code, data = self._once(cmd, addr, length, payload)
            except (TimeoutError, ValueError) as e:
                last = str(e)
                continue
            if code == "CRC_ERROR":
                last = "the board received a frame with a bad CRC"
                continue
            return code, data
        raise LinkError(f"The board link failed on {cmd} after {self.retries + 1} attempts ({last}); check the "
                        f"port, the baud rate and that the board runs an nnaccel bitstream.")

    def _ok(self, cmd, addr=0, length=0, payload=b"") -> bytes:
        code, data = self.request(cmd, addr, length, payload)
        if code != "OK":
            raise LinkError(f"The board answered {cmd} with {code}.")
        return data

    # ------------------------------------------------------------------ commands
    def identity(self) -> dict:
        return lp.decode_identity(self._ok("IDENT"))

    def check_identity(self, cfg) -> dict:
        """The device's identity, which must be that of a SoC for ``cfg``."""
        got = self.identity()
        want = lp.decode_identity(lp.encode_identity(cfg))
        if got["magic"] != lp.IDENT_MAGIC or got["protocol"] != lp.PROTOCOL_VERSION:
            raise IdentityError(f"The device does not speak nnaccel link protocol {lp.PROTOCOL_VERSION} (identity "
                                f"{got['magic']!r}, protocol {got['protocol']}).")
        if got["isa"] != want["isa"]:
            raise IdentityError(f"The board's bitstream implements another ISA (fingerprint {got['isa']:#06x}, "
                                f"this nnaccel {want['isa']:#06x}); build and load the bitstream again.")
        if got["config"] != want["config"]:
            raise IdentityError(f"The board's bitstream is for another hardware configuration (fingerprint "
                                f"{got['config']:#06x}, expected {want['config']:#06x} for {cfg.name!r}); load "
                                f"the bitstream built for {cfg.name!r}.")
        return got

    def write(self, addr: int, data: bytes) -> None:
        for o in range(0, len(data), CHUNK):
            part = bytes(data[o:o + CHUNK])
            self._ok("WRITE", addr + o, len(part), part)

    def read(self, addr: int, n: int) -> bytes:
        out = bytearray()
        for o in range(0, n, CHUNK):
            out += self._ok("READ", addr + o, min(CHUNK, n - o))
        return bytes(out)

    def start(self, prog_addr: int, prog_len: int) -> None:
        code, _ = self.request("START", prog_addr, prog_len)
        if code not in ("OK", "BUSY"):   # BUSY on a retry: the first START went through
            raise LinkError(f"The board answered START with {code}.")

    def status(self) -> dict:
        return lp.decode_status(self._ok("STATUS"))

    def counters(self) -> dict:
        from nnaccel.isa import COUNTERS
        raw = self._ok("COUNTERS")
        vals = [int.from_bytes(raw[8 * i:8 * i + 8], "little") for i in range(self.n_counters)]
        return {c.name: vals[c.id] for c in COUNTERS}

    def run(self, program: bytes, memory: np.ndarray, mem_bytes: int, budget_cycles: int,
            cycles_per_byte: float, step_cycles: float, min_wait_s: float = MIN_WAIT_S, poll_s: float = 0.05):
        """Loads ``memory`` at 0 and ``program`` above it, runs it, and returns ``(memory after,
        counters)``. Raises :class:`nnaccel.isa.AcceleratorFault` on a fault and
        :class:`~nnaccel.errors.BudgetError` when the run takes more than ``budget_cycles``.

        The board answers only STATUS while it runs, so a run that does not end is stopped by
        time: the device's cycles per second are estimated from the upload (``cycles_per_byte``
        device cycles per link byte: 10 bit times of the UART divisor; on the board that gives its
        clock, on board-sim the simulation's speed), and the host waits for twice the budget at that
        pace, at least ``min_wait_s``; an accelerator cycle takes up to ``step_cycles`` device cycles
        (:func:`nnaccel.boards.soc.max_step_cycles`). A run that ends is checked against the budget
        exactly (its ``cycles`` counter)."""
        from nnaccel.isa import FAULTS, AcceleratorFault
        prog_addr = -(-memory.size // 64) * 64
        if prog_addr + len(program) > mem_bytes:
            raise LinkError(f"The segment's memory ({memory.size} bytes) and program ({len(program)} bytes) do "
                            f"not fit the board's {mem_bytes} bytes of memory.")
        t0, moved0 = time.monotonic(), self.moved
        self.write(0, memory.tobytes())
        self.write(prog_addr, program)
        rate = (self.moved - moved0) * cycles_per_byte / max(time.monotonic() - t0, 1e-6)  # cycles / s
        wait_s = max(min_wait_s, 2 * budget_cycles * step_cycles / rate)
        self.start(prog_addr, len(program) // 16)
        deadline = time.monotonic() + wait_s
        while True:
            st = self.status()
            if st["done"]:
                break
            if time.monotonic() > deadline:
                raise BudgetError(f"the device did not finish within {wait_s:.1f} s, twice the budget of "
                                  f"{budget_cycles} cycles at the pace the link measured ({rate:.3g} device "
                                  f"cycles/s, up to {step_cycles:g} a cycle of the accelerator)")
            time.sleep(poll_s)
        if st["error"]:
            name = {f.code: f.name for f in FAULTS}[st["error"]]
            raise AcceleratorFault(name, st["fault_pc"], f"the board stopped with {name} at instruction "
                                                         f"{st['fault_pc']}.")
        counters = self.counters()
        if counters["cycles"] > budget_cycles:
            raise BudgetError(f"the program took {counters['cycles']} cycles, more than the budget of "
                              f"{budget_cycles}")
        mem = np.frombuffer(self.read(0, memory.size), np.uint8).copy()
        return mem, counters


def board_backend(client: LinkClient, mem_bytes: int, cycles_per_byte: float, step_cycles: float,
                  min_wait_s: float = MIN_WAIT_S):
    """A runtime backend function (for ``nnaccel.firmware.runtime.Runtime.run``) that runs each segment on the board
    behind ``client``, within :func:`nnaccel.firmware.runtime.cycle_budget` (see :meth:`LinkClient.run`;
    ``cycles_per_byte``: :func:`cycles_per_byte` of the board; ``step_cycles``: its device cycles
    per accelerator cycle at most (:func:`nnaccel.boards.soc.max_step_cycles`); ``min_wait_s``: the least wait
    for a run to end). ``run_cycles`` is the ``cycles`` counter, which wraps at ``2 ** counter_bits``."""
    from .runtime import cycle_budget
    checked = []

    def backend(cfg, program: bytes, memory: np.ndarray, progress=None, max_cycles=None):
        if not checked:
            client.check_identity(cfg)
            checked.append(True)
        budget = min(cycle_budget(cfg, program, max_cycles), (1 << cfg.counter_bits) - 1)
        mem, counters = client.run(bytes(program), memory, mem_bytes, budget, cycles_per_byte, step_cycles,
                                   min_wait_s)
        return mem, dict(counters, run_cycles=counters["cycles"]), None
    return backend
