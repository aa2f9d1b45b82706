"""PE and systolic array: Amaranth simulation against NumPy, and Verilator/cocotb against the model."""

import numpy as np
import pytest
from amaranth.sim import Simulator
from nnaccel.hw.array import SystolicArray, array_latency, array_model
from nnaccel.hw.pe import PE


@pytest.mark.parametrize("use_dsp", [True, False])
def test_pe_mac(use_dsp):
    dut = PE(use_dsp=use_dsp)
    rng = np.random.default_rng(1)
    cases = [(int(a), int(w), int(p)) for a, w, p in zip(rng.integers(-255, 256, 40),
                                                          rng.integers(-255, 256, 40),
                                                          rng.integers(-2**31, 2**31, 40))]
    cases += [(-255, -255, 2**31 - 1), (255, -255, -2**31), (-256, -256, 0)]

    async def bench(ctx):
        for a, w, p in cases:
            ctx.set(dut.w_in, w)
            ctx.set(dut.w_load, 1)
            await ctx.tick()
            ctx.set(dut.w_load, 0)
            ctx.set(dut.a_in, a)
            ctx.set(dut.ps_in, p)
            await ctx.tick()
            want = ((p + a * w + 2**31) % 2**32) - 2**31
            assert ctx.get(dut.ps_out) == want, (a, w, p)
            assert ctx.get(dut.a_out) == a

    sim = Simulator(dut)
    sim.add_clock(1e-6)
    sim.add_testbench(bench)
    sim.run()


def _drive_array(rows, cols, w, a_vectors, a_zp, w_zp, a_signed, w_signed, dsp_cells=None):
    dut = SystolicArray(rows, cols, dsp_cells=dsp_cells)
    got = []

    async def bench(ctx):
        ctx.set(dut.w_signed, w_signed)
        ctx.set(dut.w_zp, w_zp)
        ctx.set(dut.a_signed, a_signed)
        ctx.set(dut.a_zp, a_zp)
        for i in range(rows):
            ctx.set(dut.w_we, 1)
            ctx.set(dut.w_row, i)
            ctx.set(dut.w_data, [int(x) & 0xFF for x in w[i]])
            await ctx.tick()
        ctx.set(dut.w_we, 0)
        cycle = 0
        sent = []
        n = len(a_vectors)
        while len(got) < n:
            if cycle < n:
                ctx.set(dut.a_valid, 1)
                ctx.set(dut.a_data, [int(x) & 0xFF for x in a_vectors[cycle]])
                sent.append(cycle)
            else:
                ctx.set(dut.a_valid, 0)
            await ctx.tick()
            cycle += 1
            if ctx.get(dut.o_valid):
                got.append((cycle, [ctx.get(dut.o_data[j]) for j in range(cols)]))
            assert cycle < n + 4 * (rows + cols) + 10, "the array never produced all its outputs"

    sim = Simulator(dut)
    sim.add_clock(1e-6)
    sim.add_testbench(bench)
    sim.run()
    return dut, got


@pytest.mark.parametrize("rows,cols,a_signed,w_signed", [(4, 4, 1, 1), (3, 5, 0, 1), (4, 2, 0, 0)])
def test_array_matches_numpy(rows, cols, a_signed, w_signed):
    rng = np.random.default_rng(rows * 7 + cols)
    lo_a, hi_a = (-128, 128) if a_signed else (0, 256)
    lo_w, hi_w = (-128, 128) if w_signed else (0, 256)
    w = rng.integers(lo_w, hi_w, (rows, cols))
    a = rng.integers(lo_a, hi_a, (9, rows))
    a_zp = int(rng.integers(lo_a, hi_a))
    w_zp = 0 if w_signed else int(rng.integers(0, 256))
    dut, got = _drive_array(rows, cols, w, a, a_zp, w_zp, a_signed, w_signed, dsp_cells=rows * cols // 2)
    want = array_model(a, w, a_zp, w_zp)
    assert [g for _, g in got] == want.tolist()
    # fixed latency, one result per cycle
    assert [c for c, _ in got] == [array_latency(rows, cols) + k for k in range(len(a))]
    assert dut.latency == array_latency(rows, cols)


def test_array_extremes():
    rows = cols = 4
    w = np.full((rows, cols), -128)
    a = np.full((2, rows), -128)
    _, got = _drive_array(rows, cols, w, a, 127, 127, 1, 1)
    assert [g for _, g in got] == array_model(a, w, 127, 127).tolist() == [[4 * 255 * 255] * cols] * 2


@pytest.mark.rtl
@pytest.mark.parametrize("rows,cols", [(4, 4), pytest.param(8, 8, marks=pytest.mark.slow)])
def test_array_verilator(rows, cols):
    from nnaccel.sim import rtl_runner
    rtl = rtl_runner.build(rtl_runner.to_verilog(SystolicArray(rows, cols), "array"), "array")
    rng = np.random.default_rng(5)
    w = rng.integers(-128, 128, (rows, cols))
    a = rng.integers(0, 256, (64, rows))
    res = rtl_runner.run(rtl, "nnaccel.sim.tb.cocotb_array",
                         {"rows": rows, "cols": cols, "w": w.tolist(), "a": a.tolist(), "a_zp": 3,
                          "w_zp": -2, "a_signed": 0, "w_signed": 1})
    assert res["out"] == array_model(a, w, 3, -2).tolist()
    assert res["latency"] == array_latency(rows, cols)


def _drive_tiles(rows, cols, ws, tiles, a_zp, w_zp, a_signed, w_signed, b0=0):
    """The GEMM engine's K-tile schedule: tile 0's weights in ``rows`` cycles, then tile t's
    vectors stream through buffer ``b0 ^ (t & 1)`` for ``max(n, rows)`` cycles while tile t+1's
    weights are loaded into the other buffer, starting in the same cycle as tile t's first vector."""
    dut = SystolicArray(rows, cols, dsp_cells=rows * cols // 2)
    n = len(tiles[0])
    T = max(n, rows)
    sched = {}
    for r in range(rows):
        sched.setdefault(r, {})["w"] = (r, b0, ws[0][r])
    for t, a in enumerate(tiles):
        base = rows + t * T
        for x in range(n):
            sched.setdefault(base + x, {})["a"] = (b0 ^ (t & 1), a[x])
        if t + 1 < len(tiles):
            for r in range(rows):
                sched.setdefault(base + r, {})["w"] = (r, b0 ^ ((t + 1) & 1), ws[t + 1][r])
    end = rows + len(tiles) * T + rows + cols + 4
    got = []

    async def bench(ctx):
        ctx.set(dut.w_signed, w_signed)
        ctx.set(dut.w_zp, w_zp)
        ctx.set(dut.a_signed, a_signed)
        ctx.set(dut.a_zp, a_zp)
        for cyc in range(end):
            s = sched.get(cyc, {})
            if "w" in s:
                r, sel, data = s["w"]
                ctx.set(dut.w_we, 1)
                ctx.set(dut.w_row, r)
                ctx.set(dut.w_sel, sel)
                ctx.set(dut.w_data, [int(x) & 0xFF for x in data])
            else:
                ctx.set(dut.w_we, 0)
            if "a" in s:
                sel, data = s["a"]
                ctx.set(dut.a_valid, 1)
                ctx.set(dut.a_sel, sel)
                ctx.set(dut.a_data, [int(x) & 0xFF for x in data])
            else:
                ctx.set(dut.a_valid, 0)
            await ctx.tick()
            if ctx.get(dut.o_valid):
                got.append((cyc + 1, [ctx.get(dut.o_data[j]) for j in range(cols)]))

    sim = Simulator(dut)
    sim.add_clock(1e-6)
    sim.add_testbench(bench)
    sim.run()
    return got, T


@pytest.mark.parametrize("rows,cols,n,ntiles,b0", [(4, 4, 7, 3, 0), (4, 4, 4, 4, 1), (4, 2, 2, 3, 0),
                                                   (2, 4, 5, 2, 1), (8, 8, 8, 3, 0), (8, 8, 1, 3, 1)])
def test_array_double_buffered_tiles(rows, cols, n, ntiles, b0):
    """Tile t+1's weights load into the idle buffer while tile t streams (including ``n == rows``,
    where the next tile's first vector follows the last one of this tile in the next cycle):
    every result is the NumPy product of its own tile."""
    rng = np.random.default_rng(rows * 100 + n * 10 + ntiles)
    ws = [rng.integers(-128, 128, (rows, cols)) for _ in range(ntiles)]
    tiles = [rng.integers(0, 256, (n, rows)) for _ in range(ntiles)]
    got, T = _drive_tiles(rows, cols, ws, tiles, a_zp=17, w_zp=-5, a_signed=0, w_signed=1, b0=b0)
    want = [row for w, a in zip(ws, tiles) for row in array_model(a, w, 17, -5).tolist()]
    assert [g for _, g in got] == want
    lat = array_latency(rows, cols)
    assert [c for c, _ in got] == [rows + t * T + x + lat for t in range(ntiles) for x in range(n)]


def test_partial_sums_are_narrow_and_exact():
    """The array's partial sums are ceil(log2(rows * 255**2)) + 1 bits: the extreme sums still come
    out exact (sign-extended to 32 bits)."""
    import math

    from nnaccel.hw.pe import partial_sum_width
    for r in (2, 4, 8, 16, 32):
        assert partial_sum_width(r) == math.ceil(math.log2(r * 255 * 255)) + 1
    rows = cols = 8
    for av, wv, azp, wzp in [(-128, 127, 127, -128), (-128, -128, 127, 127), (255, 0, 0, 255)]:
        w = np.full((rows, cols), wv)
        a = np.full((2, rows), av)
        signed = int(av < 0 or wv < 0)
        _, got = _drive_array(rows, cols, w, a, azp, wzp, signed, signed)
        want = array_model(a, w, azp, wzp)
        assert abs(int(want[0, 0])) == rows * 255 * 255
        assert [g for _, g in got] == want.tolist()
