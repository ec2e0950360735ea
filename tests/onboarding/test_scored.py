"""Scored practice: on submission, scores against gold (the agreement metrics) and a diff;
an annotator may start again and every attempt is kept."""

import pytest

from annotation.models import Assignment
from onboarding.models import PracticeAttempt
from tests.factories import UserFactory, assign, post_op, signed_in
from tests.onboarding.conftest import mentions_by_text, tutorial_practice

pytestmark = pytest.mark.django_db


def annotate(client, annotation_id, m, *, right: bool):
    """CNN + convolutional neural network together (right) or apart (wrong); the rest apart."""
    first = post_op(client, annotation_id, 0, op="assign", mention=m["CNN"], cluster=None).json()
    cnn = first["created"]["cluster"]
    version = 1
    cluster = cnn if right else None
    for text in ("convolutional neural network", "Text Classification", "sentiment analysis"):
        response = post_op(
            client, annotation_id, version, op="assign", mention=m[text], cluster=cluster
        )
        assert response.status_code == 200, response.content
        version, cluster = version + 1, None
    return cnn


@pytest.fixture
def scored():
    practice = tutorial_practice(mode="scored")
    user = UserFactory()
    assignment, annotation = assign(practice.topic, user)
    return (
        practice,
        user,
        signed_in(user),
        assignment,
        annotation,
        mentions_by_text(practice.topic),
    )


def test_a_right_annotation_scores_one(scored):
    _practice, _user, client, assignment, annotation, m = scored
    annotate(client, annotation.pk, m, right=True)

    assert client.post(f"/api/assignments/{assignment.pk}/submit/").status_code == 200
    (attempt,) = client.get(f"/api/onboarding/assignments/{assignment.pk}/").json()["attempts"]

    assert attempt["scores"]["conll_f1"] == 1.0
    assert attempt["scores"]["muc_f1"] == 1.0
    assert attempt["diff"]["mentions_wrong"] == 0
    assert attempt["diff"]["clusters"] == []


def test_a_wrong_annotation_scores_less_and_the_diff_names_your_clusters(scored):
    _practice, _user, client, assignment, annotation, m = scored
    annotate(client, annotation.pk, m, right=False)
    client.post(f"/api/assignments/{assignment.pk}/submit/")

    (attempt,) = client.get(f"/api/onboarding/assignments/{assignment.pk}/").json()["attempts"]

    assert attempt["scores"]["conll_f1"] < 0.5
    cnn = next(c for c in attempt["diff"]["clusters"] if c["label"] == "CNN")
    assert (cnn["size"], cnn["mixed"], cnn["split"]) == (1, False, True)
    assert cnn["mention"] == m["CNN"]


def test_reset_starts_again_and_keeps_every_attempt(scored):
    _practice, _user, client, assignment, annotation, m = scored
    annotate(client, annotation.pk, m, right=False)
    client.post(f"/api/assignments/{assignment.pk}/submit/")

    reset = client.post(f"/api/onboarding/assignments/{assignment.pk}/reset/")
    again = reset.json()["assignment"]
    row = next(r for r in client.get("/api/assignments/mine/").json() if r["id"] == again)
    annotate(client, row["annotation"], m, right=True)
    client.post(f"/api/assignments/{again}/submit/")

    attempts = client.get(f"/api/onboarding/assignments/{again}/").json()["attempts"]
    assert [(a["number"], a["scores"]["conll_f1"] == 1.0) for a in attempts] == [
        (2, True),
        (1, False),
    ]
    assert PracticeAttempt.objects.get(number=1).snapshot["clusters"]
    assert row["practice"] == "scored"
    assert row["status"] == "assigned"


def test_only_the_owner_resets_a_practice_topic(scored):
    _practice, _user, _client, assignment, _annotation, _m = scored

    response = signed_in(UserFactory()).post(f"/api/onboarding/assignments/{assignment.pk}/reset/")

    assert response.status_code == 404


def test_reset_starts_again_after_an_undo_and_a_redo_in_the_log(scored):
    _practice, _user, client, assignment, annotation, m = scored
    post_op(client, annotation.pk, 0, op="assign", mention=m["CNN"], cluster=None)
    assert (
        client.post(
            f"/api/annotations/{annotation.pk}/undo/", {"expected_version": 1}, format="json"
        ).status_code
        == 200
    )
    assert (
        client.post(
            f"/api/annotations/{annotation.pk}/redo/", {"expected_version": 2}, format="json"
        ).status_code
        == 200
    )

    reset = client.post(f"/api/onboarding/assignments/{assignment.pk}/reset/")

    assert reset.status_code == 201, reset.content
    again = Assignment.objects.get(pk=reset.json()["assignment"])
    assert again.annotation.version == 0
    assert not again.annotation.operations.exists()
    assert not Assignment.objects.filter(pk=assignment.pk).exists()
