"""The gate's policy on attempts: how many scored attempts an annotator has left in a project,
and which practice topic the next attempt draws after a failure (docs/onboarding.md, "The
gate cannot be copied")."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, Q

from onboarding.models import PracticeAttempt, PracticeTopic
from onboarding.selectors.qualification import active_rule, is_qualified


def attempt_allowance(user_id: int, project_id: int) -> dict[str, Any]:
    """`allowed` (the project's cap, None: no limit), `used` (the annotator's scored attempts
    in the project) and `left` (None where no cap applies: no qualification rule, no limit,
    or already qualified, when further practice gates nothing)."""
    rule = active_rule(project_id)
    used = PracticeAttempt.objects.filter(
        user_id=user_id,
        practice__topic__project_id=project_id,
        practice__mode=PracticeTopic.Mode.SCORED,
    ).count()
    allowed = rule.attempts_allowed if rule else None
    if allowed is None or is_qualified(project_id, user_id):
        return {"allowed": allowed, "used": used, "left": None}
    return {"allowed": allowed, "used": used, "left": max(allowed - used, 0)}


def attempts_refusal(user_id: int, project) -> str | None:
    """Why this annotator may not make another scored attempt in `project` (None: they may)."""
    allowance = attempt_allowance(user_id, project.pk)
    if allowance["left"] != 0:
        return None
    return (
        f"You have used all {allowance['allowed']} practice attempts allowed in "
        f"{project.name} without passing: ask your admin for another attempt, or to check "
        "your work with you."
    )


def next_practice(user_id: int, failed: PracticeTopic) -> PracticeTopic:
    """The practice topic an annotator's next attempt is on after failing `failed`: another
    scored practice topic of the project they have not passed yet (one the qualification
    needs, when `failed` was one), fewest attempts of theirs first, then in topic order; the
    same topic when the project has no other. A fresh topic means the feedback of the
    failed attempt cannot simply be replayed."""
    rule = active_rule(failed.topic.project_id)
    required = set(rule.practice_topics.values_list("pk", flat=True)) if rule else set()
    mine = Q(attempts__user_id=user_id)
    passed = PracticeAttempt.objects.filter(user_id=user_id, passed=True)
    candidates = (
        PracticeTopic.objects.filter(
            topic__project_id=failed.topic.project_id, mode=PracticeTopic.Mode.SCORED
        )
        .exclude(pk=failed.pk)
        .exclude(pk__in=passed.values("practice_id"))
        .annotate(tries=Count("attempts", filter=mine))
        .select_related("topic")
        .order_by("tries", "topic__position", "topic_id")
    )
    if failed.pk in required:
        candidates = candidates.filter(pk__in=required)
    elif required:
        candidates = candidates.exclude(pk__in=required)
    return candidates.first() or failed
