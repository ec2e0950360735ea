"""Reads about practice topics: their gold, an annotator's practice, attempts."""

from __future__ import annotations

from typing import Any

from annotation.domain.errors import NotFound
from annotation.models import Annotation, Assignment, Document
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


def my_practice(user, assignment_id: int) -> dict[str, Any]:
    """What the workspace needs about one of my assignments that is a practice topic."""
    assignment = (
        Assignment.objects.filter(pk=assignment_id, user=user)
        .select_related("topic__practice")
        .first()
    )
    practice = getattr(assignment.topic, "practice", None) if assignment else None
    if assignment is None or practice is None:
        raise NotFound("practice topic", assignment_id, "This is not one of your practice topics.")
    attempts = PracticeAttempt.objects.filter(practice=practice, user=user).select_related(
        "practice__topic"
    )
    return {
        "assignment": assignment.pk,
        "topic": assignment.topic.external_id,
        "mode": practice.mode,
        "tour_steps": practice.tour_steps,
        "settings": practice.settings,
        "thresholds": thresholds_for(practice),
        "attempts": [attempt_payload(a) for a in attempts.order_by("-number")],
    }


def practice_suggestions_off(topic) -> str | None:
    """The suggestions gate: a practice topic measures the annotator, so the model, which
    could reproduce gold for them, is never asked on it."""
    if PracticeTopic.objects.filter(topic_id=topic.pk).exists():
        return "Suggestions are off on practice topics: the practice measures you, not the model."
    return None


def practice_topic_ids(project_id: int) -> list[int]:
    """The practice gate (annotation/gates.py): a project's practice topics."""
    return list(
        PracticeTopic.objects.filter(topic__project_id=project_id).values_list(
            "topic_id", flat=True
        )
    )
