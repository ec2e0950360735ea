"""The launcher's children (web server, workers) and its embedded servers (PostgreSQL,
Redis): started, watched, restarted when they exit.

A child or server that exits on its own (a crash, an OOM kill, a `kill -9`) is restarted after
a pause that doubles with each quick exit (1 s, 2 s, ... 30 s) and starts again from 1 s once
it has run for a minute; a server that fails to start again is retried the same way. Every exit
and restart is one line on the launcher's output (and in var/log/up.log), also a web worker's,
which the web server's own launcher restarts and reports up a pipe (Reports). Only the
launcher's own stop (Ctrl-C) ends them for good.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

# A child that supervises processes of its own (the web server's launcher) writes its exit and
# restart lines to this inherited file descriptor too, for make up's launcher to print.
REPORT_FD = "COREFAPP_REPORT_FD"

FIRST_DELAY = 1.0
MAX_DELAY = 30.0
STABLE_AFTER = 60.0


# An embedded server is restarted sooner: everything waits on the database (back
# within 5 s of a kill), and a server that keeps failing still backs off, from here, to 30 s.
SERVER_FIRST_DELAY = 0.2


def next_delay(previous: float, ran: float, first: float = FIRST_DELAY) -> float:
    """The pause before the next restart: doubled after a quick exit, else the first one."""
    quick = previous > 0 and ran < STABLE_AFTER
    return min(MAX_DELAY, previous * 2) if quick else first


def kill_group(pid: int) -> None:
    """SIGKILL a child's whole session (Celery's pool processes outlive a killed parent)."""
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


@dataclass
class Child:
    name: str
    argv: list[str]
    env: dict[str, str]
    cwd: Path
    logs: Path
    proc: subprocess.Popen[bytes] | None = None
    started_at: float = 0.0
    restarts: int = 0
    delay: float = 0.0
    restart_at: float | None = field(default=None)
    # A web worker shares its parent's output and session (so killing the parent's group ends
    # it too) and inherits the listening socket; make up's children get their own of each.
    inherit_output: bool = False
    own_session: bool = True
    pass_fds: tuple[int, ...] = ()
    preexec_fn: Callable[[], object] | None = None

    @property
    def log_path(self) -> Path:
        return self.logs / f"{self.name}.log"

    def start(self) -> None:
        with contextlib.ExitStack() as stack:
            # The child keeps its own copy of the log; a web worker writes to its launcher's.
            log = None if self.inherit_output else stack.enter_context(open(self.log_path, "ab"))
            self.proc = subprocess.Popen(
                self.argv,
                env=self.env,
                cwd=self.cwd,
                stdout=log,
                stderr=None if log is None else subprocess.STDOUT,
                # Its own session: a Ctrl-C in the terminal reaches the launcher alone, and the
                # child's own children can be killed with it as one group.
                start_new_session=self.own_session,
                pass_fds=self.pass_fds,
                preexec_fn=self.preexec_fn,  # noqa: PLW1509 - launchers are single-threaded
            )
        self.started_at = time.monotonic()

    def supervise(self, say: Callable[[str], None], now: float | None = None) -> None:
        """One look: schedule a restart when the child has exited, restart it when due."""
        now = time.monotonic() if now is None else now
        if self.restart_at is not None:
            if now >= self.restart_at:
                self.restart_at = None
                self.start()
                assert self.proc is not None
                say(f"{self.name} restarted (pid {self.proc.pid}, restart {self.restarts})")
            return
        if self.proc is None or self.proc.poll() is None:
            return
        ran = now - self.started_at
        if self.own_session:
            kill_group(self.proc.pid)
        self.delay = next_delay(self.delay, ran)
        self.restarts += 1
        self.restart_at = now + self.delay
        say(
            f"{self.name} exited unexpectedly (code {self.proc.returncode}) after {ran:.0f} s; "
            f"restarting in {self.delay:.0f} s"
            + ("" if self.inherit_output else f" (see {self.log_path})")
        )

    def terminate(self) -> None:
        self.restart_at = None
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)

    def wait_or_kill(self, deadline: float) -> None:
        if self.proc is None:
            return
        try:
            self.proc.wait(max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            # A worker still busy with a model run is killed; its run is taken over later.
            if self.own_session:
                kill_group(self.proc.pid)
            else:
                self.proc.kill()
            self.proc.wait(5)
        # Children of children (Celery's pool processes) live in the same session.
        if self.own_session:
            kill_group(self.proc.pid)


class Server(Protocol):
    """An embedded server (corefapp.runtime.postgres, corefapp.runtime.redis_server)."""

    def start(self) -> None: ...

    def alive(self) -> bool: ...


@dataclass
class WatchedServer:
    """An embedded server the launcher started and restarts, like a child."""

    name: str
    server: Server
    started_at: float = field(default_factory=time.monotonic)
    restarts: int = 0
    delay: float = 0.0
    restart_at: float | None = None

    def supervise(self, say: Callable[[str], None], now: float | None = None) -> None:
        """One look: schedule a restart when the server is gone, restart it when due."""
        now = time.monotonic() if now is None else now
        if self.restart_at is not None:
            if now < self.restart_at:
                return
            self.restart_at = None
            try:
                self.server.start()
            except Exception as error:  # noqa: BLE001 - any failure to start is retried
                self.started_at = now
                reason = str(error).strip().splitlines()[0] if str(error).strip() else error
                self._schedule(say, now, f"{self.name} did not start again ({reason})")
                return
            self.started_at = time.monotonic()
            say(f"{self.name} restarted (restart {self.restarts})")
            return
        if self.server.alive():
            return
        ran = now - self.started_at
        self._schedule(say, now, f"{self.name} exited unexpectedly after {ran:.0f} s")

    def _schedule(self, say: Callable[[str], None], now: float, what: str) -> None:
        self.delay = next_delay(self.delay, now - self.started_at, SERVER_FIRST_DELAY)
        self.restarts += 1
        self.restart_at = now + self.delay
        say(f"{what}; restarting in {self.delay:.3g} s")


class Reports:
    """A pipe on which children send the launcher the exit and restart lines of processes they
    supervise themselves, so that those are on the launcher's output like its own children's
    (otherwise they were only in the child's log)."""

    def __init__(self) -> None:
        self.read_fd, self.write_fd = os.pipe()
        os.set_blocking(self.read_fd, False)
        self._partial = b""

    def child_env(self) -> dict[str, str]:
        return {REPORT_FD: str(self.write_fd)}

    def drain(self, say: Callable[[str], None]) -> None:
        """Say every whole line that has arrived (never waits)."""
        while True:
            try:
                chunk = os.read(self.read_fd, 65536)
            except BlockingIOError:
                break
            if not chunk:
                break
            self._partial += chunk
        *lines, self._partial = self._partial.split(b"\n")
        for line in lines:
            say(line.decode(errors="replace"))

    def close(self) -> None:
        for fd in (self.read_fd, self.write_fd):
            with contextlib.suppress(OSError):
                os.close(fd)


def report(line: str, environ: dict[str, str] | None = None) -> None:
    """In a child that make up started: send `line` to the launcher's Reports, if it gave one.
    Never blocks and never fails: a launcher that is gone or not reading loses the line."""
    fd = (os.environ if environ is None else environ).get(REPORT_FD, "")
    if not fd.isdigit():
        return
    try:
        os.set_blocking(int(fd), False)
        os.write(int(fd), line.encode() + b"\n")
    except OSError:
        pass
