"""Inter-annotator agreement aggregation (metrics.md, "Inter-annotator agreement"; SciCo 3.4).

Input: for every topic, the counts of every pair of annotators who submitted it (the first
of the pair as key, the second as response). For each metric:

- per topic: AVG = mean over the topic's pairs, MAX = the best pair;
- overall, per pair: the *micro* score over the topics both annotated (counts pooled, then
  one score); AVG = mean of the pairs' micro scores with their standard deviation
  (population, ddof = 0); MAX-micro = the best pair's micro score; MAX-macro = mean over
  topics of the topic's MAX.

A score that is undefined (``None``, e.g. alpha with no unit) is shown as ``None`` and left
out of every mean and maximum; an aggregate over nothing is ``None`` too.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypedDict

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


@dataclass(frozen=True)
class MetricSpec:
    """How one IAA metric reads a pair's results: extract its counts, score them, pool them."""

    name: str
    extract: Callable[[Any], Any]
    score: Callable[[Any], Score]
    pool: Callable[[list[Any]], Any]


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
    results: Mapping[str, Mapping[str, Any]], metrics: Iterable[MetricSpec]
) -> tuple[dict[str, dict[str, TopicScores]], dict[str, OverallScores]]:
    """``results[topic][pair]`` -> (per-topic JSON, overall JSON) for every metric.

    Topics and pairs keep the order of ``results``; each metric's counts are extracted once.
    """
    topics: dict[str, dict[str, TopicScores]] = {topic: {} for topic in results}
    overall: dict[str, OverallScores] = {}
    for metric in metrics:
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
        }
    return topics, overall


def pair_label(first: int, second: int, names: Sequence[str] | None) -> str:
    """ "1-2" from 0-based positions, or "alice-bob" when names are given."""
    if names is None:
        return f"{first + 1}-{second + 1}"
    return f"{names[first]}-{names[second]}"
