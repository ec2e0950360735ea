"""Record when the workspace showed suggestions to the annotator: the start of each one's
acceptance latency (reporting/domain/time_spent.py). Not an operation: it changes no
annotation content, so it has no version and no log entry.

The browser reports how long ago it showed each suggestion (`age_ms`), not a time of its own
clock: the shown time is the server's now minus that age, on the same clock as the logged
acceptance, whatever the annotator's computer thinks the time is. It is late by the batch's
time on the way and in the server's queue before `now` is read (milliseconds when idle; over
100 ms seen under load), never early. Only the first display is kept: a suggestion shown again
after a reload keeps its first time.
"""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from annotation.selectors.access import editable_annotation
from reporting.models import SuggestionShown


def suggestions_shown_record(*, annotation_id: int, user, shown: list[dict]) -> None:
    """`shown`: [{"suggestion": id, "age_ms": how long ago it was shown}]."""
    annotation = editable_annotation(user, annotation_id, content=False)
    now = timezone.now()
    first: dict[int, int] = {}
    for item in shown:
        suggestion, age = item["suggestion"], item["age_ms"]
        first[suggestion] = max(age, first.get(suggestion, age))
    rows = [
        SuggestionShown(
            annotation_id=annotation.pk,
            suggestion=suggestion,
            shown_at=now - timedelta(milliseconds=age),
        )
        for suggestion, age in first.items()
    ]
    SuggestionShown.objects.bulk_create(rows, ignore_conflicts=True)
