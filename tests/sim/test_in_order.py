"""ISA simulator: the in-order machine (``in_order``, the tiny preset): no queues, one instruction at
a time in program order, ``f(i) = e(i-1) + fetch_cycles(i)``, ``s(i) = max(f(i) + 1, t(i))``
(docs/isa.md, the queue model). Expected cycles are worked out by hand below from the cycle
formulas of docs/isa.md, not taken from the simulator."""

import numpy as np
import pytest
from nnaccel.sim.isasim import IsaSim, decode_program, schedule
from support.one_op import filter_consts, isa_backend_on, one_op_model, segment_words

from nnaccel.hwconfig import PRESETS, ConfigError
from nnaccel.isa import AcceleratorFault
from nnaccel.isa.table import FETCH_CYCLES
from nnaccel.program import ProgramBuilder

TINY = PRESETS["tiny"]
QUEUES = TINY.replace(name="tiny-queues", in_order=False)     # the same machine with its queues


def test_the_preset_and_the_rule():
    assert TINY.in_order and TINY.dma_engines == 1
    assert not any(PRESETS[n].in_order for n in ("small", "base", "large"))
    with pytest.raises(ConfigError, match="dma_engines"):
        TINY.replace(dma_engines=2)
    with pytest.raises(ConfigError, match="true or false"):
        TINY.replace(in_order=1)


def test_schedule_by_hand():
    k, n = FETCH_CYCLES["LOAD"], FETCH_CYCLES["NOP"]     # LOAD, GEMM, STORE: k fetch cycles each, NOP n
    assert FETCH_CYCLES["GEMM"] == FETCH_CYCLES["STORE"] == k and n < k
    p = ProgramBuilder(TINY)
    p.load("ACT", 0, 0, 4, x_size=10, x_stride=4, push_next=1)          # 0: 8 + 10 lines = 18 cycles
    p.load("WGT", 0, 64, 4, x_size=4, x_stride=4)                        # 1: 8 + 4 = 12
    p.gemm(0, 0, 10, preload=False, pop_prev=1, push_next=1)            # 2: 10 + 4 + 4 = 18
    p.nop("vector", pop_prev=1, push_next=1)                             # 3: 1
    p.store("ACC", 0, 4096, 4, x_size=10, x_stride=16, pop_prev=1)      # 4: 8 + 10 x 4 beats = 48
    p.finish()
    r = IsaSim(TINY).run(p.words)
    s = r.schedule
    cyc = [18, 12, 18, 1, 48]
    fc = [k, k, k, n, k, FETCH_CYCLES["FINISH"]]
    f, st, e = [], [], []
    prev_e = -1
    for i in range(5):                      # every token is pushed by the instruction before
        f.append(prev_e + fc[i])            # checked from the cycle the previous one completed
        st.append(f[i] + 1)
        e.append(st[i] + cyc[i])
        prev_e = e[i]
    assert list(s.fetch[:5]) == f and list(s.start[:5]) == st and list(s.end[:5]) == e
    # concretely: LOAD 0 starts one cycle after its checks, LOAD 1's checks after LOAD 0
    assert st[0] == k and f[1] == k + 18 + k and st[1] == 2 * k + 19
    assert r.cycles == e[4] + fc[5] + 1       # FINISH is fetched at e(4) + its fetch cycles: the last cycle
    c = r.counters
    assert c["fetch_stall"] == 0 and all(c[f"{q}_token_stall"] == 0 for q in ("load", "compute", "vector", "store"))
    assert c["instructions"] == 5 and c["array_busy"] == 18 and c["macs"] == 10 * 16


def test_a_token_from_the_instruction_before_needs_no_wait():
    """A pop whose push comes from the instruction before: that one has completed when the pop's
    checks are done, so the token is there."""
    p = ProgramBuilder(TINY)
    p.gemm(0, 0, 40, push_next=1)           # 40 + 4 + 4 = 48 cycles
    p.nop("vector", pop_prev=1)
    p.finish()
    s = IsaSim(TINY).run(p.words).schedule
    k = FETCH_CYCLES["GEMM"]
    assert s.start[0] == k and s.end[0] == k + 48
    assert s.fetch[1] == k + 48 + FETCH_CYCLES["NOP"] and s.start[1] == s.fetch[1] + 1


def test_a_pop_before_its_push_deadlocks_at_its_pc():
    """The NOP pops the token that the VEC after it pushes: with queues the VEC runs first; in
    order nothing that could push it comes before it: DEADLOCK at PC 1."""
    p = ProgramBuilder(TINY)
    p.load("ACT", 0, 0, 4, x_size=2, x_stride=4)
    p.nop("compute", pop_next=1)
    p.vec("CLAMP", 100, 0, 2, param=0, push_prev=1)
    p.finish()
    IsaSim(QUEUES).run(p.words)                      # the queue machine completes it
    with pytest.raises(AcceleratorFault) as e:
        IsaSim(TINY).run(p.words)
    assert e.value.fault == "DEADLOCK" and e.value.pc == 1


def layer_models():
    """One-operation models (3x3 CONV_2D, 3x3 MAX / AVERAGE_POOL_2D, ADD, FULLY_CONNECTED) with
    their inputs."""
    rng = np.random.default_rng(5)
    xq, oq = (0.1, -1), (1.5, 2)
    xc = rng.integers(-128, 128, (1, 6, 6, 8)).astype(np.int8)
    wc = rng.integers(-128, 128, (8, 3, 3, 8)).astype(np.int8)
    yield "conv", one_op_model("CONV_2D", [xc], [xq], (1, 6, 6, 8), oq, np.int8,
                               filter_consts(np.int8, wc, (0.05, 0), np.zeros(8, np.int32), xq),
                               [1, 1, 1, 0]), [xc]
    xp = rng.integers(0, 256, (1, 9, 9, 8)).astype(np.uint8)
    for op in ("MAX_POOL_2D", "AVERAGE_POOL_2D"):
        yield op.lower(), one_op_model(op, [xp], [(0.1, 0)], (1, 5, 5, 8), (0.1, 0), np.uint8, (),
                                       [1, 2, 2, 3, 3, 0]), [xp]
    a = rng.integers(-128, 128, (3, 7, 5)).astype(np.int8)
    yield "add", one_op_model("ADD", [a, a[::-1].copy()], [(0.1, 1), (0.2, -3)], a.shape, (0.3, 2), np.int8,
                              (), [0]), [a, a[::-1].copy()]
    x = rng.integers(-128, 128, (9, 40)).astype(np.int8)
    w = rng.integers(-128, 128, (12, 40)).astype(np.int8)
    yield "fc", one_op_model("FULLY_CONNECTED", [x], [(0.1, 0)], (9, 12), (2.0, 1), np.int8,
                             filter_consts(np.int8, w, (0.05, 0), np.zeros(12, np.int32), (0.1, 0)), [0]), [x]


@pytest.mark.parametrize("case", list(layer_models()), ids=lambda c: c[0])
def test_compiled_layers_run_in_order(case):
    """The compiler's programs push every token before it is popped (program order), so they run
    on the in-order machine: one instruction at a time, each as early as the rule allows, and their
    results are those of the queue machine (and the golden model's)."""
    from nnaccel.compiler import compile_model
    from nnaccel.firmware.runtime import Runtime

    from nnaccel.golden.interpreter import run_model
    _, model, inputs = case
    pkg = compile_model(model, TINY)
    dec = decode_program(segment_words(pkg), TINY)
    s = schedule(dec, TINY)
    n = len(dec) - 1                                                 # FINISH has no start
    cyc = s.end[:n] - s.start[:n]
    assert (s.start[:n] == s.fetch[:n] + 1).all()                  # no instruction waits
    ends = np.concatenate([[-1], s.end[:n]])
    assert (s.fetch == ends + np.array([FETCH_CYCLES[d.name] for d in dec])).all()
    assert (cyc > 0).all() and s.fetch_stall.sum() == 0
    rt = Runtime(pkg)
    (in_order,), _ = rt.run(inputs, "isa")
    (queued,), _ = rt.run(inputs, isa_backend_on(QUEUES))
    np.testing.assert_array_equal(in_order, queued)
    np.testing.assert_array_equal(in_order, run_model(model, inputs)[0])


@pytest.mark.parametrize("preload, kt, nx, ny", [(1, 2, 3, 1), (1, 0, 2, 1), (1, 3, 6, 2), (0, 0, 5, 1),
                                                  (1, 2, 0, 1), (1, 0, 0, 0)])
def test_gemm_cycles_with_one_weight_buffer(preload, kt, nx, ny):
    """tiny holds one weight tile (``weight_buffers = 1``): tile t + 1's rows weight lines are read
    after tile t has streamed its nx * ny lines; the last tile streams max(nx * ny, 1) cycles, then
    rows + cols drain (docs/isa.md, GEMM). With two buffers a tile's slot is max(nx * ny, rows).
    With ``pe_pipeline = 1`` (the cells' product registers) the drain is one cycle longer."""
    R, C = TINY.rows, TINY.cols
    assert TINY.weight_buffers == 1 and QUEUES.replace(weight_buffers=2).weight_buffers == 2
    assert TINY.pe_pipeline == 0
    n = nx * ny
    one = (R if preload else 0) + sum(n + R for _ in range(kt)) + max(n, 1) + R + C
    two = (R if preload else 0) + (kt + 1) * max(n, R) + R + C
    for cfg, want in ((TINY, one), (TINY.replace(name="tiny-2w", weight_buffers=2), two),
                      (TINY.replace(name="tiny-p1", pe_pipeline=1), one + 1),
                      (TINY.replace(name="tiny-2w-p1", weight_buffers=2, pe_pipeline=1), two + 1)):
        p = ProgramBuilder(cfg)
        p.gemm(0, 0, nx, ny, preload=bool(preload), kt=kt)
        p.finish()
        s = IsaSim(cfg).run(p.words).schedule
        assert s.end[0] - s.start[0] == want
