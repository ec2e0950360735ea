"""What the admin pages read about projects: each with its topic count, a project's topics."""

from __future__ import annotations

from django.db.models import Count, IntegerField, OuterRef, QuerySet, Subquery
from django.db.models.functions import Coalesce

from annotation.models import Annotation, Assignment, Document, Mention, Project, Topic
from annotation.selectors.gold import gold_id_of_outer_topic
from annotation.selectors.workspace import project_payload


def project_row(project: Project) -> dict:
    topics = getattr(project, "topic_count", None)
    return project_payload(project) | {
        "topics": project.topics.count() if topics is None else topics,
        "hierarchy_count": project.hierarchy_count,
        "validation_reasons": project.validation_reasons,
        "in_my_topics": project.in_my_topics,
    }


def project_rows() -> list[dict]:
    projects = Project.objects.annotate(topic_count=Count("topics")).order_by("name")
    return [project_row(project) for project in projects]


def _per_topic_count(rows: QuerySet) -> Coalesce:
    """How many of `rows` belong to the outer topic, as a correlated subquery: counting
    documents, mentions and assignments through joins would multiply them into each other."""
    counted = rows.filter(topic=OuterRef("pk")).order_by().values("topic")
    return Coalesce(
        Subquery(counted.annotate(n=Count("pk")).values("n"), output_field=IntegerField()), 0
    )


def project_topics(project: Project) -> list[dict]:
    """The project's topics in order, each with its documents, its candidate mentions (not
    those an annotator added) and its annotators (adjudicators left out), in one query."""
    rows = (
        Topic.objects.filter(project=project)
        .annotate(
            documents_count=_per_topic_count(Document.objects.all()),
            mentions_count=_per_topic_count(Mention.objects.filter(added_in__isnull=True)),
            annotators_count=_per_topic_count(
                Assignment.objects.filter(role=Assignment.Role.ANNOTATOR)
            ),
            gold_id=gold_id_of_outer_topic(),
            work_count=_per_topic_count(_WORK),
        )
        .order_by("position", "id")
        .values(
            "id",
            "external_id",
            "source",
            "position",
            "documents_count",
            "mentions_count",
            "annotators_count",
            "gold_id",
            "work_count",
        )
    )
    return [dict(row) for row in rows]


# Annotations someone worked on: an annotator's or adjudicator's with at least one change
# (the Topics page's delete is refused while a topic has any; services/topic_changes.py).
_WORK = Annotation.objects.exclude(kind=Annotation.Kind.GOLD).worked()
