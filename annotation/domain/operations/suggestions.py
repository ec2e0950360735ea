"""Deciding on model suggestions.

Accepting carries out the suggestion's operation and records the decision in the same
effect list, so one undo reverts both. A rejected suggestion may still be accepted later
(the annotator changed their mind); an accepted one is reverted by undo, not by rejecting it,
since rejecting would leave its changes in place.
"""

from __future__ import annotations

from .. import effects as fx
from ..errors import AlreadyDecided
from ..state import AnnotationState
from .result import OperationResult


def accept_suggestion(
    state: AnnotationState, *, suggestion: int, inner: OperationResult
) -> OperationResult:
    """`inner`: the planned result of the suggestion's operation (plan it after
    `check_acceptable`, so that no id is drawn for a refused acceptance)."""
    check_acceptable(state, suggestion)
    effects = inner.effects + [
        fx.suggestion_decided(suggestion, state.decisions.get(suggestion), "accepted")
    ]
    return OperationResult(effects, inner.warnings, inner.created)


def check_acceptable(state: AnnotationState, suggestion: int) -> None:
    if state.decisions.get(suggestion) == "accepted":
        raise AlreadyDecided(f"Suggestion #{suggestion} is already accepted.")


def reject_suggestion(state: AnnotationState, *, suggestion: int) -> OperationResult:
    current = state.decisions.get(suggestion)
    if current == "rejected":
        raise AlreadyDecided(f"Suggestion #{suggestion} is already rejected.")
    if current == "accepted":
        raise AlreadyDecided(
            f"Suggestion #{suggestion} was accepted; undo that step to revert its changes."
        )
    return OperationResult([fx.suggestion_decided(suggestion, None, "rejected")])
