"""Practice topics built from the real CoRefi onboarding tutorial."""

from __future__ import annotations

from annotation.models import Mention, Project
from onboarding.services.practice import practice_import
from tests.paths import COREFI_DATA

TUTORIAL = COREFI_DATA / "scientific_onboarding_tutorial.json"


def tutorial_practice(mode: str | None = None, project: Project | None = None):
    project = project or Project.objects.create(name="Onboarding", hierarchy=True)
    (practice,) = practice_import(project=project, path=TUTORIAL, mode=mode)
    return practice


def mentions_by_text(topic) -> dict[str, int]:
    """The tutorial's four mentions by their text."""
    tokens = [t for d in topic.documents.order_by("position") for t in d.tokens]
    starts, total = {}, 0
    for d in topic.documents.order_by("position"):
        starts[d.pk] = total
        total += d.token_count
    found = {}
    for m in Mention.objects.filter(topic=topic, added_in__isnull=True):
        (start, end), *_ = m.spans
        base = starts[m.document_id]
        found[" ".join(tokens[base + start : base + end + 1])] = m.pk
    return found
