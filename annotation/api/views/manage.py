"""Admin endpoints: projects, users, assignments, progress. Admins only (is_staff)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response

from annotation.api.permissions import AdminView
from annotation.models import Assignment, Project
from annotation.selectors.manage import (
    assignment_rows,
    project_row,
    project_rows,
    project_topics,
    users_by_name,
)
from annotation.selectors.progress import project_progress
from annotation.services import assignment_bulk
from annotation.services import assignments as assignment_services
from annotation.services import projects as project_services


class ProjectSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=200)
    hierarchy = serializers.BooleanField(default=True)
    anaphora = serializers.BooleanField(default=False)
    guidelines = serializers.CharField(allow_blank=True, default="")
    allow_add_mentions = serializers.BooleanField(default=False)
    allow_fix_spans = serializers.BooleanField(default=False)
    allow_reject_mentions = serializers.BooleanField(default=False)
    single_parent = serializers.BooleanField(default=True)


class ProjectsView(AdminView):
    @extend_schema(responses=OpenApiTypes.OBJECT, operation_id="projects_list")
    def get(self, request):
        return Response(project_rows())

    @extend_schema(request=ProjectSerializer, responses=OpenApiTypes.OBJECT)
    def post(self, request):
        data = ProjectSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        project = project_services.project_create(**data.validated_data)
        return Response(project_row(project), status=status.HTTP_201_CREATED)


class ProjectView(AdminView):
    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, pk: int):
        return Response(project_row(get_object_or_404(Project, pk=pk)))

    @extend_schema(request=ProjectSerializer, responses=OpenApiTypes.OBJECT)
    def patch(self, request, pk: int):
        project = get_object_or_404(Project, pk=pk)
        data = ProjectSerializer(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        return Response(
            project_row(project_services.project_update(project=project, **data.validated_data))
        )

    @extend_schema(responses={204: None})
    def delete(self, request, pk: int):
        project = get_object_or_404(Project, pk=pk)
        project_services.project_delete(
            project=project, confirm=request.query_params.get("confirm") == "true"
        )
        return Response(status=status.HTTP_204_NO_CONTENT)


class ProjectTopicsView(AdminView):
    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, pk: int):
        return Response(project_topics(get_object_or_404(Project, pk=pk)))


class ProjectProgressView(AdminView):
    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, pk: int):
        return Response(project_progress(get_object_or_404(Project, pk=pk)))


class UserSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(min_length=4, write_only=True)
    is_admin = serializers.BooleanField(default=False)


class UserUpdateSerializer(serializers.Serializer):
    password = serializers.CharField(min_length=4, required=False)
    is_admin = serializers.BooleanField(required=False)
    is_active = serializers.BooleanField(required=False)


def _user_row(user) -> dict:
    return {
        "id": user.pk,
        "username": user.username,
        "is_admin": user.is_staff,
        "is_active": user.is_active,
        "last_login": user.last_login,
    }


class UsersView(AdminView):
    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request):
        return Response([_user_row(u) for u in users_by_name()])

    @extend_schema(request=UserSerializer, responses=OpenApiTypes.OBJECT)
    def post(self, request):
        data = UserSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        return Response(
            _user_row(project_services.user_create(**data.validated_data)),
            status=status.HTTP_201_CREATED,
        )


class UserView(AdminView):
    @extend_schema(request=UserUpdateSerializer, responses=OpenApiTypes.OBJECT)
    def patch(self, request, pk: int):
        user = get_object_or_404(get_user_model(), pk=pk)
        data = UserUpdateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        return Response(
            _user_row(
                project_services.user_update(
                    user=user, acting_user=request.user, **data.validated_data
                )
            )
        )


class AssignmentsQuery(serializers.Serializer):
    project = serializers.IntegerField(required=False, allow_null=True)
    user = serializers.IntegerField(required=False, allow_null=True)
    topic = serializers.IntegerField(required=False, allow_null=True)


class AssignRequest(serializers.Serializer):
    project = serializers.IntegerField()
    topics = serializers.ListField(child=serializers.IntegerField(), allow_empty=False)
    users = serializers.ListField(child=serializers.IntegerField(), allow_empty=False)
    mode = serializers.ChoiceField(
        choices=["all", "balanced"],
        default="all",
        help_text="all: every topic to every user; balanced: k per overlap topic, 1 else",
    )
    k = serializers.IntegerField(min_value=1, default=1)
    overlap = serializers.ListField(child=serializers.IntegerField(), default=list)
    role = serializers.ChoiceField(
        choices=Assignment.Role.choices, default=Assignment.Role.ANNOTATOR
    )


class AssignmentsView(AdminView):
    @extend_schema(parameters=[AssignmentsQuery], responses=OpenApiTypes.OBJECT)
    def get(self, request):
        query = AssignmentsQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        return Response(
            assignment_rows(
                project_id=query.validated_data.get("project"),
                user_id=query.validated_data.get("user"),
                topic_id=query.validated_data.get("topic"),
            )
        )

    @extend_schema(request=AssignRequest, responses=OpenApiTypes.OBJECT)
    def post(self, request):
        data = AssignRequest(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        created = assignment_bulk.assignments_assign(
            project_id=v["project"],
            topic_ids=v["topics"],
            user_ids=v["users"],
            mode=v["mode"],
            k=v["k"],
            overlap=v["overlap"],
            role=v["role"],
        )
        return Response({"created": created}, status=status.HTTP_201_CREATED)


class ReassignRequest(serializers.Serializer):
    user = serializers.IntegerField()
    discard_work = serializers.BooleanField(default=False)


class AssignmentReassignView(AdminView):
    @extend_schema(request=ReassignRequest, responses=OpenApiTypes.OBJECT)
    def post(self, request, pk: int):
        data = ReassignRequest(data=request.data)
        data.is_valid(raise_exception=True)
        get_object_or_404(Assignment, pk=pk)
        user = get_object_or_404(get_user_model(), pk=data.validated_data["user"])
        assignment = assignment_services.assignment_reassign(
            assignment_id=pk, user=user, discard_work=data.validated_data["discard_work"]
        )
        return Response(
            {"id": assignment.pk, "user": assignment.user_id, "status": assignment.status}
        )


class AssignmentReopenView(AdminView):
    @extend_schema(request=None, responses=OpenApiTypes.OBJECT)
    def post(self, request, pk: int):
        get_object_or_404(Assignment, pk=pk)
        assignment = assignment_services.assignment_reopen(assignment_id=pk)
        return Response({"id": assignment.pk, "status": assignment.status})


class AssignmentView(AdminView):
    @extend_schema(responses={204: None})
    def delete(self, request, pk: int):
        get_object_or_404(Assignment, pk=pk)
        assignment_services.assignment_delete(
            assignment_id=pk, discard_work=request.query_params.get("discard_work") == "true"
        )
        return Response(status=status.HTTP_204_NO_CONTENT)


class BulkRequest(serializers.Serializer):
    action = serializers.ChoiceField(choices=["delete", "reopen"])
    assignments = serializers.ListField(
        child=serializers.IntegerField(), allow_empty=False, max_length=100_000
    )
    discard_work = serializers.BooleanField(
        default=False, help_text="delete: also assignments with work in them"
    )


class AssignmentsBulkView(AdminView):
    """Delete or reopen many assignments in one set-based request (all or nothing)."""

    @extend_schema(request=BulkRequest, responses=OpenApiTypes.OBJECT)
    def post(self, request):
        data = BulkRequest(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        count = assignment_bulk.assignments_bulk_action(
            action=v["action"], assignment_ids=v["assignments"], discard_work=v["discard_work"]
        )
        return Response({"action": v["action"], "count": count})
