"""axe-core (WCAG 2.2 AA and best practices) on every page and workspace state: no serious or
critical violation anywhere. The counts per page go to test-artifacts/axe-counts.json
(docs/accessibility.md has the table). axe is evaluated through the DevTools protocol
(tests/e2e/axe.py), so every page is checked under the strict policy the server sends."""

from __future__ import annotations

import json

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from adjudication.services.adjudications import create_adjudication
from annotation.models import Project
from modelserve.models import Suggestion, SuggestionRun
from onboarding.services.practice import practice_import
from tests.e2e.axe import Violation, axe_violations, blocking
from tests.e2e.data import (
    annotate_and_submit,
    apply_ops,
    chemu_demo_topic,
    mention_ids,
    topic_from_data,
)
from tests.e2e.workspace import open_workspace, press
from tests.factories import AdminFactory, UserFactory, assign, make_topic
from tests.onboarding.conftest import TUTORIAL
from tests.validation.validation_setup import validation_project, validation_topic

CLUSTERS = {"alice": [[0, 1, 2], [3, 4], [5, 6]], "bob": [[0, 1], [2, 3, 4], [5], [6]]}
ADMIN_PAGES = [
    "/manage",
    "/manage/users",
    "/manage/datasets",
    "/manage/corpora",
    "/manage/projects/new",
    "/manage/projects/import-archive",
    "/manage/annotations/{annotation}/history",
    "/manage/projects/{project}/progress",
    "/manage/projects/{project}/assignments",
    "/manage/projects/{project}/topics",
    "/manage/projects/{project}/export",
    "/manage/projects/{project}/agreement",
    "/manage/projects/{project}/agreement/diagnosis",
    "/manage/projects/{project}/statistics",
    "/manage/projects/{project}/suggestions",
    "/manage/projects/{project}/models",
    "/manage/projects/{project}/onboarding",
    "/manage/projects/{project}/settings",
]


class Report:
    """Violations by page, written to test-artifacts/axe-<name>.json whatever the outcome."""

    def __init__(self, artifacts, name: str):
        self.path = artifacts / f"axe-{name}.json"
        self.found: dict[str, list[Violation]] = {}

    def check(self, page: Page, name: str) -> None:
        page.wait_for_load_state("networkidle")
        self.found[name] = axe_violations(page)
        counts = {
            page_name: {
                impact: sum(v.nodes for v in found if v.impact == impact)
                for impact in ("critical", "serious", "moderate", "minor")
            }
            | {"rules": sorted(str(v) for v in found)}
            for page_name, found in self.found.items()
        }
        self.path.write_text(json.dumps(counts, indent=1))

    def assert_clean(self) -> None:
        failing = {name: blocking(found) for name, found in self.found.items()}
        failing = {name: found for name, found in failing.items() if found}
        assert failing == {}, "\n".join(
            f"{name}: {v}" for name, found in failing.items() for v in found
        )


def accessible_project():
    project = Project.objects.create(name="Accessible clusters", hierarchy=True)
    topic = make_topic(project, external_id="topic-a11y")
    for username, clusters in CLUSTERS.items():
        annotate_and_submit(topic, username, clusters)
    make_topic(project, external_id="topic-open")
    return project


pytestmark = pytest.mark.project(build=accessible_project)


def test_every_admin_page_has_no_serious_violation(new_page, project, artifacts):
    report = Report(artifacts, "admin")
    annotation = project.topics.get(external_id="topic-a11y").assignments.first().annotation
    page = new_page(AdminFactory())
    for path in ADMIN_PAGES:
        page.goto(path.format(project=project.pk, annotation=annotation.pk))
        expect(page.locator("h1, h2").first).to_be_visible()
        report.check(page, path.split("{project}/")[-1])
    report.assert_clean()


def _suggestions(topic) -> None:
    """A finished model run with a suggested cluster: the Suggestions panel has one to show."""
    ids = mention_ids(topic)
    run = SuggestionRun.objects.create(
        topic=topic, backend="minilm", status="succeeded", progress=1.0, finished_at=timezone.now()
    )
    cluster = Suggestion.objects.create(
        run=run, kind="cluster", position=0, score=0.8, payload={"mentions": ids[:2]}
    )
    for j, mention in enumerate(ids[:2]):
        Suggestion.objects.create(
            run=run,
            kind="membership",
            position=j,
            score=0.8,
            payload={"mention": mention, "cluster": cluster.pk},
        )


def test_every_annotator_page_and_workspace_state_has_no_serious_violation(
    new_page, project, artifacts
):
    report = Report(artifacts, "annotator")
    signed_out = new_page()
    signed_out.goto("/login")
    report.check(signed_out, "sign in")

    user = UserFactory(username="ann")
    topic = project.topics.get(external_id="topic-open")
    assignment, stored = assign(topic, user)
    ids = mention_ids(topic)
    (made,) = apply_ops(stored, user, [{"op": "assign", "mention": ids[0], "cluster": None}])
    apply_ops(
        stored, user, [{"op": "assign", "mention": ids[1], "cluster": made.created["cluster"]}]
    )
    _suggestions(topic)
    chemu = Project.objects.create(name="ChEMU a11y", anaphora=True, allow_add_mentions=True)
    chemu_assignment, _ = assign(topic_from_data(chemu, chemu_demo_topic(2)), user)
    validation, _ = assign(validation_topic(validation_project("Validate a11y")), user)
    onboarding = Project.objects.create(
        name="Onboarding a11y", hierarchy=True, guidelines="# Guidelines\n\nLink acronyms."
    )
    (practice,) = practice_import(project=onboarding, path=TUTORIAL)
    practice_assignment, _ = assign(practice.topic, user)

    page = new_page(user)
    page.goto("/")
    report.check(page, "my topics")
    page.goto("/no-such-page")
    report.check(page, "not found")

    open_workspace(page, assignment.pk)
    report.check(page, "clusters workspace")
    press(page, "j")
    expect(page.get_by_test_id("suggestions")).to_be_visible()
    report.check(page, "clusters: suggestions panel")
    press(page, "?")
    expect(page.get_by_role("dialog")).to_be_visible()
    report.check(page, "clusters: key help")
    press(page, "Escape")
    press(page, "Control+f")
    expect(page.get_by_role("searchbox", name="Find in the documents")).to_be_focused()
    report.check(page, "clusters: find bar")
    press(page, "Escape", "Control+Enter")
    expect(page.get_by_role("dialog", name="Submit this topic?")).to_be_visible()
    report.check(page, "clusters: submit dialog")
    press(page, "Escape")

    open_workspace(page, chemu_assignment.pk)
    report.check(page, "anaphora workspace")
    press(page, "a", "l")
    report.check(page, "anaphora: anaphor marked, all arcs")
    press(page, "Escape", "v")
    expect(page.get_by_role("toolbar", name="Selected text")).to_be_visible()
    press(page, "e")
    expect(
        page.get_by_role("dialog", name="Every occurrence of the selected words")
    ).to_be_visible()
    report.check(page, "anaphora: every occurrence dialog")
    press(page, "Escape")

    page.goto(f"/validate/annotations/{validation.annotation.pk}")
    page.locator("[data-current-mention]").wait_for()
    report.check(page, "validation")
    press(page, "x")
    expect(page.locator(".v-reasons")).to_be_visible()
    report.check(page, "validation: reasons")

    open_workspace(page, practice_assignment.pk)
    expect(page.get_by_test_id("guidelines")).to_be_visible()
    report.check(page, "onboarding: guidelines")
    press(page, "I")
    expect(page.get_by_test_id("tour")).to_be_visible()
    report.check(page, "onboarding: tour")

    judge = UserFactory(username="judge")
    adjudication = create_adjudication(
        topic=project.topics.get(external_id="topic-a11y"), user=judge
    )
    judging = new_page(judge)
    judging.goto(f"/annotate/{adjudication.pk}")
    judging.wait_for_selector("html[data-adjudication-ready='true']")
    report.check(judging, "adjudication")
    press(judging, "N")
    expect(judging.locator("[data-adjudication-item]")).to_be_visible()
    report.check(judging, "adjudication: a disagreement")

    admin = new_page(AdminFactory())
    annotation = project.topics.get(external_id="topic-a11y").assignments.first().annotation
    admin.goto(f"/review/annotations/{annotation.pk}")
    admin.wait_for_selector("html[data-workspace-ready='true']")
    report.check(admin, "review")
    report.assert_clean()
