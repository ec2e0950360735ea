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
mention order), sequentially like SciCo's ``+=`` loop, so the result is SciCo's to the last
bit; the macro average rounds as ``numpy.average`` does (``counts.numpy_sum``). Fast because
the distances are cluster to cluster: SciCo's networkx loop needs ~14 s for 200 topics; here
each side's table of distances from every cluster to every mention is computed once
(``ClusterGraph.mention_distances``), a row of pair scores is looked up in C (``map``) once
per pair of clusters (key, response) and added with the built-in ``sum``.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from functools import cache
from itertools import chain
from operator import itemgetter, or_

from corefscore.metrics.counts import numpy_sum, ratio, sequential_sum
from corefscore.metrics.hierarchy import ClusterGraph, columns_of


def path_ratio_counts(key: ClusterGraph, response: ClusterGraph) -> tuple[float, int]:
    """(sum of pair scores, number of scored pairs) for one topic."""
    if key.mention_sequence == response.mention_sequence:
        # the SciCo case, one mention list: each side's rows are cached on its graph
        if not key.mention_sequence:
            return 0.0, 0
        key_rows, key_distances = key.mention_rows, key.mention_distances
        response_rows, response_distances = response.mention_rows, response.mention_distances
        own = True
    else:
        mentions = list(dict.fromkeys([*key.cluster_of, *response.cluster_of]))
        key_rows, key_distances = _mention_distances(key, mentions)
        response_rows, response_distances = _mention_distances(response, mentions)
        own = False
    # Mention i's pair scores depend only on (key row, response row) of i: each distinct
    # pair of rows is scored once. score = min / max of the two distances (0 when both are
    # 0), looked up in a table of those very quotients; distances are >= 0, so a pair is
    # scored when either is > 0.
    pairs = list(zip(key_rows, response_rows, strict=True))
    scores: dict[tuple[int, int], Sequence[float]] = {}
    unscored: dict[tuple[int, int], int] = {}
    longest = max(key.longest_distance, response.longest_distance)
    if longest < 16:
        # Distances fit in 4 bits: a row of distances is a bytes-like integer, and the
        # codes 16 * d_key + d_response of a whole row are one shift and one "or" away.
        high = key.distance_numbers(4) if own else _numbers(key_distances, 4)
        low = response.distance_numbers(0) if own else _numbers(response_distances, 0)
        by_code = _code_table()
        length = len(pairs)
        for pair in set(pairs):
            codes = (high[pair[0]] | low[pair[1]]).to_bytes(length, "big")
            scores[pair] = itemgetter(*codes)(by_code) if length > 1 else [by_code[codes[0]]]
            unscored[pair] = codes.count(0)
    else:
        table = _ratio_table(longest + 1)
        for pair in set(pairs):
            key_row, response_row = key_distances[pair[0]], response_distances[pair[1]]
            scores[pair] = [table[a][b] for a, b in zip(key_row, response_row, strict=True)]
            unscored[pair] = list(map(or_, key_row, response_row)).count(0)
    total = sequential_sum(
        chain.from_iterable(map(scores.__getitem__, pairs)), 0.0
    )  # row after row
    return total, len(pairs) * len(pairs) - sum(map(unscored.__getitem__, pairs))


@cache
def _ratio_table(size: int) -> list[list[float]]:
    """T[a][b] = min(a, b) / max(a, b) for distances a, b below ``size``, 0.0 where both are 0
    (the correctly rounded quotient, as numpy's and SciCo's float division give it)."""
    return [[min(a, b) / max(a, b) if a or b else 0.0 for b in range(size)] for a in range(size)]


@cache
def _code_table() -> list[float]:
    """``_ratio_table(16)`` flattened: entry 16 a + b is T[a][b]."""
    return [score for row in _ratio_table(16) for score in row]


def _numbers(rows: Sequence[Sequence[int]], shift: int) -> list[int]:
    return [int.from_bytes(bytes(row), "big") << shift for row in rows]


def _mention_distances(
    side: ClusterGraph, mentions: Sequence[Hashable]
) -> tuple[list[int], list[Sequence[int]]]:
    """(row of each mention, distances from each row to every mention) over ``mentions``, a
    mention the side lacks taking the all-zero "absent" row and column."""
    position, table = side.distance_table
    absent = len(position)
    cluster_of = side.cluster_of
    rows = [position[cluster_of[m]] if m in cluster_of else absent for m in mentions]
    return rows, columns_of(table, rows)


def path_ratio_micro(topic_counts: Iterable[tuple[float, int]]) -> float:
    """Sum of numerators over sum of denominators (SciCo ``compute_micro_average_scores``)."""
    pairs = list(topic_counts)
    return ratio(sequential_sum(n for n, _ in pairs), sequential_sum(d for _, d in pairs))


def path_ratio_macro(topic_counts: Iterable[tuple[float, int]]) -> float:
    """Mean of the topic ratios, 0 for a topic without scored pairs (SciCo, ``numpy.average``:
    numpy's pairwise sum, then the division)."""
    values = [n / d if d != 0 else 0.0 for n, d in topic_counts]
    return numpy_sum(values) / len(values) if values else 0.0
