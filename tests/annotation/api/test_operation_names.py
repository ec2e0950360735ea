"""The API's operation serializers, the committed schema (and so the frontend's types) and the
operations endpoint all follow the one list of names (annotation/domain/operations/names.py)."""

import json

import pytest
from rest_framework.test import APIClient

from annotation.api.serializers.operations import EDIT_SHAPES, SHAPES
from annotation.domain.operations import EDIT_OPERATIONS, OPERATIONS
from tests.annotation.api.test_api_schema import COMMITTED_SCHEMA
from tests.factories import UserFactory, assign, make_topic

pytestmark = pytest.mark.django_db


def discriminated(component: str) -> list[str]:
    schema = json.loads(COMMITTED_SCHEMA.read_text())
    return list(schema["components"]["schemas"][component]["discriminator"]["mapping"])


def test_the_serializers_name_the_list_in_its_order():
    assert list(SHAPES) == list(OPERATIONS)
    assert list(EDIT_SHAPES) == list(EDIT_OPERATIONS)


def test_the_committed_schema_names_the_list():
    assert discriminated("Operation") == list(OPERATIONS)
    assert discriminated("EditOperation") == list(EDIT_OPERATIONS)


@pytest.mark.parametrize("name", OPERATIONS)
def test_every_name_reaches_its_planner_through_the_api(name):
    """An operation with its name alone is refused for a missing field, never for its name."""
    topic, user = make_topic(), UserFactory()
    _, annotation = assign(topic, user)
    client = APIClient()
    client.force_authenticate(user)

    response = client.post(
        f"/api/annotations/{annotation.pk}/operations/",
        {"expected_version": 0, "operation": {"op": name}},
        format="json",
    )

    assert 400 <= response.status_code < 500
    body = response.json()
    assert body.get("field") != "op", body
    assert "must be one of" not in body["message"], body
