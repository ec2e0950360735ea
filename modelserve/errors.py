"""Every refusal of the suggestions app. Like the core's, they know nothing of HTTP: they are
DomainErrors, which foundation.api.errors maps to status codes in one place (the ones they
extend are registered by annotation/api/refusals.py)."""

from __future__ import annotations

from annotation.domain.errors import DomainError, InvalidOperation
from annotation.errors import Conflict, Forbidden, ServiceUnavailable


class RunRefused(DomainError):
    code = "run_refused"


class SettingsRefused(DomainError):
    code = "suggestion_settings_refused"


class RunNotAllowed(Forbidden):
    pass


class RunSettingsAdminOnly(Forbidden):
    """An annotator's run uses the project's backend and parameters, which admins choose."""

    code = "run_settings_admin_only"


class ParameterRefused(InvalidOperation):
    """A backend parameter its schema does not declare, or a value of the wrong kind (a bad
    request: 400, like any malformed operation). The message names the parameter already."""

    code = "parameter_refused"

    def __init__(self, parameter: str, message: str) -> None:
        DomainError.__init__(self, message, parameter=parameter)
        self.field = parameter


class ModelPathRefused(DomainError):
    """A parameter names a file or folder outside the model folders the server allows. The
    message never says whether the path exists (that would let an admin probe the disk)."""

    code = "model_path_refused"

    def __init__(self, parameter: str, message: str, allowed: list[str]) -> None:
        super().__init__(f"{parameter}: {message}", parameter=parameter, allowed=allowed)


class RunAlreadyActive(Conflict):
    """A user has at most one queued or running run per topic; `run` (or `runs`, for a
    project) is what is already under way."""

    code = "run_already_active"


class ModelQueueUnavailable(ServiceUnavailable):
    """The model queue (Redis) did not answer, so no run was created."""

    code = "model_queue_unavailable"


class EvaluationRefused(DomainError):
    """A model evaluation that cannot run as asked (backend, gold source, model folder)."""

    code = "evaluation_refused"
