"""Fuzzing of every loader with hypothesis: the JSON model loader, the TFLite and ONNX importers, the
package loader, the hardware-config loader and the ISA assembler / disassembler / simulator.

Each test is structure-aware (it changes fields of a valid document and writes it again) or
mutational (it flips, inserts, deletes and truncates bytes of valid seed files). Every input must
end in exit 0, 2 or 3 without a traceback and within a time bound (``tests/fuzz_targets.py``).

Budget: ``NNACCEL_FUZZ_EXAMPLES`` inputs per test (default 25, derandomized so a run is
repeatable); e.g. ``NNACCEL_FUZZ_EXAMPLES=2000 python -m pytest tests/test_fuzz.py -n 0`` for a
longer run, with ``NNACCEL_FUZZ_SEED`` choosing another random sequence (``docs/testing.md``).
Every crash found is kept as a regression input in ``tests/test_fuzz_regressions.py``.
"""

from __future__ import annotations

import copy
import gzip
import importlib.util
import json
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st

_spec = importlib.util.spec_from_file_location("fuzz_targets", Path(__file__).with_name("fuzz_targets.py"))
ft = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(ft)

EXAMPLES = int(os.environ.get("NNACCEL_FUZZ_EXAMPLES", "25"))
SEED = os.environ.get("NNACCEL_FUZZ_SEED")
# No shrinking: a failure is reported as found (shrinking a model document can take minutes).
FUZZ = settings(max_examples=EXAMPLES, deadline=None, derandomize=SEED is None, database=None,
                suppress_health_check=list(HealthCheck), phases=[Phase.explicit, Phase.generate],
                report_multiple_bugs=False)
GOLDEN_PACKAGES = sorted((Path(__file__).parent / "golden_packages").glob("*.nnpkg"))


def fuzz(fn):
    fn = FUZZ(fn)
    return seed(int(SEED))(fn) if SEED is not None else fn


# -------------------------------------------------------------------------------------- seeds
def model_docs() -> list[dict]:
    from nnaccel.compiler.reference_models import REFERENCE_MODELS, build_demo_model

    from nnaccel.formats import model_to_dict
    docs = [model_to_dict(build_demo_model()[0]), model_to_dict(REFERENCE_MODELS["mlp"]())]
    from nnaccel.cts import cts_dir
    for rel in ("V1_0/add.json.gz", "V1_3/while_sum_of_powers.json.gz", "V1_2/svdf_float16.json.gz"):
        p = cts_dir() / rel
        if p.is_file():
            with gzip.open(p, "rt") as f:
                docs.append(json.load(f)[0])
    return docs


def tflite_seeds() -> list[bytes]:
    from support.tflite_build import TFLiteBuilder
    out = []
    b = TFLiteBuilder()
    x, y, z = (b.add_tensor([1, 4], "FLOAT32") for _ in range(3))
    b.add_op("ADD", [x, y], [z], "AddOptions", FusedActivationFunction=0)
    out.append(b.finish([x, y], [z]))
    b = TFLiteBuilder()
    x = b.add_tensor([1, 5, 5, 2], "INT8", scale=0.5, zero_point=1)
    w = b.add_tensor([3, 3, 3, 2], "INT8", data=[(k % 7) - 3 for k in range(54)], scale=[0.1, 0.2, 0.3],
                     zero_point=[0, 0, 0], quantized_dimension=0)
    bias = b.add_tensor([3], "INT32", data=[1, -2, 3], scale=[0.05, 0.1, 0.15], zero_point=[0, 0, 0])
    y = b.add_tensor([1, 3, 3, 3], "INT8", scale=0.25, zero_point=-2)
    b.add_op("CONV_2D", [x, w, bias], [y], "Conv2DOptions", Padding=1, StrideW=1, StrideH=1,
             FusedActivationFunction=1)
    r = b.add_tensor([1, 27], "INT8", scale=0.25, zero_point=-2)
    shape = b.add_tensor([2], "INT32", data=[1, 27])
    b.add_op("RESHAPE", [y, shape], [r], "ReshapeOptions", NewShape=[1, 27])
    out.append(b.finish([x], [r]))
    return out


def mutated(seeds: list[bytes]):
    """Bytes of a seed after up to 8 flips, overwrites, insertions, deletions or a truncation."""
    ops = st.lists(st.tuples(st.sampled_from(["flip", "set", "insert", "delete", "truncate"]),
                             st.floats(0, 1, exclude_max=True), st.binary(min_size=1, max_size=8)),
                   min_size=1, max_size=8)

    def apply(args):
        k, edits = args
        data = bytearray(seeds[k])
        for op, where, val in edits:
            pos = int(where * max(len(data), 1))
            if op == "flip" and data:
                data[min(pos, len(data) - 1)] ^= 1 << (val[0] % 8)
            elif op == "set" and data:
                data[pos:pos + len(val)] = val
            elif op == "insert":
                data[pos:pos] = val
            elif op == "delete":
                del data[pos:pos + val[0] % 64 + 1]
            elif op == "truncate":
                del data[pos:]
        return bytes(data)
    return st.tuples(st.integers(0, len(seeds) - 1), ops).map(apply)


#: JSON values that break rules: huge and negative numbers, wrong types, nesting.
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.sampled_from([0, -1, 1, 2**20, 2**31, 2**32 + 1, 2**63, -(2**63), 10**30])
    | st.integers(-300, 300) | st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=12)
    | st.sampled_from(["TENSOR_FLOAT32", "TENSOR_QUANT8_ASYMM", "SUBGRAPH", "NO_VALUE", "CONSTANT_COPY",
                       "SUBGRAPH_INPUT", "WHILE", "IF", "CONV_2D", "RESHAPE"]),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=10)


def _paths(doc, prefix=()):
    yield prefix
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(doc, list):
        for k, v in enumerate(doc[:40]):
            yield from _paths(v, prefix + (k,))


def mutate_doc(draw, doc, n_max=4):
    """``doc`` with up to ``n_max`` values replaced, deleted or duplicated at drawn paths."""
    doc = copy.deepcopy(doc)
    for _ in range(draw(st.integers(1, n_max))):
        paths = [p for p in _paths(doc) if p]
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        parent = doc
        for k in path[:-1]:
            parent = parent[k]
        key = path[-1]
        action = draw(st.sampled_from(["replace", "replace", "delete", "duplicate"]))
        if action == "replace":
            parent[key] = draw(JSON_VALUES)
        elif action == "delete":
            del parent[key]
        elif isinstance(parent, list):
            parent.insert(key, copy.deepcopy(parent[key]))
    return doc


# -------------------------------------------------------------------------------- JSON models
DOCS = model_docs()


@fuzz
@given(st.data())
def test_fuzz_json_model_structure(data):
    doc = mutate_doc(data.draw, data.draw(st.sampled_from(DOCS)))
    ft.json_model(json.dumps(doc).encode())


@fuzz
@given(mutated([json.dumps(d).encode() for d in DOCS]))
def test_fuzz_json_model_bytes(data):
    ft.json_model(data)


@fuzz
@given(mutated([gzip.compress(json.dumps(d).encode(), mtime=0) for d in DOCS[:2]]))
def test_fuzz_gzip_model_bytes(data):
    ft.gzip_model(data)


# ------------------------------------------------------------------------------------- TFLite
TFLITE_SEEDS = tflite_seeds()


def mlperf_seeds() -> list[bytes]:
    from conftest import require_mlperf_tiny_dir
    files = sorted(require_mlperf_tiny_dir().glob("*.tflite"))
    assert files, "the MLPerf Tiny folder holds no .tflite files"
    return [f.read_bytes() for f in files]


def test_fuzz_tflite_mlperf_bytes():
    seeds = mlperf_seeds()

    @fuzz
    @given(mutated(seeds))
    def run(data):
        ft.tflite_model(data)
    run()


@fuzz
@given(mutated(TFLITE_SEEDS))
def test_fuzz_tflite_built_bytes(data):
    ft.tflite_run(data)


TFL_TYPES = ["FLOAT32", "FLOAT16", "INT32", "INT8", "UINT8", "INT16", "BOOL", "INT64"]
DIMS = st.lists(st.sampled_from([0, 1, 2, 3, 4, -1, 2**20, 2**31 - 1]) | st.integers(0, 6), max_size=5)


@fuzz
@given(st.data())
def test_fuzz_tflite_structure(data):
    """Small graphs the builder writes, with drawn shapes, types, quantization and operators."""
    from support.tflite_build import TFLiteBuilder
    draw = data.draw
    b = TFLiteBuilder()
    tensors = []
    for _ in range(draw(st.integers(1, 4))):
        dtype = draw(st.sampled_from(TFL_TYPES))
        shape = draw(DIMS)
        quant = draw(st.none() | st.tuples(st.floats(-1, 2), st.integers(-300, 300)))
        kw = {} if quant is None else {"scale": quant[0], "zero_point": quant[1]}
        tensors.append(b.add_tensor(shape, dtype, **kw))
    const = b.add_tensor([2], "INT32", data=draw(st.lists(st.integers(-5, 2**31 - 1), min_size=2, max_size=2)))
    tensors.append(const)
    for _ in range(draw(st.integers(1, 3))):
        op, options, fields = draw(st.sampled_from([
            ("ADD", "AddOptions", {"FusedActivationFunction": 0}),
            ("MUL", "MulOptions", {"FusedActivationFunction": 1}),
            ("RESHAPE", None, {}), ("SOFTMAX", "SoftmaxOptions", {"Beta": 1.0}),
            ("CONCATENATION", "ConcatenationOptions", {"Axis": 1, "FusedActivationFunction": 0}),
            ("MEAN", "ReducerOptions", {"KeepDims": True}), ("TRANSPOSE", None, {}),
            ("TILE", None, {}), ("PAD", None, {}), ("GATHER", "GatherOptions", {"Axis": 0}),
            ("AVERAGE_POOL_2D", "Pool2DOptions", {"Padding": 0, "StrideW": 1, "StrideH": 1,
                                                   "FilterWidth": 2, "FilterHeight": 2})]))
        ins = draw(st.lists(st.sampled_from(tensors), min_size=1, max_size=3))
        outs = [draw(st.sampled_from(tensors))]
        b.add_op(op, ins, outs, options, **fields)
    inputs = draw(st.lists(st.sampled_from(tensors), max_size=2, unique=True))
    outputs = draw(st.lists(st.sampled_from(tensors), min_size=1, max_size=2, unique=True))
    ft.tflite_run(b.finish(inputs, outputs))


# --------------------------------------------------------------------------------------- ONNX
def onnx_seeds() -> list[bytes]:
    """Models built as the ONNX tests build theirs (``tests/support/onnx_build.py``): a float Add, a
    float Conv / Relu / MaxPool / Flatten / Gemm chain, and the QDQ int8 and uint8 CNNs."""
    import numpy as np
    from onnx import TensorProto, helper
    from support.onnx_build import make_model, qdq_cnn
    F = TensorProto.FLOAT
    rng = np.random.default_rng(0)
    add = make_model([helper.make_node("Add", ["x", "y"], ["z"])], {"x": (F, [1, 4]), "y": (F, [1, 4])},
                     {"z": (F, [1, 4])})
    chain = make_model([helper.make_node("Conv", ["x", "w", "b"], ["c"], pads=[1, 1, 1, 1]),
                        helper.make_node("Relu", ["c"], ["r"]),
                        helper.make_node("MaxPool", ["r"], ["p"], kernel_shape=[2, 2], strides=[2, 2]),
                        helper.make_node("Flatten", ["p"], ["f"]),
                        helper.make_node("Gemm", ["f", "fw", "fb"], ["y"], transB=1)],
                       {"x": (F, [1, 2, 4, 4])}, {"y": (F, [1, 3])},
                       {"w": rng.normal(0, 0.5, (4, 2, 3, 3)).astype(np.float32),
                        "b": np.zeros(4, np.float32), "fw": rng.normal(0, 0.5, (3, 16)).astype(np.float32),
                        "fb": np.ones(3, np.float32)})
    return [add, chain, qdq_cnn(), qdq_cnn(per_channel=False, elem=TensorProto.UINT8)]


ONNX_SEEDS = onnx_seeds()
ONNX_OPS = ["Add", "Mul", "Conv", "Relu", "MaxPool", "Gemm", "MatMul", "Reshape", "Flatten", "Transpose",
            "Concat", "Softmax", "QuantizeLinear", "DequantizeLinear", "GlobalAveragePool", "Identity",
            "Loop", "If", "Pad", "Slice", "Bogus"]
ONNX_INTS = (st.integers(-3, 8) | st.sampled_from([2**20, 2**31 - 1, 2**31, 2**40, 2**63 - 1, -(2**63)]))


@fuzz
@given(st.data())
def test_fuzz_onnx_structure(data):
    """The seed models with nodes, attributes, initializers, graph shapes and opsets changed (the
    protobuf stays well formed, so the checker, shape inference and the importer go deep)."""
    import onnx
    from onnx import helper
    draw = data.draw
    m = onnx.load_model_from_string(draw(st.sampled_from(ONNX_SEEDS)))
    g = m.graph
    names = sorted({n for node in g.node for n in (*node.input, *node.output)} | {i.name for i in g.input})
    for _ in range(draw(st.integers(1, 4))):
        what = draw(st.sampled_from(["op_type", "attr", "input", "output", "drop", "dup", "init_dims",
                                     "init_type", "init_data", "io_shape", "io_type", "opset"]))
        node = g.node[draw(st.integers(0, len(g.node) - 1))] if g.node else None
        if what == "op_type" and node is not None:
            node.op_type = draw(st.sampled_from(ONNX_OPS))
        elif what == "attr" and node is not None:
            name = draw(st.sampled_from(["axis", "pads", "strides", "kernel_shape", "group", "transB", "perm",
                                         "dilations", "alpha", "to", "keepdims"]))
            value = draw(ONNX_INTS | st.lists(ONNX_INTS, min_size=1, max_size=6) | st.floats(allow_nan=True))
            kept = [a for a in node.attribute if a.name != name]
            del node.attribute[:]
            node.attribute.extend([*kept, helper.make_attribute(name, value)])
        elif what == "input" and node is not None:
            node.input.insert(draw(st.integers(0, len(node.input))), draw(st.sampled_from([*names, "", "nowhere"])))
            if draw(st.booleans()) and len(node.input) > 1:
                del node.input[draw(st.integers(0, len(node.input) - 1))]
        elif what == "output" and node is not None and node.output:
            node.output[0] = draw(st.sampled_from([*names, "", "fresh"]))
        elif what == "drop" and node is not None:
            g.node.remove(node)
        elif what == "dup" and node is not None:
            g.node.insert(draw(st.integers(0, len(g.node))), node)
        elif what.startswith("init") and g.initializer:
            t = g.initializer[draw(st.integers(0, len(g.initializer) - 1))]
            if what == "init_dims":
                del t.dims[:]
                t.dims.extend(draw(st.lists(ONNX_INTS, max_size=5)))
            elif what == "init_type":
                t.data_type = draw(st.integers(0, 25))
            elif t.raw_data:
                t.raw_data = t.raw_data[:draw(st.integers(0, len(t.raw_data)))]
        elif what in ("io_shape", "io_type"):
            vi = draw(st.sampled_from([*g.input, *g.output]))
            tt = vi.type.tensor_type
            if what == "io_type":
                tt.elem_type = draw(st.integers(0, 25))
            elif tt.shape.dim:
                d = tt.shape.dim[draw(st.integers(0, len(tt.shape.dim) - 1))]
                if draw(st.booleans()):
                    d.dim_value = draw(ONNX_INTS)
                else:
                    d.dim_param = draw(st.sampled_from(["N", "batch", ""]))
        elif what == "opset":
            m.opset_import[0].version = draw(st.sampled_from([1, 7, 11, 12, 13, 17, 21, 99, -1]))
    ft.onnx_run(m.SerializeToString())


@fuzz
@given(mutated(ONNX_SEEDS))
def test_fuzz_onnx_bytes(data):
    ft.onnx_model(data)


# ----------------------------------------------------------------------------------- packages
def _package_parts():
    from nnaccel.compiler.package import Package
    return [Package.load(p) for p in GOLDEN_PACKAGES]


PACKAGES = _package_parts()


@fuzz
@given(st.data())
def test_fuzz_package_structure(data):
    """Packages with a changed manifest or model (checksums made to match, so the loader goes deep)."""
    import dataclasses
    pkg = data.draw(st.sampled_from(PACKAGES))
    part = data.draw(st.sampled_from(["manifest", "model"]))
    if part == "manifest":
        pkg = dataclasses.replace(pkg, manifest=mutate_doc(data.draw, pkg.manifest))
    else:
        doc = mutate_doc(data.draw, json.loads(pkg.model_json))
        pkg = dataclasses.replace(pkg, model_json=json.dumps(doc).encode())
    ft.package(pkg.to_bytes())


@fuzz
@given(mutated([p.read_bytes() for p in GOLDEN_PACKAGES]))
def test_fuzz_package_bytes(data):
    ft.package(data)


# ----------------------------------------------------------------------------- hardware config
def _config_fields():
    import dataclasses

    from nnaccel.hwconfig import HwConfig
    return [f.name for f in dataclasses.fields(HwConfig)]


CONFIG_VALUES = (st.integers(-4, 70) | st.sampled_from([2**16, 2**20, 2**31, 2**40, 2**62, 2**64])
                 | st.booleans() | st.text(max_size=6) | st.floats(allow_nan=False, allow_infinity=False))


@fuzz
@given(st.data(), st.booleans())
def test_fuzz_hw_config_structure(data, as_toml):
    from nnaccel.hwconfig import PRESETS
    base = data.draw(st.sampled_from(sorted(PRESETS)))
    fields = data.draw(st.dictionaries(st.sampled_from(_config_fields() + ["preset", "bogus"]),
                                       CONFIG_VALUES, max_size=5))
    doc = {"preset": base, **fields}
    if as_toml:
        def lit(v):
            return json.dumps(v) if not isinstance(v, bool) else str(v).lower()
        ft.hw_config_toml("\n".join(f"{k} = {lit(v)}" for k, v in doc.items()).encode())
    else:
        ft.hw_config_json(json.dumps(doc).encode())


def _preset_texts():
    from nnaccel.hwconfig import PRESETS
    return PRESETS["small"].to_toml(), PRESETS["small"].to_json()


PRESET_TOML, PRESET_JSON = _preset_texts()


@fuzz
@given(mutated([PRESET_TOML.encode()]))
def test_fuzz_hw_config_toml_bytes(data):
    ft.hw_config_toml(data)


# ------------------------------------------------------------------------------------------ ISA
LISTINGS = [p.with_suffix(".s").read_text() for p in GOLDEN_PACKAGES]


@fuzz
@given(st.data())
def test_fuzz_isa_asm_lines(data):
    """Assembly listings with changed, dropped or duplicated lines and changed tokens."""
    lines = data.draw(st.sampled_from(LISTINGS)).splitlines()[:60]
    for _ in range(data.draw(st.integers(1, 6))):
        k = data.draw(st.integers(0, len(lines) - 1))
        action = data.draw(st.sampled_from(["token", "drop", "dup", "garbage"]))
        if action == "token":
            words = lines[k].split(" ")
            j = data.draw(st.integers(0, len(words) - 1))
            words[j] = data.draw(st.sampled_from(["len=0", "len=99999", "sp=XYZ", "x=", "=1", "0x", "-1",
                                                  "LOAD", "GEMM", "FINISH", "sp_addr=70000", "#"])
                                 | st.text(max_size=10))
            lines[k] = " ".join(words)
        elif action == "drop":
            del lines[k]
        elif action == "dup":
            lines.insert(k, lines[k])
        else:
            lines[k] = data.draw(st.text(max_size=40))
        if not lines:
            break
    ft.isa_asm("\n".join(lines).encode())


@fuzz
@given(mutated([p.program for p in PACKAGES]) | st.binary(max_size=200))
def test_fuzz_isa_disasm_bytes(data):
    ft.isa_disasm(data)


@fuzz
@given(mutated([p.program for p in PACKAGES]) | st.binary(max_size=200))
def test_fuzz_isa_run_bytes(data):
    ft.isa_run(data)


# --------------------------------------------------------------------------------- atheris
ATHERIS_RUNS = int(os.environ.get("NNACCEL_FUZZ_ATHERIS_RUNS", "40"))


#: Targets under atheris in the default tier (each run starts an instrumented interpreter, ~4 s);
#: ``-m slow`` runs the others.
ATHERIS_FAST = ("json_model", "isa_asm")


@pytest.mark.parametrize("target", [t if t in ATHERIS_FAST else pytest.param(t, marks=pytest.mark.slow)
                                    for t in sorted(ft.TARGETS)])
def test_fuzz_atheris(tmp_path, target):
    """Each target under atheris (coverage-guided libFuzzer) for ``NNACCEL_FUZZ_ATHERIS_RUNS`` inputs."""
    import subprocess
    import sys
    pytest.importorskip("atheris", reason="atheris is not installed (a dev dependency on Linux x86_64)")
    if target == "tflite_model" and not any(ft.MLPERF_DIR.glob("*.tflite")):
        mlperf_seeds()  # skips (or fails under CI) with the reason
    proc = subprocess.run([sys.executable, str(Path(__file__).with_name("fuzz_atheris.py")), target,
                           f"-runs={ATHERIS_RUNS}", "-seed=1", "-timeout=20", "-rss_limit_mb=4096"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=600, check=False)
    assert proc.returncode == 0, proc.stderr[-4000:]
    assert f"Done {ATHERIS_RUNS} runs" in proc.stderr, proc.stderr[-2000:]
