"""The accelerator top level on Verilator: helper-6's layer programs (FC, CONV_2D, DEPTHWISE_CONV_2D,
MAX / AVERAGE_POOL_2D, ADD, LOGISTIC via LUT) run on the RTL and must give the ISA simulator's bytes
(bit-exact), the golden model's outputs, and the ISA simulator's counters — every counter, the
cycle count included, with tolerance 0. Error paths: illegal instruction, reserved bits, scratchpad
range, DMA outside the window (nothing written), deadlock, missing FINISH.

Tiers: the ``tiny`` programs and the error paths run by default (one Verilator build each);
``small`` is marked slow.
"""

import numpy as np
import pytest
from nnaccel.sim import programs as P
from nnaccel.sim.isasim import IsaSim

from nnaccel import registry
from nnaccel.golden.interpreter import run_model
from nnaccel.hwconfig import load_config
from nnaccel.isa import N_COUNTERS, AcceleratorFault, encode
from nnaccel.model import ModelBuilder
from nnaccel.model import OperandType as T
from nnaccel.program import ProgramBuilder

pytestmark = pytest.mark.rtl
QT = {np.uint8: T.TENSOR_QUANT8_ASYMM, np.int8: T.TENSOR_QUANT8_ASYMM_SIGNED}


def rand(rng, dtype, shape):
    info = np.iinfo(dtype)
    return rng.integers(info.min, info.max + 1, shape).astype(dtype)


def golden(op, inputs, in_q, out_shape, out_q, dtype, consts=(), scalars=()):
    """Runs one NNAPI op on the golden interpreter: ``inputs`` quantized like ``in_q``."""
    if not registry.get(op).implemented:
        return None
    mb = ModelBuilder()
    ids = [mb.add_operand(QT[dtype], x.shape, *q) for x, q in zip(inputs, in_q)]
    args = list(ids)
    for kind, value, kw in consts:
        args.append(mb.add_constant(kind, value, **kw))
    args += [mb.add_constant(T.INT32, v) for v in scalars]
    o = mb.add_operand(QT[dtype], list(out_shape), *out_q)
    mb.add_operation(op, args, [o])
    mb.identify_inputs_and_outputs(ids, [o])
    (out,) = run_model(mb.finish(), list(inputs))
    return out


def case_fc(config, rng, dtype=np.uint8):
    M, K, N = 13, 21, 11
    x, w = rand(rng, dtype, (M, K)), rand(rng, dtype, (N, K))
    bias = rng.integers(-3000, 3000, N).astype(np.int32)
    xq, wq, oq = (0.05, 3), (0.02, 130), (0.9, 120)
    lp = P.fully_connected(config, x, w, bias, xq, wq, oq, activation=1)
    ref = golden("FULLY_CONNECTED", [x], [xq], (M, N), oq, dtype,
                 [(QT[dtype], w, {"scale": wq[0], "zero_point": wq[1]}),
                  (T.TENSOR_INT32, bias, {"scale": xq[0] * wq[0]})], [1])
    return lp, ref


def case_conv(config, rng, depthwise=False, dtype=np.int8):
    x = rand(rng, dtype, (1, 7, 6, 5))
    cout = 5 if depthwise else 6
    w = rand(rng, dtype, (1, 3, 3, 5) if depthwise else (cout, 3, 3, 5))
    bias = rng.integers(-2000, 2000, cout).astype(np.int32)
    xq, wq, oq = (0.04, -3), (0.03, 2), (0.5, 7)
    stride = (1, 1) if depthwise else (2, 2)
    pads = P.same_padding(7, 6, 3, 3, *stride)
    lp = P.conv2d(config, x, w, bias, xq, wq, oq, stride=stride, pads=pads, activation=1,
                  depthwise=depthwise)
    scalars = [1, stride[1], stride[0]] + ([1] if depthwise else []) + [1]
    ref = golden("DEPTHWISE_CONV_2D" if depthwise else "CONV_2D", [x], [xq], lp.output_shape, oq, dtype,
                 [(QT[dtype], w, {"scale": wq[0], "zero_point": wq[1]}),
                  (T.TENSOR_INT32, bias, {"scale": xq[0] * wq[0]})], scalars)
    return lp, ref


def case_pool(config, rng, kind, dtype=np.uint8):
    x = rand(rng, dtype, (1, 7, 6, 5))
    q = (0.1, 30)
    filt, stride = (3, 3), (2, 2)
    pads = P.same_padding(7, 6, 3, 3, 2, 2)
    lp = P.pool2d(config, kind, x, q, filt, stride, pads, activation=0)
    pt, pb, pl, pr = pads
    ref = golden("MAX_POOL_2D" if kind == "max" else "AVERAGE_POOL_2D", [x], [q], lp.output_shape, q, dtype,
                 (), [pl, pr, pt, pb, stride[1], stride[0], filt[1], filt[0], 0])
    return lp, ref


def case_add(config, rng, dtype=np.int8):
    shape = (3, 7, 5)
    a, b = rand(rng, dtype, shape), rand(rng, dtype, shape)
    aq, bq, oq = (0.07, -20), (0.03, 60), (0.09, 0)
    lp = P.elementwise(config, "ADD", a, b, aq, bq, oq, activation=1)
    return lp, golden("ADD", [a, b], [aq, bq], shape, oq, dtype, (), [1])


def case_lut(config, rng, dtype=np.int8):
    x = rand(rng, dtype, (2, 9, 7))
    xq, oq = (0.06, 5), (1 / 256, -128)
    table = P.golden_table("LOGISTIC", xq, oq, dtype)
    lp = P.lookup(config, x, table, "LOGISTIC")
    return lp, golden("LOGISTIC", [x], [xq], x.shape, oq, dtype)


CASES = {
    "fc": case_fc,
    "conv": case_conv,
    "depthwise": lambda c, r: case_conv(c, r, depthwise=True),
    "maxpool": lambda c, r: case_pool(c, r, "max"),
    "avgpool": lambda c, r: case_pool(c, r, "avg"),
    "add": case_add,
    "lut": case_lut,
}


def run_both(lp):
    from nnaccel.sim.rtl_runner import run_words_rtl
    out_isa, res = lp.run()
    nbytes = int(np.prod(lp.output_shape)) * np.dtype(lp.output_dtype).itemsize
    rtl = run_words_rtl(lp.config, lp.words, lp.image, read=[(lp.output_addr, nbytes)])
    out_rtl = np.frombuffer(rtl.regions[0], lp.output_dtype).reshape(lp.output_shape)
    return out_isa, res, out_rtl, rtl


@pytest.mark.parametrize("config", ["tiny", pytest.param("small", marks=pytest.mark.slow)])
@pytest.mark.parametrize("case", list(CASES))
def test_program_matches_isa_sim_and_golden(config, case):
    lp, ref = CASES[case](config, np.random.default_rng(list(CASES).index(case)))
    out_isa, res, out_rtl, rtl = run_both(lp)
    assert rtl.fault == "OK"
    assert (out_rtl == out_isa).all()
    if ref is not None:
        assert (out_rtl == ref).all()
    print(f"{config} {case}: RTL {rtl.cycles} cycles, ISA sim {res.cycles} cycles, "
          f"Verilator {rtl.cycles_per_second:.3g} cycles/s")
    # cycle-exact: every performance counter equal (tolerance 0)
    assert rtl.counters == res.counters


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
}


@pytest.mark.parametrize("name", list(ERRORS))
def test_fault_stops_with_error_code_and_pc(name):
    from nnaccel.sim.rtl_runner import run_words_rtl
    words = ERRORS[name]()
    want = isa_fault(WINDOW, words)
    rtl = run_words_rtl(WINDOW, words, max_cycles=100_000)
    assert (rtl.fault, rtl.fault_pc) == (want.fault, want.pc)
    assert rtl.fault != "OK"


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


def test_bench_gemm_rtl_backend(tmp_path, capsys):
    """``nnaccel bench gemm --backend rtl``: bit-exact, and the RTL's cycles are the ISA simulator's."""
    from nnaccel.cli import main
    out = tmp_path / "gemm.json"
    assert main(["bench", "gemm", "--config", "tiny", "--size", "12", "--backend", "rtl", "--json", str(out)]) == 0
    import json
    r = json.loads(out.read_text())
    assert r["backend"] == "rtl" and r["bit_exact"]
    assert r["cycles"] == r["counters"]["isa_cycles"] == r["isa_cycles"]
    assert r["sim_cycles_per_second"] > 0
