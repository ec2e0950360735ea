"""Which annotations a dataset figure is counted over.

- `gold` (the default): each topic's gold, its latest submitted adjudication else its
  imported gold (annotation.selectors.gold: the same definition as exports and training);
- `adjudicated`: each topic's latest submitted adjudication only;
- `submitted`: every annotator's submitted annotation, each counted as one topic (a topic two
  annotators submitted counts twice: the figures describe what the annotators produced);
- a username: that user's annotations in the project, whatever their status.

Annotations come in topic order; `split` keeps the topics of one split.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model

from annotation import gates
from annotation.models import Annotation, Project
from annotation.selectors.gold import adjudicated_annotations, gold_annotations
from datasets.errors import DatasetRefused

SOURCES = ("gold", "adjudicated", "submitted")


def source_annotations(
    project: Project, source: str | None = None, *, split: str | None = None
) -> list[Annotation]:
    source = source or "gold"
    if source in ("gold", "adjudicated"):
        chosen = (gold_annotations if source == "gold" else adjudicated_annotations)(project)
        rows = list(chosen.values())
    elif source == "submitted":
        rows = list(
            Annotation.objects.submitted()
            .annotator_work()
            .of_project(project)
            .select_related("topic")
        )
    else:
        user = get_user_model().objects.filter(username=source).first()
        if user is None:
            raise DatasetRefused(
                "source",
                f"no source or user named {source!r}; use {', '.join(SOURCES)} or a username",
            )
        rows = list(
            Annotation.objects.filter(topic__project=project, assignment__user=user).select_related(
                "topic"
            )
        )
    practice = set(gates.practice_topic_ids(project.pk))  # the onboarding's, not the dataset's
    rows = [row for row in rows if row.topic_id not in practice]
    if split is not None:
        rows = [row for row in rows if row.topic.split == split]
    rows.sort(key=lambda a: (a.topic.position, a.topic_id, a.pk))
    return rows
