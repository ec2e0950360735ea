"""Start the whole stack exactly as `make up` does, use every component, stop it with Ctrl-C."""

from __future__ import annotations

import asyncio
import json
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest
import websockets

from tests.integration.stack import (
    Launcher,
    postmaster_pid,
    running_process,
    wait_healthy,
)
from tests.ports import free_port

REPO = Path(__file__).resolve().parents[2]
# The whole stack starts here (PostgreSQL, Redis, web, worker): minutes, not the run's 600 s.
pytestmark = [pytest.mark.integration, pytest.mark.timeout(420)]


async def websocket_ping(port: int, cookie: str) -> dict:
    async with websockets.connect(
        f"ws://127.0.0.1:{port}/ws/ping/",
        origin=f"http://localhost:{port}",
        additional_headers={"Cookie": cookie},
    ) as socket:
        await socket.send(json.dumps({"ping": "through-redis"}))
        return json.loads(await asyncio.wait_for(socket.recv(), 10))


def celery_round_trip(launcher: Launcher, redis_port: int) -> str:
    """Send the ping task through the stack's Redis with an app of its own: the test session's
    Celery app may already hold connections to the session's Redis."""
    from celery import Celery

    password = (launcher.var_dir / "redis.password").read_text().strip()
    url = f"redis://:{password}@127.0.0.1:{redis_port}/0"
    # Not the current app: later tests in this process send through `current_app`, which would
    # otherwise stay this client, whose Redis is gone once the stack stops.
    client = Celery("integration-client", broker=url, backend=url, set_as_current=False)
    try:
        # Generous: on a loaded 2-core machine the default worker may still be starting.
        return client.send_task("corefapp.ping", args=["integration"], queue="default").get(
            timeout=120
        )
    finally:
        client.close()


def assert_servers_require_the_generated_passwords(launcher: Launcher, pg_port, redis_port):
    import psycopg
    import redis

    for name in ("postgres.password", "redis.password", "secret_key"):
        assert stat.S_IMODE((launcher.var_dir / name).stat().st_mode) == 0o600, name
    with pytest.raises(psycopg.OperationalError, match="password authentication failed"):
        psycopg.connect(
            f"postgres://postgres:wrong@127.0.0.1:{pg_port}/corefapp", connect_timeout=5
        ).close()
    with pytest.raises(redis.AuthenticationError):
        redis.Redis(port=redis_port, socket_timeout=5).ping()


def wait_for_stopping_mark(var: Path, within: float) -> None:
    """The launcher's signal handler marks its lock file "stopping" at once; a second launcher
    that found it "running" would refuse to start rather than wait."""
    lock = var / "up.lock"
    deadline = time.monotonic() + within
    while not (lock.exists() and lock.read_text().endswith("stopping\n")):
        assert time.monotonic() < deadline, f"{lock} not marked stopping within {within} s"
        time.sleep(0.01)


def test_make_up_starts_every_component_and_ctrl_c_leaves_nothing_running(var_root):
    """One stack for two guarantees (a start of the whole stack is the costly part): the first
    start runs and uses everything, and a second `make up` started right after Ctrl-C waits for
    the first to stop, which leaves nothing running, then starts on the same data."""
    tmp_path = var_root
    port, pg_port, redis_port = free_port(), free_port(), free_port()
    launcher = Launcher(tmp_path / "var", port, pg_port, redis_port)
    first_start = launcher.start()
    try:
        health = wait_healthy(launcher)
        assert health["http_status"] == 200, health
        assert all(check["ok"] for check in health["checks"].values()), health
        assert asyncio.run(websocket_ping(port, launcher.session_cookie("admin"))) == {
            "pong": "through-redis"
        }
        assert celery_round_trip(launcher, redis_port) == "pong:integration"
        assert_servers_require_the_generated_passwords(launcher, pg_port, redis_port)
        running = launcher.descendants()
        pg_pid = postmaster_pid(launcher.var_dir)
        assert pg_pid is not None
        assert psutil.pid_exists(pg_pid)
        assert "demo accounts: admin, annotator1, annotator2 - password: integration-pw" in "".join(
            launcher.output
        )
        # The first start takes the day's backup and says where it went.
        launcher.wait_for_output("backup written to", 180)
        assert len(list((launcher.var_dir / "backups").glob("corefapp-*.tar.gz"))) == 1
    except BaseException:
        launcher.stop_with_ctrl_c()
        raise

    # Ctrl-C, and at once a second make up on the same var/ (a user pressing up-arrow and Enter).
    launcher.proc.send_signal(signal.SIGINT)
    wait_for_stopping_mark(launcher.var_dir, within=5)
    second = Launcher(tmp_path / "var", port, pg_port, redis_port)
    try:
        second_start = second.start(timeout=180)
        first_code = launcher.proc.wait(5)
        launcher.read_output()
        assert first_code == 0, "".join(launcher.output)
        # What the first started is gone (the second's processes are its own).
        survivors = [p for p in running if running_process(p.pid)]
        assert survivors == [], [p.cmdline() for p in survivors]
        assert not running_process(pg_pid), "".join(launcher.output)
        output = "".join(second.output)
        assert (
            f"A previous make up (pid {launcher.proc.pid}) is still stopping; waiting" in output
        ), output
        assert "error:" not in output, output
        # The second start reuses the data directory: no new initdb, the demo data is there.
        assert "demo accounts created" not in output
        assert wait_healthy(second)["http_status"] == 200
        # The day's backup exists: the next is due in a day, not at this start.
        second.wait_for_output("backups: every 24 h into", 10)
        assert "backup written to" not in second.read_output()
    finally:
        if second.proc is not None and second.proc.poll() is None:
            assert second.stop_with_ctrl_c() == 0, second.read_output()
        if launcher.proc.poll() is None:
            launcher.stop_with_ctrl_c()
    print(
        f"\nmake up (stack only, venv and frontend ready): first start {first_start:.1f} s, "
        f"second start right after Ctrl-C {second_start:.1f} s (waiting for the first included)"
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
    assert f"port {busy}" in errors[0]
    assert "PORT=" in errors[0]


def test_with_database_url_and_redis_url_set_make_up_uses_those_servers_and_leaves_them_running(
    var_root,
):
    from tests.services import start_services

    external = start_services(migrated=False)  # empty, as a new server is: make up migrates it
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
