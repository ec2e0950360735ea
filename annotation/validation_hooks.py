"""What the core asks the validation app about validation projects (Project.validation).

A validation project is a core project whose annotators accept or reject imported clusters
(docs/validation.md): the decisions are core rows and the `validate` operation is a core
operation, but what a validator's progress counts, what the agreement report says about
validators, what an export writes and which imported topics are fit to validate belong to
the validation app (`validation/`). It depends on the core and never the other way round,
so, as with `annotation/gates.py`, it registers its answers here when Django starts
(`validation/apps.py`). With nothing registered a validator has decided nothing, and a
validation project's report, export and import say that the validation app is missing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Protocol

from annotation.errors import ExportRefused, ImportRefused


class ExportLines(Protocol):
    """What an export returns: the source it wrote, what it wrote (a validation export: (path,
    topics, warnings) tuples, the side file among them) and the lines a command prints."""

    source: str
    written: list[Any]

    def lines(self) -> list[str]: ...


@dataclass(frozen=True)
class ValidationHooks:
    # {annotation id: mentions its validator decided}: their progress (My topics, the matrix).
    decided_counts: Callable[[list[int]], dict[int, int]]
    # The agreement report's `validation` section, and the same as CSV rows.
    measures: Callable[[Any], dict[str, Any]]
    measures_csv_write: Callable[[dict[str, Any], IO[str]], None]
    # `annotations_export` of a validation project: its validated clusters and a side file.
    export: Callable[..., ExportLines]
    # Topics an import into a validation project keeps (each needs clusters to validate).
    import_fit: Callable[[list[Any], str, bool, list[Any]], list[Any]]


_hooks: list[ValidationHooks] = []


def validation_hooks_register(hooks: ValidationHooks) -> None:
    _hooks[:] = [hooks]


_MISSING = "validation projects need the validation app (INSTALLED_APPS)"


def _registered(refusal: type[ExportRefused | ImportRefused]) -> ValidationHooks:
    if not _hooks:
        raise ExportRefused(_MISSING) if refusal is ExportRefused else ImportRefused(_MISSING, [])
    return _hooks[0]


def validation_decided_counts(annotation_ids: list[int]) -> dict[int, int]:
    return _hooks[0].decided_counts(annotation_ids) if _hooks else {}


def validation_measures(project: Any) -> dict[str, Any]:
    return _registered(ExportRefused).measures(project)


def validation_csv_write(measures: dict[str, Any], stream: IO[str]) -> None:
    _registered(ExportRefused).measures_csv_write(measures, stream)


def validated_export(**arguments: Any) -> ExportLines:
    return _registered(ExportRefused).export(**arguments)


def validation_unfit_drop(
    topics: list[Any], file: str | Path, skip_invalid: bool, skipped: list[Any]
) -> list[Any]:
    return _registered(ImportRefused).import_fit(topics, str(file), skip_invalid, skipped)
