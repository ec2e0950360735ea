"""The JSON parser of every API view: DRF's, refusing JSON nested too deep to be meant.

A body like `[[[[...]]]]` nested thousands deep made the decoder overflow Python's stack: a 500
before authentication (`/api/auth/token/`). No request of this API nests deeper than ~6.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rest_framework import parsers
from rest_framework.exceptions import ParseError

MAX_DEPTH = 64


def nesting_depth_exceeds(value: Any, limit: int) -> bool:
    """Whether lists and objects in `value` nest more than `limit` deep (iterative: no stack
    to overflow)."""
    pending = [(value, 1)]
    while pending:
        item, depth = pending.pop()
        if isinstance(item, dict):
            children: Iterable[Any] = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth > limit:
            return True
        pending.extend((child, depth + 1) for child in children)
    return False


class JSONParser(parsers.JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            too_deep = True
        else:
            too_deep = nesting_depth_exceeds(data, MAX_DEPTH)
        if too_deep:
            raise ParseError(f"JSON parse error - nested deeper than {MAX_DEPTH} levels.")
        return data
