"""The release bundle is built by the worker: POST answers 202 with a job at
once, the job records its progress and its end (the stored bundle, or why it failed), a second
build of the same project waits for the first, and a job whose worker died is taken over.

The task body runs in this process here (the task sent after commit waits in the session's
Redis, which no worker reads during these tests); a real Celery worker builds one in
tests/e2e/test_walk_release_admin.py and in tests/corefapp/test_object_storage.py."""

from __future__ import annotations

import zipfile
from datetime import timedelta

import pytest
import redis
from django.core.files.storage import default_storage
from django.utils import timezone

from annotation.models import Topic
from datasets.models import ReleaseJob
from datasets.selectors import release_name
from datasets.services.release_jobs import release_job_run
from datasets.services.release_storage import dataset_release_store

# The task body closes stale connections and beats from a thread of its own, as in the worker:
# committed rows, as the model runs' tests (tests/modelserve/services/test_run_takeover.py).
pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.project(name="release jobs", hierarchy=True),
]


def running_job(project, *, worker: str, beat_seconds_ago: float) -> ReleaseJob:
    """A build a worker claimed, whose last heartbeat is that old."""
    return ReleaseJob.objects.create(
        project=project,
        status=ReleaseJob.Status.RUNNING,
        worker=worker,
        attempts=1,
        heartbeat_at=timezone.now() - timedelta(seconds=beat_seconds_ago),
        message="writing scico all",
    )


def test_a_release_is_queued_then_built_with_its_progress_and_stored(project, admin_client):
    answer = admin_client.post(
        f"/api/projects/{project.pk}/release/",
        {"formats": ["scico", "corefi"], "source": "gold", "with_names": True},
        format="json",
    )

    assert answer.status_code == 202, answer.content
    queued = answer.json()
    assert (queued["status"], queued["message"], queued["result"]) == (
        "queued",
        "waiting for a worker",
        None,
    )
    assert not default_storage.exists(release_name(project))  # nothing built in the request

    outcome = release_job_run(job_id=queued["job"], worker="w1")

    assert outcome.startswith("succeeded"), outcome
    body = admin_client.get(f"/api/release-jobs/{queued['job']}/").json()
    assert (body["status"], body["progress"]) == ("succeeded", 1.0)
    assert body["result"]["name"] == release_name(project)
    with default_storage.open(release_name(project)) as stored:
        names = zipfile.ZipFile(stored).namelist()
        assert body["result"]["size"] == stored.size
    assert any(n.startswith("scico/") for n in names)
    assert any(n.startswith("corefi/") for n in names)
    assert not any(n.startswith("conll/") for n in names)
    assert (
        admin_client.get(f"/api/projects/{project.pk}/release-jobs/").json()[0]["job"]
        == body["job"]
    )
    assert admin_client.get(f"/api/projects/{project.pk}/release/").status_code == 200


def test_the_build_reports_each_step_in_order(project):
    seen: list[tuple[float, str]] = []
    dataset_release_store(
        project=project,
        formats=["scico", "conll"],
        progress=lambda fraction, message: seen.append((fraction, message)),
    )

    assert [message for _, message in seen] == [
        "counting the statistics",
        "writing scico all",
        "writing conll all",
        "scoring the agreement",
        "writing the datasheet",
        "zipping and storing the bundle",
    ]
    fractions = [fraction for fraction, _ in seen]
    assert fractions == sorted(fractions)
    assert fractions[-1] == 0.9


def test_a_failed_build_says_why(project, admin_client):
    # Two splits that would be written to one file: found only while building.
    first, second = Topic.objects.filter(project=project)[:2]
    Topic.objects.filter(pk=first.pk).update(split="a/b")
    Topic.objects.filter(pk=second.pk).update(split="a_b")
    job = admin_client.post(f"/api/projects/{project.pk}/release/", {}, format="json").json()["job"]

    release_job_run(job_id=job)

    body = admin_client.get(f"/api/release-jobs/{job}/").json()
    assert body["status"] == "failed"
    assert "'a/b' and 'a_b' would be written to the same file" in body["message"]
    assert body["result"] is None
    assert not default_storage.exists(release_name(project))


def test_a_format_the_datasheet_cannot_describe_is_refused_and_no_job_is_queued(
    project, admin_client
):
    answer = admin_client.post(
        f"/api/projects/{project.pk}/release/", {"formats": ["corefud"]}, format="json"
    )
    assert answer.status_code == 400
    assert "'corefud' cannot go in a release" in str(answer.json())
    assert not ReleaseJob.objects.exists()


def test_a_second_build_of_the_project_waits_for_the_first(project, admin_client):
    first = admin_client.post(f"/api/projects/{project.pk}/release/", {}, format="json")
    second = admin_client.post(f"/api/projects/{project.pk}/release/", {}, format="json")

    assert second.status_code == 409
    assert second.json()["message"] == (
        "A release of this project is already being made (waiting for a worker, 0%): "
        "wait for it to finish."
    )
    assert second.json()["job"] == first.json()["job"]
    assert ReleaseJob.objects.count() == 1
    release_job_run(job_id=first.json()["job"])
    assert (
        admin_client.post(f"/api/projects/{project.pk}/release/", {}, format="json").status_code
        == 202
    )


def test_a_job_whose_worker_died_is_taken_over_and_a_live_one_is_left_alone(project, settings):
    settings.SUGGEST_HEARTBEAT_STALE_SECONDS = 30
    job = running_job(project, worker="alive", beat_seconds_ago=0)
    assert release_job_run(job_id=job.pk, worker="other").startswith("skipped")
    job.refresh_from_db()
    assert (job.status, job.worker) == ("running", "alive")

    # The worker stopped beating (killed mid-build): the redelivered task takes it over.
    ReleaseJob.objects.filter(pk=job.pk).update(heartbeat_at=timezone.now() - timedelta(seconds=31))
    assert release_job_run(job_id=job.pk, worker="other").startswith("succeeded")
    job.refresh_from_db()
    assert (job.status, job.worker, job.attempts) == ("succeeded", "other", 2)
    assert default_storage.exists(release_name(project))

    # A finished job is left alone when its message comes again.
    assert release_job_run(job_id=job.pk, worker="third").startswith("skipped")


def test_a_queued_job_whose_task_was_lost_gives_way_to_a_new_build(project, admin_client, settings):
    settings.SUGGEST_HEARTBEAT_STALE_SECONDS = 30
    first = admin_client.post(f"/api/projects/{project.pk}/release/", {}, format="json").json()[
        "job"
    ]
    long_ago = timezone.now() - timedelta(seconds=31)
    ReleaseJob.objects.filter(pk=first).update(created_at=long_ago)

    # Its message still waits in the broker: a busy worker will take it. The page waits.
    waiting = admin_client.post(f"/api/projects/{project.pk}/release/", {}, format="json")
    assert waiting.status_code == 409
    assert waiting.json()["job"] == first

    # The broker lost it (Redis flushed or replaced): nobody will ever build it.
    redis.Redis.from_url(settings.CELERY_BROKER_URL).delete(settings.CELERY_TASK_DEFAULT_QUEUE)
    again = admin_client.post(f"/api/projects/{project.pk}/release/", {}, format="json")

    assert again.status_code == 202, again.content
    lost = ReleaseJob.objects.get(pk=first)
    assert (lost.status, lost.message) == (
        "failed",
        "replaced by a new build: no worker took it (its task was lost)",
    )
    assert again.json()["job"] != first
    assert ReleaseJob.objects.filter(status="queued").count() == 1
    # Should its task come after all, it is skipped: one build stores the file.
    assert release_job_run(job_id=first, worker="late").startswith("skipped")


def test_a_job_whose_worker_stopped_beating_gives_way_and_is_not_taken_over_later(
    project, admin_client, settings
):
    settings.SUGGEST_HEARTBEAT_STALE_SECONDS = 30
    dead = running_job(project, worker="killed", beat_seconds_ago=31)

    answer = admin_client.post(f"/api/projects/{project.pk}/release/", {}, format="json")

    assert answer.status_code == 202, answer.content
    dead.refresh_from_db()
    assert (dead.status, dead.message) == ("failed", "replaced by a new build: its worker stopped")
    # The dead worker's message, redelivered minutes later, no longer builds over the new job.
    assert release_job_run(job_id=dead.pk, worker="redelivered").startswith("skipped")
    assert release_job_run(job_id=answer.json()["job"]).startswith("succeeded")
