"""``nnaccel import``: converts a ``.tflite`` or ``.onnx`` model into an nnaccel model file (JSON /
.json.gz).

The model's inputs and outputs keep the TFLite subgraph's (the ONNX graph's) order, so the
``input0 ...`` / ``output0 ...`` arrays of ``nnaccel run --inputs/--outputs`` name the same tensors
for the source file and the imported model.
"""

from __future__ import annotations

from pathlib import Path

from .errors import InputError


def cmd_import(args) -> int:
    from .cli_models import load_cli_model
    from .formats import save_models
    from .ioutil import check_writable
    from .validate import validate_model

    src = Path(args.model)
    if not src.exists():
        raise InputError(f"The model file {src} does not exist.")
    if src.suffix not in (".tflite", ".onnx"):
        raise InputError(f"The model file {src} is not a .tflite or .onnx file; import reads TFLite "
                         f"flatbuffers and ONNX models.")
    out = Path(args.output) if args.output else src.with_suffix(".json.gz")
    if not (out.name.endswith(".json") or out.name.endswith(".json.gz")):
        raise InputError(f"The output file {out} must end in .json or .json.gz.")
    check_writable(out, "output file")  # the default beside the input, before the import
    model = load_cli_model(str(src), None, batch=args.batch)
    validate_model(model)
    save_models([model], out)
    sg = model.main
    print(f"imported {src}: {len(sg.operations)} NNAPI operations, {len(sg.input_indexes)} inputs, "
          f"{len(sg.output_indexes)} outputs -> {out}")
    return 0


def register(subparsers) -> None:
    from .cli_models import add_batch_arg, add_output_arg
    p = subparsers.add_parser(
        "import", help="convert a .tflite or .onnx model into an nnaccel model file",
        description="Import a TFLite flatbuffer (.tflite) or an ONNX model (.onnx, opset 13 or newer) as an "
                    "NNAPI model, validate it and write it as JSON (.json or .json.gz). Exit 3 names every "
                    "operator without a mapping (with its count), exit 2 a malformed file. Dimensions that a "
                    "TFLite model's shape_signature marks dynamic (-1) take the sizes of its static shape (a "
                    "Keras export: batch 1), or --batch N for the batch.")
    p.add_argument("model", help="the .tflite or .onnx file")
    add_output_arg(p, "-o", "--output", what="output file", metavar="FILE.json.gz",
                   help="where to write the model (default: beside the input, .json.gz)")
    add_batch_arg(p)
    p.set_defaults(func=cmd_import)
