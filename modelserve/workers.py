"""The model queues seen from outside the workers: is the broker reachable, is a model worker
alive for a backend (so the interface can say why a run stays queued), which runs wait in the
queues (one per backend: modelserve/queues.py)."""

from __future__ import annotations

import base64
import functools
import json
import logging
from collections.abc import Iterable

import redis
from celery import current_app as app
from django.conf import settings
from django.core.cache import cache

from modelserve.queues import backend_queue, is_model_queue, model_queues

logger = logging.getLogger(__name__)

CACHE_KEY = "modelserve:model-workers"


def _priority_lists(queue: str) -> list[str]:
    """kombu's Redis transport keeps a queue's messages in one list per priority step."""
    return [queue, *(f"{queue}\x06\x16{step}" for step in (3, 6, 9))]


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


def model_workers(backend: str | None = None) -> list[str]:
    """Names of live workers consuming `backend`'s queue, or any model queue (a real ping),
    cached for 10 s."""
    key = CACHE_KEY if backend is None else f"{CACHE_KEY}:{backend}"
    names = cache.get(key)
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
            if any(_serves(queue.get("name") or "", backend) for queue in queues or [])
        )
        cache.set(key, names, 10)
    return names


def _serves(queue: str, backend: str | None) -> bool:
    return queue == backend_queue(backend) if backend else is_model_queue(queue)


def waiting_run_ids(
    task_name: str, *, key: str = "run_id", queues: Iterable[str] | None = None
) -> set[int]:
    """Ids of the runs (or, by `key`, trainings or jobs) whose task message waits in a model
    queue, or in `queues` (not yet taken by a worker). Raises redis.RedisError when the broker
    does not answer."""
    ids: set[int] = set()
    queues = model_queues() if queues is None else queues
    for listed in (name for queue in queues for name in _priority_lists(queue)):
        for raw in _broker().lrange(listed, 0, -1):
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
        logger.warning("a message in a model queue could not be read")
        return None
