"""Lines of a jsonl file, numbered exactly as reading it as UTF-8 text numbers them.

Light on purpose (no import beyond the standard library): the scorer's command line splits
its files into lines before it forks its worker, and wants nothing else imported by then.
A file is taken as bytes (or mapped); a line that opens a JSON object is handed over as
bytes, which JSON decoders take as UTF-8, and any other line as text.
"""

from __future__ import annotations

import io
import os
from collections.abc import Iterator

TYPE_CHECKING = False  # (not ``typing.TYPE_CHECKING``: importing typing costs a few ms)
if TYPE_CHECKING:
    from typing import IO

__all__ = ["jsonl_lines", "line_at", "line_spans", "map_file", "read_bytes", "stream_lines"]


def read_bytes(path: str | os.PathLike[str]) -> bytes:
    with open(path, "rb") as stream:
        return stream.read()


def map_file(path: str | os.PathLike[str]):
    """The file's bytes, mapped rather than read (no copy; a forked process shares the
    mapping); an empty file cannot be mapped and is read."""
    import mmap

    with open(path, "rb") as stream:
        if os.fstat(stream.fileno()).st_size == 0:
            return stream.read()
        return mmap.mmap(stream.fileno(), 0, access=mmap.ACCESS_READ)


def stream_lines(stream: IO[str]) -> Iterator[tuple[int, str]]:
    """The non-blank lines of a text stream, numbered from 1."""
    for number, line in enumerate(stream, start=1):
        if line.strip():
            yield number, line


def line_spans(data: bytes) -> list[tuple[int, int, int]] | None:
    """``(line number, start, end)`` of every line of a file's bytes (end past its newline), as
    reading the file as UTF-8 text would number them; None when the file has a carriage return
    (text mode would also end lines there: such a file is read as text). ``data`` may be an
    ``mmap`` (hence ``find``: ``in`` would walk an mmap byte by byte)."""
    if data.find(b"\r") >= 0:
        return None
    spans = []
    start, number, find = 0, 1, data.find
    while start < len(data):
        newline = find(b"\n", start)
        end = len(data) if newline < 0 else newline + 1
        spans.append((number, start, end))
        start, number = end, number + 1
    return spans


def jsonl_lines(
    data: bytes, spans: list[tuple[int, int, int]] | None
) -> Iterator[tuple[int, str | bytes]]:
    """The non-blank lines among ``spans`` of ``data`` (see :func:`line_spans`), numbered."""
    if spans is None:
        yield from stream_lines(
            io.StringIO(data[:].decode("utf-8"), newline=None)
        )  # (data[:]: an mmap too)
        return
    for number, start, end in spans:
        line = line_at(data, start, end)
        if line is not None:
            yield number, line


def line_at(data: bytes, start: int, end: int) -> str | bytes | None:
    """The line ``data[start:end]``, None when blank: bytes for a line that opens an object
    (JSON decodes bytes as UTF-8), else its text, tested for blankness exactly as a text line
    is (``str.strip``). UnicodeDecodeError as reading the file as text would raise."""
    line = data[start:end]
    if line[:1] == b"{":
        return line
    text = line.decode("utf-8")
    return text if text.strip() else None
