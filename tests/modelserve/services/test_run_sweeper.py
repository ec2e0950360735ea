"""Runs nobody would execute are sent again; a request the model queue cannot take is refused
with nothing left behind. Real PostgreSQL and Redis, no worker."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from foundation.jobs import lifecycle
from modelserve.models import SuggestionRun
from modelserve.queues import model_queues
from modelserve.services.runs import RUN_TASK, suggestion_run_request, suggestion_runs_requeue
from modelserve.workers import waiting_run_ids
from tests.factories import UserFactory, assign, make_topic

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def empty_models_queue(services):
    """Messages these tests queue name runs of this test only: drop them afterwards."""
    import redis

    yield
    redis.Redis.from_url(services.redis_url).delete(*model_queues())


def silent_run(status: str, seconds_ago: float, **fields) -> SuggestionRun:
    run = SuggestionRun.objects.create(topic=make_topic(), backend="lexical", status=status)
    then = timezone.now() - timedelta(seconds=seconds_ago)
    SuggestionRun.objects.filter(pk=run.pk).update(created_at=then, **fields)
    return run


def test_a_queued_run_whose_task_was_never_sent_is_sent_once_after_the_staleness_window():
    run = silent_run("queued", seconds_ago=60)

    first = suggestion_runs_requeue()
    second = suggestion_runs_requeue()

    assert first == [run.pk]
    assert second == []
    assert run.pk in waiting_run_ids(RUN_TASK)
    run.refresh_from_db()
    assert run.status == "queued"
    assert "re-queued" in run.message


def test_a_queued_run_younger_than_the_window_or_waiting_in_the_queue_is_left_alone():
    young = silent_run("queued", seconds_ago=5)
    waiting = suggestion_run_request(topic=make_topic(), user=UserFactory())
    SuggestionRun.objects.filter(pk=waiting.pk).update(
        created_at=timezone.now() - timedelta(minutes=5)
    )

    assert suggestion_runs_requeue() == []
    assert young.pk not in waiting_run_ids(RUN_TASK)


def test_a_running_run_with_a_stale_heartbeat_is_requeued_and_a_live_one_is_left_alone():
    now = timezone.now()
    dead = silent_run("running", seconds_ago=120, heartbeat_at=now - timedelta(seconds=45))
    alive = silent_run("running", seconds_ago=120, heartbeat_at=now - timedelta(seconds=1))

    assert suggestion_runs_requeue() == [dead.pk]
    dead.refresh_from_db()
    alive.refresh_from_db()
    assert dead.status == "queued"
    assert "stopped answering" in dead.message
    assert alive.status == "running"
    assert waiting_run_ids(RUN_TASK) >= {dead.pk}


def test_finished_runs_are_never_sent_again():
    silent_run("succeeded", seconds_ago=600)
    silent_run("failed", seconds_ago=600)

    assert suggestion_runs_requeue() == []


def test_a_suggestion_request_with_the_model_queue_down_answers_503_at_once_and_creates_nothing(
    settings,
):
    from tests.ports import free_port

    topic = make_topic()
    user = UserFactory()
    assign(topic, user)
    client = APIClient()
    client.force_authenticate(user)
    settings.CELERY_BROKER_URL = f"redis://127.0.0.1:{free_port()}/0"

    started = time.monotonic()
    response = client.post(f"/api/topics/{topic.pk}/suggestion-runs/", {}, format="json")
    elapsed = time.monotonic() - started

    assert response.status_code == 503
    assert response.json()["error"] == "model_queue_unavailable"
    assert elapsed < 2
    assert not SuggestionRun.objects.exists()


def test_a_task_that_cannot_be_sent_after_commit_fails_the_run_with_the_reason(monkeypatch, caplog):
    """The one broker policy of every job (docs/jobs.md): nobody polls a run no worker hears of."""
    from celery import current_app

    def broker_gone(*args, **kwargs):
        raise ConnectionError("broker gone")

    monkeypatch.setattr(current_app, "send_task", broker_gone)

    run = suggestion_run_request(topic=make_topic(), user=UserFactory())

    run.refresh_from_db()
    assert run.status == "failed"
    assert run.message == lifecycle.QUEUE_DOWN
    assert run.finished_at is not None
    assert f"SuggestionRun {run.pk}: its task could not be sent" in caplog.text
