"""Tasks of the general worker (queue `default`) for the dataset release."""

from __future__ import annotations

from celery import shared_task

from datasets.services.release_jobs import RELEASE_TASK, release_job_run
from foundation.jobs import lifecycle


@shared_task(bind=True, name=RELEASE_TASK, acks_late=True, reject_on_worker_lost=True)
def release_job(self, *, job_id: int) -> str:
    """Build and store a release bundle. Idempotent: a redelivered message finds the job
    finished, or alive on another worker (it looks again later), or stale and takes it over."""
    outcome = release_job_run(job_id=job_id, worker=self.request.hostname or "")
    if outcome == lifecycle.BUSY:
        raise self.retry(countdown=lifecycle.retry_countdown())
    return outcome
