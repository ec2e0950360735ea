"""One Celery queue per model backend, so a run of a heavy model (a cross-encoder over a
large topic: minutes on a GPU) never waits behind, nor holds up, runs of a light one.

Runs go to their backend's queue; a training to the queue of the backend it trains for. A
worker consumes the queues of the models it serves: `make up`'s one model worker consumes
all of them (Celery's Redis transport polls a worker's queues in turn, so even there a
backlog of one model does not stop another's runs), and deploy/kubernetes gives each heavy
model a Deployment of its own. Plain Python (no Celery, no Django): the launcher, compose and
the Kubernetes test build worker commands from it."""

from __future__ import annotations

from modelserve.backends import BACKENDS, DEFAULT_BACKEND, available_backends

PREFIX = "models."
# What each training trains for (modelserve/services/trainings.py): the ChEMU mention tagger
# serves the chemu backend, so its training waits in that queue, not behind other models.
TRAINING_BACKENDS = {"chemu-mentions": "chemu"}


def backend_queue(backend: str) -> str:
    """A backend's queue. A run of a backend this release no longer has (an old row) goes to
    the default model's queue, whose worker fails it with the reason, rather than to a queue
    nobody consumes, where the sweeper would re-send it forever."""
    return f"{PREFIX}{backend if backend in BACKENDS else DEFAULT_BACKEND}"


def model_queues() -> list[str]:
    """Every model queue, in backend-name order."""
    return [backend_queue(backend) for backend in available_backends()]


def is_model_queue(name: str) -> bool:
    return name.strip().startswith(PREFIX)
