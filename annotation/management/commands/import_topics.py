"""python manage.py import_topics --project NAME --format scico|corefi|chemu|brat
[--skip-invalid] [--create] PATH"""

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from annotation.domain.formats import READERS
from annotation.errors import ImportRefused
from annotation.models import Project
from annotation.services.imports.topics import topics_import

# The scheme a new project gets from the format it is created for.
SCHEMES = {
    "scico": (True, False),
    "corefi": (True, False),
    "chemu": (False, True),
    "brat": (True, True),
}


class Command(BaseCommand):
    help = (
        "Import topics (documents, candidate mentions and any gold annotation) into a project. "
        "Every error is listed with file, line and field, and nothing is written while any remains."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "path", help="a file, or a folder for corefi (*.json) and brat (*.txt + *.ann)"
        )
        parser.add_argument("--project", required=True, help="project name")
        parser.add_argument("--format", required=True, choices=list(READERS))
        parser.add_argument(
            "--skip-invalid",
            action="store_true",
            help="import the valid records and list the skipped ones instead of refusing",
        )
        parser.add_argument(
            "--create",
            action="store_true",
            help="create the project if missing (hierarchy for scico/corefi, anaphora for chemu, "
            "both for brat)",
        )

    def handle(self, *args, path, project, format, skip_invalid, create, **options):
        # One transaction with the project's creation, so a refused import leaves no empty project.
        try:
            with transaction.atomic():
                target = Project.objects.filter(name=project).first()
                if target is None:
                    if not create:
                        raise CommandError(
                            f"project '{project}' does not exist; create it first or pass --create"
                        )
                    hierarchy, anaphora = SCHEMES[format]
                    target = Project.objects.create(
                        name=project, hierarchy=hierarchy, anaphora=anaphora
                    )
                    self.stdout.write(f"created project '{project}' ({target.scheme})")
                result = topics_import(
                    project=target, path=path, format=format, skip_invalid=skip_invalid
                )
        except ImportRefused as refused:
            for error in refused.errors:
                self.stderr.write(error)
            raise CommandError(refused.message) from None
        for line in result.lines():
            self.stdout.write(line)
