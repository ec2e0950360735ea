"""The annotator's API, through HTTP: my topics, my annotation, operations, conflicts, undo."""

import pytest
from rest_framework.test import APIClient

from annotation.infra import state_cache
from tests.factories import UserFactory, assign, make_topic, mention_ids, post_op

pytestmark = pytest.mark.django_db


@pytest.fixture
def workspace():
    state_cache.clear()
    topic = make_topic()
    user = UserFactory()
    assignment, annotation = assign(topic, user)
    client = APIClient()
    client.force_authenticate(user)
    return client, topic, assignment, annotation


def test_my_assignments_list_my_topic_with_its_progress(workspace):
    client, topic, assignment, annotation = workspace

    rows = client.get("/api/assignments/mine/").json()

    assert [(r["id"], r["topic"]["id"], r["annotation"]) for r in rows] == [
        (assignment.pk, topic.pk, annotation.pk)
    ]
    assert rows[0]["progress"] == {"assigned": 0, "total": 7}


def test_an_operation_returns_its_effects_and_the_new_version(workspace):
    client, topic, _, annotation = workspace
    m = mention_ids(topic)

    response = post_op(client, annotation, 0, op="assign", mention=m[0], cluster=None)

    assert response.status_code == 200
    body = response.json()
    assert body["version"] == 1
    assert [e["e"] for e in body["effects"]] == ["cluster_created", "member_set"]
    state = client.get(f"/api/annotations/{annotation.pk}/").json()
    assert state["clusters"][0]["members"] == [m[0]]
    assert state["can_undo"] is True


def test_a_stale_version_answers_409_with_the_current_version(workspace):
    client, topic, _, annotation = workspace
    m = mention_ids(topic)
    post_op(client, annotation, 0, op="assign", mention=m[0], cluster=None)

    response = post_op(client, annotation, 0, op="assign", mention=m[1], cluster=None)

    assert response.status_code == 409
    assert response.json()["error"] == "version_conflict"
    assert response.json()["current_version"] == 1


def test_a_rule_violation_answers_422_with_the_reason(workspace):
    client, topic, _, annotation = workspace
    m = mention_ids(topic)
    cluster = post_op(client, annotation, 0, op="assign", mention=m[0], cluster=None).json()[
        "created"
    ]["cluster"]

    response = post_op(client, annotation, 1, op="add_edge", parent=cluster, child=cluster)

    assert response.status_code == 422
    assert response.json()["error"] == "self_loop"
    assert "CRF tagger" in response.json()["message"]


def test_a_malformed_operation_answers_400_naming_the_field(workspace):
    client, _, _, annotation = workspace

    response = post_op(client, annotation, 0, op="assign", cluster=None)

    assert response.status_code == 400
    assert response.json()["field"] == "mention"


def test_undo_then_redo_through_the_api(workspace):
    client, topic, _, annotation = workspace
    m = mention_ids(topic)
    post_op(client, annotation, 0, op="assign", mention=m[0], cluster=None)

    undo = client.post(
        f"/api/annotations/{annotation.pk}/undo/", {"expected_version": 1}, format="json"
    )
    redo = client.post(
        f"/api/annotations/{annotation.pk}/redo/", {"expected_version": 2}, format="json"
    )

    assert undo.status_code == redo.status_code == 200
    assert [e["e"] for e in undo.json()["effects"]] == ["member_set", "cluster_deleted"]
    assert client.get(f"/api/annotations/{annotation.pk}/").json()["clusters"][0]["members"] == [
        m[0]
    ]


def test_submitting_an_incomplete_hierarchy_topic_is_refused_with_the_count(workspace):
    client, _topic, assignment, _annotation = workspace

    response = client.post(f"/api/assignments/{assignment.pk}/submit/")

    assert response.status_code == 422
    assert response.json()["unassigned"] == 7


def test_a_submitted_annotation_is_locked(workspace):
    client, topic, assignment, annotation = workspace
    version = 0
    for mention in mention_ids(topic):
        post_op(client, annotation, version, op="assign", mention=mention, cluster=None)
        version += 1
    assert client.post(f"/api/assignments/{assignment.pk}/submit/").status_code == 200

    response = post_op(client, annotation, version, op="rename", cluster=1, label="x")

    assert response.status_code == 423
    assert response.json()["error"] == "annotation_locked"
