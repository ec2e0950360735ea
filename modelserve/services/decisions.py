"""Deciding on suggestions in bulk.

- Accept above a score: each acceptance is a normal, logged, undoable operation of its own.
- Accept or reject every open suggestion of one kind (`suggestions_decide`): the suggestions
  the workspace previewed, as ONE logged operation, so one undo reverts them all; one the
  rules refuse now refuses the whole step, naming it.
"""

from __future__ import annotations

from annotation import gates
from annotation.domain.errors import InvalidOperation, NotAllowed, NotFound
from annotation.domain.operations import plan
from annotation.domain.operations.bulk import check_size, spans_name
from annotation.domain.state import AnnotationState, as_spans
from annotation.selectors.access import editable_annotation
from annotation.services.operations import (
    Applied,
    annotation_operation_apply_parts,
    annotation_operations_apply_each,
)
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


def _run_of(annotation, run_id: int | None, *, accepting: bool):
    why = gates.practice_proposals_refusal(annotation.topic_id, annotation.topic.project_id)
    if why and accepting:
        raise NotAllowed(why, setting="practice")
    run = (
        latest_run(annotation.topic_id)
        if run_id is None
        else finished_run(annotation.topic_id, run_id)
    )
    if run is None:
        raise NotFound("suggestion run", run_id, "No finished suggestion run for this topic.")
    return run


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
    run = _run_of(annotation, run_id, accepting=True)
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


def _describe(state: AnnotationState, suggestion: Suggestion, operation: dict | None) -> str:
    """A suggestion as the annotator sees it, for a refusal: its mentions by text and place."""
    op = operation or {}
    if suggestion.kind == Suggestion.Kind.LINK and op.get("op") == "add_link":
        ends = f"{state.mention_name(op['anaphor'])} → {state.mention_name(op['antecedent'])}"
        return f"the suggested {op['type']} link {ends}"
    if suggestion.kind == Suggestion.Kind.MENTION:
        document, spans = suggestion.payload["document"], as_spans(suggestion.payload["spans"])
        return f"the suggested mention {spans_name(state, document, spans)}"
    if suggestion.kind == Suggestion.Kind.MEMBERSHIP:
        return f"the suggested cluster of {state.mention_name(suggestion.payload['mention'])}"
    if op.get("op") in ("set_parent", "add_edge"):
        parent, child = state.cluster_name(op["parent"]), state.cluster_name(op["child"])
        return f"the suggestion to put {child} under {parent}"
    return "a suggestion"


def suggestions_decide(
    *,
    annotation_id: int,
    user,
    run_id: int | None,
    decision: str,
    suggestions: list[int],
    expected_version: int,
    client_id: str = "",
) -> Applied:
    """Accept (`decision` "accepted") or reject every suggestion in `suggestions` as one
    logged operation. The workspace sends the open suggestions of one kind it counted in its
    preview (one link type, the proposed mentions, the memberships or the edges); any
    suggestion of the run may be named.

    Accepting plans each against the state the ones before it left, in the order accept-above
    uses (a second member of a suggested cluster joins the cluster the first one opened); one
    the annotation already agrees with is passed over. A suggestion the rules refuse now, or
    one already decided so, refuses the whole step naming it: the annotator's preview was
    wrong, so nothing is written and the version conflict path (or the refusal) tells them."""
    check_size("suggestions", len(suggestions))
    annotation = editable_annotation(user, annotation_id)
    accepting = decision == "accepted"
    run = _run_of(annotation, run_id, accepting=accepting)
    wanted = list(dict.fromkeys(suggestions))
    found = {
        s.pk: s for s in run.suggestions.filter(pk__in=wanted).exclude(kind=Suggestion.Kind.CLUSTER)
    }
    missing = [pk for pk in wanted if pk not in found]
    if missing:
        raise InvalidOperation(
            "suggestions",
            f"{len(missing)} of them {'is' if len(missing) == 1 else 'are'} not among the "
            "suggestions of this topic's run (they changed: reload the suggestions)",
        )
    ordered = sorted(found.values(), key=lambda s: (KIND_ORDER.index(s.kind), -s.score, s.position))
    clusters = run_clusters(run) if accepting else {}
    proposed = run_mentions(run) if accepting else {}

    def operation_of(state: AnnotationState, suggestion: Suggestion) -> dict | None:
        return suggestion_operation(state, suggestion, clusters, proposed) if accepting else None

    def name(suggestion: Suggestion):
        return lambda state: _describe(state, suggestion, operation_of(state, suggestion))

    def part(suggestion: Suggestion, new_id):
        def plan_part(state: AnnotationState):
            if not accepting:
                return plan(state, {"op": "reject_suggestion", "suggestion": suggestion.pk}, new_id)
            operation = operation_of(state, suggestion)
            if operation is None and state.decisions.get(suggestion.pk) != "accepted":
                return None  # the annotation already agrees: nothing to change
            op = {"op": "accept_suggestion", "suggestion": suggestion.pk, "operation": operation}
            return plan(state, op, new_id)

        return plan_part

    def parts(state: AnnotationState, new_id):
        return [(name(s), part(s, new_id)) for s in ordered]

    step = "accept_suggestions" if accepting else "reject_suggestions"
    return annotation_operation_apply_parts(
        annotation_id=annotation_id,
        user=user,
        expected_version=expected_version,
        payload={"op": step, "run": run.pk, "suggestions": [s.pk for s in ordered]},
        parts=parts,
        nothing="Every one of these suggestions is already in the annotation: nothing to accept.",
        client_id=client_id,
    )
