"""POST /api/adjudications/: the admin pages' bulk action assigning seeded adjudications."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from annotation.models import Assignment, Operation
from annotation.services.imports.topics import topics_import
from tests.factories import ALICE_AND_BOB, ProjectFactory, UserFactory
from tests.paths import SCICO_DEMO

pytestmark = [pytest.mark.django_db, pytest.mark.project(annotators=ALICE_AND_BOB)]


def post(client, body):
    return client.post("/api/adjudications/", body, format="json")


def test_an_admin_assigns_consensus_seeded_adjudications_of_every_ready_topic(
    project, admin_client
):
    judge = UserFactory(username="judge")

    answer = post(admin_client, {"project": project.pk, "user": judge.pk})

    assert answer.status_code == 201
    topics = list(project.topics.order_by("position").values_list("external_id", flat=True))
    assert answer.json() == {"user": "judge", "created": topics, "skipped": [], "submitted": 0}
    assert Operation.objects.filter(
        annotation__assignment__user=judge, name="adjudication_seed"
    ).count() == len(topics)


def test_chosen_topics_with_an_annotators_seed_submitted_as_they_are(project, admin_client):
    judge = UserFactory(username="judge")
    first = project.topics.order_by("position").first()

    answer = post(
        admin_client,
        {
            "project": project.pk,
            "user": judge.pk,
            "topics": [first.pk],
            "seed": "bob",
            "submit": True,
        },
    )

    assert answer.status_code == 201
    assert answer.json()["submitted"] == 1
    assignment = Assignment.objects.get(user=judge)
    assert (assignment.topic, assignment.status) == (first, Assignment.Status.SUBMITTED)


def test_a_refused_topic_assigns_nothing_and_says_why(project, admin_client):
    alice = Assignment.objects.filter(user__username="alice").first().user

    answer = post(admin_client, {"project": project.pk, "user": alice.pk})

    assert answer.status_code == 422
    assert answer.json()["error"] == "assignment_refused"
    assert "alice already annotates topic" in answer.json()["message"]
    assert not Assignment.objects.filter(role=Assignment.Role.ADJUDICATOR).exists()


def test_a_topic_of_another_project_is_not_found(project, admin_client):
    other = ProjectFactory()
    topics_import(project=other, path=SCICO_DEMO, format="scico")
    judge = UserFactory()

    answer = post(
        admin_client, {"project": project.pk, "user": judge.pk, "topics": [other.topics.first().pk]}
    )

    assert answer.status_code == 404
    assert not Assignment.objects.filter(user=judge).exists()


def test_annotators_cannot_assign_adjudications(project):
    client = APIClient()
    client.force_authenticate(UserFactory())

    answer = post(client, {"project": project.pk, "user": UserFactory().pk})

    assert answer.status_code == 403
