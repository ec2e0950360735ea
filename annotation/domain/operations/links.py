"""Anaphora links (ChEMU-Ref rules, section 3.3 of the ChEMU 2021 overview).

A link points from an anaphor back to its antecedent. Rules, each a `LinkRuleError.rule`:
`self_link`, `rejected`, `same_document`, `order` (the antecedent's first token comes before
the anaphor's), `duplicate` (same type, anaphor and antecedent), `transformed_one_to_one`
(an anaphor has at most one TRANSFORMED antecedent and an antecedent at most one TRANSFORMED
anaphor). COREFERENCE, REACTION_ASSOCIATED, WORK_UP and CONTAINED are one-to-many from the
anaphor, so they carry no count limit; the same pair may carry two different types.
Adding a link needs the anaphora scheme; removing one is always allowed.
"""

from __future__ import annotations

from .. import effects as fx
from ..corpus import LINK_TYPES
from ..errors import InvalidOperation, LinkRuleError, NotAllowed, NotFound
from ..state import AnnotationState, Link
from .clusters import require_mention
from .result import OperationResult


def check_link(state: AnnotationState, link: Link) -> None:
    """Raise `LinkRuleError` naming the first ChEMU-Ref rule that `link` would break."""
    anaphor, antecedent = state.mentions[link.anaphor], state.mentions[link.antecedent]
    if anaphor.id == antecedent.id:
        raise LinkRuleError("A mention cannot be its own antecedent.", rule="self_link")
    for mention in (anaphor, antecedent):
        if mention.rejected:
            raise LinkRuleError(
                f"Mention #{mention.id} is rejected and cannot be linked.", rule="rejected"
            )
    if anaphor.document != antecedent.document:
        raise LinkRuleError(
            f"Anaphor #{anaphor.id} (document #{anaphor.document}) and antecedent #{antecedent.id} "
            f"(document #{antecedent.document}) must be in the same document.",
            rule="same_document",
        )
    if not antecedent.start < anaphor.start:
        raise LinkRuleError(
            f"The antecedent must come earlier in the text than the anaphor: #{antecedent.id} "
            f"starts at token {antecedent.start}, #{anaphor.id} at token {anaphor.start}.",
            rule="order",
        )
    if link in state.links:
        raise LinkRuleError(
            f"There is already a {link.type} link from #{anaphor.id} to #{antecedent.id}.",
            rule="duplicate",
        )
    if link.type == "TRANSFORMED":
        for existing in state.mention_links[anaphor.id]:
            if existing.type == "TRANSFORMED" and existing.anaphor == anaphor.id:
                raise LinkRuleError(
                    f"TRANSFORMED is one-to-one: anaphor #{anaphor.id} already has the TRANSFORMED "
                    f"antecedent #{existing.antecedent}.",
                    rule="transformed_one_to_one",
                )
        for existing in state.mention_links[antecedent.id]:
            if existing.type == "TRANSFORMED" and existing.antecedent == antecedent.id:
                raise LinkRuleError(
                    f"TRANSFORMED is one-to-one: antecedent #{antecedent.id} already has the "
                    f"TRANSFORMED anaphor #{existing.anaphor}.",
                    rule="transformed_one_to_one",
                )


def _link(state: AnnotationState, type: str, anaphor: int, antecedent: int) -> Link:
    if type not in LINK_TYPES:
        raise InvalidOperation("type", f"must be one of {', '.join(LINK_TYPES)}, not {type!r}")
    require_mention(state, anaphor)
    require_mention(state, antecedent)
    return Link(type, anaphor, antecedent)


def add_link(
    state: AnnotationState, *, type: str, anaphor: int, antecedent: int
) -> OperationResult:
    if not state.settings.anaphora:
        raise NotAllowed("This project has no anaphora links.", setting="anaphora")
    link = _link(state, type, anaphor, antecedent)
    check_link(state, link)
    return OperationResult([fx.link_added(link)])


def remove_link(
    state: AnnotationState, *, type: str, anaphor: int, antecedent: int
) -> OperationResult:
    link = _link(state, type, anaphor, antecedent)
    if link not in state.links:
        raise NotFound(
            "link",
            list(link),
            f"There is no {type} link from mention #{anaphor} to mention #{antecedent}.",
        )
    return OperationResult([fx.link_removed(link)])
