"""Validation: a person accepts or rejects each mention of clusters built beforehand.

A decision is one `validation_set` effect (its inverse restores the previous decision, so
undo and redo work as for every other operation). The clusters themselves never change here:
the validated clustering is the input clustering without the rejected mentions, read when it
is needed (reports, exports), so changing one's mind is one more decision, not a repair.
"""

from __future__ import annotations

from .. import effects as fx
from ..errors import InvalidOperation, NoChange, NotAllowed, TextTooLong
from ..state import AnnotationState, Validation
from .clusters import NOTE_MAX_CHARS, require_mention
from .result import OperationResult


def validate(
    state: AnnotationState, *, mention: int, decision: str, reason: str | None, note: str = ""
) -> OperationResult:
    """Record `decision` ("accepted", or "rejected" with one of the project's reason keys)
    and an optional note on `mention`, replacing any earlier decision on it."""
    if not state.settings.validation:
        raise NotAllowed("This project does not validate clusters.", setting="validation")
    require_mention(state, mention)
    if decision == "accepted" and reason is not None:
        raise InvalidOperation("reason", "an accepted mention takes no reason")
    if decision == "rejected" and reason not in state.settings.validation_reasons:
        keys = ", ".join(state.settings.validation_reasons)
        raise InvalidOperation("reason", f"must be one of {keys}, not {reason!r}")
    if len(note) > NOTE_MAX_CHARS:
        raise TextTooLong("note", NOTE_MAX_CHARS, len(note))
    new = Validation(decision, reason, note.strip())
    old = state.validations.get(mention)
    if old == new:
        raise NoChange(f"{state.mention_name(mention)} is already {decision}.")
    return OperationResult([fx.validation_set(mention, old, new)])
