"""What an adjudicator compares: the annotators' submitted versions of the topic they
adjudicate, read-only, each named by its annotator's username.

Mention ids are the topic's: a candidate mention has the same id in every annotation. A
mention that an annotator added exists only in their annotation, so it is listed in `added`
with its document and spans; the workspace matches it to the adjudicated annotation by
document and spans (live, since the adjudicator may add it meanwhile).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from annotation.domain.errors import NotFound
from annotation.domain.state import AnnotationState
from annotation.models import Annotation, Assignment
from annotation.selectors.access import is_admin, visible_annotations
from annotation.selectors.state import annotation_state_load


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


def adjudication_annotation_for(user, annotation_id: int) -> Annotation:
    """The adjudication annotation `user` adjudicates (admins: any). Anything else, whether
    missing, someone else's or not an adjudication, is reported missing (see access)."""
    annotation = (
        visible_annotations(user)
        .select_related("assignment", "topic__project")
        .filter(pk=annotation_id, kind=Annotation.Kind.ADJUDICATION)
        .first()
    )
    owner = annotation.assignment.user_id if annotation and annotation.assignment else None
    if annotation is None or not (is_admin(user) or owner == user.pk):
        raise NotFound("annotation", annotation_id)
    return annotation


def submitted_annotator_annotations(topic_id: int) -> list[Annotation]:
    """The topic's submitted annotator (not adjudicator) annotations, by username."""
    return list(
        Annotation.objects.filter(
            topic_id=topic_id,
            kind=Annotation.Kind.ANNOTATOR,
            assignment__role=Assignment.Role.ANNOTATOR,
            assignment__status=Assignment.Status.SUBMITTED,
        )
        .select_related("assignment__user", "topic__project")
        .order_by("assignment__user__username", "id")
    )


def annotator_version(annotation: Annotation) -> AnnotatorVersion:
    state: AnnotationState = annotation_state_load(annotation)
    return AnnotatorVersion(
        annotation=annotation.pk,
        annotator=annotation.assignment.user.username,
        submitted_at=annotation.assignment.submitted_at,
        clusters=[
            {"id": c.id, "label": c.label, "members": sorted(c.members)}
            for c in sorted(state.clusters.values(), key=lambda c: c.id)
        ],
        edges=sorted([parent, child] for parent, child in state.edges),
        links=sorted([kind, anaphor, antecedent] for kind, anaphor, antecedent in state.links),
        rejected=sorted(m.id for m in state.mentions.values() if m.rejected),
        added=[
            {"id": m.id, "document": m.document, "spans": [list(span) for span in m.spans]}
            for m in sorted(state.mentions.values(), key=lambda m: m.id)
            if m.added
        ],
    )


def adjudication_versions(*, user, annotation_id: int) -> list[AnnotatorVersion]:
    """Each submitted annotator version of the topic of `annotation_id`, an adjudication
    that `user` owns (or any, for an admin); NotFound otherwise."""
    adjudication = adjudication_annotation_for(user, annotation_id)
    return [
        annotator_version(annotation)
        for annotation in submitted_annotator_annotations(adjudication.topic_id)
    ]
