"""A large upload in the browser: the import page shows the job's progress while the worker
has not taken it yet, then the summary once a real Celery worker has imported it."""

from __future__ import annotations

import json

from django.conf import settings
from django.db import connection
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
