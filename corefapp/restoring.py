"""While `manage.py restore` replaces the data, every write answers a JSON 503 "restoring".

A restore replaces the whole database with the archive's: a write acknowledged while it runs
would be acknowledged and then lost. So a restore holds PostgreSQL's advisory lock
`RESTORE_LOCK` exclusively from before it replaces anything until after it has migrated, and
every write request (any method but GET, HEAD, OPTIONS) holds the same lock shared while it
runs. The lock lives in the database server, so every web process of the instance sees it
at once, none of the dropped tables carry it, and a restore that dies releases it with its
connection (a flag in Redis could outlive a killed restore, or be missed by a write already
past its check).

- A write that finds the restore holding (or waiting for) the lock is refused at once with
  503 "restoring" and a Retry-After; the browsers' edit queue keeps the edit and retries.
- A restore waits for the writes already running to finish (they commit before the
  replacement, so they are the writes a restore is meant to discard, answered before it
  began), at most `WAIT_SECONDS`, and then gives up without touching anything.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import psycopg
from django.db import DatabaseError, connection
from django.http import JsonResponse

from corefapp.sign_in_pool import SIGN_IN_PATHS

# pg_advisory_lock's one bigint key: any constant no other code of the instance uses.
RESTORE_LOCK = 0x636F726566_01  # "coref" 1
WAIT_SECONDS = 30
RETRY_AFTER_SECONDS = 5
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def restoring_response() -> JsonResponse:
    response = JsonResponse(
        {
            "error": "restoring",
            "message": "A backup is being restored; nothing can be saved for a moment. "
            "Your change is kept and sent again.",
        },
        status=503,
    )
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


class RestoreGuardMiddleware:
    """Holds RESTORE_LOCK shared around each write request (see the module's docstring).
    Under the outage middleware, which answers first while PostgreSQL is down."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        # A sign-in writes nothing but a session (one a restore takes back costs a second
        # sign-in), and holding a database connection through its password check made a
        # flood of sign-ins wait for the pool's connections and fail.
        if request.method in SAFE_METHODS or request.path in SIGN_IN_PATHS:
            return self.get_response(request)
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_try_advisory_lock_shared(%s)", [RESTORE_LOCK])
            if not cursor.fetchone()[0]:
                return restoring_response()
        try:
            return self.get_response(request)
        finally:
            _release()


def _release() -> None:
    # The request's own connection: the view keeps it to the end (the pool takes it back only
    # when the request has finished). If it broke meanwhile, its session and lock are gone.
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_unlock_shared(%s)", [RESTORE_LOCK])
    except DatabaseError:
        pass


@contextmanager
def writes_refused(connect, wait_seconds: float = WAIT_SECONDS) -> Iterator[None]:
    """Every write of every web process is refused inside the block. `connect()` opens a
    connection of the restore's own (not the pool's: the lock must end with it); raises
    TimeoutError if writes still run after `wait_seconds`."""
    with connect() as conn:
        conn.execute(f"SET lock_timeout = '{int(wait_seconds * 1000)}ms'")
        try:
            conn.execute("SELECT pg_advisory_lock(%s)", [RESTORE_LOCK])
        except psycopg.errors.LockNotAvailable:
            raise TimeoutError(
                f"writes were still running after {wait_seconds:.0f} s; nothing was restored"
            ) from None
        try:
            yield  # a restore that dies releases the lock with its connection
        finally:
            # Released here, not only by closing: the server ends a closed session's locks a
            # moment after the close, and a write sent at once was still refused.
            try:
                conn.execute("SELECT pg_advisory_unlock(%s)", [RESTORE_LOCK])
            except psycopg.Error:
                pass
