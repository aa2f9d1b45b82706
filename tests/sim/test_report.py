"""Issued and useful MACs in the per-layer report (``nnaccel.sim.report``) and the runtime's
``--report``: the useful figures against hand counts of the layers' multiply-adds."""

import json

import numpy as np
import pytest
from nnaccel.compiler.compile import compile_model
from nnaccel.compiler.reference_models import mobilenet_block, small_cnn
from nnaccel.firmware.runtime import Runtime
from nnaccel.sim.report import format_report, static_report

from nnaccel.cli import main
from nnaccel.isa import bytes_to_words, decode

#: mobilenet_block(6, 5, 4) on small: 1x1 4 -> 24, 3x3 depthwise on 24 channels, 1x1 24 -> 4, ADD
BLOCK_USEFUL = {0: 6 * 5 * 24 * 4, 1: 6 * 5 * 24 * 9, 2: 6 * 5 * 4 * 24}
#: small_cnn: 3x3 stride-2 conv 12x12x3 -> 6x6x10, pools, LOGISTIC, FC 90 -> 5 (SOFTMAX on the host)
CNN_USEFUL = {0: 6 * 6 * 10 * 3 * 3 * 3, 5: 5 * 90}


def _per_op(rep):
    got = {}
    for s in rep["segments"]:
        for lay in s["layers"]:
            got[lay["op"]] = got.get(lay["op"], 0) + lay["useful_macs"]
    return {k: v for k, v in got.items() if v}


def _check_rates(rep, peak):
    for part in [rep["total"], *rep["segments"], *(x for s in rep["segments"] for x in s["layers"])]:
        assert part["useful_utilization"] == pytest.approx(part["useful_macs"] / (part["cycles"] * peak))
        assert part["utilization"] == pytest.approx(part["macs"] / (part["cycles"] * peak))


@pytest.mark.parametrize("build, want", [(lambda: mobilenet_block(6, 5, 4), BLOCK_USEFUL),
                                         (small_cnn, CNN_USEFUL)])
def test_static_report_useful_macs(build, want):
    pkg = compile_model(build(), "small")
    rep = static_report(pkg)
    assert _per_op(rep) == want
    assert sum(s["useful_macs"] for s in rep["segments"]) == rep["total"]["useful_macs"] == sum(want.values())
    _check_rates(rep, 64)
    text = format_report(rep)
    assert "useful MACs" in text and f"{rep['total']['useful_macs']} useful MACs" in text


def test_depthwise_issued_macs_are_its_streamed_windows():
    """The block's depthwise layer runs as DWCONVs: its issued MACs are rows x cols per stream
    step (the DWCONVs' windows less their padding rows and columns, then the steps of the padding
    below and right: from the program), its useful ones the 5x6 outputs of 24 channels x 9 taps,
    a part of them."""
    pkg = compile_model(mobilenet_block(6, 5, 4), "small")
    rep = static_report(pkg)
    dw = [x for s in rep["segments"] for x in s["layers"] if x["type"] == "DEPTHWISE_CONV_2D"]
    words = [decode(w) for seg in pkg.manifest["segments"] for w in bytes_to_words(pkg.segment_words(seg))]
    streamed = sum((d.ny + d.fh - 1 - d.pad_top) * (d.nx + d.fw - 1 - d.pad_left - d.pad_right) + d.pad_right
                   for d in words if d.name == "DWCONV")
    assert streamed and sum(x["macs"] for x in dw) == streamed * 8 * 8
    assert sum(x["useful_macs"] for x in dw) == 6 * 5 * 24 * 9 < streamed * 8 * 8


def test_runtime_report_matches_static_report(tmp_path, capsys):
    model = mobilenet_block(6, 5, 4)
    pkg = compile_model(model, "small")
    x = np.random.default_rng(0).integers(-128, 128, (1, 6, 5, 4)).astype(np.int8)
    _, rep = Runtime(pkg).run([x], "isa")
    st = static_report(pkg)
    assert rep["total"]["useful_macs"] == st["total"]["useful_macs"] == sum(BLOCK_USEFUL.values())
    assert [x["useful_macs"] for x in rep["segments"][0]["layers"]] == \
        [x["useful_macs"] for x in st["segments"][0]["layers"]]
    _check_rates(rep, 64)
    path = tmp_path / "m.nnpkg"
    pkg.save(path)
    out = tmp_path / "r.json"
    assert main(["run", str(path), "--backend", "isa", "--report", str(out)]) == 0
    js = json.loads(out.read_text())
    assert js["total"]["useful_macs"] == sum(BLOCK_USEFUL.values())
    assert {"useful_macs", "useful_utilization"} <= set(js["segments"][0]["layers"][0])
    assert "useful" in capsys.readouterr().out


def test_host_operations_useful_macs_are_reported_apart():
    # a float32 FULLY_CONNECTED runs on the host: its MACs are not the accelerator's
    from nnaccel.model import ModelBuilder
    from nnaccel.model import OperandType as T
    b = ModelBuilder("fc_float")
    x = b.add_operand(T.TENSOR_FLOAT32, (3, 10))
    w = b.add_constant(T.TENSOR_FLOAT32, np.ones((7, 10), np.float32))
    bias = b.add_constant(T.TENSOR_FLOAT32, np.zeros(7, np.float32))
    y = b.add_operand(T.TENSOR_FLOAT32, (3, 7))
    b.add_operation("FULLY_CONNECTED", [x, w, bias, b.add_constant(T.INT32, 0)], [y])
    b.identify_inputs_and_outputs([x], [y])
    pkg = compile_model(b.finish(), "small")
    rep = static_report(pkg)
    assert rep["total"]["useful_macs"] == 0 and rep["host_useful_macs"] == 3 * 7 * 10
    assert "210 more useful MACs" in format_report(rep)
    _, rrep = Runtime(pkg).run([np.ones((3, 10), np.float32)], "isa")
    assert rrep["host_useful_macs"] == 210
    assert static_report(compile_model(small_cnn(), "small"))["host_useful_macs"] == 0
