"""A topic's gold: the one annotation that stands for the topic in exports, training, the
dataset statistics and the annotator-vs-gold report.

It is the latest submitted adjudication when there is one, and the imported gold otherwise:
an adjudicator's decisions are newer than any file a team brought in.

Practice topics (annotation/gates.py: practice_topic_ids) are left out unless asked for by id:
their gold is the onboarding's answer key, not part of the dataset.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.db.models import Count, IntegerField, OuterRef, Subquery
from django.db.models.functions import Coalesce

from annotation import gates
from annotation.models import Annotation, ClusterMember, Mention, MentionEdit, Project


def adjudicated_annotations(
    project: Project, *, topic_ids: Iterable[int] | None = None
) -> dict[int, Annotation]:
    """Per topic id, the most recently submitted adjudication."""
    rows = _topics(
        Annotation.objects.submitted().adjudications().of_project(project),
        project,
        topic_ids,
    )
    latest: dict[int, Annotation] = {}
    for annotation in rows.select_related("topic", "assignment").order_by(
        "topic_id", "-assignment__submitted_at", "-id"
    ):
        latest.setdefault(annotation.topic_id, annotation)
    return latest


def imported_gold_annotations(
    project: Project, *, topic_ids: Iterable[int] | None = None
) -> dict[int, Annotation]:
    rows = _topics(
        Annotation.objects.filter(topic__project=project, kind=Annotation.Kind.GOLD),
        project,
        topic_ids,
    )
    return {annotation.topic_id: annotation for annotation in rows.select_related("topic")}


def gold_annotations(
    project: Project, *, topic_ids: Iterable[int] | None = None
) -> dict[int, Annotation]:
    """Per topic id (topics without either have no entry): adjudicated, else imported gold."""
    wanted = None if topic_ids is None else list(topic_ids)
    chosen = imported_gold_annotations(project, topic_ids=wanted)
    chosen.update(adjudicated_annotations(project, topic_ids=wanted))
    return chosen


def _topics(rows, project: Project, topic_ids: Iterable[int] | None):
    """The asked topics, or all but the practice topics (the practice gate)."""
    if topic_ids is not None:
        return rows.filter(topic_id__in=list(topic_ids))
    return rows.exclude(topic_id__in=gates.practice_topic_ids(project.pk))


def gold_id_of_outer_topic() -> Coalesce:
    """The rule above as one subquery of a topic list (`OuterRef("pk")` is the topic): the
    id of its latest submitted adjudication, else of its imported gold; null without either.
    Practice topics are not left out: the caller lists topics, not the dataset."""
    adjudicated = (
        Annotation.objects.submitted()
        .adjudications()
        .filter(topic=OuterRef("pk"))
        .latest_submitted_first()
    )
    imported = Annotation.objects.filter(topic=OuterRef("pk"), kind=Annotation.Kind.GOLD)
    return Coalesce(
        Subquery(adjudicated.values("pk")[:1]),
        Subquery(imported.order_by("id").values("pk")[:1]),
        output_field=IntegerField(),
    )


@dataclass(frozen=True)
class GoldCoverage:
    """How much of its topics' mentions a gold clusters: a gold that leaves mentions out (a
    file that clustered only some of them) makes every figure built on it low by
    construction, so each report says so beside the figure."""

    covered: int  # mentions in a gold cluster
    mentions: int  # the topics' mentions: candidates the gold kept, and those it added
    topics: int
    partial_topics: int  # gold topics with a mention outside every cluster

    @property
    def partial(self) -> bool:
        return self.covered < self.mentions

    def as_dict(self) -> dict[str, Any] | None:
        """What reports carry: None for a gold that covers every mention."""
        if not self.partial:
            return None
        return {
            "covered": self.covered,
            "mentions": self.mentions,
            "topics": self.topics,
            "partial_topics": self.partial_topics,
        }


def gold_coverage(gold: Mapping[int, Annotation]) -> GoldCoverage:
    """The coverage of `gold` (topic id -> its gold, as `gold_annotations` gives), in four
    queries whatever the number of topics."""
    ids = {annotation.pk: topic for topic, annotation in gold.items()}

    def counted(rows, key: str) -> dict[int, int]:
        return dict(rows.values(key).annotate(n=Count("id")).values_list(key, "n"))

    candidates = counted(
        Mention.objects.filter(topic_id__in=list(gold), added_in__isnull=True), "topic_id"
    )
    added = counted(Mention.objects.filter(added_in_id__in=list(ids)), "added_in_id")
    rejected = counted(
        MentionEdit.objects.filter(annotation_id__in=list(ids), rejected=True), "annotation_id"
    )
    members = counted(ClusterMember.objects.filter(annotation_id__in=list(ids)), "annotation_id")
    covered = total = partial = 0
    for annotation, topic in ids.items():
        mentions = candidates.get(topic, 0) + added.get(annotation, 0) - rejected.get(annotation, 0)
        clustered = members.get(annotation, 0)
        covered, total = covered + clustered, total + mentions
        partial += clustered < mentions
    return GoldCoverage(covered, total, len(ids), partial)
