"""The program package format lives in the core (:mod:`nnaccel.package`): it is the contract
between the compiler, which writes it, and the runtime, which reads it. Re-exported here for
callers that import it from the compiler."""

from nnaccel.package import FORMAT, VERSION, Package, PackageError, check_manifest, is_package

__all__ = ["FORMAT", "VERSION", "Package", "PackageError", "check_manifest", "is_package"]
