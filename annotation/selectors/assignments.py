"""What the admin pages read about assignments: filtered by project, user or topic."""

from __future__ import annotations

from annotation.models import Assignment
from annotation.selectors.workspace import assignments_payload


def assignment_rows(
    *, project_id: int | None = None, user_id: int | None = None, topic_id: int | None = None
) -> list[dict]:
    """Assignments with their progress, in topic order then by username; a filter left None
    is not applied."""
    filters = {"topic__project_id": project_id, "user_id": user_id, "topic_id": topic_id}
    rows = Assignment.objects.filter(**{k: v for k, v in filters.items() if v is not None})
    return assignments_payload(rows.order_by("topic__position", "topic_id", "user__username"))
