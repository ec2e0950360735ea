"""Suggestions made before a topic became practice stay off it: none listed, none accepted one
by one or in bulk (a refusal in plain words, nothing applied), while the project's real
topics keep theirs. Otherwise "accept above 0" answers the test for the annotator."""

from __future__ import annotations

import pytest

from annotation.models import Annotation, Project, Topic
from annotation.services.imports.topics import topics_import
from onboarding.services.practice import practice_mark
from tests.factories import UserFactory, assign, make_topic, mention_ids, signed_in
from tests.modelserve.api.test_suggestions_payload import finished_run
from tests.onboarding.conftest import TUTORIAL

pytestmark = pytest.mark.django_db


@pytest.fixture
def practised():
    """The tutorial with a finished suggestion run, made a scored practice topic after it."""
    project = Project.objects.create(name="Late practice", hierarchy=True)
    result = topics_import(project=project, path=TUTORIAL, format="corefi")
    topic = Topic.objects.get(project=project, external_id__in=result.topics)
    ids = mention_ids(topic)
    finished_run(topic, [[ids[0], ids[1]], [ids[2], ids[3]]])
    practice_mark(topic=topic, mode="scored")
    user = UserFactory()
    _, annotation = assign(topic, user)
    return topic, annotation, signed_in(user)


def test_no_suggestion_is_listed_on_a_practice_topic(practised):
    topic, annotation, client = practised
    real = make_topic(topic.project, external_id="real")
    finished_run(real, [[mention_ids(real)[0], mention_ids(real)[1]]])
    _, real_annotation = assign(real, annotation.assignment.user)

    body = client.get(f"/api/annotations/{annotation.pk}/suggestions/").json()
    real_body = client.get(f"/api/annotations/{real_annotation.pk}/suggestions/").json()

    assert body["run"] is None
    assert body["newest_run"] is None
    assert (body["memberships"], body["edges"], body["links"]) == ([], [], [])
    assert len(real_body["memberships"]) == 2  # real work keeps its suggestions


def test_accept_above_is_refused_on_a_practice_topic_and_applies_nothing(practised):
    _topic, annotation, client = practised

    answer = client.post(
        f"/api/annotations/{annotation.pk}/suggestions/accept-above/",
        {"expected_version": 0, "threshold": 0.0},
        format="json",
    )

    assert answer.status_code == 403, answer.content
    assert "practice" in answer.json()["message"]
    assert Annotation.objects.get(pk=annotation.pk).version == 0


def test_one_suggestion_is_not_accepted_on_a_practice_topic_either(practised):
    topic, annotation, client = practised
    suggestion = topic.suggestion_runs.get().suggestions.filter(kind="membership").first()

    answer = client.post(
        f"/api/annotations/{annotation.pk}/operations/",
        {
            "expected_version": 0,
            "operation": {
                "op": "accept_suggestion",
                "suggestion": suggestion.pk,
                "operation": {
                    "op": "assign",
                    "mention": suggestion.payload["mention"],
                    "cluster": None,
                },
            },
        },
        format="json",
    )

    assert answer.status_code == 403, answer.content
    assert "practice measures you" in answer.json()["message"]
    assert Annotation.objects.get(pk=annotation.pk).version == 0
