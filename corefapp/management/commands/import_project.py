"""`manage.py import_project PATH [--name NEW] [--in-my-topics]`: a project archive into this
instance, ids remapped, all or nothing (corefapp/archives)."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from corefapp.archives.importer import project_import
from corefapp.archives.json_ids import ArchiveInvalid


class Command(BaseCommand):
    help = "Import a project archive written by export_project; refuses a name in use."

    def add_arguments(self, parser):
        parser.add_argument("path", type=Path)
        parser.add_argument("--name", help="import under this name (the archive's clashes)")
        parser.add_argument(
            "--in-my-topics",
            action="store_true",
            help="list the imported assignments in their annotators' My topics (default: not)",
        )

    def handle(
        self, *args, path: Path, name: str | None = None, in_my_topics: bool = False, **options
    ):
        try:
            imported = project_import(path=path, name=name, in_my_topics=in_my_topics)
        except ArchiveInvalid as error:
            raise CommandError(f"Nothing was imported: {error}") from None
        self.stdout.write(
            f"project {imported.project!r} imported (id {imported.project_id}): "
            f"{imported.rows['annotation.topic']} topics, "
            f"{imported.rows['annotation.operation']} logged operations"
        )
        self.stdout.write(f"users created: {', '.join(imported.users_created) or 'none'}")
        self.stdout.write(f"users matched: {', '.join(imported.users_matched) or 'none'}")
        if not imported.in_my_topics:
            self.stdout.write(
                "its assignments are not in the annotators' My topics: turn on \"In My "
                "topics\" in the project's settings (or import with --in-my-topics) to list them"
            )
        if imported.users_created:
            self.stdout.write(
                "created users have no password: set one in the admin's Users page"
                + (
                    f"; staff where exported, not here: {', '.join(imported.staff_in_source)}"
                    if imported.staff_in_source
                    else ""
                )
            )
