"""Scale-out: two web instances on two ports against one PostgreSQL and one Redis, with two
model workers (real Daphne and Celery processes)."""

from __future__ import annotations

import asyncio
import json
import signal
import time
import urllib.error
import urllib.request

import pytest
import websockets
from django.conf import settings
from django.db import connection
from django.test import Client
from rest_framework.authtoken.models import Token

from modelserve.models import SuggestionRun
from tests.e2e.server import start_daphne
from tests.factories import UserFactory, assign, mention_ids
from tests.modelserve.services.test_runs_with_worker import demo_topic
from tests.workers import LOGS, Worker

# Two Daphnes, two model workers loading the model, one run: 80 s at load average 14.
pytestmark = [
    pytest.mark.integration,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(540),
]


def call(base: str, method: str, path: str, token: str, body=None) -> tuple[int, dict]:
    request = urllib.request.Request(
        f"{base}{path}",
        method=method,
        data=None if body is None else json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "Authorization": f"Token {token}"},
    )
    try:
        with urllib.request.urlopen(request, timeout=20) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


async def next_applied(socket) -> dict:
    while True:
        message = json.loads(await asyncio.wait_for(socket.recv(), 15))
        if message.get("type") == "applied":
            return message


def open_socket(base: str, path: str, cookie: str):
    port = base.rsplit(":", 1)[1]
    return websockets.connect(
        f"ws://127.0.0.1:{port}{path}",
        origin=f"http://localhost:{port}",
        additional_headers={"Cookie": cookie},
    )


@pytest.fixture
def cluster(services):
    database_url = services.postgres.url(connection.settings_dict["NAME"])
    webs = [
        start_daphne(
            database_url=database_url,
            redis_url=services.redis_url,
            log_dir=LOGS,
            secret_key=settings.SECRET_KEY,
        )
        for _ in range(2)
    ]
    workers = [
        Worker(
            database_url=database_url,
            redis_url=services.redis_url,
            secret_key=settings.SECRET_KEY,
            name=f"models-{side}",
        )
        for side in ("a", "b")
    ]
    try:
        for worker in workers:
            worker.wait_ready(timeout=180)
        yield webs, workers
    finally:
        for web in webs:
            web.stop()
        for worker in workers:
            worker.stop()


def test_two_instances_share_edits_runs_and_survive_one_another(cluster):
    (a, b), workers = cluster
    assert a.url != b.url
    topic = demo_topic(name="two instances")
    annotator = UserFactory()
    _, annotation = assign(topic, annotator)
    token = Token.objects.create(user=annotator).key
    client = Client()
    client.force_login(annotator)
    cookie = f"sessionid={client.cookies['sessionid'].value}"
    m = mention_ids(topic)
    path = f"/api/annotations/{annotation.pk}/operations/"

    # 1. A websocket on A hears an edit saved through B.
    async def edit_on_b_heard_on_a():
        async with open_socket(a.url, f"/ws/annotations/{annotation.pk}/", cookie) as socket:
            # No wait here: the consumer joins its groups before it accepts, so a socket whose
            # handshake is done is in its group already.
            status, body = await asyncio.to_thread(
                call,
                b.url,
                "POST",
                path,
                token,
                {
                    "operation": {"op": "assign", "mention": m[0], "cluster": None},
                    "expected_version": 0,
                    "client_id": "instance-b",
                },
            )
            assert status == 200, body
            return await next_applied(socket)

    heard = asyncio.run(edit_on_b_heard_on_a())
    assert heard["version"] == 1
    assert heard["client_id"] == "instance-b"

    # 2. A run requested on A is taken by one of the two workers and finishes.
    status, body = call(a.url, "POST", f"/api/topics/{topic.pk}/suggestion-runs/", token, {})
    assert status == 201, body
    run = SuggestionRun.objects.get(topic=topic)
    deadline = time.monotonic() + 300
    while run.status not in ("succeeded", "failed") and time.monotonic() < deadline:
        time.sleep(0.5)
        run.refresh_from_db()
    assert run.status == "succeeded", (run.status, run.message, run.error)
    assert any(worker.name in run.worker for worker in workers), run.worker

    # 3. A killed outright: B's users go on (reads, edits, their live updates).
    a.process.send_signal(signal.SIGKILL)
    a.process.wait(10)

    async def b_goes_on():
        async with open_socket(b.url, f"/ws/annotations/{annotation.pk}/", cookie) as socket:
            status, body = await asyncio.to_thread(
                call,
                b.url,
                "POST",
                path,
                token,
                {
                    "operation": {"op": "assign", "mention": m[1], "cluster": None},
                    "expected_version": 1,
                    "client_id": "instance-b-after",
                },
            )
            assert status == 200, body
            return await next_applied(socket)

    assert asyncio.run(b_goes_on())["version"] == 2
    status, body = call(b.url, "GET", f"/api/annotations/{annotation.pk}/", token)
    assert status == 200
    assert body["version"] == 2
    with pytest.raises(urllib.error.URLError):
        call(a.url, "GET", f"/api/annotations/{annotation.pk}/", token)
