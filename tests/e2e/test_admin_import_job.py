"""A large upload in the browser: the import page shows the job's progress while the worker
has not taken it yet, then the summary once a real Celery worker has imported it; and leaving
the page while the job runs stops the page looking at it."""

from __future__ import annotations

import json
import re

import pytest
from django.conf import settings
from django.db import connection
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from playwright.sync_api import expect

from annotation.models import Project, Topic
from tests.factories import AdminFactory
from tests.workers import Worker


def large_scico_file(topics: int = 20, mentions_each: int = 3000) -> bytes:
    lines = [
        json.dumps(
            {
                "id": f"big-{t}",
                "tokens": [[f"token{t}_{i}" for i in range(mentions_each)]],
                "mentions": [[0, i, i, i % 40] for i in range(mentions_each)],
                "relations": [],
            }
        )
        for t in range(topics)
    ]
    return ("\n".join(lines) + "\n").encode()


def test_a_large_import_shows_its_progress_then_its_summary(new_page, services, artifacts):
    project = Project.objects.create(name="Large import", hierarchy=True)
    content = large_scico_file()
    assert len(content) > settings.IMPORT_ASYNC_BYTES  # the server's default: 1 MB
    page = new_page(AdminFactory())
    page.goto(f"/manage/projects/{project.pk}/topics")
    form = page.locator("form.import-form")
    upload = {"name": "large.jsonl", "mimeType": "application/json", "buffer": content}
    form.get_by_label("File", exact=True).set_input_files(files=[upload])
    form.get_by_role("button", name="Import").click()

    # No worker yet: the job waits, and the page says so.
    progress = page.locator("[data-import-progress]")
    expect(progress).to_contain_text("waiting for a worker")
    page.screenshot(path=str(artifacts / "admin-import-job-waiting.png"), full_page=True)
    worker = Worker(
        database_url=services.postgres.url(connection.settings_dict["NAME"]),
        redis_url=services.redis_url,
        secret_key=settings.SECRET_KEY,
        queues="default",
        name="default-e2e",
    )
    try:
        worker.wait_ready()
        done = page.get_by_role("status").filter(has_text="Imported 20 topics")
        expect(done).to_be_visible(timeout=120_000)
    finally:
        worker.stop()

    expect(progress).to_have_count(0)
    assert Topic.objects.filter(project=project).count() == 20
    assert page.errors == []


def is_job_look(request) -> bool:
    return re.search(r"/api/import-jobs/\d+/", request.url) is not None


@pytest.fixture
def purge_default_queue():
    """The job queued here has no worker: its message must not reach a later test's worker."""
    yield
    from corefapp.celery import app

    with app.connection_for_write() as channel_connection:
        channel_connection.default_channel.queue_purge("default")


def test_leaving_the_import_page_stops_looking_at_its_job(new_page, purge_default_queue):
    project = Project.objects.create(name="Import left behind", hierarchy=True)
    page = new_page(AdminFactory())
    looks = []
    page.on("request", lambda request: looks.append(request.url) if is_job_look(request) else None)
    page.goto(f"/manage/projects/{project.pk}/topics")
    form = page.locator("form.import-form")
    upload = {"name": "large.jsonl", "mimeType": "application/json", "buffer": large_scico_file()}
    form.get_by_label("File", exact=True).set_input_files(files=[upload])

    # No worker: the job stays queued, so the page keeps looking at it while it is shown.
    with page.expect_request(is_job_look, timeout=30_000):
        form.get_by_role("button", name="Import").click()
    expect(page.locator("[data-import-progress]")).to_contain_text("waiting for a worker")

    # Leave within the app (the router unmounts the form; the tab and its timers live on),
    # and wait for the next page's own request: from here the form is gone.
    with page.expect_response(lambda response: response.url.endswith("/api/projects/")):
        page.get_by_role("navigation", name="Manage").get_by_role("link", name="Projects").click()
    expect(page).to_have_url(re.compile(r"/manage/?$"))
    seen = len(looks)

    # The form looked every 500 ms before this fix, for ever: a look at the job within six of
    # those intervals fails the test at once. Waiting for the request itself (not sleeping)
    # ends the test early on the old code; on the fixed one the window is the bound.
    try:
        late = page.wait_for_event("request", predicate=is_job_look, timeout=3_000)
    except PlaywrightTimeoutError:
        late = None
    assert late is None, f"the import page still looked at its job after it was left: {late.url}"
    assert len(looks) == seen
    assert page.errors == []
