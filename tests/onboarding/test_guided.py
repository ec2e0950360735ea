"""Guided practice: each decision is checked against the CoRefi file's gold at once."""

import json

import pytest

from onboarding.models import PracticeTopic
from tests.factories import UserFactory, assign, post_op, signed_in
from tests.onboarding.conftest import TUTORIAL, mentions_by_text, tutorial_practice

pytestmark = pytest.mark.django_db


@pytest.fixture
def guided():
    practice = tutorial_practice()
    user = UserFactory()
    _assignment, annotation = assign(practice.topic, user)
    return practice, signed_in(user), annotation, mentions_by_text(practice.topic)


def test_the_tutorial_imports_as_a_guided_topic_with_its_tour_messages_and_settings():
    practice = tutorial_practice()
    source = json.loads(TUTORIAL.read_text())

    assert practice.mode == PracticeTopic.Mode.GUIDED
    assert practice.tour_steps == source["tourSteps"]
    assert practice.settings["snackbarTimeout"] == -1
    assert practice.settings["selectedCluster"] == "4-4"
    messages = sorted(e["valid"] for e in practice.feedback.values() if e.get("valid"))
    assert messages == sorted(g["validMessage"] for g in source["goldMentions"])


def test_a_right_decision_is_applied_with_its_message(guided):
    _practice, client, annotation, m = guided
    post_op(client, annotation.pk, 0, op="assign", mention=m["CNN"], cluster=None)

    response = post_op(
        client, annotation.pk, 1, op="assign", mention=m["Text Classification"], cluster=None
    )

    assert response.status_code == 200
    (message,) = response.json()["warnings"]
    assert message.startswith("Great! You succesfully created a new cluster")


def test_a_wrong_decision_is_refused_with_its_message_and_changes_nothing(guided):
    _practice, client, annotation, m = guided
    cnn = post_op(client, annotation.pk, 0, op="assign", mention=m["CNN"], cluster=None).json()
    cluster = cnn["created"]["cluster"]

    response = post_op(
        client, annotation.pk, 1, op="assign", mention=m["Text Classification"], cluster=cluster
    )

    assert response.status_code == 422
    assert response.json()["message"] == "Not quite! Text classification should be a new cluster!"
    assert client.get(f"/api/annotations/{annotation.pk}/").json()["version"] == 1


def test_a_wrong_cluster_gets_the_message_the_file_gives_for_that_cluster(guided):
    _practice, client, annotation, m = guided
    post_op(client, annotation.pk, 0, op="assign", mention=m["CNN"], cluster=None)
    text = post_op(
        client, annotation.pk, 1, op="assign", mention=m["Text Classification"], cluster=None
    )
    text_cluster = text.json()["created"]["cluster"]

    response = post_op(
        client, annotation.pk, 2, op="assign", mention=m["sentiment analysis"], cluster=text_cluster
    )

    assert response.status_code == 422
    assert response.json()["message"].startswith(
        "That's not quite right! Although Sentiment Analysis is a ''type of'' Text Classification"
    )


def test_joining_the_gold_cluster_is_right(guided):
    _practice, client, annotation, m = guided
    cnn = post_op(client, annotation.pk, 0, op="assign", mention=m["CNN"], cluster=None).json()

    response = post_op(
        client,
        annotation.pk,
        1,
        op="assign",
        mention=m["convolutional neural network"],
        cluster=cnn["created"]["cluster"],
    )

    assert response.status_code == 200
    assert response.json()["warnings"][0].startswith("Correct! CNN is the acronym")


def test_a_scored_topic_checks_nothing_while_annotating():
    practice = tutorial_practice(mode="scored")
    user = UserFactory()
    _, annotation = assign(practice.topic, user)
    client = signed_in(user)
    m = mentions_by_text(practice.topic)
    cnn = post_op(client, annotation.pk, 0, op="assign", mention=m["CNN"], cluster=None).json()

    response = post_op(
        client,
        annotation.pk,
        1,
        op="assign",
        mention=m["Text Classification"],
        cluster=cnn["created"]["cluster"],
    )

    assert response.status_code == 200
    assert response.json()["warnings"] == []


def test_starting_places_the_mention_the_file_does_not_ask_about_as_corefi_does(guided):
    _practice, client, annotation, m = guided
    assignment = annotation.assignment

    first = client.post(f"/api/onboarding/assignments/{assignment.pk}/start/").json()
    again = client.post(f"/api/onboarding/assignments/{assignment.pk}/start/").json()

    assert (first, again) == ({"placed": 1}, {"placed": 0})
    state = client.get(f"/api/annotations/{annotation.pk}/").json()
    assert [c["members"] for c in state["clusters"]] == [[m["CNN"]]]
    right = post_op(
        client,
        annotation.pk,
        1,
        op="assign",
        mention=m["convolutional neural network"],
        cluster=state["clusters"][0]["id"],
    )
    assert right.status_code == 200
