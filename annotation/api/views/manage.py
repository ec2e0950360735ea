"""Admin endpoints: projects, users, assignments, progress. Admins only (is_staff)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db.models import Count
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response

from annotation.api.permissions import AdminView
from annotation.models import Assignment, Project, Topic
from annotation.selectors.progress import project_progress
from annotation.selectors.workspace import assignments_payload, project_payload
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


def _project_row(project: Project) -> dict:
    topics = getattr(project, "topic_count", None)
    return project_payload(project) | {
        "topics": project.topics.count() if topics is None else topics
    }


class ProjectsView(AdminView):
    @extend_schema(responses=OpenApiTypes.OBJECT, operation_id="projects_list")
    def get(self, request):
        projects = Project.objects.annotate(topic_count=Count("topics")).order_by("name")
        return Response([_project_row(p) for p in projects])

    @extend_schema(request=ProjectSerializer, responses=OpenApiTypes.OBJECT)
    def post(self, request):
        data = ProjectSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        project = project_services.project_create(**data.validated_data)
        return Response(_project_row(project), status=status.HTTP_201_CREATED)


class ProjectView(AdminView):
    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, pk: int):
        return Response(_project_row(get_object_or_404(Project, pk=pk)))

    @extend_schema(request=ProjectSerializer, responses=OpenApiTypes.OBJECT)
    def patch(self, request, pk: int):
        project = get_object_or_404(Project, pk=pk)
        data = ProjectSerializer(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        return Response(
            _project_row(project_services.project_update(project=project, **data.validated_data))
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
        project = get_object_or_404(Project, pk=pk)
        rows = (
            Topic.objects.filter(project=project)
            .order_by("position", "id")
            .values("id", "external_id", "source", "position")
        )
        return Response(list(rows))


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
        return Response([_user_row(u) for u in get_user_model().objects.order_by("username")])

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
    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request):
        rows = Assignment.objects.all()
        for field in ("project", "user", "topic"):
            value = request.query_params.get(field)
            if value:
                rows = rows.filter(
                    **{"topic__project_id" if field == "project" else f"{field}_id": value}
                )
        return Response(
            assignments_payload(rows.order_by("topic__position", "topic_id", "user__username"))
        )

    @extend_schema(request=AssignRequest, responses=OpenApiTypes.OBJECT)
    def post(self, request):
        data = AssignRequest(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        topics = list(Topic.objects.filter(project_id=v["project"], pk__in=v["topics"]))
        users = list(get_user_model().objects.filter(pk__in=v["users"], is_active=True))
        missing = set(v["topics"]) - {t.pk for t in topics}
        if missing or len(users) != len(set(v["users"])):
            return Response(
                {
                    "error": "not_found",
                    "message": "Some topics are not in this project or some users "
                    "do not exist or are inactive.",
                    "topics": sorted(missing),
                },
                status=404,
            )
        if v["mode"] == "balanced":
            by_id = {t.pk: t for t in topics}
            overlap = [by_id[t] for t in v["overlap"] if t in by_id]
            created = assignment_services.assignments_balanced_create(
                topics=sorted(topics, key=lambda t: v["topics"].index(t.pk)),
                annotators=sorted(users, key=lambda u: v["users"].index(u.pk)),
                k=v["k"],
                overlap=overlap,
            )
        else:
            created = assignment_services.assignments_bulk_create(
                topics=topics, users=users, role=v["role"]
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
        ids = list(dict.fromkeys(v["assignments"]))
        if v["action"] == "delete":
            count = assignment_bulk.assignments_delete(
                assignment_ids=ids, discard_work=v["discard_work"]
            )
        else:
            count = assignment_bulk.assignments_reopen(assignment_ids=ids)
        return Response({"action": v["action"], "count": count})
