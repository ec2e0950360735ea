"""The `same-head-lemma` backend: WEC's lemma baseline (Eirew et al. 2021): two mentions
corefer when their heads have the same lemma; no hierarchy.

How the head is found (WEC used a parser; none is installed here): annotation/domain/heads.py,
the last word before the first preposition, lower-cased, a regular plural folded. A mention
with no word left is alone.
"""

from __future__ import annotations

from typing import Any

from annotation.domain.heads import head_lemma  # in the domain: the statistics use it too
from corefscore.corpus import TopicData
from modelserve.backends.base import ClusterSuggestion, Progress, Suggestions, no_progress
from modelserve.backends.edit_distance import mention_words
from modelserve.backends.parameters import with_defaults


class SameHeadLemmaBackend:
    name = "same-head-lemma"

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        with_defaults(self.name, params)  # single_parent only (parameters.py)

    def suggest(self, topic: TopicData, *, progress: Progress = no_progress) -> Suggestions:
        groups: dict[str, list[int]] = {}
        alone: list[list[int]] = []
        for index in range(len(topic.mentions)):
            lemma = head_lemma(mention_words(topic, index))
            if lemma is None:
                alone.append([index])
            else:
                groups.setdefault(lemma, []).append(index)
        clusters = sorted([*groups.values(), *alone], key=lambda members: members[0])
        progress(1.0, "done")
        return Suggestions(clusters=[ClusterSuggestion(members, 1.0) for members in clusters])
