"""One lifecycle for every background job: claim, owned write, heartbeat, throttled progress,
finish, take-over, and what happens when the broker refuses the task (docs/jobs.md).

A worker's task calls `claim`; it gets the job, or learns it is finished or gone (skip), or
busy on another live worker (the task looks again later: `BUSY`), or that it has been tried
`JOB_MAX_ATTEMPTS` times and every worker died (it is failed, once). A running job beats
(`Heartbeat`, and every progress write); one whose heartbeat went stale is taken over by the
next claim: the redelivered task (acks late) or a sweeper's re-sent one.

The ownership rule: a worker writes to its job only while it owns the row, that is while the
row is running, on this worker, at this attempt (`owned`). A worker that was only paused (a
long GC, a slow disk) past the staleness window and whose job was taken over therefore writes
nothing when it wakes: its progress, heartbeat and finish match no row, and `still_owned`
(inside the transaction that stores a result) lets it drop its result instead of adding a
second one.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Self, TypeVar

from django.conf import settings
from django.db import InterfaceError, OperationalError, connection, transaction
from django.db.models import QuerySet
from django.utils import timezone

from foundation.jobs.models import ACTIVE, Job, JobQuerySet, JobStatus, stale_after

logger = logging.getLogger(__name__)

__all__ = [
    "BUSY",
    "QUEUE_DOWN",
    "Claim",
    "Heartbeat",
    "claim",
    "claim_next",
    "finish",
    "max_attempts",
    "owned",
    "owned_update",
    "progress_reporter",
    "retry_countdown",
    "send_or_fail",
    "stale_after",
    "still_owned",
]

HEARTBEAT_SECONDS = 2.0
# What a task answers when the job runs on another worker with a fresh heartbeat; the task
# asks again after the staleness window (retry_countdown), in case that worker died.
BUSY = "skipped: running on another worker"
# The one policy for a broker that refuses the task (send_or_fail): what the page shows.
QUEUE_DOWN = "The task queue (Redis) did not answer, so this never started: start it again."

J = TypeVar("J", bound=Job)


def max_attempts() -> int:
    """Claims a job gets before it is failed: a job whose worker dies each time (a poison
    input, a worker killed for memory) is not retried for ever."""
    return settings.JOB_MAX_ATTEMPTS


def retry_countdown() -> float:
    """When a task that found its job busy looks again: once a dead owner's heartbeat is stale."""
    return stale_after().total_seconds() + 1


@dataclass(frozen=True)
class Claim:
    """What a claim found. `job` is the claimed row (outcome "claimed") or the row failed for
    too many attempts ("exhausted"); None when "finished", "gone" or "busy"."""

    outcome: str
    job: Any = None

    @property
    def claimed(self) -> bool:
        return self.outcome == "claimed"

    def answer(self) -> str:
        """The task's answer when nothing was claimed."""
        if self.outcome == "busy":
            return BUSY
        if self.outcome == "exhausted":
            return f"failed: {self.job.message}"
        return f"skipped: {self.outcome}"


def _retried(call: Callable[[], Any], *, tries: int = 5) -> Any:
    """A database call from a job's worker or its threads. A Celery worker closes its
    connections after each task (the Django fixup), which a job's thread (a heartbeat, a
    training) can meet: the call is made again on a fresh connection. Never inside a
    transaction, where a new connection would lose the transaction's work."""
    if connection.in_atomic_block:
        return call()
    for attempt in range(tries):
        try:
            return call()
        except (OperationalError, InterfaceError):
            connection.close()
            if attempt == tries - 1:
                raise
            time.sleep(0.2 * (attempt + 1))
    return None


def claim(
    model: type[J],
    pk: int,
    *,
    worker: str,
    started: Callable[[Any], dict[str, Any]] | None = None,
) -> Claim:
    """Make the job `pk` this worker's: a queued job, or a running one whose heartbeat went
    stale (take-over). The row is locked while it is read and written, so of two claimers one
    wins and the other finds it busy. `started(job)` gives fields the job sets on a claim
    besides the lifecycle's (its own first message, say)."""

    def locked() -> Claim:
        with transaction.atomic():
            job = model._default_manager.select_for_update().filter(pk=pk).first()
            if job is None:
                return Claim("gone")
            if job.status not in ACTIVE:
                return Claim("finished")
            now = timezone.now()
            if job.status == JobStatus.RUNNING and job.heartbeat_at and not job.is_stale(now):
                return Claim("busy")
            return _take(job, worker, started, now)

    result: Claim = _retried(locked)
    if result.claimed:
        logger.info(
            "%s %s claimed by %r, attempt %s", model.__name__, pk, worker, result.job.attempts
        )
    return result


def claim_next(
    jobs: JobQuerySet,
    *,
    worker: str,
    started: Callable[[Any], dict[str, Any]] | None = None,
) -> Claim:
    """Claim the first job of `jobs`, in their order, that is queued or stale: for jobs that
    many workers share out (a corpus's encode chunks), where a task asks for the next piece
    of work rather than for one row. Rows another claimer holds locked are skipped, so N
    workers claim N different jobs at once. Outcome "none" when nothing is left to claim."""

    def locked() -> Claim:
        with transaction.atomic():
            now = timezone.now()
            job = jobs.claimable(now).select_for_update(skip_locked=True).first()
            if job is None:
                return Claim("none")
            return _take(job, worker, started, now)

    result: Claim = _retried(locked)
    return result


def _take(job: Any, worker: str, started: Callable[[Any], dict[str, Any]] | None, now) -> Claim:
    """The claim's write, on a row the caller holds locked: this worker's next attempt, or the
    job failed when its attempts are spent."""
    if job.attempts >= max_attempts():
        job.status = JobStatus.FAILED
        job.finished_at = now
        job.message = f"stopped after {job.attempts} attempts: its worker stopped each time"
        job.save()
        return Claim("exhausted", job)
    job.status = JobStatus.RUNNING
    job.worker = worker
    job.attempts += 1
    job.heartbeat_at = job.started_at = now
    job.progress = 0.0
    job.error = ""
    job.message = (
        "starting"
        if job.attempts == 1
        else f"starting again (attempt {job.attempts}: a worker stopped)"
    )
    for field, value in (started(job) if started else {}).items():
        setattr(job, field, value)
    job.save()
    return Claim("claimed", job)


def owned(job: Job) -> QuerySet:
    """The job's row while this claim of it owns it (the ownership rule above)."""
    return type(job)._default_manager.owned_by(job)


def owned_update(job: Job, **fields: Any) -> bool:
    """Write `fields` to the job if this claim still owns it; False: it was taken over (or
    finished by another), and nothing was written."""
    return bool(_retried(lambda: owned(job).update(**fields)))


def still_owned(job: Job) -> bool:
    """Lock the row, inside the caller's transaction, and say whether this claim still owns
    it: call it in the transaction that stores the job's result, before storing."""
    return owned(job).select_for_update().exists()


def finish(job: Job, status: str, message: str, **fields: Any) -> bool:
    """End the job (succeeded or failed) with `message` and any other fields, once: only the
    owner's finish writes (False for a late worker's, which must drop its outcome). Inside
    the caller's transaction when there is one, so a result and its finish commit together."""
    if status == JobStatus.SUCCEEDED:
        fields.setdefault("progress", 1.0)
    written = owned_update(
        job, status=status, message=message[:300], finished_at=timezone.now(), **fields
    )
    if written:
        job.status, job.message = status, message[:300]
    else:
        logger.warning(
            "%s %s: attempt %s on %r lost the job to another worker; its outcome is dropped",
            type(job).__name__,
            job.pk,
            job.attempts,
            job.worker,
        )
    return written


class Heartbeat:
    """Refreshes the job's `heartbeat_at` from a thread while it is owned, so other workers
    can tell a live job from a dead one even while the work reports no progress (a long
    encode). Only while owned: a late worker must not keep a new owner's dead job alive."""

    def __init__(self, job: Job) -> None:
        self.job = job
        self.stop = threading.Event()
        name = f"heartbeat-{type(job).__name__}-{job.pk}"
        self.thread = threading.Thread(target=self._beat, daemon=True, name=name)

    def _beat(self) -> None:
        interval = min(HEARTBEAT_SECONDS, stale_after().total_seconds() / 3)
        try:
            while not self.stop.wait(interval):
                try:
                    owned(self.job).update(heartbeat_at=timezone.now())
                except (OperationalError, InterfaceError):
                    connection.close()  # the pool was closed under it: next beat, afresh
        finally:
            connection.close()

    def __enter__(self) -> Self:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join(10)


def progress_reporter(
    job: Job,
    *,
    every: float = 0.5,
    ceiling: float = 1.0,
    written: Callable[[Job], None] | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> Callable[[float, str], None]:
    """A `progress(fraction, message)` callback for the job's work: an owned write of the
    fraction (clamped to [0, ceiling]: a job below 1 until its result is stored), the message
    and a heartbeat, at most once every `every` seconds (the bar moves, the database rests;
    a fraction of 1 is always written). `written(job)` follows each write (a broadcast)."""
    last = [-float("inf")]

    def report(fraction: float, message: str) -> None:
        now = clock()
        if now - last[0] < every and fraction < 1.0:
            return
        last[0] = now
        job.progress = max(0.0, min(ceiling, float(fraction)))
        job.message = message[:300]
        if (
            owned_update(
                job, progress=job.progress, message=job.message, heartbeat_at=timezone.now()
            )
            and written is not None
        ):
            written(job)

    return report


def send_or_fail(model: type[Job], pk: int, send: Callable[[], None]) -> bool:
    """Send the job's task (after commit); when the broker refuses it, fail the job at once
    with QUEUE_DOWN, so no page polls a job no worker will ever hear of, and the user, told so,
    starts it again. The one policy for every job (docs/jobs.md). False: it was failed."""
    try:
        send()
    except Exception as error:  # noqa: BLE001 - any broker failure: the row says so
        logger.warning("%s %s: its task could not be sent (%r)", model.__name__, pk, error)
        model._default_manager.filter(pk=pk, status=JobStatus.QUEUED).update(
            status=JobStatus.FAILED, message=QUEUE_DOWN, finished_at=timezone.now()
        )
        return False
    return True
