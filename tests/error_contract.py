"""Every refusal a test provokes is one the schema declares.

The schema lists each operation's 4xx answers (foundation/api/schema.py builds them from the
status table); this module holds that list to what the server really does. Every response a
test's client receives under /api/ with a 4xx or 503 status is looked up in the committed
frontend/src/api/schema.json: its operation must list the status, and its body must be the
declared error body (`error` and `message` strings; a version conflict carries
`current_version`). tests/conftest.py applies the check to every test.
"""

from __future__ import annotations

import json
import os
import re
from functools import cache
from typing import Any

from tests.paths import REPO

SCHEMA = REPO / "frontend" / "src" / "api" / "schema.json"
CHECKED = re.compile(r"4\d\d|503")
# Refusals of requests no operation of the schema describes: a method the path does not
# have, a media type it does not accept. The schema cannot list these per operation.
UNDESCRIBED = {"405", "406", "415"}
# Set to a file name to list every checked answer there instead of failing (how the
# declarations, now `@refuses` beside each app's views, were first drawn up).
RECORD = os.environ.get("ERROR_CONTRACT_RECORD")


@cache
def _operations() -> list[tuple[re.Pattern[str], str, dict[str, Any]]]:
    schema = json.loads(SCHEMA.read_text())
    found = []
    for path, item in schema["paths"].items():
        parts = re.split(r"\{[^}]+\}", path)
        pattern = re.compile("^" + "[^/]+".join(re.escape(part) for part in parts) + "$")
        for method, operation in item.items():
            found.append((pattern, method.upper(), operation))
    # A literal segment wins over a parameter: /api/assignments/mine/ before .../{id}/.
    return sorted(found, key=lambda each: each[0].pattern.count("[^/]+"))


def operation_for(method: str, path: str) -> dict[str, Any] | None:
    for pattern, each, operation in _operations():
        if each == method and pattern.match(path):
            return operation
    return None


def undeclared(method: str, path: str, status: int, body: Any) -> str | None:
    """Why this answer breaks the contract, or None."""
    code = str(status)
    if not path.startswith("/api/") or not CHECKED.fullmatch(code) or code in UNDESCRIBED:
        return None
    operation = operation_for(method, path)
    if operation is None:
        return None
    name = f"{method} {path} ({operation['operationId']})"
    if code not in operation["responses"]:
        return f"{name} answered {code}, which its schema does not list: {body!r}"
    if not (
        isinstance(body, dict)
        and isinstance(body.get("error"), str)
        and isinstance(body.get("message"), str)
    ):
        return f"{name} answered {code} without the error body: {body!r}"
    if body["error"] == "version_conflict" and not isinstance(body.get("current_version"), int):
        return f"{name} answered a version conflict without current_version: {body!r}"
    return None


def check(response) -> None:
    """Fail the test that received an answer the schema does not declare."""
    request = response.request
    method = request.get("REQUEST_METHOD", "GET").upper()
    path = request.get("PATH_INFO", "")
    if not CHECKED.fullmatch(str(response.status_code)):
        return
    try:
        body = json.loads(response.content) if response.content else None
    except ValueError:
        body = response.content[:200]
    problem = undeclared(method, path, response.status_code, body)
    if RECORD:
        with open(RECORD, "a") as out:
            out.write(json.dumps([method, path, response.status_code, body]) + "\n")
        return
    assert problem is None, problem


def watch(monkeypatch) -> None:
    """Check every answer of Django's and DRF's test clients (DRF's calls Django's)."""
    from django.test import Client

    send = Client.request

    def request(self, **kwargs):
        response = send(self, **kwargs)
        check(response)
        return response

    monkeypatch.setattr(Client, "request", request)
