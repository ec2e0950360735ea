"""Format readers and writers: SciCo jsonl, CoRefi JSON, ChEMU-Ref jsonlines, brat standoff,
CoNLL-2012 (export). Every reader returns an :class:`ImportReport` of ``TopicData``; every
writer takes ``TopicData``. Pure Python: no Django. See docs/formats.md.

Everything here is imported when first used (``READERS[...]``, ``read``, ``write`` or an
attribute of this package), so that a caller of one format, such as the scorer's command
line, does not pay for importing the others, nor for anything before it needs it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from importlib import import_module

TYPE_CHECKING = False  # (not ``typing.TYPE_CHECKING``: importing typing costs a few ms)
if TYPE_CHECKING:
    from typing import Any

    from annotation.domain.corpus import TopicData
    from annotation.domain.formats._io import PathOrStream
    from annotation.domain.formats.errors import (
        FormatError,
        FormatErrors,
        FormatWarning,
        ImportReport,
        Skipped,
    )

_FUNCTIONS: dict[str, str] = {
    "FormatError": "errors",
    "FormatErrors": "errors",
    "FormatWarning": "errors",
    "ImportReport": "errors",
    "Skipped": "errors",
    "read_scico_jsonl": "scico",
    "write_scico_jsonl": "scico",
    "read_chemu_jsonlines": "chemu",
    "write_chemu_jsonlines": "chemu",
    "read_corefi": "corefi",
    "read_corefi_json": "corefi",
    "write_corefi": "corefi",
    "write_corefi_json": "corefi",
    "read_brat": "brat",
    "write_brat": "brat",
    "write_conll": "conll",
}


class _Registry(Mapping):
    """Format name -> function, the function's module imported on first access."""

    def __init__(self, functions: dict[str, str]) -> None:
        self._functions = functions

    def __getitem__(self, format: str) -> Callable[..., Any]:
        return __getattr__(self._functions[format])

    def __iter__(self) -> Iterator[str]:
        return iter(self._functions)

    def __len__(self) -> int:
        return len(self._functions)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({list(self._functions)})"


READERS: Mapping[str, Callable[..., ImportReport]] = _Registry(
    {
        "scico": "read_scico_jsonl",
        "corefi": "read_corefi",
        "chemu": "read_chemu_jsonlines",
        "brat": "read_brat",
    }
)
WRITERS: Mapping[str, Callable[..., list[FormatWarning]]] = _Registry(
    {
        "scico": "write_scico_jsonl",
        "corefi": "write_corefi",
        "chemu": "write_chemu_jsonlines",
        "brat": "write_brat",
        "conll": "write_conll",
    }
)


def __getattr__(name: str) -> Any:
    module = _FUNCTIONS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    function = getattr(import_module(f"{__name__}.{module}"), name)
    globals()[name] = function
    return function


def read(format: str, path: PathOrStream, skip_invalid: bool = False) -> ImportReport:
    """Read ``path`` in ``format`` (a key of READERS)."""
    try:
        reader = READERS[format]
    except KeyError:
        raise ValueError(f"unknown format {format!r}; readers: {', '.join(READERS)}") from None
    return reader(path, skip_invalid=skip_invalid)


def write(
    format: str, topics: Iterable[TopicData], path: PathOrStream, **options: Any
) -> list[FormatWarning]:
    """Write ``topics`` to ``path`` in ``format`` (a key of WRITERS); returns warnings."""
    try:
        writer = WRITERS[format]
    except KeyError:
        raise ValueError(f"unknown format {format!r}; writers: {', '.join(WRITERS)}") from None
    return writer(list(topics), path, **options)


__all__ = [
    "READERS",
    "WRITERS",
    "FormatError",
    "FormatErrors",
    "FormatWarning",
    "ImportReport",
    "Skipped",
    "read",
    "read_brat",
    "read_chemu_jsonlines",
    "read_corefi",
    "read_corefi_json",
    "read_scico_jsonl",
    "write",
    "write_brat",
    "write_chemu_jsonlines",
    "write_conll",
    "write_corefi",
    "write_corefi_json",
    "write_scico_jsonl",
]
