"""Shared fixtures: where the conformance vectors and the other ``../shared`` data are, and whether
their absence is a failure."""

import os
from pathlib import Path

import pytest

from nnaccel.cts import cts_dir

REPO = Path(__file__).resolve().parents[1]


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
    """The MLPerf Tiny reference models: ``$NNACCEL_MLPERF_TINY_DIR``, else
    ``../shared/models/mlperf_tiny`` beside the repository (a skip, or under CI a failure, without)."""
    env = os.environ.get("NNACCEL_MLPERF_TINY_DIR")
    root = Path(env) if env else (REPO / ".." / "shared" / "models" / "mlperf_tiny").resolve()
    return require_dir(root, "the MLPerf Tiny models", "NNACCEL_MLPERF_TINY_DIR", "../shared/models/mlperf_tiny")


@pytest.fixture(scope="session")
def cts_root():
    return require_cts_dir()


@pytest.fixture(scope="session")
def mlperf_tiny_root():
    return require_mlperf_tiny_dir()
