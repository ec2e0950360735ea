"""`make up`: start PostgreSQL, Redis, the web server and the Celery workers; stop them on Ctrl-C.

Run as `python -m corefapp.runtime.up`. With DATABASE_URL / REDIS_URL set, those servers are
used and no embedded one is started. Every child gets its own session, so a Ctrl-C in the
terminal reaches this launcher alone, which then stops the children in order (web and workers
first, then Redis and PostgreSQL) and leaves nothing running.
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

from corefapp.runtime import commands
from corefapp.runtime.defaults import (
    REPO_ROOT,
    embedded_pg_port,
    embedded_redis_port,
    ensure_secret_key_file,
    var_dir,
)
from corefapp.runtime.preflight import PreflightError, require_free_port


class Server(Protocol):
    """An embedded server the launcher started (PostgreSQL, Redis)."""

    def stop(self) -> None: ...


@dataclass
class Stack:
    """The processes one launcher started, so that exactly those are stopped."""

    postgres: Server | None = None
    redis: Server | None = None
    children: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)

    def stop(self) -> None:
        for name, proc in reversed(list(self.children.items())):
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + 20
        for proc in self.children.values():
            try:
                proc.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                # A worker still busy with a model run after 20 s is killed; its task is
                # acknowledged late, so the next worker picks it up again.
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(5)
        # Children of children (Celery's pool processes) live in the same session.
        for proc in self.children.values():
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        if self.redis is not None:
            self.redis.stop()
        if self.postgres is not None:
            self.postgres.stop()


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


def _spawn(name: str, argv: list[str], env: dict[str, str], logs: Path) -> subprocess.Popen[bytes]:
    with open(logs / f"{name}.log", "ab") as log:  # the child keeps its own copy
        return subprocess.Popen(
            argv,
            env=env,
            cwd=REPO_ROOT,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


def _wait_http(url: str, proc: subprocess.Popen[bytes], timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(
                f"the web server exited (code {proc.returncode}); see var/log/web.log"
            )
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except urllib.error.HTTPError:
            return  # it answered; /healthz may be 503 while workers start
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"the web server did not answer at {url} within {timeout:.0f} s")


def run() -> int:
    started = time.monotonic()
    host = os.environ.get("HOST", "127.0.0.1")
    port = int(os.environ.get("PORT", commands.WEB_PORT_DEFAULT))
    var = var_dir()
    logs = var / "log"
    logs.mkdir(parents=True, exist_ok=True)
    stack = Stack()

    stopping = False

    def request_stop(signum: int, frame: FrameType | None) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGINT, request_stop)
    signal.signal(signal.SIGTERM, request_stop)

    try:
        require_free_port(host, port, what="the web server", variable="PORT")
        database_url = os.environ.get("DATABASE_URL")
        redis_url = os.environ.get("REDIS_URL")
        if not database_url:
            from corefapp.runtime.postgres import EmbeddedPostgres

            pg = EmbeddedPostgres(var / "postgres", port=embedded_pg_port())
            if not pg.is_running():
                require_free_port(
                    "127.0.0.1", pg.port, what="embedded PostgreSQL", variable="EMBEDDED_PG_PORT"
                )
            print(f"PostgreSQL (embedded) starting, data in {pg.data_dir}", flush=True)
            stack.postgres = pg
            pg.start()
            database_url = pg.url()
        if not redis_url:
            from corefapp.runtime.redis_server import EmbeddedRedis

            rd = EmbeddedRedis(var / "redis", port=embedded_redis_port())
            require_free_port(
                "127.0.0.1", rd.port, what="embedded Redis", variable="EMBEDDED_REDIS_PORT"
            )
            print("Redis (embedded) starting", flush=True)
            stack.redis = rd
            rd.start()
            redis_url = rd.url()
        secret_key = os.environ.get("SECRET_KEY") or ensure_secret_key_file()
        env = _child_env(database_url, redis_url, secret_key)

        print("Preparing: migrations, demo data, default models", flush=True)
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

        stack.children["web"] = _spawn("web", commands.web_command(host=host, port=port), env, logs)
        stack.children["worker"] = _spawn("worker", commands.worker_command(), env, logs)
        stack.children["models"] = _spawn("models", commands.model_worker_command(), env, logs)
        url = f"http://{'localhost' if host in ('127.0.0.1', '0.0.0.0') else host}:{port}/"
        _wait_http(
            f"http://127.0.0.1:{port}/healthz"
            if host in ("127.0.0.1", "0.0.0.0")
            else f"{url}healthz",
            stack.children["web"],
            timeout=60,
        )
        demo_password = os.environ.get("DEMO_PASSWORD", "demo")
        print(
            f"\ncorefapp is running at {url}  (ready in {time.monotonic() - started:.1f} s)\n"
            f"  demo accounts: admin, annotator1, annotator2 - password: {demo_password}\n"
            f"  logs: {logs}\n  Ctrl-C stops everything.\n",
            flush=True,
        )
        while not stopping:
            for name, proc in stack.children.items():
                if proc.poll() is not None:
                    raise RuntimeError(
                        f"{name} exited unexpectedly (code {proc.returncode}); "
                        f"see {logs / (name + '.log')}"
                    )
            time.sleep(0.5)
        print("\nStopping...", flush=True)
        return 0
    except PreflightError as exc:
        print(f"error: {exc}", file=sys.stderr, flush=True)
        return 2
    except KeyboardInterrupt:
        print("\nStopping...", flush=True)
        return 0
    except Exception as exc:  # noqa: BLE001 - any failure: one line, then stop what started
        print(f"error: {exc}", file=sys.stderr, flush=True)
        return 1
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        stack.stop()
        print("Stopped.", flush=True)


if __name__ == "__main__":
    sys.exit(run())
