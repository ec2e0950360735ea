"""`manage.py export_project PROJECT PATH`: one project, whole, into a zip (corefapp/archives)."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from annotation.models import Project
from corefapp.archives.export import project_export


class Command(BaseCommand):
    help = "Write project PROJECT (by name) with its logs, users and settings to PATH (a zip)."

    def add_arguments(self, parser):
        parser.add_argument("project", help="the project's name")
        parser.add_argument("path", type=Path)

    def handle(self, *args, project: str, path: Path, **options):
        try:
            exported = project_export(name=project, path=path)
        except Project.DoesNotExist:
            raise CommandError(f"There is no project named {project!r}.") from None
        operations = exported.rows["annotation.operation"]
        self.stdout.write(
            f"project {exported.project!r} written to {path.resolve()}: "
            f"{exported.rows['annotation.topic']} topics, {operations} logged operations, "
            f"{exported.users} users"
        )
