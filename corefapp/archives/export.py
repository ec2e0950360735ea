"""`manage.py export_project`: one project, whole, as a zip of JSON lines (docs/operations.md).

The rows are read in one repeatable-read transaction, so an export taken while annotators
work holds each operation with its effects or neither (as a backup does)."""

from __future__ import annotations

import json
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection, transaction
from django.db.migrations.recorder import MigrationRecorder
from django.utils import timezone

from annotation.models import Project
from corefapp.archives.tables import APPS, TABLES, USER_COLUMNS

FORMAT = "corefapp-project"
# 2: suggestion displays (reporting.suggestionshown) are carried. Version 1 is still read.
FORMAT_VERSION = 2
READS_VERSIONS = (1, 2)
MANIFEST = "manifest.json"
USERS_FILE = "users.jsonl"


def table_file(label: str) -> str:
    return f"{label}.jsonl"


def applied_migrations() -> dict[str, list[str]]:
    applied: dict[str, list[str]] = {app: [] for app in APPS}
    for app, name in MigrationRecorder(connection).applied_migrations():
        if app in applied:
            applied[app].append(name)
    return {app: sorted(names) for app, names in applied.items()}


@dataclass
class Exported:
    project: str
    rows: dict[str, int]
    users: int


def _line(row: dict[str, Any]) -> bytes:
    return (json.dumps(row, cls=DjangoJSONEncoder, sort_keys=True) + "\n").encode()


def project_export(*, name: str, path: Path) -> Exported:
    """Write project `name` to `path` (a zip); raises Project.DoesNotExist. Rows stream from
    the database into the zip, so a large project is never held in memory whole."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial")
    try:
        with zipfile.ZipFile(partial, "w", compression=zipfile.ZIP_DEFLATED) as archive:
            exported = _write(archive, name)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    partial.replace(path)  # a reader never sees half an archive
    return exported


def _write(archive: zipfile.ZipFile, name: str) -> Exported:
    outer = connection.in_atomic_block  # inside a caller's transaction: its snapshot
    with transaction.atomic():
        if not outer:
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
        project = Project.objects.get(name=name)
        tables: dict[str, dict[str, Any]] = {}
        user_ids: set[int] = set()
        for table in TABLES:
            rows = (
                table.model._default_manager.filter(**{table.project: project.pk})
                .order_by("pk")
                .values(*table.columns)
                .iterator(chunk_size=2000)
            )
            count = 0
            with archive.open(table_file(table.label), "w") as file:
                for row in rows:
                    row.update(dict.fromkeys(table.cleared))
                    file.write(_line(row))
                    count += 1
                    user_ids.update(
                        row[c] for c, space in table.keys.items() if space == "user" and row[c]
                    )
            tables[table.label] = {
                "file": table_file(table.label),
                "columns": table.columns,
                "rows": count,
            }
        users = list(
            get_user_model().objects.filter(pk__in=user_ids).order_by("pk").values(*USER_COLUMNS)
        )
        archive.writestr(USERS_FILE, b"".join(map(_line, users)))
        manifest = {
            "format": FORMAT,
            "format_version": FORMAT_VERSION,
            "project": project.name,
            "exported_at": timezone.now().isoformat(),
            "migrations": applied_migrations(),
            "users": {"file": USERS_FILE, "columns": list(USER_COLUMNS), "rows": len(users)},
            "tables": tables,
        }
        archive.writestr(MANIFEST, json.dumps(manifest, indent=2, sort_keys=True))
    return Exported(
        project=project.name, rows={k: v["rows"] for k, v in tables.items()}, users=len(users)
    )
