"""python manage.py export_annotations --project NAME --format F OUT
[--source gold|adjudicated|submitted|all|USER] [--split NAME]"""

from django.core.management.base import BaseCommand, CommandError

from annotation.models import Project
from annotation.services.exports import ExportRefused, annotations_export
from corefscore.formats import WRITERS


class Command(BaseCommand):
    help = (
        "Export a project's annotations. Default source: each topic's gold, that is its latest "
        "submitted adjudication, else its imported gold. 'submitted' and 'all' write one file "
        "(brat, corefi: one "
        "folder) per user under OUT, named after the username."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "out", help="file (scico, chemu, conll) or folder (brat, corefi, per-user sources)"
        )
        parser.add_argument("--project", required=True)
        parser.add_argument("--format", required=True, choices=list(WRITERS))
        parser.add_argument("--source", help="gold, adjudicated, submitted, all, or a username")
        parser.add_argument("--split", help="only the topics of this dataset split")
        parser.add_argument(
            "--keep-rejected",
            action="store_true",
            help="validation projects: keep rejected mentions, flagged, instead of removing them",
        )

    def handle(
        self, *args, out, project, format, source, split=None, keep_rejected=False, **options
    ):
        target = Project.objects.filter(name=project).first()
        if target is None:
            raise CommandError(f"project '{project}' does not exist")
        try:
            result = annotations_export(
                project=target,
                format=format,
                out=out,
                source=source,
                split=split,
                keep_rejected=keep_rejected,
            )
        except ExportRefused as refused:
            raise CommandError(refused.message) from None
        for line in result.lines():
            self.stdout.write(line)
