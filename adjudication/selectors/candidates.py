"""What an adjudication is built from: a topic's submitted annotator work (a seed's
sources) and the topics that have enough of it for a consensus."""

from __future__ import annotations

from django.db.models import Count, Q

from annotation.models import Annotation, Assignment, Project, Topic


def submitted_annotator_work(topic: Topic) -> list[Annotation]:
    """The topic's submitted annotator annotations (what a seed is built from), by annotator
    name."""
    return list(
        Annotation.objects.submitted()
        .annotator_work()
        .filter(topic=topic)
        .select_related("assignment__user", "topic__project")
        .order_by("assignment__user__username")
    )


def topics_to_adjudicate(project: Project) -> list[Topic]:
    """The project's topics with at least two submitted annotator annotations, in order."""
    submitted = Q(
        assignments__role=Assignment.Role.ANNOTATOR,
        assignments__status=Assignment.Status.SUBMITTED,
    )
    return list(
        Topic.objects.filter(project=project)
        .annotate(submitted=Count("assignments", filter=submitted))
        .filter(submitted__gte=2)
        .order_by("position", "id")
    )
