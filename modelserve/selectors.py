"""Suggestions as an annotator sees them: mapped onto their own annotation's current clusters.

A model proposes clusters of mentions; an annotator works with clusters of their own. The
suggested cluster for a mention is the annotator's cluster that already holds most of the
other mentions the model grouped with it (or a new cluster if none is assigned yet); a
suggested edge joins the annotator's clusters that best cover the two suggested clusters.
Each item carries the exact operation that accepting it applies, checked against the
current state with the domain planner, so the interface never offers what would be refused.
"""

from __future__ import annotations

from collections import Counter

from annotation import gates
from annotation.domain.errors import DomainError, NotFound
from annotation.domain.operations import plan
from annotation.domain.state import AnnotationState, as_spans
from annotation.models import Annotation
from annotation.selectors.access import visible_annotations
from annotation.selectors.state import annotation_state_read
from modelserve.models import ModelTraining, Suggestion, SuggestionRun, SuggestionSettings
from modelserve.questions import uncertainty


def run_payload(run: SuggestionRun) -> dict:
    """A run as the interface shows it (the API and the live updates send the same)."""
    return {
        "run": run.pk,
        "topic": run.topic_id,
        "backend": run.backend,
        "status": run.status,
        "progress": round(run.progress, 3),
        "message": run.message,
        "error": run.error.split("\n\n")[0],
        "attempts": run.attempts,
        "created_at": run.created_at.isoformat() if run.created_at else None,
        "finished_at": run.finished_at.isoformat() if run.finished_at else None,
        "timings": run.timings,
    }


def latest_run(topic_id: int) -> SuggestionRun | None:
    return (
        SuggestionRun.objects.filter(topic_id=topic_id, status=SuggestionRun.Status.SUCCEEDED)
        .order_by("-finished_at", "-pk")
        .first()
    )


def finished_run(topic_id: int, run_id: int) -> SuggestionRun | None:
    """Run `run_id` if it is a finished run of this topic."""
    return SuggestionRun.objects.filter(
        pk=run_id, topic_id=topic_id, status=SuggestionRun.Status.SUCCEEDED
    ).first()


def newest_run(topic_id: int) -> SuggestionRun | None:
    """The topic's most recent run whatever its state (queued, running, failed or succeeded)."""
    return SuggestionRun.objects.filter(topic_id=topic_id).order_by("-created_at", "-pk").first()


def _majority_cluster(state: AnnotationState, mentions, exclude: int | None = None) -> int | None:
    counts = Counter(
        state.mention_cluster[m] for m in mentions if m != exclude and m in state.mention_cluster
    )
    if not counts:
        return None
    best = max(counts.values())
    return min(c for c, n in counts.items() if n == best)


def _checked(state: AnnotationState, operation: dict) -> tuple[bool, str]:
    try:
        plan(state, operation, lambda kind: -1)  # dry run: plan never mutates, ids are not used
    except DomainError as error:
        return False, error.message
    return True, ""


def membership_operation(
    state: AnnotationState, mention: int, cluster_members: list[int]
) -> dict | None:
    """The assign operation this membership suggestion stands for now, or None when the
    annotation already agrees with it (or the mention is gone)."""
    if mention not in state.mentions or state.mentions[mention].rejected:
        return None
    target = _majority_cluster(state, cluster_members, exclude=mention)
    current = state.mention_cluster.get(mention)
    if current is not None and (current == target or target is None):
        return None
    return {"op": "assign", "mention": mention, "cluster": target}


def edge_operation(
    state: AnnotationState, parent_members: list[int], child_members: list[int]
) -> dict | None:
    parent = _majority_cluster(state, parent_members)
    child = _majority_cluster(state, child_members)
    if parent is None or child is None or parent == child or (parent, child) in state.edges:
        return None
    if state.settings.single_parent:
        return {"op": "set_parent", "child": child, "parent": parent}
    return {"op": "add_edge", "parent": parent, "child": child}


def mention_operation(state: AnnotationState, payload: dict) -> dict | None:
    """The add_mention operation a mention suggestion stands for, or None when the annotation
    already has an active mention with exactly these spans (accepted, or added by hand)."""
    if payload["document"] not in state.documents or proposed_mention(state, payload) is not None:
        return None
    return {"op": "add_mention", "document": payload["document"], "spans": payload["spans"]}


def proposed_mention(state: AnnotationState, payload: dict) -> int | None:
    """The annotator's mention that a proposed one became: the active mention with exactly its
    spans (the lowest id if several), however it got there, so a link waiting for it is
    offered whether the annotator accepted the proposal or marked the same words themselves."""
    found = state.active_mentions_at(payload["document"], as_spans(payload["spans"]))
    return min(found) if found else None


def _link_end(
    state: AnnotationState, payload: dict, end: str, proposed: dict[int, dict]
) -> int | None:
    suggestion = payload.get(f"proposed_{end}")
    if suggestion is None:
        return payload[end]
    mention = proposed.get(suggestion)
    return proposed_mention(state, mention) if mention is not None else None


def link_operation(
    state: AnnotationState, payload: dict, proposed: dict[int, dict] | None = None
) -> dict | None:
    """`proposed`: the run's mention suggestions by id (`run_mentions`), for a link whose end
    is a proposed mention; such a link waits (None) until that mention exists."""
    anaphor = _link_end(state, payload, "anaphor", proposed or {})
    antecedent = _link_end(state, payload, "antecedent", proposed or {})
    if anaphor not in state.mentions or antecedent not in state.mentions:
        return None
    if any(
        link == (payload["type"], anaphor, antecedent)
        for link in state.mention_links.get(anaphor, ())
    ):
        return None
    return {"op": "add_link", "type": payload["type"], "anaphor": anaphor, "antecedent": antecedent}


def suggestion_operation(
    state: AnnotationState,
    suggestion: Suggestion,
    clusters: dict[int, list[int]],
    proposed: dict[int, dict] | None = None,
) -> dict | None:
    if suggestion.kind == Suggestion.Kind.MEMBERSHIP:
        return membership_operation(
            state, suggestion.payload["mention"], clusters[suggestion.payload["cluster"]]
        )
    if suggestion.kind == Suggestion.Kind.EDGE:
        return edge_operation(
            state, clusters[suggestion.payload["parent"]], clusters[suggestion.payload["child"]]
        )
    if suggestion.kind == Suggestion.Kind.LINK:
        return link_operation(state, suggestion.payload, proposed)
    if suggestion.kind == Suggestion.Kind.MENTION:
        return mention_operation(state, suggestion.payload)
    return None


def run_clusters(run: SuggestionRun) -> dict[int, list[int]]:
    return dict(
        run.suggestions.filter(kind=Suggestion.Kind.CLUSTER).values_list("pk", "payload__mentions")
    )


def run_mentions(run: SuggestionRun) -> dict[int, dict]:
    """The run's proposed mentions: suggestion id -> {"document", "spans"}."""
    return dict(run.suggestions.filter(kind=Suggestion.Kind.MENTION).values_list("pk", "payload"))


# The lists of the suggestions payload, by kind (clusters are not decided on themselves).
ITEM_KEYS: dict[str, str] = {
    Suggestion.Kind.MEMBERSHIP: "memberships",
    Suggestion.Kind.EDGE: "edges",
    Suggestion.Kind.LINK: "links",
    Suggestion.Kind.MENTION: "mentions",
}


def annotation_suggestions(annotation: Annotation, run: SuggestionRun | None = None) -> dict:
    """Every undecided suggestion of the run that would still change the annotation.

    `version` is the annotation version the items were mapped against; `newest_run` is the
    topic's most recent run in any state, so that a page opened while a run is queued or
    running shows its progress, and one opened after a failure shows the error."""
    # A topic made practice after a run: its suggestions would answer the test, so none.
    practice = gates.practice_proposals_refusal(annotation.topic_id, annotation.topic.project_id)
    newest = None if practice else newest_run(annotation.topic_id)
    context = {"version": annotation.version, "newest_run": run_payload(newest) if newest else None}
    run = None if practice else run or latest_run(annotation.topic_id)
    if run is None:
        return {"run": None, **{key: [] for key in ITEM_KEYS.values()}, **context}
    with annotation_state_read(annotation) as state:
        result = _suggestion_items(state, run)
    return {"run": run_payload(run), **result, **context}


def _suggestion_items(state: AnnotationState, run: SuggestionRun) -> dict[str, list]:
    clusters = run_clusters(run)
    proposed = run_mentions(run)
    result: dict[str, list] = {key: [] for key in ITEM_KEYS.values()}
    for suggestion in run.suggestions.exclude(kind=Suggestion.Kind.CLUSTER).order_by(
        "kind", "-score", "position"
    ):
        decision = state.decisions.get(suggestion.pk)
        operation = suggestion_operation(state, suggestion, clusters, proposed)
        if operation is None or decision == "accepted":
            continue
        valid, reason = _checked(state, operation)
        item = {
            "suggestion": suggestion.pk,
            "score": suggestion.score,
            "uncertainty": uncertainty(
                suggestion.kind, suggestion.score, suggestion.payload.get("type_scores")
            ),
            "operation": operation,
            "decision": decision,
            "valid": valid,
            "reason": reason,
        }
        if suggestion.kind == Suggestion.Kind.MEMBERSHIP:
            item["mention"] = suggestion.payload["mention"]
            item["suggested_members"] = clusters[suggestion.payload["cluster"]]
        if suggestion.kind == Suggestion.Kind.MENTION:
            item["document"] = suggestion.payload["document"]
            item["spans"] = suggestion.payload["spans"]
        result[ITEM_KEYS[suggestion.kind]].append(item)
    return result


def suggestion_exists(topic_id: int, suggestion_id: int) -> bool:
    """Whether `suggestion_id` names a suggestion made for this topic (the core asks this
    before it records a decision: annotation/proposals.py)."""
    return Suggestion.objects.filter(pk=suggestion_id, run__topic_id=topic_id).exists()


def all_suggestion_settings() -> list[SuggestionSettings]:
    """One row per project, in project-name order (defaults, unsaved, where none was set)."""
    from annotation.models import Project

    rows = {row.project_id: row for row in SuggestionSettings.objects.all()}
    return [
        rows.get(pk) or SuggestionSettings(project_id=pk)
        for pk in Project.objects.order_by("name").values_list("pk", flat=True)
    ]


def project_suggestion_settings(project_id: int) -> SuggestionSettings:
    """The project's settings; the defaults (unsaved) for a project that never set any."""
    row = SuggestionSettings.objects.filter(project_id=project_id).first()
    return row if row is not None else SuggestionSettings(project_id=project_id)


def topic_runs(topic) -> dict:
    """The topic's 20 newest runs, and the backend its project suggests with."""
    runs = SuggestionRun.objects.filter(topic=topic).order_by("-created_at")[:20]
    return {
        "runs": [run_payload(r) for r in runs],
        "backend": project_suggestion_settings(topic.project_id).backend,
    }


def annotation_suggestions_for(user, annotation_id: int, *, run_id: int | None) -> dict:
    """`annotation_suggestions` of an annotation `user` may see, for run `run_id` (a finished
    run of its topic) or the latest."""
    annotation = (
        visible_annotations(user).select_related("topic__project").filter(pk=annotation_id).first()
    )
    if annotation is None:
        raise NotFound("annotation", annotation_id)
    run = None
    if run_id is not None:
        run = finished_run(annotation.topic_id, run_id)
        if run is None:
            raise NotFound("suggestion run", run_id, "No finished suggestion run for this topic.")
    return annotation_suggestions(annotation, run)


def latest_trainings() -> list[ModelTraining]:
    """The newest training of each model trained after start-up (the admin page's progress)."""
    rows = ModelTraining.objects.filter(project__isnull=True)  # a project's: its versions list
    return list(rows.order_by("name", "-created_at", "-pk").distinct("name"))
