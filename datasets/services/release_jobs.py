"""The release bundle is built by the general Celery worker, not in the web request.

A bundle scores the agreement report and exports every split in every format: seconds on the
demo, minutes on a corpus, too long for a request and the admin's browser. The Datasets page
therefore asks for a `ReleaseJob` (the options are checked at once: a refused format writes
nothing), the task is sent after commit, and the worker builds and stores the bundle
(release_storage.py) while writing its progress on the row; the page polls the row and
offers the download once it succeeded, or says why it failed.

As the import job (annotation/services/imports/jobs.py) the task is idempotent: a finished
job is left alone. As the model runs (modelserve/services/execution.py) a running job keeps a
heartbeat: a worker that dies mid-build leaves a stale one, and the task, redelivered (acks
late), is taken over by the next worker; a job with a fresh heartbeat belongs to a live worker
and is left to it. The finishing write checks the attempt, so a late worker cannot overwrite
the new owner's result. Only one job of a project may be queued or running at a time: two
builds would store over the same file. A request for a new build replaces an abandoned job (its
worker stopped beating, or its task message was lost from the broker while it waited): that job
is marked failed first, so its task, should it still come, skips it.
"""

from __future__ import annotations

import logging

import redis
from celery import current_app
from django.conf import settings
from django.db import close_old_connections, transaction
from django.utils import timezone

from annotation.models import Project
from datasets.errors import DatasetRefused, ReleaseUnderWay
from datasets.models import ReleaseJob
from datasets.services.release import release_formats
from datasets.services.release_storage import dataset_release_store
from foundation.side_effects import after_commit
from modelserve.services.execution import Heartbeat, heartbeat_stale_after, job_claim
from modelserve.workers import waiting_run_ids

logger = logging.getLogger(__name__)

RELEASE_TASK = "datasets.release_job"
ACTIVE = (ReleaseJob.Status.QUEUED, ReleaseJob.Status.RUNNING)


def release_job_create(
    *,
    project: Project,
    formats: list[str] | None = None,
    with_names: bool = False,
    source: str | None = None,
    user=None,
) -> ReleaseJob:
    """Queue the build of `project`'s release bundle; refused (nothing written) for a format
    that cannot go in a release (400) or while another build of the project is under way
    (409)."""
    release_formats(project, formats=formats)
    with transaction.atomic():
        Project.objects.select_for_update().filter(pk=project.pk).first()  # one at a time
        # Locked: a worker's claim of it waits until it is given up below, then skips it.
        busy = (
            ReleaseJob.objects.select_for_update()
            .filter(project=project, status__in=ACTIVE)
            .first()
        )
        if busy is not None:
            reason = _abandoned(busy)
            if reason is None:
                raise ReleaseUnderWay(
                    f"A release of this project is already being made"
                    f" ({busy.message or busy.status}, {round(busy.progress * 100)}%):"
                    " wait for it to finish.",
                    job=busy.pk,
                )
            _give_up(busy, reason)
        job = ReleaseJob.objects.create(
            project=project,
            user=user,
            formats=list(formats or []),
            source=source or "",
            with_names=with_names,
            message="waiting for a worker",
        )
        after_commit(_send, job.pk)
    return job


def _abandoned(job: ReleaseJob) -> str | None:
    """Why nobody will finish this active job, or None while somebody may: a running job whose
    worker stopped beating, or a queued one that waited the staleness window with its task
    message gone from the broker (lost with a flushed or replaced Redis: no worker will ever
    take it, and it would block every new build)."""
    stale_before = timezone.now() - heartbeat_stale_after()
    if job.status == ReleaseJob.Status.RUNNING:
        beat = job.heartbeat_at
        return "its worker stopped" if beat is not None and beat <= stale_before else None
    if job.created_at > stale_before:
        return None
    try:
        waiting = waiting_run_ids(
            RELEASE_TASK, key="job_id", queues=[settings.CELERY_TASK_DEFAULT_QUEUE]
        )
    except redis.RedisError:
        return None  # cannot tell: the build the admin asks for could not be sent either
    return None if job.pk in waiting else "no worker took it (its task was lost)"


def _give_up(job: ReleaseJob, reason: str) -> None:
    """Mark the abandoned job failed, unless a worker claimed it meanwhile: a task of it that
    comes later finds it finished and skips it, so two builds never store over one file."""
    ReleaseJob.objects.filter(pk=job.pk, status=job.status, attempts=job.attempts).update(
        status=ReleaseJob.Status.FAILED,
        message=f"replaced by a new build: {reason}",
        finished_at=timezone.now(),
    )


def _send(job_id: int) -> None:
    # By name, through the project's Celery app (datasets/tasks.py imports this module).
    try:
        current_app.send_task(RELEASE_TASK, kwargs={"job_id": job_id}, ignore_result=True)
    except Exception as error:  # noqa: BLE001 - any broker failure: the row says so
        logger.warning("release job %s: its task could not be sent (%r)", job_id, error)
        ReleaseJob.objects.filter(pk=job_id, status=ReleaseJob.Status.QUEUED).update(
            status=ReleaseJob.Status.FAILED,
            message="the worker queue did not answer: make the bundle again",
            finished_at=timezone.now(),
        )


def _claim(job_id: int, worker: str) -> ReleaseJob | None:
    return job_claim(
        ReleaseJob,
        job_id,
        worker,
        lambda job: {
            "progress": 0.0,
            "message": "starting" if job.attempts == 1 else "starting again (a worker stopped)",
        },
    )


def release_job_run(*, job_id: int, worker: str = "") -> str:
    """The task's body: build and store the bundle, recording progress and the outcome."""
    close_old_connections()
    job = _claim(job_id, worker)
    if job is None:
        return "skipped: finished, gone or running elsewhere"
    owned = ReleaseJob.objects.filter(
        pk=job.pk, status=ReleaseJob.Status.RUNNING, attempts=job.attempts
    )

    def progress(fraction: float, message: str) -> None:
        owned.update(
            progress=max(0.0, min(0.99, fraction)),
            message=message[:300],
            heartbeat_at=timezone.now(),
        )

    try:
        with Heartbeat(owned, name=f"release-{job.pk}"):
            stored = dataset_release_store(
                project=job.project,
                formats=job.formats or None,
                with_names=job.with_names,
                source=job.source or None,
                progress=progress,
            )
    except DatasetRefused as refused:
        return _finish(owned, ReleaseJob.Status.FAILED, refused.message)
    except Exception as error:  # the job records any failure for the page that polls it
        logger.exception("release job %s failed", job_id)
        return _finish(owned, ReleaseJob.Status.FAILED, f"{type(error).__name__}: {error}")
    result = {
        "name": stored.name,
        "size": stored.size,
        "files": stored.files,
        "warnings": stored.warnings,
    }
    message = f"{len(stored.files)} files, {stored.size:,} bytes"
    return _finish(owned, ReleaseJob.Status.SUCCEEDED, message, result=result)


def _finish(owned, status: str, message: str, *, result=None) -> str:
    owned.update(
        status=status,
        progress=1.0,
        message=message[:300],
        result=result,
        finished_at=timezone.now(),
    )
    return f"{status}: {message}"
