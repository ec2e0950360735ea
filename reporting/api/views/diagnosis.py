"""GET /api/projects/<id>/agreement/diagnosis/?topic=<external id>[&gold=1][&annotator=]
[&format=csv]: what the annotations of one topic disagree on (docs/diagnosis.md)."""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.http import content_disposition_header
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework.response import Response

from annotation.models import Project
from foundation.api.permissions import AdminView
from foundation.api.schema import refuses
from reporting.api.serializers.diagnosis import DiagnosisPayload, DiagnosisQuery
from reporting.errors import DiagnosisRefused
from reporting.selectors.diagnosis import diagnosis_csv, topic_diagnosis


class DiagnosisView(AdminView):
    # No gold yet, an annotator who has not submitted the topic, fewer than two sides.
    @refuses(DiagnosisRefused)
    @extend_schema(
        parameters=[DiagnosisQuery],
        responses={
            (200, "application/json"): DiagnosisPayload,
            (200, "text/csv"): OpenApiTypes.STR,
        },
    )
    def get(self, request, pk: int):
        project = get_object_or_404(Project, pk=pk)
        query = DiagnosisQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        result = topic_diagnosis(
            project,
            query.validated_data["topic"],
            gold=query.validated_data["gold"],
            annotator=query.validated_data["annotator"],
        )
        if query.validated_data["format"] == "csv":
            response = HttpResponse(diagnosis_csv(result), content_type="text/csv; charset=utf-8")
            name = f"{project.name}-{result['topic']['external_id']}-diagnosis.csv"
            response["Content-Disposition"] = content_disposition_header(
                as_attachment=True, filename=name
            )
            return response
        return Response(DiagnosisPayload(result).data)
