"""The error contract is in the schema: every operation lists its refusals, with the one
error body (and the version-conflict body where an edit can be stale), drawn from the status
table the apps fill (foundation/api/errors.py) and the refusals each app declares beside its
views (`@refuses`, foundation/api/schema.py); the bodies the server sends are the declared
ones.

tests/error_contract.py also checks every refusal every API test receives."""

import re

import jsonschema
import pytest
from drf_spectacular.generators import SchemaGenerator
from rest_framework import status
from rest_framework.test import APIClient

from foundation.api.errors import STATUS_BY_ERROR
from foundation.api.schema import status_in_schema
from tests.annotation.api.test_api_schema import generated_schema, operations
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

    for error, answer in STATUS_BY_ERROR.items():
        if answer == status.HTTP_422_UNPROCESSABLE_ENTITY:
            continue  # the fallback of every rule: its description names rules by example
        assert f"`{error.code}`" in descriptions[str(answer)], (error, answer)


def declarations() -> dict[str, tuple[type[Exception], ...]]:
    """Every `@refuses` on a routed view's handler, by operation ("METHOD path")."""
    generator = SchemaGenerator()
    generator._initialise_endpoints()
    found = {}
    for path, _, method, callback in generator.endpoints:
        handler = getattr(callback.cls, method.lower())
        if getattr(handler, "refusals", ()):
            found[f"{method} {re.sub(r'{pk}', '{id}', path)}"] = handler.refusals
    return found


def test_each_app_declares_its_refusals_beside_its_views_and_the_schema_lists_them(schema):
    every = operations(schema)
    declared = declarations()

    # One per app that has any: the core, accounts, adjudication, suggestions, datasets.
    assert {
        name.split()[1].split("/")[2]
        for name in [
            "POST /api/annotations/{id}/operations/",
            "POST /api/auth/login/",
            "POST /api/adjudications/",
            "POST /api/topics/{id}/suggestion-runs/",
            "POST /api/projects/{id}/release/",
        ]
        if name in declared
    } == {"annotations", "auth", "adjudications", "topics", "projects"}
    missing = {
        (name, error.__name__)
        for name, errors in declared.items()
        for error in errors
        if str(status_in_schema(error)) not in every[name]["responses"]
    }
    assert missing == set()


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
