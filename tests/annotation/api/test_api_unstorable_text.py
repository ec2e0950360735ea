"""Text PostgreSQL cannot store, a NUL (U+0000) or a lone surrogate (`"\\ud800"`, which JSON can
spell), is refused with a JSON 4xx wherever a request carries it, and nothing is written.

The test walks the committed OpenAPI schema (frontend/src/api/schema.json): for every
operation with a request body it builds a body the schema describes, about objects that exist
(each alternative of a `oneOf` separately: every kind of annotation operation), then sends one
copy of it per place a string can go, with the bad text put there: every string field, every
object key, an extra key in every object. JSON bodies get both kinds; a form or multipart body
cannot carry a surrogate (Django decodes it with replacement characters), so those get the NUL
in each top-level field and key. Before the parser refused them (annotation/api/parsers.py), a
surrogate in an operation's label or note or an extra key of its payload, a backend parameter,
an assignment's `role` or `mode` or a bulk `action` was a 500.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from typing import Any

import pytest
from django.apps import apps
from django.core.cache import cache
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from annotation.infra import state_cache
from annotation.services.operations import annotation_operation_apply
from tests.annotation.api.test_api_schema import COMMITTED_SCHEMA
from tests.factories import AdminFactory, UserFactory, assign, make_topic, mention_ids

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

SCHEMA = json.loads(COMMITTED_SCHEMA.read_text())
BAD = {"nul": "\x00", "surrogate": "\ud800"}
METHODS = ("post", "put", "patch")
MULTIPART = "multipart/form-data"
UPLOAD = ("file.json", b"{}")  # a file field: a fresh upload in each request


def resolve(schema: dict) -> dict:
    while "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        schema = {
            **SCHEMA["components"]["schemas"][name],
            **{k: v for k, v in schema.items() if k != "$ref"},
        }
    if "allOf" in schema:
        return resolve({**schema["allOf"][0], **{k: v for k, v in schema.items() if k != "allOf"}})
    return schema


def examples(schema: dict, name: str, ids: dict[str, Any], seen: tuple = ()) -> Iterator[Any]:
    """Values the schema describes, about the objects in `ids` (by property name): one per
    alternative of each `oneOf` met on the way (the first only where a schema holds itself:
    an accepted suggestion holds an operation)."""
    again = schema.get("$ref") in seen
    seen = (*seen, schema["$ref"]) if "$ref" in schema else seen
    schema = resolve(schema)
    if "oneOf" in schema:
        mapping = schema.get("discriminator", {}).get("mapping", {})
        if mapping:
            prop = schema["discriminator"]["propertyName"]
            for value, ref in list(mapping.items())[: 1 if again else None]:
                for example in examples({"$ref": ref}, name, ids, seen):
                    yield {**example, prop: value}
        else:
            yield from examples(schema["oneOf"][0], name, ids, seen)
        return
    kind = schema.get("type")
    if "enum" in schema:
        yield next(value for value in schema["enum"] if value not in ("", None))
    elif kind == "object" or "properties" in schema:
        yield from objects(schema, ids, seen)
    elif kind == "array":
        for item in examples(schema.get("items", {}), name, ids, seen):
            yield [item]
    elif kind == "integer":
        yield ids.get(name, schema.get("minimum", 1))
    elif kind == "number":
        yield 0.5
    elif kind == "boolean":
        yield False
    elif kind == "string" and schema.get("format") == "binary":
        yield UPLOAD
    else:
        yield ids.get(name, "x")


def objects(schema: dict, ids: dict[str, Any], seen: tuple) -> Iterator[dict]:
    properties = schema.get("properties", {})
    if not properties:
        yield {"k": "v"} if schema.get("additionalProperties") is not None else {}
        return
    choices = {name: list(examples(prop, name, ids, seen)) for name, prop in properties.items()}
    # One object per alternative of the property that has the most; the others take their first.
    widest = max(choices, key=lambda name: len(choices[name]))
    for value in choices[widest]:
        yield {**{name: values[0] for name, values in choices.items()}, widest: value}


def spoiled(body: Any, bad: str) -> Iterator[tuple[str, Any]]:
    """(where, copy of `body` with `bad` in that place) for every string value, every key and
    an extra key of every object."""
    places: list[tuple[str, list[Any]]] = [("body", [])]
    while places:
        where, path = places.pop()
        value = _at(body, path)
        if isinstance(value, str):
            yield where, _replaced(body, path, f"x{bad}y")
        elif isinstance(value, dict):
            yield f"{where} (extra key)", _replaced(body, path, {**value, f"extra{bad}": "x"})
            for key in value:
                renamed = {(f"{k}{bad}" if k == key else k): v for k, v in value.items()}
                yield f"{where} key {key}", _replaced(body, path, renamed)
                places.append((f"{where}.{key}", [*path, key]))
        elif isinstance(value, list):
            places.extend((f"{where}[{i}]", [*path, i]) for i in range(len(value)))


def _at(body: Any, path: list[Any]) -> Any:
    for step in path:
        body = body[step]
    return body


def _replaced(body: Any, path: list[Any], value: Any) -> Any:
    if not path:
        return value
    body = copy.deepcopy(body)
    _at(body, path[:-1])[path[-1]] = value
    return body


def echoes(answer: Any) -> bool:
    """Whether a string or key of the answer holds a NUL or a lone surrogate."""
    text = json.dumps(answer, ensure_ascii=False)
    return "\x00" in text or any(0xD800 <= ord(c) <= 0xDFFF for c in text)


def row_counts() -> dict[str, int]:
    return {model._meta.label: model.objects.count() for model in apps.get_models()}


@pytest.fixture
def world(settings):
    state_cache.clear()
    cache.clear()
    for rate in (
        "LOGIN_THROTTLE_RATE",
        "LOGIN_ADDRESS_THROTTLE_RATE",
        "LOGIN_ACCOUNT_THROTTLE_RATE",
    ):
        setattr(settings, rate, "1000000/min")
    annotator, admin = UserFactory(), AdminFactory()
    topic = make_topic()
    assignment, annotation = assign(topic, annotator)
    mentions = mention_ids(topic)
    clusters = [
        annotation_operation_apply(
            annotation_id=annotation.pk,
            user=annotator,
            payload={"op": "assign", "mention": mention, "cluster": None},
            expected_version=version,
        ).created["cluster"]
        for version, mention in enumerate(mentions[:2])
    ]
    objects_by_segment = {
        "annotations": annotation.pk,
        "assignments": assignment.pk,
        "projects": topic.project_id,
        "topics": topic.pk,
        "users": annotator.pk,
    }
    ids = {
        "project": topic.project_id,
        "topics": topic.pk,
        "topic": topic.pk,
        "user": annotator.pk,
        "users": annotator.pk,
        "assignments": assignment.pk,
        "mention": mentions[0],
        "anaphor": mentions[0],
        "antecedent": mentions[1],
        "cluster": clusters[0],
        "parent": clusters[0],
        "child": clusters[1],
        "document": topic.documents.order_by("position").first().pk,
        "expected_version": 2,
        "version": None,
        "username": annotator.username,
    }
    return objects_by_segment, ids, annotator, admin


def url(path: str, objects_by_segment: dict[str, int], ids: dict[str, Any]) -> str:
    segment = path.split("/")[2] if path.count("/") > 2 else ""
    if segment == "onboarding":
        segment = path.split("/")[3]
    return path.format(
        id=objects_by_segment.get(segment, 1), mention=ids["mention"], user=ids["user"]
    )


def requests(objects_by_segment, ids) -> Iterator[tuple[str, str, str, str, Any]]:
    """(label, method, url, content type, body) for every spoiled body of the schema."""
    for path, operations in sorted(SCHEMA["paths"].items()):
        for method in METHODS:
            content = operations.get(method, {}).get("requestBody", {}).get("content", {})
            target = url(path, objects_by_segment, ids)
            for media_type, kinds in (("application/json", BAD), (MULTIPART, {"nul": BAD["nul"]})):
                if media_type not in content:
                    continue
                for body in examples(content[media_type]["schema"], "body", ids):
                    if media_type == MULTIPART:
                        body = {k: v for k, v in body.items() if isinstance(v, (str, int, tuple))}
                    for kind, bad in kinds.items():
                        for where, sent in spoiled(body, bad):
                            label = f"{method.upper()} {path} {media_type}: {kind} in {where}"
                            yield label, method, target, media_type, sent


def client_for(path: str, annotator, admin) -> APIClient:
    client = APIClient(raise_request_exception=False)  # a failure answers 500, as served
    if path.startswith("/api/annotations/"):
        client.force_authenticate(annotator)
    elif not path.startswith("/api/auth/"):
        client.force_authenticate(admin)
    return client


def send(client: APIClient, method: str, path: str, media_type: str, body: Any):
    if media_type == "application/json":
        # ensure_ascii: the surrogate travels as the escape `\ud800`, as a browser would send it.
        return client.generic(method.upper(), path, json.dumps(body), content_type=media_type)
    files = {k: SimpleUploadedFile(*v) if v == UPLOAD else v for k, v in body.items()}
    return getattr(client, method)(path, files, format="multipart")


def test_no_string_field_or_key_of_any_body_takes_a_nul_or_a_lone_surrogate(world):
    objects_by_segment, ids, annotator, admin = world
    before = row_counts()
    sent, problems = 0, []
    for label, method, path, media_type, body in requests(objects_by_segment, ids):
        response = send(client_for(path, annotator, admin), method, path, media_type, body)
        sent += 1
        if not 400 <= response.status_code < 500:
            problems.append(f"{label}: {response.status_code} {response.content[:200]!r}")
        elif not response["Content-Type"].startswith("application/json"):
            problems.append(f"{label}: {response.status_code} not JSON: {response.content[:200]!r}")
        elif echoes(json.loads(response.content.decode("utf-8"))):
            problems.append(f"{label}: the refusal echoes the text: {response.content[:200]!r}")
    assert not problems, f"{len(problems)} of {sent}:\n" + "\n".join(problems)
    assert row_counts() == before
    assert sent > 300  # every operation with a body took part
