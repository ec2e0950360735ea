"""A project's own work as training and held-out topics (docs/learning.md): one teaching
annotation per topic (modelserve/training/learning.py `teaching_annotation`), split by a
stable hash of the topic's external id."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.conf import settings

from annotation.models import Annotation, Project
from annotation.selectors.topic_data import annotations_topic_data
from corefscore.corpus import TopicData
from modelserve.training.learning import Submitted, held_out, teaching_annotation, text_key


@dataclass(frozen=True)
class ProjectWork:
    train: list[TopicData]
    held_out: list[TopicData]
    submissions: int  # submitted annotations in the project (what the debounce counts)
    train_ids: list[int]  # the topics of `train`, in its order (what a version records)


def submitted_learning_rows(project: Project) -> list[dict[str, Any]]:
    """The project's submitted annotator and adjudication annotations, as the rows the
    learner's topic choice reads (by topic, in submission order)."""
    rows = (
        Annotation.objects.submitted()
        .of_project(project)
        .filter(kind__in=[Annotation.Kind.ANNOTATOR, Annotation.Kind.ADJUDICATION])
        .order_by("topic_id", "assignment__submitted_at", "pk")
        .values("pk", "topic_id", "topic__external_id", "kind", "assignment__user_id")
    )
    return [dict(row) for row in rows]


def project_work(project: Project) -> ProjectWork:
    rows = submitted_learning_rows(project)
    by_topic: dict[int, list[Submitted]] = {}
    # the topic's external id (unique in its project) keys the hashes: stable as topics come
    # in, and across a re-import of the same topics
    keys = {row["topic_id"]: str(row["topic__external_id"]) for row in rows}
    for order, row in enumerate(rows):
        by_topic.setdefault(row["topic_id"], []).append(
            Submitted(
                annotation_id=row["pk"],
                user_id=row["assignment__user_id"],
                adjudication=row["kind"] == Annotation.Kind.ADJUDICATION,
                submitted_order=order,
            )
        )
    chosen = {
        topic_id: teaching_annotation(versions, topic_key=keys[topic_id])
        for topic_id, versions in by_topic.items()
    }
    annotations = Annotation.objects.filter(pk__in=[a for a in chosen.values() if a is not None])
    data = annotations_topic_data(annotations)
    train: list[TopicData] = []
    held: list[TopicData] = []
    train_ids: list[int] = []
    for topic_id in sorted(chosen):
        annotation_id = chosen[topic_id]
        if annotation_id is None:
            continue
        if held_out(keys[topic_id], percent=settings.LEARN_HOLDOUT_PERCENT):
            held.append(data[annotation_id])
        else:
            train.append(data[annotation_id])
            train_ids.append(topic_id)
    return ProjectWork(train=train, held_out=held, submissions=len(rows), train_ids=train_ids)


def chemu_base_topics(project_topics: list[TopicData]) -> list[TopicData]:
    """The snippets the default ChEMU model learns from (CHEMU_TRAIN_FILE, read leniently, those
    with links), less any whose text the project holds: a ChEMU retraining starts from them
    (docs/learning.md). None when the file is absent."""
    from corefscore.formats.chemu import read_chemu_jsonlines

    path = Path(settings.CHEMU_TRAIN_FILE)
    if not path.is_file():
        return []
    taken = {text_key([d.tokens for d in topic.documents]) for topic in project_topics}
    return [
        topic
        for topic in read_chemu_jsonlines(path, skip_invalid=True).topics
        if topic.links and text_key([d.tokens for d in topic.documents]) not in taken
    ]
