"""One backup archive: a gzipped tar holding manifest.json, database.sql (pg_dump) and
models/ (the trained models under MODELS_DIR), without the folders of MODELS_DIR that are
only caches rebuilt on demand (modelserve/caches.py): the encoder cache was 197 of a 243 MB
backup. The manifest's `left_out` names each with its size, why and how it comes back.

Written to a temporary file beside the target and renamed into place, so a backup that fails
half-way never leaves a truncated archive under the final name. The archive holds the whole
database: it is 0600 at any path, whatever the umask (corefapp/private_files.py), and the
models a restore unpacks are made private again (the archive's modes are those of its writer).
"""

from __future__ import annotations

import hashlib
import json
import platform
import shutil
import tarfile
import tempfile
import time
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

import django
from django.conf import settings
from django.db import connection
from django.db.migrations.loader import MigrationLoader

from corefapp.backups import pg_tools
from corefapp.backups.pg_tools import BackupError
from corefapp.private_files import make_private, open_private, private_dirs
from modelserve.caches import REBUILDABLE

FORMAT = 1
MANIFEST = "manifest.json"
DATABASE = "database.sql"
MODELS = "models"


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as file:
        for block in iter(lambda: file.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def applied_migrations() -> dict[str, list[str]]:
    """The migration state: every applied migration, by app."""
    state: dict[str, list[str]] = {}
    for app, name in sorted(MigrationLoader(connection).applied_migrations):
        state.setdefault(app, []).append(name)
    return state


def _version(package: str) -> str:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return "unknown"


def manifest(
    database_sha256: str, model_files: int, left_out: list[dict[str, Any]]
) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "created_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "versions": {
            "corefapp": _version("corefapp"),
            "django": django.get_version(),
            "python": platform.python_version(),
            "postgresql_server": pg_tools.server_version(),
        },
        "migrations": applied_migrations(),
        "database_sha256": database_sha256,
        "model_files": model_files,
        "left_out": left_out,
    }


def _rebuildable(models_dir: Path, path: Path) -> str | None:
    """The cache folder `path` (a file under MODELS_DIR) is in, if any."""
    first = path.relative_to(models_dir).parts[0]
    return first if first in REBUILDABLE else None


def _left_out(models_dir: Path, skipped: list[Path]) -> list[dict[str, Any]]:
    """What the manifest says of each cache folder left out (present or not, so a reader of
    any manifest learns that the folder is not in it and why)."""
    sizes: dict[str, list[int]] = {name: [] for name in REBUILDABLE}
    for path in skipped:
        try:
            size = path.stat().st_size
        except FileNotFoundError:  # a cache entry's temporary file, renamed since the listing
            continue
        sizes[path.relative_to(models_dir).parts[0]].append(size)
    return [
        {
            "path": f"{MODELS}/{name}",
            "files": len(sizes[name]),
            "bytes": sum(sizes[name]),
            "why": why,
            "rebuilt": rebuilt,
        }
        for name, (why, rebuilt) in REBUILDABLE.items()
    ]


def write(target: Path) -> dict[str, Any]:
    """Write the archive to `target`; returns its manifest."""
    target = target.resolve()
    private_dirs(target.parent)
    models_dir = Path(settings.MODELS_DIR)
    with tempfile.TemporaryDirectory(dir=target.parent, prefix=".backup-") as work:
        dump_file = Path(work) / DATABASE
        pg_tools.dump(dump_file)
        files = (
            [p for p in sorted(models_dir.rglob("*")) if p.is_file()] if models_dir.is_dir() else []
        )
        model_files = [p for p in files if _rebuildable(models_dir, p) is None]
        skipped = [p for p in files if _rebuildable(models_dir, p) is not None]
        partial = Path(work) / "archive.tar.gz"
        with open_private(partial) as file, tarfile.open(fileobj=file, mode="w:gz") as tar:
            tar.add(dump_file, arcname=DATABASE)
            added = 0
            for path in model_files:
                try:
                    tar.add(path, arcname=f"{MODELS}/{path.relative_to(models_dir)}")
                except FileNotFoundError:
                    # Gone since the listing: a training's temporary file renamed into place,
                    # or a model folder replaced whole, while the model worker trains (the
                    # first start's backup runs beside the first trainings). What replaced
                    # it is in the archive if it was listed, else in the next backup.
                    continue
                added += 1
            # Last, so that it counts what the archive holds; a reader finds it by name.
            info = manifest(_sha256(dump_file), added, _left_out(models_dir, skipped))
            (Path(work) / MANIFEST).write_text(json.dumps(info, indent=2) + "\n")
            tar.add(Path(work) / MANIFEST, arcname=MANIFEST)
        partial.replace(target)
    return info


def _safe_members(tar: tarfile.TarFile) -> None:
    for member in tar.getmembers():
        name = Path(member.name)
        if name.is_absolute() or ".." in name.parts or not (member.isfile() or member.isdir()):
            raise BackupError(f"the archive holds an unsafe entry: {member.name}")


def read_manifest(source: Path) -> dict[str, Any]:
    try:
        with tarfile.open(source, "r:gz") as tar:
            file = tar.extractfile(MANIFEST)
            if file is None:
                raise KeyError(MANIFEST)
            info: dict[str, Any] = json.loads(file.read())
    except (OSError, tarfile.TarError, KeyError, ValueError) as exc:
        raise BackupError(f"{source} is not a corefapp backup archive ({exc})") from exc
    if info.get("format") != FORMAT:
        raise BackupError(
            f"{source} has archive format {info.get('format')}; this release reads {FORMAT}"
        )
    return info


def unknown_migrations(info: dict[str, Any]) -> list[str]:
    """Migrations the archive's database has and this release does not know: an archive from a
    newer release, which this code cannot run against."""
    known = set(MigrationLoader(None, ignore_no_migrations=True).disk_migrations)
    return [
        f"{app}.{name}"
        for app, names in info["migrations"].items()
        for name in names
        if (app, name) not in known
    ]


def extract(source: Path, into: Path) -> dict[str, Any]:
    """Unpack the archive into `into` and check the dump against the manifest's checksum."""
    info = read_manifest(source)
    with tarfile.open(source, "r:gz") as tar:
        _safe_members(tar)
        tar.extractall(into, filter="data")
    if _sha256(into / DATABASE) != info["database_sha256"]:
        raise BackupError(f"{source}: the database dump does not match its checksum")
    return info


def replace_models(extracted: Path) -> None:
    """Swap MODELS_DIR for the archive's models (renames on one file system, so a reader sees
    the old folder or the new one). The instance's own cache folders, which the archive
    leaves out, move into the new folder: they are keyed by what they were computed from, so
    they hold nothing the restored data contradicts, and a restore on the machine that took
    the backup does not throw away hours of encoding. Elsewhere they are rebuilt on demand."""
    models_dir = Path(settings.MODELS_DIR)
    private_dirs(models_dir.parent)
    incoming = Path(tempfile.mkdtemp(dir=models_dir.parent, prefix=".models-restore-"))
    source = extracted / MODELS
    if source.is_dir():
        shutil.copytree(source, incoming, dirs_exist_ok=True)
    for name in REBUILDABLE:
        if (models_dir / name).is_dir() and not (incoming / name).exists():
            (models_dir / name).rename(incoming / name)
    make_private(incoming)  # before anyone can see it under MODELS_DIR
    old = models_dir.with_name(f".{models_dir.name}-replaced-{time.time_ns()}")
    if models_dir.exists():
        models_dir.rename(old)
    incoming.rename(models_dir)
    shutil.rmtree(old, ignore_errors=True)
