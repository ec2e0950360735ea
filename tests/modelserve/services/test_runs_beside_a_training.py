"""A training and 20 suggestion runs at once in one real model worker: the
worker trains the ChEMU mention tagger in a thread (encoding its snippets with the frozen
MiniLM) while its main thread serves MiniLM runs with the same cached encoder. Every run
succeeds, and so does the training (the fresh-clone CI once lost a run to the shared
tokenizer: "Unable to create tensor")."""

from __future__ import annotations

import pytest

from modelserve.models import ModelTraining, SuggestionRun
from modelserve.services.runs import suggestion_run_request
from modelserve.services.trainings import model_training_request
from tests.factories import UserFactory, wait_until
from tests.modelserve.services.test_runs_with_worker import demo_topic
from tests.paths import CHEMU_TRAIN
from tests.workers import start_worker

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(600)]

RUNS = 20
SNIPPETS = 40  # enough snippets that their encoding lasts through several runs


def test_twenty_runs_beside_a_training_in_one_worker_all_succeed(services, settings, tmp_path):
    settings.MODELS_DIR = tmp_path  # no tagger yet: the request queues its training
    train_file = tmp_path / "train.jsonlines"
    with open(CHEMU_TRAIN) as source:
        train_file.write_text("".join(next(source) for _ in range(SNIPPETS)))
    topic = demo_topic("runs beside a training")
    worker = start_worker(
        services,
        MODELS_DIR=str(tmp_path),
        CHEMU_TRAIN_FILE=str(train_file),
        SUGGEST_DEVICE="cpu",
    )
    try:
        training = model_training_request()
        assert training is not None
        wait_until(
            lambda: ModelTraining.objects.filter(pk=training.pk, status="running").exists(),
            "the training never started",
            timeout=300,
        )
        runs = [
            suggestion_run_request(topic=topic, user=UserFactory(), backend="minilm")
            for _ in range(RUNS)
        ]
        ids = [run.pk for run in runs]
        wait_until(
            lambda: (
                not SuggestionRun.objects.filter(
                    pk__in=ids, status__in=("queued", "running")
                ).exists()
            ),
            "runs were still queued or running",
            timeout=480,
        )
        training = wait_until(
            lambda: ModelTraining.objects.filter(
                pk=training.pk, status__in=("succeeded", "failed")
            ).first(),
            "the training did not finish",
            timeout=300,
        )
    finally:
        worker.stop()

    finished = list(SuggestionRun.objects.filter(pk__in=ids).order_by("pk"))
    failed = [
        (run.pk, run.error.strip().splitlines()[-1:])
        for run in finished
        if run.status != "succeeded"
    ]
    assert not failed, f"{len(failed)} of {RUNS} runs failed beside the training: {failed[:3]}"
    assert training.status == "succeeded", training.error
    # The runs really met the training: the first was taken up while it still trained.
    assert min(run.started_at for run in finished) < training.finished_at
