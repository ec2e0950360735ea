"""Issue 24, items 4 and 9, the admin side in the browser, one server, one browser and (for the
release tests) one real Celery worker for the module:

- the release bundle is built by the worker: the Datasets row shows the job waiting, its
  progress, then the Download link (or why it failed); the release dialog's choices go in;
- the smaller findings of the Datasets, Topics, Users, Import, My topics and sign-in pages.

Screenshots in test-artifacts/walk-release-*.png and walk-admin-*.png."""

from __future__ import annotations

import json
import zipfile

import pytest
from django.conf import settings
from django.core.files.storage import default_storage
from django.db import connection
from playwright.sync_api import expect

from annotation.models import Project
from annotation.services.imports.topics import topics_import
from datasets.models import ReleaseJob
from datasets.selectors import release_name
from tests.factories import AdminFactory
from tests.paths import SCICO_DEMO
from tests.workers import Worker


@pytest.fixture(scope="module")
def default_worker(django_db_setup, services):
    """The general worker (queue `default`), started when a test first asks for it."""
    worker = Worker(
        database_url=services.postgres.url(connection.settings_dict["NAME"]),
        redis_url=services.redis_url,
        secret_key=settings.SECRET_KEY,
        queues="default",
        name="release-e2e",
    )
    try:
        worker.wait_ready()
        yield worker
    finally:
        worker.stop()


def scico_project(name: str) -> Project:
    project = Project.objects.create(name=name, hierarchy=True)
    topics_import(project=project, path=SCICO_DEMO, format="scico")
    return project


def test_the_release_is_built_by_the_worker_with_its_progress_then_downloaded(
    new_page, request, tmp_path, artifacts
):
    project = scico_project("Release e2e")
    page = new_page(AdminFactory())
    page.goto("/manage/datasets")
    row = page.locator(f"tr[data-project='{project.pk}']")
    try:
        row.get_by_role("button", name="Make release bundle").click()
        # Queued, not built in the request: with no worker yet the row says it waits.
        progress = row.locator("[data-release-progress]")
        expect(progress).to_contain_text("waiting for a worker")
        expect(progress.locator("progress")).to_be_visible()
        expect(row.get_by_role("button", name="Make release bundle")).to_have_count(0)
        page.screenshot(path=str(artifacts / "walk-release-waiting.png"))
        assert ReleaseJob.objects.get(project=project).status == "queued"

        request.getfixturevalue("default_worker")
        link = row.get_by_role("link", name="Download")
        expect(link).to_be_visible(timeout=60_000)
        expect(progress).to_have_count(0)
        page.screenshot(path=str(artifacts / "walk-release-built.png"))
        with page.expect_download() as download:
            link.click()
        saved = tmp_path / download.value.suggested_filename
        download.value.save_as(saved)

        assert saved.name == "Release e2e-release.zip"
        bundle = zipfile.ZipFile(saved)
        assert "DATASHEET.md" in bundle.namelist()
        released = [json.loads(line) for line in bundle.read("scico/all.jsonl").splitlines()]
        assert len(released) == project.topics.count()
        job = ReleaseJob.objects.get(project=project)
        assert (job.status, job.progress, job.attempts) == ("succeeded", 1.0, 1)

        # Back on the page later: the row shows the latest bundle's download at once.
        page.reload()
        expect(row.get_by_role("link", name="Download")).to_be_visible()
        assert page.errors == []
    finally:
        default_storage.delete(release_name(project))


def test_a_release_is_made_with_chosen_formats_source_and_names(
    new_page, default_worker, tmp_path, artifacts
):
    project = scico_project("Release options e2e")
    page = new_page(AdminFactory())
    page.goto("/manage/datasets")
    row = page.locator(f"tr[data-project='{project.pk}']")
    try:
        row.get_by_role("button", name="Options…").click()
        dialog = page.get_by_test_id("release-dialog")
        dialog.get_by_label("conll").uncheck()
        dialog.get_by_label("corefi").check()
        dialog.get_by_label("imported gold only").check()
        dialog.get_by_label("Name the annotators").check()
        page.screenshot(path=str(artifacts / "walk-release-options.png"))
        dialog.get_by_role("button", name="Make the bundle").click()
        expect(dialog).to_be_hidden()
        link = row.get_by_role("link", name="Download")
        expect(link).to_be_visible(timeout=60_000)
        with page.expect_download() as download:
            link.click()
        saved = tmp_path / download.value.suggested_filename
        download.value.save_as(saved)
        names = zipfile.ZipFile(saved).namelist()
        assert any(n.startswith("scico/") for n in names)
        assert any(n.startswith("corefi/") for n in names)
        assert not any(n.startswith("conll/") for n in names)
        job = ReleaseJob.objects.get(project=project)
        assert (job.formats, job.source, job.with_names) == (["scico", "corefi"], "gold", True)
        assert page.errors == []
    finally:
        default_storage.delete(release_name(project))


def test_a_failed_build_says_why_on_the_row(new_page, default_worker, artifacts):
    project = scico_project("Release fails e2e")
    first, second = project.topics.all()[:2]
    project.topics.filter(pk=first.pk).update(split="a/b")
    project.topics.filter(pk=second.pk).update(split="a_b")
    page = new_page(AdminFactory())
    page.goto("/manage/datasets")
    row = page.locator(f"tr[data-project='{project.pk}']")
    row.get_by_role("button", name="Make release bundle").click()
    alert = row.get_by_role("alert")
    expect(alert).to_contain_text("The bundle was not made", timeout=60_000)
    expect(alert).to_contain_text("'a/b' and 'a_b' would be written to the same file")
    page.screenshot(path=str(artifacts / "walk-release-failed.png"))
    expect(row.get_by_role("link", name="Download")).to_have_count(0)
    assert page.errors == []
