"""What the workspace reads about one of an annotator's practice assignments: its mode and
tour, the thresholds, their attempts, the attempts they have left, their qualification."""

from __future__ import annotations

from typing import Any

from annotation.domain.errors import NotFound
from annotation.models import Assignment
from onboarding.models import PracticeAttempt, Qualification, QualificationRule
from onboarding.selectors.attempt_policy import attempt_allowance
from onboarding.selectors.practice import attempt_payload, thresholds_for


def my_practice(user, assignment_id: int) -> dict[str, Any]:
    """What the workspace needs about one of my assignments that is a practice topic."""
    assignment = (
        Assignment.objects.filter(pk=assignment_id, user=user)
        .select_related("topic__practice")
        .first()
    )
    practice = getattr(assignment.topic, "practice", None) if assignment else None
    if assignment is None or practice is None:
        raise NotFound("practice topic", assignment_id, "This is not one of your practice topics.")
    attempts = PracticeAttempt.objects.filter(practice=practice, user=user).select_related(
        "practice__topic"
    )
    return {
        "assignment": assignment.pk,
        "topic": assignment.topic.external_id,
        "mode": practice.mode,
        "tour_steps": practice.tour_steps,
        "settings": practice.settings,
        "thresholds": thresholds_for(practice),
        "attempts": [attempt_payload(a) for a in attempts.order_by("-number")],
        "allowance": attempt_allowance(user.pk, assignment.topic.project_id),
        "qualification": _qualification(user, assignment.topic.project_id),
    }


def _qualification(user, project_id: int) -> dict[str, Any]:
    """Whether the project requires qualification, whether I have it, and (once I have) my
    real topics there that it unlocked: what the results tell an annotator who qualifies."""
    rule = QualificationRule.objects.filter(
        project_id=project_id, practice_topics__isnull=False
    ).exists()
    qualified = Qualification.objects.filter(
        project_id=project_id, user=user, qualified=True
    ).exists()
    unlocked = (
        Assignment.objects.filter(
            user=user, role=Assignment.Role.ANNOTATOR, topic__project_id=project_id
        )
        .exclude(topic__practice__isnull=False)
        .exclude(status=Assignment.Status.SUBMITTED)
        .order_by("topic__position", "topic_id")
        .values_list("topic__external_id", flat=True)
    )
    return {
        "required": rule,
        "qualified": qualified,
        "unlocked": list(unlocked) if rule and qualified else [],
    }
