"""What `score` scores: every topic, a subset of the topics, each topic alone, or the corpus as
one meta-document.

- A subset keeps the gold topics named (a file of topic ids, or SciCo's boolean flags such as
  `hard_10`, `hard_20`, `curated`: the topics whose field is true, as SciCo's evaluate.py
  filters them) and the system topics with the same ids.
- Per topic: each (gold, system) pair of topics scored alone, as a row.
- Corpus level (WEC section 4.2): all topics joined into one document, so that cluster ids
  are read across topics: a cluster id used in two topics is one cluster (files whose ids
  restart in every topic, as SciCo's do, are scored per topic instead). Documents are
  numbered on, topic after topic in gold order, the same numbering on both sides.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from annotation.domain.metrics.mention_detection import MentionKey
from annotation.domain.scoring.plain import (
    ScoringInputError,
    TopicAnnotation,
    coval_cluster_order,
)

CORPUS_ID = "corpus"


def subset(
    gold: Sequence[TopicAnnotation], system: Sequence[TopicAnnotation], topic_ids: Iterable[str]
) -> tuple[list[TopicAnnotation], list[TopicAnnotation]]:
    """The gold topics named by `topic_ids` and the system topics with the same ids; an id
    the gold does not hold is an error."""
    wanted = list(dict.fromkeys(str(t) for t in topic_ids))
    known = {topic.topic_id for topic in gold}
    unknown = [t for t in wanted if t not in known]
    if unknown:
        raise ScoringInputError(f"the subset names topics the gold does not hold: {unknown}")
    keep = set(wanted)
    return (
        [topic for topic in gold if topic.topic_id in keep],
        [topic for topic in system if topic.topic_id in keep],
    )


def flagged(flags: dict[str, Any], field: str) -> list[str]:
    """Topic ids whose `field` is true, from topic id -> the field's value; a topic without
    the field, or with a value that is not a boolean, is an error."""
    missing = [t for t, value in flags.items() if not isinstance(value, bool)]
    if missing:
        raise ScoringInputError(
            f"the gold's topics {missing[:5]} have no boolean field {field!r}"
            + (f" (and {len(missing) - 5} more)" if len(missing) > 5 else "")
        )
    return [t for t, value in flags.items() if value]


def per_topic(
    pairs: Sequence[tuple[TopicAnnotation, TopicAnnotation]],
    score: Callable[[Sequence[TopicAnnotation], Sequence[TopicAnnotation]], dict[str, Any]],
) -> list[dict[str, Any]]:
    """One row per topic: {"topic": id, **the scores of that topic alone}."""
    return [{"topic": key.topic_id, **score([key], [response])} for key, response in pairs]


def corpus_documents(
    pairs: Sequence[tuple[TopicAnnotation, TopicAnnotation]],
) -> tuple[TopicAnnotation, TopicAnnotation]:
    """The gold and the system as one meta-document each."""
    offsets, total = {}, 0
    for key, response in pairs:
        offsets[key.topic_id] = total
        total += max(len(key.token_counts), len(response.token_counts), _documents(key, response))
    return (
        _joined([key for key, _ in pairs], offsets),
        _joined([response for _, response in pairs], offsets),
    )


def _documents(*topics: TopicAnnotation) -> int:
    """How many documents the topics' mentions name (at least)."""
    return max((m[0] + 1 for topic in topics for m in topic.mentions), default=0)


def _joined(topics: Sequence[TopicAnnotation], offsets: dict[str, int]) -> TopicAnnotation:
    def moved(key: MentionKey, offset: int) -> MentionKey:
        return (key[0] + offset, key[1])

    mentions: list[MentionKey] = []
    cluster_of: dict[MentionKey, str] = {}
    relations: list[tuple[str, str]] = []
    links = []
    token_counts: list[int] = []
    for topic in topics:
        offset = offsets[topic.topic_id]
        token_counts += [0] * (offset - len(token_counts)) + list(topic.token_counts)
        mentions += [moved(m, offset) for m in topic.mentions]
        for mention, cluster in topic.cluster_of.items():
            cluster_of[moved(mention, offset)] = cluster
        relations += list(topic.relations)
        links += [(kind, moved(a, offset), moved(b, offset)) for kind, a, b in topic.links]
    return TopicAnnotation(
        topic_id=CORPUS_ID,
        mentions=tuple(mentions),
        cluster_of=cluster_of,
        clusters=coval_cluster_order(cluster_of),
        relations=tuple(dict.fromkeys(relations)),
        links=tuple(links),
        token_counts=tuple(token_counts),
    )
