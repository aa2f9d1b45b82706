"""The token discipline of compiler/emit.py: any sequence of layers and stages gives a program the
ISA simulator schedules without deadlock, with every load batch running at most one stage ahead of
compute (double buffering) and barriers separating layers."""

from __future__ import annotations

import pytest
from nnaccel.compiler.emit import L2C, Ins, ProgramBuilder, nop, token
from nnaccel.sim.isasim import decode_program, schedule

from nnaccel.hwconfig import load_config
from nnaccel.isa import decode


def _schedule(ins, queues: bool = False):
    """The instruction words of an emitted program and their schedule on ``tiny`` (in order), or
    with ``queues`` on tiny with its queues (engines that run at once)."""
    words = [i.word() for i in ins]
    cfg = load_config("tiny").replace(name="tiny-queues", in_order=False) if queues else load_config("tiny")
    return words, schedule(decode_program(words, cfg), cfg)


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
    _, sch = _schedule(ins)
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
    # load -> compute (forward) -> vector -> compute (release) ... -> store
    assert [(i.name, i.fields.get("queue")) for i in ins[:5]] == [
        ("NOP", "load"), ("NOP", "compute"), ("NOP", "vector"), ("NOP", "compute"), ("NOP", "store")]
    fwd, vec, rel, st = (decode(ins[k].word()).fields for k in (1, 2, 3, 4))
    assert fwd["pop_prev"] == 1 and fwd["push_next"] == 1
    assert vec["pop_prev"] == 1 and vec["push_next"] == 1 and vec["push_prev"] == 1
    assert rel["pop_next"] == 1 and rel["push_prev"] == 1
    assert st["pop_prev"] == 1 and st["push_prev"] == 1
    assert nop("store").queue == "store"


#: Results in the last ACT bank of ``tiny`` (the GEMM / LOAD side never shares its ports).
STAGING = load_config("tiny").lines("ACT") - load_config("tiny").bank_lines("ACT")


def _gemm_stage(k: int):
    load = Ins("LOAD", {"sp": "ACT", "len": 4, "sp_addr": 4 * (k % 2), "ext_addr": 0, "x_size": 4, "y_size": 1,
                        "x_stride": 4, "y_stride": 0}, f"load {k}")
    gemm = Ins("GEMM", {"act": 4 * (k % 2), "acc": 0, "wgt": 0, "preload": 1, "nx": 4, "ny": 1, "act_xs": 1,
                        "acc_xs": 1}, f"gemm {k}")
    req = Ins("VEC", {"func": "REQ", "dst": STAGING + 4 * (k % 2), "src": 0, "param": 0, "nx": 4, "ny": 1, "dst_xs": 1,
                      "src_xs": 1}, f"req {k}")
    store = Ins("STORE", {"sp": "ACT", "len": 4, "sp_addr": STAGING + 4 * (k % 2), "ext_addr": 64, "x_size": 4,
                          "y_size": 1, "x_stride": 4, "y_stride": 0}, f"store {k}")
    return [load], [gemm, req], [store]


@pytest.mark.parametrize("n", [1, 2, 6])
def test_gemm_stages_order_the_shared_accumulators(n):
    """GEMM and VEC run on different queues: the REQ of a stage waits for its GEMM, the next
    stage's GEMM (same accumulator lines) for that REQ; the program has no race."""
    from nnaccel.sim.isasim import find_conflicts
    b = ProgramBuilder()
    b.layer(0)
    for k in range(n):
        b.stage(*_gemm_stage(k))
    b.layer(1)
    b.stage(*_stage(0))
    ins = b.finish()
    words, sch = _schedule(ins, queues=True)
    g = [i for i, x in enumerate(ins) if x.name == "GEMM"]
    r = [i for i, x in enumerate(ins) if x.name == "VEC" and x.fields["func"] == "REQ"]
    for k in range(n):
        assert sch.start[r[k]] >= sch.end[g[k]]
        if k + 1 < n:
            assert sch.start[g[k + 1]] >= sch.end[r[k]]
    assert find_conflicts(words, "tiny") == []
    assert all(b.popped[c] <= b.pushed[c] for c in b.pushed)


def test_requantization_overlaps_gemms_on_other_accumulators():
    """Steps alternating between two accumulator tiles: the GEMM of step k + 1 does not wait for
    the REQ of step k (other lines) but the GEMM of step k + 2 waits for it (same lines); no race."""
    from nnaccel.sim.isasim import find_conflicts
    load = Ins("LOAD", {"sp": "ACT", "len": 4, "sp_addr": 0, "ext_addr": 0, "x_size": 64, "y_size": 1,
                        "x_stride": 4, "y_stride": 0}, "load")
    computes, stores = [], []
    for k in range(4):
        acc = 64 * (k % 2)
        computes.append(Ins("GEMM", {"act": 0, "acc": acc, "wgt": 0, "preload": 1, "nx": 64, "ny": 1,
                                     "act_xs": 1, "acc_xs": 1}, f"gemm {k}"))
        computes.append(Ins("VEC", {"func": "REQ", "dst": STAGING + 64 * k, "src": acc, "param": 0, "nx": 64, "ny": 1,
                                    "dst_xs": 1, "src_xs": 1}, f"req {k}"))
        stores.append(Ins("STORE", {"sp": "ACT", "len": 4, "sp_addr": STAGING + 64 * k, "ext_addr": 1024 + 256 * k,
                                    "x_size": 64, "y_size": 1, "x_stride": 4, "y_stride": 0}, f"store {k}"))
    b = ProgramBuilder()
    b.layer(0)
    b.stage([load], computes, stores)
    ins = b.finish()
    words, sch = _schedule(ins, queues=True)
    g = [i for i, x in enumerate(ins) if x.name == "GEMM"]
    r = [i for i, x in enumerate(ins) if x.name == "VEC"]
    for k in range(3):
        assert sch.start[g[k + 1]] < sch.end[r[k]]  # concurrent
    for k in range(2):
        assert sch.start[g[k + 2]] >= sch.end[r[k]]
    assert find_conflicts(words, "tiny") == []


def test_serial_stages_do_not_overlap():
    """``serial`` stages (buffers sharing banks): each stage's loads start after the previous
    stage's stores ended."""
    b = ProgramBuilder(load_config("tiny"))
    b.layer(0)
    for k in range(4):
        b.stage(*_stage(k), True)
    b.layer(1)
    b.stage(*_stage(0))
    ins = b.finish()
    _, sch = _schedule(ins)
    loads = [i for i, x in enumerate(ins) if x.name == "LOAD"]
    stores = [i for i, x in enumerate(ins) if x.name == "STORE"]
    for k in range(1, 5):
        assert sch.start[loads[k]] >= sch.end[stores[k - 1]]
    assert all(b.popped[c] <= b.pushed[c] for c in b.pushed)


def _two_store_layer_then_load(reads_ext: int):
    """A layer of two stages (the first stores ACT lines to external byte 64, the second a long
    box to byte 1024), then a pass whose first LOAD reads 8 bytes at ``reads_ext``, on ``base``
    (a load and a store engine)."""
    cfg = load_config("base")
    b = ProgramBuilder(cfg)
    b.layer("first")
    for k, (ext, lines) in enumerate([(64, 2), (1024, 64)]):
        load = Ins("LOAD", {"sp": "ACT", "len": 4, "sp_addr": 100 * k, "ext_addr": 0, "x_size": lines,
                            "y_size": 1, "x_stride": 4, "y_stride": 0}, f"load {k}")
        comp = Ins("VEC", {"func": "CLAMP", "dst": 100 * k + 300, "src": 100 * k, "param": 0, "nx": lines, "ny": 1,
                           "dst_xs": 1, "src_xs": 1}, f"compute {k}")
        store = Ins("STORE", {"sp": "ACT", "len": 4, "sp_addr": 100 * k + 300, "ext_addr": ext, "x_size": lines,
                              "y_size": 1, "x_stride": 4, "y_stride": 0}, f"store {k}")
        b.stage([load], [comp], [store])
    b.layer("second")
    first = Ins("LOAD", {"sp": "ACT", "len": 4, "sp_addr": 600, "ext_addr": reads_ext, "x_size": 2, "y_size": 1,
                         "x_stride": 4, "y_stride": 0}, "the next pass's input")
    use = nop("compute", "read it")
    token(first, L2C, "push")
    token(use, L2C, "pop")
    b.raw([first, use])
    ins = b.finish()
    words = [i.word() for i in ins]
    sch = schedule(decode_program(words, cfg), cfg)
    at = {i.comment: k for k, i in enumerate(ins)}
    return ins, sch, at


def test_first_input_load_waits_only_for_the_stores_it_reads():
    # it reads the first store's bytes only: it runs while the second, long store still drains
    ins, sch, at = _two_store_layer_then_load(64)
    load = next(k for k, i in enumerate(ins) if i.name == "LOAD" and i.comment == "the next pass's input")
    assert sch.start[load] >= sch.end[at["store 0"]]
    assert sch.start[load] < sch.end[at["store 1"]]
    # it reads the second store's bytes: it waits for the whole barrier
    ins, sch, at = _two_store_layer_then_load(1024)
    load = next(k for k, i in enumerate(ins) if i.name == "LOAD" and i.comment == "the next pass's input")
    assert sch.start[load] >= sch.end[at["store 1"]]


def _stage_reading(reads_ext: int):
    """Layer ``a`` stores ACT lines to external byte 64, layer ``b`` a long box to byte 1024, then
    layer ``c``'s first stage LOADs 8 bytes at ``reads_ext``, on ``base``."""
    cfg = load_config("base")
    b = ProgramBuilder(cfg)
    for name, ext, lines in (("a", 64, 2), ("b", 1024, 64)):
        b.layer(name)
        load = Ins("LOAD", {"sp": "ACT", "len": 4, "sp_addr": 0, "ext_addr": 0, "x_size": lines, "y_size": 1,
                            "x_stride": 4, "y_stride": 0}, f"load {name}")
        comp = Ins("VEC", {"func": "CLAMP", "dst": 300, "src": 0, "param": 0, "nx": lines, "ny": 1,
                           "dst_xs": 1, "src_xs": 1}, f"compute {name}")
        store = Ins("STORE", {"sp": "ACT", "len": 4, "sp_addr": 300, "ext_addr": ext, "x_size": lines,
                              "y_size": 1, "x_stride": 4, "y_stride": 0}, f"store {name}")
        b.stage([load], [comp], [store])
    b.layer("c")
    first = Ins("LOAD", {"sp": "ACT", "len": 4, "sp_addr": 1600, "ext_addr": reads_ext, "x_size": 2, "y_size": 1,
                         "x_stride": 4, "y_stride": 0}, "c's input")
    comp = Ins("VEC", {"func": "CLAMP", "dst": 1700, "src": 1600, "param": 0, "nx": 2, "ny": 1,
                       "dst_xs": 1, "src_xs": 1}, "compute c")
    b.stage([first], [comp], [])
    ins = b.finish()
    words = [i.word() for i in ins]
    sch = schedule(decode_program(words, cfg), cfg)
    return sch, {i.comment: k for k, i in enumerate(ins)}


def test_stage_loads_wait_only_for_the_last_layers_stores():
    """A stage's leading LOAD that reads bytes an older layer stored (its barrier has drained
    them) needs nothing of the layer before it: it loads while that layer's store still runs; one
    that reads that layer's bytes waits for the barrier after it."""
    sch, at = _stage_reading(64)
    assert sch.start[at["c's input"]] >= sch.end[at["store a"]]
    assert sch.start[at["c's input"]] < sch.end[at["store b"]]
    sch, at = _stage_reading(1024)
    assert sch.start[at["c's input"]] >= sch.end[at["store b"]]
