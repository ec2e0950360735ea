"""GET /api/annotations/<id>/suggestions/: what the workspace reads besides the items (the
version they were mapped against, the topic's newest run in any state)."""

from __future__ import annotations

import pytest
from django.utils import timezone

from modelserve.models import Suggestion, SuggestionRun
from tests.factories import annotating, make_topic, mention_ids

pytestmark = pytest.mark.django_db


def finished_run(topic, groups: list[list[int]]) -> SuggestionRun:
    run = SuggestionRun.objects.create(
        topic=topic, backend="minilm", status="succeeded", progress=1.0, finished_at=timezone.now()
    )
    for i, members in enumerate(groups):
        cluster = Suggestion.objects.create(
            run=run, kind="cluster", position=i, score=0.9, payload={"mentions": members}
        )
        for j, mention in enumerate(members):
            Suggestion.objects.create(
                run=run,
                kind="membership",
                position=10 * i + j,
                score=0.8,
                payload={"mention": mention, "cluster": cluster.pk},
            )
    return run


@pytest.fixture
def workspace():
    topic = make_topic()
    annotation, client = annotating(topic)
    return topic, annotation, client, mention_ids(topic)


def test_without_any_run_the_answer_is_empty_and_names_the_version(workspace):
    _, annotation, client, _ = workspace
    body = client.get(f"/api/annotations/{annotation.pk}/suggestions/").json()
    assert body == {
        "run": None,
        "memberships": [],
        "edges": [],
        "links": [],
        "mentions": [],
        "version": 0,
        "newest_run": None,
    }


def test_a_queued_run_after_a_finished_one_is_the_newest_and_the_items_come_from_the_finished_one(
    workspace,
):
    topic, annotation, client, ids = workspace
    done = finished_run(topic, [[ids[0], ids[1]]])
    queued = SuggestionRun.objects.create(
        topic=topic, backend="minilm", message="waiting for a model worker"
    )

    body = client.get(f"/api/annotations/{annotation.pk}/suggestions/").json()

    assert body["run"]["run"] == done.pk
    assert body["newest_run"]["run"] == queued.pk
    assert body["newest_run"]["status"] == "queued"
    assert {m["mention"] for m in body["memberships"]} == {ids[0], ids[1]}
    assert body["version"] == 0


def test_a_failed_newest_run_carries_its_error_and_the_version_follows_accepted_suggestions(
    workspace,
):
    topic, annotation, client, ids = workspace
    finished_run(topic, [[ids[0], ids[1]]])
    SuggestionRun.objects.create(
        topic=topic,
        backend="cross-encoder",
        status="failed",
        message="OSError: no model at /x",
        error="OSError: no model at /x\n\ntraceback",
    )
    first = client.get(f"/api/annotations/{annotation.pk}/suggestions/").json()["memberships"][0]

    accepted = client.post(
        f"/api/annotations/{annotation.pk}/operations/",
        {
            "expected_version": 0,
            "client_id": "t",
            "operation": {
                "op": "accept_suggestion",
                "suggestion": first["suggestion"],
                "operation": first["operation"],
            },
        },
        format="json",
    )
    body = client.get(f"/api/annotations/{annotation.pk}/suggestions/").json()

    assert accepted.status_code == 200, accepted.content
    assert body["newest_run"]["status"] == "failed"
    assert body["newest_run"]["error"] == "OSError: no model at /x"
    assert body["version"] == 1
    # The other member now maps onto the cluster the acceptance created.
    (other,) = body["memberships"]
    assert other["operation"]["cluster"] is not None
    assert other["mention"] != first["mention"]


def test_the_suggestions_and_runs_serializers_pass_the_payloads_through_unchanged(workspace):
    from rest_framework.renderers import JSONRenderer

    from modelserve.api.serializers import RunPayload, RunsAnswer, SuggestionsPayload
    from modelserve.selectors import annotation_suggestions, run_payload, topic_runs

    topic, annotation, _, ids = workspace
    finished_run(topic, [[ids[0], ids[1]], [ids[2], ids[3], ids[4]]])
    queued = SuggestionRun.objects.create(topic=topic, backend="minilm", timings={"mentions": 7})
    render = JSONRenderer().render

    suggestions = annotation_suggestions(annotation)
    runs = topic_runs(topic) | {"model_workers": []}

    assert suggestions["memberships"]
    assert suggestions["newest_run"]["run"] == queued.pk
    assert render(SuggestionsPayload(suggestions).data) == render(suggestions)
    assert render(RunsAnswer(runs).data) == render(runs)
    assert render(RunPayload(run_payload(queued)).data) == render(run_payload(queued))
