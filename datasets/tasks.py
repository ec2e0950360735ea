"""Tasks of the general worker (queue `default`) for the dataset release."""

from __future__ import annotations

from celery import shared_task

from datasets.services.release_jobs import RELEASE_TASK, release_job_run


@shared_task(bind=True, name=RELEASE_TASK, acks_late=True, reject_on_worker_lost=True)
def release_job(self, *, job_id: int) -> str:
    """Build and store a release bundle. Idempotent: a redelivered message finds the job
    finished, or alive on another worker, or stale and takes it over."""
    return release_job_run(job_id=job_id, worker=self.request.hostname or "")
