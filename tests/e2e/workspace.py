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
