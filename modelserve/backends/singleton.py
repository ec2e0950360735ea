"""The `singleton` backend: every mention alone, no hierarchy (the floor that Realistic
Evaluation of cross-document coreference, section 4.2, asks every system to be compared with)."""

from __future__ import annotations

from typing import Any

from corefscore.corpus import TopicData
from modelserve.backends.base import ClusterSuggestion, Progress, Suggestions, no_progress
from modelserve.backends.parameters import with_defaults


class SingletonBackend:
    name = "singleton"

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        with_defaults(self.name, params)  # single_parent only (parameters.py)

    def suggest(self, topic: TopicData, *, progress: Progress = no_progress) -> Suggestions:
        progress(1.0, "done")
        return Suggestions(
            clusters=[ClusterSuggestion([m], 1.0) for m in range(len(topic.mentions))]
        )
