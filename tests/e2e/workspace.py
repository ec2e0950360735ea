"""What the browser tests do and read in the workspace page."""

from __future__ import annotations

from playwright.sync_api import Page, expect


def open_workspace(page: Page, assignment_id: int) -> Page:
    page.goto(f"/annotate/{assignment_id}")
    page.wait_for_selector("html[data-workspace-ready='true']")
    return page


def wait_saved(page: Page) -> None:
    expect(page.locator(".sync")).to_have_attribute("data-queued", "0")
    expect(page.locator(".sync-text")).to_have_text("All changes saved")


def current_mention(page: Page) -> int:
    return int(page.locator(".m.is-current").first.get_attribute("data-mention"))


def api(page: Page, path: str):
    response = page.request.get(path)
    assert response.ok, response.text()
    return response.json()


def annotation(page: Page, annotation_id: int) -> dict:
    return api(page, f"/api/annotations/{annotation_id}/")


def partition(annotation_json: dict) -> set[frozenset[int]]:
    return {frozenset(c["members"]) for c in annotation_json["clusters"]}


def edges_by_label(annotation_json: dict) -> set[tuple[str, str]]:
    labels = {c["id"]: c["label"] for c in annotation_json["clusters"]}
    return {(labels[p], labels[c]) for p, c in annotation_json["edges"]}


def press(page: Page, *keys: str) -> None:
    for key in keys:
        page.keyboard.press(key)


# The link list is virtual (only its rows on screen are in the page): scroll it down, as an
# annotator would, until the row is drawn (from the top again after the end).
_SCROLL_TO_ROW = """key => {
  if (document.querySelector(`.link-row[data-link='${key}']`)) return true;
  const list = document.querySelector('.link-list');
  if (!list) return false;
  const atEnd = list.scrollTop + list.clientHeight >= list.scrollHeight - 1;
  list.scrollTop = atEnd ? 0 : list.scrollTop + list.clientHeight / 2;
  return false;
}"""


def link_row(page: Page, key: str):
    """The link list's row of the link `type|anaphor|antecedent`, scrolled into the page."""
    page.wait_for_function(_SCROLL_TO_ROW, arg=key, polling=100)
    return page.locator(f".link-row[data-link='{key}']")
