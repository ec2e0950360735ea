"""corefapp.http_handler.OneThreadASGIHandler against Django's stock ASGIHandler, in one
process on the bench's PostgreSQL and Redis, driven straight through ASGI (no sockets, no
Daphne: what differs between the two is the handler, so only the handler runs).

GET /api/me/ signed in (a session read from PostgreSQL, the user, the serializer: the
middleware chain and a synchronous DRF view, like every API call), CONCURRENCY requests in
flight at a time. Per round and handler: the process CPU per request and the requests per
second of wall time. A and B interleaved, several rounds.
"""

from __future__ import annotations

import asyncio
import time

from bench.environment import django_with_services
from bench.infra.rounds import interleaved

CONCURRENCY = 20
REQUESTS = 400


def scope_for(path: str, cookie: str) -> dict:
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "root_path": "",
        "query_string": b"",
        "headers": [(b"host", b"localhost"), (b"cookie", cookie.encode())],
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 8000),
    }


async def one(app, scope) -> int:
    sent: list[dict] = []
    body_read = False

    async def receive():
        nonlocal body_read
        if not body_read:
            body_read = True
            return {"type": "http.request", "body": b"", "more_body": False}
        await asyncio.Event().wait()  # the client stays connected (Django listens for a drop)

    async def send(message):
        sent.append(message)

    await app(scope, receive, send)
    return sent[0]["status"]


async def burst(app, scope) -> list[int]:
    gate = asyncio.Semaphore(CONCURRENCY)

    async def limited():
        async with gate:
            return await one(app, scope)

    return await asyncio.gather(*(limited() for _ in range(REQUESTS)))


def main() -> None:
    services = django_with_services()
    try:
        measure()
    finally:
        services.stop()


def measure() -> None:
    from django.conf import settings
    from django.contrib.auth.models import User
    from django.core.handlers.asgi import ASGIHandler
    from django.test import Client

    from corefapp.http_handler import OneThreadASGIHandler

    settings.ALLOWED_HOSTS = ["localhost"]
    client = Client()
    client.force_login(User.objects.create_user("bench-handler"))
    scope = scope_for("/api/me/", f"sessionid={client.cookies['sessionid'].value}")
    loop = asyncio.new_event_loop()
    handlers = {"one-thread": OneThreadASGIHandler(), "Django ASGIHandler": ASGIHandler()}
    for name, app in handlers.items():  # warm up; both must answer 200
        statuses = set(loop.run_until_complete(burst(app, scope)))
        assert statuses == {200}, (name, statuses)

    def cpu_ms(app):
        def run() -> float:
            started = time.process_time()
            loop.run_until_complete(burst(app, scope))
            return (time.process_time() - started) / REQUESTS * 1000

        return run

    def per_second(app):
        def run() -> float:
            started = time.perf_counter()
            loop.run_until_complete(burst(app, scope))
            return 1000 / (REQUESTS / (time.perf_counter() - started))  # ms of wall per request

        return run

    a, b = handlers["one-thread"], handlers["Django ASGIHandler"]
    interleaved(
        f"CPU ms per request, {CONCURRENCY} in flight",
        ("one-thread", cpu_ms(a)),
        ("Django ASGIHandler", cpu_ms(b)),
    )
    interleaved(
        f"wall ms per request (1000 / requests per s), {CONCURRENCY} in flight",
        ("one-thread", per_second(a)),
        ("Django ASGIHandler", per_second(b)),
    )


if __name__ == "__main__":
    main()
