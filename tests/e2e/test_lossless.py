"""Nothing is lost: undo/redo across reloads, resume after reload, two tabs in sync, a
conflict reported, edits queued while the server is unreachable."""

import re

from playwright.sync_api import expect

from annotation.models import Annotation, Project
from tests.e2e.data import apply_ops, mention_ids
from tests.e2e.workspace import (
    annotation,
    current_mention,
    open_workspace,
    partition,
    press,
    wait_saved,
)
from tests.factories import UserFactory, assign, make_topic

ASSIGNED = re.compile(r"\bis-assigned\b")


def setup(new_page):
    project = Project.objects.create(name="Lossless", hierarchy=True)
    topic = make_topic(project)
    user = UserFactory()
    assignment, stored = assign(topic, user)
    page = open_workspace(new_page(user), assignment.pk)
    return page, user, assignment, stored, mention_ids(topic)


def test_undo_and_redo_go_back_and_forth_across_a_reload(new_page):
    page, _, _, stored, m = setup(new_page)
    press(page, "Control+Space", "Space", "Control+Space")
    wait_saved(page)
    assert partition(annotation(page, stored.pk)) == {frozenset(m[:2]), frozenset([m[2]])}

    press(page, "Control+z")
    wait_saved(page)
    assert partition(annotation(page, stored.pk)) == {frozenset(m[:2])}
    expect(page.locator(f".m[data-mention='{m[2]}']")).not_to_have_class(ASSIGNED)

    page.reload()
    page.wait_for_selector("html[data-workspace-ready='true']")
    press(page, "Control+z")
    wait_saved(page)
    assert partition(annotation(page, stored.pk)) == {frozenset([m[0]])}
    expect(page.locator(f".m[data-mention='{m[1]}']")).not_to_have_class(ASSIGNED)

    press(page, "Control+Shift+z", "Control+Shift+z")
    wait_saved(page)
    assert partition(annotation(page, stored.pk)) == {frozenset(m[:2]), frozenset([m[2]])}
    expect(page.locator(f".m[data-mention='{m[2]}']")).to_have_class(ASSIGNED)
    press(page, "Control+Shift+z")
    expect(page.get_by_role("status").filter(has_text="nothing to redo")).to_be_visible()
    expect(page.get_by_role("button", name="Redo")).to_be_disabled()


def test_a_reload_resumes_at_the_current_mention(new_page):
    page, _, _, stored, m = setup(new_page)
    # The page sends its cursor a while after the last move: wait for that answer.
    with page.expect_response(
        lambda r: "/cursor/" in r.url and r.request.post_data_json == {"mention": m[4]}
    ) as saved:
        press(page, "j", "j", "j", "j")
        assert current_mention(page) == m[4]
    assert saved.value.ok
    assert Annotation.objects.get(pk=stored.pk).cursor == m[4]
    page.reload()
    page.wait_for_selector("html[data-workspace-ready='true']")
    assert current_mention(page) == m[4]
    expect(page.get_by_test_id("mention-progress")).to_have_text("mention 5 of 7")


def test_without_a_cursor_the_workspace_starts_at_the_first_mention_to_do(new_page):
    project = Project.objects.create(name="Lossless", hierarchy=True)
    topic = make_topic(project)
    user = UserFactory()
    assignment, stored = assign(topic, user)
    m = mention_ids(topic)
    apply_ops(
        stored,
        user,
        [
            {"op": "assign", "mention": m[0], "cluster": None},
            {"op": "assign", "mention": m[1], "cluster": None},
        ],
    )
    page = open_workspace(new_page(user), assignment.pk)
    assert current_mention(page) == m[2]


def test_two_tabs_of_one_annotation_stay_in_sync(new_page):
    page, _, assignment, stored, m = setup(new_page)
    other = open_workspace(new_page(context=page.context), assignment.pk)

    press(page, "Control+Space")
    wait_saved(page)
    expect(other.locator(f".m[data-mention='{m[0]}']")).to_have_class(ASSIGNED)

    press(
        other, "j", "ArrowRight", "Space"
    )  # the other tab assigns m1 to the cluster it saw appear
    wait_saved(other)
    expect(page.locator(f".m[data-mention='{m[1]}']")).to_have_class(ASSIGNED)
    assert partition(annotation(page, stored.pk)) == {frozenset(m[:2])}
    expect(page.locator(".ws")).to_have_attribute("data-version", "2")
    expect(other.locator(".ws")).to_have_attribute("data-version", "2")
    assert page.errors == []
    assert other.errors == []


def test_a_conflict_reloads_the_state_and_reports_the_lost_edit(new_page, artifacts):
    page, user, _, stored, m = setup(new_page)
    # This tab hears nothing from the server's live updates, so it misses the next change.
    page.route_web_socket("**/ws/annotations/**", lambda ws: None)
    page.reload()
    page.wait_for_selector("html[data-workspace-ready='true']")
    apply_ops(stored, user, [{"op": "assign", "mention": m[3], "cluster": None}])

    press(page, "Control+Space")

    alert = page.get_by_role("alert")
    expect(alert).to_contain_text("changed elsewhere")
    expect(alert).to_contain_text("Not saved: assign")
    expect(page.locator(f".m[data-mention='{m[3]}']")).to_have_class(ASSIGNED)
    expect(page.locator(f".m[data-mention='{m[0]}']")).not_to_have_class(ASSIGNED)
    expect(page.locator(".m.is-current")).to_have_attribute(
        "data-mention", str(m[0])
    )  # back to the lost one
    assert partition(annotation(page, stored.pk)) == {frozenset([m[3]])}
    page.screenshot(path=str(artifacts / "workspace-conflict.png"))


def test_edits_made_while_the_server_is_unreachable_are_queued_and_sent_later(new_page, artifacts):
    page, _, _, stored, m = setup(new_page)
    page.route("**/api/annotations/*/operations/", lambda route: route.abort())

    # One key at a time, each edit seen in the queue before the next key: a CI run once ended
    # with 2 queued of 3 and nothing to tell which key's edit was missing (100 runs under load
    # here never did it again). Now a missing edit fails at its key, with what the page showed.
    for queued, key in enumerate(["Control+Space", "Space", "Control+Space"], start=1):
        press(page, key)
        expect_queued(page, queued, after=key, annotation_id=stored.pk)
    expect(page.locator(".sync-text")).to_contain_text("Server unreachable: 3 edits queued")
    assert annotation(page, stored.pk)["version"] == 0
    page.screenshot(path=str(artifacts / "workspace-offline.png"))

    page.unroute("**/api/annotations/*/operations/")
    # The queue retries by itself too (backoff up to 10 s), and once that retry is through the
    # button is gone: a Playwright click found it detached under load. Clicked in the page in
    # one step, it is either pressed or already not needed; both send the queued edits.
    page.evaluate(
        """() => [...document.querySelectorAll('.sync button')]
            .find((b) => b.textContent.trim() === 'Retry now')?.click()"""
    )
    wait_saved(page)
    assert partition(annotation(page, stored.pk)) == {frozenset(m[:2]), frozenset([m[2]])}


def expect_queued(page, queued: int, *, after: str, annotation_id: int) -> None:
    try:
        expect(page.locator(".sync")).to_have_attribute("data-queued", str(queued))
    except AssertionError as error:
        shown = page.evaluate(
            """() => ({
              focused: document.activeElement?.outerHTML.slice(0, 200),
              current: document.querySelector('.m.is-current')?.dataset.mention,
              sync: document.querySelector('.sync-text')?.textContent,
              notices: [...document.querySelectorAll('[role=alert], [role=status]')]
                .map((e) => e.textContent.trim()).filter(Boolean),
            })"""
        )
        version = annotation(page, annotation_id)["version"]
        raise AssertionError(f"after {after}: {shown}, server version {version}") from error


def test_submitting_an_unfinished_topic_shows_the_refusal(new_page):
    page, _, assignment, _, _ = setup(new_page)
    press(page, "Control+Space")
    wait_saved(page)
    page.get_by_role("button", name="Submit").click()
    dialog = page.get_by_role("dialog")
    expect(dialog).to_contain_text("6 mentions are not in a cluster yet")
    expect(dialog.get_by_role("button", name="Submit")).to_be_disabled()
    press(page, "Enter")
    assignment.refresh_from_db()
    assert assignment.status == "in_progress"
