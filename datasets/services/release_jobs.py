"""The release bundle is built by the general Celery worker, not in the web request.

A bundle scores the agreement report and exports every split in every format: seconds on the
demo, minutes on a corpus, too long for a request and the admin's browser. The Datasets page
therefore asks for a `ReleaseJob` (the options are checked at once: a refused format writes
nothing), the task is sent after commit, and the worker builds and stores the bundle
(release_storage.py) while writing its progress on the row; the page polls the row and
offers the download once it succeeded, or says why it failed.

A job like every other (foundation/jobs/lifecycle.py): a finished job is left alone; a running
job keeps a heartbeat, so a worker that dies mid-build leaves a stale one and the task,
redelivered (acks late), takes it over; a job with a fresh heartbeat belongs to a live worker
and is left to it. The finishing write is the owner's only, so a late worker cannot overwrite
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
from foundation.jobs import lifecycle
from foundation.jobs.models import stale_after
from foundation.side_effects import after_commit
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
    now = timezone.now()
    if job.status == ReleaseJob.Status.RUNNING:
        return "its worker stopped" if job.is_stale(now) else None
    if job.created_at > now - stale_after():
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
    # By name, through the project's Celery app (datasets/tasks.py imports this module); a
    # broker that fails fails the job with the reason (lifecycle.send_or_fail).
    lifecycle.send_or_fail(
        ReleaseJob,
        job_id,
        lambda: current_app.send_task(RELEASE_TASK, kwargs={"job_id": job_id}, ignore_result=True),
    )


def release_job_run(*, job_id: int, worker: str = "") -> str:
    """The task's body: build and store the bundle, recording progress and the outcome."""
    close_old_connections()
    claim = lifecycle.claim(ReleaseJob, job_id, worker=worker)
    if not claim.claimed:
        return claim.answer()
    job: ReleaseJob = claim.job
    try:
        with lifecycle.Heartbeat(job):
            stored = dataset_release_store(
                project=job.project,
                formats=job.formats or None,
                with_names=job.with_names,
                source=job.source or None,
                # below 1 until the bundle is stored; every step shows (a few per build)
                progress=lifecycle.progress_reporter(job, every=0, ceiling=0.99),
            )
    except DatasetRefused as refused:
        return _finish(job, ReleaseJob.Status.FAILED, refused.message)
    except Exception as error:  # the job records any failure for the page that polls it
        logger.exception("release job %s failed", job_id)
        return _finish(job, ReleaseJob.Status.FAILED, f"{type(error).__name__}: {error}")
    result = {
        "name": stored.name,
        "size": stored.size,
        "files": stored.files,
        "warnings": stored.warnings,
    }
    message = f"{len(stored.files)} files, {stored.size:,} bytes"
    return _finish(job, ReleaseJob.Status.SUCCEEDED, message, result=result)


def _finish(job: ReleaseJob, status: str, message: str, *, result=None) -> str:
    if not lifecycle.finish(job, status, message, progress=1.0, result=result):
        return "skipped: another worker took the job over"
    return f"{status}: {message}"
