"""Large uploads are imported by the general Celery worker, not in a web request thread.

A 6 MB topic of 100,000 mentions took 37 s inside a request, holding one of the web
process's threads (and the admin's browser) all along. An upload above IMPORT_ASYNC_BYTES is
therefore stored in the default storage (imports/: var/imports locally, the bucket with
STORAGE_URL), an `ImportJob` row is created, and the task is sent after commit; the API
answers 202 with the job, which the import page polls for its progress (reading, checking,
writing) and its result: the same summary, or the same refusal with every
error, as a small upload gets at once. A job like every other (foundation/jobs/lifecycle.py):
a finished job is left alone, one on a live worker is left to it, and one whose worker died
(its heartbeat went stale) is taken over by the redelivered task, the topics written once;
the stored file is removed once the job has finished. The worker reads the
upload through the storage API into a temporary file of its own, so with STORAGE_URL the web
server and the worker share no disk.
"""

from __future__ import annotations

import logging
import secrets
import zipfile

from celery import current_app
from django.conf import settings
from django.core.files.storage import default_storage
from django.db import close_old_connections, transaction

from annotation.errors import ImportRefused, UploadTooLarge
from annotation.infra.file_names import safe_file_name
from annotation.models import ImportJob, Project
from annotation.services.imports.topics import ImportResult, skipped_line, topics_import
from foundation.jobs import lifecycle
from foundation.jobs.stored_files import local_copy, remove_stored
from foundation.side_effects import after_commit

logger = logging.getLogger(__name__)

IMPORT_TASK = "annotation.import_job"


def is_large(upload) -> bool:
    return upload.size > settings.IMPORT_ASYNC_BYTES


def import_job_create(
    *,
    project: Project,
    upload,
    format: str,
    skip_invalid: bool = False,
    raw: str | None = None,
    user=None,
) -> ImportJob:
    """Store `upload` and queue its import; refusals that need no reading come at once."""
    limit = settings.MAX_UPLOAD_BYTES
    if upload.size > limit:
        raise UploadTooLarge(
            f"{upload.name} is {upload.size:,} bytes, above the {limit:,}-byte limit"
        )
    if format == "brat" and not zipfile.is_zipfile(upload):
        raise ImportRefused(
            "brat needs a .txt and an .ann per document: upload a .zip of the folder",
            [upload.name],
        )
    upload.seek(0)
    name = f"{settings.IMPORT_UPLOADS_DIR}/{secrets.token_hex(8)}-{safe_file_name(upload.name)}"
    path = default_storage.save(name, upload)
    with transaction.atomic():
        job = ImportJob.objects.create(
            project=project,
            user=user,
            file_name=upload.name[:300],
            format=format,
            skip_invalid=skip_invalid,
            raw=raw or "",
            path=str(path),
            message="waiting for a worker",
        )
        after_commit(_send, job.pk)
    return job


def _send(job_id: int) -> None:
    # By name, through the project's Celery app (the task module imports this one); a broker
    # that fails fails the job with the reason (lifecycle.send_or_fail).
    lifecycle.send_or_fail(
        ImportJob, job_id, lambda: current_app.send_task(IMPORT_TASK, kwargs={"job_id": job_id})
    )


def import_job_run(*, job_id: int, worker: str = "") -> str:
    """The task's body: import the stored file, recording progress and the outcome."""
    close_old_connections()
    claim = lifecycle.claim(ImportJob, job_id, worker=worker)
    if not claim.claimed:
        if claim.outcome == "exhausted":
            remove_stored(claim.job.path)
        return claim.answer()
    job: ImportJob = claim.job

    def finished(result: ImportResult) -> None:
        # In the transaction that writes the topics: a worker killed after writing them but
        # before finishing would leave a job the next worker takes over and imports again.
        if not lifecycle.finish(
            job, ImportJob.Status.SUCCEEDED, str(result), progress=1.0, result=summary(result)
        ):
            raise _TakenOver
        after_commit(remove_stored, job.path)  # once the topics and the end commit

    try:
        with lifecycle.Heartbeat(job), local_copy(job.path) as path:
            result = topics_import(
                project=job.project,
                path=path,
                format=job.format,
                skip_invalid=job.skip_invalid,
                raw=job.raw or None,
                user=job.user,
                name=job.file_name,
                progress=lifecycle.progress_reporter(job, every=0),  # three steps
                written=finished,
            )
    except _TakenOver:
        return "skipped: another worker took the import over"
    except ImportRefused as refused:
        return _finish(job, ImportJob.Status.FAILED, refused.message, errors=refused.errors)
    except Exception as error:  # the job records any failure for the page that polls it
        logger.exception("import job %s failed", job_id)
        return _finish(job, ImportJob.Status.FAILED, f"{type(error).__name__}: {error}")
    return f"succeeded: {result}"


class _TakenOver(Exception):
    """The import's owner changed while it ran: its topics are rolled back."""


def summary(result: ImportResult) -> dict:
    """What the API answers for an import (annotation/api/serializers/files.ImportSummary)."""
    return {
        "summary": str(result),
        "topics": list(result.topics),
        "mentions": result.mentions,
        "gold": result.gold,
        "seeded": result.seeded,
        "warnings": [str(w) for w in result.warnings],
        "skipped": [skipped_line(s) for s in result.skipped],
    }


def _finish(job: ImportJob, status: str, message: str, *, errors=None, result=None) -> str:
    if not lifecycle.finish(
        job,
        status,
        message,
        progress=1.0,
        errors=[str(e) for e in (errors or [])],
        result=result,
    ):
        return "skipped: another worker took the import over"
    after_commit(remove_stored, job.path)  # after the topics commit: a take-over reads it
    return f"{status}: {message}"
