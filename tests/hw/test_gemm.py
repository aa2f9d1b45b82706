"""The GEMM engine (``hw/gemm.py``'s ``GemmEngine``) alone against NumPy and the ISA's cycle model,
and with the vector engine's walks on the RTL, against the ISA simulator (bytes and every counter).

On the in-order core the GEMM's drain is a flag and its line counters' ends are equalities, the
VEC's parameter phase an equality: GEMMs and VECs at the edges of each rule (K tiles 1 .. 4,
one-line and empty GEMMs and VECs, RDPERF after them), the simulator's first GEMM also checked by
hand. Its GEMM and VEC instructions share their walks and line counters (the same registers):
GEMM / VEC programs back to back with 2-D strided walks."""

import random

import numpy as np
import pytest
from nnaccel.sim.isasim import IsaSim, find_conflicts
from support.rtl_check import run_isa_and_rtl

from nnaccel.hwconfig import load_config
from nnaccel.isa import N_COUNTERS, decode, encode
from nnaccel.isa.cycles import instruction_cycles, static_events
from nnaccel.program import ProgramBuilder

TINY = load_config("tiny")


_run = run_isa_and_rtl


def _gemm_program(cfg):
    R, C = cfg.rows, cfg.cols
    p = ProgramBuilder(cfg)
    b2 = cfg.bank_lines("ACT")                    # MAX's second source: the other ACT bank
    p.load_lines("ACT", 0, 0x0, 64, C, C)
    p.load_lines("ACT", b2, 0x1400, 32, C, C)
    p.load_lines("WGT", 0, 0x400, 8 * R, C, C)
    p.load_lines("ACC", 0, 0x800, 64, 4 * C, C)
    p.load_lines("VEC", 0, 0xC00, 6, 4 * C, C, push_next=1)          # REQ's parameters
    p.gemm(0, 0, 1, 1, wgt=0, preload=True, kt=0, pop_prev=1)                 # one line, one tile
    p.gemm(4, 4, 3, 1, wgt=R, preload=True, kt=3, act_xs=1, act_ys=3, acc_xs=1)   # 4 tiles
    p.gemm(20, 10, 1, 3, wgt=0, preload=True, kt=1, act_ys=1, acc_ys=1, accumulate=True)
    p.gemm(0, 20, 2, 2, kt=0, accumulate=True, act_xs=1, act_ys=2, acc_xs=1, acc_ys=2)  # no preload
    p.gemm(0, 30, 0, 2, wgt=0, preload=True, kt=1)                             # empty: nx = 0
    p.gemm(0, 30, 2, 0, kt=0)                                                  # empty: ny = 0
    p.gemm(40, 32, 5, 2, wgt=2 * R, preload=True, kt=2, act_xs=1, act_ys=5, acc_xs=1, acc_ys=5,
           za=7, zw=250, act_signed=True)
    p.vec("MAX", 100, 0, 1, 1, src2=b2 + 10)                                   # one line
    p.vec("MAX", 101, 0, 0, 3, src2=b2 + 10)                                   # empty
    p.vec("MAX", 102, 3, 3, 2, src2=b2 + 20, dst_xs=1, dst_ys=3, src_xs=2, src_ys=7)
    p.vec("SUMW", 50, 0, 2, 3, accumulate=True, dst_xs=1, dst_ys=2, src_xs=1, src_ys=4)
    p.vec("SUMW", 60, 0, 3, 0)                                                 # empty
    p.vec("REQ", 110, 0, 2, 2, param=0, dst_xs=1, dst_ys=2, src_xs=1, src_ys=2, push_next=1)
    out = [(0x2000, 64 * 4 * C), (0x3000, 128 * C), (0x3800, 8 * N_COUNTERS)]
    p.store_lines("ACC", 0, out[0][0], 64, 4 * C, C, pop_prev=1)
    p.store_lines("ACT", 0, out[1][0], 128, C, C)
    p.rdperf(out[2][0])
    p.finish()
    return p.words, out


@pytest.mark.rtl
def test_gemm_and_vec_edges_match_isa_sim():
    cfg = TINY
    R, C = cfg.rows, cfg.cols
    rng = np.random.default_rng(5)
    words, out = _gemm_program(cfg)
    image = {0x0: rng.integers(0, 256, (64, C)).astype(np.uint8),
             0x400: rng.integers(0, 256, (8 * R, C)).astype(np.uint8),
             0x800: rng.integers(-2**20, 2**20, (64, C)).astype(np.int32),
             0x1400: rng.integers(0, 256, (32, C)).astype(np.uint8),
             0xC00: rng.integers(-2**31, 2**31, (6, C)).astype(np.int32)}
    want = _run(cfg, words, image, out, 0x4000)
    # the simulator's first GEMM by hand: ACC line 0 = act line 0 (uint8) @ the first weight tile
    # (uint8, rows x cols) without accumulation
    acc = np.frombuffer(want[0], "<i4").reshape(64, C)
    a = image[0x0][0].astype(np.int64)
    w = image[0x400][:R].astype(np.int64)
    assert (acc[0] == a @ w).all()


def _walks_program(cfg, rng):
    """GEMMs and VECs back to back with 2-D strided walks (each kind's x / y / row registers are
    the other's on the in-order core), K tiles (the ACC walk wraps), loads in between."""
    R, C = cfg.rows, cfg.cols
    b2 = cfg.bank_lines("ACT")
    p = ProgramBuilder(cfg)
    p.load_lines("ACT", 0, 0x0, 96, C, C)
    p.load_lines("ACT", b2, 0x1000, 64, C, C)
    p.load_lines("WGT", 0, 0x2000, 4 * R, C, C)
    p.load_lines("ACC", 0, 0x3000, 64, 4 * C, C, push_next=1)
    p.gemm(2, 1, 3, 2, wgt=0, preload=True, kt=1, accumulate=True, za=3, zw=250, act_signed=True,
           act_xs=2, act_ys=7, acc_xs=2, acc_ys=9, pop_prev=1)
    p.vec("MAX", 40, 1, 3, 2, src2=b2 + 5, dst_xs=3, dst_ys=11, src_xs=2, src_ys=9)
    p.vec("SUMW", 30, 3, 2, 3, accumulate=True, dst_xs=1, dst_ys=5, src_xs=3, src_ys=13)
    p.gemm(50, 20, 4, 1, wgt=R, preload=True, kt=2, act_xs=1, act_ys=5, acc_xs=3, acc_ys=1)
    p.gemm(1, 44, 1, 3, kt=0, accumulate=True, act_xs=0, act_ys=4, acc_xs=1, acc_ys=2)
    p.vec("SUMW", 56, b2 + 7, 3, 2, dst_xs=2, dst_ys=1, src_xs=5, src_ys=1)
    p.vec("MAX", b2 + 30, 60, 2, 2, src2=b2 + 40, dst_xs=1, dst_ys=2, src_xs=4, src_ys=3, push_next=1)
    p.store_lines("ACC", 0, 0x8000, 64, 4 * C, C, pop_prev=1)
    p.store_lines("ACT", 0, 0x9000, 96, C, C)
    p.store_lines("ACT", b2, 0xA000, 64, C, C)
    p.finish()
    image = {0x0: rng.integers(0, 256, (96, C)).astype(np.uint8),
             0x1000: rng.integers(0, 256, (64, C)).astype(np.uint8),
             0x2000: rng.integers(0, 256, (4 * R, C)).astype(np.uint8),
             0x3000: rng.integers(-2**31, 2**31, (64, C)).astype(np.int32)}
    read = [(0x8000, 64 * 4 * C), (0x9000, 96 * C), (0xA000, 64 * C)]
    return p.words, image, read


@pytest.mark.rtl
@pytest.mark.parametrize("config", ["tiny", *(pytest.param(c, marks=[pytest.mark.slow, pytest.mark.ci_slow])
                                              for c in ("tiny-serial-lanes2", "tiny-mul1"))])
def test_shared_walks_match_isa_sim(config):
    """The in-order core's GEMM and VEC share their walks (the GEMM's activation walk is the
    VEC's destination walk, its ACC walk the VEC's source walk) and line counters: strided 2-D
    GEMMs (K tiles, accumulate) and VECs (ACT and ACC sources and destinations, two ACT banks)
    alternate; ACC and ACT bytes and every counter equal the ISA simulator's, and the program
    changed them."""
    from nnaccel.sim.rtl_runner import run_words_rtl
    over = {"tiny": {}, "tiny-serial-lanes2": {"vector_mul_steps": 32, "vector_lanes": 2},
            "tiny-mul1": {"vector_mul_steps": 1}}[config]
    cfg = load_config("tiny").replace(name=config, **over)
    assert cfg.in_order
    words, image, read = _walks_program(cfg, np.random.default_rng(7))
    assert not find_conflicts(words, cfg)
    sim = IsaSim(cfg, mem_size=0xB000)
    for a, d in image.items():
        sim.write(a, d)
    res = sim.run(words)
    want = [sim.mem[a:a + n].tobytes() for a, n in read]
    assert want[0] != image[0x3000].tobytes()
    rtl = run_words_rtl(cfg, words, image, read=read)
    assert rtl.fault == "OK"
    assert list(rtl.regions) == want
    assert rtl.counters == res.counters


# ------------------------------------------------------------------------------ the block alone
#: configurations of the block test: tiny (in order, one weight buffer, walks shared with the VEC),
#: tiny with the depthwise mode (one filter row), tiny queued, small (queued, two weight buffers,
#: DWCONV), small with one line buffer (DWCONVs of two filter rows) and base (three)
BLOCK_CONFIGS = [TINY, TINY.replace(name="tiny-dw", depthwise_mode=True),
                 TINY.replace(name="tiny-queued", in_order=False, dma_engines=1),
                 load_config("small"), load_config("small").replace(name="small-lb1", dw_line_buffers=1),
                 load_config("base")]


def _line_int(line, bits: int) -> int:
    """A scratchpad line (elements) as the port's bits: element 0 lowest."""
    return sum((int(v) % (1 << bits)) << (bits * e) for e, v in enumerate(line))


def _line_elems(value: int, n: int, bits: int) -> np.ndarray:
    """The port's bits as ``n`` signed elements."""
    v = [(value >> (bits * e)) & ((1 << bits) - 1) for e in range(n)]
    return np.array([x - (1 << bits) if x >> (bits - 1) else x for x in v], np.int64)


def _run_block(cfg, words, sp, seed=0):
    """``words`` one after another on a :class:`~nnaccel.hw.gemm.GemmEngine` alone, its sequencer
    modelled here (an idle cycle before each instruction: the in-order walks load their bases
    then) and the scratchpads ``sp`` (``{space: array of lines}``; ACC updated): a read returns
    its line one cycle after its address, a read the engine did not mark ``valid`` or that meets a
    write to its line returns random bits (the block RAM leaves it undefined). Returns each
    instruction's steps and its ``macs`` (in order the streamed lines times ``rows * cols``)."""
    from amaranth.sim import Simulator
    from nnaccel.hw.gemm import GemmEngine
    R, C = cfg.rows, cfg.cols
    dut = GemmEngine(cfg, 16)
    noise = random.Random(seed)
    reads = {"ACT": dut.rd_act, "WGT": dut.rd_wgt, "ACC": dut.rd_acc}
    bits = {"ACT": 8, "WGT": 8, "ACC": 32}
    out = []

    async def bench(ctx):
        pending = {}                    # space: the line read at the last clock edge (None: undefined)
        for word in words:
            ctx.set(dut.seq.word, word)
            ctx.set(dut.seq.active, 0)
            if cfg.in_order:
                ctx.set(dut.walks.idle, 1)
            await ctx.tick()
            pending = {}
            if cfg.in_order:
                ctx.set(dut.walks.idle, 0)
            step, streamed, macs = 0, 0, None
            released = False        # (the array overlap: the instruction ended, its results drain)
            while step < 5000:
                ctx.set(dut.seq.start, step == 0)
                ctx.set(dut.seq.active, int(not released))
                ctx.set(dut.seq.step, 0 if released else step)
                for c in dut.marks:
                    ctx.set(getattr(dut.seq, f"at_least_{c}"), step >= c)
                for s, port in reads.items():
                    line = pending.get(s)
                    ctx.set(port.data, _line_int(sp[s][line], bits[s]) if line is not None
                            else noise.getrandbits(len(port.data)))
                last = ctx.get(dut.seq.last) and not released
                ctx.set(dut.seq.complete, last)
                streamed += ctx.get(dut.streaming)
                write = (ctx.get(dut.wr_acc.addr), ctx.get(dut.wr_acc.data)) if ctx.get(dut.wr_acc.en) else None
                pending = {s: (ctx.get(p.addr) if ctx.get(p.valid) else None) for s, p in reads.items()}
                if write is not None and pending["ACC"] == write[0]:
                    pending["ACC"] = None
                done = last
                if dut.overlap:
                    done = ctx.get(dut.seq.done)
                    if done:
                        macs = ctx.get(dut.done_macs) if ctx.get(dut.arr_done) else ctx.get(dut.macs)
                elif last:
                    macs = ctx.get(dut.macs)
                await ctx.tick()
                if write is not None:
                    sp["ACC"][write[0]] = _line_elems(write[1], C, 32)
                if done:
                    break
                released = released or last
                step += 1
            out.append((step + 1, streamed * R * C if cfg.in_order else macs))
        ctx.set(dut.seq.active, 0)

    sim = Simulator(dut)
    sim.add_clock(1e-6)
    sim.add_testbench(bench)
    sim.run()
    return out


def _byte(v, signed):
    v = np.asarray(v, np.int64) & 0xFF
    return np.where(signed & (v >= 128), v - 256, v)


def _wrap32(v):
    return ((np.asarray(v, np.int64) + (1 << 31)) % (1 << 32)) - (1 << 31)


def _expected(cfg, d, sp, held):
    """The ACC lines of the GEMM / DWCONV ``d`` (decoded) per its ISA definition (docs/isa.md),
    computed here from the operands ``sp`` (ACC updated); ``held``: the weights the array holds
    (updated: a preload's last tile, a DWCONV's filter tile)."""
    R, C = cfg.rows, cfg.cols
    acc = sp["ACC"]
    if d.name == "GEMM":
        tiles = []
        for t in range(d.kt + 1):
            tiles.append(_byte(sp["WGT"][d.wgt + t * R:d.wgt + t * R + R], d.wgt_signed) - _byte(d.zw, d.wgt_signed)
                         if d.preload else held[0])
        sums = {}
        for t, wt in enumerate(tiles):
            for y in range(d.ny):
                for x in range(d.nx):
                    a = _byte(sp["ACT"][d.act + t * d.ny * d.act_ys + y * d.act_ys + x * d.act_xs][:R], d.act_signed)
                    line = d.acc + y * d.acc_ys + x * d.acc_xs
                    sums[line] = sums.get(line, 0) + (a - _byte(d.za, d.act_signed)) @ wt
        for line, s in sums.items():
            acc[line] = _wrap32((acc[line] if d.accumulate else 0) + s)
        if d.preload:
            held[0] = tiles[-1]
        return
    taps = d.fh * d.fw
    w = np.zeros((R, C), np.int64)
    w[:taps] = _byte(sp["WGT"][d.wgt:d.wgt + taps], d.wgt_signed) - _byte(d.zw, d.wgt_signed)
    held[0] = w
    new = {}
    # the window without its zero padding: H rows of L lines
    h, lw = d.ny + d.fh - 1 - d.pad_top - d.pad_bottom, d.nx + d.fw - 1 - d.pad_left - d.pad_right
    for oy in range(d.ny):
        for ox in range(d.nx):
            s = np.zeros(C, np.int64)
            for ky in range(d.fh):
                for kx in range(d.fw):
                    y, x = oy + ky - d.pad_top, ox + kx - d.pad_left
                    if not (0 <= y < h and 0 <= x < lw):
                        continue
                    a = _byte(sp["ACT"][d.act + y * d.act_ys + x], d.act_signed) - _byte(d.za, d.act_signed)
                    s += a * w[taps - 1 - (ky * d.fw + kx)]
            line = d.acc + oy * d.acc_ys + ox
            new[line] = _wrap32((acc[line] if d.accumulate else 0) + s)
    for line, v in new.items():
        acc[line] = v


def _block_words(cfg):
    """GEMMs at the edges of the K-tile and stream rules (one line, K tiles 1 .. 4, slots shorter
    and longer than ``rows``, held weights, accumulate, signed operands and zero points, strides,
    empty ones) and, with the depthwise mode, DWCONVs (every filter height it allows)."""
    R = cfg.rows
    g = [encode("GEMM", act=0, acc=0, nx=1, ny=1, wgt=0, preload=1),
         encode("GEMM", act=4, acc=4, nx=3, ny=1, wgt=R, preload=1, kt=3, act_xs=1, act_ys=3, acc_xs=1),
         encode("GEMM", act=20, acc=10, nx=1, ny=3, wgt=0, preload=1, kt=1, act_ys=1, acc_ys=1, accumulate=1),
         encode("GEMM", act=0, acc=20, nx=2, ny=2, accumulate=1, act_xs=1, act_ys=2, acc_xs=1, acc_ys=2),
         encode("GEMM", act=0, acc=30, nx=0, ny=2, wgt=0, preload=1, kt=1),
         encode("GEMM", act=0, acc=30, nx=2, ny=0),
         encode("GEMM", act=40, acc=32, nx=5, ny=2, wgt=2 * R, preload=1, kt=2, act_xs=1, act_ys=5, acc_xs=1,
                acc_ys=5, za=7, zw=250, act_signed=1),
         encode("GEMM", act=3, acc=50, nx=3, ny=3, wgt=R, preload=1, kt=1, act_xs=2, act_ys=7, acc_xs=3,
                acc_ys=9, za=200, zw=3, wgt_signed=1, accumulate=1)]
    if cfg.depthwise_mode:
        for fh in range(1, cfg.dw_line_buffers + 2):
            fw = min(3, R // fh)
            g.append(encode("DWCONV", act=60, acc=80 + 20 * fh, wgt=2, nx=3, ny=2, fh=fh, fw=fw, act_ys=6, acc_ys=4,
                            za=5, zw=130, act_signed=fh % 2, wgt_signed=1, accumulate=fh == 2))
            # with zero padding: left and right (the stream ends pad_right lines into one more
            # row), top and bottom as the filter height allows
            pt, pb = (fh - 1) // 2, fh // 2 if fh > 1 else 0
            pb = min(pb, fh - 1 - pt)
            g.append(encode("DWCONV", act=70, acc=90 + 20 * fh, wgt=1, nx=4, ny=3, fh=fh, fw=fw, act_ys=5, acc_ys=4,
                            za=250, zw=3, act_signed=1, wgt_signed=fh % 2, pad_left=1, pad_right=fw - 2,
                            pad_top=pt, pad_bottom=pb))
            # its first line completes output (0, 0) (padding above and left of every other
            # tap): the filter tile is in place for the first line
            g.append(encode("DWCONV", act=75, acc=95 + 20 * fh, wgt=3, nx=3, ny=2, fh=fh, fw=2, act_ys=3, acc_ys=3,
                            za=9, zw=7, pad_left=1, pad_top=fh - 1))
        g.append(encode("GEMM", act=1, acc=120, nx=2, ny=1, act_xs=1, acc_xs=1))   # the DWCONV's filter, held
    return g


@pytest.mark.parametrize("cfg", BLOCK_CONFIGS, ids=lambda c: c.name)
def test_gemm_engine_alone(cfg):
    """The GEMM engine alone (:class:`~nnaccel.hw.gemm.GemmEngine` in Amaranth's simulator, its
    sequencer and scratchpads modelled in the test): each instruction's ACC lines equal the ISA's
    definition computed here with NumPy, it ends after the ISA's cycles
    (``nnaccel.isa.cycles.instruction_cycles``) and counts its MACs (``static_events``)."""
    C = cfg.cols
    rng = np.random.default_rng(11)
    sp = {"ACT": rng.integers(0, 256, (cfg.lines("ACT"), C)), "WGT": rng.integers(0, 256, (cfg.lines("WGT"), C)),
          "ACC": rng.integers(-2**31, 2**31, (cfg.lines("ACC"), C))}
    want = {s: v.copy() for s, v in sp.items()}
    before = sp["ACC"].copy()
    words = _block_words(cfg)
    held = [None]
    cycles = []
    for word in words:
        d = decode(word)
        _expected(cfg, d, want, held)
        cycles.append((instruction_cycles(d, cfg), static_events(d, cfg)["macs"]))
    got = _run_block(cfg, words, sp)
    assert got == cycles
    np.testing.assert_array_equal(sp["ACC"], want["ACC"])
    assert (sp["ACC"] != before).any(axis=1).sum() >= 20       # the instructions wrote their lines
