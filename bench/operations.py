"""Server time of assign and merge on a 1,000-mention topic with a deep hierarchy.

Through HTTP against Daphne, as the browser sends them: one client, then 20 clients at once
(20 annotators on the same big topic, each in their own annotation). Reports the latency the
client sees and the server's own time (Server-Timing), checks that no request failed and that
every annotation's stored state equals the replay of its log (no lost operation).
"""

from __future__ import annotations

import http.client
import json
import os
import random
import subprocess
import sys
import threading
import time
from itertools import pairwise
from pathlib import Path

from bench.environment import django_with_services, percentile

REPO = Path(__file__).resolve().parents[1]
CLIENTS = 20
DEPTH = 40  # the longest parent -> child chain


def _seed_annotation(annotation, mention_ids: list[int], rng: random.Random) -> list[int]:
    """700 mentions in 300 clusters under a hierarchy 40 deep, logged like an import so the
    log replays to the state. Returns the leaf clusters (pairwise unrelated: safe merges)."""
    from annotation.infra.effects_sql import effects_write
    from annotation.models import Annotation, Operation
    from annotation.services.operations import _new_id

    clusters = [_new_id("cluster") for _ in range(300)]
    effects = [
        {"e": "cluster_created", "cluster": c, "label": f"concept {i}", "note": ""}
        for i, c in enumerate(clusters)
    ]
    for i, mention in enumerate(mention_ids[:700]):
        effects.append(
            {"e": "member_set", "mention": mention, "old": None, "new": clusters[i % 300]}
        )
    # A chain 40 deep, then every other cluster hangs under a random chain node.
    for parent, child in pairwise(clusters[:DEPTH]):
        effects.append({"e": "edge_added", "parent": parent, "child": child})
    inner = clusters[:DEPTH]
    for child in clusters[DEPTH:200]:
        effects.append({"e": "edge_added", "parent": rng.choice(inner), "child": child})
    effects_write(annotation_id=annotation.pk, topic_id=annotation.topic_id, effects=effects)
    Operation.objects.create(
        annotation=annotation,
        version=1,
        kind="do",
        name="import",
        payload={"op": "import"},
        effects=effects,
    )
    Annotation.objects.filter(pk=annotation.pk).update(version=1)
    return clusters[DEPTH:300]


def _start_daphne(port: int, env: dict) -> subprocess.Popen:
    proc = subprocess.Popen(
        [
            str(Path(sys.executable).parent / "daphne"),
            "-b",
            "127.0.0.1",
            "-p",
            str(port),
            "corefapp.asgi:application",
        ],
        cwd=REPO,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=1)
            conn.request("GET", "/api/me/")
            conn.getresponse().read()
            return proc
        except OSError:
            time.sleep(0.2)
    proc.kill()
    raise RuntimeError("daphne did not start")


class Client:
    def __init__(self, port: int, token: str, annotation: int, version: int):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.headers = {"Authorization": f"Token {token}", "Content-Type": "application/json"}
        self.annotation = annotation
        self.version = version
        self.samples: dict[str, list[tuple[float, float]]] = {"assign": [], "merge": []}
        self.errors: list[str] = []

    def open(self) -> None:
        """What the browser does first: read the annotation (which also warms the server's
        cache)."""
        self.conn.request("GET", f"/api/annotations/{self.annotation}/", headers=self.headers)
        response = self.conn.getresponse()
        response.read()
        assert response.status == 200, response.status

    def send(self, operation: dict) -> None:
        body = json.dumps({"expected_version": self.version, "operation": operation})
        started = time.perf_counter()
        self.conn.request(
            "POST", f"/api/annotations/{self.annotation}/operations/", body, self.headers
        )
        response = self.conn.getresponse()
        payload = response.read()
        elapsed = (time.perf_counter() - started) * 1000
        server = float(response.getheader("Server-Timing", "app;dur=nan").split("dur=")[1])
        if response.status != 200:
            self.errors.append(f"{response.status} {payload[:200]!r}")
            return
        self.version = json.loads(payload)["version"]
        self.samples[operation["op"]].append((elapsed, server))


def _workload(
    client: Client,
    free_mentions: list[int],
    leaves: list[int],
    assigns: int,
    merges: int,
    rng: random.Random,
    pace: float = 0.0,
) -> None:
    client.open()
    targets = list(leaves)
    pairs = [(leaves[2 * i], leaves[2 * i + 1]) for i in range(merges)]
    merged = {source for source, _ in pairs}
    targets = [c for c in targets if c not in merged]
    plan = [("assign", i) for i in range(assigns)] + [("merge", i) for i in range(merges)]
    rng.shuffle(plan)
    for kind, i in plan:
        if pace:
            time.sleep(rng.uniform(0.5, 1.5) * pace)  # an annotator's time to decide
        if kind == "assign":
            client.send(
                {"op": "assign", "mention": free_mentions[i], "cluster": rng.choice(targets)}
            )
        else:
            source, target = pairs[i]
            client.send({"op": "merge", "source": source, "target": target})


def _run(port, clients: list[Client], free, leaves, assigns, merges, pace: float = 0.0) -> float:
    threads = [
        threading.Thread(
            target=_workload, args=(c, free, leaves[i], assigns, merges, random.Random(i), pace)
        )
        for i, c in enumerate(clients)
    ]
    started = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return time.perf_counter() - started


def _table(title: str, clients: list[Client], wall: float) -> None:
    print(f"\n{title}")
    print(
        f"{'operation':<10}{'count':>7}{'client p50':>12}{'client p95':>12}"
        f"{'server p50':>12}{'server p95':>12}  (ms)"
    )
    total = 0
    for op in ("assign", "merge"):
        samples = [s for c in clients for s in c.samples[op]]
        total += len(samples)
        client_ms = [s[0] for s in samples]
        server_ms = [s[1] for s in samples]
        print(
            f"{op:<10}{len(samples):>7}"
            f"{percentile(client_ms, 50):>12.1f}{percentile(client_ms, 95):>12.1f}"
            f"{percentile(server_ms, 50):>12.1f}{percentile(server_ms, 95):>12.1f}"
        )
    errors = sum(len(c.errors) for c in clients)
    print(f"errors: {errors}; throughput {total / wall:.0f} operations/s over {wall:.1f} s")
    for c in clients:
        for error in c.errors[:3]:
            print("  ", error)


def _verify(annotation_ids: list[int]) -> int:
    from annotation.domain.history import replay
    from annotation.models import Annotation, Operation
    from annotation.selectors.state import annotation_initial_state, annotation_state_load

    lost = 0
    for annotation in Annotation.objects.filter(pk__in=annotation_ids):
        log = list(Operation.objects.filter(annotation=annotation).order_by("version"))
        if (
            len(log) != annotation.version
            or replay(annotation_initial_state(annotation), log).snapshot()
            != annotation_state_load(annotation).snapshot()
        ):
            lost += 1
    return lost


def main() -> int:
    services = django_with_services()
    daphne = None
    try:
        from django.contrib.auth import get_user_model
        from rest_framework.authtoken.models import Token

        from annotation.models import Project
        from annotation.services.assignments import assignment_create
        from bench.big_topic import create_big_topic
        from corefapp.runtime.preflight import free_port

        project = Project.objects.create(name="bench operations")
        topic = create_big_topic(project)
        mention_ids = list(topic.mentions.order_by("position").values_list("id", flat=True))
        rng = random.Random(1)
        setups = []
        for i in range(CLIENTS + 1):
            user = get_user_model().objects.create_user(f"bench{i}", password="x")
            annotation = assignment_create(topic=topic, user=user).annotation
            leaves = _seed_annotation(annotation, mention_ids, rng)
            setups.append((Token.objects.create(user=user).key, annotation.pk, leaves))
        port = free_port()
        env = dict(
            os.environ,
            SECRET_KEY="bench-secret-key-not-for-production",
            DEBUG="false",
            ALLOWED_HOSTS="127.0.0.1,localhost",
            LOG_LEVEL="ERROR",
        )
        daphne = _start_daphne(port, env)
        free = mention_ids[700:]

        token, annotation, leaves = setups[0]
        single = [Client(port, token, annotation, 1)]
        wall = _run(port, single, free, [leaves], assigns=200, merges=50)
        _table(
            "1 client, 1,000-mention topic, hierarchy 40 deep (200 assign + 50 merge)", single, wall
        )

        # 20 annotators at once, each deciding once a second on average (several times faster
        # than people annotate), then the same 20 sending back to back with no pause at all
        # (a saturation test: latency is then mostly waiting for the two cores).
        paced = [Client(port, t, a, 1) for t, a, _ in setups[1:]]
        wall = _run(
            port,
            paced,
            free[:100],
            [l[:40] for _, _, l in setups[1:]],
            assigns=20,
            merges=5,
            pace=1.0,
        )
        _table(
            f"{CLIENTS} concurrent clients, one operation a second each (20 assign + 5 merge each)",
            paced,
            wall,
        )
        many = [Client(port, t, a, c.version) for (t, a, _), c in zip(setups[1:], paced)]
        wall = _run(
            port, many, free[100:], [l[40:] for _, _, l in setups[1:]], assigns=40, merges=10
        )
        _table(
            f"{CLIENTS} concurrent clients back to back, no pause (40 assign + 10 merge each)",
            many,
            wall,
        )
        clients_all = single + paced + many

        lost = _verify([a for _, a, _ in setups])
        print(f"\nannotations whose stored state differs from the replay of their log: {lost}")
        errors = sum(len(c.errors) for c in clients_all)
        return 1 if (lost or errors) else 0
    finally:
        if daphne is not None:
            daphne.terminate()
            daphne.wait(10)
        services.stop()


if __name__ == "__main__":
    sys.exit(main())
