"""``python -m nnaccel.compiler.onnx_import --write-doc docs/onnx.md``: runs the ONNX node tests and
regenerates the op and conformance tables of docs/onnx.md."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from . import OP_TABLE, render_doc
from .conformance import node_test_results


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description="ONNX importer utilities.")
    p.add_argument("--write-doc", metavar="FILE", help="run the node tests and regenerate FILE's tables")
    args = p.parse_args(argv)
    if args.write_doc:
        def progress(k, n, name):
            if k % 100 == 0 or k == n:
                print(f"  {k}/{n} node tests", file=sys.stderr)
        per_op, _ = node_test_results(progress=progress)
        path = Path(args.write_doc)
        path.write_text(render_doc(path.read_text(encoding="utf-8"), per_op), encoding="utf-8")
        print(f"wrote the op table ({len(OP_TABLE)} ops) and the node-test table to {path}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
