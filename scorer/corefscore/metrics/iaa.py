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

from corefscore.metrics.bootstrap import (
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
    vectors: Mapping[str, Mapping[str, Any]] | None = None,
) -> tuple[dict[str, dict[str, TopicScores]], dict[str, OverallScores]]:
    """``results[topic][pair]`` -> (per-topic JSON, overall JSON) for every metric.

    Topics and pairs keep the order of ``results``; each metric's counts are extracted once.
    ``weights``: the bootstrap's resamples of the topics (default: :func:`resample_weights`).
    ``vectors``: where the caller holds a metric's counts as arrays already (the stored
    report, `scoring/stored.py`), ``vectors[metric][pair]`` is the pair's (topics x k) array
    of ``metric.vector`` rows, topics in ``results``' order; such a metric is scored from it
    (with or without intervals) and its ``extract`` is never called.
    """
    topics: dict[str, dict[str, TopicScores]] = {topic: {} for topic in results}
    overall: dict[str, OverallScores] = {}
    if weights is None and results:
        weights = resample_weights(len(results))
    elif weights is False:  # (no intervals asked for: the bench's baseline)
        weights = None
    metrics = list(metrics)
    vectors = vectors or {}
    blocks: dict[str, tuple[Any, int]] = {}  # metric -> (its interval columns, its pairs)
    layout: _Layout | None = None
    for metric in metrics:
        # with intervals numpy is loaded anyway: score with arrays (without, the command
        # line keeps numpy out of its start-up and takes the scalar path: the same floats)
        arrays = vectors.get(metric.name)
        if metric.score_sums is not None and (
            arrays is not None or (weights is not None and metric.vector is not None)
        ):
            layout = layout or _Layout(results)
            if arrays is None:
                arrays = _pair_arrays(metric, results)
            maxima = _vector_metric(metric.name, metric.score_sums, arrays, layout, topics, overall)
            if weights is not None:
                blocks[metric.name] = _interval_block(arrays, layout, maxima)
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


class _Layout:
    """Which topics each pair annotated, shared by every metric of one aggregation."""

    def __init__(self, results: Mapping[str, Mapping[str, Any]]) -> None:
        self.names = list(results)
        self.indices: dict[str, list[int]] = {}  # pair -> the indices of its topics
        # the topics with the same pairs (in the same order): one block of scores each
        self.groups: dict[tuple[str, ...], list[int]] = {}
        for index, pairs in enumerate(results.values()):
            for pair in pairs:
                self.indices.setdefault(pair, []).append(index)
            self.groups.setdefault(tuple(pairs), []).append(index)
        self.columns = {pair: column for column, pair in enumerate(self.indices)}

    @property
    def topics(self) -> int:
        return len(self.names)


def _pair_arrays(metric: MetricSpec, results: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    """Each pair's ``metric.vector`` rows as one (topics of the pair x k) array."""
    import numpy

    vector, extract = metric.vector, metric.extract
    assert vector is not None
    rows: dict[str, list[Sequence[float]]] = {}
    for pairs in results.values():
        for pair, result in pairs.items():
            rows.setdefault(pair, []).append(vector(extract(result)))
    return {pair: numpy.asarray(values, dtype=numpy.float64) for pair, values in rows.items()}


def _vector_metric(
    name: str,
    score_sums: Callable[[Any], Any],
    arrays: Mapping[str, Any],
    layout: _Layout,
    topics: dict[str, dict[str, TopicScores]],
    overall: dict[str, OverallScores],
) -> list[float | None]:
    """One metric whose counts add up as vectors, scored with numpy from each pair's array:
    every pair-topic score and every pair's micro score. Returns each topic's MAX.

    The same floats as ``metric.score`` / ``metric.pool`` (tested against them): the score
    of sums divides and multiplies in the scalar code's order, and a pair's counts are added
    topic after topic (``add.accumulate`` is a left-to-right running sum), as ``add_counts``
    adds them. An undefined score of sums is NaN (metrics/undefined.py): None here, left out
    of every mean and maximum as the scalar path leaves None out."""
    import numpy

    # every pair-topic score in one (topics x pairs) matrix, read back a block of topics
    # with the same pairs at a time (not pair by pair and topic by topic)
    matrix = numpy.zeros((layout.topics, len(layout.columns)))
    for pair, array in arrays.items():
        matrix[layout.indices[pair], layout.columns[pair]] = score_sums(array)
    maxima_by_topic: list[float | None] = [None] * layout.topics
    for pairs, members in layout.groups.items():
        block = matrix[numpy.ix_(members, [layout.columns[pair] for pair in pairs])].tolist()
        for index, values in zip(members, block, strict=True):
            scores = [None if math.isnan(value) else value for value in values]
            defined = [value for value in scores if value is not None]
            top = max(defined) if defined else None
            topics[layout.names[index]][name] = {
                "avg": mean(defined),
                "max": top,
                "pairs": dict(zip(pairs, scores, strict=True)),
            }
            maxima_by_topic[index] = top
    topic_maxima = [top for top in maxima_by_topic if top is not None]
    pooled = [
        float(score_sums(numpy.add.accumulate(array, axis=0)[-1:])[0]) for array in arrays.values()
    ]
    micro = [value for value in pooled if not math.isnan(value)]
    overall[name] = {
        "avg": mean(micro),
        "std": population_std(micro),
        "max_micro": best(micro),
        "max_macro": mean(topic_maxima),
        "avg_ci": None,
        "max_micro_ci": None,
        "max_macro_ci": None,
    }
    return maxima_by_topic


def _interval_block(
    arrays: Mapping[str, Any], layout: _Layout, maxima_by_topic: Sequence[float | None]
) -> tuple[Any, int]:
    """One metric's bootstrap columns (``bootstrap.interval_columns``) and its pair count."""
    import numpy

    rows, present = [], []
    for pair, array in arrays.items():
        indices = layout.indices[pair]
        full = numpy.zeros((layout.topics, array.shape[1]))
        full[indices] = array
        mask = numpy.zeros(layout.topics)
        mask[indices] = 1
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
