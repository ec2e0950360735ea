"""The admin Models page: backends scored on a project's gold, kept, compared (admins only)."""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.response import Response

from annotation.domain.errors import NotFound
from annotation.models import Project
from foundation.api.permissions import AdminView
from foundation.api.schema import refuses
from modelserve.api.evaluation_serializers import (
    CompareQuery,
    EvaluationChoices,
    EvaluationDetail,
    EvaluationRequest,
    EvaluationRow,
)
from modelserve.evaluation_selectors import (
    evaluation_choices,
    evaluations_by_ids,
    evaluations_csv,
    project_evaluations,
)
from modelserve.models import ModelEvaluation
from modelserve.services.evaluations import model_evaluation_request


class EvaluationChoicesView(AdminView):
    """The backends, model versions and gold sources a project's evaluation can use."""

    @extend_schema(responses=EvaluationChoices)
    def get(self, request, pk: int):
        project = get_object_or_404(Project, pk=pk)
        return Response(EvaluationChoices(evaluation_choices(project)).data)


class ProjectEvaluationsView(AdminView):
    @extend_schema(responses=EvaluationRow(many=True))
    def get(self, request, pk: int):
        project = get_object_or_404(Project, pk=pk)
        return Response(EvaluationRow(project_evaluations(project), many=True).data)

    @extend_schema(request=EvaluationRequest, responses={201: EvaluationDetail})
    def post(self, request, pk: int):
        data = EvaluationRequest(data=request.data)
        data.is_valid(raise_exception=True)
        evaluation = model_evaluation_request(
            project=get_object_or_404(Project, pk=pk), user=request.user, **data.validated_data
        )
        return Response(EvaluationDetail(evaluation).data, status=status.HTTP_201_CREATED)


class EvaluationView(AdminView):
    @extend_schema(responses=EvaluationDetail)
    def get(self, request, pk: int):
        rows = ModelEvaluation.objects.select_related("requested_by", "version")
        evaluation = get_object_or_404(rows, pk=pk)
        return Response(EvaluationDetail(evaluation).data)


class EvaluationsCsvView(AdminView):
    """One evaluation's scores, or two side by side, as CSV (layout: docs/models.md)."""

    # An evaluation the query names (`runs`) that does not exist.
    @refuses(NotFound)
    @extend_schema(
        parameters=[CompareQuery],
        responses={(200, "text/csv"): OpenApiResponse(OpenApiTypes.STR)},
    )
    def get(self, request):
        query = CompareQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        ids = [int(i) for i in query.validated_data["runs"].split(",")]
        found = evaluations_by_ids(ids)
        response = HttpResponse(evaluations_csv(found), content_type="text/csv; charset=utf-8")
        name = "-".join(f"run{i}" for i in ids)
        response["Content-Disposition"] = f'attachment; filename="model-evaluation-{name}.csv"'
        return response
