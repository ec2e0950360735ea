"""Every role against every endpoint and object, checking every answer.

Roles: anonymous; the owner (annotator1, assigned, owns annotation A); a colleague
(annotator2, assigned to the same topic, owns annotation B); an outsider (an annotator
without this topic); an admin; the topic's adjudicator (owns the adjudication annotation).
Annotators never see each other's work, nor the adjudication (404, not 403: ids of other
people's work leak nothing); admins read everything but edit only their own work; the
adjudicator reads the annotators' work of the topic, read-only, and the annotators' versions
of their own adjudication.
"""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from annotation.models import Annotation, Assignment
from annotation.services.assignments import assignment_create
from tests.factories import AdminFactory, UserFactory, assign, make_topic, mention_ids

pytestmark = pytest.mark.django_db

ROLES = ("anonymous", "owner", "colleague", "outsider", "admin", "adjudicator")


@pytest.fixture
def world():
    topic = make_topic()
    owner, colleague, outsider, admin = (
        UserFactory(username="annotator1"),
        UserFactory(username="annotator2"),
        UserFactory(username="outsider"),
        AdminFactory(username="boss"),
    )
    adjudicator = UserFactory(username="judge")
    adjudication = assignment_create(
        topic=topic, user=adjudicator, role=Assignment.Role.ADJUDICATOR
    ).annotation
    assignment_a, annotation_a = assign(topic, owner)
    _, annotation_b = assign(topic, colleague)
    gold = Annotation.objects.create(topic=topic, kind=Annotation.Kind.GOLD)
    other_topic = make_topic(topic.project)
    outsider_assignment, _ = assign(other_topic, outsider)
    return {
        "users": {
            "owner": owner,
            "colleague": colleague,
            "outsider": outsider,
            "admin": admin,
            "adjudicator": adjudicator,
        },
        "adjudication": adjudication.pk,
        "topic": topic.pk,
        "project": topic.project_id,
        "a": annotation_a.pk,
        "b": annotation_b.pk,
        "assignment_a": assignment_a.pk,
        "gold": gold.pk,
        "mention": mention_ids(topic)[0],
        "outsider_assignment": outsider_assignment.pk,
    }


def client_for(world, role: str) -> APIClient:
    client = APIClient()
    if role != "anonymous":
        client.force_authenticate(world["users"][role])
    return client


# (description, method, path template, body, expected status per role in ROLES order)
MATRIX = [
    ("who am I", "get", "/api/me/", None, (403, 200, 200, 200, 200, 200)),
    ("my assignments", "get", "/api/assignments/mine/", None, (403, 200, 200, 200, 200, 200)),
    ("read the topic", "get", "/api/topics/{topic}/", None, (403, 200, 200, 404, 200, 200)),
    # A is not submitted: its adjudicator reads submitted versions only.
    ("read annotation A", "get", "/api/annotations/{a}/", None, (403, 200, 404, 404, 200, 404)),
    (
        "read the gold annotation",
        "get",
        "/api/annotations/{gold}/",
        None,
        (403, 404, 404, 404, 200, 404),
    ),
    (
        "read A's log",
        "get",
        "/api/annotations/{a}/operations/",
        None,
        (403, 200, 404, 404, 200, 404),
    ),
    (
        "apply an operation to A",
        "post",
        "/api/annotations/{a}/operations/",
        {
            "expected_version": 0,
            "operation": {"op": "assign", "mention": "{mention}", "cluster": None},
        },
        (403, 200, 404, 404, 403, 404),
    ),
    (
        "undo in A",
        "post",
        "/api/annotations/{a}/undo/",
        {"expected_version": 0},
        (403, 422, 404, 404, 403, 404),
    ),
    (
        "redo in A",
        "post",
        "/api/annotations/{a}/redo/",
        {"expected_version": 0},
        (403, 422, 404, 404, 403, 404),
    ),
    (
        "move A's cursor",
        "put",
        "/api/annotations/{a}/cursor/",
        {"mention": "{mention}"},
        (403, 204, 404, 404, 403, 404),
    ),
    (
        "submit A",
        "post",
        "/api/assignments/{assignment_a}/submit/",
        None,
        (403, 422, 404, 404, 403, 404),
    ),
    (
        "read the adjudication",
        "get",
        "/api/annotations/{adjudication}/",
        None,
        (403, 404, 404, 404, 200, 200),
    ),
    (
        "read the annotators' versions of the adjudication",
        "get",
        "/api/annotations/{adjudication}/versions/",
        None,
        (403, 404, 404, 404, 200, 200),
    ),
    (
        "read versions of an annotator's annotation",
        "get",
        "/api/annotations/{a}/versions/",
        None,
        (403, 404, 404, 404, 404, 404),
    ),
    (
        "change the adjudication",
        "post",
        "/api/annotations/{adjudication}/operations/",
        {
            "expected_version": 0,
            "operation": {"op": "assign", "mention": "{mention}", "cluster": None},
        },
        (403, 404, 404, 404, 403, 200),
    ),
    ("list projects", "get", "/api/projects/", None, (403, 403, 403, 403, 200, 403)),
    (
        "create a project",
        "post",
        "/api/projects/",
        {"name": "new project"},
        (403, 403, 403, 403, 201, 403),
    ),
    ("read a project", "get", "/api/projects/{project}/", None, (403, 403, 403, 403, 200, 403)),
    (
        "change a project",
        "patch",
        "/api/projects/{project}/",
        {"guidelines": "be careful"},
        (403, 403, 403, 403, 200, 403),
    ),
    (
        "list a project's topics",
        "get",
        "/api/projects/{project}/topics/",
        None,
        (403, 403, 403, 403, 200, 403),
    ),
    (
        "read progress",
        "get",
        "/api/projects/{project}/progress/",
        None,
        (403, 403, 403, 403, 200, 403),
    ),
    ("list users", "get", "/api/users/", None, (403, 403, 403, 403, 200, 403)),
    (
        "create a user",
        "post",
        "/api/users/",
        {"username": "newbie", "password": "kettle-orbit-41"},
        (403, 403, 403, 403, 201, 403),
    ),
    ("list all assignments", "get", "/api/assignments/", None, (403, 403, 403, 403, 200, 403)),
    (
        "assign topics",
        "post",
        "/api/assignments/",
        {"project": "{project}", "topics": ["{topic}"], "users": ["{outsider_id}"]},
        (403, 403, 403, 403, 201, 403),
    ),
    (
        "reopen an assignment",
        "post",
        "/api/assignments/{assignment_a}/reopen/",
        None,
        (403, 403, 403, 403, 422, 403),
    ),
    (
        "delete an assignment",
        "delete",
        "/api/assignments/{outsider_assignment}/",
        None,
        (403, 403, 403, 403, 204, 403),
    ),
]


def fill(value, world):
    names = {**world, "outsider_id": world["users"]["outsider"].pk}
    if isinstance(value, str) and value.startswith("{") and value.endswith("}"):
        return names[value[1:-1]]
    if isinstance(value, str):
        return value.format(**names)
    if isinstance(value, dict):
        return {k: fill(v, world) for k, v in value.items()}
    if isinstance(value, list):
        return [fill(v, world) for v in value]
    return value


CASES = [
    pytest.param(
        description,
        method,
        path,
        body,
        role,
        expected[i],
        id=f"{role} may {description}: {expected[i]}",
    )
    for description, method, path, body, expected in MATRIX
    for i, role in enumerate(ROLES)
]


@pytest.mark.parametrize(("description", "method", "path", "body", "role", "expected"), CASES)
def test_role_gets_the_expected_answer(world, description, method, path, body, role, expected):
    client = client_for(world, role)

    response = getattr(client, method)(fill(path, world), fill(body, world), format="json")

    assert response.status_code == expected, response.content[:300]


@pytest.mark.parametrize("role", ["owner", "colleague", "outsider"])
def test_my_assignments_contain_only_my_own(world, role):
    rows = client_for(world, role).get("/api/assignments/mine/").json()

    assert {row["user"] for row in rows} == {world["users"][role].pk}
    assert all(
        row["annotation"] not in {world["a"], world["b"]} or row["user"] == world["users"][role].pk
        for row in rows
    )


def test_an_annotator_cannot_read_a_colleagues_annotation_even_by_guessing_ids(world):
    client = client_for(world, "owner")

    for annotation in (world["b"], world["gold"]):
        assert client.get(f"/api/annotations/{annotation}/").status_code == 404
