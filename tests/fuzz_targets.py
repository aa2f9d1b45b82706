"""Fuzz targets: each feeds one input (bytes) to one loader through the ``nnaccel`` command line and
checks the contract for bad input: exit status 0, 2 or 3, no traceback (no exception escapes
``main``), and an end within :data:`TIME_BOUND` seconds.

``tests/test_fuzz.py`` drives them with hypothesis (structure-aware and mutational);
``tests/fuzz_atheris.py`` drives the same targets with atheris (libFuzzer) when it is installed.
"""

from __future__ import annotations

import contextlib
import io
import os
import signal
import tempfile
from pathlib import Path

from nnaccel.cli import main
from nnaccel.cli_mlperf import mlperf_dir

#: Seconds one input may take before it counts as a hang.
TIME_BOUND = float(os.environ.get("NNACCEL_FUZZ_TIME_BOUND", "20"))
ALLOWED_EXITS = (0, 2, 3)
REPO = Path(__file__).resolve().parents[1]
#: The MLPerf Tiny models, where the CLI finds them (``$NNACCEL_MLPERF_TINY_DIR``, else ``../shared``).
MLPERF_DIR = mlperf_dir()


class Hang(BaseException):
    """An input that ran past :data:`TIME_BOUND` (a BaseException, so nothing on the way catches it)."""


@contextlib.contextmanager
def time_bound(seconds: float = TIME_BOUND):
    if seconds <= 0:  # no bound of ours (atheris bounds each input with libFuzzer's -timeout)
        yield
        return

    def expire(signum, frame):
        raise Hang(f"the input ran for more than {seconds} s")
    old = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def run_cli(*argv: str) -> tuple[int, str, str]:
    """``main(argv)`` with its output captured; an exception escaping ``main`` propagates (a crash)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), time_bound():
        try:
            code = main(list(argv))
        except SystemExit as e:  # argparse
            code = e.code
    return code, out.getvalue(), err.getvalue()


def check(argv, code, out, err) -> None:
    assert code in ALLOWED_EXITS, f"nnaccel {' '.join(argv)} exited {code}: {err[-2000:]}"
    assert "Traceback" not in err, err
    if code != 0:
        assert err.strip(), f"nnaccel {' '.join(argv)} exited {code} without a message"


def feed(data: bytes, suffix: str, *command: str, extra=()) -> int:
    """Writes ``data`` to a temporary file named ``*suffix`` and runs ``nnaccel COMMAND FILE EXTRA``."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "input" + suffix)
        Path(path).write_bytes(data)
        argv = [*command, path, *extra]
        code, out, err = run_cli(*argv)
        check(argv, code, out, err)
        return code


# ------------------------------------------------------------------------------------- targets
def json_model(data: bytes) -> None:
    """A model file (JSON) through ``run`` (load, validate, inputs, golden run)."""
    feed(data, ".json", "run")


def gzip_model(data: bytes) -> None:
    feed(data, ".json.gz", "info")


def tflite_model(data: bytes) -> None:
    """A ``.tflite`` file through ``info`` (import and validate)."""
    feed(data, ".tflite", "info")


def tflite_run(data: bytes) -> None:
    """A small ``.tflite`` file through ``run`` (import, validate, golden run)."""
    feed(data, ".tflite", "run")


def onnx_model(data: bytes) -> None:
    """An ``.onnx`` file through ``info`` (parse, check, shape inference, import, validate, placement)."""
    feed(data, ".onnx", "info")


def onnx_run(data: bytes) -> None:
    """A small ``.onnx`` file through ``run`` (import, validate, golden run)."""
    feed(data, ".onnx", "run")


def package(data: bytes) -> None:
    """A program package through ``report`` and ``run --backend isa``."""
    if feed(data, ".nnpkg", "report") == 0:
        feed(data, ".nnpkg", "run", extra=("--backend", "isa"))


def hw_config_toml(data: bytes) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "cfg.toml")
        Path(path).write_bytes(data)
        argv = ["isa", "config", "--config", path]
        check(argv, *run_cli(*argv))


def hw_config_json(data: bytes) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "cfg.json")
        Path(path).write_bytes(data)
        argv = ["isa", "config", "--config", path, "--json"]
        check(argv, *run_cli(*argv))


def isa_asm(data: bytes) -> None:
    """Assembly text through ``isa asm``, and what it assembles to through ``isa disasm``."""
    with tempfile.TemporaryDirectory() as tmp:
        src, binary = os.path.join(tmp, "p.s"), os.path.join(tmp, "p.bin")
        Path(src).write_bytes(data)
        argv = ["isa", "asm", src, "-o", binary]
        code, out, err = run_cli(*argv)
        check(argv, code, out, err)
        if code == 0:
            argv = ["isa", "disasm", binary]
            check(argv, *run_cli(*argv))


def isa_disasm(data: bytes) -> None:
    feed(data, ".bin", "isa", "disasm")


def isa_run(data: bytes) -> None:
    """A program binary through the ISA simulator (``isa run`` on tiny)."""
    feed(data, ".bin", "isa", "run")


def _collecting(fn):
    """With ``NNACCEL_FUZZ_COLLECT=FILE`` a target records each failure (one line per distinct
    place) in FILE and goes on, so that one long run lists every crash; for triage only."""
    log = os.environ.get("NNACCEL_FUZZ_COLLECT")
    if not log:
        return fn

    def wrapper(data: bytes) -> None:
        import traceback
        try:
            fn(data)
        except Exception as e:  # noqa: BLE001 - triage records every failure
            frame = traceback.extract_tb(e.__traceback__)[-1]
            with open(log, "a") as f:
                f.write(f"{fn.__name__}\t{type(e).__name__}\t{Path(frame.filename).name}:{frame.lineno}\t"
                        f"{str(e)[:300]!r}\n")
    wrapper.__name__ = fn.__name__
    return wrapper


for _name in ("json_model", "gzip_model", "tflite_model", "tflite_run", "onnx_model", "onnx_run", "package",
              "hw_config_toml", "hw_config_json", "isa_asm", "isa_disasm", "isa_run"):
    globals()[_name] = _collecting(globals()[_name])

TARGETS = {f.__name__: f for f in (json_model, gzip_model, tflite_model, tflite_run, onnx_model, onnx_run,
                                    package, hw_config_toml, hw_config_json, isa_asm, isa_disasm, isa_run)}
