"""Anonymous sign-ins get threads of their own, so a flood of them cannot hold the threads
that serve signed-in users.

A sign-in hashes a password (PBKDF2, slow on purpose). Served from the web process's one
pool of Django threads (corefapp/http_handler.py), 150 sign-ins at once took every thread,
and a signed-in user's request waited 50.8 s behind them. Here the sign-in requests (POSTs
to the paths below) run on SIGN_IN_HASHING_THREADS threads (1) of their own: they wait their
turn on the event loop, where waiting costs nothing, at most SIGN_IN_QUEUE (32) of them; past
that the answer is at once a JSON 503 "try again in a few seconds". A flood then uses one
core, whatever its size, and never a thread of the main pool. The limits on failures are
accounts/api/sign_in_limits.py.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from django.conf import settings
from django.http import HttpResponse

SIGN_IN_PATHS = frozenset({"/api/auth/token/", "/api/auth/login/", "/admin/login/"})
RETRY_AFTER_SECONDS = 5


def is_sign_in(scope: dict) -> bool:
    return scope.get("method") == "POST" and scope.get("path") in SIGN_IN_PATHS


class SignInPool:
    def __init__(self) -> None:
        self._executor = ThreadPoolExecutor(
            settings.SIGN_IN_HASHING_THREADS, thread_name_prefix="sign-in"
        )
        self._queued = 0  # only touched on the event loop

    async def run(self, call: Callable[..., Any], *args: Any) -> Any:
        """`call(*args)` on a sign-in thread, or a 503 answer when too many wait already."""
        if self._queued >= settings.SIGN_IN_QUEUE:
            return busy()
        self._queued += 1
        try:
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(self._executor, call, *args)
        finally:
            self._queued -= 1


def busy() -> HttpResponse:
    body = {
        "error": "sign_in_busy",
        "message": "Too many sign-ins at once; try again in a few seconds.",
    }
    response = HttpResponse(json.dumps(body), status=503, content_type="application/json")
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response
