"""A corpus created (empty) and opened to projects."""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction

from annotation.errors import Conflict
from annotation.models import Project
from corpus.models import Corpus


def corpus_create(*, name: str, description: str = "", projects: Iterable[Project] = ()) -> Corpus:
    name = name.strip()
    with transaction.atomic():
        if Corpus.objects.filter(name=name).exists():
            raise Conflict(f"There is already a corpus named '{name}'.")
        corpus = Corpus.objects.create(name=name, description=description)
        corpus.projects.set(list(projects))
    return corpus
