"""The annotators' submitted annotations of a topic as the consensus reads them (`Version`s,
mentions by document and current spans), in seven queries whatever their number: loading
each annotation's whole state would read the topic's every mention once per annotator.
"""

from __future__ import annotations

from collections import defaultdict

from adjudication.domain.consensus import ClusterKey, KeyLink, MentionKey, Version, VersionCluster
from annotation.domain.state import as_spans
from annotation.models import (
    Annotation,
    ClusterMember,
    HierarchyEdge,
    MentionEdit,
    RelationLink,
)
from annotation.models import Cluster as ClusterRow
from annotation.models import Mention as MentionRow


def consensus_versions(topic_id: int, annotations: list[Annotation]) -> list[Version]:
    """One `Version` per annotation of `topic_id`, in the order given."""
    ids = [annotation.pk for annotation in annotations]
    candidates = {
        id: (document, as_spans(spans))
        for id, document, spans in MentionRow.objects.filter(
            topic_id=topic_id, added_in__isnull=True
        ).values_list("id", "document_id", "spans")
    }
    keys: dict[int, dict[int, MentionKey]] = {a: dict(candidates) for a in ids}
    for annotation, id, document, spans in MentionRow.objects.filter(
        added_in_id__in=ids
    ).values_list("added_in_id", "id", "document_id", "spans"):
        keys[annotation][id] = (document, as_spans(spans))
    for annotation, mention, spans, rejected in MentionEdit.objects.filter(
        annotation_id__in=ids
    ).values_list("annotation_id", "mention_id", "spans", "rejected"):
        if rejected:
            keys[annotation].pop(mention, None)
        elif spans and mention in keys[annotation]:
            keys[annotation][mention] = (keys[annotation][mention][0], as_spans(spans))
    members: dict[int, dict[int, set[MentionKey]]] = {a: defaultdict(set) for a in ids}
    for annotation, mention, cluster in ClusterMember.objects.filter(
        annotation_id__in=ids
    ).values_list("annotation_id", "mention_id", "cluster_id"):
        key = keys[annotation].get(mention)
        if key is not None:
            members[annotation][cluster].add(key)
    clusters: dict[int, dict[ClusterKey, VersionCluster]] = {a: {} for a in ids}
    for annotation, cluster, label, note in ClusterRow.objects.filter(
        annotation_id__in=ids
    ).values_list("annotation_id", "id", "label", "note"):
        clusters[annotation][cluster] = VersionCluster(
            frozenset(members[annotation][cluster]), label, note
        )
    edges: dict[int, set[tuple[int, int]]] = {a: set() for a in ids}
    for annotation, parent, child in HierarchyEdge.objects.filter(
        annotation_id__in=ids
    ).values_list("annotation_id", "parent_id", "child_id"):
        edges[annotation].add((parent, child))
    links: dict[int, set[KeyLink]] = {a: set() for a in ids}
    for annotation, type, anaphor, antecedent in RelationLink.objects.filter(
        annotation_id__in=ids
    ).values_list("annotation_id", "type", "anaphor_id", "antecedent_id"):
        ends = keys[annotation].get(anaphor), keys[annotation].get(antecedent)
        if ends[0] is not None and ends[1] is not None:
            links[annotation].add(KeyLink(type, ends[0], ends[1]))
    return [
        Version(
            mentions=frozenset(keys[a].values()),
            clusters=clusters[a],
            edges=frozenset(edges[a]),
            links=frozenset(links[a]),
        )
        for a in ids
    ]
