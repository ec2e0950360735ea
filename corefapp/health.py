"""Live checks of every component the application needs; each returns (ok, detail)."""

from __future__ import annotations

import uuid

import redis
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connection

from corefapp.celery import app as celery_app


def check_database() -> tuple[bool, str]:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT version()")
            (version,) = cursor.fetchone()
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


def check_channel_layer() -> tuple[bool, str]:
    """Send a message to a fresh channel and read it back through the layer (Redis)."""
    try:
        layer = get_channel_layer()
        channel = async_to_sync(layer.new_channel)("healthz.")
        token = uuid.uuid4().hex
        async_to_sync(layer.send)(channel, {"type": "health.ping", "token": token})
        message = async_to_sync(layer.receive)(channel)
        ok = message.get("token") == token
        return ok, "round trip ok" if ok else "message lost"
    except Exception as exc:  # noqa: BLE001 - a health page reports any failure, never raises
        return False, f"{type(exc).__name__}: {exc}"


def check_celery_workers(timeout: float = 2.0) -> tuple[bool, str]:
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


def health_report() -> tuple[bool, dict]:
    checks = {
        "database": check_database(),
        "redis": check_redis(),
        "channel_layer": check_channel_layer(),
        "celery": check_celery_workers(),
    }
    healthy = all(ok for ok, _ in checks.values())
    body = {
        "status": "ok" if healthy else "degraded",
        "checks": {name: {"ok": ok, "detail": detail} for name, (ok, detail) in checks.items()},
    }
    return healthy, body
