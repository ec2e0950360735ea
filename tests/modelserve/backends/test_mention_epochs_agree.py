"""The tagger's number of epochs is written in two places that must not drift apart: the
backend's default and the command line's (which cannot import the backend: it loads torch).
The learning loop keeps the shared tagger by default (LEARN_MENTION_EPOCHS 0)."""

import os

from django.conf import settings

from modelserve import train
from modelserve.backends import chemu_mentions


def test_the_command_line_defaults_to_the_taggers_epochs_and_the_loop_keeps_the_tagger():
    assert "LEARN_MENTION_EPOCHS" not in os.environ  # so the setting below is its default
    assert train.MENTION_EPOCHS == chemu_mentions.EPOCHS
    assert settings.LEARN_MENTION_EPOCHS == 0
