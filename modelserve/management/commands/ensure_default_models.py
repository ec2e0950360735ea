"""Train the default models that are missing (the ChEMU anaphora model); make up runs it."""

from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Train the default suggestion models if they are missing (idempotent)."

    def handle(self, *args, **options):
        from modelserve.services.default_models import default_models_ensure

        for line in default_models_ensure():
            self.stdout.write(line)
