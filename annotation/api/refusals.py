"""The statuses of the core's refusals (and of the pure domain's), given to the platform's
one table (foundation.api.errors.register) when the app is ready.

The errors themselves know nothing of HTTP; this is where the core says what each one is.
Other apps' errors that extend these (modelserve.errors.RunAlreadyActive is a Conflict) get
the same status without registering anything.
"""

from __future__ import annotations

from rest_framework import serializers, status

from annotation import errors as service
from annotation.domain import errors as domain
from foundation.api.errors import ErrorSerializer

STATUS_BY_ERROR: dict[type[Exception], int] = {
    service.VersionConflict: status.HTTP_409_CONFLICT,
    domain.NotFound: status.HTTP_404_NOT_FOUND,
    domain.NotAllowed: status.HTTP_403_FORBIDDEN,
    domain.InvalidOperation: status.HTTP_400_BAD_REQUEST,
    service.AnnotationLocked: status.HTTP_423_LOCKED,
    service.ImportRefused: status.HTTP_400_BAD_REQUEST,
    service.NotYours: status.HTTP_403_FORBIDDEN,
    service.Forbidden: status.HTTP_403_FORBIDDEN,
    service.UploadTooLarge: status.HTTP_413_REQUEST_ENTITY_TOO_LARGE,
    service.AssignmentTargetsNotFound: status.HTTP_404_NOT_FOUND,
    service.ServiceUnavailable: status.HTTP_503_SERVICE_UNAVAILABLE,
    service.Conflict: status.HTTP_409_CONFLICT,
    # Any other refusal of the domain is a rule the operation would break: the request was
    # well-formed but cannot be applied. Last, so it is only the fallback of the walk up.
    domain.DomainError: status.HTTP_422_UNPROCESSABLE_ENTITY,
}


class VersionConflictSerializer(ErrorSerializer):
    """409 version_conflict: the edit was planned against a version that is no longer the
    annotation's; nothing was changed. The operation queue drops what is queued and reloads."""

    expected_version = serializers.IntegerField()
    current_version = serializers.IntegerField()


BODY_BY_ERROR: dict[type[Exception], type[serializers.Serializer]] = {
    service.VersionConflict: VersionConflictSerializer,
}

# What every change of an annotation can be refused with beyond the refusals of its kind
# (an operation, undo, redo, the suggestions app's accept-above): `@refuses(*EDIT)`.
EDIT: tuple[type[Exception], ...] = (
    service.VersionConflict,
    service.AnnotationLocked,
    service.NotYours,
    domain.DomainError,  # any rule the change would break
)
