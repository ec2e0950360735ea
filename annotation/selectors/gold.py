"""A topic's gold: the one annotation that stands for the topic in exports, training, the
dataset statistics and the annotator-vs-gold report.

It is the latest submitted adjudication when there is one, and the imported gold otherwise:
an adjudicator's decisions are newer than any file a team brought in.
"""

from __future__ import annotations

from collections.abc import Iterable

from annotation.models import Annotation, Assignment, Project


def adjudicated_annotations(project: Project) -> dict[int, Annotation]:
    """Per topic id, the most recently submitted adjudication."""
    rows = (
        Annotation.objects.filter(
            topic__project=project,
            kind=Annotation.Kind.ADJUDICATION,
            assignment__status=Assignment.Status.SUBMITTED,
        )
        .select_related("topic", "assignment")
        .order_by("topic_id", "-assignment__submitted_at", "-id")
    )
    latest: dict[int, Annotation] = {}
    for annotation in rows:
        latest.setdefault(annotation.topic_id, annotation)
    return latest


def imported_gold_annotations(project: Project) -> dict[int, Annotation]:
    rows = Annotation.objects.filter(topic__project=project, kind=Annotation.Kind.GOLD)
    return {annotation.topic_id: annotation for annotation in rows.select_related("topic")}


def gold_annotations(
    project: Project, *, topic_ids: Iterable[int] | None = None
) -> dict[int, Annotation]:
    """Per topic id (topics without either have no entry): adjudicated, else imported gold."""
    chosen = imported_gold_annotations(project)
    chosen.update(adjudicated_annotations(project))
    if topic_ids is not None:
        wanted = set(topic_ids)
        chosen = {topic_id: row for topic_id, row in chosen.items() if topic_id in wanted}
    return chosen
