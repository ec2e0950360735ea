"""Large uploads are imported by the general Celery worker, not in a web request thread.

A 6 MB topic of 100,000 mentions took 37 s inside a request, holding one of the web
process's threads (and the admin's browser) all along. An upload above IMPORT_ASYNC_BYTES is
therefore stored in the default storage (imports/: var/imports locally, the bucket with
STORAGE_URL), an `ImportJob` row is created, and the task is sent after commit; the API
answers 202 with the job, which the import page polls for its progress (reading, checking,
writing) and its result: the same summary, or the same refusal with every
error, as a small upload gets at once. The task is idempotent: a job that is not queued any
more is left alone, and the stored file is removed once the job has run. The worker reads the
upload through the storage API into a temporary file of its own, so with STORAGE_URL the web
server and the worker share no disk.
"""

from __future__ import annotations

import logging
import secrets
import shutil
import tempfile
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from celery import current_app
from django.conf import settings
from django.core.files.storage import default_storage
from django.db import transaction
from django.utils import timezone

from annotation.errors import ImportRefused, UploadTooLarge
from annotation.infra.file_names import safe_file_name
from annotation.models import ImportJob, Project
from annotation.services.imports.topics import ImportResult, skipped_line, topics_import
from foundation.side_effects import after_commit

logger = logging.getLogger(__name__)

IMPORT_TASK = "annotation.import_job"


def is_large(upload) -> bool:
    return upload.size > settings.IMPORT_ASYNC_BYTES


def import_job_create(
    *, project: Project, upload, format: str, skip_invalid: bool = False, user=None
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
            path=str(path),
            message="waiting for a worker",
        )
        after_commit(_send, job.pk)
    return job


def _send(job_id: int) -> None:
    # By name, through the project's Celery app (the task module imports this one).
    current_app.send_task(IMPORT_TASK, kwargs={"job_id": job_id})


def import_job_run(*, job_id: int) -> str:
    """The task's body: import the stored file, recording progress and the outcome."""
    with transaction.atomic():
        job = ImportJob.objects.select_for_update().filter(pk=job_id).first()
        if job is None or job.status != ImportJob.Status.QUEUED:
            return "skipped: gone or already run"
        job.status = ImportJob.Status.RUNNING
        job.message = "starting"
        job.save(update_fields=["status", "message"])

    def progress(fraction: float, message: str) -> None:
        ImportJob.objects.filter(pk=job_id).update(progress=fraction, message=message[:300])

    try:
        with _local_copy(job.path) as path:
            result = topics_import(
                project=job.project,
                path=path,
                format=job.format,
                skip_invalid=job.skip_invalid,
                user=job.user,
                name=job.file_name,
                progress=progress,
            )
    except ImportRefused as refused:
        return _finish(job, ImportJob.Status.FAILED, refused.message, errors=refused.errors)
    except Exception as error:  # the job records any failure for the page that polls it
        logger.exception("import job %s failed", job_id)
        return _finish(job, ImportJob.Status.FAILED, f"{type(error).__name__}: {error}")
    return _finish(job, ImportJob.Status.SUCCEEDED, str(result), result=summary(result))


@contextmanager
def _local_copy(stored: str) -> Iterator[Path]:
    """The stored upload as a local file the readers can open (a zip needs seeking): the file
    itself for a job queued before uploads went through the storage API (an absolute path),
    else a copy in this process's temporary folder, removed afterwards."""
    if Path(stored).is_absolute():
        yield Path(stored)
        return
    with tempfile.TemporaryDirectory(prefix="import-job-") as folder:
        local = Path(folder) / Path(stored).name
        with default_storage.open(stored, "rb") as source, open(local, "wb") as target:
            shutil.copyfileobj(source, target)
        yield local


def _remove_stored(stored: str) -> None:
    if Path(stored).is_absolute():
        Path(stored).unlink(missing_ok=True)
    else:
        default_storage.delete(stored)


def summary(result: ImportResult) -> dict:
    """What the API answers for an import (annotation/api/serializers/files.ImportSummary)."""
    return {
        "summary": str(result),
        "topics": list(result.topics),
        "mentions": result.mentions,
        "gold": result.gold,
        "warnings": [str(w) for w in result.warnings],
        "skipped": [skipped_line(s) for s in result.skipped],
    }


def _finish(job: ImportJob, status: str, message: str, *, errors=None, result=None) -> str:
    ImportJob.objects.filter(pk=job.pk).update(
        status=status,
        progress=1.0,
        message=message[:300],
        errors=[str(e) for e in (errors or [])],
        result=result,
        finished_at=timezone.now(),
    )
    _remove_stored(job.path)
    return f"{status}: {message}"
