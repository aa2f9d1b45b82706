"""Race check of generated programs: no two instructions that overlap in time (the ISA
simulator's exact schedule) may touch a common scratchpad line when one of them writes it.

The ISA simulator executes each instruction atomically at its start cycle, so a token protocol
that lets a LOAD overwrite a buffer a STORE is still draining would go unnoticed there but corrupt
data on the hardware; this test looks at the schedule instead (``nnaccel.sim.isasim.find_conflicts``)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from nnaccel.compiler.compile import compile_model
from nnaccel.compiler.reference_models import REFERENCE_MODELS
from nnaccel.sim.isasim import find_conflicts

from nnaccel.isa import bytes_to_words

from .test_differential import PRESETS, layers, other_ops


def races(pkg) -> list[str]:
    """Every conflict the ISA simulator's checker finds (``find_conflicts``: instructions of
    different queues that overlap in the exact schedule and touch a common scratchpad line or
    external byte range, one of them writing), per segment."""
    found = []
    for seg in pkg.manifest["segments"]:
        words = bytes_to_words(pkg.segment_words(seg))
        found += [f"segment {seg['index']}: {c}" for c in find_conflicts(words, pkg.config())]
    return found


def test_reference_models_have_no_races():
    for name, build in REFERENCE_MODELS.items():
        for preset in PRESETS:
            assert races(compile_model(build(), preset)) == [], (name, preset)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(layers())
def test_random_layers_have_no_races(case):
    model, _, preset = case
    assert races(compile_model(model, preset)) == []


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(other_ops())
def test_random_other_ops_have_no_races(case):
    model, _, preset = case
    assert races(compile_model(model, preset)) == []
