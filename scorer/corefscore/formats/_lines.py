"""Lines of a jsonl file, numbered exactly as reading it as UTF-8 text numbers them.

A file is read as bytes, which JSON decoders take as UTF-8 (so a line is decoded only by the
decoder), and split as text mode splits it: ``\\r``, ``\\n`` and ``\\r\\n`` each end a line and
become ``\\n`` (universal newlines). A stream is already text.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import IO

from corefscore.formats._io import PathOrStream


def jsonl_lines(path_or_stream: PathOrStream) -> Iterator[tuple[int, str | bytes]]:
    """The non-blank lines of a file (bytes) or a text stream (str), numbered from 1."""
    if isinstance(path_or_stream, (str, os.PathLike)):
        return file_lines(path_or_stream)
    return stream_lines(path_or_stream)


def file_lines(path: str | os.PathLike[str]) -> Iterator[tuple[int, bytes]]:
    """The non-blank lines of the file at ``path``, as bytes, numbered from 1."""
    number = 0
    with open(path, "rb") as stream:
        for piece in stream:  # (binary mode ends a line at LF only)
            for line in _universal_newlines(piece):
                number += 1
                if not _blank(line):
                    yield number, line


def stream_lines(stream: IO[str]) -> Iterator[tuple[int, str]]:
    """The non-blank lines of a text stream, numbered from 1."""
    for number, line in enumerate(stream, start=1):
        if line.strip():
            yield number, line


def _universal_newlines(piece: bytes) -> list[bytes]:
    """The lines of ``piece`` (one line of binary mode) as text mode reads them."""
    if b"\r" not in piece:
        return [piece]
    return piece.replace(b"\r\n", b"\n").replace(b"\r", b"\n").splitlines(keepends=True)


def _blank(line: bytes) -> bool:
    """Whether the line's text is blank (``str.strip`` also strips non-ASCII spaces). A line
    that is not UTF-8 is not blank: decoding it fails where it is parsed, as reading the file
    as text fails."""
    return line[:1] != b"{" and not line.decode("utf-8", "replace").strip()
