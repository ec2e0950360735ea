"""Every refusal of the annotation app's services (the pure domain's own are in
annotation.domain.errors, which these extend).

Like the domain errors they know nothing of HTTP; annotation/api/refusals.py gives each its
status code (foundation.api.errors maps them in one place).
"""

from __future__ import annotations

from annotation.domain.errors import DomainError


class VersionConflict(DomainError):
    """The client's expected_version is stale: someone (another tab) changed the annotation."""

    code = "version_conflict"

    def __init__(self, *, expected: int, current: int) -> None:
        super().__init__(
            f"This annotation changed elsewhere (version {current}, you had {expected}); "
            "reload to see the current state. Nothing was changed.",
            expected_version=expected,
            current_version=current,
        )


class AnnotationLocked(DomainError):
    """Submitted annotations are read-only until an admin reopens them."""

    code = "annotation_locked"


class ImportRefused(DomainError):
    code = "import_refused"

    def __init__(self, message: str, errors: list[str]) -> None:
        super().__init__(message, errors=errors)
        self.errors = errors


class NotYours(DomainError):
    """An admin may read any annotation but edits only annotations of their own assignments."""

    code = "not_yours"


class ExportRefused(DomainError):
    code = "export_refused"


class IncompleteAnnotation(DomainError):
    code = "incomplete_annotation"


class AssignmentRefused(DomainError):
    code = "assignment_refused"


class ProjectRefused(DomainError):
    code = "project_refused"


class Forbidden(DomainError):
    """The user's role does not allow this (who they are, not what the data says)."""

    code = "permission_denied"


class UploadTooLarge(DomainError):
    code = "too_large"


class AssignmentTargetsNotFound(DomainError):
    """Topics outside the project, or users that do not exist or are inactive."""

    code = "not_found"

    def __init__(self, *, topics: list[int]) -> None:
        super().__init__(
            "Some topics are not in this project or some users do not exist or are inactive.",
            topics=topics,
        )


class ServiceUnavailable(DomainError):
    """A server the request needs (the task queue) does not answer; nothing was changed and
    the same request may simply be sent again in a moment."""

    code = "service_unavailable"


class Conflict(DomainError):
    """The request clashes with something already under way (a second run while one is
    queued); nothing was changed, and the details name what is in the way."""

    code = "conflict"


class TopicRefused(DomainError):
    """A topic cannot be renamed or deleted as asked (a name taken, work that would be lost)."""

    code = "topic_refused"
