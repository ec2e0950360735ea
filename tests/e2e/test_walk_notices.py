"""Messages do not bury the text. Four refusals at 1024x768 make one counted
notice, not a pile; none covers the current mention; Escape closes them; the guided "Not
done" notice goes once the right answer is applied; a refusal expires by itself.
Screenshots in test-artifacts/walk-notices-*.png."""

from __future__ import annotations

from playwright.sync_api import expect

from annotation.models import Project
from onboarding.services.practice import practice_import
from tests.e2e.workspace import open_workspace, press, wait_saved
from tests.factories import UserFactory, assign
from tests.onboarding.conftest import TUTORIAL

COVERS = """() => {
  const a = document.querySelector('[data-testid=notices]').getBoundingClientRect();
  const b = document.querySelector('.m.is-current').getBoundingClientRect();
  return a.height > 0 && a.left < b.right && b.left < a.right
    && a.top < b.bottom && b.top < a.bottom;
}"""


def test_refusal_notices_collapse_never_cover_the_mention_and_close(new_page, artifacts):
    project = Project.objects.create(name="Quiet notices", hierarchy=True)
    (practice,) = practice_import(project=project, path=TUTORIAL)
    user = UserFactory(username="reader")
    assignment, _ = assign(practice.topic, user)
    page = new_page(user)
    page.set_viewport_size({"width": 1024, "height": 768})
    open_workspace(page, assignment.pk)
    page.get_by_test_id("tour").locator(".tour-skip").click()
    expect(page.get_by_test_id("tour")).to_be_hidden()

    # Four wrong decisions (CNN's cluster for Text Classification): one notice, counted.
    alerts = page.locator(".notice-alert")
    for n in range(1, 5):
        press(page, "Space")
        expect(alerts.first).to_contain_text("Text classification should be a new cluster")
        if n > 1:
            expect(alerts.first).to_contain_text(f"×{n}")
    assert alerts.count() <= 2
    assert page.evaluate(COVERS) is False
    page.screenshot(path=str(artifacts / "walk-notices-1-four-refusals.png"))

    # Escape closes them.
    press(page, "Escape")
    expect(page.locator(".notice")).to_have_count(0)

    # Wrong, then right: the "Not done" notice goes with the right answer.
    press(page, "Space")
    expect(alerts).to_have_count(1)
    press(page, "Control+Space")
    wait_saved(page)
    expect(page.locator(".notice-status").last).to_contain_text("Great!")
    expect(alerts).to_have_count(0)
    page.screenshot(path=str(artifacts / "walk-notices-2-right-answer.png"))

    # A short pane: the notices move off the current mention rather than cover it.
    page.set_viewport_size({"width": 1024, "height": 420})
    press(page, "Space")
    press(page, "Space")
    # Collapsed (no edge is free) it shows the newest alert alone, and two can stand (above).
    expect(alerts.last).to_be_visible()
    # NoticeArea re-places itself every 250 ms: wait for the placement, not for a fixed time.
    page.wait_for_function(f"() => !({COVERS})()", timeout=5_000)
    page.screenshot(path=str(artifacts / "walk-notices-3-short-pane.png"))

    # Not sticky: a refusal goes by itself (12 s).
    expect(alerts).to_have_count(0, timeout=16_000)
    assert page.errors == []
