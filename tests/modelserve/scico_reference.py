"""Test-only reference: SciCo's released inference, ported to run here (not product code).

Ports, from ariecattan/SciCo:
- `predict.py`, class `MulticlassInference`: `get_coref_adjacency_matrix`,
  `undirect_adjacency_matrix`, `get_mention_pairs`, `hypernym_relations`,
  `get_topic_prediction` (one topic at a time instead of the dataset's split);
- `utils/model_utils.py`, `get_greedy_relations` (ascending `torch.sort` included; an option
  `descending` gives the paper's highest-first reading, as the commented-out block in
  `get_hypernym_relations` sorts);
- `lexical_baseline.py`, `get_topic_cluster` (with a plain Levenshtein for `textdistance`'s
  `levenshtein.normalized_similarity`, which is 1 - distance / length of the longer string).

Behaviour is kept: torch float32 tensors, `torch.argmax`, `index_put_`, scikit-learn's
`AgglomerativeClustering` (average linkage, precomputed distances; `affinity=` is spelled
`metric=` in scikit-learn >= 1.4), networkx's `simple_cycles` for the cycle test, the pair order
of `CrossEncoderDataset` (all ordered pairs i != j, i-major). Two things the released code
cannot do are guarded: a topic whose mentions form one cluster (its `zip(*[])` raises) gets
no relations, and a one-mention topic (no pairs) one cluster.
"""

from __future__ import annotations

import collections
from itertools import product

import networkx as nx
import numpy as np
import torch
from sklearn.cluster import AgglomerativeClustering


def info_pairs(n: int) -> torch.Tensor:
    """[topic, i, j] rows for topic 0, as CrossEncoderDataset lists them."""
    return torch.tensor([[0, x, y] for x, y in product(range(n), repeat=2) if x != y])


def coref_adjacency(pairs: torch.Tensor, scores: torch.Tensor) -> np.ndarray:
    size = int(pairs[:, 1:].max().item()) + 1
    adjacency = torch.eye(size)
    predicted = torch.argmax(scores, dim=1)
    kept = torch.nonzero(predicted != 0).squeeze(-1)
    adjacency.index_put_(tuple(pairs[kept][:, 1:].t()), scores[kept][:, 1])
    return adjacency.numpy()


def undirected(matrix: np.ndarray) -> np.ndarray:
    out = matrix.copy()
    for i in range(len(matrix)):
        for j in range(i, len(matrix)):
            out[i, j] = out[j, i] = max(matrix[i, j], matrix[j, i])
    return out


def mean_over_pairs(first: list[int], second: list[int], pairs: list, column: torch.Tensor):
    wanted = [[x, y] for x in first for y in second]
    rows = [k for k, pair in enumerate(pairs) if pair in wanted]
    return column[rows].mean()


def greedy_relations(cluster_ids, scores, first, second, descending=False):
    graph = nx.DiGraph(directed=True)
    graph.add_nodes_from(cluster_ids)
    if descending:
        _, order = torch.sort(scores, descending=True, stable=True)
    else:
        _, order = torch.sort(scores)  # as released: ascending
    for k in order:
        parent, child = cluster_ids[second[k]], cluster_ids[first[k]]
        if sum(graph.has_edge(node, child) for node in graph.nodes) == 0:  # one parent at most
            graph.add_edge(parent, child)
            if len(list(nx.simple_cycles(graph))) > 0:
                graph.remove_edge(parent, child)
    return [[int(a), int(b)] for a, b in graph.edges]


def multiclass_inference(
    n: int,
    scores: torch.Tensor,
    agg_threshold: float = 0.6,
    hypernym_threshold: float = 0.4,
    descending: bool = False,
) -> tuple[list[int], list[list[int]]]:
    """(cluster label per mention, [parent label, child label] relations) for one topic whose
    pair scores are in `info_pairs(n)` order."""
    if n == 1:
        return [0], []
    pairs = info_pairs(n)
    adjacency = undirected(coref_adjacency(pairs, scores))
    clustering = AgglomerativeClustering(
        n_clusters=None,
        metric="precomputed",
        linkage="average",
        distance_threshold=agg_threshold,
    )
    labels = [int(x) for x in clustering.fit(1 - adjacency).labels_]
    clusters = collections.defaultdict(list)
    for mention, label in enumerate(labels):
        clusters[label].append(mention)
    cluster_ids = list(clusters)
    ordered = [(x, y) for x, y in product(range(len(cluster_ids)), repeat=2) if x != y]
    if not ordered:  # the released code raises here (zip of nothing)
        return labels, []
    first, second = zip(*ordered, strict=True)
    pair_list = pairs[:, 1:].tolist()
    averages = torch.stack(
        [
            mean_over_pairs(
                clusters[cluster_ids[x]], clusters[cluster_ids[y]], pair_list, scores[:, 3]
            )
            for x, y in zip(first, second, strict=True)
        ]
    )
    keep = torch.nonzero(averages >= hypernym_threshold).squeeze(-1)
    relations = greedy_relations(
        cluster_ids,
        averages[keep],
        torch.tensor(first)[keep],
        torch.tensor(second)[keep],
        descending=descending,
    )
    return labels, relations


def levenshtein(a: str, b: str) -> int:
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1]


def normalized_similarity(a: str, b: str) -> float:
    longest = max(len(a), len(b))
    return 1.0 if longest == 0 else 1 - levenshtein(a, b) / longest


def lexical_baseline(mention_strings: list[str]) -> list[int]:
    """lexical_baseline.py's get_topic_cluster: a cluster label per mention."""
    if len(mention_strings) == 1:
        return [0]
    similarity = [[normalized_similarity(x, y) for x in mention_strings] for y in mention_strings]
    clustering = AgglomerativeClustering(
        n_clusters=None, metric="precomputed", distance_threshold=0.3, linkage="average"
    )
    return [int(x) for x in clustering.fit(1 - np.array(similarity)).labels_]
