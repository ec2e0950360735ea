"""Accepting suggestions in bulk: each acceptance is a normal, logged, undoable operation."""

from __future__ import annotations

from annotation import gates
from annotation.domain.errors import NotAllowed, NotFound
from annotation.selectors.access import editable_annotation
from annotation.services.operations import annotation_operations_apply_each
from modelserve.models import Suggestion
from modelserve.selectors import (
    finished_run,
    latest_run,
    run_clusters,
    run_mentions,
    suggestion_operation,
)

# Memberships before edges, proposed mentions before links: each maps onto what the ones
# before it made.
KIND_ORDER: list[str] = [
    Suggestion.Kind.MEMBERSHIP,
    Suggestion.Kind.EDGE,
    Suggestion.Kind.MENTION,
    Suggestion.Kind.LINK,
]


def suggestions_accept_above(
    *,
    annotation_id: int,
    user,
    run_id: int | None,
    threshold: float,
    kinds: list[str],
    expected_version: int,
    client_id: str = "",
) -> dict:
    """Accept, best score first, every undecided suggestion of `run` scoring at least
    `threshold`. Memberships go first so that edges between the new clusters can map, and
    proposed mentions before links, so that a link to a mention accepted here is offered.

    Each acceptance is recomputed against the state the previous one left (the first member of
    a suggested cluster opens a new cluster, the next ones join it) and applied as its own
    logged operation; one the rules refuse now is skipped and reported. Without `run_id`,
    the topic's latest finished run."""
    annotation = editable_annotation(user, annotation_id)
    topic_id = annotation.topic_id
    why = gates.practice_proposals_refusal(topic_id, annotation.topic.project_id)
    if why:
        raise NotAllowed(why, setting="practice")
    run = latest_run(topic_id) if run_id is None else finished_run(topic_id, run_id)
    if run is None:
        raise NotFound("suggestion run", run_id, "No finished suggestion run for this topic.")
    clusters = run_clusters(run)
    proposed = run_mentions(run)
    candidates = run.suggestions.filter(kind__in=kinds, score__gte=threshold).exclude(
        kind=Suggestion.Kind.CLUSTER
    )
    ordered = sorted(candidates, key=lambda s: (KIND_ORDER.index(s.kind), -s.score, s.position))

    def builder(suggestion: Suggestion):
        def build(state):
            if suggestion.pk in state.decisions:
                return None
            operation = suggestion_operation(state, suggestion, clusters, proposed)
            if operation is None:
                return None
            return {"op": "accept_suggestion", "suggestion": suggestion.pk, "operation": operation}

        return build

    applied, skipped = annotation_operations_apply_each(
        annotation_id=annotation_id,
        user=user,
        expected_version=expected_version,
        client_id=client_id,
        builders=[(s.pk, builder(s)) for s in ordered],
    )
    return {
        "applied": [a.as_message() for a in applied],
        "skipped": [{"suggestion": s.key, "reason": s.reason} for s in skipped],
        "version": applied[-1].version if applied else expected_version,
    }
