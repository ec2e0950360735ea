"""Admin endpoints: projects, users, assignments, progress. Admins only (is_staff)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response

from annotation.api.permissions import AdminView
from adjudication.api.serializers.bulk import AdjudicateRequest, AdjudicationsCreated
from annotation.api.serializers.fields import EnumField
from annotation.api.serializers.projects import (
    AssignmentReassigned,
    AssignmentReopened,
    AssignmentsCreated,
    BulkDone,
    ProgressPayload,
    Project,
    TopicRow,
    UserRow,
)
from annotation.api.serializers.workspace import AssignmentRow, assignment_role
from annotation.models import Assignment
from annotation.models import Project as ProjectModel
from annotation.selectors.projects import (
    assignment_rows,
    project_row,
    project_rows,
    project_topics,
    users_by_name,
)
from annotation.selectors.progress import project_progress
from annotation.services import adjudication_bulk, assignment_bulk
from annotation.services import assignments as assignment_services
from annotation.services import projects as project_services
from accounts.services.sessions import session_keep


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

    @extend_schema(responses={204: None})
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


class ProjectProgressView(AdminView):
    @extend_schema(responses=ProgressPayload)
    def get(self, request, pk: int):
        progress = project_progress(get_object_or_404(ProjectModel, pk=pk))
        return Response(ProgressPayload(progress).data)


PASSWORD_RULES = (
    "at least 10 characters, not a common password, not all digits, not like the username; "
    "a new password signs the user out everywhere and revokes their API tokens"
)


class UserSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150, help_text="letters, digits and @ . + - _ only")
    password = serializers.CharField(max_length=1024, write_only=True, help_text=PASSWORD_RULES)
    is_admin = serializers.BooleanField(default=False)


class UserUpdateSerializer(serializers.Serializer):
    password = serializers.CharField(max_length=1024, required=False, help_text=PASSWORD_RULES)
    is_admin = serializers.BooleanField(required=False)
    is_active = serializers.BooleanField(required=False)


class UsersView(AdminView):
    @extend_schema(responses=UserRow(many=True))
    def get(self, request):
        return Response(UserRow(users_by_name(), many=True).data)

    @extend_schema(request=UserSerializer, responses={201: UserRow})
    def post(self, request):
        data = UserSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        user = project_services.user_create(**data.validated_data)
        return Response(UserRow(user).data, status=status.HTTP_201_CREATED)


class UserView(AdminView):
    @extend_schema(request=UserUpdateSerializer, responses=UserRow)
    def patch(self, request, pk: int):
        user = get_object_or_404(get_user_model(), pk=pk)
        data = UserUpdateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        user = project_services.user_update(
            user=user, acting_user=request.user, **data.validated_data
        )
        if "password" in data.validated_data and user.pk == request.user.pk:
            session_keep(request=request, user=user)
        return Response(UserRow(user).data)


class AssignmentsQuery(serializers.Serializer):
    project = serializers.IntegerField(required=False, allow_null=True)
    user = serializers.IntegerField(required=False, allow_null=True)
    topic = serializers.IntegerField(required=False, allow_null=True)


class AssignRequest(serializers.Serializer):
    project = serializers.IntegerField()
    topics = serializers.ListField(child=serializers.IntegerField(), allow_empty=False)
    users = serializers.ListField(child=serializers.IntegerField(), allow_empty=False)
    mode = EnumField(
        "AssignMode",
        ("all", "balanced"),
        default="all",
        help_text="all: every topic to every user; balanced: k per overlap topic, 1 else",
    )
    k = serializers.IntegerField(min_value=1, default=1)
    overlap = serializers.ListField(child=serializers.IntegerField(), default=list)
    role = assignment_role(default=Assignment.Role.ANNOTATOR)


class AssignmentsView(AdminView):
    @extend_schema(parameters=[AssignmentsQuery], responses=AssignmentRow(many=True))
    def get(self, request):
        query = AssignmentsQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        rows = assignment_rows(
            project_id=query.validated_data.get("project"),
            user_id=query.validated_data.get("user"),
            topic_id=query.validated_data.get("topic"),
        )
        return Response(AssignmentRow(rows, many=True).data)

    @extend_schema(request=AssignRequest, responses={201: AssignmentsCreated})
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
        return Response(
            AssignmentsCreated({"created": created}).data, status=status.HTTP_201_CREATED
        )


class ReassignRequest(serializers.Serializer):
    user = serializers.IntegerField()
    discard_work = serializers.BooleanField(default=False)


class AssignmentReassignView(AdminView):
    @extend_schema(request=ReassignRequest, responses=AssignmentReassigned)
    def post(self, request, pk: int):
        data = ReassignRequest(data=request.data)
        data.is_valid(raise_exception=True)
        get_object_or_404(Assignment, pk=pk)
        user = get_object_or_404(get_user_model(), pk=data.validated_data["user"])
        assignment = assignment_services.assignment_reassign(
            assignment_id=pk, user=user, discard_work=data.validated_data["discard_work"]
        )
        return Response(AssignmentReassigned(assignment).data)


class AssignmentReopenView(AdminView):
    @extend_schema(request=None, responses=AssignmentReopened)
    def post(self, request, pk: int):
        get_object_or_404(Assignment, pk=pk)
        assignment = assignment_services.assignment_reopen(assignment_id=pk)
        return Response(AssignmentReopened(assignment).data)


class AssignmentView(AdminView):
    @extend_schema(responses={204: None})
    def delete(self, request, pk: int):
        get_object_or_404(Assignment, pk=pk)
        assignment_services.assignment_delete(
            assignment_id=pk, discard_work=request.query_params.get("discard_work") == "true"
        )
        return Response(status=status.HTTP_204_NO_CONTENT)


class BulkRequest(serializers.Serializer):
    action = EnumField("BulkAction", ("delete", "reopen"))
    assignments = serializers.ListField(
        child=serializers.IntegerField(), allow_empty=False, max_length=100_000
    )
    discard_work = serializers.BooleanField(
        default=False, help_text="delete: also assignments with work in them"
    )


class AssignmentsBulkView(AdminView):
    """Delete or reopen many assignments in one set-based request (all or nothing)."""

    @extend_schema(request=BulkRequest, responses=BulkDone)
    def post(self, request):
        data = BulkRequest(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        count = assignment_bulk.assignments_bulk_action(
            action=v["action"], assignment_ids=v["assignments"], discard_work=v["discard_work"]
        )
        return Response(BulkDone({"action": v["action"], "count": count}).data)


class AdjudicationsView(AdminView):
    """Seeded adjudication assignments for many topics (all or nothing)."""

    @extend_schema(request=AdjudicateRequest, responses={201: AdjudicationsCreated})
    def post(self, request):
        data = AdjudicateRequest(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        get_object_or_404(ProjectModel, pk=v["project"])
        created = adjudication_bulk.adjudications_assign(
            project_id=v["project"],
            user_id=v["user"],
            seed=v["seed"],
            threshold=v["threshold"],
            topic_pks=v["topics"],
            submit=v["submit"],
        )
        return Response(AdjudicationsCreated(created).data, status=status.HTTP_201_CREATED)
