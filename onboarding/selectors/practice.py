"""Reads about practice topics: their gold, an annotator's practice, attempts."""

from __future__ import annotations

from typing import Any

from django.db.models import Count

from annotation.models import Annotation, ClusterMember, Document, Mention, Topic
from annotation.selectors.gold import gold_annotations
from annotation.selectors.state import mention_text
from onboarding.models import PracticeAttempt, PracticeTopic, QualificationRule


def practice_gold(practice: PracticeTopic) -> Annotation | None:
    """The practice topic's gold: its latest submitted adjudication, else its imported gold."""
    topic = practice.topic
    return gold_annotations(topic.project, topic_ids=[topic.pk]).get(topic.pk)


def document_indexes(topic_id: int) -> dict[int, int]:
    """Document id -> its index in the topic (what mention keys and messages number)."""
    ids = Document.objects.filter(topic_id=topic_id).order_by("position", "id")
    return {id: index for index, id in enumerate(ids.values_list("id", flat=True))}


def key_text(topic_id: int):
    """A function from a mention key (document index, spans) to the mention's text."""
    tokens = list(
        Document.objects.filter(topic_id=topic_id)
        .order_by("position", "id")
        .values_list("tokens", flat=True)
    )
    return lambda key: mention_text(tokens[key[0]], key[1])


def attempt_payload(attempt: PracticeAttempt) -> dict[str, Any]:
    return {
        "id": attempt.pk,
        "number": attempt.number,
        "topic": attempt.practice.topic.external_id,
        "scores": attempt.scores,
        "diff": attempt.diff,
        "passed": attempt.passed,
        "annotation": attempt.annotation_id,
        "created_at": attempt.created_at,
    }


def thresholds_for(practice: PracticeTopic) -> dict[str, float]:
    rule = QualificationRule.objects.filter(
        project_id=practice.topic.project_id, practice_topics=practice
    ).first()
    return dict(rule.thresholds) if rule else {}


def practice_suggestions_off(topic) -> str | None:
    """The suggestions gate: a practice topic measures the annotator, so the model, which
    could reproduce gold for them, is never asked on it."""
    if PracticeTopic.objects.filter(topic_id=topic.pk).exists():
        return "Suggestions are off on practice topics: the practice measures you, not the model."
    return None


def practice_topic_ids(project_id: int):
    """The practice gate (annotation/gates.py): a project's practice topics, as a lazy query
    (the readers use it as a subquery)."""
    return PracticeTopic.objects.filter(topic__project_id=project_id).values_list(
        "topic_id", flat=True
    )


def gold_coverage(project) -> list[dict[str, int]]:
    """Per topic with gold: how many of its candidate mentions gold places in a cluster. A
    practice topic scores only what its gold decides, so an admin sees this before making a
    topic practice (the Onboarding tab)."""
    gold = {
        topic_id: annotation.pk
        for topic_id, annotation in gold_annotations(
            project, topic_ids=Topic.objects.filter(project=project).values_list("pk", flat=True)
        ).items()
    }
    members = ClusterMember.objects.filter(
        annotation_id__in=gold.values(), mention__added_in__isnull=True
    )
    placed = dict(
        members.values("annotation_id")
        .annotate(n=Count("mention_id", distinct=True))
        .values_list("annotation_id", "n")
    )
    candidates = dict(
        Mention.objects.filter(topic_id__in=gold, added_in__isnull=True)
        .values("topic_id")
        .annotate(n=Count("id"))
        .values_list("topic_id", "n")
    )
    return [
        {
            "topic": topic_id,
            "covered": placed.get(annotation_id, 0),
            "mentions": candidates.get(topic_id, 0),
        }
        for topic_id, annotation_id in gold.items()
    ]
