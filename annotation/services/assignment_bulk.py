"""Set-based actions over many assignments at once (the admin pages select hundreds).

A handful of queries whatever the number of assignments: the rows are locked, checked and
changed together, so three hundred take a fraction of a second and either all change or none.
"""

from __future__ import annotations

from django.db import transaction

from annotation.infra import broadcast
from annotation.infra.side_effects import after_commit
from annotation.models import Assignment
from annotation.services.assignments import AssignmentRefused


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
    started = [a for a in rows if a.annotation.version > 0]
    if started and not discard_work:
        raise AssignmentRefused(
            f"{len(started)} of these {len(rows)} assignments have work in them; deleting discards it: "
            "confirm with discard_work.",
            started=len(started),
        )
    Assignment.objects.filter(pk__in=[a.pk for a in rows]).delete()
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
    _announce_project(
        rows, {"action": "reopened", "assignments": [a.pk for a in rows], "status": "reopened"}
    )
    return len(rows)


def _announce_project(rows: list[Assignment], payload: dict) -> None:
    """One message per project for the admins watching its progress (not one per row)."""
    for project_id in sorted({a.topic.project_id for a in rows}):
        after_commit(broadcast.project_progress, project_id, payload)
