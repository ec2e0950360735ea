"""Sending a training's task to the model worker (by name, as runs are sent): used by the
trainings after start-up (trainings.py) and a project's retraining (learning.py)."""

from __future__ import annotations

import logging

from celery import current_app

logger = logging.getLogger(__name__)

# The model worker's task (modelserve.tasks), sent by name like the run task.
TRAIN_TASK = "modelserve.tasks.train_model"


def training_task_send(training_id: int) -> None:
    try:
        current_app.send_task(
            TRAIN_TASK, kwargs={"training_id": training_id}, queue="models", ignore_result=True
        )
    except Exception as error:  # noqa: BLE001 - any broker failure: the next start sends it
        logger.warning(
            "training %s stays queued: its task could not be sent (%r)", training_id, error
        )
