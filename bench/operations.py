"""Operation throughput: assign and merge on a 1,000-mention topic with a deep hierarchy.

Through HTTP against the web server as make up runs it (corefapp.runtime.web), as the browser
sends them: 1, 20 and 30 clients sending back to back (each an annotator in their own
annotation of the same big topic), with WEB_CONCURRENCY=1, 2 and the default, then 20
clients at an annotator's pace. Reports operations per second, the latency the client sees
and the server's own time (Server-Timing), errors, and lost operations: after the runs the
log is read back, and every acknowledged operation must be in it under its version, the
versions must run 1..n with no gap, and the stored state must equal the replay of the log.
The issue's goal (docs/throughput.md): 150 operations/s or more with 30 clients, server p95
under 150 ms, no error, nothing lost.
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
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path

from bench.environment import django_with_services, percentile
from bench.smoke import SMOKE, size

REPO = Path(__file__).resolve().parents[1]
CLIENT_COUNTS = size((1, 20, 30), (1, 2))
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


def _start_web(port: int, env: dict, concurrency: int) -> subprocess.Popen:
    """The web server as make up runs it: WEB_CONCURRENCY Daphne workers on one port."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "corefapp.runtime.web", "-b", "127.0.0.1", "-p", str(port)],
        cwd=REPO,
        env=dict(env, WEB_CONCURRENCY=str(concurrency)),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    answered = 0
    while time.monotonic() < deadline and answered < 4 * concurrency:
        try:  # fresh connections until every worker has surely started
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            conn.request("GET", "/api/me/")
            conn.getresponse().read()
            answered += 1
        except OSError:
            time.sleep(0.2)
    if answered < 4 * concurrency:
        proc.kill()
        raise RuntimeError("the web server did not start")
    time.sleep(1.0)  # the other workers finish importing Django
    return proc


def _stop_web(proc: subprocess.Popen) -> None:
    proc.terminate()
    proc.wait(30)


class Client:
    def __init__(self, port: int, token: str, annotation: int, version: int):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.headers = {"Authorization": f"Token {token}", "Content-Type": "application/json"}
        self.annotation = annotation
        self.version = version
        self.samples: list[tuple[float, float]] = []  # (client ms, server ms)
        self.acknowledged: list[tuple[int, int]] = []  # (operation id, version)
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
        try:
            self.conn.request(
                "POST", f"/api/annotations/{self.annotation}/operations/", body, self.headers
            )
            response = self.conn.getresponse()
            payload = response.read()
        except OSError as error:
            self.errors.append(repr(error))
            self.conn.close()
            return
        elapsed = (time.perf_counter() - started) * 1000
        server = float(response.getheader("Server-Timing", "app;dur=nan").split("dur=")[1])
        if response.status != 200:
            self.errors.append(f"{response.status} {payload[:200]!r}")
            return
        applied = json.loads(payload)
        self.version = applied["version"]
        self.acknowledged.append((applied["operation_id"], applied["version"]))
        self.samples.append((elapsed, server))


def _workload(
    client: Client,
    free_mentions: list[int],
    leaves: list[int],
    assigns: int,
    merges: int,
    rng: random.Random,
    pace: float = 0.0,
) -> None:
    pairs = [(leaves[2 * i], leaves[2 * i + 1]) for i in range(merges)]
    merged = {source for source, _ in pairs}
    targets = [c for c in leaves if c not in merged]
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


def _run(clients: list[Client], free, leaves, assigns, merges, pace: float = 0.0) -> float:
    """Every client reads its annotation first; then all send at once. Returns the seconds
    from the first operation to the last answer."""
    for client in clients:
        client.open()
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


@dataclass
class Row:
    concurrency: str
    load: str
    clients: list[Client]
    wall: float
    lost: int = 0


def _lost(clients: list[Client]) -> int:
    """Acknowledged operations missing from the log (read back from PostgreSQL), plus gaps in
    the log's versions and annotations whose state is not the replay of their log."""
    from annotation.domain.history import replay
    from annotation.models import Annotation, Operation
    from annotation.selectors.state import annotation_initial_state, annotation_state_load

    lost = 0
    for client in clients:
        annotation = Annotation.objects.get(pk=client.annotation)
        log = list(Operation.objects.filter(annotation=annotation).order_by("version"))
        logged = {(entry.pk, entry.version) for entry in log}
        lost += sum(1 for ack in client.acknowledged if ack not in logged)
        versions = [entry.version for entry in log]
        if versions != list(range(1, annotation.version + 1)) or (
            replay(annotation_initial_state(annotation), log).snapshot()
            != annotation_state_load(annotation).snapshot()
        ):
            lost += 1
    return lost


def _print_table(rows: list[Row]) -> None:
    print(
        f"\n{'WEB_CONCURRENCY':<17}{'clients':<30}{'ops':>6}{'ops/s':>7}"
        f"{'client p50':>11}{'p95':>7}{'server p50':>11}{'p95':>7}{'errors':>8}{'lost':>6}"
    )
    for row in rows:
        samples = [s for c in row.clients for s in c.samples]
        client_ms = [s[0] for s in samples]
        server_ms = [s[1] for s in samples]
        errors = sum(len(c.errors) for c in row.clients)
        print(
            f"{row.concurrency:<17}{row.load:<30}{len(samples):>6}{len(samples) / row.wall:>7.0f}"
            f"{percentile(client_ms, 50):>11.1f}{percentile(client_ms, 95):>7.1f}"
            f"{percentile(server_ms, 50):>11.1f}{percentile(server_ms, 95):>7.1f}"
            f"{errors:>8}{row.lost:>6}"
        )
    print("(latencies in ms; server = Server-Timing, the time inside Django)")
    for row in rows:
        for client in row.clients:
            for error in client.errors[:3]:
                print("  ", row.load, error)


def _load_average() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} cores"


def main() -> int:
    services = django_with_services()
    web = None
    try:
        from django.contrib.auth import get_user_model
        from rest_framework.authtoken.models import Token

        from annotation.models import Project
        from annotation.services.assignments import assignment_create
        from bench.big_topic import create_big_topic
        from corefapp.runtime.web import default_concurrency
        from tests.ports import free_port

        project = Project.objects.create(name="bench operations")
        topic = create_big_topic(project)
        mention_ids = list(topic.mentions.order_by("position").values_list("id", flat=True))
        free = mention_ids[700:]
        rng = random.Random(1)
        # 31 annotators, each with an annotation seeded once; every run below takes its own
        # slice of their free mentions and leaf clusters, so runs never touch what an earlier
        # one changed (seeding is what takes the time, not the runs).
        annotations: list[tuple[str, int, list[int]]] = []
        for i in range(1 + max(CLIENT_COUNTS)):
            user = get_user_model().objects.create_user(f"bench{i}", password="x")
            annotation = assignment_create(topic=topic, user=user).annotation
            leaves = _seed_annotation(annotation, mention_ids, rng)
            annotations.append((Token.objects.create(user=user).key, annotation.pk, leaves))
        versions = {pk: 1 for _, pk, _ in annotations}
        singles = iter(range(3))  # runs of one client: 100 mentions and 60 leaves each
        slices = iter(range(7))  # runs of several clients: 40 mentions and 36 leaves each

        def run(label, port, count, assigns, merges, pace=0.0) -> Row:
            if count == 1:  # the first annotation
                part = next(singles)
                chosen, mentions = annotations[:1], free[100 * part : 100 * part + 100]
                leaves = [annotations[0][2][60 * part : 60 * part + 60]]
            else:
                k = next(slices)
                chosen, mentions = annotations[1 : count + 1], free[40 * k : 40 * k + 40]
                leaves = [l[36 * k : 36 * k + 36] for _, _, l in chosen]
            clients = [Client(port, token, pk, versions[pk]) for token, pk, _ in chosen]
            wall = _run(clients, mentions, leaves, assigns, merges, pace)
            for client in clients:
                versions[client.annotation] = client.version
            what = f"at 1 op/s ({assigns}+{merges} each)" if pace else "back to back"
            load = f"{count} {what}" if pace else f"{count} {what} ({assigns}+{merges} each)"
            print(f"  {label}: {load} done, {_load_average()}", flush=True)
            return Row(label, load, clients, wall, _lost(clients))

        env = dict(
            os.environ,
            SECRET_KEY="bench-secret-key-not-for-production",
            DEBUG="false",
            ALLOWED_HOSTS="127.0.0.1,localhost",
            LOG_LEVEL="ERROR",
        )
        default = default_concurrency()
        print(f"before: {_load_average()}; default WEB_CONCURRENCY here: {default}", flush=True)
        rows: list[Row] = []
        # One process, two (the smallest case of several), and the default.
        for concurrency in size(sorted({1, 2, default}), [1]):
            port = free_port()
            web = _start_web(port, env, concurrency)
            label = f"{concurrency}" + (" (default)" if concurrency == default else "")
            for count in CLIENT_COUNTS:
                rows.append(run(label, port, count, *((100, 25) if count == 1 else (40, 10))))
            if concurrency == default and not SMOKE:
                # 20 annotators deciding once a second on average (several times faster than
                # people annotate): the latency an annotator feels on a busy server.
                rows.append(run(label, port, 20, 20, 5, pace=1.0))
            _stop_web(web)
            web = None

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
