"""Demo accounts and demo projects, loaded once into an empty database (make up runs it)."""

from django.conf import settings
from django.core.management.base import BaseCommand

from fixtures.demo.load import demo_load


class Command(BaseCommand):
    help = "Create the demo accounts and projects if the database has none (idempotent)."

    def add_arguments(self, parser):
        parser.add_argument("--force", action="store_true", help="load even if projects exist")

    def handle(self, *args, force: bool = False, **options):
        report = demo_load(password=settings.DEMO_PASSWORD, force=force)
        for line in report:
            self.stdout.write(line)
