"""Annotation operations: pure planners from an operation's JSON to primitive effects.

`plan(state, op, new_id)` is the entry point; the typed functions per concept
(`clusters.merge`, `hierarchy.set_parent`, `links.add_link`, ...) can be called directly.
"""

from .dispatch import plan
from .names import (
    BULK_OPERATIONS,
    DECISION_OPERATIONS,
    EDIT_OPERATIONS,
    OPERATIONS,
    SUGGESTION_DECISIONS,
)
from .result import NewId, OperationResult

__all__ = [
    "BULK_OPERATIONS",
    "DECISION_OPERATIONS",
    "EDIT_OPERATIONS",
    "OPERATIONS",
    "SUGGESTION_DECISIONS",
    "NewId",
    "OperationResult",
    "plan",
]
