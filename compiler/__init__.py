"""nnaccel.compiler: partition, lower, tile, schedule and emit program packages.

>>> from nnaccel.compiler import compile_model            # doctest: +SKIP
>>> pkg = compile_model(model, "base"); pkg.save("model.nnpkg")

Modules: :mod:`.compile` (driver, partition, memory map), :mod:`.lower` (lowerings hung on the
registry, tiling), :mod:`.emit` (token discipline, double buffering), :mod:`nnaccel.package` (the package
file, in the core), :mod:`.report`, :mod:`.reference_models`; ``tflite_*`` is the TFLite importer. Imports are
lazy so that importing the TFLite importer does not load the golden model.
"""

__all__ = ["Package", "PackageError", "compile_model"]


def __getattr__(name):
    if name == "compile_model":
        from .compile import compile_model
        return compile_model
    if name in ("Package", "PackageError"):
        from nnaccel import package
        return getattr(package, name)
    raise AttributeError(name)
