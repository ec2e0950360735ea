"""The error contract is in the schema: every operation lists its refusals, with the one
error body (and the version-conflict body where an edit can be stale), drawn from the status
table in annotation/api/errors.py; the bodies the server sends are the declared ones.

tests/error_contract.py also checks every refusal every API test receives."""

import jsonschema
import pytest
from rest_framework.test import APIClient

from annotation.api.errors import STATUS_BY_ERROR
from annotation.api.schema import QUERY_FLAGS, RAISES
from tests.annotation.test_api_schema import generated_schema, operations
from tests.error_contract import undeclared
from tests.factories import UserFactory, assign, make_topic, mention_ids

ERROR = "#/components/schemas/Error"
CONFLICT = "#/components/schemas/VersionConflict"
# Anyone may call them, with nothing to refuse: no parameter, no body.
CANNOT_REFUSE = {"GET /api/auth/csrf/", "GET /api/session/"}


@pytest.fixture(scope="module")
def schema() -> dict:
    return generated_schema()


def refusals(operation: dict) -> dict[str, str]:
    return {
        code: answer["content"]["application/json"]["schema"]["$ref"]
        for code, answer in operation["responses"].items()
        if not code.startswith("2")
    }


def test_every_operation_that_can_refuse_lists_its_refusals_with_the_error_body(schema):
    every = operations(schema)

    silent = {name for name, operation in every.items() if not refusals(operation)}
    bodies = {ref for operation in every.values() for ref in refusals(operation).values()}

    assert silent == CANNOT_REFUSE
    assert bodies == {ERROR, CONFLICT}


def test_a_stale_edit_is_a_409_whose_body_carries_the_current_version(schema):
    every = operations(schema)
    edits = [
        "POST /api/annotations/{id}/operations/",
        "POST /api/annotations/{id}/undo/",
        "POST /api/annotations/{id}/redo/",
        "POST /api/annotations/{id}/suggestions/accept-above/",
    ]

    assert {name: refusals(every[name]).get("409") for name in edits} == dict.fromkeys(
        edits, CONFLICT
    )
    assert {"current_version", "error", "message"} <= set(
        schema["components"]["schemas"]["VersionConflict"]["required"]
    )


def test_each_status_of_the_table_is_described_by_the_codes_the_table_gives_it(schema):
    every = operations(schema)
    descriptions: dict[str, str] = {}
    for operation in every.values():
        for code, answer in operation["responses"].items():
            descriptions.setdefault(code, answer["description"])

    for error, status in STATUS_BY_ERROR.items():
        assert f"`{error.code}`" in descriptions[str(status)], (error, status)


def test_the_declarations_name_operations_that_exist(schema):
    every = operations(schema)

    assert [name for name in [*RAISES, *QUERY_FLAGS] if name not in every] == []


@pytest.mark.django_db
def test_the_409_the_server_sends_is_the_body_the_schema_declares(schema):
    topic = make_topic()
    user = UserFactory()
    _, annotation = assign(topic, user)
    client = APIClient()
    client.force_authenticate(user)
    url = f"/api/annotations/{annotation.pk}/operations/"
    first, second = mention_ids(topic)[:2]
    client.post(
        url,
        {"expected_version": 0, "operation": {"op": "assign", "mention": first, "cluster": None}},
        format="json",
    )

    stale = client.post(
        url,
        {"expected_version": 0, "operation": {"op": "assign", "mention": second, "cluster": None}},
        format="json",
    )

    assert stale.status_code == 409
    declared = schema["components"]["schemas"]["VersionConflict"]
    jsonschema.validate(stale.json(), declared)
    assert stale.json()["current_version"] == 1


def test_the_check_of_every_test_refuses_an_undeclared_status_or_body():
    body = {"error": "annotation_locked", "message": "Submitted."}

    assert undeclared("PUT", "/api/annotations/7/cursor/", 423, body) is None
    assert "does not list" in undeclared("GET", "/api/annotations/7/operations/", 423, body)
    assert "without the error body" in undeclared("GET", "/api/annotations/7/", 404, "<html>")
    assert "current_version" in undeclared(
        "POST",
        "/api/annotations/7/undo/",
        409,
        {"error": "version_conflict", "message": "Changed."},
    )
