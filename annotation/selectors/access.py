"""Who may see what. Annotators see only their own assignments' topics and annotations
(independent annotation is what makes agreement meaningful); admins see everything.

Objects a user may not see are reported as missing (404), not forbidden, so that ids of other
people's work leak nothing.
"""

from __future__ import annotations

from django.db.models import QuerySet

from annotation.models import Annotation, Assignment, Topic


def is_admin(user) -> bool:
    return bool(user and user.is_authenticated and user.is_staff)


def visible_topics(user) -> QuerySet[Topic]:
    if is_admin(user):
        return Topic.objects.all()
    return Topic.objects.filter(assignments__user=user).distinct()


def visible_annotations(user) -> QuerySet[Annotation]:
    if is_admin(user):
        return Annotation.objects.all()
    return Annotation.objects.filter(assignment__user=user)


def visible_assignments(user) -> QuerySet[Assignment]:
    if is_admin(user):
        return Assignment.objects.all()
    return Assignment.objects.filter(user=user)


def may_edit(user, annotation: Annotation) -> bool:
    """Only the annotator who owns the annotation changes it, admins included: an admin who
    wants to correct work adjudicates in an annotation of their own."""
    return annotation.assignment is not None and annotation.assignment.user_id == user.pk
