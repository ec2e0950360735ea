"""TopicData builders for the scoring tests (plain values in, corpus dataclasses out)."""

from __future__ import annotations

from corefscore.corpus import DocumentData, LinkData, MentionData, TopicData


def scico_topic(
    topic_id, mentions, relations=(), documents: int = 1, length: int = 40
) -> TopicData:
    """``mentions``: [document, start, end, cluster] as in SciCo jsonl; clusters become strings."""
    return TopicData(
        external_id=str(topic_id),
        documents=[DocumentData(doc_id=f"d{i}", tokens=["w"] * length) for i in range(documents)],
        mentions=[
            MentionData(document=d, spans=((s, e),), cluster=str(c)) for d, s, e, c in mentions
        ],
        relations=[(str(p), str(c)) for p, c in relations],
    )


def chemu_topic(topic_id, links, length: int = 60) -> TopicData:
    """``links``: (type, anaphor spans, antecedent spans), spans as ((start, end), ...)."""
    mentions: dict[tuple, int] = {}
    link_data = []
    for kind, anaphor, antecedent in links:
        indices = [
            mentions.setdefault(tuple(spans), len(mentions)) for spans in (anaphor, antecedent)
        ]
        link_data.append(LinkData(type=kind, anaphor=indices[0], antecedent=indices[1]))
    return TopicData(
        external_id=str(topic_id),
        documents=[DocumentData(doc_id=str(topic_id), tokens=["w"] * length)],
        mentions=[MentionData(document=0, spans=spans) for spans in mentions],
        links=link_data,
    )
