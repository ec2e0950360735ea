"""`manage.py restore PATH [--replace]`: replace the instance's data with an archive's, with
the servers running (corefapp/backups, README "Backups")."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from corefapp.backups.pg_tools import BackupError
from corefapp.backups.restore import restore


class Command(BaseCommand):
    help = "Restore a backup archive written by `manage.py backup`."

    def add_arguments(self, parser):
        parser.add_argument("path", type=Path)
        parser.add_argument(
            "--replace",
            action="store_true",
            help="replace the data of an instance that already holds some",
        )

    def handle(self, *args, path: Path, replace: bool, **options):
        if not path.is_file():
            raise CommandError(f"no archive at {path}")
        try:
            info = restore(path, replace=replace)
        except BackupError as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(f"restored {path.resolve()} (taken {info['created_at']})")
