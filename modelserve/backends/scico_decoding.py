"""SciCo's inference from 4-class mention-pair scores, as its released code does it.

The unified model of SciCo (section 4.2) scores every ordered mention pair (i, j) with four
probabilities in this class order: unrelated, coref, i is a parent of j, i is a child of j.
Its released `predict.py` (`MulticlassInference`) turns them into clusters and a hierarchy:

1. Coref adjacency: 1 on the diagonal; for a pair whose arg-max class is not "unrelated", its
   coref probability; every other pair 0 (`get_coref_adjacency_matrix`).
2. Undirected: each pair takes the max of its two directions.
3. Clusters: average-linkage agglomerative clustering of the distance 1 - adjacency, two
   groups merging while their distance is below `agg_threshold` (scikit-learn's
   `distance_threshold`; 0.6 in `configs/multiclass.yaml`).
4. Hierarchy: for every ordered pair of clusters (A, B), in order of their first mentions,
   the mean of "i is a child of j" over i in A, j in B (the child column alone); the pairs
   scoring at least `hypernym_threshold` (0.4) are candidates for "B is the parent of A".
5. `get_greedy_relations`: candidates are taken one by one; one is kept unless its child
   already has a parent or it closes a cycle. The released code walks the candidates in
   ascending score order (`torch.sort` without `descending`), so a child gets the
   lowest-scoring of its parents above the threshold; the paper says highest first.
   `scico-released` walks them as the released code does (the published numbers come from
   it), with torch.sort, whose order of equal scores (not stable past 16 values) the
   released code inherits; `paper` highest first, equal scores in candidate order.

Arithmetic follows the released code too: scores are float32 (SciCo's tensors are), so are
the cluster means and the threshold they are compared with; scikit-learn's clustering is
SciPy's average linkage on the upper triangle, cut where scikit-learn cuts it. Pure: numpy,
SciPy and torch's sort, no Django.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import torch
from scipy.cluster.hierarchy import linkage

from modelserve.arrays import FloatArray
from modelserve.backends.acyclic import greedy_acyclic_edges

UNRELATED, COREF, PARENT, CHILD = range(4)
DECODINGS = ("scico-released", "paper")
DEFAULT_DECODING = "scico-released"
AGG_THRESHOLD = 0.6  # configs/multiclass.yaml: agg_threshold (a distance)
HYPERNYM_THRESHOLD = 0.4  # configs/multiclass.yaml: hypernym_threshold


@dataclass
class Decoded:
    """Clusters (mention indices, ascending, ordered by first mention) and relations
    (parent cluster index, child cluster index, score)."""

    clusters: list[list[int]]
    relations: list[tuple[int, int, float]]


def pair_tensor(n: int, rows: Sequence[Sequence[float]]) -> FloatArray:
    """n x n x 4 float32 scores from rows [i, j, p_unrelated, p_coref, p_parent, p_child].

    Every ordered pair i != j must be there, once; the diagonal stays 0.
    """
    scores = np.zeros((n, n, 4), dtype=np.float32)
    seen = np.eye(n, dtype=bool)
    for number, row in enumerate(rows):
        if len(row) != 6:
            raise ValueError(f"pair_scores[{number}]: a row is [i, j, 4 scores], not {row!r}")
        i, j = row[0], row[1]
        if not (isinstance(i, int) and isinstance(j, int) and 0 <= i < n and 0 <= j < n):
            raise ValueError(f"pair_scores[{number}]: mentions {i!r}, {j!r} are not in 0..{n - 1}")
        if seen[i, j]:
            what = "pairs a mention with itself" if i == j else "repeats an earlier pair"
            raise ValueError(f"pair_scores[{number}]: ({i}, {j}) {what}")
        seen[i, j] = True
        scores[i, j] = np.asarray(row[2:], dtype=np.float32)
    if not seen.all():
        i, j = (int(x) for x in np.argwhere(~seen)[0])
        missing = int((~seen).sum())
        raise ValueError(f"pair_scores: {missing} ordered pairs missing, ({i}, {j}) the first")
    return scores


def coref_adjacency(scores: FloatArray) -> FloatArray:
    """Coref probability where the pair's arg-max is not "unrelated", 0 elsewhere, 1 on the
    diagonal (first arg-max on ties, as torch.argmax)."""
    scores = np.asarray(scores, dtype=np.float32)
    n = len(scores)
    related = np.argmax(scores, axis=2) != UNRELATED
    adjacency = np.where(related, scores[:, :, COREF], np.float32(0.0)).astype(np.float32)
    adjacency[np.arange(n), np.arange(n)] = 1.0
    return adjacency


def average_linkage_clusters(distance: FloatArray, threshold: float) -> list[list[int]]:
    """scikit-learn's AgglomerativeClustering(linkage="average", metric="precomputed",
    distance_threshold=threshold) on a symmetric distance matrix, as clusters.

    scikit-learn runs SciPy's linkage on the upper triangle, counts the merges at or above the
    threshold (k - 1 of them for k clusters) and undoes the last k - 1 merges; so do we.
    """
    n = len(distance)
    if n < 2:
        return [[0]] if n else []
    upper = np.asarray(distance)[np.triu_indices(n, k=1)]
    merges = linkage(upper, method="average")
    kept = n - (int(np.count_nonzero(merges[:, 2] >= threshold)) + 1)
    parent = list(range(2 * n - 1))

    def root(node: int) -> int:
        while parent[node] != node:
            parent[node] = parent[parent[node]]
            node = parent[node]
        return node

    for step in range(kept):
        a, b = int(merges[step, 0]), int(merges[step, 1])
        parent[root(a)] = n + step
        parent[root(b)] = n + step
    groups: dict[int, list[int]] = {}
    for mention in range(n):
        groups.setdefault(root(mention), []).append(mention)
    return sorted(groups.values(), key=lambda members: members[0])


def cluster_child_scores(
    child: FloatArray, clusters: list[list[int]]
) -> list[tuple[int, int, np.float32]]:
    """(a, b, mean of child[i, j] for i in cluster a, j in cluster b) for every ordered pair
    of distinct clusters, a-major: the candidates' order. Float32 like the released code."""
    child = np.asarray(child, dtype=np.float32)
    out = []
    for a, first in enumerate(clusters):
        for b, second in enumerate(clusters):
            if a != b:
                block = child[np.ix_(first, second)].astype(np.float64)
                out.append((a, b, np.float32(block.sum() / block.size)))
    return out


def greedy_relations(
    candidates: list[tuple[int, int, np.float32]], *, highest_first: bool
) -> list[tuple[int, int, float]]:
    """(parent, child, score) kept from candidates (child cluster, parent cluster, score):
    in score order, ascending as released (equal scores in torch.sort's order, as released)
    or highest first (equal scores in candidate order); one is skipped when its child already
    has a parent or when it would close a cycle."""
    scores = np.array([score for _, _, score in candidates], dtype=np.float32)
    if highest_first:
        order = np.argsort(-scores, kind="stable")
    else:
        # torch.sort itself: its order of equal scores (not stable past 16 values) is part of
        # what the released code does
        order = torch.sort(torch.from_numpy(scores)).indices.numpy()
    taken = (candidates[int(index)] for index in order)
    return greedy_acyclic_edges((parent, child, float(score)) for child, parent, score in taken)


def decode(
    scores: FloatArray,
    *,
    decoding: str = DEFAULT_DECODING,
    agg_threshold: float = AGG_THRESHOLD,
    hypernym_threshold: float = HYPERNYM_THRESHOLD,
) -> Decoded:
    """Clusters and relations from n x n x 4 pair scores (SciCo's class order)."""
    if decoding not in DECODINGS:
        raise ValueError(f"unknown decoding {decoding!r}; known: {', '.join(DECODINGS)}")
    scores = np.asarray(scores, dtype=np.float32)
    adjacency = coref_adjacency(scores)
    undirected = np.maximum(adjacency, adjacency.T)
    clusters = average_linkage_clusters(np.float32(1.0) - undirected, agg_threshold)
    threshold = np.float32(hypernym_threshold)
    candidates = [
        (a, b, score)
        for a, b, score in cluster_child_scores(scores[:, :, CHILD], clusters)
        if score >= threshold
    ]
    relations = greedy_relations(candidates, highest_first=decoding == "paper")
    return Decoded(clusters, relations)
