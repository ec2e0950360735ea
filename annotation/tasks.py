"""Tasks of the general worker (queue `default`)."""

from __future__ import annotations

from celery import shared_task

from annotation.services.imports.jobs import IMPORT_TASK, import_job_run
from foundation.jobs import lifecycle


@shared_task(bind=True, name=IMPORT_TASK, acks_late=True, reject_on_worker_lost=True)
def import_job(self, *, job_id: int) -> str:
    """Import a stored upload. A job (foundation/jobs/lifecycle.py): a message redelivered
    after its worker died takes the import over once the dead worker's heartbeat is stale,
    and looks again later while it is fresh."""
    outcome = import_job_run(job_id=job_id, worker=self.request.hostname or "")
    if outcome == lifecycle.BUSY:
        raise self.retry(countdown=lifecycle.retry_countdown())
    return outcome
