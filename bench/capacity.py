"""Capacity: how many annotators one web process serves at a stated p95 (README "Capacity").

One web process (WEB_CONCURRENCY=1, as one Kubernetes web pod runs it) on the 1,000-mention
topic of `bench operations` (700 mentions in 300 clusters under a hierarchy 40 deep per
annotation), with 20, 40 and 60 annotators each sending an operation a second on average
(assigns and merges, randomly spaced: several times faster than people annotate, so the
figures err on the safe side). Prints the client-side p50/p95 per load, errors and lost
operations (the log read back, as in `bench operations`).

    python -m bench capacity
"""

from __future__ import annotations

import os
import random
import sys
from typing import Any

from bench.environment import django_with_services
from bench.operations import (
    Client,
    Row,
    _load_average,
    _lost,
    _print_table,
    _run,
    _seed_annotation,
    _start_web,
    _stop_web,
)
from bench.smoke import size

# A smoke run (BENCH_SMOKE=1, make test) only checks that the benchmark runs to its end: it
# is the full run's 3 x 25 s of paced operations for 120 annotators that cost minutes there.
ANNOTATORS = size((20, 40, 60), (2, 3))
# per annotator and load: 25 operations, about 25 s at 1 op/s
ASSIGNS, MERGES = size((20, 5), (3, 1))


def main() -> int:
    services = django_with_services()
    web = None
    try:
        from django.contrib.auth import get_user_model
        from rest_framework.authtoken.models import Token

        from annotation.models import Annotation, Project
        from annotation.services.assignments import assignment_create
        from bench.big_topic import create_big_topic
        from tests.ports import free_port

        topic = create_big_topic(Project.objects.create(name="bench capacity"))
        mention_ids = list(topic.mentions.order_by("position").values_list("id", flat=True))
        free = mention_ids[700:]
        rng = random.Random(1)
        annotations: list[tuple[str, int, list[int]]] = []
        users: Any = get_user_model().objects
        for i in range(max(ANNOTATORS)):
            user = users.create_user(f"capacity{i}", password="x")
            annotation = Annotation.objects.get(
                assignment=assignment_create(topic=topic, user=user)
            )
            leaves = _seed_annotation(annotation, mention_ids, rng)
            annotations.append((Token.objects.create(user=user).key, annotation.pk, leaves))
        print(f"seeded {len(annotations)} annotations; {_load_average()}", flush=True)
        versions = {pk: 1 for _, pk, _ in annotations}
        env = dict(
            os.environ,
            SECRET_KEY="bench-secret-key-not-for-production",
            DEBUG="false",
            ALLOWED_HOSTS="127.0.0.1,localhost",
            LOG_LEVEL="ERROR",
        )
        port = free_port()
        web = _start_web(port, env, 1)
        rows = []
        for k, count in enumerate(ANNOTATORS):
            chosen = annotations[:count]
            mentions = free[40 * k : 40 * k + 40]
            per_client = [leaf[36 * k : 36 * k + 36] for _, _, leaf in chosen]
            clients = [Client(port, token, pk, versions[pk]) for token, pk, _ in chosen]
            wall = _run(clients, mentions, per_client, ASSIGNS, MERGES, pace=1.0)
            for client in clients:
                versions[client.annotation] = client.version
            print(f"  {count} annotators at 1 op/s done, {_load_average()}", flush=True)
            rows.append(Row("1", f"{count} at 1 op/s", clients, wall, _lost(clients)))
        _print_table(rows)
        print(f"after: {_load_average()}")
        failed = sum(row.lost + sum(len(c.errors) for c in row.clients) for row in rows)
        return 1 if failed else 0
    finally:
        if web is not None:
            _stop_web(web)
        services.stop()


if __name__ == "__main__":
    sys.exit(main())
