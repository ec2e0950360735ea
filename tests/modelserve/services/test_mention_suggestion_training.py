"""The mention tagger trains after start-up: start-up only queues it (once), the model worker's
task trains it with the real training code and records its progress, which admins read."""

from __future__ import annotations

import os

import pytest
from django.conf import settings
from rest_framework.test import APIClient

from modelserve.backends.chemu_mentions import mentions_trained
from modelserve.models import ModelTraining
from modelserve.queues import model_queues
from modelserve.services.trainings import model_training_execute, model_training_request
from tests.factories import AdminFactory, UserFactory
from tests.paths import CHEMU_TRAIN

pytestmark = pytest.mark.django_db
CHECKOUT_MODELS_DIR = settings.MODELS_DIR  # read before any test points the setting elsewhere


@pytest.fixture
def models_dir(tmp_path, services, settings):
    """An empty models folder, so the tagger is missing (the setting comes back after)."""
    settings.MODELS_DIR = tmp_path
    yield tmp_path
    # A training task sent here has no worker; a later test's worker must not get it.
    from corefapp.celery import app

    with app.connection_for_write() as connection:
        for queue in model_queues():
            connection.default_channel.queue_purge(queue)


def test_start_up_queues_one_training_of_a_missing_tagger_however_often_it_runs(models_dir):
    first = model_training_request()
    again = model_training_request()

    assert first is not None
    assert again is not None
    assert again.pk == first.pk
    assert first.status == "queued"
    assert first.name == "chemu-mentions"
    assert ModelTraining.objects.count() == 1


@pytest.mark.django_db(transaction=True)  # the task opens its own connections, as in a worker
def test_the_training_task_trains_and_saves_the_tagger_and_then_nothing_is_queued(
    models_dir, tmp_path_factory
):
    tiny = tmp_path_factory.mktemp("train") / "train.jsonlines"
    with open(CHEMU_TRAIN) as source:
        tiny.write_text("".join(next(source) for _ in range(2)))
    training = model_training_request()

    outcome = model_training_execute(
        training_id=training.pk,
        worker="test",
        train_file=tiny,
        epochs=2,
        hidden=16,
        holdout_fraction=0.0,
        device="cpu",
    )

    training.refresh_from_db()
    assert outcome.startswith("succeeded"), training.error
    assert training.status == "succeeded"
    assert training.progress == 1.0
    assert mentions_trained(models_dir / "chemu-mentions")
    assert model_training_request() is None
    # A redelivered task finds it finished and leaves it.
    assert model_training_execute(training_id=training.pk).startswith("skipped")


@pytest.mark.django_db(transaction=True)
def test_a_training_without_its_training_file_fails_with_a_message(models_dir, tmp_path):
    training = model_training_request()

    model_training_execute(training_id=training.pk, train_file=tmp_path / "missing.jsonlines")

    training.refresh_from_db()
    assert training.status == "failed"
    assert "missing.jsonlines is missing" in training.message


def test_admins_read_the_newest_training_of_each_model_and_annotators_may_not(models_dir):
    ModelTraining.objects.create(name="chemu-mentions", status="failed", message="old")
    newest = model_training_request()
    ModelTraining.objects.filter(pk=newest.pk).update(
        status="running", progress=0.4, message="epoch 8/20"
    )
    admin, annotator = APIClient(), APIClient()
    admin.force_authenticate(AdminFactory())
    annotator.force_authenticate(UserFactory())

    rows = admin.get("/api/model-trainings/").json()

    assert [(r["name"], r["status"], r["progress"], r["message"]) for r in rows] == [
        ("chemu-mentions", "running", 0.4, "epoch 8/20")
    ]
    assert annotator.get("/api/model-trainings/").status_code == 403


@pytest.mark.django_db(transaction=True)
def test_the_start_up_step_keeps_training_the_link_model_and_only_queues_the_tagger(models_dir):
    from modelserve.backends.chemu import is_trained
    from modelserve.services.default_models import default_models_ensure

    default = CHECKOUT_MODELS_DIR / "chemu"
    if is_trained(default):  # the link model of this checkout; else start-up trains one here
        # file by file: what start-up writes beside them (trained_texts.json, the ensemble)
        # must land in the test's folder, not in the checkout's model
        (models_dir / "chemu").mkdir()
        for name in ("config.json", "features.json", "weights.pt"):
            os.symlink((default / name).resolve(), models_dir / "chemu" / name)

    lines = default_models_ensure()

    assert is_trained(models_dir / "chemu")
    assert not mentions_trained(models_dir / "chemu-mentions")
    assert lines[-1].startswith("the ChEMU mention tagger trains in the model worker")
    (queued,) = ModelTraining.objects.all()
    assert queued.status == "queued"
    default_models_ensure()  # a second start finds it queued and queues nothing more
    assert ModelTraining.objects.count() == 1
