"""The shared effect cases (fixtures/golden/twins/effects.json), which Vitest runs too
(frontend/tests/domain/effects.golden.test.ts): both sides must give the same result."""

from __future__ import annotations

import copy

import pytest

from annotation.domain.effects import EFFECT_KINDS, apply_effects, invert_effects
from annotation.domain.errors import CorruptEffects

from .twins import case_id, golden, picture, state_from

GOLDEN = golden("effects")
CASES = GOLDEN["cases"]


def start(case):
    return state_from(GOLDEN["states"][case["state"]])


def test_every_kind_of_effect_has_a_case_that_applies_and_one_that_is_refused():
    applied = {c["kind"] for c in CASES if "state_after" in c} - {"sequence"}
    refused = {c["kind"] for c in CASES if "refused" in c} - {"sequence"}
    assert applied == set(EFFECT_KINDS)
    assert refused == set(EFFECT_KINDS)


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_case(case):
    state = start(case)
    before = picture(state)
    if "refused" in case:
        with pytest.raises(CorruptEffects) as refusal:
            apply_effects(state, copy.deepcopy(case["effects"]))
        assert str(refusal.value).startswith(case["refused"])
        assert picture(state) == before  # all or nothing
        return
    apply_effects(state, copy.deepcopy(case["effects"]))
    assert picture(state) == case["state_after"]
    apply_effects(state, invert_effects(case["effects"]))
    assert picture(state) == before
    assert invert_effects(invert_effects(case["effects"])) == case["effects"]
