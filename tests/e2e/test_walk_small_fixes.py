"""Small fixes in the browser, one server for all: a 200-character project name
without spaces keeps the project list inside the screen; F2 rename stops at the label's limit
and says in words why an empty name is not saved; a project that needs no qualification
shows nobody "not qualified" in red. Screenshots in
test-artifacts/walk-small-*.png."""

from __future__ import annotations

from playwright.sync_api import expect

from annotation.domain.operations.clusters import LABEL_MAX_CHARS
from annotation.models import Project
from modelserve.models import SuggestionSettings
from onboarding.services.practice import practice_import
from tests.e2e.workspace import open_workspace, press, wait_saved
from tests.factories import AdminFactory, UserFactory, assign, make_topic
from tests.onboarding.conftest import TUTORIAL


def test_a_long_project_name_without_spaces_keeps_the_list_on_screen(new_page, artifacts):
    Project.objects.create(name="x" * 200, hierarchy=True)
    Project.objects.create(name="Short one", hierarchy=True)
    page = new_page(AdminFactory())
    page.set_viewport_size({"width": 1024, "height": 768})
    page.goto("/manage")
    table = page.locator("table.projects-table")
    expect(table.locator("tbody tr")).to_have_count(2)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 1024, width
    box = table.bounding_box()
    assert box["x"] + box["width"] <= 1024, box
    page.screenshot(path=str(artifacts / "walk-small-long-project-name.png"), full_page=True)
    assert not page.errors


def test_rename_stops_at_the_limit_and_says_why_an_empty_name_is_not_saved(new_page, artifacts):
    project = Project.objects.create(name="Rename limits", hierarchy=True)
    user = UserFactory(username="namer")
    assignment, _ = assign(make_topic(project, external_id="names"), user)
    page = new_page(user)
    open_workspace(page, assignment.pk)
    press(page, "Control+Space")
    wait_saved(page)
    press(page, "F2")
    field = page.get_by_label("Cluster label")
    field.fill("y" * 5000)
    assert len(field.input_value()) == LABEL_MAX_CHARS
    field.fill("")
    press(page, "Enter")
    problem = page.get_by_test_id("rename-problem")
    expect(problem).to_contain_text("A cluster needs a name: type one, or press Esc to keep")
    expect(problem).not_to_contain_text("label:")
    expect(field).to_be_visible()  # the dialog stays, with what was typed
    page.screenshot(path=str(artifacts / "walk-small-rename-empty.png"))
    field.fill("z" * 300)
    press(page, "Enter")
    wait_saved(page)
    expect(page.locator(".bank-row").first).to_contain_text("z" * 20)
    assert page.errors == []


def test_a_project_that_needs_no_qualification_shows_nobody_not_qualified(new_page, artifacts):
    project = Project.objects.create(name="Practice only", hierarchy=True)
    (practice,) = practice_import(project=project, path=TUTORIAL, mode="scored")
    assign(practice.topic, UserFactory(username="free"))
    page = new_page(AdminFactory())
    page.goto(f"/manage/projects/{project.pk}/progress")
    row = page.get_by_test_id("qualification-summary").locator("li[data-user=free]")
    expect(row.get_by_test_id("qualification-state")).to_have_text("no qualification needed")
    expect(row).not_to_contain_text("not qualified")
    expect(row.get_by_role("button", name="Qualify")).to_have_count(0)
    page.screenshot(path=str(artifacts / "walk-small-no-qualification.png"), full_page=True)
    assert not page.errors


def test_a_new_anaphora_project_gets_the_chemu_backend(new_page, artifacts):
    page = new_page(AdminFactory())
    page.goto("/manage/projects/new")
    page.get_by_label("Name").fill("Anaphora 2024")
    backend = page.locator("#project-backend")
    expect(backend).not_to_have_value("")
    page.get_by_label("Anaphora: typed links").check()
    page.get_by_label("Hierarchy: clusters and parent").uncheck()
    expect(backend).to_have_value("chemu")
    page.screenshot(path=str(artifacts / "walk-small-anaphora-backend.png"), full_page=True)
    page.get_by_role("button", name="Create project").click()
    expect(page.get_by_role("heading", name="Anaphora 2024")).to_be_visible()
    project = Project.objects.get(name="Anaphora 2024")
    backend = SuggestionSettings.objects.get(project=project).backend
    assert (project.hierarchy, project.anaphora, backend) == (False, True, "chemu")
    assert not page.errors


def test_a_validation_project_has_its_scheme_badge(new_page, artifacts):
    project = Project.objects.create(name="Validation badge", hierarchy=False, validation=True)
    page = new_page(AdminFactory())
    page.goto("/manage")
    row = page.locator(f"tr[data-project='{project.pk}']")
    expect(row.locator(".chip")).to_have_text(["validation"])
    page.goto(f"/manage/projects/{project.pk}/progress")
    expect(page.locator(".chip-on", has_text="validation")).to_be_visible()
    page.screenshot(path=str(artifacts / "walk-small-validation-badge.png"))
    assert not page.errors
