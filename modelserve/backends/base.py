"""The one small interface every suggestion backend implements.

Backends are plain Python over `TopicData` (no Django), so they run the same in a Celery
worker, in `python -m modelserve.predict`, and in tests. Indices refer to `topic.mentions`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from corefscore.corpus import TopicData

# progress(fraction in [0, 1], message)
Progress = Callable[[float, str], None]


def no_progress(fraction: float, message: str) -> None:
    return None


@dataclass
class ClusterSuggestion:
    mentions: list[int]
    score: float
    # How sure the backend is of each member (same order as `mentions`); None: `score` for all.
    mention_scores: list[float] | None = None


@dataclass
class EdgeSuggestion:
    """parent -> child, as indices into Suggestions.clusters."""

    parent: int
    child: int
    score: float


@dataclass
class MentionSuggestion:
    """A mention the backend found in the raw text that the topic does not have yet."""

    document: int  # index into topic.documents
    spans: list[list[int]]  # [[start, end], ...] inclusive token offsets; several if discontinuous
    score: float


@dataclass
class LinkSuggestion:
    """`anaphor` and `antecedent` index the mentions the link joins: an index below
    len(topic.mentions) names an existing mention; index len(topic.mentions) + k names
    Suggestions.mentions[k], a proposed mention (the link is offered once it is accepted)."""

    type: str
    anaphor: int
    antecedent: int
    score: float
    # The model's probability of each type for the pair, "NONE" (no link) included, where it
    # gives one: the question mode ranks links by its entropy (modelserve/questions.py).
    type_scores: dict[str, float] | None = None


@dataclass
class Suggestions:
    clusters: list[ClusterSuggestion] = field(default_factory=list)
    edges: list[EdgeSuggestion] = field(default_factory=list)
    links: list[LinkSuggestion] = field(default_factory=list)
    mentions: list[MentionSuggestion] = field(default_factory=list)
    # what the backend would propose but cannot yet, by name ("mentions": its mention tagger
    # is not trained yet); the run's message says so (modelserve.training_state)
    pending: list[str] = field(default_factory=list)


def check_links(links: list[LinkSuggestion], mentions: int) -> str:
    """What is wrong with links that may name `mentions` mentions (the topic's, then any
    proposed ones): "" when every end is one of them."""
    for k, link in enumerate(links):
        for end in (link.anaphor, link.antecedent):
            if not 0 <= end < mentions:
                return f"link {k} names mention {end}, but there are {mentions} mentions"
    return ""


class Backend(Protocol):
    name: str

    def suggest(self, topic: TopicData, *, progress: Progress = no_progress) -> Suggestions:
        """Propose clusters (+ hierarchy edges) and/or anaphora links for one topic."""
        ...
