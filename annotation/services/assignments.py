"""Assignments: who annotates which topic, and the submitted -> reopened cycle."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from annotation import gates
from annotation.domain.errors import DomainError
from annotation.errors import (
    AnnotationLocked,
    AssignmentRefused,
    Forbidden,
    IncompleteAnnotation,
)
from annotation.models import Annotation, Assignment, ClusterMember, Mention, MentionEdit, Topic
from annotation.services.seeds import seeds_write
from foundation import broadcast
from foundation.side_effects import after_commit


@transaction.atomic
def assignment_create(*, topic: Topic, user, role: str = Assignment.Role.ANNOTATOR) -> Assignment:
    """Assign `topic` to `user` with an empty annotation of their own (idempotent)."""
    assignment, created = Assignment.objects.get_or_create(
        topic=topic, user=user, defaults={"role": role}
    )
    if created:
        kind = (
            Annotation.Kind.ADJUDICATION
            if role == Assignment.Role.ADJUDICATOR
            else Annotation.Kind.ANNOTATOR
        )
        seeds_write([Annotation.objects.create(topic=topic, assignment=assignment, kind=kind)])
    return assignment


def _unassigned_mentions(annotation: Annotation) -> int:
    candidates = Mention.objects.filter(topic_id=annotation.topic_id, added_in__isnull=True).count()
    added = Mention.objects.filter(added_in=annotation).count()
    rejected = MentionEdit.objects.filter(annotation=annotation, rejected=True).count()
    assigned = ClusterMember.objects.filter(annotation=annotation).count()
    return candidates + added - rejected - assigned


@transaction.atomic
def assignment_submit(*, assignment_id: int, user) -> Assignment:
    """Submit: the annotation becomes read-only and enters agreement reports.

    Only the assigned annotator submits. In hierarchy projects every mention must be in a
    cluster first (a singleton is a cluster): agreement over half-clustered topics would be
    meaningless."""
    assignment = (
        Assignment.objects.select_for_update()
        .select_related("topic__project")
        .get(pk=assignment_id)
    )
    if assignment.user_id != user.pk:
        raise Forbidden("Only the assigned annotator can submit this topic.")
    if assignment.status == Assignment.Status.SUBMITTED:
        raise AnnotationLocked("This topic is already submitted.")
    annotation = assignment.annotation
    topic = assignment.topic
    context = gates.EditContext(annotation.pk, topic.pk, topic.project_id, assignment.pk, user.pk)
    gates.edit_check(context)  # e.g. locked until the annotator qualifies (annotation/gates.py)
    if assignment.topic.project.hierarchy:
        missing = _unassigned_mentions(annotation)
        if missing:
            raise IncompleteAnnotation(
                f"{missing} mention{'s are' if missing != 1 else ' is'} not in a cluster yet; "
                "assign every mention (a singleton is a cluster) before submitting.",
                unassigned=missing,
            )
    assignment.status = Assignment.Status.SUBMITTED
    assignment.submitted_at = timezone.now()
    assignment.save(update_fields=["status", "submitted_at"])
    gates.submitted(assignment)  # a practice topic is scored now (annotation/gates.py)
    _announce(assignment)
    return assignment


@transaction.atomic
def assignment_reopen(*, assignment_id: int) -> Assignment:
    """An admin reopens a submitted topic: the annotator can edit it again."""
    assignment = (
        Assignment.objects.select_for_update().select_related("topic").get(pk=assignment_id)
    )
    if assignment.status != Assignment.Status.SUBMITTED:
        raise DomainError("Only a submitted topic can be reopened.")
    assignment.status = Assignment.Status.REOPENED
    assignment.save(update_fields=["status"])
    _announce(assignment)
    # Adjudicators watch submitted work only: their sockets on it close (after the status).
    after_commit(broadcast.annotation_access_changed, assignment.annotation.pk)
    return assignment


def _announce(assignment: Assignment) -> None:
    # the topic's submitted work or gold changed (reporting stores its agreement counts)
    gates.work_changed([assignment.topic_id])
    annotation_id = assignment.annotation.pk
    payload = {"assignment": assignment.pk, "status": assignment.status}
    after_commit(broadcast.annotation_status, annotation_id, payload)
    after_commit(broadcast.project_progress, assignment.topic.project_id, payload)


@transaction.atomic
def assignments_bulk_create(
    *, topics: list[Topic], users: list, role: str = Assignment.Role.ANNOTATOR
) -> int:
    """Assign every topic to every user (idempotent); returns how many were new.

    Set-based: three queries whatever the number of topics, so hundreds take well under a second."""
    existing = set(
        Assignment.objects.filter(topic__in=topics, user__in=users).values_list(
            "topic_id", "user_id"
        )
    )
    new = [
        Assignment(topic=t, user=u, role=role)
        for t in topics
        for u in users
        if (t.pk, u.pk) not in existing
    ]
    return _create_with_annotations(new)


def _create_with_annotations(assignments: list[Assignment]) -> int:
    created = Assignment.objects.bulk_create(assignments)
    kind: dict[str, str] = {Assignment.Role.ADJUDICATOR: Annotation.Kind.ADJUDICATION}
    annotations = Annotation.objects.bulk_create(
        [
            Annotation(
                topic_id=a.topic_id, assignment=a, kind=kind.get(a.role, Annotation.Kind.ANNOTATOR)
            )
            for a in created
        ]
    )
    seeds_write(annotations)
    return len(created)


def balanced_plan(
    *,
    topic_ids: list[int],
    annotator_ids: list[int],
    k: int,
    overlap: set[int],
    load: dict[int, int],
    already: set[tuple[int, int]],
) -> list[tuple[int, int]]:
    """Which (topic, annotator) pairs to add so that overlap topics have k annotators, the
    others one, and every annotator ends with as equal a number of topics as possible.

    Greedy least-loaded choice, overlap topics first: each step gives the next topic to the
    annotators with the fewest topics so far (ties by the order given), which keeps loads
    within one topic of each other for equal-size requests; that is the optimum for counts,
    so no solver is needed."""
    if k < 1 or k > len(annotator_ids):
        raise AssignmentRefused(
            f"Each topic needs between 1 and {len(annotator_ids)} annotators (asked for {k})."
        )
    load = {a: load.get(a, 0) for a in annotator_ids}
    order = {a: i for i, a in enumerate(annotator_ids)}
    pairs = []
    for topic in sorted(topic_ids, key=lambda t: (t not in overlap, topic_ids.index(t))):
        have = [a for a in annotator_ids if (topic, a) in already]
        need = (k if topic in overlap else 1) - len(have)
        candidates = sorted(
            (a for a in annotator_ids if (topic, a) not in already),
            key=lambda a: (load[a], order[a]),
        )
        for annotator in candidates[: max(0, need)]:
            pairs.append((topic, annotator))
            load[annotator] += 1
    return pairs


@transaction.atomic
def assignments_balanced_create(
    *, topics: list[Topic], annotators: list, k: int, overlap: list[Topic]
) -> int:
    """Each topic of `overlap` to k annotators (for agreement), every other topic to one,
    balancing how many topics each annotator has (existing assignments count)."""
    from django.db.models import Count

    annotator_ids = [u.pk for u in annotators]
    topic_ids = [t.pk for t in topics]
    overlap_ids = {t.pk for t in overlap}
    if not overlap_ids <= set(topic_ids):
        raise AssignmentRefused("The overlap set must be a subset of the chosen topics.")
    load = dict(
        Assignment.objects.filter(
            user_id__in=annotator_ids, topic__project_id__in={t.project_id for t in topics}
        )
        .values("user_id")
        .annotate(n=Count("id"))
        .values_list("user_id", "n")
    )
    already = set(
        Assignment.objects.filter(topic_id__in=topic_ids).values_list("topic_id", "user_id")
    )
    pairs = balanced_plan(
        topic_ids=topic_ids,
        annotator_ids=annotator_ids,
        k=k,
        overlap=overlap_ids,
        load=load,
        already=already,
    )
    return _create_with_annotations([Assignment(topic_id=t, user_id=u) for t, u in pairs])


@transaction.atomic
def assignment_reassign(*, assignment_id: int, user, discard_work: bool = False) -> Assignment:
    """Give a topic to another annotator. Started work is never moved to someone else (their
    annotation would not be independent) and never silently lost: it is refused unless the
    admin explicitly discards it."""
    assignment = (
        Assignment.objects.select_for_update(of=("self",))
        .select_related("annotation", "topic")
        .get(pk=assignment_id)
    )
    if assignment.user_id == user.pk:
        raise AssignmentRefused("The topic is already assigned to this annotator.")
    if Assignment.objects.filter(topic=assignment.topic, user=user).exists():
        raise AssignmentRefused(f"{user.username} already has this topic.")
    if assignment.status == Assignment.Status.SUBMITTED:
        raise AssignmentRefused(
            "A submitted topic cannot be reassigned; reopen it or assign the topic anew."
        )
    if assignment.annotation.has_work and not discard_work:
        raise AssignmentRefused(
            f"{assignment.user.username} has started this topic "
            f"({assignment.annotation.version} operations); "
            "reassigning discards that work: confirm with discard_work."
        )
    topic, role = assignment.topic, assignment.role
    assignment.delete()
    after_commit(broadcast.access_changed, assignment.user_id)
    return assignment_create(topic=topic, user=user, role=role)


@transaction.atomic
def assignment_delete(*, assignment_id: int, discard_work: bool = False) -> None:
    assignment = (
        Assignment.objects.select_for_update(of=("self",))
        .select_related("annotation")
        .get(pk=assignment_id)
    )
    if assignment.annotation.has_work and not discard_work:
        raise AssignmentRefused(
            "This assignment has work in it; deleting discards it: confirm with discard_work."
        )
    assignment.delete()
    after_commit(broadcast.access_changed, assignment.user_id)
