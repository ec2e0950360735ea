"""Start the whole stack exactly as `make up` does, use every component, stop it with Ctrl-C."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import psutil
import pytest
import websockets

from corefapp.runtime.defaults import var_dir
from corefapp.runtime.preflight import free_port

REPO = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.integration


class Launcher:
    def __init__(self, var_dir: Path, port: int, pg_port: int, redis_port: int, extra_env=None):
        self.port = port
        self.var_dir = var_dir
        env = {
            k: v
            for k, v in os.environ.items()
            if k not in ("DATABASE_URL", "REDIS_URL", "SECRET_KEY")
        }
        # Models are shared with the checkout's var/models: the first start trains the ChEMU model
        # there once (as make up would); later test runs find it.
        env.update(
            PORT=str(port),
            EMBEDDED_PG_PORT=str(pg_port),
            EMBEDDED_REDIS_PORT=str(redis_port),
            COREFAPP_VAR_DIR=str(var_dir),
            DEMO_PASSWORD="integration-pw",
            MODELS_DIR=str(REPO / "var" / "models"),
            **(extra_env or {}),
        )
        self.env = env
        self.output: list[str] = []
        self.proc: subprocess.Popen | None = None

    def start(self, timeout: float = 300) -> float:
        started = time.monotonic()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "corefapp.runtime.up"],
            cwd=REPO,
            env=self.env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        os.set_blocking(self.proc.stdout.fileno(), False)
        while time.monotonic() - started < timeout:
            line = self.proc.stdout.readline()
            if line:
                self.output.append(line)
                if "Ctrl-C stops everything" in line:
                    return time.monotonic() - started
            elif self.proc.poll() is not None:
                break
            else:
                time.sleep(0.1)
        raise AssertionError(
            "the stack did not start:\n" + "".join(self.output) + self._read_rest()
        )

    def _read_rest(self) -> str:
        try:
            return self.proc.stdout.read() or ""
        except (TypeError, ValueError):
            return ""

    def descendants(self) -> list[psutil.Process]:
        return psutil.Process(self.proc.pid).children(recursive=True)

    def stop_with_ctrl_c(self) -> int:
        self.proc.send_signal(signal.SIGINT)
        code = self.proc.wait(90)
        self.output.append(self._read_rest())
        return code

    def get_json(self, path: str) -> tuple[int, dict]:
        try:
            with urllib.request.urlopen(
                f"http://127.0.0.1:{self.port}{path}", timeout=10
            ) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read())


def running_process(pid: int) -> bool:
    """A zombie has exited; it only waits for its parent (here often PID 1) to reap it."""
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def postmaster_pid(var_dir: Path) -> int | None:
    pid_file = var_dir / "postgres" / "postmaster.pid"
    return int(pid_file.read_text().split()[0]) if pid_file.exists() else None


def wait_healthy(launcher: Launcher, timeout: float = 60) -> dict:
    deadline = time.monotonic() + timeout
    while True:
        status, body = launcher.get_json("/healthz")
        if status == 200 or time.monotonic() > deadline:
            return body | {"http_status": status}
        time.sleep(0.5)


async def websocket_ping(port: int) -> dict:
    async with websockets.connect(
        f"ws://127.0.0.1:{port}/ws/ping/", origin=f"http://localhost:{port}"
    ) as socket:
        await socket.send(json.dumps({"ping": "through-redis"}))
        return json.loads(await asyncio.wait_for(socket.recv(), 10))


def celery_round_trip(redis_port: int) -> str:
    """Send the ping task through the stack's Redis with an app of its own: the test session's
    Celery app may already hold connections to the session's Redis."""
    from celery import Celery

    url = f"redis://127.0.0.1:{redis_port}/0"
    client = Celery("integration-client", broker=url, backend=url)
    try:
        # Generous: on a loaded 2-core machine the default worker may still be starting.
        return client.send_task("corefapp.ping", args=["integration"], queue="default").get(
            timeout=120
        )
    finally:
        client.close()


@pytest.fixture
def var_root():
    """Under the repository's var/, not pytest's tmp dir: pytest keeps /tmp/pytest-of-<user>
    private (0700), which the unprivileged PostgreSQL user could not traverse."""
    root = Path(tempfile.mkdtemp(prefix="integration-", dir=var_dir() / "test"))
    yield root
    shutil.rmtree(root, ignore_errors=True)


def test_make_up_starts_every_component_and_ctrl_c_leaves_nothing_running(var_root):
    tmp_path = var_root
    port, pg_port, redis_port = free_port(), free_port(), free_port()
    launcher = Launcher(tmp_path / "var", port, pg_port, redis_port)
    first_start = launcher.start()
    try:
        health = wait_healthy(launcher)
        assert health["http_status"] == 200, health
        assert all(check["ok"] for check in health["checks"].values()), health
        assert asyncio.run(websocket_ping(port)) == {"pong": "through-redis"}
        assert celery_round_trip(redis_port) == "pong:integration"
        running = launcher.descendants()
        pg_pid = postmaster_pid(launcher.var_dir)
        assert pg_pid is not None and psutil.pid_exists(pg_pid)
        assert "demo accounts: admin, annotator1, annotator2 - password: integration-pw" in "".join(
            launcher.output
        )
    finally:
        code = launcher.stop_with_ctrl_c()
    assert code == 0, "".join(launcher.output)
    time.sleep(0.5)
    survivors = [p for p in running if running_process(p.pid)]
    assert survivors == [], [p.cmdline() for p in survivors]
    assert not running_process(pg_pid), "".join(launcher.output)

    # A second start reuses the data directory: no new initdb, the demo data is still there.
    second = Launcher(tmp_path / "var", port, pg_port, redis_port)
    second_start = second.start()
    try:
        assert "demo accounts created" not in "".join(second.output)
        assert wait_healthy(second)["http_status"] == 200
    finally:
        assert second.stop_with_ctrl_c() == 0
    print(
        f"\nmake up (stack only, venv and frontend ready): first start {first_start:.1f} s, "
        f"second start {second_start:.1f} s"
    )


def test_make_up_refuses_a_busy_port_with_a_one_line_message(var_root):
    tmp_path = var_root
    import socket

    with socket.socket() as blocker:
        blocker.bind(("127.0.0.1", 0))
        blocker.listen()
        busy = blocker.getsockname()[1]
        launcher = Launcher(tmp_path / "var", busy, free_port(), free_port())
        result = subprocess.run(
            [sys.executable, "-m", "corefapp.runtime.up"],
            check=False,
            cwd=REPO,
            env=launcher.env,
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert result.returncode == 2
    errors = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(errors) == 1
    assert f"port {busy}" in errors[0] and "PORT=" in errors[0]


def test_with_database_url_and_redis_url_set_make_up_uses_those_servers_and_leaves_them_running(
    var_root,
):
    from tests.services import start_services

    external = start_services()
    try:
        launcher = Launcher(
            var_root / "var",
            free_port(),
            free_port(),
            free_port(),
            extra_env={"DATABASE_URL": external.database_url, "REDIS_URL": external.redis_url},
        )
        launcher.start()
        try:
            health = wait_healthy(launcher)
        finally:
            assert launcher.stop_with_ctrl_c() == 0
        output = "".join(launcher.output)
        assert health["http_status"] == 200, health
        assert "(embedded)" not in output
        assert not (var_root / "var" / "postgres").exists()
        import psycopg
        import redis

        with psycopg.connect(external.database_url) as conn:  # not ours to stop: still up
            assert conn.execute("SELECT count(*) FROM auth_user").fetchone()[0] == 3
        assert redis.Redis.from_url(external.redis_url).ping()
    finally:
        external.stop()
