"""Qualification: passing the practice topics a project requires, and admins' overrides."""

from __future__ import annotations

from django.db import transaction

from annotation.errors import AnnotationLocked, ProjectRefused
from annotation.models import Assignment, Project
from foundation.side_effects import after_commit
from onboarding import scores
from onboarding.memo import memo, memo_forget
from onboarding.models import (
    PracticeAttempt,
    PracticeTopic,
    Qualification,
    QualificationChange,
    QualificationRule,
)
from onboarding.selectors.qualification import lock_reason


def _record(project_id: int, user_id: int, *, qualified: bool, source: str, actor=None, note=""):
    Qualification.objects.update_or_create(
        project_id=project_id,
        user_id=user_id,
        defaults={"qualified": qualified, "source": source},
    )
    QualificationChange.objects.create(
        project_id=project_id,
        user_id=user_id,
        actor=actor,
        qualified=qualified,
        source=source,
        note=note,
    )


def qualification_after_attempt(attempt: PracticeAttempt) -> None:
    """Qualify the annotator once every required practice topic has a passing attempt made
    after the last time an admin unqualified them by hand."""
    if not attempt.passed:
        return
    project_id = attempt.practice.topic.project_id
    rule = QualificationRule.objects.filter(project_id=project_id).first()
    if rule is None or not rule.practice_topics.filter(pk=attempt.practice_id).exists():
        return
    current = Qualification.objects.filter(project_id=project_id, user_id=attempt.user_id).first()
    if current and current.qualified:
        return
    since = (
        QualificationChange.objects.filter(
            project_id=project_id, user_id=attempt.user_id, qualified=False
        )
        .order_by("-created_at")
        .values_list("created_at", flat=True)
        .first()
    )
    passing = PracticeAttempt.objects.filter(user_id=attempt.user_id, passed=True)
    if since is not None:
        passing = passing.filter(created_at__gt=since)
    required = set(rule.practice_topics.values_list("pk", flat=True))
    if required <= set(passing.values_list("practice_id", flat=True)):
        _record(project_id, attempt.user_id, qualified=True, source="practice")


@transaction.atomic
def qualification_set(*, project: Project, user, qualified: bool, actor, note: str = "") -> None:
    """An admin qualifies or unqualifies an annotator by hand; logged with who and why."""
    _record(project.pk, user.pk, qualified=qualified, source="manual", actor=actor, note=note)


@transaction.atomic
def qualification_rule_set(
    *,
    project: Project,
    practice_topic_ids: list[int],
    thresholds: dict[str, float],
    attempts_allowed: int | None = 3,
) -> QualificationRule:
    """Require qualification (practice topics + thresholds); no topics: not required."""
    topics = list(PracticeTopic.objects.filter(pk__in=practice_topic_ids, topic__project=project))
    if len(topics) != len(set(practice_topic_ids)):
        raise ProjectRefused("Every practice topic of a qualification must be in this project.")
    known = {name for names in scores.METRICS.values() for name in names}
    for metric, value in thresholds.items():
        if metric not in known:
            raise ProjectRefused(
                f"Unknown metric {metric!r}; use one of {', '.join(sorted(known))}."
            )
        if not isinstance(value, (int, float)) or not -1 <= value <= 1:
            raise ProjectRefused(f"The threshold of {metric} must be a number from 0 to 1.")
    if topics and not thresholds:
        # scores.passes() is None without a threshold: nobody could ever pass.
        raise ProjectRefused(
            "Give at least one threshold (for example CoNLL F1 ≥ 75%): "
            "without one no attempt can pass."
        )
    if attempts_allowed is not None and attempts_allowed < 1:
        raise ProjectRefused("Allow at least one attempt, or leave the limit empty for none.")
    rule, _ = QualificationRule.objects.update_or_create(
        project=project,
        defaults={"thresholds": dict(thresholds), "attempts_allowed": attempts_allowed},
    )
    rule.practice_topics.set(topics)
    memo_forget()  # now for this process, and again once committed (a racing request)
    after_commit(memo_forget)
    for practice in topics:
        for attempt in PracticeAttempt.objects.filter(practice=practice):
            passed = scores.passes(attempt.scores, rule.thresholds)
            if passed != attempt.passed:
                attempt.passed = passed
                attempt.save(update_fields=["passed"])
    return rule


def edit_gate(context) -> None:
    """The edit gate: an unqualified annotator's real assignment is read-only."""
    if context.assignment_id is None or context.user_id is None:
        return
    requires = memo(
        "requires",
        context.project_id,
        lambda: QualificationRule.objects.filter(
            project_id=context.project_id, practice_topics__isnull=False
        ).exists(),
    )
    if not requires:
        return
    assignment = Assignment.objects.select_related("topic__project").get(pk=context.assignment_id)
    reason = lock_reason(
        project=assignment.topic.project,
        topic_id=assignment.topic_id,
        user_id=assignment.user_id,
        role=assignment.role,
    )
    if reason:
        raise AnnotationLocked(reason)
