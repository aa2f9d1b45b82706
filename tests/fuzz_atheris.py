"""Coverage-guided fuzzing of the loaders with atheris (libFuzzer), on the targets of
``tests/fuzz_targets.py`` and the seeds of ``tests/test_fuzz.py``.

    python tests/fuzz_atheris.py TARGET [-runs=N] [-max_total_time=S] [other libFuzzer flags]

TARGET is one of the names in ``fuzz_targets.TARGETS``. Each input is bounded by libFuzzer's
``-timeout`` (default here 20 s); a crash, a traceback or an exit status other than 0 / 2 / 3 stops
the run with the input saved as ``crash-*`` in the current folder. ``tests/test_fuzz.py`` runs each
target briefly when atheris is installed.
"""

from __future__ import annotations

import importlib.util
import os
import sys
import tempfile
from pathlib import Path

import atheris

HERE = Path(__file__).resolve().parent
os.environ["NNACCEL_FUZZ_TIME_BOUND"] = "0"  # libFuzzer's -timeout bounds each input


def _load(name: str):
    spec = importlib.util.spec_from_file_location(name, HERE / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


with atheris.instrument_imports(include=["nnaccel"]):
    import nnaccel.compiler.onnx_import
    import nnaccel.compiler.package
    import nnaccel.compiler.tflite_import

    import nnaccel.formats
    import nnaccel.hwconfig
    import nnaccel.isa
    import nnaccel.validate  # noqa: F401

ft = _load("fuzz_targets")


def seeds(target: str) -> list[bytes]:
    """Valid inputs to start from (the hypothesis tests' seeds)."""
    import gzip
    import json
    tf = _load("test_fuzz")
    docs = [json.dumps(d).encode() for d in tf.DOCS]
    return {
        "json_model": docs, "gzip_model": [gzip.compress(d, mtime=0) for d in docs],
        "tflite_model": tf.TFLITE_SEEDS + [p.read_bytes() for p in sorted(ft.MLPERF_DIR.glob("*.tflite"))],
        "tflite_run": tf.TFLITE_SEEDS, "onnx_model": tf.ONNX_SEEDS, "onnx_run": tf.ONNX_SEEDS,
        "package": [p.read_bytes() for p in tf.GOLDEN_PACKAGES],
        "hw_config_toml": [tf.PRESET_TOML.encode()], "hw_config_json": [tf.PRESET_JSON.encode()],
        "isa_asm": [s.encode() for s in tf.LISTINGS], "isa_disasm": [p.program for p in tf.PACKAGES],
        "isa_run": [p.program for p in tf.PACKAGES],
    }[target]


def main(argv: list[str]) -> None:
    if len(argv) < 2 or argv[1] not in ft.TARGETS:
        sys.exit(f"usage: {argv[0]} TARGET [libFuzzer flags]; targets: {', '.join(ft.TARGETS)}")
    target = ft.TARGETS[argv[1]]
    corpus = tempfile.mkdtemp(prefix=f"nnaccel-fuzz-{argv[1]}-")
    for k, data in enumerate(seeds(argv[1])):
        Path(corpus, f"seed{k}").write_bytes(data)
    flags = [a for a in argv[2:]]
    if not any(a.startswith("-timeout=") for a in flags):
        flags.append("-timeout=20")
    atheris.Setup([argv[0], *flags, corpus], target)
    atheris.Fuzz()


if __name__ == "__main__":
    main(sys.argv)
