"""The reporting app's tables: what only the reports read. Both were the core's (annotation
migrations 0012 and 0013) and keep their tables: reporting/migrations/0001 takes them over
in Django's state only, so no row moves.
"""

from __future__ import annotations

from typing import ClassVar

from django.db import models

from annotation.models import Annotation, Topic


class SuggestionShown(models.Model):
    """When the workspace first showed a suggestion to the annotator of an annotation: the
    start of its acceptance latency (reporting/domain/time_spent.py). By the suggestion's id
    alone, as SuggestionDecision; the first display only (later ones are not written)."""

    annotation = models.ForeignKey(Annotation, on_delete=models.CASCADE, related_name="+")
    suggestion = models.BigIntegerField()
    shown_at = models.DateTimeField()

    class Meta:
        # Created by the core's migration 0012 (the table keeps its name: reporting/migrations).
        db_table = "annotation_suggestionshown"
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.UniqueConstraint(
                fields=["annotation", "suggestion"], name="suggestion_shown_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"suggestion {self.suggestion} shown at {self.shown_at}"


class AgreementPair(models.Model):
    """What one (key, response) pair of annotations of a topic gives the agreement report: two
    annotators' submitted work, or gold (key) and an annotator's work (docs/agreement-store.md).

    A cache of a pure function of the two annotations, so a row is valid exactly while both
    versions and the options key still match (`scorer/corefscore/scoring/stored.py`): an edit
    bumps the version, a reopened topic leaves the report, new gold is another annotation.
    Filled after commit when a topic's work is submitted or reopened (an annotator's or an
    adjudicator's: reporting/apps.py registers the fill), and by the report for any row
    missing or stale (reporting/selectors/agreement_pairs.py; docs/agreement-store.md).
    """

    topic = models.ForeignKey(Topic, on_delete=models.CASCADE, related_name="+")
    key = models.ForeignKey(Annotation, on_delete=models.CASCADE, related_name="+")
    key_version = models.PositiveIntegerField()
    response = models.ForeignKey(Annotation, on_delete=models.CASCADE, related_name="+")
    response_version = models.PositiveIntegerField()
    options = models.CharField(max_length=100)
    counts = models.JSONField()

    class Meta:
        # Created by the core's migration 0013 (the table keeps its name: reporting/migrations).
        db_table = "annotation_agreementpair"
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.UniqueConstraint(fields=["key", "response"], name="agreement_pair_unique"),
        ]

    def __str__(self) -> str:
        return f"agreement of annotations {self.key_id} and {self.response_id}"
