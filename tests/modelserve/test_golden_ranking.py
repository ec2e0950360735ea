"""The shared ranking cases (fixtures/golden/twins/ranking.json), which Vitest runs too
(frontend/tests/workspace/questions.golden.test.ts): the server and the browser ask the same
question first."""

from __future__ import annotations

import pytest

from modelserve.questions import KIND_ORDER, Candidate, rank
from tests.domain.twins import case_id, golden

CASES = golden("ranking")["cases"]


def test_the_cases_use_every_kind_of_question():
    assert {c["kind"] for case in CASES for c in case["candidates"]} == set(KIND_ORDER)


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_case(case):
    candidates = [Candidate(**c) for c in case["candidates"]]
    assert [c.suggestion for c in rank(candidates)] == case["order"]
    assert [c.suggestion for c in rank(reversed(candidates))] == case["order"]
