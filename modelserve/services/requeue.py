"""The sweep that finds the queued or running rows no model worker would otherwise execute
and queues them again: suggestion runs (services/runs.py) and trainings (services/trainings.py)
are swept alike."""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any

from django.db import transaction
from django.utils import timezone

from foundation.jobs.models import Job, JobStatus

QUEUED, RUNNING = JobStatus.QUEUED, JobStatus.RUNNING


def silent_rows_requeue(
    model: type[Job], *, waiting: Collection[int], send: Callable[[Any], None]
) -> list[Any]:
    """Mark queued again, and return, every row of `model` that is `running` with a stale
    heartbeat (its worker died), or `queued` for longer than the staleness window with no
    message waiting in the broker (`waiting`: the ids its messages carry). Rows are locked
    (other sweepers skip them) and a re-queued one's heartbeat is set to now, so it is not
    sent again within the window. `send(row)` runs inside the transaction for each row: it
    registers the row's task (and anything else) after commit."""
    now = timezone.now()
    with transaction.atomic():
        rows: list[Any] = list(
            model.objects.silent(now)
            .select_for_update(skip_locked=True)
            .exclude(status=QUEUED, pk__in=waiting)
        )
        for row in rows:
            row.message = (
                f"re-queued: worker {row.worker or '?'} stopped answering"
                if row.status == RUNNING
                else "re-queued: waiting for a model worker"
            )
            row.status = QUEUED
            row.heartbeat_at = now
            row.save(update_fields=["status", "heartbeat_at", "message"])
            send(row)
    return rows
