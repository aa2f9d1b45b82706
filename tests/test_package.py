"""The package format (nnaccel/package.py): round trip, determinism, and one clear error for every
way a file can be unusable."""

import dataclasses
import hashlib
import io
import json
import zipfile

import numpy as np
import pytest

from nnaccel.hwconfig import PRESETS, HwConfig
from nnaccel.package import DATA_KEY, FORMAT, VERSION, Package, PackageError, is_package, model_members

MEMBERS = ("manifest.json", "program.bin", "consts.bin", "listing.s", "model.json", "model.bin")


def _package(**manifest) -> Package:
    cfg = dataclasses.asdict(PRESETS["small"])
    m = {"format": FORMAT, "version": VERSION, "config": cfg, "model": "m",
         "memory": {"base": 0, "size": 4096, "const_base": 1024},
         "tensors": {"0": {"addr": 0, "bytes": 16, "shape": [1, 16]}, "1": {"addr": 16, "bytes": 16, "shape": [1, 16]}},
         "accelerator_ops": [{"index": 0, "type": "RELU"}], "host_ops": [],
         "segments": [{"index": 0, "inputs": [0], "outputs": [1], "operations": [0],
                       "program": {"offset": 1, "count": 2},
                       "layers": [{"first": 0, "last": 1, "op": 0, "pass": 0, "type": "RELU"}]}], **manifest}
    program = bytes(range(16)) + bytes(range(16, 32)) + bytes(range(32, 48)) + bytes(16)
    return Package(m, program, b"\x01\x02\x03", "NOP\n", b'{"model": 1}', b"\x04\x05")


def _members(data: bytes) -> dict:
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        return {n: z.read(n) for n in z.namelist()}


def _zip(members: dict) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for n, d in members.items():
            z.writestr(n, d)
    return buf.getvalue()


def test_round_trip_keeps_every_member_and_records_checksums():
    pkg = _package()
    data = pkg.to_bytes()
    back = Package.from_bytes(data)
    assert (back.program, back.consts, back.listing, back.model_json, back.model_data) == \
           (pkg.program, pkg.consts, pkg.listing, pkg.model_json, pkg.model_data)
    assert back.manifest["sha256"]["program.bin"] == hashlib.sha256(pkg.program).hexdigest()
    assert set(_members(data)) == set(MEMBERS)


def test_same_package_gives_the_same_bytes():
    assert _package().to_bytes() == _package().to_bytes()


def test_save_load_and_is_package(tmp_path):
    path = tmp_path / "p.nnpkg"
    _package().save(path)
    assert is_package(path)
    assert Package.load(path).consts == b"\x01\x02\x03"
    other = tmp_path / "model.json"
    other.write_text("{}")
    assert not is_package(other)


def test_segment_words_are_the_segments_instructions():
    pkg = _package()
    assert pkg.segment_words(pkg.manifest["segments"][0]) == bytes(range(16, 48))


def test_config_fields_the_manifest_lacks_take_the_field_default():
    pkg = _package()
    del pkg.manifest["config"]["counter_bits"]
    cfg = Package.from_bytes(pkg.to_bytes()).config()
    default = next(f.default for f in dataclasses.fields(HwConfig) if f.name == "counter_bits")
    assert cfg.counter_bits == default
    assert (cfg.rows, cfg.act_bytes) == (PRESETS["small"].rows, PRESETS["small"].act_bytes)


def _damaged(edit) -> bytes:
    members = _members(_package().to_bytes())
    edit(members)
    return _zip(members)


def _set_manifest(members, **changes):
    m = json.loads(members["manifest.json"])
    m.update(changes)
    members["manifest.json"] = json.dumps(m).encode()


@pytest.mark.parametrize("data, words", [
    (b"not a zip file at all", "damaged or truncated"),
    (None, "damaged or truncated"),                                   # truncated below
    (_damaged(lambda m: m.pop("consts.bin")), "lacks consts.bin"),
    (_damaged(lambda m: m.update({"manifest.json": b"{not json"})), "unreadable manifest"),
    (_damaged(lambda m: _set_manifest(m, format="something-else")), "not an nnaccel program package"),
    (_damaged(lambda m: _set_manifest(m, version=VERSION + 1)), f"format version {VERSION + 1}"),
    (_damaged(lambda m: m.update({"program.bin": b"\xff" + m["program.bin"][1:]})), "program.bin does not match"),
    (_damaged(lambda m: m.update({"model.bin": b"\xff" + m["model.bin"][1:]})), "model.bin does not match"),
    (_damaged(lambda m: m.pop("model.bin")), "lacks model.bin"),
])
def test_unusable_packages_are_rejected_with_one_sentence(data, words):
    if data is None:
        full = _package().to_bytes()
        data = full[:len(full) // 2]
    with pytest.raises(PackageError, match=words) as e:
        Package.from_bytes(data, "p.nnpkg")
    assert "p.nnpkg" in str(e.value) and str(e.value).endswith(".")


def test_unreadable_file_is_a_package_error(tmp_path):
    with pytest.raises(PackageError, match="cannot be read"):
        Package.load(tmp_path / "missing.nnpkg")


# ------------------------------------------------------------------ the model's constants (model.bin)
def _model():
    from nnaccel.model import ModelBuilder
    from nnaccel.model import OperandType as T
    b = ModelBuilder("consts")
    x = b.add_operand(T.TENSOR_FLOAT32, [2, 3])
    w = b.add_constant(T.TENSOR_FLOAT32, np.array([[0.1, -2.5, 3e-8], [1e30, 0.0, -0.0]], np.float32))
    q = b.add_constant(T.TENSOR_QUANT8_ASYMM_SIGNED, np.arange(-3, 3, dtype=np.int8).reshape(2, 3), scale=0.5,
                       zero_point=1)
    flag = b.add_constant(T.TENSOR_BOOL8, np.array([True, False, True]))
    act = b.add_constant(T.INT32, 0)
    y = b.add_operand(T.TENSOR_FLOAT32, [2, 3])
    b.add_operation("ADD", [x, w, act], [y])
    b.identify_inputs_and_outputs([x], [y])
    return b.finish(), (w, q, flag, act)


def _with_model(model_json: bytes, model_data: bytes) -> Package:
    """The package of :func:`_package` holding the model of :func:`_model` (its operands 0 and 1 are
    2 x 3 float32 tensors)."""
    tensors = {str(j): {"addr": 32 * j, "bytes": 24, "shape": [2, 3]} for j in (0, 1)}
    return dataclasses.replace(_package(tensors=tensors), model_json=model_json, model_data=model_data)


def test_model_constants_round_trip_through_model_bin():
    from nnaccel.formats import model_to_dict
    model, consts = _model()
    doc_bytes, blob = model_members(model)
    doc = json.loads(doc_bytes)
    assert all(doc["main"]["operands"][i]["data"] == [] and DATA_KEY in doc["main"]["operands"][i] for i in consts)
    back = Package.from_bytes(_with_model(doc_bytes, blob).to_bytes()).model()
    assert model_to_dict(back) == model_to_dict(model)
    for i in consts:
        a, b = model.main.operands[i].data, back.main.operands[i].data
        assert a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a, b)


@pytest.mark.parametrize("ref, words", [
    ("nonsense", "which is not an object with a non-negative integer offset and bytes"),
    ({"offset": -1, "bytes": 4}, "which is not an object"),
    ({"offset": 0, "bytes": True}, "which is not an object"),
    ({"offset": 10 ** 6, "bytes": 24}, "of model.bin, which has"),
    ({"offset": 0, "bytes": 3}, "4-byte elements of type TENSOR_FLOAT32"),
])
def test_bad_model_bin_references_are_package_errors(ref, words):
    model, (w, *_) = _model()
    doc_bytes, blob = model_members(model)
    doc = json.loads(doc_bytes)
    doc["main"]["operands"][w][DATA_KEY] = ref
    with pytest.raises(PackageError, match=words) as e:
        _with_model(json.dumps(doc).encode(), blob).model()
    assert str(e.value).endswith(".")


def test_model_bin_reference_on_an_input_or_beside_values_is_a_package_error():
    model, (w, *_) = _model()
    doc_bytes, blob = model_members(model)
    for edit, words in ((lambda o: o.update(data=[1.0] * 6), "both data_bytes and values"),
                        (lambda o: o.update(lifetime="SUBGRAPH_INPUT"), "though it is not a constant")):
        doc = json.loads(doc_bytes)
        edit(doc["main"]["operands"][w])
        with pytest.raises(PackageError, match=words):
            _with_model(json.dumps(doc).encode(), blob).model()


def test_a_package_whose_model_breaks_the_specification_is_a_package_error():
    """An operation's operand list cut short (as a fuzzer's mutation does): rejected on loading,
    before any report counts the operation's multiply-adds."""
    model, _ = _model()
    doc_bytes, blob = model_members(model)
    doc = json.loads(doc_bytes)
    doc["main"]["operations"][0]["inputs"] = doc["main"]["operations"][0]["inputs"][:1]
    with pytest.raises(PackageError, match="not a valid NNAPI model: .*ADD") as e:
        _with_model(json.dumps(doc).encode(), blob).model()
    assert str(e.value).endswith(".")
