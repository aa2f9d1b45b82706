"""VEC parameters as the ISA counts them (``VecFunc.bits``: only the low bits of narrowed
parameters, as a signed value; ``VecFunc.per_tensor``: only lane 0's value; DIV's shift
``30 + ((s - 30) & 31)``), with extreme arithmetic (full-range accumulators and multipliers, shifts
-32 .. 31, INT32_MIN * INT32_MIN): the RTL equals the ISA simulator (bytes and every counter), and
the simulator's result with garbage in the bits and lanes that do not count equals its result
with clean parameters (the rules hold)."""

import numpy as np
import pytest
from nnaccel.sim.isasim import IsaSim, find_conflicts

from nnaccel.hwconfig import load_config
from nnaccel.isa.table import VEC_BY_NAME
from nnaccel.program import ProgramBuilder

from .test_top import load_vec_operands

pytestmark = pytest.mark.rtl

FUNCS = ("REQ", "ADDQ", "SUBQ", "MULQ", "DIV", "CLAMP")
I32 = (-2**31, 2**31)


def _params(rng, func, C):
    """(clean, garbage) parameter blocks [P, C] of ``func``."""
    vf = VEC_BY_NAME[func]
    clean = np.zeros((len(vf.params), C), np.int64)
    for j, name in enumerate(vf.params):
        bits = vf.param_bits(name)
        if func == "DIV" and name == "s":
            v = rng.integers(30, 62, C)
        elif bits == 6:
            v = rng.integers(-32, 32, C)
        elif bits == 9:
            v = rng.integers(-256, 256, C)
        else:
            v = rng.integers(*I32, C)
            v[rng.random(C) < 0.25] = -2**31
        clean[j] = v
    if func == "REQ":                       # lane 0: INT32_MIN * INT32_MIN (SRDHM saturation)
        clean[:3, 0] = [0, -2**31, 0]
    garbage = clean.copy()
    for j, name in enumerate(vf.params):
        bits = vf.param_bits(name)
        if func == "DIV" and name == "s":
            garbage[j] += 32 * rng.integers(-3, 3, C)          # only (s - 30) & 31 counts
        elif bits < 32:
            garbage[j] += (1 << bits) * rng.integers(-2**(31 - bits), 2**(31 - bits) - 1, C)
        if name in vf.per_tensor:
            clean[j, 1:] = clean[j, 0]
            garbage[j, 1:] = rng.integers(*I32, C - 1)
    return clean.astype(np.int32), garbage.astype(np.int32)


def _program(cfg, blocks, n):
    C = cfg.cols
    params = np.concatenate([blocks[f] for f in FUNCS])
    off = np.cumsum([0] + [blocks[f].shape[0] for f in FUNCS])
    p = ProgramBuilder(cfg)
    b_line = load_vec_operands(p, cfg, n, params.shape[0])
    for k, f in enumerate(FUNCS):
        vf = VEC_BY_NAME[f]
        p.vec(f, 2 * n + k * n, 0, n, src2=b_line if vf.binary else 0, param=int(off[k]), signed=k % 2 == 1,
              pop_prev=int(k == 0), push_next=int(k == len(FUNCS) - 1))
    p.store_lines("ACT", 2 * n, 0x8000, len(FUNCS) * n, C, C, pop_prev=1)
    p.finish()
    assert not find_conflicts(p.words, cfg)
    return p.words, params


def _image(rng, C, n, params):
    a = rng.integers(0, 256, (n, C)).astype(np.uint8)
    b = rng.integers(0, 256, (n, C)).astype(np.uint8)
    acc = rng.integers(*I32, (n, C))
    acc[0, :2] = [-2**31, 2**31 - 1]
    acc[1, :] = rng.integers(-2**12, 2**12, C)
    return {0x0: a, 0x1000: b, 0x2000: acc.astype(np.int32), 0x4000: params}


def _isa(cfg, words, image, nbytes):
    top = max(a + np.asarray(d).nbytes for a, d in image.items())
    sim = IsaSim(cfg, mem_size=max(top, 0x8000 + nbytes) + 4096)
    for a, d in image.items():
        sim.write(a, d)
    res = sim.run(words)
    return sim.mem[0x8000:0x8000 + nbytes].tobytes(), res


#: The presets, and tiny with each ``vector_mul_steps`` (the lane's 32 x 32 product in 1, 2 or 4
#: cycles; 2 lanes with 2 steps; 32: the bit-serial lane, also with 2 lanes), since the RTL's
#: product and the VEC timing depend on it.
CONFIGS = {
    "tiny": {},
    "tiny-mul1": {"vector_mul_steps": 1},
    "tiny-mul2-lanes2": {"vector_mul_steps": 2, "vector_lanes": 2},
    "tiny-mul4": {"vector_mul_steps": 4},
    "tiny-serial": {"vector_mul_steps": 32},
    "tiny-serial-lanes2": {"vector_mul_steps": 32, "vector_lanes": 2},
}


@pytest.mark.parametrize("config", [*CONFIGS, pytest.param("small", marks=pytest.mark.slow)])
def test_vec_parameters_count_as_the_isa_says(config):
    from nnaccel.sim.rtl_runner import run_words_rtl
    if config == "small":
        cfg = load_config("small")
    else:
        cfg = load_config("tiny").replace(name=config, **CONFIGS[config])
    C, n = cfg.cols, 5
    rng = np.random.default_rng(11)
    pairs = {f: _params(rng, f, C) for f in FUNCS}
    words, clean = _program(cfg, {f: c for f, (c, _) in pairs.items()}, n)
    words_g, garbage = _program(cfg, {f: g for f, (_, g) in pairs.items()}, n)
    assert words == words_g and (clean != garbage).any()
    image = _image(rng, C, n, garbage)
    nbytes = len(FUNCS) * n * C
    want, _ = _isa(cfg, words, {**image, 0x4000: clean}, nbytes)
    got_isa, res = _isa(cfg, words, image, nbytes)
    assert got_isa == want                  # the ISA simulator ignores what does not count
    rtl = run_words_rtl(cfg, words, image, read=[(0x8000, nbytes)])
    assert rtl.fault == "OK"
    assert rtl.regions[0] == got_isa
    assert rtl.counters == res.counters
