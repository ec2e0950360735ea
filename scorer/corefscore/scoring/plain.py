"""What the scorers read from a topic: :class:`TopicAnnotation`, built from ``TopicData``.

The command line reads files into ``TopicData``; the Django layer builds ``TopicData`` (or
this type directly) from the database. Either way the metrics see plain, hashable values:

- a mention is its key ``(document index, ((start, end), ...))``; a mention without spans
  names nothing and is left out, as is a link with such a side (metrics.md: "not scored");
- ``clusters`` are in the order coval reads them from a CoNLL file (by the position where
  a cluster's first mention *ends*: coval ``get_doc_mentions`` opens a cluster there), so
  that sums over clusters round exactly as coval's do;
- ``cluster_of`` keeps the file order of the mentions, the order of SciCo's path-ratio pairs.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property

from corefscore.corpus import LINK_TYPES, TopicData
from corefscore.metrics.anaphora import Relation
from corefscore.metrics.coreference import Clustering
from corefscore.metrics.hierarchy import ClusterGraph
from corefscore.metrics.mention_detection import MentionKey


class ScoringInputError(ValueError):
    """The annotations cannot be scored as given; the message names the topic and why."""


@dataclass(frozen=True)
class TopicAnnotation:
    topic_id: str
    mentions: tuple[MentionKey, ...]
    cluster_of: dict[MentionKey, str]
    clusters: tuple[tuple[MentionKey, ...], ...]
    relations: tuple[tuple[str, str], ...] = ()
    links: tuple[Relation, ...] = ()
    token_counts: tuple[int, ...] = ()

    @cached_property
    def graph(self) -> ClusterGraph:
        return ClusterGraph(self.cluster_of, self.relations)

    @cached_property
    def _clusterings(self) -> dict[bool, Clustering]:
        return {}

    def clustering(self, keep_singletons: bool) -> Clustering:
        """The clusters prepared for the coreference metrics (cached per flag)."""
        if keep_singletons not in self._clusterings:
            self._clusterings[keep_singletons] = Clustering(
                self.clusters, keep_singletons=keep_singletons
            )
        return self._clusterings[keep_singletons]


def mention_key(document: int, spans: Iterable[Sequence[int]]) -> MentionKey:
    """``(document, ((start, end), ...))`` as plain ints and tuples, whatever sequences came in."""
    if type(spans) is tuple and all(type(span) is tuple for span in spans):
        return (document, spans)
    return (int(document), tuple((int(start), int(end)) for start, end in spans))


def from_topic(topic: TopicData) -> TopicAnnotation:
    """The scorers' view of one topic; raises :class:`ScoringInputError` on contradictions."""
    keys: list[MentionKey | None] = []
    cluster_of: dict[MentionKey, str] = {}
    for mention in topic.mentions:
        spans = mention.spans
        key: MentionKey | None
        if not spans:
            key = None
        elif type(spans) is tuple and len(spans) == 1 and type(spans[0]) is tuple:
            key = (mention.document, spans)  # what mention_key gives, without its loop
        else:
            key = mention_key(mention.document, spans)
        keys.append(key)
        if key is None or mention.cluster is None:
            continue
        cluster = mention.cluster if type(mention.cluster) is str else str(mention.cluster)
        if cluster_of.setdefault(key, cluster) != cluster:
            raise ScoringInputError(
                f"topic {topic.external_id}: mention {_show(key)} is in clusters "
                f"{cluster_of[key]} and {cluster}"
            )
    links: list[Relation] = []
    for number, link in enumerate(topic.links):
        for side in (link.anaphor, link.antecedent):
            if not 0 <= side < len(keys):
                raise ScoringInputError(
                    f"topic {topic.external_id}: link {number} names mention {side}, "
                    "which does not exist"
                )
        anaphor, antecedent = keys[link.anaphor], keys[link.antecedent]
        if anaphor is not None and antecedent is not None:
            links.append((_link_type(link.type, topic.external_id), anaphor, antecedent))
    return TopicAnnotation(
        topic_id=str(topic.external_id),
        mentions=tuple(dict.fromkeys(key for key in keys if key is not None)),
        cluster_of=cluster_of,
        clusters=coval_cluster_order(cluster_of),
        relations=tuple((str(parent), str(child)) for parent, child in topic.relations),
        links=tuple(links),
        token_counts=tuple(len(document.tokens) for document in topic.documents),
    )


def coval_cluster_order(cluster_of: dict[MentionKey, str]) -> tuple[tuple[MentionKey, ...], ...]:
    """Clusters ordered by where their first mention ends (document, last token); ties keep
    the order of first appearance. Members keep file order."""
    members: dict[str, list[MentionKey]] = {}
    first_end: dict[str, tuple[int, int]] = {}  # the least (document, last token) of each cluster
    for mention, cluster in cluster_of.items():
        end = (mention[0], mention[1][-1][1])
        group = members.get(cluster)
        if group is None:
            members[cluster] = [mention]
            first_end[cluster] = end
        else:
            group.append(mention)
            first_end[cluster] = min(first_end[cluster], end)
    order = sorted(members, key=first_end.__getitem__)
    return tuple(tuple(members[cluster]) for cluster in order)


def _link_type(name: str, topic_id: str) -> str:
    kind = str(name).strip().upper().replace("-", "_").replace(" ", "_")
    if kind not in LINK_TYPES:
        raise ScoringInputError(
            f"topic {topic_id}: unknown link type {name!r}; the types are {', '.join(LINK_TYPES)}"
        )
    return kind


def _show(key: MentionKey) -> str:
    document, spans = key
    return f"document {document} tokens " + ",".join(f"{start}-{end}" for start, end in spans)
