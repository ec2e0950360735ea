"""The embedded servers' generated passwords: written once, private, and required."""

from __future__ import annotations

import shutil
import stat
import tempfile
from pathlib import Path

import psycopg
import pytest
import redis

from corefapp.runtime.defaults import (
    embedded_database_url,
    embedded_redis_url,
    ensure_private_file,
    var_dir,
)
from corefapp.runtime.postgres import EmbeddedPostgres
from corefapp.runtime.redis_server import EmbeddedRedis
from tests.ports import free_port


@pytest.fixture
def server_root():
    """Under var/ (the unprivileged PostgreSQL user cannot traverse pytest's tmp dir)."""
    root = Path(tempfile.mkdtemp(prefix="secrets-", dir=var_dir() / "test"))
    yield root
    shutil.rmtree(root, ignore_errors=True)


def test_a_secret_is_generated_once_and_only_its_owner_can_read_it(tmp_path, monkeypatch):
    monkeypatch.setenv("COREFAPP_VAR_DIR", str(tmp_path))

    first = ensure_private_file("redis.password")

    assert ensure_private_file("redis.password") == first
    assert len(first) >= 40
    assert stat.S_IMODE((tmp_path / "redis.password").stat().st_mode) == 0o600


def test_the_default_urls_carry_the_generated_passwords(tmp_path, monkeypatch):
    monkeypatch.setenv("COREFAPP_VAR_DIR", str(tmp_path))
    pg = ensure_private_file("postgres.password")
    rd = ensure_private_file("redis.password")

    assert embedded_database_url(5432) == f"postgres://postgres:{pg}@127.0.0.1:5432/corefapp"
    assert embedded_redis_url(6379) == f"redis://:{rd}@127.0.0.1:6379/0"


def test_a_cluster_made_without_a_password_requires_one_once_started_with_it(server_root):
    data, port = server_root / "postgres", free_port()
    trusting = EmbeddedPostgres(data, port=port)
    trusting.start()
    trusting.stop()

    pg = EmbeddedPostgres(data, port=port, password="generated-secret")
    pg.start()
    try:
        psycopg.connect(pg.url("postgres"), connect_timeout=5).close()
        with pytest.raises(psycopg.OperationalError, match="password authentication failed"):
            psycopg.connect(
                f"postgres://postgres:guess@127.0.0.1:{port}/postgres", connect_timeout=5
            ).close()
    finally:
        pg.stop()


def test_embedded_redis_answers_only_clients_that_send_its_password(server_root):
    server = EmbeddedRedis(server_root / "redis", port=free_port(), password="generated-secret")
    server.start()
    try:
        assert redis.Redis.from_url(server.url()).ping()
        with pytest.raises(redis.AuthenticationError):
            redis.Redis(port=server.port, socket_timeout=5).ping()
        config = server_root / "redis" / "redis.conf"
        assert stat.S_IMODE(config.stat().st_mode) == 0o600
        assert "generated-secret" not in " ".join(server.process.args)
    finally:
        server.stop()
