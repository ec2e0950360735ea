"""Where annotators' time goes, for the progress page and its CSV (docs/time-spent.md): per
annotator, the time of each kind of decision, suggestion acceptance latency with Potato's
rubber-stamping flag, and agreement with adjudicated gold in submission order and by week.

Definitions: reporting/domain/time_spent.py and docs/time-spent.md.
"""

from __future__ import annotations

import csv
import io
from collections import defaultdict
from dataclasses import asdict
from typing import Any

from annotation.models import SEED_OPERATION, Annotation, Operation, Project
from annotation.selectors.gold import adjudicated_annotations
from annotation.selectors.progress import IDLE_CAP_SECONDS
from corefscore.scoring.stored import StoredRecord, score_from_records
from reporting.domain.time_spent import (
    KINDS,
    RUBBER_STAMP_SECONDS,
    LoggedEvent,
    acceptance_latency,
    decision_kind,
    decision_times,
    iso_week,
    kind_summary,
)
from reporting.models import SuggestionShown
from reporting.selectors.agreement_pairs import agreement_records, report_pairs


def project_time_report(project: Project) -> dict[str, Any]:
    owners = dict(
        Annotation.objects.filter(topic__project=project, assignment__isnull=False).values_list(
            "id", "assignment__user__username"
        )
    )
    # Only the two payload keys the kinds need, not whole payloads and effects.
    rows = (
        Operation.objects.filter(annotation_id__in=list(owners))
        .exclude(name__in=("import", SEED_OPERATION))  # written for the annotator, not by them
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


def _score(metric: str, record: StoredRecord) -> float | None:
    """One topic's score from its stored (gold, work) record: what `api.score_scico` /
    `api.score_chemu` give for that topic alone."""
    if metric == "conll_f1":
        return score_from_records("scico", [record])["conll_f1"]
    return score_from_records("chemu", [record])["exact"]["overall"]["f1"]


def gold_over_time(project: Project) -> dict[str, Any]:
    """`{"metric", "annotators": {name: {"topics": [{"order", "topic", "external_id",
    "submitted_at", "week", "score"}], "weeks": [{"week", "topics", "score"}]}}}`: each
    annotator's submitted topics that have an adjudication, in submission order, scored
    against the latest submitted adjudication (CoNLL F1 for hierarchy projects, exact relation
    F1 for anaphora ones); a week's score is the mean of its topics' scores (one scoring per
    topic: a micro score per week would score every topic twice).

    Read from the agreement report's stored per-pair counts (the adjudication is the topic's
    gold there too; selectors/agreement_pairs.py computes and stores any row missing or
    stale), so opening the progress page scores nothing that a submit has scored already."""
    metric = _metric(project)
    if metric is None:
        return {"metric": None, "annotators": {}}
    gold = adjudicated_annotations(project)
    work = list(
        Annotation.objects.submitted()
        .annotator_work()
        .filter(topic_id__in=list(gold))
        .order_by("assignment__submitted_at", "id")
        .values_list(
            "id",
            "version",
            "topic_id",
            "topic__external_id",
            "assignment__user__username",
            "assignment__submitted_at",
        )
    )
    records = agreement_records(
        project, report_pairs([row[:5] for row in work], gold, annotators=False)
    )
    by_user: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for id, _, topic_id, external_id, user, at in work:
        topics = by_user[user]
        topics.append(
            {
                "order": len(topics) + 1,
                "topic": topic_id,
                "external_id": external_id,
                "submitted_at": at,
                "week": iso_week(at) if at else "",
                "score": _score(metric, records[gold[topic_id].pk, id]),
            }
        )
    return {
        "metric": metric,
        "annotators": {
            user: {"topics": topics, "weeks": _weeks(topics)} for user, topics in by_user.items()
        },
    }


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
