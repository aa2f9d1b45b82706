"""The accelerator top level on Verilator: one-operation models (FC, CONV_2D, DEPTHWISE_CONV_2D,
MAX / AVERAGE_POOL_2D, ADD, LOGISTIC via LUT), compiled by the compiler, run on the RTL and must give
the ISA simulator's bytes (bit-exact), the golden model's outputs, and the ISA simulator's counters —
every counter, the cycle count included, with tolerance 0. Error paths: illegal instruction,
reserved bits, scratchpad range, DMA outside the window (nothing written), deadlock, missing FINISH.

Tiers: the ``tiny`` models and the error paths run by default (one Verilator build each);
``small`` is marked slow.
"""

import numpy as np
import pytest
from nnaccel.sim.isasim import IsaSim, find_conflicts
from support.one_op import filter_consts, isa_and_rtl, one_op_model, rand
from support.vec_programs import add_params, load_vec_operands, mul_params

from nnaccel.hwconfig import load_config
from nnaccel.isa import COUNTERS, N_COUNTERS, AcceleratorFault, decode, encode
from nnaccel.program import ProgramBuilder, param_block

pytestmark = pytest.mark.rtl
SAME = 1                                    # NNAPI's implicit padding code for SAME


def case_fc(rng, dtype=np.uint8):
    M, K, N = 13, 21, 11
    x, w = rand(rng, dtype, (M, K)), rand(rng, dtype, (N, K))
    bias = rng.integers(-3000, 3000, N).astype(np.int32)
    xq, wq, oq = (0.05, 3), (0.02, 130), (0.9, 120)
    return one_op_model("FULLY_CONNECTED", [x], [xq], (M, N), oq, dtype, filter_consts(dtype, w, wq, bias, xq),
                        [1]), [x]


def case_conv(rng, depthwise=False, dtype=np.int8):
    x = rand(rng, dtype, (1, 7, 6, 5))
    cout = 5 if depthwise else 6
    w = rand(rng, dtype, (1, 3, 3, 5) if depthwise else (cout, 3, 3, 5))
    bias = rng.integers(-2000, 2000, cout).astype(np.int32)
    xq, wq, oq = (0.04, -3), (0.03, 2), (0.5, 7)
    s = 1 if depthwise else 2
    out = (1, -(-7 // s), -(-6 // s), cout)
    scalars = [SAME, s, s] + ([1] if depthwise else []) + [1]
    return one_op_model("DEPTHWISE_CONV_2D" if depthwise else "CONV_2D", [x], [xq], out, oq, dtype,
                        filter_consts(dtype, w, wq, bias, xq), scalars), [x]


def case_pool(rng, op, dtype=np.uint8):
    x = rand(rng, dtype, (1, 7, 6, 5))
    q = (0.1, 30)
    return one_op_model(op, [x], [q], (1, 4, 3, 5), q, dtype, (), [SAME, 2, 2, 3, 3, 0]), [x]


def case_add(rng, dtype=np.int8):
    shape = (3, 7, 5)
    a, b = rand(rng, dtype, shape), rand(rng, dtype, shape)
    aq, bq, oq = (0.07, -20), (0.03, 60), (0.09, 0)
    return one_op_model("ADD", [a, b], [aq, bq], shape, oq, dtype, (), [1]), [a, b]


def case_lut(rng, dtype=np.int8):
    x = rand(rng, dtype, (2, 9, 7))
    return one_op_model("LOGISTIC", [x], [(0.06, 5)], x.shape, (1 / 256, -128), dtype), [x]


CASES = {
    "fc": case_fc,
    "conv": case_conv,
    "depthwise": lambda r: case_conv(r, depthwise=True),
    "maxpool": lambda r: case_pool(r, "MAX_POOL_2D"),
    "avgpool": lambda r: case_pool(r, "AVERAGE_POOL_2D"),
    "add": case_add,
    "lut": case_lut,
}


@pytest.mark.parametrize("config", ["tiny", pytest.param("small", marks=pytest.mark.slow)])
@pytest.mark.parametrize("case", list(CASES))
def test_layer_matches_isa_sim_and_golden(config, case):
    model, inputs = CASES[case](np.random.default_rng(list(CASES).index(case)))
    _, _, isa, rtl = isa_and_rtl(model, config, inputs)
    cfg = load_config(config)
    # the run's length (counted by the simulation top level, it does not wrap) is the ISA
    # simulator's, and the cycles counter's value (these runs are far shorter than 2 ** counter_bits)
    for si, sr in zip(isa["segments"], rtl["segments"]):
        assert sr["counters"]["run_cycles"] == si["counters"]["cycles"] < 1 << cfg.counter_bits
    assert rtl["total"]["macs"] == isa["total"]["macs"]
    assert (rtl["total"]["macs"] > 0) == (case in ("fc", "conv", "depthwise"))


# ------------------------------------------------------------------------------------ error paths
WINDOW = load_config("tiny").replace(name="tiny-window", dma_base=0x4000, dma_size=0x4000)


def isa_fault(cfg, words):
    with pytest.raises(AcceleratorFault) as e:
        IsaSim(cfg, mem_size=1 << 16).run(words)
    return e.value


def _words(build):
    p = ProgramBuilder(WINDOW)
    build(p)
    return p.words


ERRORS = {
    "illegal_opcode": lambda: [encode("NOP", queue="compute"), 15, encode("FINISH")],
    "reserved_bits": lambda: [encode("NOP", queue="load"), encode("NOP", queue="load") | (1 << 100),
                              encode("FINISH")],
    "bad_flag": lambda: [encode("LOAD", sp=0, len=1, x_size=1, y_size=1, ext_addr=0x4000, pop_prev=1),
                         encode("FINISH")],
    "scratchpad_range": lambda: _words(lambda p: (p.nop("load"), p.gemm(WINDOW.lines("ACT") - 2, 0, 4),
                                                  p.finish())),
    "deadlock": lambda: _words(lambda p: (p.nop("load"), p.nop("compute", pop_prev=1), p.finish())),
    "no_finish": lambda: _words(lambda p: (p.nop("load"), p.nop("store"))),
    # several queues blocked, the lowest waiting PC (2) neither the first nor the last queued
    "deadlock_lowest_pc": lambda: _words(lambda p: (
        p.nop("load"), p.nop("store"), p.nop("vector", pop_prev=1), p.nop("load"),
        p.nop("compute", pop_next=1), p.nop("store", pop_prev=1), p.nop("vector"), p.finish())),
}


#: tiny issues in order; the same machine with its queues (in_order = False) keeps the queue
#: machine's fault paths tested (its DEADLOCK PC search) without the slow small preset
WINDOW_QUEUES = WINDOW.replace(name="tiny-window-queues", in_order=False)


@pytest.mark.parametrize("cfg", [WINDOW, WINDOW_QUEUES], ids=["in-order", "queues"])
@pytest.mark.parametrize("name", list(ERRORS))
def test_fault_stops_with_error_code_and_pc(name, cfg):
    from nnaccel.sim.rtl_runner import run_words_rtl
    words = ERRORS[name]()
    want = isa_fault(cfg, words)
    rtl = run_words_rtl(cfg, words, max_cycles=100_000)
    assert (rtl.fault, rtl.fault_pc) == (want.fault, want.pc)
    assert rtl.fault != "OK"


def test_pop_before_push_deadlocks_in_order_only():
    """The compute NOP pops the token that the vector NOP after it pushes: the queue machine runs
    the vector NOP first; the in-order machine stops with DEADLOCK at PC 1 (RTL == ISA simulator)."""
    from nnaccel.sim.rtl_runner import run_words_rtl
    words = _words(lambda p: (p.nop("load"), p.nop("compute", pop_next=1), p.nop("vector", push_prev=1),
                              p.finish()))
    want = isa_fault(WINDOW, words)
    assert (want.fault, want.pc) == ("DEADLOCK", 1)
    rtl = run_words_rtl(WINDOW, words, max_cycles=100_000)
    assert (rtl.fault, rtl.fault_pc) == ("DEADLOCK", 1)
    res = IsaSim(WINDOW_QUEUES, mem_size=1 << 16).run(words)
    rtl = run_words_rtl(WINDOW_QUEUES, words, max_cycles=100_000)
    assert rtl.fault == "OK" and rtl.counters == res.counters


def test_dma_outside_window_faults_and_writes_nothing():
    from nnaccel.sim.rtl_runner import run_words_rtl
    sentinel = np.full(64, 0xA5, np.uint8)
    p = ProgramBuilder(WINDOW)
    p.load("ACT", 0, 0x4000, 4, x_size=4, x_stride=4)           # inside the window
    p.store("ACT", 0, 0x4100, 4, x_size=4, x_stride=4)          # inside
    p.store("ACT", 0, 0x3FF0, 4, x_size=8, x_stride=4)          # starts 16 bytes below the window
    p.finish()
    want = isa_fault(WINDOW, p.words)
    assert (want.fault, want.pc) == ("DMA_WINDOW", 2)
    data = np.arange(16, dtype=np.uint8) + 1
    rtl = run_words_rtl(WINDOW, p.words, {0x4000: data, 0x3FC0: sentinel}, read=[(0x3FC0, 64)],
                        max_cycles=100_000)
    # the fault is decided at fetch: the machine stops there and the STORE never starts
    assert (rtl.fault, rtl.fault_pc) == ("DMA_WINDOW", 2)
    assert rtl.regions[0] == sentinel.tobytes()


def test_rdperf_snapshot_matches_isa_sim():
    from nnaccel.sim.rtl_runner import run_words_rtl
    p = ProgramBuilder(WINDOW)
    p.load("ACT", 0, 0x4000, 4, x_size=6, x_stride=4, push_next=1)
    p.gemm(0, 0, 6, preload=True, pop_prev=1, push_next=1)
    p.nop("vector", pop_prev=1, push_next=1)                   # the token passes along the chain
    p.rdperf(0x6000, pop_prev=1)
    p.finish()
    sim = IsaSim(WINDOW, mem_size=1 << 16)
    sim.write(0x4000, np.arange(24, dtype=np.uint8))
    res = sim.run(p.words)
    rtl = run_words_rtl(WINDOW, p.words, {0x4000: np.arange(24, dtype=np.uint8)}, read=[(0x6000, 8 * N_COUNTERS)],
                        max_cycles=100_000)
    assert rtl.fault == "OK"
    assert rtl.regions[0] == sim.mem[0x6000:0x6000 + 8 * N_COUNTERS].tobytes()
    assert rtl.counters == res.counters


@pytest.mark.parametrize("in_order", [True, False])
def test_rdperf_reads_stall_in_progress_matches_isa_sim(in_order):
    """RDPERF samples each counter in the cycle it writes it; a token stall still going on counts
    its cycles so far (the ISA simulator's interval arithmetic), bytes and counters equal. With
    queues: a load-queue token stall and a fetch stall while RDPERF runs; in order (tiny): the
    instruction held after the RDPERF waits for it (a compute-queue token stall in progress)."""
    from nnaccel.sim.rtl_runner import run_words_rtl
    cfg = WINDOW.replace(name=f"tiny-window-{'in-order' if in_order else 'queues'}", in_order=in_order)
    p = ProgramBuilder(cfg)
    p.gemm(0, 0, 40, push_prev=1)
    if not in_order:
        p.nop("load", pop_next=1)                               # waits for the GEMM's token
    p.rdperf(0x6000)                                            # reads while the stalls go on
    for _ in range(cfg.queue_depth + 1):
        p.nop("compute")                                        # the last waits for room: fetch stall
    if in_order:
        p.nop("load", pop_next=1)
    p.finish()
    sim = IsaSim(cfg, mem_size=1 << 16)
    res = sim.run(p.words)
    snap = sim.mem[0x6000:0x6000 + 8 * N_COUNTERS].view(np.uint64)
    ids = {c.name: c.id for c in COUNTERS}
    if in_order:                                                # (in order nothing waits)
        assert snap[ids["instructions"]] == 1 and snap[ids["cycles"]] > 0
    else:
        assert snap[ids["load_token_stall"]] > 0 and snap[ids["fetch_stall"]] > 0
        assert snap[ids["instructions"]] == 0
    rtl = run_words_rtl(cfg, p.words, read=[(0x6000, 8 * N_COUNTERS)], max_cycles=100_000)
    assert rtl.fault == "OK"
    assert rtl.regions[0] == sim.mem[0x6000:0x6000 + 8 * N_COUNTERS].tobytes()
    assert rtl.counters == res.counters


def test_bench_gemm_rtl_backend(tmp_path, capsys):
    """``nnaccel bench gemm --backend rtl``: bit-exact, and the RTL's cycles are the ISA simulator's."""
    from nnaccel.cli import main
    out = tmp_path / "gemm.json"
    assert main(["bench", "gemm", "--config", "tiny", "--size", "12", "--backend", "rtl", "--json", str(out)]) == 0
    import json
    r = json.loads(out.read_text())
    assert r["backend"] == "rtl" and r["bit_exact"]
    assert r["cycles"] == r["isa_cycles"] == r["counters"]["cycles"]
    assert r["sim_cycles_per_second"] > 0


# ------------------------------------------------------------------------------ engine programs
def _run_image(cfg, words, image, read):
    """The same program and memory image on the ISA simulator and the RTL: (simulator, result, rtl)."""
    from nnaccel.sim.rtl_runner import run_words_rtl
    top = max(a + np.asarray(d).nbytes for a, d in image.items())
    top = max([top] + [a + n for a, n in read])
    sim = IsaSim(cfg, mem_size=top + 4096)
    for a, d in image.items():
        sim.write(a, d)
    res = sim.run(words)
    rtl = run_words_rtl(cfg, words, image, read=read)
    return sim, res, rtl


def _i8(v, signed):
    v = np.asarray(v, np.int64) & 0xFF
    return np.where(v >= 128, v - 256, v) if signed else v


# (nx, ny, kt, preload, accumulate, signed): streams shorter than, equal to and longer than `rows`
# (as multiples of rows), the most tiles, a GEMM without preload (the last tile's weights of the
# GEMM before it, from whichever buffer holds them) and a single-line preload.
KT_CASES = [(3, 1, 2, 1, 0, 0), (2, 2, 3, 1, 1, 1), (7, 2, 1, 1, 0, 1), (5, 1, 0, 0, 1, 1),
            (1, 1, 0, 1, 0, 0), (2, 1, 15, 1, 1, 0), (4, 3, 0, 0, 0, 0)]


@pytest.mark.parametrize("config", ["tiny", pytest.param("small", marks=pytest.mark.slow)])
def test_gemm_k_tiles(config):
    """GEMM with ``kt`` > 0 (double-buffered weights): ACC bytes equal NumPy's sum over the K tiles
    (computed here from the raw bytes, not by the simulator) and the ISA simulator's, every counter
    equal."""
    cfg = load_config(config)
    R, C = cfg.rows, cfg.cols
    rng = np.random.default_rng(11)
    p = ProgramBuilder(cfg)
    act_base, wgt_base, acc_base = 0x0, 0x10000, 0x20000
    n_act = sum(nx * ny * (kt + 1) for nx, ny, kt, *_ in KT_CASES)
    n_wgt = sum((kt + 1) * R for _, _, kt, pre, *_ in KT_CASES if pre)
    n_acc = sum(nx * ny for nx, ny, *_ in KT_CASES)
    act = rng.integers(0, 256, (n_act, C)).astype(np.uint8)
    wgt = rng.integers(0, 256, (n_wgt, C)).astype(np.uint8)
    acc0 = rng.integers(-2**31, 2**31, (n_acc, C)).astype(np.int32)
    p.load_lines("ACT", 0, act_base, n_act, C, C)
    p.load_lines("WGT", 0, wgt_base, n_wgt, C, C)
    p.load_lines("ACC", 0, acc_base, n_acc, 4 * C, C, push_next=1)
    want = acc0.astype(np.int64)
    a0 = w0 = o0 = 0
    weights = None
    for i, (nx, ny, kt, pre, accum, sgn) in enumerate(KT_CASES):
        za, zw = int(rng.integers(-128, 128)) & 0xFF, int(rng.integers(-128, 128)) & 0xFF
        p.gemm(a0, o0, nx, ny, wgt=w0, preload=bool(pre), kt=kt, accumulate=bool(accum), za=za, zw=zw,
               act_signed=bool(sgn), wgt_signed=bool(sgn), act_xs=1, act_ys=nx, acc_xs=1, acc_ys=nx,
               pop_prev=int(i == 0), push_next=int(i == len(KT_CASES) - 1))
        n = nx * ny
        total = want[o0:o0 + n] if accum else np.zeros((n, C), np.int64)
        for t in range(kt + 1):
            if pre:
                weights = _i8(wgt[w0 + t * R:w0 + (t + 1) * R], sgn) - _i8(za * 0 + zw, sgn)
            a = _i8(act[a0 + t * n:a0 + (t + 1) * n, :R], sgn) - _i8(za, sgn)
            total = total + a @ weights
        want[o0:o0 + n] = total
        a0 += n * (kt + 1)
        w0 += (kt + 1) * R if pre else 0
        o0 += n
    p.nop("vector", pop_prev=1, push_next=1)
    out = 0x30000
    p.store_lines("ACC", 0, out, n_acc, 4 * C, C, pop_prev=1)
    p.finish()
    assert not find_conflicts(p.words, cfg)
    image = {act_base: act, wgt_base: wgt, acc_base: acc0}
    sim, res, rtl = _run_image(cfg, p.words, image, [(out, n_acc * 4 * C)])
    got = np.frombuffer(rtl.regions[0], np.int32).reshape(n_acc, C)
    want32 = (((want + 2**31) % 2**32) - 2**31).astype(np.int32)
    assert rtl.fault == "OK"
    assert (got == sim.mem[out:out + n_acc * 4 * C].view(np.int32).reshape(n_acc, C)).all()
    assert (got == want32).all()
    assert rtl.counters == res.counters
    assert res.counters["macs"] == sum((kt + 1) * nx * ny for nx, ny, kt, *_ in KT_CASES) * R * C


# the tiny preset has one ACC bank (GEMM and VEC then never overlap): its copy with two
TINY_ACC2 = load_config("tiny").replace(name="tiny-acc2", acc_banks=2, in_order=False)  # engines at once


@pytest.mark.parametrize("config", [TINY_ACC2, pytest.param("small", marks=pytest.mark.slow)])
def test_fc_gemm_and_vec_overlap(config):
    """A FULLY_CONNECTED with many output tiles: the vector queue requantizes one block while the
    array computes the next (checked on the ISA schedule; it needs two ACC banks), and the program
    uses K tiles; RTL == ISA simulator == golden, every counter equal."""
    from nnaccel.sim.isasim import decode_program, schedule

    from nnaccel.isa import bytes_to_words
    cfg = load_config(config)
    rng = np.random.default_rng(5)
    M, K, N = 19, 3 * cfg.rows + 1, 9 * cfg.cols - 3
    x, w = rand(rng, np.int8, (M, K)), rand(rng, np.int8, (N, K))
    bias = rng.integers(-3000, 3000, N).astype(np.int32)
    xq, wq, oq = (0.05, 3), (0.02, 0), (0.9, -10)
    model = one_op_model("FULLY_CONNECTED", [x], [xq], (M, N), oq, np.int8,
                         filter_consts(np.int8, w, wq, bias, xq), [0])
    pkg, _, isa, _ = isa_and_rtl(model, cfg, [x])
    (seg,) = pkg.manifest["segments"]
    dec = decode_program(bytes_to_words(pkg.segment_words(seg)), cfg)
    sch = schedule(dec, cfg)
    gemm = [(sch.start[i], sch.end[i]) for i, d in enumerate(dec) if d.name == "GEMM"]
    vec = [(sch.start[i], sch.end[i]) for i, d in enumerate(dec) if d.name == "VEC"]
    assert any(s1 < e2 and s2 < e1 for s1, e1 in gemm for s2, e2 in vec), "no GEMM / VEC overlap"
    assert any(d.name == "GEMM" and d.kt > 0 for d in dec), "the program uses no K tiles"
    counters = isa["segments"][0]["counters"]
    assert counters["vector_busy"] > 0 and counters["array_busy"] > 0


@pytest.mark.parametrize("config", ["tiny", pytest.param("small", marks=pytest.mark.slow)])
def test_vector_addq_subq_div_mulq(config):
    """ADDQ / SUBQ (three steps on the lane's one multiplier), MULQ, and DIV as multiply-shift in
    one program: ACT / ACC bytes equal the ISA simulator's, DIV equals TFLite's rounded division
    (computed here with integers), every counter equal."""
    from nnaccel.isa.table import div_params
    cfg = load_config(config)
    C = cfg.cols
    rng = np.random.default_rng(3)
    n = 7
    a = rand(rng, np.int8, (n, C))
    b = rand(rng, np.int8, (n, C))
    acc = rng.integers(-2**20, 2**20, (n, C)).astype(np.int32)
    acc[0, :2] = [0, -1]
    divs = [1, 3, 9, 25]
    add = param_block(cfg, "ADDQ", **add_params((0.07, -3), (0.03, 5), (0.09, 2), 0, True))
    sub = param_block(cfg, "SUBQ", **add_params((0.05, 7), (0.06, -9), (0.1, -4), 1, True))
    mul = param_block(cfg, "MULQ", **mul_params((0.05, 1), (0.04, -2), (0.3, 3), 0, True))
    # DIV's lo / hi count with their low 9 bits (VecFunc.bits): int8 bounds, which q often exceeds
    dv = [param_block(cfg, "DIV", **dict(zip(("half", "m", "s"), div_params(c))), lo=-128,
                        hi=127) for c in divs]
    params = np.concatenate([add, sub, mul] + dv)
    p = ProgramBuilder(cfg)
    b_line = load_vec_operands(p, cfg, n, params.shape[0])
    off = {"ADDQ": 0, "SUBQ": add.shape[0], "MULQ": add.shape[0] + sub.shape[0]}
    for k, f in enumerate(("ADDQ", "SUBQ", "MULQ")):
        p.vec(f, 2 * n + k * n, 0, n, src2=b_line, param=off[f], signed=True, pop_prev=int(k == 0))
    d0 = off["MULQ"] + mul.shape[0]
    for k, c in enumerate(divs):
        p.vec("DIV", 5 * n + k * n, 0, n, param=d0 + k * dv[0].shape[0], push_next=int(k == len(divs) - 1))
    p.store_lines("ACT", 2 * n, 0x8000, 7 * n, C, C, pop_prev=1)
    p.finish()
    assert not find_conflicts(p.words, cfg)
    image = {0x0: a, 0x1000: b, 0x2000: acc, 0x4000: params}
    sim, res, rtl = _run_image(cfg, p.words, image, [(0x8000, 7 * n * C)])
    assert rtl.fault == "OK"
    assert rtl.regions[0] == sim.mem[0x8000:0x8000 + 7 * n * C].tobytes()
    got = np.frombuffer(rtl.regions[0], np.int8).reshape(7, n, C)
    x = acc.astype(np.int64)
    for k, c in enumerate(divs):
        q = np.clip(np.sign(x) * ((np.abs(x) + c // 2) // c), -128, 127)
        assert (got[3 + k] == q).all(), c
    assert rtl.counters == res.counters


@pytest.mark.parametrize("config", ["tiny", pytest.param("small", marks=pytest.mark.slow)])
def test_gemm_random_sequence(config):
    """Random GEMMs back to back on the compute queue (K tiles, strides, zero points, signedness,
    accumulate, preload or the weights left in the array, an empty stream that only loads weight
    tiles): ACC bytes and every counter equal the ISA simulator's."""
    cfg = load_config(config)
    R, C = cfg.rows, cfg.cols
    rng = np.random.default_rng(23)
    n_act, n_wgt, n_acc = min(512, cfg.lines("ACT")), 16 * R + 8, min(256, cfg.lines("ACC"))
    assert n_wgt <= cfg.lines("WGT")
    act = rng.integers(0, 256, (n_act, C)).astype(np.uint8)
    wgt = rng.integers(0, 256, (n_wgt, C)).astype(np.uint8)
    acc0 = rng.integers(-2**31, 2**31, (n_acc, C)).astype(np.int32)
    p = ProgramBuilder(cfg)
    p.load_lines("ACT", 0, 0x0, n_act, C, C)
    p.load_lines("WGT", 0, 0x20000, n_wgt, C, C)
    p.load_lines("ACC", 0, 0x30000, n_acc, 4 * C, C, push_next=1)
    n_gemm = 14
    for i in range(n_gemm):
        kt = int(rng.choice([0, 0, 1, 2, 5]))
        preload = kt > 0 or i == 0 or rng.random() < 0.6
        nx = int(rng.integers(1, 9))
        ny = int(rng.integers(1, 4))
        if i == 5:
            nx = 0                       # weights only: the next GEMM reuses the last tile
        act_xs, act_ys = int(rng.integers(0, 3)), int(rng.integers(0, 12))
        top = (ny * (kt + 1) - 1) * act_ys + max(nx - 1, 0) * act_xs
        acc_ys = nx + int(rng.integers(0, 3))
        p.gemm(int(rng.integers(0, n_act - top)), int(rng.integers(0, n_acc - ny * acc_ys)), nx, ny,
               wgt=int(rng.integers(0, n_wgt - (kt + 1) * R + 1)), preload=bool(preload), kt=kt,
               accumulate=bool(rng.random() < 0.5), za=int(rng.integers(0, 256)),
               zw=int(rng.integers(0, 256)), act_signed=bool(rng.random() < 0.5),
               wgt_signed=bool(rng.random() < 0.5), act_xs=act_xs, act_ys=act_ys, acc_xs=1,
               acc_ys=acc_ys, pop_prev=int(i == 0), push_next=int(i == n_gemm - 1))
        if i == 4:
            p.gemm(0, 0, 0, 1, wgt=3, preload=True, kt=3)
    p.nop("vector", pop_prev=1, push_next=1)
    p.store_lines("ACC", 0, 0x40000, n_acc, 4 * C, C, pop_prev=1)
    p.finish()
    assert not find_conflicts(p.words, cfg)
    image = {0x0: act, 0x20000: wgt, 0x30000: acc0}
    sim, res, rtl = _run_image(cfg, p.words, image, [(0x40000, n_acc * 4 * C)])
    assert rtl.fault == "OK"
    assert rtl.regions[0] == sim.mem[0x40000:0x40000 + n_acc * 4 * C].tobytes()
    assert rtl.regions[0] != acc0.tobytes()
    assert rtl.counters == res.counters


@pytest.mark.slow
@pytest.mark.ci_slow
def test_lut_with_vector_latency_1():
    """With ``vector_latency`` 1 the LUT reads its table memory combinationally (no spare step for a
    block-RAM read): the LOGISTIC program still matches the ISA simulator and the golden model."""
    cfg = load_config("tiny").replace(name="tiny-vlat1", vector_latency=1)
    model, inputs = case_lut(np.random.default_rng(4))
    isa_and_rtl(model, cfg, inputs)


@pytest.mark.parametrize("banks", [1, 2, 4])
def test_banked_scratchpad_ports(banks):
    """BankedScratchpad (the scratchpads of the top level) vs a list model: each cycle the writers
    with ``en`` use distinct banks and the ``valid`` readers distinct banks (the ISA's bank rules),
    while idle readers (``valid`` 0) point anywhere, also into a bank a valid reader uses; every
    valid reader gets its line one cycle later, read-before-write, and every write lands."""
    from amaranth.sim import Simulator
    from nnaccel.hw.scratchpad import BankedScratchpad
    depth, width = 32, 8
    bl = depth // banks
    dut = BankedScratchpad(depth, width, banks)
    ws = [dut.write_port(f"w{i}") for i in range(3)]
    rs = [dut.read_port(f"r{i}") for i in range(3)]
    rng = np.random.default_rng(banks)
    model = [0] * depth
    checked = [0]

    async def bench(ctx):
        for _ in range(400):
            wb = rng.permutation(banks)
            rb = rng.permutation(banks)
            writes = []
            for i, p in enumerate(ws):
                en = i < banks and rng.random() < 0.7
                a = int(wb[i % banks] * bl + rng.integers(bl)) if en else int(rng.integers(depth))
                d = int(rng.integers(256))
                ctx.set(p.en, en)
                ctx.set(p.addr, a)
                ctx.set(p.data, d)
                if en:
                    writes.append((a, d))
            expect = []
            for i, p in enumerate(rs):
                valid = i < banks and rng.random() < 0.7
                a = int(rb[i % banks] * bl + rng.integers(bl)) if valid else int(rng.integers(depth))
                ctx.set(p.valid, valid)
                ctx.set(p.addr, a)
                if valid:
                    expect.append((p, model[a]))
            await ctx.tick()
            for p, v in expect:
                assert ctx.get(p.data) == v
                checked[0] += 1
            for a, d in writes:
                model[a] = d

    sim = Simulator(dut)
    sim.add_clock(1e-6)
    sim.add_testbench(bench)
    sim.run()
    assert checked[0] > 200


def test_rtl_builds_are_keyed_by_the_python_environment(monkeypatch):
    """A compiled model links against its Python environment's cocotb: a build made by another
    (perhaps deleted) environment must not be reused (it failed with exit code 127)."""
    from nnaccel.sim import rtl_runner
    key = rtl_runner._source_key("tiny", 1)
    monkeypatch.setattr("sys.prefix", "/some/other/venv")
    assert rtl_runner._source_key("tiny", 1) != key


@pytest.mark.slow
def test_array_overlap_accumulating_on_the_results_still_draining():
    """small (the ISA's array overlap): GEMMs and DWCONVs that start while the one before drains,
    accumulating onto the ACC lines it still writes (a K-chunk chain: a preloading GEMM, a short
    one, then a GEMM without preload, which waits; DWCONVs of one shape, then of another row
    length and filter width, which wait), and a short DWCONV released only after its filter's
    rows: ACC bytes, cycles and every counter equal to the ISA simulator's, which runs each
    instruction in program order (``test_array_overlap_on_the_compute_queue`` its schedule)."""
    cfg = load_config("small")
    R, C = cfg.rows, cfg.cols
    rng = np.random.default_rng(24)
    act = rng.integers(0, 256, (120, C)).astype(np.uint8)
    wgt = rng.integers(0, 256, (6 * R, C)).astype(np.uint8)
    acc0 = rng.integers(-2**20, 2**20, (64, C)).astype(np.int32)
    p = ProgramBuilder(cfg)
    p.load_lines("ACT", 0, 0x0, 120, C, C)
    p.load_lines("WGT", 0, 0x10000, 6 * R, C, C)
    p.load_lines("ACC", 0, 0x20000, 64, 4 * C, C, push_next=1)
    g = {"act_xs": 1, "act_ys": 20, "acc_xs": 1, "acc_ys": 20, "act_signed": True, "wgt_signed": True,
         "za": 3, "zw": 250}
    p.gemm(0, 0, 20, wgt=0, preload=True, accumulate=True, pop_prev=1, **g)
    p.gemm(20, 0, 20, wgt=R, preload=True, accumulate=True, **g)       # onto 0's lines, still draining
    p.gemm(40, 0, 3, wgt=2 * R, preload=True, accumulate=True, **g)     # short: onto 1's first lines
    p.gemm(43, 0, 20, accumulate=True, **g)                             # no preload: after 2's end
    dw = {"act": 60, "wgt": 3 * R, "nx": 6, "ny": 4, "fh": 1, "fw": 3, "act_ys": 8, "acc_ys": 6, "za": 7, "zw": 5,
          "act_signed": 1}
    p.emit("DWCONV", acc=30, **dw)
    p.emit("DWCONV", acc=30, accumulate=1, **{**dw, "act": 68, "wgt": 4 * R})             # onto 4's
    p.emit("DWCONV", acc=30, accumulate=1, **{**dw, "nx": 5, "pad_right": 1, "act": 76})  # waits
    p.emit("DWCONV", acc=60, **{**dw, "nx": 2, "ny": 1, "fw": 1, "act_ys": 2, "acc_ys": 2})   # short
    p.emit("DWCONV", acc=60, accumulate=1, push_next=1,
           **{**dw, "nx": 2, "ny": 1, "fw": 1, "act_ys": 2, "acc_ys": 2, "wgt": 5 * R})
    p.nop("vector", pop_prev=1, push_next=1)
    p.store_lines("ACC", 0, 0x30000, 64, 4 * C, C, pop_prev=1)
    p.finish()
    assert not find_conflicts(p.words, cfg)
    sim, res, rtl = _run_image(cfg, p.words, {0x0: act, 0x10000: wgt, 0x20000: acc0}, [(0x30000, 64 * 4 * C)])
    assert rtl.fault == "OK"
    assert rtl.regions[0] == sim.mem[0x30000:0x30000 + 64 * 4 * C].tobytes()
    assert (np.frombuffer(rtl.regions[0], np.int32).reshape(64, C) != acc0).any(axis=1).sum() >= 40
    assert rtl.counters == res.counters
    # the overlap happened: the second GEMM started before the first one's end
    s, e = res.schedule.start, res.schedule.end
    gemms = [i for i, w in enumerate(p.words) if decode(w).name == "GEMM"]
    assert s[gemms[1]] < e[gemms[0]]
