"""Import one annotator's file(s) of topics already in a project: their clusters, hierarchy and
links become that annotator's annotation of each topic (`manage.py import_annotations`).

Topics are matched by external id, mentions by document and spans (`annotation.py`, one
logged `import` operation per topic). All of it is one transaction: every topic is checked
and every error collected, and when any remains the whole import is refused and rolled back,
so nothing is written (nor broadcast: side effects wait for the commit).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import transaction

from annotation.domain.errors import DomainError
from annotation.errors import ImportRefused
from annotation.models import Assignment, Project, Topic
from annotation.services.assignments import assignment_create, assignment_submit
from annotation.services.imports.annotation import annotation_import_for_assignment
from annotation.services.imports.link_scheme import links_in_scheme
from annotation.services.imports.sources import source_read, topics_check
from corefscore.formats import READERS, FormatErrors
from corefscore.formats._io import display_name


@dataclass
class AnnotationsImported:
    project: str
    user: str
    file: str
    created_user: bool = False
    topics: list[str] = field(default_factory=list)
    submitted: int = 0
    unmatched: dict[str, int] = field(default_factory=dict)  # topic -> candidates not in file
    warnings: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        head = (
            f"{self.file}: imported {len(self.topics)} topic(s) for {self.user} into project "
            f"'{self.project}'" + (f", {self.submitted} submitted" if self.submitted else "")
        )
        created = [f"created user {self.user} (unusable password: set one to sign in)"]
        return [
            *(created if self.created_user else []),
            head,
            *(
                f"topic {topic}: {count} candidate mention(s) not in the file, left unassigned"
                for topic, count in self.unmatched.items()
                if count
            ),
            *(f"warning: {warning}" for warning in self.warnings),
        ]


@transaction.atomic
def annotator_annotations_import(
    *,
    project: Project,
    path: str | Path,
    format: str,
    username: str,
    create_user: bool = False,
    submit: bool = False,
) -> AnnotationsImported:
    if format not in READERS:
        raise ImportRefused(f"unknown format {format!r}; use one of {', '.join(READERS)}", [])
    file = display_name(path)
    user, created = _annotator(username, create_user)
    try:
        report = source_read(format, source=path, skip_invalid=False, name=file)
    except FormatErrors as error:
        listed = [str(e) for e in error.errors]
        raise ImportRefused(
            f"{file}: {len(listed)} error(s); nothing was imported", listed
        ) from None
    except OSError as error:
        raise ImportRefused(f"{file}: cannot be read ({error})", [f"{file}: {error}"]) from None
    topics_check(len(report.topics), name=file)
    result = AnnotationsImported(project.name, username, file, created_user=created)
    result.warnings += [str(w) for w in report.warnings]
    topics = {t.external_id: t for t in Topic.objects.filter(project=project)}
    errors: list[str] = []
    seen: set[str] = set()
    in_scheme, outside = links_in_scheme(report.topics, file=file)
    result.warnings += outside
    for data in in_scheme:
        topic = topics.get(data.external_id)
        if topic is None:
            errors.append(f"{file}: topic {data.external_id} is not in project '{project.name}'")
            continue
        if data.external_id in seen:
            errors.append(f"{file}: topic {data.external_id} appears twice")
            continue
        seen.add(data.external_id)
        try:
            assignment = _assignment(topic, user)
            imported = annotation_import_for_assignment(
                assignment=assignment, topic=data, user=None, file=file
            )
            if submit:
                assignment_submit(assignment_id=assignment.pk, user=user)
                result.submitted += 1
        except ImportRefused as refused:
            errors += refused.errors or [refused.message]
            continue
        except DomainError as refused:
            errors.append(f"{file}: topic {data.external_id}: {refused.message}")
            continue
        result.topics.append(data.external_id)
        result.unmatched[data.external_id] = imported.unmatched
        result.warnings += [f"topic {data.external_id}: {w}" for w in imported.warnings]
    if errors:
        raise ImportRefused(
            f"{file}: {len(errors)} error(s); nothing was imported for {username}", errors
        )
    if not result.topics:
        raise ImportRefused(f"{file}: no topic to import", [f"{file}: no topic"])
    return result


def _annotator(username: str, create: bool):
    User = get_user_model()
    user = User.objects.filter(username=username).first()
    if user is not None:
        return user, False
    if not create:
        raise ImportRefused(
            f"user {username} does not exist; create it first or pass --create-user", []
        )
    user = User(username=username)
    user.set_unusable_password()  # an admin sets one later
    try:
        user.full_clean(exclude=["password"])
    except ValidationError as invalid:
        reasons = "; ".join(m for ms in invalid.message_dict.values() for m in ms)
        raise ImportRefused(f"cannot create user {username!r}: {reasons}", []) from None
    user.save()
    return user, True


def _assignment(topic: Topic, user) -> Assignment:
    existing = Assignment.objects.filter(topic=topic, user=user).first()
    if existing is not None and existing.role != Assignment.Role.ANNOTATOR:
        raise DomainError(
            f"{user.get_username()} adjudicates this topic; an annotator's file cannot go there"
        )
    return existing or assignment_create(topic=topic, user=user)
