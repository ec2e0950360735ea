"""The topics page counts each topic's documents, mentions and annotators; counts of one are
written in the singular."""

from playwright.sync_api import expect

from annotation.models import Assignment, Project
from annotation.services.assignments import assignment_create
from tests.factories import AdminFactory, UserFactory, make_topic


def count(page, topic: str, what: str):
    return page.locator(f".topics-list .grid-row[data-topic='{topic}'] [data-count='{what}']")


def test_the_topics_page_shows_each_topics_documents_mentions_and_annotators(new_page, artifacts):
    project = Project.objects.create(name="Counted topics")
    busy = make_topic(project, external_id="busy-topic")
    make_topic(project, external_id="quiet", documents=[["One", "."]], mentions=[(0, [[0, 0]])])
    for name in ("ann1", "ann2"):
        assignment_create(topic=busy, user=UserFactory(username=name))
    assignment_create(
        topic=busy, user=UserFactory(username="judge"), role=Assignment.Role.ADJUDICATOR
    )
    page = new_page(AdminFactory())
    page.goto(f"/manage/projects/{project.pk}/topics")

    expect(page.locator(".topics-list .grid-row")).to_have_count(2)
    expect(count(page, "busy-topic", "documents")).to_have_text("3")
    expect(count(page, "busy-topic", "mentions")).to_have_text("7")
    expect(count(page, "busy-topic", "annotators")).to_have_text("2")
    expect(count(page, "quiet", "documents")).to_have_text("1")
    expect(count(page, "quiet", "mentions")).to_have_text("1")
    expect(count(page, "quiet", "annotators")).to_have_attribute("aria-label", "not assigned")
    page.screenshot(path=str(artifacts / "admin-topic-counts.png"), full_page=True)
    assert page.errors == []


def test_a_project_of_one_topic_says_1_topic(new_page):
    project = Project.objects.create(name="Single")
    make_topic(project, external_id="only")
    page = new_page(AdminFactory())
    page.goto(f"/manage/projects/{project.pk}/topics")

    expect(page.locator(".project-head")).to_contain_text("1 topic")
    expect(page.locator(".project-head")).not_to_contain_text("1 topics")
    expect(page.get_by_text("1 of 1 topic", exact=True)).to_be_visible()
