"""In the browser: on a practice topic there is no Suggest (Shift+S says why), and
an admin turns suggestions off for a project's real topics in its settings. Screenshots in
test-artifacts/walk-suggest-*.png."""

from __future__ import annotations

from playwright.sync_api import expect

from annotation.models import Project
from modelserve.models import SuggestionRun
from onboarding.services.practice import practice_import
from tests.e2e.workspace import open_workspace, press
from tests.factories import AdminFactory, UserFactory, assign, make_topic
from tests.onboarding.conftest import TUTORIAL


def test_no_suggest_on_practice_and_a_project_setting_turns_it_off(new_page, artifacts):
    project = Project.objects.create(name="No model help", hierarchy=True)
    (practice,) = practice_import(project=project, path=TUTORIAL, mode="scored")
    real = make_topic(project, external_id="real-work")
    user = UserFactory(username="honest")
    practice_assignment, _ = assign(practice.topic, user)
    real_assignment, _ = assign(real, user)

    page = new_page(user)
    open_workspace(page, practice_assignment.pk)
    panel = page.get_by_test_id("suggestions")
    expect(panel.get_by_test_id("suggestions-off")).to_contain_text(
        "Suggestions are off on practice topics"
    )
    expect(panel.get_by_role("button", name="Suggest")).to_have_count(0)
    press(page, "Shift+S")
    expect(page.locator(".notice-status").last).to_contain_text("off on practice topics")
    page.screenshot(path=str(artifacts / "walk-suggest-1-practice-no-suggest.png"))
    assert not SuggestionRun.objects.exists()

    # The real topic has Suggest, until an admin turns suggestions off for the project.
    open_workspace(page, real_assignment.pk)
    expect(page.get_by_test_id("suggestions").get_by_role("button", name="Suggest")).to_be_visible()
    admin = new_page(AdminFactory(username="measurer"))
    admin.goto(f"/manage/projects/{project.pk}/settings")
    admin.get_by_label("ask the model for suggestions").uncheck()
    admin.get_by_role("button", name="Save changes").click()
    # The page's own word that the save is through, not any status line it shows.
    expect(admin.get_by_role("status").filter(has_text="Saved.")).to_be_visible()
    admin.screenshot(path=str(artifacts / "walk-suggest-2-project-setting.png"), full_page=True)
    project.refresh_from_db()
    assert project.suggestions is False

    open_workspace(page, real_assignment.pk)
    panel = page.get_by_test_id("suggestions")
    expect(panel.get_by_test_id("suggestions-off")).to_contain_text(
        "Suggestions are off in this project"
    )
    expect(panel.get_by_role("button", name="Suggest")).to_have_count(0)
    page.screenshot(path=str(artifacts / "walk-suggest-3-project-off.png"))
    assert not SuggestionRun.objects.exists()
    assert page.errors == []
    assert admin.errors == []
