"""Where annotators' time goes, for the progress page and its CSV (issue 26.6): per annotator,
the time of each kind of decision, suggestion acceptance latency with Potato's rubber-stamping
flag, and agreement with adjudicated gold in submission order and by week.

Definitions: annotation/domain/time_spent.py and docs/time-spent.md.
"""

from __future__ import annotations

import csv
import io
from collections import defaultdict
from dataclasses import asdict, replace
from typing import Any

from annotation.domain.scoring import api
from annotation.domain.time_spent import (
    KINDS,
    RUBBER_STAMP_SECONDS,
    LoggedEvent,
    acceptance_latency,
    decision_kind,
    decision_times,
    iso_week,
    kind_summary,
)
from annotation.models import Annotation, Assignment, Operation, Project, SuggestionShown
from annotation.selectors.gold import adjudicated_annotations
from annotation.selectors.progress import IDLE_CAP_SECONDS
from annotation.selectors.topic_data import annotations_topic_data, document_token_counts


def project_time_report(project: Project) -> dict[str, Any]:
    owners = dict(
        Annotation.objects.filter(topic__project=project, assignment__isnull=False).values_list(
            "id", "assignment__user__username"
        )
    )
    # Only the two payload keys the kinds need, not whole payloads and effects.
    rows = (
        Operation.objects.filter(annotation_id__in=list(owners))
        .exclude(name="import")
        .values_list(
            "annotation_id",
            "user__username",
            "created_at",
            "name",
            "kind",
            "payload__cluster",
            "payload__suggestion",
        )
    )
    events = []
    accepted: dict[str, list[tuple[int, int, Any]]] = defaultdict(list)
    for annotation, user, at, name, kind, cluster, suggestion in rows:
        who = user or owners[annotation]
        events.append(
            LoggedEvent(who, annotation, at, decision_kind(name, {"cluster": cluster}, kind))
        )
        if name == "accept_suggestion" and kind == Operation.Kind.DO:
            accepted[who].append((annotation, suggestion, at))
    times = decision_times(events, IDLE_CAP_SECONDS)
    shown: dict[int, dict[int, Any]] = defaultdict(dict)
    for annotation, suggestion, at in SuggestionShown.objects.filter(
        annotation_id__in=list(owners)
    ).values_list("annotation_id", "suggestion", "shown_at"):
        shown[annotation][suggestion] = at
    gold = gold_over_time(project)
    annotators = []
    for user in sorted(set(owners.values()) | set(times)):
        latency = _latency(accepted.get(user, []), shown)
        annotators.append(
            {
                "annotator": user,
                "kinds": {k: asdict(v) for k, v in kind_summary(times.get(user, {})).items()},
                "acceptance": asdict(latency),
                "gold": gold["annotators"].get(user, {"topics": [], "weeks": []}),
            }
        )
    return {
        "idle_cap_seconds": IDLE_CAP_SECONDS,
        "rubber_stamp_seconds": RUBBER_STAMP_SECONDS,
        "kinds": list(KINDS),
        "gold_metric": gold["metric"],
        "annotators": annotators,
    }


def _latency(accepted: list[tuple[int, int, Any]], shown: dict[int, dict[int, Any]]):
    """One annotator's latency over their annotations: each acceptance against the display
    in the same annotation (a suggestion id belongs to one topic's run). Keyed by position,
    as the same suggestion may be accepted in two annotations."""
    displays: dict[int, Any] = {}
    acceptances: list[tuple[int, Any]] = []
    for position, (annotation, suggestion, at) in enumerate(accepted):
        seen = shown.get(annotation, {}).get(suggestion)
        if seen is not None:
            displays[position] = seen
        acceptances.append((position, at))
    return acceptance_latency(displays, acceptances)


def _metric(project: Project) -> str | None:
    if project.validation:
        return None  # validators are compared with the consolidation (validation report)
    return "conll_f1" if project.hierarchy else "relation_exact_f1" if project.anaphora else None


def _score(project: Project, keys: list, responses: list) -> float | None:
    if project.hierarchy:
        return api.score_scico(keys, responses, intervals=False)["conll_f1"]
    return api.score_chemu(keys, responses, intervals=False)["exact"]["overall"]["f1"]


def gold_over_time(project: Project) -> dict[str, Any]:
    """`{"metric", "annotators": {name: {"topics": [{"order", "topic", "external_id",
    "submitted_at", "week", "score"}], "weeks": [{"week", "topics", "score"}]}}}`: each
    annotator's submitted topics that have an adjudication, in submission order, scored
    against the latest submitted adjudication (CoNLL F1 for hierarchy projects, exact relation
    F1 for anaphora ones); a week's score is the mean of its topics' scores (one scoring per
    topic: a micro score per week would score every topic twice)."""
    metric = _metric(project)
    if metric is None:
        return {"metric": None, "annotators": {}}
    gold = adjudicated_annotations(project)
    work = list(
        Annotation.objects.filter(
            topic_id__in=list(gold),
            kind=Annotation.Kind.ANNOTATOR,
            assignment__status=Assignment.Status.SUBMITTED,
        )
        .select_related("assignment__user", "topic")
        .order_by("assignment__submitted_at", "id")
    )
    data = annotations_topic_data([*gold.values(), *work], scoring=True)
    counts = document_token_counts(set(gold))

    def plain(annotation: Annotation) -> api.TopicAnnotation:
        topic = api.from_topic(data[annotation.pk])
        return replace(topic, token_counts=counts.get(annotation.topic_id, ()))

    by_user: dict[str, list[Annotation]] = defaultdict(list)
    for annotation in work:
        by_user[annotation.assignment_of_work.user.get_username()].append(annotation)
    out: dict[str, Any] = {}
    for user, done in by_user.items():
        topics = []
        for order, annotation in enumerate(done, start=1):
            at = annotation.assignment_of_work.submitted_at
            week = iso_week(at) if at else ""
            score = _score(project, [plain(gold[annotation.topic_id])], [plain(annotation)])
            topics.append(
                {
                    "order": order,
                    "topic": annotation.topic_id,
                    "external_id": annotation.topic.external_id,
                    "submitted_at": at,
                    "week": week,
                    "score": score,
                }
            )
        out[user] = {"topics": topics, "weeks": _weeks(topics)}
    return {"metric": metric, "annotators": out}


def _weeks(topics: list[dict[str, Any]]) -> list[dict[str, Any]]:
    grouped: dict[str, list[float | None]] = defaultdict(list)
    for topic in topics:
        grouped[topic["week"]].append(topic["score"])
    rows = []
    for week, scores in sorted(grouped.items()):
        defined = [s for s in scores if s is not None]
        mean = sum(defined) / len(defined) if defined else None
        rows.append({"week": week, "topics": len(scores), "score": mean})
    return rows


def time_report_csv(report: dict[str, Any]) -> str:
    """Long format, one value a row: `section,annotator,key,measure,value` (docs/time-spent.md)."""
    stream = io.StringIO()
    writer = csv.writer(stream, lineterminator="\n")
    writer.writerow(["section", "annotator", "key", "measure", "value"])
    for a in report["annotators"]:
        name = a["annotator"]
        for kind, figures in a["kinds"].items():
            for measure, value in figures.items():
                writer.writerow(["decision", name, kind, measure, _cell(value)])
        for measure, value in a["acceptance"].items():
            writer.writerow(["acceptance", name, "", measure, _cell(value)])
        for topic in a["gold"]["topics"]:
            key = f"{topic['order']}:{topic['external_id']}"
            writer.writerow(["gold_topic", name, key, "submitted_at", _cell(topic["submitted_at"])])
            writer.writerow(["gold_topic", name, key, report["gold_metric"], _cell(topic["score"])])
        for week in a["gold"]["weeks"]:
            writer.writerow(["gold_week", name, week["week"], "topics", week["topics"]])
            writer.writerow(
                ["gold_week", name, week["week"], report["gold_metric"], _cell(week["score"])]
            )
    return stream.getvalue()


def _cell(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return round(value, 4)
    if hasattr(value, "isoformat"):
        return value.isoformat()
    return value
