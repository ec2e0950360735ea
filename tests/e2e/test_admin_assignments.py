"""Admin assignment pages: balanced assignment with an overlap to three annotators, the
progress matrix following an annotator's work live, reassign / reopen / delete, and bulk
actions over 300 topics (timed; the numbers go to test-artifacts/admin-bulk-timings.json)."""

import json
import time
from collections import Counter

from playwright.sync_api import expect

from annotation.models import Assignment, Project, Topic
from annotation.services.assignments import assignment_submit
from annotation.services.imports import topics_import
from tests.e2e.data import apply_ops, mention_ids
from tests.e2e.workspace import wait_saved
from tests.factories import AdminFactory, UserFactory, assign, make_topic

from tests.paths import DEMO  # noqa: E402


def demo_project(name: str) -> Project:
    project = Project.objects.create(name=name, hierarchy=True)
    topics_import(project=project, path=DEMO / "scico_demo.jsonl", format="scico")
    return project


def cell(page, assignment_id: int):
    return page.locator(f".cell[data-assignment='{assignment_id}']")


def choose_annotators(page, names):
    form = page.locator("form.assign-form")
    for name in names:
        form.get_by_label(name, exact=True).check()


def test_balanced_assignment_with_overlap_then_the_matrix_follows_an_annotator_live(new_page, artifacts):
    project = demo_project("Live progress")
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
    per_topic = Counter(Assignment.objects.filter(topic__project=project).values_list("topic__external_id", flat=True))
    assert sorted(per_topic.values()) == [1, 1, 1, 1, 3, 3]
    assert per_topic["9001"] == per_topic["9004"] == 3  # the overlap, spread over the list
    loads = Counter(Assignment.objects.filter(topic__project=project).values_list("user__username", flat=True))
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
    assert admin.errors == [] and annotator.errors == []


def test_reassigning_started_work_asks_first_and_reopening_a_submitted_topic_works(new_page):
    project = Project.objects.create(name="Reassign")
    alice, bob, _carol = (UserFactory(username=n) for n in ("alice", "bob", "carol"))
    topic = make_topic(project, external_id="busy")
    started, annotation = assign(topic, alice)
    apply_ops(annotation, alice, [{"op": "assign", "mention": mention_ids(topic)[0], "cluster": None}])
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
    assert list(Assignment.objects.filter(topic=topic).values_list("user__username", flat=True)) == ["carol"]

    cell(page, done.pk).click()
    page.get_by_role("region", name="Selected assignments").get_by_role("button", name="Reopen (1)").click()
    expect(cell(page, done.pk)).to_have_attribute("data-status", "reopened")
    assert Assignment.objects.get(pk=done.pk).status == "reopened"


def test_bulk_actions_over_300_topics_take_seconds(new_page, artifacts):
    project = Project.objects.create(name="Three hundred")
    Topic.objects.bulk_create(Topic(project=project, external_id=f"t{i:03d}", position=i) for i in range(300))
    for name in ("ann1", "ann2", "ann3"):
        UserFactory(username=name)
    page = new_page(AdminFactory())
    timings = {}

    start = time.monotonic()
    page.goto(f"/manage/projects/{project.pk}/assignments")
    page.get_by_role("button", name="Select all shown (300)").wait_for()
    timings["assignments page with 300 topics, to interactive (s)"] = time.monotonic() - start
    choose_annotators(page, ["ann1", "ann2", "ann3"])
    page.get_by_role("button", name="Select all shown (300)").click()
    page.get_by_label("balanced, with an overlap").check()
    page.get_by_label("number of overlap topics").fill("30")

    start = time.monotonic()
    page.get_by_role("button", name="Assign (up to 330)").click()
    expect(page.get_by_role("status").filter(has_text="Created 330 assignments")).to_be_visible()
    expect(page.locator(".grid-head")).to_contain_text("0/110 submitted")
    timings["balanced assignment of 300 topics (k=2, 30 overlap), click to matrix shown (s)"] = time.monotonic() - start
    assert Assignment.objects.filter(topic__project=project).count() == 330

    start = time.monotonic()
    page.get_by_role("link", name="Progress").click()
    expect(page.locator(".progress-page .grid-head")).to_contain_text("0/110 submitted")
    timings["progress matrix 300 x 3, click to shown (s)"] = time.monotonic() - start

    page.get_by_role("link", name="Assignments").click()
    page.get_by_role("button", name="Select all shown (300)").click()
    page.get_by_role("button", name="Select their assignments").click()
    bar = page.get_by_role("region", name="Selected assignments")
    expect(bar).to_contain_text("330 assignments selected")
    start = time.monotonic()
    bar.get_by_role("button", name="Delete…").click()
    page.get_by_role("dialog").get_by_role("button", name="Delete", exact=True).click()
    expect(page.get_by_role("status").filter(has_text="Deleted 330 assignments")).to_be_visible()
    expect(page.locator(".cell[data-assignment]")).to_have_count(0)
    timings["bulk delete of 330 assignments, confirm to matrix shown (s)"] = time.monotonic() - start
    assert not Assignment.objects.filter(topic__project=project).exists()

    rounded = {name: round(seconds, 2) for name, seconds in timings.items()}
    (artifacts / "admin-bulk-timings.json").write_text(json.dumps(rounded, indent=1))
    print(json.dumps(timings, indent=1))
    assert all(seconds < 5 for seconds in timings.values()), timings
    assert page.errors == []
