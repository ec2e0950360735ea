"""Suggestion runs through Redis and a real Celery model worker, faults included."""

from __future__ import annotations

import pytest
from django.conf import settings
from rest_framework.test import APIClient

from annotation.models import Project
from modelserve.models import Suggestion
from modelserve.services.runs import suggestion_run_request
from tests.factories import UserFactory, assign
from tests.workers import FAST_REDELIVERY, start_worker, wait_for

pytestmark = pytest.mark.django_db(transaction=True)


def demo_topic(name="runs", mentions=None):
    from annotation.services.imports.topics import topics_import
    from tests.paths import SCICO_DEMO

    project = Project.objects.create(name=name)
    topics_import(project=project, path=SCICO_DEMO, format="scico")
    return project.topics.order_by("position").first()


def test_a_run_with_no_model_worker_stays_queued_and_the_api_says_no_worker_is_alive(services):
    from django.core.cache import cache

    from modelserve.services.runs import RUN_TASK
    from modelserve.workers import CACHE_KEY, waiting_run_ids

    cache.delete(CACHE_KEY)  # the answer of an earlier test, while its worker still ran
    topic = demo_topic()
    user = UserFactory()
    assign(topic, user)
    client = APIClient()
    client.force_authenticate(user)

    created = client.post(f"/api/topics/{topic.pk}/suggestion-runs/", {}, format="json")
    listing = client.get(f"/api/topics/{topic.pk}/suggestion-runs/").json()

    assert created.status_code == 201
    assert listing["runs"][0]["status"] == "queued"
    assert listing["model_workers"] == []
    # Still queued because nothing took it: its message waits in the broker after the listing.
    assert listing["runs"][0]["run"] == created.json()["run"]
    assert created.json()["run"] in waiting_run_ids(RUN_TASK)


def test_a_queued_run_completes_when_a_worker_starts_and_its_suggestions_cover_every_mention(
    services,
):
    topic = demo_topic()
    run = suggestion_run_request(topic=topic, user=UserFactory())
    worker = start_worker(services)
    try:
        run = wait_for(run, {"succeeded", "failed"})
    finally:
        worker.stop()

    assert run.status == "succeeded", run.error
    memberships = Suggestion.objects.filter(run=run, kind="membership")
    assert sorted(s.payload["mention"] for s in memberships) == sorted(
        topic.mentions.values_list("id", flat=True)
    )
    assert run.progress == 1.0
    assert run.attempts == 1
    assert run.timings["predict_s"] > 0


def test_a_model_error_fails_the_run_with_its_message(services):
    topic = demo_topic()
    run = suggestion_run_request(
        topic=topic,
        user=UserFactory(),
        backend="cross-encoder",
        # inside MODELS_DIR: a path elsewhere is refused before any run exists
        params={"model_path": f"{settings.MODELS_DIR}/nonexistent/longformer-scico"},
    )
    worker = start_worker(services)
    try:
        run = wait_for(run, {"succeeded", "failed"})
    finally:
        worker.stop()

    assert run.status == "failed"
    assert "/nonexistent/longformer-scico" in run.message


def test_a_worker_killed_mid_run_leaves_the_run_to_the_next_worker_which_completes_it_once(
    services,
):
    topic = demo_topic()
    first = start_worker(services, **FAST_REDELIVERY)
    run = suggestion_run_request(topic=topic, user=UserFactory())
    try:
        wait_for(run, {"running"}, timeout=120)
    finally:
        first.kill()
    run.refresh_from_db()
    assert run.status == "running"

    second = start_worker(services, **FAST_REDELIVERY)
    try:
        run = wait_for(run, {"succeeded", "failed"}, timeout=240)
    finally:
        second.stop()

    assert run.status == "succeeded", run.error
    assert run.attempts == 2
    positions = list(
        Suggestion.objects.filter(run=run, kind="membership").values_list("position", flat=True)
    )
    assert len(positions) == len(set(positions)) == topic.mentions.count()
