"""Admin assignment pages: balanced assignment with an overlap to three annotators, the
progress matrix following an annotator's work live, reassign / reopen / delete, and bulk
actions over 300 topics (`python -m bench admin` times those)."""

from collections import Counter

from playwright.sync_api import expect

from annotation.models import Assignment, Project
from annotation.services.assignments import assignment_submit
from tests.e2e.admin_bulk import (
    ANNOTATORS,
    ASSIGNMENTS,
    OVERLAP,
    TOPICS,
    assign_balanced,
    choose_annotators,
    delete_all,
    open_assignments,
    open_progress,
    project_with_300_topics,
)
from tests.e2e.data import apply_ops, mention_ids
from tests.e2e.workspace import wait_saved
from tests.factories import AdminFactory, UserFactory, assign, demo_project, make_topic


def cell(page, assignment_id: int):
    return page.locator(f".cell[data-assignment='{assignment_id}']")


def test_balanced_assignment_with_overlap_then_the_matrix_follows_an_annotator_live(
    new_page, artifacts
):
    project = demo_project("Live progress", hierarchy=True)
    annotators = [UserFactory(username=name) for name in ("ann1", "ann2", "ann3")]
    admin = new_page(AdminFactory())
    admin.goto(f"/manage/projects/{project.pk}/assignments")
    choose_annotators(admin, ["ann1", "ann2", "ann3"])
    admin.get_by_role("button", name="Select all shown (6)").click()
    expect(admin.get_by_test_id("selected-topics")).to_have_text("6 topics")
    admin.get_by_label("balanced, with an overlap").check()
    admin.get_by_label("annotators per overlap topic").fill("3")
    admin.get_by_label("number of overlap topics").fill("2")
    admin.get_by_role("button", name="Assign (up to 10)").click()

    expect(admin.get_by_role("status").filter(has_text="Created 10 assignments")).to_be_visible()
    per_topic = Counter(
        Assignment.objects.filter(topic__project=project).values_list(
            "topic__external_id", flat=True
        )
    )
    assert sorted(per_topic.values()) == [1, 1, 1, 1, 3, 3]
    assert per_topic["9001"] == per_topic["9004"] == 3  # the overlap, spread over the list
    loads = Counter(
        Assignment.objects.filter(topic__project=project).values_list("user__username", flat=True)
    )
    assert sorted(loads.values()) == [3, 3, 4]
    expect(admin.locator(".cell[data-status='assigned']")).to_have_count(10)
    admin.screenshot(path=str(artifacts / "admin-assignments.png"), full_page=True)

    admin.get_by_role("link", name="Progress").click()
    expect(admin.get_by_test_id("live-state")).to_have_text("Live")
    first = Assignment.objects.get(topic__external_id="9001", user=annotators[0])
    expect(cell(admin, first.pk)).to_have_attribute("data-status", "assigned")

    annotator = new_page(annotators[0])
    annotator.goto("/")
    expect(annotator.locator(".next-topic")).to_contain_text("9001")
    annotator.locator(".next-topic").get_by_role("link", name="Continue").click()
    annotator.wait_for_selector("html[data-workspace-ready='true']")
    annotator.keyboard.press("Control+Space")
    wait_saved(annotator)

    expect(cell(admin, first.pk)).to_have_attribute("data-status", "in_progress")
    expect(cell(admin, first.pk)).to_contain_text("1/")
    annotator.keyboard.press("Control+Space")
    wait_saved(annotator)
    expect(cell(admin, first.pk)).to_contain_text("2/")
    admin.screenshot(path=str(artifacts / "admin-progress.png"), full_page=True)
    assert admin.errors == []
    assert annotator.errors == []


def test_reassigning_started_work_asks_first_and_reopening_a_submitted_topic_works(new_page):
    project = Project.objects.create(name="Reassign")
    alice, bob, _carol = (UserFactory(username=n) for n in ("alice", "bob", "carol"))
    topic = make_topic(project, external_id="busy")
    started, annotation = assign(topic, alice)
    apply_ops(
        annotation, alice, [{"op": "assign", "mention": mention_ids(topic)[0], "cluster": None}]
    )
    done_topic = make_topic(project, external_id="done")
    done, done_annotation = assign(done_topic, bob)
    apply_ops(done_annotation, bob, [{"op": "split", "mentions": mention_ids(done_topic)}])
    assignment_submit(assignment_id=done.pk, user=bob)
    page = new_page(AdminFactory())
    page.goto(f"/manage/projects/{project.pk}/assignments")

    cell(page, started.pk).click()
    bar = page.get_by_role("region", name="Selected assignments")
    bar.get_by_label("Reassign to").select_option(label="carol")
    bar.get_by_role("button", name="Reassign", exact=True).click()
    dialog = page.get_by_role("dialog")
    expect(dialog).to_contain_text("discards")
    dialog.get_by_role("button", name="Reassign and discard work").click()
    expect(page.get_by_role("status").filter(has_text="Reassigned to carol")).to_be_visible()
    assert list(
        Assignment.objects.filter(topic=topic).values_list("user__username", flat=True)
    ) == ["carol"]

    cell(page, done.pk).click()
    page.get_by_role("region", name="Selected assignments").get_by_role(
        "button", name="Reopen (1)"
    ).click()
    expect(cell(page, done.pk)).to_have_attribute("data-status", "reopened")
    assert Assignment.objects.get(pk=done.pk).status == "reopened"


def test_bulk_actions_assign_and_delete_300_topics_at_once(new_page):
    project = project_with_300_topics("Three hundred")
    page = new_page(AdminFactory())
    open_assignments(page, project)
    assign_balanced(page)
    per_topic = Counter(
        Assignment.objects.filter(topic__project=project).values_list("topic_id", flat=True)
    )
    assert sum(per_topic.values()) == ASSIGNMENTS
    assert sorted(Counter(per_topic.values()).items()) == [(1, TOPICS - OVERLAP), (2, OVERLAP)]
    per_annotator = Counter(
        Assignment.objects.filter(topic__project=project).values_list("user__username", flat=True)
    )
    assert per_annotator == {name: ASSIGNMENTS // 3 for name in ANNOTATORS}
    open_progress(page)
    delete_all(page)
    assert not Assignment.objects.filter(topic__project=project).exists()
    assert page.errors == []
