"""Small workspace and validation fixes in the browser, one server and one browser
for all (the package's fixtures):

- the 11th cluster looks different from the 1st in the text, not only in the bank;
- the guidelines dock beside the text and cover neither the toolbar nor the cluster bank;
- the review view does not point to a Suggest button it lacks, and an admin reopens from it;
- the suggestions line is on the page once;
- find in text (Ctrl+F) searches every document, highlights, moves, Escape closes;
- validation: Submit has a key and asks first; once submitted the page offers the next topic
  and no undo; the report counts submitted topics, shows no empty Overall, and says why a
  kappa near zero sits beside high agreement; reasons are edited in the project form.

Screenshots in test-artifacts/walk-ws-*.png.
"""

from __future__ import annotations

import re

from django.utils import timezone
from playwright.sync_api import Page, expect

from annotation.models import Assignment, Project
from annotation.services.assignments import assignment_submit
from annotation.services.operations import annotation_operation_apply
from modelserve.models import SuggestionRun
from tests.e2e.workspace import open_workspace, press
from tests.factories import AdminFactory, UserFactory, assign, make_topic, mention_ids
from tests.validation.test_validation_measures import validate
from tests.validation.validation_setup import validation_project, validation_topic

WORDS = [f"w{i}" for i in range(14)]


def clustered_topic(project: Project, user, clusters: int):
    """A topic of one document whose first `clusters` mentions are each a cluster of its own."""
    topic = make_topic(
        project, documents=[WORDS], mentions=[(0, [[i, i]]) for i in range(len(WORDS))]
    )
    assignment, annotation = assign(topic, user)
    for version, mention in enumerate(mention_ids(topic)[:clusters]):
        annotation_operation_apply(
            annotation_id=annotation.pk,
            user=user,
            payload={"op": "assign", "mention": mention, "cluster": None},
            expected_version=version,
        )
    return topic, assignment, annotation


def style_of(page: Page, selector: str, prop: str) -> str:
    return page.locator(selector).first.evaluate(
        f"(el) => getComputedStyle(el).getPropertyValue('{prop}')"
    )


def test_the_eleventh_cluster_looks_different_from_the_first_in_the_text(new_page, artifacts):
    user = UserFactory(username="colours")
    project = Project.objects.create(name="Many clusters", hierarchy=True)
    topic, assignment, _ = clustered_topic(project, user, 12)
    m = mention_ids(topic)
    page = new_page(user)
    open_workspace(page, assignment.pk)

    first, eleventh = f".m[data-mention='{m[0]}']", f".m[data-mention='{m[10]}']"
    # Same palette colour (the palette has ten), told apart by the fill as well as the line.
    tint = style_of(page, first, "background-color")
    assert style_of(page, first, "background-image") == "none"
    hatched = style_of(page, eleventh, "background-image")
    assert "repeating-linear-gradient" in hatched, hatched
    assert tint in hatched, (tint, hatched)
    assert style_of(page, eleventh, "border-bottom-style") == "dashed"
    # The bank's swatch shows the same fill as the text.
    cluster = page.locator(eleventh).get_attribute("data-cluster")
    swatch = f".bank-row[data-cluster='{cluster}'] .swatch"
    assert "repeating-linear-gradient" in style_of(page, swatch, "background-image")
    page.locator(".doc-text").first.screenshot(path=str(artifacts / "walk-ws-colours.png"))
    assert page.errors == []


def overlaps(a: dict, b: dict) -> bool:
    return (
        a["x"] < b["x"] + b["width"]
        and b["x"] < a["x"] + a["width"]
        and a["y"] < b["y"] + b["height"]
        and b["y"] < a["y"] + a["height"]
    )


def test_the_guidelines_cover_neither_the_toolbar_nor_the_cluster_bank(new_page, artifacts):
    user = UserFactory(username="reader")
    project = Project.objects.create(
        name="Guided", hierarchy=True, guidelines="# Rules\n\nCluster every *method* mention."
    )
    _, assignment, _ = clustered_topic(project, user, 2)
    page = new_page(user)
    page.set_viewport_size({"width": 1280, "height": 800})
    open_workspace(page, assignment.pk)
    panel = page.get_by_test_id("guidelines")
    expect(panel).to_be_visible()  # opened by itself the first time
    expect(panel).to_contain_text("Cluster every method mention.")

    box = panel.bounding_box()
    for name, selector in [
        ("toolbar", ".ws-header"),
        ("cluster bank", ".bank"),
        ("suggestions", "[data-testid=suggestions]"),
        ("hierarchy", ".ws-side"),
    ]:
        assert not overlaps(box, page.locator(selector).first.bounding_box()), name
    assert page.locator(".doc-text").first.bounding_box()["width"] > 300  # the text still reads
    page.screenshot(path=str(artifacts / "walk-ws-guidelines.png"))
    press(page, "I")
    expect(panel).to_be_hidden()
    assert page.errors == []


def test_the_review_view_offers_no_absent_suggest_and_an_admin_reopens_from_it(new_page, artifacts):
    annotator = UserFactory(username="annotator1")
    project = Project.objects.create(name="Reviewed", hierarchy=True)
    _, assignment, annotation = clustered_topic(project, annotator, len(WORDS))
    assignment_submit(assignment_id=assignment.pk, user=annotator)
    page = new_page(AdminFactory())
    page.goto(f"/review/annotations/{annotation.pk}")
    page.wait_for_selector("html[data-workspace-ready='true']")

    panel = page.get_by_test_id("suggestions")
    expect(panel.get_by_test_id("run-status")).to_contain_text("No suggestions were asked for")
    expect(panel).not_to_contain_text("with Suggest")
    expect(panel.get_by_role("button", name=re.compile("^Suggest"))).to_have_count(0)
    banner = page.get_by_test_id("review-banner")
    page.screenshot(path=str(artifacts / "walk-ws-review-reopen.png"))
    banner.get_by_role("button", name="Reopen for annotator1").click()
    expect(banner.get_by_test_id("review-reopened")).to_contain_text("annotator1 can edit it again")
    assert Assignment.objects.get(pk=assignment.pk).status == Assignment.Status.REOPENED
    page.screenshot(path=str(artifacts / "walk-ws-review-reopened.png"))
    assert page.errors == []


def test_the_suggestions_line_is_on_the_page_once(new_page, artifacts):
    user = UserFactory(username="suggested")
    project = Project.objects.create(name="Suggested once", hierarchy=True)
    topic, assignment, _ = clustered_topic(project, user, 1)
    SuggestionRun.objects.create(
        topic=topic,
        backend="minilm",
        status=SuggestionRun.Status.SUCCEEDED,
        progress=1.0,
        message="0 suggestions",
        attempts=1,
        requested_by=user,
        finished_at=timezone.now(),
    )
    page = new_page(user)
    open_workspace(page, assignment.pk)
    panel = page.get_by_test_id("suggestions")
    expect(panel.get_by_test_id("run-status")).to_have_attribute("data-status", "succeeded")

    # The page's text, as read aloud or copied: the run's line once.
    assert panel.inner_text().count("Suggestions from minilm") == 1, panel.inner_text()
    panel.screenshot(path=str(artifacts / "walk-ws-suggestions-line.png"))
    assert page.errors == []


def long_document(needle_at: list[int], length: int = 700) -> list[str]:
    words = [f"word{i % 50}" for i in range(length)]
    for i in needle_at:
        words[i] = "Attention"
    return words


def test_find_in_text_searches_every_document_highlights_moves_and_closes(new_page, artifacts):
    user = UserFactory(username="finder")
    project = Project.objects.create(name="Find", hierarchy=True)
    docs = [long_document([5, 40]), long_document([]), long_document([]), long_document([600])]
    topic = make_topic(project, documents=docs, mentions=[(0, [[5, 5]]), (3, [[10, 11]])])
    assignment, _ = assign(topic, user)
    page = new_page(user)
    open_workspace(page, assignment.pk)
    last_doc = topic.documents.order_by("position").last().pk
    expect(page.locator(f"[data-doc-text='{last_doc}']")).to_have_count(0)  # not drawn yet

    press(page, "Control+f")
    bar = page.get_by_test_id("find-bar")
    expect(bar).to_be_visible()
    page.keyboard.type("attention")
    count = bar.get_by_test_id("find-count")
    expect(count).to_have_text("1 of 3")
    expect(page.locator(".t.is-found")).to_have_count(2)  # the first document's two
    expect(page.locator(".t.is-found-current")).to_have_count(1)
    page.screenshot(path=str(artifacts / "walk-ws-find.png"))

    press(page, "Enter", "Enter")  # the third match, in the last document
    expect(count).to_have_text("3 of 3")
    current = page.locator(f"[data-doc-text='{last_doc}'] .t.is-found-current")
    expect(current).to_be_in_viewport()
    expect(current).to_have_text(re.compile("Attention"))
    page.screenshot(path=str(artifacts / "walk-ws-find-last-document.png"))
    press(page, "Shift+Enter")
    expect(count).to_have_text("2 of 3")

    press(page, "Escape")
    expect(bar).to_be_hidden()
    expect(page.locator(".t.is-found")).to_have_count(0)
    press(page, "?")
    expect(page.get_by_role("dialog")).to_contain_text("Find in the documents' text")
    assert page.errors == []


def decide_all(page: Page, n: int) -> None:
    # Each key after the page has counted the one before: a key pressed while the last
    # decision is still being applied would be read against the mention it left.
    for k in range(1, n + 1):
        page.keyboard.press("y")
        expect(page.locator("[data-progress]")).to_contain_text(
            re.compile(rf"\b{k} of {n} decided")
        )


def test_validation_submit_asks_first_then_offers_the_next_topic_and_no_undo(new_page, artifacts):
    project = validation_project("Validate and move on")
    first, second = validation_topic(project), validation_topic(project)
    validator = UserFactory(username="val")
    assignment, annotation = assign(first, validator)
    _, next_annotation = assign(second, validator)
    page = new_page(validator)
    page.goto(f"/validate/annotations/{annotation.pk}")
    page.locator("[data-current-mention]").wait_for()
    decide_all(page, 7)

    press(page, "Control+Enter")
    dialog = page.get_by_role("dialog", name="Submit this topic?")
    expect(dialog).to_contain_text("7 accepted, 0 rejected")
    page.screenshot(path=str(artifacts / "walk-ws-validation-submit.png"))
    press(page, "Escape")
    expect(dialog).to_be_hidden()
    assert Assignment.objects.get(pk=assignment.pk).status != Assignment.Status.SUBMITTED
    press(page, "Control+Enter")
    expect(dialog).to_be_visible()
    press(page, "Enter")

    banner = page.get_by_test_id("submitted-banner")
    expect(banner).to_contain_text(f"Next topic to do: {second.external_id}")
    assert Assignment.objects.get(pk=assignment.pk).status == Assignment.Status.SUBMITTED
    finished = page.locator("[data-finished]")
    expect(finished).not_to_contain_text("Undo")
    expect(finished).not_to_contain_text("go back with")
    expect(page.get_by_role("button", name="Undo")).to_have_count(0)
    page.screenshot(path=str(artifacts / "walk-ws-validation-submitted.png"))
    press(page, "Enter")
    expect(page).to_have_url(re.compile(f"/validate/annotations/{next_annotation.pk}$"))
    assert page.errors == []


def test_the_validation_report_counts_submitted_topics_and_explains_a_low_kappa(
    new_page, artifacts
):
    project = validation_project("Rare rejections")
    topics = [validation_topic(project) for _ in range(3)]
    ann, bob = UserFactory(username="ann"), UserFactory(username="bob")
    # Nearly every mention accepted; the two rejections each fall on a different mention.
    validate(ann, topics[0], ["trigger", *["a"] * 6])
    validate(bob, topics[0], ["a", "trigger", *["a"] * 5])
    validate(ann, topics[1], ["a"] * 7)
    validate(bob, topics[1], ["a"] * 7)
    validate(ann, topics[2], ["a", *[None] * 6], submit=False)  # assigned, not submitted
    page = new_page(AdminFactory())
    page.goto(f"/manage/projects/{project.pk}/agreement")
    section = page.get_by_test_id("validation-measures")
    expect(section.locator("tr[data-pair='ann+bob']")).to_contain_text("85.7 %")

    expect(section.locator("tr[data-validator='ann'] [data-testid=validator-topics]")).to_have_text(
        "2"
    )
    expect(page.get_by_role("heading", name="Overall", exact=True)).to_have_count(0)
    note = section.get_by_test_id("kappa-note")
    expect(note).to_contain_text("beside 85.7 % agreement")
    expect(note).to_contain_text("by chance")
    page.screenshot(path=str(artifacts / "walk-ws-validation-report.png"), full_page=True)
    assert page.errors == []


def test_an_admin_edits_the_reasons_in_the_project_form(new_page, artifacts):
    project = validation_project("Reasons here")
    page = new_page(AdminFactory())
    page.goto(f"/manage/projects/{project.pk}/settings")
    editor = page.get_by_test_id("reasons-editor")
    expect(editor.get_by_label("Reason 1: key")).to_have_value("trigger")

    editor.get_by_label("Reason 2: key").fill("Not one word")
    page.get_by_role("button", name="Save changes").click()
    expect(page.get_by_test_id("reasons-error")).to_contain_text("Reason 2: the key is one word")
    editor.get_by_label("Reason 2: key").fill("evidence")
    editor.get_by_label("Reason 2: label").fill("The paragraph gives no evidence")
    editor.locator("tr[data-reason='3']").get_by_role("button", name="Remove").click()
    page.screenshot(path=str(artifacts / "walk-ws-reasons-form.png"), full_page=True)
    page.get_by_role("button", name="Save changes").click()
    expect(page.get_by_role("status").filter(has_text="Saved.")).to_be_visible()

    project.refresh_from_db()
    assert [r["key"] for r in project.validation_reasons] == ["trigger", "evidence"]
    assert project.validation_reasons[1]["label"] == "The paragraph gives no evidence"
    assert page.errors == []
