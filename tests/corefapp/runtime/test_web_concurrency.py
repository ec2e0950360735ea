"""WEB_CONCURRENCY on real processes: the web launcher (corefapp.runtime.web) with two Daphne
workers on one port, against the test session's PostgreSQL and Redis."""

from __future__ import annotations

import asyncio
import http.client
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest
import websockets
from django.conf import settings
from django.db import connection
from django.test import Client
from rest_framework.authtoken.models import Token

from corefapp.private_files import PRIVATE_UMASK
from corefapp.runtime.supervisor import Reports
from corefapp.runtime.web import default_concurrency, web_concurrency
from tests.factories import UserFactory, assign, make_topic, mention_ids
from tests.ports import free_port

# Websockets and two real workers: a hang fails within minutes, not the run's 600 s.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(180)]

REPO = Path(__file__).resolve().parents[3]


class Web:
    """`python -m corefapp.runtime.web` with WEB_CONCURRENCY=2, its output kept for messages,
    started as make up starts it: with a pipe for its workers' exit lines (`reports`)."""

    def __init__(self, services, log: Path) -> None:
        self.port = free_port()
        self.log = log
        self.reports = Reports()
        env = dict(
            os.environ,
            DATABASE_URL=services.postgres.url(connection.settings_dict["NAME"]),
            REDIS_URL=services.redis_url,
            SECRET_KEY=settings.SECRET_KEY,  # the test client signs the session cookie
            DEBUG="false",
            ALLOWED_HOSTS="127.0.0.1,localhost",
            DJANGO_SETTINGS_MODULE="corefapp.settings",
            WEB_CONCURRENCY="2",
            **self.reports.child_env(),
        )
        with open(log, "wb") as out:  # the launcher keeps its own copy
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "corefapp.runtime.web", "-b", "127.0.0.1"]
                + ["-p", str(self.port)],
                cwd=REPO,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
                pass_fds=(self.reports.write_fd,),
            )

    def workers(self) -> list[psutil.Process]:
        return psutil.Process(self.proc.pid).children()

    def wait_for_workers(self, timeout: float = 120, besides: set[int] = frozenset()) -> set[int]:
        """The pids of the two workers, once both answer on the port."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            assert self.proc.poll() is None, self.output()
            pids = {worker.pid for worker in self.workers()} - besides
            if len(pids) == 2 and pids <= self.answering(connections=8):
                return pids
            time.sleep(0.3)
        raise AssertionError(f"the two workers did not answer:\n{self.output()}")

    def answering(self, connections: int) -> set[int]:
        """`serving`, while the workers start: each worker listens on a socket of its own
        (SO_REUSEPORT) made before it starts, so a connection can wait in the queue of one
        still loading Django; on a loaded machine that outlasts a request's 20 s (seen in
        test_restore_refuses_writes' set-up). Not answering yet is no answer, not an error."""
        try:
            return self.serving(connections)
        except (OSError, http.client.HTTPException):
            return set()

    def serving(self, connections: int, timeout: float = 20) -> set[int]:
        """The pids of the workers that answered `connections` fresh connections."""
        pids = set()
        for _ in range(connections):
            conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
            try:
                conn.request("GET", "/api/session/")
                response = conn.getresponse()
                response.read()
                assert response.status == 200, response.status
                pids.add(self.owner(conn.sock.getsockname()[1]))
            finally:
                conn.close()
        return pids - {None}

    def owner(self, client_port: int) -> int | None:
        """The worker holding the server side of the connection from `client_port`."""
        for worker in self.workers():
            for sock in worker.net_connections(kind="tcp"):
                if sock.raddr and sock.raddr.port == client_port:
                    return worker.pid
        return None

    def output(self) -> str:
        return self.log.read_text(errors="replace")[-4000:]

    def stop(self) -> None:
        self.proc.send_signal(signal.SIGTERM)
        self.proc.wait(30)
        self.reports.close()

    def reported(self, text: str, timeout: float = 30) -> list[str]:
        """The lines make up's launcher would print, once one holds `text`."""
        lines: list[str] = []
        deadline = time.monotonic() + timeout
        while not any(text in line for line in lines):
            assert time.monotonic() < deadline, (lines, self.output())
            self.reports.drain(lines.append)
            time.sleep(0.05)
        return lines


def umask(pid: int) -> int:
    status = Path(f"/proc/{pid}/status").read_text()
    return int(
        next(line for line in status.splitlines() if line.startswith("Umask:")).split()[1], 8
    )


@pytest.fixture
def web(services, tmp_path):
    server = Web(services, tmp_path / "web.log")
    yield server
    workers = server.workers()
    server.stop()
    assert not [w for w in workers if w.is_running() and w.status() != psutil.STATUS_ZOMBIE]


def test_web_concurrency_defaults_to_the_cores_and_refuses_nonsense():
    assert web_concurrency({}) == default_concurrency() >= 1
    assert web_concurrency({"WEB_CONCURRENCY": "3"}) == 3
    with pytest.raises(SystemExit, match="whole number"):
        web_concurrency({"WEB_CONCURRENCY": "two"})
    with pytest.raises(SystemExit, match="1 or more"):
        web_concurrency({"WEB_CONCURRENCY": "0"})


def test_two_workers_serve_one_port_and_a_socket_on_one_hears_an_operation_sent_to_the_other(web):
    pids = web.wait_for_workers()
    annotator = UserFactory()
    topic = make_topic()
    _, annotation = assign(topic, annotator)
    first_mention = mention_ids(topic)[0]
    client = Client()
    client.force_login(annotator)
    cookie = f"sessionid={client.cookies['sessionid'].value}"
    token = Token.objects.create(user=annotator).key

    async def scenario():
        socket = await websockets.connect(
            f"ws://127.0.0.1:{web.port}/ws/annotations/{annotation.pk}/",
            origin=f"http://localhost:{web.port}",
            additional_headers={"Cookie": cookie},
        )
        try:
            return await exchange(socket)
        finally:
            await socket.close()

    async def exchange(socket):
        listener = web.owner(socket.local_address[1])
        # A fresh connection until the kernel gives one to the other worker.
        for _ in range(50):
            conn = http.client.HTTPConnection("127.0.0.1", web.port, timeout=10)
            conn.connect()
            await asyncio.sleep(0.05)  # the worker accepts it
            writer = web.owner(conn.sock.getsockname()[1])
            if writer not in (None, listener):
                break
            conn.close()
        else:
            raise AssertionError("no connection reached the second worker")
        body = {
            "expected_version": 0,
            "operation": {"op": "assign", "mention": first_mention, "cluster": None},
        }
        headers = {"Authorization": f"Token {token}", "Content-Type": "application/json"}
        conn.request(
            "POST", f"/api/annotations/{annotation.pk}/operations/", json.dumps(body), headers
        )
        response = conn.getresponse()
        answer = json.loads(response.read())
        assert response.status == 200, answer
        heard = json.loads(await asyncio.wait_for(socket.recv(), 10))
        return listener, writer, answer, heard

    listener, writer, answer, heard = asyncio.run(scenario())

    assert {listener, writer} == pids
    assert heard["type"] == "applied"
    assert heard["operation_id"] == answer["operation_id"]
    assert heard["version"] == 1


@pytest.mark.timeout(420)  # two worker start-ups on a loaded machine, each up to 120 s
def test_a_killed_worker_is_restarted_and_the_port_keeps_answering(web):
    pids = web.wait_for_workers()
    killed = min(pids)
    os.kill(killed, signal.SIGKILL)

    # Every request is answered: the survivor's at once; one that reaches the killed worker's
    # socket waits in its queue until the restarted worker takes it: after its start-up, which
    # on a loaded machine (CPU burners beside three pytest processes) outlasted 20 s.
    assert web.serving(connections=6, timeout=120)
    new_pids = web.wait_for_workers(besides={killed})

    assert killed not in new_pids
    assert (pids - {killed}) <= new_pids
    assert "web worker" in web.output()
    assert "exited unexpectedly (code -9)" in web.output()
    assert "restarted" in web.output()
    # ...and on make up's output, as every other child's exit.
    reported = web.reported("restarted")
    assert any(
        line.startswith("web worker ") and "exited unexpectedly (code -9)" in line
        for line in reported
    ), reported
    worker_pids = {worker.pid for worker in web.workers()}
    # Private files whatever umask the web server was started with (this one inherits pytest's).
    assert {umask(pid) for pid in [web.proc.pid, *worker_pids]} == {PRIVATE_UMASK}
    assert all("COREFAPP_REPORT_FD" not in psutil.Process(pid).environ() for pid in worker_pids)
