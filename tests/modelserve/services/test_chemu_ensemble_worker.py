"""The default ChEMU model as an ensemble in a real Celery model worker: runs use the ensemble
saved beside the default link model (mentions voted by its taggers, links from its link
models' mean probabilities), and the first start trains it in the background, after the
tagger, from the ChEMU training file (a tiny one here)."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest

from corefscore.formats import read
from modelserve.models import ModelTraining, Suggestion
from modelserve.services.runs import suggestion_run_request
from modelserve.services.settings import suggestion_settings_set
from tests.e2e.data import topic_from_data
from tests.factories import ProjectFactory, UserFactory
from tests.modelserve.backends.test_chemu_ensemble import tiny_tagger
from tests.modelserve.services.test_mention_suggestion_worker import half_annotated_snippet
from tests.paths import CHEMU_TRAIN
from tests.workers import start_worker, wait_for

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(scope="module")
def models_dir(tmp_path_factory) -> Path:
    """A models folder whose default link model holds an ensemble of two link models and two
    tiny taggers, beside the single default tagger (the ensemble's first)."""
    from modelserve.backends.chemu_ensemble import MEMBERS, save_manifest
    from modelserve.backends.chemu_training import train_chemu

    topics = read("chemu", CHEMU_TRAIN, skip_invalid=True).topics
    out = tmp_path_factory.mktemp("models")
    root = out / "chemu"
    train_chemu(topics[:40], root, holdout_fraction=0.0, epochs=2, device="cpu", log=print)
    other = root / MEMBERS / "links-1"
    train_chemu(topics[:40], other, seed=1, holdout_fraction=0.0, epochs=2, device="cpu")
    tiny_tagger(topics[:2], out / "chemu-mentions", 0)
    shutil.copytree(out / "chemu-mentions", root / MEMBERS / "mentions-0")
    second = tiny_tagger(topics[:2], root / MEMBERS / "mentions-1", 1)
    save_manifest(root, [root, other], [root / MEMBERS / "mentions-0", second])
    return out


def stored(run) -> tuple[list, list]:
    """(mentions as (spans, score), links as (type, score)) of a run, sorted."""
    rows = Suggestion.objects.filter(run=run)
    mentions = sorted(
        (tuple(map(tuple, s.payload["spans"])), round(s.score, 5))
        for s in rows
        if s.kind == "mention"
    )
    links = sorted((s.payload["type"], round(s.score, 5)) for s in rows if s.kind == "link")
    return mentions, links


def expected(found) -> tuple[list, list]:
    mentions = sorted((tuple(map(tuple, m.spans)), round(m.score, 5)) for m in found.mentions)
    return mentions, sorted((link.type, round(link.score, 5)) for link in found.links)


def test_the_model_worker_serves_the_default_chemu_model_as_its_ensemble(services, models_dir):
    from modelserve.backends import chemu_mentions, chemu_model
    from modelserve.backends.chemu_ensemble import ensemble_from_text, load_ensemble

    project = ProjectFactory(anaphora=True, allow_add_mentions=True, hierarchy=False)
    suggestion_settings_set(project=project, backend="chemu")
    data = half_annotated_snippet()
    topic = topic_from_data(project, data)
    worker = start_worker(services, MODELS_DIR=str(models_dir), SUGGEST_DEVICE="cpu")
    try:
        run = wait_for(
            suggestion_run_request(topic=topic, user=UserFactory()), {"succeeded", "failed"}
        )
    finally:
        worker.stop()
    assert run.status == "succeeded", run.error

    ensemble = load_ensemble(models_dir / "chemu", "cpu")
    assert ensemble is not None
    wanted = expected(ensemble_from_text(ensemble.taggers, ensemble.link_models, data))
    single = expected(
        chemu_mentions.suggest_from_text(
            chemu_mentions.load_mentions(models_dir / "chemu-mentions", "cpu"),
            chemu_model.load(models_dir / "chemu", "cpu"),
            data,
        )
    )
    assert wanted != single, "the test needs an ensemble that differs from its first models"
    assert wanted[0], "the test needs mentions to propose"
    assert stored(run) == wanted


def test_the_first_start_trains_the_ensemble_in_the_background_and_runs_then_use_it(
    services, tmp_path, settings
):
    from modelserve.backends.chemu_ensemble import ensemble_from_text, load_ensemble
    from modelserve.backends.chemu_training import train_chemu
    from modelserve.services.trainings import model_training_request

    lines = CHEMU_TRAIN.read_text(encoding="utf-8").splitlines()[:14]
    train_file = tmp_path / "train.english.jsonlines"
    train_file.write_text("\n".join(lines) + "\n", encoding="utf-8")
    topics = read("chemu", train_file, skip_invalid=True).topics
    models = tmp_path / "models"
    # what `make up` trains before the workers start: the link model, 15 % held out
    train_chemu(topics, models / "chemu", epochs=1, device="cpu", log=print)
    settings.MODELS_DIR, settings.CHEMU_TRAIN_FILE = models, train_file
    training = model_training_request()
    assert training is not None
    worker = start_worker(
        services,
        MODELS_DIR=str(models),
        CHEMU_TRAIN_FILE=str(train_file),
        SUGGEST_DEVICE="cpu",
    )
    try:
        deadline = time.monotonic() + 480
        while training.status in ("queued", "running") and time.monotonic() < deadline:
            time.sleep(1)
            training.refresh_from_db()
        assert training.status == "succeeded", (training.status, training.message, training.error)
        project = ProjectFactory(anaphora=True, allow_add_mentions=True, hierarchy=False)
        suggestion_settings_set(project=project, backend="chemu")
        data = half_annotated_snippet()
        topic = topic_from_data(project, data)
        run = wait_for(
            suggestion_run_request(topic=topic, user=UserFactory()), {"succeeded", "failed"}
        )
    finally:
        worker.stop()
    assert run.status == "succeeded", run.error
    assert "ensemble of 3 trained" in training.message
    ensemble = load_ensemble(models / "chemu", "cpu")
    assert ensemble is not None
    assert len(ensemble.link_models) == 3
    assert len(ensemble.taggers) == 3
    assert stored(run) == expected(ensemble_from_text(ensemble.taggers, ensemble.link_models, data))
    assert model_training_request() is None  # trained once: a later start does nothing
    assert ModelTraining.objects.count() == 1
