"""python manage.py dataset_release --project NAME OUT [--formats scico,conll,...]
[--with-names]; or --store instead of OUT: a zip of the bundle in the default storage (var/ or
the STORAGE_URL bucket), which admins download through the app (GET /api/projects/{id}/release/)."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from annotation.models import Project
from datasets.errors import DatasetRefused
from datasets.services.release import dataset_release
from datasets.services.release_storage import dataset_release_store


class Command(BaseCommand):
    help = (
        "Write a release bundle into OUT: every split in the chosen formats (each topic's gold), "
        "the statistics (JSON, CSV), the agreement report (CSV) and DATASHEET.md. Default "
        "formats: scico (hierarchy), chemu (anaphora), brat (both), and conll."
    )

    def add_arguments(self, parser):
        parser.add_argument("out", nargs="?", help="a new or empty folder, or an earlier release's")
        parser.add_argument(
            "--store",
            action="store_true",
            help="store a zip of the bundle in the default storage instead of writing OUT",
        )
        parser.add_argument("--project", required=True)
        parser.add_argument("--formats", help="comma-separated, e.g. scico,conll")
        parser.add_argument(
            "--with-names",
            action="store_true",
            help="name the annotators in the datasheet (by default only counted)",
        )

    def handle(self, *args, out, store, project, formats, with_names, **options):
        if bool(out) == bool(store):
            raise CommandError("give either OUT (a folder) or --store")
        target = Project.objects.filter(name=project).first()
        if target is None:
            raise CommandError(f"project '{project}' does not exist")
        chosen = [f.strip() for f in formats.split(",")] if formats else None
        try:
            if store:
                stored = dataset_release_store(
                    project=target, formats=chosen, with_names=with_names
                )
                self.stdout.write(f"stored {stored.name} ({stored.size:,} bytes)")
                for warning in stored.warnings:
                    self.stdout.write(f"warning: {warning}")
                return
            result = dataset_release(project=target, out=out, formats=chosen, with_names=with_names)
        except DatasetRefused as refused:
            raise CommandError(refused.message) from None
        for line in result.lines():
            self.stdout.write(line)
