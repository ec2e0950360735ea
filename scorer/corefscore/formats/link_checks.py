"""The workspace's link rules (``corefscore.link_rules``) applied to the links a file
declares, and worded for the person who wrote the file.

Readers of formats with links (ChEMU-Ref jsonlines, brat) call :func:`link_problems` after
they have read a record's links. By default they keep such links with a warning (gold data
as it is: the scorers and the model training read files this way); with ``link_rules=True``
(what the importer asks for) each one is an error: the import is refused, or with
``skip_invalid`` that link alone is left out and listed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from corefscore.corpus import LinkData, MentionData
from corefscore.link_rules import ORDER, SAME_DOCUMENT, SELF_LINK, link_violations

KEPT = "kept as gold data"
REFUSED = "the workspace refuses such a link"


@dataclass(frozen=True)
class LinkProblem:
    """`links[index]` breaks `rule`; `side` is the end the message is about (for a field)."""

    index: int
    rule: str
    side: str
    message: str


def link_problems(
    links: Sequence[LinkData],
    mentions: Sequence[MentionData],
    *,
    describe: Callable[[int], str],
    name: Callable[[int], str],
) -> list[LinkProblem]:
    """Every link the workspace would refuse, in file order, each checked against the links
    before it that are sound. `describe(m)` shows mention `m` (its tokens), `name(i)` names
    link `i` as the file does (``Transformed[2]``, ``R7``)."""
    problems = []
    for violation in link_violations(links, mentions):
        link = links[violation.index]
        anaphor, antecedent = describe(link.anaphor), describe(link.antecedent)
        side = "antecedent"
        if violation.rule == SELF_LINK:
            message = f"the anaphor and the antecedent are the same mention ({anaphor})"
        elif violation.rule == SAME_DOCUMENT:
            message = (
                f"the anaphor ({anaphor}) and the antecedent ({antecedent}) are in different "
                "documents"
            )
        elif violation.rule == ORDER:
            message = f"the antecedent ({antecedent}) does not come before the anaphor ({anaphor})"
        else:
            assert violation.other is not None
            assert violation.side is not None
            other = links[violation.other]
            side = violation.side
            if side == "anaphor":
                message = (
                    f"{link.type} is one-to-one: the anaphor ({anaphor}) already has the "
                    f"{link.type} antecedent ({describe(other.antecedent)}) of "
                    f"{name(violation.other)}"
                )
            else:
                message = (
                    f"{link.type} is one-to-one: the antecedent ({antecedent}) already has the "
                    f"{link.type} anaphor ({describe(other.anaphor)}) of {name(violation.other)}"
                )
        problems.append(LinkProblem(violation.index, violation.rule, side, message))
    return problems
