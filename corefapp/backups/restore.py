"""Restore an archive into the running instance: the database, then the models, then any
migrations this release has beyond the archive's."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import connection

from annotation.infra import state_cache
from annotation.models import Project
from corefapp.backups import archive, pg_tools
from corefapp.backups.pg_tools import BackupError
from corefapp.private_files import private_dirs
from corefapp.restoring import writes_refused


def holds_data() -> bool:
    """An instance holds data once it has a user or a project (a freshly migrated database
    has neither)."""
    return get_user_model().objects.exists() or Project.objects.exists()


def restore(source: Path, *, replace: bool) -> dict[str, Any]:
    info = archive.read_manifest(source)
    unknown = archive.unknown_migrations(info)
    if unknown:
        raise BackupError(
            "the archive comes from a newer release (migrations this release does not have: "
            + ", ".join(unknown[:5])
            + "); restore it with that release or a later one"
        )
    if not replace and holds_data():
        raise BackupError(
            "this instance holds data (users or projects); restoring would replace all of it. "
            "Run restore again with --replace if that is what you want."
        )
    work_root = Path(settings.MODELS_DIR).parent
    private_dirs(work_root)
    # From here until the data is this release's again, every write of every web process
    # answers 503 "restoring" (corefapp/restoring.py): none is acknowledged and then lost.
    # Writes made after the backup are what a restore takes back, so they are refused from
    # its start, the archive's extraction included.
    try:
        with (
            writes_refused(pg_tools.connect),
            tempfile.TemporaryDirectory(dir=work_root, prefix=".restore-") as work,
        ):
            extracted = Path(work)
            archive.extract(source, extracted)
            connection.close()  # our own session must not hold anything the reset drops
            pg_tools.replace_database(extracted / archive.DATABASE, extracted / "reset.sql")
            archive.replace_models(extracted)
            # An archive from an older release is brought up to this release's schema.
            call_command("migrate", interactive=False, verbosity=0)
    except TimeoutError as exc:
        raise BackupError(str(exc)) from None
    state_cache.clear()
    return info
