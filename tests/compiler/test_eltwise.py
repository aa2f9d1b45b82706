"""Line-wise ADD / SUB / MUL (``compiler/lower/eltwise.py``): tensors of many ACT lines (more
than one buffer region, a tail line shorter than ``cols``) are bit-exact with the golden model and
free of conflicts under the exact schedule, with stages that run one at a time (two ACT banks)
or overlapped (four); overlapped, a large ADD takes little more than its VECs' own cycles (the
ISA's VEC timing), which a whole buffer region per stage does not reach."""

from __future__ import annotations

import numpy as np
import pytest
from support.one_op import isa_checked

from nnaccel.hwconfig import PRESETS
from nnaccel.isa.cycles import instruction_cycles
from nnaccel.isa.table import VEC_BY_NAME
from nnaccel.model import ModelBuilder, OperandType

T = OperandType


def binary_model(kind: str, shape: tuple):
    """A one-op int8 ``kind`` (ADD / SUB / MUL) of two inputs of ``shape``, no fused activation."""
    q = T.TENSOR_QUANT8_ASYMM_SIGNED
    b = ModelBuilder(kind.lower())
    x = b.add_operand(q, shape, 0.05, 3)
    y = b.add_operand(q, shape, 0.08, -7)
    z = b.add_operand(q, shape, 0.1 if kind != "MUL" else 0.02, 1)
    b.add_operation(kind, [x, y, b.add_constant(T.INT32, 0)], [z])
    b.identify_inputs_and_outputs([x, y], [z])
    return b.finish()


def run_checked(model, inputs, preset):
    """The report and the decoded program of ``model``, run checked on the ISA simulator (one
    accelerated operation)."""
    _, report, program = isa_checked(model, inputs, preset)
    return report, program


@pytest.mark.parametrize("preset", ["small", "base"])
@pytest.mark.parametrize("kind, shape", [("ADD", (1, 32, 32, 16)), ("SUB", (1, 17, 13, 24)),
                                         ("MUL", (1, 9, 11, 7)), ("ADD", (1, 56, 56, 24))])
def test_line_wise_binary_ops_bit_exact(preset, kind, shape):
    rng = np.random.default_rng(sum(shape))
    inputs = [rng.integers(-128, 128, shape).astype(np.int8) for _ in range(2)]
    run_checked(binary_model(kind, shape), inputs, preset)


def test_large_add_overlaps_its_stages_on_base():
    shape = (1, 32, 32, 16)
    cfg = PRESETS["base"]
    rng = np.random.default_rng(1)
    inputs = [rng.integers(-128, 128, shape).astype(np.int8) for _ in range(2)]
    report, program = run_checked(binary_model("ADD", shape), inputs, "base")
    lines = int(np.prod(shape)) // cfg.cols
    vecs = [d for d in program if d.name == "VEC"]
    assert sum(d.nx * d.ny for d in vecs) == lines
    # the vector queue's floor: its VECs back to back, each with its own start, parameter lines and
    # lane latency (the ISA's VEC cycles)
    vec_floor = sum(instruction_cycles(d, cfg) for d in vecs)
    assert vec_floor >= VEC_BY_NAME["ADDQ"].lines_cycles(cfg, lines)
    assert len(vecs) > 4, "the ADD ran in a few large stages"
    # the VECs back to back plus at most a quarter for the first stage's loads and the last store
    # (a whole buffer region per stage first waits for 2 x 511 loaded lines, and its VEC is not
    # overlapped with the STORE: over half more)
    assert report["total"]["cycles"] <= 1.25 * vec_floor, (report["total"]["cycles"], vec_floor)
