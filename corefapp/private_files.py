"""Local state is private: files under var/ are 0600 and folders 0700, whatever the umask.

var/ holds the database, Redis's append-only file (annotation content and queued tasks), the
logs, the passwords, the secret key, import uploads, release bundles, trained models and
backups. `make up` sets the umask 077 before it creates anything, and so do the other entry
points (manage.py, the web server, the Celery workers: `private_umask`), so every file they
write is born private; at start `make up` takes group and other bits off what an earlier
version left behind. What does not follow the umask is written through the helpers here:
the default storage (Django chmods its files to FILE_UPLOAD_PERMISSIONS, 0644 unless told:
STORAGE_MODES), a backup at any path (`open_private`, `private_dirs`), and what a restore
unpacks, whose modes come from the archive (`make_private`). Two exceptions, both of other
owners' making:
- var/test: each test session's servers, which their own fixtures set up;
- as root, PostgreSQL runs as an unprivileged system user, which must traverse var/ to reach
  its data folder: var/ then keeps the execute bit for others (0711: no listing, no reading).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

PRIVATE_UMASK = 0o077
FILE_MODE = 0o600
DIR_MODE = 0o700
# FileSystemStorage's OPTIONS: the modes it gives what it saves, and the folders it makes.
STORAGE_MODES = {"file_permissions_mode": FILE_MODE, "directory_permissions_mode": DIR_MODE}
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


def make_private(path: Path) -> None:
    """Take group and other bits off `path` and, for a folder, everything under it."""
    path = Path(path)
    _tighten(path)
    for root, folders, files in os.walk(path):
        for name in folders + files:
            _tighten(Path(root) / name)


def private_dirs(folder: Path) -> None:
    """`folder` and its missing parents, the new ones 0700 (existing ones are left as they
    are: a backup's target folder may be a shared one the user chose)."""
    folder = Path(folder)
    missing = []
    while not folder.exists():
        missing.append(folder)
        folder = folder.parent
    for new in reversed(missing):
        new.mkdir(mode=DIR_MODE, exist_ok=True)
        os.chmod(new, DIR_MODE)  # mkdir's mode is masked by the umask, which may add bits back


def open_private(path: Path):
    """`path` opened for writing bytes, created 0600 (an existing file is truncated and made
    0600): never readable by others, not even while it is written."""
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, FILE_MODE)
    try:
        os.fchmod(descriptor, FILE_MODE)
    except BaseException:
        os.close(descriptor)
        raise
    return os.fdopen(descriptor, "wb")


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
