"""Live checks of every component the application needs; each returns (ok, detail).

The Redis-backed checks run side by side on threads while the database is checked on a
connection of its own, and the report waits for them at most DEADLINE_SECONDS: a hung
Redis makes its checks read "no answer within ..." instead of stalling the health page, which
load balancers and `make up` poll.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, wait

import psycopg
import redis
from asgiref.sync import async_to_sync
from channels import DEFAULT_CHANNEL_LAYER
from channels.layers import channel_layers
from django.conf import settings
from django.db import connection

from corefapp.celery import app as celery_app

DEADLINE_SECONDS = 1.5

# Shared by all requests; a check stuck in a dead socket holds its thread until the client's
# own timeout frees it, so a burst of health requests cannot pile up threads without bound.
_checks_pool = ThreadPoolExecutor(max_workers=8, thread_name_prefix="healthz")


def check_database() -> tuple[bool, str]:
    """A connection of its own, with a short connect timeout: a pooled connection would wait
    the pool's whole timeout (20 s) for PostgreSQL to come back before answering."""
    params = {
        key: value
        for key, value in connection.get_connection_params().items()
        if key not in ("cursor_factory", "context")
    }
    try:
        with psycopg.connect(**params, connect_timeout=2) as conn:
            row = conn.execute("SELECT version()").fetchone()
        version = str(row[0]) if row else "unknown"
        return True, version.split(",")[0]
    except Exception as exc:  # noqa: BLE001 - a health page reports any failure, never raises
        return False, f"{type(exc).__name__}: {exc}"


def check_redis() -> tuple[bool, str]:
    try:
        client = redis.Redis.from_url(
            settings.REDIS_URL, socket_connect_timeout=1, socket_timeout=1
        )
        info = client.info("server")
        return True, f"Redis {info.get('redis_version')}"
    except Exception as exc:  # noqa: BLE001 - a health page reports any failure, never raises
        return False, f"{type(exc).__name__}: {exc}"


async def _channel_round_trip() -> bool:
    """On a layer instance of the probe's own, built from the same settings: the process-wide
    one is receiving for the open websockets on the server's event loop, and channels-redis
    refuses a receive from a second loop ("Two event loops are trying to receive()"), which
    made every probe fail while any socket was open."""
    layer = channel_layers.make_backend(DEFAULT_CHANNEL_LAYER)
    try:
        channel = await layer.new_channel("healthz.")
        token = uuid.uuid4().hex
        await layer.send(channel, {"type": "health.ping", "token": token})
        message = await layer.receive(channel)
        return message.get("token") == token
    finally:
        await layer.close_pools()


def check_channel_layer() -> tuple[bool, str]:
    """Send a message to a fresh channel and read it back through the layer (Redis)."""
    try:
        ok = async_to_sync(asyncio.wait_for)(_channel_round_trip(), DEADLINE_SECONDS)
        return ok, "round trip ok" if ok else "message lost"
    except Exception as exc:  # noqa: BLE001 - a health page reports any failure, never raises
        return False, f"{type(exc).__name__}: {exc}"


def check_celery_workers(timeout: float = 1.0) -> tuple[bool, str]:
    """A real broadcast ping: at least one worker must answer."""
    try:
        # limit=1 returns at the first answer instead of waiting out the timeout.
        replies = celery_app.control.ping(timeout=timeout, limit=1) or []
        names = sorted(name for reply in replies for name in reply)
        if names:
            return True, ", ".join(names)
        return False, "no live Celery worker answered a ping"
    except Exception as exc:  # noqa: BLE001 - a health page reports any failure, never raises
        return False, f"{type(exc).__name__}: {exc}"


REDIS_CHECKS: dict[str, Callable[[], tuple[bool, str]]] = {
    "redis": check_redis,
    "channel_layer": check_channel_layer,
    "celery": check_celery_workers,
}


def health_report() -> tuple[bool, dict]:
    started = time.monotonic()
    futures = {name: _checks_pool.submit(check) for name, check in REDIS_CHECKS.items()}
    checks = {"database": check_database()}
    wait(futures.values(), timeout=max(0.0, DEADLINE_SECONDS - (time.monotonic() - started)))
    for name, future in futures.items():
        checks[name] = (
            future.result()
            if future.done()
            else (False, f"no answer within {DEADLINE_SECONDS:.1f} s")
        )
    healthy = all(ok for ok, _ in checks.values())
    body = {
        "status": "ok" if healthy else "degraded",
        "checks": {name: {"ok": ok, "detail": detail} for name, (ok, detail) in checks.items()},
    }
    return healthy, body
