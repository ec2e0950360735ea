"""GET /api/annotations/<id>/timeline/: an annotation's history, for admins."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework.response import Response

from annotation.models import Annotation
from foundation.api.permissions import AdminView
from reporting.api.serializers.timeline import Timeline
from reporting.selectors.timeline import annotation_timeline


class AnnotationTimelineView(AdminView):
    @extend_schema(responses=Timeline)
    def get(self, request, pk: int):
        annotation = get_object_or_404(
            Annotation.objects.select_related("assignment__user", "topic__project"), pk=pk
        )
        return Response(Timeline(annotation_timeline(annotation)).data)
