"""python manage.py import_practice --project NAME [--mode guided|scored] PATH

Import CoRefi files (a file, a folder of *.json, or a zip) as practice topics: guided when a
file is in CoRefi's onboarding mode (its tour, messages and settings kept), scored otherwise,
unless --mode says. Exits with status 1, having written nothing, when the import is refused."""

from django.core.management.base import BaseCommand, CommandError

from annotation.domain.errors import DomainError
from annotation.models import Project
from onboarding.services.practice import practice_import


class Command(BaseCommand):
    help = "Import CoRefi onboarding files as practice topics of a project."

    def add_arguments(self, parser):
        parser.add_argument("path")
        parser.add_argument("--project", required=True, help="project name")
        parser.add_argument("--mode", choices=["guided", "scored"], default=None)

    def handle(self, *args, path, project, mode, **options):
        target = Project.objects.filter(name=project).first()
        if target is None:
            raise CommandError(f"There is no project named {project!r}.")
        try:
            rows = practice_import(project=target, path=path, mode=mode)
        except DomainError as error:
            raise CommandError(error.message) from None
        for row in rows:
            self.stdout.write(f"{row.topic.external_id}: {row.mode} practice topic")
