"""While PostgreSQL is unavailable, every request answers a JSON 503 at once.

A request that finds the database unreachable (the pool lends no connection within its short
timeout, or the connection drops) answers 503 "database_unavailable", and for the next
`PAUSE_SECONDS` every other request answers the same without waiting for the pool: Daphne's
threads stay free, so /healthz (which checks the database on a connection of its own and is
never short-circuited) and the requests that need no database keep answering. After the pause
the next request tries again, so service returns by itself when PostgreSQL is back.

Only connection-level failures count: a deadlock or a serialization failure is also an
OperationalError, but the database is up and those stay ordinary errors.
"""

from __future__ import annotations

import sys
import threading
import time

import psycopg
from django.db import InterfaceError, OperationalError
from django.http import JsonResponse
from psycopg_pool import PoolTimeout

PAUSE_SECONDS = 1.0
# SQLSTATEs that mean the server is going or gone: admin_shutdown, crash_shutdown,
# cannot_connect_now; class 08 is "connection exception".
_GONE = {"57P01", "57P02", "57P03"}
# Paths that never wait on the breaker: the health page reports the outage itself.
EXEMPT_PATHS = ("/healthz",)

_lock = threading.Lock()
_down_until = 0.0


def is_unavailable_error(error: BaseException | None) -> bool:
    if not isinstance(error, (OperationalError, InterfaceError, psycopg.Error)):
        return False
    cause = error.__cause__ if isinstance(error.__cause__, psycopg.Error) else error
    if isinstance(cause, (PoolTimeout, psycopg.InterfaceError)):
        return True
    sqlstate = getattr(cause, "sqlstate", None)
    return sqlstate is None or sqlstate.startswith("08") or sqlstate in _GONE


def mark_unavailable(now: float | None = None) -> None:
    global _down_until
    with _lock:
        _down_until = (time.monotonic() if now is None else now) + PAUSE_SECONDS


def recently_unavailable(now: float | None = None) -> bool:
    return (time.monotonic() if now is None else now) < _down_until


def unavailable_response() -> JsonResponse:
    response = JsonResponse(
        {
            "error": "database_unavailable",
            "message": "The database is unavailable at the moment; try again in a few seconds.",
        },
        status=503,
    )
    response["Retry-After"] = "2"
    return response


def server_error(request):
    """The 500 handler (corefapp/urls.py): a 503 when the exception being handled is an
    outage (met by a middleware, such as the session's), else the API's own 500."""
    from foundation.api.errors import server_error as api_server_error

    if is_unavailable_error(sys.exc_info()[1]):
        mark_unavailable()
        return unavailable_response()
    return api_server_error(request)


class DatabaseUnavailableMiddleware:
    """First in MIDDLEWARE after static files: answers at once during a known outage, and
    turns an outage met by a view into the 503 (one met by a middleware reaches the 500
    handler, `server_error` below, which does the same)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if recently_unavailable() and not request.path.startswith(EXEMPT_PATHS):
            return unavailable_response()
        return self.get_response(request)

    def process_exception(self, request, exception):
        if is_unavailable_error(exception):
            mark_unavailable()
            return unavailable_response()
        return None
