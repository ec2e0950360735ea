"""Measures of a validation project, for the agreement report (docs/validation.md):

- per validator: mentions decided, the acceptance rate overall and per reason, mentions
  decided and mentions accepted (WEC's "valid mentions") per hour of active time (the
  progress matrix's idle cap) and per elapsed hour (pauses included: the time WEC's 350 an
  hour divides by), and, where topics have a consolidated validation, precision,
  recall and Cohen's kappa against it (WEC 3.3 reports all three);
- per pair of validators sharing topics: Cohen's kappa on accept/reject, pooled over the
  mentions both decided in the topics both submitted.

Decisions in effect are the `ValidationDecision` rows (undone ones are gone). Kappa and P/R use
submitted work only, like the rest of the report; rate and acceptance use all work so far.

The consolidated validation of a topic is its latest submitted adjudication's decisions; on
mentions the adjudicator left alone (they settle only where the validators differ), the
decision every submitted validator agrees on.
"""

from __future__ import annotations

import csv
from collections import defaultdict
from itertools import combinations
from typing import Any

from annotation.models import Annotation, Assignment, Operation, Project, ValidationDecision
from annotation.selectors.progress import IDLE_CAP_SECONDS
from validation.domain.measures import (
    active_seconds,
    cohen_kappa,
    elapsed_seconds,
    per_hour,
    precision_recall,
)

Decisions = dict[int, str]  # mention -> "accepted" | "rejected"


def _decisions(annotation_ids: list[int]) -> dict[int, dict[int, tuple[str, str]]]:
    out: dict[int, dict[int, tuple[str, str]]] = defaultdict(dict)
    rows = ValidationDecision.objects.filter(annotation_id__in=annotation_ids).values_list(
        "annotation_id", "mention_id", "decision", "reason"
    )
    for annotation, mention, decision, reason in rows:
        out[annotation][mention] = (decision, reason)
    return out


def consolidated_decisions(topic_ids: list[int]) -> dict[int, Decisions]:
    """topic id -> mention -> the consolidated decision, for topics with a submitted
    adjudication (see the module's docstring)."""
    adjudications = (
        Annotation.objects.submitted()
        .adjudications()
        .filter(topic_id__in=topic_ids)
        .order_by("topic_id", "-assignment__submitted_at", "-id")
        .values_list("id", "topic_id")
    )
    latest: dict[int, int] = {}
    for id, topic in adjudications:
        latest.setdefault(topic, id)
    if not latest:
        return {}
    validators = list(
        Annotation.objects.submitted()
        .annotator_work()
        .filter(topic_id__in=list(latest))
        .values_list("id", "topic_id")
    )
    decided = _decisions(list(latest.values()) + [id for id, _ in validators])
    votes: dict[int, dict[int, set[str]]] = defaultdict(lambda: defaultdict(set))
    for id, topic in validators:
        for mention, (decision, _) in decided[id].items():
            votes[topic][mention].add(decision)
    result: dict[int, Decisions] = {}
    for topic, adjudication in latest.items():
        agreed = {m: next(iter(d)) for m, d in votes[topic].items() if len(d) == 1}
        settled = {m: decision for m, (decision, _) in decided[adjudication].items()}
        result[topic] = {**agreed, **settled}
    return result


def _work_seconds(annotation_ids: list[int]) -> dict[int, tuple[float, float]]:
    """annotation id -> (active seconds, elapsed seconds) over its logged operations."""
    times: dict[int, list] = defaultdict(list)
    rows = (
        Operation.objects.filter(annotation_id__in=annotation_ids)
        .exclude(name="import")
        .order_by("annotation_id", "version")
        .values_list("annotation_id", "created_at")
    )
    for annotation, at in rows:
        times[annotation].append(at)
    return {
        id: (active_seconds([seq], IDLE_CAP_SECONDS), elapsed_seconds([seq]))
        for id, seq in times.items()
    }


def _ratio(part: int, whole: int) -> float | None:
    return part / whole if whole else None


def validation_measures(project: Project) -> dict[str, Any]:
    annotations = list(
        Annotation.objects.filter(
            topic__project=project,
            kind=Annotation.Kind.ANNOTATOR,
            assignment__role=Assignment.Role.ANNOTATOR,
        ).values_list("id", "topic_id", "assignment__user__username", "assignment__status")
    )
    ids = [id for id, *_ in annotations]
    decided = _decisions(ids)
    seconds = _work_seconds(ids)
    topic_ids = sorted({topic for _, topic, *_ in annotations})
    consolidated = consolidated_decisions(topic_ids)
    reasons = [reason["key"] for reason in project.validation_reasons]

    by_user: dict[str, list[tuple[int, int, str]]] = defaultdict(list)
    for id, topic, user, status in annotations:
        by_user[user].append((id, topic, status))
    validators = []
    for user in sorted(by_user):
        rows = by_user[user]
        decisions = [d for id, *_ in rows for d in decided[id].values()]
        n = len(decisions)
        accepted = sum(decision == "accepted" for decision, _ in decisions)
        spent = sum(seconds.get(id, (0.0, 0.0))[0] for id, *_ in rows)
        elapsed = sum(seconds.get(id, (0.0, 0.0))[1] for id, *_ in rows)
        against = [
            (decided[id][m][0], consolidated[topic][m])
            for id, topic, status in rows
            if status == Assignment.Status.SUBMITTED and topic in consolidated
            for m in decided[id]
            if m in consolidated[topic]
        ]
        compared = precision_recall(against)
        validators.append(
            {
                "validator": user,
                # submitted topics, like every other count of the report (the assigned ones
                # are the progress page's): a reader took assigned ones here for submitted
                "topics": sum(status == Assignment.Status.SUBMITTED for *_, status in rows),
                "decided": n,
                "accepted": accepted,
                "rejected": n - accepted,
                "acceptance_rate": _ratio(accepted, n),
                "by_reason": {
                    key: {
                        "count": (count := sum(reason == key for _, reason in decisions)),
                        "rate": _ratio(count, n),
                    }
                    for key in reasons
                },
                "active_seconds": round(spent, 1),
                # per hour of *active* time (gaps capped): ours, not comparable with WEC's
                "per_hour": per_hour(n, spent),
                "accepted_per_hour": per_hour(accepted, spent),
                # per *elapsed* hour (pauses included): WEC's "valid mentions per hour"
                "elapsed_seconds": round(elapsed, 1),
                "per_elapsed_hour": per_hour(n, elapsed),
                "accepted_per_elapsed_hour": per_hour(accepted, elapsed),
                "precision": compared.precision,
                "recall": compared.recall,
                "f1": compared.f1,
                "compared": compared.mentions,
                "kappa_consolidated": cohen_kappa(against),
            }
        )
    pairs, pooled = _pairs(annotations, decided)
    return {
        "reasons": project.validation_reasons,
        "idle_cap_seconds": IDLE_CAP_SECONDS,
        "consolidated_topics": len(consolidated),
        "validators": validators,
        "pairs": pairs,
        "kappa": cohen_kappa(pooled),
    }


def _pairs(annotations, decided) -> tuple[list[dict[str, Any]], list[tuple[str, str]]]:
    """Kappa per pair of validators over the topics both submitted, and every pair's
    (decision, decision) pooled for the project's one kappa."""
    submitted: dict[int, dict[str, int]] = defaultdict(dict)
    for id, topic, user, status in annotations:
        if status == Assignment.Status.SUBMITTED:
            submitted[topic][user] = id
    shared: dict[tuple[str, str], list[tuple[str, str]]] = defaultdict(list)
    topics: dict[tuple[str, str], int] = defaultdict(int)
    for users in submitted.values():
        for a, b in combinations(sorted(users), 2):
            mine, theirs = decided[users[a]], decided[users[b]]
            topics[(a, b)] += 1
            shared[(a, b)] += [(mine[m][0], theirs[m][0]) for m in mine if m in theirs]
    rows = [
        {
            "validators": [a, b],
            "topics": topics[(a, b)],
            "mentions": len(pairs),
            "agreement": _ratio(sum(x == y for x, y in pairs), len(pairs)),
            "kappa": cohen_kappa(pairs),
        }
        for (a, b), pairs in sorted(shared.items())
    ]
    return rows, [pair for pairs in shared.values() for pair in pairs]


def validation_measures_csv_rows(measures: dict[str, Any]) -> list[list[Any]]:
    """The report's validation section as CSV rows (layout: docs/validation.md)."""
    rows: list[list[Any]] = [["section", "validator", "other_validator", "measure", "value"]]
    for v in measures["validators"]:
        for measure in (
            "topics",
            "decided",
            "accepted",
            "rejected",
            "acceptance_rate",
            "active_seconds",
            "per_hour",
            "accepted_per_hour",
            "precision",
            "recall",
            "f1",
            "compared",
            "kappa_consolidated",
            "elapsed_seconds",
            "per_elapsed_hour",
            "accepted_per_elapsed_hour",
        ):
            rows.append(["validator", v["validator"], "", measure, _cell(v[measure])])
        for key, counts in v["by_reason"].items():
            rows.append(["validator", v["validator"], "", f"rejected:{key}", counts["count"]])
            rows.append(
                ["validator", v["validator"], "", f"rejected_rate:{key}", _cell(counts["rate"])]
            )
    for pair in measures["pairs"]:
        a, b = pair["validators"]
        for measure in ("topics", "mentions", "agreement", "kappa"):
            rows.append(["pair", a, b, measure, _cell(pair[measure])])
    rows.append(["project", "", "", "kappa", _cell(measures["kappa"])])
    rows.append(["project", "", "", "consolidated_topics", measures["consolidated_topics"]])
    return rows


def validation_csv_write(measures: dict[str, Any], stream) -> None:
    """Append the validation section to the report's CSV, after one empty line."""
    stream.write("\n")
    csv.writer(stream, lineterminator="\n").writerows(validation_measures_csv_rows(measures))


def _cell(value: Any) -> Any:
    if value is None:
        return ""
    return round(value, 4) if isinstance(value, float) else value
