"""The guided tour describes this workspace (its panels and keys, not
CoRefi's "+ at the bottom left", "black '?'" or "Reset button"), each step outlines the part
it names, the tour takes the focus, Enter moves on, Escape closes it, and it breaks no rule
of the Content-Security-Policy."""

from __future__ import annotations

from playwright.sync_api import expect

from annotation.models import Project
from onboarding.services.practice import practice_import
from tests.e2e.test_content_security_policy import violations, watched
from tests.e2e.workspace import open_workspace
from tests.factories import UserFactory, assign
from tests.onboarding.conftest import TUTORIAL

COREFI_SCREEN = ("bottom left", "black '?'", "Reset")


def test_the_tour_walks_this_screen_with_enter_and_closes_with_escape(new_page, artifacts):
    project = Project.objects.create(name="Tour", hierarchy=True)
    (practice,) = practice_import(project=project, path=TUTORIAL)
    user = UserFactory(username="toured")
    assignment, _ = assign(practice.topic, user)
    page = watched(new_page(user))
    open_workspace(page, assignment.pk)

    tour = page.get_by_test_id("tour")
    expect(tour).to_be_focused()
    expect(tour).to_have_attribute("data-step", "1")
    expect(tour).to_contain_text("Welcome")
    seen = {}
    total = int(tour.locator(".tour-head .muted").inner_text().split(" of ")[1])
    for step in range(1, total + 1):
        expect(tour).to_have_attribute("data-step", str(step))
        expect(tour).to_be_focused()
        target = tour.get_attribute("data-target")
        expect(page.locator(f"{target}.tour-target").first).to_be_visible()
        text = tour.inner_text()
        seen[target] = text
        for phrase in COREFI_SCREEN:
            assert phrase not in text, f"step {step} speaks of CoRefi's screen: {text}"
        if target == ".bank":
            page.screenshot(path=str(artifacts / "walk-tour-bank.png"))
        if step < total:
            page.keyboard.press("Enter")
    assert {".m.is-current", ".bank", ".tree-panel", ".ws-actions"} <= set(seen)
    assert "Ctrl+Space or Alt+Space" in "".join(seen.values())
    # The keys were the tour's: Enter moved the tour on, it did not change the annotation.
    expect(page.locator(".bank-row")).to_have_count(1)  # the tutorial's own starting cluster

    page.keyboard.press("Escape")
    expect(tour).to_be_hidden()
    expect(page.locator(".tour-target")).to_have_count(0)

    # Opened again from the practice bar: Enter on the last step closes it too.
    page.get_by_test_id("practice-bar").get_by_role("button", name="Tour").click()
    expect(tour).to_be_focused()
    for _ in range(total):
        page.keyboard.press("Enter")
    expect(tour).to_be_hidden()
    page.screenshot(path=str(artifacts / "walk-tour-closed.png"))
    assert violations(page) == []
