"""The model queue seen from outside the workers: is the broker reachable, is a model worker
alive (so the interface can say why a run stays queued), which runs wait in the queue."""

from __future__ import annotations

import base64
import functools
import json
import logging

import redis
from celery import current_app as app
from django.conf import settings
from django.core.cache import cache

logger = logging.getLogger(__name__)

CACHE_KEY = "modelserve:model-workers"
MODELS_QUEUE = "models"
# kombu's Redis transport keeps a queue's messages in one list per priority step.
_PRIORITY_LISTS = [MODELS_QUEUE, *(f"{MODELS_QUEUE}\x06\x16{step}" for step in (3, 6, 9))]


@functools.cache
def _client(url: str, timeout: float) -> redis.Redis:
    return redis.Redis.from_url(url, socket_timeout=timeout, socket_connect_timeout=timeout)


def _broker() -> redis.Redis:
    return _client(settings.CELERY_BROKER_URL, settings.REDIS_TIMEOUT)


def broker_reachable() -> bool:
    """Whether the broker answers a PING within REDIS_TIMEOUT (down or hung: False)."""
    try:
        return bool(_broker().ping())
    except redis.RedisError:
        return False


def model_workers() -> list[str]:
    """Names of live workers consuming the `models` queue (a real ping), cached for 10 s."""
    names = cache.get(CACHE_KEY)
    if names is None:
        if not broker_reachable():
            return []  # asking the workers would wait for the broker's longer timeouts
        try:
            replies = app.control.inspect(timeout=1.0).active_queues() or {}
        except Exception:  # noqa: BLE001 - a broker hiccup of any kind reads as "no worker"
            replies = {}
        names = sorted(
            worker
            for worker, queues in replies.items()
            if any(queue.get("name") == MODELS_QUEUE for queue in queues or [])
        )
        cache.set(CACHE_KEY, names, 10)
    return names


def waiting_run_ids(task_name: str, *, key: str = "run_id") -> set[int]:
    """Ids of the runs (or, by `key`, trainings) whose task message waits in the `models`
    queue (not yet taken by a worker). Raises redis.RedisError when the broker does not answer."""
    ids: set[int] = set()
    for queue in _PRIORITY_LISTS:
        for raw in _broker().lrange(queue, 0, -1):
            run_id = _run_id(raw, task_name, key)
            if run_id is not None:
                ids.add(run_id)
    return ids


def _run_id(raw: bytes | str, task_name: str, key: str = "run_id") -> int | None:
    try:
        message = json.loads(raw)
        if message["headers"]["task"] != task_name:
            return None
        body = message["body"]
        if message["properties"].get("body_encoding") == "base64":
            body = base64.b64decode(body)
        _, kwargs, _ = json.loads(body)
        return int(kwargs[key])
    except (ValueError, KeyError, TypeError):
        logger.warning("a message in the %s queue could not be read", MODELS_QUEUE)
        return None
