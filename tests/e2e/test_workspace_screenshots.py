"""Screenshots of the workspace, the submit dialog and the review view at 1400x900 and
1024x768, saved to test-artifacts/ to look at; the checks are what must hold at both sizes:
the cluster bank shows a useful number of rows and the selection toolbar stays off the side
panels."""

import pytest
from playwright.sync_api import expect

from annotation.models import Project
from tests.e2e.data import (
    apply_gold,
    chemu_demo_topic,
    mention_ids,
    scico_demo_topic,
    topic_from_data,
)
from tests.e2e.workspace import open_workspace, press
from tests.factories import AdminFactory, UserFactory, assign

SIZES = [(1400, 900), (1024, 768)]


def box(page, selector):
    return page.locator(selector).first.bounding_box()


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_the_workspace_submit_dialog_and_review_view(new_page, artifacts, width, height):
    data = scico_demo_topic(0)
    project = Project.objects.create(name="SciCo demo", hierarchy=True)
    topic = topic_from_data(project, data)
    user = UserFactory(username="annotator1")
    assignment, stored = assign(topic, user)
    ids = mention_ids(topic)
    apply_gold(stored, user, data, ids, links=False)
    page = new_page(user)
    page.set_viewport_size({"width": width, "height": height})
    open_workspace(page, assignment.pk)
    press(page, "j", "j", "j")
    page.locator(".m.is-current").first.click()
    size = f"{width}x{height}"
    page.screenshot(path=str(artifacts / f"workspace-{size}.png"))

    rows = page.locator("#cluster-bank .bank-row")
    assert rows.count() >= 6, f"the bank shows {rows.count()} rows at {size}"
    before = box(page, "#cluster-bank")["height"]
    splitter = page.get_by_role("separator", name="Resize the cluster bank")
    splitter.focus()
    press(page, "ArrowDown", "ArrowDown", "ArrowDown")
    assert box(page, "#cluster-bank")["height"] > before + 40
    page.screenshot(path=str(artifacts / f"workspace-bank-taller-{size}.png"))
    splitter.focus()
    press(page, "ArrowUp", "ArrowUp", "ArrowUp")
    page.evaluate("localStorage.clear()")

    page.get_by_role("button", name="Submit").click()
    expect(page.get_by_role("dialog", name="Submit this topic?")).to_be_visible()
    page.screenshot(path=str(artifacts / f"submit-dialog-{size}.png"))
    press(page, "Escape")

    admin = new_page(AdminFactory())
    admin.set_viewport_size({"width": width, "height": height})
    admin.goto(f"/review/annotations/{stored.pk}")
    admin.wait_for_selector("html[data-workspace-ready='true']")
    expect(admin.get_by_test_id("review-banner")).to_be_visible()
    admin.screenshot(path=str(artifacts / f"review-{size}.png"))
    assert page.errors == []
    assert admin.errors == []


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_the_selection_toolbar_stays_off_the_links_panel(new_page, artifacts, width, height):
    project = Project.objects.create(
        name="ChEMU demo",
        hierarchy=False,
        anaphora=True,
        allow_add_mentions=True,
        allow_fix_spans=True,
    )
    topic = topic_from_data(project, chemu_demo_topic(2))
    user = UserFactory()
    assignment, _ = assign(topic, user)
    page = new_page(user)
    page.set_viewport_size({"width": width, "height": height})
    open_workspace(page, assignment.pk)
    # Select the last words of a line, at the right edge of the documents' column.
    text = page.locator(".doc-text").first
    end = text.locator("[data-t]").last
    end.scroll_into_view_if_needed()
    target = end.bounding_box()
    page.mouse.move(target["x"] + target["width"] - 2, target["y"] + target["height"] / 2)
    page.mouse.down()
    page.mouse.move(target["x"] - 40, target["y"] + target["height"] / 2)
    page.mouse.up()
    toolbar = page.get_by_role("toolbar", name="Selected text")
    expect(toolbar).to_be_visible()
    page.screenshot(path=str(artifacts / f"selection-toolbar-{width}x{height}.png"))
    panel = box(page, ".anaphora-panel")
    bar = toolbar.bounding_box()
    assert bar["x"] + bar["width"] <= panel["x"] + 1, (bar, panel)
