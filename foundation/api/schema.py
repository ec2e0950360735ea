"""The refusals in the OpenAPI schema: every operation lists its 4xx (and 503) answers.

The answers come from the one status table (foundation.api.errors.STATUS_BY_ERROR, which
the apps fill), in two parts:
- what every endpoint of its kind can answer, read off the operation itself: 400 when it
  reads a body or query parameters, 413 when it reads a body, 404 when its path names an
  object, 403 unless anyone may call it (or, for a write, a signed-in browser may be refused
  its CSRF token), 422 for a write (its service refuses what would break a rule of the
  domain: a too-short password, an assignment with work in it, a second validation scheme),
  503 "restoring" for a write (while a backup is restored, corefapp/restoring.py);
- what its services raise beyond that, declared beside the view by `@refuses(...)` on its
  handler, as error classes: the status each one gets is the table's. So an app adds a
  refusal to its own endpoint in its own views, and this module names no app's endpoint.

It is drf-spectacular's schema class for every view (REST_FRAMEWORK["DEFAULT_SCHEMA_CLASS"]).
tests/error_contract.py holds the declarations to what the server answers in every API test.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from drf_spectacular.openapi import AutoSchema
from drf_spectacular.utils import OpenApiResponse
from rest_framework import status
from rest_framework.authentication import SessionAuthentication
from rest_framework.permissions import AllowAny

from foundation.api.errors import BODY_BY_ERROR, STATUS_BY_ERROR, ErrorSerializer, status_of

Handler = TypeVar("Handler", bound=Callable[..., Any])


class Throttled(Exception):
    """DRF's throttle (sign-in attempts: accounts.api.throttles), named for `@refuses`."""

    code = "throttled"


def refuses(*errors: type[Exception], rules: bool = True) -> Callable[[Handler], Handler]:
    """Declare on a view's handler (`post`, `get`, ...) what its services raise beyond the
    refusals of its kind, as error classes (their statuses are the table's). `rules=False`:
    a write that checks credentials or ends a session and breaks no rule of the domain (no
    422)."""

    def declare(handler: Handler) -> Handler:
        handler.refusals = errors  # type: ignore[attr-defined]
        handler.breaks_rules = rules  # type: ignore[attr-defined]
        return handler

    return declare


# DRF's own refusals (foundation.api.errors.exception_handler keeps their codes).
DRF_CODES = {
    status.HTTP_400_BAD_REQUEST: ["invalid", "parse_error", "invalid_file", "bad_request"],
    status.HTTP_403_FORBIDDEN: ["not_authenticated", "authentication_failed", "permission_denied"],
    status.HTTP_404_NOT_FOUND: ["not_found"],
    status.HTTP_429_TOO_MANY_REQUESTS: ["throttled"],
}


def codes(answer: int) -> list[str]:
    """The error codes of one status, from the table (and DRF's)."""
    in_schema = {**STATUS_BY_ERROR, Throttled: status.HTTP_429_TOO_MANY_REQUESTS}
    found = DRF_CODES.get(answer, []) + [
        getattr(cls, "code", "") for cls, each in in_schema.items() if each == answer
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


def open_error_bodies(result, generator, request, public):
    """drf-spectacular postprocessing hook: a refusal carries details beyond the named ones
    (`{"error", "message", ...details}`), so the error bodies admit any other property."""
    bodies: list[type] = [ErrorSerializer, *BODY_BY_ERROR.values()]
    for name in dict.fromkeys(body.__name__.removesuffix("Serializer") for body in bodies):
        result["components"]["schemas"][name]["additionalProperties"] = {}
    return result


def body_of(error: type[Exception]) -> type:
    """The body's serializer: the error's own (registered with it), else the error body."""
    for cls in error.__mro__:
        if cls in BODY_BY_ERROR:
            return BODY_BY_ERROR[cls]
    return ErrorSerializer


def status_in_schema(error: type[Exception]) -> int:
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
        raised, breaks_rules = self.declared()
        if self.method in ("POST", "PUT", "PATCH", "DELETE") and breaks_rules:
            answers[status.HTTP_422_UNPROCESSABLE_ENTITY] = ErrorSerializer
        if self.method in ("POST", "PUT", "PATCH", "DELETE"):
            # Every write, while a backup is restored (corefapp/restoring.py).
            answers[status.HTTP_503_SERVICE_UNAVAILABLE] = ErrorSerializer
        for error in raised:
            answers[status_in_schema(error)] = body_of(error)
        return answers

    def declared(self) -> tuple[tuple[type[Exception], ...], bool]:
        """What the handler's `@refuses` declares: the errors, and whether it breaks rules."""
        action = getattr(self.view, "action", None) or self.method.lower()
        handler = getattr(self.view, action, None)
        return getattr(handler, "refusals", ()), getattr(handler, "breaks_rules", True)

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
