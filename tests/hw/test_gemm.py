"""The GEMM engine (``hw/gemm.py``, the GEMM sections of ``hw/accel.py``) and the vector engine's
walks on the RTL, against the ISA simulator (bytes and every counter).

On the in-order core the GEMM's drain is a flag and its line counters' ends are equalities, the
VEC's parameter phase an equality: GEMMs and VECs at the edges of each rule (K tiles 1 .. 4,
one-line and empty GEMMs and VECs, RDPERF after them), the simulator's first GEMM also checked by
hand. Its GEMM and VEC instructions share their walks and line counters (the same registers):
GEMM / VEC programs back to back with 2-D strided walks."""

import numpy as np
import pytest
from nnaccel.sim.isasim import IsaSim, find_conflicts
from support.rtl_check import run_isa_and_rtl

from nnaccel.hwconfig import load_config
from nnaccel.isa import N_COUNTERS
from nnaccel.program import ProgramBuilder

pytestmark = pytest.mark.rtl

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


@pytest.mark.parametrize("config", ["tiny", "tiny-serial-lanes2", "tiny-mul1"])
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
