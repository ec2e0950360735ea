"""Django's Redis cache, read as empty while Redis is down.

Nothing the application stores in the cache is the only copy (a model-worker listing, sign-in
throttle counters), so an outage must cost a cache miss, not a 500. After a failure the cache
is skipped for a few seconds: with Redis hung, one request per pause waits out the short
socket timeout instead of every request.
"""

from __future__ import annotations

import logging
import time
from typing import Any

import redis
from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache

logger = logging.getLogger(__name__)

PAUSE_SECONDS = 5.0


class FailSoftRedisCache(RedisCache):
    _skip_until = 0.0

    def _available(self) -> bool:
        return time.monotonic() >= self._skip_until

    def _failed(self, action: str, error: Exception) -> None:
        if self._available():
            logger.warning(
                "cache %s failed (%s: %s); the cache reads as empty for %.0f s",
                action,
                type(error).__name__,
                error,
                PAUSE_SECONDS,
            )
        self._skip_until = time.monotonic() + PAUSE_SECONDS

    def _soft(self, action: str, default: Any, call, *args: Any, **kwargs: Any) -> Any:
        if not self._available():
            return default
        try:
            return call(*args, **kwargs)
        except redis.RedisError as error:
            self._failed(action, error)
            return default

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        return self._soft("add", False, super().add, key, value, timeout, version)

    def get(self, key, default=None, version=None):
        return self._soft("get", default, super().get, key, default, version)

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        self._soft("set", None, super().set, key, value, timeout, version)

    def touch(self, key, timeout=DEFAULT_TIMEOUT, version=None):
        return self._soft("touch", False, super().touch, key, timeout, version)

    def delete(self, key, version=None):
        return self._soft("delete", False, super().delete, key, version)

    def get_many(self, keys, version=None):
        return self._soft("get_many", {}, super().get_many, keys, version)

    def has_key(self, key, version=None):
        return self._soft("has_key", False, super().has_key, key, version)

    def set_many(self, data, timeout=DEFAULT_TIMEOUT, version=None):
        return self._soft("set_many", list(data), super().set_many, data, timeout, version)

    def delete_many(self, keys, version=None):
        self._soft("delete_many", None, super().delete_many, keys, version)

    def clear(self):
        return self._soft("clear", False, super().clear)
