"""Suggestion endpoints: project settings and backends (admins), runs, suggestions mapped onto
my annotation, bulk acceptance."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from annotation.api.permissions import AdminView
from annotation.models import Project
from annotation.selectors.access import visible_topics
from modelserve.backends import DEFAULT_BACKEND, available_backends
from modelserve.selectors import (
    all_suggestion_settings,
    annotation_suggestions_for,
    project_suggestion_settings,
    topic_runs,
)
from modelserve.services.acceptance import acceptance_by_backend
from modelserve.services.decisions import suggestions_accept_above
from modelserve.services.run_broadcast import run_payload
from modelserve.services.runs import project_runs_request, topic_run_request
from modelserve.services.settings import suggestion_settings_set
from modelserve.workers import model_workers


class RunRequest(serializers.Serializer):
    backend = serializers.ChoiceField(choices=available_backends(), required=False)
    params = serializers.DictField(required=False, default=dict)


class SettingsRequest(serializers.Serializer):
    backend = serializers.ChoiceField(choices=available_backends(), required=False)
    params = serializers.DictField(required=False)


class AcceptAboveRequest(serializers.Serializer):
    expected_version = serializers.IntegerField(min_value=0)
    threshold = serializers.FloatField(min_value=0.0, max_value=1.0)
    kinds = serializers.ListField(
        child=serializers.ChoiceField(choices=["membership", "edge", "link"]),
        default=["membership", "edge", "link"],
    )
    run = serializers.IntegerField(required=False, allow_null=True, default=None)
    client_id = serializers.CharField(required=False, allow_blank=True, max_length=64, default="")


class SuggestionsQuery(serializers.Serializer):
    run = serializers.IntegerField(required=False, allow_null=True, default=None)


def _settings_payload(row) -> dict:
    return {"project": row.project_id, "backend": row.backend, "params": row.params}


class SuggestionBackendsView(AdminView):
    """The suggestion backends a project can name (the project form offers them)."""

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request):
        return Response({"backends": available_backends(), "default": DEFAULT_BACKEND})


class SuggestionSettingsListView(AdminView):
    """Every project's settings (the defaults for a project that never set any)."""

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request):
        return Response([_settings_payload(row) for row in all_suggestion_settings()])


class ProjectSuggestionSettingsView(AdminView):
    """Which backend suggests for the project's topics, with which parameters."""

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, pk: int):
        project = get_object_or_404(Project, pk=pk)
        return Response(_settings_payload(project_suggestion_settings(project.pk)))

    @extend_schema(request=SettingsRequest, responses=OpenApiTypes.OBJECT)
    def put(self, request, pk: int):
        data = SettingsRequest(data=request.data)
        data.is_valid(raise_exception=True)
        row = suggestion_settings_set(
            project=get_object_or_404(Project, pk=pk), **data.validated_data
        )
        return Response(_settings_payload(row))


class TopicRunsView(APIView):
    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, pk: int):
        topic = get_object_or_404(visible_topics(request.user).select_related("project"), pk=pk)
        return Response(topic_runs(topic) | {"model_workers": model_workers()})

    @extend_schema(request=RunRequest, responses=OpenApiTypes.OBJECT)
    def post(self, request, pk: int):
        data = RunRequest(data=request.data)
        data.is_valid(raise_exception=True)
        run = topic_run_request(topic_id=pk, user=request.user, **data.validated_data)
        return Response(
            run_payload(run) | {"model_workers": model_workers()}, status=status.HTTP_201_CREATED
        )


class ProjectRunsView(AdminView):
    @extend_schema(request=RunRequest, responses=OpenApiTypes.OBJECT)
    def post(self, request, pk: int):
        data = RunRequest(data=request.data)
        data.is_valid(raise_exception=True)
        runs = project_runs_request(
            project=get_object_or_404(Project, pk=pk), user=request.user, **data.validated_data
        )
        return Response(
            {"runs": [r.pk for r in runs], "model_workers": model_workers()},
            status=status.HTTP_201_CREATED,
        )


class ProjectAcceptanceView(AdminView):
    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, pk: int):
        return Response(acceptance_by_backend(project_id=get_object_or_404(Project, pk=pk).pk))


class AnnotationSuggestionsView(APIView):
    @extend_schema(parameters=[SuggestionsQuery], responses=OpenApiTypes.OBJECT)
    def get(self, request, pk: int):
        query = SuggestionsQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        return Response(
            annotation_suggestions_for(request.user, pk, run_id=query.validated_data["run"])
        )


class AcceptAboveView(APIView):
    @extend_schema(request=AcceptAboveRequest, responses=OpenApiTypes.OBJECT)
    def post(self, request, pk: int):
        data = AcceptAboveRequest(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        return Response(
            suggestions_accept_above(
                annotation_id=pk,
                user=request.user,
                run_id=v["run"],
                threshold=v["threshold"],
                kinds=v["kinds"],
                expected_version=v["expected_version"],
                client_id=v["client_id"],
            )
        )
