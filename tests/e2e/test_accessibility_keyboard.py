"""The workspace for keyboard and screen-reader users: the text is reachable by Tab, mentions
are named buttons, a silent key is said in the live region, dialogs take the focus, keep Tab
inside and give it back (in the workspace to the text, not to the button that opened them),
and the accessibility tree a screen reader browses has the page's parts
(test-artifacts/a11y-tree-workspace.yaml; docs/accessibility.md says what it lacks)."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from annotation.models import Project
from tests.e2e.data import apply_ops, mention_ids
from tests.e2e.workspace import open_workspace, press, wait_saved
from tests.factories import AdminFactory, UserFactory, assign, make_topic

FOCUS = """() => {
  const el = document.activeElement;
  if (!el || el === document.body) return "body";
  if (el.closest("[role=dialog], dialog")) return "dialog";
  if (el.matches("[data-focus-return]")) return "text";
  return `${el.tagName.toLowerCase()} ${(el.textContent || "").trim().slice(0, 30)}`;
}"""


def focus(page: Page) -> str:
    return page.evaluate(FOCUS)


def stays_in_dialog(page: Page, presses: int = 12) -> None:
    for key in ["Tab"] * presses + ["Shift+Tab"] * presses:
        page.keyboard.press(key)
        assert focus(page) == "dialog", key


def test_a_keyboard_and_screen_reader_user_works_in_the_workspace(new_page, artifacts):
    project = Project.objects.create(name="Keyboard a11y", hierarchy=True)
    topic = make_topic(project, external_id="topic-keys")
    user = UserFactory()
    assignment, stored = assign(topic, user)
    ids = mention_ids(topic)
    (made,) = apply_ops(stored, user, [{"op": "assign", "mention": ids[0], "cluster": None}])
    page = open_workspace(new_page(user), assignment.pk)

    # Tab reaches the documents' text (a scroller of its own).
    for _ in range(30):
        page.keyboard.press("Tab")
        if focus(page) == "text":
            break
    assert focus(page) == "text"

    # Every mention is a button named by its text and where it is.
    mentions = page.get_by_role("button", name=re.compile(r"^mention "))
    expect(mentions).to_have_count(len(ids))
    first = page.locator(f".m[data-mention='{ids[0]}']")
    label = stored.clusters.get(pk=made.created["cluster"]).label
    expect(first).to_have_accessible_name(f"mention CRF tagger, in cluster {label}")
    expect(page.locator(f".m[data-mention='{ids[1]}']")).to_have_accessible_name(
        re.compile(r"^mention .+, in no cluster yet$")
    )

    # Keys that change only colours or save quietly are said in the live region.
    announcer = page.get_by_test_id("announcer")
    press(page, "j", "ArrowRight")
    expect(announcer).to_have_text(re.compile(rf"^Selected .{label}., 1 mention\."))
    press(page, "Space")
    wait_saved(page)
    expect(announcer).to_have_text(re.compile(rf"^Done: assign .+ to .{label}.\."))
    press(page, "c")
    expect(announcer).to_have_text(f'Collapsed "{label}" in the hierarchy.')
    press(page, "c")
    expect(announcer).to_have_text(f'Expanded "{label}" in the hierarchy.')

    # Dialogs: opened by key or by the Submit… button, closed, the focus goes to the text
    # (SPACE on the Submit… button would open it again).
    for open_it in (lambda: press(page, "Control+Enter"), lambda: press(page, "?")):
        open_it()
        expect(page.get_by_role("dialog")).to_be_visible()
        assert focus(page) == "dialog"
        stays_in_dialog(page)
        press(page, "Escape")
        expect(page.get_by_role("dialog")).to_have_count(0)
        assert focus(page) == "text"
    page.get_by_role("button", name="Submit…").focus()
    press(page, "Enter")
    expect(page.get_by_role("dialog", name="Submit this topic?")).to_be_visible()
    press(page, "Escape")
    assert focus(page) == "text"

    # What a screen reader's browse mode reads: the page's h1, one main, the named mentions.
    tree = page.locator("body").aria_snapshot()
    (artifacts / "a11y-tree-workspace.yaml").write_text(tree)
    assert re.search(r'heading "topic-keys Keyboard a11y" \[level=1\]', tree), tree
    assert tree.count("- main") == 1, tree
    assert f'button "mention CRF tagger, in cluster {label}"' in tree, tree
    assert 'group "Documents\' text"' in tree, tree


def test_admin_dialogs_take_the_focus_and_give_it_back_to_their_opener(new_page):
    Project.objects.create(name="Dialog focus", hierarchy=True)
    UserFactory(username="newbie")
    page = new_page(AdminFactory())

    page.goto("/manage/users")
    opener = page.locator("tr[data-user='newbie']").get_by_role("button", name="Reset password…")
    opener.click()
    expect(page.get_by_role("dialog")).to_be_visible()
    assert focus(page) == "dialog"
    stays_in_dialog(page, 6)
    press(page, "Escape")
    expect(page.get_by_role("dialog")).to_have_count(0)
    expect(opener).to_be_focused()

    page.goto("/manage/datasets")
    opener = page.get_by_role("button", name="Options…").first
    opener.click()
    expect(page.get_by_test_id("release-dialog")).to_be_visible()
    assert focus(page) == "dialog"
    stays_in_dialog(page)
    press(page, "Escape")
    expect(page.get_by_test_id("release-dialog")).to_have_count(0)
    expect(opener).to_be_focused()
