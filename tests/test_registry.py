"""The op registry (nnaccel/registry.py) against the NNAPI specification: every OperationType,
its number, and the golden family that implements it."""

import re

import pytest

from nnaccel import registry
from nnaccel.model import OperandType as T
from nnaccel.registry import BY_CODE, FAMILIES, OPS, Sig, define


def _spec_operations(spec_root) -> dict[str, int]:
    text = (spec_root / "OperationType.aidl").read_text()
    body = text[text.index("enum OperationType"):]
    return {m[1]: int(m[2]) for m in re.finditer(r"^\s+([A-Z][A-Z0-9_]*) = (\d+),?\s*(//.*)?$", body, re.MULTILINE)}


def test_every_operation_of_the_spec_with_its_number(spec_root):
    spec = _spec_operations(spec_root)
    assert len(spec) > 100
    assert {name: op.code for name, op in OPS.items()} == spec


def test_numbers_are_unique_and_versions_follow_them():
    assert sorted(BY_CODE) == list(range(len(OPS)))
    order = ["V1_0", "V1_1", "V1_2", "V1_3", "FL_6"]
    versions = [BY_CODE[c].since for c in sorted(BY_CODE)]
    assert versions == sorted(versions, key=order.index)                   # monotone in the number
    assert (OPS["ADD"].since, OPS["DIV"].since, OPS["ABS"].since, OPS["IF"].since) == \
           ("V1_0", "V1_1", "V1_2", "V1_3")


def test_every_operation_has_a_kernel_in_its_family_module():
    registry.load_all()
    for op in OPS.values():
        assert op.family in FAMILIES, op.name
        assert op.implemented, f"{op.name} has no golden kernel"
        assert op.kernel.__module__ == f"nnaccel.golden.{op.family}", op.name


def test_define_twice_is_refused():
    registry.load_all()
    with pytest.raises(RuntimeError, match="defined twice"):
        define("RELU", [Sig(("T",), ("T",), types={"T": (T.TENSOR_FLOAT32,)})])(lambda k: [])


def test_get_unknown_name_is_none():
    assert registry.get("NOT_AN_OPERATION") is None
    assert registry.get("CONV_2D") is OPS["CONV_2D"]
