"""`make up`: start PostgreSQL, Redis, the web server and the Celery workers; stop them on Ctrl-C.

Run as `python -m corefapp.runtime.up`. With DATABASE_URL / REDIS_URL set, those servers are
used and no embedded one is started; the embedded ones get generated passwords (var/*.password,
mode 0600) that reach the children in DATABASE_URL and REDIS_URL. Every child gets its own
session, so a Ctrl-C in the terminal reaches this launcher alone, which then stops the children
in order (web and workers first, then Redis and PostgreSQL) and leaves nothing running. Until
then a child that exits is restarted (corefapp.runtime.supervisor), and a second launcher for
the same var/ waits for one that is still stopping (corefapp.runtime.instance).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Protocol

from corefapp.backups.schedule import BackupScheduler
from corefapp.private_files import private_umask, var_private
from corefapp.runtime import commands
from corefapp.runtime.defaults import (
    PG_PASSWORD_FILE,
    REDIS_PASSWORD_FILE,
    REPO_ROOT,
    embedded_pg_port,
    embedded_redis_port,
    ensure_private_file,
    ensure_secret_key_file,
    var_dir,
)
from corefapp.runtime.instance import WAIT_FOR_PREVIOUS_SECONDS, InstanceLock
from corefapp.runtime.preflight import PreflightError, require_free_port
from corefapp.runtime.supervisor import Child, Reports, WatchedServer


class Server(Protocol):
    """An embedded server the launcher started (PostgreSQL, Redis)."""

    def stop(self) -> None: ...


@dataclass
class Stack:
    """The processes one launcher started, so that exactly those are stopped."""

    postgres: Server | None = None
    redis: Server | None = None
    children: dict[str, Child] = field(default_factory=dict)
    # The embedded servers, restarted like the children (an external one is not ours to run).
    watched: list[WatchedServer] = field(default_factory=list)
    # What children that supervise their own processes (the web server's workers) report.
    reports: Reports = field(default_factory=Reports)

    def supervise(self) -> None:
        for server in self.watched:  # first: the children need them
            server.supervise(say)
        for child in self.children.values():
            child.supervise(say)
        self.reports.drain(say)

    def stop(self) -> None:
        for child in reversed(list(self.children.values())):
            child.terminate()
        deadline = time.monotonic() + 20
        for child in self.children.values():
            child.wait_or_kill(deadline)
        if self.redis is not None:
            self.redis.stop()
        if self.postgres is not None:
            self.postgres.stop()
        self.reports.close()


# var/log/up.log: what the launcher printed, kept after the terminal is gone.
_up_log: Path | None = None


def say(line: str) -> None:
    print(line, flush=True)
    if _up_log is not None and line.strip():
        with open(_up_log, "a") as log:
            log.write(f"{time.strftime('%Y-%m-%d %H:%M:%S')} {line.strip()}\n")


def _child_env(database_url: str, redis_url: str, secret_key: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        DATABASE_URL=database_url,
        REDIS_URL=redis_url,
        SECRET_KEY=secret_key,
        DJANGO_SETTINGS_MODULE="corefapp.settings",
        PYTHONUNBUFFERED="1",
    )
    # Executables of this virtual environment first (daphne, celery, python).
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    return env


def _wait_http(url: str, web: Child, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if web.proc is not None and web.proc.poll() is not None:
            raise RuntimeError(
                f"the web server exited at start (code {web.proc.returncode}); see {web.log_path}"
            )
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except urllib.error.HTTPError:
            return  # it answered; /healthz may be 503 while workers start
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(
        f"the web server did not answer at {url} within {timeout:.0f} s; see {web.log_path}"
    )


def _no_stopping_postgres(pg, deadline: float) -> None:
    """A PostgreSQL of this data directory that is shutting down is waited for, never used."""
    if pg.postmaster_status() != "stopping":
        return
    pid = pg.postmaster_pid()
    say(f"PostgreSQL (pid {pid}) of an earlier make up is still shutting down; waiting for it")
    if not pg.wait_stopped(deadline):
        raise PreflightError(
            f"PostgreSQL (pid {pid}) in {pg.data_dir} did not stop within "
            f"{WAIT_FOR_PREVIOUS_SECONDS:.0f} s: wait for it, or stop it with kill -INT {pid}"
        )


def _no_leftover_redis(rd, deadline: float) -> None:
    """A Redis of this data directory still running (its launcher was killed, or it is still
    saving) is stopped first: it may be on its way out, and it is nobody's now."""
    pid = rd.leftover_pid()
    if pid is None:
        return
    say(f"Redis (pid {pid}) of an earlier make up is still running; stopping it first")
    if not rd.stop_leftover(deadline):
        raise PreflightError(
            f"Redis (pid {pid}) of an earlier make up did not stop within "
            f"{WAIT_FOR_PREVIOUS_SECONDS:.0f} s: stop it with kill {pid}"
        )


def run() -> int:
    global _up_log
    started = time.monotonic()
    host = os.environ.get("HOST", "127.0.0.1")
    port = int(os.environ.get("PORT", commands.WEB_PORT_DEFAULT))
    var = var_dir()
    private_umask()  # before anything is written: corefapp/private_files.py
    var_private(var)
    logs = var / "log"
    logs.mkdir(parents=True, exist_ok=True)
    _up_log = logs / "up.log"
    stack = Stack()
    instance = InstanceLock(var)
    backups = BackupScheduler(var, REPO_ROOT, logs)

    stopping = False

    def request_stop(signum: int, frame: FrameType | None) -> None:
        nonlocal stopping
        stopping = True
        instance.mark("stopping")  # a launcher started now waits for this one

    signal.signal(signal.SIGINT, request_stop)
    signal.signal(signal.SIGTERM, request_stop)

    try:
        instance.acquire(say)
        deadline = time.monotonic() + WAIT_FOR_PREVIOUS_SECONDS
        require_free_port(host, port, what="the web server", variable="PORT")
        database_url = os.environ.get("DATABASE_URL")
        redis_url = os.environ.get("REDIS_URL")
        if not database_url:
            from corefapp.runtime.postgres import EmbeddedPostgres

            pg = EmbeddedPostgres(
                var / "postgres",
                port=embedded_pg_port(),
                password=ensure_private_file(PG_PASSWORD_FILE),
            )
            _no_stopping_postgres(pg, deadline)
            if not pg.is_running():
                require_free_port(
                    "127.0.0.1", pg.port, what="embedded PostgreSQL", variable="EMBEDDED_PG_PORT"
                )
            say(f"PostgreSQL (embedded) starting, data in {pg.data_dir}")
            stack.postgres = pg
            pg.start()
            stack.watched.append(WatchedServer("PostgreSQL", pg))
            database_url = pg.url()
        if not redis_url:
            from corefapp.runtime.redis_server import EmbeddedRedis

            rd = EmbeddedRedis(
                var / "redis",
                port=embedded_redis_port(),
                password=ensure_private_file(REDIS_PASSWORD_FILE),
            )
            _no_leftover_redis(rd, deadline)
            require_free_port(
                "127.0.0.1", rd.port, what="embedded Redis", variable="EMBEDDED_REDIS_PORT"
            )
            say("Redis (embedded) starting")
            stack.redis = rd
            rd.start()
            stack.watched.append(WatchedServer("Redis", rd))
            redis_url = rd.url()
        secret_key = os.environ.get("SECRET_KEY") or ensure_secret_key_file()
        env = _child_env(database_url, redis_url, secret_key)

        say("Preparing: migrations, demo data, default models")
        prepare = subprocess.Popen(
            commands.prepare_command(), env=env, cwd=REPO_ROOT, start_new_session=True
        )
        while prepare.poll() is None:
            if stopping:
                prepare.terminate()
                prepare.wait(30)
                raise KeyboardInterrupt
            time.sleep(0.2)
        if prepare.returncode != 0:
            raise RuntimeError("preparation failed (see the messages above)")

        reporting = stack.reports
        for name, argv, extra in (
            ("web", commands.web_command(host=host, port=port), reporting),
            ("worker", commands.worker_command(), None),
            ("models", commands.model_worker_command(), None),
        ):
            stack.children[name] = Child(
                name,
                argv,
                env | (extra.child_env() if extra else {}),
                REPO_ROOT,
                logs,
                pass_fds=(extra.write_fd,) if extra else (),
            )
            stack.children[name].start()
        url = f"http://{'localhost' if host in ('127.0.0.1', '0.0.0.0') else host}:{port}/"
        _wait_http(
            f"http://127.0.0.1:{port}/healthz"
            if host in ("127.0.0.1", "0.0.0.0")
            else f"{url}healthz",
            stack.children["web"],
            timeout=60,
        )
        if not stopping:
            instance.mark("running")
        demo_password = os.environ.get("DEMO_PASSWORD", "demo")
        say(
            f"\ncorefapp is running at {url}  (ready in {time.monotonic() - started:.1f} s)\n"
            f"  demo accounts: admin, annotator1, annotator2 - password: {demo_password}\n"
            f"  logs: {logs}\n  Ctrl-C stops everything.\n"
        )
        backups.begin(env)
        say(backups.describe())
        while not stopping:
            stack.supervise()
            backups.tick(say)
            time.sleep(0.2)  # a look costs a few system calls; a server's exit is seen soon
        say("\nStopping...")
        return 0
    except PreflightError as exc:
        print(f"error: {exc}", file=sys.stderr, flush=True)
        return 2
    except KeyboardInterrupt:
        say("\nStopping...")
        return 0
    except Exception as exc:  # noqa: BLE001 - any failure: one line, then stop what started
        print(f"error: {exc}", file=sys.stderr, flush=True)
        return 1
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        instance.mark("stopping")
        backups.stop()
        stack.stop()
        instance.release()
        say("Stopped.")


if __name__ == "__main__":
    sys.exit(run())
