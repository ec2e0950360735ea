"""Where annotators' time goes: the admin's report (JSON or CSV), and the workspace's record
of the suggestions it showed (the start of each acceptance latency)."""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.http import content_disposition_header
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from annotation.models import Project
from foundation.api.permissions import AdminView
from reporting.api.serializers.time_report import SuggestionsShownRequest, TimeReport
from reporting.selectors.time_report import project_time_report, time_report_csv
from reporting.services.suggestions_shown import suggestions_shown_record


class ProjectTimeView(AdminView):
    @extend_schema(
        parameters=[OpenApiParameter("format", str, enum=["json", "csv"])],
        responses={(200, "application/json"): TimeReport, (200, "text/csv"): OpenApiTypes.STR},
    )
    def get(self, request, pk: int):
        project = get_object_or_404(Project, pk=pk)
        report = project_time_report(project)
        if request.query_params.get("format") == "csv":
            response = HttpResponse(time_report_csv(report), content_type="text/csv; charset=utf-8")
            response["Content-Disposition"] = content_disposition_header(
                as_attachment=True, filename=f"{project.name}-time.csv"
            )
            return response
        return Response(TimeReport(report).data)


class SuggestionsShownView(APIView):
    """The workspace says which suggestions it showed, and how long ago (not an operation)."""

    @extend_schema(request=SuggestionsShownRequest, responses={204: None})
    def post(self, request, pk: int):
        data = SuggestionsShownRequest(data=request.data)
        data.is_valid(raise_exception=True)
        suggestions_shown_record(
            annotation_id=pk, user=request.user, shown=data.validated_data["shown"]
        )
        return Response(status=204)
