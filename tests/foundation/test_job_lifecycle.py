"""The one job lifecycle (foundation/jobs/lifecycle.py) against PostgreSQL: two claimers race
for a job and one wins; a worker whose job was taken over writes nothing; attempts are
bounded; progress is throttled; a job finishes once."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from annotation.models import ImportJob
from foundation.jobs import lifecycle
from tests.factories import ProjectFactory

pytestmark = pytest.mark.django_db(transaction=True)


def queued_job() -> ImportJob:
    return ImportJob.objects.create(
        project=ProjectFactory(), file_name="big.jsonl", format="scico", path="imports/x"
    )


def went_stale(job: ImportJob) -> None:
    """The owner stopped beating (killed) longer ago than the staleness window."""
    ImportJob.objects.filter(pk=job.pk).update(
        heartbeat_at=timezone.now() - lifecycle.stale_after() - timedelta(seconds=1)
    )


def test_of_two_claimers_racing_for_a_job_exactly_one_wins():
    job = queued_job()
    start = threading.Barrier(2)
    outcomes: dict[str, str] = {}

    def claimer(name: str) -> None:
        try:
            start.wait(10)
            outcomes[name] = lifecycle.claim(ImportJob, job.pk, worker=name).outcome
        finally:
            connection.close()

    threads = [threading.Thread(target=claimer, args=(name,)) for name in ("a", "b")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)

    assert sorted(outcomes.values()) == ["busy", "claimed"]
    job.refresh_from_db()
    winner = next(name for name, outcome in outcomes.items() if outcome == "claimed")
    assert (job.status, job.worker, job.attempts) == ("running", winner, 1)


def test_a_live_job_is_left_to_its_worker_and_a_stale_one_is_taken_over():
    job = queued_job()
    first = lifecycle.claim(ImportJob, job.pk, worker="first")
    assert first.claimed
    assert lifecycle.claim(ImportJob, job.pk, worker="second").answer() == lifecycle.BUSY

    went_stale(job)
    second = lifecycle.claim(ImportJob, job.pk, worker="second")

    assert second.claimed
    assert (second.job.worker, second.job.attempts) == ("second", 2)
    assert second.job.message == "starting again (attempt 2: a worker stopped)"


def test_a_late_worker_writes_nothing_once_its_job_was_taken_over():
    job = queued_job()
    late = lifecycle.claim(ImportJob, job.pk, worker="paused").job
    went_stale(job)
    owner = lifecycle.claim(ImportJob, job.pk, worker="owner").job
    lifecycle.progress_reporter(owner)(0.3, "owner's step")

    # The paused worker wakes: its progress, its heartbeat, its finish all match no row.
    lifecycle.progress_reporter(late)(0.9, "late step")
    with lifecycle.Heartbeat(late):
        pass
    assert not lifecycle.finish(late, ImportJob.Status.SUCCEEDED, "late result")
    assert not lifecycle.owned_update(late, message="late")
    from django.db import transaction

    with transaction.atomic():
        assert not lifecycle.still_owned(late)

    job.refresh_from_db()
    assert (job.status, job.worker, job.attempts) == ("running", "owner", 2)
    assert (job.progress, job.message) == (0.3, "owner's step")
    assert lifecycle.finish(owner, ImportJob.Status.SUCCEEDED, "done")
    job.refresh_from_db()
    assert (job.status, job.message, job.progress) == ("succeeded", "done", 1.0)


def test_a_job_finishes_once_and_a_finished_job_is_not_claimed_again():
    job = queued_job()
    owner = lifecycle.claim(ImportJob, job.pk, worker="w").job
    assert lifecycle.finish(owner, ImportJob.Status.FAILED, "first end")
    assert not lifecycle.finish(owner, ImportJob.Status.SUCCEEDED, "second end")
    job.refresh_from_db()
    assert (job.status, job.message) == ("failed", "first end")
    assert lifecycle.claim(ImportJob, job.pk, worker="w").outcome == "finished"
    assert lifecycle.claim(ImportJob, job.pk + 1000, worker="w").outcome == "gone"


def test_a_job_whose_workers_keep_dying_fails_after_the_last_attempt(settings):
    settings.JOB_MAX_ATTEMPTS = 2
    job = queued_job()
    for worker in ("w1", "w2"):
        assert lifecycle.claim(ImportJob, job.pk, worker=worker).claimed
        went_stale(job)

    ended = lifecycle.claim(ImportJob, job.pk, worker="w3")

    assert ended.outcome == "exhausted"
    job.refresh_from_db()
    assert (job.status, job.attempts) == ("failed", 2)
    assert job.message == "stopped after 2 attempts: its worker stopped each time"
    assert job.finished_at is not None
    assert lifecycle.claim(ImportJob, job.pk, worker="w4").outcome == "finished"


def test_progress_is_written_at_most_once_a_period_and_the_end_always():
    job = queued_job()
    owner = lifecycle.claim(ImportJob, job.pk, worker="w").job
    now = [100.0]
    heard: list[float] = []
    report = lifecycle.progress_reporter(
        owner,
        every=0.5,
        ceiling=0.99,
        written=lambda j: heard.append(j.progress),
        clock=lambda: now[0],
    )

    def at(seconds: float, fraction: float) -> float:
        now[0] = 100.0 + seconds
        report(fraction, f"step {fraction}")
        return ImportJob.objects.get(pk=job.pk).progress

    assert at(0.0, 0.1) == 0.1  # the first is written
    assert at(0.2, 0.2) == 0.1  # too soon
    assert at(0.4, 0.3) == 0.1
    assert at(0.6, 0.4) == 0.4  # a period later
    assert at(0.7, 1.0) == 0.99  # the end goes through at once, below the ceiling
    assert heard == [0.1, 0.4, 0.99]


def test_workers_sharing_out_jobs_claim_the_next_free_one_each():
    """As a corpus's encode chunks will be: a worker asks for the next piece of work; one that
    another worker holds locked is skipped, a stale one is taken over."""
    project = ProjectFactory()
    chunks = [
        ImportJob.objects.create(project=project, file_name=f"c{i}", format="scico", path="x")
        for i in range(3)
    ]
    pieces = ImportJob.objects.filter(project=project).order_by("pk")
    first = lifecycle.claim_next(pieces, worker="a")
    second = lifecycle.claim_next(pieces, worker="b")
    assert (first.job.pk, second.job.pk) == (chunks[0].pk, chunks[1].pk)

    held = threading.Event()
    release = threading.Event()

    def hold_the_last() -> None:  # another claimer, mid-claim of the last chunk
        from django.db import transaction

        try:
            with transaction.atomic():
                ImportJob.objects.select_for_update().get(pk=chunks[2].pk)
                held.set()
                release.wait(10)
        finally:
            connection.close()

    holder = threading.Thread(target=hold_the_last)
    holder.start()
    try:
        assert held.wait(10)
        assert lifecycle.claim_next(pieces, worker="c").outcome == "none"
    finally:
        release.set()
        holder.join(10)

    went_stale(first.job)
    taken = lifecycle.claim_next(pieces, worker="c")
    assert (taken.job.pk, taken.job.attempts) == (chunks[0].pk, 2)
