"""The OpenAPI schema describes every endpoint without generator errors, each operation with a
typed answer; the docs page serves its assets locally (no CDN at run time)."""

import io

import pytest
import yaml
from django.core.management import call_command

METHODS = ("get", "put", "post", "delete", "patch")


def generated_schema() -> dict:
    out = io.StringIO()
    call_command("spectacular", "--fail-on-warn", stdout=out)
    return yaml.safe_load(out.getvalue())


def is_typed(schema: dict) -> bool:
    """A reference, a list of references, or an object that names its properties."""
    if "$ref" in schema:
        return True
    if schema.get("type") == "array":
        return "$ref" in schema.get("items", {})
    return schema.get("type") == "object" and bool(schema.get("properties"))


def describes_its_answer(operation: dict) -> bool:
    """A 2xx answer, each of whose JSON bodies is typed: no body (204) and files (a string
    of bytes or CSV text) say all there is to say; a bare object says nothing."""
    answers = [answer for code, answer in operation["responses"].items() if code.startswith("2")]
    bodies = [
        (media_type, body.get("schema", {}))
        for answer in answers
        for media_type, body in answer.get("content", {}).items()
    ]
    return bool(answers) and all(
        is_typed(schema) if media_type == "application/json" else schema.get("type") == "string"
        for media_type, schema in bodies
    )


def operations(schema: dict) -> dict[str, dict]:
    return {
        f"{method.upper()} {path}": operation
        for path, item in schema["paths"].items()
        for method, operation in item.items()
        if method in METHODS
    }


def test_the_openapi_schema_generates_without_warnings_and_lists_the_operations_endpoint():
    schema = generated_schema()

    assert "/api/annotations/{id}/operations/" in schema["paths"]
    assert "/api/auth/token/" in schema["paths"]


def test_at_least_95_percent_of_the_operations_describe_a_typed_answer():
    every = operations(generated_schema())

    typed = [name for name, operation in every.items() if describes_its_answer(operation)]

    assert len(typed) / len(every) >= 0.95, f"{len(typed)} of {len(every)} typed"


def test_every_operation_describes_a_typed_answer():
    every = operations(generated_schema())

    assert [name for name, operation in every.items() if not describes_its_answer(operation)] == []


@pytest.mark.django_db
def test_the_browsable_docs_use_local_assets(client):
    from tests.factories import UserFactory

    client.force_login(UserFactory())
    page = client.get("/api/docs/").content.decode()

    assert "/static/drf_spectacular_sidecar/" in page
    assert "cdn." not in page
