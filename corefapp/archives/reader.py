"""Reading a project archive, and every check made before the import writes anything.

An archive comes from another instance, maybe another release, maybe someone hostile. It is
read whole and refused, with what and where, unless: it is a zip of exactly the expected
members within the size limit; its format version is one this release reads (an older one lacks
the tables added since, read as empty); its schema is this one's
(no migration unknown here, the same columns per table); every value fits its column; every
foreign key names a row of the archive; and every id inside a JSON column is a whole number
where an id belongs."""

from __future__ import annotations

import json
import zipfile
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import models
from django.db.migrations.loader import MigrationLoader

from corefapp.archives.export import (
    FORMAT,
    FORMAT_VERSION,
    MANIFEST,
    READS_VERSIONS,
    USERS_FILE,
    table_file,
)
from corefapp.archives.json_ids import ArchiveInvalid
from corefapp.archives.tables import APPS, TABLES, USER_COLUMNS, Table
from corefapp.archives.values import values_check
from corefscore.formats.storable import first_unstorable

# Larger than any campaign we know of (a SciCo-sized project exports to about 200 MB of JSON).
MAX_UNCOMPRESSED = 4 * 1024**3
MAX_MANIFEST = 1024**2
# The longest row we know of is a topic's document (its words) or an import's log entry: a
# few MB for a 100,000-word topic.
MAX_LINE = 64 * 1024**2


@dataclass
class Archive:
    manifest: dict[str, Any]
    users: list[dict[str, Any]]
    rows: dict[str, list[dict[str, Any]]]
    # Every id of every space: rows' own ids and ids only named in other columns (a cluster
    # deleted later exists only in the log, and undo recreates it with the logged id).
    ids: dict[str, set[int]] = field(default_factory=lambda: defaultdict(set))

    @property
    def project_name(self) -> str:
        return str(self.rows["annotation.project"][0]["name"])


def archive_read(source: Path | BinaryIO) -> Archive:
    """`source`: a path, or an open file (an upload) that can seek."""
    try:
        with zipfile.ZipFile(source) as archive:
            return _read(archive)
    except (zipfile.BadZipFile, OSError) as error:
        name = getattr(source, "name", None) or source
        raise ArchiveInvalid(f"{name} is not a readable zip archive ({error})") from None


def tables_of(version: int) -> tuple[Table, ...]:
    """The tables an archive of format `version` holds."""
    return tuple(t for t in TABLES if t.since <= version)


def _read(archive: zipfile.ZipFile) -> Archive:
    members = {info.filename: info for info in archive.infolist()}
    if len(members) != len(archive.infolist()):
        names = [info.filename for info in archive.infolist()]
        twice = sorted({name for name in names if names.count(name) > 1})
        raise ArchiveInvalid(f"the archive holds {', '.join(twice)} more than once")
    if MANIFEST not in members or members[MANIFEST].file_size > MAX_MANIFEST:
        raise ArchiveInvalid("this is not a project archive: manifest.json is missing")
    manifest = _json(archive.read(MANIFEST), MANIFEST)
    _check_manifest(manifest)
    carried = tables_of(manifest["format_version"])
    expected = {MANIFEST, USERS_FILE, *(table_file(t.label) for t in carried)}
    if set(members) != expected:
        strange = sorted(set(members) - expected) or sorted(expected - set(members))
        raise ArchiveInvalid(f"the archive's files are not a project archive's: {strange}")
    if sum(info.file_size for info in members.values()) > MAX_UNCOMPRESSED:
        raise ArchiveInvalid(f"the archive unpacks to more than {MAX_UNCOMPRESSED} bytes")
    users = _users(_lines(archive, USERS_FILE, list(USER_COLUMNS), manifest["users"]["rows"]))
    result = Archive(manifest=manifest, users=users, rows={t.label: [] for t in TABLES})
    for table in carried:
        declared = manifest["tables"][table.label]["rows"]
        raw = _lines(archive, table_file(table.label), table.columns, declared)
        result.rows[table.label] = [_typed(table, row, n) for n, row in enumerate(raw, 1)]
    _check_keys(result)
    values_check(result.rows)
    return result


def _json(data: bytes, where: str) -> Any:
    try:
        return json.loads(data)
    except (ValueError, RecursionError) as error:  # nesting deep enough to exhaust the stack
        raise ArchiveInvalid(f"{where}: not JSON ({error})") from None


def _check_manifest(manifest: Any) -> None:
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise ArchiveInvalid("this is not a project archive (manifest.json names no format)")
    version = manifest.get("format_version")
    if version not in READS_VERSIONS or isinstance(version, bool):
        newer = (
            isinstance(version, int) and not isinstance(version, bool) and version > FORMAT_VERSION
        )
        raise ArchiveInvalid(
            f"archive format version {version!r}: this release reads versions "
            f"{', '.join(map(str, READS_VERSIONS))}"
            + ("; it was written by a newer release: upgrade this instance first" if newer else "")
        )
    migrations = manifest.get("migrations")
    if not isinstance(migrations, dict):
        raise ArchiveInvalid("the manifest has no migration state")
    known = MigrationLoader(None, ignore_no_migrations=True).disk_migrations
    unknown = [
        f"{app}.{name}"
        for app in APPS
        for name in migrations.get(app) or []
        if (app, name) not in known
    ]
    if unknown:
        raise ArchiveInvalid(
            "the archive was written by a newer release (migrations unknown here: "
            f"{', '.join(unknown)}); upgrade this instance first"
        )
    tables = manifest.get("tables")
    carried = tables_of(version)
    if not isinstance(tables, dict) or set(tables) != {t.label for t in carried}:
        raise ArchiveInvalid("the manifest does not list this release's project tables")
    for table in carried:
        entry = tables[table.label]
        columns = entry.get("columns") if isinstance(entry, dict) else None
        if columns != table.columns:
            raise ArchiveInvalid(
                f"{table.label}: the archive's columns {columns} are not this release's "
                f"{table.columns}: it was written with another schema; import it with the "
                "release that wrote it"
            )
    if not isinstance(manifest.get("users"), dict):
        raise ArchiveInvalid("the manifest does not describe the users")


def _lines(archive: zipfile.ZipFile, name: str, columns: list[str], declared: Any) -> list[dict]:
    rows = []
    with archive.open(name) as file:
        # Read a line at a time, at most MAX_LINE bytes: a 512 MiB line, read whole, took
        # 1.15 GB of memory before it was refused.
        for number, line in enumerate(iter(lambda: file.readline(MAX_LINE + 1), b""), 1):
            if len(line) > MAX_LINE:
                raise ArchiveInvalid(
                    f"{name} line {number} is longer than {MAX_LINE // 1024**2} MiB; no row "
                    "of a project is that long"
                )
            row = _json(line, f"{name} line {number}")
            if not isinstance(row, dict) or sorted(row) != sorted(columns):
                raise ArchiveInvalid(f"{name} line {number}: the row's columns are not {columns}")
            for column, value in row.items():
                unstorable = first_unstorable(column, value)
                if unstorable:  # PostgreSQL refuses it: a traceback in the middle of COPY
                    where, problem = unstorable
                    raise ArchiveInvalid(f"{name} line {number}, {where}: {problem}")
            rows.append(row)
    if len(rows) != declared:
        raise ArchiveInvalid(f"{name}: {len(rows)} rows where the manifest says {declared!r}")
    return rows


def _typed(table: Table, row: dict[str, Any], line: int) -> dict[str, Any]:
    fields = {f.attname: f for f in table.model._meta.concrete_fields}
    typed = {}
    for column, value in row.items():
        where = f"{table_file(table.label)} line {line}, {column}"
        typed[column] = _value(fields[column], value, where)
    return typed


def _value(field: models.Field, value: Any, where: str) -> Any:
    if value is None:
        if not field.null:
            raise ArchiveInvalid(f"{where}: may not be empty")
        return None
    if field.is_relation or field.primary_key:
        if not isinstance(value, int) or isinstance(value, bool):
            raise ArchiveInvalid(f"{where}: an id must be a whole number, not {value!r}")
        return value
    try:
        value = field.to_python(value)
        field.run_validators(value)
    except ValidationError as error:
        raise ArchiveInvalid(f"{where}: {' '.join(error.messages)}") from None
    except (TypeError, ValueError, OverflowError):  # a date given as a list, say
        shown = repr(value)[:60]
        raise ArchiveInvalid(f"{where}: {shown} is not a {field.description!s}") from None
    if field.choices and value not in {key for key, _ in field.flatchoices}:
        raise ArchiveInvalid(f"{where}: {value!r} is not one of the allowed values")
    return value


def _users(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    username = get_user_model()._meta.get_field("username")
    seen: set[str] = set()
    for n, row in enumerate(rows, 1):
        where = f"{USERS_FILE} line {n}"
        if not isinstance(row["id"], int) or isinstance(row["id"], bool):
            raise ArchiveInvalid(f"{where}: a user id must be a whole number")
        row["username"] = _value(username, row["username"], f"{where}, username")
        if not row["username"] or row["username"] in seen:
            raise ArchiveInvalid(f"{where}: an empty or repeated user name")
        seen.add(row["username"])
        for column in ("email", "first_name", "last_name"):
            if not isinstance(row[column], str) or len(row[column]) > 254:
                raise ArchiveInvalid(f"{where}, {column}: not a short text")
    return rows


def _check_keys(archive: Archive) -> None:
    """Foreign keys name rows of the archive; every id of every space is collected."""
    if len(archive.rows["annotation.project"]) != 1:
        raise ArchiveInvalid("a project archive holds exactly one project")
    rows_of: dict[str, set[int]] = {"user": {row["id"] for row in archive.users}}
    for table in TABLES:
        ids = [row["id"] for row in archive.rows[table.label]]
        if len(set(ids)) != len(ids):
            raise ArchiveInvalid(f"{table.label}: an id appears twice")
        rows_of[table.space] = set(ids)
        archive.ids[table.space].update(ids)

    def record(space: str, old: int) -> int:
        archive.ids[space].add(old)
        return old

    for table in TABLES:
        for n, row in enumerate(archive.rows[table.label], 1):
            for column, space in table.keys.items():
                if row[column] is not None and row[column] not in rows_of[space]:
                    raise ArchiveInvalid(
                        f"{table_file(table.label)} line {n}, {column}: {space} {row[column]} "
                        "is not in the archive"
                    )
            for column, space in table.refs.items():
                if row[column] is not None:
                    record(space, row[column])
            for column, remap in table.json.items():
                try:
                    remap(row, record)
                except ArchiveInvalid as error:
                    where = f"{table_file(table.label)} line {n}, {column}"
                    raise ArchiveInvalid(f"{where}: {error}") from None
    archive.ids.pop("user", None)
