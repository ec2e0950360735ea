"""Who chooses how a run suggests (admins, for the project), and how many runs a user may have
waiting: one queued or running run per topic and user, under a lock and a constraint."""

from __future__ import annotations

import threading

import pytest
from django.db import IntegrityError, connection, transaction
from rest_framework.test import APIClient

from modelserve.errors import RunAlreadyActive
from modelserve.models import SuggestionRun
from modelserve.queues import model_queues
from modelserve.services.runs import project_runs_request, suggestion_run_request
from tests.factories import AdminFactory, UserFactory, assign, make_topic

pytestmark = pytest.mark.django_db


def annotator_client(topic):
    user = UserFactory()
    assign(topic, user)
    client = APIClient()
    client.force_authenticate(user)
    return client, user


def url(topic) -> str:
    return f"/api/topics/{topic.pk}/suggestion-runs/"


@pytest.mark.parametrize(
    "body",
    [
        {"backend": "cross-encoder", "params": {"model_path": "/etc/passwd"}},
        {"backend": "minilm"},
        {"params": {"threshold": 0.1}},
    ],
)
def test_an_annotator_cannot_choose_the_backend_or_parameters_of_a_run(body):
    topic = make_topic()
    client, _ = annotator_client(topic)

    answer = client.post(url(topic), body, format="json")

    assert answer.status_code == 403
    assert answer.json()["error"] == "run_settings_admin_only"
    assert "admin" in answer.json()["message"]
    assert not SuggestionRun.objects.exists()


def test_an_annotator_asking_as_the_workspace_does_gets_a_run_with_the_projects_settings():
    topic = make_topic()
    client, user = annotator_client(topic)

    answer = client.post(url(topic), {}, format="json")

    assert answer.status_code == 201
    run = SuggestionRun.objects.get()
    assert (run.backend, run.requested_by) == ("minilm", user)


def test_a_second_request_while_the_first_is_queued_answers_409_with_the_existing_run():
    topic = make_topic()
    client, _ = annotator_client(topic)
    first = client.post(url(topic), {}, format="json").json()

    second = client.post(url(topic), {}, format="json")

    assert second.status_code == 409
    body = second.json()
    assert body["error"] == "run_already_active"
    assert body["run"]["run"] == first["run"]
    assert body["run"]["status"] == "queued"
    assert SuggestionRun.objects.count() == 1


@pytest.mark.parametrize("status", ["running", "queued"])
def test_a_run_still_under_way_blocks_the_same_user_only(status):
    topic = make_topic()
    user = UserFactory()
    run = suggestion_run_request(topic=topic, user=user)
    SuggestionRun.objects.filter(pk=run.pk).update(status=status)

    with pytest.raises(RunAlreadyActive):
        suggestion_run_request(topic=topic, user=user)
    other = suggestion_run_request(topic=topic, user=UserFactory())
    elsewhere = suggestion_run_request(topic=make_topic(), user=user)

    assert other.pk != run.pk
    assert elsewhere.pk != run.pk


@pytest.mark.parametrize("status", ["succeeded", "failed"])
def test_once_the_run_has_finished_the_user_may_ask_again(status):
    topic = make_topic()
    user = UserFactory()
    run = suggestion_run_request(topic=topic, user=user)
    SuggestionRun.objects.filter(pk=run.pk).update(status=status)

    again = suggestion_run_request(topic=topic, user=user)

    assert again.pk != run.pk


def test_the_database_refuses_a_second_active_run_of_one_user_and_topic():
    topic = make_topic()
    user = UserFactory()
    SuggestionRun.objects.create(topic=topic, backend="minilm", requested_by=user)

    with (
        pytest.raises(IntegrityError, match="run_one_active_per_topic_and_user"),
        transaction.atomic(),
    ):
        SuggestionRun.objects.create(
            topic=topic, backend="minilm", requested_by=user, status="running"
        )


def test_a_project_request_is_refused_while_a_topic_has_a_run_of_the_admin_under_way():
    topic = make_topic()
    other = make_topic(topic.project)
    admin = AdminFactory()
    waiting = suggestion_run_request(topic=other, user=admin)

    with pytest.raises(RunAlreadyActive) as refused:
        project_runs_request(project=topic.project, user=admin)

    assert refused.value.details["runs"] == [waiting.pk]
    assert list(SuggestionRun.objects.values_list("pk", flat=True)) == [waiting.pk]


@pytest.mark.django_db(transaction=True)
def test_two_requests_at_the_same_moment_create_one_run(services):
    import redis

    topic = make_topic()
    user = UserFactory()
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def ask():
        try:
            barrier.wait()
            suggestion_run_request(topic=topic, user=user)
            outcomes.append("created")
        except RunAlreadyActive:
            outcomes.append("409")
        finally:
            connection.close()

    threads = [threading.Thread(target=ask) for _ in range(2)]
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(30)
    finally:
        redis.Redis.from_url(services.redis_url).delete(*model_queues())

    assert sorted(outcomes) == ["409", "created"]
    assert SuggestionRun.objects.count() == 1
