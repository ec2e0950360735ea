"""A SIGKILLed PostgreSQL is back within 5 s (the issue's bound), also where the dead postmaster's
parent never reaps it, as a container's PID 1 may not: it then stays a zombie, which
`pg_ctl status` and PostgreSQL's own lock check (kill -0) take for a running server. And the
process that starts PostgreSQL (make up's launcher) is the postmaster's parent, so it sees the
exit at once and reaps it itself. Real servers on a copy of the session's template cluster."""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil
import psycopg
import pytest

from corefapp.runtime.defaults import var_dir
from corefapp.runtime.postgres import EmbeddedPostgres
from corefapp.runtime.supervisor import WatchedServer
from tests.paths import REPO
from tests.ports import free_port
from tests.services import _template_cluster, copy_template_cluster

pytestmark = pytest.mark.integration

BACK_WITHIN = 5.0  # seconds from the kill to a working connection

# Starts PostgreSQL and never waits for a child. As a child subreaper it is handed the orphans
# of what it starts, as PID 1 is, so the postmaster is its child however it was started
# (pg_ctl hands it over).
NEVER_REAPS = """
import ctypes, sys, time
from pathlib import Path
ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
from corefapp.runtime.postgres import EmbeddedPostgres
pg = EmbeddedPostgres(Path(sys.argv[1]), port=int(sys.argv[2]), password=sys.argv[3])
pg.start()
print(pg.postmaster_pid(), flush=True)
time.sleep(600)
"""


@pytest.fixture
def cluster():
    base = var_dir() / "test"
    template = _template_cluster(base)
    root = Path(tempfile.mkdtemp(prefix="pg-killed-", dir=base))
    yield copy_template_cluster(template, root)
    shutil.rmtree(root, ignore_errors=True)


def status(pid: int) -> str:
    try:
        return psutil.Process(pid).status()
    except psutil.NoSuchProcess:
        return "gone"


def answers(server: EmbeddedPostgres) -> bool:
    try:
        with psycopg.connect(server.url("postgres"), connect_timeout=1) as connection:
            return connection.execute("SELECT 1").fetchone() == (1,)
    except psycopg.OperationalError:
        return False


def supervise_until_back(server: EmbeddedPostgres, killed: float, lines: list[str]) -> float:
    """What the launcher does (corefapp.runtime.up): look every 0.1 s; seconds since the kill
    until a query answers, or the time given up after (well past the bound)."""
    watched = WatchedServer("PostgreSQL", server, started_at=killed - 60)
    while time.monotonic() - killed < 3 * BACK_WITHIN:
        watched.supervise(lines.append)
        if watched.restart_at is None and answers(server):
            return time.monotonic() - killed
        time.sleep(0.1)
    return time.monotonic() - killed


def test_a_killed_postmaster_nobody_reaps_is_replaced_within_5_s(cluster):
    port, password = free_port(), secrets.token_urlsafe(24)
    parent = subprocess.Popen(
        [sys.executable, "-c", NEVER_REAPS, str(cluster), str(port), password],
        cwd=REPO,
        stdout=subprocess.PIPE,
        text=True,
    )
    server = EmbeddedPostgres(cluster, port=port, password=password)  # the launcher's view
    try:
        assert parent.stdout is not None
        pid = int(parent.stdout.readline())
        assert psutil.Process(pid).ppid() == parent.pid
        os.kill(pid, signal.SIGKILL)
        killed = time.monotonic()
        while status(pid) != psutil.STATUS_ZOMBIE:
            assert time.monotonic() - killed < 5, status(pid)
            time.sleep(0.01)

        lines: list[str] = []
        outage = supervise_until_back(server, killed, lines)

        assert status(pid) == psutil.STATUS_ZOMBIE  # still unreaped: the restart did without
        assert outage < BACK_WITHIN, (outage, lines, server.log_file.read_text()[-2000:])
        assert server.postmaster_pid() != pid
        print(f"\nPostgreSQL killed, its zombie never reaped: back after {outage:.2f} s")
    finally:
        server.stop()
        parent.kill()
        parent.wait(10)


def test_the_starter_is_the_postmasters_parent_and_reaps_it_when_killed(cluster):
    server = EmbeddedPostgres(cluster, port=free_port(), password=secrets.token_urlsafe(24))
    server.start()
    try:
        pid = server.postmaster_pid()
        assert pid is not None
        assert psutil.Process(pid).ppid() == os.getpid()
        os.kill(pid, signal.SIGKILL)
        killed = time.monotonic()
        while server.alive():
            assert time.monotonic() - killed < 5, status(pid)
            time.sleep(0.01)
        assert status(pid) == "gone"  # reaped, no zombie left for anyone else

        lines: list[str] = []
        outage = supervise_until_back(server, killed, lines)
        assert outage < BACK_WITHIN, (outage, lines, server.log_file.read_text()[-2000:])
        print(f"\nPostgreSQL killed under its starter: back after {outage:.2f} s")
    finally:
        server.stop()
