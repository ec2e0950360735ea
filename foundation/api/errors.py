"""The one place where refusals become HTTP answers, for every app.

Every refusal is JSON `{"error": code, "message": text, ...details}` so the interface can
show the message as it is and scripts can branch on the code.

The apps' errors know nothing of HTTP (the pure domain's least of all), and this layer
imports no app: so each app gives its refusals' statuses to `register` from its
AppConfig.ready() (annotation/api/refusals.py, accounts/apps.py), and the one table below is
what they registered. A refusal is any exception of a registered class (or a subclass of
one, which gets the nearest registered status) with a `code` and a `to_dict()`. The format
readers' FormatErrors (corefscore, below this layer) are mapped here directly.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol, TypeGuard

from django.conf import settings
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig
from django.http import Http404, JsonResponse
from django.urls import Resolver404, resolve
from django.views import defaults
from django.views.decorators.csrf import csrf_exempt
from rest_framework import exceptions, serializers, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from corefscore.formats.errors import FormatErrors


class Refusal(Protocol):
    """What a registered error is: a code a script branches on and the JSON body."""

    code: str

    def to_dict(self) -> dict[str, Any]: ...


# Every registered refusal class -> its status, in the order the apps registered them (the
# schema lists each status's codes in this order).
STATUS_BY_ERROR: dict[type[Exception], int] = {}
# A refusal whose body carries more than the error body (the schema names it): class ->
# its serializer, a subclass of ErrorSerializer.
BODY_BY_ERROR: dict[type[Exception], type[serializers.Serializer]] = {}


def register(
    statuses: Mapping[type[Exception], int],
    *,
    bodies: Mapping[type[Exception], type[serializers.Serializer]] | None = None,
) -> None:
    """An app's refusals with their statuses (and any body of their own); from its ready()."""
    STATUS_BY_ERROR.update(statuses)
    BODY_BY_ERROR.update(bodies or {})


def status_for(error: object) -> int:
    return status_of(type(error))


def status_of(error: type) -> int:
    for cls in error.__mro__:
        if cls in STATUS_BY_ERROR:
            return STATUS_BY_ERROR[cls]
    raise LookupError(f"{error.__name__} is not a registered refusal")


def is_refusal(error: object) -> TypeGuard[Refusal]:
    return any(cls in STATUS_BY_ERROR for cls in type(error).__mro__)


# The bodies, as the schema states them (foundation/api/schema.py lists them under every
# operation's 4xx answers, so the frontend's error types are generated).


class ErrorSerializer(serializers.Serializer):
    """Every refusal: what `exception_handler` and the views below answer. The details differ
    by code; those a client reads are named here, any other may follow."""

    error = serializers.CharField(help_text="A short snake_case code a script can branch on.")
    message = serializers.CharField(help_text="What went wrong, in the annotator's words.")
    field = serializers.CharField(
        required=False, help_text="The operation field that was refused (invalid_operation)."
    )
    retry_after = serializers.FloatField(
        required=False, allow_null=True, help_text="Seconds to wait (throttled)."
    )

    def get_fields(self):
        # `fields` and `errors` are names a Serializer uses itself: added here, not declared.
        return {
            **super().get_fields(),
            "fields": serializers.DictField(
                required=False,
                child=serializers.JSONField(),
                help_text="Each refused request field with its messages (invalid).",
            ),
            "errors": serializers.ListField(
                required=False,
                child=serializers.CharField(),
                help_text="Each problem found in an uploaded file (invalid_file, import_refused).",
            ),
        }


def too_large_body() -> dict:
    return {
        "error": "too_large",
        "message": (
            f"The request body is larger than the {settings.DATA_UPLOAD_MAX_MEMORY_SIZE:,}-byte "
            "limit (MAX_REQUEST_BYTES)."
        ),
    }


def exception_handler(exc, context):
    if isinstance(exc, RequestDataTooBig):
        return Response(too_large_body(), status=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE)
    if is_refusal(exc):
        return Response(exc.to_dict(), status=status_for(exc))
    if isinstance(exc, FormatErrors):
        return Response(
            {
                "error": "invalid_file",
                "message": str(exc).splitlines()[0],
                "errors": [str(e) for e in exc.errors],
            },
            status=status.HTTP_400_BAD_REQUEST,
        )
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is not None and isinstance(exc, exceptions.APIException):
        detail = response.data
        message = (
            detail.get("detail") if isinstance(detail, dict) and "detail" in detail else detail
        )
        body = {
            "error": exc.get_codes() if isinstance(exc.get_codes(), str) else "invalid",
            "message": str(message) if not isinstance(message, (dict, list)) else "Invalid input.",
        }
        if isinstance(detail, dict) and "detail" not in detail:
            body["fields"] = detail
        if isinstance(exc, exceptions.Throttled):
            # Set in Throttled.__init__; djangorestframework-stubs leave it out.
            body["retry_after"] = exc.wait  # type: ignore[attr-defined]
        response.data = body
    return response


# Answers Django gives outside DRF's views (corefapp/urls.py names them): under /api/ they are
# JSON like every other refusal of the API.


def _api(request) -> bool:
    return request.path.startswith("/api/")


@csrf_exempt
def api_not_found(request, path: str = ""):
    """Any /api/ path no endpoint answers (whatever the method: no CSRF check to fail)."""
    message = f"There is no API endpoint at {request.path}."
    if not request.path.endswith("/") and _endpoint(request.path + "/"):
        message += f" API paths end with a slash: {request.path}/"
    return JsonResponse({"error": "not_found", "message": message}, status=404)


def _endpoint(path: str) -> bool:
    try:
        return resolve(path).func is not api_not_found
    except Resolver404:
        return False


def bad_request(request, exception):
    """Django refused the request before a view ran: a body over DATA_UPLOAD_MAX_MEMORY_SIZE
    (read by a middleware: 413), too many form fields, a malformed multipart body."""
    if isinstance(exception, RequestDataTooBig):
        return JsonResponse(too_large_body(), status=413)
    if _api(request):
        return JsonResponse({"error": "bad_request", "message": str(exception)}, status=400)
    return defaults.bad_request(request, exception)


def not_found(request, exception):
    if _api(request):
        return api_not_found(request)
    return defaults.page_not_found(request, exception)


def server_error(request):
    if _api(request):
        return JsonResponse(
            {"error": "server_error", "message": "The server failed; the error is logged."},
            status=500,
        )
    return defaults.server_error(request)
