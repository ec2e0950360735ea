"""Set-based actions over many assignments at once (the admin pages select hundreds).

A handful of queries whatever the number of assignments: the rows are locked, checked and
changed together, so three hundred take a fraction of a second and either all change or none.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth import get_user_model
from django.db import transaction

from annotation.errors import AssignmentTargetsNotFound
from annotation.models import Assignment, Topic
from annotation.services.assignments import (
    AssignmentRefused,
    assignments_balanced_create,
    assignments_bulk_create,
)
from foundation import broadcast
from foundation.side_effects import after_commit


def assignments_assign(
    *,
    project_id: int,
    topic_ids: list[int],
    user_ids: list[int],
    mode: str = "all",
    k: int = 1,
    overlap: Sequence[int] = (),
    role: str = Assignment.Role.ANNOTATOR,
) -> int:
    """Assign topics of a project to active users; returns how many assignments are new.

    `all`: every topic to every user (as `role`); `balanced`: each topic of `overlap` to `k`
    annotators, every other topic to one, in the order the ids are given. Every topic must be
    in the project and every user active, or nothing is assigned."""
    topics = list(Topic.objects.filter(project_id=project_id, pk__in=topic_ids))
    users = list(get_user_model().objects.filter(pk__in=user_ids, is_active=True))
    missing = set(topic_ids) - {t.pk for t in topics}
    if missing or len(users) != len(set(user_ids)):
        raise AssignmentTargetsNotFound(topics=sorted(missing))
    if mode == "balanced":
        by_id = {t.pk: t for t in topics}
        return assignments_balanced_create(
            topics=sorted(topics, key=lambda t: topic_ids.index(t.pk)),
            annotators=sorted(users, key=lambda u: user_ids.index(u.pk)),
            k=k,
            overlap=[by_id[t] for t in overlap if t in by_id],
        )
    return assignments_bulk_create(topics=topics, users=users, role=role)


def assignments_bulk_action(
    *, action: str, assignment_ids: list[int], discard_work: bool = False
) -> int:
    """`delete` or `reopen` the assignments listed (each once); returns how many changed."""
    ids = list(dict.fromkeys(assignment_ids))
    if action == "delete":
        return assignments_delete(assignment_ids=ids, discard_work=discard_work)
    return assignments_reopen(assignment_ids=ids)


def _locked(assignment_ids: list[int]) -> list[Assignment]:
    rows = list(
        Assignment.objects.select_for_update(of=("self",))
        .filter(pk__in=assignment_ids)
        .select_related("annotation", "topic")
        .order_by("pk")
    )
    missing = set(assignment_ids) - {a.pk for a in rows}
    if missing:
        raise AssignmentRefused(
            f"{len(missing)} of these assignments do not exist (any more); reload the page.",
            missing=sorted(missing),
        )
    return rows


@transaction.atomic
def assignments_delete(*, assignment_ids: list[int], discard_work: bool = False) -> int:
    """Delete every assignment listed, with its annotation. Work is never lost silently: if any
    of them has been started the whole request is refused unless `discard_work` is set."""
    rows = _locked(assignment_ids)
    started = [a for a in rows if a.annotation.has_work]
    if started and not discard_work:
        raise AssignmentRefused(
            f"{len(started)} of these {len(rows)} assignments have work in them; "
            "deleting discards it: confirm with discard_work.",
            started=len(started),
        )
    Assignment.objects.filter(pk__in=[a.pk for a in rows]).delete()
    for user_id in {a.user_id for a in rows}:
        after_commit(broadcast.access_changed, user_id)
    _announce_project(rows, {"action": "deleted", "assignments": [a.pk for a in rows]})
    return len(rows)


@transaction.atomic
def assignments_reopen(*, assignment_ids: list[int]) -> int:
    """Reopen the submitted ones among the assignments listed (the others are left as they
    are: an unsubmitted topic is already open). Returns how many were reopened."""
    rows = [a for a in _locked(assignment_ids) if a.status == Assignment.Status.SUBMITTED]
    Assignment.objects.filter(pk__in=[a.pk for a in rows]).update(status=Assignment.Status.REOPENED)
    for assignment in rows:
        annotation_id, payload = (
            assignment.annotation.pk,
            {"assignment": assignment.pk, "status": "reopened"},
        )
        after_commit(broadcast.annotation_status, annotation_id, payload)
        # Adjudicators watch submitted work only: their sockets on it close.
        after_commit(broadcast.annotation_access_changed, annotation_id)
    _announce_project(
        rows, {"action": "reopened", "assignments": [a.pk for a in rows], "status": "reopened"}
    )
    return len(rows)


def _announce_project(rows: list[Assignment], payload: dict) -> None:
    """One message per project for the admins watching its progress (not one per row)."""
    for project_id in sorted({a.topic.project_id for a in rows}):
        after_commit(broadcast.project_progress, project_id, payload)
