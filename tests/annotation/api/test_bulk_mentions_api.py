"""Adding a mention at every occurrence of a text, and rejecting every mention of it, through
the operations endpoint (`add_mentions`, `reject_mentions`): one logged operation and one
undo step on PostgreSQL, refused whole in the annotator's words, conflicting when stale."""

from __future__ import annotations

import pytest

from annotation.models import Mention, Operation
from tests.factories import ProjectFactory, annotating, make_topic, post_op

pytestmark = pytest.mark.django_db


@pytest.fixture
def workspace():
    project = ProjectFactory(
        anaphora=True, allow_add_mentions=True, allow_reject_mentions=True, hierarchy=False
    )
    topic = make_topic(project)
    annotation, client = annotating(topic)
    return topic, annotation, client


def undo(client, annotation, version):
    return client.post(
        f"/api/annotations/{annotation.pk}/undo/", {"expected_version": version}, format="json"
    )


def added(topic, annotation) -> list[tuple[int, list]]:
    rows = Mention.objects.filter(topic=topic, added_in=annotation)
    return sorted((m.document.position, m.spans) for m in rows)


def every_was(topic) -> dict:
    # "was" occurs in document 3 at words 3 and 8 (tokens 2 and 7), nowhere else.
    document = topic.documents.get(position=2).pk
    return {
        "op": "add_mentions",
        "mentions": [
            {"document": document, "spans": [[2, 2]]},
            {"document": document, "spans": [[7, 7]]},
        ],
    }


def test_adding_every_occurrence_is_one_logged_step_and_one_undo_removes_them(workspace):
    topic, annotation, client = workspace

    answer = post_op(client, annotation, 0, every_was(topic))

    assert answer.status_code == 200, answer.content
    assert added(topic, annotation) == [(2, [[2, 2]]), (2, [[7, 7]])]
    (logged,) = Operation.objects.filter(annotation=annotation)
    assert logged.name == "add_mentions"
    assert answer.json()["version"] == 1

    assert undo(client, annotation, 1).status_code == 200
    assert added(topic, annotation) == []


def test_rejecting_every_mention_of_a_text_is_one_step(workspace):
    topic, annotation, client = workspace
    mixtures = list(topic.mentions.filter(document__position=2).values_list("pk", flat=True))

    answer = post_op(client, annotation, 0, {"op": "reject_mentions", "mentions": mixtures})

    assert answer.status_code == 200, answer.content
    rejected = [e for e in answer.json()["effects"] if e["e"] == "rejected_set"]
    assert sorted(e["mention"] for e in rejected) == sorted(mixtures)
    assert undo(client, annotation, 1).status_code == 200
    (_, undone) = Operation.objects.filter(annotation=annotation).order_by("version")
    assert undone.kind == "undo"


def test_one_bad_place_refuses_all_naming_the_words_and_writes_nothing(workspace):
    topic, annotation, client = workspace
    operation = every_was(topic)
    # "The mixture" is a candidate mention already: exactly these spans are refused.
    operation["mentions"].append(
        {"document": operation["mentions"][0]["document"], "spans": [[0, 1]]}
    )

    answer = post_op(client, annotation, 0, operation)

    assert answer.status_code == 422, answer.content
    assert answer.json()["error"] == "duplicate"
    assert answer.json()["message"] == (
        '"The mixture" (document 3, word 1): "The mixture" (document 3, word 1) already has '
        "exactly these spans."
    )
    assert added(topic, annotation) == []
    assert not Operation.objects.filter(annotation=annotation).exists()


def test_a_stale_bulk_add_conflicts_and_writes_nothing(workspace):
    topic, annotation, client = workspace
    assert post_op(client, annotation, 0, every_was(topic)).status_code == 200

    answer = post_op(client, annotation, 0, every_was(topic))

    assert answer.status_code == 409, answer.content
    assert Operation.objects.filter(annotation=annotation).count() == 1
