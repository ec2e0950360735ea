"""GET /api/projects/<id>/agreement/[?format=csv|zip]: a project's inter-annotator agreement
report (docs/agreement-csv.md), as JSON, as the pairs' CSV table the `agreement --csv`
command writes, or as every table of the report in a zip (`agreement --zip`)."""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.http import content_disposition_header
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.response import Response

from annotation.models import Project
from foundation.api.permissions import AdminView
from reporting.api.serializers.agreement import AgreementReport
from reporting.selectors.agreement import agreement_csv, project_agreement
from reporting.selectors.agreement_files import agreement_zip


class AgreementView(AdminView):
    @extend_schema(
        parameters=[OpenApiParameter("format", str, enum=["json", "csv", "zip"])],
        responses={
            (200, "application/json"): AgreementReport,
            (200, "text/csv"): OpenApiTypes.STR,
            (200, "application/zip"): OpenApiTypes.BINARY,
        },
    )
    def get(self, request, pk: int):
        project = get_object_or_404(Project, pk=pk)
        result = project_agreement(project)
        if request.query_params.get("format") == "zip":
            response = HttpResponse(agreement_zip(result), content_type="application/zip")
            response["Content-Disposition"] = content_disposition_header(
                as_attachment=True, filename=f"{project.name}-agreement.zip"
            )
            return response
        if request.query_params.get("format") == "csv":
            response = HttpResponse(agreement_csv(result), content_type="text/csv; charset=utf-8")
            response["Content-Disposition"] = content_disposition_header(
                as_attachment=True, filename=f"{project.name}-agreement.csv"
            )
            return response
        return Response(AgreementReport(result).data)
