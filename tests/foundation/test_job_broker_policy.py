"""One policy for a broker that refuses a job's task (docs/jobs.md), the same for the five
kinds of job: the job is failed at once with the reason, so no page polls a job no worker
will hear of. The broker's refusal is the one thing simulated (send_task raises)."""

from __future__ import annotations

import pytest
from celery import current_app

from annotation.models import ImportJob
from datasets.models import ReleaseJob
from foundation.jobs import lifecycle
from modelserve.models import ModelEvaluation, ModelTraining, SuggestionRun
from tests.factories import ProjectFactory, make_topic

pytestmark = pytest.mark.django_db


def send_import(job):
    from annotation.services.imports.jobs import _send

    _send(job.pk)


def send_release(job):
    from datasets.services.release_jobs import _send

    _send(job.pk)


def send_evaluation(job):
    from modelserve.services.evaluations import evaluation_task_send

    evaluation_task_send(job.pk, backend=job.backend)


def send_training(job):
    from modelserve.services.training_tasks import training_task_send

    training_task_send(job.pk, backend="minilm")


def send_run(job):
    from modelserve.services.runs import run_task_send

    run_task_send(job.pk, backend=job.backend)


KINDS = {
    "import": (
        lambda: ImportJob.objects.create(
            project=ProjectFactory(), file_name="f", format="scico", path="imports/f"
        ),
        send_import,
    ),
    "release": (lambda: ReleaseJob.objects.create(project=ProjectFactory()), send_release),
    "evaluation": (
        lambda: ModelEvaluation.objects.create(project=ProjectFactory(), backend="minilm"),
        send_evaluation,
    ),
    "training": (lambda: ModelTraining.objects.create(name="chemu-mentions"), send_training),
    "run": (lambda: SuggestionRun.objects.create(topic=make_topic(), backend="minilm"), send_run),
}


@pytest.mark.parametrize("kind", list(KINDS))
def test_a_task_the_broker_refuses_fails_its_job_with_the_reason(kind, monkeypatch):
    create, send = KINDS[kind]
    job = create()

    def refused(*args, **kwargs):
        raise ConnectionError("broker gone")

    monkeypatch.setattr(current_app, "send_task", refused)
    send(job)

    job.refresh_from_db()
    assert job.status == "failed"
    assert job.message == lifecycle.QUEUE_DOWN
    assert job.finished_at is not None


@pytest.mark.parametrize("kind", list(KINDS))
def test_a_task_the_broker_takes_leaves_its_job_queued(kind, monkeypatch):
    create, send = KINDS[kind]
    job = create()
    sent = []
    monkeypatch.setattr(current_app, "send_task", lambda name, **kwargs: sent.append(name))
    send(job)

    job.refresh_from_db()
    assert job.status == "queued"
    assert len(sent) == 1
