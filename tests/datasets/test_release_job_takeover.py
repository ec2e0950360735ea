"""A general worker killed mid-build (SIGKILL, as a crash or an OOM kill) leaves its task
unacknowledged; Redis redelivers it and the next worker takes the release job over once the
dead worker's heartbeat is stale: one bundle stored, the job succeeded, two attempts."""

from __future__ import annotations

import time
import zipfile
from pathlib import Path

import pytest
from django.conf import settings
from django.core.files.storage import default_storage
from django.db import connection

from annotation.services.imports.topics import topics_import
from datasets.models import ReleaseJob
from datasets.selectors import release_name
from datasets.services.release_jobs import release_job_create
from tests.factories import AdminFactory, ProjectFactory
from tests.modelserve.test_runs_with_worker import FAST_REDELIVERY
from tests.paths import SCICO_DEMO
from tests.workers import Worker

pytestmark = pytest.mark.django_db(transaction=True)


def default_worker(services) -> Worker:
    worker = Worker(
        database_url=services.postgres.url(connection.settings_dict["NAME"]),
        redis_url=services.redis_url,
        secret_key=settings.SECRET_KEY,
        queues="default",
        name="default-test",
        extra_env=FAST_REDELIVERY,
    )
    worker.wait_ready()
    return worker


def wait_for(job_id: int, statuses: set[str], timeout: float, step: float = 0.05) -> ReleaseJob:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        job = ReleaseJob.objects.get(pk=job_id)
        if job.status in statuses:
            return job
        time.sleep(step)
    raise AssertionError(
        f"release job {job_id} still {job.status} ({job.message}) after {timeout} s"
    )


def test_a_release_whose_worker_was_killed_is_taken_over_and_stored_once(services):
    project = ProjectFactory(name="killed release", hierarchy=True)
    topics_import(project=project, path=SCICO_DEMO, format="scico")
    folder = Path(default_storage.path(release_name(project))).parent
    first = default_worker(services)
    try:
        job = release_job_create(project=project, user=AdminFactory())
        wait_for(job.pk, {"running", "succeeded", "failed"}, timeout=60)
    finally:
        first.kill()
    job.refresh_from_db()
    assert job.status == "running", "the build ended before the worker was killed"

    second = default_worker(services)
    try:
        job = wait_for(job.pk, {"succeeded", "failed"}, timeout=120, step=0.3)
    finally:
        second.stop()

    assert job.status == "succeeded", job.message
    assert job.attempts == 2
    assert job.worker.startswith(second.name)
    assert [p.name for p in folder.iterdir()] == [Path(release_name(project)).name]
    with (
        default_storage.open(job.result["name"], "rb") as stored,
        zipfile.ZipFile(stored) as bundle,
    ):
        assert sorted(bundle.namelist()) == sorted(job.result["files"])
    default_storage.delete(release_name(project))
