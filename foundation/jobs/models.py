"""The columns and constraint every job table shares, and the QuerySet that reads them.

A job is a row a worker claims and works on while the web server polls it: a suggestion run, a
model training or evaluation, a release build, an import; the corpus jobs to come (a corpus
import, its encode chunks) are jobs too. Abstract: each app's concrete model adds what the job
needs (its project, its options, its result) and keeps its own table. The column names and
values are the ones the tables had before they shared them, so adopting the model cost a few
added columns and a renamed check constraint, not a data migration.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import ClassVar

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone


def stale_after() -> timedelta:
    """How long a running job may go without a heartbeat before it counts as abandoned (its
    worker died): then another worker, or the redelivered task, takes it over."""
    return timedelta(seconds=settings.SUGGEST_HEARTBEAT_STALE_SECONDS)


class JobStatus(models.TextChoices):
    QUEUED = "queued"
    RUNNING = "running"
    SUCCEEDED = "succeeded"
    FAILED = "failed"


ACTIVE = (JobStatus.QUEUED, JobStatus.RUNNING)
FINAL = (JobStatus.SUCCEEDED, JobStatus.FAILED)


class JobQuerySet(models.QuerySet):
    def active(self) -> JobQuerySet:
        """Queued or running: a worker has it, or will."""
        return self.filter(status__in=ACTIVE)

    def final(self) -> JobQuerySet:
        """Succeeded or failed: nothing will change it any more."""
        return self.filter(status__in=FINAL)

    def stale(self, now: datetime | None = None) -> JobQuerySet:
        """Running, but its worker stopped beating: dead, or so stuck it counts as dead."""
        before = (now or timezone.now()) - stale_after()
        return self.filter(status=JobStatus.RUNNING, heartbeat_at__lt=before)

    def silent(self, now: datetime | None = None) -> JobQuerySet:
        """Active, and nothing has shown life for the staleness window: running with a stale
        heartbeat (its worker died), or queued that long (its task message may be lost). What
        a sweeper sends again; it sets the heartbeat of what it sends, so not twice a window."""
        before = (now or timezone.now()) - stale_after()
        return self.active().filter(
            Q(heartbeat_at__lt=before) | Q(heartbeat_at__isnull=True, created_at__lt=before)
        )

    def claimable(self, now: datetime | None = None) -> JobQuerySet:
        """What a worker may claim: queued, or running but stale (take-over)."""
        before = (now or timezone.now()) - stale_after()
        silent = Q(heartbeat_at__lt=before) | Q(heartbeat_at__isnull=True)
        return self.filter(Q(status=JobStatus.QUEUED) | (Q(status=JobStatus.RUNNING) & silent))

    def owned_by(self, job: Job) -> JobQuerySet:
        """The job's row while `job` (as this worker claimed it) still owns it: running, on
        this worker, this attempt. A worker whose job was taken over finds nothing here."""
        return self.filter(
            pk=job.pk, status=JobStatus.RUNNING, worker=job.worker, attempts=job.attempts
        )


class Job(models.Model):
    Status = JobStatus

    status = models.CharField(max_length=20, choices=JobStatus.choices, default=JobStatus.QUEUED)
    progress = models.FloatField(default=0.0)
    # what the page shows under the bar: the current step, then the outcome in a line
    message = models.CharField(max_length=300, blank=True)
    # a failure's detail (a traceback) for an admin; the annotator reads `message`
    error = models.TextField(blank=True)
    # the worker that claimed it, and how many claims there were: ownership is (worker,
    # attempts), so a late worker's write after a take-over matches no row (lifecycle.py)
    worker = models.CharField(max_length=200, blank=True)
    attempts = models.PositiveIntegerField(default=0)
    # refreshed every few seconds by the owner: a stale one means the owner died
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    objects = JobQuerySet.as_manager()

    class Meta:
        abstract = True
        ordering: ClassVar[list[str]] = ["-created_at", "-id"]
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.CheckConstraint(
                condition=Q(progress__gte=0) & Q(progress__lte=1),
                name="%(app_label)s_%(class)s_progress_fraction",
            ),
        ]

    def is_stale(self, now: datetime | None = None) -> bool:
        """`JobQuerySet.stale`'s rule for a row in hand: running, and its heartbeat is older
        than the staleness window."""
        beat = self.heartbeat_at
        before = (now or timezone.now()) - stale_after()
        return self.status == JobStatus.RUNNING and beat is not None and beat < before

    @property
    def is_final(self) -> bool:
        return self.status in FINAL
