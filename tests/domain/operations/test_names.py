"""One list of operation names (annotation/domain/operations/names.py): the planner dispatch
is checked against it when it loads, and refuses an unknown name with the list."""

import pytest

from annotation.domain.errors import InvalidOperation
from annotation.domain.operations import (
    BULK_OPERATIONS,
    DECISION_OPERATIONS,
    EDIT_OPERATIONS,
    OPERATIONS,
    SUGGESTION_DECISIONS,
    dispatch,
    plan,
)
from annotation.domain.operations.names import operation_names_check

from .factories import ids_from, topic


def refusal(op) -> InvalidOperation:
    with pytest.raises(InvalidOperation) as refused:
        plan(topic({1: ("A", [1])}), op, ids_from(100))
    return refused.value


def test_the_list_is_the_edits_the_bulk_edits_then_the_decisions_each_name_once():
    assert OPERATIONS == EDIT_OPERATIONS + BULK_OPERATIONS + DECISION_OPERATIONS
    assert len(set(OPERATIONS)) == len(OPERATIONS)
    assert set(SUGGESTION_DECISIONS) < set(DECISION_OPERATIONS)


def test_every_name_has_a_planner_and_every_planner_a_name():
    assert list(dispatch._PLANNERS) == list(OPERATIONS)


def test_an_unknown_name_is_answered_with_the_list():
    error = refusal({"op": "explode"})

    assert error.field == "op"
    assert f"must be one of {', '.join(sorted(OPERATIONS))}, not 'explode'" in error.message


@pytest.mark.parametrize("decision", DECISION_OPERATIONS)
def test_a_decision_inside_an_accepted_suggestion_is_answered_with_the_edits(decision):
    error = refusal({"op": "accept_suggestion", "suggestion": 1, "operation": {"op": decision}})

    assert f"must be one of {', '.join(sorted(EDIT_OPERATIONS))}, not" in error.message


def test_a_table_that_misses_or_adds_a_name_is_refused_naming_both():
    with pytest.raises(RuntimeError) as refused:
        operation_names_check([*OPERATIONS[1:], "explode"], "a table")

    assert f"no entry for ['{OPERATIONS[0]}']" in str(refused.value)
    assert "unknown ['explode']" in str(refused.value)
    operation_names_check(OPERATIONS, "the list itself")  # and the list passes
