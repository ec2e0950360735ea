"""Who may see what. Annotators see only their own assignments' topics and annotations
(independent annotation is what makes agreement meaningful); admins see everything.

Objects a user may not see are reported as missing (404), not forbidden, so that ids of other
people's work leak nothing.
"""

from __future__ import annotations

from django.db.models import QuerySet

from annotation import gates
from annotation.domain.errors import NotFound
from annotation.errors import AnnotationLocked, NotYours
from annotation.models import Annotation, Assignment, Topic
from foundation.roles import is_admin

EDITABLE = frozenset(
    {Assignment.Status.ASSIGNED, Assignment.Status.IN_PROGRESS, Assignment.Status.REOPENED}
)


def visible_topics(user) -> QuerySet[Topic]:
    if is_admin(user):
        return Topic.objects.all()
    return Topic.objects.filter(assignments__user=user).distinct()


def visible_annotations(user) -> QuerySet[Annotation]:
    """Admins see every annotation; an annotator their own; an adjudicator also the
    annotators' *submitted* annotations of the topics they adjudicate (read-only: see
    `annotation_edit_check`), so that they can review before adjudicating. Work not yet
    submitted (its state, log and live edits) stays its annotator's, however the adjudicator
    was assigned (docs/adjudication.md)."""
    if is_admin(user):
        return Annotation.objects.all()
    adjudicated = Assignment.objects.filter(user=user, role=Assignment.Role.ADJUDICATOR).values(
        "topic_id"
    )
    return Annotation.objects.filter(assignment__user=user) | Annotation.objects.submitted().filter(
        topic_id__in=adjudicated
    )


def visible_assignments(user) -> QuerySet[Assignment]:
    if is_admin(user):
        return Assignment.objects.all()
    return Assignment.objects.filter(user=user)


def annotation_edit_check(
    user, *, annotation_id: int, owner_id: int | None, status: str | None, content: bool = True
) -> None:
    """The one rule for who may change an annotation: only the annotator who owns it, admins
    included (an admin who wants to correct work adjudicates in an annotation of their own).

    `owner_id` and `status` are the annotation's assignment's (None for a gold annotation).
    Raises NotFound for a user who may not even see it (annotators must not learn that a
    colleague's annotation exists), NotYours for an admin, and, when `content` is changed
    (anything but the remembered cursor), AnnotationLocked for gold or submitted work."""
    if user is not None and owner_id != user.pk:
        if is_admin(user):
            raise NotYours("Only the annotator who owns this annotation can change it.")
        raise NotFound("annotation", annotation_id)
    if not content:
        return
    if status is None:
        raise AnnotationLocked("Gold annotations are read-only; import a new version instead.")
    if status not in EDITABLE:
        raise AnnotationLocked(
            "This annotation is submitted and read-only; an admin can reopen it."
        )


def editable_annotation(user, annotation_id: int, *, content: bool = True) -> Annotation:
    """The annotation `user` may change (see `annotation_edit_check`)."""
    annotation = (
        visible_annotations(user).select_related("assignment").filter(pk=annotation_id).first()
    )
    if annotation is None:
        raise NotFound("annotation", annotation_id)
    assignment = annotation.assignment
    annotation_edit_check(
        user,
        annotation_id=annotation_id,
        owner_id=assignment.user_id if assignment else None,
        status=assignment.status if assignment else None,
        content=content,
    )
    return annotation


def readable_topic(user, pk: int) -> Topic:
    """A topic `user` may read: visible, and not only through locked assignments (an
    annotator who has not qualified yet reads a real topic no more than they open it)."""
    topic = visible_topics(user).select_related("project").filter(pk=pk).first()
    if topic is None:
        raise NotFound("topic", pk)
    _refuse_locked(user, Assignment.objects.filter(user=user, topic=topic))
    return topic


def readable_annotation(user, pk: int) -> Annotation:
    """An annotation `user` may read (visible; their own work not locked by a gate)."""
    annotation = (
        visible_annotations(user).select_related("assignment", "topic__project").filter(pk=pk)
    ).first()
    if annotation is None:
        raise NotFound("annotation", pk)
    _refuse_locked(user, Assignment.objects.filter(user=user, annotation=annotation))
    return annotation


def _refuse_locked(user, assignments: QuerySet[Assignment]) -> None:
    if is_admin(user):
        return
    notes = gates.assignment_notes(user, assignments.values_list("pk", flat=True))
    reasons = [note["locked"] for note in notes.values()]
    if reasons and all(reasons):
        raise AnnotationLocked(reasons[0])
