"""Bulk operations: many changes planned as one operation, so that one undo reverts them all.

Each part is planned against the state the parts before it leave (a scratch copy; `state`
itself is never mutated), so the usual rules hold between the parts too: two occurrences
with the same spans are refused as duplicates, a link to a mention added earlier in the same
batch is allowed. A part the rules refuse refuses the whole batch, with the part named in
the message; nothing is written. (Ids a refused batch already drew from the sequences stay
unused: a sequence never goes back, which is harmless.)

- `add_mentions`: a mention at each of several places (the workspace's "every occurrence of
  this text"; which occurrences is the client's preview, the rules are checked here).
- `reject_mentions`: reject several mentions.
- `plan_parts`: the engine, also used by the service that accepts or rejects every open
  suggestion of one kind (modelserve/services/decisions.py), whose parts are built against
  the state as it stands when their turn comes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from ..effects import apply_effects
from ..errors import DomainError, InvalidOperation, NoChange
from ..state import AnnotationState, Mention, Spans
from .mentions import add_mention, reject_mention
from .result import NewId, OperationResult

# The most parts one bulk operation takes: the find's own limit (frontend/src/domain/
# findText.ts), and enough for every mention of a long paper's commonest term.
BULK_LIMIT = 1000

Part = Callable[[AnnotationState], OperationResult | None]
"""Plans one part against the state as it stands now; None: nothing left to do for it."""


def plan_parts(
    state: AnnotationState,
    parts: Iterable[tuple[Callable[[AnnotationState], str] | None, Part]],
    *,
    nothing: str,
) -> OperationResult:
    """Plan `parts` in order as one result. Each is `(name, plan)`: `name(state)` says which
    part a refusal is about ("the suggested COREFERENCE link ..."), None when the refusal
    already names it. `nothing`: the refusal when no part changes anything."""
    current = state
    effects: list[dict[str, Any]] = []
    warnings: list[str] = []
    created: dict[str, int] = {}
    for name, part in parts:
        try:
            result = part(current)
        except DomainError as error:
            if name is not None:
                _prefix(error, name(current))
            raise
        if result is None:
            continue
        if current is state:
            current = state.copy()
        apply_effects(current, result.effects)
        effects += result.effects
        warnings += result.warnings
        for kind, id in result.created.items():
            created.setdefault(kind, id)  # the first one made: what the client may select
    if not effects:
        raise NoChange(nothing)
    return OperationResult(effects, warnings, created)


def _prefix(error: DomainError, name: str) -> None:
    error.message = f"{name[:1].upper()}{name[1:]}: {error.message}"
    error.args = (error.message,)


def spans_name(state: AnnotationState, document: int, spans: Spans) -> str:
    """A place that is not (yet) a mention, as messages name mentions: `"the filtrate"
    (document 2, word 87)`."""
    place = f"document {state.document_number(document)}, word {spans[0][0] + 1}"
    text = ""
    if state.mention_text is not None and document in state.documents:
        try:
            text = state.mention_text(Mention(-1, document, spans)).strip()
        except (IndexError, KeyError, ValueError):
            text = ""  # spans outside the document: the refusal says so
    return f'"{text}" ({place})' if text else f"the words at {place}"


def check_size(field: str, count: int) -> None:
    if count > BULK_LIMIT:
        raise InvalidOperation(field, f"at most {BULK_LIMIT:,} at once, not {count:,}")


def add_mentions(
    state: AnnotationState, *, mentions: list[tuple[int, Spans]], new_id: NewId
) -> OperationResult:
    """A new unassigned mention at each `(document, spans)`, as one operation."""
    check_size("mentions", len(mentions))

    def part(document: int, spans: Spans) -> Part:
        return lambda s: add_mention(s, document=document, spans=spans, new_id=new_id)

    def name(document: int, spans: Spans) -> Callable[[AnnotationState], str]:
        return lambda s: spans_name(s, document, spans)

    return plan_parts(
        state,
        [(name(d, s), part(d, s)) for d, s in mentions],
        nothing="There is no place to add a mention at.",
    )


def reject_mentions(state: AnnotationState, *, mentions: list[int]) -> OperationResult:
    """Reject each mention (its refusals name the mention already), as one operation."""
    check_size("mentions", len(mentions))

    def part(mention: int) -> Part:
        return lambda s: reject_mention(s, mention=mention)

    return plan_parts(
        state, [(None, part(m)) for m in mentions], nothing="There is no mention to reject."
    )
