"""A program for the counter tests (ISA simulator and RTL)."""

from nnaccel.program import ProgramBuilder


def counter_snapshot_program(cfg, snaps, before: int, after: int, preload_ny=None) -> list:
    """A program for the counters: a LOAD of 32 ACT lines, a preloading GEMM and ``before`` more
    accumulating GEMMs, an RDPERF to ``snaps[0]``, ``after`` more GEMMs and an RDPERF to
    ``snaps[1]`` (each RDPERF waits for the GEMMs through compute -> vector -> store tokens)."""
    p = ProgramBuilder(cfg)
    p.load("ACT", 0, 0x0, cfg.rows, x_size=32, x_stride=cfg.rows, push_next=1)
    kw = {} if preload_ny is None else {"ny": preload_ny}
    p.gemm(0, 0, 32, preload=True, pop_prev=1, **kw)
    for snap, n in zip(snaps, (before, after)):
        for _ in range(n):
            p.gemm(0, 0, 32, accumulate=True)
        p.nop("compute", push_next=1)
        p.nop("vector", pop_prev=1, push_next=1)
        p.rdperf(snap, pop_prev=1)
    p.finish()
    return p.words
