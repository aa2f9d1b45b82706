"""Pseudo-terminals for the board backend's tests (``nnaccel run --backend board --port PATH``): the
backend opens the pty's terminal end with pyserial as it opens a board's FTDI UART, and the test
drives the other end: a bridge to the board simulation's UART (:class:`PtyBridge`), or a device
that a test script drives with the link protocol (:class:`ScriptedDevice`)."""

from __future__ import annotations

import os
import select
import threading
import tty

from nnaccel import linkproto as lp


class _Pty:
    """A pty pair in raw mode: :attr:`path` for pyserial, :attr:`master` for the test. The test keeps
    the terminal end open as well, so that the master end reads nothing (not EIO) while the backend
    has not opened the port yet or has closed it."""

    def __init__(self):
        self.master, self._slave = os.openpty()
        tty.setraw(self._slave)
        self.path = os.ttyname(self._slave)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, daemon=True)

    def _read_master(self, timeout: float = 0.05) -> bytes:
        ready, _, _ = select.select([self.master], [], [], timeout)
        return os.read(self.master, 65536) if ready else b""

    def _write_master(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            view = view[os.write(self.master, view):]

    def _loop(self):
        raise NotImplementedError

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join(timeout=10)
        os.close(self.master)
        os.close(self._slave)


class PtyBridge(_Pty):
    """Copies bytes both ways between the pty and ``sock`` (the board simulation's UART stream:
    :attr:`nnaccel.boards.boardsim.BoardSim.sock`) until the context ends."""

    def __init__(self, sock):
        super().__init__()
        self.sock = sock

    def _loop(self):
        self.sock.setblocking(False)
        try:
            while not self._stop.is_set():
                ready, _, _ = select.select([self.master, self.sock], [], [], 0.05)
                if self.master in ready:
                    self.sock.sendall(os.read(self.master, 65536))
                if self.sock in ready:
                    data = self.sock.recv(65536)
                    if not data:
                        return
                    self._write_master(data)
        finally:
            self.sock.setblocking(True)


class ScriptedDevice(_Pty):
    """A device on the pty that parses each request frame (:mod:`nnaccel.linkproto`) and answers as
    ``answer(cmd, addr, length, payload)`` says: ``(code, payload)`` for a reply, ``None`` for no
    reply. ``corrupt_replies``: how many of the first replies get one flipped bit in their CRC.
    :attr:`requests` lists the commands received with a good CRC, :attr:`bad_frames` counts the
    others."""

    def __init__(self, answer, corrupt_replies: int = 0):
        super().__init__()
        self.answer = answer
        self.corrupt_replies = corrupt_replies
        self.requests: list[str] = []
        self.bad_frames = 0

    def _frames(self):
        """Request frames as (cmd, addr, length, payload); junk before a sync byte is skipped."""
        names = {v: k for k, v in lp.CMD.items()}
        buf = bytearray()
        header = 1 + 1 + lp.ADDR_BYTES + lp.LEN_BYTES
        while not self._stop.is_set():
            buf += self._read_master()
            while buf and buf[0] != lp.REQ_SYNC:
                del buf[0]
            if len(buf) < header:
                continue
            cmd = names.get(buf[1])
            addr = int.from_bytes(buf[2:2 + lp.ADDR_BYTES], "little")
            length = int.from_bytes(buf[2 + lp.ADDR_BYTES:header], "little")
            size = header + (length if cmd == "WRITE" else 0) + 2
            if len(buf) < size:
                continue
            frame = bytes(buf[:size])
            del buf[:size]
            if cmd is None or lp.CRC.compute(frame[1:]) != 0:
                self.bad_frames += 1
                yield "BAD", 0, 0, b""
                continue
            yield cmd, addr, length, frame[header:-2]

    def _loop(self):
        for cmd, addr, length, payload in self._frames():
            if cmd == "BAD":
                self._reply("CRC_ERROR", b"")
                continue
            self.requests.append(cmd)
            answer = self.answer(cmd, addr, length, payload)
            if answer is not None:
                self._reply(*answer)

    def _reply(self, code: str, payload: bytes) -> None:
        frame = bytearray([lp.RSP_SYNC]) + lp.CRC.append(bytes([lp.CODE[code]]) + payload)
        if self.corrupt_replies:
            self.corrupt_replies -= 1
            frame[-1] ^= 0x04
        self._write_master(bytes(frame))
