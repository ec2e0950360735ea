"""One queue per model: a run waits in its backend's queue, and a real worker that consumes
only one model's queue takes that model's runs and never another's (modelserve/queues.py)."""

from __future__ import annotations

import pytest
import redis
from django.conf import settings
from django.core.cache import cache
from django.db import connection

from modelserve.queues import backend_queue
from modelserve.services.runs import RUN_TASK, suggestion_run_request
from modelserve.workers import CACHE_KEY, _run_id, model_workers
from tests.factories import UserFactory
from tests.modelserve.services.test_runs_with_worker import demo_topic
from tests.workers import Worker, wait_for

# A real Celery worker (about 40 s loaded): the slow lane (tests/lanes.py).
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

LIGHT, HEAVY = "singleton", "same-head-lemma"


def waiting_in(services, queue: str) -> set[int]:
    messages = redis.Redis.from_url(services.redis_url).lrange(queue, 0, -1)
    return {run for run in (_run_id(raw, RUN_TASK) for raw in messages) if run is not None}


def no_other_model_worker() -> None:
    """Another test's worker still consuming this session's model queues would take the heavy
    model's message (seen once, beside other files under pytest-xdist): say so plainly."""
    cache.delete(CACHE_KEY)
    assert model_workers() == [], "a model worker of another test still runs"


def test_a_worker_of_one_model_takes_its_runs_and_leaves_another_models_runs_queued(services):
    no_other_model_worker()
    topic = demo_topic("queues")
    heavy = suggestion_run_request(topic=topic, user=UserFactory(), backend=HEAVY)
    light = suggestion_run_request(topic=topic, user=UserFactory(), backend=LIGHT)
    assert heavy.pk in waiting_in(services, backend_queue(HEAVY))
    assert light.pk in waiting_in(services, backend_queue(LIGHT))
    assert light.pk not in waiting_in(services, backend_queue(HEAVY))

    worker = Worker(
        database_url=services.postgres.url(connection.settings_dict["NAME"]),
        redis_url=services.redis_url,
        secret_key=settings.SECRET_KEY,
        queues=backend_queue(LIGHT),
        name="models-singleton",
    )
    try:
        worker.wait_ready()
        light = wait_for(light, {"succeeded", "failed"})
        for backend in (None, LIGHT, HEAVY):
            cache.delete(CACHE_KEY if backend is None else f"{CACHE_KEY}:{backend}")
        serving = {backend: model_workers(backend) for backend in (None, LIGHT, HEAVY)}
        heavy.refresh_from_db()
        still_waiting = waiting_in(services, backend_queue(HEAVY))
    finally:
        worker.stop()
        redis.Redis.from_url(services.redis_url).delete(backend_queue(HEAVY))

    assert light.status == "succeeded", light.error
    assert light.worker.startswith(worker.name)
    # The heavy model's run was queued first and is still there: this worker never saw it.
    assert heavy.status == "queued"
    assert heavy.pk in still_waiting
    assert heavy.worker == ""
    assert serving[LIGHT] == serving[None]
    assert len(serving[LIGHT]) == 1
    assert serving[HEAVY] == []
