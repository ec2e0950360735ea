"""An adjudicator reads the annotators' work on the topics they adjudicate, read-only, and
nothing else; annotators never see each other's work."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from annotation.models import Assignment
from annotation.services.assignments import assignment_create
from tests.factories import UserFactory, assign, make_topic, mention_ids

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    topic, other_topic = make_topic(), make_topic()
    annotator, colleague, adjudicator = UserFactory(), UserFactory(), UserFactory()
    _, work = assign(topic, annotator)
    _, colleague_work = assign(topic, colleague)
    _, elsewhere = assign(other_topic, annotator)
    adjudication = assignment_create(
        topic=topic, user=adjudicator, role=Assignment.Role.ADJUDICATOR
    ).annotation
    return locals()


def client(user) -> APIClient:
    api = APIClient()
    api.force_authenticate(user)
    return api


def test_an_adjudicator_reads_the_annotators_work_on_the_topic_they_adjudicate(world):
    adjudicator = client(world["adjudicator"])

    for annotation in (world["work"], world["colleague_work"], world["adjudication"]):
        assert adjudicator.get(f"/api/annotations/{annotation.pk}/").status_code == 200
    assert adjudicator.get(f"/api/annotations/{world['work'].pk}/operations/").status_code == 200


def test_an_adjudicator_sees_nothing_of_other_topics(world):
    answer = client(world["adjudicator"]).get(f"/api/annotations/{world['elsewhere'].pk}/")

    assert answer.status_code == 404


def test_an_adjudicator_cannot_change_an_annotators_work(world):
    work = world["work"]
    m = mention_ids(work.topic)

    answer = client(world["adjudicator"]).post(
        f"/api/annotations/{work.pk}/operations/",
        {"expected_version": 0, "operation": {"op": "assign", "mention": m[0], "cluster": None}},
        format="json",
    )

    assert answer.status_code == 404
    work.refresh_from_db()
    assert work.version == 0


def test_annotators_still_never_see_each_others_work(world):
    answer = client(world["annotator"]).get(f"/api/annotations/{world['colleague_work'].pk}/")

    assert answer.status_code == 404
