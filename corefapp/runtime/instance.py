"""One `make up` per var/ directory, never started on top of one that is still stopping.

The launcher holds an exclusive lock on var/up.lock for its whole life (the kernel releases it
when the process ends, even after `kill -9`) and writes its pid and state there. A second
launcher that finds the lock held by one that is stopping (after Ctrl-C) waits for it;
one that is starting or running is an error: two stacks would share the same data.
"""

from __future__ import annotations

import fcntl
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO

from corefapp.runtime.preflight import PreflightError

LOCK_FILE = "up.lock"
WAIT_FOR_PREVIOUS_SECONDS = 30.0


class InstanceLock:
    def __init__(self, var: Path) -> None:
        self.path = var / LOCK_FILE
        self._file: IO[str] | None = None

    def acquire(self, say: Callable[[str], None], wait: float = WAIT_FOR_PREVIOUS_SECONDS) -> None:
        """Take the lock, waiting up to `wait` seconds for a previous launcher that stops."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        # Held open for the launcher's whole life; read-write, not append, so that mark() can
        # write over the line (an append-mode write always lands at the end).
        lock = os.fdopen(os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644), "r+")
        deadline: float | None = None
        while True:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                pid, state = self.holder()
                # "stopped" too: release() writes it just before closing the file, which is
                # what drops the lock; a look in between (seen under load, the second make up
                # of tests/integration/test_stack.py refused) finds it written, the lock held.
                if state not in ("stopping", "stopped"):
                    lock.close()
                    raise PreflightError(
                        f"make up is already running (pid {pid}) with {self.path.parent}: "
                        "stop it first (Ctrl-C in its terminal) or use another COREFAPP_VAR_DIR"
                    ) from None
                if deadline is None:
                    say(f"A previous make up (pid {pid}) is still stopping; waiting for it")
                    deadline = time.monotonic() + wait
                elif time.monotonic() > deadline:
                    lock.close()
                    raise PreflightError(
                        f"the previous make up (pid {pid}) did not stop within {wait:.0f} s: "
                        f"wait for it, or stop it with kill {pid}"
                    ) from None
                time.sleep(0.2)
        self._file = lock
        self.mark("starting")

    def holder(self) -> tuple[str, str]:
        """(pid, state) as the holder wrote them; ("?", "starting") before it wrote."""
        for _ in range(5):  # an empty file: the holder is between truncate and write
            try:
                pid, state = self.path.read_text().split()
                return pid, state
            except (OSError, ValueError):
                time.sleep(0.02)
        return "?", "starting"

    def mark(self, state: str) -> None:
        """Safe in a signal handler: one small write to a file this process already holds.
        Written over the old line, then cut to its length, so a reader never finds the file
        empty (a truncate first left it empty until the write, and a reader that finds it
        empty for 0.1 s takes the holder for one that is starting)."""
        if self._file is None:
            return
        self._file.seek(0)
        self._file.write(f"{os.getpid()} {state}\n")
        self._file.flush()
        self._file.truncate()

    def release(self) -> None:
        if self._file is not None:
            self.mark("stopped")
            self._file.close()  # closing drops the lock
            self._file = None
