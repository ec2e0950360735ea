"""A second database on the session's PostgreSQL, and `manage.py` run against it in a process
of its own: what the upgrade and project-archive tests need to stand for another instance."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager

import psycopg

from tests.paths import REPO


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
def second_database(services, name: str) -> Iterator[str]:
    """An empty database `name` (dropped first if a crashed run left it), its URL, dropped after."""
    admin = services.postgres.url("postgres")
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}"')
        connection.execute(f'CREATE DATABASE "{name}"')
    try:
        yield services.postgres.url(name)
    finally:
        with psycopg.connect(admin, autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
