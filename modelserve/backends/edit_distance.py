"""The `edit-distance` backend: SciCo's lexical baseline (its `lexical_baseline.py`).

Each mention is its words joined by spaces (a discontinuous mention: the words of all its
spans); two mentions are as similar as the normalised Levenshtein similarity of those strings
(1 - edit distance / length of the longer string, on characters, case kept, as `textdistance`
computes it); clusters are average-linkage agglomerative clusters of 1 - similarity, cut at
distance 0.3 as scikit-learn's `distance_threshold` cuts. No hierarchy. Needs no model.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from rapidfuzz.distance import Levenshtein

from corefscore.corpus import TopicData
from modelserve.backends.base import Progress, Suggestions, no_progress
from modelserve.backends.decoding import cluster_confidences, member_confidences, to_suggestions
from modelserve.backends.parameters import with_defaults
from modelserve.backends.scico_decoding import average_linkage_clusters


def mention_words(topic: TopicData, index: int) -> list[str]:
    mention = topic.mentions[index]
    tokens = topic.documents[mention.document].tokens
    return [tokens[w] for start, end in mention.spans for w in range(start, end + 1)]


def mention_text(topic: TopicData, index: int) -> str:
    return " ".join(mention_words(topic, index))


class EditDistanceBackend:
    name = "edit-distance"

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        # single_parent is declared but unused: no hierarchy to constrain
        self.threshold = float(with_defaults(self.name, params)["distance_threshold"])

    def suggest(self, topic: TopicData, *, progress: Progress = no_progress) -> Suggestions:
        texts = [mention_text(topic, i) for i in range(len(topic.mentions))]
        similarity = np.array(
            [[Levenshtein.normalized_similarity(x, y) for x in texts] for y in texts],
            dtype=np.float64,
        ).reshape(len(texts), len(texts))
        clusters = average_linkage_clusters(1 - similarity, self.threshold)
        progress(1.0, "done")
        return to_suggestions(
            clusters,
            cluster_confidences(similarity, clusters),
            [],
            member_confidences(similarity, clusters),
        )
