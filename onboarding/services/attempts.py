"""Practice attempts: scored when submitted, kept when the annotator starts again."""

from __future__ import annotations

from dataclasses import replace

from django.db import transaction
from django.db.models import Max

from annotation.domain.errors import NotFound
from annotation.models import Assignment
from annotation.selectors.state import annotation_state_load
from annotation.selectors.topic_data import annotations_topic_data, document_token_counts
from annotation.selectors.workspace import annotation_payload
from annotation.services.assignments import assignment_create
from corefscore.scoring.api import from_topic
from onboarding import scores
from onboarding.errors import AttemptsUsedUp, PracticeRefused
from onboarding.models import PracticeAttempt, PracticeTopic
from onboarding.selectors.attempt_policy import attempts_refusal, next_practice
from onboarding.selectors.practice import (
    document_indexes,
    key_text,
    practice_gold,
    thresholds_for,
)
from onboarding.services.qualification import qualification_after_attempt


def _schemes(project) -> list[str]:
    return [name for name, on in (("scico", project.hierarchy), ("chemu", project.anaphora)) if on]


def assignment_submitted(assignment: Assignment) -> None:
    """The submit gate: a practice topic is scored (the lock is the edit gate's)."""
    practice = PracticeTopic.objects.filter(topic_id=assignment.topic_id).first()
    if practice is not None and assignment.role == Assignment.Role.ANNOTATOR:
        attempt_record(practice=practice, assignment=assignment)


def attempt_record(*, practice: PracticeTopic, assignment: Assignment) -> PracticeAttempt:
    """Score the submitted annotation against gold and keep it as the next attempt."""
    gold = practice_gold(practice)
    if gold is None:
        raise PracticeRefused(
            f"The practice topic {practice.topic.external_id} has no gold annotation yet; "
            "ask an admin to import or adjudicate one."
        )
    mine = assignment.annotation
    project = practice.topic.project
    if practice.mode == PracticeTopic.Mode.SCORED:
        # The cap holds however the attempt came about (a reset, a reopened submission).
        why = attempts_refusal(assignment.user_id, project)
        if why:
            raise AttemptsUsedUp(why)
    data = annotations_topic_data([gold, mine], scoring=True)
    counts = document_token_counts([practice.topic_id]).get(practice.topic_id, ())
    gold_plain = replace(from_topic(data[gold.pk]), token_counts=counts)
    my_plain = replace(from_topic(data[mine.pk]), token_counts=counts)
    values = scores.scores(gold_plain, my_plain, _schemes(project))
    diff = scores.diff(
        annotation_state_load(gold),
        annotation_state_load(mine),
        document_indexes(practice.topic_id),
        key_text(practice.topic_id),
    )
    number = (
        PracticeAttempt.objects.filter(practice=practice, user_id=assignment.user_id).aggregate(
            n=Max("number")
        )["n"]
        or 0
    ) + 1
    attempt = PracticeAttempt.objects.create(
        practice=practice,
        user_id=assignment.user_id,
        number=number,
        annotation=mine,
        scores=values,
        diff=diff,
        snapshot=_snapshot(mine),
        passed=scores.passes(values, thresholds_for(practice)),
    )
    qualification_after_attempt(attempt)
    return attempt


def _snapshot(annotation) -> dict:
    payload = annotation_payload(annotation)
    return {key: payload[key] for key in ("clusters", "edges", "links", "mentions", "version")}


@transaction.atomic
def practice_reset(*, assignment_id: int, user) -> Assignment:
    """Start practising again: a new, empty annotation. Submitted attempts stay (with a copy
    of what they scored); unsubmitted work of the old annotation is discarded.

    A scored topic is the gate, so: refused once the annotator has used the project's
    attempts (AttemptsUsedUp, 403), and after a failed attempt the next one is on another
    practice topic of the project where there is one (`next_practice`); the failed topic's
    assignment then stays as it was submitted."""
    assignment = (
        Assignment.objects.select_for_update(of=("self",))
        .select_related("topic__project")
        .filter(pk=assignment_id, user=user)
        .first()
    )
    practice = (
        PracticeTopic.objects.filter(topic=assignment.topic).select_related("topic").first()
        if assignment
        else None
    )
    if assignment is None or practice is None:
        raise NotFound("practice topic", assignment_id, "This is not one of your practice topics.")
    topic, role = assignment.topic, assignment.role
    if practice.mode == PracticeTopic.Mode.SCORED:
        why = attempts_refusal(user.pk, topic.project)
        if why:
            raise AttemptsUsedUp(why)
        latest = PracticeAttempt.objects.filter(practice=practice, user=user).order_by("-number")
        if latest.values_list("passed", flat=True).first() is False:
            drawn = next_practice(user.pk, practice)
            if drawn.pk != practice.pk:
                return _assignment_of(drawn.topic, user=user, role=role)
    assignment.delete()
    return assignment_create(topic=topic, user=user, role=role)


def _assignment_of(topic, *, user, role: str) -> Assignment:
    """The annotator's assignment of a drawn practice topic: their work there as it is, or a
    new empty one where they have none or submitted it already."""
    current = (
        Assignment.objects.select_for_update(of=("self",)).filter(topic=topic, user=user).first()
    )
    if current is not None and current.status != Assignment.Status.SUBMITTED:
        return current
    if current is not None:
        current.delete()
    return assignment_create(topic=topic, user=user, role=role)
