"""From pair scores to suggestions: the inference of SciCo sections 4.1-4.2, shared by backends.

1. Clusters: average-linkage agglomerative clustering over a mention-by-mention similarity
   (cosine, or a pair model's coreference probability); two groups merge while the average
   similarity between them is at least `threshold`.
2. Hierarchy: each candidate edge parent -> child between clusters has a score; edges are added
   greedily from the best score down, skipping any that would close a cycle and, under the
   single-parent rule, any to a child that already has a parent; adding stops at the first
   score below `threshold`. Because a skip depends only on edges already accepted, the edges
   kept for a threshold are exactly the prefix of the list for any lower threshold.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from scipy.cluster.hierarchy import fcluster, linkage
from scipy.spatial.distance import squareform

from corefscore.corpus import ClusterData, MentionData, TopicData
from modelserve.arrays import FloatArray
from modelserve.backends.acyclic import Edge, greedy_acyclic_edges
from modelserve.backends.base import ClusterSuggestion, EdgeSuggestion, Suggestions

# SciCo's class order for a mention pair (m1, m2): the trained and cross-encoder backends map
# their model's outputs to it.
UNRELATED, COREF, PARENT, CHILD = range(4)


def symmetrise(scores: FloatArray) -> FloatArray:
    """Mean of the (i, j) and (j, i) scores: a pair model sees each pair in both orders."""
    scores = np.asarray(scores, dtype=np.float64)
    return (scores + scores.T) / 2.0


def agglomerative_clusters(similarity: FloatArray, threshold: float) -> list[list[int]]:
    """Average-linkage clusters of a symmetric similarity matrix, cut at `threshold`.

    Clusters are lists of mention indices, ascending, ordered by their first mention.
    """
    n = len(similarity)
    if n == 0:
        return []
    if n == 1:
        return [[0]]
    distance = np.clip(1.0 - np.asarray(similarity, dtype=np.float64), 0.0, None)
    distance = (distance + distance.T) / 2.0
    np.fill_diagonal(distance, 0.0)
    tree = linkage(squareform(distance, checks=False), method="average")
    labels = fcluster(tree, t=1.0 - threshold, criterion="distance")
    groups: dict[int, list[int]] = {}
    for index, label in enumerate(labels):
        groups.setdefault(int(label), []).append(index)
    return sorted(groups.values(), key=lambda members: members[0])


def cluster_confidences(similarity: FloatArray, clusters: list[list[int]]) -> list[float]:
    """How sure each cluster is: the mean similarity between its members.

    A singleton has no pair inside; its confidence is that it stands apart: 1 minus its highest
    similarity to any other mention (1.0 when the topic has a single mention).
    """
    similarity = np.asarray(similarity, dtype=np.float64)
    n = len(similarity)
    scores = []
    for members in clusters:
        if len(members) > 1:
            block = similarity[np.ix_(members, members)]
            pairs = len(members) * (len(members) - 1)
            scores.append(float((block.sum() - np.trace(block)) / pairs))
        elif n > 1:
            others = np.delete(similarity[members[0]], members[0])
            scores.append(float(1.0 - others.max()))
        else:
            scores.append(1.0)
    return [min(1.0, max(0.0, s)) for s in scores]


def member_confidences(similarity: FloatArray, clusters: list[list[int]]) -> list[list[float]]:
    """How well each member fits its cluster: its mean similarity to the other members.

    This is what a validation pass (accept / reject each pre-clustered mention, WEC 3.3) sorts
    by. A singleton's member score is its cluster's confidence.
    """
    similarity = np.asarray(similarity, dtype=np.float64)
    confidences = cluster_confidences(similarity, clusters)
    out = []
    for members, confidence in zip(clusters, confidences, strict=True):
        if len(members) == 1:
            out.append([confidence])
            continue
        block = similarity[np.ix_(members, members)]
        fit = (block.sum(axis=1) - np.diag(block)) / (len(members) - 1)
        out.append([min(1.0, max(0.0, float(x))) for x in fit])
    return out


def between_clusters(scores: FloatArray, clusters: list[list[int]]) -> FloatArray:
    """K x K: entry (a, b) = mean of scores[i, j] over i in cluster a, j in cluster b."""
    n = len(scores)
    membership = np.zeros((len(clusters), n))
    for row, members in enumerate(clusters):
        membership[row, members] = 1.0 / len(members)
    return membership @ np.asarray(scores, dtype=np.float64) @ membership.T


def greedy_hierarchy(
    edge_scores: FloatArray, threshold: float, *, single_parent: bool = True
) -> list[Edge]:
    """Edges (parent, child, score) picked greedily from `edge_scores[parent, child]`.

    Self-loops are never candidates. Ties are broken by (parent, child) so runs are repeatable.
    """
    k = len(edge_scores)
    candidates = [
        (float(edge_scores[p, c]), p, c)
        for p in range(k)
        for c in range(k)
        if p != c and edge_scores[p, c] >= threshold
    ]
    candidates.sort(key=lambda item: (-item[0], item[1], item[2]))
    return greedy_acyclic_edges(
        ((parent, child, score) for score, parent, child in candidates),
        single_parent=single_parent,
    )


def to_suggestions(
    clusters: list[list[int]],
    confidences: list[float],
    edges: list[Edge],
    member_scores: list[list[float]] | None = None,
) -> Suggestions:
    members: Sequence[list[float] | None] = member_scores or [None] * len(clusters)
    return Suggestions(
        clusters=[
            ClusterSuggestion(list(m), float(s), ms)
            for m, s, ms in zip(clusters, confidences, members, strict=True)
        ],
        edges=[EdgeSuggestion(parent=p, child=c, score=float(s)) for p, c, s in edges],
    )


def decode_pair_scores(
    coref: FloatArray,
    child_of: FloatArray,
    *,
    cluster_threshold: float,
    hierarchy_threshold: float,
    single_parent: bool = True,
) -> Suggestions:
    """SciCo 4.2 inference from mention-pair probabilities.

    `coref[i, j]`: probability that mentions i and j corefer; `child_of[i, j]`: probability that
    mention i is a child of mention j (already combined with "j is a parent of i" by the
    caller where the model gives both). The score of cluster C1 being a child of C2 is the mean
    of child_of over C1 x C2.
    """
    similarity = symmetrise(coref)
    clusters = agglomerative_clusters(similarity, cluster_threshold)
    confidences = cluster_confidences(similarity, clusters)
    edges = greedy_hierarchy(
        between_clusters(child_of, clusters).T, hierarchy_threshold, single_parent=single_parent
    )
    return to_suggestions(clusters, confidences, edges, member_confidences(similarity, clusters))


def four_class_scores(probabilities: FloatArray) -> tuple[FloatArray, FloatArray]:
    """(coref, child_of) from n x n x 4 pair probabilities in SciCo's class order.

    A pair model sees (i, j) and (j, i) separately: "i is a child of j" and "j is a parent of
    i" are two estimates of the same fact, so child_of averages them.
    """
    coref = probabilities[:, :, COREF]
    child_of = (probabilities[:, :, CHILD] + probabilities[:, :, PARENT].T) / 2.0
    return coref, child_of


def as_topic(topic: TopicData, suggestions: Suggestions) -> TopicData:
    """`topic` annotated with the suggestions (cluster keys "s0", "s1", ...), e.g. to score it."""
    cluster_of = {m: f"s{k}" for k, c in enumerate(suggestions.clusters) for m in c.mentions}
    mentions = [
        MentionData(m.document, m.spans, cluster_of.get(index), dict(m.metadata))
        for index, m in enumerate(topic.mentions)
    ]
    return TopicData(
        external_id=topic.external_id,
        documents=topic.documents,
        mentions=mentions,
        clusters=[ClusterData(f"s{k}") for k in range(len(suggestions.clusters))],
        relations=[(f"s{e.parent}", f"s{e.child}") for e in suggestions.edges],
        source=topic.source,
        metadata=dict(topic.metadata),
    )


def decode_four_class(
    probabilities: FloatArray,
    *,
    cluster_threshold: float,
    hierarchy_threshold: float,
    single_parent: bool = True,
) -> Suggestions:
    """SciCo 4.2 inference from n x n x 4 pair probabilities (SciCo's class order)."""
    coref, child_of = four_class_scores(probabilities)
    return decode_pair_scores(
        coref,
        child_of,
        cluster_threshold=cluster_threshold,
        hierarchy_threshold=hierarchy_threshold,
        single_parent=single_parent,
    )
