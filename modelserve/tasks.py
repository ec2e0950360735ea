"""Celery tasks of the model worker (queue `models`): thin wrappers around services."""

from __future__ import annotations

from celery import shared_task

from modelserve.services.execution import suggestion_run_execute
from modelserve.services.runs import RUN_TASK


@shared_task(
    bind=True,
    name=RUN_TASK,
    acks_late=True,
    reject_on_worker_lost=True,
    max_retries=None,
)
def run_suggestions(self, *, run_id: int) -> str:
    """Takes an id, is idempotent, acknowledged late: a worker killed mid-run leaves the
    message unacknowledged, Redis redelivers it, and the next worker completes the run once."""
    outcome = suggestion_run_execute(run_id=run_id, worker=self.request.hostname or "")
    if outcome.startswith("skipped") and _still_running(run_id):
        # Another worker holds it with a fresh heartbeat; look again later in case it dies.
        raise self.retry(countdown=15)
    return outcome


def _still_running(run_id: int) -> bool:
    from modelserve.models import SuggestionRun

    return SuggestionRun.objects.filter(pk=run_id, status=SuggestionRun.Status.RUNNING).exists()
