"""Simulated annotators for the consensus: a hidden gold topic and independent perturbations of
it, as plain `Version`s, and both as `TopicData` for the scorers.

Used by the generated-data test (does the consensus beat the annotators against the gold?)
and by `python -m bench adjudication` (a 1,000-mention topic, five annotators). The caller
passes the random generator, so runs are reproducible.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from adjudication.domain.consensus import ClusterKey, Consensus, MentionKey, Version, VersionCluster
from corefscore.corpus import ClusterData, DocumentData, MentionData, TopicData


@dataclass(frozen=True)
class Perturbation:
    """Per-annotator error rates (independent draws per mention or edge)."""

    move: float = 0.12  # a mention goes to another gold cluster
    split: float = 0.06  # a mention is left alone in a new cluster
    drop_edge: float = 0.2  # a gold edge is missing
    add_edge: float = 0.1  # a cluster without a parent gets a wrong one


def hidden_gold(
    rng: random.Random, *, mentions: int, documents: int = 4, max_cluster: int = 8
) -> Version:
    """`mentions` one-token mentions spread over `documents`, clusters of 1..max_cluster
    members, and a forest of clusters (each cluster but the first may have an earlier parent)."""
    keys: list[MentionKey] = sorted(
        (i % documents, ((i // documents,) * 2,)) for i in range(mentions)
    )
    shuffled = keys[:]
    rng.shuffle(shuffled)
    clusters: dict[ClusterKey, VersionCluster] = {}
    while shuffled:
        size = rng.randint(1, max_cluster)
        members, shuffled = shuffled[:size], shuffled[size:]
        clusters[f"g{len(clusters)}"] = VersionCluster(frozenset(members))
    names = list(clusters)
    edges = frozenset(
        (names[rng.randrange(position)], child)
        for position, child in enumerate(names)
        if position and rng.random() < 0.5
    )
    return Version(frozenset(keys), clusters, edges)


def perturbed(rng: random.Random, gold: Version, rate: Perturbation) -> Version:
    """One annotator's version of `gold`: some mentions moved or split off (a singleton is not
    split: that would only rename it), some edges dropped or added (the hierarchy stays a
    single-parent forest)."""
    names = list(gold.clusters)
    place = {m: name for name, c in gold.clusters.items() for m in c.members}
    members: dict[ClusterKey, set[MentionKey]] = {name: set() for name in names}
    for mention in sorted(place):
        draw = rng.random()
        if draw < rate.move:
            target = names[rng.randrange(len(names))]
        elif draw < rate.move + rate.split and len(gold.clusters[place[mention]].members) > 1:
            target = f"s{len(members)}"
            members[target] = set()
        else:
            target = place[mention]
        members[target].add(mention)
    alive = [name for name in names if members[name]]
    order = {name: position for position, name in enumerate(names)}
    edges = {
        (p, c)
        for p, c in sorted(gold.edges, key=str)
        if members[p] and members[c] and rng.random() >= rate.drop_edge
    }
    children = {c for _, c in edges}
    for child in alive:
        if child in children or order[child] == 0 or rng.random() >= rate.add_edge:
            continue
        earlier = [name for name in alive if order[name] < order[child]]
        if earlier:
            edges.add((earlier[rng.randrange(len(earlier))], child))
    return Version(
        gold.mentions,
        {name: VersionCluster(frozenset(m)) for name, m in members.items() if m},
        frozenset(edges),
    )


def version_topic(version: Version, *, external_id: str, token_counts: list[int]) -> TopicData:
    """`version` as a topic the scorers read (clusters keyed by their names)."""
    cluster_of = {
        m: str(name)
        for name, cluster in version.clusters.items()
        for m in cluster.members
        if m in version.mentions
    }
    return _topic(
        external_id,
        token_counts,
        sorted(version.mentions),
        cluster_of,
        [(str(p), str(c)) for p, c in sorted(version.edges, key=str)],
    )


def consensus_topic(result: Consensus, *, external_id: str, token_counts: list[int]) -> TopicData:
    cluster_of = {m: f"c{i}" for i, c in enumerate(result.clusters) for m in c.members}
    relations = [(f"c{p}", f"c{c}") for p, c in result.edges]
    return _topic(external_id, token_counts, list(result.mentions), cluster_of, relations)


def _topic(
    external_id: str,
    token_counts: list[int],
    mentions: list[MentionKey],
    cluster_of: dict[MentionKey, str],
    relations: list[tuple[str, str]],
) -> TopicData:
    return TopicData(
        external_id=external_id,
        documents=[DocumentData(f"d{i}", ["w"] * n) for i, n in enumerate(token_counts)],
        mentions=[MentionData(d, spans, cluster_of.get((d, spans))) for d, spans in mentions],
        clusters=[ClusterData(key) for key in dict.fromkeys(cluster_of.values())],
        relations=relations,
    )
