"""Per-queue depths (``<queue>_queue_depth``, 0: ``queue_depth``): a queue's own depth gives the
schedule that a uniform ``queue_depth`` of the same value gives for a program that uses only that
queue (the uniform model is the reference), and does not change the other queues' schedules."""

import pytest
from nnaccel.sim.isasim import decode_program, schedule

from nnaccel.hwconfig import ConfigError, load_config
from nnaccel.isa import QUEUES
from nnaccel.program import ProgramBuilder

TINY = load_config("tiny").replace(name="t", in_order=False, queue_depth=4, load_queue_depth=0, compute_queue_depth=0,
                                   vector_queue_depth=0, store_queue_depth=0)


def one_queue_program(cfg, queue):
    """Instructions of one queue that take longer than their fetch: the queue fills, fetch stalls."""
    p = ProgramBuilder(cfg)
    for _ in range(10):
        if queue == "load":
            p.load("ACT", 0, 0, cfg.rows, x_size=32, x_stride=cfg.rows)
        elif queue == "compute":
            p.gemm(0, 0, 16)
        elif queue == "vector":
            p.nop("vector")
        else:
            p.store("ACT", 0, 0x1000, cfg.rows, x_size=32, x_stride=cfg.rows)
    p.finish()
    return p.words


def sched(cfg, words):
    s = schedule(decode_program(words, cfg), cfg)
    return list(s.fetch), list(s.start), list(s.end)


@pytest.mark.parametrize("queue", [q for q in QUEUES if q != "vector"])
@pytest.mark.parametrize("depth", [1, 2, 3])
def test_own_depth_equals_uniform_depth(queue, depth):
    own = TINY.replace(**{f"{queue}_queue_depth": depth})
    assert own.queue_depth_of(queue) == depth
    assert all(own.queue_depth_of(q) == 4 for q in QUEUES if q != queue)
    words = one_queue_program(TINY, queue)
    ref = sched(TINY.replace(queue_depth=depth), words)
    assert sched(own, words) == ref
    assert ref != sched(TINY, words)                    # the depth matters for this program
    # another queue's own depth changes nothing here
    other = next(q for q in QUEUES if q != queue)
    assert sched(TINY.replace(**{f"{other}_queue_depth": depth}), words) == sched(TINY, words)


def test_queue_depth_fields_range():
    assert TINY.queue_depth_of("store") == 4
    with pytest.raises(ConfigError):
        TINY.replace(store_queue_depth=257)
    with pytest.raises(ConfigError):
        TINY.replace(load_queue_depth=-1)
