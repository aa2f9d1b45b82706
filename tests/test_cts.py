"""The conformance suite, one test per conformance file: every model whose operations are all
implemented must pass (models using a not-yet-implemented operation are reported, not failed), and
so must CTS's quant8 -> quant8 signed re-run of each single-operation quant8 model."""

import pytest

from nnaccel.cts import cts_dir, run_file, spec_files

FILES = spec_files(cts_dir()) if cts_dir().is_dir() else []


def test_conformance_folder_present(cts_root):
    assert len(spec_files(cts_root)) > 500


@pytest.mark.parametrize("path", FILES, ids=[f"{p.parent.name}/{p.name[:-8]}" for p in FILES])
def test_conformance_file(path):
    results = run_file(path, signed=True)
    failed = [f"{r.name}: {r.message}" for r in results if r.status == "failed"]
    assert not failed, f"{len(failed)} of {len(results)} models failed:\n" + "\n".join(failed[:20])
    if results and all(r.status == "not_implemented" for r in results):
        missing = sorted({m for r in results for m in r.missing})
        pytest.skip("not implemented yet: " + ", ".join(missing))


def test_signed_variant_shifts_values_and_zero_points(cts_root):
    from nnaccel.cts import signed_variant
    from nnaccel.formats import load_models
    from nnaccel.model import OperandType

    models = {m.name: m for m in load_models(cts_root / "V1_0" / "add_quant8.json.gz")}
    m = next(iter(models.values()))
    v = signed_variant(m)
    assert v.name == m.name + "+signed"
    for a, b in zip(m.main.operands, v.main.operands):
        if a.type is OperandType.TENSOR_QUANT8_ASYMM:
            assert b.type is OperandType.TENSOR_QUANT8_ASYMM_SIGNED
            assert b.zero_point == a.zero_point - 128
    assert (v.stored_inputs[0].astype(int) == m.stored_inputs[0].astype(int) - 128).all()
    assert (v.stored_outputs[0].astype(int) == m.stored_outputs[0].astype(int) - 128).all()
    float_model = load_models(cts_root / "V1_0" / "add.json.gz")[0]
    assert signed_variant(float_model) is None
