"""Vector unit lanes against nnaccel.quant (Amaranth simulation + hypothesis; Verilator slice)."""

import numpy as np
import pytest
from amaranth.sim import Simulator
from hypothesis import given, settings
from hypothesis import strategies as st
from nnaccel.hw.vector import REQUANT_LATENCY, LookupLane, RequantLane, lookup_model, requant_model

from nnaccel import quant

I32 = st.integers(-2**31, 2**31 - 1)


def run_requant(cases):
    """Streams ``cases`` (acc, bias, mult, shift, zp, qmin, qmax) one per cycle; returns outputs."""
    dut = RequantLane()
    got = []

    async def bench(ctx):
        n = len(cases)
        for cycle in range(n + REQUANT_LATENCY + 1):
            if cycle < n:
                acc, bias, mult, shift, zp, qmin, qmax = cases[cycle]
                for sig, v in ((dut.acc, acc), (dut.bias, bias), (dut.multiplier, mult), (dut.shift, shift),
                               (dut.out_zp, zp), (dut.qmin, qmin), (dut.qmax, qmax)):
                    ctx.set(sig, v)
                ctx.set(dut.i_valid, 1)
            else:
                ctx.set(dut.i_valid, 0)
            await ctx.tick()
            if ctx.get(dut.o_valid):
                got.append((cycle + 1, ctx.get(dut.out)))

    sim = Simulator(dut)
    sim.add_clock(1e-6)
    sim.add_testbench(bench)
    sim.run()
    assert [c for c, _ in got] == [REQUANT_LATENCY + k for k in range(len(cases))]
    return [v for _, v in got]


def model(cases):
    a = np.array(cases, np.int64).T
    return requant_model(*a).tolist()


def test_requant_edges():
    cases = []
    for mult in (quant.INT32_MIN, quant.INT32_MAX, 1 << 30, 1518500250, 0):
        for shift in (-31, -8, -1, 0, 1, 12, 31):
            for acc in (quant.INT32_MIN, -12345, -1, 0, 1, 7, 2**31 - 1):
                cases.append((acc, 0, mult, shift, 0, -512, 511))
    cases += [(quant.INT32_MIN, 0, quant.INT32_MIN, 0, 0, -512, 511),  # SRDHM saturation
              (100, -300, 1 << 30, -1, 3, -128, 127), (-3, 0, 1 << 30, -1, 0, -128, 127),
              (2**31 - 1, 1, 1 << 30, 0, 0, -128, 127)]  # bias add wraps
    assert run_requant(cases) == model(cases)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.tuples(I32, I32, st.integers(1 << 30, 2**31 - 1), st.integers(-31, 8),
                          st.integers(-128, 255), st.integers(-128, 0), st.integers(0, 255)),
                min_size=1, max_size=24))
def test_requant_matches_golden(cases):
    assert run_requant(cases) == model(cases)


def test_requant_real_scales():
    """Multipliers and shifts from quantize_multiplier on real layer scales, int8 output."""
    rng = np.random.default_rng(0)
    cases = []
    for real in (0.0003, 0.0071, 0.49, 0.5, 0.9999, 1.7, 3.0):
        mult, shift = quant.quantize_multiplier(real)
        for acc in rng.integers(-200000, 200000, 12):
            cases.append((int(acc), int(rng.integers(-5000, 5000)), mult, shift, -3, -128, 127))
    assert run_requant(cases) == model(cases)


def test_lookup_lane():
    rng = np.random.default_rng(2)
    table = rng.integers(0, 256, 256)
    xs = rng.integers(-128, 128, 40)
    dut = LookupLane()
    got = []

    async def bench(ctx):
        for i, v in enumerate(table):
            ctx.set(dut.t_we, 1)
            ctx.set(dut.t_addr, i)
            ctx.set(dut.t_data, int(v))
            await ctx.tick()
        ctx.set(dut.t_we, 0)
        ctx.set(dut.signed_in, 1)
        for x in xs:
            ctx.set(dut.x, int(x) & 0xFF)
            ctx.set(dut.i_valid, 1)
            await ctx.tick()
            assert ctx.get(dut.o_valid)
            got.append(ctx.get(dut.out))

    sim = Simulator(dut)
    sim.add_clock(1e-6)
    sim.add_testbench(bench)
    sim.run()
    assert got == lookup_model(table, xs, True).tolist()


@pytest.mark.rtl
def test_requant_verilator():
    from nnaccel.sim import rtl_runner
    rtl = rtl_runner.build(rtl_runner.to_verilog(RequantLane(), "requant"), "requant")
    rng = np.random.default_rng(9)
    n = 2000
    mults, shifts = quant.quantize_multipliers(rng.uniform(1e-4, 4.0, n))
    cases = np.stack([rng.integers(-2**31, 2**31, n), rng.integers(-2**20, 2**20, n), mults, shifts,
                      rng.integers(-128, 128, n), np.full(n, -128), np.full(n, 127)], axis=1).tolist()
    res = rtl_runner.run(rtl, "nnaccel.sim.tb.cocotb_requant", {"cases": cases})
    assert res["out"] == model(cases)


@pytest.mark.parametrize("steps", [1, 2, 4])
def test_mbqm_halves_match_golden(steps):
    """The vector engine's fixed-point multiply (:func:`nnaccel.hw.vecengine.mbqm`: left shift, one
    32x32 product, SRDHM, rounding shift; what each accelerator lane is built from, ADDQ / SUBQ
    use it three times) equals ``quant.multiply_by_quantized_multiplier``, with the product formed
    in one cycle or over ``steps`` (``vector_mul_steps``: sign-magnitude pieces accumulated; the
    64-bit ``ab`` is checked too, against Python's exact product: plus SRDHM's nudge 2**30, which
    the product's accumulator adds, for mbqm; exact for DIV, whose ``out`` is the floor of
    ``ab / 2**(30 + k)``)."""
    from amaranth.hdl import Module, Signal, signed
    from nnaccel.hw.vecengine import mbqm
    m = Module()
    x = Signal(signed(40))
    mult = Signal(signed(32))
    shift = Signal(signed(6))             # the ISA counts a shift's low 6 bits (VecFunc.bits)
    phase = Signal(2)
    en = Signal()
    div = Signal()
    single = Signal()
    k = Signal(5)
    ab, out = mbqm(m, x, mult, shift, div, k, name="mbqm", steps=steps, phase=phase, en=en,
                   nudge=~div & ~single, single=single)
    seen = Signal()
    m.d.sync += seen.eq(en)               # a clock domain even when the product has no register
    rng = np.random.default_rng(9)
    cases = [(int(a), int(mm), int(s)) for a, mm, s in zip(rng.integers(-2**33, 2**33, 300),
                                                           rng.integers(-2**31, 2**31, 300),
                                                           rng.integers(-31, 32, 300))]
    cases += [(quant.INT32_MIN, quant.INT32_MIN, 0), (2**31 - 1, quant.INT32_MAX, -31), (-1, 1 << 30, -1),
              (2**32 + 5, 1 << 30, 3),   # inputs beyond int32 wrap first (ADDQ's x1 + x2)
              (quant.INT32_MIN, quant.INT32_MAX, 0), (quant.INT32_MAX, quant.INT32_MIN, 0),
              (quant.INT32_MIN, -1, 0), (-1, quant.INT32_MIN, -5), (0, quant.INT32_MIN, 0),
              (quant.INT32_MIN, 0, 0), (-65536, 65535, 0), (65535, -65536, 7), (-1, -1, 0)]
    ks = [int(v) for v in rng.integers(0, 32, len(cases))]
    got, got_ab, got_div, got_div_ab, got_single = [], [], [], [], []

    async def bench(ctx):
        for (a, mm, s), kk in zip(cases, ks):
            for d in (0, 1, 2):           # mbqm, DIV's product and shift (e = 0), single rounding
                ctx.set(x, a)
                ctx.set(mult, mm)
                ctx.set(shift, 0 if d == 1 else s)
                ctx.set(div, d == 1)
                ctx.set(single, d == 2)
                ctx.set(k, kk)
                ctx.set(en, 1)
                for p in range(steps):    # the pieces, one a cycle; the result in the last
                    ctx.set(phase, p)
                    if p == steps - 1 and d == 2:
                        got_single.append(ctx.get(out))
                    elif p == steps - 1:
                        (got_div if d else got).append(ctx.get(out))
                        (got_div_ab if d else got_ab).append(ctx.get(ab))
                    await ctx.tick()
                ctx.set(en, 0)            # a cycle without en must not disturb the next product
                ctx.set(phase, 1)
                await ctx.tick()

    sim = Simulator(m)
    sim.add_clock(1e-6)
    sim.add_testbench(bench)
    sim.run()
    xs = quant.wrap_int32(np.array([c[0] for c in cases], np.int64))
    want = [int(quant.multiply_by_quantized_multiplier(np.int64(v), mm, s)) for v, (_, mm, s) in zip(xs, cases)]
    assert got == want
    want_ab = [int(quant.wrap_int32(np.int64(int(v) << max(s, 0)))) * mm for v, (_, mm, s) in zip(xs, cases)]
    assert got_ab == [p + (1 << 30) for p in want_ab]
    want_div = [int(v) * mm for v, (_, mm, _) in zip(xs, cases)]
    assert got_div_ab == want_div
    assert got_div == [p >> (30 + kk) for p, kk in zip(want_div, ks)]
    # single rounding: x * m * 2**(s - 31) rounded half away from zero, in exact integers
    exact = [int(quant.wrap_int32(np.int64(int(v) << max(s, 0)))) * mm for v, (_, mm, s) in zip(xs, cases)]
    den = [1 << (31 + max(-s, 0)) for _, _, s in cases]
    assert got_single == [(1 if p >= 0 else -1) * ((2 * abs(p) + d) // (2 * d)) for p, d in zip(exact, den)]
    assert got_single == [int(quant.single_rounding_multiply(np.int64(v), mm, s)) for v, (_, mm, s) in zip(xs, cases)]


def test_serial_mbqm_matches_golden():
    """The bit-serial lane's fixed-point multiply (:func:`nnaccel.hw.vecengine.serial_mbqm`,
    ``vector_mul_steps`` = 32: shift-and-add product, one multiplier bit a cycle, then one-bit
    shifts and a rounding addition over ``mul_step_cycles(32)`` cycles) equals
    ``quant.multiply_by_quantized_multiplier`` for every shift -32 .. 31 (SRDHM's saturation
    included), and in its exact mode Python's floored ``(x * m) >> (30 + k)`` (DIV) and the exact
    product of MULQ's pre-scaled zero-point differences."""
    from amaranth.hdl import Module, Signal, signed
    from nnaccel.hw.vecengine import serial_mbqm

    from nnaccel.isa.table import SERIAL_MUL_STEPS, mul_step_cycles
    T = mul_step_cycles(SERIAL_MUL_STEPS)
    m = Module()
    x = Signal(signed(32))
    mult = Signal(signed(32))
    shift = Signal(signed(6))
    srdhm = Signal()
    single = Signal()
    k = Signal(5)
    phase = Signal(range(T))
    en = Signal()
    out = serial_mbqm(m, x, mult, shift, srdhm, k, phase, en, name="smbqm", single=single)
    rng = np.random.default_rng(12)
    n = 120
    cases = [(int(a), int(mm), int(s)) for a, mm, s in zip(rng.integers(-2**31, 2**31, n),
                                                           rng.integers(-2**31, 2**31, n),
                                                           rng.integers(-32, 32, n))]
    edge = (quant.INT32_MIN, quant.INT32_MAX, 0, 1, -1, 1 << 30)
    cases += [(a, b, s) for a in edge for b in edge for s in (-32, -31, -1, 0, 1, 31)
              if rng.random() < 0.3 or (a == b == quant.INT32_MIN)]
    ks = [int(v) for v in rng.integers(0, 32, len(cases))]
    muls = [(int(a), int(b)) for a, b in zip(rng.integers(-383, 512, 20), rng.integers(-383, 512, 20))]
    muls += [(-383, -383), (511, 511), (-383, 511), (0, 5)]
    jobs = ([(a, mm, s, 1, 0, 0) for a, mm, s in cases] + [(a, mm, 0, 0, kk, 0) for (a, mm, _), kk in zip(cases, ks)]
            + [(a << 20, b << 10, 0, 0, 0, 0) for a, b in muls] + [(a, mm, s, 0, 0, 1) for a, mm, s in cases])
    got = []

    async def bench(ctx):
        for a, mm, s, srd, kk, sg in jobs:
            for sig, v in ((x, a), (mult, mm), (shift, s), (srdhm, srd), (k, kk), (single, sg)):
                ctx.set(sig, v)
            for p in range(T):
                ctx.set(phase, p)
                ctx.set(en, 1)
                if p == T - 1:
                    got.append(ctx.get(out))
                await ctx.tick()
            ctx.set(en, 0)                # a cycle without en must not disturb the next step
            ctx.set(phase, 40)
            await ctx.tick()

    sim = Simulator(m)
    sim.add_clock(1e-6)
    sim.add_testbench(bench)
    sim.run()
    want = [int(quant.multiply_by_quantized_multiplier(np.int64(a), mm, s)) for a, mm, s in cases]
    want += [(a * mm) >> (30 + kk) for (a, mm, _), kk in zip(cases, ks)]
    want += [a * b for a, b in muls]
    exact = [int(quant.wrap_int32(np.int64(a << max(s, 0)))) * mm for a, mm, s in cases]
    den = [1 << (31 + max(-s, 0)) for _, _, s in cases]
    want += [(1 if p >= 0 else -1) * ((2 * abs(p) + d) // (2 * d)) for p, d in zip(exact, den)]
    assert got == want
