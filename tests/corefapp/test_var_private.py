"""Local state is private: files under var/ are 0600 and folders 0700 (the database, Redis's
append-only file, the logs), whether written by the launcher's children or left by an older
version. Real embedded PostgreSQL and Redis."""

from __future__ import annotations

import os
import shutil
import stat
import tempfile
from pathlib import Path

import psycopg
import pytest
import redis

from corefapp.runtime.defaults import var_dir
from corefapp.runtime.postgres import EmbeddedPostgres
from corefapp.runtime.preflight import free_port
from corefapp.runtime.private import private_umask, var_private
from corefapp.runtime.redis_server import EmbeddedRedis


@pytest.fixture
def var():
    """A var/ of its own, under var/test (the unprivileged PostgreSQL user, as root, cannot
    traverse pytest's tmp dir)."""
    root = Path(tempfile.mkdtemp(prefix="private-", dir=var_dir() / "test"))
    yield root
    shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
def launcher_umask():
    """The launcher's umask for this test only (pytest's own files keep theirs)."""
    before = private_umask()
    yield
    os.umask(before)


def modes(root: Path) -> dict[str, int]:
    found = {}
    for folder, folders, files in os.walk(root):
        for name in folders + files:
            path = Path(folder) / name
            if not path.is_symlink():
                found[str(path.relative_to(root))] = stat.S_IMODE(path.lstat().st_mode)
    return found


def test_what_the_embedded_servers_write_is_private(var, launcher_umask):
    var_private(var)
    pg = EmbeddedPostgres(var / "postgres", port=free_port(), password="a-secret")
    rd = EmbeddedRedis(var / "redis", port=free_port(), password="a-secret")
    pg.start()
    rd.start()
    try:
        psycopg.connect(pg.url(), connect_timeout=5).close()
        redis.Redis.from_url(rd.url()).set("annotation", "content")  # into the AOF
    finally:
        rd.stop()
        pg.stop()

    found = modes(var)
    assert "postgres.log" in found
    assert any("appendonly" in path for path in found)
    loose = {
        path: oct(mode)
        for path, mode in found.items()
        if mode & (0o066 if (var / path).is_dir() else 0o077)
    }
    assert loose == {}
    # var/ itself: 0700, or as root 0711 (PostgreSQL's system user passes through it).
    assert stat.S_IMODE(var.stat().st_mode) in ({0o711} if os.geteuid() == 0 else {0o700})


def test_files_and_folders_left_open_by_an_older_version_are_closed(var):
    (var / "log").mkdir(mode=0o755)
    (var / "log" / "web.log").write_text("GET /\n")
    (var / "log" / "web.log").chmod(0o644)
    (var / "test").mkdir()
    (var / "test" / "session").mkdir(mode=0o755)

    var_private(var)

    assert modes(var)["log"] == 0o700
    assert modes(var)["log/web.log"] == 0o600
    assert modes(var)["test/session"] == 0o755  # the test sessions' servers are theirs
