"""The ``rtl`` backend of ``nnaccel bench`` (picked up by ``nnaccel.sim.bench.get_backend``):
Verilator simulation of the accelerator RTL, see :func:`nnaccel.sim.rtl_runner.run_bench_backend`."""

from .rtl_runner import run_bench_backend as run

__all__ = ["run"]
