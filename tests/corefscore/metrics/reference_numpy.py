"""The hierarchy and path-ratio code as it was with numpy (commit a843b4d), kept as the oracle.

``corefscore.metrics`` now computes these in plain Python (importing numpy cost the
command line more than the computation); the tests compare the two with ``==`` on random
topics more general than SciCo's (relation-only clusters, cycles, repeated relations, mention
lists that differ between the sides), where the reference ports of SciCo's loops do not go.
Do not optimise this file.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from functools import cached_property

import numpy

from corefscore.metrics.counts import Counts
from corefscore.metrics.hierarchy import reachable


class ClusterGraph:
    """One side of a hierarchy comparison. Derived tables are computed once and cached, so
    a side compared several times (IAA pairs) pays for them once."""

    def __init__(
        self, cluster_of: Mapping[Hashable, Hashable], relations: Iterable[tuple] = ()
    ) -> None:
        self.cluster_of = cluster_of
        self.relations = tuple(relations)

    @cached_property
    def members(self) -> dict:
        """Cluster -> its mentions, for clusters that have mentions (first-seen order)."""
        members: dict = {}
        for mention, cluster in self.cluster_of.items():
            members.setdefault(cluster, []).append(mention)
        return members

    @cached_property
    def nodes(self) -> dict:
        """Cluster -> position: clusters with mentions first, then relation-only endpoints."""
        nodes = {cluster: i for i, cluster in enumerate(self.members)}
        for relation in self.relations:
            for cluster in relation:
                nodes.setdefault(cluster, len(nodes))
        return nodes

    @cached_property
    def children(self) -> dict:
        children: dict = {}
        for parent, child in self.relations:
            children.setdefault(parent, []).append(child)
        return children

    @cached_property
    def reach(self) -> dict:
        """Node -> {node it reaches: edges on the shortest path}, for the nodes that have
        children (the others reach nothing): one breadth-first walk per node, shared by the
        closure and the distance table."""
        children = self.children
        return {start: reachable(start, children) for start in children}

    @cached_property
    def closure(self) -> set:
        """:func:`transitive_closure` of the relations, from the shared walks."""
        closed = set(self.relations)
        for start, reached in self.reach.items():
            for node in reached:
                closed.add((start, node))
        return closed

    @cached_property
    def closure_matrix(self):
        matrix = numpy.zeros((len(self.nodes), len(self.nodes)), dtype=numpy.float64)
        for parent, child in self.closure:
            matrix[self.nodes[parent], self.nodes[child]] = 1.0
        return matrix

    @cached_property
    def distance_table(self):
        """(position of each cluster with mentions, d between them): 1 on the diagonal, 1 +
        shortest directed path, 0 without a path; one more all-zero row/column for "absent"."""
        position = {cluster: i for i, cluster in enumerate(self.members)}
        absent = len(position)
        table = numpy.zeros((absent + 1, absent + 1), dtype=numpy.int64)
        reach = self.reach
        for cluster, i in position.items():
            table[i, i] = 1
            if cluster in reach:
                for reached, edges in reach[cluster].items():
                    j = position.get(reached)
                    if j is not None:
                        table[i, j] = edges + 1
        return position, table

    @cached_property
    def mention_sequence(self) -> tuple:
        return tuple(self.cluster_of)

    @cached_property
    def mention_rows(self):
        """Row of ``distance_table`` for each mention, in ``mention_sequence`` order."""
        position = self.distance_table[0]
        return numpy.fromiter(
            (position[cluster] for cluster in self.cluster_of.values()),
            dtype=numpy.intp,
            count=len(self.cluster_of),
        )

    @cached_property
    def mention_distances(self):
        """d between every two mentions, in ``mention_sequence`` order (rows and columns)."""
        rows = self.mention_rows
        return self.distance_table[1][numpy.ix_(rows, rows)]

    @cached_property
    def longest_distance(self) -> int:
        """The largest entry of ``distance_table``."""
        return int(self.distance_table[1].max())

    @cached_property
    def closure_mask(self):
        return self.closure_matrix > 0

    @cached_property
    def sizes(self):
        sizes = numpy.zeros(len(self.nodes), dtype=numpy.float64)
        for cluster, mentions in self.members.items():
            sizes[self.nodes[cluster]] = len(mentions)
        return sizes


def contingency(first: ClusterGraph, second: ClusterGraph):
    """N[a, b] = number of mentions in cluster a of ``first`` and cluster b of ``second``."""
    width = len(second.nodes)
    cells = []
    nodes_first, nodes_second, cluster_of_second = first.nodes, second.nodes, second.cluster_of
    for mention, cluster in first.cluster_of.items():
        other = cluster_of_second.get(mention)
        if other is not None:
            cells.append(nodes_first[cluster] * width + nodes_second[other])
    counts = numpy.bincount(
        numpy.asarray(cells, dtype=numpy.intp), minlength=len(first.nodes) * width
    )
    return counts.reshape(len(first.nodes), width).astype(numpy.float64)


def hierarchy_scores(
    key: ClusterGraph, response: ClusterGraph, *, counted: str = "closure"
) -> tuple[Counts, Counts]:
    """(hierarchy F1 counts, hierarchy F1-50% counts) for one topic, sharing the work."""
    if counted not in ("closure", "raw"):
        raise ValueError(f"counted must be 'closure' or 'raw', not {counted!r}")
    shared = contingency(key, response)
    any_key, any_response = shared > 0, shared.T > 0
    half_key = shared >= 0.5 * key.sizes[:, None]
    half_response = shared.T >= 0.5 * response.sizes[:, None]
    if counted == "closure":  # both F1s count closure relations: one stacked product per side
        response_any, response_half = _matched_closures(response, any_response, half_response, key)
        key_any, key_half = _matched_closures(key, any_key, half_key, response)
        return (
            Counts(response_any, len(response.closure), key_any, len(key.closure)),
            Counts(response_half, len(response.closure), key_half, len(key.closure)),
        )
    any_pair = Counts(
        _matched_raw(response, any_response, key),
        len(response.relations),
        _matched_raw(key, any_key, response),
        len(key.relations),
    )
    half = Counts(
        _matched_closure(response, half_response, key),
        len(response.closure),
        _matched_closure(key, half_key, response),
        len(key.closure),
    )
    return any_pair, half


def hierarchy_counts(
    key: ClusterGraph, response: ClusterGraph, *, counted: str = "closure"
) -> Counts:
    """Hierarchy F1 (any mention pair) counts for one topic; ``counted`` is "closure" or "raw"."""
    return hierarchy_scores(key, response, counted=counted)[0]


def hierarchy_50_counts(key: ClusterGraph, response: ClusterGraph) -> Counts:
    """Hierarchy F1-50% counts for one topic."""
    return hierarchy_scores(key, response)[1]


def _projected(holders, other: ClusterGraph):
    """M[a, c] > 0 when some (a', c') of the other side's closure stands for (a, c)."""
    return (holders @ other.closure_matrix @ holders.T) > 0


def _matched_closure(side: ClusterGraph, holders, other: ClusterGraph) -> int:
    if not side.closure or not other.closure:  # (an empty closure projects onto nothing)
        return 0
    return int((_projected(holders.astype(float), other) & side.closure_mask).sum())


def _matched_closures(
    side: ClusterGraph, holders_any, holders_half, other: ClusterGraph
) -> tuple[int, int]:
    """``_matched_closure`` for two holder matrices at once (the F1 and the F1-50% ones): the
    products are of 0/1 matrices, so stacking them changes no count."""
    if not side.closure or not other.closure:
        return 0, 0
    stacked = numpy.stack((holders_any, holders_half)).astype(float)
    projected = (stacked @ other.closure_matrix @ stacked.transpose(0, 2, 1)) > 0
    counts = (projected & side.closure_mask).sum(axis=(1, 2))
    return int(counts[0]), int(counts[1])


def _matched_raw(side: ClusterGraph, holders, other: ClusterGraph) -> int:
    if not side.relations:
        return 0
    projected = _projected(holders.astype(float), other)
    return sum(bool(projected[side.nodes[p], side.nodes[c]]) for p, c in side.relations)


def path_ratio_counts(key: ClusterGraph, response: ClusterGraph) -> tuple[float, int]:
    """(sum of pair scores, number of scored pairs) for one topic."""
    if key.mention_sequence == response.mention_sequence:
        # the SciCo case, one mention list: each side's rows are cached on its graph
        if not key.mention_sequence:
            return 0.0, 0
        key_distance, response_distance = key.mention_distances, response.mention_distances
    else:
        mentions = list(dict.fromkeys([*key.cluster_of, *response.cluster_of]))
        key_distance = _mention_distances(key, mentions, numpy)
        response_distance = _mention_distances(response, mentions, numpy)
    # score = min / max of the two distances (0 when both are 0), looked up in a table of
    # those very quotients; distances are >= 0, so a pair is scored when either is > 0
    table = _ratio_table(max(key.longest_distance, response.longest_distance) + 1, numpy)
    scores = table[key_distance, response_distance]
    scored = int(numpy.count_nonzero(key_distance | response_distance))
    return float(numpy.cumsum(scores, axis=None)[-1]), scored


_RATIO_TABLES: dict[int, object] = {}


def _ratio_table(size: int, numpy=numpy):
    """T[a, b] = min(a, b) / max(a, b) for distances a, b below ``size``, 0 where both are 0:
    ``numpy.divide`` of the same int64 values, so each entry is the float a per-pair division
    gives."""
    size = max(size, 16)
    table = _RATIO_TABLES.get(size)
    if table is None:
        distances = numpy.arange(size, dtype=numpy.int64)
        longest = numpy.maximum.outer(distances, distances)
        shortest = numpy.minimum.outer(distances, distances)
        table = numpy.zeros((size, size), dtype=numpy.float64)
        numpy.divide(shortest, longest, out=table, where=longest > 0)
        _RATIO_TABLES[size] = table
    return table


def _mention_distances(side: ClusterGraph, mentions: Sequence, numpy=numpy):
    position, table = side.distance_table
    absent = len(position)
    cluster_of = side.cluster_of
    rows = numpy.fromiter(
        (position[cluster_of[m]] if m in cluster_of else absent for m in mentions),
        dtype=numpy.intp,
        count=len(mentions),
    )
    return table[numpy.ix_(rows, rows)]


def path_ratio_macro(topic_counts: Iterable[tuple[float, int]]) -> float:
    """Mean of the topic ratios, 0 for a topic without scored pairs (SciCo, ``numpy.average``)."""
    values = [n / d if d != 0 else 0 for n, d in topic_counts]
    return float(numpy.average(numpy.asarray(values, dtype=numpy.float64))) if values else 0.0
