"""python manage.py import_annotations --project NAME --user USERNAME
--format scico|corefi|chemu|brat [--create-user] [--submit] PATH

One annotator's clusters, hierarchy and links for topics already in the project (matched by
external id; mentions by document and spans). Exits with status 1, having written nothing,
when anything does not match: every error is listed, naming the topic and the mention."""

from django.core.management.base import BaseCommand, CommandError

from annotation.errors import ImportRefused
from annotation.models import Project
from annotation.services.imports.annotator_files import annotator_annotations_import
from corefscore.formats import READERS


class Command(BaseCommand):
    help = (
        "Import one annotator's annotation of topics already in a project; everything is "
        "checked first and nothing is written while any error remains."
    )

    def add_arguments(self, parser):
        parser.add_argument("path", help="a file, a folder (searched at any depth) or a zip")
        parser.add_argument("--project", required=True, help="project name")
        parser.add_argument("--user", required=True, help="the annotator's username")
        parser.add_argument("--format", required=True, choices=list(READERS))
        parser.add_argument(
            "--create-user",
            action="store_true",
            help="create the annotator if missing, with an unusable password (an admin sets one)",
        )
        parser.add_argument(
            "--submit", action="store_true", help="mark the imported assignments submitted"
        )

    def handle(self, *args, path, project, user, format, create_user, submit, **options):
        target = Project.objects.filter(name=project).first()
        if target is None:
            raise CommandError(f"project '{project}' does not exist")
        try:
            result = annotator_annotations_import(
                project=target,
                path=path,
                format=format,
                username=user,
                create_user=create_user,
                submit=submit,
            )
        except ImportRefused as refused:
            for error in refused.errors:
                self.stderr.write(error)
            raise CommandError(refused.message) from None
        for line in result.lines():
            self.stdout.write(line)
