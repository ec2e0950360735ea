"""Submitting is safe and a submitted topic is read-only: after Submit is cancelled the
keyboard is the workspace's again (SPACE, SPACE once reopened Submit and submitted), the
dialog lists what is unfinished and asks before leaving anything, the next topic is offered,
and a submitted topic offers no edit at all."""

import re

from playwright.sync_api import expect

from annotation.models import Assignment, Project
from tests.e2e.data import apply_ops, chemu_demo_topic, mention_ids, topic_from_data
from tests.e2e.network import requests_to
from tests.e2e.workspace import open_workspace, press, wait_saved
from tests.factories import UserFactory, assign, make_topic

ASSIGNED = re.compile(r"\bis-assigned\b")


def hierarchy_workspace(new_page, *, clustered: int):
    """A 7-mention topic whose first `clustered` mentions are each in a cluster of their own."""
    project = Project.objects.create(name="Submit", hierarchy=True)
    topic = make_topic(project)
    user = UserFactory()
    assignment, stored = assign(topic, user)
    ids = mention_ids(topic)
    apply_ops(
        stored, user, [{"op": "assign", "mention": m, "cluster": None} for m in ids[:clustered]]
    )
    page = open_workspace(new_page(user), assignment.pk)
    return page, user, assignment, ids


def status_of(assignment) -> str:
    return Assignment.objects.get(pk=assignment.pk).status


def test_space_after_cancelling_submit_neither_reopens_nor_submits(new_page):
    page, _, assignment, _ = hierarchy_workspace(new_page, clustered=7)
    page.get_by_role("button", name="Submit").click()
    dialog = page.get_by_role("dialog", name="Submit this topic?")
    expect(dialog).to_be_visible()
    press(page, "Escape")
    expect(dialog).to_be_hidden()

    submits = requests_to(page, "/submit/")
    press(page, "Space", "Space", "?")  # the help comes after the two spaces
    expect(page.get_by_role("dialog", name="Keyboard shortcuts")).to_be_visible()

    expect(dialog).to_be_hidden()
    assert submits == []
    assert status_of(assignment) != "submitted"


def test_space_in_the_submit_dialog_does_not_press_submit(new_page):
    page, _, assignment, _ = hierarchy_workspace(new_page, clustered=7)
    page.get_by_role("button", name="Submit").click()
    dialog = page.get_by_role("dialog", name="Submit this topic?")
    submits = requests_to(page, "/submit/")
    press(page, "Space", "Escape")  # Escape closes the dialog only if Space left it open
    expect(dialog).to_be_hidden()
    assert submits == []
    assert status_of(assignment) != "submitted"


def test_a_clicked_toolbar_button_does_not_keep_space_and_enter(new_page):
    page, _, _, ids = hierarchy_workspace(new_page, clustered=1)
    page.get_by_role("button", name="Keys ?").click()
    help = page.get_by_role("dialog", name="Keyboard shortcuts")
    expect(help).to_be_visible()
    press(page, "Escape")
    expect(help).to_be_hidden()

    press(page, "Space")  # assigns the current mention to the selected cluster

    expect(help).to_be_hidden()
    expect(page.locator(f".m[data-mention='{ids[1]}']")).to_have_class(ASSIGNED)
    wait_saved(page)


def test_the_submit_dialog_names_the_mentions_left_out_and_refuses_to_submit(new_page):
    page, _, assignment, _ = hierarchy_workspace(new_page, clustered=5)
    page.get_by_role("button", name="Submit").click()
    dialog = page.get_by_role("dialog", name="Submit this topic?")

    expect(dialog.locator("[data-unfinished=unclustered]")).to_contain_text(
        "2 mentions are not in a cluster yet"
    )
    expect(dialog.locator("[data-unfinished=unclustered]")).to_contain_text('"the mixture"')
    expect(dialog.get_by_role("button", name="Submit")).to_be_disabled()
    submits = requests_to(page, "/submit/")
    press(page, "Enter")

    dialog.get_by_role("button", name="Go to the first").click()  # after the Enter
    expect(dialog).to_be_hidden()
    expect(page.locator(".m.is-current")).to_contain_text("The mixture")
    assert submits == []
    assert status_of(assignment) != "submitted"


def test_leaving_mentions_unlinked_needs_a_tick_then_the_next_topic_is_offered(new_page, artifacts):
    project = Project.objects.create(name="Links", hierarchy=False, anaphora=True)
    topic = topic_from_data(project, chemu_demo_topic(1))
    later = topic_from_data(project, chemu_demo_topic(1), external_id="chemu-later")
    user = UserFactory()
    assignment, _ = assign(topic, user)
    next_assignment, _ = assign(later, user)
    page = open_workspace(new_page(user), assignment.pk)

    page.get_by_role("button", name="Submit").click()
    dialog = page.get_by_role("dialog", name="Submit this topic?")
    expect(dialog.locator("[data-unfinished=unlinked]")).to_contain_text("have no link")
    submit = dialog.get_by_role("button", name="Submit")
    expect(submit).to_be_disabled()
    dialog.get_by_label("Submit with these left as they are").check()
    press(page, "Enter")

    banner = page.get_by_test_id("submitted-banner")
    # A space between the topic and its project ("9002(SciCo demo)" before).
    expect(banner).to_contain_text("Next topic to do: chemu-later (Links)")
    page.screenshot(path=str(artifacts / "walk-next-topic-banner.png"))
    assert status_of(assignment) == "submitted"
    press(page, "Enter")
    expect(page).to_have_url(re.compile(f"/annotate/{next_assignment.pk}$"))
    page.wait_for_selector("html[data-workspace-ready='true']")
    expect(page.locator(".ws-title")).to_contain_text("chemu-later")


def test_a_submitted_topic_offers_no_edit(new_page):
    page, _, assignment, ids = hierarchy_workspace(new_page, clustered=7)
    Assignment.objects.filter(pk=assignment.pk).update(status="submitted")
    page.reload()
    page.wait_for_selector("html[data-workspace-ready='true']")
    page.locator(f".m[data-mention='{ids[0]}']").click()  # selects its cluster

    detail = page.locator(".cluster-detail")
    expect(detail).to_contain_text("1 mention")
    expect(detail.get_by_role("button", name="Rename")).to_have_count(0)
    expect(detail.get_by_role("button", name="Note")).to_have_count(0)
    expect(detail.get_by_role("checkbox")).to_have_count(0)
    for name in ("Undo", "Redo", "Submit"):
        expect(page.locator(".ws-actions").get_by_role("button", name=name)).to_have_count(0)

    press(page, "F2")
    expect(page.get_by_role("dialog")).to_have_count(0)
    expect(page.locator(".notice-statuses")).to_contain_text("submitted and read-only")
    press(page, "n", "m", "Control+Space")
    expect(page.get_by_role("dialog")).to_have_count(0)

    press(page, "?")
    help = page.get_by_role("dialog", name="Keyboard shortcuts")
    expect(help).to_contain_text("read-only")
    expect(help).to_contain_text("Next mention")
    expect(help).not_to_contain_text("Rename the selected cluster")
    expect(help).not_to_contain_text("Assign the current mention")
    assert page.errors == []
