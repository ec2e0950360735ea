"""A diagnosis of disagreement on one topic (docs/diagnosis.md): what the annotations do not share.

Given the sides of a comparison (each annotator's submitted annotation, or gold and an
annotator), it lists

- every mention whose cluster differs between the sides, with each side's cluster (label
  and member texts; ``None`` where the side has no such mention: rejected, or never added);
- every hierarchy edge that only some sides have;
- every link that only some sides have.

Mentions are matched across sides by exact span (document and token spans), as mention
detection and the coreference scores match them; a cluster is the set of its members'
spans, so two sides agree on a mention exactly when its cluster holds the same spans in
both. A mention in no cluster counts as its own singleton (the scorers see it so). An edge
is matched by its two clusters' member spans, so an edge between clusters that differ is a
difference of its own too: the cluster difference is listed under the mentions, the edge
here, and the annotator sees both. A link is matched by (type, anaphor span, antecedent
span). Items come in topic order (mentions by first position), then by text.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

MentionKey = tuple[int, tuple[tuple[int, int], ...]]  # (document, ((start, end), ...))


@dataclass(frozen=True, slots=True)
class SideMention:
    id: int  # the mention's id in this side's annotation (for a click into the review view)
    key: MentionKey
    text: str


@dataclass(frozen=True, slots=True)
class SideCluster:
    label: str
    members: tuple[MentionKey, ...]


@dataclass(frozen=True, slots=True)
class Side:
    """One annotation, as the diagnosis reads it (the selector builds it from the state)."""

    name: str
    mentions: tuple[SideMention, ...]  # the active ones, in topic order
    clusters: tuple[SideCluster, ...]
    edges: tuple[tuple[int, int], ...] = ()  # (parent, child) positions in ``clusters``
    links: tuple[tuple[str, MentionKey, MentionKey], ...] = ()  # (type, anaphor, antecedent)


@dataclass(frozen=True, slots=True)
class ClusterView:
    label: str
    members: tuple[str, ...]  # member texts in topic order


@dataclass(frozen=True, slots=True)
class MentionDiff:
    key: MentionKey
    text: str
    ids: dict[str, int | None]  # side -> the mention's id there (None: the side lacks it)
    clusters: dict[str, ClusterView | None]  # side -> its cluster there


@dataclass(frozen=True, slots=True)
class EdgeDiff:
    parent: ClusterView
    child: ClusterView
    present: tuple[str, ...]  # the sides that have the edge
    absent: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class LinkDiff:
    type: str
    anaphor: str
    antecedent: str
    anaphor_ids: dict[str, int | None]  # side -> the anaphor's id there
    present: tuple[str, ...]
    absent: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Diagnosis:
    sides: tuple[str, ...]
    mentions: tuple[MentionDiff, ...]
    edges: tuple[EdgeDiff, ...]
    links: tuple[LinkDiff, ...]


def diagnose(sides: Sequence[Side]) -> Diagnosis:
    """What the sides do not share (see the module's doc); sides keep their given order."""
    names = tuple(side.name for side in sides)
    if len(set(names)) != len(names):
        raise ValueError(f"side names must differ: {', '.join(names)}")
    order: dict[MentionKey, int] = {}
    texts: dict[MentionKey, str] = {}
    for side in sides:
        for mention in side.mentions:
            order.setdefault(mention.key, len(order))
            texts.setdefault(mention.key, mention.text)
    ranked = sorted(order, key=lambda key: (key[0], key[1], order[key]))

    def view(side: Side, members: Iterable[MentionKey], label: str) -> ClusterView:
        own = {mention.key: mention.text for mention in side.mentions}
        ordered = sorted(members, key=lambda key: (key[0], key[1]))
        return ClusterView(label, tuple(own.get(key, texts.get(key, "")) for key in ordered))

    memberships = [_memberships(side) for side in sides]
    ids_by_side = [_ids(side) for side in sides]
    mentions = []
    for key in ranked:
        seen = [membership.get(key) for membership in memberships]
        spans = [None if found is None else found[0] for found in seen]
        if all(members == spans[0] for members in spans):
            continue  # (a label alone does not make a cluster differ)
        ids = {side.name: own.get(key) for side, own in zip(sides, ids_by_side, strict=True)}
        clusters: dict[str, ClusterView | None] = {}
        for side, found in zip(sides, seen, strict=True):
            clusters[side.name] = None if found is None else view(side, found[0], found[1])
        mentions.append(MentionDiff(key, texts[key], ids, clusters))
    return Diagnosis(names, tuple(mentions), _edges(sides, view), _links(sides, texts))


def _memberships(side: Side) -> dict[MentionKey, tuple[frozenset[MentionKey], str]]:
    """Mention -> (its cluster's member spans, the cluster's label); unclustered: itself."""
    found: dict[MentionKey, tuple[frozenset[MentionKey], str]] = {}
    for cluster in side.clusters:
        members = frozenset(cluster.members)
        for key in cluster.members:
            found[key] = (members, cluster.label)
    for mention in side.mentions:
        found.setdefault(mention.key, (frozenset([mention.key]), mention.text))
    return {key: (members, label) for key, (members, label) in found.items()}


def _ids(side: Side) -> dict[MentionKey, int]:
    return {mention.key: mention.id for mention in side.mentions}


def _edges(
    sides: Sequence[Side], view: Callable[[Side, Iterable[MentionKey], str], ClusterView]
) -> tuple[EdgeDiff, ...]:
    found: dict[tuple[frozenset[MentionKey], frozenset[MentionKey]], list[str]] = {}
    shown: dict[
        tuple[frozenset[MentionKey], frozenset[MentionKey]], tuple[ClusterView, ClusterView]
    ] = {}
    for side in sides:
        for parent, child in side.edges:
            up, down = side.clusters[parent], side.clusters[child]
            edge = (frozenset(up.members), frozenset(down.members))
            if side.name not in found.setdefault(edge, []):
                found[edge].append(side.name)
            shown.setdefault(
                edge, (view(side, up.members, up.label), view(side, down.members, down.label))
            )
    names = [side.name for side in sides]
    diffs = [
        EdgeDiff(*shown[edge], tuple(present), tuple(n for n in names if n not in present))
        for edge, present in found.items()
        if len(present) < len(names)
    ]
    return tuple(sorted(diffs, key=lambda d: (d.parent.members, d.child.members)))


def _links(sides: Sequence[Side], texts: dict[MentionKey, str]) -> tuple[LinkDiff, ...]:
    found: dict[tuple[str, MentionKey, MentionKey], list[str]] = {}
    for side in sides:
        for link in side.links:
            if side.name not in found.setdefault(link, []):
                found[link].append(side.name)
    names = [side.name for side in sides]
    diffs = [
        LinkDiff(
            type,
            texts.get(anaphor, ""),
            texts.get(antecedent, ""),
            {side.name: _ids(side).get(anaphor) for side in sides},
            tuple(present),
            tuple(n for n in names if n not in present),
        )
        for (type, anaphor, antecedent), present in sorted(found.items())
        if len(present) < len(names)
    ]
    return tuple(diffs)
