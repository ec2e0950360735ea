"""A model evaluation (the admin Models page) goes through Redis to a real Celery model
worker and comes back scored, its progress on the row."""

from __future__ import annotations

import time

import pytest

from annotation.services.imports.topics import topics_import
from modelserve.models import ModelEvaluation
from modelserve.services.evaluations import model_evaluation_request
from tests.factories import ProjectFactory, UserFactory
from tests.paths import SCICO_DEMO
from tests.workers import FAST_REDELIVERY, start_worker

pytestmark = pytest.mark.django_db(transaction=True)


def test_an_edit_distance_evaluation_runs_on_the_model_worker(services):
    project = ProjectFactory(name="evaluated")
    topics_import(project=project, path=SCICO_DEMO, format="scico")  # with gold
    evaluation = model_evaluation_request(
        project=project, user=UserFactory(), backend="edit-distance"
    )
    assert evaluation.status == "queued"
    worker = start_worker(services)
    try:
        deadline = time.monotonic() + 120
        while evaluation.status in ("queued", "running") and time.monotonic() < deadline:
            time.sleep(0.3)
            evaluation.refresh_from_db()
    finally:
        worker.stop()
    assert evaluation.status == ModelEvaluation.Status.SUCCEEDED, (evaluation.error, worker.log())
    assert evaluation.progress == 1.0
    assert evaluation.worker  # the worker's host name: it ran there, not here
    assert evaluation.message == "6 topics scored"
    conll = evaluation.result["overall"]["model"]["conll_f1"]
    assert 0 < conll["score"] < 1
    assert conll["ci"][0] <= conll["score"] <= conll["ci"][1]
    assert evaluation.result["shared"]["topics"] == 0  # nobody annotated: no AVG to show


def test_an_evaluation_whose_worker_was_killed_is_taken_over_and_scored_once(services):
    """SIGKILL mid-evaluation (the model loading or predicting): Redis redelivers the task and
    the next model worker takes the evaluation over once the dead one's heartbeat is stale."""
    project = ProjectFactory(name="evaluated, killed")
    topics_import(project=project, path=SCICO_DEMO, format="scico")
    first = start_worker(services, **FAST_REDELIVERY)
    try:
        evaluation = model_evaluation_request(project=project, user=UserFactory(), backend="minilm")
        wait_for_evaluation(evaluation, {"running", "succeeded", "failed"}, step=0.05)
    finally:
        first.kill()
    evaluation.refresh_from_db()
    assert evaluation.status == "running", "the evaluation ended before the worker was killed"

    second = start_worker(services, **FAST_REDELIVERY)
    try:
        wait_for_evaluation(evaluation, {"succeeded", "failed"}, timeout=240)
    finally:
        second.stop()

    assert evaluation.status == "succeeded", evaluation.error
    assert evaluation.attempts == 2
    assert evaluation.worker.startswith(second.name)
    assert evaluation.message == "6 topics scored"
    assert ModelEvaluation.objects.filter(project=project).count() == 1
    assert evaluation.result["overall"]["topics"] == 6


def wait_for_evaluation(evaluation, statuses, timeout: float = 120, step: float = 0.3) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        evaluation.refresh_from_db()
        if evaluation.status in statuses:
            return
        time.sleep(step)
    raise AssertionError(f"evaluation still {evaluation.status} ({evaluation.message})")
