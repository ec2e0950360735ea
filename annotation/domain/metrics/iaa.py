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

from annotation.domain.metrics.bootstrap import (
    Interval,
    interval_columns,
    intervals_of_sums,
    resample_weights,
)

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
    metrics = list(metrics)
    blocks: dict[str, tuple[Any, int]] = {}  # metric -> (its interval columns, its pairs)
    for metric in metrics:
        # with intervals numpy is loaded anyway: score with arrays (without, the command
        # line keeps numpy out of its start-up and takes the scalar path: the same floats)
        if weights is not None and metric.vector is not None and metric.score_sums is not None:
            blocks[metric.name] = _vector_metric(metric, results, topics, overall)
            continue
        by_pair: dict[str, list[Any]] = {}
        topic_maxima: list[float] = []
        for topic, pairs in results.items():
            scores: dict[str, Score] = {}
            for pair, result in pairs.items():
                counts = metric.extract(result)
                by_pair.setdefault(pair, []).append(counts)
                scores[pair] = metric.score(counts)
            defined = [score for score in scores.values() if score is not None]
            topics[topic][metric.name] = {
                "avg": mean(defined),
                "max": best(defined),
                "pairs": scores,
            }
            if defined:
                topic_maxima.append(max(defined))
        micro = [metric.score(metric.pool(counts)) for counts in by_pair.values()]
        defined = [score for score in micro if score is not None]
        overall[metric.name] = {
            "avg": mean(defined),
            "std": population_std(defined),
            "max_micro": best(defined),
            "max_macro": mean(topic_maxima),
            "avg_ci": None,
            "max_micro_ci": None,
            "max_macro_ci": None,
        }
    if blocks:
        _intervals(weights, blocks, {metric.name: metric for metric in metrics}, overall)
    return topics, overall


def _vector_metric(
    metric: MetricSpec,
    results: Mapping[str, Mapping[str, Any]],
    topics: dict[str, dict[str, TopicScores]],
    overall: dict[str, OverallScores],
) -> tuple[Any, int]:
    """One metric whose counts add up as vectors, scored with numpy: each pair's per-topic
    vectors in one array, every pair-topic score and every pair's micro score from arrays.

    The same floats as ``metric.score`` / ``metric.pool`` (tested against them): the score
    of sums divides and multiplies in the scalar code's order, and a pair's counts are added
    topic after topic (``add.accumulate`` is a left-to-right running sum), as ``add_counts``
    adds them. Returns the metric's bootstrap columns."""
    import numpy

    vector, score_sums = metric.vector, metric.score_sums
    assert vector is not None
    assert score_sums is not None
    indices: dict[str, list[int]] = {}
    vectors: dict[str, list[Sequence[float]]] = {}
    for index, pairs in enumerate(results.values()):
        for pair, result in pairs.items():
            indices.setdefault(pair, []).append(index)
            vectors.setdefault(pair, []).append(vector(metric.extract(result)))
    arrays = {pair: numpy.asarray(rows, dtype=numpy.float64) for pair, rows in vectors.items()}
    scores = {pair: iter(score_sums(array).tolist()) for pair, array in arrays.items()}
    topic_maxima: list[float] = []
    maxima_by_topic: list[float | None] = []
    for topic, pairs in results.items():
        by_pair: dict[str, Score] = {pair: next(scores[pair]) for pair in pairs}
        defined = [score for score in by_pair.values() if score is not None]
        topics[topic][metric.name] = {"avg": mean(defined), "max": best(defined), "pairs": by_pair}
        maxima_by_topic.append(max(defined) if defined else None)
        if defined:
            topic_maxima.append(max(defined))
    micro = [
        float(score_sums(numpy.add.accumulate(array, axis=0)[-1:])[0]) for array in arrays.values()
    ]
    overall[metric.name] = {
        "avg": mean(micro),
        "std": population_std(micro),
        "max_micro": best(micro),
        "max_macro": mean(topic_maxima),
        "avg_ci": None,
        "max_micro_ci": None,
        "max_macro_ci": None,
    }
    rows, present = [], []
    for pair, array in arrays.items():
        full = numpy.zeros((len(results), array.shape[1]))
        full[indices[pair]] = array
        mask = numpy.zeros(len(results))
        mask[indices[pair]] = 1
        rows.append(full)
        present.append(mask)
    maxima = numpy.array([numpy.nan if m is None else m for m in maxima_by_topic], dtype=float)
    return interval_columns(rows, present, maxima), len(rows)


def _intervals(
    weights: Any,
    blocks: Mapping[str, tuple[Any, int]],
    specs: Mapping[str, MetricSpec],
    overall: dict[str, OverallScores],
) -> None:
    """Every metric's bootstrap intervals from one product of the resample weights with all
    metrics' columns side by side."""
    import numpy

    sums = weights @ numpy.hstack([columns for columns, _ in blocks.values()])
    start = 0
    for name, (columns, pairs) in blocks.items():
        part = sums[:, start : start + columns.shape[1]]
        start += columns.shape[1]
        score_sums = specs[name].score_sums
        assert score_sums is not None
        overall[name].update(intervals_of_sums(part, pairs, score_sums))  # type: ignore[typeddict-item]


def pair_label(first: int, second: int, names: Sequence[str] | None) -> str:
    """ "1-2" from 0-based positions, or "alice-bob" when names are given."""
    if names is None:
        return f"{first + 1}-{second + 1}"
    return f"{names[first]}-{names[second]}"
