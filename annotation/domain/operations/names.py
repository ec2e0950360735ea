"""The names of the operations: the one list that the planner dispatch (`dispatch.py`), the
API's serializers (`annotation/api/serializers/operations.py`), the suggestion decisions the
core checks (`annotation/proposals.py`) and the tests derive from.

Adding an operation starts here. Its name then has no planner and no serializer, and both
modules fail on import (`KeyError` for the serializer table, `operation_names_check` for the
planners) until it has; `tests/domain/operations/test_names.py` says which.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal, get_args

# What a suggestion may propose, and what accepting one applies (the schema's EditOperation).
EditName = Literal[
    "assign",
    "merge",
    "split",
    "rename",
    "set_note",
    "set_parent",
    "add_edge",
    "remove_edge",
    "add_mention",
    "fix_span",
    "reject_mention",
    "add_link",
    "remove_link",
    "set_link_note",
    "set_link_attribute",
    "set_cluster_attribute",
    "retype_links",
]
# Many edits as one operation (one undo step); never nested inside an accepted suggestion.
BulkName = Literal["add_mentions", "reject_mentions"]
# Decisions on what someone proposed: never nested inside an accepted suggestion.
SuggestionDecisionName = Literal["accept_suggestion", "reject_suggestion"]
DecisionName = Literal[SuggestionDecisionName, "validate"]
OperationName = Literal[EditName, BulkName, DecisionName]

EDIT_OPERATIONS: tuple[EditName, ...] = get_args(EditName)
BULK_OPERATIONS: tuple[BulkName, ...] = get_args(BulkName)
SUGGESTION_DECISIONS: tuple[SuggestionDecisionName, ...] = get_args(SuggestionDecisionName)
DECISION_OPERATIONS: tuple[DecisionName, ...] = get_args(DecisionName)
# In this order in the schema's Operation (edits first, then bulk edits, then decisions).
OPERATIONS: tuple[OperationName, ...] = EDIT_OPERATIONS + BULK_OPERATIONS + DECISION_OPERATIONS


def operation_names_check(names: Iterable[str], what: str) -> None:
    """Refuse a table (planners, serializers) that names other operations than OPERATIONS."""
    given = set(names)
    missing, unknown = set(OPERATIONS) - given, given - set(OPERATIONS)
    if missing or unknown:
        raise RuntimeError(
            f"{what}: no entry for {sorted(missing)}; entries for unknown {sorted(unknown)}"
        )
