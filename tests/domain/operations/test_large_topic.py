"""Operations that reach across a 1,000-mention topic with a hierarchy 250 deep give the
right answer (applied, or refused for the cycle they would close), and their inverse restores
the exact earlier state. How long they take is measured by `python -m bench domain`."""

from __future__ import annotations

import itertools

import pytest

from annotation.domain.effects import apply_effects, invert_effects
from annotation.domain.errors import DomainError
from annotation.domain.operations import plan
from tests.domain.operations.large_topic import OPERATIONS, large_topic


@pytest.mark.parametrize("single_parent", [True, False], ids=["single parent", "several parents"])
@pytest.mark.parametrize("name", list(OPERATIONS))
def test_an_operation_across_a_large_topic_is_applied_or_refused_as_expected_and_undone_exactly(
    name, single_parent
):
    state = large_topic(single_parent=single_parent)
    before = state.snapshot()
    op, expected = OPERATIONS[name]
    ids = itertools.count(10_000)
    if expected != "applied":
        with pytest.raises(DomainError) as refused:
            plan(state, op, lambda kind: next(ids))
        assert refused.value.code == expected, refused.value.message
        assert state.snapshot() == before
        return
    result = plan(state, op, lambda kind: next(ids))
    apply_effects(state, result.effects)
    assert state.snapshot() != before
    apply_effects(state, invert_effects(result.effects))
    assert state.snapshot() == before
