"""Committed instruction streams of a few reference layers: a change in code generation shows up
as a diff of these listings. Regenerate with
``NNACCEL_REGEN_GOLDEN=1 pytest tests/sim/test_golden_listings.py`` and review the diff."""

import os
from pathlib import Path

import numpy as np
import pytest
from nnaccel.sim import programs as P

from nnaccel.isa import assemble, disassemble

HERE = Path(__file__).parent / "golden"


def _fc():
    rng = np.random.default_rng(0)
    x, w = rng.integers(0, 256, (5, 6)).astype(np.uint8), rng.integers(0, 256, (5, 6)).astype(np.uint8)
    return P.fully_connected("tiny", x, w, np.arange(5), (0.1, 3), (0.05, 120), (1.5, 128), activation=1)


def _conv():
    rng = np.random.default_rng(0)
    x = rng.integers(-128, 128, (1, 5, 5, 3)).astype(np.int8)
    w = rng.integers(-128, 128, (2, 3, 3, 3)).astype(np.int8)
    return P.conv2d("tiny", x, w, np.zeros(2), (0.1, -1), (0.05, 0), (1.5, 2), stride=(2, 2),
                    pads=P.same_padding(5, 5, 3, 3, 2, 2))


def _maxpool():
    x = np.arange(2 * 5 * 5, dtype=np.uint8).reshape(1, 5, 5, 2)
    return P.pool2d("tiny", "max", x, (0.1, 0), (3, 3), (2, 2), P.same_padding(5, 5, 3, 3, 2, 2))


CASES = {"fc_tiny": _fc, "conv_tiny": _conv, "maxpool_tiny": _maxpool}


@pytest.mark.parametrize("name", CASES)
def test_listing(name):
    text = disassemble(CASES[name]().words, numbered=True)
    path = HERE / f"{name}.s"
    if os.environ.get("NNACCEL_REGEN_GOLDEN") == "1":
        path.write_text(text)
    assert path.exists() and path.read_text() == text, (
        f"{path.name} differs from the generated program; if the change is intended, regenerate with "
        f"NNACCEL_REGEN_GOLDEN=1 pytest tests/sim/test_golden_listings.py and review the diff")
    assert disassemble(assemble(path.read_text()), numbered=True) == text
