"""Django's PostgreSQL backend, with a pool check that replaces every idle connection once
one is found dead (settings: ENGINE "corefapp.db_backend").

psycopg's own check tests the connection it is about to lend. After PostgreSQL restarts every
idle connection is dead, and the pool tries the next one only after a back-off (0, then 1 s,
then 2 s, ...), so with two or more dead connections a request ran out of the pool's short
timeout and answered 503 although PostgreSQL was back. One dead connection means the others
are dead too: this check drains the pool (idle connections are replaced at once, those in use
when they come back), so the next connection lent is a fresh one.
"""

from __future__ import annotations

from typing import Any

from django.db.backends.postgresql import base
from psycopg_pool import ConnectionPool


def check_connection(conn: Any) -> None:
    try:
        ConnectionPool.check_connection(conn)
    except Exception:
        pool = getattr(conn, "_pool", None)
        if isinstance(pool, ConnectionPool):
            pool.drain()
        raise


class DatabaseWrapper(base.DatabaseWrapper):
    @property
    def pool(self):
        pool = super().pool
        # Django passes psycopg's check when CONN_HEALTH_CHECKS is on and offers no way to
        # name another; the pool keeps it in `_check` (psycopg_pool 3.2 and 3.3).
        if pool is not None and pool._check is ConnectionPool.check_connection:
            pool._check = check_connection
        return pool
