"""The JSON parser of every API view: DRF's, refusing JSON nested too deep to be meant and
text PostgreSQL cannot store.

A body like `[[[[...]]]]` nested thousands deep made the decoder overflow Python's stack: a 500
before authentication (`/api/auth/token/`). No request of this API nests deeper than ~6.
A string holding U+0000 (`"\u0000"` in JSON) cannot be stored in a PostgreSQL text or jsonb
column, so any write of it (a label, a note, a backend parameter, a logged operation) would fail
with a server error: it is refused here, once, for every endpoint.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rest_framework import parsers
from rest_framework.exceptions import ParseError

MAX_DEPTH = 64


def refusal(value: Any, limit: int = MAX_DEPTH) -> str | None:
    """ "too_deep" when lists and objects in `value` nest more than `limit` deep, "nul" when a
    string or key holds U+0000, else None (iterative: no stack to overflow)."""
    pending = [(value, 1)]
    while pending:
        item, depth = pending.pop()
        if isinstance(item, str):
            if "\x00" in item:
                return "nul"
            continue
        if isinstance(item, dict):
            if any("\x00" in key for key in item):
                return "nul"
            children: Iterable[Any] = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth > limit:
            return "too_deep"
        pending.extend((child, depth + 1) for child in children)
    return None


class JSONParser(parsers.JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            problem: str | None = "too_deep"
        else:
            problem = refusal(data)
        if problem == "too_deep":
            raise ParseError(f"JSON parse error - nested deeper than {MAX_DEPTH} levels.")
        if problem == "nul":
            raise ParseError("JSON parse error - text may not contain the character U+0000.")
        return data
