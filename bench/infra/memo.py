"""onboarding.memo against cachetools.TTLCache (behind a lock: TTLCache is not thread-safe and
the web server answers on 20 threads). Per call, a hit (the hot path: every operation asks
twice) and a miss that stores."""

from __future__ import annotations

import threading
import time

from cachetools import TTLCache

from bench.infra.rounds import interleaved, per_call_us
from onboarding.memo import TTL, memo, memo_forget

CALLS = 200_000
KEYS = 1000


def main() -> None:
    cache: TTLCache = TTLCache(maxsize=10_000, ttl=TTL, timer=time.monotonic)
    lock = threading.Lock()

    def library(kind: str, key: int, compute):
        with lock:
            try:
                return cache[(kind, key)]
            except KeyError:
                pass
        value = compute()
        with lock:
            cache[(kind, key)] = value
        return value

    def hand_hit() -> float:
        memo("requires", 7, lambda: False)
        return per_call_us(lambda: memo("requires", 7, lambda: False), CALLS)

    def library_hit() -> float:
        library("requires", 7, lambda: False)
        return per_call_us(lambda: library("requires", 7, lambda: False), CALLS)

    counter = iter(range(10**9))

    def hand_miss() -> float:
        memo_forget()
        return per_call_us(lambda: memo("requires", next(counter), lambda: False), CALLS // 4)

    def library_miss() -> float:
        cache.clear()
        return per_call_us(lambda: library("requires", next(counter), lambda: False), CALLS // 4)

    interleaved("hit, µs per call", ("memo", hand_hit), ("TTLCache+lock", library_hit))
    interleaved("miss, µs per call", ("memo", hand_miss), ("TTLCache+lock", library_miss))


if __name__ == "__main__":
    main()
