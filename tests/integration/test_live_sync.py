"""Live updates on a real Daphne and a real Redis: a websocket left idle for more than a minute
stays open and still hears the next change."""

from __future__ import annotations

import asyncio
import json
import time

import pytest
import websockets
from django.conf import settings
from django.db import connection
from django.test import Client

from tests.e2e.data import apply_ops
from tests.e2e.server import start_daphne
from tests.factories import AdminFactory, UserFactory, assign, make_topic, mention_ids
from tests.workers import LOGS

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

# channels-redis blocks 5 s per receive; redis-py 8 timed reads out after 5 s, so an idle socket
# died after ~5.7 s. A minute is twelve of those cycles and three of Daphne's pings.
IDLE_SECONDS = 65


@pytest.fixture
def daphne(services):
    server = start_daphne(
        database_url=services.postgres.url(connection.settings_dict["NAME"]),
        redis_url=services.redis_url,
        log_dir=LOGS,
        secret_key=settings.SECRET_KEY,
    )
    yield server
    server.stop()


def session_cookie(user) -> str:
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}"


async def open_socket(daphne, path: str, cookie: str):
    port = daphne.url.rsplit(":", 1)[1]
    return await websockets.connect(
        f"ws://127.0.0.1:{port}{path}",
        origin=f"http://localhost:{port}",
        additional_headers={"Cookie": cookie},
        ping_interval=None,  # like a browser: only the server pings
    )


def edit_from_another_thread(annotation, user, ops: list[dict]) -> None:
    try:
        apply_ops(annotation, user, ops)
    finally:
        connection.close()  # this thread's own connection, or the test database stays in use


async def stays_silent(socket, seconds: float) -> None:
    """Nothing arrives for `seconds` and the socket stays open (a close raises at once)."""
    try:
        message = await asyncio.wait_for(socket.recv(), seconds)
    except TimeoutError:
        return
    raise AssertionError(f"unexpected message while idle: {message}")


def test_sockets_idle_for_more_than_a_minute_stay_open_and_receive_the_next_change(daphne):
    admin = AdminFactory()
    annotator = UserFactory()
    topic = make_topic()
    _, annotation = assign(topic, annotator)
    m = mention_ids(topic)
    admin_cookie, annotator_cookie = session_cookie(admin), session_cookie(annotator)

    async def scenario():
        project = await open_socket(daphne, f"/ws/projects/{topic.project_id}/", admin_cookie)
        own = await open_socket(daphne, f"/ws/annotations/{annotation.pk}/", annotator_cookie)
        started = time.monotonic()
        await asyncio.gather(stays_silent(project, IDLE_SECONDS), stays_silent(own, IDLE_SECONDS))
        idle = time.monotonic() - started
        await asyncio.to_thread(
            edit_from_another_thread,
            annotation,
            annotator,
            [{"op": "assign", "mention": m[0], "cluster": None}],
        )
        progress = json.loads(await asyncio.wait_for(project.recv(), 10))
        applied = json.loads(await asyncio.wait_for(own.recv(), 10))
        await project.close()
        await own.close()
        return idle, progress, applied

    try:
        idle, progress, applied = asyncio.run(scenario())
    except websockets.ConnectionClosed as closed:
        raise AssertionError(f"an idle socket was closed: {closed}\n{daphne.log_tail()}") from None

    assert idle >= 60
    assert progress["type"] == "progress"
    assert applied["type"] == "applied"
    assert applied["version"] == 1
