"""A second database on the session's PostgreSQL, and `manage.py` run against it in a process
of its own: what the upgrade and project-archive tests need to stand for another instance."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager

import psycopg

from tests.paths import REPO
from tests.services import MIGRATED


def manage(env: dict, *args: str) -> str:
    result = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


@contextmanager
def second_database(services, name: str, *, migrated: bool = False) -> Iterator[str]:
    """A database `name` (dropped first if a crashed run left it), its URL, dropped after:
    empty, or `migrated`: a copy of the session's migrated template (tests/services.py), what
    `manage.py migrate` gives an empty one, without a process that migrates from nothing."""
    admin = services.postgres.url("postgres")
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}"')
        template = f' TEMPLATE "{MIGRATED}"' if migrated else ""
        connection.execute(f'CREATE DATABASE "{name}"{template}')
    try:
        yield services.postgres.url(name)
    finally:
        with psycopg.connect(admin, autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
