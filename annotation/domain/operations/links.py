"""Anaphora links (ChEMU-Ref rules, section 3.3 of the ChEMU 2021 overview).

A link points from an anaphor back to its antecedent. Rules, each a `LinkRuleError.rule`:
`self_link`, `rejected`, `same_document`, `order` (the antecedent's first token comes before
the anaphor's), `duplicate` (same type, anaphor and antecedent), `transformed_one_to_one`
(an anaphor has at most one TRANSFORMED antecedent and an antecedent at most one TRANSFORMED
anaphor). COREFERENCE, REACTION_ASSOCIATED, WORK_UP and CONTAINED are one-to-many from the
anaphor, so they carry no count limit. The same pair may carry two different types, with a
warning naming the link already there; `duplicate_pair` refuses it in a project whose
`refuse_duplicate_link_pairs` setting is on.
Adding a link needs the anaphora scheme; removing one is always allowed. Retyping links
(`retype_links`: one link, or a chosen set of them) is one operation, so one undo: each link
is removed and added again with the new type, and the new links are checked against the state
as it will be (the links retyped gone, those retyped before them there).
"""

from __future__ import annotations

from corefscore.corpus import LINK_TYPES
from corefscore.link_rules import ORDER, SAME_DOCUMENT, SELF_LINK, one_to_one_taken, pair_rule

from .. import effects as fx
from ..errors import InvalidOperation, LinkRuleError, NotAllowed, NotFound
from ..state import AnnotationState, Link
from .clusters import require_mention
from .result import OperationResult


def check_link(
    state: AnnotationState,
    link: Link,
    *,
    gone: frozenset[Link] = frozenset(),
    coming: frozenset[Link] = frozenset(),
) -> None:
    """Raise `LinkRuleError` naming the first ChEMU-Ref rule that `link` would break.

    `gone` and `coming`: links the same operation removes and adds before `link` (a retype),
    so the state is read as it will be when `link` is added (no copy of it)."""
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
    if (link in state.links and link not in gone) or link in coming:
        raise LinkRuleError(
            f"There is already a {link.type} link from {state.mention_name(anaphor.id)} to "
            f"{state.mention_name(antecedent.id)}.",
            rule="duplicate",
        )
    others = _same_pair(state, link, gone, coming)
    if state.settings.refuse_duplicate_link_pairs and others:
        raise LinkRuleError(
            f"{state.mention_name(anaphor.id)} is already linked to "
            f"{state.mention_name(antecedent.id)} as {others[0].type}, and this project "
            "allows one link type per pair; remove that link first to change its type.",
            rule="duplicate_pair",
        )
    taken = one_to_one_taken(
        link,
        _touching(state, anaphor.id, gone, coming),
        _touching(state, antecedent.id, gone, coming),
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


def _touching(
    state: AnnotationState, mention: int, gone: frozenset[Link], coming: frozenset[Link]
) -> list[Link]:
    """The links of `mention` once `gone` are removed and `coming` added."""
    now = [existing for existing in state.mention_links[mention] if existing not in gone]
    return now + [new for new in coming if mention in (new.anaphor, new.antecedent)]


def _same_pair(
    state: AnnotationState,
    link: Link,
    gone: frozenset[Link] = frozenset(),
    coming: frozenset[Link] = frozenset(),
) -> list[Link]:
    """The links of other types between the same anaphor and antecedent, by type."""
    return sorted(
        existing
        for existing in _touching(state, link.anaphor, gone, coming)
        if existing.anaphor == link.anaphor
        and existing.antecedent == link.antecedent
        and existing.type != link.type
    )


def duplicate_pair_warnings(
    state: AnnotationState,
    link: Link,
    gone: frozenset[Link] = frozenset(),
    coming: frozenset[Link] = frozenset(),
) -> list[str]:
    """What adding `link` tells the annotator when the pair already carries another type."""
    return [
        f"{state.mention_name(link.anaphor)} was already linked to "
        f"{state.mention_name(link.antecedent)} as {existing.type}; it is now linked as "
        f"{link.type} too. Remove one of the two if the pair has one relation."
        for existing in _same_pair(state, link, gone, coming)
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


def _existing(state: AnnotationState, link: Link) -> Link:
    if link not in state.links:
        raise NotFound(
            "link",
            list(link),
            f"There is no {link.type} link from {state.mention_name(link.anaphor)} to "
            f"{state.mention_name(link.antecedent)}.",
        )
    return link


def remove_link(
    state: AnnotationState, *, type: str, anaphor: int, antecedent: int
) -> OperationResult:
    link = _existing(state, _link(state, type, anaphor, antecedent))
    return OperationResult(link_removal(state, link))


def retype_links(
    state: AnnotationState, *, links: list[tuple[str, int, int]], type: str
) -> OperationResult:
    """Give each of `links` the type `type`, as one operation. Links already of that type are
    left as they are (a chosen set may hold some); none to change is refused."""
    if not state.settings.anaphora:
        raise NotAllowed("This project has no anaphora links.", setting="anaphora")
    if type not in LINK_TYPES:
        raise InvalidOperation("type", f"must be one of {', '.join(LINK_TYPES)}, not {type!r}")
    old = [_existing(state, _link(state, *link)) for link in dict.fromkeys(links)]
    changing = [link for link in old if link.type != type]
    if not changing:
        first = old[0]
        raise LinkRuleError(
            f"The link {state.mention_name(first.anaphor)} → "
            f"{state.mention_name(first.antecedent)} is already {type}."
            if len(old) == 1
            else f"These {len(old)} links are already {type}.",
            rule="same_type",
        )
    gone = frozenset(changing)
    # A link's note and attributes go with it to its new type (cleared on the old first).
    effects: list[fx.Effect] = [e for link in changing for e in link_removal(state, link)]
    warnings: list[str] = []
    coming: frozenset[Link] = frozenset()
    for link in changing:
        new = Link(type, link.anaphor, link.antecedent)
        check_link(state, new, gone=gone, coming=coming)
        warnings += duplicate_pair_warnings(state, new, gone, coming)
        coming |= {new}
        effects.append(fx.link_added(new))
        effects += _extras_carried(state, link, new)
    return OperationResult(effects, warnings)


def _extras_carried(state: AnnotationState, old: Link, new: Link) -> list[fx.Effect]:
    """The effects that give `new` the note and attributes `old` has (read before the
    operation's effects, which clear them on `old`)."""
    effects = []
    note = state.link_notes.get(old, "")
    if note:
        effects.append(fx.link_note_set(new, "", note))
    for name, value in sorted(state.link_attributes.get(old, {}).items()):
        effects.append(fx.link_attribute_set(new, name, None, value))
    return effects
