"""The cache reads as empty while Redis is down or hung, and a hung Redis costs one timeout."""

from __future__ import annotations

import socket
import time

from corefapp.cache import FailSoftRedisCache
from tests.ports import free_port


def cache_at(url: str) -> FailSoftRedisCache:
    return FailSoftRedisCache(
        url, {"OPTIONS": {"socket_timeout": 0.5, "socket_connect_timeout": 0.5}}
    )


def test_with_redis_down_reads_miss_and_writes_are_dropped():
    cache = cache_at(f"redis://127.0.0.1:{free_port()}/0")

    cache.set("key", "value")

    assert cache.get("key", "default") == "default"
    assert cache.get_many(["key"]) == {}
    assert cache.add("key", "value") is False
    assert cache.delete("key") is False


def test_with_redis_hung_only_the_first_call_waits_for_the_timeout(caplog):
    with socket.socket() as hung:  # accepts connections (the kernel does) and never answers
        hung.bind(("127.0.0.1", 0))
        hung.listen(16)
        cache = cache_at(f"redis://127.0.0.1:{hung.getsockname()[1]}/0")

        started = time.monotonic()
        first = cache.get("key")
        first_s = time.monotonic() - started
        started = time.monotonic()
        second = cache.get("key")
        second_s = time.monotonic() - started

    assert first is None
    assert second is None
    assert 0.4 < first_s < 1.5
    assert second_s < 0.05
    assert "cache get failed" in caplog.text


def test_a_working_redis_is_used_as_usual(services):
    cache = cache_at(services.redis_url)

    cache.set("fail-soft-test", {"a": 1}, 30)

    assert cache.get("fail-soft-test") == {"a": 1}
    cache.delete("fail-soft-test")
