"""Topics and annotations read back as `TopicData`: what exports write and agreement scores.

The inverse of the import: documents; the annotation's active mentions (candidates with their
fixed spans, plus the ones it added; rejected ones left out) in topic order; its clusters
with labels and notes; hierarchy relations; typed links. Clusters the file brought keep their
key and order (from the `import` operation's payload); others are numbered in order of first
mention. A label equal to its first mention's text is the default and comes back as None,
so a file without labels gives the same `TopicData` after a round trip (unless the file
itself gave that label: the import operation lists the clusters it labelled).

Loading is bulk: one query per table for any number of annotations, never one per annotation
(the agreement report reads every submitted annotation of a project at once).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from itertools import count
from typing import Any

from django.db.models import F, JSONField, Q, Value

from annotation.models import (
    SEED_OPERATION,
    Annotation,
    Cluster,
    ClusterMember,
    Document,
    HierarchyEdge,
    Mention,
    MentionEdit,
    Operation,
    RelationLink,
    Topic,
)
from annotation.selectors.state import mention_text
from corefscore.corpus import ClusterData, DocumentData, LinkData, MentionData, TopicData
from corefscore.formats.chemu import FORMAT as CHEMU
from corefscore.formats.chemu import GOLD_KEYS


def topic_data(topic: Topic) -> TopicData:
    """Documents and candidate mentions, no annotation."""
    return topic_data_with_ids(topic)[0]


def topic_data_with_ids(topic: Topic) -> tuple[TopicData, list[int]]:
    """`topic_data` and the database id of each of its mentions, index for index (what a
    model's suggestions, which speak of mention indices, are mapped back with)."""
    documents, ids = _documents([topic.pk], scoring=False)
    index = ids[topic.pk]
    rows = list(
        Mention.objects.filter(topic=topic, added_in__isnull=True)
        .order_by("position", "id")
        .values_list("id", "document_id", "spans", "metadata")
    )
    mentions = [
        MentionData(index[document], _spans(spans), None, metadata)
        for _, document, spans, metadata in rows
    ]
    data = TopicData(
        topic.external_id,
        documents[topic.pk],
        mentions,
        source=topic.source,
        metadata=topic.metadata,
    )
    return data, [row[0] for row in rows]


def annotation_topic_data(annotation: Annotation) -> TopicData:
    return annotations_topic_data([annotation])[annotation.pk]


def annotations_topic_data(
    annotations: Iterable[Annotation], *, scoring: bool = False
) -> dict[int, TopicData]:
    """annotation id -> its TopicData. With `scoring`, only what the scorers read: documents
    without tokens, sentences or metadata (scores need only the token counts, from
    `document_token_counts`), mentions without metadata, labels as stored."""
    annotations = list(annotations)
    ids = [a.pk for a in annotations]
    topic_ids = list(dict.fromkeys(a.topic_id for a in annotations))
    topics = {
        row["id"]: row
        for row in Topic.objects.filter(pk__in=topic_ids).values(
            "id", "external_id", "source", "metadata"
        )
    }
    documents, doc_index = _documents(topic_ids, scoring=scoring)
    rows = _Rows(ids, topic_ids, scoring=scoring)
    return {
        a.pk: _build(
            a.pk, topics[a.topic_id], documents[a.topic_id], doc_index[a.topic_id], rows, scoring
        )
        for a in annotations
    }


def document_token_counts(topic_ids: Iterable[int]) -> dict[int, tuple[int, ...]]:
    counts: dict[int, list[int]] = defaultdict(list)
    for topic, n in (
        Document.objects.filter(topic_id__in=list(topic_ids))
        .order_by("topic_id", "position")
        .values_list("topic_id", "token_count")
    ):
        counts[topic].append(n)
    return {topic: tuple(n) for topic, n in counts.items()}


def _documents(topic_ids: list[int], *, scoring: bool):
    fields = ["id", "topic_id", "doc_id"] + ([] if scoring else ["tokens", "sentences", "metadata"])
    documents: dict[int, list[DocumentData]] = {id: [] for id in topic_ids}
    index: dict[int, dict[int, int]] = {id: {} for id in topic_ids}
    for row in (
        Document.objects.filter(topic_id__in=topic_ids)
        .order_by("topic_id", "position")
        .values(*fields)
    ):
        index[row["topic_id"]][row["id"]] = len(documents[row["topic_id"]])
        documents[row["topic_id"]].append(
            DocumentData(
                row["doc_id"],
                row.get("tokens", []),
                [tuple(s) for s in row.get("sentences", [])],
                row.get("metadata", {}),
            )
        )
    return documents, index


class _Rows:
    """Every row the annotations need, fetched once and grouped."""

    def __init__(self, ids: list[int], topic_ids: list[int], *, scoring: bool) -> None:
        self.candidates: dict[int, list[tuple]] = defaultdict(list)  # by topic
        self.added: dict[int, list[tuple]] = defaultdict(list)  # by annotation
        mention_rows = Mention.objects.filter(
            Q(added_in__isnull=True, topic_id__in=topic_ids) | Q(added_in_id__in=ids)
        )
        # Metadata is JSON: decoding it for every mention is a third of a large report's reading.
        metadata = Value(None, JSONField()) if scoring else F("metadata")
        for id, topic, document, spans, added_in, data in mention_rows.order_by(
            "position", "id"
        ).values_list("id", "topic_id", "document_id", "spans", "added_in_id", metadata):
            # Spans as tuples once per mention, shared by every annotation of the topic.
            row = (id, topic, document, _spans(spans), added_in, data)
            (self.candidates[topic] if added_in is None else self.added[added_in]).append(row)
        self.edits: dict[int, dict[int, tuple]] = defaultdict(dict)
        for annotation, mention, spans, rejected in MentionEdit.objects.filter(
            annotation_id__in=ids
        ).values_list("annotation_id", "mention_id", "spans", "rejected"):
            self.edits[annotation][mention] = (spans, rejected)
        self.members: dict[int, dict[int, int]] = defaultdict(dict)
        for annotation, mention, cluster in ClusterMember.objects.filter(
            annotation_id__in=ids
        ).values_list("annotation_id", "mention_id", "cluster_id"):
            self.members[annotation][mention] = cluster
        self.clusters: dict[int, dict[int, tuple[str, str, dict[str, str]]]] = defaultdict(dict)
        for annotation, id, label, note, attributes in (
            Cluster.objects.filter(annotation_id__in=ids)
            .order_by("id")
            .values_list("annotation_id", "id", "label", "note", "attributes")
        ):
            self.clusters[annotation][id] = (label, note, attributes)
        self.edges = _grouped(
            HierarchyEdge.objects.filter(annotation_id__in=ids)
            .order_by("id")
            .values_list("annotation_id", "parent_id", "child_id")
        )
        self.links = _grouped(
            RelationLink.objects.filter(annotation_id__in=ids)
            .order_by("id")
            .values_list(
                "annotation_id", "type", "anaphor_id", "antecedent_id", "note", "attributes"
            )
        )
        self.keys: dict[int, list[list[Any]]] = defaultdict(list)
        self.labelled: dict[int, set[int]] = defaultdict(set)
        # What a ChEMU-Ref import kept of the gold itself (services/imports/topics.py
        # GOLD_KEYS): link entries no link carries, marks on what the workspace refuses.
        self.held: dict[int, dict[str, list[Any]]] = defaultdict(dict)
        # A seed (services/seeds.py) names its clusters like an import.
        imports = Operation.objects.filter(
            annotation_id__in=ids, kind=Operation.Kind.DO, name__in=("import", SEED_OPERATION)
        )
        for annotation, payload in imports.order_by("version").values_list(
            "annotation_id", "payload"
        ):
            self.keys[annotation].extend(payload.get("clusters", []))
            self.labelled[annotation].update(payload.get("labelled", []))
            for key in GOLD_KEYS:
                self.held[annotation].setdefault(key, []).extend(payload.get(key, []))


def _grouped(rows) -> dict[int, list[tuple]]:
    grouped: dict[int, list[tuple]] = defaultdict(list)
    for annotation, *rest in rows:
        grouped[annotation].append(tuple(rest))
    return grouped


def _build(
    annotation: int,
    topic: Mapping[str, Any],
    documents: list[DocumentData],
    doc_index: dict[int, int],
    rows: _Rows,
    scoring: bool,
) -> TopicData:
    edits = rows.edits.get(annotation, {})
    members = rows.members.get(annotation, {})
    mentions: list[MentionData] = []
    position: dict[int, int] = {}
    for id, _, document, spans, _, metadata in [
        *rows.candidates.get(topic["id"], []),
        *rows.added.get(annotation, []),
    ]:
        fixed, rejected = edits.get(id, (None, False))
        if rejected:
            continue
        position[id] = len(mentions)
        mentions.append(
            MentionData(
                doc_index[document], _spans(fixed) if fixed else spans, None, metadata or {}
            )
        )
    stored = rows.clusters.get(annotation, {})
    labelled = rows.labelled.get(annotation, set())
    keys = _cluster_keys(stored, rows.keys.get(annotation, []), members, position)
    for id, cluster in members.items():
        if id in position:
            mentions[position[id]].cluster = keys[cluster]
    first: dict[str, MentionData] = {}
    for mention in mentions:
        if mention.cluster is not None:
            first.setdefault(mention.cluster, mention)
    clusters = []
    label: str | None
    for id, key in keys.items():
        label, note, attributes = stored[id]
        head = first.get(key)
        if (
            not scoring
            and head is not None
            and id not in labelled
            and label == mention_text(documents[head.document].tokens, head.spans)
        ):
            label = None
        clusters.append(ClusterData(key, label, note, attributes))
    relations = [(keys[parent], keys[child]) for parent, child in rows.edges.get(annotation, [])]
    links = [
        LinkData(type, position[anaphor], position[antecedent], note, attributes)
        for type, anaphor, antecedent, note, attributes in rows.links.get(annotation, [])
        if anaphor in position and antecedent in position
    ]
    metadata = topic["metadata"]
    if held := {k: v for k, v in rows.held.get(annotation, {}).items() if v}:
        # The topic's metadata is shared by its annotations: the gold's part goes on a copy.
        metadata = {**metadata, CHEMU: {**metadata.get(CHEMU, {}), **held}}
    return TopicData(
        topic["external_id"],
        documents,
        mentions,
        clusters,
        relations,
        links,
        topic["source"],
        metadata,
    )


def _cluster_keys(
    stored: dict[int, tuple],
    imported: list[list[Any]],
    members: dict[int, int],
    position: dict[int, int],
) -> dict[int, str]:
    """Cluster id -> key, in export order: imported clusters as the file had them, then the
    others by first mention, numbered with the smallest integers no imported key uses."""
    keys = {id: str(key) for id, key in imported if id in stored}
    first: dict[int, int] = {}
    for mention, cluster in members.items():
        if mention in position and cluster not in keys:
            first[cluster] = min(first.get(cluster, position[mention]), position[mention])
    rest = sorted(
        (id for id in stored if id not in keys), key=lambda id: (first.get(id, len(position)), id)
    )
    used = set(keys.values())
    numbers = (str(n) for n in count() if str(n) not in used)
    keys.update({id: next(numbers) for id in rest})
    return keys


def _spans(spans) -> tuple[tuple[int, int], ...]:
    return tuple((start, end) for start, end in spans)
