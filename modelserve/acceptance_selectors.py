"""How often annotators accept what each backend suggests (from the logged decisions)."""

from __future__ import annotations

from django.db.models import Count, OuterRef, Q, Subquery

from annotation.models import SuggestionDecision
from modelserve.models import Suggestion


def acceptance_by_backend(*, project_id: int | None = None) -> list[dict]:
    decisions = SuggestionDecision.objects.all()
    if project_id is not None:
        decisions = decisions.filter(annotation__topic__project_id=project_id)
    # Decisions name suggestions by id only (the core does not know this app's tables).
    suggestion = Suggestion.objects.filter(pk=OuterRef("suggestion"))
    rows = (
        decisions.annotate(
            backend=Subquery(suggestion.values("run__backend")[:1]),
            kind=Subquery(suggestion.values("kind")[:1]),
        )
        .values("backend", "kind")
        .annotate(
            accepted=Count("id", filter=Q(decision="accepted")),
            rejected=Count("id", filter=Q(decision="rejected")),
        )
        .order_by("backend", "kind")
    )
    return [
        {
            "backend": r["backend"],
            "kind": r["kind"],
            "accepted": r["accepted"],
            "rejected": r["rejected"],
            "acceptance_rate": r["accepted"] / (r["accepted"] + r["rejected"])
            if r["accepted"] + r["rejected"]
            else 0.0,
        }
        for r in rows
    ]
