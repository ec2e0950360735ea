"""Releases and the admin's small fixes in the browser, one server, one browser and (for the
release tests) one real Celery worker for the module:

- the release bundle is built by the worker: the Datasets row shows the job waiting, its
  progress, then the Download link (or why it failed); the release dialog's choices go in;
- the smaller findings of the Datasets, Topics, Users, Import, My topics and sign-in pages.

Screenshots in test-artifacts/walk-release-*.png and walk-admin-*.png."""

from __future__ import annotations

import csv
import io
import json
import zipfile

import pytest
from django.core.files.storage import default_storage
from playwright.sync_api import expect

from annotation.models import Annotation, Assignment, Project, Topic
from annotation.services.assignments import assignment_create
from datasets.models import ReleaseJob
from datasets.selectors import release_name
from tests.factories import AdminFactory, UserFactory, assign, demo_project, signed_in
from tests.onboarding.conftest import mentions_by_text, tutorial_practice
from tests.onboarding.test_scored import annotate
from tests.paths import CHEMU_DEMO
from tests.workers import Worker, start_worker


class DefaultWorker:
    """The module's general worker (queue `default`): started when a test first asks for it,
    stopped when one needs none."""

    def __init__(self, services) -> None:
        self.services = services
        self.worker: Worker | None = None

    def start(self) -> Worker:
        if self.worker is None:
            self.worker = start_worker(self.services, queues="default", name="release-e2e")
        return self.worker

    def stop(self) -> None:
        if self.worker is not None:
            self.worker.stop()
            self.worker = None


@pytest.fixture(scope="module")
def workers(django_db_setup, services):
    lazy = DefaultWorker(services)
    try:
        yield lazy
    finally:
        lazy.stop()


@pytest.fixture
def default_worker(workers) -> Worker:
    return workers.start()


def test_the_release_is_built_by_the_worker_with_its_progress_then_downloaded(
    new_page, workers, tmp_path, artifacts
):
    # No worker to begin with, though an earlier test of the module started one (the
    # flaky-test run's second repeat found its release already running).
    workers.stop()
    project = demo_project("Release e2e", hierarchy=True)
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

        workers.start()
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
    project = demo_project("Release options e2e", hierarchy=True)
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
    project = demo_project("Release fails e2e", hierarchy=True)
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


def test_my_topics_shows_titles_marks_adjudication_and_spaces_the_next_topic(new_page, artifacts):
    project = demo_project("Walk my topics", hierarchy=True)
    first, second = project.topics.order_by("position")[:2]
    user = UserFactory(username="walker")
    assign(first, user)
    assignment_create(topic=second, user=user, role=Assignment.Role.ADJUDICATOR)
    page = new_page(user)
    page.goto("/")

    title = "Do Neural Sequence Labelers Still Need Structured Output Layers?"
    row = page.locator("tbody tr", has_text=first.external_id)
    expect(row.locator(".topic-title")).to_have_text(title)
    judged = page.locator("tbody tr", has_text=second.external_id)
    expect(judged.get_by_test_id("work-kind")).to_have_text("adjudication")
    expect(row.get_by_test_id("work-kind")).to_have_count(0)
    expect(judged.locator(".topic-title")).to_have_text(
        "Representation Learning on Graphs: A Survey"
    )
    # Its words as copied or read aloud (the DOM's text), not only spaced by the layout.
    next_line = " ".join((page.locator(".next-topic").text_content() or "").split())
    assert f"Next to do: {first.external_id} {title} (Walk my topics)" in next_line, next_line
    page.screenshot(path=str(artifacts / "walk-admin-my-topics.png"))
    assert page.errors == []


def test_the_users_form_says_why_create_is_disabled(new_page, artifacts):
    page = new_page(AdminFactory())
    page.goto("/manage/users")
    create = page.get_by_role("button", name="Create user")
    why = page.get_by_test_id("create-why")
    expect(create).to_be_disabled()
    expect(why).to_have_text("Type a username.")
    page.get_by_label("Username").fill("new person")
    expect(why).to_contain_text("only letters, digits and @ . + - _")
    page.get_by_label("Username").fill("newperson")
    expect(why).to_have_text("Type a password of at least 10 characters.")
    page.get_by_label("Password").fill("abcd")
    expect(why).to_have_text("The password needs 6 more characters (at least 10).")
    page.screenshot(path=str(artifacts / "walk-admin-users-why.png"))
    page.get_by_label("Password").fill("a long enough passphrase")
    expect(why).to_have_text("")
    expect(create).to_be_enabled()
    assert page.errors == []


def test_an_import_says_an_empty_file_is_empty_and_which_format_a_file_looks_like(
    new_page, artifacts
):
    project = Project.objects.create(name="Walk import", hierarchy=False, anaphora=True)
    page = new_page(AdminFactory())
    page.goto(f"/manage/projects/{project.pk}/topics")
    form = page.locator("form.import-form")
    form.get_by_label("Format").select_option("scico")
    empty = {"name": "empty.jsonl", "mimeType": "application/json", "buffer": b""}
    form.get_by_label("File", exact=True).set_input_files(files=[empty])
    form.get_by_role("button", name="Import", exact=True).click()
    expect(form.get_by_role("alert")).to_have_text("The file is empty: there is nothing to import.")

    chemu = {
        "name": "chemu_demo.jsonl",
        "mimeType": "application/json",
        "buffer": CHEMU_DEMO.read_bytes(),
    }
    form.get_by_label("File", exact=True).set_input_files(files=[chemu])
    form.get_by_role("button", name="Import", exact=True).click()
    hint = form.get_by_test_id("import-hint")
    expect(hint).to_contain_text("This file looks like ChEMU-Ref jsonlines")
    page.screenshot(path=str(artifacts / "walk-admin-import-hint.png"), full_page=True)
    assert not Topic.objects.filter(project=project).exists()

    hint.get_by_role("button", name="Import it as ChEMU-Ref (.jsonlines)").click()
    expect(page.get_by_role("status").filter(has_text="Imported")).to_be_visible()
    assert Topic.objects.filter(project=project).exists()
    assert page.errors == []


def test_the_topics_page_views_gold_renames_and_deletes_a_topic_nobody_worked_on(
    new_page, artifacts
):
    project = demo_project("Walk topics", hierarchy=True)
    first, worked, spare = project.topics.order_by("position")[:3]
    started = assign(worked, UserFactory())[1]
    Annotation.objects.filter(pk=started.pk).update(version=2)
    page = new_page(AdminFactory())
    page.goto(f"/manage/projects/{project.pk}/topics")

    page.get_by_role("button", name=f"Rename topic {first.external_id}").click()
    dialog = page.get_by_role("dialog", name=f"Rename topic {first.external_id}")
    dialog.get_by_label("New id").fill(worked.external_id)
    dialog.get_by_role("button", name="Rename").click()
    expect(page.get_by_role("alert")).to_contain_text(
        f"Another topic of this project is already called '{worked.external_id}'"
    )
    page.get_by_role("button", name=f"Rename topic {first.external_id}").click()
    dialog.get_by_label("New id").fill("sequence-labelling")
    dialog.get_by_role("button", name="Rename").click()
    expect(page.get_by_role("status").filter(has_text="Renamed")).to_have_text(
        f"Renamed topic {first.external_id} to sequence-labelling."
    )
    expect(page.locator("[data-topic='sequence-labelling']")).to_have_count(1)

    page.get_by_role("button", name=f"Delete topic {worked.external_id}").click()
    refused = page.get_by_role("dialog", name=f"Topic {worked.external_id} cannot be deleted")
    expect(refused.get_by_test_id("delete-refused")).to_contain_text(
        "It has work: 1 annotation with changes"
    )
    page.screenshot(path=str(artifacts / "walk-admin-topic-delete-refused.png"))
    refused.get_by_role("button", name="Close").click()
    assert Topic.objects.filter(pk=worked.pk).exists()

    page.get_by_role("button", name=f"Delete topic {spare.external_id}").click()
    confirm = page.get_by_role("dialog", name=f"Delete topic {spare.external_id}?")
    documents = spare.documents.count()
    expect(confirm.get_by_test_id("delete-loses")).to_contain_text(
        f"Deleted with it: {documents} documents"
    )
    expect(confirm.get_by_test_id("delete-loses")).to_contain_text("its gold")
    page.screenshot(path=str(artifacts / "walk-admin-topic-delete-confirm.png"))
    confirm.get_by_role("button", name="Delete topic").click()
    expect(page.get_by_role("status").filter(has_text="Deleted")).to_have_text(
        f"Deleted topic {spare.external_id}."
    )
    assert not Topic.objects.filter(pk=spare.pk).exists()
    expect(page.locator(f"[data-topic='{spare.external_id}']")).to_have_count(0)

    page.get_by_role("link", name="View the gold of topic sequence-labelling").click()
    expect(page.get_by_test_id("review-banner")).to_contain_text("sequence-labelling")
    page.screenshot(path=str(artifacts / "walk-admin-topic-gold.png"))
    assert page.errors == []


def test_the_onboarding_tab_downloads_every_attempt_as_csv(new_page, tmp_path):
    practice = tutorial_practice(mode="scored")
    project = practice.topic.project
    user = UserFactory(username="trainee")
    assignment, annotation = assign(practice.topic, user)
    client = signed_in(user)
    annotate(client, annotation.pk, mentions_by_text(practice.topic), right=True)
    assert client.post(f"/api/assignments/{assignment.pk}/submit/").status_code == 200
    page = new_page(AdminFactory())
    page.goto(f"/manage/projects/{project.pk}/onboarding")
    with page.expect_download() as download:
        page.get_by_test_id("attempts-csv").click()
    saved = tmp_path / download.value.suggested_filename
    download.value.save_as(saved)
    rows = list(csv.DictReader(io.StringIO(saved.read_text())))
    assert [(r["user"], r["attempt"], r["conll_f1"]) for r in rows] == [("trainee", "1", "1.0")]
    assert page.errors == []
