"""The committed program packages of the reference models (tests/golden_packages/): code generation
must reproduce them byte for byte, and they must still run bit-exact with the golden model.

A change of code generation on purpose: regenerate them with

    python tests/compiler/test_golden_packages.py --regenerate

and commit the new .nnpkg / .s files (the .s listings make the change readable in the diff).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from nnaccel.compiler.compile import compile_model
from nnaccel.compiler.package import Package
from nnaccel.compiler.reference_models import REFERENCE_MODELS
from nnaccel.firmware.runtime import Runtime

from nnaccel.formats import run_inputs
from nnaccel.golden.interpreter import run_model

FOLDER = Path(__file__).resolve().parents[1] / "golden_packages"
CONFIG = "small"
REGENERATE = "python tests/compiler/test_golden_packages.py --regenerate"


def _path(name: str) -> Path:
    return FOLDER / f"{name}.{CONFIG}.nnpkg"


@pytest.mark.parametrize("name", sorted(REFERENCE_MODELS))
def test_code_generation_matches_golden_package(name):
    want = _path(name).read_bytes()
    pkg = compile_model(REFERENCE_MODELS[name](), CONFIG)
    got = pkg.to_bytes()
    if got != want:
        old = Package.from_bytes(want)
        first = next((k for k, (a, b) in enumerate(zip(old.listing.splitlines(), pkg.listing.splitlines()))
                      if a != b), None)
        new = Package.from_bytes(got)
        parts = [n for n, a, b in (("manifest", old.manifest, new.manifest), ("program", old.program, new.program),
                                   ("constants", old.consts, new.consts)) if a != b]
        detail = f" (changed: {', '.join(parts) or 'archive bytes'})"
        detail += "" if first is None else (f"; first listing difference at line {first + 1}:\n  golden: "
                                           f"{old.listing.splitlines()[first]}\n  now:    "
                                           f"{pkg.listing.splitlines()[first]}")
        pytest.fail(f"Code generation changed the golden package {_path(name).name}; if on purpose, "
                    f"regenerate with `{REGENERATE}`{detail}")


@pytest.mark.parametrize("name", sorted(REFERENCE_MODELS))
def test_golden_package_runs_bit_exact(name):
    pkg = Package.load(_path(name))
    model = pkg.model()
    inputs, _ = run_inputs(model)
    outs, report = Runtime(pkg).run(inputs, "isa", check=True)
    for a, b in zip(outs, run_model(model, inputs)):
        np.testing.assert_array_equal(a, b)
    assert report["accelerator_ops"]


def test_compiling_twice_gives_the_same_bytes():
    m = REFERENCE_MODELS["mobilenet_block"]()
    assert compile_model(m, "tiny").to_bytes() == compile_model(m, "tiny").to_bytes()


def regenerate() -> None:
    FOLDER.mkdir(parents=True, exist_ok=True)
    for name, build in sorted(REFERENCE_MODELS.items()):
        pkg = compile_model(build(), CONFIG)
        pkg.save(_path(name))
        _path(name).with_suffix(".s").write_text(pkg.listing)
        print(f"wrote {_path(name)} ({len(pkg.to_bytes())} bytes)")


if __name__ == "__main__":
    if "--regenerate" in sys.argv:
        regenerate()
    else:
        print(__doc__)
