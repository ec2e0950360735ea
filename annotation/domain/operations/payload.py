"""Reading an operation's JSON payload: each field present and of the right type.

A malformed payload is refused with `InvalidOperation` naming the field (prefixed with
`operation.` when it sits inside a suggestion's operation). Unknown extra fields are ignored.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeGuard

from ..errors import InvalidOperation
from ..state import Spans

_MISSING = object()


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


class Payload:
    def __init__(self, op: Any, prefix: str = "") -> None:
        if not isinstance(op, Mapping):
            raise InvalidOperation(prefix.rstrip(".") or "operation", "must be a JSON object")
        self.op = op
        self.prefix = prefix

    def field(self, name: str) -> str:
        return f"{self.prefix}{name}"

    def _get(self, name: str) -> Any:
        value = self.op.get(name, _MISSING)
        if value is _MISSING:
            raise InvalidOperation(self.field(name), "is required")
        return value

    def id(self, name: str) -> int:
        value = self._get(name)
        if not _is_int(value):
            raise InvalidOperation(self.field(name), f"must be an integer id, not {value!r}")
        return value

    def optional_id(self, name: str) -> int | None:
        """Required key whose value may be null (null means 'a new cluster' or 'the root')."""
        if self._get(name) is None:
            return None
        return self.id(name)

    def text(self, name: str, *, blank: bool = True) -> str:
        value = self._get(name)
        if not isinstance(value, str):
            raise InvalidOperation(self.field(name), f"must be text, not {value!r}")
        if not blank and not value.strip():
            raise InvalidOperation(self.field(name), "must not be empty")
        return value

    def optional_text(self, name: str) -> str | None:
        """Required key whose value may be null (null clears an attribute)."""
        if self._get(name) is None:
            return None
        return self.text(name)

    def choice(self, name: str, choices: tuple[str, ...]) -> str:
        value: str = self._get(name)  # (one of the choices, once checked)
        if value not in choices:
            raise InvalidOperation(
                self.field(name), f"must be one of {', '.join(choices)}, not {value!r}"
            )
        return value

    def ids(self, name: str) -> list[int]:
        """A non-empty list of ids; repeated ids count once, first occurrence first."""
        value = self._get(name)
        if not isinstance(value, list) or not value:
            raise InvalidOperation(self.field(name), "must be a non-empty list of ids")
        if not all(_is_int(item) for item in value):
            raise InvalidOperation(self.field(name), f"must hold integer ids only, not {value!r}")
        return list(dict.fromkeys(value))

    def links(self, name: str) -> list[tuple[str, int, int]]:
        """A non-empty list of links, each `{"type", "anaphor", "antecedent"}`, as triples
        (the type is checked by the planner, which names the allowed ones)."""
        value = self._get(name)
        if not isinstance(value, list) or not value:
            raise InvalidOperation(self.field(name), "must be a non-empty list of links")
        out = []
        for i, item in enumerate(value):
            link = Payload(item, f"{self.field(name)}[{i}].")
            out.append((link.text("type"), link.id("anaphor"), link.id("antecedent")))
        return out

    def spans(self, name: str) -> Spans:
        """`[[start, end], ...]`, non-empty, integers; the rules on spans are checked later."""
        value = self._get(name)
        well_formed = (
            isinstance(value, list)
            and len(value) > 0
            and all(
                isinstance(span, (list, tuple)) and len(span) == 2 and all(_is_int(x) for x in span)
                for span in value
            )
        )
        if not well_formed:
            raise InvalidOperation(
                self.field(name), f"must be a non-empty list of [start, end] pairs, not {value!r}"
            )
        return tuple((start, end) for start, end in value)

    def objects(self, name: str) -> list[Payload]:
        """A non-empty list of JSON objects, each read as a payload (`mentions[2].spans`)."""
        value = self._get(name)
        if not isinstance(value, list) or not value:
            raise InvalidOperation(self.field(name), "must be a non-empty list")
        return [Payload(item, prefix=f"{self.field(name)}[{i}].") for i, item in enumerate(value)]

    def nested(self, name: str) -> Payload:
        return Payload(self._get(name), prefix=self.field(name) + ".")
