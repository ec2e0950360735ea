"""Sending a training's task to the model worker (by name, as runs are sent): used by the
trainings after start-up (trainings.py) and a project's retraining (learning.py)."""

from __future__ import annotations

import logging

from celery import current_app

from modelserve.queues import backend_queue

logger = logging.getLogger(__name__)

# The model worker's task (modelserve.tasks), sent by name like the run task.
TRAIN_TASK = "modelserve.tasks.train_model"


def training_task_send(training_id: int, backend: str) -> None:
    """Queue the training's task in the queue of the backend it trains for."""
    try:
        current_app.send_task(
            TRAIN_TASK,
            kwargs={"training_id": training_id},
            queue=backend_queue(backend),
            ignore_result=True,
        )
    except Exception as error:  # noqa: BLE001 - any broker failure: the sweeper sends it later
        logger.warning(
            "training %s stays queued: its task could not be sent (%r)", training_id, error
        )
