"""Hierarchy scores (SciCo section 2.2): transitive closure, hierarchy F1 and F1-50%.

A side is a :class:`ClusterGraph`: which cluster each mention belongs to (in file order) and
the parent -> child relations between clusters. Conventions:

- Transitive closure (metrics.md; SciCo ``get_higher_order_relations``): the raw relations
  plus every ``(x, y)`` with ``x != y`` and a directed path from x to y.
- Hierarchy F1: a key relation (P, C) is recalled when some ``p in P``, ``c in C`` are in
  response clusters (P', C') with (P', C') in the response's closure; precision swaps sides.
  ``counted="closure"`` (the default) is SciCo's figure: its released ``eval/hypernym.py``
  (commit ee169b6 of 25 May 2021, the code of the paper) counts the drawn relations as drawn
  and adds every higher-order relation of the closure, on both sides (``counted_relations``).
  ``counted="raw"`` counts the drawn relations only, each matched against the other side's
  closure, as SciCo's April 2021 *pre-release* code did: "raw edges (not SciCo's)", kept for
  comparison, never a default (metrics.md).
- F1-50%: as SciCo ``eval/hypernym_50.py``: (P, C) is recalled when a response relation of
  the closure (P', C') has ``|P and P'| >= 0.5 |P|`` and ``|C and C'| >= 0.5 |C|``, counted
  over the closures (as sets). A cluster without mentions is "held" by every cluster
  (0 >= 0), as the scorer's comparison gives.

How: SciCo compares expanded mention-pair lists relation by relation. A mention pair (p, c)
is in the expansion of (P', C') exactly when p is in P' and c in C', so the test is on
clusters: with the clusters of the other side that "hold" a cluster (share a mention with it
for F1, hold at least half of its mentions for F1-50%), a relation (P, C) matches when some
holder of P has a holder of C among its descendants in the other side's closure. Sets of a
few clusters per topic, in plain Python: the counts are integers, and importing numpy would
cost the command line more than the whole computation (docs/scoring.md, "Speed").
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Collection, Hashable, Iterable, Mapping, Sequence
from functools import cached_property
from operator import itemgetter
from typing import Any

from corefscore.metrics.counts import Counts

Node = Hashable  # a cluster, or a relation endpoint without mentions
Edge = tuple[Node, Node]  # (parent, child)
Shared = dict[Node, dict[Node, int]]  # cluster -> {cluster of the other side: common mentions}


class ClusterGraph:
    """One side of a hierarchy comparison. Derived tables are computed once and cached, so
    a side compared several times (IAA pairs) pays for them once."""

    def __init__(self, cluster_of: Mapping[Any, Node], relations: Iterable[Edge] = ()) -> None:
        self.cluster_of = cluster_of  # mention (any hashable key) -> its cluster
        self.relations = tuple(relations)

    @cached_property
    def members(self) -> dict[Node, list[Hashable]]:
        """Cluster -> its mentions, for clusters that have mentions (first-seen order)."""
        members: dict[Node, list[Hashable]] = {}
        for mention, cluster in self.cluster_of.items():
            members.setdefault(cluster, []).append(mention)
        return members

    @cached_property
    def nodes(self) -> dict[Node, int]:
        """Cluster -> position: clusters with mentions first, then relation-only endpoints."""
        nodes = {cluster: i for i, cluster in enumerate(self.members)}
        for relation in self.relations:
            for cluster in relation:
                nodes.setdefault(cluster, len(nodes))
        return nodes

    @cached_property
    def children(self) -> dict[Node, list[Node]]:
        children: dict[Node, list[Node]] = {}
        for parent, child in self.relations:
            children.setdefault(parent, []).append(child)
        return children

    @cached_property
    def reach(self) -> dict[Node, dict[Node, int]]:
        """Node -> {node it reaches: edges on the shortest path}, for the nodes that have
        children (the others reach nothing): one breadth-first walk per node, shared by the
        closure and the distance table."""
        children = self.children
        return {start: reachable(start, children) for start in children}

    @cached_property
    def closure(self) -> set[Edge]:
        """:func:`transitive_closure` of the relations, from the shared walks."""
        closed = set(self.relations)
        for start, reached in self.reach.items():
            for node in reached:
                closed.add((start, node))
        return closed

    @cached_property
    def counted_relations(self) -> list[Edge]:
        """What SciCo's released ``hypernym.py`` counts: ``binary_relations +
        get_higher_order_relations(binary_relations)``, the drawn relations as drawn (a
        repeat twice: a list, not a set) and each further relation of the closure once. The
        readers refuse a repeated relation (formats/scico_relations.py), so on what a file
        or a project holds this is the closure; the API counts as SciCo does whatever it
        is given."""
        drawn = set(self.relations)
        return [*self.relations, *(edge for edge in self.closure if edge not in drawn)]

    @cached_property
    def successors(self) -> dict[Node, set[Node]]:
        """Node -> the set of nodes it reaches in the closure (nodes without any left out)."""
        successors: dict[Node, set[Node]] = {}
        for parent, child in self.closure:
            successors.setdefault(parent, set()).add(child)
        return successors

    @cached_property
    def distance_table(self) -> tuple[dict[Node, int], list[list[int]]]:
        """(position of each cluster with mentions, d between them): 1 on the diagonal, 1 +
        shortest directed path, 0 without a path; one more all-zero row/column for "absent"."""
        position = {cluster: i for i, cluster in enumerate(self.members)}
        absent = len(position)
        table = [[0] * (absent + 1) for _ in range(absent + 1)]
        reach = self.reach
        for cluster, i in position.items():
            row = table[i]
            row[i] = 1
            if cluster in reach:
                for reached, edges in reach[cluster].items():
                    j = position.get(reached)
                    if j is not None:
                        row[j] = edges + 1
        return position, table

    @cached_property
    def mention_sequence(self) -> tuple[Hashable, ...]:
        return tuple(self.cluster_of)

    @cached_property
    def mention_rows(self) -> list[int]:
        """Row of ``distance_table`` for each mention, in ``mention_sequence`` order."""
        position = self.distance_table[0]
        return [position[cluster] for cluster in self.cluster_of.values()]

    @cached_property
    def mention_distances(self) -> list[Sequence[int]]:
        """For each row of ``distance_table``: d from that cluster to every mention, in
        ``mention_sequence`` order (so that row ``mention_rows[i]`` is mention i's)."""
        return columns_of(self.distance_table[1], self.mention_rows)

    def distance_numbers(self, shift: int) -> list[int]:
        """Each row of ``mention_distances`` as one integer (a distance per byte, big-endian),
        shifted left by ``shift`` bits; for distances below 16 (``path_ratio``)."""
        cache = self._distance_numbers
        if shift not in cache:
            cache[shift] = [
                int.from_bytes(bytes(row), "big") << shift for row in self.mention_distances
            ]
        return cache[shift]

    @cached_property
    def _distance_numbers(self) -> dict[int, list[int]]:
        return {}

    @cached_property
    def longest_distance(self) -> int:
        """The largest entry of ``distance_table``."""
        return max(map(max, self.distance_table[1]))

    @cached_property
    def sizes(self) -> dict[Node, int]:
        """Cluster -> number of mentions (relation-only nodes have none)."""
        return {cluster: len(mentions) for cluster, mentions in self.members.items()}


def columns_of(table: list[list[int]], columns: list[int]) -> list[Sequence[int]]:
    """``[[row[j] for j in columns] for row in table]``, the rows as tuples picked in C."""
    if len(columns) < 2:
        return [[row[j] for j in columns] for row in table]
    pick = itemgetter(*columns)
    return [pick(row) for row in table]


def transitive_closure(relations: Iterable[Edge]) -> set[Edge]:
    """The relations plus every ancestor -> descendant pair (no new self-pairs)."""
    raw = set(relations)
    children: dict[Node, list[Node]] = {}
    for parent, child in raw:
        children.setdefault(parent, []).append(child)
    closed = set(raw)
    for start in children:
        for node in reachable(start, children):
            closed.add((start, node))
    return closed


def reachable(start: Node, children: Mapping[Node, Sequence[Node]]) -> dict[Node, int]:
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


def contingency(first: ClusterGraph, second: ClusterGraph) -> tuple[Shared, Shared]:
    """(N, N transposed): N[a][b] = number of mentions in cluster a of ``first`` and cluster b
    of ``second`` (only the nonzero cells; clusters that share nothing left out)."""
    if first.mention_sequence == second.mention_sequence:  # the SciCo case: one mention list
        cells = Counter(zip(first.cluster_of.values(), second.cluster_of.values(), strict=True))
    else:
        of_second = second.cluster_of
        cells = Counter(
            (cluster, of_second[mention])
            for mention, cluster in first.cluster_of.items()
            if mention in of_second
        )
    shared: Shared = {}
    transposed: Shared = {}
    for (a, b), n in cells.items():
        row = shared.get(a)
        if row is None:
            shared[a] = {b: n}
        else:
            row[b] = n
        column = transposed.get(b)
        if column is None:
            transposed[b] = {a: n}
        else:
            column[a] = n
    return shared, transposed


def hierarchy_scores(
    key: ClusterGraph, response: ClusterGraph, *, counted: str = "closure"
) -> tuple[Counts, Counts]:
    """(hierarchy F1 counts, hierarchy F1-50% counts) for one topic, sharing the work."""
    if counted not in ("closure", "raw"):
        raise ValueError(f"counted must be 'closure' or 'raw', not {counted!r}")
    shared, transposed = contingency(key, response)
    any_key, half_key = _holders(key, shared)
    any_response, half_response = _holders(response, transposed)
    if counted == "closure":
        return (
            Counts(
                _matched(response.counted_relations, any_response, key),
                len(response.counted_relations),
                _matched(key.counted_relations, any_key, response),
                len(key.counted_relations),
            ),
            Counts(
                _matched(response.closure, half_response, key),
                len(response.closure),
                _matched(key.closure, half_key, response),
                len(key.closure),
            ),
        )
    any_pair = Counts(
        _matched(response.relations, any_response, key),
        len(response.relations),
        _matched(key.relations, any_key, response),
        len(key.relations),
    )
    half = Counts(
        _matched(response.closure, half_response, key),
        len(response.closure),
        _matched(key.closure, half_key, response),
        len(key.closure),
    )
    return any_pair, half


def hierarchy_counts(
    key: ClusterGraph, response: ClusterGraph, *, counted: str = "closure"
) -> Counts:
    """Hierarchy F1 (any mention pair) counts for one topic; ``counted`` is "closure" (SciCo's)
    or "raw" (raw edges, not SciCo's)."""
    return hierarchy_scores(key, response, counted=counted)[0]


def hierarchy_50_counts(key: ClusterGraph, response: ClusterGraph) -> Counts:
    """Hierarchy F1-50% counts for one topic."""
    return hierarchy_scores(key, response)[1]


class _Every:
    """Held by every cluster of the other side (a cluster without mentions, F1-50%)."""


_EVERY = _Every()
Holders = dict[Node, "Collection[Node] | _Every"]


def _holders(side: ClusterGraph, shared: Shared) -> tuple[Holders, Holders]:
    """For the nodes of ``side``: the clusters of the other side that share a mention with it
    (F1), and those that hold at least half of its mentions (F1-50%: ``2 n >= size``, which
    is ``n >= 0.5 * size`` in integers). A node without mentions is held by every node of
    the other side (0 >= 0); a node sharing nothing is held by none (left out)."""
    any_holders: Holders = {}
    half_holders: Holders = {}
    sizes = side.sizes
    for node, row in shared.items():
        any_holders[node] = row.keys()
        size = sizes[node]
        half = [other for other, n in row.items() if 2 * n >= size]
        if half:
            half_holders[node] = half
    for node in side.nodes:
        if node not in sizes:
            half_holders[node] = _EVERY
    return any_holders, half_holders


def _matched(relations: Collection[Edge], holders: Holders, other: ClusterGraph) -> int:
    """How many of ``relations`` (P, C) have a relation (P', C') in the other side's closure
    with P' holding P and C' holding C (repeats counted as often as they appear): C has a
    holder among the descendants of P's holders."""
    if not relations or not other.closure:
        return 0
    successors = other.successors
    descendants: dict[Node, set[Node]] = {}  # P -> what its holders reach in the other closure
    matched = 0
    for parent, child in relations:
        child_holders = holders.get(child)
        if child_holders is None:
            continue
        reached = descendants.get(parent)
        if reached is None:
            parent_holders = holders.get(parent, ())
            if isinstance(parent_holders, _Every):
                parent_holders = successors.keys()
            sets = [successors[holder] for holder in parent_holders if holder in successors]
            reached = descendants[parent] = sets[0] if len(sets) == 1 else set().union(*sets)
        if isinstance(child_holders, _Every):
            matched += bool(reached)
        elif not reached.isdisjoint(child_holders):
            matched += 1
    return matched
