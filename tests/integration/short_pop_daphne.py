"""Daphne with channels-redis's blocking pop shortened to $CHANNEL_LAYER_POP_SECONDS.

Run as `python -m tests.integration.short_pop_daphne DAPHNE-ARGS`. The class attribute is set
before Django reads its settings, so the channel layer's socket timeout, which the settings
derive from the pop (three times it), shrinks with it: the same ratio as in production, on a
time scale a test can wait out.
"""

import os

from channels_redis.core import RedisChannelLayer
from daphne.cli import CommandLineInterface

RedisChannelLayer.brpop_timeout = float(os.environ["CHANNEL_LAYER_POP_SECONDS"])

if __name__ == "__main__":
    CommandLineInterface.entrypoint()
