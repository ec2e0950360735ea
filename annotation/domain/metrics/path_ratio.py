"""Path-distance ratio (SciCo section 2.2), as SciCo's ``eval/shortest_path.py`` computes it.

Conventions (cluster-graph version of ``ShortestPath``, ``directed=True, with_tn=False``):

- every ordered pair (i, j) of mentions, **including i = j**;
- d(i, j) = 1 in the same cluster, 1 + the shortest *directed* path from i's cluster to j's,
  0 without one; paths may pass through clusters without mentions (relation endpoints are
  graph nodes there too);
- a pair scores min(d_key, d_resp) / max(d_key, d_resp); pairs with both 0 are skipped, one
  0 scores 0; topic = sum / count;
- mentions are those of both sides (key order, then response-only ones); SciCo assumes both
  share one mention list, and a mention one side lacks has d = 0 there;
- micro = summed numerators over summed denominators; macro = ``numpy.average`` of the topic
  ratios, a topic without scored pairs counting 0 (``compute_macro_average_score``).

Digits: the per-topic numerator is summed pair by pair in SciCo's order (row-major over the
mention order) with ``numpy.cumsum``, which adds sequentially like SciCo's ``+=`` loop, so
the result is SciCo's to the last bit. Vectorised because SciCo's networkx loop needs ~14 s
for 200 topics; the cluster distance table is computed once per side
(``ClusterGraph.distance_table``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from annotation.domain.metrics.counts import ratio, sequential_sum
from annotation.domain.metrics.hierarchy import ClusterGraph


def path_ratio_counts(key: ClusterGraph, response: ClusterGraph) -> tuple[float, int]:
    """(sum of pair scores, number of scored pairs) for one topic."""
    import numpy

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


def _ratio_table(size: int, numpy):
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


def _mention_distances(side: ClusterGraph, mentions: Sequence, numpy):
    position, table = side.distance_table
    absent = len(position)
    cluster_of = side.cluster_of
    rows = numpy.fromiter(
        (position[cluster_of[m]] if m in cluster_of else absent for m in mentions),
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
