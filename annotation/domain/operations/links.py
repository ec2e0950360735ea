"""Anaphora links (ChEMU-Ref rules, section 3.3 of the ChEMU 2021 overview).

A link points from an anaphor back to its antecedent. Rules, each a `LinkRuleError.rule`:
`self_link`, `rejected`, `same_document`, `order` (the antecedent's first token comes before
the anaphor's), `duplicate` (same type, anaphor and antecedent), `transformed_one_to_one`
(an anaphor has at most one TRANSFORMED antecedent and an antecedent at most one TRANSFORMED
anaphor). COREFERENCE, REACTION_ASSOCIATED, WORK_UP and CONTAINED are one-to-many from the
anaphor, so they carry no count limit. The same pair may carry two different types, with a
warning naming the link already there; `duplicate_pair` refuses it in a project whose
`refuse_duplicate_link_pairs` setting is on.
Adding a link needs the anaphora scheme; removing one is always allowed.
"""

from __future__ import annotations

from corefscore.corpus import LINK_TYPES
from corefscore.link_rules import ORDER, SAME_DOCUMENT, SELF_LINK, one_to_one_taken, pair_rule

from .. import effects as fx
from ..errors import InvalidOperation, LinkRuleError, NotAllowed, NotFound
from ..state import AnnotationState, Link
from .clusters import require_mention
from .result import OperationResult


def check_link(state: AnnotationState, link: Link) -> None:
    """Raise `LinkRuleError` naming the first ChEMU-Ref rule that `link` would break."""
    anaphor, antecedent = state.mentions[link.anaphor], state.mentions[link.antecedent]
    rule = pair_rule(link, anaphor, antecedent)  # (the rules themselves: domain/link_rules.py)
    if rule == SELF_LINK:
        raise LinkRuleError("A mention cannot be its own antecedent.", rule="self_link")
    for mention in (anaphor, antecedent):
        if mention.rejected:
            raise LinkRuleError(
                f"{state.mention_name(mention.id)} is rejected and cannot be linked.",
                rule="rejected",
            )
    if rule == SAME_DOCUMENT:
        raise LinkRuleError(
            f"The anaphor {state.mention_name(anaphor.id)} and the antecedent "
            f"{state.mention_name(antecedent.id)} must be in the same document.",
            rule="same_document",
        )
    if rule == ORDER:
        raise LinkRuleError(
            f"The antecedent must come earlier in the text than the anaphor: the antecedent "
            f"{state.mention_name(antecedent.id)} does not come before the anaphor "
            f"{state.mention_name(anaphor.id)}.",
            rule="order",
        )
    if link in state.links:
        raise LinkRuleError(
            f"There is already a {link.type} link from {state.mention_name(anaphor.id)} to "
            f"{state.mention_name(antecedent.id)}.",
            rule="duplicate",
        )
    if state.settings.refuse_duplicate_link_pairs and (others := _same_pair(state, link)):
        raise LinkRuleError(
            f"{state.mention_name(anaphor.id)} is already linked to "
            f"{state.mention_name(antecedent.id)} as {others[0].type}, and this project "
            "allows one link type per pair; remove that link first to change its type.",
            rule="duplicate_pair",
        )
    taken = one_to_one_taken(
        link, state.mention_links[anaphor.id], state.mention_links[antecedent.id]
    )
    if taken is not None:
        side, existing = taken
        if side == "anaphor":
            raise LinkRuleError(
                f"TRANSFORMED is one-to-one: the anaphor {state.mention_name(anaphor.id)} "
                f"already has the TRANSFORMED antecedent "
                f"{state.mention_name(existing.antecedent)}.",
                rule="transformed_one_to_one",
            )
        raise LinkRuleError(
            f"TRANSFORMED is one-to-one: the antecedent "
            f"{state.mention_name(antecedent.id)} already has the TRANSFORMED anaphor "
            f"{state.mention_name(existing.anaphor)}.",
            rule="transformed_one_to_one",
        )


def _same_pair(state: AnnotationState, link: Link) -> list[Link]:
    """The links of other types between the same anaphor and antecedent, by type."""
    return sorted(
        existing
        for existing in state.mention_links[link.anaphor]
        if existing.anaphor == link.anaphor
        and existing.antecedent == link.antecedent
        and existing.type != link.type
    )


def duplicate_pair_warnings(state: AnnotationState, link: Link) -> list[str]:
    """What adding `link` tells the annotator when the pair already carries another type."""
    return [
        f"{state.mention_name(link.anaphor)} was already linked to "
        f"{state.mention_name(link.antecedent)} as {existing.type}; it is now linked as "
        f"{link.type} too. Remove one of the two if the pair has one relation."
        for existing in _same_pair(state, link)
    ]


def link_removal(state: AnnotationState, link: Link) -> list[fx.Effect]:
    """The effects that remove `link`: its note and attributes cleared first, so that the
    inverse (undo) brings them back with the link. Every planner that removes a link (a
    removal, a rejected mention, a change of type) goes through here."""
    effects = []
    note = state.link_notes.get(link, "")
    if note:
        effects.append(fx.link_note_set(link, note, ""))
    for name, value in sorted(state.link_attributes.get(link, {}).items()):
        effects.append(fx.link_attribute_set(link, name, value, None))
    effects.append(fx.link_removed(link))
    return effects


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
    return OperationResult([fx.link_added(link)], duplicate_pair_warnings(state, link))


def remove_link(
    state: AnnotationState, *, type: str, anaphor: int, antecedent: int
) -> OperationResult:
    link = _link(state, type, anaphor, antecedent)
    if link not in state.links:
        raise NotFound(
            "link",
            list(link),
            f"There is no {type} link from {state.mention_name(anaphor)} to "
            f"{state.mention_name(antecedent)}.",
        )
    return OperationResult(link_removal(state, link))
