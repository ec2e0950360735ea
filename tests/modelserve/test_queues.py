"""One queue per model: the names, and who consumes them (the real worker: test_model_queues)."""

from __future__ import annotations

from corefapp.runtime import commands
from modelserve.backends import DEFAULT_BACKEND, available_backends
from modelserve.queues import TRAINING_BACKENDS, backend_queue, model_queues


def queues_of(command: list[str]) -> list[str]:
    return command[command.index("-Q") + 1].split(",")


def test_every_backend_has_a_queue_of_its_own():
    assert len(set(model_queues())) == len(available_backends())
    assert all(backend_queue(b) in model_queues() for b in available_backends())


def test_make_ups_model_worker_consumes_every_models_queue():
    assert sorted(queues_of(commands.model_worker_command())) == sorted(model_queues())


def test_a_worker_for_some_models_consumes_only_their_queues():
    command = commands.model_worker_command(["singleton"], name="models-singleton")
    assert queues_of(command) == [backend_queue("singleton")]
    assert "models-singleton@%h" in command


def test_a_run_of_a_backend_no_longer_known_goes_where_a_worker_fails_it():
    assert backend_queue("lexical") == backend_queue(DEFAULT_BACKEND)


def test_every_training_waits_in_a_queue_a_worker_consumes():
    assert {backend_queue(b) for b in TRAINING_BACKENDS.values()} <= set(model_queues())
