"""Trainings that run after start-up in a model worker (in the queue of the backend they
train for), so that `make up` does not wait for them: today the ChEMU mention tagger, which
lets the `chemu` backend propose mentions from raw text (it looks for the tagger at every
run, so runs after the training propose mentions, runs before it link the existing mentions
only).

`model_training_request` queues one when the model is missing (the prepare step of `make up`
calls it); `model_training_execute` trains, in a thread the model worker's task starts (so
that the worker keeps serving runs meanwhile): idempotent like a run (a finished training is
left alone, one with a fresh heartbeat belongs to a live worker, a stale one is taken over),
its progress written to the row for the admin Suggestions page.
"""

from __future__ import annotations

import logging
import time
import traceback
from pathlib import Path

from django.conf import settings
from django.db import (
    InterfaceError,
    OperationalError,
    close_old_connections,
    connection,
    transaction,
)
from django.utils import timezone

from foundation.side_effects import after_commit
from modelserve.model_store import in_storage, model_stored, model_upload
from modelserve.models import ModelTraining
from modelserve.queues import TRAINING_BACKENDS
from modelserve.services.execution import Heartbeat, heartbeat_stale_after
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


def model_training_request(*, name: str = MENTION_TAGGER) -> ModelTraining | None:
    """Queue the training of `name` unless it is trained already or one is queued or running
    (that one is returned; its task is sent again, since a restart of everything may have lost
    the message and the task is idempotent). None: nothing to do."""
    if _mention_tagger_trained():
        return None
    with transaction.atomic():
        active = ModelTraining.objects.select_for_update().filter(name=name, status__in=ACTIVE)
        training = active.first() or ModelTraining.objects.create(
            name=name, message="waiting for a model worker"
        )
        after_commit(lambda: training_task_send(training.pk, TRAINING_BACKENDS[training.name]))
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
            training_task_send, training.pk, _training_backend(training)
        ),
    )
    return [training.pk for training in trainings]


def _retried(write, *, attempts: int = 5):
    """A database call from the training's thread. The model worker closes its connection
    pool after every task it runs (Celery's Django fixup, with a prefork pool), so a call that
    meets the closed pool is made again on a fresh connection."""
    for attempt in range(attempts):
        try:
            return write()
        except (OperationalError, InterfaceError):
            connection.close()
            if attempt == attempts - 1:
                raise
            time.sleep(0.5 * (attempt + 1))
    return None


def _claim(training_id: int, worker: str) -> ModelTraining | None:
    with transaction.atomic():
        training = ModelTraining.objects.select_for_update().filter(pk=training_id).first()
        if training is None or training.status not in ACTIVE:
            return None
        beat = training.heartbeat_at
        if (
            training.status == ModelTraining.Status.RUNNING
            and beat
            and (timezone.now() - beat < heartbeat_stale_after())
        ):
            return None
        training.status = ModelTraining.Status.RUNNING
        training.worker = worker
        training.started_at = training.heartbeat_at = timezone.now()
        training.progress, training.message, training.error = 0.0, "starting", ""
        training.save()
    return training


def _progress_writer(training_id: int):
    last = [0.0]

    def report(fraction: float, message: str) -> None:
        now = time.monotonic()
        if now - last[0] < 1.0 and fraction < 1.0:
            return
        last[0] = now
        _retried(
            lambda: ModelTraining.objects.filter(pk=training_id).update(
                progress=max(0.0, min(1.0, float(fraction))),
                message=message[:300],
                heartbeat_at=timezone.now(),
            )
        )

    return report


def _train_mention_tagger(progress, train_file: Path | None, options: dict) -> str:
    from corefscore.formats import read
    from modelserve.backends import vector_cache
    from modelserve.backends.chemu_mentions import DIRECTORY, train_chemu_mentions

    path = Path(train_file or settings.CHEMU_TRAIN_FILE)
    if not path.is_file():
        raise FileNotFoundError(f"the ChEMU training file {path} is missing")
    topics = read("chemu", path, skip_invalid=True).topics
    summary = train_chemu_mentions(
        topics,
        _models_dir() / DIRECTORY,
        link_model_dir=_models_dir() / "chemu",  # held-out scores end to end, if trained
        # a retraining encodes only the documents it has not seen (the encoder is frozen)
        vector_folder=_models_dir() / vector_cache.FOLDER,
        progress=progress,
        log=logger.info,
        **options,
    )
    model_upload(DIRECTORY)  # with STORAGE_URL: into the bucket, for every model worker
    return f"trained in {summary['train_seconds']:.0f} s"


def _owned(training: ModelTraining):
    """The row while this execution owns it: a late worker whose training was taken over
    must not mark the new owner's training failed or done."""
    return ModelTraining.objects.filter(
        pk=training.pk,
        status=ModelTraining.Status.RUNNING,
        worker=training.worker,
        started_at=training.started_at,
    )


def model_training_execute(
    *, training_id: int, worker: str = "", train_file: Path | None = None, **options
) -> str:
    """Train for one ModelTraining row (what the task's thread runs). Returns what happened.
    `train_file` and `options` (of `train_chemu_mentions`): the defaults unless a test says."""
    close_old_connections()
    training = _retried(lambda: _claim(training_id, worker))
    if training is None:
        return "skipped: finished, gone or running elsewhere"
    try:
        with Heartbeat(
            ModelTraining.objects.filter(pk=training.pk, status=ModelTraining.Status.RUNNING),
            name=f"training-{training.pk}",
        ):
            progress = _progress_writer(training.pk)
            if training.project_id is not None:  # a project's retraining (services/learning.py)
                from modelserve.services.learning import learning_train

                message = learning_train(training, progress)
            else:
                message = _train_mention_tagger(progress, train_file, options)
    except Exception as exc:  # the row records any failure for the admin page
        logger.exception("training %s failed", training.pk)
        detail, failure = traceback.format_exc(), f"{type(exc).__name__}: {exc}"[:300]
        _retried(
            lambda: _owned(training).update(
                status=ModelTraining.Status.FAILED,
                finished_at=timezone.now(),
                message=failure,
                error=detail,
            )
        )
        return f"failed: {exc}"
    _retried(
        lambda: _owned(training).update(
            status=ModelTraining.Status.SUCCEEDED,
            progress=1.0,
            finished_at=timezone.now(),
            message=message,
        )
    )
    return f"succeeded: {message}"
