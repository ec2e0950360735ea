"""Assignments: who annotates which topic, and the submitted -> reopened cycle."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from annotation.domain.errors import DomainError
from annotation.models import Annotation, Assignment, Mention, MentionEdit, Topic
from annotation.models import ClusterMember
from annotation.services import broadcast
from annotation.services.errors import AnnotationLocked


class IncompleteAnnotation(DomainError):
    code = "incomplete_annotation"


@transaction.atomic
def assignment_create(*, topic: Topic, user, role: str = Assignment.Role.ANNOTATOR) -> Assignment:
    """Assign `topic` to `user` with an empty annotation of their own (idempotent)."""
    assignment, created = Assignment.objects.get_or_create(topic=topic, user=user, defaults={"role": role})
    if created:
        kind = Annotation.Kind.ADJUDICATION if role == Assignment.Role.ADJUDICATOR else Annotation.Kind.ANNOTATOR
        Annotation.objects.create(topic=topic, assignment=assignment, kind=kind)
    return assignment


def _unassigned_mentions(annotation: Annotation) -> int:
    candidates = Mention.objects.filter(topic_id=annotation.topic_id, added_in__isnull=True).count()
    added = Mention.objects.filter(added_in=annotation).count()
    rejected = MentionEdit.objects.filter(annotation=annotation, rejected=True).count()
    assigned = ClusterMember.objects.filter(annotation=annotation).count()
    return candidates + added - rejected - assigned


@transaction.atomic
def assignment_submit(*, assignment_id: int, user) -> Assignment:
    """Submit: the annotation becomes read-only and enters agreement reports.

    In hierarchy projects every mention must be in a cluster first (a singleton is a
    cluster): agreement over half-clustered topics would be meaningless."""
    assignment = Assignment.objects.select_for_update().select_related("topic__project").get(pk=assignment_id)
    if assignment.status == Assignment.Status.SUBMITTED:
        raise AnnotationLocked("This topic is already submitted.")
    annotation = assignment.annotation
    if assignment.topic.project.hierarchy:
        missing = _unassigned_mentions(annotation)
        if missing:
            raise IncompleteAnnotation(
                f"{missing} mention{'s are' if missing != 1 else ' is'} not in a cluster yet; "
                "assign every mention (a singleton is a cluster) before submitting.",
                unassigned=missing,
            )
    assignment.status = Assignment.Status.SUBMITTED
    assignment.submitted_at = timezone.now()
    assignment.save(update_fields=["status", "submitted_at"])
    _announce(assignment)
    return assignment


@transaction.atomic
def assignment_reopen(*, assignment_id: int) -> Assignment:
    """An admin reopens a submitted topic: the annotator can edit it again."""
    assignment = Assignment.objects.select_for_update().select_related("topic").get(pk=assignment_id)
    if assignment.status != Assignment.Status.SUBMITTED:
        raise DomainError("Only a submitted topic can be reopened.")
    assignment.status = Assignment.Status.REOPENED
    assignment.save(update_fields=["status"])
    _announce(assignment)
    return assignment


def _announce(assignment: Assignment) -> None:
    annotation_id = assignment.annotation.pk
    payload = {"assignment": assignment.pk, "status": assignment.status}
    transaction.on_commit(lambda: broadcast.annotation_status(annotation_id, payload))
    transaction.on_commit(lambda: broadcast.project_progress(assignment.topic.project_id, payload))
