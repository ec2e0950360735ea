"""My topics: in progress first (the latest edited first), then to do, then submitted;
filtered by project and by status, in the same order."""

from datetime import timedelta

from django.utils import timezone
from playwright.sync_api import expect

from annotation.models import Assignment, Operation, Project
from tests.e2e.data import apply_ops, mention_ids
from tests.factories import UserFactory, assign, make_topic


def started(user, assignment, annotation, *, minutes_ago: int) -> None:
    apply_ops(
        annotation,
        user,
        [{"op": "assign", "mention": mention_ids(assignment.topic)[0], "cluster": None}],
    )
    when = timezone.now() - timedelta(minutes=minutes_ago)
    Operation.objects.filter(annotation=annotation).update(created_at=when)


def my_topics_world():
    """Alpha: a-done (submitted), a-todo, a-reopened (edited 5 min ago); Beta: b-todo,
    b-done (submitted), b-started (edited 30 min ago)."""
    user = UserFactory(username="worker")
    alpha, beta = Project.objects.create(name="Alpha"), Project.objects.create(name="Beta")
    assign(make_topic(beta, external_id="b-todo"), user)
    b_done, _ = assign(make_topic(beta, external_id="b-done"), user)
    b_started, b_annotation = assign(make_topic(beta, external_id="b-started"), user)
    a_done, _ = assign(make_topic(alpha, external_id="a-done"), user)
    assign(make_topic(alpha, external_id="a-todo"), user)
    a_reopened, a_annotation = assign(make_topic(alpha, external_id="a-reopened"), user)
    started(user, b_started, b_annotation, minutes_ago=30)
    started(user, a_reopened, a_annotation, minutes_ago=5)
    Assignment.objects.filter(pk=a_reopened.pk).update(status="reopened")
    Assignment.objects.filter(pk__in=[a_done.pk, b_done.pk]).update(status="submitted")
    return user, alpha, beta


def topic_cells(page):
    # The topic's id (its title is shown beneath it).
    return page.locator("table.topics tbody tr[data-assignment] td:first-child strong")


def test_my_topics_are_in_progress_then_to_do_then_submitted(new_page, artifacts):
    user, _, _ = my_topics_world()
    page = new_page(user)
    page.goto("/")

    expect(topic_cells(page)).to_have_text(
        ["a-reopened", "b-started", "a-todo", "b-todo", "a-done", "b-done"]
    )
    expect(page.locator(".next-topic")).to_contain_text("a-reopened")
    page.screenshot(path=str(artifacts / "my-topics-order.png"), full_page=True)
    assert page.errors == []


def test_my_topics_filter_by_project_and_by_status_in_the_same_order(new_page):
    user, _, beta = my_topics_world()
    page = new_page(user)
    page.goto("/")
    expect(topic_cells(page)).to_have_count(6)

    page.get_by_label("Project").select_option(label="Beta (3)")
    expect(topic_cells(page)).to_have_text(["b-started", "b-todo", "b-done"])
    page.get_by_label("Status").select_option(label="To do (2)")
    expect(topic_cells(page)).to_have_text(["b-todo"])
    expect(page.get_by_test_id("shown-count")).to_have_text("1 of 6 shown")

    page.get_by_label("Project").select_option(label="All projects (6)")
    expect(topic_cells(page)).to_have_text(["a-todo", "b-todo"])
    page.get_by_label("Status").select_option(label="Submitted (2)")
    expect(topic_cells(page)).to_have_text(["a-done", "b-done"])
    page.get_by_label("Project").select_option(str(beta.pk))
    expect(topic_cells(page)).to_have_text(["b-done"])
    assert page.errors == []
