"""Plain data for topics as files describe them: what importers read and exporters write.

Every format reader (SciCo jsonl, CoRefi JSON, ChEMU-Ref jsonlines, brat standoff) produces
`TopicData`, every writer consumes it, and the stand-alone scorer compares two lists of it.
Conventions, the same in every format module:

- token offsets are per document, 0-based;
- a span is `(start, end)` with **both ends inclusive** (as in SciCo, CoRefi and ChEMU-Ref);
- a mention's spans are sorted by start and do not overlap; more than one = discontinuous;
- sentence boundaries are `(start, end)` half-open token ranges (`end` exclusive);
- a mention is identified by `(document index, spans)`; cluster keys are strings.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

Span = tuple[int, int]
Spans = tuple[Span, ...]

LINK_TYPES = ("COREFERENCE", "TRANSFORMED", "REACTION_ASSOCIATED", "WORK_UP", "CONTAINED")


@dataclass
class DocumentData:
    doc_id: str
    tokens: list[str]
    sentences: list[Span] = field(default_factory=list)
    metadata: dict[str, Any] = field(default_factory=dict)


@dataclass
class MentionData:
    document: int
    spans: Spans
    cluster: str | None = None
    metadata: dict[str, Any] = field(default_factory=dict)

    @property
    def key(self) -> tuple[int, Spans]:
        return (self.document, self.spans)


@dataclass
class ClusterData:
    key: str
    label: str | None = None
    note: str = ""
    # The project's attributes set on it: name -> value.
    attributes: dict[str, str] = field(default_factory=dict)


@dataclass
class LinkData:
    type: str
    anaphor: int
    antecedent: int
    # What the annotator wrote on it: a free-text note, the project's attributes (name -> value).
    note: str = ""
    attributes: dict[str, str] = field(default_factory=dict)


@dataclass
class TopicData:
    external_id: str
    documents: list[DocumentData] = field(default_factory=list)
    mentions: list[MentionData] = field(default_factory=list)
    clusters: list[ClusterData] = field(default_factory=list)
    relations: list[tuple[str, str]] = field(default_factory=list)
    links: list[LinkData] = field(default_factory=list)
    source: str = ""
    metadata: dict[str, Any] = field(default_factory=dict)

    @property
    def has_annotation(self) -> bool:
        """Whether the file carries an annotation (gold clusters, relations or links)."""
        return bool(
            self.relations or self.links or any(m.cluster is not None for m in self.mentions)
        )

    def cluster_members(self) -> dict[str, list[int]]:
        """Cluster key -> indices of its mentions, in mention order."""
        members: dict[str, list[int]] = {}
        for index, mention in enumerate(self.mentions):
            if mention.cluster is not None:
                members.setdefault(mention.cluster, []).append(index)
        return members
