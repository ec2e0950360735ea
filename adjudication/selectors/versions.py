"""What an adjudicator compares: the annotators' submitted versions of the topic they
adjudicate, read-only, each named by its annotator's username.

Mention ids are the topic's: a candidate mention has the same id in every annotation. A
mention that an annotator added exists only in their annotation, so it is listed in `added`
with its document and spans; the workspace matches it to the adjudicated annotation by
document and spans (live, since the adjudicator may add it meanwhile).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime

from adjudication.selectors.flags import flags_by_annotation
from annotation.domain.errors import NotFound
from annotation.models import (
    Annotation,
    Assignment,
    ClusterMember,
    HierarchyEdge,
    MentionEdit,
    RelationLink,
)
from annotation.models import Cluster as ClusterRow
from annotation.models import Mention as MentionRow
from annotation.selectors.access import visible_annotations
from foundation.roles import is_admin


@dataclass(frozen=True)
class AnnotatorVersion:
    annotation: int
    annotator: str
    submitted_at: datetime | None
    clusters: list[dict]
    edges: list[list[int]]
    links: list[list]
    rejected: list[int]
    added: list[dict]
    flags: list[dict]  # the annotator's flags for the adjudicator: mention, comment


def adjudication_annotation_for(user, annotation_id: int) -> Annotation:
    """The adjudication annotation `user` adjudicates (admins: any). Anything else, whether
    missing, someone else's or not an adjudication, is reported missing (see access)."""
    annotation = (
        visible_annotations(user)
        .select_related("assignment", "topic__project")
        .filter(pk=annotation_id, kind=Annotation.Kind.ADJUDICATION)
        .first()
    )
    owner = annotation.assignment_of_work.user_id if annotation and annotation.assignment else None
    if annotation is None or not (is_admin(user) or owner == user.pk):
        raise NotFound("annotation", annotation_id)
    return annotation


def submitted_annotator_annotations(topic_id: int) -> list[Annotation]:
    """The topic's submitted annotator (not adjudicator) annotations, by username."""
    return list(
        Annotation.objects.submitted()
        .annotator_work()
        .filter(topic_id=topic_id, assignment__role=Assignment.Role.ANNOTATOR)
        .select_related("assignment__user")
        .order_by("assignment__user__username", "id")
    )


def annotator_versions(annotations: list[Annotation]) -> list[AnnotatorVersion]:
    """The versions of `annotations`, in seven queries whatever their number (the workspace
    opens on this: loading each annotation's whole state would read every mention each time)."""
    ids = [annotation.pk for annotation in annotations]
    members: dict[int, dict[int, list[int]]] = defaultdict(lambda: defaultdict(list))
    for annotation, mention, cluster in ClusterMember.objects.filter(
        annotation_id__in=ids
    ).values_list("annotation_id", "mention_id", "cluster_id"):
        members[annotation][cluster].append(mention)
    clusters: dict[int, list[dict]] = defaultdict(list)
    for annotation, cluster, label in (
        ClusterRow.objects.filter(annotation_id__in=ids)
        .order_by("id")
        .values_list("annotation_id", "id", "label")
    ):
        clusters[annotation].append(
            {"id": cluster, "label": label, "members": sorted(members[annotation][cluster])}
        )
    edges: dict[int, list[list[int]]] = defaultdict(list)
    for annotation, parent, child in HierarchyEdge.objects.filter(
        annotation_id__in=ids
    ).values_list("annotation_id", "parent_id", "child_id"):
        edges[annotation].append([parent, child])
    links: dict[int, list[list]] = defaultdict(list)
    for annotation, kind, anaphor, antecedent in RelationLink.objects.filter(
        annotation_id__in=ids
    ).values_list("annotation_id", "type", "anaphor_id", "antecedent_id"):
        links[annotation].append([kind, anaphor, antecedent])
    rejected: dict[int, list[int]] = defaultdict(list)
    fixed: dict[tuple[int, int], list] = {}
    for annotation, mention, spans, is_rejected in MentionEdit.objects.filter(
        annotation_id__in=ids
    ).values_list("annotation_id", "mention_id", "spans", "rejected"):
        if is_rejected:
            rejected[annotation].append(mention)
        if spans:
            fixed[annotation, mention] = spans
    added: dict[int, list[dict]] = defaultdict(list)
    for annotation, mention, document, spans in (
        MentionRow.objects.filter(added_in_id__in=ids)
        .order_by("id")
        .values_list("added_in_id", "id", "document_id", "spans")
    ):
        spans = fixed.get((annotation, mention), spans)
        added[annotation].append({"id": mention, "document": document, "spans": spans})
    flagged = flags_by_annotation(ids)
    return [
        AnnotatorVersion(
            annotation=annotation.pk,
            annotator=annotation.assignment_of_work.user.username,
            submitted_at=annotation.assignment_of_work.submitted_at,
            clusters=clusters[annotation.pk],
            edges=sorted(edges[annotation.pk]),
            links=sorted(links[annotation.pk]),
            rejected=sorted(rejected[annotation.pk]),
            added=added[annotation.pk],
            flags=flagged.get(annotation.pk, []),
        )
        for annotation in annotations
    ]


def adjudication_versions(*, user, annotation_id: int) -> list[AnnotatorVersion]:
    """Each submitted annotator version of the topic of `annotation_id`, an adjudication
    that `user` owns (or any, for an admin); NotFound otherwise."""
    adjudication = adjudication_annotation_for(user, annotation_id)
    return annotator_versions(submitted_annotator_annotations(adjudication.topic_id))
