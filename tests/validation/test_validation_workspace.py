"""Validation decisions through the service and the API: logged, undoable, read back."""

import json

import pytest
from django.core.management import call_command

from annotation.models import Annotation, Project, ValidationDecision
from annotation.services.operations import annotation_operation_apply, annotation_undo
from tests.factories import PASSWORD, UserFactory, assign, mention_ids
from tests.validation.validation_setup import validation_topic
from validation.selectors.workspace import validation_payload

pytestmark = pytest.mark.django_db


def decide(annotation, user, version, mention, decision, reason=None, note=""):
    return annotation_operation_apply(
        annotation_id=annotation.pk,
        user=user,
        expected_version=version,
        payload={
            "op": "validate",
            "mention": mention,
            "decision": decision,
            "reason": reason,
            "note": note,
        },
    )


def test_a_decision_is_stored_and_undo_removes_it():
    topic = validation_topic()
    user = UserFactory()
    _, annotation = assign(topic, user)
    m = mention_ids(topic)

    decide(annotation, user, 0, m[1], "rejected", "subevent", "a sub-event")
    row = ValidationDecision.objects.get(annotation=annotation)
    assert (row.mention_id, row.decision, row.reason, row.note) == (
        m[1],
        "rejected",
        "subevent",
        "a sub-event",
    )
    annotation_undo(annotation_id=annotation.pk, user=user, expected_version=1)
    assert not ValidationDecision.objects.filter(annotation=annotation).exists()


def test_the_payload_orders_members_most_confident_first_and_reads_back_decisions():
    topic = validation_topic()
    user = UserFactory()
    _, annotation = assign(topic, user)
    m = mention_ids(topic)
    decide(annotation, user, 0, m[0], "accepted")

    annotation = Annotation.objects.select_related("topic__project", "assignment__user").get(
        pk=annotation.pk
    )
    payload = validation_payload(annotation)

    crf = next(c for c in payload["clusters"] if c["label"] == "CRF tagger")
    assert crf["members"] == [m[0], m[3], m[4], m[1]]  # 0.9, 0.7, 0.5, 0.2
    assert [x["id"] for x in payload["mentions"]] == m  # document order
    assert payload["mentions"][1]["confidence"] == 0.2
    assert payload["decisions"] == {str(m[0]): {"decision": "accepted", "reason": None, "note": ""}}
    assert [r["key"] for r in payload["reasons"]] == ["trigger", "context", "subevent"]
    assert payload["can_undo"]
    assert payload["others"] == {}


def test_the_api_serves_the_validation_workspace_to_its_validator_only(client):
    topic = validation_topic()
    user, stranger = UserFactory(), UserFactory()
    _, annotation = assign(topic, user)
    client.login(username=stranger.username, password=PASSWORD)
    assert client.get(f"/api/validation/annotations/{annotation.pk}/").status_code == 404
    client.login(username=user.username, password=PASSWORD)
    answer = client.get(f"/api/validation/annotations/{annotation.pk}/")
    assert answer.status_code == 200
    assert len(answer.json()["mentions"]) == 7


def test_a_decision_through_the_operations_endpoint_comes_back_as_its_effect(client):
    topic = validation_topic()
    user = UserFactory()
    _, annotation = assign(topic, user)
    m = mention_ids(topic)
    client.login(username=user.username, password=PASSWORD)
    answer = client.post(
        f"/api/annotations/{annotation.pk}/operations/",
        {
            "expected_version": 0,
            "operation": {"op": "validate", "mention": m[2], "decision": "accepted"},
        },
        content_type="application/json",
    )
    assert answer.status_code == 200, answer.content
    assert answer.json()["effects"] == [
        {
            "e": "validation_set",
            "mention": m[2],
            "old": None,
            "new": {"decision": "accepted", "reason": None, "note": ""},
        }
    ]


def test_import_as_validation_creates_a_validation_project_and_reads_member_confidences(tmp_path):
    tokens = [
        "The",
        "court",
        "ruled",
        ".",
        "The",
        "ruling",
        "came",
        "late",
        ".",
        "Judges",
        "ruled",
        "again",
        ".",
    ]
    document = {
        "tokens": [{"i": i, "document": 0, "text": t} for i, t in enumerate(tokens)],
        "mentions": [
            {"start": 2, "end": 2, "clustId": "rule", "confidence": 0.8},
            {"start": 5, "end": 5, "clustId": "rule", "confidence": 0.3},
            {"start": 11, "end": 11, "clustId": "rule", "confidence": 0.6},
        ],
    }
    path = tmp_path / "rulings.json"
    path.write_text(json.dumps(document))

    call_command(
        "import_topics",
        "--project",
        "V",
        "--format",
        "corefi",
        "--create",
        "--as",
        "validation",
        str(path),
    )

    project = Project.objects.get(name="V")
    assert project.validation
    assert not project.hierarchy
    assert project.scheme == "validation"
    topic = project.topics.get()
    user = UserFactory()
    _, annotation = assign(topic, user)
    annotation = Annotation.objects.select_related("topic__project", "assignment__user").get(
        pk=annotation.pk
    )
    payload = validation_payload(annotation)
    confidences = {x["id"]: x["confidence"] for x in payload["mentions"]}
    first = payload["clusters"][0]["members"]
    assert [confidences[id] for id in first] == [0.8, 0.6, 0.3]


def test_import_as_validation_refuses_a_file_without_clusters(tmp_path):
    document = {
        "tokens": [{"i": 0, "document": 0, "text": "Nothing"}],
        "mentions": [{"start": 0, "end": 0}],
    }
    path = tmp_path / "plain.json"
    path.write_text(json.dumps(document))
    with pytest.raises(Exception, match="nothing"):
        call_command(
            "import_topics",
            "--project",
            "W",
            "--format",
            "corefi",
            "--create",
            "--as",
            "validation",
            str(path),
        )
    assert not Project.objects.filter(name="W").exists()


def test_a_validators_progress_is_the_mentions_decided():
    from annotation.selectors.progress import project_progress
    from annotation.selectors.workspace import my_assignments_payload

    topic = validation_topic()
    user = UserFactory()
    _, annotation = assign(topic, user)
    m = mention_ids(topic)
    decide(annotation, user, 0, m[0], "accepted")
    decide(annotation, user, 1, m[1], "rejected", "trigger")

    (row,) = my_assignments_payload(user)
    assert row["progress"] == {"assigned": 2, "total": 7}
    (cell,) = project_progress(topic.project)["cells"]
    assert (cell["mentions_done"], cell["mentions_total"]) == (2, 7)


def test_an_admin_creates_a_validation_project_which_uses_that_scheme_alone(client):
    from tests.factories import AdminFactory

    client.login(username=AdminFactory().username, password=PASSWORD)
    made = client.post(
        "/api/projects/",
        {"name": "WEC", "hierarchy": False, "validation": True},
        content_type="application/json",
    )
    assert made.status_code == 201, made.content
    assert made.json()["validation"] is True
    assert Project.objects.get(name="WEC").scheme == "validation"
    mixed = client.post(
        "/api/projects/",
        {"name": "both", "hierarchy": True, "validation": True},
        content_type="application/json",
    )
    assert mixed.status_code == 422
    assert "validation scheme alone" in mixed.json()["message"]
