"""The import's format guess (scorer/corefscore/formats/guess.py) for what an import reads: a
file, an uploaded stream, or a folder (an unpacked zip); and the hint a refusal gives when the
file looks like another format than the one chosen."""

from __future__ import annotations

import zipfile
from pathlib import Path
from typing import Any

from annotation.errors import ImportRefused
from annotation.services.imports.sources import is_folder, is_zip_path
from corefscore.formats import FORMATS
from corefscore.formats._io import display_name
from corefscore.formats.guess import HEAD_BYTES, Guess, guess_files, guess_format

# The format an import may be asked for to have it guessed (and said).
AUTO = "auto"
# Formats a guess may name that this version does not read.
OTHER_LABELS = {"corefud": "CorefUD CoNLL-U", "label-studio": "Label Studio JSON"}


def source_guess(source: Any) -> Guess | None:
    """What `source` looks like: a path (file, folder or zip) or an open stream."""
    if is_folder(source):
        files = sorted(
            p
            for p in Path(source).rglob("*")
            if p.is_file() and not any(part.startswith((".", "__MACOSX")) for part in p.parts)
        )
        file = next((p for p in files if p.suffix.lower() not in (".txt", ".xml")), None)
        head = (_head(file), file.name) if file is not None else None
        return guess_files([p.name for p in files], head)
    if is_zip_path(source):
        with zipfile.ZipFile(source) as opened:
            names = [n for n in opened.namelist() if not n.endswith("/")]
            member = next((n for n in names if not n.lower().endswith((".txt", ".xml"))), None)
            if member is not None:
                with opened.open(member) as stream:
                    head = (stream.read(HEAD_BYTES), member)
            return guess_files(names, head if member is not None else None)
    if isinstance(source, (str, Path)):
        return guess_format(_head(Path(source)), Path(source).name)
    return guess_format(_stream_head(source), display_name(source))


def label(format: str) -> str:
    known = FORMATS.get(format)
    return known.label if known is not None else OTHER_LABELS.get(format, format)


def looks_like(format: str, *, source: Any) -> str:
    """``; it looks like ChEMU-Ref jsonlines (--format chemu: ...)`` when `source` looks like
    another format than `format`, else ``""``."""
    try:
        guess = source_guess(source)
    except (OSError, ValueError, zipfile.BadZipFile):
        return ""
    if guess is None or guess.format == format:
        return ""
    return f"; it looks like {label(guess.format)} (--format {guess.format}: {guess.reason})"


def format_guess(source: Any) -> Guess:
    """The format an import with ``--format auto`` reads `source` as; refused when there is
    no guess or it names a format this version does not read."""
    name = display_name(source)
    guess = source_guess(source)
    if guess is None:
        raise ImportRefused(
            f"{name}: its format cannot be told from its contents; choose one with --format",
            [f"{name}: format unknown"],
        )
    if guess.format not in FORMATS or FORMATS[guess.format].reader is None:
        raise ImportRefused(
            f"{name} looks like {label(guess.format)} ({guess.reason}), which cannot be "
            "imported yet",
            [f"{name}: {label(guess.format)}"],
        )
    return guess


def _head(path: Path) -> bytes:
    with path.open("rb") as stream:
        return stream.read(HEAD_BYTES)


def _stream_head(stream: Any) -> bytes:
    # From the start: the reader may have read the stream already.
    position = stream.tell() if hasattr(stream, "tell") else None
    if position is not None:
        stream.seek(0)
    data = stream.read(HEAD_BYTES)
    if position is not None:
        stream.seek(position)
    return data.encode("utf-8") if isinstance(data, str) else data
