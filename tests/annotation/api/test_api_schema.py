"""The OpenAPI schema describes every endpoint without generator errors, each operation with a
typed answer; the schema and the TypeScript types the frontend uses are generated from the
code and committed, and fail here when they drift from it; the docs page serves its assets
locally (no CDN at run time)."""

import io
import shutil
import subprocess

import pytest
import yaml
from django.core.management import call_command

from tests.paths import REPO

FRONTEND = REPO / "frontend"
COMMITTED_SCHEMA = FRONTEND / "src" / "api" / "schema.json"
REGENERATE = "cd frontend && npm run api"
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


def test_the_committed_schema_is_the_one_the_code_generates(tmp_path):
    fresh = tmp_path / "schema.json"
    call_command(
        "spectacular",
        "--fail-on-warn",
        "--validate",
        "--format",
        "openapi-json",
        "--file",
        str(fresh),
    )

    assert COMMITTED_SCHEMA.read_bytes() == fresh.read_bytes(), (
        f"{COMMITTED_SCHEMA.relative_to(REPO)} differs from what the serializers describe now: "
        f"regenerate it and the TypeScript types with `{REGENERATE}`"
    )


def test_the_committed_typescript_types_are_the_ones_generated_from_the_schema():
    npm = shutil.which("npm")
    assert npm, "npm is needed to check frontend/src/api/schema.d.ts (install Node.js 20)"
    assert (FRONTEND / "node_modules" / ".bin" / "openapi-typescript").exists(), (
        "openapi-typescript is not installed: run `cd frontend && npm ci`"
    )

    # The script that writes the types, asked to compare instead (exit status 1 on a change).
    check = subprocess.run(
        [npm, "run", "--silent", "api:types", "--", "--check"],
        check=False,
        cwd=FRONTEND,
        capture_output=True,
        text=True,
        timeout=120,
    )

    assert check.returncode == 0, (
        "frontend/src/api/schema.d.ts differs from what openapi-typescript generates from "
        f"schema.json: regenerate both with `{REGENERATE}`\n{check.stdout}{check.stderr}"
    )


@pytest.mark.django_db
def test_the_browsable_docs_use_local_assets(client):
    from tests.factories import UserFactory

    client.force_login(UserFactory())
    page = client.get("/api/docs/").content.decode()

    assert "/static/drf_spectacular_sidecar/" in page
    assert "cdn." not in page
