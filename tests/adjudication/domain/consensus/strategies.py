"""Hypothesis strategies: annotators' versions of one small topic, each valid on its own
(clusters partition its mentions, a single-parent acyclic hierarchy, links that keep the
ChEMU-Ref rules)."""

from __future__ import annotations

from hypothesis import strategies as st

from adjudication.domain.consensus import KeyLink, MentionKey, Version, VersionCluster
from corefscore.link_rules import link_violations

LINK_TYPES = ("COREFERENCE", "TRANSFORMED", "REACTION_ASSOCIATED")


def universe(size: int) -> list[MentionKey]:
    """`size` mentions over two documents, one token each, sorted."""
    return sorted((i % 2, ((i, i),)) for i in range(size))


@st.composite
def versions_of(draw, mentions: list[MentionKey], *, optional_mentions: bool = True) -> Version:
    """One annotator's version over (a subset of) `mentions`."""
    if optional_mentions:
        active = [m for m in mentions if draw(st.booleans()) or draw(st.booleans())]
    else:
        active = list(mentions)
    groups: dict[int, set[MentionKey]] = {}
    for mention in active:
        cluster = draw(st.integers(min_value=-1, max_value=len(mentions) - 1))
        if cluster >= 0:  # -1: left unassigned
            groups.setdefault(cluster, set()).add(mention)
    keys = sorted(groups)
    clusters = {
        key: VersionCluster(frozenset(groups[key]), draw(st.sampled_from(["", "a", "b"])))
        for key in keys
    }
    # A forest: each cluster may take a parent among the clusters drawn before it.
    edges = set()
    for position, child in enumerate(keys):
        if position and draw(st.booleans()):
            edges.add((keys[draw(st.integers(0, position - 1))], child))
    candidates = [
        KeyLink(draw(st.sampled_from(LINK_TYPES)), anaphor, antecedent)
        for anaphor in active
        for antecedent in active
        if anaphor[0] == antecedent[0] and antecedent[1] < anaphor[1]
    ]
    chosen = [link for link in candidates if draw(st.integers(0, 3)) == 0]
    position = {m: p for p, m in enumerate(mentions)}
    broken = {
        v.index
        for v in link_violations(
            [(_numbered(link, position)) for link in chosen], [_End(*m) for m in mentions]
        )
    }
    links = frozenset(link for i, link in enumerate(chosen) if i not in broken)
    return Version(frozenset(active), clusters, frozenset(edges), links)


class _End:
    def __init__(self, document: int, spans) -> None:
        self.document, self.spans = document, spans


class _Link:
    def __init__(self, type: str, anaphor: int, antecedent: int) -> None:
        self.type, self.anaphor, self.antecedent = type, anaphor, antecedent


def _numbered(link: KeyLink, position: dict[MentionKey, int]) -> _Link:
    return _Link(link.type, position[link.anaphor], position[link.antecedent])


@st.composite
def topics(draw, *, min_annotators: int = 1, max_annotators: int = 5):
    """(mentions, [version, ...]) for one topic."""
    mentions = universe(draw(st.integers(1, 9)))
    count = draw(st.integers(min_annotators, max_annotators))
    return mentions, [draw(versions_of(mentions)) for _ in range(count)]
