"""Sending a training's task to the model worker (by name, as runs are sent): used by the
trainings after start-up (trainings.py) and a project's retraining (learning.py)."""

from __future__ import annotations

from celery import current_app

from foundation.jobs import lifecycle
from modelserve.models import ModelTraining
from modelserve.queues import backend_queue

# The model worker's task (modelserve.tasks), sent by name like the run task.
TRAIN_TASK = "modelserve.tasks.train_model"


def training_task_send(training_id: int, *, backend: str) -> None:
    """Queue the training's task in the queue of the backend it trains for; a broker that
    fails fails the training with the reason (lifecycle.send_or_fail)."""
    lifecycle.send_or_fail(
        ModelTraining,
        training_id,
        lambda: current_app.send_task(
            TRAIN_TASK,
            kwargs={"training_id": training_id},
            queue=backend_queue(backend),
            ignore_result=True,
        ),
    )
