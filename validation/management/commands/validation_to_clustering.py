"""python manage.py validation_to_clustering --project NAME --name NEW [--source consolidated|USER]
[--keep-rejected]

Creates NEW, an ordinary clustering (hierarchy) project whose topics carry the validated
clusters of validation project NAME as their imported annotation."""

from django.core.management.base import BaseCommand, CommandError

from annotation.errors import ImportRefused
from annotation.models import Project
from validation.services.convert import validated_project_create


class Command(BaseCommand):
    help = "Turn a validation project's validated clusters into a new clustering project."

    def add_arguments(self, parser):
        parser.add_argument("--project", required=True, help="the validation project")
        parser.add_argument("--name", required=True, help="the new project's name")
        parser.add_argument(
            "--source", help="whose decisions: consolidated (default) or a validator's username"
        )
        parser.add_argument(
            "--keep-rejected",
            action="store_true",
            help="keep rejected mentions as candidates outside every cluster",
        )

    def handle(self, *args, project, name, source, keep_rejected, **options):
        validation = Project.objects.filter(name=project).first()
        if validation is None:
            raise CommandError(f"project '{project}' does not exist")
        try:
            result = validated_project_create(
                project=validation, name=name, source=source, keep_rejected=keep_rejected
            )
        except ImportRefused as refused:
            raise CommandError(refused.message) from None
        self.stdout.write(str(result))
