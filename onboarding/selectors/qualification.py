"""Who must qualify where, who has, and why an assignment is locked."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model

from annotation.models import Assignment, Project
from onboarding.models import (
    PracticeAttempt,
    PracticeTopic,
    Qualification,
    QualificationChange,
    QualificationRule,
)
from onboarding.selectors.practice import attempt_payload, gold_coverage

METRIC_NAMES = {
    "conll_f1": "CoNLL F1",
    "muc_f1": "MUC F1",
    "bcub_f1": "B³ F1",
    "ceafe_f1": "CEAF-e F1",
    "lea_f1": "LEA F1",
    "hierarchy_f1": "hierarchy F1 (SciCo, closure)",
    "hierarchy_50_f1": "hierarchy F1-50%",
    "path_ratio": "path ratio",
    "relation_exact_f1": "link F1 (exact)",
    "relation_relaxed_f1": "link F1 (relaxed)",
    "alpha_relations": "α relations",
    "alpha_mentions": "α mentions",
    "alpha_mentions_coreference": "α coreference mentions",
    "alpha_mentions_transformed": "α transformed mentions",
    "alpha_mentions_reaction_associated": "α reaction-associated mentions",
    "alpha_mentions_work_up": "α work-up mentions",
    "alpha_mentions_contained": "α contained mentions",
    "hierarchy_f1_raw": "hierarchy F1, raw edges (not SciCo's)",
    "mention_f1": "mention F1",
    "mention_relaxed_f1": "mention F1 (overlap)",
    "anaphor_f1": "anaphor F1",
    "anaphor_relaxed_f1": "anaphor F1 (relaxed)",
}


def active_rule(project_id: int) -> QualificationRule | None:
    """The project's rule when it requires qualification (at least one practice topic)."""
    rule = QualificationRule.objects.filter(project_id=project_id).first()
    if rule is None or not rule.practice_topics.exists():
        return None
    return rule


def rule_text(rule: QualificationRule) -> str:
    topics = ", ".join(
        rule.practice_topics.order_by("topic__position").values_list(
            "topic__external_id", flat=True
        )
    )
    limits = " and ".join(
        # Percent, the scale the results and the admin's form show (stored as a fraction).
        f"{METRIC_NAMES.get(metric, metric)} ≥ {round(value * 100, 1):g}"
        for metric, value in sorted(rule.thresholds.items())
    )
    return f"pass the practice topic{'s' if ',' in topics else ''} {topics}" + (
        f" with {limits}" if limits else ""
    )


def is_qualified(project_id: int, user_id: int) -> bool:
    return Qualification.objects.filter(
        project_id=project_id, user_id=user_id, qualified=True
    ).exists()


def lock_reason(*, project: Project, topic_id: int, user_id: int, role: str) -> str | None:
    """Why this assignment cannot be worked on yet (None: it can)."""
    if role != Assignment.Role.ANNOTATOR:
        return None
    rule = active_rule(project.pk)
    if rule is None or PracticeTopic.objects.filter(topic_id=topic_id).exists():
        return None
    if is_qualified(project.pk, user_id):
        return None
    return f"Locked until you qualify for {project.name}: {rule_text(rule)}."


def assignment_notes(user, assignment_ids: list[int]) -> dict[int, dict[str, Any]]:
    """The gate of assignment rows: practice mode and lock reason of each (a few queries for
    any number of rows: the admin's assignment table lists thousands)."""
    rows = list(
        Assignment.objects.filter(pk__in=assignment_ids).values_list(
            "pk", "topic_id", "topic__project_id", "topic__project__name", "user_id", "role"
        )
    )
    topic_ids = {row[1] for row in rows}
    practice = dict(
        PracticeTopic.objects.filter(topic_id__in=topic_ids).values_list("topic_id", "mode")
    )
    rules = {
        rule.project_id: rule
        for rule in QualificationRule.objects.filter(
            project_id__in={row[2] for row in rows}, practice_topics__isnull=False
        ).distinct()
    }
    texts = {project_id: rule_text(rule) for project_id, rule in rules.items()}
    qualified = set(
        Qualification.objects.filter(project_id__in=rules, qualified=True).values_list(
            "project_id", "user_id"
        )
    )
    notes: dict[int, dict[str, Any]] = {}
    for id, topic_id, project_id, project_name, user_id, role in rows:
        mode = practice.get(topic_id)
        locked = (
            mode is None
            and role == Assignment.Role.ANNOTATOR
            and project_id in rules
            and (project_id, user_id) not in qualified
        )
        reason = None
        if locked:
            reason = f"Locked until you qualify for {project_name}: {texts[project_id]}."
        notes[id] = {"practice": mode, "locked": reason}
    return notes


def _state(project_id: int, user_id: int) -> dict[str, Any]:
    row = Qualification.objects.filter(project_id=project_id, user_id=user_id).first()
    return {
        "qualified": bool(row and row.qualified),
        "source": row.source if row else None,
        "updated_at": row.updated_at if row else None,
    }


def project_qualifications(project: Project) -> dict[str, Any]:
    """The rule, and per annotator of the project: state, attempts with scores, the log."""
    rule = QualificationRule.objects.filter(project=project).first()
    users = (
        get_user_model()
        .objects.filter(
            assignments__topic__project=project, assignments__role=Assignment.Role.ANNOTATOR
        )
        .distinct()
        .order_by("username")
    )
    attempts: dict[int, list] = {}
    for attempt in (
        PracticeAttempt.objects.filter(practice__topic__project=project)
        .select_related("practice__topic")
        .order_by("practice__topic__position", "number")
    ):
        attempts.setdefault(attempt.user_id, []).append(attempt_payload(attempt))
    log: dict[int, list] = {}
    for change in QualificationChange.objects.filter(project=project).select_related("actor"):
        log.setdefault(change.user_id, []).append(
            {
                "qualified": change.qualified,
                "source": change.source,
                "actor": change.actor.username if change.actor else None,
                "note": change.note,
                "created_at": change.created_at,
            }
        )
    return {
        "required": active_rule(project.pk) is not None,
        "rule": {
            "practice_topics": list(rule.practice_topics.values_list("pk", flat=True))
            if rule
            else [],
            "thresholds": rule.thresholds if rule else {},
            "attempts_allowed": rule.attempts_allowed if rule else None,
            "text": rule_text(rule) if rule else "",
        },
        "practice_topics": [
            {"id": p.pk, "topic": p.topic_id, "external_id": p.topic.external_id, "mode": p.mode}
            for p in PracticeTopic.objects.filter(topic__project=project)
            .select_related("topic")
            .order_by("topic__position", "topic_id")
        ],
        "gold_coverage": gold_coverage(project),
        "annotators": [
            {
                "user": user.pk,
                "username": user.username,
                **_state(project.pk, user.pk),
                "attempts": attempts.get(user.pk, []),
                "log": log.get(user.pk, []),
            }
            for user in users
        ],
    }


def user_qualifications(user_ids: list[int] | None = None) -> list[dict[str, Any]]:
    """Per user and project that requires qualification: state and attempt count (users page)."""
    rules = QualificationRule.objects.filter(practice_topics__isnull=False).distinct()
    rows = []
    for rule in rules.select_related("project"):
        project = rule.project
        users = (
            Assignment.objects.filter(topic__project=project, role=Assignment.Role.ANNOTATOR)
            .order_by("user_id")  # not the model's ordering: it would make distinct per topic
            .values_list("user_id", flat=True)
            .distinct()
        )
        for user_id in users:
            if user_ids is not None and user_id not in user_ids:
                continue
            attempts = PracticeAttempt.objects.filter(
                practice__topic__project=project, user_id=user_id
            )
            best = attempts.filter(passed=True).exists()
            rows.append(
                {
                    "user": user_id,
                    "project": project.pk,
                    "project_name": project.name,
                    **_state(project.pk, user_id),
                    "attempts": attempts.count(),
                    "passed_attempt": best,
                }
            )
    return rows
