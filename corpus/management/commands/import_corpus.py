"""`manage.py import_corpus NAME FILE --format F`: a corpus file from the server's disk (no
upload limit), the corpus created if new; the same checks and job as an upload's."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from corpus.models import Corpus
from corpus.reading import CORPUS_FORMATS
from corpus.services.corpora import corpus_create
from corpus.services.imports import corpus_import_file


class Command(BaseCommand):
    help = "Import a corpus file (documents and mentions) into a corpus, creating it if new."

    def add_arguments(self, parser):
        parser.add_argument("name")
        parser.add_argument("file")
        parser.add_argument("--format", required=True, choices=sorted(CORPUS_FORMATS))

    def handle(self, *args, name: str, file: str, format: str, **options):
        path = Path(file).expanduser().resolve()
        if not path.is_file():
            raise CommandError(f"{file} is not a file")
        corpus = Corpus.objects.filter(name=name).first() or corpus_create(name=name)
        job = corpus_import_file(corpus=corpus, path=str(path), format=format)
        if job.status != "succeeded":
            raise CommandError("\n".join([job.message, *job.errors]))
        self.stdout.write(job.message)
