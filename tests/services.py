"""Real PostgreSQL and Redis for the test session, started the way `make up` starts them.

Each pytest session gets its own servers on free ports and its own data directory, so test
runs in parallel checkouts or terminals never share state. initdb runs once into a template
directory that later sessions copy, which saves a few seconds per session.

A second template holds the `corefapp` database migrated to this checkout's migrations, and
an untouched copy of it (MIGRATED): built once per set of migrations (their files and the
Django packages' versions name it), it spares every session, every benchmark smoke run and
every second instance a migration from nothing (a process of its own for a second instance;
about as long as copying the bigger cluster where Django is up anyway). What is
migrated there is what `manage.py migrate` gives; a caller that migrates after finds nothing
to do. `start_services(migrated=False)` gives a cluster that has never been migrated.
"""

from __future__ import annotations

import fcntl
import hashlib
import importlib.metadata
import os
import secrets
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import psycopg

from corefapp.runtime.defaults import var_dir
from corefapp.runtime.postgres import SYSTEM_USER, EmbeddedPostgres
from corefapp.runtime.redis_server import EmbeddedRedis
from tests.ports import free_port

REPO = Path(__file__).resolve().parents[1]
# In the migrated template: a migrated database nothing connects to, to clone from.
MIGRATED = "corefapp_migrated"
MIGRATE = (
    "import django; django.setup(); from django.core.management import call_command; "
    "call_command('migrate', interactive=False, verbosity=0)"
)


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


def _migrations_key() -> str:
    """Names the migrated template: every migration file of the checkout and the versions of
    the Django packages (whose migrations come with them)."""
    digest = hashlib.sha256()
    for path in sorted(REPO.glob("*/migrations/*.py")):
        digest.update(path.relative_to(REPO).as_posix().encode() + b"\0" + path.read_bytes())
    for dist in sorted(
        (d for d in importlib.metadata.distributions() if d.metadata["Name"]),
        key=lambda d: d.metadata["Name"].lower(),
    ):
        if dist.metadata["Name"].lower().startswith("django"):
            digest.update(f"{dist.metadata['Name']}=={dist.version}\0".encode())
    return digest.hexdigest()[:16]


def _migrated_cluster(base: Path, redis_url: str) -> Path:
    """A stopped cluster whose `corefapp` database is migrated, with a copy named MIGRATED."""
    template = _template_cluster(base)  # before the lock: it takes the lock itself
    migrated = base / f"pg-migrated-{_migrations_key()}"
    with open(base / "pg-template.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if (migrated / "PG_VERSION").exists():
            return migrated
        building = Path(tempfile.mkdtemp(prefix="pg-migrating-", dir=base))
        try:
            data = copy_template_cluster(template, building)
            pg = EmbeddedPostgres(data, port=free_port())  # trusts local sign-ins, as the template
            pg.start()
            try:
                env = dict(
                    os.environ,
                    DATABASE_URL=pg.url(),
                    REDIS_URL=redis_url,
                    DJANGO_SETTINGS_MODULE="corefapp.settings",
                    LOG_LEVEL="ERROR",
                )
                result = subprocess.run(
                    [sys.executable, "-c", MIGRATE],
                    cwd=REPO,
                    env=env,
                    capture_output=True,
                    text=True,
                    timeout=600,
                    check=False,
                )
                if result.returncode != 0:
                    raise RuntimeError(f"migrating the template failed:\n{result.stderr[-3000:]}")
                with psycopg.connect(pg.url("postgres"), autocommit=True) as connection:
                    connection.execute(f'CREATE DATABASE "{MIGRATED}" TEMPLATE corefapp')
            finally:
                pg.stop()
            (data / "postmaster.pid").unlink(missing_ok=True)
            for older in base.glob("pg-migrated-*"):  # other migrations: another branch's
                shutil.rmtree(older, ignore_errors=True)
            data.rename(migrated)
        finally:
            shutil.rmtree(building, ignore_errors=True)
    return migrated


def clone_migrated(services: Services, name: str) -> str:
    """A new database `name` on the session's server, migrated (a copy of MIGRATED); its URL."""
    with psycopg.connect(services.postgres.url("postgres"), autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        connection.execute(f'CREATE DATABASE "{name}" TEMPLATE "{MIGRATED}"')
    return services.postgres.url(name)


def start_services(*, migrated: bool = True) -> Services:
    base = var_dir() / "test"
    base.mkdir(parents=True, exist_ok=True)
    root = Path(tempfile.mkdtemp(prefix=f"session-{os.getpid()}-", dir=base))
    # Redis first: migrating the template, when it is missing, sets Django up against it.
    redis = EmbeddedRedis(root / "redis", port=free_port(), password=secrets.token_urlsafe(24))
    redis.start()
    try:
        template = _migrated_cluster(base, redis.url()) if migrated else _template_cluster(base)
        data = copy_template_cluster(template, root)
        # Both servers require a password, as make up's do, so every client here (Django,
        # daphne, Celery workers started by tests) proves it sends one. The template trusts
        # local sign-ins; start() switches the copy to scram with this session's password.
        postgres = EmbeddedPostgres(data, port=free_port(), password=secrets.token_urlsafe(24))
        postgres.start()
    except BaseException:
        redis.stop()
        shutil.rmtree(root, ignore_errors=True)
        raise
    return Services(postgres=postgres, redis=redis, root=root)
