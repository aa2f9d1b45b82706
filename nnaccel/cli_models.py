"""Models, packages and input data as the command line loads them (shared by every command;
the command modules import this, never :mod:`nnaccel.cli`)."""

from __future__ import annotations

from pathlib import Path

from .errors import InputError


def load_cli_model(path: str, name: str | None, batch: int | None = None, input_shapes: list | None = None):
    """Loads a model for ``run`` / ``info`` / ``compile`` / ``import``: a model JSON file, or a
    ``.tflite`` / ``.onnx`` file (imported; ``batch`` and ``input_shapes`` size its dynamic dimensions, see ``load_tflite``)."""
    from .formats import load_model
    p = Path(path)
    if not p.exists():
        raise InputError(f"The model file {path} does not exist.")
    if p.suffix == ".tflite":
        from .compiler.tflite_import import load_tflite
        return load_tflite(p, batch=batch, input_shapes=input_shapes)
    if p.suffix == ".onnx":
        if batch is not None or input_shapes is not None:
            raise InputError(f"--batch and input shapes apply to .tflite models; {path} is an ONNX model, whose "
                             f"shapes are as stored.")
        from .compiler.onnx_import import load_onnx
        return load_onnx(p)
    if batch is not None:
        raise InputError(f"--batch applies to .tflite models, whose shape_signature marks a dynamic batch; "
                         f"{path} is an NNAPI model file, whose shapes are as stored.")
    return load_model(p, name)


def add_batch_arg(p) -> None:
    """The ``--batch N`` option of the commands that import a ``.tflite`` file."""
    p.add_argument("--batch", type=int, metavar="N",
                   help="batch size of a .tflite model whose shape_signature marks the batch dynamic (-1); "
                        "default: the static shape's (usually 1), or the batch of the --inputs arrays")


def add_output_arg(p, *flags, what: str, folder: bool = False, **kw):
    """Adds an option naming an output file (``what``: how errors call it, e.g. "results file";
    ``folder``: an output folder). :func:`check_outputs` checks every such option of the command
    before the command starts, so that no run ends with results it cannot write."""
    a = p.add_argument(*flags, **kw)
    p.set_defaults(_output_files=(*(p.get_default("_output_files") or ()), (a.dest, what, folder)))
    return a


def check_outputs(args) -> None:
    """Raises :class:`InputError` (one sentence) when an output option of the parsed command
    (:func:`add_output_arg`) names a path that cannot be written."""
    from .ioutil import check_writable
    for dest, what, folder in getattr(args, "_output_files", ()):
        path = getattr(args, dest, None)
        for one in (path if isinstance(path, list) else [path]):
            if one:
                check_writable(one, what, folder=folder)


def random_inputs_note(made_up: list[int], source: str = "the model", seed: int = 0) -> str | None:
    """The sentence ``run`` prints on stderr when :func:`nnaccel.formats.run_inputs` made up the
    inputs at positions ``made_up`` (``source``: what carries no input data), or None."""
    if not made_up:
        return None
    names = [f"input{k}" for k in made_up]
    verb = "is" if len(names) == 1 else "are"
    return (f"nnaccel: note: {', '.join(names)} {verb} deterministic random data (seed {seed}), as {source} "
            f"stores no input data; give --inputs FILE.npz to choose the inputs.")


def load_package_or_model(path: str, name: str | None = None):
    """A :class:`~nnaccel.package.Package` when ``path`` is one, else the model (JSON / .tflite)."""
    from .package import Package, is_package
    if is_package(path):
        return Package.load(path)
    return load_cli_model(path, name)


__all__ = ["add_batch_arg", "add_output_arg", "check_outputs", "load_cli_model", "load_package_or_model", "random_inputs_note"]
