"""An annotation's history for admins (docs/annotation-history.md): who did what, when."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from annotation.models import Project
from annotation.services.operations import (
    annotation_operation_apply,
    annotation_undo,
)
from tests.factories import UserFactory, assign, make_topic, mention_ids

pytestmark = pytest.mark.django_db


def do(annotation, user, payload):
    annotation.refresh_from_db()
    return annotation_operation_apply(
        annotation_id=annotation.pk, user=user, payload=payload, expected_version=annotation.version
    )


@pytest.fixture
def worked():
    topic = make_topic(Project.objects.create(name="History"))
    user = UserFactory(username="ann")
    _, annotation = assign(topic, user)
    ids = mention_ids(topic)
    created = do(annotation, user, {"op": "assign", "mention": ids[0], "cluster": None}).created
    do(annotation, user, {"op": "assign", "mention": ids[1], "cluster": created["cluster"]})
    annotation.refresh_from_db()
    annotation_undo(annotation_id=annotation.pk, user=user, expected_version=annotation.version)
    return annotation


def test_an_admin_reads_who_did_what_and_when_oldest_first(worked, admin_client):
    response = admin_client.get(f"/api/annotations/{worked.pk}/timeline/")

    assert response.status_code == 200
    body = response.json()
    assert (body["annotator"], body["version"], body["status"]) == ("ann", 3, "in_progress")
    rows = [
        (e["version"], e["kind"], e["name"], e["user"], e["changes"], e["target_version"])
        for e in body["entries"]
    ]
    assert rows == [
        (1, "do", "assign", "ann", {"cluster created": 1, "mention moved": 1}, None),
        (2, "do", "assign", "ann", {"mention moved": 1}, None),
        (3, "undo", "assign", "ann", {"mention moved": 1}, 2),
    ]
    assert all(e["at"] for e in body["entries"])


def test_the_annotator_may_not_read_the_history(worked):
    client = APIClient()
    client.force_authenticate(worked.assignment.user)

    assert client.get(f"/api/annotations/{worked.pk}/timeline/").status_code == 403
