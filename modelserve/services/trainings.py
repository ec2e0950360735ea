"""Trainings that run after start-up in a model worker (in the queue of the backend they
train for), so that `make up` does not wait for them: today the ChEMU mention tagger, which
lets the `chemu` backend propose mentions from raw text (it looks for the tagger at every
run, so runs after the training propose mentions, runs before it link the existing mentions
only), then the default ChEMU model's ensemble (modelserve/training/chemu_members.py), which
the runs use once its manifest is saved.

`model_training_request` queues one when the model is missing (the prepare step of `make up`
calls it); `model_training_execute` trains, in a thread the model worker's task starts (so
that the worker keeps serving runs meanwhile): a job (foundation/jobs/lifecycle.py) like a
run (a finished training is left alone, one with a fresh heartbeat belongs to a live worker, a
stale one is taken over), its progress written to the row for the admin Suggestions page.
"""

from __future__ import annotations

import logging
import traceback
from pathlib import Path

from django.conf import settings
from django.db import (
    close_old_connections,
    transaction,
)

from foundation.jobs import lifecycle
from foundation.side_effects import after_commit
from modelserve.model_store import in_storage, model_local, model_stored, model_upload
from modelserve.models import ModelTraining
from modelserve.queues import TRAINING_BACKENDS
from modelserve.services.requeue import silent_rows_requeue
from modelserve.services.training_tasks import TRAIN_TASK, training_task_send

logger = logging.getLogger(__name__)

MENTION_TAGGER = "chemu-mentions"
ACTIVE = (ModelTraining.Status.QUEUED, ModelTraining.Status.RUNNING)


def _models_dir() -> Path:
    return Path(settings.MODELS_DIR)


def _mention_tagger_trained() -> bool:
    from modelserve.backends.chemu_mentions import DIRECTORY, mentions_trained

    if in_storage():  # each worker's copy is only a cache: the bucket says
        return model_stored(DIRECTORY)
    return mentions_trained(_models_dir() / DIRECTORY)


def _ensemble_wanted() -> bool:
    """Whether the default link model is there without its ensemble (in the bucket: its
    stored copy, downloaded first). No link model, no ensemble: it is built beside one."""
    from modelserve.backends.chemu import is_trained
    from modelserve.backends.chemu_ensemble import ensemble_saved

    folder = model_local("chemu")
    return is_trained(folder) and not ensemble_saved(folder)


def default_chemu_trained() -> bool:
    """Whether the background part of the default ChEMU models is done: tagger and ensemble."""
    return _mention_tagger_trained() and not _ensemble_wanted()


def model_training_request(*, name: str = MENTION_TAGGER) -> ModelTraining | None:
    """Queue the training of `name` unless it is trained already or one is queued or running
    (that one is returned; its task is sent again, since a restart of everything may have lost
    the message and the task is idempotent). None: nothing to do."""
    if default_chemu_trained():
        return None
    with transaction.atomic():
        active = ModelTraining.objects.select_for_update().filter(name=name, status__in=ACTIVE)
        training = active.first() or ModelTraining.objects.create(
            name=name, message="waiting for a model worker"
        )
        after_commit(training_task_send, training.pk, backend=TRAINING_BACKENDS[training.name])
    return training


def _training_backend(training: ModelTraining) -> str:
    """The backend a training trains for: its queue's (modelserve/queues.py)."""
    if training.project_id is None:
        return TRAINING_BACKENDS[training.name]  # a training for no backend: a bug, loudly
    from modelserve.services.learning import learning_backend

    return learning_backend(training.project_id)


def model_trainings_requeue() -> list[int]:
    """Send again the task of every training that nobody would otherwise execute (as
    `suggestion_runs_requeue` does for runs): `running` with a stale heartbeat (its worker
    died), or `queued` for longer than the staleness window with no message waiting. Rows
    are locked (other sweepers skip them) and a re-queued one's heartbeat is set to now."""
    from modelserve.workers import waiting_run_ids

    trainings = silent_rows_requeue(
        ModelTraining,
        waiting=waiting_run_ids(TRAIN_TASK, key="training_id"),
        send=lambda training: after_commit(
            training_task_send, training.pk, backend=_training_backend(training)
        ),
    )
    return [training.pk for training in trainings]


def _train_mention_tagger(progress, train_file: Path | None, options: dict) -> str:
    """The tagger (unless trained), then the ensemble beside the default link model (unless
    saved). `options`: of `train_chemu_mentions`; `epochs` and `hidden` serve the ensemble's
    taggers too, `ensemble` (a dict) holds more of `train_chemu_ensemble`'s."""
    from corefscore.formats import read
    from modelserve.backends import vector_cache
    from modelserve.backends.chemu_mentions import DIRECTORY, train_chemu_mentions

    path = Path(train_file or settings.CHEMU_TRAIN_FILE)
    if not path.is_file():
        raise FileNotFoundError(f"the ChEMU training file {path} is missing")
    topics = read("chemu", path, skip_invalid=True).topics
    options = dict(options)
    ensemble_options = dict(options.pop("ensemble", {}))
    for shared in ("epochs", "hidden", "device"):
        if shared in options:
            ensemble_options.setdefault(shared, options[shared])
    messages = []
    # the tagger first: mentions come with the runs' links as soon as it is saved
    if not _mention_tagger_trained():
        summary = train_chemu_mentions(
            topics,
            _models_dir() / DIRECTORY,
            link_model_dir=_models_dir() / "chemu",  # held-out scores end to end, if trained
            # a retraining encodes only the documents it has not seen (the encoder is frozen)
            vector_folder=_models_dir() / vector_cache.FOLDER,
            progress=_scaled(progress, 0.0, 0.3),
            log=logger.info,
            **options,
        )
        model_upload(DIRECTORY)  # with STORAGE_URL: into the bucket, for every model worker
        messages.append(f"tagger trained in {summary['train_seconds']:.0f} s")
    if _ensemble_wanted():
        from modelserve.training.chemu_members import train_chemu_ensemble

        done = train_chemu_ensemble(
            topics,
            model_local("chemu"),  # (with STORAGE_URL: this worker's copy, downloaded first)
            model_local(DIRECTORY),
            vector_folder=_models_dir() / vector_cache.FOLDER,
            progress=_scaled(progress, 0.3 if messages else 0.0, 1.0),
            log=logger.info,
            **ensemble_options,
        )
        model_upload("chemu")  # the link model's folder holds the ensemble
        messages.append(f"ensemble of {done['links']} trained in {done['seconds']:.0f} s")
    return "; ".join(messages) or "already trained"


def _scaled(progress, start: float, end: float):
    """`progress` with its fractions mapped into [start, end] of the whole training."""
    return lambda fraction, message: progress(start + (end - start) * fraction, message)


def model_training_execute(
    *, training_id: int, worker: str = "", train_file: Path | None = None, **options
) -> str:
    """Train for one ModelTraining row (what the task's thread runs). Returns what happened.
    `train_file` and `options` (of `train_chemu_mentions`): the defaults unless a test says."""
    close_old_connections()
    claim = lifecycle.claim(ModelTraining, training_id, worker=worker)
    if not claim.claimed:
        return claim.answer()
    training: ModelTraining = claim.job
    try:
        with lifecycle.Heartbeat(training):
            progress = lifecycle.progress_reporter(training, every=1.0)
            if training.project_id is not None:  # a project's retraining (services/learning.py)
                from modelserve.services.learning import learning_train

                message = learning_train(training, progress=progress)
            else:
                message = _train_mention_tagger(progress, train_file, options)
    except Exception as exc:  # the row records any failure for the admin page
        logger.exception("training %s failed", training.pk)
        failure = f"{type(exc).__name__}: {exc}"
        lifecycle.finish(
            training, ModelTraining.Status.FAILED, failure, error=traceback.format_exc()
        )
        return f"failed: {exc}"
    if training.status == ModelTraining.Status.SUCCEEDED:
        return f"succeeded: {message}"  # finished with its version (learning.py)
    if not lifecycle.finish(training, ModelTraining.Status.SUCCEEDED, message):
        return "skipped: another worker took the training over"
    return f"succeeded: {message}"
