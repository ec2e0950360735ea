"""Inter-annotator agreement aggregation (metrics.md, "Inter-annotator agreement"; SciCo 3.4).

Input: for every topic, the counts of every pair of annotators who submitted it (the first
of the pair as key, the second as response). For each metric:

- per topic: AVG = mean over the topic's pairs, MAX = the best pair;
- overall, per pair: the *micro* score over the topics both annotated (counts pooled, then
  one score); AVG = mean of the pairs' micro scores with their standard deviation
  (population, ddof = 0); MAX-micro = the best pair's micro score; MAX-macro = mean over
  topics of the topic's MAX.

Every overall figure also gets a 95% bootstrap interval over topics (``avg_ci``,
``max_micro_ci``, ``max_macro_ci``: ``[low, high]`` or ``None``; :mod:`.bootstrap`) for the
metrics whose counts add up as vectors (``MetricSpec.vector``).

A score that is undefined (``None``, e.g. alpha with no unit) is shown as ``None`` and left
out of every mean and maximum; an aggregate over nothing is ``None`` too.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypedDict

from annotation.domain.metrics.bootstrap import Interval, aggregate_intervals, resample_weights

Score = float | None


class TopicScores(TypedDict):
    """One metric on one topic: AVG and MAX over its pairs, and each pair's score."""

    avg: Score
    max: Score
    pairs: dict[str, Score]


class OverallScores(TypedDict):
    """One metric over all topics (see the module's doc)."""

    avg: Score
    std: Score
    max_micro: Score
    max_macro: Score
    avg_ci: Interval
    max_micro_ci: Interval
    max_macro_ci: Interval


@dataclass(frozen=True)
class MetricSpec:
    """How one IAA metric reads a pair's results: extract its counts, score them, pool them."""

    name: str
    extract: Callable[[Any], Any]
    score: Callable[[Any], Score]
    pool: Callable[[list[Any]], Any]
    # For the bootstrap: the extracted counts as a flat vector that adds up over topics, and
    # the score of summed vectors (rows of an array); None: no interval for this metric.
    vector: Callable[[Any], Sequence[float]] | None = None
    score_sums: Callable[[Any], Any] | None = None


def mean(values: Sequence[float]) -> Score:
    return math.fsum(values) / len(values) if values else None


def population_std(values: Sequence[float]) -> Score:
    center = mean(values)
    if center is None:
        return None
    return math.sqrt(math.fsum((value - center) ** 2 for value in values) / len(values))


def best(values: Sequence[float]) -> Score:
    return max(values) if values else None


def aggregate(
    results: Mapping[str, Mapping[str, Any]],
    metrics: Iterable[MetricSpec],
    *,
    weights: Any = None,
) -> tuple[dict[str, dict[str, TopicScores]], dict[str, OverallScores]]:
    """``results[topic][pair]`` -> (per-topic JSON, overall JSON) for every metric.

    Topics and pairs keep the order of ``results``; each metric's counts are extracted once.
    ``weights``: the bootstrap's resamples of the topics (default: :func:`resample_weights`).
    """
    topics: dict[str, dict[str, TopicScores]] = {topic: {} for topic in results}
    overall: dict[str, OverallScores] = {}
    if weights is None and results:
        weights = resample_weights(len(results))
    elif weights is False:  # (no intervals asked for: the bench's baseline)
        weights = None
    for metric in metrics:
        by_pair: dict[str, list[Any]] = {}
        by_pair_topic: dict[str, dict[int, Any]] = {}
        topic_maxima: list[float] = []
        maxima_by_topic: list[float | None] = []
        for index, (topic, pairs) in enumerate(results.items()):
            scores: dict[str, Score] = {}
            for pair, result in pairs.items():
                counts = metric.extract(result)
                by_pair.setdefault(pair, []).append(counts)
                by_pair_topic.setdefault(pair, {})[index] = counts
                scores[pair] = metric.score(counts)
            defined = [score for score in scores.values() if score is not None]
            topics[topic][metric.name] = {
                "avg": mean(defined),
                "max": best(defined),
                "pairs": scores,
            }
            maxima_by_topic.append(max(defined) if defined else None)
            if defined:
                topic_maxima.append(max(defined))
        micro = [metric.score(metric.pool(counts)) for counts in by_pair.values()]
        defined = [score for score in micro if score is not None]
        intervals = _intervals(metric, weights, by_pair_topic, maxima_by_topic)
        overall[metric.name] = {
            "avg": mean(defined),
            "std": population_std(defined),
            "max_micro": best(defined),
            "max_macro": mean(topic_maxima),
            "avg_ci": intervals["avg_ci"],
            "max_micro_ci": intervals["max_micro_ci"],
            "max_macro_ci": intervals["max_macro_ci"],
        }
    return topics, overall


def _intervals(
    metric: MetricSpec,
    weights: Any,
    by_pair_topic: Mapping[str, Mapping[int, Any]],
    maxima: Sequence[float | None],
) -> dict[str, Interval]:
    """The bootstrap intervals of one metric's overall figures (None without a vector form)."""
    if metric.vector is None or metric.score_sums is None or weights is None:
        return {"avg_ci": None, "max_micro_ci": None, "max_macro_ci": None}
    import numpy

    vector = metric.vector
    rows, present = [], []
    for counts_by_topic in by_pair_topic.values():
        first = vector(next(iter(counts_by_topic.values())))
        array = numpy.zeros((len(maxima), len(first)))
        mask = numpy.zeros(len(maxima))
        for index, counts in counts_by_topic.items():
            array[index] = vector(counts)
            mask[index] = 1
        rows.append(array)
        present.append(mask)
    topic_maxima = numpy.array([numpy.nan if m is None else m for m in maxima], dtype=float)
    return aggregate_intervals(weights, rows, present, topic_maxima, metric.score_sums)


def pair_label(first: int, second: int, names: Sequence[str] | None) -> str:
    """ "1-2" from 0-based positions, or "alice-bob" when names are given."""
    if names is None:
        return f"{first + 1}-{second + 1}"
    return f"{names[first]}-{names[second]}"
