"""Load and faults: writing clients on a whole `make up` stack while its parts are killed.

One stack as `make up` runs it (the launcher `python -m corefapp.runtime.up` on a var folder
and ports of its own, two web workers, tests/integration/stack.py), W annotators each sending
note changes to their own annotation of a SciCo demo topic as fast as answers come. Meanwhile
each of these is killed with SIGKILL, one at a time, and restarted by the launcher: a web
worker, the default Celery worker, the models worker, Redis and the PostgreSQL postmaster.
A client retries a refused or broken write after 0.1 s (the browsers' edit queue waits the
503's Retry-After, 2 s, instead), so the figures show when service is back, not a back-off.

Per kill: seconds until the launcher said it restarted it, until the first write sent after
the kill was acknowledged, until every client had one acknowledged, and how long /healthz
(polled every 0.25 s) answered something else than 200; the error answers and the slowest
answer from the kill to the next one. At the end the operation log is read from PostgreSQL:
every acknowledged operation (HTTP 200 with its id and version) must be in it, and each
annotation's versions must run 1..n. Goals: nothing lost, no gap, no answer but 200, 409 and
503, every kill recovered, PostgreSQL back within 5 s.

    python -m bench faults
"""

from __future__ import annotations

import http.client
import json
import os
import re
import shutil
import signal
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from bench.smoke import SMOKE, size, verdict

WRITERS = size(8, 2)
SECONDS = size(120.0, 6.0)  # the writers' whole run, at least
WARM_UP = size(10.0, 2.0)  # writing before the first kill
PAUSE = size(12.0, 1.0)  # writing between a recovery and the next kill
RECOVERY_LIMIT = 120.0  # a kill not recovered by then is reported as such
POSTGRES_BACK_SECONDS = 5.0  # everything waits on the database: back within 5 s
RETRY_SECONDS = 0.1
PASSWORD = "integration-pw"  # tests/integration/stack.py DEMO_PASSWORD: Launcher.token() signs in


@dataclass
class Writer:
    """One annotator sending note changes to a cluster of their own annotation."""

    port: int
    token: str
    annotation: int
    cluster: int
    version: int
    acked: list[tuple[int, int, float]] = field(default_factory=list)  # (id, version, sent)
    # Every answer: (sent, answered, what): the HTTP status, or the exception's name.
    answers: list[tuple[float, float, int | str]] = field(default_factory=list)
    refusals: Counter[str] = field(default_factory=Counter)
    longest_wait: float = 0.0  # first try of a write to its acknowledgment, retries included

    def run(self, stop: threading.Event, deadline: float) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        headers = {"Authorization": f"Token {self.token}", "Content-Type": "application/json"}
        n, first_try = 0, None
        while not stop.is_set() and time.monotonic() < deadline:
            body = {
                "expected_version": self.version,
                "operation": {"op": "set_note", "cluster": self.cluster, "note": f"note {n}"},
            }
            sent = time.monotonic()
            first_try = first_try or sent
            try:
                conn.request(
                    "POST",
                    f"/api/annotations/{self.annotation}/operations/",
                    json.dumps(body),
                    headers,
                )
                response = conn.getresponse()
                status, answer = response.status, json.loads(response.read() or b"null")
            except (OSError, http.client.HTTPException, ValueError) as error:
                self.answers.append((sent, time.monotonic(), type(error).__name__))
                self.refusals[type(error).__name__] += 1
                conn.close()  # the next request connects again
                time.sleep(RETRY_SECONDS)
                continue
            answered = time.monotonic()
            self.answers.append((sent, answered, status))
            if status == 200:
                self.acked.append((answer["operation_id"], answer["version"], sent))
                self.version = answer["version"]
                self.longest_wait = max(self.longest_wait, answered - first_try)
                n, first_try = n + 1, None
                continue
            code = answer.get("error") if isinstance(answer, dict) else None
            self.refusals[f"{status} {code}"] += 1
            if status == 409:  # an earlier try was applied but its answer was lost
                self.version = answer["current_version"]
                n += 1
            time.sleep(RETRY_SECONDS)
        conn.close()


@dataclass
class Health:
    """/healthz every 0.25 s on a fresh connection: (sent, answered, status, what failed)."""

    port: int
    answers: list[tuple[float, float, int, str]] = field(default_factory=list)

    def run(self, stop: threading.Event, deadline: float) -> None:
        while not stop.is_set() and time.monotonic() < deadline:
            sent = time.monotonic()
            conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
            try:
                conn.request("GET", "/healthz")
                response = conn.getresponse()
                status, body = response.status, json.loads(response.read() or b"{}")
                checks = body.get("checks", {}) if isinstance(body, dict) else {}
                failed = ",".join(n for n, c in checks.items() if not c.get("ok")) or "-"
            except (OSError, http.client.HTTPException, ValueError) as error:
                status, failed = 0, type(error).__name__
            finally:
                conn.close()
            self.answers.append((sent, time.monotonic(), status, failed))
            time.sleep(0.25)


@dataclass(frozen=True)
class Target:
    name: str
    restarted: str  # the launcher's line once it started it again (a regular expression)
    pid: Callable[..., int | None]


def _targets() -> list[Target]:
    from tests.integration.stack import child_pid, postmaster_pid, redis_pid, web_worker_pid

    every = [
        Target("web worker", r"web worker \d+ restarted", web_worker_pid),
        Target("Celery worker", r"(?m)^worker restarted", lambda s: child_pid(s, "default@%h")),
        Target("models worker", r"(?m)^models restarted", lambda s: child_pid(s, "models@%h")),
        Target("Redis", r"(?m)^Redis restarted", redis_pid),
        Target("PostgreSQL", r"(?m)^PostgreSQL restarted", lambda s: postmaster_pid(s.var_dir)),
    ]
    # A smoke run: the one kill every other part depends on.
    return size(every, every[-1:])


@dataclass
class Kill:
    target: str
    pid: int
    at: float
    restarted: float | None = None
    until: float = float("inf")  # the next kill, or the end
    launcher_lines: list[str] = field(default_factory=list)


def _setup_writers(stack, port: int) -> list[Writer]:
    """W new annotators, each assigned the same SciCo demo topic (own annotations), each with
    one cluster whose note they change: the cheapest operation, so the most of them."""
    admin = stack.token("admin")
    _, mine = stack.api("GET", "/api/assignments/mine/", token=stack.token("annotator1"))
    row = next(
        r
        for r in mine
        if r["project"]["name"] == "SciCo demo" and not r.get("practice") and not r.get("locked")
    )
    topic, project = row["topic"]["id"], row["project"]["id"]
    users = []
    for i in range(WRITERS):
        status, user = stack.api(
            "POST", "/api/users/", {"username": f"faults{i}", "password": PASSWORD}, token=admin
        )
        assert status == 201, user
        users.append(user["id"])
    status, created = stack.api(
        "POST", "/api/assignments/", {"project": project, "topics": [topic], "users": users}, admin
    )
    assert status == 201, created
    writers = []
    for i in range(WRITERS):
        token = stack.token(f"faults{i}")
        _, rows = stack.api("GET", "/api/assignments/mine/", token=token)
        assignment = next(r for r in rows if r["topic"]["id"] == topic)
        _, payload = stack.api("GET", f"/api/topics/{topic}/", token=token)
        status, applied = stack.api(
            "POST",
            f"/api/annotations/{assignment['annotation']}/operations/",
            {
                "expected_version": assignment["version"],
                "operation": {
                    "op": "assign",
                    "mention": payload["mentions"][0]["id"],
                    "cluster": None,
                },
            },
            token,
        )
        assert status == 200, applied
        writer = Writer(
            port,
            token,
            assignment["annotation"],
            applied["created"]["cluster"],
            applied["version"],
        )
        writer.acked.append((applied["operation_id"], applied["version"], time.monotonic()))
        writers.append(writer)
    return writers


def _kill_and_wait(stack, target: Target, writers: list[Writer], health: Health) -> Kill:
    """SIGKILL the target; return once the launcher restarted it, /healthz answered 200 to a
    request sent after that, and every writer had a write acknowledged that it sent after the
    kill (or after RECOVERY_LIMIT)."""
    pid = target.pid(stack)
    assert pid is not None, f"no {target.name} to kill"
    seen = len(stack.read_output())
    os.kill(pid, signal.SIGKILL)
    kill = Kill(target.name, pid, time.monotonic())
    while time.monotonic() - kill.at < RECOVERY_LIMIT:
        if kill.restarted is None and re.search(target.restarted, stack.read_output()[seen:]):
            kill.restarted = time.monotonic()
        # Acknowledgments are appended in the order sent: the last one tells.
        writing = all(w.acked[-1][2] >= kill.at for w in writers)
        healthy = kill.restarted is not None and any(
            sent >= kill.restarted and status == 200 for sent, _, status, _ in health.answers[-8:]
        )
        if writing and healthy:
            break
        time.sleep(0.1)
    kill.launcher_lines = [
        line.strip() for line in stack.read_output()[seen:].splitlines() if line.strip()
    ]
    return kill


def _acknowledged_times(writers: list[Writer], kill: Kill) -> tuple[float | None, float | None]:
    """(first, every writer's first) acknowledgment of a write sent after the kill, as answered
    (the poll above sees them up to 0.1 s late)."""
    firsts = []
    for writer in writers:
        answered = [
            done for sent, done, status in writer.answers if sent >= kill.at and status == 200
        ]
        firsts.append(min(answered) if answered else None)
    known = [t for t in firsts if t is not None]
    return (
        min(known) - kill.at if known else None,
        max(known) - kill.at if len(known) == len(firsts) else None,
    )


def _health_down(health: Health, kill: Kill) -> tuple[float, Counter[str]]:
    """Seconds from the first answer but 200 after the kill to the last one's end (0: never
    down), and what failed in those answers (a check's name, or the client's exception)."""
    window = [a for a in health.answers if kill.at <= a[1] < kill.until]
    down = [a for a in window if a[2] != 200]
    if not down:
        return 0.0, Counter()
    return down[-1][1] - down[0][0], Counter(f"{a[2]} {a[3]}" for a in down)


@dataclass
class Log:
    """What the operation log in PostgreSQL says of the acknowledged operations."""

    lost: list[tuple[int, int, float]]  # acknowledged (id, version, sent) not in the log
    gaps: int  # annotations whose log versions do not run 1..n
    unacknowledged: int  # in the log, never acknowledged (applied, the answer lost)


def _read_log(stack, pg_port: int, writers: list[Writer]) -> Log:
    import psycopg

    password = (stack.var_dir / "postgres.password").read_text().strip()
    deadline = time.monotonic() + 60
    while True:  # PostgreSQL may still be coming back from the last kill
        try:
            conn = psycopg.connect(
                host="127.0.0.1",
                port=pg_port,
                user="postgres",
                password=password,
                dbname="corefapp",
                connect_timeout=5,
            )
            break
        except psycopg.OperationalError:
            if time.monotonic() > deadline:
                raise
            time.sleep(1)
    log = Log([], 0, 0)
    with conn:
        for writer in writers:
            logged = conn.execute(
                "SELECT id, version FROM annotation_operation WHERE annotation_id = %s "
                "ORDER BY version",
                (writer.annotation,),
            ).fetchall()
            row = conn.execute(
                "SELECT version FROM annotation_annotation WHERE id = %s", (writer.annotation,)
            ).fetchone()
            assert row is not None, writer.annotation
            version = row[0]
            acked = {(op, v) for op, v, _ in writer.acked}
            in_log = set(logged)
            log.lost += [a for a in writer.acked if (a[0], a[1]) not in in_log]
            log.unacknowledged += len(in_log - acked)
            if [v for _, v in logged] != list(range(1, version + 1)):
                log.gaps += 1
    return log


def _cell(seconds: float | None) -> str:
    return "never" if seconds is None else f"{seconds:.2f}"


def _print(kills: list[Kill], writers: list[Writer], health: Health, wall: float, log: Log) -> bool:
    print(
        f"\n{'killed (SIGKILL)':<16}{'pid':>8}{'restarted':>11}{'1st write':>11}"
        f"{'all writers':>13}{'healthz down':>14}{'errors':>8}{'slowest':>9}"
    )
    recovered = True
    postgres_back = True
    for kill in kills:
        first, every = _acknowledged_times(writers, kill)
        # By the time answered: a write in flight at the kill belongs to it.
        window = [a for w in writers for a in w.answers if kill.at <= a[1] < kill.until]
        errors = sum(1 for a in window if a[2] != 200)
        slowest = max((done - sent for sent, done, _ in window), default=0.0)
        restarted = None if kill.restarted is None else kill.restarted - kill.at
        print(
            f"{kill.target:<16}{kill.pid:>8}{_cell(restarted):>11}{_cell(first):>11}"
            f"{_cell(every):>13}{_health_down(health, kill)[0]:>14.2f}{errors:>8}{slowest:>9.2f}"
        )
        recovered = recovered and None not in (restarted, first, every)
        if kill.target == "PostgreSQL":
            postgres_back = every is not None and every < POSTGRES_BACK_SECONDS
    print(
        "(seconds from the kill: the launcher's 'restarted' line, the first acknowledged write "
        "sent after the kill, every writer's first; healthz down: from its first answer but 200 "
        "to the end of its last; errors and the slowest answer: writes answered until the next "
        "kill)"
    )
    acknowledged = sum(len(w.acked) for w in writers)
    refusals = sum((w.refusals for w in writers), Counter())
    # HTTP answers but 409 (after a lost answer) and 503 (an outage); a broken connection is
    # expected when its web worker is killed.
    unexpected = {
        what: n
        for what, n in refusals.items()
        if what.split()[0].isdigit() and what.split()[0] not in ("409", "503")
    }
    slowest = max((done - sent for w in writers for sent, done, _ in w.answers), default=0.0)
    print(
        f"\n{len(writers)} writers for {wall:.0f} s: {acknowledged} operations acknowledged "
        f"({acknowledged / wall:.0f}/s), {len(log.lost)} lost, {log.gaps} annotation logs "
        f"with a gap, {log.unacknowledged} applied whose answer was lost (a later 409 said so)"
    )
    print(
        f"error answers: {sum(refusals.values())} "
        f"({', '.join(f'{what}: {n}' for what, n in refusals.most_common()) or 'none'}); "
        f"slowest answer {slowest:.2f} s; longest wait of a write (retries included) "
        f"{max(w.longest_wait for w in writers):.2f} s"
    )
    for kill in kills:
        print(f"  launcher after the {kill.target} kill: " + " | ".join(kill.launcher_lines[:6]))
        failed = _health_down(health, kill)[1]
        if failed:
            print(f"    /healthz meanwhile (status failed-check: answers): {dict(failed)}")
    if log.lost:
        after = Counter(
            next((k.target for k in reversed(kills) if k.at <= sent), "no kill")
            for _, _, sent in log.lost
        )
        print(f"LOST, sent after the kill of: {dict(after)}; the first: {log.lost[:5]}")
    goals = recovered and postgres_back and not unexpected
    if not goals:
        print(
            f"goals missed: every kill recovered {recovered}, PostgreSQL within "
            f"{POSTGRES_BACK_SECONDS:.0f} s {postgres_back}, unexpected answers {unexpected}"
        )
    return goals and not log.lost and not log.gaps


def main() -> int:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "corefapp.settings")  # stack_models()
    from corefapp.runtime.defaults import var_dir
    from tests.integration.stack import Launcher, wait_healthy
    from tests.ports import free_port

    (var_dir() / "test").mkdir(parents=True, exist_ok=True)
    root = Path(tempfile.mkdtemp(prefix="faults-", dir=var_dir() / "test"))
    port, pg_port = free_port(), free_port()
    # Two web workers: a killed one's clients go on with the other, as in production.
    stack = Launcher(
        root / "var",
        port,
        pg_port,
        free_port(),
        extra_env={"WEB_CONCURRENCY": os.environ.get("WEB_CONCURRENCY", "2")},
    )
    stop = threading.Event()
    threads: list[threading.Thread] = []
    try:
        print(f"starting the stack in {root} ...", flush=True)
        print(f"  ready after {stack.start():.0f} s", flush=True)
        assert wait_healthy(stack, timeout=120)["http_status"] == 200, stack.read_output()
        writers = _setup_writers(stack, port)
        health = Health(port)
        started = time.monotonic()
        deadline = started + SECONDS + len(_targets()) * (PAUSE + RECOVERY_LIMIT)
        runners: list[Writer | Health] = [*writers, health]
        threads = [
            threading.Thread(target=r.run, args=(stop, deadline), daemon=True) for r in runners
        ]
        for thread in threads:
            thread.start()
        kills: list[Kill] = []
        time.sleep(WARM_UP)
        for target in _targets():
            kill = _kill_and_wait(stack, target, writers, health)
            if kills:
                kills[-1].until = kill.at
            kills.append(kill)
            print(
                f"  {target.name} killed: every writer acknowledged again after "
                f"{_cell(_acknowledged_times(writers, kill)[1])} s",
                flush=True,
            )
            end_pause = time.monotonic() + PAUSE
            while time.monotonic() < end_pause:
                stack.read_output()  # keeps the launcher's pipe from filling
                time.sleep(0.2)
        while time.monotonic() < started + SECONDS:
            stack.read_output()
            time.sleep(0.2)
        stop.set()
        for thread in threads:
            thread.join(60)
        wall = time.monotonic() - started
        kills[-1].until = time.monotonic()
        log = _read_log(stack, pg_port, writers)
        ok = _print(kills, writers, health, wall, log)
        if SMOKE:
            return 1 if log.lost or log.gaps else 0  # losing a write fails even a smoke run
        return verdict(ok)
    finally:
        stop.set()
        for thread in threads:
            thread.join(60)
        if stack.proc is not None:
            code = stack.stop_with_ctrl_c()
            if code:
                print(f"the launcher exited with {code}:\n{stack.read_output()[-3000:]}")
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
