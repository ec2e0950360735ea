"""Seeded adjudication assignments for many topics at once: `manage.py adjudicate` and the
admin pages' bulk action. All or nothing: every topic is tried in one transaction, every
refusal collected, and any refusal rolls the whole batch back.

Topics the adjudicator already adjudicates are skipped (so a re-run only adds the new ones);
without named topics, the batch is every topic with at least two submitted annotations.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import transaction

from adjudication.selectors.candidates import topics_to_adjudicate
from adjudication.services.adjudications import SEED_CONSENSUS, create_adjudication
from annotation.domain.errors import DomainError
from annotation.errors import AssignmentRefused, AssignmentTargetsNotFound
from annotation.models import Assignment, Project, Topic
from annotation.services.assignments import assignment_submit


@dataclass
class AdjudicationsCreated:
    user: str
    created_user: bool = False
    created: list[str] = field(default_factory=list)  # topic external ids
    skipped: list[str] = field(default_factory=list)  # already adjudicated by this user
    submitted: int = 0

    def lines(self) -> list[str]:
        return [
            *([f"created user {self.user} (unusable password: set one to sign in)"]
              if self.created_user else []),
            f"{len(self.created)} adjudication assignment(s) for {self.user}"
            + (f", {self.submitted} submitted" if self.submitted else ""),
            *(f"topic {t}: already adjudicated by {self.user}, skipped" for t in self.skipped),
        ]  # fmt: skip


@transaction.atomic
def adjudications_create(
    *,
    project: Project,
    username: str,
    create_user: bool = False,
    seed: str = SEED_CONSENSUS,
    threshold: float = 0.5,
    topic_ids: Sequence[str] | None = None,
    submit: bool = False,
) -> AdjudicationsCreated:
    """Seeded adjudication assignments for `username` on the named topics (external ids) or
    on every topic with two submitted annotations; `submit` accepts each seed as it is."""
    user, created_user = _adjudicator(username, create_user)
    result = AdjudicationsCreated(username, created_user)
    return _create(result, user, _topics(project, topic_ids), seed, threshold, submit)


@transaction.atomic
def adjudications_assign(
    *,
    project_id: int,
    user_id: int,
    seed: str = SEED_CONSENSUS,
    threshold: float = 0.5,
    topic_pks: Sequence[int] = (),
    submit: bool = False,
) -> AdjudicationsCreated:
    """The admin pages' bulk action: as `adjudications_create`, by ids (no topics: every topic
    of the project with two submitted annotations)."""
    project = Project.objects.get(pk=project_id)
    user = get_user_model().objects.filter(pk=user_id, is_active=True).first()
    topics = list(Topic.objects.filter(project=project, pk__in=topic_pks))
    if user is None or len(topics) != len(set(topic_pks)):
        raise AssignmentTargetsNotFound(topics=sorted(set(topic_pks) - {t.pk for t in topics}))
    if not topic_pks:
        topics = _topics(project, None)
    topics.sort(key=lambda t: (t.position, t.pk))
    result = AdjudicationsCreated(user.get_username())
    return _create(result, user, topics, seed, threshold, submit)


def _create(
    result: AdjudicationsCreated,
    user,
    topics: list[Topic],
    seed: str,
    threshold: float,
    submit: bool,
) -> AdjudicationsCreated:
    errors = []
    for topic in topics:
        existing = Assignment.objects.filter(topic=topic, user=user).first()
        if existing is not None and existing.role == Assignment.Role.ADJUDICATOR:
            result.skipped.append(topic.external_id)
            continue
        try:
            with transaction.atomic():
                assignment = create_adjudication(
                    topic=topic, user=user, seed=seed, threshold=threshold
                )
                if submit:
                    assignment_submit(assignment_id=assignment.pk, user=user)
                    result.submitted += 1
        except DomainError as refused:
            errors.append(f"topic {topic.external_id}: {refused.message}")
            continue
        result.created.append(topic.external_id)
    if errors:
        raise AssignmentRefused(
            f"{len(errors)} topic(s) refused, so no adjudication was assigned; first: {errors[0]}",
            errors=errors,
        )
    return result


def _topics(project: Project, topic_ids: Sequence[str] | None) -> list[Topic]:
    if not topic_ids:
        topics = topics_to_adjudicate(project)
        if not topics:
            raise AssignmentRefused(
                f"No topic of project '{project.name}' has two submitted annotations yet."
            )
        return topics
    found = {
        t.external_id: t
        for t in Topic.objects.filter(project=project, external_id__in=list(topic_ids))
    }
    missing = [t for t in dict.fromkeys(topic_ids) if t not in found]
    if missing:
        raise AssignmentRefused(
            f"Not topics of project '{project.name}': {', '.join(missing)}.", missing=missing
        )
    return [found[t] for t in dict.fromkeys(topic_ids)]


def _adjudicator(username: str, create: bool):
    User = get_user_model()
    user = User.objects.filter(username=username).first()
    if user is not None:
        if not user.is_active:
            raise AssignmentRefused(f"User {username} is deactivated.")
        return user, False
    if not create:
        raise AssignmentRefused(
            f"User {username} does not exist; create it first or pass --create-user."
        )
    user = User(username=username)
    user.set_unusable_password()  # an admin sets one later
    try:
        user.full_clean(exclude=["password"])
    except ValidationError as invalid:
        reasons = "; ".join(m for ms in invalid.message_dict.values() for m in ms)
        raise AssignmentRefused(f"Cannot create user {username!r}: {reasons}") from None
    user.save()
    return user, True
