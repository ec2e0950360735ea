"""Hierarchy scores (SciCo section 2.2): transitive closure, hierarchy F1 and F1-50%.

A side is a :class:`ClusterGraph`: which cluster each mention belongs to (in file order) and
the parent -> child relations between clusters. Conventions:

- Transitive closure (metrics.md; SciCo ``get_higher_order_relations``): the raw relations
  plus every ``(x, y)`` with ``x != y`` and a directed path from x to y.
- Hierarchy F1: a key relation (P, C) is recalled when some ``p in P``, ``c in C`` are in
  response clusters (P', C') with (P', C') in the response's closure; precision swaps sides.
  metrics.md counts the relations of the *closure* on both sides (``counted="closure"``).
  SciCo's ``eval/hypernym.py`` matches against the closure too but counts only the *raw*
  relations, repeats included; ``counted="raw"`` reproduces it exactly.
- F1-50%: as SciCo ``eval/hypernym_50.py``: (P, C) is recalled when a response relation of
  the closure (P', C') has ``|P and P'| >= 0.5 |P|`` and ``|C and C'| >= 0.5 |C|``, counted
  over the closures (as sets). A cluster without mentions is "held" by every cluster
  (0 >= 0), as the scorer's comparison gives.

Why matrices: SciCo compares expanded mention-pair lists relation by relation. A mention pair
(p, c) is in the expansion of (P', C') exactly when p is in P' and c in C', so the test is
on clusters: with H[a, b] = "cluster a of one side shares a mention with cluster b of the
other" (F1) or "b holds at least half of a" (F1-50%), the relations of the first side that
match are the nonzero cells of H @ closure(other) @ H.T. That is a few small numpy products
per topic instead of Python loops (the IAA of 4 annotators compares 1,200 pairs).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Hashable, Iterable, Mapping
from functools import cached_property

from annotation.domain.metrics.counts import Counts


class ClusterGraph:
    """One side of a hierarchy comparison. Derived tables are computed once and cached, so
    a side compared several times (IAA pairs) pays for them once."""

    def __init__(self, cluster_of: Mapping[Hashable, Hashable], relations: Iterable[tuple] = ()) -> None:
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
        import numpy

        matrix = numpy.zeros((len(self.nodes), len(self.nodes)), dtype=numpy.float64)
        for parent, child in self.closure:
            matrix[self.nodes[parent], self.nodes[child]] = 1.0
        return matrix

    @cached_property
    def distance_table(self):
        """(position of each cluster with mentions, d between them): 1 on the diagonal, 1 +
        shortest directed path, 0 without a path; one more all-zero row/column for "absent"."""
        import numpy

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
        import numpy

        position = self.distance_table[0]
        return numpy.fromiter(
            (position[cluster] for cluster in self.cluster_of.values()), dtype=numpy.intp, count=len(self.cluster_of)
        )

    @cached_property
    def mention_distances(self):
        """d between every two mentions, in ``mention_sequence`` order (rows and columns)."""
        import numpy

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
        import numpy

        sizes = numpy.zeros(len(self.nodes), dtype=numpy.float64)
        for cluster, mentions in self.members.items():
            sizes[self.nodes[cluster]] = len(mentions)
        return sizes


def transitive_closure(relations: Iterable[tuple[Hashable, Hashable]]) -> set[tuple[Hashable, Hashable]]:
    """The relations plus every ancestor -> descendant pair (no new self-pairs)."""
    raw = set(relations)
    children: dict = {}
    for parent, child in raw:
        children.setdefault(parent, []).append(child)
    closed = set(raw)
    for start in children:
        for node in reachable(start, children):
            closed.add((start, node))
    return closed


def reachable(start: Hashable, children: Mapping) -> dict[Hashable, int]:
    """Breadth-first distances (in edges) from ``start`` to every other node it reaches."""
    distance = {start: 0}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        for child in children.get(node, ()):
            if child not in distance:
                distance[child] = distance[node] + 1
                queue.append(child)
    del distance[start]
    return distance


def contingency(first: ClusterGraph, second: ClusterGraph):
    """N[a, b] = number of mentions in cluster a of ``first`` and cluster b of ``second``."""
    import numpy

    width = len(second.nodes)
    cells = []
    nodes_first, nodes_second, cluster_of_second = first.nodes, second.nodes, second.cluster_of
    for mention, cluster in first.cluster_of.items():
        other = cluster_of_second.get(mention)
        if other is not None:
            cells.append(nodes_first[cluster] * width + nodes_second[other])
    counts = numpy.bincount(numpy.asarray(cells, dtype=numpy.intp), minlength=len(first.nodes) * width)
    return counts.reshape(len(first.nodes), width).astype(numpy.float64)


def hierarchy_scores(key: ClusterGraph, response: ClusterGraph, *, counted: str = "closure") -> tuple[Counts, Counts]:
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
        _matched_raw(response, any_response, key), len(response.relations),
        _matched_raw(key, any_key, response), len(key.relations),
    )
    half = Counts(
        _matched_closure(response, half_response, key), len(response.closure),
        _matched_closure(key, half_key, response), len(key.closure),
    )
    return any_pair, half


def hierarchy_counts(key: ClusterGraph, response: ClusterGraph, *, counted: str = "closure") -> Counts:
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


def _matched_closures(side: ClusterGraph, holders_any, holders_half, other: ClusterGraph) -> tuple[int, int]:
    """``_matched_closure`` for two holder matrices at once (the F1 and the F1-50% ones): the
    products are of 0/1 matrices, so stacking them changes no count."""
    if not side.closure or not other.closure:
        return 0, 0
    import numpy

    stacked = numpy.stack((holders_any, holders_half)).astype(float)
    projected = (stacked @ other.closure_matrix @ stacked.transpose(0, 2, 1)) > 0
    counts = (projected & side.closure_mask).sum(axis=(1, 2))
    return int(counts[0]), int(counts[1])


def _matched_raw(side: ClusterGraph, holders, other: ClusterGraph) -> int:
    if not side.relations:
        return 0
    projected = _projected(holders.astype(float), other)
    return sum(bool(projected[side.nodes[p], side.nodes[c]]) for p, c in side.relations)
