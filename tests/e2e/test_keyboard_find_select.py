"""The keyboard of a whole campaign: Ctrl+Enter submits (asking first, as Submit… does); a
selection starts at a Find match (Ctrl+F, then Alt+Enter) and moves by word, sentence or
line, so a word deep in a raw snippet is a few keys away rather than 71 presses of →; one
Escape cancels a pending anaphor although its message is shown. Screenshots in
test-artifacts/keys-*.png."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from annotation.models import Assignment, Project
from tests.e2e.data import apply_ops, chemu_demo_topic, mention_ids, topic_from_data
from tests.e2e.network import requests_to
from tests.e2e.workspace import annotation, open_workspace, press, wait_saved
from tests.factories import UserFactory, assign, make_topic

SELECTED = "window.getSelection().toString()"
SELECTION_BOX = """() => {
  const r = window.getSelection().getRangeAt(0).getClientRects()[0];
  return { top: r.top, left: r.left };
}"""


def chemu_page(new_page, **flags) -> tuple[Page, object, list[int]]:
    project = Project.objects.create(name="Snippets", hierarchy=False, anaphora=True, **flags)
    topic = topic_from_data(project, chemu_demo_topic(2))
    user = UserFactory()
    assignment, stored = assign(topic, user)
    return open_workspace(new_page(user), assignment.pk), stored, mention_ids(topic)


def test_ctrl_enter_submits_after_asking_and_the_help_lists_it(new_page, artifacts):
    project = Project.objects.create(name="Submit key", hierarchy=True)
    topic = make_topic(project)
    user = UserFactory()
    assignment, stored = assign(topic, user)
    apply_ops(
        stored, user, [{"op": "assign", "mention": m, "cluster": None} for m in mention_ids(topic)]
    )
    page = open_workspace(new_page(user), assignment.pk)

    press(page, "?")
    help = page.get_by_role("dialog", name="Keyboard shortcuts")
    row = help.locator("dt", has=page.locator("kbd", has_text=re.compile("^Ctrl\\+Enter$")))
    expect(row.first).to_be_visible()
    expect(help).to_contain_text("Submit the topic (asks first")
    press(page, "Escape")
    expect(help).to_be_hidden()

    submits = requests_to(page, "/submit/")
    press(page, "Control+Enter")
    dialog = page.get_by_role("dialog", name="Submit this topic?")
    expect(dialog).to_be_visible()
    page.screenshot(path=str(artifacts / "keys-1-submit-asks.png"))
    assert submits == []  # it asks first
    press(page, "Escape")
    expect(dialog).to_be_hidden()
    assert Assignment.objects.get(pk=assignment.pk).status != "submitted"

    press(page, "Control+Enter", "Control+Enter")
    expect(page.locator(".badge", has_text="submitted · read-only")).to_be_visible()
    assert Assignment.objects.get(pk=assignment.pk).status == "submitted"
    assert len(submits) == 1
    assert page.errors == []


def test_a_selection_starts_at_a_find_match_and_moves_by_word_sentence_and_line(
    new_page, artifacts
):
    page, stored, _ = chemu_page(new_page, allow_add_mentions=True)
    url = page.url

    # "filtration" is token 92 of the first snippet: found, then selected, in a few keys.
    press(page, "Control+f")
    page.get_by_label("Find in the documents' text").fill("filtration")
    expect(page.get_by_test_id("find-select-hint")).to_be_visible()
    press(page, "Alt+Enter")
    expect(page.get_by_test_id("find-bar")).to_have_count(0)
    expect(page.get_by_role("toolbar", name="Selected text")).to_be_visible()
    assert page.evaluate(SELECTED) == "filtration"
    press(page, "Shift+ArrowLeft")  # by word: its end takes "by" in
    assert page.evaluate(SELECTED) == "by filtration"
    page.screenshot(path=str(artifacts / "keys-2-from-find.png"))
    press(page, "Enter")
    wait_saved(page)
    added = [m for m in annotation(page, stored.pk)["mentions"] if m["added"]]
    assert [m["spans"] for m in added] == [[[91, 92]]]

    # By sentence: from "reaction" (65) back to its sentence's start, then its end taken in.
    press(page, "Control+f")
    page.get_by_label("Find in the documents' text").fill("reaction mixture was concentrated")
    press(page, "Alt+Enter")
    assert page.evaluate(SELECTED) == "reaction mixture was concentrated"
    press(page, "Alt+ArrowLeft")
    assert page.evaluate(SELECTED) == "The"
    assert page.url == url  # Alt+← moved the selection, the browser did not go back
    press(page, "Alt+Shift+ArrowRight")
    text = page.evaluate(SELECTED)
    assert text.startswith("The reaction mixture"), text
    assert text.endswith("hydrochloric acid."), text
    press(page, "Alt+ArrowRight")
    assert page.evaluate(SELECTED) == "The"  # the next sentence's first word (86)
    press(page, "Control+ArrowRight")  # as in an editor: one word
    assert page.evaluate(SELECTED) == "resulting"

    # By line: the word below, drawn one line lower; Shift+↓ takes the line in.
    before = page.evaluate(SELECTION_BOX)
    press(page, "ArrowUp")
    above = page.evaluate(SELECTION_BOX)
    assert above["top"] < before["top"] - 5, (before, above)
    assert abs(above["left"] - before["left"]) < 120, (before, above)
    press(page, "Shift+ArrowDown")
    assert len(page.evaluate(SELECTED).split()) > 3
    page.screenshot(path=str(artifacts / "keys-3-by-line.png"))
    press(page, "Escape")
    expect(page.get_by_role("toolbar", name="Selected text")).to_have_count(0)
    assert page.errors == []


def test_one_escape_cancels_a_pending_anaphor_while_its_message_shows(new_page, artifacts):
    page, _, ids = chemu_page(new_page)
    current = page.locator(".m.is-current").first
    press(page, "a")
    expect(page.locator(".m.is-anaphor")).to_have_count(1)
    message = page.locator(".notice-status", has_text="go to its antecedent")
    expect(message).to_be_visible()
    expect(message).to_contain_text("Esc cancels")
    page.screenshot(path=str(artifacts / "keys-4-anaphor-pending.png"))

    press(page, "Escape")
    expect(page.locator(".m.is-anaphor")).to_have_count(0)
    expect(page.locator(".notice-status", has_text="No anaphor selected.")).to_be_visible()
    expect(message).to_have_count(0)
    expect(current).to_have_attribute("data-mention", str(ids[0]))
    # And a link key now says how to start one rather than linking.
    press(page, "j", "1")
    expect(page.locator(".notice-status", has_text="Press A on the anaphor first")).to_be_visible()
    assert page.errors == []
