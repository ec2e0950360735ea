"""corefapp.cache.FailSoftRedisCache against django-redis with DJANGO_REDIS_IGNORE_EXCEPTIONS
(the library's fail-soft switch), both on one real Redis with the product's timeouts.

Redis up: per-call time of a get and a set. Redis hung (SIGSTOP: the process keeps its
socket open, so nothing is refused and every client waits for its timeout): the time ten
requests in a row spend in the cache, each doing one get.
"""

from __future__ import annotations

import os
import shutil
import signal
import tempfile
import time
from pathlib import Path

from bench.infra.rounds import interleaved, per_call_us
from corefapp.runtime.redis_server import EmbeddedRedis
from tests.ports import free_port

TIMEOUT = 1.0  # REDIS_TIMEOUT's default
REQUESTS = 10


def main() -> None:
    folder = Path(tempfile.mkdtemp(prefix="infra-cache-"))
    redis_server = EmbeddedRedis(folder, port=free_port())
    redis_server.start()
    try:
        measure(redis_server)
    finally:
        redis_server.stop()
        shutil.rmtree(folder, ignore_errors=True)


def measure(redis_server: EmbeddedRedis) -> None:
    import django
    from django.conf import settings

    timeouts = {"socket_timeout": TIMEOUT, "socket_connect_timeout": TIMEOUT}
    settings.configure(
        DJANGO_REDIS_IGNORE_EXCEPTIONS=True,
        DJANGO_REDIS_LOG_IGNORED_EXCEPTIONS=False,
        CACHES={
            "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
            "hand": {
                "BACKEND": "corefapp.cache.FailSoftRedisCache",
                "LOCATION": redis_server.url(0),
                "OPTIONS": timeouts,
            },
            "django": {
                "BACKEND": "django.core.cache.backends.redis.RedisCache",
                "LOCATION": redis_server.url(2),
                "OPTIONS": timeouts,
            },
            "library": {
                "BACKEND": "django_redis.cache.RedisCache",
                "LOCATION": redis_server.url(1),
                # django-redis spells them in capitals; the lower-case ones are ignored.
                "OPTIONS": {"SOCKET_TIMEOUT": TIMEOUT, "SOCKET_CONNECT_TIMEOUT": TIMEOUT},
            },
        },
    )
    django.setup()
    from django.core.cache import caches

    from corefapp.cache import FailSoftRedisCache

    hand, library = caches["hand"], caches["library"]
    for cache in (hand, library):
        cache.set("k", {"workers": ["models@host"]}, 60)

    calls = 2000
    django_cache = caches["django"]
    django_cache.set("k", {"workers": ["models@host"]}, 60)
    interleaved(  # what the fail-soft wrapper itself costs over Django's RedisCache
        "Redis up, get, µs per call",
        ("FailSoftRedisCache", lambda: per_call_us(lambda: hand.get("k"), calls)),
        ("Django's RedisCache", lambda: per_call_us(lambda: django_cache.get("k"), calls)),
    )
    interleaved(
        "Redis up, get, µs per call",
        ("FailSoftRedisCache", lambda: per_call_us(lambda: hand.get("k"), calls)),
        ("django-redis", lambda: per_call_us(lambda: library.get("k"), calls)),
    )
    interleaved(
        "Redis up, set, µs per call",
        ("FailSoftRedisCache", lambda: per_call_us(lambda: hand.set("k", 1, 60), calls)),
        ("django-redis", lambda: per_call_us(lambda: library.set("k", 1, 60), calls)),
    )

    assert redis_server.process is not None
    pid = redis_server.process.pid

    def hung(cache) -> float:
        """Seconds REQUESTS gets spend while Redis is stopped; the cache is usable after."""
        os.kill(pid, signal.SIGSTOP)
        try:
            started = time.monotonic()
            answers = [cache.get("k", "miss") for _ in range(REQUESTS)]
            spent = time.monotonic() - started
        finally:
            os.kill(pid, signal.SIGCONT)
        assert answers == ["miss"] * REQUESTS, answers
        time.sleep(0.1)
        return spent

    def hand_hung() -> float:
        assert isinstance(hand, FailSoftRedisCache)
        hand._skip_until = 0.0  # each round starts with Redis believed up
        return hung(hand)

    interleaved(
        f"Redis hung, seconds {REQUESTS} requests spend in the cache",
        ("FailSoftRedisCache", hand_hung),
        ("django-redis", lambda: hung(library)),
        rounds=3,
    )


if __name__ == "__main__":
    main()
