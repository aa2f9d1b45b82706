"""The host runtime: host fallback, IF / WHILE on the host around accelerator segments, the
bit-exact segment check, backends and input errors."""

from __future__ import annotations

import numpy as np
import pytest
from nnaccel.compiler.compile import compile_model
from nnaccel.compiler.reference_models import mobilenet_block
from nnaccel.firmware import runtime as rt

from nnaccel.errors import ExecutionError, InputError
from nnaccel.golden.interpreter import run_model
from nnaccel.model import ModelBuilder, OperandType

T = OperandType
Q = T.TENSOR_QUANT8_ASYMM_SIGNED


def _branch(act: str):
    b = ModelBuilder(act)
    x = b.add_operand(Q, (4, 8), 0.05, -10)
    y = b.add_operand(Q, (4, 8), 0.05, -10)
    b.add_operation(act, [x], [y])
    b.identify_inputs_and_outputs([x], [y])
    return b.finish().main


def if_model():
    """ADD (accelerator) -> IF(cond, RELU6 branch, RELU1 branch) -> ADD (accelerator)."""
    b = ModelBuilder("if_model")
    x = b.add_operand(Q, (4, 8), 0.05, -10)
    cond = b.add_operand(T.TENSOR_BOOL8, (1,))
    zero = b.add_constant(T.INT32, 0)
    a = b.add_operand(Q, (4, 8), 0.05, -10)
    b.add_operation("ADD", [x, x, zero], [a])
    then_i, else_i = b.add_subgraph_operand(_branch("RELU6")), b.add_subgraph_operand(_branch("RELU1"))
    c = b.add_operand(Q, (4, 8), 0.05, -10)
    b.add_operation("IF", [cond, then_i, else_i, a], [c])
    y = b.add_operand(Q, (4, 8), 0.1, 3)
    b.add_operation("ADD", [c, x, zero], [y])
    b.identify_inputs_and_outputs([x, cond], [y])
    return b.finish()


@pytest.mark.parametrize("flag", [True, False])
def test_if_runs_on_the_host_between_segments(flag):
    model = if_model()
    pkg = compile_model(model, "small")
    assert [s["operations"] for s in pkg.manifest["segments"]] == [[0], [2]]
    assert pkg.manifest["host_ops"][0]["type"] == "IF"
    x = np.random.default_rng(3).integers(-128, 128, (4, 8)).astype(np.int8)
    inputs = [x, np.array([flag])]
    outs, rep = rt.Runtime(pkg).run(inputs, "isa", check=True)
    np.testing.assert_array_equal(outs[0], run_model(model, inputs)[0])
    assert len(rep["segments"]) == 2


def test_run_on_backend_runs_packages_and_golden_models():
    model = mobilenet_block(4, 4, 4)
    x = np.random.default_rng(0).integers(-128, 128, (1, 4, 4, 4)).astype(np.int8)
    with pytest.raises(InputError, match="runs a compiled package, not a model"):
        rt.run_on_backend(model, [x], "isa", "tiny")
    out_isa, rep = rt.run_on_backend(compile_model(model, "tiny"), [x], "isa", "tiny")
    out_gold, grep = rt.run_on_backend(model, [x], "golden")
    np.testing.assert_array_equal(out_isa[0], out_gold[0])
    assert rep["config"] == "tiny" and rep["total"]["macs"] > 0
    assert grep["accelerator_ops"] == [] and len(grep["host_ops"]) == 4
    layers = rep["segments"][0]["layers"]
    assert [lay["type"] for lay in layers][:1] == ["CONV_2D"]
    assert all(lay["cycles"] > 0 for lay in layers)


def test_check_detects_a_wrong_accelerator_result(monkeypatch):
    model = mobilenet_block(4, 4, 4)
    pkg = compile_model(model, "tiny")
    real = rt.BACKENDS["isa"]

    def corrupt(cfg, program, memory, progress=None, max_cycles=None):
        mem, counters, sched = real(cfg, program, memory, progress, max_cycles)
        out = pkg.manifest["tensors"][str(model.main.output_indexes[0])]["addr"]
        mem[out] ^= 1
        return mem, counters, sched

    monkeypatch.setitem(rt.BACKENDS, "isa", corrupt)
    x = np.zeros((1, 4, 4, 4), np.int8)
    with pytest.raises(rt.MismatchError, match=r"^Accelerated operation 3 \(ADD\) differs from the golden model at "
                                               r"1 of 64 bytes"):
        rt.Runtime(pkg).run([x], "isa", check=True)


def test_a_backend_function_runs_segments_and_names_the_report():
    """A backend passed as a function (the board link's way) runs every segment, with the results
    of the ISA simulator it wraps, and no entry of BACKENDS is added."""
    model = mobilenet_block(4, 4, 4)
    pkg = compile_model(model, "tiny")
    calls = []

    def wrapped(cfg, program, memory, progress=None, max_cycles=None):
        calls.append(len(program))
        return rt.BACKENDS["isa"](cfg, program, memory, progress, max_cycles)

    x = np.arange(64, dtype=np.int8).reshape(1, 4, 4, 4)
    outs, rep = rt.Runtime(pkg).run([x], wrapped, name="mine")
    want, isa = rt.Runtime(pkg).run([x], "isa")
    assert len(calls) == len(pkg.manifest["segments"]) > 0
    assert rep["backend"] == "mine" and "mine" not in rt.BACKENDS
    np.testing.assert_array_equal(outs[0], want[0])
    assert [s["cycles"] for s in rep["segments"]] == [s["cycles"] for s in isa["segments"]]


def test_input_errors():
    pkg = compile_model(mobilenet_block(4, 4, 4), "tiny")
    r = rt.Runtime(pkg)
    with pytest.raises(InputError, match=r"^The model has 1 inputs but 2 were given\.$"):
        r.run([None, None], "isa")
    with pytest.raises(InputError, match=r"^Input 0 has shape \[1, 4, 4, 5\], but the model declares "):
        r.run([np.zeros((1, 4, 4, 5), np.int8)], "isa")
    with pytest.raises(InputError, match=r"^Unknown backend 'fpga'; choose one of golden, isa, rtl\.$"):
        r.run([np.zeros((1, 4, 4, 4), np.int8)], "fpga")
    with pytest.raises(ExecutionError, match=r"has no value when accelerator segment 0 starts"):
        r.run([None], "isa")


def test_rtl_backend_reports_when_unavailable(monkeypatch):
    import sys
    monkeypatch.setitem(sys.modules, "nnaccel.sim.rtl_runner", None)  # as if not installed
    pkg = compile_model(mobilenet_block(4, 4, 4), "tiny")
    with pytest.raises(rt.BackendUnavailable, match=r"^The rtl backend is not available \("):
        rt.Runtime(pkg).run([np.zeros((1, 4, 4, 4), np.int8)], "rtl")


@pytest.mark.slow
def test_rtl_backend_bit_exact_with_isa_cycles():
    """Verilator: the same package on the RTL gives the golden outputs and the ISA simulator's cycles."""
    model = mobilenet_block(4, 4, 4)
    pkg = compile_model(model, "tiny")
    x = np.random.default_rng(0).integers(-128, 128, (1, 4, 4, 4)).astype(np.int8)
    out_rtl, rep_rtl = rt.Runtime(pkg).run([x], "rtl", check=True)
    _out_isa, rep_isa = rt.Runtime(pkg).run([x], "isa")
    np.testing.assert_array_equal(out_rtl[0], run_model(model, [x])[0])
    assert rep_rtl["total"]["cycles"] == rep_isa["total"]["cycles"]


def test_segment_report_does_not_wrap():
    """A segment's reported cycles and MACs are the run's, unwrapped: with 8-bit counters (they
    wrap several times in this segment) the report equals that of the same machine with 64-bit
    counters, which never wrap, while the counters themselves are the 64-bit ones modulo 2 ** 8."""
    from nnaccel.hwconfig import load_config
    model = mobilenet_block(4, 4, 4)
    x = np.random.default_rng(0).integers(-128, 128, (1, 4, 4, 4)).astype(np.int8)
    wide = load_config("tiny").replace(name="tiny-c64", counter_bits=64)
    reps = {}
    for cfg in (wide, wide.replace(name="tiny-c8", counter_bits=8)):
        _out, reps[cfg.counter_bits] = rt.Runtime(compile_model(model, cfg)).run([x], "isa")
    (sw,), (sn,) = reps[64]["segments"], reps[8]["segments"]
    assert sw["counters"]["cycles"] > 256 and sw["counters"]["macs"] > 256     # it does wrap
    assert {k: v % 256 for k, v in sw["counters"].items() if k != "run_cycles"} == \
        {k: v for k, v in sn["counters"].items() if k != "run_cycles"}
    assert (sn["cycles"], sn["macs"]) == (sw["counters"]["cycles"], sw["counters"]["macs"])
    assert reps[8]["total"] == reps[64]["total"]
