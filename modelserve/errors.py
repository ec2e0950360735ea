"""Every refusal of the suggestions app. Like the core's, they know nothing of HTTP: they are
DomainErrors, which annotation.api.errors maps to status codes in one place."""

from __future__ import annotations

from annotation.domain.errors import DomainError
from annotation.errors import Forbidden, ServiceUnavailable


class RunRefused(DomainError):
    code = "run_refused"


class SettingsRefused(DomainError):
    code = "suggestion_settings_refused"


class RunNotAllowed(Forbidden):
    pass


class ModelQueueUnavailable(ServiceUnavailable):
    """The model queue (Redis) did not answer, so no run was created."""

    code = "model_queue_unavailable"
