"""My topics come in the order an annotator works through them: topics in progress (the
latest edited first), then topics to do, then submitted topics; within each, by project and
topic order."""

from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from annotation.models import Assignment, Operation, Project
from annotation.services.operations import annotation_operation_apply
from tests.factories import UserFactory, assign, make_topic, mention_ids

pytestmark = pytest.mark.django_db


def edited(user, assignment, annotation, *, minutes_ago: int) -> None:
    annotation_operation_apply(
        annotation_id=annotation.pk,
        user=user,
        expected_version=0,
        payload={"op": "assign", "mention": mention_ids(assignment.topic)[0], "cluster": None},
    )
    when = timezone.now() - timedelta(minutes=minutes_ago)
    Operation.objects.filter(annotation=annotation).update(created_at=when)


def with_status(assignment, status: str) -> None:
    Assignment.objects.filter(pk=assignment.pk).update(status=status)


def my_topics(user) -> list[tuple[str, str]]:
    client = APIClient()
    client.force_authenticate(user)
    rows = client.get("/api/assignments/mine/").json()
    return [(row["topic"]["external_id"], row["status"]) for row in rows]


def test_my_topics_are_in_progress_first_then_to_do_then_submitted():
    user = UserFactory()
    alpha, beta = Project.objects.create(name="Alpha"), Project.objects.create(name="Beta")
    assign(make_topic(beta, external_id="b-todo"), user)
    b_done, _ = assign(make_topic(beta, external_id="b-done"), user)
    b_started, b_annotation = assign(make_topic(beta, external_id="b-started"), user)
    a_done, _ = assign(make_topic(alpha, external_id="a-done"), user)
    assign(make_topic(alpha, external_id="a-todo"), user)
    a_reopened, a_annotation = assign(make_topic(alpha, external_id="a-reopened"), user)
    edited(user, b_started, b_annotation, minutes_ago=30)
    edited(user, a_reopened, a_annotation, minutes_ago=5)
    with_status(a_reopened, "reopened")
    with_status(a_done, "submitted")
    with_status(b_done, "submitted")

    assert my_topics(user) == [
        ("a-reopened", "reopened"),
        ("b-started", "in_progress"),
        ("a-todo", "assigned"),
        ("b-todo", "assigned"),
        ("a-done", "submitted"),
        ("b-done", "submitted"),
    ]


def test_among_topics_in_progress_the_latest_edited_comes_first():
    user = UserFactory()
    project = Project.objects.create(name="P")
    first, first_annotation = assign(make_topic(project, external_id="first"), user)
    second, second_annotation = assign(make_topic(project, external_id="second"), user)
    edited(user, first, first_annotation, minutes_ago=60)
    edited(user, second, second_annotation, minutes_ago=1)

    assert [topic for topic, _ in my_topics(user)] == ["second", "first"]
