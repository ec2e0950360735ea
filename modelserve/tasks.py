"""Celery tasks of the model workers (one queue per backend: modelserve/queues.py): thin
wrappers around services, and the sweeper that re-queues runs nobody would otherwise execute."""

from __future__ import annotations

import logging
import threading
import time

from celery import shared_task
from celery.signals import celeryd_init, worker_process_init
from django.conf import settings
from django.db import close_old_connections, connection

from foundation.jobs import lifecycle
from modelserve.queues import is_model_queue
from modelserve.services.candidate_runs import CANDIDATES_TASK, candidate_run_execute
from modelserve.services.corpus_encoding import ENCODE_TASK, encode_chunk_execute
from modelserve.services.evaluations import EVALUATE_TASK, model_evaluation_execute
from modelserve.services.execution import suggestion_run_execute
from modelserve.services.learning import learning_due_request
from modelserve.services.query_encoding import QUERY_TASK, encode_query_execute
from modelserve.services.runs import RUN_TASK, suggestion_runs_requeue
from modelserve.services.trainings import (
    TRAIN_TASK,
    model_training_execute,
    model_trainings_requeue,
)

logger = logging.getLogger(__name__)


@shared_task(
    bind=True,
    name=RUN_TASK,
    acks_late=True,
    reject_on_worker_lost=True,
    max_retries=None,
)
def run_suggestions(self, *, run_id: int) -> str:
    """Takes an id, is idempotent, acknowledged late: a worker killed mid-run leaves the
    message unacknowledged, Redis redelivers it, and the next worker completes the run once."""
    outcome = suggestion_run_execute(run_id=run_id, worker=self.request.hostname or "")
    if outcome == lifecycle.BUSY:
        # Another worker holds it with a fresh heartbeat; look again later in case it dies.
        raise self.retry(countdown=lifecycle.retry_countdown())
    return outcome


@shared_task(bind=True, name=TRAIN_TASK)
def train_model(self, *, training_id: int) -> str:
    """A training after start-up (modelserve/services/trainings.py), in a thread of this model
        worker, so that its one process goes on serving suggestion runs while the model trains
        (minutes on a CPU). Idempotent: a training already running with a fresh heartbeat is left
        alone; one whose worker died is taken over once the sweeper below finds its heartbeat stale
    (a project's retraining, docs/learning.md, and the trainings after start-up alike)."""
    threading.Thread(
        target=_train_in_background,
        kwargs={"training_id": training_id, "worker": self.request.hostname or ""},
        name=f"training-{training_id}",
        daemon=True,
    ).start()
    return "started in the background"


@shared_task(bind=True, name=EVALUATE_TASK, acks_late=True, reject_on_worker_lost=True)
def evaluate_model(self, *, evaluation_id: int) -> str:
    """A model scored on a project's gold (the admin Models page). Idempotent like a run: a
    redelivered message finds the evaluation finished, or alive on another worker, or stale
    and takes it over; while it is fresh the task looks again later."""
    outcome = model_evaluation_execute(
        evaluation_id=evaluation_id, worker=self.request.hostname or ""
    )
    if outcome == lifecycle.BUSY:
        raise self.retry(countdown=lifecycle.retry_countdown())
    return outcome


@shared_task(
    bind=True, name=ENCODE_TASK, acks_late=True, reject_on_worker_lost=True, max_retries=None
)
def encode_corpus_chunk(self, *, chunk_id: int) -> str:
    """One chunk of a corpus's mentions encoded and stored (services/corpus_encoding.py).
    Acknowledged late: a worker killed mid-chunk leaves the message unacknowledged, Redis
    redelivers it, and the next worker redoes the chunk once the heartbeat is stale."""
    outcome = encode_chunk_execute(chunk_id=chunk_id, worker=self.request.hostname or "")
    if outcome == lifecycle.BUSY:
        raise self.retry(countdown=lifecycle.retry_countdown())
    return outcome


@shared_task(
    bind=True, name=CANDIDATES_TASK, acks_late=True, reject_on_worker_lost=True, max_retries=None
)
def candidate_topics(self, *, run_id: int) -> str:
    """Candidate topics for concept groups (services/candidate_runs.py). Acknowledged late,
    like a chunk: a redelivered message takes the run over once its heartbeat is stale, and
    the candidates are stored once, with the run's end."""
    outcome = candidate_run_execute(run_id=run_id, worker=self.request.hostname or "")
    if outcome == lifecycle.BUSY:
        raise self.retry(countdown=lifecycle.retry_countdown())
    return outcome


@shared_task(name=QUERY_TASK)
def encode_query(*, encoder: str, context: str, words: list[str], spans: list[list[int]]):
    """One query-by-example vector while a request waits for it (services/query_encoding.py):
    no state, so a lost one is simply asked again."""
    return encode_query_execute(encoder=encoder, context=context, words=words, spans=spans)


def _train_in_background(*, training_id: int, worker: str) -> None:
    try:
        model_training_execute(training_id=training_id, worker=worker)
    finally:
        connection.close()


# -- the sweeper -------------------------------------------------------------------------------
# Redis redelivers the message of a worker that died only after the visibility timeout (10 min),
# and a run whose task could not be sent has no message at all. Every model worker therefore
# sweeps at start and then every third of the heartbeat's staleness window, so such a run is
# taken over about as soon as its heartbeat goes stale, also after a restart of everything.

_sweeps = False


@celeryd_init.connect
def _note_model_worker(sender=None, instance=None, conf=None, options=None, **kwargs) -> None:
    """In the worker's main process, before its pool forks: does it consume a model queue?
    Every model worker sweeps every backend's runs (re-sending each to its own queue)."""
    global _sweeps
    queues = (options or {}).get("queues") or []
    if isinstance(queues, str):
        queues = queues.split(",")
    _sweeps = any(is_model_queue(name) for name in queues)


@worker_process_init.connect
def _start_sweeper(**kwargs) -> None:
    """In each pool process (the parent never touches the database, so forks stay clean)."""
    if _sweeps:
        threading.Thread(target=_sweep_forever, name="run-sweeper", daemon=True).start()


def sweep_interval() -> float:
    return max(1.0, settings.SUGGEST_HEARTBEAT_STALE_SECONDS / 3)


def _sweep_forever() -> None:
    failing = False
    while True:
        try:
            close_old_connections()
            requeued = suggestion_runs_requeue()
            if requeued:
                logger.warning("re-queued suggestion runs %s (nobody was executing them)", requeued)
            requeued = model_trainings_requeue()
            if requeued:
                logger.warning("re-queued trainings %s (nobody was executing them)", requeued)
            learning = learning_due_request()
            if learning:
                logger.info("retraining queued for projects %s (new work)", learning)
            failing = False
        except Exception as error:  # noqa: BLE001 - the broker or database is away: try later
            if not failing:
                logger.warning(
                    "run sweep failed (%r); retrying every %.0f s", error, sweep_interval()
                )
            failing = True
        finally:
            connection.close()
        time.sleep(sweep_interval())
