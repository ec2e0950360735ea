"""`make up` watches its embedded PostgreSQL and Redis like its other children: each killed
(`kill -9`) under load is restarted with a line in var/log/up.log. While PostgreSQL is gone,
requests answer a JSON 503 "database_unavailable" within 2 s and /healthz answers within 2 s;
service returns by itself once it is back. A model worker killed mid-run is restarted and its
run taken over and completed.

The tests share one stack (starting one is the costly part), in the order they are written:
the model worker first, on a stack nothing else has been killed in yet."""

from __future__ import annotations

import os
import re
import shutil
import signal
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Self

import psutil
import pytest

from corefapp.runtime.defaults import var_dir
from corefapp.runtime.supervisor import SERVER_FIRST_DELAY
from tests.factories import wait_until
from tests.integration.stack import (
    Launcher,
    child_pid,
    postmaster_pid,
    redis_pid,
    wait_healthy,
    web_worker_pid,
)
from tests.ports import free_port

pytestmark = [pytest.mark.integration, pytest.mark.timeout(540)]

ANSWER_SECONDS = 2.0  # the bound for every answer during an outage
# From a kill -9 of the postmaster to the API answering again: by its parts 2.5-3.5 s (the
# launcher notices within its 0.2 s look, waits its 0.2 s first pause, PostgreSQL recovers in
# 1-2 s, requests pause 1 s after an outage: corefapp/database_outage.py). The bound is not
# that time: at load 8 on 2 cores (the flaky-test run with its burners) one outage took 5.6 s,
# PostgreSQL's own crash recovery slowed like everything else. It catches what this test is
# for, a restart or a reconnect that waits for something: the 35-38 s of a zombie's lock file,
# the pool's retry intervals growing towards 30 s. The test prints each outage's length;
# PostgreSQL's own 5 s from a kill to a connection is tests/integration/test_postgres_killed.py.
POSTGRES_BACK_SECONDS = 10.0
# SUGGEST_HEARTBEAT_STALE_SECONDS for this stack: a dead run is noticed fast (the default is
# 30 s), but a live one beating every 2 s is not taken for dead while the other pytest processes
# load both cores (at 6 s, a fresh-clone run of `make test` failed the taken-over run).
STALE_SECONDS = 15


@pytest.fixture(scope="module")
def launcher():
    root = Path(tempfile.mkdtemp(prefix="integration-", dir=var_dir() / "test"))
    stack = Launcher(
        root / "var",
        free_port(),
        free_port(),
        free_port(),
        extra_env={"SUGGEST_HEARTBEAT_STALE_SECONDS": str(STALE_SECONDS)},
    )
    stack.start()
    try:
        assert wait_healthy(stack, timeout=120)["http_status"] == 200, stack.read_output()
        yield stack
    finally:
        assert stack.stop_with_ctrl_c() == 0, stack.read_output()
        shutil.rmtree(root, ignore_errors=True)


def poll_run(launcher: Launcher, token: str, topic: int, run: int, until, timeout: float) -> dict:
    deadline = time.monotonic() + timeout
    while True:
        _, listing = launcher.api("GET", f"/api/topics/{topic}/suggestion-runs/", token=token)
        found = next(r for r in listing["runs"] if r["run"] == run)
        if until(found):
            return found
        if time.monotonic() > deadline:
            raise AssertionError(f"run {found} after {timeout} s:\n{launcher.read_output()}")
        time.sleep(0.05)


def test_a_killed_model_worker_is_restarted_and_its_run_is_taken_over_and_completed(launcher):
    token = launcher.token("admin")
    _, mine = launcher.api("GET", "/api/assignments/mine/", token=launcher.token("annotator1"))
    # The run must still be running when the worker is killed, so it must do real work:
    # the SciCo demo's backend (minilm) loads MiniLM and encodes every mention, seconds on
    # a CPU. A ChEMU demo topic does not do: while its mention tagger trains (every first
    # start) a chemu run only scores the existing pairs, about 0.2 s now that the worker
    # loads torch at start-up (it used to load it during its first run, which hid this).
    # A real topic, too: suggestions are off on practice topics.
    topic = next(
        row["topic"]["id"]
        for row in mine
        if row["project"]["name"] == "SciCo demo" and not row.get("practice")
    )
    _, listing = launcher.api("GET", f"/api/topics/{topic}/suggestion-runs/", token=token)
    assert listing["backend"] == "minilm", listing
    status, requested = launcher.api(
        "POST", f"/api/topics/{topic}/suggestion-runs/", {}, token=token
    )
    assert status == 201, requested
    run = requested["run"]
    running = poll_run(launcher, token, topic, run, lambda r: r["status"] != "queued", 180)
    assert running["status"] == "running", f"the run ended before the kill: {running}"

    os.kill(child_pid(launcher, "models@%h"), signal.SIGKILL)
    killed = time.monotonic()
    launcher.wait_for_output("models exited unexpectedly (code -9)", 10)
    launcher.wait_for_output("models restarted", 40)
    restarted_after = time.monotonic() - killed
    taken_over = poll_run(launcher, token, topic, run, lambda r: r["attempts"] >= 2, 120)
    taken_over_after = time.monotonic() - killed
    done = poll_run(
        launcher, token, topic, run, lambda r: r["status"] in ("succeeded", "failed"), 240
    )
    done_after = time.monotonic() - killed

    assert done["status"] == "succeeded", (done.get("message"), done, launcher.read_output())
    assert done["attempts"] == 2, done
    assert taken_over["attempts"] == 2
    assert wait_healthy(launcher)["http_status"] == 200  # the rest of the stack never stopped
    output = launcher.read_output()
    assert "error:" not in output, output
    print(
        f"\nmodels worker killed mid-run: restarted after {restarted_after:.1f} s, run taken over "
        f"after {taken_over_after:.1f} s (heartbeat stale after {STALE_SECONDS} s), "
        f"succeeded after {done_after:.1f} s"
    )


def test_a_killed_web_worker_is_on_the_launchers_output_like_every_child(launcher):
    os.kill(web_worker_pid(launcher), signal.SIGKILL)
    # This web worker's own lines: the module's stack has printed other children's exits
    # and restarts already (a killed models worker's matched here before this one's came).
    exited = re.compile(r"web worker \d+ exited unexpectedly \(code -9\)")
    restarted = re.compile(r"web worker \d+ restarted \(pid")
    deadline = time.monotonic() + 30
    while not (exited.search(launcher.read_output()) and restarted.search(launcher.read_output())):
        assert time.monotonic() < deadline, launcher.read_output()
        time.sleep(0.1)
    log = up_log(launcher)
    assert "web worker" in log, log
    assert "exited unexpectedly (code -9)" in log, log
    assert wait_healthy(launcher)["http_status"] == 200


@dataclass
class Answer:
    path: str
    status: int
    body: object
    seconds: float
    at: float


@dataclass
class Load:
    """Clients that keep reading through the API (and one polling /healthz) until stopped."""

    launcher: Launcher
    token: str
    answers: list[Answer] = field(default_factory=list)
    stop: threading.Event = field(default_factory=threading.Event)

    def _loop(self, path: str, token: str | None) -> None:
        while not self.stop.is_set():
            started = time.monotonic()
            try:
                status, body = self.launcher.api("GET", path, token=token)
            except Exception as error:  # noqa: BLE001 - a timeout or a reset is an answer too
                status, body = 0, repr(error)
            self.answers.append(Answer(path, status, body, time.monotonic() - started, started))
            time.sleep(0.05)

    def __enter__(self) -> Self:
        self.threads = [
            threading.Thread(target=self._loop, args=(path, token), daemon=True)
            for path, token in [
                ("/api/assignments/mine/", self.token),
                ("/api/assignments/mine/", self.token),
                ("/api/session/", self.token),
                ("/healthz", None),
            ]
        ]
        for thread in self.threads:
            thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop.set()
        for thread in self.threads:
            thread.join(15)

    def since(self, moment: float) -> list[Answer]:
        return [a for a in list(self.answers) if a.at + a.seconds >= moment]


def up_log(launcher: Launcher) -> str:
    return (launcher.var_dir / "log" / "up.log").read_text()


@dataclass
class Outage:
    """One kill of the postmaster under load, and the answers while it lasted."""

    pid: int
    killed: float
    restarted: float
    back: Answer
    during: list[Answer]
    delay: float  # the launcher's pause before it started PostgreSQL again

    @property
    def seconds(self) -> float:
        return self.back.at + self.back.seconds - self.killed

    @property
    def refused(self) -> list[Answer]:
        return [a for a in self.during if a.path != "/healthz" and a.status == 503]


def postgresql_killed(launcher: Launcher, load: Load, number: int) -> Outage:
    """Kill -9 the postmaster (the `number`th time) and wait until the API is back by itself:
    the next eight API answers (on fresh connections, so both web workers) all 200."""
    killed = time.monotonic()
    pid = postmaster_pid(launcher.var_dir)
    assert pid is not None
    os.kill(pid, signal.SIGKILL)
    launcher.wait_for_output("PostgreSQL exited unexpectedly", 15, count=number)
    launcher.wait_for_output("PostgreSQL restarted", 120, count=number)
    restarted = time.monotonic()
    back = wait_until(
        lambda: (
            len(api := [a for a in load.since(restarted) if a.path != "/healthz"]) >= 8
            and all(a.status == 200 for a in api[-8:])
            and api[-8]
        ),
        "the API did not come back by itself",
        60,
    )
    delays = re.findall(
        r"PostgreSQL exited unexpectedly.*restarting in ([\d.]+) s", launcher.read_output()
    )
    return Outage(
        pid=pid,
        killed=killed,
        restarted=restarted,
        back=back,
        during=[a for a in load.since(killed) if a.at < back.at],
        delay=float(delays[number - 1]),
    )


# Kills at most: an outage shorter than the pool's wait for a connection (1 s) can go unseen,
# each request that meets it waiting and then served once PostgreSQL is back. A loaded
# machine makes that likely (the flaky-test run's second repeat saw no 503), so the test kills
# again until a request has met the outage; the launcher's pause doubles with each quick exit
# (0.2, 0.4, 0.8 s), which makes each outage longer than the one before.
KILLS = 3


def test_a_killed_postgresql_is_restarted_and_requests_meanwhile_get_a_quick_503(launcher):
    token = launcher.token("annotator1")
    outages: list[Outage] = []
    with Load(launcher, token) as load:
        time.sleep(1)  # a second of load before the kill
        while len(outages) < KILLS and not (outages and outages[-1].refused):
            outages.append(postgresql_killed(launcher, load, len(outages) + 1))
    recovery = [  # PostgreSQL's own account of the restart, to say where the time went
        line
        for line in (launcher.var_dir / "postgres.log").read_text().splitlines()[-60:]
        if " LOG: " in line
    ][-12:]

    for outage in outages:
        # the bound is the first pause's; a later kill's longer pause is the launcher's back-off
        bound = POSTGRES_BACK_SECONDS + outage.delay - SERVER_FIRST_DELAY
        assert outage.seconds < bound, (outage.seconds, launcher.read_output(), recovery)
        # The launcher started the postmaster and reaps it: no zombie waits for another parent.
        assert not psutil.pid_exists(outage.pid), psutil.Process(outage.pid).status()
        api = [a for a in outage.during if a.path != "/healthz"]
        assert {a.status for a in api} <= {200, 503}, [a for a in api if a.status not in (200, 503)]
        slow = [a for a in outage.during if a.seconds >= ANSWER_SECONDS]
        assert not slow, slow
    met = outages[-1]
    refused = met.refused
    assert refused, (
        f"no request met {len(outages)} outages: {[(a.path, a.status) for a in met.during]}"
    )
    assert all(a.body["error"] == "database_unavailable" for a in refused), refused
    health = [a for outage in outages for a in outage.during if a.path == "/healthz"]
    assert health
    assert any(a.status == 503 for a in health)
    log = up_log(launcher)
    assert "PostgreSQL exited unexpectedly" in log
    assert "PostgreSQL restarted" in log
    assert wait_healthy(launcher)["http_status"] == 200
    print(
        f"\nPostgreSQL killed {len(outages)} time(s) until a request met the outage: restarted "
        f"after {met.restarted - met.killed:.1f} s, API back {met.back.at - met.restarted:.1f} s "
        f"later (outage {met.seconds:.1f} s), {len(refused)} quick 503s, slowest answer "
        f"{max(a.seconds for a in met.during):.2f} s\n{log}\n" + "\n".join(recovery)
    )


def test_a_killed_redis_is_restarted_and_the_stack_becomes_healthy_again(launcher):
    token = launcher.token("annotator1")
    with Load(launcher, token) as load:
        time.sleep(1)
        pid = redis_pid(launcher)
        killed = time.monotonic()
        os.kill(pid, signal.SIGKILL)
        launcher.wait_for_output("Redis exited unexpectedly", 15)
        launcher.wait_for_output("Redis restarted", 60)
        healthy = wait_healthy(launcher, timeout=90)
    during = load.since(killed)

    assert healthy["http_status"] == 200, healthy
    assert psutil.pid_exists(redis_pid(launcher))
    assert redis_pid(launcher) != pid
    slow = [a for a in during if a.seconds >= ANSWER_SECONDS]
    assert not slow, slow
    assert all(a.status in (200, 503) for a in during), [a for a in during if a.status != 200]
    log = up_log(launcher)
    assert "Redis exited unexpectedly" in log
    assert "Redis restarted" in log
