"""The shared state cases (fixtures/golden/twins/states.json), which Vitest runs too
(frontend/tests/domain/states.golden.test.ts): the same rows give the same snapshot."""

from __future__ import annotations

import json

import pytest

from .twins import case_id, golden, picture, state_from

CASES = golden("states")["cases"]


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_case(case):
    if case.get("refused"):
        with pytest.raises(ValueError, match="missing|two clusters"):
            state_from(case["state"])
        return
    snapshot = picture(state_from(case["state"]))
    assert snapshot == case["snapshot"]
    assert json.loads(json.dumps(snapshot)) == snapshot
