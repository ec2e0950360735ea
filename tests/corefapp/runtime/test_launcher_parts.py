"""The launcher's supervision back-off and its one-instance lock, without a whole stack."""

from __future__ import annotations

import threading
import time

import pytest

from corefapp.runtime.instance import InstanceLock
from corefapp.runtime.preflight import PreflightError
from corefapp.runtime.supervisor import Child


def exiting_child(tmp_path, code: int = 3) -> Child:
    return Child("worker", ["sh", "-c", f"exit {code}"], {}, tmp_path, tmp_path)


def test_a_child_that_exits_is_restarted_with_a_line_saying_so(tmp_path):
    child = exiting_child(tmp_path)
    said: list[str] = []
    child.start()
    child.proc.wait(5)

    child.supervise(said.append, now=child.started_at + 5)
    child.supervise(said.append, now=child.started_at + 6.1)

    assert said[0].startswith("worker exited unexpectedly (code 3) after 5 s; restarting in 1 s")
    assert said[1].startswith("worker restarted (pid ")
    assert child.restarts == 1
    child.proc.wait(5)


def test_quick_exits_double_the_pause_up_to_30_s_and_a_long_run_resets_it(tmp_path):
    child = exiting_child(tmp_path)
    delays = []
    child.start()
    for _ in range(7):
        child.proc.wait(5)
        child.supervise(lambda line: None, now=child.started_at + 2)
        delays.append(child.delay)
        child.supervise(lambda line: None, now=child.restart_at)
    child.proc.wait(5)
    child.supervise(lambda line: None, now=child.started_at + 120)

    assert delays == [1, 2, 4, 8, 16, 30, 30]
    assert child.delay == 1


def test_a_second_launcher_refuses_to_start_beside_a_running_one(tmp_path):
    running = InstanceLock(tmp_path)
    running.acquire(lambda line: None)
    running.mark("running")
    try:
        with pytest.raises(PreflightError, match="already running"):
            InstanceLock(tmp_path).acquire(lambda line: None)
    finally:
        running.release()


# "stopped" too: release() writes it, then closes the file, which drops the lock; a look
# between the two must wait, not take the holder for a running launcher.
@pytest.mark.parametrize("state", ["stopping", "stopped"])
def test_a_second_launcher_waits_for_one_that_is_stopping(tmp_path, state):
    stopping = InstanceLock(tmp_path)
    stopping.acquire(lambda line: None)
    stopping.mark(state)
    threading.Timer(0.5, stopping.release).start()
    said: list[str] = []
    started = time.monotonic()

    second = InstanceLock(tmp_path)
    second.acquire(said.append)

    assert time.monotonic() - started >= 0.4
    assert "is still stopping; waiting for it" in said[0]
    assert second.holder()[1] == "starting"
    second.release()


def test_the_lock_file_is_never_empty_while_its_state_changes(tmp_path):
    lock = InstanceLock(tmp_path)
    lock.acquire(lambda line: None)
    seen: set[str] = set()
    done = threading.Event()

    def read() -> None:
        while not done.is_set():
            seen.add(lock.path.read_text())

    reader = threading.Thread(target=read)
    reader.start()
    try:
        for _ in range(2000):
            for state in ("running", "stopping", "starting"):
                lock.mark(state)
    finally:
        done.set()
        reader.join(5)
        lock.release()
    assert len(seen) > 1, "the reader saw no change"
    assert "" not in seen
    assert all(len(text.split()) == 2 for text in seen), seen


def test_a_launcher_stopping_too_long_is_an_error_naming_its_pid(tmp_path):
    stopping = InstanceLock(tmp_path)
    stopping.acquire(lambda line: None)
    stopping.mark("stopping")
    try:
        with pytest.raises(PreflightError, match="did not stop within 0 s"):
            InstanceLock(tmp_path).acquire(lambda line: None, wait=0.3)
    finally:
        stopping.release()


class _Server:
    """An embedded server's surface for WatchedServer; `fail_starts` starts fail first (a
    real server that cannot start again is not produced on demand)."""

    def __init__(self, fail_starts: int = 0) -> None:
        self.running = True
        self.fail_starts = fail_starts
        self.starts = 0

    def alive(self) -> bool:
        return self.running

    def start(self) -> None:
        self.starts += 1
        if self.fail_starts:
            self.fail_starts -= 1
            raise RuntimeError("PostgreSQL did not start: shared memory still in use\nmore")
        self.running = True


def test_a_gone_server_is_restarted_after_a_pause_that_doubles_while_starts_fail():
    from corefapp.runtime.supervisor import WatchedServer

    lines: list[str] = []
    server = _Server(fail_starts=2)
    watched = WatchedServer("PostgreSQL", server, started_at=0.0)
    server.running = False

    watched.supervise(lines.append, now=100.0)  # noticed: restart in 0.2 s
    watched.supervise(lines.append, now=100.1)  # not yet
    watched.supervise(lines.append, now=100.25)  # fails: again in 0.4 s
    watched.supervise(lines.append, now=100.7)  # fails: again in 0.8 s
    watched.supervise(lines.append, now=101.55)  # starts

    failed = "PostgreSQL did not start again (PostgreSQL did not start: shared memory still in use)"
    assert server.starts == 3
    assert server.running
    assert lines == [
        "PostgreSQL exited unexpectedly after 100 s; restarting in 0.2 s",
        f"{failed}; restarting in 0.4 s",
        f"{failed}; restarting in 0.8 s",
        "PostgreSQL restarted (restart 3)",
    ]


def test_lines_a_child_reports_reach_the_launcher_whole():
    import os

    from corefapp.runtime.supervisor import REPORT_FD, Reports, report

    reports = Reports()
    said: list[str] = []
    try:
        report("web worker 1 exited unexpectedly (code -9)", {REPORT_FD: str(reports.write_fd)})
        os.write(reports.write_fd, b"web worker 1 rest")  # a line still being written
        reports.drain(said.append)
        assert said == ["web worker 1 exited unexpectedly (code -9)"]
        os.write(reports.write_fd, b"arted (pid 7, restart 1)\n")
        reports.drain(said.append)
        reports.drain(said.append)  # nothing new: no wait, no line
    finally:
        reports.close()
    assert said[1:] == ["web worker 1 restarted (pid 7, restart 1)"]
    report("no launcher listens", {})  # without a pipe: nothing, no error
