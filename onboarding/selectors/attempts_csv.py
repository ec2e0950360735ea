"""Every practice attempt of a project as CSV (an admin could read the attempts on
the Onboarding tab but not take them away to compare or keep).

One row per attempt, in practice-topic order, then by user and attempt number: who, which
practice topic and its mode, the attempt's number and time, whether it passed (empty where
the project sets no threshold), then one column per metric any attempt was scored on, in name
order (empty where an attempt has no score for it: guided topics are not scored, a metric gold
cannot support is not scored).
"""

from __future__ import annotations

import csv
import io

from annotation.models import Project
from onboarding.models import PracticeAttempt

FIXED = ["user", "topic", "mode", "attempt", "created_at", "passed"]


def attempts_csv(project: Project) -> str:
    attempts = list(
        PracticeAttempt.objects.filter(practice__topic__project=project)
        .select_related("user", "practice__topic")
        .order_by("practice__topic__position", "practice__topic_id", "user__username", "number")
    )
    metrics = sorted({name for attempt in attempts for name in attempt.scores or {}})
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([*FIXED, *metrics])
    for attempt in attempts:
        scores = attempt.scores or {}
        writer.writerow(
            [
                attempt.user.get_username(),
                attempt.practice.topic.external_id,
                attempt.practice.mode,
                attempt.number,
                attempt.created_at.isoformat(),
                "" if attempt.passed is None else str(attempt.passed).lower(),
                *("" if scores.get(name) is None else repr(scores[name]) for name in metrics),
            ]
        )
    return out.getvalue()
