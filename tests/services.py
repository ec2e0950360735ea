"""Real PostgreSQL and Redis for the test session, started the way `make up` starts them.

Each pytest session gets its own servers on free ports and its own data directory, so test
runs in parallel checkouts or terminals never share state. initdb runs once into a template
directory that later sessions copy, which saves a few seconds per session.
"""

from __future__ import annotations

import fcntl
import os
import secrets
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from corefapp.runtime.defaults import var_dir
from corefapp.runtime.postgres import SYSTEM_USER, EmbeddedPostgres
from corefapp.runtime.preflight import free_port
from corefapp.runtime.redis_server import EmbeddedRedis


@dataclass
class Services:
    postgres: EmbeddedPostgres
    redis: EmbeddedRedis
    root: Path

    @property
    def database_url(self) -> str:
        return self.postgres.url()

    @property
    def redis_url(self) -> str:
        return self.redis.url()

    def stop(self) -> None:
        self.redis.stop()
        self.postgres.stop()
        shutil.rmtree(self.root, ignore_errors=True)


def _template_cluster(base: Path) -> Path:
    """An initialised, stopped PostgreSQL data directory to copy from."""
    template = base / "pg-template"
    base.mkdir(parents=True, exist_ok=True)
    with open(base / "pg-template.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (template / "PG_VERSION").exists():
            shutil.rmtree(template, ignore_errors=True)
            pg = EmbeddedPostgres(template, port=free_port())
            pg.start()
            pg.stop()
            (template / "postmaster.pid").unlink(missing_ok=True)
    return template


def copy_template_cluster(template: Path, root: Path) -> Path:
    """A data directory of our own under `root`, owned by the server's user when we are root."""
    data = root / "postgres"
    shutil.copytree(template, data, symlinks=True)
    if os.geteuid() == 0:
        import pwd

        entry = pwd.getpwnam(SYSTEM_USER)
        root.chmod(0o755)
        for path in [data, *data.rglob("*")]:
            os.lchown(path, entry.pw_uid, entry.pw_gid)
    return data


def start_services() -> Services:
    base = var_dir() / "test"
    template = _template_cluster(base)
    root = Path(tempfile.mkdtemp(prefix=f"session-{os.getpid()}-", dir=base))
    data = copy_template_cluster(template, root)
    # Both servers require a password, as make up's do, so every client here (Django, daphne,
    # Celery workers started by tests) proves it sends one. The template trusts local sign-ins;
    # start() switches the copy to scram with this session's password.
    postgres = EmbeddedPostgres(data, port=free_port(), password=secrets.token_urlsafe(24))
    postgres.start()
    redis = EmbeddedRedis(root / "redis", port=free_port(), password=secrets.token_urlsafe(24))
    try:
        redis.start()
    except Exception:
        postgres.stop()
        raise
    return Services(postgres=postgres, redis=redis, root=root)
