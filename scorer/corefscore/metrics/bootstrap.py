"""95% bootstrap confidence intervals over topics for the IAA aggregates (docs/scoring.md).

Topics are the sampling unit (a report over 40 topics has wide intervals; pairs of
annotators within a topic are not independent). One resample draws as many topics as were
scored, with replacement; every aggregate (AVG, MAX-micro, MAX-macro) is recomputed on it
from the topics' counts, and the interval is the 2.5th and 97.5th percentile of the
:data:`RESAMPLES` recomputed values (the percentile bootstrap).

- Seeded (:data:`SEED`): the same report gives the same intervals on every view and in every
  file. All metrics share the same resamples.
- One resample index matrix (resamples x topics: which topic each draw picks, uniform with
  replacement) is drawn once per topic count and kept (:func:`resample_weights`, cached), and
  turned into per-topic draw counts (weights). Counts are summed per resample as one matrix
  product (weights x the per-topic counts of every pair of every metric side by side), so
  1,000 resamples of 1,000 topics cost one (1000 x 1000) @ (1000 x k) product for the whole
  report: tens of milliseconds, not the seconds a Python loop would take
  (docs/agreement-store.md gives the measured cost).
- A metric without a vector form (Krippendorff's alpha: its units are pooled, not summed)
  gets no interval (``None``).
- A pair that annotated none of a resample's topics is left out of that resample's AVG and
  MAX-micro, as a pair with no topic is left out of the report.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from typing import Any

RESAMPLES = 1000
SEED = 26
LEVEL = 0.95

Interval = list[float] | None


@functools.lru_cache(maxsize=8)
def resample_weights(topics: int, resamples: int = RESAMPLES, seed: int = SEED) -> Any:
    """(resamples x topics) array, read-only: how often each topic is drawn in each resample.

    Drawn as an index matrix (``integers``: a (resamples x topics) matrix of topic indices),
    counted per row with one ``bincount``: ~20 times faster than ``multinomial`` at 1,000
    topics, and the same distribution. Cached: the same report opened again draws nothing."""
    import numpy

    rng = numpy.random.default_rng(seed)
    picks = rng.integers(0, topics, size=(resamples, topics))
    rows = numpy.arange(resamples)[:, None] * topics
    counts = numpy.bincount((picks + rows).ravel(), minlength=resamples * topics)
    weights = counts.reshape(resamples, topics).astype(numpy.float64)  # (float: BLAS products)
    weights.flags.writeable = False
    return weights


def f1_of_sums(sums: Any) -> Any:
    """F1 of summed (p_num, p_den, r_num, r_den) rows, 0/0 as 0 (metrics.md); NaN, undefined,
    where both denominators are 0 (metrics/undefined.py)."""
    import numpy

    with numpy.errstate(divide="ignore", invalid="ignore"):
        precision = numpy.where(sums[:, 1] > 0, sums[:, 0] / sums[:, 1], 0.0)
        recall = numpy.where(sums[:, 3] > 0, sums[:, 2] / sums[:, 3], 0.0)
        total = precision + recall
        f1 = numpy.where(total > 0, 2 * precision * recall / total, 0.0)
        return numpy.where((sums[:, 1] > 0) | (sums[:, 3] > 0), f1, numpy.nan)


def interval(values: Any) -> Interval:
    """The central :data:`LEVEL` percentile interval of the defined (non-NaN) values."""
    import numpy

    defined = values[~numpy.isnan(values)]
    if defined.size == 0:
        return None
    tail = 100 * (1 - LEVEL) / 2
    low, high = numpy.percentile(defined, [tail, 100 - tail])
    return [float(low), float(high)]


def aggregate_intervals(
    weights: Any,
    pair_rows: Sequence[Any],
    pair_present: Sequence[Any],
    topic_maxima: Any,
    score_sums: Callable[[Any], Any],
) -> dict[str, Interval]:
    """Intervals of AVG, MAX-micro and MAX-macro for one metric.

    ``pair_rows``: per pair, a (topics x k) array of its per-topic vector counts (zeros where
    the pair did not annotate the topic); ``pair_present``: per pair, a 0/1 topic vector;
    ``topic_maxima``: per topic, its MAX (NaN where undefined)."""

    # one product for all pairs: (resamples x topics) @ (topics x (pairs * k + pairs + 2))
    sums = weights @ interval_columns(pair_rows, pair_present, topic_maxima)
    return intervals_of_sums(sums, len(pair_rows), score_sums)


def interval_columns(
    pair_rows: Sequence[Any], pair_present: Sequence[Any], topic_maxima: Any
) -> Any:
    """One metric's (topics x (pairs * k + pairs + 2)) block: the pairs' per-topic vectors
    side by side, their 0/1 presence columns, the topics' MAX (0 where undefined) and a 0/1
    column of where it is defined. Callers may put several metrics' blocks side by side and
    multiply once (``corefscore.metrics.iaa.aggregate`` does)."""
    import numpy

    defined = ~numpy.isnan(topic_maxima)
    return numpy.hstack(
        [
            *pair_rows,
            *(column[:, None] for column in pair_present),
            numpy.where(defined, topic_maxima, 0.0)[:, None],
            defined.astype(numpy.float64)[:, None],
        ]
    )


def intervals_of_sums(
    sums: Any, pairs: int, score_sums: Callable[[Any], Any]
) -> dict[str, Interval]:
    """Intervals of AVG, MAX-micro and MAX-macro from ``weights @ interval_columns(...)``."""
    import numpy

    micro = []
    resamples = sums.shape[0]
    width = (sums.shape[1] - pairs - 2) // pairs if pairs else 0
    if pairs:
        drawn_pairs = sums[:, pairs * width :]
        for index in range(pairs):
            scores = score_sums(sums[:, index * width : (index + 1) * width])
            micro.append(numpy.where(drawn_pairs[:, index] > 0, scores, numpy.nan))
    with numpy.errstate(invalid="ignore", divide="ignore"):
        stacked = numpy.vstack(micro) if micro else numpy.full((1, resamples), numpy.nan)
        counted = (~numpy.isnan(stacked)).sum(axis=0)
        avg = numpy.where(counted > 0, numpy.nansum(stacked, axis=0) / counted, numpy.nan)
        filled = numpy.where(numpy.isnan(stacked), -numpy.inf, stacked).max(axis=0)
        max_micro = numpy.where(counted > 0, filled, numpy.nan)
        maxima, drawn = sums[:, -2], sums[:, -1]
        max_macro = numpy.where(drawn > 0, maxima / drawn, numpy.nan)
    return {
        "avg_ci": interval(avg),
        "max_micro_ci": interval(max_micro),
        "max_macro_ci": interval(max_macro),
    }


def f1_intervals(per_topic: Mapping[str, Sequence[Any]], seed: int = SEED) -> dict[str, Interval]:
    """A system's scores against gold (every model score gets an interval): for each metric, the
    95% interval of its micro F1 over resampled topics. ``per_topic[metric]``: one
    ``(p_num, p_den, r_num, r_den)`` per topic, in the same topic order for every metric;
    ``conll`` is added when MUC, B3 and CEAF-e are all there."""
    import numpy

    topics = len(next(iter(per_topic.values()), ()))
    if topics == 0:
        return {name: None for name in per_topic}
    weights = resample_weights(topics, seed=seed)
    scores = {
        name: f1_of_sums(weights @ numpy.asarray(rows, dtype=numpy.float64))
        for name, rows in per_topic.items()
    }
    result = {name: interval(values) for name, values in scores.items()}
    if {"muc", "bcub", "ceafe"} <= scores.keys():
        result["conll_f1"] = interval((scores["muc"] + scores["bcub"] + scores["ceafe"]) / 3)
    return result
