"""/healthz on real Daphne workers that hold open websockets: the channel layer check must
not trip over the sockets' own receive on the process-wide layer."""

from __future__ import annotations

import asyncio
import json

import pytest
from django.test import Client

from tests.corefapp.runtime.test_web_concurrency import web  # noqa: F401 (the fixture)
from tests.corefapp.web_workers import close_all, connection_per_worker, socket_per_worker
from tests.factories import AdminFactory, UserFactory, assign, make_topic

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(180)]


def test_healthz_finds_the_channel_layer_working_while_websockets_are_open(web):  # noqa: F811
    pids = web.wait_for_workers()
    admin = AdminFactory()
    _, annotation = assign(make_topic(), UserFactory())
    client = Client()
    client.force_login(admin)
    cookie = f"sessionid={client.cookies['sessionid'].value}"
    path = f"/ws/annotations/{annotation.pk}/"

    async def scenario() -> dict[int, list[dict]]:
        sockets = await socket_per_worker(web, pids, path, cookie)
        try:
            connections = connection_per_worker(web, pids)
            answers: dict[int, list[dict]] = {}
            for pid, conn in connections.items():
                answers[pid] = []
                for _ in range(3):
                    conn.request("GET", "/healthz", headers={"Cookie": cookie})
                    answers[pid].append(json.loads(conn.getresponse().read()))
                conn.close()
            # The sockets are still open and still hear the layer.
            assert all(socket.state.name == "OPEN" for socket in sockets.values())
            return answers
        finally:
            await close_all(sockets.values())

    answers = asyncio.run(scenario())

    for pid, bodies in answers.items():
        for body in bodies:
            assert body["checks"]["channel_layer"] == {"ok": True, "detail": "round trip ok"}, (
                pid,
                body,
            )
