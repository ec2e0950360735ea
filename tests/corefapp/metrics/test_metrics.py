"""/metrics: who may read it, and that each figure moves with what it counts (real
PostgreSQL, Redis and, for websockets, a real Daphne)."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
import urllib.request
from datetime import timedelta
from pathlib import Path

import pytest
import websockets
from django.conf import settings
from django.db import connection
from django.test import Client
from django.utils import timezone
from prometheus_client.parser import text_string_to_metric_families
from rest_framework.authtoken.models import Token

from modelserve.models import SuggestionRun
from modelserve.queues import backend_queue
from tests.e2e.data import apply_ops
from tests.e2e.server import start_daphne
from tests.factories import AdminFactory, UserFactory, assign, make_topic, mention_ids
from tests.workers import LOGS

REPO = Path(__file__).resolve().parents[3]
# The websocket test starts a Daphne (up to 60 s on a loaded machine) before its sockets.
pytestmark = pytest.mark.timeout(180)


def samples(text: str) -> dict[tuple[str, tuple], float]:
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


def scrape(client: Client, **headers) -> dict:
    response = client.get("/metrics", **headers)
    assert response.status_code == 200, response.content
    assert response["Content-Type"].startswith("text/plain")
    return samples(response.content.decode())


@pytest.mark.django_db
def test_only_admins_and_the_metrics_token_may_read(client, settings):
    settings.METRICS_TOKEN = "scrape-secret"
    assert client.get("/metrics").status_code == 403
    client.force_login(UserFactory())
    answer = client.get("/metrics")
    assert answer.status_code == 403
    assert b"corefapp_" not in answer.content
    assert Client().get("/metrics", HTTP_AUTHORIZATION="Bearer wrong").status_code == 403
    assert Client().get("/metrics", HTTP_AUTHORIZATION="Bearer scrape-secret").status_code == 200
    admin = AdminFactory()
    token = Token.objects.create(user=admin)
    assert Client().get("/metrics", HTTP_AUTHORIZATION=f"Token {token.key}").status_code == 200
    client.force_login(admin)
    assert client.get("/metrics").status_code == 200


@pytest.mark.django_db
def test_latency_per_route_operations_runs_and_queue_depth_move(client, services, tmp_path):
    admin = AdminFactory()
    client.force_login(admin)
    annotator = UserFactory()
    topic = make_topic()
    _, annotation = assign(topic, annotator)
    route = ("route", "api/annotations/<int:pk>/")
    before = scrape(client)
    key = (
        "corefapp_http_request_duration_seconds_count",
        (("method", "GET"), route, ("status", "200")),
    )
    assert client.get(f"/api/annotations/{annotation.pk}/").status_code == 200
    assert client.get(f"/api/annotations/{annotation.pk}/").status_code == 200
    m = mention_ids(topic)
    apply_ops(
        annotation,
        annotator,
        [
            {"op": "assign", "mention": m[0], "cluster": None},
            {"op": "assign", "mention": m[1], "cluster": None},
        ],
    )
    now = timezone.now()
    for seconds in (3, 40):
        SuggestionRun.objects.create(
            topic=topic,
            backend="minilm",
            status="done",
            started_at=now - timedelta(seconds=seconds),
            finished_at=now,
        )
    from corefapp.celery import app

    app.send_task("corefapp.ping", args=["metrics"], queue=backend_queue("minilm"))
    after = scrape(client)

    assert after[key] - before.get(key, 0) == 2
    assert after[("corefapp_operations_total", ())] - before[("corefapp_operations_total", ())] == 2
    runs = "corefapp_suggestion_run_duration_seconds"
    assert after[(f"{runs}_count", ())] - before[(f"{runs}_count", ())] == 2
    assert (
        after[(f"{runs}_bucket", (("le", "5.0"),))] - before[(f"{runs}_bucket", (("le", "5.0"),))]
        == 1
    )
    assert after[("corefapp_celery_queue_depth", (("queue", backend_queue("minilm")),))] >= 1
    assert ("corefapp_training_duration_seconds_count", ()) in after


@pytest.mark.django_db
def test_backup_age_is_the_newest_scheduled_archive(client, tmp_path, monkeypatch):
    monkeypatch.setenv("BACKUP_DIR", str(tmp_path))
    client.force_login(AdminFactory())
    assert not any(name == "corefapp_backup_age_seconds" for name, _ in scrape(client))
    archive = tmp_path / "corefapp-20260101T000000Z.tar.gz"
    archive.write_bytes(b"x")
    os.utime(archive, (archive.stat().st_atime, archive.stat().st_mtime - 3600))
    age = scrape(client)[("corefapp_backup_age_seconds", ())]
    assert 3590 < age < 3700


@pytest.mark.integration
@pytest.mark.django_db(transaction=True)
def test_open_websockets_are_counted_on_a_real_daphne(services):
    server = start_daphne(
        database_url=services.postgres.url(connection.settings_dict["NAME"]),
        redis_url=services.redis_url,
        log_dir=LOGS,
        secret_key=settings.SECRET_KEY,
    )
    try:
        admin = AdminFactory()
        token = Token.objects.create(user=admin).key
        client = Client()
        client.force_login(admin)
        cookie = f"sessionid={client.cookies['sessionid'].value}"
        port = server.url.rsplit(":", 1)[1]

        def open_sockets() -> float:
            request = urllib.request.Request(
                f"{server.url}/metrics", headers={"Authorization": f"Token {token}"}
            )
            with urllib.request.urlopen(request, timeout=10) as response:
                return samples(response.read().decode())[("corefapp_open_websockets", ())]

        async def scenario():
            sockets = [
                await websockets.connect(
                    f"ws://127.0.0.1:{port}/ws/ping/",
                    origin=f"http://localhost:{port}",
                    additional_headers={"Cookie": cookie},
                )
                for _ in range(2)
            ]
            opened = await asyncio.to_thread(open_sockets)
            for socket in sockets:
                await socket.close()
            # The server ends a consumer after its disconnect handler (group discard in Redis)
            # and once its pending receive on the channel layer is cancelled: that blocking pop
            # can outlast the cancel, up to the layer's read timeout (CHANNEL_LAYER_SOCKET_TIMEOUT).
            started = time.monotonic()
            while time.monotonic() - started < settings.CHANNEL_LAYER_SOCKET_TIMEOUT + 10:
                closed = await asyncio.to_thread(open_sockets)
                if closed == 0:
                    break
                await asyncio.sleep(0.2)
            return opened, closed

        assert asyncio.run(scenario()) == (2, 0)
    finally:
        server.stop()


def test_log_format_json_writes_one_object_per_line(tmp_path):
    env = dict(os.environ, LOG_FORMAT="json", DJANGO_SETTINGS_MODULE="corefapp.settings")
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            (
                "import django, logging; django.setup(); "
                "logging.getLogger('corefapp.test').warning('disk %s full', 'var')"
            ),
        ],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    line = json.loads(result.stderr.strip().splitlines()[-1])
    assert line["message"] == "disk var full"
    assert line["level"] == "WARNING"
    assert line["logger"] == "corefapp.test"
