"""PostgreSQL really stopped under a running Daphne: /healthz says the database is down (and
answers), and once PostgreSQL is back the very first request that reads the database through
the pool succeeds (the pool checks connections before lending them; without that, each dead
pooled connection failed one request). The server here is this test's own copy of the
session's template cluster, so stopping it disturbs nobody else."""

from __future__ import annotations

import json
import os
import secrets
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from django.conf import settings

from corefapp.runtime.defaults import var_dir
from corefapp.runtime.postgres import EmbeddedPostgres
from tests.e2e.server import REPO, start_daphne
from tests.ports import free_port
from tests.services import _template_cluster, copy_template_cluster
from tests.workers import LOGS

pytestmark = pytest.mark.integration


@pytest.fixture
def postgres():
    base = var_dir() / "test"
    template = _template_cluster(base)
    root = Path(tempfile.mkdtemp(prefix="pg-outage-", dir=base))
    data = copy_template_cluster(template, root)
    server = EmbeddedPostgres(data, port=free_port(), password=secrets.token_urlsafe(24))
    server.start()
    # Only the sessions table: the requests below read sessions and nothing else.
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "sessions", "--no-input"],
        cwd=REPO,
        env={**os.environ, "DATABASE_URL": server.url()},
        check=True,
        capture_output=True,
    )
    yield server
    server.stop()
    shutil.rmtree(root, ignore_errors=True)


def health(url: str) -> tuple[int, dict]:
    try:
        with urllib.request.urlopen(f"{url}/healthz", timeout=20) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def session_status(url: str) -> int:
    """GET /api/session/ with a session cookie: the session middleware reads it from the
    database through the pool."""
    request = urllib.request.Request(
        f"{url}/api/session/", headers={"Cookie": "sessionid=" + "x" * 32}
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def test_healthz_follows_postgresql_going_down_and_coming_back(services, postgres):
    daphne = start_daphne(
        database_url=postgres.url(),
        redis_url=services.redis_url,
        log_dir=LOGS,
        secret_key=settings.SECRET_KEY,
    )
    try:
        assert [session_status(daphne.url) for _ in range(3)] == [200, 200, 200]
        _, before = health(daphne.url)
        assert before["checks"]["database"]["ok"] is True, before

        postgres.stop()
        status, during = health(daphne.url)
        assert status == 503
        assert during["checks"]["database"]["ok"] is False, during
        assert during["checks"]["redis"]["ok"] is True

        postgres.start()
        assert session_status(daphne.url) == 200
        _, after = health(daphne.url)
        assert after["checks"]["database"]["ok"] is True, after
    finally:
        daphne.stop()


def timed_get(url: str, path: str) -> tuple[int, dict | None, float]:
    started = time.monotonic()
    request = urllib.request.Request(f"{url}{path}", headers={"Cookie": "sessionid=" + "x" * 32})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            status, body = response.status, response.read()
    except urllib.error.HTTPError as error:
        status, body = error.code, error.read()
    try:
        parsed = json.loads(body)
    except ValueError:
        parsed = None
    return status, parsed, time.monotonic() - started


def test_with_postgresql_down_forty_requests_at_once_get_a_json_503_within_two_seconds(
    services, postgres
):
    daphne = start_daphne(
        database_url=postgres.url(),
        redis_url=services.redis_url,
        log_dir=LOGS,
        secret_key=settings.SECRET_KEY,
    )
    try:
        assert session_status(daphne.url) == 200
        postgres.stop()
        # More than Daphne's 20 threads: none may hold a thread for the pool's timeout.
        with ThreadPoolExecutor(40) as pool:
            answers = list(pool.map(lambda _: timed_get(daphne.url, "/api/session/"), range(40)))
        health = timed_get(daphne.url, "/healthz")

        postgres.start()
        deadline = time.monotonic() + 10
        while session_status(daphne.url) != 200:
            assert time.monotonic() < deadline, "service did not come back by itself"
            time.sleep(0.2)
    finally:
        daphne.stop()

    assert {status for status, _, _ in answers} == {503}, answers
    assert {body["error"] for _, body, _ in answers} == {"database_unavailable"}
    assert max(seconds for _, _, seconds in answers) < 2.0, sorted(s for _, _, s in answers)
    assert health[0] == 503, health
    assert health[2] < 2.0, health
