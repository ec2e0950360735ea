"""`manage.py backup PATH`: one archive of everything the instance stores but its caches, taken
while the servers run (corefapp/backups, README "Backups")."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from corefapp.backups import archive
from corefapp.backups.pg_tools import BackupError


class Command(BaseCommand):
    help = (
        "Write a backup archive (database dump, trained models, manifest) to PATH; caches "
        "rebuilt on demand are left out and named in the manifest."
    )

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
        for cache in info["left_out"]:
            if cache["files"]:
                self.stdout.write(
                    f"left out {cache['path']} ({cache['files']} files, "
                    f"{cache['bytes'] / 1e6:.0f} MB): a cache, rebuilt {cache['rebuilt']}"
                )
