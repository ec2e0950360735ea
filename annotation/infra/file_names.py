"""File names made from data (usernames, project names, topic ids, uploads): made safe and
kept inside their folder before anything is written (exports, downloads, imports, releases)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from annotation.errors import ExportRefused

_UNSAFE_CHARACTERS = re.compile(r"[^\w .@+-]")
_NAME_BYTES = 150  # file systems allow 255 bytes; room for a suffix and an extension


def safe_file_name(name: str) -> str:
    """`name` as a plain file name: every character but letters, digits, spaces and . @ + - _
    becomes `_`, and so does a leading dot (no `..`, no hidden file); no surrounding spaces,
    never empty, at most 150 bytes."""
    cleaned = _UNSAFE_CHARACTERS.sub("_", name).strip()
    if cleaned.startswith("."):
        cleaned = "_" + cleaned[1:]
    return cleaned.encode()[:_NAME_BYTES].decode(errors="ignore") or "_"


def path_inside(folder: Path, name: str) -> Path:
    """`folder / name`, refused unless it stays inside `folder`."""
    target = folder / name
    if not target.resolve().is_relative_to(folder.resolve()):
        raise ExportRefused(f"{name!r} is not a file name inside the export folder")
    return target


def unique_file_names(names: Iterable[str]) -> dict[str, str]:
    """Each name -> its safe file name, distinct ones kept distinct (`name-2`, ...)."""
    taken: set[str] = set()
    safe: dict[str, str] = {}
    for name in names:
        base = candidate = safe_file_name(name)
        counter = 1
        while candidate.lower() in taken:
            counter += 1
            candidate = f"{base}-{counter}"
        taken.add(candidate.lower())
        safe[name] = candidate
    return safe
