"""The tagger's number of epochs is written in three places that must not drift apart: the
backend's default, the command line's (which cannot import the backend: it loads torch), and
the learning loop's setting (a deployment may set it; its default may not differ)."""

import os

from django.conf import settings

from modelserve import train
from modelserve.backends import chemu_mentions


def test_the_command_line_and_the_learning_loop_default_to_the_taggers_epochs():
    assert "LEARN_MENTION_EPOCHS" not in os.environ  # so the setting below is its default
    assert train.MENTION_EPOCHS == chemu_mentions.EPOCHS
    assert settings.LEARN_MENTION_EPOCHS == chemu_mentions.EPOCHS
