"""Sign-in throttling: failed attempts, counted per account and per client address.

Only failures count, so a lab signing in from behind one address is never locked out by its
own successful sign-ins, while guessing one account's password from many addresses, or many
accounts' from one address, stops at LOGIN_THROTTLE_RATE. The client address is the socket's
peer unless TRUSTED_PROXIES says how many proxies append to X-Forwarded-For: a header the
client writes itself must not pick its own throttle bucket.

A throttled attempt is refused before the password is checked. The counters live in the cache
(Redis); while Redis is down nothing is counted.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Iterator
from contextlib import contextmanager

from django.conf import settings
from django.core.cache import cache
from django.http import HttpResponse
from rest_framework.exceptions import Throttled

from annotation.errors import InvalidCredentials

_PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def client_address(request) -> str:
    """The address of the client: with TRUSTED_PROXIES = N, the Nth address from the right
    of X-Forwarded-For (each trusted proxy appends the address it received from)."""
    proxies = settings.TRUSTED_PROXIES
    forwarded = [
        address.strip()
        for address in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")
        if address.strip()
    ]
    if proxies > 0 and forwarded:
        return forwarded[-min(proxies, len(forwarded))]
    return request.META.get("REMOTE_ADDR", "")


def parse_rate(rate: str) -> tuple[int, int]:
    """`"20/min"` -> (20, 60): attempts, and the period in seconds (s, m, h or d first)."""
    count, period = rate.split("/")
    return int(count), _PERIODS[period.strip()[0]]


class SignInAttempts:
    """The failures recorded against one account and one client address."""

    def __init__(self, *, username: str, address: str) -> None:
        self.limit, self.period = parse_rate(settings.LOGIN_THROTTLE_RATE)
        self.keys = [
            "sign-in-failures:account:" + hashlib.sha256(username.encode()).hexdigest(),
            "sign-in-failures:address:" + address,
        ]

    @classmethod
    def of(cls, request, username: str) -> SignInAttempts:
        return cls(username=username, address=client_address(request))

    def _recent(self, now: float) -> dict[str, list[float]]:
        stored = cache.get_many(self.keys)
        return {
            key: [t for t in stored.get(key) or [] if t > now - self.period] for key in self.keys
        }

    def wait(self) -> float | None:
        """Seconds until the next attempt is allowed, or None when it is allowed now."""
        now = time.time()
        waits = [
            failures[-self.limit] + self.period - now
            for failures in self._recent(now).values()
            if len(failures) >= self.limit
        ]
        return max(waits) if waits else None

    def failed(self) -> None:
        now = time.time()
        recent = self._recent(now)
        cache.set_many(
            {key: (failures + [now])[-self.limit :] for key, failures in recent.items()},
            timeout=self.period,
        )


def _refusal(wait: float) -> str:
    return f"Too many failed sign-ins; try again in {int(wait) + 1} seconds."


@contextmanager
def sign_in_attempt(request, username: str) -> Iterator[None]:
    """Refuse with 429 while this account or address is throttled; count wrong credentials."""
    attempts = SignInAttempts.of(request, username)
    wait = attempts.wait()
    if wait is not None:
        raise Throttled(wait=wait, detail=_refusal(wait))
    try:
        yield
    except InvalidCredentials:
        attempts.failed()
        raise


def throttled_admin_login(login_view):
    """The Django admin's sign-in page under the same throttle as the API's. The admin answers
    a failed sign-in with its form again (200) and a successful one with a redirect."""

    def view(request, *args, **kwargs):
        if request.method != "POST":
            return login_view(request, *args, **kwargs)
        attempts = SignInAttempts.of(request, request.POST.get("username", ""))
        wait = attempts.wait()
        if wait is not None:
            response = HttpResponse(_refusal(wait), status=429, content_type="text/plain")
            response["Retry-After"] = str(int(wait) + 1)
            return response
        response = login_view(request, *args, **kwargs)
        if response.status_code == 200:
            attempts.failed()
        return response

    return view
