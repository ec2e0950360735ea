"""What the admin pages read: projects with their topic counts, a project's topics, users,
assignments filtered by project, user or topic."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db.models import Count, QuerySet

from annotation.models import Assignment, Project, Topic
from annotation.selectors.workspace import assignments_payload, project_payload


def project_row(project: Project) -> dict:
    topics = getattr(project, "topic_count", None)
    return project_payload(project) | {
        "topics": project.topics.count() if topics is None else topics
    }


def project_rows() -> list[dict]:
    projects = Project.objects.annotate(topic_count=Count("topics")).order_by("name")
    return [project_row(project) for project in projects]


def project_topics(project: Project) -> list[dict]:
    rows = (
        Topic.objects.filter(project=project)
        .order_by("position", "id")
        .values("id", "external_id", "source", "position")
    )
    return list(rows)


def users_by_name() -> QuerySet:
    return get_user_model().objects.order_by("username")


def assignment_rows(
    *, project_id: int | None = None, user_id: int | None = None, topic_id: int | None = None
) -> list[dict]:
    """Assignments with their progress, in topic order then by username; a filter left None
    is not applied."""
    filters = {"topic__project_id": project_id, "user_id": user_id, "topic_id": topic_id}
    rows = Assignment.objects.filter(**{k: v for k, v in filters.items() if v is not None})
    return assignments_payload(rows.order_by("topic__position", "topic_id", "user__username"))
