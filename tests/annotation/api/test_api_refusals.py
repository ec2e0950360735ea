"""Bad input is refused with a JSON 4xx that says why: never a 500, never an HTML page."""

import json

import pytest
from rest_framework.test import APIClient

from annotation.api.parsers import MAX_DEPTH
from annotation.domain.operations import SUGGESTION_DECISIONS
from annotation.domain.operations.clusters import LABEL_MAX_CHARS, NOTE_MAX_CHARS
from modelserve.models import Suggestion, SuggestionRun
from tests.factories import (
    AdminFactory,
    UserFactory,
    annotating,
    assign,
    make_topic,
    mention_ids,
    post_op,
)

pytestmark = pytest.mark.django_db


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


def assert_json_refusal(response, status: int) -> dict:
    assert response.status_code == status, response.content[:300]
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert body["error"]
    assert body["message"]
    return body


@pytest.fixture
def workspace():
    topic = make_topic()
    annotation, client = annotating(topic)
    return client, topic, annotation


# --------------------------------------------------------------------------- JSON bodies


@pytest.mark.parametrize("path", ["/api/auth/token/", "/api/auth/login/"])
def test_deeply_nested_json_is_refused_before_sign_in(path):
    response = APIClient().post(path, nested(100_000), content_type="application/json")

    body = assert_json_refusal(response, 400)
    assert f"deeper than {MAX_DEPTH}" in body["message"]


def test_json_nested_just_past_the_limit_is_refused_and_at_the_limit_parsed(workspace):
    client, _, annotation = workspace
    url = f"/api/annotations/{annotation.pk}/operations/"

    too_deep = client.post(url, nested(MAX_DEPTH + 1), content_type="application/json")
    at_limit = client.post(url, nested(MAX_DEPTH), content_type="application/json")

    assert "deeper than" in assert_json_refusal(too_deep, 400)["message"]
    assert "deeper than" not in assert_json_refusal(at_limit, 400)["message"]


def test_a_body_over_the_request_limit_is_a_json_413(workspace, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    client, _, annotation = workspace

    response = client.post(
        f"/api/annotations/{annotation.pk}/operations/",
        json.dumps({"expected_version": 0, "operation": {"op": "set_note", "note": "x" * 2000}}),
        content_type="application/json",
    )

    body = assert_json_refusal(response, 413)
    assert "1,000-byte limit" in body["message"]


def test_a_form_body_over_the_limit_read_before_any_view_is_a_json_413(settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    from django.test import Client

    # With a CSRF cookie, the CSRF check reads the form body before any view runs.
    client = Client(enforce_csrf_checks=True)
    client.cookies["csrftoken"] = "a" * 32
    response = client.post("/admin/login/", {"username": "x" * 2000})

    assert_json_refusal(response, 413)


# --------------------------------------------------------------------------- unknown paths


@pytest.mark.parametrize(
    "path", ["/api/nothing/", "/api/projects/abc/", "/api/topics/1.5/", "/api/me"]
)
def test_an_unknown_api_path_is_a_json_404(admin_client, path):
    assert_json_refusal(admin_client.get(path), 404)
    assert_json_refusal(admin_client.post(path, {}, format="json"), 404)


def test_an_api_path_without_its_slash_says_where_the_endpoint_is(admin_client):
    body = assert_json_refusal(admin_client.get("/api/me"), 404)

    assert "/api/me/" in body["message"]


# --------------------------------------------------------------------------- query parameters


@pytest.mark.parametrize("query", ["project=abc", "user=abc", "topic=1.5", "user=1e3"])
def test_malformed_assignment_filters_are_a_json_400(admin_client, query):
    assert_json_refusal(admin_client.get(f"/api/assignments/?{query}"), 400)


@pytest.mark.parametrize("run", ["abc", "1.5", "-1", "99999999999999999999999"])
def test_a_malformed_run_parameter_is_a_json_4xx(workspace, run):
    client, _, annotation = workspace

    response = client.get(f"/api/annotations/{annotation.pk}/suggestions/?run={run}")

    assert response.status_code in (400, 404)
    assert_json_refusal(response, response.status_code)


# --------------------------------------------------------------------------- decisions


@pytest.mark.parametrize("suggestion", ["x", [1], {}, None, 1.5, True, 10**30])
@pytest.mark.parametrize("op", SUGGESTION_DECISIONS)
def test_a_decision_naming_no_suggestion_id_is_refused(workspace, op, suggestion):
    client, _, annotation = workspace

    response = post_op(
        client, annotation, 0, op=op, suggestion=suggestion, operation={"op": "assign"}
    )

    assert response.status_code in (400, 404)
    assert_json_refusal(response, response.status_code)


def finished_run(topic) -> SuggestionRun:
    return SuggestionRun.objects.create(topic=topic, backend="minilm", status="succeeded")


def test_a_suggestion_of_another_topic_reads_like_one_that_does_not_exist(workspace):
    client, _, annotation = workspace
    elsewhere = Suggestion.objects.create(
        run=finished_run(make_topic()), kind="membership", position=0, score=0.5, payload={}
    )
    missing_id = elsewhere.pk + 1000

    answers = [
        post_op(client, annotation, 0, op="reject_suggestion", suggestion=elsewhere.pk),
        post_op(client, annotation, 0, op="reject_suggestion", suggestion=missing_id),
    ]

    bodies = [assert_json_refusal(answer, 404) for answer in answers]
    assert bodies[0]["message"].replace(str(elsewhere.pk), "N") == bodies[1]["message"].replace(
        str(missing_id), "N"
    )
    assert {k: v for k, v in bodies[0].items() if k not in ("message", "id")} == {
        k: v for k, v in bodies[1].items() if k not in ("message", "id")
    }


def test_a_run_of_another_topic_reads_like_one_that_does_not_exist(workspace):
    client, _, annotation = workspace
    elsewhere = finished_run(make_topic())
    missing_id = elsewhere.pk + 1000

    for path in (
        f"/api/annotations/{annotation.pk}/suggestions/?run={{}}",
        f"/api/annotations/{annotation.pk}/suggestions/accept-above/?run={{}}",
    ):
        if "accept-above" in path:
            answers = [
                client.post(
                    path.split("?")[0],
                    {"expected_version": 0, "threshold": 0.5, "run": run},
                    format="json",
                )
                for run in (elsewhere.pk, missing_id)
            ]
        else:
            answers = [client.get(path.format(run)) for run in (elsewhere.pk, missing_id)]
        bodies = [assert_json_refusal(answer, 404) for answer in answers]
        assert bodies[0]["message"] == bodies[1]["message"]


def test_an_annotation_of_someone_else_reads_like_one_that_does_not_exist(workspace):
    client, _, _ = workspace
    _, others = assign(make_topic(), UserFactory())
    missing_id = others.pk + 1000

    for method, path, body in [
        ("get", "/api/annotations/{}/", None),
        ("get", "/api/annotations/{}/suggestions/", None),
        ("post", "/api/annotations/{}/operations/", {"expected_version": 0, "operation": {}}),
        ("post", "/api/annotations/{}/undo/", {"expected_version": 0}),
        ("put", "/api/annotations/{}/cursor/", {"mention": None}),
    ]:
        answers = [
            getattr(client, method)(path.format(pk), body, format="json")
            for pk in (others.pk, missing_id)
        ]
        bodies = [assert_json_refusal(answer, 404) for answer in answers]
        assert bodies[0]["message"].replace(str(others.pk), "N") == bodies[1]["message"].replace(
            str(missing_id), "N"
        ), path


# --------------------------------------------------------------------------- sizes


def new_cluster(client, topic, annotation) -> int:
    created = post_op(
        client, annotation, 0, op="assign", mention=mention_ids(topic)[0], cluster=None
    )
    return created.json()["created"]["cluster"]


def test_a_label_over_the_limit_is_refused_with_the_limit(workspace):
    client, topic, annotation = workspace
    cluster = new_cluster(client, topic, annotation)

    too_long = post_op(
        client, annotation, 1, op="rename", cluster=cluster, label="x" * (LABEL_MAX_CHARS + 1)
    )
    at_limit = post_op(
        client, annotation, 1, op="rename", cluster=cluster, label="x" * LABEL_MAX_CHARS
    )

    body = assert_json_refusal(too_long, 400)
    assert body["error"] == "too_long"
    assert body["limit"] == LABEL_MAX_CHARS
    assert f"at most {LABEL_MAX_CHARS:,} characters" in body["message"]
    assert at_limit.status_code == 200


def test_a_note_over_the_limit_is_refused_with_the_limit(workspace):
    client, topic, annotation = workspace
    cluster = new_cluster(client, topic, annotation)

    too_long = post_op(
        client, annotation, 1, op="set_note", cluster=cluster, note="x" * (NOTE_MAX_CHARS + 1)
    )
    at_limit = post_op(
        client, annotation, 1, op="set_note", cluster=cluster, note="x" * NOTE_MAX_CHARS
    )

    body = assert_json_refusal(too_long, 400)
    assert body["error"] == "too_long"
    assert body["limit"] == NOTE_MAX_CHARS
    assert at_limit.status_code == 200


def test_project_guidelines_over_the_limit_are_refused(admin_client):
    response = admin_client.post(
        "/api/projects/", {"name": "p", "guidelines": "x" * 100_001}, format="json"
    )

    assert "guidelines" in assert_json_refusal(response, 400)["fields"]


UNSTORABLE = {"nul": ("\u0000", "U+0000"), "surrogate": ("\ud800", "lone surrogate")}


@pytest.mark.parametrize("kind", sorted(UNSTORABLE))
def test_text_postgresql_cannot_store_is_refused_where_it_gave_500s(workspace, kind):
    """PostgreSQL cannot store U+0000 or a lone surrogate in text or jsonb, and a refusal that
    echoed a surrogate could not be encoded: each of these was once a 500. Every body is
    checked once, in the parser; the message says where, not what (the sweep over the whole
    schema is tests/annotation/api/test_api_unstorable_text.py)."""
    client, topic, annotation = workspace
    bad, words = UNSTORABLE[kind]
    cluster = new_cluster(client, topic, annotation)
    admin = APIClient()
    admin.force_authenticate(AdminFactory())
    project = topic.project_id
    operations = f"/api/annotations/{annotation.pk}/operations/"
    rename = {"op": "rename", "cluster": cluster, "label": "x"}
    note = {"op": "set_note", "cluster": cluster, "note": bad}
    sent = {
        "operation.label": (client, operations, {"operation": {**rename, "label": f"x{bad}"}}),
        "operation.note": (client, operations, {"operation": note}),
        "a key of operation": (client, operations, {"operation": {**rename, f"extra{bad}": 1}}),
        "params.k": (admin, "suggestion-settings/", {"params": {"k": f"a{bad}b"}}),
        "a key of params": (admin, "suggestion-settings/", {"params": {f"a{bad}": 1}}),
        "params.seed": (
            admin,
            "suggestion-runs/",
            {"backend": "singleton", "params": {"seed": bad}},
        ),
        "params.note": (
            admin,
            "model-evaluations/",
            {"backend": "singleton", "params": {"note": bad}},
        ),
        "role": (admin, "/api/assignments/", {"topics": [topic.pk], "users": [], "role": bad}),
        "mode": (admin, "/api/assignments/", {"topics": [topic.pk], "users": [], "mode": bad}),
        "action": (admin, "/api/assignments/bulk/", {"action": bad, "assignments": []}),
    }

    for where, (sender, path, body) in sent.items():
        if path == operations:
            body = {"expected_version": 1, **body}
        elif path.startswith("/api/"):
            body = {"project": project, **body}
        else:
            path = f"/api/projects/{project}/{path}"
        method = "PUT" if path.endswith("suggestion-settings/") else "POST"
        # json.dumps escapes the surrogate (`\ud800`), as a browser sends it.
        answer = sender.generic(method, path, json.dumps(body), content_type="application/json")
        refusal = assert_json_refusal(answer, 400)
        assert words in refusal["message"], (where, refusal)
        assert f"(in {where})" in refusal["message"], (where, refusal)
        assert bad not in json.dumps(refusal, ensure_ascii=False), (where, refusal)
    assert annotation.operations.count() == 1  # the assign that made the cluster
