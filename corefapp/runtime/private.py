"""Local state is private: files under var/ are 0600 and folders 0700.

var/ holds the database, Redis's append-only file (annotation content and queued tasks), the
logs, the passwords and the secret key. `make up` sets the umask 077 before it creates
anything, so every file the launcher and its children write (PostgreSQL, Redis, Daphne,
Celery, their logs) is born private, and it takes group and other bits off what an earlier
version left behind. Two exceptions, both of other owners' making:
- var/test: each test session's servers, which their own fixtures set up;
- as root, PostgreSQL runs as an unprivileged system user, which must traverse var/ to reach
  its data folder: var/ then keeps the execute bit for others (0711: no listing, no reading).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

PRIVATE_UMASK = 0o077
SKIPPED = ("test",)  # var/test: the test sessions' own servers


def private_umask() -> int:
    """Files created from now on (by this process and its children) are private; returns the
    umask before."""
    return os.umask(PRIVATE_UMASK)


def var_private(var: Path) -> None:
    """Take group and other bits off every file and folder under `var` (var/test aside)."""
    var = Path(var)
    if not var.is_dir():
        return
    _tighten(var)
    for root, folders, files in os.walk(var):
        if Path(root) == var:
            folders[:] = [f for f in folders if f not in SKIPPED]
        for name in folders + files:
            _tighten(Path(root) / name)


def traversable_only(folder: Path) -> None:
    """`folder` may be passed through by other users (x), not listed or read."""
    _set(folder, stat.S_IMODE(folder.stat().st_mode) & ~0o066 | 0o011)


def _tighten(path: Path) -> None:
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return  # removed meanwhile (a log rotated, a server's temporary file)
    if stat.S_ISLNK(mode):
        return
    _set(path, stat.S_IMODE(mode) & ~0o077)


def _set(path: Path, mode: int) -> None:
    try:
        if stat.S_IMODE(os.lstat(path).st_mode) != mode:
            os.chmod(path, mode)
    except FileNotFoundError:
        return
