"""How many mentions each validator has decided: their progress where other annotators'
is the mentions they clustered (My topics, the progress matrix)."""

from __future__ import annotations

from django.db.models import Count

from annotation.models import ValidationDecision


def validation_decided_counts(annotation_ids: list[int]) -> dict[int, int]:
    return dict(
        ValidationDecision.objects.filter(annotation_id__in=annotation_ids)
        .values("annotation_id")
        .annotate(n=Count("id"))
        .values_list("annotation_id", "n")
    )
