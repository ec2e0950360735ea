"""The ChEMU-Ref link rules that hold whatever else an annotation holds (section 3.3 of the
ChEMU 2021 overview), decided in one place: the workspace (`operations/links.py::check_link`),
the invariants, and the importers of files with links (`formats/chemu.py`, `formats/brat.py`)
ask these functions and word their answers for their readers.

- `self_link`: a mention is not its own antecedent;
- `same_document`: both ends are in one document;
- `order`: the antecedent's first token comes before the anaphor's;
- `transformed_one_to_one`: an anaphor has at most one TRANSFORMED antecedent, and an
  antecedent at most one TRANSFORMED anaphor (the other types are one-to-many).

They work on anything shaped like a mention (`document`, sorted `spans`) and a link (`type`,
`anaphor`, `antecedent`): the workspace's state (`state.Mention`, `state.Link`, ids) as well as
a file's plain data (`corpus.MentionData`, `corpus.LinkData`, list positions).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol, TypeVar

from .corpus import Spans

SELF_LINK = "self_link"
SAME_DOCUMENT = "same_document"
ORDER = "order"
TRANSFORMED_ONE_TO_ONE = "transformed_one_to_one"
ONE_TO_ONE_TYPES = ("TRANSFORMED",)

Side = Literal["anaphor", "antecedent"]


class LinkEnd(Protocol):
    @property
    def document(self) -> int: ...

    @property
    def spans(self) -> Spans: ...


class LinkLike(Protocol):
    @property
    def type(self) -> str: ...

    @property
    def anaphor(self) -> int: ...

    @property
    def antecedent(self) -> int: ...


L = TypeVar("L", bound=LinkLike)


def pair_rule(link: LinkLike, anaphor: LinkEnd, antecedent: LinkEnd) -> str | None:
    """The rule `link` breaks by its two ends alone (self_link, same_document or order, the
    first that applies), or None."""
    if link.anaphor == link.antecedent:
        return SELF_LINK
    if anaphor.document != antecedent.document:
        return SAME_DOCUMENT
    if not antecedent.spans[0][0] < anaphor.spans[0][0]:
        return ORDER
    return None


def one_to_one_taken(
    link: LinkLike, anaphor_links: Iterable[L], antecedent_links: Iterable[L]
) -> tuple[Side, L] | None:
    """For a one-to-one type: ("anaphor", the link) when the anaphor already has an antecedent
    of this type, ("antecedent", the link) when the antecedent already has an anaphor of it;
    else None. `*_links` are (at least) the links touching that mention."""
    if link.type not in ONE_TO_ONE_TYPES:
        return None
    for existing in anaphor_links:
        if existing.type == link.type and existing.anaphor == link.anaphor:
            return "anaphor", existing
    for existing in antecedent_links:
        if existing.type == link.type and existing.antecedent == link.antecedent:
            return "antecedent", existing
    return None


@dataclass(frozen=True)
class LinkViolation:
    """`links[index]` breaks `rule`; for transformed_one_to_one, `side` is the end that is
    taken and `other` the index of the earlier link holding it."""

    index: int
    rule: str
    side: Side | None = None
    other: int | None = None


def link_violations(links: Sequence[L], mentions: Sequence[LinkEnd]) -> list[LinkViolation]:
    """Every link that the workspace would refuse if the links were added one by one in this
    order (`link.anaphor` and `link.antecedent` are positions in `mentions`). A refused link is
    left out, so later links are checked against the ones kept, as in the workspace."""
    violations = []
    kept_by_mention: dict[int, list[tuple[int, L]]] = {}
    for index, link in enumerate(links):
        rule = pair_rule(link, mentions[link.anaphor], mentions[link.antecedent])
        if rule is not None:
            violations.append(LinkViolation(index, rule))
            continue
        touching = [kept_by_mention.get(m, []) for m in (link.anaphor, link.antecedent)]
        taken = one_to_one_taken(link, [k for _, k in touching[0]], [k for _, k in touching[1]])
        if taken is not None:
            side, existing = taken
            other = next(i for i, k in touching[1 if side == "antecedent" else 0] if k is existing)
            violations.append(LinkViolation(index, TRANSFORMED_ONE_TO_ONE, side, other))
            continue
        for mention in (link.anaphor, link.antecedent):
            kept_by_mention.setdefault(mention, []).append((index, link))
    return violations
