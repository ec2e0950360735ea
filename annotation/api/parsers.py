"""The parsers of every API view: DRF's, refusing JSON nested too deep to be meant and text
PostgreSQL cannot store, for every endpoint at once.

A body like `[[[[...]]]]` nested thousands deep made the decoder overflow Python's stack: a 500
before authentication (`/api/auth/token/`). No request of this API nests deeper than ~6.

PostgreSQL's text and jsonb columns refuse a NUL (U+0000) and a lone surrogate (half of a
UTF-16 pair, `"\\ud800"`, which JSON can spell): any write of one (a label, a note, a backend
parameter or its key, a logged operation's extra key) failed as a server error. And a refusal
that names the value ("'\\ud800' is not a valid choice.") could not be encoded as UTF-8, so the
refusal itself was a 500. Both are refused here, before any field sees them: the message says
where, never the text itself. A form or multipart body cannot carry a surrogate (Django decodes
it with replacement characters) but can carry a NUL (`%00`), in a value, a key or a file name.
The websockets read their frames with the same check (annotation/consumers.py).
"""

from __future__ import annotations

from typing import Any

from rest_framework import parsers
from rest_framework.exceptions import ParseError

MAX_DEPTH = 64

NUL = "nul"
SURROGATE = "surrogate"
TOO_DEEP = "too_deep"


def text_refusal(text: str) -> str | None:
    """NUL or SURROGATE when PostgreSQL could not store `text`, else None."""
    if "\x00" in text:
        return NUL
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            return SURROGATE
    return None


def located_refusal(value: Any, limit: int = MAX_DEPTH) -> tuple[str, str] | None:
    """(TOO_DEEP, "") when lists and objects in `value` nest more than `limit` deep; (NUL or
    SURROGATE, where) when a string or key holds one, `where` saying the field in words a
    client finds it by ("in operation.label", "in a key of params"); else None. Iterative: no
    stack to overflow."""
    pending: list[tuple[Any, int, tuple[str, ...]]] = [(value, 1, ())]
    while pending:
        item, depth, path = pending.pop()
        if isinstance(item, str):
            problem = text_refusal(item)
            if problem:
                return problem, f"in {_shown(path)}"
            continue
        if isinstance(item, dict):
            for key in item:
                problem = text_refusal(key) if isinstance(key, str) else None
                if problem:
                    return problem, f"in a key of {_shown(path)}"
            if depth > limit:
                return TOO_DEEP, ""
            pending.extend((child, depth + 1, (*path, str(key))) for key, child in item.items())
        elif isinstance(item, list):
            if depth > limit:
                return TOO_DEEP, ""
            pending.extend((child, depth + 1, (*path, f"[{i}]")) for i, child in enumerate(item))
    return None


def _shown(path: tuple[str, ...]) -> str:
    if not path:
        return "the request body"
    # Every part is a key already checked (a bad key stops the walk before its children).
    shown = "".join(part if part.startswith("[") else f".{part[:60]}" for part in path)
    return shown.lstrip(".")


MESSAGES = {
    TOO_DEEP: f"JSON parse error - nested deeper than {MAX_DEPTH} levels",
    NUL: "Text may not contain the character U+0000 (NUL), which cannot be stored",
    SURROGATE: (
        "Text may not contain a lone surrogate (half of a UTF-16 character pair, such as "
        "\\ud800), which cannot be stored"
    ),
}


def refusal_message(found: tuple[str, str]) -> str:
    """What and where, never the text itself: a message holding a lone surrogate could not be
    encoded either."""
    problem, where = found
    return MESSAGES[problem] + (f" ({where})" if where else "") + "."


def refuse(found: tuple[str, str] | None) -> None:
    if found:
        raise ParseError(refusal_message(found))


class JSONParser(parsers.JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            refuse((TOO_DEEP, ""))
        refuse(located_refusal(data))
        return data


def _form_refusal(data) -> tuple[str, str] | None:
    """The refusal of a QueryDict's keys and values (every value of a repeated key)."""
    return located_refusal({key: data.getlist(key) for key in data})


class FormParser(parsers.FormParser):
    def parse(self, stream, media_type=None, parser_context=None):
        data = super().parse(stream, media_type, parser_context)
        refuse(_form_refusal(data))
        return data


class MultiPartParser(parsers.MultiPartParser):
    def parse(self, stream, media_type=None, parser_context=None):
        parsed = super().parse(stream, media_type, parser_context)
        refuse(_form_refusal(parsed.data))
        names = [upload.name or "" for key in parsed.files for upload in parsed.files.getlist(key)]
        refuse(located_refusal({"file names": [*parsed.files, *names]}))
        return parsed
