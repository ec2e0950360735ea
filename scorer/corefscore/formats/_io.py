"""Opening what a caller passes (a path or an open text stream), and small shared checks."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any, TypeGuard, Union

PathOrStream = Union[str, "os.PathLike[str]", IO[str]]


def display_name(path_or_stream: PathOrStream) -> str:
    """The name errors use for a file: its base name, or ``<stream>`` for a nameless stream."""
    if isinstance(path_or_stream, (str, os.PathLike)):
        return Path(path_or_stream).name
    name = getattr(path_or_stream, "name", None)
    return Path(name).name if isinstance(name, str) else "<stream>"


@contextmanager
def open_text(path_or_stream: PathOrStream, mode: str = "r") -> Iterator[IO[str]]:
    """Open a path in UTF-8 (creating parent folders when writing), or pass a stream through."""
    if isinstance(path_or_stream, (str, os.PathLike)):
        path = Path(path_or_stream)
        if "w" in mode:
            path.parent.mkdir(parents=True, exist_ok=True)
        with path.open(mode, encoding="utf-8", newline="" if "w" in mode else None) as stream:
            yield stream
    else:
        yield path_or_stream


def is_int(value: object) -> TypeGuard[int]:
    """A JSON integer (``bool`` is an ``int`` in Python, but not in JSON)."""
    return isinstance(value, int) and not isinstance(value, bool)


def json_type(value: Any) -> str:
    """What a decoded JSON value is, as error messages say it ("a list", "null", ...)."""
    return {
        dict: "an object",
        list: "a list",
        str: "a string",
        bool: "a boolean",
        type(None): "null",
    }.get(type(value), "a number")


_CANONICAL_INT = re.compile(r"-?[1-9][0-9]*|0")


def canonical_int(text: str) -> int | None:
    """``"12"`` -> 12; anything that would not print back identically -> None.

    (What prints back identically is an optional minus and ASCII digits without a leading
    zero, "0" aside: the pattern rules out the rest without the cost of a failed ``int``.)
    """
    if not isinstance(text, str) or _CANONICAL_INT.fullmatch(text) is None:
        return None
    try:
        value = int(text)
    except ValueError:  # more digits than int() converts
        return None
    return value if str(value) == text else None
