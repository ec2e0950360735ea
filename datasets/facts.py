"""What the datasheet says about how a dataset was made, read from the database: who
annotated (as counts; names only when asked), the agreement, annotator vs gold, adjudication,
validation and the split.

Annotator-vs-gold is scored with the scoring engine (`annotation.domain.scoring.api`), each
annotator's submitted annotations against the submitted adjudication of the same topics, so
the figures are the ones `python -m annotation.domain.scoring score` gives on the exported
files.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from django.apps import apps

from annotation.domain.scoring import api
from annotation.models import Annotation, Assignment, Project, Topic
from annotation.selectors.agreement import project_agreement
from annotation.selectors.gold import adjudicated_annotations, imported_gold_annotations
from annotation.selectors.topic_data import annotations_topic_data, document_token_counts
from datasets.models import SplitRecord
from datasets.selectors import latest_split_record, split_names


def annotation_process(project: Project, *, with_names: bool) -> dict:
    """Users per role, assignments and submissions, annotators per topic."""
    rows = list(
        Assignment.objects.filter(topic__project=project).values_list(
            "role", "status", "user__username", "topic_id"
        )
    )
    by_role: dict[str, set[str]] = {}
    for role, _, user, _ in rows:
        by_role.setdefault(role, set()).add(user)
    submitted = [r for r in rows if r[1] == Assignment.Status.SUBMITTED]
    per_topic = Counter(
        topic for role, _, _, topic in submitted if role == Assignment.Role.ANNOTATOR
    )
    facts = {
        "topics": Topic.objects.filter(project=project).count(),
        "annotators": len(by_role.get(Assignment.Role.ANNOTATOR, ())),
        "adjudicators": len(by_role.get(Assignment.Role.ADJUDICATOR, ())),
        "assignments": sum(1 for r in rows if r[0] == Assignment.Role.ANNOTATOR),
        "submitted": sum(1 for r in submitted if r[0] == Assignment.Role.ANNOTATOR),
        "annotated_by": dict(sorted(Counter(per_topic.values()).items())),
    }
    if with_names:
        facts["names"] = {role: sorted(users) for role, users in sorted(by_role.items())}
    return facts


def agreement(project: Project) -> dict:
    return project_agreement(project)


def annotator_vs_gold(project: Project, *, with_names: bool) -> list[dict]:
    """Per annotator (`annotator 1`, ... in name order unless `with_names`), their submitted
    annotations scored against the adjudication of the same topics (topics without a
    submitted adjudication are left out). Empty when nothing was adjudicated."""
    gold = adjudicated_annotations(project)
    if not gold:
        return []
    work = list(
        Annotation.objects.filter(
            topic_id__in=list(gold),
            kind=Annotation.Kind.ANNOTATOR,
            assignment__status=Assignment.Status.SUBMITTED,
        )
        .select_related("assignment__user")
        .order_by("topic__position", "topic_id")
    )
    data = annotations_topic_data([*gold.values(), *work], scoring=True)
    counts = document_token_counts(gold)

    def plain(annotation: Annotation) -> api.TopicAnnotation:
        return replace(
            api.from_topic(data[annotation.pk]), token_counts=counts.get(annotation.topic_id, ())
        )

    by_user: dict[str, list[Annotation]] = {}
    for annotation in work:
        by_user.setdefault(annotation.assignment.user.get_username(), []).append(annotation)
    rows = []
    for number, (name, done) in enumerate(sorted(by_user.items()), start=1):
        keys = [plain(gold[a.topic_id]) for a in done]
        responses = [plain(a) for a in done]
        row: dict = {
            "annotator": name if with_names else f"annotator {number}",
            "topics": len(done),
        }
        if project.hierarchy:
            scico = api.score_scico(keys, responses)
            row["conll_f1"] = scico["conll_f1"]
            row["hierarchy_f1"] = scico["hierarchy"]["f1"]
            row["path_ratio"] = scico["path_ratio"]["micro"]
        if project.anaphora:
            chemu = api.score_chemu(keys, responses)
            row["relations_exact_f1"] = chemu["exact"]["overall"]["f1"]
            row["relations_relaxed_f1"] = chemu["relaxed"]["overall"]["f1"]
        rows.append(row)
    return rows


def adjudication(project: Project) -> dict:
    adjudicated = adjudicated_annotations(project)
    imported = imported_gold_annotations(project)
    started = (
        Assignment.objects.filter(topic__project=project, role=Assignment.Role.ADJUDICATOR)
        .values("topic_id")
        .distinct()
        .count()
    )
    return {
        "adjudicated_topics": len(adjudicated),
        "adjudications_in_progress": started - len(adjudicated),
        "imported_gold_topics": len(set(imported) - set(adjudicated)),
        "topics_without_gold": Topic.objects.filter(project=project)
        .exclude(pk__in=[*imported, *adjudicated])
        .count(),
    }


def validation(project: Project) -> dict | None:
    """Validation decisions (WEC-style) of submitted work, or None where the project has no
    validation scheme or no decision: the datasheet then says "none"."""
    try:
        decisions = apps.get_model("annotation", "ValidationDecision")
    except LookupError:
        return None
    rows = list(
        decisions.objects.filter(
            annotation__topic__project=project,
            annotation__assignment__status=Assignment.Status.SUBMITTED,
        ).values_list("annotation__kind", "annotation__topic_id", "decision", "reason")
    )
    if not rows:
        return None
    return {
        "decisions": len(rows),
        "topics": len({topic for _, topic, _, _ in rows}),
        "accepted": sum(1 for _, _, decision, _ in rows if decision == "accepted"),
        "rejected": sum(1 for _, _, decision, _ in rows if decision == "rejected"),
        "reasons": dict(sorted(Counter(r for _, _, d, r in rows if d == "rejected").items())),
        "by_adjudicators": sum(1 for kind, *_ in rows if kind == Annotation.Kind.ADJUDICATION),
    }


def split_facts(project: Project) -> dict:
    """The latest split record and how many topics were moved by hand since."""
    record: SplitRecord | None = latest_split_record(project)
    current = dict(
        Topic.objects.filter(project=project).values_list("external_id", "split").order_by()
    )
    sizes = Counter(split for split in current.values() if split)
    ordered = {name: sizes[name] for name in split_names(project)}
    facts: dict = {"sizes": ordered, "record": None, "moved_by_hand": 0}
    if record is not None:
        facts["record"] = {
            "method": record.method,
            "seed": record.seed,
            "names": record.names,
            "ratios": record.ratios,
            "balance": record.balance,
            "deviation": record.deviation,
            "date": record.created_at.date().isoformat(),
        }
        facts["moved_by_hand"] = sum(
            1 for key, split in current.items() if record.assignment.get(key, "") != split
        )
    return facts
