"""What `score` scores: every topic, a subset of the topics, each topic alone, or the corpus as
one meta-document.

- A subset keeps the gold topics named (a file of topic ids, or SciCo's boolean flags such as
  `hard_10`, `hard_20`, `curated`: the topics whose field is true, as SciCo's evaluate.py
  filters them) and the system topics with the same ids.
- Per topic: each (gold, system) pair of topics scored alone, as a row.
- Corpus level (WEC section 4.2): all topics joined into one document. How a cluster id is
  read depends on the file's numbering (``cluster_ids``):
  - ``"per-topic"`` (the default; SciCo's files number their clusters anew in every topic,
    so cluster 0 of topic 1 and cluster 0 of topic 2 are unrelated): a cluster is the pair
    (topic, id), so no id joins two topics and a renaming inside one topic changes nothing;
  - ``"global"`` (ids numbered across the corpus, as WEC's): a cluster id used in two topics
    is one cluster, which is what corpus level scores.
  Nothing in a file says which numbering it uses (a global id shared by two topics looks
  like a restarted one), so the caller says it; the result's ``scope`` repeats it.
  Documents are numbered on, topic after topic in gold order, the same numbering on both
  sides.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from corefscore.metrics.mention_detection import MentionKey
from corefscore.scoring.plain import (
    ScoringInputError,
    TopicAnnotation,
    coval_cluster_order,
)

CORPUS_ID = "corpus"
CLUSTER_IDS = ("per-topic", "global")


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
    pairs: Sequence[tuple[TopicAnnotation, TopicAnnotation]], cluster_ids: str = "per-topic"
) -> tuple[TopicAnnotation, TopicAnnotation]:
    """The gold and the system as one meta-document each; ``cluster_ids`` as the module says."""
    if cluster_ids not in CLUSTER_IDS:
        raise ValueError(f"cluster_ids must be per-topic or global, not {cluster_ids!r}")
    per_topic = cluster_ids == "per-topic"
    offsets, total = {}, 0
    for key, response in pairs:
        offsets[key.topic_id] = total
        total += max(len(key.token_counts), len(response.token_counts), _documents(key, response))
    return (
        _joined([key for key, _ in pairs], offsets, per_topic),
        _joined([response for _, response in pairs], offsets, per_topic),
    )


def _documents(*topics: TopicAnnotation) -> int:
    """How many documents the topics' mentions name (at least)."""
    return max((m[0] + 1 for topic in topics for m in topic.mentions), default=0)


def _joined(
    topics: Sequence[TopicAnnotation], offsets: dict[str, int], per_topic: bool
) -> TopicAnnotation:
    def moved(key: MentionKey, offset: int) -> MentionKey:
        return (key[0] + offset, key[1])

    def named(topic: TopicAnnotation, cluster: str) -> str:
        # JSON of [topic, id]: two different pairs never give the same string
        return json.dumps([topic.topic_id, cluster]) if per_topic else cluster

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
            cluster_of[moved(mention, offset)] = named(topic, cluster)
        relations += [
            (named(topic, parent), named(topic, child)) for parent, child in topic.relations
        ]
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
