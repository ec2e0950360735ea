"""Is a model worker alive? (So the interface can say why a run stays queued.)"""

from __future__ import annotations

from celery import current_app as app
from django.core.cache import cache

CACHE_KEY = "modelserve:model-workers"


def model_workers() -> list[str]:
    """Names of live workers consuming the `models` queue (a real ping), cached for 10 s."""
    names = cache.get(CACHE_KEY)
    if names is None:
        try:
            replies = app.control.inspect(timeout=1.0).active_queues() or {}
        except Exception:  # noqa: BLE001 - a broker hiccup of any kind reads as "no worker"
            replies = {}
        names = sorted(
            worker
            for worker, queues in replies.items()
            if any(queue.get("name") == "models" for queue in queues or [])
        )
        cache.set(CACHE_KEY, names, 10)
    return names
