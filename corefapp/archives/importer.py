"""`manage.py import_project`: an archive read and checked whole (reader.py), then written in
one transaction with every id drawn afresh from this instance's sequences.

Ids of each space are allocated in the order of the old ones, so the mapping keeps order: a
log replays in the same order, and an export of the imported project equals the original
after renumbering (tests/integration/test_project_archives.py checks that)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

import psycopg
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, connection, transaction
from psycopg.types.json import Jsonb

from annotation.domain.errors import DomainError
from annotation.domain.history import replay
from annotation.errors import UploadTooLarge
from annotation.infra.bulk_sql import ids_reserve
from annotation.models import Annotation, Operation, Project
from annotation.selectors.state import annotation_initial_state, annotation_state_load
from corefapp.archives.json_ids import ArchiveInvalid
from corefapp.archives.reader import Archive, archive_read
from corefapp.archives.tables import TABLES, Table


@dataclass
class Imported:
    project: str
    project_id: int
    rows: dict[str, int]
    users_created: list[str] = field(default_factory=list)
    users_matched: list[str] = field(default_factory=list)
    # Staff in the instance that exported: created here without staff rights (an archive
    # never grants them); the report names them so an admin can decide.
    staff_in_source: list[str] = field(default_factory=list)
    # Whether its annotators see the imported assignments in My topics.
    in_my_topics: bool = False


def project_import(
    *, path: Path | BinaryIO, name: str | None = None, in_my_topics: bool = False
) -> Imported:
    """`in_my_topics`: the imported assignments appear in their annotators' My topics. Off by
    default: an archive's assignments are the exporting instance's campaign (a copy kept for
    its reports, a project moved between labs), not new work for whoever has that name here;
    an admin turns it on at import or later in the project's settings. `path`: the archive, or
    an open upload of it."""
    archive = archive_read(path)
    new_name = name or archive.project_name
    if not new_name.strip() or len(new_name) > (Project._meta.get_field("name").max_length or 0):
        raise ArchiveInvalid(f"{new_name!r} cannot name a project")
    try:
        return _write(archive, new_name, in_my_topics=in_my_topics)
    # A project of that name created meanwhile, rows that break a constraint together (COPY
    # runs on psycopg's own cursor, so its errors come unwrapped).
    except (IntegrityError, psycopg.errors.IntegrityError) as error:
        raise ArchiveInvalid(f"the database refused the archive's rows ({error})") from None


def project_archive_upload_import(
    *, upload, name: str | None = None, in_my_topics: bool = False
) -> Imported:
    """`project_import` of an uploaded archive (the admin's import page), within
    MAX_UPLOAD_BYTES: a larger archive is imported with `manage.py import_project`."""
    limit = settings.MAX_UPLOAD_BYTES
    if upload.size > limit:
        raise UploadTooLarge(
            f"{upload.name} is {upload.size:,} bytes, above the {limit:,}-byte limit "
            "(MAX_UPLOAD_BYTES): import it with manage.py import_project"
        )
    return project_import(path=upload, name=name or None, in_my_topics=in_my_topics)


def name_clash_message(name: str) -> str:
    return (
        f"A project named {name!r} exists here already. Import it under another name (the "
        "import's name field, or --name NEW), or rename or delete the existing project first."
    )


@transaction.atomic
def _write(archive: Archive, name: str, *, in_my_topics: bool) -> Imported:
    if Project.objects.filter(name=name).exists():
        raise ArchiveInvalid(name_clash_message(name))
    report = Imported(project=name, project_id=0, rows={}, in_my_topics=in_my_topics)
    mapping: dict[str, dict[int, int]] = {"user": _users(archive, report)}
    for table in TABLES:
        old = sorted(archive.ids[table.space])
        new = sorted(ids_reserve(table.model, len(old)))
        mapping[table.space] = dict(zip(old, new, strict=True))

    def remap(space: str, old: int) -> int:
        return mapping[space][old]

    for table in TABLES:
        rows = [_rewritten(table, row, remap) for row in archive.rows[table.label]]
        if table.label == "annotation.project":
            rows[0].update(name=name, in_my_topics=in_my_topics)
            report.project_id = rows[0]["id"]
        _copy(table, rows)
        report.rows[table.label] = len(rows)
    _replays_check(report.project_id)
    return report


def _replays_check(project_id: int) -> None:
    """Every imported log replays, by the domain's own effects, to its annotation's stored
    state: a log naming a cluster that never existed, or tables the log does not explain,
    would otherwise break the annotation's undo later. Refusing undoes the transaction."""
    annotations = Annotation.objects.filter(topic__project_id=project_id).select_related(
        "topic__project", "assignment__user"
    )
    for annotation in annotations.order_by("pk"):
        log = Operation.objects.filter(annotation=annotation).order_by("version")
        try:
            replayed = replay(annotation_initial_state(annotation), log)
            if replayed.snapshot() == annotation_state_load(annotation).snapshot():
                continue
            why = "it replays to another state than the archive's tables hold"
        except (DomainError, ValueError, TypeError, KeyError) as error:
            why = f"it does not replay ({error})"
        user = annotation.assignment.user.username if annotation.assignment else None
        whose = f"{user}'s annotation" if user else f"the {annotation.kind} annotation"
        raise ArchiveInvalid(f"the log of {whose} of topic {annotation.topic.external_id!r}: {why}")


def _users(archive: Archive, report: Imported) -> dict[int, int]:
    User = get_user_model()
    ids = {}
    for row in archive.users:
        user = User.objects.filter(username=row["username"]).first()
        if user is None:
            user = User(
                username=row["username"],
                email=row["email"],
                first_name=row["first_name"],
                last_name=row["last_name"],
                is_active=bool(row["is_active"]),
            )
            user.set_unusable_password()
            user.save()
            report.users_created.append(user.username)
            if row["is_staff"]:
                report.staff_in_source.append(user.username)
        else:
            report.users_matched.append(user.username)
        ids[row["id"]] = user.pk
    return ids


def _rewritten(table: Table, row: dict[str, Any], remap) -> dict[str, Any]:
    out = dict(row)
    out["id"] = remap(table.space, row["id"])
    for column, space in {**table.keys, **table.refs}.items():
        if row[column] is not None:
            out[column] = remap(space, row[column])
    for column, rewrite in table.json.items():
        out[column] = rewrite(row, remap)
    for f in table.model._meta.concrete_fields:  # this instance's default, unless set later
        if f.attname in table.local:
            out[f.attname] = f.get_default()
    return out


def _copy(table: Table, rows: list[dict[str, Any]]) -> None:
    if not rows:
        return
    fields = table.model._meta.concrete_fields
    columns = [f.attname for f in fields]
    json_columns = {f.attname for f in fields if f.get_internal_type() == "JSONField"}
    # Rows are keyed by attribute name; the table's column may differ (db_column).
    names = ", ".join(connection.ops.quote_name(f.column or f.attname) for f in fields)
    quoted = connection.ops.quote_name(table.model._meta.db_table)
    with (
        connection.cursor() as cursor,
        cursor.cursor.copy(f"COPY {quoted} ({names}) FROM STDIN") as copy,
    ):
        for row in rows:
            copy.write_row([_sql_value(row[c], c in json_columns) for c in columns])


def _sql_value(value: Any, is_json: bool) -> Any:
    # A JSON column's null is SQL NULL (MentionEdit.spans), not the JSON value null.
    return Jsonb(value) if is_json and value is not None else value
