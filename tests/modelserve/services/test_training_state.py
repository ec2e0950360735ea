"""A run that could not propose mentions says why (a first `make up` is usable at
once): the note follows the mention tagger's training as the model worker records it."""

from __future__ import annotations

import pytest

from modelserve.backends.base import Suggestions
from modelserve.models import ModelTraining
from modelserve.services.execution import _finished_message
from modelserve.services.trainings import MENTION_TAGGER

pytestmark = pytest.mark.django_db


def training(status: str, progress: float = 0.0) -> None:
    ModelTraining.objects.create(name=MENTION_TAGGER, status=status, progress=progress)


def test_a_run_with_nothing_pending_says_only_its_count():
    assert _finished_message(3, Suggestions()) == "3 suggestions"


@pytest.mark.parametrize(
    ("status", "progress", "expected"),
    [
        (None, 0.0, "no mention tagger is trained"),
        ("queued", 0.0, "the mention tagger's training waits for a model worker"),
        ("running", 0.4, "the mention tagger is training (40 %)"),
        ("failed", 0.2, "the mention tagger's training failed"),
        ("succeeded", 1.0, "the mention tagger has just been trained: ask again"),
    ],
)
def test_a_run_without_its_mention_tagger_says_why_and_how_far_the_training_is(
    status, progress, expected
):
    if status is not None:
        training(status, progress)

    message = _finished_message(5, Suggestions(pending=["mentions"]))

    assert message.startswith("5 suggestions; mention proposals are not ready yet: ")
    assert expected in message


def test_the_newest_training_is_the_one_reported():
    training("failed")
    training("running", 0.66)

    assert "training (66 %)" in _finished_message(1, Suggestions(pending=["mentions"]))
