"""Admins delete or reopen hundreds of assignments in one set-based request, read the
suggestion backends a project may use, and get a project's backend parameters back."""

import pytest
from rest_framework.test import APIClient

from annotation.models import Annotation, Assignment, Project, Topic
from annotation.services.assignments import assignments_bulk_create
from tests.factories import UserFactory, assign, make_topic, mention_ids

pytestmark = pytest.mark.django_db


def many_assignments(topics: int, users: int) -> list[int]:
    project = Project.objects.create(name=f"many {Project.objects.count()}")
    Topic.objects.bulk_create(
        Topic(project=project, external_id=f"t{i}", position=i) for i in range(topics)
    )
    annotators = [UserFactory() for _ in range(users)]
    assignments_bulk_create(topics=list(project.topics.all()), users=annotators)
    return list(Assignment.objects.filter(topic__project=project).values_list("pk", flat=True))


def bulk(client, action: str, ids: list[int], **extra):
    return client.post(
        "/api/assignments/bulk/", {"action": action, "assignments": ids, **extra}, format="json"
    )


def started_assignment():
    user = UserFactory()
    topic = make_topic()
    assignment, annotation = assign(topic, user)
    from annotation.services.operations import annotation_operation_apply

    annotation_operation_apply(
        annotation_id=annotation.pk,
        user=user,
        expected_version=0,
        payload={"op": "assign", "mention": mention_ids(topic)[0], "cluster": None},
    )
    return assignment


def test_deleting_900_assignments_takes_one_request_and_a_few_dozen_queries(
    admin_client, django_assert_max_num_queries
):
    ids = many_assignments(300, 3)

    # Django deletes in chunks of 100 rows: 2 x 9 of the queries, the rest once (one per table
    # that cascades from an annotation: 36 since mention flags joined), and the restore
    # guard's shared lock and its release around the write (corefapp/restoring.py).
    with django_assert_max_num_queries(38):
        response = bulk(admin_client, "delete", ids)

    assert response.status_code == 200, response.content
    assert response.json() == {"action": "delete", "count": 900}
    assert not Assignment.objects.filter(pk__in=ids).exists()
    assert not Annotation.objects.filter(assignment_id__in=ids).exists()


def test_deleting_is_refused_as_a_whole_when_some_assignment_has_work(admin_client):
    started = started_assignment()
    fresh, _ = assign(make_topic(started.topic.project), UserFactory())

    response = bulk(admin_client, "delete", [started.pk, fresh.pk])

    assert response.status_code == 422
    assert response.json()["error"] == "assignment_refused"
    assert response.json()["started"] == 1
    assert Assignment.objects.filter(pk__in=[started.pk, fresh.pk]).count() == 2


def test_deleting_with_discard_work_deletes_started_assignments_too(admin_client):
    started = started_assignment()

    response = bulk(admin_client, "delete", [started.pk], discard_work=True)

    assert response.status_code == 200
    assert not Assignment.objects.filter(pk=started.pk).exists()


def test_reopening_reopens_only_the_submitted_assignments(admin_client):
    ids = many_assignments(4, 1)
    Assignment.objects.filter(pk__in=ids[:2]).update(status=Assignment.Status.SUBMITTED)

    response = bulk(admin_client, "reopen", ids)

    assert response.json() == {"action": "reopen", "count": 2}
    statuses = dict(Assignment.objects.filter(pk__in=ids).values_list("pk", "status"))
    assert [statuses[i] for i in ids] == ["reopened", "reopened", "assigned", "assigned"]


def test_an_unknown_assignment_refuses_the_whole_request(admin_client):
    ids = many_assignments(2, 1)

    response = bulk(admin_client, "delete", [*ids, 987654321])

    assert response.status_code == 422
    assert response.json()["missing"] == [987654321]
    assert Assignment.objects.filter(pk__in=ids).count() == 2


def test_annotators_cannot_use_bulk_actions():
    ids = many_assignments(1, 1)
    client = APIClient()
    client.force_authenticate(UserFactory())

    assert bulk(client, "delete", ids).status_code == 403
