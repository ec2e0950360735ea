"""modelserve.workers.waiting_run_ids (reads kombu's Redis lists) against Celery's public
inspect API and kombu's public queue declaration, on a real Redis with queued run messages
and no worker: which of them can say *which* runs wait, and what each costs."""

from __future__ import annotations

import os
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from corefapp.runtime.redis_server import EmbeddedRedis
from tests.ports import free_port

QUEUED = 50
ROUNDS = 5


def main() -> None:
    folder = Path(tempfile.mkdtemp(prefix="infra-workers-"))
    redis_server = EmbeddedRedis(folder, port=free_port())
    redis_server.start()
    try:
        os.environ["REDIS_URL"] = redis_server.url()
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "corefapp.settings")
        import django

        django.setup()
        measure()
    finally:
        redis_server.stop()
        shutil.rmtree(folder, ignore_errors=True)


def measure() -> None:
    from celery import current_app as app

    from modelserve.queues import backend_queue
    from modelserve.services.runs import RUN_TASK
    from modelserve.workers import waiting_run_ids

    queue = backend_queue("minilm")

    for run_id in range(1, QUEUED + 1):
        app.send_task(RUN_TASK, kwargs={"run_id": run_id}, queue=queue)

    def inspect_api():
        inspect = app.control.inspect(timeout=1.0)
        return inspect.reserved(), inspect.scheduled(), inspect.active()

    def queue_count():
        with app.connection_for_read() as connection:
            return connection.default_channel.queue_declare(queue, passive=True)

    timings: dict[str, list[float]] = {"hand": [], "inspect": [], "count": []}
    for round_ in range(ROUNDS):
        order = [
            ("hand", lambda: waiting_run_ids(RUN_TASK)),
            ("inspect", inspect_api),
            ("count", queue_count),
        ]
        if round_ % 2:
            order.reverse()
        for name, call in order:
            started = time.perf_counter()
            found = call()
            timings[name].append((time.perf_counter() - started) * 1000)
            if round_ == 0:
                print(f"{name:8} found: {summary(found)}")
    for name, values in timings.items():
        print(f"{name:8} median {statistics.median(values):8.2f} ms over {ROUNDS} rounds")


def summary(found) -> str:
    if isinstance(found, set):
        return f"{len(found)} run ids ({min(found)}..{max(found)})"
    if isinstance(found, tuple) and len(found) == 3 and not hasattr(found, "message_count"):
        return f"reserved={found[0]!r}, scheduled={found[1]!r}, active={found[2]!r}"
    return f"message_count={found.message_count} (a count, no ids)"


if __name__ == "__main__":
    main()
