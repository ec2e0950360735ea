"""Mention operations, each where the project allows it: add_mention, fix_span, reject_mention."""

from __future__ import annotations

from itertools import pairwise

from .. import effects as fx
from ..errors import (
    DuplicateError,
    InvalidSpans,
    LinkRuleError,
    NoChange,
    NotAllowed,
    NotFound,
    RejectedMentionError,
)
from ..state import AnnotationState, Spans
from .clusters import require_mention
from .links import link_removal
from .moves import move_effects
from .result import NewId, OperationResult


def _require_setting(state: AnnotationState, setting: str, doing: str) -> None:
    if not getattr(state.settings, setting):
        raise NotAllowed(f"This project does not let annotators {doing}.", setting=setting)


def check_spans(
    state: AnnotationState, document: int, spans: Spans, *, ignore: int | None = None
) -> None:
    """Spans lie within the document, each start <= end, sorted, not overlapping, and no
    other active mention of the document has exactly these spans (`ignore`: the one edited)."""
    tokens = state.documents[document]
    for start, end in spans:
        if start > end:
            raise InvalidSpans(f"The span [{start}, {end}] ends before it starts.")
        if start < 0 or end >= tokens:
            raise InvalidSpans(
                f"The span [{start}, {end}] lies outside document "
                f"{state.document_number(document)}, which has {tokens} tokens (0 to {tokens - 1})."
            )
    for (_, previous_end), (start, end) in pairwise(spans):
        if start <= previous_end:
            raise InvalidSpans(
                f"The spans must be in text order and must not overlap; [{start}, {end}] does not "
                f"come after a span ending at token {previous_end}."
            )
    others = state.active_mentions_at(document, spans) - {ignore}
    if others:
        raise DuplicateError(f"{state.mention_name(min(others))} already has exactly these spans.")


def add_mention(
    state: AnnotationState, *, document: int, spans: Spans, new_id: NewId
) -> OperationResult:
    """Create an unassigned mention; `created["mention"]` is its new id."""
    _require_setting(state, "allow_add_mentions", "add mentions")
    if document not in state.documents:
        raise NotFound("document", document)
    check_spans(state, document, spans)
    mention = new_id("mention")
    return OperationResult(
        [fx.mention_added(mention, document, spans)], created={"mention": mention}
    )


def fix_span(state: AnnotationState, *, mention: int, spans: Spans) -> OperationResult:
    """Change a mention's spans (same document). Refused if one of its links would then have
    an antecedent that no longer comes before its anaphor."""
    _require_setting(state, "allow_fix_spans", "fix mention spans")
    require_mention(state, mention)
    current = state.mentions[mention]
    if current.rejected:
        raise RejectedMentionError(
            f"{state.mention_name(mention)} is rejected; assign it to a cluster to reopen it first."
        )
    if spans == current.spans:
        raise NoChange(f"{state.mention_name(mention)} already has these spans.")
    check_spans(state, current.document, spans, ignore=mention)
    start = spans[0][0]
    for link in sorted(state.mention_links[mention]):
        if link.anaphor == mention:
            broken = state.mentions[link.antecedent].start >= start
            where = f"at or before its antecedent {state.mention_name(link.antecedent)}"
        else:
            broken = start >= state.mentions[link.anaphor].start
            where = f"at or after its anaphor {state.mention_name(link.anaphor)}"
        if broken:
            raise LinkRuleError(
                f"With these spans {state.mention_name(mention)} would start {where}, but its "
                f"{link.type} link needs the antecedent earlier in the text; remove that link "
                "first or choose other spans.",
                rule="order",
            )
    return OperationResult([fx.spans_set(mention, current.spans, spans)])


def reject_mention(state: AnnotationState, *, mention: int) -> OperationResult:
    """Mark a mention rejected: it leaves its cluster (an emptied cluster is deleted) and
    loses its links."""
    _require_setting(state, "allow_reject_mentions", "reject mentions")
    require_mention(state, mention)
    if state.mentions[mention].rejected:
        raise NoChange(f"{state.mention_name(mention)} is already rejected.")
    effects = [
        effect
        for link in sorted(state.mention_links[mention])
        for effect in link_removal(state, link)
    ]
    moves, warnings = move_effects(state, [(mention, None)])
    effects += moves
    effects.append(fx.rejected_set(mention, False, True))
    return OperationResult(effects, warnings)
