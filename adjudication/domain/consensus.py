"""A consensus of several annotators' versions of one topic: the adjudicator's starting point.

Pure and deterministic: the result depends on the versions as a multiset (not on their
order) and on cluster membership (not on cluster keys). The algorithm and why it was chosen:
docs/adjudication.md.

1. Mentions. A mention (identified by `(document, spans)`) is kept when more than half of
   the annotators have it active (not rejected; present at all for added mentions).
2. Clusters. Average-linkage agglomerative clustering over pairwise agreement: the
   similarity of two mentions is the share of annotators who put them in one cluster, and
   two groups merge, most similar first, while their mean pairwise similarity exceeds
   `threshold` (0.5: a strict majority). Mentions that every annotator treats alike
   ("twins": the same cluster in every version) are grouped first, which is what average
   linkage would do and keeps 1,000-mention topics fast. A kept mention that no group takes
   is a singleton when a majority clustered it, else it stays unassigned.
3. Hierarchy edges. An annotator supports the edge P -> Q between consensus clusters when
   they have an edge between the clusters of theirs that hold more than half of P's and of
   Q's members. Edges that a majority supports are added, best supported first, skipping
   any that would close a cycle or give a cluster a second parent (single-parent projects).
4. Links. A link (type, anaphor, antecedent) that a majority has, between kept mentions, is
   added, best supported first, skipping any that breaks a ChEMU-Ref rule (link_rules) or,
   when the project refuses them, a second link between the same two mentions.
5. Labels and notes. Each annotator's cluster names the consensus cluster holding its first
   member; a consensus cluster takes the label most of those naming it carry (`_texts`).

Ties are broken by the mentions' keys (document, spans), never by input order or ids.
"""

from __future__ import annotations

import heapq
from collections import Counter, defaultdict
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import NamedTuple

from corefscore.corpus import Spans
from corefscore.link_rules import one_to_one_taken, pair_rule

MentionKey = tuple[int, Spans]  # (document, spans)
ClusterKey = Hashable


class KeyLink(NamedTuple):
    type: str
    anaphor: MentionKey
    antecedent: MentionKey


@dataclass(frozen=True)
class VersionCluster:
    members: frozenset[MentionKey]
    label: str = ""
    note: str = ""


@dataclass(frozen=True)
class Version:
    """One annotator's annotation of the topic, in mention keys."""

    mentions: frozenset[MentionKey]  # the active ones
    clusters: Mapping[ClusterKey, VersionCluster] = field(default_factory=dict)
    edges: frozenset[tuple[ClusterKey, ClusterKey]] = frozenset()  # (parent, child)
    links: frozenset[KeyLink] = frozenset()


@dataclass(frozen=True)
class Rules:
    single_parent: bool = True
    refuse_duplicate_link_pairs: bool = False


@dataclass(frozen=True)
class ConsensusCluster:
    members: tuple[MentionKey, ...]  # sorted
    label: str = ""
    note: str = ""
    support: int = 0  # annotators with a cluster of exactly these members


@dataclass(frozen=True)
class Consensus:
    mentions: tuple[MentionKey, ...]  # kept, sorted
    clusters: tuple[ConsensusCluster, ...]  # by first member
    edges: tuple[tuple[int, int], ...]  # (parent, child) positions in `clusters`, sorted
    links: tuple[KeyLink, ...]  # sorted
    edge_support: Mapping[tuple[int, int], int] = field(default_factory=dict)
    link_support: Mapping[KeyLink, int] = field(default_factory=dict)


def consensus(
    versions: Sequence[Version], *, rules: Rules | None = None, threshold: float = 0.5
) -> Consensus:
    """The consensus of `versions` (at least one); see the module docstring."""
    if not versions:
        raise ValueError("a consensus needs at least one version")
    if not 0 <= threshold < 1:
        raise ValueError(f"threshold must be in [0, 1), not {threshold}")
    rules = rules or Rules()
    kept = _kept_mentions(versions)
    where = [_cluster_of(version) for version in versions]
    groups = _clusters(where, kept, Fraction(threshold))
    texts = _texts(groups, versions, where)
    clusters = [_describe(g, texts[i], versions, where) for i, g in enumerate(groups)]
    edges, edge_support = _edges(versions, where, clusters, rules)
    links, link_support = _links(versions, kept, rules)
    return Consensus(
        mentions=tuple(kept),
        clusters=tuple(clusters),
        edges=edges,
        links=links,
        edge_support=edge_support,
        link_support=link_support,
    )


def _majority(count: int, n: int) -> bool:
    return 2 * count > n


def _kept_mentions(versions: Sequence[Version]) -> list[MentionKey]:
    counts = Counter(key for version in versions for key in version.mentions)
    return sorted(key for key, count in counts.items() if _majority(count, len(versions)))


def _cluster_of(version: Version) -> dict[MentionKey, ClusterKey]:
    return {
        member: key
        for key, cluster in version.clusters.items()
        for member in cluster.members
        if member in version.mentions
    }


# -- clusters ------------------------------------------------------------------------------


def _clusters(
    where: list[dict[MentionKey, ClusterKey]], kept: list[MentionKey], threshold: Fraction
) -> list[tuple[MentionKey, ...]]:
    n = len(where)
    # Twins: the same cluster (or none) in every version. Their signature says it.
    twins: dict[tuple[ClusterKey | None, ...], list[MentionKey]] = defaultdict(list)
    for key in kept:
        twins[tuple(w.get(key) for w in where)].append(key)
    atoms: list[tuple[MentionKey, ...]] = []
    singles: list[MentionKey] = []
    for signature, members in twins.items():
        clustered = sum(1 for k in signature if k is not None)
        # A pair's similarity never exceeds the share of annotators who cluster it at all.
        if Fraction(clustered, n) > threshold:
            atom = tuple(members)  # sorted, as `kept` is
            atoms.append(atom)
        else:
            singles += [m for m in members if _majority(clustered, n)]
    result = _agglomerate(atoms, _atom_similarity(atoms, where), n, threshold)
    result += [(m,) for m in singles]
    return sorted(result)


def _atom_similarity(
    atoms: list[tuple[MentionKey, ...]], where: list[dict[MentionKey, ClusterKey]]
) -> dict[int, dict[int, int]]:
    """Atom index -> atom index -> annotators who put the two atoms in one cluster."""
    similarity: dict[int, dict[int, int]] = defaultdict(dict)
    for clusters in where:
        by_cluster: dict[ClusterKey, list[int]] = defaultdict(list)
        for index, atom in enumerate(atoms):
            key = clusters.get(atom[0])
            if key is not None:
                by_cluster[key].append(index)
        for indexes in by_cluster.values():
            for i, a in enumerate(indexes):
                row = similarity[a]
                for b in indexes[i + 1 :]:
                    row[b] = row.get(b, 0) + 1
                    similarity[b][a] = row[b]
    return similarity


def _agglomerate(
    atoms: list[tuple[MentionKey, ...]],
    similarity: dict[int, dict[int, int]],
    n: int,
    threshold: Fraction,
) -> list[tuple[MentionKey, ...]]:
    """Average linkage over atoms (each a group of twins), sparse: groups that no annotator
    ever put together have linkage 0 and are never compared. A heap holds candidate merges;
    an entry made stale by a later merge is recognised by its linkage and skipped."""
    size = {i: len(atom) for i, atom in enumerate(atoms)}
    first = {i: atom[0] for i, atom in enumerate(atoms)}
    members: dict[int, list[MentionKey]] = {i: list(atom) for i, atom in enumerate(atoms)}
    # sums[a][b]: over every pair of members, the annotators who put that pair together.
    sums: dict[int, dict[int, int]] = {i: {} for i in size}
    for a, row in similarity.items():
        sums[a] = {b: count * size[a] * size[b] for b, count in row.items()}
    heap: list[tuple[float, MentionKey, MentionKey, int, int]] = []

    # The heap orders by a float (fast); whether a merge clears the threshold is decided
    # exactly, in integers: sums / (|a| |b|) / n > p / q.
    def linkage(a: int, b: int) -> float:
        return sums[a].get(b, 0) / (size[a] * size[b])

    def push(a: int, b: int) -> None:
        low, high = (a, b) if first[a] < first[b] else (b, a)
        heapq.heappush(heap, (-linkage(a, b), first[low], first[high], low, high))

    def clears(a: int, b: int) -> bool:
        return (
            sums[a].get(b, 0) * threshold.denominator > threshold.numerator * n * size[a] * size[b]
        )

    for a, row in sums.items():
        for b in row:
            if first[a] < first[b]:
                push(a, b)
    while heap:
        negative, _, _, a, b = heapq.heappop(heap)
        if a not in size or b not in size or linkage(a, b) != -negative:
            continue  # stale: one side grew since
        if not clears(a, b):
            break
        # b joins a: a has the smaller first member, so the group keeps its name.
        members[a] += members.pop(b)
        size[a] += size.pop(b)
        row_b = sums.pop(b)
        row_b.pop(a, None)
        sums[a].pop(b, None)
        for other, value in row_b.items():
            sums[other].pop(b, None)
            sums[a][other] = sums[a].get(other, 0) + value
            sums[other][a] = sums[a][other]
        for other in sums[a]:
            push(a, other)
    return [tuple(sorted(group)) for group in members.values()]


def _texts(
    groups: Sequence[tuple[MentionKey, ...]],
    versions: Sequence[Version],
    where: list[dict[MentionKey, ClusterKey]],
) -> list[tuple[str, str]]:
    """Each consensus cluster's label and note: those carried by most of the annotators'
    clusters that give it their name (ties: the smallest text); ("", "") for a cluster that no
    annotator's cluster names (the seed then labels it with its first mention's text).

    An annotator's cluster names one consensus cluster only: the one holding its first member
    (in (document, spans) order, as the workspace names a new cluster after its first
    mention). Naming every consensus cluster it stands for gave one label to each piece of a
    cluster the consensus split: the demo's "Graph attention networks" on a cluster holding
    only "attention-based aggregation". By its first member rather than by
    most members: a default label is its first member's text, so the label goes where that
    text is ("exploration" stays on "exploration", not on the "exploration-exploitation
    trade-off" an annotator had merged into it).
    """
    group_of = {member: index for index, group in enumerate(groups) for member in group}
    votes: list[Counter[tuple[str, str]]] = [Counter() for _ in groups]
    for version, clusters in zip(versions, where, strict=True):
        members: dict[ClusterKey, list[MentionKey]] = defaultdict(list)
        for mention, key in clusters.items():
            members[key].append(mention)
        firsts = sorted(
            (min(placed), key)
            for key, inside in members.items()
            if (placed := [m for m in inside if m in group_of])
        )
        # One vote per annotator and consensus cluster (the naming cluster with the earliest
        # first member): an annotator who split what the majority keeps whole must not
        # outvote the majority with each of its pieces.
        voted: set[int] = set()
        for first, key in firsts:
            if group_of[first] in voted:
                continue
            voted.add(group_of[first])
            cluster = version.clusters[key]
            votes[group_of[first]][(cluster.label, cluster.note)] += 1
    return [_most_voted(v) for v in votes]


def _most_voted(votes: Counter[tuple[str, str]]) -> tuple[str, str]:
    """The text with the most votes (ties: the smallest); ("", "") without any."""
    if not votes:
        return ("", "")
    return min(votes, key=lambda text: (-votes[text], text))


def _describe(
    group: tuple[MentionKey, ...],
    text: tuple[str, str],
    versions: Sequence[Version],
    where: list[dict[MentionKey, ClusterKey]],
) -> ConsensusCluster:
    """A consensus cluster with its label and note (`_texts`) and how many annotators have
    exactly this cluster."""
    members = frozenset(group)
    exact = 0
    for version, clusters in zip(versions, where, strict=True):
        counterpart = _counterpart(clusters, group)
        if counterpart is None:
            continue
        cluster = version.clusters[counterpart]
        exact += cluster.members & version.mentions == members
    return ConsensusCluster(group, text[0], text[1], exact)


def _counterpart(
    clusters: Mapping[MentionKey, ClusterKey], group: Sequence[MentionKey]
) -> ClusterKey | None:
    """The annotator's cluster that stands for `group`: the one holding most of its members;
    among equals the smaller cluster, then the one whose first member comes first (never the
    cluster's key, so that names change nothing)."""
    inside = Counter(clusters[m] for m in group if m in clusters)
    if not inside:
        return None
    best = max(inside.values())
    tied = [key for key, count in inside.items() if count == best]
    if len(tied) == 1:
        return tied[0]
    members: dict[ClusterKey, list[MentionKey]] = defaultdict(list)
    for mention, key in clusters.items():
        if key in tied:
            members[key].append(mention)
    return min(tied, key=lambda key: (len(members[key]), min(members[key])))


# -- hierarchy -----------------------------------------------------------------------------


def _edges(
    versions: Sequence[Version],
    where: list[dict[MentionKey, ClusterKey]],
    clusters: Sequence[ConsensusCluster],
    rules: Rules,
) -> tuple[tuple[tuple[int, int], ...], dict[tuple[int, int], int]]:
    support: Counter[tuple[int, int]] = Counter()
    for version, annotator_clusters in zip(versions, where, strict=True):
        if not version.edges:
            continue
        stands_for: dict[ClusterKey, list[int]] = defaultdict(list)
        for index, cluster in enumerate(clusters):
            counterpart = _counterpart(annotator_clusters, cluster.members)
            if counterpart is not None:
                stands_for[counterpart].append(index)
        seen: set[tuple[int, int]] = set()
        for parent, child in version.edges:
            for p in stands_for.get(parent, ()):
                for c in stands_for.get(child, ()):
                    if p != c and (p, c) not in seen:
                        seen.add((p, c))
                        support[(p, c)] += 1
    chosen: dict[tuple[int, int], int] = {}
    parents: dict[int, set[int]] = defaultdict(set)
    children: dict[int, set[int]] = defaultdict(set)
    order = sorted(support, key=lambda edge: (-support[edge], edge))
    for parent, child in order:
        if not _majority(support[(parent, child)], len(versions)):
            break
        if rules.single_parent and parents[child]:
            continue
        if _reaches(children, child, parent):
            continue  # the edge would close a cycle
        chosen[(parent, child)] = support[(parent, child)]
        parents[child].add(parent)
        children[parent].add(child)
    return tuple(sorted(chosen)), chosen


def _reaches(children: Mapping[int, set[int]], start: int, goal: int) -> bool:
    stack, seen = [start], {start}
    while stack:
        node = stack.pop()
        if node == goal:
            return True
        for child in children.get(node, ()):
            if child not in seen:
                seen.add(child)
                stack.append(child)
    return False


# -- links ---------------------------------------------------------------------------------


class _End(NamedTuple):
    document: int
    spans: Spans


class _Numbered(NamedTuple):
    """A link by mention positions, the shape link_rules reads."""

    type: str
    anaphor: int
    antecedent: int


def _links(
    versions: Sequence[Version], kept: list[MentionKey], rules: Rules
) -> tuple[tuple[KeyLink, ...], dict[KeyLink, int]]:
    position = {key: p for p, key in enumerate(kept)}
    support: Counter[KeyLink] = Counter(link for version in versions for link in version.links)
    chosen: dict[KeyLink, int] = {}
    touching: dict[int, list[_Numbered]] = defaultdict(list)
    pairs: set[tuple[int, int]] = set()
    for link in sorted(support, key=lambda link: (-support[link], link)):
        if not _majority(support[link], len(versions)):
            break
        if link.anaphor not in position or link.antecedent not in position:
            continue
        numbered = _Numbered(link.type, position[link.anaphor], position[link.antecedent])
        if pair_rule(numbered, _End(*link.anaphor), _End(*link.antecedent)) is not None:
            continue
        ends = numbered.anaphor, numbered.antecedent
        if one_to_one_taken(numbered, touching[ends[0]], touching[ends[1]]):
            continue
        if rules.refuse_duplicate_link_pairs and ends in pairs:
            continue
        chosen[link] = support[link]
        pairs.add(ends)
        touching[ends[0]].append(numbered)
        touching[ends[1]].append(numbered)
    return tuple(sorted(chosen)), chosen
