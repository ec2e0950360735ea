"""Why an operation was refused, in words an annotator understands.

Every refusal is a `DomainError` with a short snake_case `code` (what the API returns as
`error`), a human `message`, and `details`: JSON-able facts a client may use (the offending
field, the cycle's path, the broken link rule). The exceptions know nothing of HTTP; the API
maps them to status codes in one place.
"""

from __future__ import annotations

from typing import Any


class DomainError(Exception):
    code = "domain_error"

    def __init__(self, message: str, **details: Any) -> None:
        super().__init__(message)
        self.message = message
        self.details = details

    def to_dict(self) -> dict[str, Any]:
        """The JSON body of the refusal: `{"error": code, "message": text, ...details}`."""
        return {"error": self.code, "message": self.message, **self.details}


class InvalidOperation(DomainError):
    """The operation payload is malformed: a field is missing or has the wrong type."""

    code = "invalid_operation"

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}", field=field)
        self.field = field


class TextTooLong(InvalidOperation):
    """A label or note longer than its limit (the limits: annotation.domain.operations.clusters,
    docs/decisions.md)."""

    code = "too_long"

    def __init__(self, field: str, limit: int, length: int) -> None:
        super().__init__(field, f"at most {limit:,} characters, not {length:,}")
        self.details["limit"] = limit


class NotFound(DomainError):
    code = "not_found"

    def __init__(self, kind: str, id: Any, message: str | None = None) -> None:
        message = message or f"There is no {kind} #{id} in this annotation."
        super().__init__(message, kind=kind, id=id)


class NotAllowed(DomainError):
    """A project setting forbids the operation (adding, fixing or rejecting mentions, ...)."""

    code = "not_allowed"

    def __init__(self, message: str, setting: str) -> None:
        super().__init__(message, setting=setting)
        self.setting = setting


class NoChange(DomainError):
    """The operation would change nothing; refused so that every new version is a change."""

    code = "no_change"


class SelfLoopError(DomainError):
    code = "self_loop"


class CycleError(DomainError):
    """Carries the cycle as `path`: the clusters in order, the first repeated at the end."""

    code = "cycle"

    def __init__(self, message: str, path: list[tuple[int, str]]) -> None:
        super().__init__(message, path=[{"id": id, "label": label} for id, label in path])
        self.path = path


class SingleParentError(DomainError):
    code = "single_parent"


class LinkRuleError(DomainError):
    """A ChEMU-Ref link rule is broken; `rule` says which one."""

    code = "link_rule"

    def __init__(self, message: str, rule: str) -> None:
        super().__init__(message, rule=rule)
        self.rule = rule


class InvalidSpans(DomainError):
    code = "invalid_spans"


class DuplicateError(DomainError):
    code = "duplicate"


class RejectedMentionError(DomainError):
    """The mention is rejected: it takes no links and no span fixes until it is reassigned."""

    code = "mention_rejected"


class AlreadyDecided(DomainError):
    """The suggestion already carries this decision, or an acceptance that only undo reverts."""

    code = "already_decided"


class NothingToUndo(DomainError):
    code = "nothing_to_undo"


class NothingToRedo(DomainError):
    code = "nothing_to_redo"


class CorruptEffects(DomainError):
    """An effect list does not fit the state it is applied to (a corrupt or misordered log)."""

    code = "corrupt_effects"
