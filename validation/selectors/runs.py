"""The suggestion runs a validation project can be built from (validation/services/from_runs.py)."""

from __future__ import annotations

from annotation.models import Project
from modelserve.models import SuggestionRun


def newest_succeeded_runs(project: Project) -> list[SuggestionRun]:
    """The newest succeeded run of each topic of `project` that has one, in topic order."""
    runs: dict[int, SuggestionRun] = {}
    for run in (
        SuggestionRun.objects.filter(topic__project=project, status=SuggestionRun.Status.SUCCEEDED)
        .select_related("topic")
        .order_by("topic__position", "topic_id", "-created_at")
    ):
        runs.setdefault(run.topic_id, run)
    return list(runs.values())
