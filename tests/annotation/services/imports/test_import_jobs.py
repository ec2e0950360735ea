"""Large uploads are imported by a real Celery worker, not in the request: the API answers 202
with a job at once, and the job reports its progress and then the import's summary, or its
refusal with every error and nothing written. A worker killed mid-import (SIGKILL, as a crash
or an OOM kill) leaves its task unacknowledged; Redis redelivers it and the next worker takes
the job over once the dead one's heartbeat is stale, importing the file once. (Before the one
job lifecycle the redelivered task answered "skipped" and the job stayed running for ever.)"""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

import pytest
from django.conf import settings
from django.core.files.storage import default_storage
from django.core.files.uploadedfile import SimpleUploadedFile

from annotation.models import ImportJob, Mention, Topic
from tests.factories import ProjectFactory
from tests.workers import FAST_REDELIVERY, start_worker, wait_for

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def worker(services):
    worker = start_worker(services, queues="default", name="default-test")
    yield worker
    worker.stop()


@pytest.fixture
def uploads(settings, services):
    """The uploads folder of the default storage (the session's folder, STORAGE_DIR, which the
    worker shares), one per test: imports-test-N."""
    folder_name = f"imports-test-{time.monotonic_ns()}"
    settings.IMPORT_UPLOADS_DIR = folder_name
    settings.IMPORT_ASYNC_BYTES = 200_000
    folder = Path(default_storage.path(folder_name))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def big_scico(topics: int, mentions_each: int, bad: bool = False) -> bytes:
    lines = []
    for t in range(topics):
        tokens = [[f"w{t}_{i}" for i in range(mentions_each)]]
        if bad and t == topics - 1:
            tokens[0][3] = "bad\u0000token"
        mentions = [[0, i, i, i % 50] for i in range(mentions_each)]
        lines.append(json.dumps({"id": t, "tokens": tokens, "mentions": mentions, "relations": []}))
    return ("\n".join(lines) + "\n").encode()


def post(client, project, content: bytes):
    upload = SimpleUploadedFile("big.jsonl", content)
    started = time.monotonic()
    answer = client.post(
        f"/api/projects/{project.pk}/imports/", {"file": upload, "format": "scico"}
    )
    return answer, time.monotonic() - started


def poll(client, job: int, timeout: float = 180) -> tuple[dict, list[float]]:
    seen = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        body = client.get(f"/api/import-jobs/{job}/").json()
        seen.append(body["progress"])
        if body["status"] in ("succeeded", "failed"):
            return body, seen
        time.sleep(0.2)
    raise AssertionError(f"job {job} still {body['status']} after {timeout} s")


def uploads_removed(folder: Path, timeout: float = 10) -> bool:
    """The worker removes the stored upload just after the job's end commits: wait for it."""
    deadline = time.monotonic() + timeout
    while any(folder.iterdir()):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


def test_a_large_upload_is_a_job_the_worker_imports_with_progress(worker, uploads, admin_client):
    project = ProjectFactory(hierarchy=True)
    client = admin_client
    content = big_scico(topics=20, mentions_each=1000)
    assert len(content) > settings.IMPORT_ASYNC_BYTES

    answer, _ = post(client, project, content)

    assert answer.status_code == 202, answer.content
    job = answer.json()
    assert job["status"] == "queued"
    assert job["result"] is None
    assert not Topic.objects.filter(project=project).exists()  # nothing in the request
    body, seen = poll(client, job["job"])
    assert body["status"] == "succeeded", body
    assert body["result"]["topics"] == [str(t) for t in range(20)]
    assert body["result"]["mentions"] == 20_000
    assert body["progress"] == 1.0
    assert Mention.objects.filter(topic__project=project).count() == 20_000
    assert seen == sorted(seen)  # progress only moves forward
    assert uploads_removed(uploads)  # the stored upload is gone once imported


def test_a_large_upload_that_is_refused_says_why_in_its_job_and_writes_nothing(
    worker, uploads, admin_client
):
    project = ProjectFactory(hierarchy=True)
    client = admin_client

    answer, _ = post(client, project, big_scico(topics=20, mentions_each=1000, bad=True))
    body, _ = poll(client, answer.json()["job"])

    assert body["status"] == "failed"
    assert body["result"] is None
    assert any("NUL character" in error for error in body["errors"]), body["errors"]
    assert not Topic.objects.filter(project=project).exists()


def test_a_small_upload_is_still_imported_at_once(uploads, admin_client):
    project = ProjectFactory(hierarchy=True)

    answer, _ = post(admin_client, project, big_scico(topics=1, mentions_each=10))

    assert answer.status_code == 201
    assert answer.json()["topics"] == ["0"]


TOPICS, MENTIONS = 30, 2000  # a few seconds of reading and checking: time to kill it


def test_an_import_whose_worker_was_killed_is_taken_over_and_imported_once(
    services, uploads, admin_client
):
    project = ProjectFactory(hierarchy=True)
    first = start_worker(services, queues="default", name="default-test", **FAST_REDELIVERY)
    try:
        answer, _ = post(admin_client, project, big_scico(topics=TOPICS, mentions_each=MENTIONS))
        assert answer.status_code == 202, answer.content
        job = ImportJob.objects.get(pk=answer.json()["job"])
        wait_for(job, {"running", "succeeded", "failed"}, timeout=60, step=0.05)
    finally:
        first.kill()
    job.refresh_from_db()
    assert job.status == "running", "the import ended before the worker was killed"
    assert not Topic.objects.filter(project=project).exists()

    second = start_worker(services, queues="default", name="default-test", **FAST_REDELIVERY)
    try:
        job = wait_for(job, {"succeeded", "failed"}, timeout=120)
    finally:
        second.stop()

    assert job.status == "succeeded", (job.message, job.errors)
    assert job.attempts == 2
    assert job.worker.startswith(second.name)
    assert Topic.objects.filter(project=project).count() == TOPICS
    assert Mention.objects.filter(topic__project=project).count() == TOPICS * MENTIONS
    assert job.result["topics"] == [str(t) for t in range(TOPICS)]
    assert uploads_removed(uploads)  # the stored upload is removed once, at the end
