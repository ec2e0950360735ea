"""A general worker killed mid-build (SIGKILL, as a crash or an OOM kill) leaves its task
unacknowledged; Redis redelivers it and the next worker takes the release job over once the
dead worker's heartbeat is stale: one bundle stored, the job succeeded, two attempts."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest
from django.core.files.storage import default_storage

from annotation.services.imports.topics import topics_import
from datasets.selectors import release_name
from datasets.services.release_jobs import release_job_create
from tests.factories import AdminFactory, ProjectFactory
from tests.paths import SCICO_DEMO
from tests.workers import FAST_REDELIVERY, start_worker, wait_for

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_release_whose_worker_was_killed_is_taken_over_and_stored_once(services):
    project = ProjectFactory(name="killed release", hierarchy=True)
    topics_import(project=project, path=SCICO_DEMO, format="scico")
    folder = Path(default_storage.path(release_name(project))).parent
    first = start_worker(services, queues="default", name="default-test", **FAST_REDELIVERY)
    try:
        job = release_job_create(project=project, user=AdminFactory())
        wait_for(job, {"running", "succeeded", "failed"}, timeout=60, step=0.05)
    finally:
        first.kill()
    job.refresh_from_db()
    assert job.status == "running", "the build ended before the worker was killed"

    second = start_worker(services, queues="default", name="default-test", **FAST_REDELIVERY)
    try:
        job = wait_for(job, {"succeeded", "failed"}, timeout=120)
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
