"""Reads about practice topics: their gold, an annotator's practice, attempts."""

from __future__ import annotations

from typing import Any

from django.db.models import Count

from annotation.domain.errors import NotFound
from annotation.models import Annotation, Assignment, ClusterMember, Document, Mention, Topic
from annotation.selectors.gold import gold_annotations
from annotation.selectors.state import mention_text
from onboarding.models import PracticeAttempt, PracticeTopic, Qualification, QualificationRule


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
        "qualification": _qualification(user, assignment.topic.project_id),
    }


def _qualification(user, project_id: int) -> dict[str, Any]:
    """Whether the project requires qualification, whether I have it, and (once I have) my
    real topics there that it unlocked: what the results tell an annotator who qualifies."""
    rule = QualificationRule.objects.filter(
        project_id=project_id, practice_topics__isnull=False
    ).exists()
    qualified = Qualification.objects.filter(
        project_id=project_id, user=user, qualified=True
    ).exists()
    unlocked = (
        Assignment.objects.filter(
            user=user, role=Assignment.Role.ANNOTATOR, topic__project_id=project_id
        )
        .exclude(topic__practice__isnull=False)
        .exclude(status=Assignment.Status.SUBMITTED)
        .order_by("topic__position", "topic_id")
        .values_list("topic__external_id", flat=True)
    )
    return {
        "required": rule,
        "qualified": qualified,
        "unlocked": list(unlocked) if rule and qualified else [],
    }


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
