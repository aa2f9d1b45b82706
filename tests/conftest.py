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


@pytest.fixture(scope="session")
def cts_root():
    return require_cts_dir()
