"""Apply, undo and redo annotation operations: one transaction each, version-checked, logged.

The sequence for every change: lock the annotation row, check `expected_version` (stale ->
VersionConflict, nothing changed), get the state (cache or PostgreSQL), plan with the pure
domain code (a refusal raises before anything is written), write the effects as SQL, log
them with the new version, and after commit update the cache and broadcast to other tabs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db import connection, transaction
from django.utils import timezone

from annotation.domain import history
from annotation.domain.effects import apply_effects, invert_effects
from annotation.domain.errors import DomainError, NothingToRedo, NothingToUndo
from annotation.domain.operations import plan
from annotation.models import Annotation, Assignment, Mention, Operation
from annotation.models import Cluster as ClusterRow
from annotation.selectors.state import annotation_state_load
from annotation.services import broadcast, state_cache
from annotation.services.effects_sql import effects_write
from annotation.services.errors import AnnotationLocked, VersionConflict

EDITABLE = {Assignment.Status.ASSIGNED, Assignment.Status.IN_PROGRESS, Assignment.Status.REOPENED}
_SEQUENCE_TABLES = {"cluster": ClusterRow._meta.db_table, "mention": Mention._meta.db_table}


@dataclass
class Applied:
    """What the API returns and the websocket broadcasts for one applied change."""

    operation_id: int
    version: int
    name: str
    kind: str
    effects: list[dict[str, Any]]
    warnings: list[str] = field(default_factory=list)
    created: dict[str, int] = field(default_factory=dict)
    client_id: str = ""

    def as_message(self) -> dict[str, Any]:
        return {"operation_id": self.operation_id, "version": self.version, "name": self.name, "kind": self.kind,
                "effects": self.effects, "warnings": self.warnings, "created": self.created,
                "client_id": self.client_id}


def _new_id(kind: str) -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT nextval(pg_get_serial_sequence(%s, 'id'))", [_SEQUENCE_TABLES[kind]])
        return cursor.fetchone()[0]


def _lock_editable(annotation_id: int, expected_version: int) -> Annotation:
    annotation = (
        Annotation.objects.select_for_update(of=("self",))
        .select_related("assignment", "topic__project")
        .get(pk=annotation_id)
    )
    if annotation.version != expected_version:
        raise VersionConflict(expected=expected_version, current=annotation.version)
    assignment = annotation.assignment
    if assignment is None:
        raise AnnotationLocked("Gold annotations are read-only; import a new version instead.")
    if assignment.status not in EDITABLE:
        raise AnnotationLocked("This annotation is submitted and read-only; an admin can reopen it.")
    return annotation


def _commit(annotation: Annotation, state, *, user, name: str, payload: dict, kind: str, effects: list,
            warnings: list[str], created: dict, target: Operation | None, client_id: str) -> Applied:
    """Write `effects` (already planned against `state`) and log them; `state` is updated in
    place and cached after commit. On any failure the cache entry is already gone."""
    effects_write(annotation_id=annotation.pk, topic_id=annotation.topic_id, effects=effects)
    apply_effects(state, effects)
    annotation.version += 1
    Annotation.objects.filter(pk=annotation.pk).update(version=annotation.version, updated_at=timezone.now())
    operation = Operation.objects.create(
        annotation=annotation, version=annotation.version, kind=kind, target=target, name=name,
        payload=payload, effects=effects, warnings=warnings, user=user, client_id=client_id[:64],
    )
    assignment = annotation.assignment
    if assignment.status != Assignment.Status.IN_PROGRESS:
        Assignment.objects.filter(pk=assignment.pk).update(status=Assignment.Status.IN_PROGRESS)
    applied = Applied(operation_id=operation.pk, version=annotation.version, name=name, kind=kind,
                      effects=effects, warnings=warnings, created=created, client_id=client_id)
    version = annotation.version
    transaction.on_commit(lambda: state_cache.put(annotation.pk, version, state))
    transaction.on_commit(lambda: broadcast.annotation_applied(annotation.pk, applied.as_message()))
    progress = {"assignment": assignment.pk, "annotation": annotation.pk, "version": version,
                "status": Assignment.Status.IN_PROGRESS, "operation": name}
    transaction.on_commit(lambda: broadcast.project_progress(annotation.topic.project_id, progress))
    return applied


def _state_for(annotation: Annotation):
    return state_cache.take(annotation.pk, annotation.version) or annotation_state_load(annotation)


@transaction.atomic
def annotation_operation_apply(*, annotation_id: int, user, payload: dict[str, Any], expected_version: int,
                               client_id: str = "") -> Applied:
    annotation = _lock_editable(annotation_id, expected_version)
    state = _state_for(annotation)
    result = plan(state, payload, _new_id)
    return _commit(annotation, state, user=user, name=str(payload["op"]), payload=payload, kind="do",
                   effects=result.effects, warnings=result.warnings, created=result.created, target=None,
                   client_id=client_id)


@dataclass
class Skipped:
    key: object
    reason: str


@transaction.atomic
def annotation_operations_apply_each(*, annotation_id: int, user, expected_version: int,
                                     builders: Iterable[tuple[object, Callable[[Any], dict | None]]],
                                     client_id: str = "") -> tuple[list[Applied], list[Skipped]]:
    """Apply a batch of operations, each its own logged version (one undo step each), under
    one lock. Each builder sees the state the previous operations left and returns the
    operation to apply now (or None to skip); one the rules refuse is skipped and reported,
    the others go through. Used by bulk acceptance of suggestions."""
    annotation = _lock_editable(annotation_id, expected_version)
    state = _state_for(annotation)
    applied: list[Applied] = []
    skipped: list[Skipped] = []
    for key, build in builders:
        payload = build(state)
        if payload is None:
            continue
        try:
            result = plan(state, payload, _new_id)
        except DomainError as error:
            skipped.append(Skipped(key, error.message))
            continue
        applied.append(_commit(annotation, state, user=user, name=str(payload["op"]), payload=payload, kind="do",
                               effects=result.effects, warnings=result.warnings, created=result.created,
                               target=None, client_id=client_id))
    return applied, skipped


def _log_entries(annotation: Annotation) -> list[history.LogEntry]:
    """The log without effects: enough to find what undo/redo acts on."""
    rows = Operation.objects.filter(annotation=annotation).order_by("version")
    return [history.LogEntry(seq=v, kind=k, effects=[], target_seq=t)
            for v, k, t in rows.values_list("version", "kind", "target__version")]


def _undo_or_redo(*, annotation_id: int, user, expected_version: int, client_id: str, kind: str) -> Applied:
    annotation = _lock_editable(annotation_id, expected_version)
    entries = _log_entries(annotation)
    if kind == "undo":
        target_entry = history.undo_target(entries)
        if target_entry is None:
            raise NothingToUndo("There is nothing to undo.")
    else:
        target_entry = history.redo_target(entries)
        if target_entry is None:
            raise NothingToRedo("There is nothing to redo.")
    target = Operation.objects.get(annotation=annotation, version=target_entry.seq)
    effects = invert_effects(target.effects) if kind == "undo" else list(target.effects)
    state = _state_for(annotation)
    return _commit(annotation, state, user=user, name=target.name, payload={"op": kind, "target": target.version},
                   kind=kind, effects=effects, warnings=[], created={}, target=target, client_id=client_id)


@transaction.atomic
def annotation_undo(*, annotation_id: int, user, expected_version: int, client_id: str = "") -> Applied:
    return _undo_or_redo(annotation_id=annotation_id, user=user, expected_version=expected_version,
                         client_id=client_id, kind="undo")


@transaction.atomic
def annotation_redo(*, annotation_id: int, user, expected_version: int, client_id: str = "") -> Applied:
    return _undo_or_redo(annotation_id=annotation_id, user=user, expected_version=expected_version,
                         client_id=client_id, kind="redo")
