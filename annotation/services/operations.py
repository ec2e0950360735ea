"""Apply, undo and redo annotation operations: one transaction each, version-checked, logged.

The sequence for every change: lock the annotation row, check `expected_version` (stale ->
VersionConflict, nothing changed), get the state (cache or PostgreSQL), plan with the pure
domain code (a refusal raises before anything is written), write the effects as SQL, log
them with the new version, and after commit update the cache and broadcast to other tabs.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db import connection, transaction

from annotation import gates
from annotation.domain import history
from annotation.domain.effects import apply_effects
from annotation.domain.errors import DomainError, NotAllowed, NotFound
from annotation.domain.operations import plan
from annotation.domain.operations.bulk import plan_parts
from annotation.domain.operations.payload import Payload
from annotation.domain.operations.result import NewId, OperationResult
from annotation.domain.state import AnnotationState, Settings
from annotation.errors import VersionConflict
from annotation.infra import state_cache
from annotation.infra.effects_sql import effects_write
from annotation.models import Annotation, Assignment, Mention, Operation, Project, Topic
from annotation.models import Cluster as ClusterRow
from annotation.proposals import DECISION_OPERATIONS, proposal_exists
from annotation.selectors.access import annotation_edit_check
from annotation.selectors.log import operation_log
from annotation.selectors.state import SETTINGS_COLUMNS, annotation_state_load, settings_from
from foundation import broadcast
from foundation.side_effects import after_commit

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
        return {
            "operation_id": self.operation_id,
            "version": self.version,
            "name": self.name,
            "kind": self.kind,
            "effects": self.effects,
            "warnings": self.warnings,
            "created": self.created,
            "client_id": self.client_id,
        }


def _new_id(kind: str) -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT nextval(pg_get_serial_sequence(%s, 'id'))", [_SEQUENCE_TABLES[kind]])
        return cursor.fetchone()[0]


@dataclass
class Locked:
    """The locked annotation row and what an operation needs to know about it."""

    id: int
    version: int
    topic_id: int
    project_id: int
    assignment_id: int | None
    owner_id: int | None
    status: str | None
    # The project's flags as of this transaction: a cached state is used only under these.
    settings: Settings


# One statement for the hot path (the ORM's select_related compiles slower than it runs).
# The project row is locked FOR SHARE: operations on a project run side by side, but a change
# of its settings (services/projects.py locks the row FOR UPDATE) waits for the operations
# under way to commit, re-checks the data under the lock, and the operations after it wait
# for it and read the new flags (READ COMMITTED re-reads a row it waited for). Without it, an
# operation that read "several parents allowed" could commit a second parent after the
# admin's check found none, leaving a single-parent project with a two-parent cluster.
_ANNOTATION = Annotation._meta.db_table
_LOCK_SQL = (
    "SELECT a.id, a.version, a.topic_id, t.project_id, s.id, s.user_id, s.status, "
    + ", ".join(f"p.{column}" for column in SETTINGS_COLUMNS)
    + f" FROM {_ANNOTATION} a JOIN {Topic._meta.db_table} t ON t.id = a.topic_id "
    f"JOIN {Project._meta.db_table} p ON p.id = t.project_id "
    f"LEFT JOIN {Assignment._meta.db_table} s ON s.id = a.assignment_id "
    f"WHERE a.id = %s FOR UPDATE OF a FOR SHARE OF p"
)
_LOG_SQL = (
    f"WITH bumped AS (UPDATE {_ANNOTATION} SET version = version + 1, updated_at = now() "
    f"WHERE id = %s RETURNING version) "
    f"INSERT INTO {Operation._meta.db_table} (annotation_id, version, kind, target_id, name, "
    f"payload, effects, warnings, user_id, client_id, created_at) "
    f"SELECT %s, bumped.version, %s, %s, %s, %s::jsonb, %s::jsonb, %s::jsonb, %s, %s, now() "
    f"FROM bumped RETURNING id, version"
)


def _lock_editable(annotation_id: int, expected_version: int, user) -> Locked:
    """Lock the row; refuse what is not this user's (404 to annotators, who must not learn
    that a colleague's annotation exists; 403 to admins), stale, or read-only."""
    with connection.cursor() as cursor:
        cursor.execute(_LOCK_SQL, [annotation_id])
        row = cursor.fetchone()
    if row is None:
        raise NotFound("annotation", annotation_id)
    columns = dict(zip(SETTINGS_COLUMNS, row[7:], strict=True))
    # A raw cursor hands jsonb over as text (Django decodes JSONField itself).
    for jsonb in ("validation_reasons", "attributes"):
        columns[jsonb] = json.loads(columns[jsonb] or "null")
    id_, version, topic_id, project_id, assignment_id, owner_id, status = row[:7]
    locked = Locked(
        id_, version, topic_id, project_id, assignment_id, owner_id, status, settings_from(columns)
    )
    check = functools.partial(
        annotation_edit_check,
        user,
        annotation_id=annotation_id,
        owner_id=locked.owner_id,
        status=locked.status if locked.assignment_id is not None else None,
    )
    # Who it is first (a stranger learns nothing, not even the version), then staleness,
    # then whether the content may change.
    check(content=False)
    if locked.version != expected_version:
        raise VersionConflict(expected=expected_version, current=locked.version)
    check()
    gates.edit_check(_edit_context(locked, user))
    return locked


def _edit_context(locked: Locked, user) -> gates.EditContext:
    user_id = getattr(user, "pk", None)
    return gates.EditContext(
        locked.id, locked.topic_id, locked.project_id, locked.assignment_id, user_id
    )


def _commit(
    locked: Locked,
    state,
    *,
    user,
    name: str,
    payload: dict,
    kind: str,
    effects: list,
    warnings: list[str],
    created: dict,
    target_id: int | None,
    client_id: str,
) -> Applied:
    """Write `effects` (already planned against `state`) and log them; `state` is updated in
    place and cached after commit. On any failure the cache entry is already gone."""
    effects_write(annotation_id=locked.id, topic_id=locked.topic_id, effects=effects)
    apply_effects(state, effects)
    with connection.cursor() as cursor:
        cursor.execute(
            _LOG_SQL,
            [
                locked.id,
                locked.id,
                kind,
                target_id,
                name,
                json.dumps(payload),
                json.dumps(effects),
                json.dumps(warnings),
                getattr(user, "pk", None),
                client_id[:64],
            ],
        )
        operation_id, version = cursor.fetchone()
        if locked.status != Assignment.Status.IN_PROGRESS:
            cursor.execute(
                f"UPDATE {Assignment._meta.db_table} SET status = %s WHERE id = %s",
                [Assignment.Status.IN_PROGRESS, locked.assignment_id],
            )
            locked.status = Assignment.Status.IN_PROGRESS
    locked.version = version
    applied = Applied(
        operation_id=operation_id,
        version=version,
        name=name,
        kind=kind,
        effects=effects,
        warnings=warnings,
        created=created,
        client_id=client_id,
    )
    annotation_id = locked.id
    after_commit(state_cache.put, annotation_id, version, state)
    after_commit(broadcast.annotation_applied, annotation_id, applied.as_message())
    progress = {
        "assignment": locked.assignment_id,
        "annotation": annotation_id,
        "version": version,
        "status": Assignment.Status.IN_PROGRESS,
        "operation": name,
    }
    project_id = locked.project_id
    after_commit(broadcast.project_progress, project_id, progress)
    return applied


def _state_for(locked: Locked):
    state = state_cache.take(locked.id, locked.version, locked.settings)
    if state is None:
        state = annotation_state_load(
            Annotation.objects.select_related("topic__project").get(pk=locked.id)
        )
        # The flags read with the lock, so the cache key and the rules the plan follows agree.
        state.settings = locked.settings
    return state


def _check_proposal(locked: Locked, payload: dict[str, Any]) -> None:
    """Decisions name proposals made for this topic, so acceptance rates mean something; and
    none is accepted on a practice topic (it measures the annotator, not the model)."""
    if payload.get("op") in DECISION_OPERATIONS:
        if payload.get("op") == "accept_suggestion":
            why = gates.practice_proposals_refusal(locked.topic_id, locked.project_id)
            if why:
                raise NotAllowed(why, setting="practice")
        proposal = Payload(payload).id("suggestion")
        if not proposal_exists(topic_id=locked.topic_id, proposal_id=proposal):
            raise NotFound(
                "suggestion", proposal, f"There is no suggestion #{proposal} for this topic."
            )


@transaction.atomic
def annotation_operation_apply(
    *, annotation_id: int, user, payload: dict[str, Any], expected_version: int, client_id: str = ""
) -> Applied:
    locked = _lock_editable(annotation_id, expected_version, user)
    _check_proposal(locked, payload)
    state = _state_for(locked)
    feedback = gates.operation_feedback(_edit_context(locked, user), state, payload)
    result = plan(state, payload, _new_id)
    result.warnings.extend(feedback)
    return _commit_do(locked, state, user=user, payload=payload, result=result, client_id=client_id)


def _commit_do(
    locked: Locked,
    state: AnnotationState,
    *,
    user: Any,
    payload: dict[str, Any],
    result: OperationResult,
    client_id: str,
) -> Applied:
    """Write and log a planned operation (`result`) as a new `do` step."""
    return _commit(
        locked,
        state,
        user=user,
        name=str(payload["op"]),
        payload=payload,
        kind="do",
        effects=result.effects,
        warnings=result.warnings,
        created=result.created,
        target_id=None,
        client_id=client_id,
    )


@dataclass
class Skipped:
    key: object
    reason: str


@transaction.atomic
def annotation_operations_apply_each(
    *,
    annotation_id: int,
    user,
    expected_version: int,
    builders: Iterable[tuple[object, Callable[[Any], dict | None]]],
    client_id: str = "",
) -> tuple[list[Applied], list[Skipped]]:
    """Apply a batch of operations, each its own logged version (one undo step each), under
    one lock. Each builder sees the state the previous operations left and returns the
    operation to apply now (or None to skip); one the rules refuse is skipped and reported,
    the others go through. Used by bulk acceptance of suggestions."""
    locked = _lock_editable(annotation_id, expected_version, user)
    state = _state_for(locked)
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
        applied.append(
            _commit_do(
                locked, state, user=user, payload=payload, result=result, client_id=client_id
            )
        )
    return applied, skipped


@transaction.atomic
def annotation_operation_apply_parts(
    *,
    annotation_id: int,
    user,
    expected_version: int,
    payload: dict[str, Any],
    parts: Callable[[AnnotationState, NewId], Iterable[tuple[Callable[[Any], str] | None, Any]]],
    nothing: str,
    client_id: str = "",
) -> Applied:
    """Apply many changes as ONE logged operation (one undo step), under one lock: `parts`
    gets the state and the id source and gives `(name, plan)` pairs for `bulk.plan_parts`,
    each planned against what the ones before it left. One the rules refuse refuses them
    all (a DomainError, nothing written). `payload` is what the log records (its `op` is the
    step's name). Used to accept or reject every open suggestion of one kind."""
    locked = _lock_editable(annotation_id, expected_version, user)
    state = _state_for(locked)
    result = plan_parts(state, parts(state, _new_id), nothing=nothing)
    return _commit_do(locked, state, user=user, payload=payload, result=result, client_id=client_id)


def _undo_or_redo(
    *, annotation_id: int, user, expected_version: int, client_id: str, kind: str
) -> Applied:
    locked = _lock_editable(annotation_id, expected_version, user)
    log = {entry.seq: entry for entry in operation_log(locked.id)}
    planner = history.plan_undo if kind == "undo" else history.plan_redo
    target_seq, effects = planner(log.values())
    target = log[target_seq]
    if kind == "undo":
        gates.undo_check(_edit_context(locked, user), target_seq)
    state = _state_for(locked)
    return _commit(
        locked,
        state,
        user=user,
        name=target.name,
        payload={"op": kind, "target": target_seq},
        kind=kind,
        effects=effects,
        warnings=[],
        created={},
        target_id=target.pk,
        client_id=client_id,
    )


@transaction.atomic
def annotation_undo(
    *, annotation_id: int, user, expected_version: int, client_id: str = ""
) -> Applied:
    return _undo_or_redo(
        annotation_id=annotation_id,
        user=user,
        expected_version=expected_version,
        client_id=client_id,
        kind="undo",
    )


@transaction.atomic
def annotation_redo(
    *, annotation_id: int, user, expected_version: int, client_id: str = ""
) -> Applied:
    return _undo_or_redo(
        annotation_id=annotation_id,
        user=user,
        expected_version=expected_version,
        client_id=client_id,
        kind="redo",
    )
