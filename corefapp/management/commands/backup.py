"""`manage.py backup PATH`: one archive of everything the instance stores, taken while the
servers run (corefapp/backups, README "Backups")."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from corefapp.backups import archive
from corefapp.backups.pg_tools import BackupError


class Command(BaseCommand):
    help = "Write a backup archive (database dump, trained models, manifest) to PATH."

    def add_arguments(self, parser):
        parser.add_argument("path", type=Path)

    def handle(self, *args, path: Path, **options):
        try:
            info = archive.write(path)
        except BackupError as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(
            f"backup written to {path.resolve()} "
            f"({info['model_files']} model files, corefapp {info['versions']['corefapp']})"
        )
