"""Tasks of the general worker (queue `default`)."""

from __future__ import annotations

from celery import shared_task

from annotation.services.imports.jobs import IMPORT_TASK, import_job_run


@shared_task(name=IMPORT_TASK, acks_late=True)
def import_job(*, job_id: int) -> str:
    return import_job_run(job_id=job_id)
