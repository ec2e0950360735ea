"""The operation log, read the way the history planners (annotation.domain.history) read it.

An annotation's log grows with every keystroke, and effect lists can be large (a merge of two
big clusters), so an entry loads its effects only when a planner reads them: undo and redo
read exactly one entry's."""

from __future__ import annotations

from functools import cached_property
from typing import Any

from annotation.models import Operation


class LoggedOperation:
    """One log row as a `history.Entry`; `pk` is the row's id, `name` the operation's."""

    def __init__(self, pk: int, seq: int, kind: str, target_seq: int | None, name: str) -> None:
        self.pk = pk
        self.seq = seq
        self.kind = kind
        self.target_seq = target_seq
        self.name = name

    @cached_property
    def effects(self) -> list[dict[str, Any]]:
        return list(Operation.objects.values_list("effects", flat=True).get(pk=self.pk))


def operation_log(annotation_id: int) -> list[LoggedOperation]:
    rows = Operation.objects.filter(annotation_id=annotation_id).order_by("version")
    return [
        LoggedOperation(*row)
        for row in rows.values_list("pk", "version", "kind", "target__version", "name")
    ]
