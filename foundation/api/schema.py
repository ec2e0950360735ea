"""The refusals in the OpenAPI schema: every operation lists its 4xx (and 503) answers.

The answers come from the one status table (annotation.api.errors.STATUS_BY_ERROR), in two
parts:
- what every endpoint of its kind can answer, read off the operation itself: 400 when it
  reads a body or query parameters, 413 when it reads a body, 404 when its path names an
  object, 403 unless anyone may call it (or, for a write, a signed-in browser may be refused
  its CSRF token), 422 for a write (its service refuses what would break a rule of the
  domain: a too-short password, an assignment with work in it, a second validation scheme),
  503 "restoring" for a write (while a backup is restored, corefapp/restoring.py);
- what its services raise beyond that, declared below by operation (`RAISES`), as error
  classes: the status each one gets is the table's.

It is drf-spectacular's schema class for every view (REST_FRAMEWORK["DEFAULT_SCHEMA_CLASS"]),
so no view declares its refusals itself. tests/error_contract.py holds the list to what the
server answers in every API test.
"""

from __future__ import annotations

from drf_spectacular.openapi import AutoSchema
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework import status
from rest_framework.authentication import SessionAuthentication
from rest_framework.permissions import AllowAny

from annotation import errors as service
from annotation.api.errors import (
    STATUS_BY_ERROR,
    ErrorSerializer,
    VersionConflictSerializer,
    status_of,
)
from annotation.domain import errors as domain

# Any rule of the domain an operation would break (every DomainError without a status of
# its own in the table is a 422).
RuleBroken = domain.DomainError


class Throttled(domain.DomainError):
    """DRF's throttle (sign-in attempts: annotation.api.throttles), named here for the table."""

    code = "throttled"


# What each operation's services raise beyond the refusals of its kind, as "METHOD path".
# A path renamed here fails annotation.api.schema's test (tests/annotation/test_api_errors.py).
# Writes that check credentials or end a session, and no rule of the domain.
NO_RULES = {"POST /api/auth/login/", "POST /api/auth/token/", "POST /api/auth/logout/"}
_EDIT = (service.VersionConflict, service.AnnotationLocked, service.NotYours, RuleBroken)
RAISES: dict[str, tuple[type[domain.DomainError], ...]] = {
    "POST /api/annotations/{id}/operations/": _EDIT,
    "POST /api/annotations/{id}/undo/": _EDIT,
    "POST /api/annotations/{id}/redo/": _EDIT,
    "POST /api/annotations/{id}/suggestions/accept-above/": _EDIT,
    "PUT /api/annotations/{id}/cursor/": (service.AnnotationLocked,),
    # Flags for the adjudicator (adjudication/services/flags.py): the rule of every change.
    "PUT /api/annotations/{id}/flags/{mention}/": (service.AnnotationLocked, service.NotYours),
    "DELETE /api/annotations/{id}/flags/{mention}/": (service.AnnotationLocked, service.NotYours),
    "POST /api/assignments/{id}/submit/": (service.AnnotationLocked, RuleBroken),
    # no gold yet, an annotator who has not submitted the topic, fewer than two sides
    "GET /api/projects/{id}/agreement/diagnosis/": (service.DiagnosisRefused,),
    # 503: too many sign-ins wait for the sign-in threads (corefapp/sign_in_pool.py).
    "POST /api/auth/login/": (Throttled, service.ServiceUnavailable),
    "POST /api/auth/token/": (Throttled, service.ServiceUnavailable),
    # Topics outside the project, users that do not exist (in the body, not the path).
    "POST /api/assignments/": (service.AssignmentTargetsNotFound,),
    "POST /api/assignments/bulk/": (service.AssignmentTargetsNotFound,),
    "POST /api/adjudications/": (service.AssignmentTargetsNotFound,),
    "POST /api/topics/{id}/suggestion-runs/": (
        service.Conflict,
        service.ServiceUnavailable,
        service.AnnotationLocked,  # a locked (unqualified) annotator's topic
    ),
    "POST /api/projects/{id}/suggestion-runs/": (service.Conflict, service.ServiceUnavailable),
    # a second release build of a project while one is queued or running
    "POST /api/projects/{id}/release/": (service.Conflict,),
    # an evaluation the query names (`runs`) that does not exist
    "GET /api/model-evaluations/csv/": (domain.NotFound,),
    # A locked (unqualified) annotator reads a real topic no more than they open it.
    "GET /api/topics/{id}/": (service.AnnotationLocked,),
    "GET /api/annotations/{id}/": (service.AnnotationLocked,),
}

# DRF's own refusals (annotation.api.errors.exception_handler keeps their codes).
DRF_CODES = {
    status.HTTP_400_BAD_REQUEST: ["invalid", "parse_error", "invalid_file", "bad_request"],
    status.HTTP_403_FORBIDDEN: ["not_authenticated", "authentication_failed", "permission_denied"],
    status.HTTP_404_NOT_FOUND: ["not_found"],
    status.HTTP_429_TOO_MANY_REQUESTS: ["throttled"],
}
STATUS_BY_ERROR_IN_SCHEMA: dict[type[domain.DomainError], int] = {
    **STATUS_BY_ERROR,
    Throttled: status.HTTP_429_TOO_MANY_REQUESTS,
}


def codes(answer: int) -> list[str]:
    """The error codes of one status, from the table (and DRF's)."""
    found = DRF_CODES.get(answer, []) + [
        cls.code for cls, each in STATUS_BY_ERROR_IN_SCHEMA.items() if each == answer
    ]
    return list(dict.fromkeys(found))


def description(answer: int) -> str:
    named = ", ".join(f"`{code}`" for code in codes(answer))
    if answer == status.HTTP_422_UNPROCESSABLE_ENTITY:
        return "Refused: a rule the change would break (`cycle`, `no_change`, `self_loop`, ...)."
    if answer == status.HTTP_503_SERVICE_UNAVAILABLE:
        # The restore's refusal comes from a middleware, not from the table's errors.
        return f"Refused: {named}, `restoring` (every write while a backup is restored)."
    return f"Refused: {named}."


# Flags two views read from the query string without a serializer (annotation/api/views/
# manage.py); declared here until those views declare them, so the typed client can send them.
QUERY_FLAGS: dict[str, list[OpenApiParameter]] = {
    "DELETE /api/projects/{id}/": [
        OpenApiParameter(
            "confirm",
            OpenApiTypes.STR,
            enum=["true"],
            description="true: delete a project that has annotations",
        )
    ],
    "DELETE /api/assignments/{id}/": [
        OpenApiParameter(
            "discard_work",
            OpenApiTypes.STR,
            enum=["true"],
            description="true: delete an assignment whose annotation has work",
        )
    ],
}


def open_error_bodies(result, generator, request, public):
    """drf-spectacular postprocessing hook: a refusal carries details beyond the named ones
    (`{"error", "message", ...details}`), so the error bodies admit any other property."""
    for name in ("Error", "VersionConflict"):
        result["components"]["schemas"][name]["additionalProperties"] = {}
    return result


def status_in_schema(error: type[domain.DomainError]) -> int:
    if issubclass(error, Throttled):
        return status.HTTP_429_TOO_MANY_REQUESTS
    return status_of(error)


class ErrorsAutoSchema(AutoSchema):
    def _get_response_bodies(self, direction="response"):
        responses = super()._get_response_bodies(direction)
        if direction != "response":
            return responses
        for answer, body in sorted(self.refusals().items()):
            responses.setdefault(
                str(answer),
                self._get_response_for_code(
                    OpenApiResponse(body, description=description(answer)), str(answer)
                ),
            )
        return responses

    def get_override_parameters(self):
        return [
            *super().get_override_parameters(),
            *QUERY_FLAGS.get(f"{self.method} {self.path}", []),
        ]

    def refusals(self) -> dict[int, type]:
        """Each 4xx/503 status this operation can answer, with its body's serializer."""
        answers: dict[int, type] = {}
        reads_body = self.method in ("POST", "PUT", "PATCH") and bool(self.get_request_serializer())
        if reads_body or (self.method == "GET" and self._query_parameters()):
            answers[status.HTTP_400_BAD_REQUEST] = ErrorSerializer
        if reads_body:
            answers[status.HTTP_413_REQUEST_ENTITY_TOO_LARGE] = ErrorSerializer
        if "{" in self.path:
            answers[status.HTTP_404_NOT_FOUND] = ErrorSerializer
        if self._may_refuse_the_caller():
            answers[status.HTTP_403_FORBIDDEN] = ErrorSerializer
        operation = f"{self.method} {self.path}"
        if self.method in ("POST", "PUT", "PATCH", "DELETE") and operation not in NO_RULES:
            answers[status.HTTP_422_UNPROCESSABLE_ENTITY] = ErrorSerializer
        if self.method in ("POST", "PUT", "PATCH", "DELETE"):
            # Every write, while a backup is restored (corefapp/restoring.py).
            answers[status.HTTP_503_SERVICE_UNAVAILABLE] = ErrorSerializer
        for error in RAISES.get(operation, ()):
            answers[status_in_schema(error)] = (
                VersionConflictSerializer
                if issubclass(error, service.VersionConflict)
                else ErrorSerializer
            )
        return answers

    def _query_parameters(self) -> bool:
        return any(parameter.get("in") == "query" for parameter in self._get_parameters() or [])

    def _may_refuse_the_caller(self) -> bool:
        permissions = self.view.get_permissions()
        if any(not isinstance(permission, AllowAny) for permission in permissions):
            return True
        # Anyone may call it, but a signed-in browser's write still needs its CSRF token.
        writes = self.method not in ("GET", "HEAD", "OPTIONS")
        return writes and any(
            isinstance(auth, SessionAuthentication) for auth in self.view.get_authenticators()
        )
