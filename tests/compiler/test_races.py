"""Race check of generated programs: no two instructions that overlap in time (the ISA
simulator's exact schedule) may touch a common scratchpad line when one of them writes it.

The ISA simulator executes each instruction atomically at its start cycle, so a token protocol
that lets a LOAD overwrite a buffer a STORE is still draining would go unnoticed there but corrupt
data on the hardware; this test looks at the schedule instead."""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings
from nnaccel.compiler.compile import compile_model
from nnaccel.compiler.reference_models import REFERENCE_MODELS
from nnaccel.sim.isasim import decode_program, schedule

from nnaccel.isa import VEC_BY_CODE, bytes_to_words
from nnaccel.isa.table import SPACE_ENUM

from .test_differential import PRESETS, layers, other_ops


def _lines(base, nx, ny, xs, ys):
    return set((base + ys * np.arange(ny)[:, None] + xs * np.arange(nx)[None, :]).reshape(-1).tolist())


def footprint(d, cfg) -> tuple[dict, dict]:
    """``(reads, writes)``: scratchpad name -> set of lines."""
    r: dict = {}
    w: dict = {}

    def add(m, space, lines):
        m.setdefault(space, set()).update(lines)

    if d.name in ("LOAD", "STORE"):
        lines = set(range(d.sp_addr, d.sp_addr + d.x_size * d.y_size))
        add(w if d.name == "LOAD" else r, SPACE_ENUM[d.sp], lines)
    elif d.name == "GEMM":
        add(r, "ACT", _lines(d.act, d.nx, d.ny, d.act_xs, d.act_ys))
        if d.preload:
            add(r, "WGT", range(d.wgt, d.wgt + cfg.rows))
        acc = _lines(d.acc, d.nx, d.ny, d.acc_xs, d.acc_ys)
        add(w, "ACC", acc)
        if d.accumulate:
            add(r, "ACC", acc)
    elif d.name == "VEC":
        vf = VEC_BY_CODE[d.func]
        add(r, vf.src, _lines(d.src, d.nx, d.ny, d.src_xs, d.src_ys))
        if vf.binary:
            add(r, vf.src2, _lines(d.src2, d.nx, d.ny, d.dst_xs, d.dst_ys))
        dst = _lines(d.dst, d.nx, d.ny, d.dst_xs, d.dst_ys)
        add(w, vf.dst, dst)
        if vf.name == "SUMW" and d.accumulate:
            add(r, vf.dst, dst)
        if vf.params:
            add(r, "VEC", range(d.param, d.param + vf.param_lines(cfg.cols)))
    return r, w


def races(pkg) -> list[str]:
    cfg = pkg.config()
    found = []
    for seg in pkg.manifest["segments"]:
        decoded = decode_program(bytes_to_words(pkg.segment_words(seg)), cfg)
        sch = schedule(decoded, cfg)
        idx = [i for i, d in enumerate(decoded) if d.name in ("LOAD", "STORE", "GEMM", "VEC")]
        fp = {i: footprint(decoded[i], cfg) for i in idx}
        idx.sort(key=lambda i: sch.start[i])
        active: list[int] = []
        for i in idx:
            active = [j for j in active if sch.end[j] > sch.start[i]]
            ri, wi = fp[i]
            for j in active:
                rj, wj = fp[j]
                for space in set(wi) | set(wj):
                    clash = (wi.get(space, set()) & (rj.get(space, set()) | wj.get(space, set()))) | \
                            (wj.get(space, set()) & ri.get(space, set()))
                    if clash:
                        found.append(f"segment {seg['index']}: {decoded[j].name} #{j} and {decoded[i].name} #{i} "
                                     f"overlap in time on {space} lines {sorted(clash)[:4]}")
            active.append(i)
    return found


def test_reference_models_have_no_races():
    for name, build in REFERENCE_MODELS.items():
        for preset in PRESETS:
            assert races(compile_model(build(), preset)) == [], (name, preset)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(layers())
def test_random_layers_have_no_races(case):
    model, _, preset = case
    assert races(compile_model(model, preset)) == []


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(other_ops())
def test_random_other_ops_have_no_races(case):
    model, _, preset = case
    assert races(compile_model(model, preset)) == []
