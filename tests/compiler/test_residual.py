"""Residual ADDs run in the output tiles of the convolution that computes one of their operands
(``compile.fuse_residuals``): on configurations with three or more ACT banks the ADD is no layer
of its own, the outputs stay bit-exact with the golden model (the runtime's check compares every
operation the package places in external memory, and the model's output against ``run_model``),
the programs are free of races and bank conflicts under the exact schedule (``find_conflicts``),
and the model takes fewer cycles than its compile with every ADD on its own
(``residuals=False``, compiled and run here)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from nnaccel.compiler.compile import compile_model, plan_model
from nnaccel.compiler.reference_models import _conv, mobilenet_block
from nnaccel.firmware.runtime import Runtime
from nnaccel.sim.isasim import find_conflicts

from nnaccel.golden.interpreter import run_model
from nnaccel.isa import bytes_to_words
from nnaccel.model import ModelBuilder, OperandType

T = OperandType


def resnet_block(projection: bool, seed: int = 0):
    """A ResNet basic block, int8: two 3x3 convolutions (RELU after the first), the shortcut
    (the input, or with ``projection`` a 1x1 stride-2 convolution after a stride-2 first
    convolution), ADD with RELU; the shortcut is the ADD's first operand."""
    rng = np.random.default_rng(seed)
    b = ModelBuilder("resnet_block" + ("_projection" if projection else ""))
    xq, hq, yq = (0.05, -3), (0.04, -128), (0.06, 4)
    c, o, hw = (16, 32, 16) if projection else (16, 16, 16)
    stride = 2 if projection else 1
    ohw = (hw // stride, hw // stride)
    x = b.add_operand(T.TENSOR_QUANT8_ASYMM_SIGNED, (1, hw, hw, c), *xq)
    h1 = _conv(b, rng, x, xq, c, o, 3, stride, ohw, hq, 1, True)
    h2 = _conv(b, rng, h1, hq, o, o, 3, 1, ohw, (0.07, -5), 0, True)
    skip = _conv(b, rng, x, xq, c, o, 1, 2, ohw, (0.03, 6), 0, True, pad=2) if projection else x
    y = b.add_operand(T.TENSOR_QUANT8_ASYMM_SIGNED, (1, *ohw, o), *yq)
    b.add_operation("ADD", [skip, h2, b.add_constant(T.INT32, 1)], [y])
    b.identify_inputs_and_outputs([x], [y])
    return b.finish()


MODELS = {"mobilenet_block": lambda: mobilenet_block(14, 14, 24),
          # (its 960-channel project layer takes the K-chunked pass)
          "mobilenet_block_wide": lambda: mobilenet_block(7, 7, 160),
          "resnet_identity": lambda: resnet_block(False), "resnet_projection": lambda: resnet_block(True)}


def _run(model, config, residuals: bool):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pkg = compile_model(model, config, residuals=residuals)
    x = np.random.default_rng(7).integers(-128, 128, model.main.operands[model.main.input_indexes[0]].dimensions)
    x = x.astype(np.int8)
    outs, rep = Runtime(pkg).run([x], "isa", check=True)
    assert np.array_equal(outs[0], run_model(model, [x])[0])
    for seg in pkg.manifest["segments"]:
        assert find_conflicts(bytes_to_words(pkg.segment_words(seg)), pkg.config()) == []
    layers = [lay["type"] for s in rep["segments"] for lay in s["layers"]]
    return rep["total"]["cycles"], layers


@pytest.mark.parametrize("name, config", [("mobilenet_block", "base"), ("mobilenet_block", "large"),
                                          ("mobilenet_block_wide", "base"), ("resnet_identity", "base"),
                                          ("resnet_projection", "base")])
def test_residual_add_runs_in_its_convolution_tiles(name, config):
    model = MODELS[name]()
    add = next(i for i, op in enumerate(model.main.operations) if op.type == "ADD")
    where = plan_model(model, config)[add]
    assert where.where == "accelerator" and "added per output tile of operation" in where.reason, where.reason
    fused, fused_layers = _run(model, config, True)
    plain, plain_layers = _run(model, config, False)
    assert "ADD" not in fused_layers and "ADD" in plain_layers
    assert fused < plain, (fused, plain)


@pytest.mark.parametrize("config", ["tiny", "small"])
def test_two_act_banks_keep_the_add_on_its_own(config):
    # the array's input, the other operand's tiles and the output tiles need three banks
    model = MODELS["resnet_identity"]()
    _, layers = _run(model, config, True)
    assert "ADD" in layers


@pytest.mark.rtl
@pytest.mark.parametrize("name", ["resnet_identity", pytest.param("mobilenet_block", marks=pytest.mark.slow)])
def test_fused_residual_on_rtl_equals_isa(name):
    """A fused residual's program on the RTL of small given four ACT banks and a lane per column
    (small's own two banks keep the ADD on its own, its one lane makes fusing slower): outputs
    bit-exact, every segment's counters (cycles included) equal to the ISA simulator's."""
    from support.one_op import isa_and_rtl

    from nnaccel.hwconfig import load_config

    cfg = load_config("small").replace(name="small-act4", act_banks=4, vector_lanes=8)
    model = MODELS[name]()
    add = next(i for i, op in enumerate(model.main.operations) if op.type == "ADD")
    assert "added per output tile of operation" in plan_model(model, cfg)[add].reason
    x = np.random.default_rng(7).integers(-128, 128, model.main.operands[model.main.input_indexes[0]].dimensions)
    pkg, _, isa, rtl = isa_and_rtl(model, cfg, [x.astype(np.int8)])
    assert "ADDQ" in pkg.listing and rtl["total"]["cycles"] == isa["total"]["cycles"] > 0
