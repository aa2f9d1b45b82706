"""VEC parameters as the ISA counts them (``VecFunc.bits``: only the low bits of narrowed
parameters, as a signed value; ``VecFunc.per_tensor``: only lane 0's value; DIV's shift
``30 + ((s - 30) & 31)``), with extreme arithmetic (full-range accumulators and multipliers, shifts
-32 .. 31, INT32_MIN * INT32_MIN): the RTL equals the ISA simulator (bytes and every counter), and
the simulator's result with garbage in the bits and lanes that do not count equals its result
with clean parameters (the rules hold)."""

import numpy as np
import pytest
from nnaccel.sim.isasim import IsaSim, find_conflicts
from support.vec_programs import load_vec_operands

from nnaccel.hwconfig import load_config
from nnaccel.isa.table import VEC_BY_NAME
from nnaccel.program import ProgramBuilder, param_block

pytestmark = pytest.mark.rtl

#: The functions run; ``REQ/round``: REQ with the instruction's ``round`` = 1 (single rounding).
FUNCS = ("REQ", "REQ/round", "ADDQ", "SUBQ", "MULQ", "DIV", "CLAMP")
I32 = (-2**31, 2**31)


def _params(rng, func, C):
    """(clean, garbage) parameter blocks [P, C] of ``func``."""
    func = func.split("/")[0]
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
        name, _, mode = f.partition("/")
        vf = VEC_BY_NAME[name]
        p.vec(name, 2 * n + k * n, 0, n, src2=b_line if vf.binary else 0, param=int(off[k]), signed=k % 2 == 1,
              round=int(mode == "round"), pop_prev=int(k == 0), push_next=int(k == len(FUNCS) - 1))
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
#: small (the pipelined lane, ``vector_pipeline`` 1), also with the product in 1 or 2 cycles on
#: 4 or 2 lanes (whose per-element parameters rotate between the lane groups), and on a lane per
#: column as base's (one lane group a line: MULQ / ADDQ / SUBQ's batches span lines). The 5 lines
#: make batches (``vector_groups_in_flight``) of every kind: a short last one of 1 (small), 4
#: (mul1-lanes4) and 5 groups (mul1-lanes8), and whole ones only (mul2-lanes2).
SMALL_CONFIGS = {
    "small": {},
    "small-mul1-lanes4": {"vector_mul_steps": 1, "vector_lanes": 4},
    "small-mul2-lanes2": {"vector_mul_steps": 2, "vector_lanes": 2},
    "small-mul1-lanes8": {"vector_mul_steps": 1, "vector_lanes": 8},
}


#: the configurations whose Verilator builds the default suite makes (each other one is a build
#: of its own, minutes of a 2-core machine): the others run in the slow tier, which CI runs too
#: (``-m ci_slow``)
DEFAULT_CONFIGS = ("tiny", "tiny-serial")
CI_SLOW = [pytest.mark.slow, pytest.mark.ci_slow]


@pytest.mark.parametrize("config", [*(c if c in DEFAULT_CONFIGS else pytest.param(c, marks=CI_SLOW) for c in CONFIGS),
                                    *(pytest.param(c, marks=pytest.mark.slow) for c in SMALL_CONFIGS)])
def test_vec_parameters_count_as_the_isa_says(config):
    from nnaccel.sim.rtl_runner import run_words_rtl
    if config in SMALL_CONFIGS:
        cfg = load_config("small").replace(name=config, **SMALL_CONFIGS[config])
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


#: In order (tiny) the vector engine writes each lane group's results into the destination line as
#: they land and holds its source lines as read once a line: configurations with each lane shape
#: (and the LUT's late results), then small (queues: a line buffer).
INPLACE_CONFIGS = {"tiny": {}, "tiny-serial-lanes2": {"vector_mul_steps": 32, "vector_lanes": 2},
                   "tiny-mul1": {"vector_mul_steps": 1}}


@pytest.mark.parametrize("config", [*INPLACE_CONFIGS, pytest.param("small", marks=pytest.mark.slow)])
def test_vec_in_place(config):
    """VEC functions that overwrite their own operands (``dst == src``, ``dst == src2``, SUMW's
    accumulated destination, a destination one line behind its source) over a 2-D walk: the RTL
    equals the ISA simulator (which reads every operand before it writes), bytes and counters,
    and no bank reads a line in the cycle it is written (``run_words_rtl`` checks)."""
    from nnaccel.sim.rtl_runner import run_words_rtl
    cfg = load_config("small") if config == "small" else load_config("tiny").replace(name=config,
                                                                                        **INPLACE_CONFIGS[config])
    C, nx, ny = cfg.cols, 3, 2
    n = nx * ny + 1
    rng = np.random.default_rng(5)
    funcs = ("ADDQ", "SUBQ", "MULQ", "CLAMP", "BIAS", "LUT")
    blocks = {f: _params(rng, f, C)[0] for f in funcs if f != "LUT"}
    blocks["CLAMP"][:, :] = [[rng.integers(-100, 0)], [rng.integers(0, 100)]]
    blocks["LUT"] = rng.integers(-2**31, 2**31, (VEC_BY_NAME["LUT"].param_lines(C), C)).astype(np.int32)
    params = np.concatenate([blocks[f] for f in funcs])
    off = dict(zip(funcs, np.cumsum([0] + [blocks[f].shape[0] for f in funcs]).tolist()))
    p = ProgramBuilder(cfg)
    b = load_vec_operands(p, cfg, n, params.shape[0])
    walk = {"nx": nx, "ny": ny, "dst_ys": nx, "src_ys": nx}
    p.vec("ADDQ", 0, 0, src2=b, param=off["ADDQ"], signed=True, pop_prev=1, **walk)     # dst == src
    p.vec("SUBQ", b, 0, src2=b, param=off["SUBQ"], **walk)                             # dst == src2
    p.vec("MULQ", 0, 0, src2=b, param=off["MULQ"], signed=True, **walk)
    p.vec("MAX", 0, 1, src2=b + 1, **walk)                        # dst one line behind src
    p.vec("CLAMP", b, b, param=off["CLAMP"], signed=True, **walk)
    p.vec("LUT", 0, 0, param=off["LUT"], **walk)
    p.vec("BIAS", 0, 0, param=off["BIAS"], **walk)                                      # ACC in place
    p.vec("SUMW", 0, b, accumulate=True, **walk)                  # reads its ACC destination
    p.vec("SUMW", 1, 0, nx - 1, 2, src_ys=1, dst_ys=0, dst_xs=0, accumulate=False, push_next=1)
    p.store_lines("ACT", 0, 0x8000, n, C, C, pop_prev=1)
    p.store_lines("ACT", b, 0x8000 + n * C, n, C, C)
    p.store_lines("ACC", 0, 0x9000, n, 4 * C, C)
    p.finish()
    words = p.words
    assert not find_conflicts(words, cfg)
    image = _image(rng, C, n, params)
    image[0x2000] = rng.integers(-2**20, 2**20, (n, C)).astype(np.int32)
    top = 0x9000 + 4 * n * C
    sim = IsaSim(cfg, mem_size=top + 4096)
    for a, d in image.items():
        sim.write(a, d)
    res = sim.run(words)
    want = [sim.mem[0x8000:0x8000 + 2 * n * C].tobytes(), sim.mem[0x9000:top].tobytes()]
    assert want[0] != bytes(image[0x0].tobytes() + image[0x1000].tobytes())
    rtl = run_words_rtl(cfg, words, image, read=[(0x8000, 2 * n * C), (0x9000, 4 * n * C)])
    assert rtl.fault == "OK"
    assert list(rtl.regions) == want
    assert rtl.counters == res.counters


def _tflite_req(acc, mult, shift, single):
    """TFLite's requantization of int ``acc`` by ``(mult, shift)`` written out here on Python ints:
    SRDHM then the rounding division by ``2**-shift`` (half away from zero), or (``single``) the
    product divided once by ``2**(31 - shift)``, rounded half away from zero (shift <= 0 here)."""
    p = acc * mult
    if single:
        n = 31 - shift
        return (1 if p >= 0 else -1) * ((abs(p) + (1 << (n - 1))) >> n)
    nudge = (1 << 30) if p >= 0 else 1 - (1 << 30)
    x = int((p + nudge) / (1 << 31))        # SRDHM truncates toward zero
    r = -shift
    if r == 0:
        return x
    mask = (1 << r) - 1
    rem, thr = x & mask, (mask >> 1) + (x < 0)
    return (x >> r) + (rem > thr)


@pytest.mark.slow
@pytest.mark.parametrize("config", ["small", "small-mul1-lanes8"])
def test_req_rounds_ties_as_tflite(config):
    """REQ on the pipelined lane with a multiplier of one half and right shifts 0 .. 7 on small
    accumulators of both signs: most results are ties or one off them, which the rounding division
    (and single rounding, ``round`` = 1) must break away from zero. The RTL's bytes equal the ISA
    simulator's and TFLite's formulas computed here; every counter equal."""
    from nnaccel.sim.rtl_runner import run_words_rtl
    cfg = load_config("small").replace(name=config, **SMALL_CONFIGS[config])
    C, n = cfg.cols, 6
    shifts = [-(k % 8) for k in range(C)]
    block = param_block(cfg, "REQ", bias=0, mult=1 << 30, shift=shifts, zo=0, lo=-128, hi=127)
    acc = np.arange(-(n * C) // 2, (n * C) // 2).reshape(n, C) * 3 + np.arange(C) % 2
    acc = acc.astype(np.int32)
    p = ProgramBuilder(cfg)
    load_vec_operands(p, cfg, n, block.shape[0])
    p.vec("REQ", 2 * n, 0, n, param=0, signed=True, pop_prev=1)
    p.vec("REQ", 3 * n, 0, n, param=0, signed=True, round=1, push_next=1)
    p.store_lines("ACT", 2 * n, 0x8000, 2 * n, C, C, pop_prev=1)
    p.finish()
    assert not find_conflicts(p.words, cfg)
    image = {0x0: np.zeros((n, C), np.uint8), 0x1000: np.zeros((n, C), np.uint8), 0x2000: acc, 0x4000: block}
    nbytes = 2 * n * C
    got_isa, res = _isa(cfg, p.words, image, nbytes)
    want = np.array([[[min(127, max(-128, _tflite_req(int(acc[i, j]), 1 << 30, shifts[j], single)))
                       for j in range(C)] for i in range(n)] for single in (False, True)], np.int8)
    assert np.frombuffer(got_isa, np.int8).reshape(2, n, C).tolist() == want.tolist()
    rtl = run_words_rtl(cfg, p.words, image, read=[(0x8000, nbytes)])
    assert rtl.fault == "OK"
    assert rtl.regions[0] == got_isa
    assert rtl.counters == res.counters
