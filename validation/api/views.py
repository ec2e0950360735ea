"""The validation workspace's read (decisions themselves go through the operation endpoints:
a decision is the `validate` operation, logged and undoable like every other)."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from annotation.selectors.access import visible_annotations
from validation.api.serializers import ValidationPayload
from validation.selectors.workspace import validation_payload


class ValidationView(APIView):
    @extend_schema(responses=ValidationPayload)
    def get(self, request, pk: int):
        annotation = get_object_or_404(
            visible_annotations(request.user).select_related("assignment__user", "topic__project"),
            pk=pk,
            topic__project__validation=True,
        )
        return Response(validation_payload(annotation))  # as built, like the workspace's
