"""Hierarchy scores (SciCo section 2.2): hierarchy F1, F1-50% and the path-distance ratio.

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
- Path ratio: as SciCo ``eval/shortest_path.py`` (cluster graph, ``directed=True,
  with_tn=False``): every ordered mention pair including ``i == j``; d = 1 in the same
  cluster, 1 + shortest directed path between the clusters, 0 without one; a pair scores
  min/max, pairs with both 0 are skipped. Paths may pass through clusters that have no
  mentions (relation endpoints are graph nodes there too). Mentions are those of both
  sides (key order, then response-only ones); a mention one side lacks has d = 0 there.
  The per-topic numerator is summed pair by pair in SciCo's order (row-major over the key's
  mention order) with ``numpy.cumsum``, which is sequential, so the digits are SciCo's; we
  vectorise because SciCo's networkx loop takes ~14 s for 200 topics.
- Micro: sum numerators and denominators over topics; macro: ``numpy.average`` of the topic
  ratios, a topic with no scored pair counting 0 (SciCo ``compute_macro_average_score``).
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from annotation.domain.metrics.counts import Counts, ratio, sequential_sum


@dataclass(frozen=True)
class ClusterGraph:
    """One side of a hierarchy comparison."""

    cluster_of: Mapping[Hashable, Hashable]
    relations: Sequence[tuple[Hashable, Hashable]] = ()
    members: dict = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        members: dict = {}
        for mention, cluster in self.cluster_of.items():
            members.setdefault(cluster, []).append(mention)
        object.__setattr__(self, "members", members)


def transitive_closure(relations: Iterable[tuple[Hashable, Hashable]]) -> set[tuple[Hashable, Hashable]]:
    """The relations plus every ancestor -> descendant pair (no new self-pairs)."""
    raw = set(relations)
    children: dict = {}
    for parent, child in raw:
        children.setdefault(parent, []).append(child)
    closed = set(raw)
    for start in children:
        for node in _reachable(start, children):
            if node != start:
                closed.add((start, node))
    return closed


def _reachable(start: Hashable, children: Mapping) -> dict[Hashable, int]:
    """Breadth-first distances (edges) from ``start`` to every node it reaches."""
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


def hierarchy_counts(key: ClusterGraph, response: ClusterGraph, *, counted: str = "closure") -> Counts:
    """Hierarchy F1 (any mention pair) counts for one topic; ``counted`` is "closure" or "raw"."""
    if counted not in ("closure", "raw"):
        raise ValueError(f"counted must be 'closure' or 'raw', not {counted!r}")
    key_closed, response_closed = transitive_closure(key.relations), transitive_closure(response.relations)
    key_items = key_closed if counted == "closure" else list(key.relations)
    response_items = response_closed if counted == "closure" else list(response.relations)
    recalled = sum(_any_pair_holds(rel, key, response, response_closed) for rel in key_items)
    precise = sum(_any_pair_holds(rel, response, key, key_closed) for rel in response_items)
    return Counts(precise, len(response_items), recalled, len(key_items))


def _any_pair_holds(relation: tuple, side: ClusterGraph, other: ClusterGraph, other_closed: set) -> bool:
    parent, child = relation
    parents = {other.cluster_of[m] for m in side.members.get(parent, ()) if m in other.cluster_of}
    if not parents:
        return False
    children = {other.cluster_of[m] for m in side.members.get(child, ()) if m in other.cluster_of}
    return any((p, c) in other_closed for p in parents for c in children)


def hierarchy_50_counts(key: ClusterGraph, response: ClusterGraph) -> Counts:
    """Hierarchy F1-50% counts for one topic."""
    key_closed, response_closed = transitive_closure(key.relations), transitive_closure(response.relations)
    recalled = sum(_half_match(rel, key, response, response_closed) for rel in key_closed)
    precise = sum(_half_match(rel, response, key, key_closed) for rel in response_closed)
    return Counts(precise, len(response_closed), recalled, len(key_closed))


def _half_match(relation: tuple, side: ClusterGraph, other: ClusterGraph, other_closed: set) -> bool:
    parents = _holders(side.members.get(relation[0], ()), other)
    children = _holders(side.members.get(relation[1], ()), other)
    if parents is not None and children is not None:
        return any((p, c) in other_closed for p in parents for c in children)
    return any(
        (parents is None or p in parents) and (children is None or c in children) for p, c in other_closed
    )


def _holders(mentions: Sequence, other: ClusterGraph) -> set | None:
    """Clusters of ``other`` holding at least half of ``mentions``; None means every cluster."""
    if not mentions:
        return None
    held = Counter(other.cluster_of[m] for m in mentions if m in other.cluster_of)
    return {cluster for cluster, n in held.items() if n >= 0.5 * len(mentions)}


def path_ratio_counts(key: ClusterGraph, response: ClusterGraph) -> tuple[float, int]:
    """(sum of pair scores, number of scored pairs) for one topic."""
    import numpy

    mentions = list(dict.fromkeys([*key.cluster_of, *response.cluster_of]))
    if not mentions:
        return 0.0, 0
    key_distance = _mention_distances(key, mentions, numpy)
    response_distance = _mention_distances(response, mentions, numpy)
    longest = numpy.maximum(key_distance, response_distance)
    shortest = numpy.minimum(key_distance, response_distance)
    scored = longest > 0
    scores = numpy.zeros(longest.shape, dtype=numpy.float64)
    numpy.divide(shortest, longest, out=scores, where=scored)
    return float(numpy.cumsum(scores, axis=None)[-1]), int(numpy.count_nonzero(scored))


def _mention_distances(side: ClusterGraph, mentions: Sequence, numpy):
    """d(i, j) for every ordered mention pair, through a cluster-level distance table."""
    clusters = list(side.members)
    position = {cluster: i for i, cluster in enumerate(clusters)}
    children: dict = {}
    for parent, child in side.relations:
        children.setdefault(parent, []).append(child)
    absent = len(clusters)
    table = numpy.zeros((absent + 1, absent + 1), dtype=numpy.int64)
    for i, cluster in enumerate(clusters):
        table[i, i] = 1
        for reached, edges in _reachable(cluster, children).items():
            j = position.get(reached)
            if j is not None and j != i:
                table[i, j] = edges + 1
    rows = numpy.fromiter(
        (position[side.cluster_of[m]] if m in side.cluster_of else absent for m in mentions),
        dtype=numpy.intp, count=len(mentions),
    )
    return table[numpy.ix_(rows, rows)]


def path_ratio_micro(topic_counts: Iterable[tuple[float, int]]) -> float:
    """Sum of numerators over sum of denominators (SciCo ``compute_micro_average_scores``)."""
    pairs = list(topic_counts)
    return ratio(sequential_sum(n for n, _ in pairs), sequential_sum(d for _, d in pairs))


def path_ratio_macro(topic_counts: Iterable[tuple[float, int]]) -> float:
    """Mean of the topic ratios, 0 for a topic without scored pairs (SciCo, ``numpy.average``)."""
    import numpy

    values = [n / d if d != 0 else 0 for n, d in topic_counts]
    return float(numpy.average(numpy.asarray(values, dtype=numpy.float64))) if values else 0.0
