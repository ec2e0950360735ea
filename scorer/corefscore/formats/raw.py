"""A file's topics without their annotation: what a "raw" import keeps (docs/formats.md,
"Raw imports").

Two levels, the same for every reader: ``text`` keeps the documents (tokens, sentences,
document metadata) and nothing else; ``mentions`` keeps the mentions too, without clusters,
hierarchy relations or links. Either way the fields a reader keeps in the topic's metadata
that record the file's answers go too (CoRefi's ``goldMentions`` and cluster choices, SciCo's
``flatten_mentions``, ChEMU-Ref's held link entries), or an export of an annotator's work on
the raw topic would write the stripped gold back.
"""

from __future__ import annotations

import copy
from dataclasses import replace
from typing import Any

from corefscore.corpus import MentionData, TopicData

TEXT = "text"
MENTIONS = "mentions"
LEVELS = (TEXT, MENTIONS)

# Per format key of TopicData.metadata: the keys that describe the annotation. CoRefi's task
# fields are under "extra" (corefi.py); ChEMU-Ref's are chemu.GOLD_KEYS.
_ANSWERS: dict[str, tuple[str, ...]] = {
    "scico": ("flatten_mentions",),
    "chemu": ("held", "marks"),
}
_COREFI_ANSWERS = ("goldMentions", "selectedCluster", "clustersDesc", "clusterName")


def raw_topics(topics: list[TopicData], level: str) -> list[TopicData]:
    """Copies of ``topics`` at ``level`` (``text`` or ``mentions``); the inputs are unchanged."""
    if level not in LEVELS:
        raise ValueError(f"unknown raw level {level!r}; use one of {', '.join(LEVELS)}")
    return [_raw(topic, keep_mentions=level == MENTIONS) for topic in topics]


def _raw(topic: TopicData, *, keep_mentions: bool) -> TopicData:
    mentions = (
        [MentionData(m.document, m.spans, None, _mention_metadata(m)) for m in topic.mentions]
        if keep_mentions
        else []
    )
    return replace(
        topic,
        mentions=mentions,
        clusters=[],
        relations=[],
        links=[],
        metadata=_topic_metadata(topic.metadata),
    )


def _mention_metadata(mention: MentionData) -> dict[str, Any]:
    metadata = copy.deepcopy(mention.metadata)
    corefi = metadata.get("corefi")
    if isinstance(corefi, dict):
        corefi.pop("int_clustId", None)  # how the file wrote its (now dropped) cluster id
        if not corefi:
            metadata.pop("corefi")
    return metadata


def _topic_metadata(metadata: dict[str, Any]) -> dict[str, Any]:
    metadata = copy.deepcopy(metadata)
    for format, keys in _ANSWERS.items():
        kept = metadata.get(format)
        if isinstance(kept, dict):
            for key in keys:
                kept.pop(key, None)
    extra = metadata.get("corefi", {}).get("extra")
    if isinstance(extra, dict):
        for key in _COREFI_ANSWERS:
            extra.pop(key, None)
    return metadata
