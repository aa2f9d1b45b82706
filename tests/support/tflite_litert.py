"""Runs ``.tflite`` models on LiteRT's reference kernels in a separate process.

LiteRT (``ai_edge_litert``) aborts the whole process on some degenerate models (a quantization
scale it cannot turn into a multiplier, for instance), so models run in a worker subprocess that
is restarted after a crash. One worker serves many models, which keeps the start-up cost to one
per session::

    with LiteRTWorker() as w:
        status, result = w.run(model_bytes, [x])   # ("ok", [outputs]) / ("error" | "crash", message)

The reference kernels are selected with ``OpResolverType.BUILTIN_REF``; inputs are given in the
order of the subgraph's inputs, outputs come back in the order of its outputs.
"""

from __future__ import annotations

import pickle
import struct
import subprocess
import sys
import tempfile


def run_litert_inprocess(model: bytes, inputs: list, resolver: str = "BUILTIN_REF") -> list:
    """Runs ``model`` on LiteRT in this process (may abort it!); ``resolver`` names the
    ``OpResolverType``: ``BUILTIN_REF`` (reference kernels) or ``BUILTIN`` (optimized)."""
    import numpy as np
    from ai_edge_litert.interpreter import Interpreter, OpResolverType
    it = Interpreter(model_content=model, experimental_op_resolver_type=getattr(OpResolverType, resolver),
                     num_threads=1)
    details = it.get_input_details()
    for d, x in zip(details, inputs):
        x = np.asarray(x)
        if tuple(d["shape"]) != x.shape:
            it.resize_tensor_input(d["index"], x.shape)
    it.allocate_tensors()
    for d, x in zip(details, inputs):
        it.set_tensor(d["index"], np.asarray(x, dtype=d["dtype"]))
    it.invoke()
    return [it.get_tensor(d["index"]).copy() for d in it.get_output_details()]


def _send(f, obj) -> None:
    data = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    f.write(struct.pack("<Q", len(data)) + data)
    f.flush()


def _recv(f):
    head = f.read(8)
    if len(head) < 8:
        raise EOFError
    (n,) = struct.unpack("<Q", head)
    data = f.read(n)
    if len(data) < n:
        raise EOFError
    return pickle.loads(data)  # our own worker process, over a private pipe


def _serve() -> None:  # pragma: no cover - runs in the worker subprocess
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    sys.stdout = sys.stderr  # anything LiteRT prints must not corrupt the pipe
    while True:
        try:
            model, inputs, resolver = _recv(stdin)
        except EOFError:
            return
        try:
            _send(stdout, ("ok", run_litert_inprocess(model, inputs, resolver)))
        except Exception as e:  # noqa: BLE001 - reported to the parent as the model's result
            _send(stdout, ("error", f"{type(e).__name__}: {e}"))


class LiteRTWorker:
    """A LiteRT worker subprocess, restarted after each crash."""

    def __init__(self):
        self.proc: subprocess.Popen | None = None
        self.crashes = 0

    def _start(self) -> None:
        # stderr goes to a file: LiteRT logs there, and a full pipe would block the worker.
        self.errfile = tempfile.TemporaryFile()  # noqa: SIM115 - lives as long as the worker
        self.proc = subprocess.Popen([sys.executable, __file__],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.errfile)

    def run(self, model: bytes, inputs: list, resolver: str = "BUILTIN_REF",
            timeout: float = 60.0) -> tuple[str, object]:
        """``("ok", outputs)``, ``("error", message)`` (LiteRT raised) or ``("crash", message)``."""
        if self.proc is None or self.proc.poll() is not None:
            self._start()
        try:
            _send(self.proc.stdin, (model, [*inputs], resolver))
            return _recv(self.proc.stdout)
        except (EOFError, BrokenPipeError, OSError):
            self.proc.kill()
            self.proc.wait(timeout=timeout)
            self.proc = None
            self.crashes += 1
            self.errfile.seek(0)
            tail = self.errfile.read().decode(errors="replace").strip().splitlines()[-3:]
            self.errfile.close()
            return "crash", "LiteRT aborted: " + " / ".join(tail)

    def close(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.stdin.close()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


if __name__ == "__main__":  # pragma: no cover
    _serve()
