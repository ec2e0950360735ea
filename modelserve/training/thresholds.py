"""Tuning the two decoding thresholds on held-out topics with our own scorer.

SciCo (appendix B.2) tunes the agglomerative-clustering threshold and the hierarchy stopping
threshold on the validation set and keeps the pair with the best path-distance ratio; we do
the same over a finer grid, breaking ties by CoNLL F1, then hierarchy F1, then by the lower
thresholds. Scores come from `score_scico`, micro over the held-out topics.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from corefscore.corpus import TopicData
from corefscore.scoring.api import score_scico
from modelserve.arrays import FloatArray
from modelserve.backends.decoding import (
    agglomerative_clusters,
    as_topic,
    between_clusters,
    cluster_confidences,
    four_class_scores,
    greedy_hierarchy,
    symmetrise,
    to_suggestions,
)

GRID = tuple(round(float(x), 2) for x in np.arange(0.1, 0.951, 0.05))


def summary(scores: dict[str, Any]) -> dict[str, float]:
    """The figures thresholds are chosen by; an undefined one (nothing to score on either
    side: no hierarchy in gold nor prediction) counts 0 here, where a choice must be made:
    it gains nothing."""
    return {
        "conll_f1": float(scores["conll_f1"] or 0.0),
        "hierarchy_f1": float(scores["hierarchy"]["f1"] or 0.0),
        "path_ratio_micro": float(scores["path_ratio"]["micro"] or 0.0),
        "path_ratio_macro": float(scores["path_ratio"]["macro"] or 0.0),
    }


def tune_thresholds(
    gold: list[TopicData],
    probabilities: list[FloatArray],
    *,
    grid: tuple[float, ...] = GRID,
    single_parent: bool = True,
    log: Callable[[str], None] = print,
) -> tuple[float, float, dict[str, float]]:
    """(cluster threshold, hierarchy threshold, held-out scores at them)."""
    scores = [four_class_scores(p) for p in probabilities]
    best: tuple[tuple[float, ...], float, float, dict[str, float]] | None = None
    for cluster_threshold in grid:
        decoded = []
        for coref, child_of in scores:
            similarity = symmetrise(coref)
            clusters = agglomerative_clusters(similarity, cluster_threshold)
            edges = greedy_hierarchy(
                between_clusters(child_of, clusters).T, min(grid), single_parent=single_parent
            )
            decoded.append((clusters, cluster_confidences(similarity, clusters), edges))
        for hierarchy_threshold in grid:
            # a higher threshold keeps a prefix of the greedy edges (see decoding.py)
            system = [
                as_topic(
                    topic,
                    to_suggestions(c, conf, [e for e in edges if e[2] >= hierarchy_threshold]),
                )
                for topic, (c, conf, edges) in zip(gold, decoded, strict=True)
            ]
            result = summary(score_scico(gold, system))
            key = (result["path_ratio_micro"], result["conll_f1"], result["hierarchy_f1"])
            if best is None or key > best[0]:
                best = (key, cluster_threshold, hierarchy_threshold, result)
    assert best is not None
    _, cluster_threshold, hierarchy_threshold, result = best
    log(f"thresholds: clustering {cluster_threshold}, hierarchy {hierarchy_threshold}")
    return cluster_threshold, hierarchy_threshold, result
