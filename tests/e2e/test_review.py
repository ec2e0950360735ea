"""Reviewing: an admin opens an annotator's annotation from the progress matrix or from a
row of the agreement report, and sees it read-only in the same workspace, under a banner
that says whose it is; the gold of an official file shows what it holds that the workspace
would refuse, flagged."""

import json
import re

from playwright.sync_api import expect

from annotation.models import Assignment, Project
from annotation.services.imports.topics import topics_import
from tests.e2e.data import apply_ops, mention_ids
from tests.e2e.test_admin_agreement import agreement_project
from tests.factories import AdminFactory, UserFactory, assign, make_topic

ASSIGNED = re.compile(r"\bis-assigned\b")


def expect_review(page, annotator: str, topic: str) -> None:
    page.wait_for_selector("html[data-workspace-ready='true']")
    expect(page.get_by_test_id("review-banner")).to_have_text(
        re.compile(f"Reviewing {annotator}'s annotation of {topic}, read-only")
    )
    expect(page.locator(".ws-actions").get_by_role("button", name="Submit")).to_have_count(0)
    expect(page.locator(".ws")).to_have_attribute("data-read-only", "true")


def test_a_cell_of_the_progress_matrix_opens_that_annotation_read_only(new_page, artifacts):
    project = Project.objects.create(name="Review", hierarchy=True)
    topic = make_topic(project, external_id="topic-7")
    annotator = UserFactory(username="annotator1")
    assignment, stored = assign(topic, annotator)
    ids = mention_ids(topic)
    apply_ops(stored, annotator, [{"op": "assign", "mention": m, "cluster": None} for m in ids[:3]])
    page = new_page(AdminFactory())
    page.goto(f"/manage/projects/{project.pk}/progress")
    page.locator(f"a.cell[data-assignment='{assignment.pk}']").wait_for()
    page.screenshot(path=str(artifacts / "progress-review-links.png"))

    page.locator(f"a.cell[data-assignment='{assignment.pk}']").click()

    expect(page).to_have_url(re.compile(f"/review/annotations/{stored.pk}$"))
    expect_review(page, "annotator1", "topic-7")
    expect(page.locator(".m.is-assigned")).to_have_count(3)
    page.keyboard.press("Control+Space")  # an edit key: refused at once, nothing sent
    expect(page.locator(".notice-statuses")).to_contain_text("reviewing this annotation")
    assert Assignment.objects.get(pk=assignment.pk).annotation.version == 3
    assert page.errors == []


def test_a_row_of_the_agreement_report_opens_each_annotators_annotation(new_page, artifacts):
    project = agreement_project("Review agreement")
    topic = project.topics.order_by("position").first()
    bob = Assignment.objects.get(topic=topic, user__username="bob")
    page = new_page(AdminFactory())
    page.goto(f"/manage/projects/{project.pk}/agreement")

    row = page.locator(f"tr[data-topic='{topic.external_id}']")
    row.get_by_role("link").first.wait_for()
    row.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "agreement-review-links.png"))
    row.get_by_role("link", name=f"Review bob's annotation of {topic.external_id}").click()

    expect(page).to_have_url(re.compile(f"/review/annotations/{bob.annotation.pk}$"))
    expect_review(page, "bob", topic.external_id)
    expect(page.locator(".m.is-assigned").first).to_be_visible()
    assert page.errors == []


def test_the_gold_of_an_official_file_shows_what_the_workspace_would_refuse_flagged(
    new_page, artifacts, tmp_path
):
    project = Project.objects.create(name="Released", anaphora=True)
    path = tmp_path / "late.jsonlines"
    tokens = ["The", "oil", "was", "heated", ";", "the", "oil", "gave", "the", "product", "."]
    snippet = {"doc_key": "s1", "sentences": [tokens], "Coreference": [[[[0, 1]], [[5, 6]]]]}
    path.write_text(json.dumps(snippet) + "\n")
    topics_import(project=project, path=path, format="chemu")
    gold = project.topics.get().annotations.get(kind="gold")
    page = new_page(AdminFactory())

    page.goto(f"/review/annotations/{gold.pk}")

    page.wait_for_selector("html[data-workspace-ready='true']")
    expect(page.get_by_test_id("review-banner")).to_contain_text("Reviewing the gold annotation")
    marks = page.get_by_test_id("import-marks")
    expect(marks).to_contain_text("1 entry the workspace would refuse, kept as released")
    marks.locator("summary").click()
    expect(marks.locator("li")).to_have_text(
        "Coreference[0]: the antecedent (tokens 5-6 'the oil') does not come before the anaphor "
        "(tokens 0-1 'The oil'); imported as released, but the workspace refuses such a link "
        "(rule order)"
    )
    page.screenshot(path=str(artifacts / "gold-import-marks.png"))
    assert page.errors == []
