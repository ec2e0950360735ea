"""Coreference metrics: MUC, B3, CEAF-e, LEA, coval's "mentions" score and CoNLL F1.

Clusters are sequences of hashable mention keys. Results are :class:`Counts` per topic, so a
micro average over topics adds them (coval ``Evaluator.update``).

Conventions, from ns-moosavi/coval (``coval/eval/evaluator.py``, ``coval/conll/reader.py``):

- Singletons (clusters of one mention) are removed from both sides *before* anything else,
  unless ``keep_singletons`` (metrics.md; coval ``get_doc_mentions``). A mention whose
  cluster was removed is then "missing" on that side for every metric.
- A key mention missing from the response counts as its own part in MUC (coval ``muc``:
  ``tp -= 1`` per missing mention) and adds nothing to B3's or LEA's numerator.
- LEA counts one self-link for a singleton, matched only when its mention is a singleton in
  the other side too (coval ``lea``); only visible with ``keep_singletons``.
- CEAF-e aligns key and response clusters one-to-one maximising sum phi4(k, r) =
  2 |k and r| / (|k| + |r|); recall = total / |K|, precision = total / |R|.
- "mentions": exact mention P/R/F1 over the mentions left in clusters (coval ``mentions``).
- CoNLL F1 = (MUC F1 + B3 F1 + CEAF-e F1) / 3, summed in that order (SciCo ``eval_coref``).

Floating point: sums run cluster by cluster in the order given, as coval's loops do; pass
clusters in the order coval would read them (by the first mention to end, see
``annotation.domain.scoring.plain``) to get its exact last digit. The CEAF-e total is
summed by numpy over the key rows exactly as coval sums ``scores[row_ind, col_ind]``.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Sequence

from annotation.domain.metrics.counts import Counts
from annotation.domain.metrics.matching import maximum_weight_assignment

Mention = Hashable
Cluster = Sequence[Mention]

METRICS = ("mentions", "muc", "bcub", "ceafe", "lea")


def prepare_clusters(clusters: Iterable[Iterable[Mention]], *, keep_singletons: bool = False) -> list[tuple]:
    """Deduplicated clusters, singletons dropped unless kept; a mention in two clusters is an error."""
    prepared: list[tuple] = []
    seen: set = set()
    for cluster in clusters:
        members = tuple(cluster)
        distinct = set(members)
        if len(distinct) != len(members):
            members = tuple(dict.fromkeys(members))
        if not seen.isdisjoint(distinct):
            raise ValueError(f"mention {next(iter(seen & distinct))!r} is in more than one cluster")
        seen |= distinct
        if len(members) > 1 or (members and keep_singletons):
            prepared.append(members)
    return prepared


def coreference_counts(
    key: Iterable[Iterable[Mention]], response: Iterable[Iterable[Mention]], *, keep_singletons: bool = False
) -> dict[str, Counts]:
    """Counts of every coreference metric for one topic, keyed by ``METRICS``."""
    key_clusters = prepare_clusters(key, keep_singletons=keep_singletons)
    response_clusters = prepare_clusters(response, keep_singletons=keep_singletons)
    key_of = _cluster_index(key_clusters)
    response_of = _cluster_index(response_clusters)
    recall = _directed(key_clusters, response_clusters, response_of)
    precision = _directed(response_clusters, key_clusters, key_of)
    similarity = ceafe_similarity(key_clusters, response_clusters, response_of)
    counts = {
        name: Counts(precision[name][0], precision[name][1], recall[name][0], recall[name][1])
        for name in ("mentions", "muc", "bcub", "lea")
    }
    counts["ceafe"] = Counts(similarity, len(response_clusters), similarity, len(key_clusters))
    return {name: counts[name] for name in METRICS}


def conll_f1(counts: dict[str, Counts]) -> float:
    """Mean of the MUC, B3 and CEAF-e F1 (SciCo ``eval_coref``: ``conll += f1``, then / 3)."""
    total: float = 0
    for name in ("muc", "bcub", "ceafe"):
        total += counts[name].f1
    return total / 3


def _parts(cluster: Sequence, output_of: dict) -> dict[int, int]:
    """How many of the cluster's mentions each output cluster holds (missing ones left out)."""
    parts: dict[int, int] = {}
    for mention in cluster:
        index = output_of.get(mention)
        if index is not None:
            parts[index] = parts.get(index, 0) + 1
    return parts


def _cluster_index(clusters: Sequence[tuple]) -> dict:
    return {mention: index for index, cluster in enumerate(clusters) for mention in cluster}


def _directed(inputs: Sequence[tuple], outputs: Sequence[tuple], output_of: dict) -> dict[str, tuple]:
    """Numerator and denominator of each metric with ``inputs`` as key (recall); swap for precision.

    One pass per cluster computes all four, with coval's expressions: MUC
    ``len(c) - missing - len(linked)`` over ``len(c) - 1``; B3 ``correct / float(len(c))``;
    LEA ``len(c) * common_links / float(all_links)``; mentions ``|found|`` over ``|all|``.
    """
    muc_num = muc_den = found = total = 0
    bcub_num: float = 0
    lea_num: float = 0
    for cluster in inputs:
        size = len(cluster)
        parts = _parts(cluster, output_of)
        present = sum(parts.values())
        muc_num += size - (size - present) - len(parts)
        muc_den += size - 1
        bcub_num += sum(n * n for n in parts.values()) / float(size)
        if size == 1:
            common, all_links = (1 if parts and len(outputs[next(iter(parts))]) == 1 else 0), 1.0
        else:
            common, all_links = sum(n * (n - 1) // 2 for n in parts.values()), size * (size - 1) / 2.0
        lea_num += size * common / float(all_links)
        found += present
        total += size
    return {
        "muc": (muc_num, muc_den),
        "bcub": (bcub_num, total),
        "lea": (lea_num, total),
        "mentions": (found, total),
    }


def ceafe_similarity(key: Sequence[tuple], response: Sequence[tuple], response_of: dict | None = None) -> float:
    """Total phi4 of the optimal one-to-one alignment (coval ``ceafe``), summed like coval.

    coval sums ``scores[row_ind, col_ind]`` with numpy: one value per assigned key row, in
    row order. With |K| <= |R| every key row is assigned, so that array is the matched phi4
    of each key cluster in order (0 for a cluster aligned with nothing it overlaps) and our
    sum is bit-identical. With |K| > |R| scipy also assigns |R| rows; which zero-valued rows
    it picks is arbitrary, and we take the first ones, which can only move the last bit.
    """
    if not key or not response:
        return 0.0
    if response_of is None:
        response_of = _cluster_index(response)
    matched = [0.0] * len(key)
    assigned_rows: set[int] = set()
    for rows, overlaps in _overlap_components(key, response_of):
        for row, column in _solve_component(rows, overlaps, key, response):
            assigned_rows.add(row)
            matched[row] = _phi4(overlaps[row][column], len(key[row]), len(response[column]))
    if len(key) <= len(response):
        values = matched
    else:
        spare = [row for row in range(len(key)) if row not in assigned_rows]
        rows = sorted(assigned_rows | set(spare[: len(response) - len(assigned_rows)]))
        values = [matched[row] for row in rows]
    import numpy

    return float(numpy.asarray(values, dtype=numpy.float64).sum())


def _phi4(common: int, key_size: int, response_size: int) -> float:
    return 2.0 * common / (key_size + response_size)


def _overlap_components(key: Sequence[tuple], response_of: dict):
    """Connected components of the key/response graph whose edges are shared mentions."""
    overlaps = [_parts(cluster, response_of) for cluster in key]
    rows_of_column: dict[int, list[int]] = {}
    for row, counter in enumerate(overlaps):
        for column in counter:
            rows_of_column.setdefault(column, []).append(row)
    done = [False] * len(key)
    for start, counter in enumerate(overlaps):
        if done[start] or not counter:
            continue
        rows, stack = [], [start]
        done[start] = True
        while stack:
            row = stack.pop()
            rows.append(row)
            for column in overlaps[row]:
                for other in rows_of_column[column]:
                    if not done[other]:
                        done[other] = True
                        stack.append(other)
        yield sorted(rows), overlaps


def _solve_component(rows: list[int], overlaps: list[dict[int, int]], key, response) -> list[tuple[int, int]]:
    columns = sorted({column for row in rows for column in overlaps[row]})
    if len(rows) == 1 or len(columns) == 1:
        # One side has a single cluster: it takes its best partner (the first on ties).
        candidates = [
            (_phi4(overlaps[row][column], len(key[row]), len(response[column])), -row, -column)
            for row in rows for column in overlaps[row]
        ]
        _, row, column = max(candidates)
        return [(-row, -column)]
    # phi4 = 2 c / (|k| + |r|), scaled by the common denominator: exact integer weights.
    scale = math.lcm(*(len(key[row]) + len(response[column]) for row in rows for column in columns))
    weights = [
        [2 * overlaps[row].get(column, 0) * scale // (len(key[row]) + len(response[column])) for column in columns]
        for row in rows
    ]
    return [
        (rows[i], columns[j])
        for i, j in maximum_weight_assignment(weights)
        if columns[j] in overlaps[rows[i]]
    ]

