"""The whole MobileNet V2 (224 x 224, int8, random per-channel weights) through the compiler: one
accelerator segment with only the SOFTMAX on the host, both outputs bit-exact with the golden model
on the ISA simulator, compiled within the compile-time budget (``benchmarks/bench_mobilenet_v2.py``
measures it)."""

from __future__ import annotations

import time

import numpy as np
import pytest
from nnaccel.compiler.compile import compile_model
from nnaccel.compiler.reference_models import MOBILENET_V2_STAGES, mobilenet_v2
from nnaccel.firmware.runtime import Runtime

from nnaccel.golden.interpreter import run_model
from nnaccel.macs import useful_macs

#: CPU seconds for compiling MobileNet V2 for base: the issue's goal is 2 s (the benchmark measures
#: it); above this bound is a regression on any machine of CI's class, not noise
COMPILE_BUDGET_S = 3.0


def test_mobilenet_v2_shape():
    m = mobilenet_v2(224)
    ops = [op.type for op in m.main.operations]
    blocks = sum(n for _, _, n, _ in MOBILENET_V2_STAGES)
    assert blocks == 17
    assert ops.count("DEPTHWISE_CONV_2D") == blocks
    # stem + 16 expansions (the first block has none) + 17 projections + the 1x1 to 1,280
    assert ops.count("CONV_2D") == 1 + 16 + 17 + 1
    assert ops.count("ADD") == 10
    # the published network's 300 M multiply-adds (a count from its shapes, independent of our tables)
    assert sum(useful_macs(m.main, op) for op in m.main.operations) == pytest.approx(300e6, rel=0.01)
    with pytest.raises(ValueError, match="multiple of 32"):
        mobilenet_v2(100)


def test_mobilenet_v2_on_base_is_exact():
    model = mobilenet_v2(224)
    c0 = time.process_time()
    pkg = compile_model(model, "base")
    cpu = time.process_time() - c0
    assert len(pkg.manifest["segments"]) == 1
    assert [o["type"] for o in pkg.manifest["host_ops"]] == ["SOFTMAX"]
    x = np.random.default_rng(3).integers(-128, 128, (1, 224, 224, 3)).astype(np.int8)
    outs, rep = Runtime(pkg).run([x], "isa")
    want = run_model(model, [x])
    assert len(outs) == 2
    for got, exp in zip(outs, want):
        np.testing.assert_array_equal(got, exp)
    assert np.unique(want[0]).size > 100          # the logits are not saturated to a constant
    assert rep["total"]["useful_macs"] == sum(useful_macs(model.main, op) for op in model.main.operations)
    assert cpu <= COMPILE_BUDGET_S, f"compiling MobileNet V2 took {cpu:.2f} s CPU"
