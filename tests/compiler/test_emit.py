"""The token discipline of compiler/emit.py: any sequence of layers and stages gives a program the
ISA simulator schedules without deadlock, with every load batch running at most one stage ahead of
compute (double buffering) and barriers separating layers."""

from __future__ import annotations

import pytest
from nnaccel.compiler.emit import Ins, ProgramBuilder, nop
from nnaccel.sim.isasim import decode_program, schedule

from nnaccel.hwconfig import load_config
from nnaccel.isa import decode


def _stage(k: int):
    load = Ins("LOAD", {"sp": "ACT", "len": 4, "sp_addr": 0, "ext_addr": 0, "x_size": 2, "y_size": 1,
                        "x_stride": 4, "y_stride": 0}, f"load {k}")
    comp = Ins("VEC", {"func": "CLAMP", "dst": 8, "src": 0, "param": 0, "nx": 2, "ny": 1, "dst_xs": 1, "src_xs": 1},
               f"compute {k}")
    store = Ins("STORE", {"sp": "ACT", "len": 4, "sp_addr": 8, "ext_addr": 64, "x_size": 2, "y_size": 1,
                          "x_stride": 4, "y_stride": 0}, f"store {k}")
    return [load], [comp], [store]


@pytest.mark.parametrize("layers", [[1], [2], [5], [1, 1], [3, 0, 4], [7, 2, 1, 6]])
def test_programs_schedule_without_deadlock(layers):
    b = ProgramBuilder()
    for n, stages in enumerate(layers):
        b.layer(n)
        for k in range(stages):
            b.stage(*_stage(k))
    ins = b.finish()
    words = [i.word() for i in ins]
    cfg = load_config("tiny")
    sch = schedule(decode_program(words, cfg), cfg)
    assert sch.total_cycles > 0
    # every pop has a matching push on each channel
    assert all(b.popped[c] <= b.pushed[c] for c in b.pushed)
    # a load of stage s >= 2 of a layer never starts before the compute of stage s - 2 ended
    loads = [i for i, x in enumerate(ins) if x.name == "LOAD"]
    comps = [i for i, x in enumerate(ins) if x.name == "VEC"]
    first = 0
    for stages in layers:
        for s in range(2, stages):
            assert sch.start[loads[first + s]] >= sch.end[comps[first + s - 2]]
        first += stages


def test_empty_batches_become_nops_carrying_tokens():
    b = ProgramBuilder()
    b.layer("x")
    b.stage([], [], [])
    ins = b.finish()
    assert [(i.name, i.fields.get("queue")) for i in ins[:3]] == [("NOP", "load"), ("NOP", "compute"),
                                                                   ("NOP", "store")]
    assert decode(ins[1].word()).fields["pop_prev"] == 1
    assert nop("store").queue == "store"
