"""How often annotators accept what each backend suggests (from the logged decisions)."""

from __future__ import annotations

from django.db.models import Count, Q

from annotation.models import SuggestionDecision


def acceptance_by_backend(*, project_id: int | None = None) -> list[dict]:
    decisions = SuggestionDecision.objects.all()
    if project_id is not None:
        decisions = decisions.filter(annotation__topic__project_id=project_id)
    rows = (
        decisions.values("suggestion__run__backend", "suggestion__kind")
        .annotate(
            accepted=Count("id", filter=Q(decision="accepted")),
            rejected=Count("id", filter=Q(decision="rejected")),
        )
        .order_by("suggestion__run__backend", "suggestion__kind")
    )
    return [
        {
            "backend": r["suggestion__run__backend"],
            "kind": r["suggestion__kind"],
            "accepted": r["accepted"],
            "rejected": r["rejected"],
            "acceptance_rate": r["accepted"] / (r["accepted"] + r["rejected"])
            if r["accepted"] + r["rejected"]
            else 0.0,
        }
        for r in rows
    ]
