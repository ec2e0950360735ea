"""A seed taxonomy imported into a corpus as concept groups: read and checked whole
(corpus.reading.taxonomies), then written in one transaction, or refused with every problem
and nothing written."""

from __future__ import annotations

from django.db import transaction

from annotation.errors import Conflict, ImportRefused
from corpus.models import ConceptGroup, Corpus
from corpus.reading.taxonomies import taxonomy_read

MAX_TAXONOMY_BYTES = 20_000_000


def taxonomy_import(*, corpus: Corpus, upload, format: str, name: str = "") -> list[ConceptGroup]:
    """The file's groups, under the taxonomy `name` (default: the file's name) in `corpus`."""
    file_name = getattr(upload, "name", "the file") or "the file"
    taxonomy = (name or file_name).strip()[:200]
    if upload.size > MAX_TAXONOMY_BYTES:
        raise ImportRefused(
            f"{file_name} is {upload.size:,} bytes; a taxonomy file may hold at most "
            f"{MAX_TAXONOMY_BYTES:,}",
            [file_name],
        )
    upload.seek(0)
    report = taxonomy_read(format, upload.read(), name=file_name)
    if not report.ok:
        raise ImportRefused(
            f"{file_name}: {report.error_count} problem(s); no group was imported", report.errors
        )
    with transaction.atomic():
        if ConceptGroup.objects.filter(corpus=corpus, taxonomy=taxonomy).exists():
            raise Conflict(
                f"Corpus '{corpus.name}' already has a taxonomy named '{taxonomy}': "
                "give this one another name."
            )
        return ConceptGroup.objects.bulk_create(
            ConceptGroup(
                corpus=corpus,
                taxonomy=taxonomy,
                kind=group.kind,
                name=group.name[:300],
                concepts=group.concepts,
            )
            for group in report.groups
        )
