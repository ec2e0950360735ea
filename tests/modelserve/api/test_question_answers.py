"""Question mode (docs/questions.md): the suggestions payload ranks each open suggestion by how
unsure the model is, and an answer is the ordinary decision operation (accept_suggestion with
the question's operation, or reject_suggestion), so the log, undo and replay treat it as any
other edit."""

from __future__ import annotations

import pytest
from django.utils import timezone

from annotation.domain.history import replay
from annotation.models import Operation
from annotation.selectors.state import annotation_initial_state, annotation_state_load
from modelserve.models import Suggestion, SuggestionRun
from tests.factories import ProjectFactory, annotating, make_topic, mention_ids

pytestmark = pytest.mark.django_db

TYPES = ("COREFERENCE", "TRANSFORMED", "REACTION_ASSOCIATED", "WORK_UP", "CONTAINED")


@pytest.fixture
def workspace():
    topic = make_topic(ProjectFactory(anaphora=True))
    annotation, client = annotating(topic)
    ids = mention_ids(topic)
    run = SuggestionRun.objects.create(
        topic=topic, backend="minilm", status="succeeded", progress=1.0, finished_at=timezone.now()
    )
    # Two suggested clusters: the model is sure of the first (0.95), unsure of the second (0.55).
    for i, (members, score) in enumerate([([ids[0], ids[1]], 0.95), ([ids[2], ids[3]], 0.55)]):
        cluster = Suggestion.objects.create(
            run=run, kind="cluster", position=i, score=score, payload={"mentions": members}
        )
        for j, mention in enumerate(members):
            Suggestion.objects.create(
                run=run,
                kind="membership",
                position=2 * i + j,
                score=score,
                payload={"mention": mention, "cluster": cluster.pk},
            )
    # A link the model is fairly sure of (WORK_UP 0.9) but not quite of its type (0.08 for
    # REACTION_ASSOCIATED): the entropy of the types ranks it above the sure cluster.
    type_scores = {"NONE": 0.02, "COREFERENCE": 0.0, "TRANSFORMED": 0.0}
    type_scores |= {"REACTION_ASSOCIATED": 0.08, "WORK_UP": 0.9, "CONTAINED": 0.0}
    Suggestion.objects.create(
        run=run,
        kind="link",
        position=0,
        score=0.9,
        payload={
            "type": "WORK_UP",
            "anaphor": ids[6],
            "antecedent": ids[5],
            "type_scores": type_scores,
        },
    )
    return annotation, client, ids


def suggestions(client, annotation) -> dict:
    return client.get(f"/api/annotations/{annotation.pk}/suggestions/").json()


def ranked(body: dict) -> list[dict]:
    items = body["memberships"] + body["edges"] + body["links"]
    return sorted(items, key=lambda item: (-item["uncertainty"], item["suggestion"]))


def answer(client, annotation, version: int, operation: dict):
    response = client.post(
        f"/api/annotations/{annotation.pk}/operations/",
        {"expected_version": version, "client_id": "questions", "operation": operation},
        format="json",
    )
    assert response.status_code == 200, response.content
    return response.json()


def undo(client, annotation, version: int):
    response = client.post(
        f"/api/annotations/{annotation.pk}/undo/",
        {"expected_version": version, "client_id": "questions"},
        format="json",
    )
    assert response.status_code == 200, response.content


def log_replays_to_the_stored_state(annotation) -> bool:
    annotation.refresh_from_db()
    log = list(Operation.objects.filter(annotation=annotation).order_by("version"))
    replayed = replay(annotation_initial_state(annotation), log).snapshot()
    return replayed == annotation_state_load(annotation).snapshot()


def test_the_payload_ranks_the_unsure_cluster_and_the_unsure_link_type_above_the_sure_cluster(
    workspace,
):
    annotation, client, ids = workspace
    body = suggestions(client, annotation)
    by_mention = {item["mention"]: item["uncertainty"] for item in body["memberships"]}
    (link,) = body["links"]

    assert by_mention[ids[2]] > by_mention[ids[0]]
    assert link["uncertainty"] > by_mention[ids[0]]
    assert ranked(body)[-1]["mention"] in (ids[0], ids[1])


def test_yes_is_an_ordinary_acceptance_that_undo_reverts_and_the_log_replays(workspace):
    annotation, client, ids = workspace
    first = ranked(suggestions(client, annotation))[0]
    assert first["mention"] == ids[2]

    # Y: accept the question's suggestion with the operation it carries.
    yes = {"op": "accept_suggestion", "suggestion": first["suggestion"]}
    answer(client, annotation, 0, {**yes, "operation": first["operation"]})
    annotation.refresh_from_db()
    state = annotation_state_load(annotation)
    (entry,) = Operation.objects.filter(annotation=annotation)

    assert entry.payload["op"] == "accept_suggestion"
    assert entry.payload["operation"]["op"] == "assign"
    assert ids[2] in state.mention_cluster
    assert state.decisions[first["suggestion"]] == "accepted"
    assert log_replays_to_the_stored_state(annotation)
    # The next question is another one: the answered one is no longer open.
    still_open = {item["suggestion"] for item in ranked(suggestions(client, annotation))}
    assert first["suggestion"] not in still_open

    undo(client, annotation, 1)
    annotation.refresh_from_db()
    state = annotation_state_load(annotation)

    assert ids[2] not in state.mention_cluster
    assert first["suggestion"] not in state.decisions
    assert log_replays_to_the_stored_state(annotation)
    assert ranked(suggestions(client, annotation))[0]["suggestion"] == first["suggestion"]


def test_no_is_the_rejection_the_panel_records_and_undo_brings_the_question_back(workspace):
    annotation, client, _ = workspace
    first = ranked(suggestions(client, annotation))[0]

    answer(client, annotation, 0, {"op": "reject_suggestion", "suggestion": first["suggestion"]})
    annotation.refresh_from_db()

    assert annotation_state_load(annotation).decisions[first["suggestion"]] == "rejected"
    assert log_replays_to_the_stored_state(annotation)

    undo(client, annotation, 1)
    annotation.refresh_from_db()

    assert first["suggestion"] not in annotation_state_load(annotation).decisions
    assert log_replays_to_the_stored_state(annotation)


def test_a_link_answered_with_another_type_adds_that_type_and_undo_removes_it(workspace):
    annotation, client, ids = workspace
    (link,) = suggestions(client, annotation)["links"]
    # 3: REACTION_ASSOCIATED, not the WORK_UP the model chose.
    chosen = {**link["operation"], "type": TYPES[2]}

    answer(
        client,
        annotation,
        0,
        {"op": "accept_suggestion", "suggestion": link["suggestion"], "operation": chosen},
    )
    annotation.refresh_from_db()
    links = annotation_state_load(annotation).mention_links.get(ids[6], ())

    assert ("REACTION_ASSOCIATED", ids[6], ids[5]) in links
    assert not any(link_type == "WORK_UP" for link_type, _, _ in links)
    assert log_replays_to_the_stored_state(annotation)

    undo(client, annotation, 1)
    annotation.refresh_from_db()

    assert not annotation_state_load(annotation).mention_links.get(ids[6])
    assert log_replays_to_the_stored_state(annotation)
