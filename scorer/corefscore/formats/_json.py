"""JSON decoding for the line readers: orjson's speed, the standard library's results.

``orjson`` decodes a SciCo line about twice as fast as ``json``, but it is not a drop-in
replacement, and the readers promise the same topics and the same error messages either way:

- its error messages differ, and it refuses what ``json`` accepts (``NaN``, ``Infinity``,
  lone surrogate escapes, nesting deeper than 1024): whenever ``orjson`` fails, the text is
  decoded again with ``json``, whose result or error message is the one used;
- an integer beyond 64 bits comes back as a float (``json`` gives the int), so a caller that
  finds a float where the difference matters decodes again with :func:`exact`.

Without ``orjson`` installed everything goes through ``json``.
"""

from __future__ import annotations

import json
from typing import Any

try:
    import orjson
except (
    ImportError
):  # pragma: no cover - orjson is a dependency; this keeps the readers usable without it
    orjson = None  # type: ignore[assignment]

try:
    import simdjson
except ImportError:  # pragma: no cover - a dependency; without it every line is decoded
    simdjson = None  # type: ignore[assignment]

JSONDecodeError = json.JSONDecodeError

# Fields read whole from a counted line; the token fields are counted (``tokens``) or left out
# (the flattened copies, which only the importer's flattened check reads).
_COUNTED_SKIPPED = frozenset({"flatten_tokens", "flatten_mentions"})


def text_of(line: str | bytes) -> str:
    """The line as ``str`` (UTF-8, as the readers open files); UnicodeDecodeError as reading
    would."""
    return line if isinstance(line, str) else line.decode("utf-8")


def exact(line: str | bytes) -> Any:
    """``json.loads`` of the line: the reference result, and the reference error message."""
    return json.loads(text_of(line))


def loads(line: str | bytes) -> tuple[Any, bool]:
    """(decoded value, exact): ``exact`` is False when ``orjson`` decoded it, so that integers
    beyond 64 bits may have become floats. Raises ``json.JSONDecodeError`` with the standard
    library's message (and UnicodeDecodeError for bytes that are not UTF-8)."""
    if orjson is not None:
        try:
            return orjson.loads(line), False
        except orjson.JSONDecodeError:
            pass  # json accepts some of these, and gives its own message for the others
    return exact(line), True


def has_float(value: Any) -> bool:
    """Whether a decoded value holds a float anywhere (where ``orjson`` may have turned a big
    integer into one)."""
    kind = type(value)
    if kind is float:
        return True
    if kind is list:
        return any(map(has_float, value))
    if kind is dict:
        return any(map(has_float, value.values()))
    return False


def tokens_counted(line: str | bytes) -> dict[str, Any] | None:
    """The SciCo line's object with each paragraph's tokens counted, not decoded: a paragraph
    of n tokens becomes n empty strings, and the flattened copies are left out. The scorer needs
    only the counts, and decoding some 3.6 million token strings is most of its reading time
    (simdjson parses the line in C and makes Python objects only for what is read).

    None (decode the line as usual, with every check) where simdjson cannot read the line or
    the result could differ from ``json``'s: not an object, a duplicate key, a paragraph that
    is not a list. Like orjson's, the result is not exact for integers beyond 64 bits (simdjson
    refuses them) or floats, which the caller already checks."""
    if simdjson is None:
        return None
    try:
        document = simdjson.Parser().parse(line)
    except (ValueError, RuntimeError, UnicodeDecodeError):
        return None
    if not isinstance(document, simdjson.Object):
        return None
    keys = list(document.keys())
    if len(keys) != len(set(keys)):
        return None
    result: dict[str, Any] = {}
    for key in keys:
        if key in _COUNTED_SKIPPED:
            continue
        value = document[key]
        if key == "tokens" and isinstance(value, simdjson.Array):
            paragraphs = []
            for paragraph in value:
                if not isinstance(paragraph, simdjson.Array):
                    return None
                paragraphs.append([""] * len(paragraph))
            result[key] = paragraphs
        elif isinstance(value, simdjson.Array):
            result[key] = value.as_list()
        elif isinstance(value, simdjson.Object):
            result[key] = value.as_dict()
        else:
            result[key] = value
    return result
