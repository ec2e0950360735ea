"""Links whose type the workspace's link scheme does not have (an INCEpTION relation named
otherwise, a CorefUD bridge) are kept out of the database, with a warning naming them: the
scheme is the five ChEMU-Ref types (corefscore.corpus.LINK_TYPES), and the database
refuses any other. The files' readers keep them, so a file-to-file conversion loses none."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from corefscore.corpus import LINK_TYPES, TopicData


def links_in_scheme(topics: list[TopicData], *, file: str) -> tuple[list[TopicData], list[str]]:
    kept: list[TopicData] = []
    warnings: list[str] = []
    for topic in topics:
        outside = Counter(link.type for link in topic.links if link.type not in LINK_TYPES)
        if not outside:
            kept.append(topic)
            continue
        kept.append(replace(topic, links=[k for k in topic.links if k.type in LINK_TYPES]))
        listed = ", ".join(f"{count} {type_}" for type_, count in outside.items())
        warnings.append(
            f"{file}: topic {topic.external_id}: link(s) {listed} left out: the link scheme "
            f"has only {', '.join(LINK_TYPES)}"
        )
    return kept, warnings
