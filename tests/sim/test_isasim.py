"""ISA simulator: cycle formulas, the queue / token model, counters, faults, vector semantics."""

import numpy as np
import pytest
from nnaccel.sim.isasim import IsaSim, decode_program, find_conflicts, schedule

from nnaccel.hwconfig import PRESETS, load_config
from nnaccel.isa import COUNTERS, VEC_FUNCS, AcceleratorFault, decode, encode, words_to_bytes
from nnaccel.isa.table import ENGINE_START_CYCLES, FETCH_CYCLES, div_params
from nnaccel.program import ProgramBuilder, lut_block, param_block
from nnaccel.quant import multiply_by_quantized_multiplier as mbqm

# the queue model on tiny (4x4, lanes 1, vector latency 4, DMA 4 B/cycle, latency 8, one DMA engine,
# queues 1 deep, two weight buffers); the preset itself issues in order with one weight buffer
# (tests/sim/test_in_order.py)
TINY = PRESETS["tiny"].replace(name="tiny-queues", in_order=False, weight_buffers=2)

#: the cycles a VEC spends before its engine's first step (the ISA table's ENGINE_START_CYCLES)
S = ENGINE_START_CYCLES

#: tiny with every queue 4 deep (the preset's are 1)
TINY_Q4 = TINY.replace(name="tiny-q4", queue_depth=4)


def run(p, sim=None):
    sim = sim or IsaSim(p.cfg)
    return sim, sim.run(p.words)


def fault_of(p, sim=None):
    with pytest.raises(AcceleratorFault) as e:
        run(p, sim)
    return e.value


# ------------------------------------------------------------------------------- cycle model
@pytest.mark.parametrize("mul_steps, mul", [(1, 1), (2, 2), (4, 4), (32, 32 + 33 + 1)])
def test_cycle_formulas_single_instructions(mul_steps, mul):
    # mul_steps = vector_mul_steps: each step of REQ / ADDQ / SUBQ / MULQ / DIV takes that many
    # cycles, or with 32 (the bit-serial lane) 32 of product + 33 of shifts + 1 of rounding
    cfg = TINY.replace(name=f"tiny-mul{mul_steps}", vector_mul_steps=mul_steps)
    cases = [
        (lambda p: p.load("ACT", 0, 0, 4, x_size=3, y_size=2, x_stride=4, y_stride=12), 8 + 6 * 1),
        (lambda p: p.load("ACC", 0, 0, 3, x_size=5, x_stride=16), 8 + 5 * 3),   # 12 bytes / 4
        (lambda p: p.load("ACT", 0, 0, 0, x_size=2, pad=(0, 0, 1, 1)), 8 + 2 * 1),  # all padding
        (lambda p: p.store("VEC", 0, 0, 4, x_size=2, x_stride=16), 8 + 2 * 4),
        (lambda p: p.gemm(0, 0, 7, 2, preload=True), 4 + 14 + 8),
        (lambda p: p.gemm(0, 0, 7, 2), 14 + 8),
        # K tiles: each streams max(nx * ny, rows) cycles (the next tile's weights load meanwhile)
        (lambda p: p.gemm(0, 0, 7, 2, preload=True, kt=2), 4 + 3 * 14 + 8),
        (lambda p: p.gemm(0, 0, 2, 1, preload=True, kt=2), 4 + 3 * 4 + 8),
        (lambda p: p.vec("ADDQ", 0, 0, 5, 1), S + 11 + 5 * 4 * 3 * mul + 4),   # 3 steps per lane group
        (lambda p: p.vec("MULQ", 0, 0, 5, 1), S + 7 + 5 * 4 * 2 * mul + 4),
        (lambda p: p.vec("DIV", 0, 0, 5, 1), S + 5 + 5 * 4 * mul + 4),
        (lambda p: p.vec("REQ", 0, 0, 5, 1), S + 6 + 5 * 4 * mul + 4),
        (lambda p: p.vec("MAX", 0, 0, 5, 2), S + 0 + 10 * 4 + 4),             # no product: 1 cycle
        (lambda p: p.vec("SUMW", 0, 0, 5, 2), S + 0 + 10 * 4 + 4),
        (lambda p: p.vec("BIAS", 0, 0, 5, 2), S + 1 + 10 * 4 + 4),
        (lambda p: p.vec("LUT", 0, 0, 1, 1), S + 64 + 4 + 4),
        (lambda p: p.rdperf(0), 8 + 8 * len(COUNTERS) // 4),
        (lambda p: p.nop("compute"), 1),
    ]
    for emit, cycles in cases:
        p = ProgramBuilder(cfg)
        emit(p)
        p.finish()
        _, r = run(p)
        # fetched at k - 1 (k = its fetch cycles), starts at k, FINISH fetched at k - 1 + F: the run
        # ends when both are over
        k = FETCH_CYCLES[decode(p.words[0]).name]
        assert r.cycles == max(k + cycles, k + FETCH_CYCLES["FINISH"]), p.assembly()
        assert r.schedule.start[0] == k and r.schedule.end[0] == k + cycles


def test_queues_overlap_and_tokens():
    k, n = FETCH_CYCLES["LOAD"], FETCH_CYCLES["NOP"]     # fetch cycles: LOAD, GEMM, STORE k each, NOP n
    assert FETCH_CYCLES["GEMM"] == FETCH_CYCLES["STORE"] == k and n < k
    p = ProgramBuilder(TINY)
    p.load("ACT", 0, 0, 4, x_size=10, x_stride=4, push_next=1)          # 0: 18 cycles
    p.load("WGT", 0, 64, 4, x_size=4, x_stride=4)                        # 1: 12
    p.gemm(0, 0, 10, preload=False, pop_prev=1, push_next=1)            # 2: 18, waits for 0's token
    p.nop("vector", pop_prev=1, push_next=1)                             # 3: 1, waits for 2's token
    p.store("ACC", 0, 4096, 4, x_size=10, x_stride=16, pop_prev=1)      # 4: 48, waits for 3's token
    p.finish()
    _, r = run(p)
    s = r.schedule
    f = [k - 1, 2 * k - 1, 3 * k - 1, 3 * k - 1 + n, 4 * k - 1 + n]
    s0 = k
    s1 = max(f[1] + 1, s0 + 18)             # the load engine is busy with 0
    s2 = max(f[2] + 1, s0 + 18)             # 0's token
    s3 = max(f[3] + 1, s2 + 18)
    s4 = max(f[4] + 1, s3 + 1)
    assert list(s.fetch[:5]) == f
    assert list(s.start[:5]) == [s0, s1, s2, s3, s4]
    assert list(s.end[:5]) == [s0 + 18, s1 + 12, s2 + 18, s3 + 1, s4 + 48]
    assert r.cycles == s4 + 48
    c = r.counters
    assert c["compute_token_stall"] == s2 - f[2] - 1 and c["vector_token_stall"] == s3 - f[3] - 1
    assert c["store_token_stall"] == s4 - f[4] - 1
    assert c["array_busy"] == 18 and c["macs"] == 10 * 16 and c["dma_load_bytes"] == 56
    assert c["dma_store_bytes"] == 160 and c["instructions"] == 5 and c["dma_latency"] == 24
    assert r.utilization == pytest.approx(160 / ((s4 + 48) * 16))


def test_gemm_and_vec_run_concurrently():
    """GEMM (compute queue) and VEC (vector queue) overlap when no token orders them."""
    k = FETCH_CYCLES["GEMM"]
    assert FETCH_CYCLES["VEC"] == k
    p = ProgramBuilder(TINY)
    p.gemm(0, 0, 10)                                                    # 0: [k, k + 18)
    p.vec("CLAMP", 100, 50, 10, param=0)                                # 1: [2k, 2k + S + 2 + 40 + 4)
    p.finish()
    _, r = run(p)
    assert list(r.schedule.start[:2]) == [k, 2 * k] and r.cycles == 2 * k + S + 46
    assert r.counters["array_busy"] == 18 and r.counters["vector_busy"] == S + 46


def test_fetch_stalls_on_full_queue():
    k = FETCH_CYCLES["GEMM"]
    p = ProgramBuilder(TINY_Q4)                                         # queue depth 4
    for _ in range(6):
        p.gemm(0, 0, 100)                                               # 108 cycles each
    p.finish()
    _, r = run(p)
    s = r.schedule
    # f(i) = f(i-1) + k while the queue has room; s(j) = k + 108j; f(5) waits for s(1) + 1
    f = [k * (i + 1) - 1 for i in range(5)]
    f.append(max(f[4] + k, k + 108 + 1))
    assert f[5] > f[4] + k                  # the program does stall
    assert list(s.fetch[:7]) == f + [f[5] + FETCH_CYCLES["FINISH"]]
    assert list(s.start[:6]) == [k + 108 * j for j in range(6)]
    assert r.counters["fetch_stall"] == f[5] - f[4] - k and r.cycles == k + 6 * 108


def test_fetch_cycles_per_kind():
    """The fetch unit spends the table's fetch cycles on each instruction: NOP / RDPERF / FINISH n,
    LOAD / STORE / GEMM / VEC more (their bit-serial range checks)."""
    k, n = FETCH_CYCLES["GEMM"], FETCH_CYCLES["NOP"]
    assert k > n > 1 and FETCH_CYCLES["FINISH"] == n
    assert FETCH_CYCLES["LOAD"] == FETCH_CYCLES["STORE"] == FETCH_CYCLES["VEC"] == k
    p = ProgramBuilder(TINY)
    p.nop("load")                                                       # f = -1 + n
    p.gemm(0, 0, 10)                                                    # f = n - 1 + k
    p.nop("vector")                                                     # f = 2n - 1 + k
    p.load("ACT", 0, 0, 4)                                              # f = 2n - 1 + 2k
    p.finish()                                                          # f = 3n - 1 + 2k
    _, r = run(p)
    assert list(r.schedule.fetch) == [n - 1, n - 1 + k, 2 * n - 1 + k, 2 * n - 1 + 2 * k, 3 * n - 1 + 2 * k]
    assert r.counters["fetch_stall"] == 0


def test_rdperf_snapshot():
    k, n = FETCH_CYCLES["GEMM"], FETCH_CYCLES["NOP"]
    assert FETCH_CYCLES["RDPERF"] == n
    p = ProgramBuilder(TINY)
    p.gemm(0, 0, 10, push_next=1)                                       # [k, k + 18)
    p.nop("vector", pop_prev=1, push_next=1)                            # [k + 18, k + 19)
    p.rdperf(1024, pop_prev=1)                                          # starts k + 19
    p.finish()
    sim, r = run(p)
    snap = sim.read(1024, (len(COUNTERS),), np.uint64)
    named = {c.name: int(snap[c.id]) for c in COUNTERS}
    # tiny writes one counter per cycle: of the 15 cycles after the latency (start k + 19, latency
    # 8), counter id in the one congruent to id modulo 15
    base = k + 19 + 8
    assert named["cycles"] == base + (COUNTERS[0].id - base) % 15
    assert named["instructions"] == 2 and named["macs"] == 160
    assert named["array_busy"] == 18 and named["store_busy"] == 0
    # stall cycles count as they pass: the vector NOP (fetched k - 1 + n) waited until k + 18, the
    # RDPERF (fetched k - 1 + 2n) until k + 19
    assert named["vector_token_stall"] == 18 - n and named["store_token_stall"] == 19 - 2 * n
    assert r.counters["store_busy"] == 8 + 2 * len(COUNTERS) and r.counters["dma_store_bytes"] == 8 * len(COUNTERS)


def test_rdperf_reads_a_stall_in_progress():
    """A stall counter read by RDPERF while the stall goes on includes the cycles before the read."""
    k, n = FETCH_CYCLES["GEMM"], FETCH_CYCLES["NOP"]
    assert FETCH_CYCLES["RDPERF"] == n
    p = ProgramBuilder(TINY)
    p.gemm(0, 0, 40, push_prev=1)                                       # fetched k - 1: [k, k + 48)
    p.nop("load", pop_next=1)                                           # fetched k - 1 + n, waits [k + n, k + 48)
    p.rdperf(1024)                                                      # fetched k - 1 + 2n, starts k + 2n
    p.finish()
    sim, r = run(p)
    snap = sim.read(1024, (len(COUNTERS),), np.uint64)
    by_id = {c.name: c.id for c in COUNTERS}
    base = k + 2 * n + 8                                                # start + latency

    def when(cid):                                                      # the cycle counter cid is sampled
        return base + (cid - base) % 15
    assert int(snap[by_id["load_token_stall"]]) == when(by_id["load_token_stall"]) - (k + n)
    assert int(snap[by_id["instructions"]]) == 0 and int(snap[by_id["cycles"]]) == when(by_id["cycles"])
    assert r.counters["load_token_stall"] == 48 - n


# ------------------------------------------------------------------------------- faults
def _prog(*emits):
    p = ProgramBuilder(TINY)
    for e in emits:
        e(p)
    return p


@pytest.mark.parametrize("build, fault, pc, message", [
    (lambda p: (p.nop("load"), p.words.append(0)), "ILLEGAL_OPCODE", 1, "opcode 0 names no instruction"),
    (lambda p: p.words.append(encode("VEC") | 1 << 15), "ILLEGAL_FIELD", 0, "reserved bit"),
    (lambda p: p.gemm(0, 0, 1, kt=1), "ILLEGAL_FIELD", 0, "GEMM kt = 1 needs preload"),
    (lambda p: p.nop("store", push_next=1), "ILLEGAL_FIELD", 0, "cannot use push_next"),
    (lambda p: p.gemm(0, 0, 1, wgt=248, preload=True, kt=2), "SCRATCHPAD_RANGE", 0,
     "GEMM weight tiles reaches WGT line 259"),
    (lambda p: p.gemm(966, 0, 2, 3, act_ys=2, preload=True, kt=10), "SCRATCHPAD_RANGE", 0,
     "GEMM activation reaches ACT line 1031"),
    (lambda p: p.load("ACT", 0, 0, 5), "ILLEGAL_FIELD", 0, "LOAD len = 5 exceeds the line width of 4"),
    (lambda p: p.store("ACC", 0, 0, 9), "ILLEGAL_FIELD", 0, "STORE len = 9 exceeds"),
    (lambda p: p.load("ACT", 0, 0, 4, x_size=2, pad=(0, 0, 2, 1)), "ILLEGAL_FIELD", 0,
     "LOAD padding \\(0\\+0 rows, 2\\+1 lines\\) exceeds the 1x2 box"),
    (lambda p: p.nop("load", pop_prev=1), "ILLEGAL_FIELD", 0, "cannot use pop_prev"),
    (lambda p: p.gemm(0, 122, 4, 2, acc_xs=1, acc_ys=3), "SCRATCHPAD_RANGE", 0,
     "GEMM result reaches ACC line 128 \\(from line 122\\), but the ACC scratchpad has 128 lines"),
    (lambda p: p.gemm(0, 0, 1, wgt=254, preload=True), "SCRATCHPAD_RANGE", 0, "GEMM weight tiles reaches WGT line 257"),
    (lambda p: p.load("WGT", 244, 0, 4, x_size=13), "SCRATCHPAD_RANGE", 0, "LOAD box reaches WGT line 256"),
    (lambda p: p.vec("LUT", 0, 0, 1, param=100), "SCRATCHPAD_RANGE", 0,
     "VEC LUT parameter block reaches VEC line 163"),
    (lambda p: p.vec("ADDQ", 0, 0, 2, src2=1023), "SCRATCHPAD_RANGE", 0, "second source reaches ACT line 1024"),
    (lambda p: p.load("ACT", 0, 2 ** 24 - 2, 4), "DMA_WINDOW", 0,
     "LOAD touches external bytes 0xfffffe .. 0x1000001, outside the permitted window 0x0 .. 0xffffff"),
    (lambda p: p.store("ACT", 0, 2 ** 24 - 4, 4, x_size=2, x_stride=4), "DMA_WINDOW", 0, "STORE touches"),
    (lambda p: p.rdperf(2 ** 24 - 8), "DMA_WINDOW", 0, "RDPERF touches"),
    (lambda p: p.nop("load"), "NO_FINISH", 1, "end without a FINISH"),
    (lambda p: p.gemm(0, 0, 1, pop_prev=1), "DEADLOCK", 0,
     "GEMM on the compute queue waits for a token \\(l2c\\) that no instruction will send"),
])
def test_faults(build, fault, pc, message):
    p = ProgramBuilder(TINY)
    build(p)
    if fault != "NO_FINISH":
        p.finish()
    e = fault_of(p)
    assert (e.fault, e.pc) == (fault, pc)
    assert e.code == {"ILLEGAL_OPCODE": 1, "ILLEGAL_FIELD": 2, "SCRATCHPAD_RANGE": 3, "DMA_WINDOW": 4,
                      "DEADLOCK": 5, "NO_FINISH": 6}[fault]
    import re
    assert re.search(message, str(e)), str(e)


def test_deadlock_cases():
    # The token would come from an instruction after FINISH.
    p = ProgramBuilder(TINY)
    p.gemm(0, 0, 1, pop_prev=1)
    p.finish()
    p.nop("load", push_next=1)
    assert fault_of(p).fault == "DEADLOCK"
    # Cyclic wait: load waits for compute, compute waits for load.
    p = ProgramBuilder(TINY)
    p.nop("load", pop_next=1, push_next=1)
    p.nop("compute", pop_prev=1, push_prev=1)
    p.finish()
    e = fault_of(p)
    assert e.fault == "DEADLOCK" and e.pc == 0
    # A full compute queue (4 waiting) blocks the fetch of the load that would release it.
    p = ProgramBuilder(TINY_Q4)
    for _ in range(5):
        p.nop("compute", pop_prev=1)
    for _ in range(5):
        p.nop("load", push_next=1)
    p.finish()
    assert fault_of(p).fault == "DEADLOCK"
    # ... but with room in the queue the same tokens flow.
    p = ProgramBuilder(TINY_Q4)
    for _ in range(3):
        p.nop("compute", pop_prev=1)
    for _ in range(3):
        p.nop("load", push_next=1)
    p.finish()
    run(p)


def test_fault_has_no_partial_scheduling_effect_and_bytes_program():
    p = ProgramBuilder(TINY)
    p.nop("load")
    p.finish()
    sim = IsaSim(TINY)
    n, f = FETCH_CYCLES["NOP"], FETCH_CYCLES["FINISH"]     # NOP runs [n, n + 1), FINISH fetched n - 1 + f
    assert sim.run(words_to_bytes(p.words)).cycles == max(n + 1, n + f)


# ------------------------------------------------------------------------------- semantics
def test_load_store_padding_and_int32():
    sim = IsaSim(TINY)
    sim.write(0, np.arange(1, 13, dtype=np.uint8))                      # 3 rows x 4 bytes
    sim.write(64, np.array([-5, 70000, 3], np.int32))
    p = ProgramBuilder(TINY)
    p.load("ACT", 0, 0, 2, x_size=3, y_size=4, x_stride=1, y_stride=4, pad=(1, 0, 1, 0), fill=0xEE)
    p.load("ACC", 0, 64, 3, fill=0xFF)
    p.store("ACT", 0, 256, 4, x_size=3, y_size=4, x_stride=4, y_stride=12)
    p.store("ACC", 0, 512, 4)
    p.finish()
    # load/store in separate queues: order the store after the loads with tokens
    p = ProgramBuilder(TINY)
    p.load("ACT", 0, 0, 2, x_size=3, y_size=4, x_stride=1, y_stride=4, pad=(1, 0, 1, 0), fill=0xEE)
    p.load("ACC", 0, 64, 3, fill=0xFF, push_next=1)
    p.nop("compute", pop_prev=1, push_next=1)
    p.nop("vector", pop_prev=1, push_next=1)
    p.store("ACT", 0, 256, 4, x_size=3, y_size=4, x_stride=4, y_stride=12, pop_prev=1)
    p.store("ACC", 0, 512, 4)
    p.finish()
    sim.run(p.words)
    got = sim.read(256, (4, 3, 4))
    exp = np.full((4, 3, 4), 0xEE, np.uint8)
    src = np.arange(1, 13).reshape(3, 4)
    for y in range(3):
        for x in range(2):
            exp[y + 1, x + 1, :2] = src[y, x:x + 2]
    assert (got == exp).all()
    assert list(sim.read(512, (4,), np.int32)) == [-5, 70000, 3, -1]


def test_gemm_signed_zero_points_and_repeated_lines():
    rng = np.random.default_rng(0)
    sim = IsaSim(TINY)
    a = rng.integers(-128, 128, (6, 4)).astype(np.int8)
    w = rng.integers(-128, 128, (4, 4)).astype(np.int8)
    sim.sp["ACT"][:6] = a.view(np.uint8)
    sim.sp["WGT"][:4] = w.view(np.uint8)
    p = ProgramBuilder(TINY)
    p.gemm(0, 0, 6, preload=True, za=-7, zw=3, act_signed=True, wgt_signed=True, acc_ys=6)
    p.gemm(0, 10, 6, accumulate=True, za=-7, act_signed=True, acc_xs=0)  # all rows into line 10
    p.finish()
    sim.run(p.words)
    prod = (a.astype(np.int64) + 7) @ (w.astype(np.int64) - 3)
    assert (sim.sp["ACC"][:6] == prod).all()
    assert (sim.sp["ACC"][10] == prod.sum(0)).all()


def _vec_case(func, a, b=None, signed=False, **params):
    cfg = PRESETS["small"]
    sim = IsaSim(cfg)
    n = a.shape[0]
    space = next(v for v in VEC_FUNCS if v.name == func).src
    if space == "ACT":
        sim.sp["ACT"][:n] = a.astype(np.int64) & 0xFF
    else:
        sim.sp["ACC"][:n] = a
    if b is not None:
        sim.sp["ACT"][100:100 + n] = b.astype(np.int64) & 0xFF
    if func == "LUT":
        sim.sp["VEC"][:cfg.lut_lines] = lut_block(cfg, params["table"])
    elif params:
        block = param_block(cfg, func, **params)
        sim.sp["VEC"][:block.shape[0]] = block
    p = ProgramBuilder(cfg)
    p.vec(func, 200, 0, n, src2=100 if b is not None else 0, signed=signed, dst_ys=0, src_ys=0)
    p.finish()
    sim.run(p.words)
    dst = next(v for v in VEC_FUNCS if v.name == func).dst
    out = sim.sp[dst][200:200 + n].astype(np.int64)
    return out if dst == "ACC" else (out.astype(np.uint8).view(np.int8) if signed else out.astype(np.uint8))


def _div(divisors) -> dict:
    """The DIV parameters of per-lane divisors."""
    hms = np.array([div_params(int(c)) for c in divisors])
    return {"half": hms[:, 0], "m": hms[:, 1], "s": hms[:, 2]}


def test_vector_functions():
    rng = np.random.default_rng(3)
    acc = rng.integers(-2 ** 20, 2 ** 20, (5, 8))
    mult = rng.integers(2 ** 30, 2 ** 31 - 1, 8)
    shift = rng.integers(-12, 2, 8)
    bias = rng.integers(-1000, 1000, 8)
    out = _vec_case("REQ", acc, bias=bias, mult=mult, shift=shift, zo=5, lo=0, hi=200)
    exp = np.clip(mbqm(acc + bias, mult, shift) + 5, 0, 200)
    assert (out == exp).all()
    a = rng.integers(-128, 128, (5, 8))
    b = rng.integers(-128, 128, (5, 8))
    assert (_vec_case("MAX", a, b, signed=True) == np.maximum(a, b)).all()
    assert (_vec_case("CLAMP", a, signed=True, lo=-3, hi=9) == np.clip(a, -3, 9)).all()
    assert (_vec_case("SUMW", a, signed=True) == a).all()
    table = rng.integers(0, 256, 256)
    assert (_vec_case("LUT", a, signed=True, table=table).view(np.uint8) == table[a & 0xFF]).all()
    # DIV rounds half away from zero: 7/2 -> 4, -7/2 -> -4, 5/3 -> 2, -4/3 -> -1
    d = np.array([[7, -7, 5, -4, 0, 6, -6, 1]] * 1)
    assert list(_vec_case("DIV", d, **_div([2, 2, 3, 3, 5, 4, 4, 2]), lo=-128, hi=127,
                          signed=True)[0]) == [4, -4, 2, -1, 0, 2, -2, 1]
    # ... for any divisor and |acc| + c // 2 < 2**30: Python's integer division as the reference
    for _ in range(20):
        c = rng.integers(1, 70000, 8)
        x = rng.integers(-127 * c, 127 * c + 1, (6, 8))
        want = np.clip(np.sign(x) * ((np.abs(x) + c // 2) // c), -128, 127)
        got = _vec_case("DIV", x, **_div(c), lo=-128, hi=127, signed=True)
        assert (got == want).all()
    assert (_vec_case("BIAS", acc, bias=bias) == acc + bias).all()
    u = rng.integers(0, 256, (5, 8))
    v = rng.integers(0, 256, (5, 8))
    exp = np.clip(mbqm((u - 3) * (v - 250), 1 << 30, -6) + 10, 0, 255)
    assert (_vec_case("MULQ", u, v, z1=3, z2=250, m=1 << 30, e=-6, zo=10, lo=0, hi=255) == exp).all()


def test_every_vector_function_is_executed():
    """Every function of the table runs: it overwrites its destination line and keeps the vector
    unit busy for the cycles of the ISA's VEC formula (``P + ceil(cols / lanes) * S * M + latency``
    for one line)."""
    cfg = TINY
    sentinel = 77                      # no function yields 77 from all-zero operands and parameters
    for vf in VEC_FUNCS:
        p = ProgramBuilder(cfg)
        p.vec(vf.name, 3, 0, 1, src2=1)          # destination line 3: apart from both sources
        p.finish()
        sim = IsaSim(cfg)
        sim.sp[vf.dst][3] = sentinel
        res = sim.run(p.words)
        params = vf.param_lines(cfg.cols) if vf.params else 0
        want = S + params + vf.lines_cycles(cfg, 1) + cfg.vector_latency
        assert res.counters["instructions"] == 1, vf.name
        assert res.counters["vector_busy"] == want, vf.name
        assert (sim.sp[vf.dst][3] != sentinel).all(), f"{vf.name} left its destination line unwritten"


def test_progress_callback():
    seen = []
    p = ProgramBuilder(TINY)
    p.nop("compute")
    p.finish()
    IsaSim(TINY).run(p.words, progress=lambda d, t: seen.append((d, t)))
    assert seen[-1] == (1, 1)


def test_conflict_checker_finds_a_missing_token():
    p = ProgramBuilder(TINY)
    p.load("ACT", 0, 0, 4, x_size=10, x_stride=4)
    p.gemm(0, 0, 10)                        # no token: reads ACT while the LOAD writes it
    p.store("ACC", 0, 4096, 4, x_size=10, x_stride=16)
    p.finish()
    found = find_conflicts(p.words, TINY)
    assert [(c.first, c.second, c.resource) for c in found] == [(0, 1, "ACT"), (1, 2, "ACC")]
    assert "overlap in time and both use ACT (LOAD writes, GEMM reads)" in str(found[0])
    p = ProgramBuilder(TINY)
    p.load("ACT", 0, 0, 4, x_size=10, x_stride=4, push_next=1)
    p.gemm(0, 0, 10, pop_prev=1, push_next=1)
    p.nop("vector", pop_prev=1, push_next=1)
    p.store("ACC", 0, 4096, 4, x_size=10, x_stride=16, pop_prev=1)
    p.finish()
    assert find_conflicts(p.words, TINY) == []


def test_conflict_checker_compares_external_bytes_exactly():
    """A STORE and a LOAD that run at the same time on two DMA engines, walking the same external
    region with interleaved lines (two channel halves of one tensor): their first-to-last byte
    spans overlap, but no byte is common, so there is no race; a LOAD that reads one byte the STORE
    writes is one."""
    cfg = TINY.replace(name="tiny-dma2", dma_engines=2)
    # STORE lines of 4 bytes at 0x1000 + 8x + 32y (x < 2, y < 2); LOAD the 4 bytes after each
    store = {"x_size": 2, "y_size": 2, "x_stride": 8, "y_stride": 32}
    walks = {"interleaved": (0x1004, store), "one common byte": (0x1029, {"x_size": 1})}
    found = {}
    for what, (ext, box) in walks.items():
        p = ProgramBuilder(cfg)
        p.store("ACT", 0, 0x1000, 4, **store)
        p.load("ACT", 64, ext, 4, **box)
        p.finish()
        sch = schedule(decode_program(p.words, cfg), cfg)
        assert sch.start[1] < sch.end[0] and sch.start[0] < sch.end[1], what    # they overlap in time
        found[what] = [(c.first, c.second, c.resource) for c in find_conflicts(p.words, cfg)]
    wrote = {0x1000 + 8 * x + 32 * y + b for x in range(2) for y in range(2) for b in range(4)}
    read = {0x1004 + 8 * x + 32 * y + b for x in range(2) for y in range(2) for b in range(4)}
    assert not wrote & read and min(read) < max(wrote)          # the spans overlap, the bytes do not
    assert 0x1029 in wrote
    assert found == {"interleaved": [], "one common byte": [(0, 1, "EXT")]}


def test_dma_window_with_nonzero_base():
    cfg = TINY.replace(name="win", dma_base=0x1000, dma_size=0x1000)
    p = ProgramBuilder(cfg)
    p.load("ACT", 0, 0xFFC, 4)
    p.finish()
    e = fault_of(p, IsaSim(cfg))
    assert e.fault == "DMA_WINDOW" and "outside the permitted window 0x1000 .. 0x1fff" in str(e)


def test_conflict_checker_bank_rules():
    """The scratchpad bank rules of docs/isa.md: one write and one read port per bank."""
    cfg = TINY.replace(acc_banks=2)  # ACT: 2 banks of 512 lines; ACC: 2 banks of 64
    half = cfg.bank_lines("ACT")
    assert (cfg.banks("ACT"), half, cfg.bank_lines("ACC")) == (2, 512, 64)

    def conflicts(*emits):
        p = ProgramBuilder(cfg)
        for e in emits:
            e(p)
        p.finish()
        return [(c.first, c.second, c.resource) for c in find_conflicts(p.words, cfg)]

    # a binary function reads its two operands in one cycle: different banks
    assert conflicts(lambda p: p.vec("ADDQ", 0, 0, 4, src2=100)) == [(0, 0, "ACT bank 0")]
    assert conflicts(lambda p: p.vec("ADDQ", 0, 0, 4, src2=half)) == []
    # GEMM (compute) reads ACT lines 0..9 while STORE (store) reads ACT bank 0 too: two readers
    assert conflicts(lambda p: p.gemm(0, 0, 10),
                     lambda p: p.store("ACT", 100, 0, 4, x_size=4, x_stride=4)) == [(0, 1, "ACT bank 0")]
    assert conflicts(lambda p: p.gemm(0, 0, 10),
                     lambda p: p.store("ACT", half, 0, 4, x_size=4, x_stride=4)) == []
    # LOAD and a VEC result both write ACT bank 1 (different lines, so no race): two writers
    assert conflicts(lambda p: p.load("ACT", half + 50, 0, 4, x_size=8, x_stride=4),
                     lambda p: p.vec("CLAMP", half, 0, 4, param=0)) == [(0, 1, "ACT bank 1")]
    # one reader and one writer per bank is fine: LOAD writes bank 0 while GEMM reads it
    assert conflicts(lambda p: p.load("ACT", 100, 0, 4, x_size=8, x_stride=4),
                     lambda p: p.gemm(0, 0, 10)) == []
    # accumulating GEMM reads its ACC lines: with REQ reading the same ACC bank, two readers
    assert conflicts(lambda p: p.gemm(0, 0, 10, accumulate=True),
                     lambda p: p.vec("REQ", half, 20, 4, param=0)) == [(0, 1, "ACC bank 0")]
    assert conflicts(lambda p: p.gemm(0, 0, 10, accumulate=True),
                     lambda p: p.vec("REQ", half, 64, 4, param=0)) == []


def test_mulq_zero_points_use_their_low_nine_bits():
    rng = np.random.default_rng(5)
    u = rng.integers(0, 256, (3, 8))
    v = rng.integers(0, 256, (3, 8))
    exp = np.clip(mbqm((u - 200) * (v + 100), 1 << 30, -6) + 10, 0, 255)
    # 200 + 0x1000 and -100 - 0x2000 have the low 9 bits of 200 and -100
    got = _vec_case("MULQ", u, v, z1=200 + 0x1000, z2=-100 - 0x2000, m=1 << 30, e=-6, zo=10, lo=0, hi=255)
    assert (got == exp).all()


# ------------------------------------------------------------------------------- DWCONV
#: tiny with the depthwise mode (the preset has none)
TINY_DW = PRESETS["tiny"].replace(name="tiny-dw", depthwise_mode=True)


@pytest.mark.parametrize("preset, fh, fw, pads", [
    (TINY_DW, 1, 3, (0, 0, 0, 0)), (TINY_DW, 1, 4, (0, 0, 0, 0)), ("small", 1, 5, (0, 0, 0, 0)),
    ("base", 3, 3, (0, 0, 0, 0)), ("base", 2, 5, (0, 0, 0, 0)), ("base", 3, 5, (0, 0, 0, 0)),
    (TINY_DW, 1, 3, (0, 0, 1, 1)), ("small", 1, 3, (0, 0, 2, 0)), ("base", 3, 3, (1, 1, 1, 1)),
    ("base", 3, 5, (0, 2, 1, 3)), ("base", 2, 5, (1, 0, 0, 4))])
def test_dwconv_is_a_depthwise_convolution(preset, fh, fw, pads):
    """DWCONV against a direct loop over taps and channels: lane n of output (oy, ox) is the sum
    over the window of (activation - za) * (weight - zw), the weights of tap (ky, kx) on WGT line
    T - 1 - (ky * fw + kx), a tap in the zero padding around the window adding nothing; the
    cycles and MACs of the ISA formula."""
    cfg = load_config(preset)
    sim = IsaSim(cfg)
    pt, pb, pl, pr = pads
    rng = np.random.default_rng(fh * 10 + fw + 100 * sum(pads))
    R, nx, ny = cfg.rows, 9, 4
    h, lw = ny + fh - 1 - pt - pb, nx + fw - 1 - pl - pr      # the window's rows and lines a row
    ys = lw + 2
    sim.sp["ACT"][:] = rng.integers(0, 256, sim.sp["ACT"].shape, dtype=np.uint8)
    sim.sp["WGT"][:] = rng.integers(0, 256, sim.sp["WGT"].shape, dtype=np.uint8)
    sim.sp["ACC"][:] = rng.integers(-1000, 1000, sim.sp["ACC"].shape, dtype=np.int32)
    old = sim.sp["ACC"].copy()
    act, acc, wgt, za, zw = 3, 5, R, 200, 130     # za / zw read as int8: -56, -126
    words = [encode("DWCONV", accumulate=1, act_signed=1, wgt_signed=1, fh=fh, fw=fw, act=act, acc=acc,
                    wgt=wgt, za=za, zw=zw, nx=nx, ny=ny, act_ys=ys, acc_ys=nx + 1, pad_top=pt,
                    pad_bottom=pb, pad_left=pl, pad_right=pr), encode("FINISH")]
    r = sim.run(words)
    a = sim.sp["ACT"].view(np.int8).astype(np.int64)
    w = sim.sp["WGT"].view(np.int8).astype(np.int64)
    taps = fh * fw
    for oy in range(ny):
        for ox in range(nx):
            want = old[acc + oy * (nx + 1) + ox].astype(np.int64)
            for ky in range(fh):
                for kx in range(fw):
                    y, x = oy + ky - pt, ox + kx - pl
                    if 0 <= y < h and 0 <= x < lw:
                        want = want + (a[act + y * ys + x] + 56) * (w[wgt + taps - 1 - (ky * fw + kx)] + 126)
            np.testing.assert_array_equal(sim.sp["ACC"][acc + oy * (nx + 1) + ox], want)
    # the window's lines, then the steps up to the last output's last tap (the padding below and right)
    stream = (h + pb) * lw + pr
    assert r.counters["macs"] == stream * R * cfg.cols
    # two cycles for the first filter row to reach the array, the stream (beside the rest of the
    # filter), then rows + cols of fill / drain and one more cycle where the cells register their
    # products (pe_pipeline)
    assert r.counters["array_busy"] == 2 + stream + R + cfg.cols + cfg.pe_pipeline
    # a GEMM without preload afterwards uses the filter tile, with rows T .. rows-1 zero
    g = [encode("DWCONV", fh=fh, fw=fw, act=act, acc=acc, wgt=wgt, za=za, zw=zw, nx=1, ny=1, act_ys=ys,
                acc_ys=1, act_signed=1, wgt_signed=1),
         encode("GEMM", act=0, acc=0, nx=1, ny=1, act_signed=1), encode("FINISH")]
    sim.sp["ACT"][0] = 1
    sim.run(g)
    np.testing.assert_array_equal(sim.sp["ACC"][0], (w[wgt:wgt + taps] + 126).sum(axis=0))


def test_dwconv_faults():
    base = load_config("base")
    ok = {"fh": 3, "fw": 3, "nx": 64, "ny": 2, "act_ys": 66, "acc_ys": 64}
    IsaSim(base).run([encode("DWCONV", **{**ok, "nx": 253, "act_ys": 255}), encode("FINISH")])
    IsaSim(base).run([encode("DWCONV", **ok), encode("FINISH")])
    for bad, fault in (({"fw": 6}, "ILLEGAL_FIELD"), ({"nx": 254, "act_ys": 255}, "ILLEGAL_FIELD"),
                       ({"act": 4096 - 100}, "SCRATCHPAD_RANGE"), ({"wgt": 1024 - 15}, "SCRATCHPAD_RANGE"),
                       ({"pad_top": 2, "pad_bottom": 1}, "ILLEGAL_FIELD"), ({"pad_left": 1, "pad_right": 2}, "ILLEGAL_FIELD"),
                       ({"pad_left": 3}, "ILLEGAL_FIELD")):
        with pytest.raises(AcceleratorFault, match=fault):
            IsaSim(base).run([encode("DWCONV", **{**ok, **bad}), encode("FINISH")])
    with pytest.raises(AcceleratorFault, match="ILLEGAL_FIELD"):     # small has no line buffer
        IsaSim("small").run([encode("DWCONV", fh=2, fw=3, nx=4, ny=1, act_ys=6, acc_ys=4), encode("FINISH")])
    with pytest.raises(AcceleratorFault, match="ILLEGAL_OPCODE"):    # tiny has no depthwise mode
        IsaSim("tiny").run([encode("DWCONV", fh=1, fw=3, nx=4, ny=1, act_ys=6, acc_ys=4), encode("FINISH")])


def test_array_overlap_on_the_compute_queue():
    """The queue model's array overlap (small: queues, two weight buffers; 8x8, pe_pipeline 1): a
    GEMM / DWCONV releases the compute queue ``rows + cols + pe_pipeline`` cycles before its end
    (not before ``rows`` cycles after its start, nor before the completion of the one before
    it), where the next one overlaps it (a preloading GEMM after a GEMM, a DWCONV of the same
    ``fh``, ``fw`` and row length after a DWCONV); otherwise, and for a NOP, the next waits for
    its completion, where its tokens come. The counters count every instruction's own cycles."""
    cfg = load_config("small")
    R, D = cfg.rows, cfg.rows + cfg.cols + cfg.pe_pipeline          # 8, 17
    p = ProgramBuilder(cfg)
    p.gemm(0, 0, 20, preload=True)                                   # 0: R + 20 + D
    p.gemm(0, 100, 20, preload=True)                                 # 1: overlaps 0
    p.gemm(0, 200, 3, preload=True)                                  # 2: overlaps 1: R + R + D
    p.gemm(0, 300, 20)                                               # 3: no preload: waits for 2's end
    dw = {"act": 0, "wgt": 0, "nx": 6, "ny": 5, "fh": 1, "fw": 3, "act_ys": 8, "acc_ys": 6}
    p.emit("DWCONV", acc=400, **dw)                                  # 4: after a GEMM: 3's end
    p.emit("DWCONV", acc=500, **dw)                                  # 5: overlaps 4
    p.emit("DWCONV", acc=600, **{**dw, "nx": 5, "pad_right": 1})     # 6: row length 5 - 1, not 6: 5's end
    p.emit("DWCONV", acc=700, **{**dw, "nx": 1, "ny": 1, "fw": 1, "act_ys": 1, "acc_ys": 1})   # 7: fw 1: 6's end
    p.emit("DWCONV", acc=710, **{**dw, "nx": 1, "ny": 1, "fw": 1, "act_ys": 1, "acc_ys": 1}, push_next=1)  # 8
    p.nop("vector", pop_prev=1)                                      # 9: 8's token, at its end
    p.nop("compute")                                                 # 10: 8's end
    p.finish()
    _, r = run(p)
    s, e, f = r.schedule.start, r.schedule.end, r.schedule.fetch
    # DWCONV (fh 1): 2 + S + D, S = ny rows of nx + fw - 1 - pad_right lines, then pad_right steps
    cyc = [R + 20 + D, R + 20 + D, 2 * R + D, 20 + D, 2 + 5 * 8 + D, 2 + 5 * 8 + D, 2 + 5 * 6 + 1 + D,
           2 + 1 + D, 2 + 1 + D]
    assert [int(e[i] - s[i]) for i in range(9)] == cyc
    rel = lambda i: max(int(e[i]) - D, int(s[i]) + R, int(e[i - 1]) if i else 0)
    after = {1: rel(0), 2: rel(1), 3: int(e[2]), 4: int(e[3]), 5: rel(4), 6: int(e[5]), 7: int(e[6]),
             8: rel(7)}
    for i, t in after.items():
        assert s[i] == max(f[i] + 1, t), i
    assert rel(2) == int(e[1])          # (2 is released at 1's end, not rows cycles after its start)
    assert rel(7) == int(s[7]) + R      # (7's stream is shorter than its filter's rows)
    assert s[9] == max(f[9] + 1, e[8]) and s[10] == max(f[10] + 1, e[8])
    assert r.counters["array_busy"] == sum(cyc) and r.counters["instructions"] == 11
    assert r.cycles == max(int(e[9]), int(e[10]), int(f[11]) + 1)
