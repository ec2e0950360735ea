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
``corefscore.scoring.plain``) to get its exact last digit. CEAF-e uses the very
assignment scipy's ``linear_sum_assignment`` returns and coval's numpy sum over it
(reproduced without numpy: ``counts.numpy_sum``).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence

from corefscore.metrics.counts import Counts, numpy_sum
from corefscore.metrics.matching import linear_sum_assignment

Mention = Hashable
Cluster = Sequence[Mention]
Prepared = tuple[Mention, ...]  # a cluster without repeats

METRICS = ("mentions", "muc", "bcub", "ceafe", "lea")


def prepare_clusters(
    clusters: Iterable[Iterable[Mention]], *, keep_singletons: bool = False
) -> list[Prepared]:
    """Deduplicated clusters, singletons dropped unless kept; a mention in two clusters is an
    error."""
    prepared: list[Prepared] = []
    seen: set[Mention] = set()
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


class Clustering:
    """One side's clusters, prepared once (singletons dropped unless kept) with the index
    mention -> cluster; a side compared with several others (IAA pairs) reuses it."""

    __slots__ = ("clusters", "index")

    def __init__(
        self, clusters: Iterable[Iterable[Mention]], *, keep_singletons: bool = False
    ) -> None:
        self.clusters = prepare_clusters(clusters, keep_singletons=keep_singletons)
        self.index = _cluster_index(self.clusters)


def coreference_counts(
    key: Iterable[Iterable[Mention]] | Clustering,
    response: Iterable[Iterable[Mention]] | Clustering,
    *,
    keep_singletons: bool = False,
) -> dict[str, Counts]:
    """Counts of every coreference metric for one topic, keyed by ``METRICS``.

    ``key`` and ``response`` are clusters, or :class:`Clustering` objects already prepared
    (then ``keep_singletons`` is the one they were prepared with).
    """
    if not isinstance(key, Clustering):
        key = Clustering(key, keep_singletons=keep_singletons)
    if not isinstance(response, Clustering):
        response = Clustering(response, keep_singletons=keep_singletons)
    key_parts = [
        _parts(cluster, response.index) for cluster in key.clusters
    ]  # recall and CEAF-e share them
    recall = _directed(key.clusters, key_parts, response.clusters)
    precision = _directed(
        response.clusters,
        [_parts(cluster, key.index) for cluster in response.clusters],
        key.clusters,
    )
    similarity = _ceafe_total(key.clusters, response.clusters, key_parts)
    counts = {
        name: Counts(precision[name][0], precision[name][1], recall[name][0], recall[name][1])
        for name in ("mentions", "muc", "bcub", "lea")
    }
    counts["ceafe"] = Counts(similarity, len(response.clusters), similarity, len(key.clusters))
    return {name: counts[name] for name in METRICS}


def conll_f1(counts: dict[str, Counts]) -> float:
    """Mean of the MUC, B3 and CEAF-e F1 (SciCo ``eval_coref``: ``conll += f1``, then / 3)."""
    total: float = 0
    for name in ("muc", "bcub", "ceafe"):
        total += counts[name].f1
    return total / 3


def _parts(cluster: Sequence[Mention], output_of: dict[Mention, int]) -> dict[int, int]:
    """How many of the cluster's mentions each output cluster holds (missing ones left out)."""
    parts: dict[int, int] = {}
    for mention in cluster:
        index = output_of.get(mention)
        if index is not None:
            parts[index] = parts.get(index, 0) + 1
    return parts


def _cluster_index(clusters: Sequence[Prepared]) -> dict[Mention, int]:
    return {mention: index for index, cluster in enumerate(clusters) for mention in cluster}


def _directed(
    inputs: Sequence[Prepared], inputs_parts: Sequence[dict[int, int]], outputs: Sequence[Prepared]
) -> dict[str, tuple[float, int]]:
    """Numerator and denominator of each metric with ``inputs`` as key (recall); swap for precision.
    ``inputs_parts[i]`` is ``_parts(inputs[i], index of outputs)``.

    One pass per cluster computes all four, with coval's expressions: MUC
    ``len(c) - missing - len(linked)`` over ``len(c) - 1``; B3 ``correct / float(len(c))``;
    LEA ``len(c) * common_links / float(all_links)``; mentions ``|found|`` over ``|all|``.
    (The per-cluster sums are of integers, so one loop gives the very values coval's do.)
    """
    muc_num = muc_den = found = total = 0
    bcub_num: float = 0
    lea_num: float = 0
    for cluster, parts in zip(inputs, inputs_parts, strict=True):
        size = len(cluster)
        present = correct = links = 0
        for n in parts.values():
            present += n
            correct += n * n
            links += n * (n - 1) // 2
        muc_num += size - (size - present) - len(parts)
        muc_den += size - 1
        bcub_num += correct / float(size)
        if size == 1:
            common, all_links = (1 if parts and len(outputs[next(iter(parts))]) == 1 else 0), 1.0
        else:
            common, all_links = links, size * (size - 1) / 2.0
        lea_num += size * common / float(all_links)
        found += present
        total += size
    return {
        "muc": (muc_num, muc_den),
        "bcub": (bcub_num, total),
        "lea": (lea_num, total),
        "mentions": (found, total),
    }


def ceafe_similarity(
    key: Sequence[Prepared],
    response: Sequence[Prepared],
    response_of: dict[Mention, int] | None = None,
) -> float:
    """Total phi4 of the optimal one-to-one alignment, computed as coval ``ceafe`` does.

    coval sums ``scores[row_ind, col_ind]`` (numpy) over the assignment that
    ``scipy.optimize.linear_sum_assignment(-scores)`` returns; we take the same assignment
    (``matching.linear_sum_assignment`` makes scipy's choices among equal optima) and add
    it as numpy does (``counts.numpy_sum``), so the total is bit-identical. Shortcut: when no
    response cluster overlaps two key clusters and |K| <= |R|, every key cluster gets its
    best phi4 in any optimal assignment, and that array is summed directly.
    """
    if not key or not response:
        return 0.0
    if response_of is None:
        response_of = _cluster_index(response)
    return _ceafe_total(key, response, [_parts(cluster, response_of) for cluster in key])


def _ceafe_total(
    key: Sequence[Prepared], response: Sequence[Prepared], key_parts: Sequence[dict[int, int]]
) -> float:
    """:func:`ceafe_similarity` from the key clusters' parts (``_parts`` against the response)."""
    if not key or not response:
        return 0.0
    scores = [[0.0] * len(response) for _ in key]
    owners: dict[int, int] = {}
    contested = False
    for i, (cluster, parts) in enumerate(zip(key, key_parts, strict=True)):
        for j, common in parts.items():
            scores[i][j] = _phi4(common, len(cluster), len(response[j]))
            contested = contested or owners.setdefault(j, i) != i
    if not contested and len(key) <= len(response):
        values = [max(row) for row in scores]
    else:
        rows, columns = linear_sum_assignment([[-score for score in row] for row in scores])
        values = [scores[i][j] for i, j in zip(rows, columns, strict=True)]
    return numpy_sum(values)


def _phi4(common: int, key_size: int, response_size: int) -> float:
    return 2.0 * common / (key_size + response_size)
