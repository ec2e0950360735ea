"""Format readers and writers: SciCo jsonl, CoRefi JSON, ChEMU-Ref jsonlines, brat standoff,
CoNLL-2012 (export). Every reader returns an :class:`ImportReport` of ``TopicData``; every
writer takes ``TopicData``. Pure Python: no Django. See docs/formats.md."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from annotation.domain.corpus import TopicData
from annotation.domain.formats._io import PathOrStream
from annotation.domain.formats.brat import read_brat, write_brat
from annotation.domain.formats.chemu import read_chemu_jsonlines, write_chemu_jsonlines
from annotation.domain.formats.conll import write_conll
from annotation.domain.formats.corefi import read_corefi, read_corefi_json, write_corefi, write_corefi_json
from annotation.domain.formats.errors import FormatError, FormatErrors, FormatWarning, ImportReport, Skipped
from annotation.domain.formats.scico import read_scico_jsonl, write_scico_jsonl

READERS: dict[str, Callable[..., ImportReport]] = {
    "scico": read_scico_jsonl,
    "corefi": read_corefi,
    "chemu": read_chemu_jsonlines,
    "brat": read_brat,
}
WRITERS: dict[str, Callable[..., list[FormatWarning]]] = {
    "scico": write_scico_jsonl,
    "corefi": write_corefi,
    "chemu": write_chemu_jsonlines,
    "brat": write_brat,
    "conll": write_conll,
}


def read(format: str, path: PathOrStream, skip_invalid: bool = False) -> ImportReport:
    """Read ``path`` in ``format`` (a key of READERS)."""
    try:
        reader = READERS[format]
    except KeyError:
        raise ValueError(f"unknown format {format!r}; readers: {', '.join(READERS)}") from None
    return reader(path, skip_invalid=skip_invalid)


def write(format: str, topics: Iterable[TopicData], path: PathOrStream, **options: Any) -> list[FormatWarning]:
    """Write ``topics`` to ``path`` in ``format`` (a key of WRITERS); returns warnings."""
    try:
        writer = WRITERS[format]
    except KeyError:
        raise ValueError(f"unknown format {format!r}; writers: {', '.join(WRITERS)}") from None
    return writer(list(topics), path, **options)


__all__ = [
    "READERS", "WRITERS", "read", "write", "FormatError", "FormatErrors", "FormatWarning",
    "ImportReport", "Skipped", "read_scico_jsonl", "write_scico_jsonl", "read_chemu_jsonlines",
    "write_chemu_jsonlines", "read_corefi", "read_corefi_json", "write_corefi", "write_corefi_json",
    "read_brat", "write_brat", "write_conll",
]
