"""Admin endpoints for projects: create, read, change, delete, their topics and progress.
Admins only (is_staff)."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response

from annotation.api.serializers.projects import (
    AttributeDefinitionInput,
    ProgressPayload,
    Project,
    TopicRow,
    ValidationReasonInput,
)
from annotation.models import Project as ProjectModel
from annotation.models import Topic
from annotation.selectors.progress import project_progress
from annotation.selectors.projects import project_row, project_rows, project_topics
from annotation.services import projects as project_services
from annotation.services.topic_changes import topic_delete, topic_rename
from foundation.api.permissions import AdminView


class ProjectSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=200)
    hierarchy = serializers.BooleanField(default=True)
    anaphora = serializers.BooleanField(default=False)
    guidelines = serializers.CharField(allow_blank=True, default="", max_length=100_000)
    allow_add_mentions = serializers.BooleanField(default=False)
    allow_fix_spans = serializers.BooleanField(default=False)
    allow_reject_mentions = serializers.BooleanField(default=False)
    single_parent = serializers.BooleanField(default=True)
    refuse_duplicate_link_pairs = serializers.BooleanField(default=False)
    validation = serializers.BooleanField(
        default=False, help_text="accept or reject imported clusters (docs/validation.md)"
    )
    hierarchy_count = serializers.ChoiceField(
        choices=["closure", "raw"],
        default="closure",
        help_text="the primary hierarchy F1: closure (SciCo's, the default) or raw (raw "
        "edges, not SciCo's)",
    )
    suggestions = serializers.BooleanField(
        default=True, help_text="annotators may ask the model for suggestions on real topics"
    )
    in_my_topics = serializers.BooleanField(
        default=True,
        help_text="annotators see their assignments of this project in My topics (an imported "
        "archive's project starts with it off unless chosen at import)",
    )
    validation_reasons = serializers.ListField(
        child=ValidationReasonInput(),
        required=False,
        # 1-3 of them: checked by the service (a length here becomes a tuple type in the
        # generated TypeScript, which a form's list cannot be)
        help_text="a validation project's reasons for a rejection (1-3; default: WEC's three)",
    )
    attributes = serializers.ListField(
        child=AttributeDefinitionInput(),
        required=False,
        help_text="the attributes annotators may set on links and clusters, each a name and "
        "its allowed values (e.g. certainty: high, low)",
    )
    validation_reasons_for = serializers.ChoiceField(
        choices=["concepts", "events"],
        required=False,
        help_text="what a validation project's clusters are, for the reasons without "
        "validation_reasons: scientific concepts (SciCo) or events (WEC's three)",
    )


class ProjectsView(AdminView):
    @extend_schema(responses=Project(many=True), operation_id="projects_list")
    def get(self, request):
        return Response(Project(project_rows(), many=True).data)

    @extend_schema(request=ProjectSerializer, responses={201: Project})
    def post(self, request):
        data = ProjectSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        project = project_services.project_create(**data.validated_data)
        return Response(Project(project_row(project)).data, status=status.HTTP_201_CREATED)


class ProjectView(AdminView):
    @extend_schema(responses=Project)
    def get(self, request, pk: int):
        return Response(Project(project_row(get_object_or_404(ProjectModel, pk=pk))).data)

    @extend_schema(request=ProjectSerializer, responses=Project)
    def patch(self, request, pk: int):
        project = get_object_or_404(ProjectModel, pk=pk)
        data = ProjectSerializer(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        project = project_services.project_update(project=project, **data.validated_data)
        return Response(Project(project_row(project)).data)

    @extend_schema(
        responses={204: None},
        parameters=[
            OpenApiParameter(
                "confirm",
                OpenApiTypes.STR,
                enum=["true"],
                description="true: delete a project that has annotations",
            )
        ],
    )
    def delete(self, request, pk: int):
        project = get_object_or_404(ProjectModel, pk=pk)
        project_services.project_delete(
            project=project, confirm=request.query_params.get("confirm") == "true"
        )
        return Response(status=status.HTTP_204_NO_CONTENT)


class ProjectTopicsView(AdminView):
    @extend_schema(responses=TopicRow(many=True))
    def get(self, request, pk: int):
        topics = project_topics(get_object_or_404(ProjectModel, pk=pk))
        return Response(TopicRow(topics, many=True).data)


class TopicName(serializers.Serializer):
    id = serializers.IntegerField(read_only=True)
    external_id = serializers.CharField(
        max_length=300,
        help_text="the topic's id in its project",
        error_messages={
            "blank": "A topic id cannot be empty.",
            "max_length": "A topic id has at most 300 characters.",
        },
    )


class TopicManageView(AdminView):
    """The Topics page's rename and delete (annotation/services/topic_changes.py)."""

    @extend_schema(request=TopicName, responses=TopicName)
    def patch(self, request, pk: int):
        data = TopicName(data=request.data)
        data.is_valid(raise_exception=True)
        topic = topic_rename(
            topic=get_object_or_404(Topic, pk=pk), external_id=data.validated_data["external_id"]
        )
        return Response(TopicName(topic).data)

    @extend_schema(responses={204: None})
    def delete(self, request, pk: int):
        """Refused (422, naming the work) while the topic has work."""
        topic_delete(topic=get_object_or_404(Topic, pk=pk))
        return Response(status=status.HTTP_204_NO_CONTENT)


class ProjectProgressView(AdminView):
    @extend_schema(responses=ProgressPayload)
    def get(self, request, pk: int):
        progress = project_progress(get_object_or_404(ProjectModel, pk=pk))
        return Response(ProgressPayload(progress).data)
