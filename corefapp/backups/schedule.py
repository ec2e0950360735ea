"""`make up`'s backups: one every BACKUP_INTERVAL_HOURS (24), the newest BACKUP_KEEP (7) kept,
in BACKUP_DIR (var/backups). No Django import: the launcher runs it before any child starts.

The first backup is due at start when the newest archive in the folder is older than the
interval (or there is none), so a workstation switched on for a few hours a day still gets one
a day. Each backup is `manage.py backup` as a child process of the launcher, on the same
database; its output goes to var/log/backup.log and one line per backup to the launcher.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

PREFIX = "corefapp-"
SUFFIX = ".tar.gz"


def interval_seconds() -> float:
    return float(os.environ.get("BACKUP_INTERVAL_HOURS", "24")) * 3600


def keep() -> int:
    return max(1, int(os.environ.get("BACKUP_KEEP", "7")))


def backup_dir(var: Path) -> Path:
    return Path(os.environ.get("BACKUP_DIR", var / "backups")).resolve()


def archives(folder: Path) -> list[Path]:
    """The scheduler's archives, oldest first (their names sort by time)."""
    return sorted(folder.glob(f"{PREFIX}*{SUFFIX}")) if folder.is_dir() else []


def prune(folder: Path, count: int) -> list[Path]:
    """Delete all but the newest `count` archives; returns what was deleted."""
    old = archives(folder)[:-count]
    for path in old:
        path.unlink(missing_ok=True)
    return old


class BackupScheduler:
    """Made before the launcher starts anything (so its stop() is always safe to call);
    nothing is due until begin() gives it the children's environment."""

    def __init__(self, var: Path, cwd: Path, logs: Path) -> None:
        self.folder = backup_dir(var)
        self.env: dict[str, str] = {}
        self.cwd = cwd
        self.log_path = logs / "backup.log"
        self.interval = interval_seconds()
        self.keep = keep()
        self.running: subprocess.Popen | None = None
        self.target: Path | None = None
        self.next_at = float("inf")

    def begin(self, env: dict[str, str]) -> None:
        self.env = env
        self.next_at = self._first_due()

    def _first_due(self) -> float:
        existing = archives(self.folder)
        if not existing or self.interval <= 0:
            return time.time()
        return existing[-1].stat().st_mtime + self.interval

    def describe(self) -> str:
        return (
            f"backups: every {self.interval / 3600:g} h into {self.folder}, "
            f"the newest {self.keep} kept (BACKUP_DIR, BACKUP_INTERVAL_HOURS, BACKUP_KEEP)"
        )

    def tick(self, say: Callable[[str], None]) -> None:
        """Called from the launcher's loop: finish a running backup, start a due one."""
        if self.running is not None:
            code = self.running.poll()
            if code is None:
                return
            if code == 0:
                say(f"backup written to {self.target}")
                for path in prune(self.folder, self.keep):
                    say(f"old backup removed: {path}")
            else:
                say(f"backup to {self.target} failed (code {code}); see {self.log_path}")
            self.running = None
        if self.interval > 0 and time.time() >= self.next_at:
            self.start()

    def start(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
        self.target = self.folder / f"{PREFIX}{stamp}{SUFFIX}"
        with open(self.log_path, "a") as log:  # the child keeps its own copy
            self.running = subprocess.Popen(
                [sys.executable, "manage.py", "backup", str(self.target)],
                env=self.env,
                cwd=self.cwd,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        self.next_at = time.time() + self.interval

    def stop(self) -> None:
        """A backup still running when the launcher stops is ended, pg_dump with it (its
        process group); it writes under a temporary name, so no half-written archive is left
        under an archive's name."""
        if self.running is None or self.running.poll() is not None:
            return
        for sig, wait in ((signal.SIGTERM, 20), (signal.SIGKILL, 5)):
            try:
                os.killpg(self.running.pid, sig)
            except ProcessLookupError:
                return
            try:
                self.running.wait(wait)
                return
            except subprocess.TimeoutExpired:
                continue
