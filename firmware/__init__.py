"""nnaccel.firmware: the host runtime (packages on the ISA simulator / RTL, host fallback).

See :mod:`.runtime`: :class:`~.runtime.Runtime`, :func:`~.runtime.run_on_backend`.
"""

__all__ = ["Runtime", "run_on_backend"]


def __getattr__(name):
    if name in __all__:
        from . import runtime
        return getattr(runtime, name)
    raise AttributeError(name)
