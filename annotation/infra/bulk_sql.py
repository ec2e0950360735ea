"""Bulk writes for imports: ids drawn from a table's sequence in one round trip, rows sent with
COPY.

COPY is about nine times faster than `bulk_create` for documents (a SciCo-sized file has
millions of tokens of JSON, which the client-side cursor would otherwise quote value by value),
and drawing ids first gives the caller every row's id without RETURNING.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

from django.db import connection, models


def ids_reserve(model: type[models.Model], count: int) -> list[int]:
    """`count` new ids from `model`'s id sequence (never reused, like every server id)."""
    if count <= 0:
        return []
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT nextval(pg_get_serial_sequence(%s, 'id')) FROM generate_series(1, %s)",
            [model._meta.db_table, count],
        )
        return [row[0] for row in cursor.fetchall()]


def rows_copy(
    model: type[models.Model], columns: Sequence[str], rows: Iterable[Sequence[Any]]
) -> None:
    """COPY `rows` into `model`'s table; dict and list values are written as JSON."""
    names = ", ".join(connection.ops.quote_name(column) for column in columns)
    with (
        connection.cursor() as cursor,
        cursor.cursor.copy(
            f"COPY {connection.ops.quote_name(model._meta.db_table)} ({names}) FROM STDIN"
        ) as copy,
    ):
        for row in rows:
            copy.write_row(
                [json.dumps(value) if isinstance(value, (dict, list)) else value for value in row]
            )
