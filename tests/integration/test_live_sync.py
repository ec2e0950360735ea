"""Live updates on a real Daphne and a real Redis: a websocket left idle stays open and still
hears the next change.

What keeps an idle socket open is a ratio of timeouts, not the wall clock. Channels-redis
receives with a server-side blocking pop (5 s), and the layer's Redis client must wait longer
than that for the reply: with redis-py's 5 s read timeout the client gave up first and every
idle socket died after ~5.7 s (the bug this test was written for). Daphne pings each socket
every 20 s and drops one silent for 30 s. A minute of idle was twelve pop cycles and three
pings. Here the whole time scale is shrunk tenfold for this test's Daphne: the pop is 0.5 s
(tests/integration/short_pop_daphne.py), the settings derive the read timeout from the pop
(three times it, as in production), pings every 2 s, dropped after 3 s; 6.5 s of idle is the
same twelve pop cycles and three pings, the same failure mode in a tenth of the time.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time

import pytest
import websockets
from channels_redis.core import RedisChannelLayer
from django.conf import settings
from django.db import connection
from django.test import Client

from tests.e2e.data import apply_ops
from tests.e2e.server import start_daphne
from tests.factories import AdminFactory, UserFactory, assign, make_topic, mention_ids
from tests.workers import LOGS

# Production's timeouts (5 s pop, 20 s ping, 30 s ping timeout, 65 s idle), a tenth of each.
SCALE = 0.1
POP_SECONDS = 5 * SCALE
# Daphne takes whole seconds.
PING_SECONDS, PING_TIMEOUT_SECONDS = round(20 * SCALE), round(30 * SCALE)
IDLE_SECONDS = 65 * SCALE

pytestmark = [
    pytest.mark.integration,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(IDLE_SECONDS + 120),  # the idle, Daphne's start and the edit
]


@pytest.fixture
def daphne(services, monkeypatch):
    monkeypatch.setenv("CHANNEL_LAYER_POP_SECONDS", str(POP_SECONDS))
    server = start_daphne(
        database_url=services.postgres.url(connection.settings_dict["NAME"]),
        redis_url=services.redis_url,
        log_dir=LOGS,
        secret_key=settings.SECRET_KEY,
        launcher=[sys.executable, "-m", "tests.integration.short_pop_daphne"],
        options=[
            *("--ping-interval", str(PING_SECONDS)),
            *("--ping-timeout", str(PING_TIMEOUT_SECONDS)),
        ],
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


def test_the_layer_waits_longer_for_redis_than_the_blocking_pop_lasts():
    """The ratio the idle test relies on, in the settings the web server reads."""
    (host,) = settings.CHANNEL_LAYERS["default"]["CONFIG"]["hosts"]
    assert host["socket_timeout"] >= 2 * RedisChannelLayer.brpop_timeout


def test_sockets_idle_for_twelve_pop_cycles_and_three_pings_stay_open_and_hear_the_next_change(
    daphne,
):
    admin = AdminFactory()
    annotator = UserFactory()
    topic = make_topic()
    _, annotation = assign(topic, annotator)
    m = mention_ids(topic)
    admin_cookie, annotator_cookie = session_cookie(admin), session_cookie(annotator)

    async def scenario():
        project = await open_socket(daphne, f"/ws/projects/{topic.project_id}/", admin_cookie)
        own = await open_socket(daphne, f"/ws/annotations/{annotation.pk}/", annotator_cookie)
        try:
            started = time.monotonic()
            await asyncio.gather(
                stays_silent(project, IDLE_SECONDS), stays_silent(own, IDLE_SECONDS)
            )
            idle = time.monotonic() - started
            await asyncio.to_thread(
                edit_from_another_thread,
                annotation,
                annotator,
                [{"op": "assign", "mention": m[0], "cluster": None}],
            )
            progress = json.loads(await asyncio.wait_for(project.recv(), 10))
            applied = json.loads(await asyncio.wait_for(own.recv(), 10))
        finally:
            await project.close()
            await own.close()
        return idle, progress, applied

    try:
        idle, progress, applied = asyncio.run(scenario())
    except websockets.ConnectionClosed as closed:
        raise AssertionError(f"an idle socket was closed: {closed}\n{daphne.log_tail()}") from None

    assert idle >= 12 * POP_SECONDS
    assert idle >= 3 * PING_SECONDS
    assert progress["type"] == "progress"
    assert applied["type"] == "applied"
    assert applied["version"] == 1
