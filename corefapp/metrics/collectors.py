"""What is read at scrape time from the shared servers, so every web process answers the same:
operations (a counter: the log's id sequence), Celery queue depth (Redis), suggestion run and
training durations (their rows), and the age of the newest scheduled backup."""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator

import redis
from django.conf import settings
from django.db import connection
from prometheus_client.core import (
    CounterMetricFamily,
    GaugeMetricFamily,
    HistogramMetricFamily,
    Metric,
)
from prometheus_client.registry import Collector

from corefapp.backups.schedule import archives, backup_dir
from corefapp.runtime.defaults import var_dir
from modelserve.queues import model_queues

log = logging.getLogger(__name__)
QUEUES = ("default", *model_queues())
DURATION_BUCKETS = (1, 5, 15, 30, 60, 120, 300, 600, 1800, 3600, 4 * 3600)


def _histogram(name: str, doc: str, table: str) -> HistogramMetricFamily:
    """Durations (finished - started) of every finished row, bucketed in SQL."""
    edges = ", ".join(str(float(edge)) for edge in DURATION_BUCKETS)
    with connection.cursor() as cursor:
        cursor.execute(
            f"""
            SELECT width_bucket(d, ARRAY[{edges}]::float8[]), count(*), sum(d)
            FROM (SELECT extract(epoch FROM finished_at - started_at)::float8 AS d
                  FROM {table} WHERE finished_at IS NOT NULL AND started_at IS NOT NULL) t
            GROUP BY 1
            """
        )
        rows = cursor.fetchall()
    per_bucket = dict.fromkeys(range(len(DURATION_BUCKETS) + 1), 0)
    total = 0.0
    for bucket, count, seconds in rows:
        # width_bucket counts a value equal to an edge into the next bucket; Prometheus's
        # buckets are "<= edge". The difference is one edge value, never in practice.
        per_bucket[int(bucket)] += int(count)
        total += float(seconds or 0)
    cumulative, buckets = 0, []
    for index, edge in enumerate(DURATION_BUCKETS):
        cumulative += per_bucket[index]
        buckets.append((str(float(edge)), cumulative))
    cumulative += per_bucket[len(DURATION_BUCKETS)]
    buckets.append(("+Inf", cumulative))
    family = HistogramMetricFamily(name, doc)
    family.add_metric([], buckets, total)
    return family


def _operations_total() -> int:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM annotation_operation_id_seq"
        )
        return int(cursor.fetchone()[0])


def _queue_depths() -> dict[str, int]:
    client = redis.Redis.from_url(settings.REDIS_URL, socket_timeout=1, socket_connect_timeout=1)
    try:
        return {queue: int(client.llen(queue)) for queue in QUEUES}
    finally:
        client.close()


class ScrapeCollector(Collector):
    def collect(self) -> Iterator[Metric]:
        operations = CounterMetricFamily(
            "corefapp_operations",
            "Annotation operations saved (do, undo, redo) since the database was created; "
            "rate() gives operations per second",
        )
        operations.add_metric([], _operations_total())
        yield operations

        depth = GaugeMetricFamily(
            "corefapp_celery_queue_depth", "Tasks waiting in each Celery queue", labels=["queue"]
        )
        try:
            for queue, count in _queue_depths().items():
                depth.add_metric([queue], count)
        except (OSError, redis.RedisError) as exc:
            # Redis down: no sample (an absent series is what an alert should look for).
            log.warning("Celery queue depth not read: %s", exc)
        yield depth

        yield _histogram(
            "corefapp_suggestion_run_duration_seconds",
            "Seconds from start to finish of suggestion runs",
            "modelserve_suggestionrun",
        )
        yield _histogram(
            "corefapp_training_duration_seconds",
            "Seconds from start to finish of model trainings",
            "modelserve_modeltraining",
        )

        newest = archives(backup_dir(var_dir()))
        age = GaugeMetricFamily(
            "corefapp_backup_age_seconds",
            "Seconds since the newest scheduled backup was written (absent: none yet)",
        )
        if newest:
            age.add_metric([], time.time() - newest[-1].stat().st_mtime)
        yield age
