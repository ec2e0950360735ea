"""Suggestion endpoints: request runs, read suggestions mapped onto my annotation, accept in bulk."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import PermissionDenied
from rest_framework.response import Response
from rest_framework.views import APIView

from annotation.api.views.manage import AdminView
from annotation.api.views.workspace import _editable_annotation
from annotation.models import Assignment, Project, Topic
from annotation.selectors.access import is_admin, visible_annotations, visible_topics
from modelserve.backends import available_backends
from modelserve.models import SuggestionRun
from modelserve.selectors import annotation_suggestions, latest_run
from modelserve.services.acceptance import acceptance_by_backend
from modelserve.services.decisions import suggestions_accept_above
from modelserve.services.run_broadcast import run_payload
from modelserve.services.runs import suggestion_run_request
from modelserve.workers import model_workers


class RunRequest(serializers.Serializer):
    backend = serializers.ChoiceField(choices=available_backends(), required=False)
    params = serializers.DictField(required=False, default=dict)


class AcceptAboveRequest(serializers.Serializer):
    expected_version = serializers.IntegerField(min_value=0)
    threshold = serializers.FloatField(min_value=0.0, max_value=1.0)
    kinds = serializers.ListField(
        child=serializers.ChoiceField(choices=["membership", "edge", "link"]),
        default=["membership", "edge", "link"],
    )
    run = serializers.IntegerField(required=False)
    client_id = serializers.CharField(required=False, allow_blank=True, max_length=64, default="")


def _runs_answer(topic: Topic) -> dict:
    runs = SuggestionRun.objects.filter(topic=topic).order_by("-created_at")[:20]
    return {"runs": [run_payload(r) for r in runs], "model_workers": model_workers()}


class TopicRunsView(APIView):
    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, pk: int):
        return Response(_runs_answer(get_object_or_404(visible_topics(request.user), pk=pk)))

    @extend_schema(request=RunRequest, responses=OpenApiTypes.OBJECT)
    def post(self, request, pk: int):
        topic = get_object_or_404(visible_topics(request.user).select_related("project"), pk=pk)
        if (
            not is_admin(request.user)
            and not Assignment.objects.filter(topic=topic, user=request.user).exists()
        ):
            raise PermissionDenied(
                "Only the topic's annotators and admins can ask for suggestions."
            )
        data = RunRequest(data=request.data)
        data.is_valid(raise_exception=True)
        run = suggestion_run_request(topic=topic, user=request.user, **data.validated_data)
        return Response(
            run_payload(run) | {"model_workers": model_workers()}, status=status.HTTP_201_CREATED
        )


class ProjectRunsView(AdminView):
    @extend_schema(request=RunRequest, responses=OpenApiTypes.OBJECT)
    def post(self, request, pk: int):
        project = get_object_or_404(Project, pk=pk)
        data = RunRequest(data=request.data)
        data.is_valid(raise_exception=True)
        runs = [
            suggestion_run_request(topic=t, user=request.user, **data.validated_data)
            for t in project.topics.select_related("project")
        ]
        return Response(
            {"runs": [r.pk for r in runs], "model_workers": model_workers()},
            status=status.HTTP_201_CREATED,
        )


class ProjectAcceptanceView(AdminView):
    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, pk: int):
        return Response(acceptance_by_backend(project_id=get_object_or_404(Project, pk=pk).pk))


class AnnotationSuggestionsView(APIView):
    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, pk: int):
        annotation = get_object_or_404(
            visible_annotations(request.user).select_related("topic__project"), pk=pk
        )
        run = None
        if request.query_params.get("run"):
            run = get_object_or_404(
                SuggestionRun,
                pk=request.query_params["run"],
                topic_id=annotation.topic_id,
                status=SuggestionRun.Status.SUCCEEDED,
            )
        return Response(annotation_suggestions(annotation, run))


class AcceptAboveView(APIView):
    @extend_schema(request=AcceptAboveRequest, responses=OpenApiTypes.OBJECT)
    def post(self, request, pk: int):
        annotation = _editable_annotation(request, pk)
        data = AcceptAboveRequest(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        if v.get("run"):
            run = get_object_or_404(
                SuggestionRun,
                pk=v["run"],
                topic_id=annotation.topic_id,
                status=SuggestionRun.Status.SUCCEEDED,
            )
        else:
            run = latest_run(annotation.topic_id)
        if run is None:
            return Response(
                {
                    "error": "no_suggestions",
                    "message": "No finished suggestion run for this topic.",
                },
                status=status.HTTP_404_NOT_FOUND,
            )
        return Response(
            suggestions_accept_above(
                annotation_id=annotation.pk,
                user=request.user,
                run=run,
                threshold=v["threshold"],
                kinds=v["kinds"],
                expected_version=v["expected_version"],
                client_id=v["client_id"],
            )
        )
